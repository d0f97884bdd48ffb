//! `bench skill`: the skill builder on real race positions, both fields.
//!
//! Seed 000's skill mode gives up a chain race it cannot win and builds for the skill. Whether
//! that can pay is a question of the position: how soon the gauge reaches 80 when something
//! vanishes every turn, and how many blocks the explosion takes by then. This bench runs the
//! skill builder from each position of a book (by default its `after-exchange` positions) on
//! both fields, the garbage still pending falling a row a turn, and reports the most garbage a
//! skill sends within 4 to 12 turns, to set against the chain `bench rebuild` finds there.

use std::time::{Duration, Instant};

use crate::bench::positions::{cells, run_both_sides, side_at_turn, within_heading, BookBenchArgs, Reach, SideReport};
use crate::book::Position;
use crate::rules::Packs;
use crate::search::chain::Start;
use crate::search::skill::{self, SkillConfig};

/// `codevs-reborn bench skill` flags.
#[derive(Clone, Debug, clap::Args)]
pub struct SkillBenchArgs {
    #[command(flatten)]
    pub positions: BookBenchArgs,
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
}

/// What the skill builder found on one field.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FieldReport {
    pub gauge: u32,
    /// The garbage pending on this side at the position, this turn's row not yet fallen.
    pub pending: u32,
    /// The most garbage a skill sends within each of [`WITHIN`](super::positions::WITHIN) turns.
    pub reach: Reach,
}

impl SideReport for FieldReport {
    fn reach(&self) -> Reach {
        self.reach
    }
    fn columns(&self) -> String {
        format!("{:>5} {:>5} {}", self.gauge, self.pending, cells(&self.reach.best.map(|b| b.to_string()), 4))
    }
}

/// Runs the skill builder on one side of a position (`packs`: the position's, decoded).
pub fn search_side(
    position: &Position,
    packs: &Packs,
    seat: usize,
    args: &SkillBenchArgs,
) -> Result<FieldReport, String> {
    let side = side_at_turn(position, seat)?;
    let start = Start { field: &side.field, packs, turn: position.turn, garbage: side.garbage };
    let deadline = (args.node_budget == 0).then(|| Instant::now() + Duration::from_millis(args.time_ms));
    let config = SkillConfig {
        depth: args.depth,
        width: args.width,
        turn_value: args.turn_value,
        deadline,
        node_budget: (args.node_budget > 0).then_some(args.node_budget),
    };
    let result = skill::search(start, side.gauge, &config);
    Ok(FieldReport {
        gauge: side.gauge,
        pending: position.state[seat].garbage,
        reach: Reach::new(|t| result.best_within(t), result.nodes),
    })
}

pub fn run(args: &SkillBenchArgs) -> Result<(), String> {
    let positions = args.positions.positions()?;
    println!("skill builder: {} positions, depth {}, width {}", positions.len(), args.depth, args.width);
    let within = within_heading(4);
    println!(
        "{:<24} {:>4} {:>5} {:>5} {within}   {:>5} {:>5} {within}",
        "position", "turn", "gauge", "stock", "their", "stock"
    );
    let totals = run_both_sides(&positions, |position, packs, seat| search_side(position, packs, seat, args))?;
    totals.print("garbage a skill sends", 1);
    Ok(())
}
