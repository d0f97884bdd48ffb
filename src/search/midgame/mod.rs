//! The midgame exhaustive search (seed 000: 最善手の探玢 to 評䟡倀の芋盎し): every action of
//! both players to a few plies, the opponent assumed to answer as badly for us as it can.
//!
//! # Model
//! - The opponent's tree is searched first, alone (`opponent.rs`). Its lines are summarised per
//!   ply and per class: the plies at which a garbage row fell on it (decided by what we send)
//!   and the plies at which it attacked or kept quiet. A class says whether the opponent
//!   survives, the most garbage its drops or skill send, the most gauge it drains, and after
//!   the last ply what its skill would send. A row is searched as falling on it at ply k only
//!   if what we can have sent by then (a cheap search of our field alone) can push its stock
//!   to a row (the seed's use of our ply-1 maximum, generalised).
//! - Our tree (`own.rs`) then tries every action at every ply with the exact bookkeeping of
//!   the rules' turn: garbage row at the turn's start, action and chain, +8 gauge for chaining,
//!   the opponent's drain 12 + 2C, garbage to the other side, offsetting, the danger line (a
//!   unit test checks one ply against [`crate::rules::Game::play`]). After each of our moves
//!   the opponent answers from its class: it attacks with the worst the class allows, or keeps
//!   quiet with the worst of its quiet moves — both are searched and the worse for us is taken
//!   (the seed's 2^4 branching: whether a garbage row then falls on us or not). As in the
//!   seed, any send or drain is an attack and a quiet move sends nothing; then the class of a
//!   line that sent a small chain at ply 1 also holds the line that fired its big chain there,
//!   and the opponent can fire that chain twice. [`MidgameParams::attack_min_send`] makes only
//!   big sends attacks (quiet answers then carry the small sends and drains).
//! - The garbage state of both sides is one number: the opponent's pending garbage minus ours
//!   (after offsetting one of them is 0).
//! - Minimax with fail-soft alpha-beta, which gives the full minimax value: the root moves after
//!   the first (the previous depth's best) are searched in parallel with the first's value as
//!   alpha, so a move that cannot beat it gets an upper bound instead of its value
//!   ([`MidgameParams::exact_root`] searches them all in full). Inside, the move that last cut
//!   at a ply is tried first, then the moves sending the most; the opponent's answer that last
//!   refuted at a ply is tried first.
//! - Iterative deepening 1..=depth; a depth interrupted by the deadline or the node budget is
//!   thrown away, depth 1 always completes. On the clock a depth is not started when the last
//!   one's time, times its growth, would pass the deadline. The answer is deterministic for a given input,
//!   parameters and node budget whatever the thread count: the first root move's value is
//!   known before the others start, the opponent's tree is split by its first move and merged
//!   by maxima, and the move orders and transposition tables are local to one task. A depth
//!   is kept only if its whole search fits the node budget, so when threads report does not
//!   matter.
//!
//! # Simplifications against the seed
//! - An opponent class's worst attack and its later moves are maxima over all its lines of
//!   that class, not one line: a class that attacked at ply 2 may attack its worst again at
//!   ply 3 if some other line of that class can (the seed keeps maxima per depth alone, which
//!   is more pessimistic).
//! - The opponent's gauge in our tree is an upper bound: it gains 8 whenever some line of its
//!   class chains; our drains are exact. Its skill is searched in its tree whenever its own
//!   gains allow it, and used in ours only where the bound reaches 80.
//! - What each side's skill would send at the leaves is measured once before the last move of
//!   the line (per leaf it costs as much as the leaves themselves).
//! - The blocks and garbage on the opponent's field per class are not summarised: the garbage
//!   follows from the rows fallen, and no evaluation term uses the block count.

mod eval;
mod lethal;
mod opponent;
mod own;
mod params;

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::time::{Duration, Instant};

pub use lethal::lethal_garbage;
pub use params::{MidgameParams, OpponentModel};

use crate::rules::{Action, Simulator, GARBAGE, GARBAGE_ROW, MAX_HEIGHT, MAX_TURNS, WIDTH};
use crate::state::TurnState;
use eval::{Evaluator, Line};
use opponent::OpponentTree;
use own::{Node, OwnTree, Task};
use rayon::prelude::*;

/// The unit of values: one garbage block is worth this much.
pub const VALUE_PER_BLOCK: i64 = 100;

/// The deepest search the class keys allow (the caller asks 2–5).
pub const MAX_DEPTH: usize = 6;

/// On the clock, the next depth is assumed to cost at least this many times the last one (each
/// ply multiplies both trees; alpha-beta and the class summaries keep it far below 22²).
const MIN_DEPTH_GROWTH: f64 = 4.0;

/// Extra knowledge the bot computed from beam searches. Bonuses are in value units
/// ([`VALUE_PER_BLOCK`] per garbage block).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Advice {
    /// The beam plan's move: its value is reported as [`MidgameResult::plan_value`].
    pub plan_action: Option<Action>,
    /// The race's exchange game: `(links, bonus)` added to root moves firing at least `links`.
    pub fire_bonus: Option<(u32, i64)>,
    /// The race's exchange game: `(links, penalty)` subtracted from root moves firing at least `links`.
    pub fire_penalty: Option<(u32, i64)>,
}

/// What the search found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MidgameResult {
    /// The best root move (always legal: the skill only with gauge ≥ 80).
    pub best: Action,
    /// Its value (advice included).
    pub value: i64,
    /// The value of [`Advice::plan_action`], when it is a legal move.
    pub plan_value: Option<i64>,
    /// The deepest completed depth.
    pub depth: usize,
    /// Simulations run (placements, skills), the interrupted depth included.
    pub nodes: u64,
    /// Every root move with its value (advice included), in [`Action::all`] order.
    pub root: Vec<(Action, i64)>,
    /// Per root move: false when its value is only an upper bound. The root moves after the
    /// first are searched with the first's value as alpha, so one that cannot beat the best is
    /// cut short (unless [`MidgameParams::exact_root`]). The best and the plan's move are exact.
    pub root_exact: Vec<bool>,
}

/// Searches the turn of `state` with iterative deepening to `params.depth`, until `deadline`
/// or `node_budget` simulations (depth 1 always completes).
pub fn search<S: Simulator + Send + Sync>(
    state: &TurnState<'_, S>,
    params: &MidgameParams,
    advice: &Advice,
    deadline: Option<Instant>,
    node_budget: Option<u64>,
) -> MidgameResult {
    let turns_left = state.packs.len().min(MAX_TURNS).saturating_sub(state.turn).max(1);
    let max_depth = params.depth.clamp(1, MAX_DEPTH).min(turns_left);
    let budget = Budget::new(deadline, node_budget);
    let actions: Vec<Action> = Action::all(state.me.skill_allowed()).collect();
    // The advice depends on the chain each root move fires.
    let adjust: Vec<i64> = actions
        .iter()
        .map(|&action| {
            let links = state.me.field.clone().apply(state.pack(), action).links;
            let fires = |advice: Option<(u32, i64)>| advice.filter(|&(l, _)| links >= l.max(1)).map_or(0, |(_, v)| v);
            fires(advice.fire_bonus) - fires(advice.fire_penalty)
        })
        .collect();
    budget.spend(actions.len() as u64);
    let plan = advice.plan_action.and_then(|p| actions.iter().position(|&a| a == p));
    let evaluator = Evaluator::new(
        params,
        state.turn,
        lethal_garbage(&state.opponent.field),
        garbage_on(&state.me.field),
        garbage_on(&state.opponent.field),
    );
    let root = RootSearch { actions: &actions, adjust: &adjust, plan, exact_all: params.exact_root };
    // Moves in search order: the previous depth's best first (ties keep the earlier order).
    let mut order: Vec<usize> = (0..actions.len()).collect();
    let mut done: Option<(usize, Vec<(i64, bool)>)> = None;
    let mut last_duration: Option<Duration> = None;
    for depth in 1..=max_depth {
        budget.binding.store(depth > 1, Relaxed);
        let depth_started = Instant::now();
        match search_depth(state, params, &evaluator, depth, &root, &order, &budget) {
            Some(values) if !budget.over_limit() || depth == 1 => {
                order.sort_by_key(|&i| std::cmp::Reverse(values[i].0 + adjust[i]));
                done = Some((depth, values));
            }
            _ => break,
        }
        if budget.over_limit() || deadline.is_some_and(|d| Instant::now() >= d) {
            break;
        }
        // On the clock, a depth that cannot finish would only be thrown away: its time is better
        // left to later turns. (Under a node budget the depth is tried, so the answer does not
        // depend on timing.)
        let took = depth_started.elapsed();
        if let (Some(deadline), None) = (deadline, node_budget) {
            let growth = last_duration.map_or(MIN_DEPTH_GROWTH, |before| {
                (took.as_secs_f64() / before.as_secs_f64().max(1e-6)).max(MIN_DEPTH_GROWTH)
            });
            if Instant::now() + took.mul_f64(growth) > deadline {
                break;
            }
        }
        last_duration = Some(took);
    }
    let (depth, values) = done.expect("depth 1 always completes");
    let root: Vec<(Action, i64)> = actions
        .iter()
        .zip(&values)
        .zip(&adjust)
        .map(|((&action, &(value, _)), &adjust)| (action, value + adjust))
        .collect();
    let (best, value) = root[order[0]];
    MidgameResult {
        best,
        value,
        plan_value: plan.map(|i| root[i].1),
        depth,
        nodes: budget.nodes.load(Relaxed),
        root,
        root_exact: values.iter().map(|&(_, exact)| exact).collect(),
    }
}

/// The root moves and what decides how each is searched.
struct RootSearch<'a> {
    actions: &'a [Action],
    /// The advice's adjustment of each move's value.
    adjust: &'a [i64],
    /// The plan's move (its value must be exact).
    plan: Option<usize>,
    exact_all: bool,
}

/// One depth of the iterative deepening: each root move's value (advice not included) and
/// whether it is exact, or `None` when interrupted. The first move in `order` is searched with
/// a full window; the others, in parallel, only need to show whether they beat it.
fn search_depth<S: Simulator>(
    state: &TurnState<'_, S>,
    params: &MidgameParams,
    evaluator: &Evaluator<'_>,
    depth: usize,
    root: &RootSearch<'_>,
    order: &[usize],
    budget: &Budget,
) -> Option<Vec<(i64, bool)>> {
    let keys = Keys { depth };
    let net = state.opponent.garbage as i64 - state.me.garbage as i64;
    // A row can fall on the opponent at ply k only if what we can have sent by ply k − 1 can
    // have pushed its stock to a row.
    let most_sent = if depth > 1 {
        own::most_sent(state.packs, state.turn, depth - 1, &state.me.field, state.me.gauge, budget)?
    } else {
        Vec::new()
    };
    let row = GARBAGE_ROW as i64;
    let row_possible: Vec<Vec<bool>> = (0..=depth)
        .map(|ply| {
            (0..depth)
                .map(|fallen| ply >= 2 && net.max(0) + most_sent[ply - 2] as i64 - row * fallen as i64 >= row)
                .collect()
        })
        .collect();
    let opponent = OpponentTree {
        packs: state.packs,
        turn: state.turn,
        keys,
        row_possible,
        skill_gauge_min: params.opp_skill_min_gauge,
        attack_min_send: params.attack_min_send,
        budget,
    };
    let summary = opponent.summarise(&state.opponent.field, state.opponent.gauge)?;
    let p = params;
    let own_skill_used = p.own_skill != 0;
    let tree = OwnTree {
        packs: state.packs,
        turn: state.turn,
        keys,
        summary: &summary,
        eval: evaluator,
        model: params.opponent,
        budget,
        own_skill_used,
    };
    let node = Node {
        field: state.me.field.clone(),
        gauge: state.me.gauge,
        line: Line { net: net as i32, opp_gauge: state.opponent.gauge, ..Line::default() },
    };
    let value_of = |i: usize, alpha: i64| {
        let mut task = Task::new();
        let value = tree.root_value(&node, root.actions[i], alpha, &mut task);
        budget.spend(task.nodes);
        value
    };
    let first = order[0];
    let first_value = value_of(first, i64::MIN);
    let bar = first_value + root.adjust[first];
    let rest: Vec<(usize, i64, bool)> = order[1..]
        .par_iter()
        .map(|&i| {
            let exact = root.exact_all || root.plan == Some(i);
            let alpha = if exact { i64::MIN } else { bar - root.adjust[i] };
            let value = value_of(i, alpha);
            (i, value, exact || value > alpha)
        })
        .collect();
    if budget.stopped() {
        return None;
    }
    let mut values = vec![(0, false); root.actions.len()];
    values[first] = (first_value, true);
    for (i, value, exact) in rest {
        values[i] = (value, exact);
    }
    Some(values)
}

fn garbage_on<S: Simulator>(field: &S) -> u32 {
    (0..WIDTH).map(|x| (0..MAX_HEIGHT).filter(|&y| field.cell(x, y) == GARBAGE).count() as u32).sum()
}

/// Where an opponent class keeps its bits: bit k − 2 for a row fallen at ply k (2..=depth),
/// bit depth − 1 + k − 1 for an attack at ply k (1..=depth).
#[derive(Clone, Copy, Debug)]
struct Keys {
    depth: usize,
}

impl Keys {
    fn size(self) -> usize {
        1 << (2 * self.depth - 1)
    }

    fn fall(self, ply: usize) -> u32 {
        debug_assert!((2..=self.depth).contains(&ply));
        1 << (ply - 2)
    }

    fn attack(self, ply: usize) -> u32 {
        debug_assert!((1..=self.depth).contains(&ply));
        1 << (self.depth + ply - 2)
    }

    fn rows_fallen(self, key: u32) -> u32 {
        (key & ((1 << (self.depth - 1)) - 1)).count_ones()
    }
}

/// Simulations counted across threads, and when to stop.
struct Budget {
    nodes: AtomicU64,
    limit: Option<u64>,
    deadline: Option<Instant>,
    /// False while depth 1 runs: it always completes.
    binding: AtomicBool,
    stopped: AtomicBool,
}

impl Budget {
    fn new(deadline: Option<Instant>, limit: Option<u64>) -> Self {
        Budget {
            nodes: AtomicU64::new(0),
            limit,
            deadline,
            binding: AtomicBool::new(false),
            stopped: AtomicBool::new(false),
        }
    }

    fn spend(&self, nodes: u64) {
        self.nodes.fetch_add(nodes, Relaxed);
    }

    /// Adds a task's simulations to the total and says whether to stop. Stopping on the node
    /// budget happens only when the total is over it, so a depth is kept exactly when its whole
    /// search fits: the answer does not depend on when threads report.
    fn checkpoint(&self, local: &mut u64) -> bool {
        let total = self.nodes.fetch_add(*local, Relaxed) + *local;
        *local = 0;
        if !self.binding.load(Relaxed) {
            return false;
        }
        if self.stopped.load(Relaxed) {
            return true;
        }
        let out = self.limit.is_some_and(|l| total > l) || self.deadline.is_some_and(|d| Instant::now() >= d);
        if out {
            self.stopped.store(true, Relaxed);
        }
        out
    }

    fn stopped(&self) -> bool {
        self.stopped.load(Relaxed)
    }

    fn over_limit(&self) -> bool {
        self.limit.is_some_and(|l| self.nodes.load(Relaxed) > l)
    }
}

/// splitmix64's finaliser: spreads small numbers over 64 bits for hash keys.
fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}
