//! A 1-ply greedy search: try every action on this turn's pack and keep the best by a simple
//! evaluation. It never chooses an illegal action and avoids dying when it can.

use std::fmt::Write as _;

use crate::rules::{Action, Outcome, Simulator, WIDTH};
use crate::search::chain::best_block_fire;
use crate::state::TurnState;

/// Weights of the greedy evaluation.
#[derive(Clone, Copy, Debug, clap::Args)]
pub struct GreedyParams {
    /// Greedy: value of one garbage block sent by this turn's action.
    #[arg(long = "greedy-garbage", default_value_t = 100)]
    pub garbage: i64,
    /// Greedy: value of one link of the best chain one more block could fire afterwards.
    #[arg(long = "greedy-potential", default_value_t = 10)]
    pub potential: i64,
    /// Greedy: penalty per block of the tallest column.
    #[arg(long = "greedy-height", default_value_t = 3)]
    pub height: i64,
}

impl Default for GreedyParams {
    fn default() -> Self {
        GreedyParams { garbage: 100, potential: 10, height: 3 }
    }
}

/// An action with its value (higher is better).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Scored {
    pub action: Action,
    pub value: i64,
    pub outcome: Outcome,
}

/// The value of a dead end: below any living field's value.
const DEAD: i64 = i64::MIN / 2;

/// Every legal action, scored, best first (ties keep the action order, so the result is
/// deterministic).
pub fn rank<S: Simulator>(state: &TurnState<S>, params: &GreedyParams) -> Vec<Scored> {
    let pack = state.pack();
    let mut scored: Vec<Scored> = Action::all(state.me.skill_allowed())
        .map(|action| {
            let mut field = state.me.field.clone();
            let outcome = field.apply(pack, action);
            let value = if field.is_dead() { DEAD } else { evaluate(&field, &outcome, params) };
            Scored { action, value, outcome }
        })
        .collect();
    scored.sort_by_key(|s| std::cmp::Reverse(s.value));
    scored
}

/// The best action, and a human-readable account of the choice.
pub fn choose<S: Simulator>(state: &TurnState<S>, params: &GreedyParams) -> (Action, String) {
    let ranked = rank(state, params);
    let mut why = String::new();
    for s in ranked.iter().take(5) {
        let _ = writeln!(
            why,
            "  {:>4}  value {:>8}  links {:>2}  garbage sent {:>3}",
            s.action.to_string(),
            s.value,
            s.outcome.links,
            s.outcome.garbage()
        );
    }
    (ranked[0].action, why)
}

fn evaluate<S: Simulator>(field: &S, outcome: &Outcome, params: &GreedyParams) -> i64 {
    let tallest = (0..WIDTH).map(|x| field.height(x)).max().unwrap_or(0) as i64;
    params.garbage * outcome.garbage() as i64 + params.potential * potential(field) as i64 - params.height * tallest
}

/// The longest chain one extra block (any number, on any column) would fire: a cheap measure
/// of what the field has built.
fn potential<S: Simulator>(field: &S) -> u32 {
    best_block_fire(field, &mut 0).map_or(0, |f| f.chain.links)
}
