//! The anytime chain builder (seed 001's chokudai search): own moves only, turn by turn, with
//! one priority queue of states per depth. A sweep pops the best few states of every depth and
//! expands them into the next depth's queue, and sweeps repeat until the deadline or the node
//! budget, so every depth keeps improving for as long as time lasts instead of being cut at one
//! fixed width.
//!
//! States are ranked by the chain their structure holds ([`best_block_fire`]: one block of the
//! right number anywhere), not by what they have fired, and there is no target: the result is
//! a [`Menu`], the best chain really fireable (with the real pack) at every turn searched, each
//! with the line that leads to it. The plan follows the largest chain within a horizon; the
//! menu as a whole is what the searched position threatens.
//!
//! [`best_block_fire`]: crate::search::chain::best_block_fire
//!
//! Deterministic for a given seed and node budget whatever the thread count: a sweep's pops are
//! fixed before it runs, its expansions run in parallel, and their children are merged into the
//! queues in the sweep's sequential order (the first to reach a position keeps it).

use std::cmp::Ordering;
use std::collections::BinaryHeap;
use std::ops::RangeInclusive;
use std::time::Instant;

use rayon::prelude::*;
use rustc_hash::FxHashSet;

use super::chain::{best_fire, block_fires, erase_fires, mix, tallest, BeamResult, Fire, Line, Menu, Start};
use super::eval::{BuilderWeights, Chain, Shape};
use crate::rules::{Action, Simulator, MAX_X};

/// What the builder searches and how.
#[derive(Clone, Debug)]
pub struct BuilderConfig {
    /// Turns searched ahead at most (the menu reaches `start.turn + depth`).
    pub depth: usize,
    /// States popped and expanded per depth per sweep (chokudai width).
    pub sweep_width: usize,
    /// A depth's queue is cut back to its best half once it holds this many states: the worst
    /// would never be popped, and memory stays bounded.
    pub queue_cap: usize,
    /// Positions building moves may use.
    pub positions: RangeInclusive<u8>,
    pub weights: BuilderWeights,
    /// How states' chain potentials are measured.
    pub potential: PotentialProbe,
    /// Stop (keeping what the finished sweeps found) at this moment.
    pub deadline: Option<Instant>,
    /// Stop before a sweep once this many placements were simulated: with no deadline the
    /// search is then reproducible.
    pub node_budget: Option<u64>,
    /// Seeds the tie-break between states of equal value.
    pub seed: u64,
    /// A building move may fire at most this many links.
    pub build_chain_max: u32,
}

impl Default for BuilderConfig {
    fn default() -> Self {
        BuilderConfig {
            depth: 24,
            sweep_width: 4,
            queue_cap: 1 << 16,
            positions: 0..=MAX_X,
            weights: BuilderWeights::default(),
            potential: PotentialProbe::Drop,
            deadline: None,
            node_budget: None,
            seed: 0,
            build_chain_max: 2,
        }
    }
}

/// What a build found and what it cost.
#[derive(Clone, Debug, Default)]
pub struct BuildResult {
    pub menu: Menu,
    /// Placements simulated.
    pub nodes: u64,
    /// Sweeps completed.
    pub sweeps: u64,
    /// States expanded.
    pub expanded: u64,
}

impl BuildResult {
    /// The menu as the beam's result type, its line the largest chain found (the caller may
    /// choose another entry): what plans, threat estimates and the bot's decision layer read.
    pub fn to_beam_result(&self) -> BeamResult {
        BeamResult {
            line: self
                .menu
                .choose(self.menu.entries.len())
                .cloned()
                .unwrap_or(Line { start_turn: self.menu.start_turn, ..Line::default() }),
            nodes: self.nodes,
            depth: self.menu.entries.len().saturating_sub(1),
            menu: self.menu.clone(),
        }
    }
}

/// A state popped from a queue and expanded (the search tree, kept to rebuild lines).
struct Expanded<S> {
    field: S,
    parent: u32,
    action: Action,
    /// The best real fire at this state's turn.
    fire: Option<Fire>,
}

/// A state waiting in a depth's queue: its field is rebuilt from the parent when popped.
#[derive(Clone, Copy, PartialEq, Eq)]
struct Queued {
    value: i64,
    tiebreak: u64,
    parent: u32,
    action: Action,
}

impl Ord for Queued {
    fn cmp(&self, other: &Self) -> Ordering {
        // Highest value first; then the smaller tie-break; then the earlier parent.
        self.value
            .cmp(&other.value)
            .then(other.tiebreak.cmp(&self.tiebreak))
            .then(other.parent.cmp(&self.parent))
            .then(action_index(other.action).cmp(&action_index(self.action)))
    }
}

impl PartialOrd for Queued {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

fn action_index(action: Action) -> u8 {
    match action {
        Action::Drop { x, rotation } => x * 4 + rotation,
        Action::Skill => u8::MAX,
    }
}

/// How a state's chain potential is measured.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum PotentialProbe {
    /// One block of the right number dropped in each column ([`block_fires`]): triggers a
    /// pack can really hit now.
    #[default]
    Drop,
    /// One exposed block erased ([`erase_fires`]): also triggers reachable from the side or
    /// after more building.
    Erase,
}

/// The chain a state's structure holds: the best one probe sets off, the blocks left after
/// it, and how many probes set off one as long (a chain only one exact block can start waits
/// for that block).
#[derive(Default)]
struct Potential {
    best: Option<(Chain, usize)>,
    triggers: u32,
}

impl Potential {
    fn of<S: Simulator>(field: &S, probe: PotentialProbe, nodes: &mut u64) -> Self {
        let mut potential = Potential::default();
        let mut visit = |chain: Chain, remaining: usize| match potential.best {
            Some((b, _)) if chain.links < b.links => {}
            Some((b, _)) if chain.links == b.links => {
                potential.triggers += 1;
                if chain > b {
                    potential.best = Some((chain, remaining));
                }
            }
            _ => potential = Potential { best: Some((chain, remaining)), triggers: 1 },
        };
        match probe {
            PotentialProbe::Drop => block_fires(field, nodes, |fire| visit(fire.chain, fire.remaining)),
            PotentialProbe::Erase => erase_fires(field, nodes, visit),
        }
        potential
    }

    fn chain(&self) -> Chain {
        self.best.map_or(Chain::default(), |(c, _)| c)
    }
}

/// A child found by an expansion, before it is merged into its queue.
struct Child {
    action: Action,
    hash: u64,
    value: i64,
}

/// Runs the builder from `start`.
pub fn search<S: Simulator>(start: Start<'_, S>, config: &BuilderConfig) -> BuildResult {
    let last_turn = start.packs.len().min(crate::rules::MAX_TURNS);
    // Depth d is the field at the start of turn start + d; its fire needs that turn's pack.
    let max_depth = config.depth.min(last_turn.saturating_sub(start.turn + 1));
    let mut menu = Menu { start_turn: start.turn, entries: vec![None; max_depth + 1], under_row: Vec::new() };
    if start.turn >= last_turn {
        return BuildResult { menu, ..BuildResult::default() };
    }
    let build_actions: Vec<Action> =
        Action::drops().filter(|a| matches!(a, Action::Drop { x, .. } if config.positions.contains(x))).collect();
    let mut tree = Tree {
        expanded: Vec::new(),
        queues: (0..=max_depth).map(|_| BinaryHeap::new()).collect(),
        seen: (0..=max_depth).map(|_| FxHashSet::default()).collect(),
        best: vec![None; max_depth + 1],
        nodes: 0,
        seed: config.seed,
        queue_cap: config.queue_cap,
    };

    // One expansion: the popped state's field, its real fire, and its children.
    let expand = |depth: usize, field: S| -> Expansion<S> {
        let mut nodes = 0;
        let turn = start.turn + depth;
        let pack = start.packs.get(turn);
        let fire = best_fire(&field, pack, &mut nodes);
        let mut children = Vec::new();
        if depth < max_depth {
            children.reserve(build_actions.len());
            for &action in &build_actions {
                let mut child = field.clone();
                let outcome = child.apply(pack, action);
                nodes += 1;
                if outcome.links > config.build_chain_max || child.is_dead() {
                    continue;
                }
                if start.row_falls(depth + 1) {
                    child.drop_garbage_row();
                }
                let potential = Potential::of(&child, config.potential, &mut nodes);
                let shape = Shape {
                    remaining: potential.best.map_or_else(|| child.block_count(), |(_, r)| r) as u32,
                    tallest: tallest(&child) as u8,
                    ..Shape::default()
                };
                let mut value = config.weights.value(potential.chain(), potential.triggers, shape);
                if config.weights.gap_pairs != 0 && value > 0 {
                    value += config.weights.gap_pairs * child.gap_pairs() as i64;
                }
                if config.weights.next_fire_links != 0 && value > 0 {
                    let next = best_fire(&child, start.packs.get(turn + 1), &mut nodes);
                    value += config.weights.next_fire_links * next.map_or(0, |f| f.chain.links) as i64;
                }
                children.push(Child { action, hash: child.board_hash(), value });
            }
        }
        Expansion { field, fire, children, nodes }
    };

    let root = expand(0, start.field.clone());
    tree.merge(0, u32::MAX, Action::Skill, root);
    let mut sweeps = 0;

    loop {
        if config.node_budget.is_some_and(|b| tree.nodes >= b) || config.deadline.is_some_and(|d| Instant::now() >= d) {
            break;
        }
        let mut work: Vec<(usize, Queued)> = Vec::new();
        for (depth, queue) in tree.queues.iter_mut().enumerate().skip(1) {
            for _ in 0..config.sweep_width {
                match queue.pop() {
                    Some(q) => work.push((depth, q)),
                    None => break,
                }
            }
        }
        if work.is_empty() {
            break;
        }
        let tree_ref = &tree.expanded;
        let expansions: Vec<_> = work
            .par_iter()
            .map(|&(depth, q)| {
                let mut field = tree_ref[q.parent as usize].field.clone();
                field.apply(start.packs.get(start.turn + depth - 1), q.action);
                if start.row_falls(depth) {
                    field.drop_garbage_row();
                }
                let mut expansion = expand(depth, field);
                expansion.nodes += 1; // the placement that rebuilt the field
                expansion
            })
            .collect();
        for ((depth, q), expansion) in work.into_iter().zip(expansions) {
            tree.merge(depth, q.parent, q.action, expansion);
        }
        sweeps += 1;
    }

    for (depth, entry) in tree.best.iter().enumerate() {
        if let Some((_, id)) = *entry {
            menu.entries[depth] = Some(line_to(&start, &tree.expanded, id));
        }
    }
    BuildResult { menu, nodes: tree.nodes, sweeps, expanded: tree.expanded.len() as u64 }
}

/// The search's memory: the states expanded, the queues of states waiting at each depth, and
/// the best fire found at each depth.
struct Tree<S> {
    expanded: Vec<Expanded<S>>,
    queues: Vec<BinaryHeap<Queued>>,
    /// Positions already queued at each depth (the first to reach one keeps it).
    seen: Vec<FxHashSet<u64>>,
    best: Vec<Option<(Chain, u32)>>,
    nodes: u64,
    seed: u64,
    queue_cap: usize,
}

impl<S> Tree<S> {
    /// Merges an expansion into the tree, the menu and the next depth's queue.
    fn merge(&mut self, depth: usize, parent: u32, action: Action, expansion: Expansion<S>) {
        let Expansion { field, fire, children, nodes } = expansion;
        let id = self.expanded.len() as u32;
        self.expanded.push(Expanded { field, parent, action, fire });
        self.nodes += nodes;
        if let Some(f) = fire {
            if self.best[depth].is_none_or(|(c, _)| f.chain > c) {
                self.best[depth] = Some((f.chain, id));
            }
        }
        let Some(queue) = self.queues.get_mut(depth + 1) else { return };
        for child in children {
            if self.seen[depth + 1].insert(child.hash) {
                let tiebreak = mix(child.hash ^ mix(self.seed));
                queue.push(Queued { value: child.value, tiebreak, parent: id, action: child.action });
            }
        }
        if queue.len() > self.queue_cap {
            let mut kept = std::mem::take(queue).into_sorted_vec();
            kept.drain(..kept.len() - self.queue_cap / 2);
            *queue = BinaryHeap::from(kept);
        }
    }
}

/// An expansion's result.
struct Expansion<S> {
    /// The popped state's field.
    field: S,
    /// Its best real fire with its turn's pack.
    fire: Option<Fire>,
    children: Vec<Child>,
    /// Placements simulated.
    nodes: u64,
}

/// The line from the root to the tree's state `id`, ending with that state's fire.
fn line_to<S: Simulator>(start: &Start<'_, S>, tree: &[Expanded<S>], id: u32) -> Line {
    let mut path = Vec::new();
    let mut at = id;
    while at != 0 {
        path.push(at);
        at = tree[at as usize].parent;
    }
    path.reverse();
    let mut line = Line {
        start_turn: start.turn,
        builds: Vec::with_capacity(path.len()),
        fires: vec![tree[0].fire],
        expected: vec![tree[0].field.to_field()],
        under_row: None,
    };
    for &node in &path {
        let node = &tree[node as usize];
        line.builds.push(node.action);
        line.fires.push(node.fire);
        line.expected.push(node.field.to_field());
    }
    line
}
