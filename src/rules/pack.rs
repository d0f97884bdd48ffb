//! Packs: the 2×2 frames of 3 or 4 blocks, their rotation, and a game's sequence of 500.

use std::fmt;

use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;

/// A pack as the protocol gives it: `rows[0]` is the top row, `rows[1]` the bottom; 0 = empty.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Pack {
    pub rows: [[u8; 2]; 2],
}

impl Pack {
    pub const fn new(top: [u8; 2], bottom: [u8; 2]) -> Self {
        Pack { rows: [top, bottom] }
    }

    /// The pack after `rotation` clockwise quarter turns: `[[a, b], [c, d]]` → `[[c, a], [d, b]]`.
    pub fn rotated(&self, rotation: u8) -> Pack {
        let mut p = *self;
        for _ in 0..rotation % 4 {
            let [[a, b], [c, d]] = p.rows;
            p.rows = [[c, a], [d, b]];
        }
        p
    }

    /// The blocks that land in the left and the right column after `rotation`, bottom first;
    /// empty cells take no space, so a column gets 0, 1 or 2 blocks.
    pub fn columns(&self, rotation: u8) -> [ColumnBlocks; 2] {
        let r = self.rotated(rotation).rows;
        [0, 1].map(|c| ColumnBlocks::stacked(r[1][c], r[0][c]))
    }

    /// Number of blocks (3 or 4 in real games).
    pub fn block_count(&self) -> usize {
        self.rows.iter().flatten().filter(|&&v| v != 0).count()
    }
}

/// Up to two blocks landing in one column, bottom first.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ColumnBlocks {
    blocks: [u8; 2],
    len: u8,
}

impl ColumnBlocks {
    fn stacked(bottom: u8, top: u8) -> Self {
        let mut c = ColumnBlocks::default();
        for v in [bottom, top] {
            if v != 0 {
                c.blocks[c.len as usize] = v;
                c.len += 1;
            }
        }
        c
    }

    /// The blocks, bottom first.
    pub fn as_slice(&self) -> &[u8] {
        &self.blocks[..self.len as usize]
    }
}

/// A game's packs in order (500 in a real game).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Packs(pub Vec<Pack>);

impl Packs {
    /// The pack of `turn`.
    pub fn get(&self, turn: usize) -> &Pack {
        &self.0[turn]
    }

    pub fn len(&self) -> usize {
        self.0.len()
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// A game's packs drawn from `seed` with the distribution of the official client's files:
    /// 407 three-block and 93 four-block packs, 177 blocks of each number 1–9, shuffled; the
    /// empty cell of a three-block pack is never the top-right one (as in every real file).
    pub fn generate(seed: u64) -> Packs {
        const THREE: usize = 407;
        const FOUR: usize = 93;
        const PER_NUMBER: usize = 177;
        let mut rng = Pcg64Mcg::seed_from_u64(seed);
        let mut numbers: Vec<u8> = (1..=9).flat_map(|d| std::iter::repeat_n(d, PER_NUMBER)).collect();
        numbers.shuffle(&mut rng);
        let mut sizes: Vec<usize> = [3].repeat(THREE);
        sizes.extend([4].repeat(FOUR));
        sizes.shuffle(&mut rng);
        let mut numbers = numbers.into_iter();
        let packs = sizes
            .into_iter()
            .map(|size| {
                // Cells in reading order: top-left, top-right, bottom-left, bottom-right.
                let empty = if size == 4 { None } else { Some([0, 2, 3][rng.gen_range(0..3)]) };
                let mut cells = [0u8; 4];
                for (i, cell) in cells.iter_mut().enumerate() {
                    if Some(i) != empty {
                        *cell = numbers.next().expect("177 × 9 blocks fill 407 × 3 + 93 × 4 cells");
                    }
                }
                Pack::new([cells[0], cells[1]], [cells[2], cells[3]])
            })
            .collect();
        Packs(packs)
    }
}

impl fmt::Display for Packs {
    /// The pack-file (game start) form: two rows and `END` per pack.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for p in &self.0 {
            writeln!(f, "{} {}\n{} {}\nEND", p.rows[0][0], p.rows[0][1], p.rows[1][0], p.rows[1][1])?;
        }
        Ok(())
    }
}
