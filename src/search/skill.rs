//! The skill builder (seed 000's スキルモヌド): moves that erase something every turn, so the
//! gauge charges 8 a turn, on a field whose 5s and their neighbours make the largest explosion
//! once it reaches 80. A beam over our own moves, like the chain beam, but ranked by what the
//! skill would send and how soon the gauge allows it; the result is the best skill found at
//! every turn searched, with the line to it.
//!
//! `bench skill` runs it on race positions, against the chains the rebuild finds there. The bot
//! has no skill mode: a rebuild that switched to this builder when no chain above 7 links was
//! within 10 turns changed no result on the eight buried positions of the shipped books (the
//! skill mode's row in `docs/EXPERIMENTS.md`).
//!
//! Deterministic for a given seed and node budget: expansions run in parallel, children are
//! merged in the beam's order.

use std::time::Instant;

use rayon::prelude::*;
use rustc_hash::FxHashSet;

use super::chain::Start;
use crate::rules::{Action, Field, Simulator, GAUGE_GAIN, GAUGE_MAX, SKILL_THRESHOLD, VISIBLE_HEIGHT, WIDTH};

/// What the skill builder searches and how.
#[derive(Clone, Debug)]
pub struct SkillConfig {
    /// Turns searched ahead at most.
    pub depth: usize,
    /// States kept per depth.
    pub width: usize,
    /// Garbage a turn of waiting for the gauge is worth: a state a turn further from a full
    /// gauge must explode this much more to rank as high.
    pub turn_value: i64,
    pub deadline: Option<Instant>,
    /// Stop before a depth once this many placements were simulated.
    pub node_budget: Option<u64>,
}

impl Default for SkillConfig {
    fn default() -> Self {
        SkillConfig { depth: 14, width: 300, turn_value: 25, deadline: None, node_budget: None }
    }
}

/// A line to a skill: building moves, then the skill.
#[derive(Clone, Debug)]
pub struct SkillLine {
    pub start_turn: usize,
    /// The moves, the last of them [`Action::Skill`].
    pub actions: Vec<Action>,
    /// The field expected at the start of each turn of the line (after that turn's garbage).
    pub expected: Vec<Field>,
    /// Blocks the explosion removes.
    pub exploded: u32,
    /// Links of the chain the explosion sets off.
    pub links: u32,
    /// Garbage the skill sends.
    pub send: u32,
}

impl SkillLine {
    /// The turn the skill goes off.
    pub fn fire_turn(&self) -> usize {
        self.start_turn + self.actions.len() - 1
    }
}

/// The best skill found at each turn from the start (index 0: the start turn).
#[derive(Clone, Debug, Default)]
pub struct SkillResult {
    pub by_turn: Vec<Option<SkillLine>>,
    pub nodes: u64,
    /// Depths completed.
    pub depth: usize,
}

impl SkillResult {
    /// The most garbage a skill found sends at or before `turns` turns from the start.
    pub fn best_within(&self, turns: usize) -> u32 {
        self.by_turn.iter().take(turns + 1).flatten().map(|l| l.send).max().unwrap_or(0)
    }
}

#[derive(Clone)]
struct Node<S> {
    field: S,
    gauge: u32,
    /// Index of the parent in the previous depth's beam (unused at depth 0).
    parent: usize,
    action: Action,
    value: i64,
}

/// What the skill would send from `field` now, with the blocks it explodes and the links after.
fn skill_now<S: Simulator>(field: &S) -> (u32, u32, u32) {
    let mut after = field.clone();
    let outcome = after.use_skill();
    (outcome.garbage(), outcome.exploded, outcome.links)
}

/// Rows under the danger line in which a column crowds the field.
const CROWDING_ROWS: usize = 4;

/// A ranked value's units per garbage block: finer, so the gauge can break ties.
const UNITS_PER_BLOCK: i64 = 16;

/// A state's rank: what the skill would send now, less `turn_value` garbage for every turn the
/// gauge still needs, less twice the square of the rows the tallest column reaches into the
/// last [`CROWDING_ROWS`] (a field near the line cannot wait for its gauge); the gauge breaks
/// ties.
fn rank<S: Simulator>(field: &S, gauge: u32, turn_value: i64) -> i64 {
    let (send, _, _) = skill_now(field);
    let turns_to_ready = SKILL_THRESHOLD.saturating_sub(gauge).div_ceil(GAUGE_GAIN) as i64;
    let tallest = (0..WIDTH).map(|x| field.height(x)).max().unwrap_or(0);
    let crowding = tallest.saturating_sub(VISIBLE_HEIGHT - CROWDING_ROWS) as i64;
    let blocks = i64::from(send) - turns_to_ready * turn_value - 2 * crowding * crowding;
    blocks * UNITS_PER_BLOCK + i64::from(gauge)
}

/// Searches our moves from `start` with the gauge `gauge` (as of the end of the previous turn).
pub fn search<S: Simulator>(start: Start<'_, S>, gauge: u32, config: &SkillConfig) -> SkillResult {
    let mut result = SkillResult::default();
    let root = Node { field: start.field.clone(), gauge, parent: 0, action: Action::Skill, value: 0 };
    // beams[d]: the states at the start of turn start.turn + d.
    let mut beams: Vec<Vec<Node<S>>> = vec![vec![root]];
    let mut nodes = 0u64;
    for depth in 0..=config.depth {
        let beam = &beams[depth];
        // The skill from every state whose gauge allows it.
        let best = beam
            .iter()
            .enumerate()
            .filter(|(_, n)| n.gauge >= SKILL_THRESHOLD)
            .map(|(i, n)| (skill_now(&n.field), i))
            .max_by_key(|&((send, _, _), i)| (send, std::cmp::Reverse(i)));
        result.by_turn.push(best.filter(|&((send, _, _), _)| send > 0).map(|((send, exploded, links), i)| {
            let (actions, expected) = trace(&beams, depth, i);
            SkillLine { start_turn: start.turn, actions, expected, exploded, links, send }
        }));
        result.depth = depth;
        let out_of_time = config.deadline.is_some_and(|d| Instant::now() >= d);
        let out_of_nodes = config.node_budget.is_some_and(|b| nodes >= b);
        if depth == config.depth || out_of_time || out_of_nodes {
            break;
        }
        let pack = start.packs.get(start.turn + depth);
        let row_falls = start.row_falls(depth + 1);
        let children: Vec<Vec<Node<S>>> = beam
            .par_iter()
            .enumerate()
            .map(|(parent, node)| {
                Action::drops()
                    .filter_map(|action| {
                        let mut field = node.field.clone();
                        let outcome = field.apply(pack, action);
                        if field.is_dead() {
                            return None;
                        }
                        let gauge =
                            if outcome.links > 0 { (node.gauge + GAUGE_GAIN).min(GAUGE_MAX) } else { node.gauge };
                        if row_falls {
                            field.drop_garbage_row();
                        }
                        let value = rank(&field, gauge, config.turn_value);
                        Some(Node { field, gauge, parent, action, value })
                    })
                    .collect()
            })
            .collect();
        nodes += children.iter().map(|c| c.len() as u64).sum::<u64>();
        let mut next: Vec<Node<S>> = children.into_iter().flatten().collect();
        // Stable: equal values keep the beam's order, so the result does not depend on threads.
        next.sort_by_key(|n| std::cmp::Reverse(n.value));
        let mut seen = FxHashSet::default();
        next.retain(|n| seen.insert((n.field.board_hash(), n.gauge)));
        next.truncate(config.width);
        if next.is_empty() {
            break;
        }
        beams.push(next);
    }
    result.nodes = nodes;
    result
}

/// The moves from the root to state `index` at `depth`, then the skill; the fields expected.
fn trace<S: Simulator>(beams: &[Vec<Node<S>>], depth: usize, index: usize) -> (Vec<Action>, Vec<Field>) {
    let mut actions = vec![Action::Skill];
    let mut expected = vec![beams[depth][index].field.to_field()];
    let mut i = index;
    for d in (1..=depth).rev() {
        let node = &beams[d][i];
        actions.push(node.action);
        i = node.parent;
        expected.push(beams[d - 1][i].field.to_field());
    }
    actions.reverse();
    expected.reverse();
    (actions, expected)
}
