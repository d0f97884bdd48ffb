//! What the benches on a book's race positions share (`bench rebuild`, `bench skill`): the
//! positions chosen, each side seen as the bot sees it on its turn, and the table of what a
//! search found on both sides of every position.

use std::path::PathBuf;
use std::time::Instant;

use crate::book::{Position, PositionKind};
use crate::protocol::PlayerInput;
use crate::rules::{Field, Packs};
use crate::state;
use crate::Engine;

/// Turns from the position the best result is reported within.
pub const WITHIN: [usize; 5] = [4, 6, 8, 10, 12];

/// Which positions a book bench searches, and on how many threads.
#[derive(Clone, Debug, clap::Args)]
pub struct BookBenchArgs {
    /// Books of positions (`codevs-reborn book`). Default: the books the project ships
    /// (data/books, built into the binary).
    #[arg(value_name = "BOOK")]
    pub books: Vec<PathBuf>,
    /// The positions searched.
    #[arg(long, value_enum, default_value_t = PositionKind::AfterExchange)]
    pub kind: PositionKind,
    /// Search the first N positions only (0 = all).
    #[arg(long, default_value_t = 0)]
    pub count: usize,
    /// Worker threads (0 = one per core).
    #[arg(long, default_value_t = 0)]
    pub threads: usize,
}

impl BookBenchArgs {
    /// The positions of `--kind` in the books (the first `--count`), the worker threads set.
    pub fn positions(&self) -> Result<Vec<Position>, String> {
        if self.threads > 0 {
            rayon::ThreadPoolBuilder::new().num_threads(self.threads).build_global().map_err(|e| e.to_string())?;
        }
        let mut positions = crate::data::book_set(&self.books)?;
        positions.retain(|p| p.kind == self.kind);
        if self.count > 0 {
            positions.truncate(self.count);
        }
        if positions.is_empty() {
            let kind =
                clap::ValueEnum::to_possible_value(&self.kind).map_or_else(String::new, |v| v.get_name().to_string());
            return Err(format!("no {kind} positions in the books given (--kind selects which)"));
        }
        Ok(positions)
    }
}

/// One side of a book position as the bot sees it on the position's turn ([`state::Position`]:
/// this turn's garbage row fallen when the stock holds one, the rest of the stock to fall).
pub fn side_at_turn(position: &Position, seat: usize) -> Result<state::Position<Engine>, String> {
    Ok(state::Position::from_input(&player_input(position, seat, 0)?))
}

/// Seat `seat` of a book position as the protocol gives it to a bot, `time_left_ms` on its clock.
pub fn player_input(position: &Position, seat: usize, time_left_ms: u64) -> Result<PlayerInput, String> {
    let player = &position.state[seat];
    let field: Field =
        player.field.join("\n").parse().map_err(|e| format!("position {}: seat {seat}: {e}", position.id))?;
    Ok(PlayerInput { time_left_ms, garbage: player.garbage, gauge: player.gauge, score: player.score, field })
}

/// How far a book bench's search reached on one side of a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Reach {
    /// The best result within each of [`WITHIN`] turns.
    pub best: [u32; 5],
    /// Placements simulated.
    pub nodes: u64,
}

impl Reach {
    /// `best_within(t)`: the best result within `t` turns.
    pub fn new(best_within: impl Fn(usize) -> u32, nodes: u64) -> Reach {
        Reach { best: WITHIN.map(best_within), nodes }
    }
}

/// What a book bench found on one side of a position.
pub trait SideReport {
    fn reach(&self) -> Reach;
    /// The side's columns in the bench's table.
    fn columns(&self) -> String;
}

/// Both sides' totals over the positions of a bench.
pub struct Totals {
    /// Per side (ours, theirs), the sum of the best result within each of [`WITHIN`] turns.
    sums: [[u64; 5]; 2],
    positions: usize,
    nodes: u64,
    started: Instant,
}

impl Totals {
    /// The means of each side ("ours (mean {what} within +4 ...): ..." to `decimals`), then the
    /// nodes and the time.
    pub fn print(&self, what: &str, decimals: usize) {
        let within: Vec<String> = WITHIN.iter().map(|t| format!("+{t}")).collect();
        for (side, name) in ["ours", "theirs"].iter().enumerate() {
            let means: Vec<String> =
                self.sums[side].iter().map(|&s| format!("{:.*}", decimals, s as f64 / self.positions as f64)).collect();
            println!("{name} (mean {what} within {}): {}", within.join(" "), means.join(" "));
        }
        println!("nodes: {} in {:.1} s", self.nodes, self.started.elapsed().as_secs_f64());
    }
}

/// Runs `search` on both sides of every position, ours first (the seat named as this project's
/// bot, or seat 0), printing a row a position under a progress bar.
pub fn run_both_sides<R: SideReport>(
    positions: &[Position],
    search: impl Fn(&Position, &Packs, usize) -> Result<R, String>,
) -> Result<Totals, String> {
    let progress = indicatif::ProgressBar::new(positions.len() as u64);
    let mut totals = Totals { sums: [[0; 5]; 2], positions: positions.len(), nodes: 0, started: Instant::now() };
    for position in positions {
        let packs = position.packs()?;
        let ours = position.home_seat().unwrap_or(0);
        let reports = [search(position, &packs, ours)?, search(position, &packs, 1 - ours)?];
        for (sums, report) in totals.sums.iter_mut().zip(&reports) {
            let reach = report.reach();
            for (sum, best) in sums.iter_mut().zip(reach.best) {
                *sum += u64::from(best);
            }
            totals.nodes += reach.nodes;
        }
        let row =
            format!("{:<24} {:>4} {}   {}", position.id, position.turn, reports[0].columns(), reports[1].columns());
        progress.suspend(|| println!("{row}"));
        progress.inc(1);
    }
    progress.finish_and_clear();
    Ok(totals)
}

/// Figures right-aligned to `width` characters each.
pub fn cells(values: &[String], width: usize) -> String {
    values.iter().map(|v| format!("{v:>width$}")).collect::<Vec<_>>().join(" ")
}

/// The `+4 +6 ...` heading of the [`WITHIN`] columns, `width` characters each.
pub fn within_heading(width: usize) -> String {
    cells(&WITHIN.map(|t| format!("+{t}")), width)
}
