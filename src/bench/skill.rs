//! `bench skill`: the skill builder on real race positions, both fields.
//!
//! Seed 000's skill mode gives up a chain race it cannot win and builds for the skill. Whether
//! that can pay is a question of the position: how soon the gauge reaches 80 when something
//! vanishes every turn, and how many blocks the explosion takes by then. This bench runs the
//! skill builder from each position of a book (by default its `after-exchange` positions) on
//! both fields, the garbage still pending falling a row a turn, and reports the most garbage a
//! skill sends within 4 to 12 turns, to set against the chain `bench rebuild` finds there.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use crate::arena::book::{read_book, Position, PositionKind};
use crate::bench::rebuild::WITHIN;
use crate::bench::side_at_turn;
use crate::rules::Packs;
use crate::search::chain::Start;
use crate::search::skill::{self, SkillConfig};

/// `codevs-reborn bench skill` flags.
#[derive(Clone, Debug, clap::Args)]
pub struct SkillBenchArgs {
    /// Books of positions (`codevs-reborn book`).
    #[arg(required = true, value_name = "BOOK")]
    pub books: Vec<PathBuf>,
    /// The positions searched.
    #[arg(long, value_enum, default_value_t = PositionKind::AfterExchange)]
    pub kind: PositionKind,
    /// Budget in ms a field (ignored with --node-budget); the search stops earlier once it has
    /// searched --depth turns.
    #[arg(long, default_value_t = 20000)]
    pub time_ms: u64,
    /// Placements a field (0: the time budget decides; reproducible otherwise).
    #[arg(long, default_value_t = 0)]
    pub node_budget: u64,
    /// Turns searched ahead.
    #[arg(long, default_value_t = 12)]
    pub depth: usize,
    /// States kept per depth.
    #[arg(long, default_value_t = 1000)]
    pub width: usize,
    /// Garbage a turn of waiting for the gauge is worth in the builder's ranking.
    #[arg(long, default_value_t = 25)]
    pub turn_value: i64,
    /// Search the first N positions only (0 = all).
    #[arg(long, default_value_t = 0)]
    pub count: usize,
    /// Worker threads (0 = one per core).
    #[arg(long, default_value_t = 0)]
    pub threads: usize,
}

/// What the skill builder found on one field.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FieldReport {
    pub gauge: u32,
    /// The garbage pending on this side at the position, this turn's row not yet fallen.
    pub pending: u32,
    /// The most garbage a skill sends within each of [`WITHIN`] turns.
    pub best: [u32; 5],
    pub nodes: u64,
}

/// Runs the skill builder on one side of a position (`packs`: the position's, decoded).
pub fn search_side(
    position: &Position,
    packs: &Packs,
    seat: usize,
    args: &SkillBenchArgs,
) -> Result<FieldReport, String> {
    let player = &position.state[seat];
    let (field, garbage) = side_at_turn(position, seat)?;
    let start = Start { field: &field, packs, turn: position.turn, garbage };
    let deadline = (args.node_budget == 0).then(|| Instant::now() + Duration::from_millis(args.time_ms));
    let config = SkillConfig {
        depth: args.depth,
        width: args.width,
        turn_value: args.turn_value,
        deadline,
        node_budget: (args.node_budget > 0).then_some(args.node_budget),
    };
    let result = skill::search(start, player.gauge, &config);
    Ok(FieldReport {
        gauge: player.gauge,
        pending: player.garbage,
        best: WITHIN.map(|t| result.best_within(t)),
        nodes: result.nodes,
    })
}

pub fn run(args: &SkillBenchArgs) -> Result<(), String> {
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
    println!("skill builder: {} positions, depth {}, width {}", positions.len(), args.depth, args.width);
    let within: Vec<String> = WITHIN.iter().map(|t| format!("+{t}")).collect();
    let head = |name: &str| format!("{:>5} {:>5} {}", name, "stock", cells(&within));
    println!("{:<24} {:>4} {}   {}", "position", "turn", head("gauge"), head("their"));
    let progress = indicatif::ProgressBar::new(positions.len() as u64);
    let mut sums = [[0u64; 5]; 2];
    let mut nodes = 0;
    let started = Instant::now();
    for position in &positions {
        let packs = position.packs()?;
        let ours = position.home_seat().unwrap_or(0);
        let reports = [ours, 1 - ours].map(|seat| search_side(position, &packs, seat, args));
        let [ours, theirs] = [reports[0].clone()?, reports[1].clone()?];
        for (side, report) in [ours, theirs].iter().enumerate() {
            for (sum, best) in sums[side].iter_mut().zip(report.best) {
                *sum += u64::from(best);
            }
            nodes += report.nodes;
        }
        let text =
            |r: &FieldReport| format!("{:>5} {:>5} {}", r.gauge, r.pending, cells(&r.best.map(|b| b.to_string())));
        progress.suspend(|| println!("{:<24} {:>4} {}   {}", position.id, position.turn, text(&ours), text(&theirs)));
        progress.inc(1);
    }
    progress.finish_and_clear();
    let n = positions.len() as f64;
    for (side, name) in ["ours", "theirs"].iter().enumerate() {
        let means: Vec<String> = sums[side].iter().map(|&s| format!("{:.1}", s as f64 / n)).collect();
        println!("{name} (mean garbage a skill sends within {}): {}", within.join(" "), means.join(" "));
    }
    println!("nodes: {nodes} in {:.1} s", started.elapsed().as_secs_f64());
    Ok(())
}

/// Figures right-aligned to 4 characters each.
fn cells(values: &[String]) -> String {
    values.iter().map(|v| format!("{v:>4}")).collect::<Vec<_>>().join(" ")
}
