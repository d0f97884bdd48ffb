//! The game's rules, written plainly: constants, scores, packs, actions, the reference field
//! engine (the oracle every faster simulator is tested against) and the two-player turn.
//!
//! Coordinates: `x` is the column 0..10 from the left, `y` the row from the bottom (0-based).
//! The rule book's "row 17" (the danger line) is `y = 16` here.

mod action;
mod field;
mod game;
mod pack;
mod score;

pub use action::{Action, ActionParseError};
pub use field::{Field, FieldParseError};
pub use game::{Fault, FaultKind, Game, GameEnd, GameResult, PlayerState, TurnRecord};
pub use pack::{ColumnBlocks, Pack, Packs};
pub use score::{chain_garbage, chain_score, explosion_score, garbage_for, gauge_drain, link_score};

/// Columns of a field.
pub const WIDTH: usize = 10;
/// Rows a field shows in the protocol and may hold at the end of a turn.
pub const VISIBLE_HEIGHT: usize = 16;
/// Rows a column may hold during a turn: 16 + one garbage row + a 2-high pack.
pub const MAX_HEIGHT: usize = 19;
/// A block at this row (0-based from the bottom) or above at the end of a turn loses.
pub const DANGER_ROW: usize = VISIBLE_HEIGHT;
/// The number garbage blocks carry in the protocol.
pub const GARBAGE: u8 = 11;
/// The sum two neighbouring blocks must make to vanish.
pub const VANISH_SUM: u8 = 10;
/// Garbage blocks in one row; also the stock needed for a row to fall.
pub const GARBAGE_ROW: u32 = WIDTH as u32;
/// Gauge needed (at the end of the previous turn) to use the skill.
pub const SKILL_THRESHOLD: u32 = 80;
/// The gauge never exceeds this.
pub const GAUGE_MAX: u32 = 100;
/// Gauge gained in a turn where chaining vanished anything.
pub const GAUGE_GAIN: u32 = 8;
/// Turns in a game (0..=499).
pub const MAX_TURNS: usize = 500;
/// Packs in a game.
pub const PACK_COUNT: usize = 500;
/// Leftmost position a pack may be dropped at (its left column).
pub const MAX_X: u8 = (WIDTH - 2) as u8;
/// Rotations 0..=3, each 90° clockwise.
pub const ROTATIONS: u8 = 4;
/// Thinking time for a whole game.
pub const GAME_TIME_MS: u64 = 180_000;
/// The online qualifier's per-turn cap.
pub const TURN_TIME_MS: u64 = 20_000;

/// What one action did to its own field: the explosion (skill only) and the chain after it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Outcome {
    /// Chain links (vanish steps that removed something); for the skill, the links after the explosion.
    pub links: u32,
    /// Blocks removed by all chain links.
    pub vanished: u32,
    /// Blocks removed by the skill's explosion (0 for a drop).
    pub exploded: u32,
    /// True when the action was the skill (then `explosion_score` counts even if 0 blocks).
    pub skill: bool,
}

impl Outcome {
    /// Points for the chain links (chain score or skill-chain score).
    pub fn chain_score(&self) -> u64 {
        chain_score(self.links)
    }
    /// Points for the explosion: 0 unless the skill was used and exploded something.
    pub fn explosion_score(&self) -> u64 {
        if self.skill {
            explosion_score(self.exploded)
        } else {
            0
        }
    }
    /// All points this action adds to the player's score.
    pub fn score(&self) -> u64 {
        self.chain_score() + self.explosion_score()
    }
    /// Garbage this action sends: floor(explosion/2) + floor(chain/2).
    pub fn garbage(&self) -> u32 {
        garbage_for(self.explosion_score()) + garbage_for(self.chain_score())
    }
}

/// A way to observe a chain as it happens (for explanations and tests). The reference engine and
/// the bitboard both call it; `NoTrace` compiles to nothing.
pub trait ChainTracker {
    /// False for trackers that record nothing, so engines can skip the bookkeeping entirely.
    const ENABLED: bool = true;
    /// A block of `number` at (x, y) vanished in link `link` (1-based; 0 = the skill's explosion).
    fn vanished(&mut self, link: u32, x: usize, y: usize, number: u8);
}

/// The tracker that records nothing.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoTrace;

impl ChainTracker for NoTrace {
    const ENABLED: bool = false;
    #[inline(always)]
    fn vanished(&mut self, _: u32, _: usize, _: usize, _: u8) {}
}

/// A tracker that keeps every vanished block: `(link, x, y, number)`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ChainTrace {
    pub cells: Vec<(u32, usize, usize, u8)>,
}

impl ChainTracker for ChainTrace {
    fn vanished(&mut self, link: u32, x: usize, y: usize, number: u8) {
        self.cells.push((link, x, y, number));
    }
}

impl ChainTrace {
    /// Sorted, so traces from engines that visit cells in different orders compare equal.
    pub fn normalized(mut self) -> Self {
        self.cells.sort_unstable();
        self
    }
}

/// A field simulator: everything a whole turn needs from one player's field. The reference
/// [`Field`] and the bitboard both implement it, and must give identical results.
pub trait Simulator: Clone + Send + Sync {
    /// Builds the simulator's field from the plain one.
    fn from_field(field: &Field) -> Self;
    /// The plain field this simulator holds.
    fn to_field(&self) -> Field;
    /// One garbage block on top of every column (turn step 1).
    fn drop_garbage_row(&mut self);
    /// Drops `pack` at `x` (0..=8) with `rotation` (0..=3) and resolves the chain.
    fn drop_pack_traced<T: ChainTracker>(&mut self, pack: &Pack, x: u8, rotation: u8, trace: &mut T) -> Outcome;
    /// Fires the skill (explosion, then the chain) — the gauge is the caller's business.
    fn use_skill_traced<T: ChainTracker>(&mut self, trace: &mut T) -> Outcome;
    /// Removes the numbered block at (x, y) as a partner's vanish would, lets the blocks above
    /// fall and resolves the chain: the removal is link 1. A probe for chain potentials (not a
    /// game action); the field must be stable.
    fn erase(&mut self, x: usize, y: usize) -> Outcome;
    /// True when a block is at or above the danger line.
    fn is_dead(&self) -> bool;
    /// Blocks (garbage included) in column `x`.
    fn height(&self, x: usize) -> usize;

    /// A hash of the field for transposition tables: equal fields hash equal.
    fn board_hash(&self) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut h = rustc_hash::FxHasher::default();
        self.to_field().hash(&mut h);
        h.finish()
    }

    /// The cell at column `x`, row `y` from the bottom (0 empty, 1–9, 11 garbage).
    fn cell(&self, x: usize, y: usize) -> u8 {
        self.to_field().get(x, y)
    }

    /// Pairs of numbered blocks summing to 10 that one block apart would vanish: two rows
    /// apart in one column, or two rows up and one column across (a knight's move). Each is
    /// a link waiting for the block between (or below) to go, which is how chains are built.
    fn gap_pairs(&self) -> u32 {
        let mut pairs = 0;
        for x in 0..WIDTH {
            for y in 0..self.height(x) {
                let lower = self.cell(x, y);
                if !(1..=9).contains(&lower) {
                    continue;
                }
                for nx in [x.wrapping_sub(1), x, x + 1] {
                    if nx < WIDTH && self.cell(nx, y + 2) == 10 - lower {
                        pairs += 1;
                    }
                }
            }
        }
        pairs
    }

    /// Blocks on the field, garbage included.
    fn block_count(&self) -> usize {
        (0..WIDTH).map(|x| self.height(x)).sum()
    }

    /// [`Simulator::drop_pack_traced`] without a trace.
    #[inline]
    fn drop_pack(&mut self, pack: &Pack, x: u8, rotation: u8) -> Outcome {
        self.drop_pack_traced(pack, x, rotation, &mut NoTrace)
    }
    /// [`Simulator::use_skill_traced`] without a trace.
    #[inline]
    fn use_skill(&mut self) -> Outcome {
        self.use_skill_traced(&mut NoTrace)
    }
    /// Applies an action; the skill's legality (gauge) is checked by the caller.
    #[inline]
    fn apply(&mut self, pack: &Pack, action: Action) -> Outcome {
        match action {
            Action::Drop { x, rotation } => self.drop_pack(pack, x, rotation),
            Action::Skill => self.use_skill(),
        }
    }
}
