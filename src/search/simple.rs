//! Two simple opponents for tests and soaks, not for winning:
//!
//! - [`random_drop`]: a uniformly random drop, reproducible from a seed.
//! - [`quiet`]: never sends garbage and survives as long as it can, so two quiet bots play to
//!   the 500-turn limit (a long game that exercises memory and the turn limit).

use std::hash::{Hash, Hasher};

use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;

use crate::rules::{Action, Simulator, WIDTH};
use crate::state::TurnState;

/// A uniformly random drop (never the skill). The same seed, packs and turn give the same drop,
/// so a game replays exactly; the packs are mixed in so different games get different moves.
pub fn random_drop<S: Simulator>(state: &TurnState<S>, seed: u64) -> (Action, String) {
    let mut hasher = rustc_hash::FxHasher::default();
    (seed, state.turn, &state.packs.0).hash(&mut hasher);
    let mut rng = Pcg64Mcg::seed_from_u64(hasher.finish());
    let drops: Vec<Action> = Action::drops().collect();
    let action = drops[rng.gen_range(0..drops.len())];
    (action, format!("  random drop (seed {seed})\n"))
}

/// Packs the quiet bot looks at: this turn's and the next (all packs are known from the start).
const QUIET_DEPTH: usize = 2;

/// The most links a quiet move may make: one link scores 1 point, which sends no garbage
/// (`rules::chain_garbage(1) == 0`); two links already send one block.
pub const QUIET_MAX_LINKS: u32 = 1;

/// A drop for a bot that never sends garbage: every move makes at most one chain link, and among
/// those it keeps the field low and small (blocks vanished, the tallest column, crowded columns),
/// looking at this turn's pack and the next. Only when every such move dies does it fire a real chain
/// (the one that survives with the fewest links); it never uses the skill.
pub fn quiet<S: Simulator>(state: &TurnState<S>) -> (Action, String) {
    let field = &state.me.field;
    let mut best: Option<(Action, i64)> = None;
    for action in Action::drops() {
        let mut next = field.clone();
        let outcome = next.apply(state.pack(), action);
        if outcome.links > QUIET_MAX_LINKS || next.is_dead() {
            continue;
        }
        let value = outcome.vanished as i64 * VANISHED + look_ahead(&next, state, 1);
        if best.is_none_or(|(_, v)| value > v) {
            best = Some((action, value));
        }
    }
    if let Some((action, value)) = best {
        return (action, format!("  quiet drop: value {value}\n"));
    }
    // Every quiet move dies: survive by a chain if one does, sending as little as possible.
    let survivor = Action::drops()
        .filter_map(|action| {
            let mut next = field.clone();
            let outcome = next.apply(state.pack(), action);
            (!next.is_dead()).then_some((outcome.links, action))
        })
        .min();
    match survivor {
        Some((links, action)) => (action, format!("  no quiet move survives: a chain of {links} links\n")),
        None => (Action::Drop { x: 0, rotation: 0 }, "  every move dies\n".into()),
    }
}

/// Weight of a block vanished on the way (later plies count the same: a vanished block is gone).
const VANISHED: i64 = 100;
/// Weight of the tallest column's height.
const TALLEST: i64 = 30;
/// Weight of the square of each column's height above [`CROWDED_FROM`].
const CROWDED: i64 = 20;
const CROWDED_FROM: usize = 8;
/// The value of a line on which every move makes a chain or dies: worse than any quiet line.
const DEAD_END: i64 = -1_000_000;

/// The best value reachable from `field` with quiet drops of the packs from ply `ply` on.
fn look_ahead<S: Simulator>(field: &S, state: &TurnState<S>, ply: usize) -> i64 {
    let turn = state.turn + ply;
    if ply >= QUIET_DEPTH || turn >= state.packs.len() {
        return leaf_value(field);
    }
    let pack = state.packs.get(turn);
    let mut best = DEAD_END;
    for action in Action::drops() {
        let mut next = field.clone();
        let outcome = next.apply(pack, action);
        if outcome.links > QUIET_MAX_LINKS || next.is_dead() {
            continue;
        }
        best = best.max(outcome.vanished as i64 * VANISHED + look_ahead(&next, state, ply + 1));
    }
    best
}

/// How safe a field is: low columns, and none crowding the danger line.
fn leaf_value<S: Simulator>(field: &S) -> i64 {
    let heights = (0..WIDTH).map(|x| field.height(x));
    let tallest = heights.clone().max().unwrap_or(0) as i64;
    let crowded: i64 = heights.map(|h| (h.saturating_sub(CROWDED_FROM) as i64).pow(2)).sum();
    -TALLEST * tallest - CROWDED * crowded
}
