//! `bench rebuild`: the rebuild search on real race positions, both fields.
//!
//! Issue 41's second race: after the first exchange both sides build again, under the rows
//! still pending, and the bigger chain wins. This bench runs the rebuild search as the bot runs
//! it (its configuration, a fixed budget) from each position of a book (`codevs-reborn book`,
//! by default its `after-exchange` positions) on both fields, the garbage still pending falling
//! a row a turn, and reports the best chain it finds within 4 to 12 turns. Our field against
//! theirs says what the position left each side; one configuration against another, on the
//! same positions, says which rebuild builds bigger second chains.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use crate::arena::book::{read_book, Position, PositionKind};
use crate::bench::side_at_turn;
use crate::rules::Packs;
use crate::search::build::BeamParams;
use crate::search::chain::Start;

/// `codevs-reborn bench rebuild` flags.
#[derive(Clone, Debug, clap::Args)]
pub struct RebuildBenchArgs {
    /// Books of positions (`codevs-reborn book`).
    #[arg(required = true, value_name = "BOOK")]
    pub books: Vec<PathBuf>,
    /// The positions searched.
    #[arg(long, value_enum, default_value_t = PositionKind::AfterExchange)]
    pub kind: PositionKind,
    /// The rebuild's budget in ms a field (ignored with --node-budget). The bot's rebuild gets
    /// `--rebuild-share` of a turn's budget: about 1 500 ms on a critical turn at the full control.
    #[arg(long, default_value_t = 1500)]
    pub time_ms: u64,
    /// Search the first N positions only (0 = all).
    #[arg(long, default_value_t = 0)]
    pub count: usize,
    /// Worker threads (0 = one per core).
    #[arg(long, default_value_t = 0)]
    pub threads: usize,
    #[command(flatten)]
    pub beam: BeamParams,
}

/// Turns from the position the best chain is reported within.
pub const WITHIN: [usize; 5] = [4, 6, 8, 10, 12];

/// What the rebuild search found on one field.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FieldReport {
    /// The garbage pending on this side at the position (falling a row a turn from the next).
    pub pending: u32,
    /// The best chain fireable within each of [`WITHIN`] turns.
    pub best: [u32; 5],
    pub nodes: u64,
}

/// Runs the rebuild search on one side of a position (`packs`: the position's, decoded).
pub fn search_side(
    position: &Position,
    packs: &Packs,
    seat: usize,
    args: &RebuildBenchArgs,
) -> Result<FieldReport, String> {
    let (field, garbage) = side_at_turn(position, seat)?;
    let start = Start { field: &field, packs, turn: position.turn, garbage };
    let deadline = (args.beam.node_budget == 0).then(|| Instant::now() + Duration::from_millis(args.time_ms));
    let result = args.beam.build(start, false, deadline);
    Ok(FieldReport {
        pending: position.state[seat].garbage,
        best: WITHIN.map(|t| result.best_within(t)),
        nodes: result.nodes,
    })
}

/// Ours and theirs: the bot's seat (the one named as this project's bot), or seat 0 and 1.
fn seats(position: &Position) -> [usize; 2] {
    let ours = position.home_seat().unwrap_or(0);
    [ours, 1 - ours]
}

pub fn run(args: &RebuildBenchArgs) -> Result<(), String> {
    if args.threads > 0 {
        rayon::ThreadPoolBuilder::new().num_threads(args.threads).build_global().map_err(|e| e.to_string())?;
    }
    let mut positions = Vec::new();
    for book in &args.books {
        positions.extend(read_book(book)?.into_iter().filter(|p| p.kind == args.kind));
    }
    if args.count > 0 {
        positions.truncate(args.count);
    }
    if positions.is_empty() {
        let kind =
            clap::ValueEnum::to_possible_value(&args.kind).map_or_else(String::new, |v| v.get_name().to_string());
        return Err(format!("no {kind} positions in the books given (--kind selects which)"));
    }
    let budget = match args.beam.node_budget {
        0 => format!("{} ms", args.time_ms),
        n => format!("node budget {n}"),
    };
    println!("rebuild search: {} positions, the {}, {budget} a field", positions.len(), args.beam.builder.name());
    let within: Vec<String> = WITHIN.iter().map(|t| format!("+{t}")).collect();
    println!("{:<24} {:>4} {:>5} {}   {:>5} {}", "position", "turn", "ours", cells(&within), "their", cells(&within));
    let progress = indicatif::ProgressBar::new(positions.len() as u64);
    let mut sums = [[0u64; 5]; 2];
    let mut nodes = 0;
    let started = Instant::now();
    for position in &positions {
        let packs = position.packs()?;
        let [ours, theirs] = seats(position).map(|seat| search_side(position, &packs, seat, args));
        let (ours, theirs) = (ours?, theirs?);
        for (side, report) in [ours, theirs].iter().enumerate() {
            for (sum, best) in sums[side].iter_mut().zip(report.best) {
                *sum += u64::from(best);
            }
            nodes += report.nodes;
        }
        let text = |r: &FieldReport| cells(&r.best.map(|b| b.to_string()));
        progress.suspend(|| {
            println!(
                "{:<24} {:>4} {:>5} {}   {:>5} {}",
                position.id,
                position.turn,
                ours.pending,
                text(&ours),
                theirs.pending,
                text(&theirs)
            )
        });
        progress.inc(1);
    }
    progress.finish_and_clear();
    let n = positions.len() as f64;
    for (side, name) in ["ours", "theirs"].iter().enumerate() {
        let means: Vec<String> = sums[side].iter().map(|&s| format!("{:.2}", s as f64 / n)).collect();
        println!("{name} (mean links within {}): {}", within.join(" "), means.join(" "));
    }
    println!("nodes: {nodes} in {:.1} s", started.elapsed().as_secs_f64());
    Ok(())
}

/// Figures right-aligned to 3 characters each.
fn cells(values: &[String]) -> String {
    values.iter().map(|v| format!("{v:>3}")).collect::<Vec<_>>().join(" ")
}
