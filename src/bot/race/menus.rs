//! Menus: the largest chain a side can fire by each turn ahead, from a probe of its field (theirs)
//! or from our plan, and the words `--explain` gives them.

use std::time::Instant;

use crate::search::beam::BeamConfig;
use crate::search::builder::BuilderConfig;
use crate::search::chain::{BeamResult, Start};
use crate::state::TurnState;
use crate::Engine;

use crate::bot::plan::Plan;
use crate::bot::BotOptions;

/// The potential of a probe: the largest chain within this many turns (the depth of the probe of
/// their field, and of `calibrate`'s).
pub const POTENTIAL_TURNS: usize = 10;

/// A menu as `links@turn` where it grows (the largest chain fireable by each turn), from
/// `links[d]`, the largest chain fireable at turn `start_turn + d`; "none" when empty.
pub(in crate::bot) fn menu_text(start_turn: usize, links: &[u32]) -> String {
    let mut best = 0;
    let mut growth = Vec::new();
    for (d, &l) in links.iter().enumerate() {
        if l > best {
            best = l;
            growth.push(format!("{l}@{}", start_turn + d));
        }
    }
    if growth.is_empty() {
        "none".to_string()
    } else {
        growth.join(" ")
    }
}

/// Our plan's menus from `turn` on: what its own line makes ready at each turn, and what its
/// search found fireable on any line (a chain the plan no longer leads to).
pub(in crate::bot) fn plan_menu_text(plan: &Plan, turn: usize) -> String {
    let at = turn.max(plan.start_turn);
    format!(
        "on the plan's line {}, on any line {}",
        menu_text(at, plan.line_from(turn)),
        menu_text(at, plan.threats_from(turn))
    )
}

/// The largest chain they can fire at each turn from now, within [`POTENTIAL_TURNS`]: a probe of
/// their field under the garbage they have pending, until `end`.
pub(in crate::bot) fn their_menu(options: &BotOptions, state: &TurnState<Engine>, end: Instant) -> Vec<u32> {
    probe_their_field(options, state, state.opponent.garbage, end).threats()
}

pub(in crate::bot) fn probe_their_field(
    options: &BotOptions,
    state: &TurnState<Engine>,
    garbage: u32,
    end: Instant,
) -> BeamResult {
    let node_budget = (options.beam.node_budget > 0).then_some(options.beam.node_budget);
    let start = Start { field: &state.opponent.field, packs: state.packs, turn: state.turn, garbage };
    probe_for_bot(options, start, POTENTIAL_TURNS, end, node_budget)
}

/// A small search of one field (opponent probes, safety check) with the chosen builder, at the
/// probe width, until `end` or, when the bot runs on a node budget, a twentieth of it.
pub(in crate::bot) fn probe_for_bot(
    options: &BotOptions,
    start: Start<'_, Engine>,
    depth: usize,
    end: Instant,
    node_budget: Option<u64>,
) -> BeamResult {
    match node_budget {
        Some(budget) => probe(options, start, depth, None, Some(budget / 20)),
        None => probe(options, start, depth, Some(end), None),
    }
}

/// The race's probe of a field: the largest chain it can fire at each turn ahead (the result's
/// menu), searched with the chosen builder at `--probe-width`, until `deadline` or `node_budget`
/// simulations.
pub fn probe(
    options: &BotOptions,
    start: Start<'_, Engine>,
    depth: usize,
    deadline: Option<Instant>,
    node_budget: Option<u64>,
) -> BeamResult {
    let d = &options.decide;
    let beam = BeamConfig {
        width: d.probe_width,
        chain_width: d.probe_width,
        depth,
        deadline,
        node_budget,
        ..options.beam.rebuild(None)
    };
    let anytime = BuilderConfig { depth, deadline, node_budget, ..options.beam.builder(false, None) };
    options.beam.search_with(start, &beam, &anytime)
}

#[cfg(test)]
mod tests {
    use super::menu_text;

    #[test]
    fn a_menu_reads_where_it_grows() {
        assert_eq!(menu_text(10, &[0, 3, 3, 8, 5, 12, 12, 14]), "3@11 8@13 12@15 14@17");
        assert_eq!(menu_text(0, &[0, 0]), "none");
        assert_eq!(menu_text(4, &[]), "none");
    }
}
