//! Table-driven neighbourhoods, kept only to measure them against [`super::Shifts`] (see the
//! figures in the [`super`] module docs). Not used by the simulator.
//!
//! - [`SeedTable`]: the seed write-up's `around_bb_x_table[x][column bits]`, one 256-bit entry
//!   for every column pattern: 10 × 2^19 × 32 B = 160 MiB.
//! - [`SplitTable`]: the same indexed by the low 10 and the high 9 bits of a column separately
//!   (the neighbourhood of a union is the union of the neighbourhoods):
//!   10 × (2^10 + 2^9) × 32 B = 480 KiB, two lookups a non-empty column.
//!
//! Both must be built with `init()` before use (the first call allocates and fills them).

use std::sync::OnceLock;

use super::{NeighbourSource, B256, MAX_HEIGHT, VALID, WIDTH};

static SEED: OnceLock<Vec<B256>> = OnceLock::new();
static SPLIT: OnceLock<Vec<B256>> = OnceLock::new();

const LOW_BITS: usize = 10;
const HIGH_BITS: usize = MAX_HEIGHT - LOW_BITS;

fn column_neighbours(x: usize, bits: u32) -> B256 {
    let mut p = B256::ZERO;
    p.set_column(x, bits);
    p.neighbours(VALID)
}

/// The seed's 160 MiB per-column table.
#[derive(Clone, Copy, Debug, Default)]
pub struct SeedTable;

impl SeedTable {
    /// Builds the table (once); returns its size in bytes.
    pub fn init() -> usize {
        let t = SEED.get_or_init(|| {
            let mut t = Vec::with_capacity(WIDTH << MAX_HEIGHT);
            for x in 0..WIDTH {
                for bits in 0..1u32 << MAX_HEIGHT {
                    t.push(column_neighbours(x, bits));
                }
            }
            t
        });
        std::mem::size_of_val(t.as_slice())
    }
}

impl NeighbourSource for SeedTable {
    #[inline(always)]
    fn neighbours(plane: &B256) -> B256 {
        let t = SEED.get().expect("SeedTable::init() first");
        let mut n = B256::ZERO;
        for x in 0..WIDTH {
            let c = plane.column(x) as usize;
            if c != 0 {
                n = n.or(t[x << MAX_HEIGHT | c]);
            }
        }
        n
    }
}

/// The 480 KiB two-lookups-a-column table.
#[derive(Clone, Copy, Debug, Default)]
pub struct SplitTable;

impl SplitTable {
    /// Builds the table (once); returns its size in bytes.
    pub fn init() -> usize {
        let t = SPLIT.get_or_init(|| {
            let mut t = Vec::with_capacity(WIDTH * ((1 << LOW_BITS) + (1 << HIGH_BITS)));
            for x in 0..WIDTH {
                for bits in 0..1u32 << LOW_BITS {
                    t.push(column_neighbours(x, bits));
                }
                for bits in 0..1u32 << HIGH_BITS {
                    t.push(column_neighbours(x, bits << LOW_BITS));
                }
            }
            t
        });
        std::mem::size_of_val(t.as_slice())
    }
}

impl NeighbourSource for SplitTable {
    #[inline(always)]
    fn neighbours(plane: &B256) -> B256 {
        const PER_X: usize = (1 << LOW_BITS) + (1 << HIGH_BITS);
        let t = SPLIT.get().expect("SplitTable::init() first");
        let mut n = B256::ZERO;
        for x in 0..WIDTH {
            let c = plane.column(x) as usize;
            if c != 0 {
                let base = x * PER_X;
                n = n.or(t[base + (c & ((1 << LOW_BITS) - 1))]).or(t[base + (1 << LOW_BITS) + (c >> LOW_BITS)]);
            }
        }
        n
    }
}
