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

use super::builder::{self, BuilderConfig, Menu, PotentialProbe};
use super::eval::{BeamWeights, BuilderWeights, Chain, Shape};
use super::tt::TranspositionTable;
use crate::rules::{Action, Field, Pack, Packs, Simulator, GARBAGE_ROW, MAX_X, WIDTH};

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
        }
    }
}

/// Where the search starts: a field at the start of `turn` (this turn's garbage row fallen)
/// with `garbage` stock still to fall, one row a turn.
#[derive(Clone, Copy, Debug)]
pub struct Start<'a, S> {
    pub field: &'a S,
    pub packs: &'a Packs,
    pub turn: usize,
    pub garbage: u32,
}

impl<S> Start<'_, S> {
    /// True when a garbage row falls at the start of the turn `depth` turns from now.
    pub(crate) fn row_falls(&self, depth: usize) -> bool {
        depth >= 1 && depth <= (self.garbage / GARBAGE_ROW) as usize
    }
}

/// The best chain a field can fire this turn, the action that fires it and what it leaves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fire {
    pub chain: Chain,
    pub action: Action,
    /// Blocks left on the field after the chain.
    pub remaining: usize,
}

/// The line the search chose: building moves, with what could be fired at each turn of it.
#[derive(Clone, Debug, Default)]
pub struct Line {
    /// The turn of the first step.
    pub start_turn: usize,
    /// Building moves, one a turn.
    pub builds: Vec<Action>,
    /// The best fire available at each turn of the line (one more than `builds`: the last is
    /// the fire at the end of the line).
    pub fires: Vec<Option<Fire>>,
    /// The field expected at the start of each turn of the line (after that turn's garbage).
    pub expected: Vec<Field>,
}

impl Line {
    /// The step (0-based) of the earliest largest fire on the line.
    pub fn best_fire_step(&self) -> Option<usize> {
        let best = self.fires.iter().flatten().map(|f| f.chain).max()?;
        self.fires.iter().position(|f| f.is_some_and(|f| f.chain == best))
    }

    /// The earliest turn at which the line can fire at least `links` links.
    pub fn first_turn_with(&self, links: u32) -> Option<usize> {
        self.fires.iter().position(|f| f.is_some_and(|f| f.chain.links >= links)).map(|i| self.start_turn + i)
    }

    /// The largest chain the line can fire at or before `turn`.
    pub fn best_by_turn(&self, turn: usize) -> u32 {
        let steps = (turn + 1).saturating_sub(self.start_turn).min(self.fires.len());
        self.fires[..steps].iter().flatten().map(|f| f.chain.links).max().unwrap_or(0)
    }

    /// The moves to play: the builds up to the best fire, then the fire.
    pub fn plan(&self) -> Vec<Action> {
        match self.best_fire_step() {
            Some(k) => self.builds[..k].iter().copied().chain(self.fires[k].map(|f| f.action)).collect(),
            None => self.builds.clone(),
        }
    }
}

/// What a search found and what it cost.
#[derive(Clone, Debug, Default)]
pub struct BeamResult {
    pub line: Line,
    /// Placements simulated.
    pub nodes: u64,
    /// Depths completed.
    pub depth: usize,
    /// The best chain any kept state could fire at each turn, with the line to it: a plan may
    /// follow another line than `line`.
    pub menu: Menu,
}

impl BeamResult {
    /// The longest chain any kept state could fire at each turn from the start (index 0 is the
    /// start turn itself): what the searched position can threaten, line or not.
    pub fn threats(&self) -> Vec<u32> {
        self.menu.links()
    }

    /// The earliest turn (from the start) at which some searched line could fire `links`.
    pub fn earliest(&self, links: u32) -> Option<usize> {
        self.threats().iter().position(|&l| l >= links)
    }

    /// The longest chain some searched line could fire within `turns` turns from the start.
    pub fn best_within(&self, turns: usize) -> u32 {
        self.threats().into_iter().take(turns + 1).max().unwrap_or(0)
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

/// How a selected state was reached, to rebuild the line at the end.
#[derive(Clone, Copy)]
struct Step {
    parent: u32,
    action: Action,
    fire: Option<Fire>,
}

/// The best chain `field` can fire with `pack` (every placement tried), counting placements.
pub fn best_fire<S: Simulator>(field: &S, pack: &Pack, nodes: &mut u64) -> Option<Fire> {
    let mut best: Option<Fire> = None;
    for action in Action::drops() {
        let mut probe = field.clone();
        let outcome = probe.apply(pack, action);
        *nodes += 1;
        if outcome.links == 0 || probe.is_dead() {
            continue;
        }
        let chain = Chain { links: outcome.links, vanished: outcome.vanished };
        if best.is_none_or(|b| chain > b.chain) {
            best = Some(Fire { chain, action, remaining: probe.block_count() });
        }
    }
    best
}

/// The best chain one block of any number would fire, dropped on any column (counting drops).
/// On a settled field only a number that pairs with a neighbour of the landing cell can start a
/// chain, so only those numbers are dropped; they are tried in order 1..=9, so ties go to the
/// smaller number.
pub fn best_block_fire<S: Simulator>(field: &S, nodes: &mut u64) -> Option<Fire> {
    let mut best: Option<Fire> = None;
    block_fires(field, nodes, |fire| {
        if best.is_none_or(|b| fire.chain > b.chain) {
            best = Some(fire);
        }
    });
    best
}

/// Every chain one block would start (see [`best_block_fire`]), column by column, numbers in
/// order: what a chain potential is measured from.
pub fn block_fires<S: Simulator>(field: &S, nodes: &mut u64, mut visit: impl FnMut(Fire)) {
    for x in 0..WIDTH {
        let y = field.height(x);
        if y >= crate::rules::VISIBLE_HEIGHT {
            continue;
        }
        // The landing cell's neighbours: beside it, below it, and diagonally above and below.
        let mut pairs = [false; 10];
        let (left_x, below) = (x.wrapping_sub(1), y.wrapping_sub(1));
        for (nx, ny) in
            [(left_x, y + 1), (left_x, y), (left_x, below), (x, below), (x + 1, y + 1), (x + 1, y), (x + 1, below)]
        {
            let v = if nx < WIDTH && ny <= y + 1 { field.cell(nx, ny) } else { 0 };
            if (1..=9).contains(&v) {
                pairs[(10 - v) as usize] = true;
            }
        }
        // A one-block pack: the left column of position x, or the right one of position 8.
        let (position, left) = if x < WIDTH - 1 { (x as u8, true) } else { (x as u8 - 1, false) };
        for number in (1..=9).filter(|&n| pairs[n as usize]) {
            let pack = if left { Pack::new([0, 0], [number, 0]) } else { Pack::new([0, 0], [0, number]) };
            let mut probe = field.clone();
            let outcome = probe.drop_pack(&pack, position, 0);
            *nodes += 1;
            if outcome.links == 0 {
                continue;
            }
            let chain = Chain { links: outcome.links, vanished: outcome.vanished };
            let action = Action::Drop { x: position, rotation: 0 };
            visit(Fire { chain, action, remaining: probe.block_count() });
        }
    }
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

/// Every chain set off by erasing one exposed numbered block (one with an empty neighbour, as
/// a partner could reach it): the chain's links (the erase counts as the first) and blocks,
/// and the blocks left. A more hopeful potential than [`block_fires`]: it also sees triggers
/// a partner can reach only from the side or after more building.
pub fn erase_fires<S: Simulator>(field: &S, nodes: &mut u64, mut visit: impl FnMut(Chain, usize)) {
    let heights: [usize; WIDTH] = std::array::from_fn(|x| field.height(x));
    for x in 0..WIDTH {
        // A block in row y has an empty neighbour when it tops its column, or when a column
        // beside it is at most y + 1 high (its upper diagonal neighbour is empty).
        let side_low = [x.wrapping_sub(1), x + 1].into_iter().filter(|&n| n < WIDTH).map(|n| heights[n]).min();
        for y in (0..heights[x]).rev() {
            let exposed = y + 1 == heights[x] || side_low.is_some_and(|h| h <= y + 1);
            if !exposed {
                break;
            }
            if !(1..=9).contains(&field.cell(x, y)) {
                continue;
            }
            let mut probe = field.clone();
            let outcome = probe.erase(x, y);
            *nodes += 1;
            visit(Chain { links: outcome.links, vanished: outcome.vanished }, probe.block_count());
        }
    }
}

pub(crate) fn tallest<S: Simulator>(field: &S) -> usize {
    (0..WIDTH).map(|x| field.height(x)).max().unwrap_or(0)
}

pub(crate) fn mix(mut z: u64) -> u64 {
    // splitmix64's finaliser: spreads seeds and hashes into tie-break keys.
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
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
        let kept: Vec<(Node<S>, Option<Fire>, u64)> = selected
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
                (Node { field, reachable }, fire, n)
            })
            .collect();
        let mut next: Vec<(Candidate, Node<S>)> = Vec::with_capacity(kept.len());
        for (mut c, (node, fire, n)) in selected.into_iter().zip(kept) {
            c.fire = fire;
            c.reachable = node.reachable;
            let ready = fire.map_or(Chain::default(), |f| f.chain);
            c.value = config.weights.value(c.reachable, c.own, ready, c.shape);
            nodes.fetch_add(n, Relaxed);
            next.push((c, node));
        }
        // The real fires may have raised values: the best state comes first again.
        next.sort_by(|(a, _), (b, _)| b.value.cmp(&a.value).then(a.tiebreak.cmp(&b.tiebreak)));
        let (selected, nodes_kept): (Vec<Candidate>, Vec<Node<S>>) = next.into_iter().unzip();
        beam = nodes_kept;
        let done = config.final_target.is_some_and(|t| selected.iter().any(|c| c.reachable.links >= t));
        history.push(selected.iter().map(|c| Step { parent: c.parent, action: c.action, fire: c.fire }).collect());
        if done {
            break;
        }
    }
    let line = rebuild_line(&start, root_fire, &history, history.len(), 0);
    let menu = menu(&start, root_fire, &history);
    BeamResult { line, nodes: nodes.into_inner(), depth: history.len(), menu }
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
    for (level, states) in history.iter().enumerate() {
        let best = states.iter().enumerate().filter_map(|(i, s)| s.fire.map(|f| (f.chain, i))).max_by(|a, b| {
            a.0.cmp(&b.0).then(b.1.cmp(&a.1)) // the larger chain, then the earlier index
        });
        entries.push(best.map(|(_, i)| rebuild_line(start, root_fire, history, level + 1, i as u32)));
    }
    Menu { start_turn: start.turn, entries }
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
        Line { start_turn: start.turn, builds: Vec::new(), fires: vec![root_fire], expected: vec![field.to_field()] };
    for (depth, step) in steps.iter().enumerate() {
        field.apply(start.packs.get(start.turn + depth), step.action);
        if start.row_falls(depth + 1) {
            field.drop_garbage_row();
        }
        line.builds.push(step.action);
        line.fires.push(step.fire);
        line.expected.push(field.to_field());
    }
    line
}

/// The beam searches' parameters, one flag each (seed 000's flag names in brackets).
#[derive(Clone, Debug, clap::Args)]
pub struct BeamParams {
    /// Opening beam: states kept per depth at most, W (narrower when the budget is short) [-bw].
    /// High enough that the 19 s budget, not this cap, sets the width; the cap bounds memory
    /// (the 19 s search peaks at about 450 MiB).
    #[arg(long, default_value_t = 60000)]
    pub beam_width: usize,
    /// Opening beam: states kept per group of equal fireable chain, W2 ≈ 20–30% of W [-bcw].
    #[arg(long, default_value_t = 60000)]
    pub beam_chain_width: usize,
    /// The opening plan follows the line to the largest chain fireable by this turn (the
    /// earliest of equal chains): the turn our first chain is built for. 0: the line the beam
    /// valued best at its deepest depth (seed 000's choice).
    #[arg(long, default_value_t = 13)]
    pub plan_turn: usize,
    /// A rebuild's plan follows the line to the largest chain fireable within this many turns
    /// (0: the deepest line, as for the opening).
    #[arg(long, default_value_t = 16)]
    pub rebuild_plan_turns: usize,
    /// Opening beam: turns searched ahead at most [-bd].
    #[arg(long, default_value_t = 24)]
    pub beam_depth: usize,
    /// Target chain c: once a line can fire c links, only lines reaching c−1 are kept [-bcm]
    /// (0 = no target).
    #[arg(long, default_value_t = 0)]
    pub beam_target: u32,
    /// Final target: the opening search stops once a line can fire this many links [-bcm2].
    #[arg(long, default_value_t = 0)]
    pub beam_final_target: u32,
    /// Once the target is reached, lines reaching this many links less survive too (seed 000
    /// keeps one less for diversity; 0 keeps the earliest target on the plan).
    #[arg(long, default_value_t = 0)]
    pub beam_target_slack: u32,
    /// Opening beam: leftmost drop position (keeps off the outer columns) [-bminx].
    #[arg(long, default_value_t = 2)]
    pub opening_min_x: u8,
    /// Opening beam: rightmost drop position [-bmaxx].
    #[arg(long, default_value_t = 6)]
    pub opening_max_x: u8,
    /// Opening beam: use every column (turns the outer-column pruning off).
    #[arg(long)]
    pub opening_all_columns: bool,
    /// Turn 0's thinking budget in ms at the full time control (scaled with the time given).
    #[arg(long, default_value_t = 19_000)]
    pub opening_ms: u64,
    /// The opening plan's refinement: while the plan is followed blindly (turns 1 to
    /// `--plan-unconditional-turns` − 1) the opening search runs again from the field reached,
    /// for this many ms at the full control (0: never), and a plan firing a longer chain, or
    /// as long a chain sooner, replaces it. Under a node budget it gets the budget's share
    /// `--refine-ms` / `--opening-ms`.
    #[arg(long, default_value_t = 4000)]
    pub refine_ms: u64,
    /// A refinement searches this many turns past the turn its plan fires.
    #[arg(long, default_value_t = 3)]
    pub refine_past_plan_turn: usize,
    /// Rebuild beam (after garbage or the plan's end; all columns): states kept per depth at
    /// most; the turn's time slice sets the width below that [-nbw].
    #[arg(long, default_value_t = 8000)]
    pub rebuild_width: usize,
    /// Rebuild beam: states kept per chain group at most [-nbcw].
    #[arg(long, default_value_t = 8000)]
    pub rebuild_chain_width: usize,
    /// Rebuild beam: turns searched ahead at most.
    #[arg(long, default_value_t = 16)]
    pub rebuild_depth: usize,
    /// Rebuild beam: budget in ms at the full time control [-nftl].
    #[arg(long, default_value_t = 1000)]
    pub rebuild_ms: u64,
    /// Evaluation: weight per link of the best chain reachable on the line so far.
    #[arg(long, default_value_t = 0)]
    pub eval_reachable_links: i64,
    /// Evaluation: weight per link of the deepest state's best chain.
    #[arg(long, default_value_t = 1_000_000)]
    pub eval_deepest_links: i64,
    /// Evaluation: weight per block vanished by the best chain reachable on the line so far.
    #[arg(long, default_value_t = 0)]
    pub eval_reachable: i64,
    /// Evaluation: weight per block vanished by the deepest state's best chain.
    #[arg(long, default_value_t = 0)]
    pub eval_deepest: i64,
    /// Evaluation: weight per block left after the deepest state's best chain.
    #[arg(long, default_value_t = 0)]
    pub eval_remaining: i64,
    /// Evaluation: weight per link of the chain a state can really fire with its turn's pack
    /// (its readiness; 0 = measured only for the states kept).
    #[arg(long, default_value_t = 0)]
    pub eval_ready_links: i64,
    /// Evaluation: weight per block vanished by that chain.
    #[arg(long, default_value_t = 0)]
    pub eval_ready: i64,
    /// Evaluation: weight per block on the field (material kept rather than spent building).
    #[arg(long, default_value_t = 1000)]
    pub eval_blocks: i64,
    /// Evaluation: weight per gap pair (two blocks summing to 10 one block apart, vertically or
    /// a knight's move: links waiting to be made; 0 = not measured).
    #[arg(long, default_value_t = 0)]
    pub eval_gap_pairs: i64,
    /// Evaluation: a state with a block in this row (1-based) or above ranks below every lower one.
    #[arg(long, default_value_t = 14)]
    pub eval_max_row: usize,
    /// Evaluation: weight per row of the tallest column (negative for flatter fields).
    #[arg(long, default_value_t = 0, allow_negative_numbers = true)]
    pub eval_tallest: i64,
    /// Reproducible searches: stop each search after this many simulated placements instead of
    /// by time (0 = by time).
    #[arg(long, default_value_t = 0)]
    pub node_budget: u64,
    /// Seeds the searches' tie-breaks (and the `random` strategy's drops).
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// A building move may fire at most this many links (bigger chains are fires, not builds).
    #[arg(long, default_value_t = 2)]
    pub build_chain_max: u32,
    /// How the beams rank states by chain potential.
    #[arg(long, value_enum, default_value_t = Potential::Erase)]
    pub beam_potential: Potential,
    /// Which search builds our chains (the opening and the rebuilds).
    #[arg(long, value_enum, default_value_t = ChainBuilder::Beam)]
    pub builder: ChainBuilder,
    /// Anytime builder: turns searched ahead at most at turn 0 (the menu's reach; a rebuild
    /// searches at most --rebuild-depth).
    #[arg(long, default_value_t = 24)]
    pub builder_depth: usize,
    /// Anytime builder: states expanded per depth per sweep (chokudai width).
    #[arg(long, default_value_t = 4)]
    pub builder_sweep_width: usize,
    /// Anytime builder: states a depth's queue may hold before its worse half is dropped.
    #[arg(long, default_value_t = 1 << 16)]
    pub builder_queue_cap: usize,
    /// Anytime builder: how a state's chain potential is measured.
    #[arg(long, value_enum, default_value_t = PotentialProbe::Drop)]
    pub builder_potential: PotentialProbe,
    /// Anytime builder evaluation: weight per link of the chain a state's structure holds.
    #[arg(long, default_value_t = 10_000)]
    pub build_eval_links: i64,
    /// Anytime builder evaluation: weight per block that chain vanishes.
    #[arg(long, default_value_t = 100)]
    pub build_eval_vanished: i64,
    /// Anytime builder evaluation: weight per block left after it.
    #[arg(long, default_value_t = 1)]
    pub build_eval_remaining: i64,
    /// Anytime builder evaluation: weight per single block (column and number) that sets off a
    /// chain as long (a chain only one exact block starts is fragile).
    #[arg(long, default_value_t = 0)]
    pub build_eval_triggers: i64,
    /// Anytime builder evaluation: weight per link of the chain a state can really fire with
    /// its turn's pack (seed 000's measure; 0 = not measured).
    #[arg(long, default_value_t = 0)]
    pub build_eval_next_fire_links: i64,
    /// Anytime builder evaluation: weight per gap pair (two blocks summing to 10 one block
    /// apart, vertically or a knight's move: links waiting to be made; 0 = not measured).
    #[arg(long, default_value_t = 0)]
    pub build_eval_gap_pairs: i64,
    /// Anytime builder evaluation: a state with a block in this row (1-based) or above is
    /// ranked last.
    #[arg(long, default_value_t = 14)]
    pub build_eval_max_row: usize,
}

/// The search that builds our chains.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum ChainBuilder {
    /// The chain-diversified beam with targets (seed 000).
    #[default]
    Beam,
    /// The anytime chokudai search answering with a menu of the best chain at every turn.
    Chokudai,
}

impl ChainBuilder {
    /// How the bot's explanations name it.
    pub fn name(self) -> &'static str {
        match self {
            ChainBuilder::Beam => "beam",
            ChainBuilder::Chokudai => "chokudai builder",
        }
    }
}

impl Default for BeamParams {
    fn default() -> Self {
        crate::flag_defaults()
    }
}

impl BeamParams {
    fn weights(&self) -> BeamWeights {
        BeamWeights {
            reachable_links: self.eval_reachable_links,
            deepest_links: self.eval_deepest_links,
            reachable: self.eval_reachable,
            deepest: self.eval_deepest,
            remaining: self.eval_remaining,
            ready_links: self.eval_ready_links,
            ready: self.eval_ready,
            blocks: self.eval_blocks,
            gap_pairs: self.eval_gap_pairs,
            tallest: self.eval_tallest,
            max_row: self.eval_max_row,
        }
    }

    fn node_budget(&self) -> Option<u64> {
        (self.node_budget > 0).then_some(self.node_budget)
    }

    /// The turn-0 search: narrow columns, targets, long budget.
    pub fn opening(&self, deadline: Option<Instant>) -> BeamConfig {
        let positions =
            if self.opening_all_columns { 0..=MAX_X } else { self.opening_min_x..=self.opening_max_x.min(MAX_X) };
        BeamConfig {
            width: self.beam_width,
            chain_width: self.beam_chain_width,
            depth: self.beam_depth,
            target: (self.beam_target > 0).then_some(self.beam_target),
            final_target: (self.beam_final_target > 0).then_some(self.beam_final_target),
            target_slack: self.beam_target_slack,
            positions,
            weights: self.weights(),
            deadline: if self.node_budget().is_some() { None } else { deadline },
            node_budget: self.node_budget(),
            seed: self.seed,
            build_chain_max: self.build_chain_max,
            potential: self.beam_potential,
        }
    }

    fn builder_weights(&self) -> BuilderWeights {
        BuilderWeights {
            links: self.build_eval_links,
            vanished: self.build_eval_vanished,
            remaining: self.build_eval_remaining,
            triggers: self.build_eval_triggers,
            next_fire_links: self.build_eval_next_fire_links,
            gap_pairs: self.build_eval_gap_pairs,
            max_row: self.build_eval_max_row,
        }
    }

    /// The anytime builder's configuration: the opening's columns at turn 0, every column in a
    /// rebuild (a tenth of the node budget, as the beam's rebuild).
    pub fn builder(&self, opening: bool, deadline: Option<Instant>) -> BuilderConfig {
        let beam = if opening { self.opening(deadline) } else { self.rebuild(deadline) };
        BuilderConfig {
            depth: if opening { self.builder_depth } else { self.builder_depth.min(self.rebuild_depth) },
            sweep_width: self.builder_sweep_width,
            queue_cap: self.builder_queue_cap,
            positions: beam.positions,
            weights: self.builder_weights(),
            potential: self.builder_potential,
            deadline: beam.deadline,
            node_budget: beam.node_budget,
            seed: self.seed,
            build_chain_max: self.build_chain_max,
        }
    }

    /// Builds our chain from `start` with the chosen builder: the opening (turn 0) or a rebuild,
    /// its line chosen from the menu by [`Self::plan_turn`] or [`Self::rebuild_plan_turns`].
    pub fn build<S: Simulator>(&self, start: Start<'_, S>, opening: bool, deadline: Option<Instant>) -> BeamResult {
        let beam = if opening { self.opening(deadline) } else { self.rebuild(deadline) };
        let turn = start.turn;
        let result = self.search_with(start, &beam, &self.builder(opening, deadline));
        self.choose_line(turn, opening, result)
    }

    /// A plan's search again, from a later turn of the plan: the opening's or a rebuild's
    /// configuration, to [`Self::refine_past_plan_turn`] turns past the turn the plan fires
    /// (the searches that made it spread their width over every depth to their far end; a
    /// shorter one searches the turns that matter wider), the line to the largest chain by
    /// that turn (by [`Self::plan_turn`] at the earliest for the opening). Under a node budget
    /// an opening refinement gets the share `refine_ms / opening_ms` of it, a rebuild's the
    /// rebuild's.
    pub fn refine<S: Simulator>(
        &self,
        start: Start<'_, S>,
        opening: bool,
        fire_turn: usize,
        deadline: Option<Instant>,
    ) -> BeamResult {
        let by = if opening { fire_turn.max(self.plan_turn) } else { fire_turn };
        let depth = (by + self.refine_past_plan_turn).saturating_sub(start.turn).max(1);
        let base = if opening { self.opening(deadline) } else { self.rebuild(deadline) };
        let node_budget = match opening {
            true => self.node_budget().map(|b| (b * self.refine_ms / self.opening_ms.max(1)).max(1)),
            false => base.node_budget,
        };
        let beam = BeamConfig { depth, node_budget, ..base };
        let anytime = BuilderConfig { depth, node_budget, ..self.builder(opening, deadline) };
        let turn = start.turn;
        let mut result = self.search_with(start, &beam, &anytime);
        if let Some(line) = result.menu.choose(by.saturating_sub(turn)) {
            result.line = line.clone();
        }
        result
    }

    /// Sets a search's line to its menu's choice: the largest chain by [`Self::plan_turn`] for
    /// the opening, within [`Self::rebuild_plan_turns`] for a rebuild (0 turns: the deepest
    /// line, seed 000's plan, no menu choice).
    fn choose_line(&self, turn: usize, opening: bool, mut result: BeamResult) -> BeamResult {
        let horizon = if opening {
            (self.plan_turn > 0).then(|| self.plan_turn.saturating_sub(turn))
        } else {
            (self.rebuild_plan_turns > 0).then_some(self.rebuild_plan_turns)
        };
        if let Some(line) = horizon.and_then(|turns| result.menu.choose(turns)) {
            result.line = line.clone();
        }
        result
    }

    /// Runs the chosen builder from `start` with its configuration of the two given: the one
    /// place that dispatches on `--builder`.
    pub fn search_with<S: Simulator>(
        &self,
        start: Start<'_, S>,
        beam: &BeamConfig,
        anytime: &BuilderConfig,
    ) -> BeamResult {
        match self.builder {
            ChainBuilder::Beam => search(start, beam),
            ChainBuilder::Chokudai => builder::search(start, anytime).to_beam_result(),
        }
    }

    /// The midgame rebuild: every column, no targets, a short budget.
    pub fn rebuild(&self, deadline: Option<Instant>) -> BeamConfig {
        BeamConfig {
            width: self.rebuild_width,
            chain_width: self.rebuild_chain_width,
            depth: self.rebuild_depth,
            target: None,
            final_target: None,
            target_slack: self.beam_target_slack,
            positions: 0..=MAX_X,
            weights: self.weights(),
            deadline: if self.node_budget().is_some() { None } else { deadline },
            node_budget: self.node_budget().map(|b| b / 10),
            seed: self.seed,
            build_chain_max: self.build_chain_max,
            potential: self.beam_potential,
        }
    }
}
