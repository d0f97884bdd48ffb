//! The chain-building beam search (seed 000: 連鎖の探玢 and the sections after it).
//!
//! From the current field and the known packs it searches own moves only, depth by depth. A
//! state is ranked by the chain its structure holds (its potential: by default the best chain
//! erasing one exposed block sets off, togatoga's measure), the blocks it keeps breaking ties;
//! the chain it can really fire with the next pack is measured for the states kept. At every
//! depth the line to the best real fire is kept too: the result is a menu, the best chain
//! fireable at every turn, and a plan follows the entry it chooses (the largest chain by a
//! turn), not the line that looks best at the far end.
//!
//! Seed 000's ranking is still there behind the flags: states valued first by the best chain
//! their line could fire so far, grouped by potential with at most `chain_width` a group, and a
//! target that keeps only lines reaching it. Its lines tore down ready chains to build bigger
//! ones, so the chain the bot could really fire at turn 12 was two links below the menu's.
//!
//! Deterministic for a given seed and node budget whatever the thread count: each depth is
//! expanded in parallel, duplicates are resolved by the shared [`TranspositionTable`] in favour
//! of the first in sequential order, and selection sorts by value with a seeded tie-break.

use std::ops::RangeInclusive;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::time::Instant;

use rayon::prelude::*;

use super::chain::{
    best_block_fire, best_fire, either_way, erase_fires, fire_under_a_row, fire_under_two_rows, mix, tallest,
    BeamResult, Fire, Line, Menu, Start,
};
use super::eval::{BeamWeights, Chain, Shape};
use super::tt::TranspositionTable;
use crate::rules::{Action, Pack, Simulator, MAX_X};

/// What to search and how widely.
#[derive(Clone, Debug)]
pub struct BeamConfig {
    /// States kept per depth (W).
    pub width: usize,
    /// States kept per group of equal fireable chain (W2, about 20–30% of W).
    pub chain_width: usize,
    /// Turns searched ahead at most.
    pub depth: usize,
    /// Once some line can fire this many links, only lines reaching one less are kept.
    pub target: Option<u32>,
    /// Stop once some line can fire this many links.
    pub final_target: Option<u32>,
    /// Once the target is reached, lines reaching this many links less are kept too (seed 000
    /// keeps one less, for diversity).
    pub target_slack: u32,
    /// Positions building moves may use (the opening keeps off the outer columns).
    pub positions: RangeInclusive<u8>,
    pub weights: BeamWeights,
    /// Stop (keeping the last finished depth) at this moment.
    pub deadline: Option<Instant>,
    /// Stop before a depth once this many placements were simulated: with no deadline the
    /// search is then reproducible.
    pub node_budget: Option<u64>,
    /// Seeds the tie-break between states of equal value.
    pub seed: u64,
    /// A building move may fire at most this many links (a pack holding a pair that sums to 10
    /// fires wherever it lands, so 0 would leave no move at all).
    pub build_chain_max: u32,
    /// How candidates' chain potential is measured for ranking.
    pub potential: Potential,
    /// Measure every kept state's best fire under one garbage row too (the menu's
    /// [`Menu::under_row`] lines), for a plan that must fire whether their row lands first.
    pub under_row: bool,
    /// With `under_row`: of each depth's states, this many with the largest fires are measured
    /// under two rows too (the turn before the fire and that turn, [`fire_under_two_rows`]),
    /// the smaller of the two counting; the others count as unmeasured. 0: one row, every state.
    pub two_rows: usize,
}

/// How the beam measures a candidate's chain potential.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum Potential {
    /// The best chain of every placement of the real next pack (seed 000's measure).
    NextPack,
    /// The best chain one block of any number dropped on any column would fire: the chain
    /// the structure holds, whatever the next pack. The real next-pack fire is still computed
    /// for the states kept, and is what plans fire.
    AnyBlock,
    /// The best chain erasing one exposed block sets off ([`erase_fires`]): also triggers a
    /// partner reaches from the side or after more building (togatoga's measure). The real
    /// next-pack fire is computed for the states kept.
    #[default]
    Erase,
}

impl Default for BeamConfig {
    fn default() -> Self {
        BeamConfig {
            width: 1000,
            chain_width: 1000,
            depth: 20,
            target: None,
            final_target: None,
            target_slack: 0,
            positions: 0..=MAX_X,
            weights: BeamWeights::default(),
            deadline: None,
            node_budget: None,
            seed: 0,
            build_chain_max: 2,
            potential: Potential::default(),
            under_row: false,
            two_rows: 0,
        }
    }
}

/// A state kept in the beam.
#[derive(Clone)]
struct Node<S> {
    field: S,
    /// Best chain on the line so far (this state's own fire included).
    reachable: Chain,
}

/// A child considered for the next depth (its field is rebuilt only if selected).
#[derive(Clone, Copy)]
struct Candidate {
    parent: u32,
    /// Place in the sequential order of expansion: the first to reach a position keeps it.
    origin: u64,
    action: Action,
    hash: u64,
    /// The real fire with the next pack, once known.
    fire: Option<Fire>,
    /// Links of the chain potential the candidate is grouped by.
    potential: u32,
    /// The potential chain itself and the state's shape: what the value is computed from
    /// besides `reachable`, kept to recompute it once the real fire is known.
    own: Chain,
    shape: Shape,
    reachable: Chain,
    value: i64,
    tiebreak: u64,
}

/// A selected state rebuilt: its node, its real fire with the next pack (and under a garbage
/// row, when measured), and the placements that cost.
struct Kept<S> {
    node: Node<S>,
    fire: Option<Fire>,
    under_row: Option<u32>,
    nodes: u64,
}

/// How a selected state was reached, to rebuild the line at the end.
#[derive(Clone, Copy)]
struct Step {
    parent: u32,
    action: Action,
    fire: Option<Fire>,
    /// Links of the best fire with the next pack once a garbage row has fallen.
    under_row: Option<u32>,
}

/// The best chain erasing one exposed block sets off, and the blocks it leaves.
fn best_erase<S: Simulator>(field: &S, nodes: &mut u64) -> Option<(Chain, usize)> {
    let mut best: Option<(Chain, usize)> = None;
    erase_fires(field, nodes, |chain, remaining| {
        if best.is_none_or(|(b, _)| chain > b) {
            best = Some((chain, remaining));
        }
    });
    best
}

/// Runs the beam search from `start`.
pub fn search<S: Simulator>(start: Start<'_, S>, config: &BeamConfig) -> BeamResult {
    let nodes = AtomicU64::new(0);
    let aborted = AtomicBool::new(false);
    let last_turn = start.packs.len().min(crate::rules::MAX_TURNS);
    let mut root_nodes = 0;
    let root_fire = (start.turn < last_turn)
        .then(|| best_fire(start.field, start.packs.get(start.turn), &mut root_nodes))
        .flatten();
    nodes.fetch_add(root_nodes, Relaxed);
    let mut beam =
        vec![Node { field: start.field.clone(), reachable: root_fire.map_or(Chain::default(), |f| f.chain) }];
    let mut history: Vec<Vec<Step>> = Vec::new();
    let mut table = TranspositionTable::with_capacity(1024);
    let mut target_reached = false;
    let build_actions: Vec<Action> =
        Action::drops().filter(|a| matches!(a, Action::Drop { x, .. } if config.positions.contains(x))).collect();
    let per_parent = build_actions.len() as u64;

    for depth in 0..config.depth {
        let depth_started = Instant::now();
        let nodes_before = nodes.load(Relaxed);
        let turn = start.turn + depth;
        if turn + 1 >= last_turn || config.node_budget.is_some_and(|b| nodes.load(Relaxed) >= b) {
            break;
        }
        let pack = start.packs.get(turn);
        let next_pack = start.packs.get(turn + 1);
        let row_next = start.row_falls(depth + 1);
        table.clear(beam.len() * build_actions.len());
        let expand = |(index, node): (usize, &Node<S>)| {
            let mut local_nodes = 0;
            let mut out = Vec::with_capacity(build_actions.len());
            if aborted.load(Relaxed) || config.deadline.is_some_and(|d| Instant::now() >= d) {
                aborted.store(true, Relaxed);
                return out;
            }
            for (a, &action) in build_actions.iter().enumerate() {
                let mut child = node.field.clone();
                let outcome = child.apply(pack, action);
                local_nodes += 1;
                if outcome.links > config.build_chain_max || child.is_dead() {
                    continue;
                }
                if row_next {
                    child.drop_garbage_row();
                }
                let hash = child.board_hash();
                let origin = index as u64 * per_parent + a as u64;
                table.insert(hash, origin);
                let held = |fire: Option<Fire>| fire.map(|f| (f.chain, f.remaining));
                // The real fire is computed once the state is kept (see below), unless the
                // potential is that fire or readiness is weighed.
                let fire = (config.potential == Potential::NextPack || config.weights.weighs_ready())
                    .then(|| best_fire(&child, next_pack, &mut local_nodes))
                    .flatten();
                let potential = match config.potential {
                    Potential::NextPack => held(fire),
                    Potential::AnyBlock => held(best_block_fire(&child, &mut local_nodes)),
                    Potential::Erase => best_erase(&child, &mut local_nodes),
                };
                let own = potential.map_or(Chain::default(), |(chain, _)| chain);
                let reachable = node.reachable.max(fire.map_or(Chain::default(), |f| f.chain));
                let blocks = child.block_count();
                let shape = Shape {
                    remaining: potential.map_or(blocks, |(_, remaining)| remaining) as u32,
                    tallest: tallest(&child) as u8,
                    blocks: blocks as u32,
                    gap_pairs: if config.weights.gap_pairs != 0 { child.gap_pairs() } else { 0 },
                };
                let ready = fire.map_or(Chain::default(), |f| f.chain);
                let value = config.weights.value(reachable, own, ready, shape);
                out.push(Candidate {
                    parent: index as u32,
                    origin,
                    action,
                    hash,
                    fire,
                    potential: own.links,
                    own,
                    shape,
                    reachable,
                    value,
                    tiebreak: mix(hash ^ mix(config.seed)),
                });
            }
            nodes.fetch_add(local_nodes, Relaxed);
            out
        };
        let mut candidates: Vec<Candidate> = beam.par_iter().enumerate().flat_map_iter(expand).collect();
        if aborted.load(Relaxed) {
            break;
        }
        candidates.retain(|c| table.is_first(c.hash, c.origin));
        if let Some(target) = config.target {
            if !target_reached && candidates.iter().any(|c| c.fire.is_some_and(|f| f.chain.links >= target)) {
                target_reached = true;
            }
            // With any-block potential the real fires are known for kept states only: their
            // `reachable` carries them from the previous depth.
            if !target_reached && beam.iter().any(|n| n.reachable.links >= target) {
                target_reached = true;
            }
            if target_reached {
                candidates.retain(|c| c.reachable.links + config.target_slack >= target);
            }
        }
        if candidates.is_empty() {
            break;
        }
        let width = fitted_width(config, depth, beam.len(), depth_started, nodes_before, nodes.load(Relaxed));
        let chain_width = (config.chain_width * width).div_ceil(config.width).max(1);
        let selected = select(candidates, width, chain_width);
        let measure_fire = config.potential != Potential::NextPack && !config.weights.weighs_ready();
        let kept: Vec<Kept<S>> = selected
            .par_iter()
            .map(|c| {
                let parent = &beam[c.parent as usize];
                let mut field = parent.field.clone();
                field.apply(pack, c.action);
                if row_next {
                    field.drop_garbage_row();
                }
                let mut n = 1;
                let fire = if measure_fire { best_fire(&field, next_pack, &mut n) } else { c.fire };
                let reachable = c.reachable.max(fire.map_or(Chain::default(), |f| f.chain));
                let under_row = config
                    .under_row
                    .then(|| fire_under_a_row(&field, next_pack, &mut n))
                    .flatten()
                    .map(|f| f.chain.links);
                Kept { node: Node { field, reachable }, fire, under_row, nodes: n }
            })
            .collect();
        let mut next: Vec<(Candidate, Node<S>, Option<u32>)> = Vec::with_capacity(kept.len());
        for (mut c, kept) in selected.into_iter().zip(kept) {
            c.fire = kept.fire;
            c.reachable = kept.node.reachable;
            let ready = kept.fire.map_or(Chain::default(), |f| f.chain);
            c.value = config.weights.value(c.reachable, c.own, ready, c.shape);
            nodes.fetch_add(kept.nodes, Relaxed);
            next.push((c, kept.node, kept.under_row));
        }
        if config.under_row && config.two_rows > 0 {
            measure_under_two_rows(&mut next, &beam, pack, next_pack, config, &nodes);
        }
        // The real fires may have raised values: the best state comes first again.
        next.sort_by(|(a, ..), (b, ..)| b.value.cmp(&a.value).then(a.tiebreak.cmp(&b.tiebreak)));
        let mut steps = Vec::with_capacity(next.len());
        let mut nodes_kept = Vec::with_capacity(next.len());
        let mut selected = Vec::with_capacity(next.len());
        for (c, node, under_row) in next {
            steps.push(Step { parent: c.parent, action: c.action, fire: c.fire, under_row });
            nodes_kept.push(node);
            selected.push(c);
        }
        beam = nodes_kept;
        let done = config.final_target.is_some_and(|t| selected.iter().any(|c| c.reachable.links >= t));
        history.push(steps);
        if done {
            break;
        }
    }
    let line = rebuild_line(&start, root_fire, &history, history.len(), 0);
    let menu = menu(&start, root_fire, &history);
    BeamResult { line, nodes: nodes.into_inner(), depth: history.len(), menu }
}

/// Lowers the one-row measure of the `config.two_rows` states with the largest fires to their
/// fire under two rows when smaller (from their parent in `beam`, rebuilt on top of the first
/// row); the other states' measures are dropped, so a plan chooses among the measured only.
fn measure_under_two_rows<S: Simulator>(
    next: &mut [(Candidate, Node<S>, Option<u32>)],
    beam: &[Node<S>],
    pack: &Pack,
    next_pack: &Pack,
    config: &BeamConfig,
    nodes: &AtomicU64,
) {
    let mut by_fire: Vec<usize> = (0..next.len()).filter(|&i| next[i].0.fire.is_some()).collect();
    by_fire.sort_by_key(|&i| (std::cmp::Reverse(next[i].0.fire.map(|f| f.chain)), i));
    by_fire.truncate(config.two_rows);
    let measured: Vec<(usize, u32)> = by_fire
        .par_iter()
        .map(|&i| {
            let mut n = 0;
            let parent = &beam[next[i].0.parent as usize].field;
            let links = fire_under_two_rows(parent, pack, next_pack, config.build_chain_max, &mut n);
            nodes.fetch_add(n, Relaxed);
            (i, links)
        })
        .collect();
    let one_row: Vec<Option<u32>> = next.iter_mut().map(|entry| entry.2.take()).collect();
    for (i, links) in measured {
        // Their chain may land one turn before ours or two: the chain that goes off either way.
        next[i].2 = Some(one_row[i].map_or(links, |one| one.min(links)));
    }
}

/// The width that lets the remaining depths fit the budget: this depth's cost per state (time,
/// or nodes under a node budget, which keeps the search reproducible) spread over what is left.
/// Never more than `config.width`, never fewer than a handful.
fn fitted_width(
    config: &BeamConfig,
    depth: usize,
    states: usize,
    depth_started: Instant,
    nodes_before: u64,
    nodes_now: u64,
) -> usize {
    const MIN_WIDTH: usize = 16;
    let remaining_depths = (config.depth - depth - 1).max(1) as f64;
    let states = states.max(1) as f64;
    let affordable = if let Some(budget) = config.node_budget {
        let per_state = (nodes_now - nodes_before).max(1) as f64 / states;
        budget.saturating_sub(nodes_now) as f64 / remaining_depths / per_state
    } else if let Some(deadline) = config.deadline {
        let per_state = depth_started.elapsed().as_secs_f64().max(1e-6) / states;
        let left = deadline.saturating_duration_since(Instant::now()).as_secs_f64();
        // Keep a margin: later depths hold fuller fields and cost a little more.
        0.8 * left / remaining_depths / per_state
    } else {
        return config.width;
    };
    (affordable as usize).clamp(MIN_WIDTH, config.width.max(MIN_WIDTH))
}

/// Keeps the best candidates: sorted by fireable chain, then value; each chain group gives at
/// most `chain_width`, until `width` are kept. The first kept is the best by value overall.
fn select(mut candidates: Vec<Candidate>, width: usize, chain_width: usize) -> Vec<Candidate> {
    let links = |c: &Candidate| c.potential;
    candidates.par_sort_unstable_by(|a, b| {
        links(b).cmp(&links(a)).then(b.value.cmp(&a.value)).then(a.tiebreak.cmp(&b.tiebreak))
    });
    let mut kept = Vec::with_capacity(width.min(candidates.len()));
    let mut group = u32::MAX;
    let mut in_group = 0;
    for c in candidates {
        if links(&c) != group {
            group = links(&c);
            in_group = 0;
        }
        if in_group < chain_width {
            kept.push(c);
            in_group += 1;
            if kept.len() == width {
                break;
            }
        }
    }
    kept.sort_by(|a, b| b.value.cmp(&a.value).then(a.tiebreak.cmp(&b.tiebreak)));
    kept
}

/// The line to the best fire kept at each depth (the first of equal fires: the better valued).
fn menu<S: Simulator>(start: &Start<'_, S>, root_fire: Option<Fire>, history: &[Vec<Step>]) -> Menu {
    let mut entries = vec![root_fire.map(|_| rebuild_line(start, root_fire, history, 0, 0))];
    let mut under_row = vec![None];
    for (level, states) in history.iter().enumerate() {
        let best = states.iter().enumerate().filter_map(|(i, s)| s.fire.map(|f| (f.chain, i))).max_by(|a, b| {
            a.0.cmp(&b.0).then(b.1.cmp(&a.1)) // the larger chain, then the earlier index
        });
        entries.push(best.map(|(_, i)| rebuild_line(start, root_fire, history, level + 1, i as u32)));
        // The fire that stays largest whether a row falls first or not (the smaller of the two);
        // of equal ones the larger fire without the row.
        let sturdiest = states
            .iter()
            .enumerate()
            .filter_map(|(i, s)| Some(((either_way(s.under_row, s.fire.map(|f| f.chain.links))?, s.fire?.chain), i)))
            .max_by(|a, b| a.0.cmp(&b.0).then(b.1.cmp(&a.1)));
        under_row.push(sturdiest.map(|(_, i)| rebuild_line(start, root_fire, history, level + 1, i as u32)));
    }
    Menu { start_turn: start.turn, entries, under_row }
}

/// Walks back from state `index` of depth `depth` (the states of `history[depth - 1]`; 0 is the
/// start) and replays the line to record the fields expected on the way. The deepest line is
/// `depth = history.len()`, `index = 0` (selection sorts by value).
fn rebuild_line<S: Simulator>(
    start: &Start<'_, S>,
    root_fire: Option<Fire>,
    history: &[Vec<Step>],
    depth: usize,
    index: u32,
) -> Line {
    let mut steps = Vec::with_capacity(depth);
    let mut index = index;
    for level in history[..depth].iter().rev() {
        let step = level[index as usize];
        steps.push(step);
        index = step.parent;
    }
    steps.reverse();
    let mut field = start.field.clone();
    let mut line =
        Line { start_turn: start.turn, fires: vec![root_fire], expected: vec![field.to_field()], ..Line::default() };
    for (depth, step) in steps.iter().enumerate() {
        field.apply(start.packs.get(start.turn + depth), step.action);
        if start.row_falls(depth + 1) {
            field.drop_garbage_row();
        }
        line.builds.push(step.action);
        line.fires.push(step.fire);
        line.expected.push(field.to_field());
        line.under_row = step.under_row;
    }
    line
}
