//! Evaluation of positions for the searchers. Every weight is a named parameter.

/// A chain a field can fire: compared by links, then by blocks vanished.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Chain {
    pub links: u32,
    pub vanished: u32,
}

/// What the beam measures of a state besides its chains.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Shape {
    /// Blocks left after the state's best chain.
    pub remaining: u32,
    /// Height of the tallest column.
    pub tallest: u8,
    /// Blocks on the field (the material chains are built from).
    pub blocks: u32,
    /// Gap pairs ([`Simulator::gap_pairs`](crate::rules::Simulator::gap_pairs)), when weighed.
    pub gap_pairs: u32,
}

impl Shape {
    /// True when a block stands in row `max_row` (1-based from the bottom) or above: stacked so
    /// high there is no room to answer garbage, whatever the state could fire.
    pub fn reaches(&self, max_row: usize) -> bool {
        self.tallest as usize >= max_row
    }
}

/// Weights of the chain-building beam's evaluation (seed 000, 評䟡倀に぀いお).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BeamWeights {
    /// Per link of the best chain reachable anywhere on the line so far: the game scores a
    /// chain by its links, so a longer chain must win over one that only vanishes more blocks.
    pub reachable_links: i64,
    /// Per link of the best chain the deepest state can fire.
    pub deepest_links: i64,
    /// Per block vanished by the best chain reachable anywhere on the line so far.
    pub reachable: i64,
    /// Per block vanished by the best chain the deepest state can fire.
    pub deepest: i64,
    /// Per block left on the field after the deepest state's best chain.
    pub remaining: i64,
    /// Per link of the chain the state itself can fire with its turn's pack: a line whose
    /// ready chain dips while it builds a bigger one cannot answer a fire during the dip.
    pub ready_links: i64,
    /// Per block that chain vanishes.
    pub ready: i64,
    /// Per block on the field: material kept rather than spent by building moves.
    pub blocks: i64,
    /// Per gap pair: links waiting for the block between to go.
    pub gap_pairs: i64,
    /// Per row of the tallest column (negative: a flatter field keeps room to grow the chain).
    pub tallest: i64,

    /// A state with a block in this row (1-based from the bottom) or above is ranked below
    /// every state that has none ([`TOO_HIGH`]): stacking so high leaves no room to answer
    /// garbage.
    pub max_row: usize,
}

impl Default for BeamWeights {
    fn default() -> Self {
        BeamWeights {
            reachable_links: 0,
            deepest_links: 1_000_000,
            reachable: 0,
            deepest: 0,
            remaining: 0,
            ready_links: 0,
            ready: 0,
            blocks: 1000,
            gap_pairs: 0,
            tallest: 0,
            max_row: 14,
        }
    }
}

impl BeamWeights {
    /// Seed 000's ranking: first by the best chain the line has been able to fire so far, then
    /// by the state's own potential. Lines that could fire a chain once may tear it down while
    /// building a bigger one; the default ranks by the structure's potential alone, with the
    /// blocks kept as the tie-break (togatoga's measure), and plans pick their line from the menu.
    pub fn seed() -> Self {
        BeamWeights {
            reachable_links: 100_000,
            deepest_links: 10_000,
            reachable: 1000,
            deepest: 100,
            remaining: 1,
            ready_links: 0,
            ready: 0,
            blocks: 0,
            gap_pairs: 0,
            tallest: 0,
            max_row: 14,
        }
    }

    /// The value of a state on a line: `reachable` is the best chain of the line up to here,
    /// `deepest` the best chain this state's structure holds, `ready` the chain it can really
    /// fire with its turn's pack, `shape` what else is measured of it.
    pub fn value(&self, reachable: Chain, deepest: Chain, ready: Chain, shape: Shape) -> i64 {
        let value = self.reachable_links * reachable.links as i64
            + self.ready_links * ready.links as i64
            + self.ready * ready.vanished as i64
            + self.deepest_links * deepest.links as i64
            + self.reachable * reachable.vanished as i64
            + self.deepest * deepest.vanished as i64
            + self.remaining * shape.remaining as i64
            + self.blocks * shape.blocks as i64
            + self.gap_pairs * shape.gap_pairs as i64
            + self.tallest * shape.tallest as i64;
        below_if_too_high(value, shape, self.max_row)
    }

    /// True when a state's own real fire is part of its value (so it must be measured for
    /// every candidate, not only the kept ones).
    pub fn weighs_ready(&self) -> bool {
        self.ready_links != 0 || self.ready != 0
    }
}

/// Weights of the anytime chain builder's evaluation: a state is worth the chain its structure
/// holds (one block of the right number dropped anywhere), not what it has already fired.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BuilderWeights {
    /// Per link of the chain the structure holds.
    pub links: i64,
    /// Per block that chain vanishes.
    pub vanished: i64,
    /// Per block left on the field after it (material for the next chain).
    pub remaining: i64,
    /// Per single block (column and number) that sets off a chain as long.
    pub triggers: i64,
    /// Per link of the chain the state can really fire with its turn's pack (seed 000's
    /// measure; 0 = not measured, which saves a placement of every rotation per state).
    pub next_fire_links: i64,
    /// Per gap pair ([`Simulator::gap_pairs`](crate::rules::Simulator::gap_pairs): links
    /// waiting to be made; 0 = not measured).
    pub gap_pairs: i64,
    /// A state with a block in this row (1-based from the bottom) or above is ranked below
    /// every state that has none ([`TOO_HIGH`]).
    pub max_row: usize,
}

/// Subtracted from the value of a state stacked into the danger zone (both searchers): it ranks
/// below every state that is not, yet among such states their chains still decide. Under
/// garbage every state may be that tall, and a rebuild or a probe of the opponent's answer must
/// still find its chain (scoring them all 0 left the builder blind: kera's 16-link answer was
/// probed as 13; the beam's chain groups mostly hid it there).
pub const TOO_HIGH: i64 = 1 << 40;

impl Default for BuilderWeights {
    fn default() -> Self {
        BuilderWeights {
            links: 10_000,
            vanished: 100,
            remaining: 1,
            triggers: 0,
            next_fire_links: 0,
            gap_pairs: 0,
            max_row: 14,
        }
    }
}

impl BuilderWeights {
    /// The value of a state holding `potential`, set off by `triggers` single blocks, shaped as
    /// `shape`.
    pub fn value(&self, potential: Chain, triggers: u32, shape: Shape) -> i64 {
        let value = self.links * potential.links as i64
            + self.vanished * potential.vanished as i64
            + self.remaining * shape.remaining as i64
            + self.triggers * triggers as i64;
        below_if_too_high(value, shape, self.max_row)
    }
}

/// `value`, ranked below every state that is not stacked into the danger zone when `shape` is.
fn below_if_too_high(value: i64, shape: Shape, max_row: usize) -> i64 {
    if shape.reaches(max_row) {
        value - TOO_HIGH
    } else {
        value
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_longer_chain_outranks_one_that_only_vanishes_more_blocks() {
        let long = Chain { links: 16, vanished: 40 };
        let bulky = Chain { links: 13, vanished: 49 };
        let small = Chain { links: 5, vanished: 10 };
        let shape = Shape { remaining: 30, tallest: 10, blocks: 40, ..Shape::default() };
        // Seed 000's ranking: by the line's best chain, then by the state's own.
        let seed = BeamWeights::seed();
        assert!(seed.value(long, small, small, shape) > seed.value(bulky, small, small, shape));
        assert!(seed.value(small, long, small, shape) > seed.value(small, bulky, small, shape));
        // The default: by the state's own potential alone, the blocks kept breaking ties.
        let weights = BeamWeights::default();
        assert_eq!(weights.value(long, small, small, shape), weights.value(bulky, small, small, shape));
        assert!(weights.value(small, long, small, shape) > weights.value(long, bulky, long, shape));
        let more_blocks = Shape { blocks: 41, ..shape };
        assert!(weights.value(small, long, small, more_blocks) > weights.value(small, long, small, shape));
        // Stacked into the danger zone: below every lower state, but still ranked by its chain.
        let high = Shape { tallest: weights.max_row as u8, ..shape };
        assert!(weights.value(small, small, small, shape) > weights.value(long, long, long, high));
        assert!(weights.value(long, long, long, high) > weights.value(small, small, small, high));
    }

    #[test]
    fn builder_ranks_tall_states_last_but_still_by_their_chains() {
        let weights = BuilderWeights::default();
        let long = Chain { links: 16, vanished: 40 };
        let short = Chain { links: 5, vanished: 10 };
        let low = Shape { remaining: 30, tallest: 10, ..Shape::default() };
        let high = Shape { tallest: weights.max_row as u8, ..low };
        assert!(weights.value(short, 0, low) > weights.value(long, 0, high));
        assert!(weights.value(long, 0, high) > weights.value(short, 0, high));
    }
}
