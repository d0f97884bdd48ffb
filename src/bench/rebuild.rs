//! `bench rebuild`: the rebuild search on real race positions, both fields.
//!
//! Issue 41's second race: after the first exchange both sides build again, under the rows
//! still pending, and the bigger chain wins. This bench runs the rebuild search as the bot runs
//! it (its configuration, a fixed budget) from each position of a book (`codevs-reborn book`,
//! by default its `after-exchange` positions) on both fields, the garbage still pending falling
//! a row a turn, and reports the best chain it finds within 4 to 12 turns. Our field against
//! theirs says what the position left each side; one configuration against another, on the
//! same positions, says which rebuild builds bigger second chains.

use std::time::{Duration, Instant};

use crate::bench::positions::{cells, run_both_sides, side_at_turn, within_heading, BookBenchArgs, Reach, SideReport};
use crate::book::Position;
use crate::rules::Packs;
use crate::search::build::BeamParams;
use crate::search::chain::Start;

/// `codevs-reborn bench rebuild` flags.
#[derive(Clone, Debug, clap::Args)]
pub struct RebuildBenchArgs {
    #[command(flatten)]
    pub positions: BookBenchArgs,
    /// The rebuild's budget in ms a field (ignored with --node-budget). The bot's rebuild gets
    /// `--rebuild-share` of a turn's budget: about 1 500 ms on a critical turn at the full control.
    #[arg(long, default_value_t = 1500)]
    pub time_ms: u64,
    #[command(flatten)]
    pub beam: BeamParams,
}

/// What the rebuild search found on one field.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FieldReport {
    /// The garbage pending on this side at the position (this turn's row not yet fallen).
    pub pending: u32,
    /// The best chain fireable within each of [`WITHIN`](super::positions::WITHIN) turns.
    pub reach: Reach,
}

impl SideReport for FieldReport {
    fn reach(&self) -> Reach {
        self.reach
    }
    fn columns(&self) -> String {
        format!("{:>5} {}", self.pending, cells(&self.reach.best.map(|b| b.to_string()), 3))
    }
}

/// Runs the rebuild search on one side of a position (`packs`: the position's, decoded).
pub fn search_side(
    position: &Position,
    packs: &Packs,
    seat: usize,
    args: &RebuildBenchArgs,
) -> Result<FieldReport, String> {
    let side = side_at_turn(position, seat)?;
    let start = Start { field: &side.field, packs, turn: position.turn, garbage: side.garbage };
    let deadline = (args.beam.node_budget == 0).then(|| Instant::now() + Duration::from_millis(args.time_ms));
    let result = args.beam.build(start, false, deadline);
    Ok(FieldReport {
        pending: position.state[seat].garbage,
        reach: Reach::new(|t| result.best_within(t), result.nodes),
    })
}

pub fn run(args: &RebuildBenchArgs) -> Result<(), String> {
    let positions = args.positions.positions()?;
    let budget = match args.beam.node_budget {
        0 => format!("{} ms", args.time_ms),
        n => format!("node budget {n}"),
    };
    println!("rebuild search: {} positions, the {}, {budget} a field", positions.len(), args.beam.builder.name());
    let within = within_heading(3);
    println!("{:<24} {:>4} {:>5} {within}   {:>5} {within}", "position", "turn", "ours", "their");
    let totals = run_both_sides(&positions, |position, packs, seat| search_side(position, packs, seat, args))?;
    totals.print("links", 2);
    Ok(())
}
