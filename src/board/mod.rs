//! The bitboard simulator: a field as 20 planes of 256 bits, checked against the reference
//! engine ([`crate::rules::Field`]) by the differential tests in `tests/bitboard.rs`.
//!
//! # Layout
//! Each plane is a [`B256`]: 10 columns × 24 bits, column `x` at bits `24x..24x+24` (bytes
//! `3x..3x+3`), row `y` (from the bottom) at bit `24x + y`. Rows 0..19 are used (16 visible + a
//! garbage row + a 2-high pack); bits 19..24 of each column and bits 240..256 stay zero.
//!
//! | plane | holds |
//! |---|---|
//! | 0 | any block |
//! | 1–9 | blocks of that number |
//! | 10 | garbage |
//! | 11–19 | the 8-neighbourhood of the blocks of number 1–9 (a cache, see below) |
//!
//! Per-column heights are kept alongside.
//!
//! # Turn
//! - Drop: the 3–4 blocks are set in planes 0 and `d`; a new block at cell `i` vanishes when
//!   `AROUND[i] & plane[10 − d]` is not empty, and those partners vanish with it (one AND per
//!   block: the field before the drop has no pairs, so every pair involves a new block).
//! - Vanish: blocks of `d` vanish where `plane[d] & neighbourhood[10 − d]` is set, checked only
//!   for the pairs `(d, 10 − d)` where a block of `d` or `10 − d` fell in the last step (blocks
//!   that did not move had no partner before, so they have none now); the partners are then
//!   `plane[10 − d] & neighbours(vanishing d)`.
//! - Gravity: each touched column is compacted with `_pext_u32` by the mask of surviving cells.
//!   The ten cell planes are first bit-sliced into 4 code planes (1–9, 10 for garbage), so a
//!   column costs 4 `pext` instead of 10; the planes are decoded back with 19 vector ops.
//!   Columns are replaced in registers ([`B256::with_column`]), never by narrow stores.
//! - Neighbourhood planes are a cache: a number whose blocks vanished or fell is marked stale
//!   and its plane rebuilt (by shifts) only when a pair check needs it; a drop ORs the new
//!   blocks' `AROUND` into them.
//! - Skill: the explosion is `plane[5] | (neighbourhood[5] & !garbage & any)`, then gravity and
//!   the chain as usual.
//! - Hash: the ten cell planes bit-sliced into 4, folded by 64×64→128-bit multiplies
//!   (15 ns); equality compares planes 1–10 (7 ns). See [`BitField::hash`].
//!
//! # Precondition
//! The search never extends a state that is dead at turn end, so a column holds at most
//! 16 + 1 + 2 = 19 cells during a turn. Dropping onto a dead field may overflow a column; that is
//! `debug_assert`ed (the reference engine panics there).
//!
//! # Figures (AMD EPYC Zen 3, 2 cores shared with other builds; AVX2 + BMI2 path)
//! Ranges are over two runs on the shared machine.
//!
//! Neighbourhoods by shifts, not tables. One neighbourhood plane from real positions
//! (`cargo bench --bench simulator -- neighbourhood`): shifts 2.9–3.0 ns, the seed's 160 MiB
//! per-column table 6.9–9.8 ns, a 480 KiB split table (two lookups a column) 7.3–9.0 ns. Inside
//! the simulator, a long chain (`sim-positions-chains`, own action, 10.8 links on average,
//! `-- drop_with_long_chain_by_neighbourhood`): shifts 0.78–0.83 µs, seed table 1.26–1.28 µs,
//! split table 1.21–1.66 µs; `codevs-reborn bench sim --tables` agrees (whole grown workload:
//! shifts 95–110 ns, tables about 140 ns a placement). The 160 MiB table also costs its memory
//! (peak RSS 166 MiB against 5–7 MiB) and 0.2 s to build, so no large table is used: the
//! simulator's only tables are `AROUND` and `BIT` (8 KiB each).
//!
//! Other measured choices (long chain, best of 400 passes): bit-sliced gravity against `pext`
//! on all ten planes 681 against 736 ns; columns replaced in registers against narrow stores
//! 681 against 721 ns. A `BitField` is 672 bytes and copying it costs 7–11 ns; a 384-byte state
//! without the neighbourhood cache would copy in about 5 ns, and always rebuilding
//! neighbourhoods measured the same as caching them, so the cache (kept as specified) buys no
//! speed today.
//!
//! Speed, one thread, each from a fresh copy (`cargo bench --bench simulator`): drop without
//! chain 31–36 ns, drop with a chain from grown positions 115–118 ns, long chain 0.79–0.81 µs,
//! skill 69–85 ns, hash 14–15 ns, equality 6–7 ns; the reference engine: 1.4–1.5 µs,
//! 3.7–3.8 µs, 24–26 µs, 2.8–3.2 µs. `codevs-reborn bench sim` prints placements per second
//! for every workload and the speedup (25–30× on the grown workload). The portable path (no
//! `pext` instruction) is about 2.5× slower on chains.

mod simd;
pub mod table;

pub use simd::{pext, ACCELERATED, B256};

use std::fmt;

use crate::rules::{ChainTracker, Field, NoTrace, Outcome, Pack, Simulator, GARBAGE, MAX_HEIGHT, WIDTH};

/// Bits per column in a plane.
pub const COLUMN_BITS: usize = 24;
/// Cells of a plane (10 columns × 24 bits; the top 16 bits of the 256 are never used).
pub const CELLS: usize = WIDTH * COLUMN_BITS;

const ANY: usize = 0;
const GARBAGE_PLANE: usize = 10;
const NBR: usize = 10;
/// Bits 1..=9: the numbers.
const NUMBERS: u16 = 0x3FE;

/// The bit of cell (x, y).
#[inline(always)]
pub const fn cell(x: usize, y: usize) -> usize {
    COLUMN_BITS * x + y
}

const fn mask_rows(lo: usize, hi: usize) -> B256 {
    let mut m = B256::ZERO;
    let mut x = 0;
    while x < WIDTH {
        let mut y = lo;
        while y < hi {
            m = simd::portable::or(m, B256::bit(cell(x, y)));
            y += 1;
        }
        x += 1;
    }
    m
}

/// Every cell of the field (rows 0..19 of the 10 columns).
pub const VALID: B256 = mask_rows(0, MAX_HEIGHT);
/// The danger line and above: rows 16..19.
pub const DANGER: B256 = mask_rows(crate::rules::DANGER_ROW, MAX_HEIGHT);
const ROW0: B256 = mask_rows(0, 1);

/// Table entries: every bit of a plane (entries for padding bits and 240..256 are empty, so an
/// index masked with 255 never needs a bounds check, and index 255 is a harmless "no cell").
const TABLE: usize = 256;
/// The table index of "no cell": both tables hold an empty set there.
const NO_CELL: usize = TABLE - 1;

const fn around_table() -> [B256; TABLE] {
    let mut t = [B256::ZERO; TABLE];
    let mut i = 0;
    while i < CELLS {
        if i % COLUMN_BITS < MAX_HEIGHT {
            t[i] = simd::portable::neighbours(B256::bit(i), VALID);
        }
        i += 1;
    }
    t
}

const fn bit_table() -> [B256; TABLE] {
    let mut t = [B256::ZERO; TABLE];
    let mut i = 0;
    while i < CELLS {
        if i % COLUMN_BITS < MAX_HEIGHT {
            t[i] = B256::bit(i);
        }
        i += 1;
    }
    t
}

/// `AROUND[i]`: the 8 neighbours of cell `i` (8 KiB).
static AROUND: [B256; TABLE] = around_table();
/// `BIT[i]`: cell `i` alone (8 KiB; faster than building the vector from words).
static BIT: [B256; TABLE] = bit_table();

/// How neighbourhood planes are computed from a number plane. [`Shifts`] is the one in use; the
/// table variants in [`table`] exist to measure the alternative.
pub trait NeighbourSource {
    fn neighbours(plane: &B256) -> B256;
}

/// Neighbourhoods by 256-bit shifts (no memory).
#[derive(Clone, Copy, Debug, Default)]
pub struct Shifts;

impl NeighbourSource for Shifts {
    #[inline(always)]
    fn neighbours(plane: &B256) -> B256 {
        plane.neighbours(VALID)
    }
}

/// A field as bit planes. Equal fields compare equal and hash alike whatever their history
/// (the neighbourhood cache and bookkeeping are not part of the value).
#[derive(Clone, Copy)]
#[repr(C, align(32))]
pub struct BitField {
    /// 0 any, 1–9 numbers, 10 garbage, 11–19 neighbourhoods of 1–9 (valid unless stale).
    planes: [B256; 20],
    heights: [u8; WIDTH],
    /// Bit `d`: `planes[10 + d]` is out of date.
    stale: u16,
    /// Bit `d`: blocks of `d` may have a partner now (only a field built by `from_field` that
    /// was not settled into a stable state); checked at the next action.
    pending: u16,
}

impl Default for BitField {
    fn default() -> Self {
        BitField { planes: [B256::ZERO; 20], heights: [0; WIDTH], stale: 0, pending: 0 }
    }
}

impl BitField {
    pub fn empty() -> Self {
        Self::default()
    }

    /// Blocks (garbage included) in column `x`.
    #[inline(always)]
    pub fn height(&self, x: usize) -> usize {
        self.heights[x] as usize
    }

    /// All column heights.
    #[inline(always)]
    pub fn heights(&self) -> [u8; WIDTH] {
        self.heights
    }

    /// The cell at (x, y): 0 empty, 1–9, or 11 for garbage (as [`Field::get`]).
    pub fn get(&self, x: usize, y: usize) -> u8 {
        if y >= MAX_HEIGHT {
            return 0;
        }
        let i = cell(x, y);
        if !self.planes[ANY].get(i) {
            return 0;
        }
        if self.planes[GARBAGE_PLANE].get(i) {
            return GARBAGE;
        }
        (1..=9).find(|&d| self.planes[d as usize].get(i)).expect("a block has a number")
    }

    /// Cells holding any block.
    #[inline(always)]
    pub fn any(&self) -> B256 {
        self.planes[ANY]
    }

    /// Cells holding garbage.
    #[inline(always)]
    pub fn garbage(&self) -> B256 {
        self.planes[GARBAGE_PLANE]
    }

    /// Cells holding blocks of `number` (1..=9).
    #[inline(always)]
    pub fn number(&self, number: u8) -> B256 {
        debug_assert!((1..=9).contains(&number));
        self.planes[number as usize]
    }

    /// The 8-neighbourhood of the blocks of `number` (1..=9), from the cache when fresh.
    #[inline(always)]
    pub fn neighbourhood(&self, number: u8) -> B256 {
        let d = number as usize;
        if self.stale >> d & 1 != 0 {
            Shifts::neighbours(&self.planes[d])
        } else {
            self.planes[NBR + d]
        }
    }

    /// A 64-bit hash of the field's value: the planes are bit-sliced into 4 planes (cell codes
    /// 1–10), and their 16 words are folded by 64×64→128-bit multiplications (wyhash style).
    /// Plain FNV-1a over 64-bit words is not used: a flip of bit 63 survives a multiply only in
    /// bit 63, so two such flips (a 1 becoming a 2 in the cell at a word's top bit) cancel.
    #[inline]
    pub fn hash(&self) -> u64 {
        const K: [u64; 17] = [
            0xa076_1d64_78bd_642f,
            0xe703_7ed1_a0b4_28db,
            0x8ebc_6af0_9c88_c6e3,
            0x5899_65cc_7537_4cc3,
            0x1d8e_4e27_c47d_124f,
            0x9e37_79b9_7f4a_7c15,
            0xbf58_476d_1ce4_e5b9,
            0x94d0_49bb_1331_11eb,
            0xd6e8_feb8_6659_fd93,
            0xc2b2_ae3d_27d4_eb4f,
            0x1656_67b1_9e37_79f9,
            0x27d4_eb2f_1656_67c5,
            0x85eb_ca77_c2b2_ae63,
            0xff51_afd7_ed55_8ccd,
            0xc4ce_b9fe_1a85_ec53,
            0x6c62_272e_07bb_0142,
            0x2545_f491_4f6c_dd1d,
        ];
        #[inline(always)]
        fn mum(a: u64, b: u64) -> u64 {
            let r = a as u128 * b as u128;
            (r as u64) ^ ((r >> 64) as u64)
        }
        let p = &self.planes;
        // Codes: d for numbers 1–9, 10 (0b1010) for garbage.
        let s0 = p[1].or(p[3]).or(p[5]).or(p[7]).or(p[9]);
        let s1 = p[2].or(p[3]).or(p[6]).or(p[7]).or(p[10]);
        let s2 = p[4].or(p[5]).or(p[6]).or(p[7]);
        let s3 = p[8].or(p[9]).or(p[10]);
        let w = [s0.0, s1.0, s2.0, s3.0];
        let mut acc = 0u64;
        for (j, s) in w.iter().enumerate() {
            acc ^= mum(s[0] ^ K[4 * j], s[1] ^ K[4 * j + 1]);
            acc ^= mum(s[2] ^ K[4 * j + 2], s[3] ^ K[4 * j + 3]).rotate_left(32);
            acc = acc.rotate_left(17);
        }
        mum(acc ^ K[16], K[0] ^ 0x9e37_79b9)
    }

    /// Neighbourhood of `d` (1..=9), rebuilding the cached plane when stale.
    #[inline(always)]
    fn nbr<N: NeighbourSource>(&mut self, d: usize) -> B256 {
        if self.stale >> d & 1 != 0 {
            let n = N::neighbours(&self.planes[d]);
            self.planes[NBR + d] = n;
            self.stale &= !(1 << d);
            n
        } else {
            self.planes[NBR + d]
        }
    }

    /// Every block in a pair `(d, 10 − d)` for the numbers `d` in `numbers` (bits 1..=9), and
    /// the numbers of those blocks.
    #[inline(always)]
    fn pairs<N: NeighbourSource>(&mut self, numbers: u16) -> (B256, u16) {
        // Pair k = (k, 10 − k) for k in 1..=5; `reverse_bits() >> 5` maps bit d to bit 10 − d.
        let mut todo = (numbers | numbers.reverse_bits() >> 5) & 0b11_1110;
        let (mut vanish, mut gone) = (B256::ZERO, 0u16);
        while todo != 0 {
            let k = todo.trailing_zeros() as usize;
            todo &= todo - 1;
            let e = 10 - k;
            // Blocks of k next to a block of e, then the blocks of e next to those.
            let vk = self.planes[k].and(self.nbr::<N>(e));
            let ve = self.planes[e].and(N::neighbours(&vk));
            let v = vk.or(ve);
            gone |= ((!v.is_zero()) as u16) << k | ((!v.is_zero()) as u16) << e;
            vanish = vanish.or(v);
        }
        (vanish, gone)
    }

    /// Numbers (bits 1..=9) with a block in `cells`.
    #[inline(always)]
    fn numbers_in(&self, cells: &B256) -> u16 {
        let mut m = 0;
        for d in 1..10 {
            m |= (self.planes[d].intersects(*cells) as u16) << d;
        }
        m
    }

    /// Removes the cells of `vanish` and lets the blocks above fall. Returns the numbers (bits
    /// 1..=9) whose blocks moved; marks the neighbourhoods of those and of `gone` (the numbers
    /// of the removed blocks) stale.
    ///
    /// Gravity by `pext`: the ten cell planes are first bit-sliced into 4 planes (a cell's code,
    /// 1–9 or 10 for garbage), each touched column of those is compacted with `_pext_u32` by the
    /// mask of surviving cells (so 4 `pext` a column instead of 10), and the ten planes are
    /// decoded back with 19 vector ops. Everything stays in registers: columns are replaced
    /// with [`B256::with_column`], and the planes are stored whole.
    #[inline(always)]
    fn remove(&mut self, vanish: &B256, gone: u16) -> u16 {
        let p = &self.planes;
        let codes = [
            p[1].or(p[3]).or(p[5]).or(p[7]).or(p[9]),
            p[2].or(p[3]).or(p[6]).or(p[7]).or(p[10]),
            p[4].or(p[5]).or(p[6]).or(p[7]),
            p[8].or(p[9]).or(p[10]),
        ];
        let mut s = codes;
        // The blocks that fell, at their new places.
        let mut fell = B256::ZERO;
        let mut columns = vanish.nonzero_columns();
        while columns != 0 {
            let x = columns.trailing_zeros() as usize;
            columns &= columns - 1;
            let v = vanish.column(x);
            let keep = p[ANY].column(x) & !v;
            for (new, old) in s.iter_mut().zip(&codes) {
                *new = new.with_column(x, pext(old.column(x), keep));
            }
            let h = keep.count_ones();
            // Every survivor above the lowest vanished cell fell: now rows tz(v)..h.
            fell = fell.with_column(x, ((1 << h) - 1) & !((v & v.wrapping_neg()) - 1));
            self.heights[x] = h as u8;
        }
        // Decode: plane d = the cells whose code is d; every block has a non-zero code.
        let [s0, s1, s2, s3] = s;
        let any = s0.or(s1).or(s2.or(s3));
        let lo = [any.andnot(s0.or(s1)), s0.andnot(s1), s1.andnot(s0), s0.and(s1)];
        let hi = [any.andnot(s2.or(s3)), s2.andnot(s3), s3.andnot(s2)];
        let planes = &mut self.planes;
        planes[ANY] = any;
        for d in 1..GARBAGE_PLANE + 1 {
            planes[d] = hi[d >> 2].and(lo[d & 3]);
        }
        let moved = if fell.is_zero() { 0 } else { self.numbers_in(&fell) };
        self.stale |= gone | moved;
        moved
    }

    /// Reports every cell of `vanish` (before it is removed) to the tracker.
    #[cold]
    fn trace_cells<T: ChainTracker>(&self, vanish: &B256, link: u32, trace: &mut T) {
        for (k, &word) in vanish.0.iter().enumerate() {
            let mut w = word;
            while w != 0 {
                let i = 64 * k + w.trailing_zeros() as usize;
                w &= w - 1;
                let (x, y) = (i / COLUMN_BITS, i % COLUMN_BITS);
                trace.vanished(link, x, y, self.get(x, y));
            }
        }
    }

    /// Vanish and fall from a first non-empty vanish set (of blocks of the numbers `gone`).
    /// Returns (links, blocks vanished).
    #[inline(always)]
    fn chain<N: NeighbourSource, T: ChainTracker>(
        &mut self,
        mut vanish: B256,
        mut gone: u16,
        trace: &mut T,
    ) -> (u32, u32) {
        let (mut links, mut count) = (0, 0);
        loop {
            links += 1;
            count += vanish.count_ones();
            if T::ENABLED {
                self.trace_cells(&vanish, links, trace);
            }
            let moved = self.remove(&vanish, gone);
            if moved == 0 {
                return (links, count);
            }
            (vanish, gone) = self.pairs::<N>(moved);
            if vanish.is_zero() {
                return (links, count);
            }
        }
    }

    /// [`Simulator::drop_pack_traced`] with a chosen neighbourhood source (for measurement).
    #[doc(hidden)]
    #[inline]
    pub fn drop_pack_with<N: NeighbourSource, T: ChainTracker>(
        &mut self,
        pack: &Pack,
        x: u8,
        rotation: u8,
        trace: &mut T,
    ) -> Outcome {
        assert!(x < WIDTH as u8 - 1, "drop at {x}");
        let x = x as usize;
        // The blocks landing in each column, bottom first, after the rotation:
        // `[[a, b], [c, d]]` turned clockwise r times (see `Pack::rotated`).
        let [[a, b], [c, d]] = pack.rows;
        let (lb, lt, rb, rt) = match rotation & 3 {
            0 => (c, a, d, b),
            1 => (d, c, b, a),
            2 => (b, d, a, c),
            _ => (a, b, c, d),
        };
        // Empty cells take no space.
        let (l0, l1) = if lb == 0 { (lt, 0) } else { (lb, lt) };
        let (r0, r1) = if rb == 0 { (rt, 0) } else { (rb, rt) };
        debug_assert!([l0, l1, r0, r1].iter().all(|&v| v <= 9), "pack {:?}", pack.rows);
        let (hl, hr) = (self.heights[x] as usize, self.heights[x + 1] as usize);
        let (nl, nr) = ((l0 != 0) as usize + (l1 != 0) as usize, (r0 != 0) as usize + (r1 != 0) as usize);
        debug_assert!(hl + nl <= MAX_HEIGHT && hr + nr <= MAX_HEIGHT, "a column overflows: the field was dead");
        self.heights[x] = (hl + nl) as u8;
        self.heights[x + 1] = (hr + nr) as u8;
        // Slots (cell, number); an empty slot points at the empty table entry and number 0,
        // so every step below is harmless for it and needs no branch.
        let at = |v: u8, i: usize| if v == 0 { (NO_CELL, 0) } else { (i & (TABLE - 1), v as usize & 15) };
        let slots =
            [at(l0, cell(x, hl)), at(l1, cell(x, hl + 1)), at(r0, cell(x + 1, hr)), at(r1, cell(x + 1, hr + 1))];
        let mut any = self.planes[ANY];
        for &(i, v) in &slots {
            any = any.or(BIT[i]);
            self.planes[v] = self.planes[v].or(BIT[i]);
            // Kept current when fresh; a stale plane is rebuilt when needed anyway.
            self.planes[NBR + v] = self.planes[NBR + v].or(AROUND[i]);
        }
        // Plane 0 last: the loop's writes to it (empty slots) were no-ops.
        self.planes[ANY] = any;
        // The field had no pair, so a pair involves a new block: one AND per block.
        let mut hit = B256::ZERO;
        for &(i, v) in &slots {
            hit = hit.or(AROUND[i].and(self.planes[(10 - v) & 15]));
        }
        let (mut vanish, mut gone) = (B256::ZERO, 0u16);
        if !hit.is_zero() {
            for &(i, v) in &slots {
                let partners = AROUND[i].and(self.planes[(10 - v) & 15]);
                if !partners.is_zero() {
                    vanish = vanish.or(partners).or(BIT[i]);
                    gone |= 1 << v | 1 << (10 - v);
                }
            }
        }
        if self.pending != 0 {
            let pending = std::mem::take(&mut self.pending);
            let (v, g) = self.pairs::<N>(pending);
            vanish = vanish.or(v);
            gone |= g;
        }
        if vanish.is_zero() {
            return Outcome::default();
        }
        let (links, vanished) = self.chain::<N, T>(vanish, gone, trace);
        Outcome { links, vanished, exploded: 0, skill: false }
    }

    /// [`Simulator::use_skill_traced`] with a chosen neighbourhood source (for measurement).
    #[doc(hidden)]
    #[inline]
    pub fn use_skill_with<N: NeighbourSource, T: ChainTracker>(&mut self, trace: &mut T) -> Outcome {
        let fives = self.nbr::<N>(5);
        let blast = self.planes[5].or(fives.andnot(self.planes[GARBAGE_PLANE]).and(self.planes[ANY]));
        let exploded = blast.count_ones();
        let mut check = std::mem::take(&mut self.pending);
        if exploded > 0 {
            if T::ENABLED {
                self.trace_cells(&blast, 0, trace);
            }
            let gone = self.numbers_in(&blast);
            check |= self.remove(&blast, gone);
        }
        let (mut links, mut vanished) = (0, 0);
        if check != 0 {
            let (vanish, gone) = self.pairs::<N>(check);
            if !vanish.is_zero() {
                (links, vanished) = self.chain::<N, T>(vanish, gone, trace);
            }
        }
        Outcome { links, vanished, exploded, skill: true }
    }
}

impl Simulator for BitField {
    fn from_field(field: &Field) -> Self {
        let mut f = BitField::default();
        for x in 0..WIDTH {
            for y in 0..MAX_HEIGHT {
                let v = field.get(x, y);
                if v == 0 {
                    continue;
                }
                let bit = B256::bit(cell(x, y));
                f.planes[ANY] = f.planes[ANY].or(bit);
                let p = if v == GARBAGE { GARBAGE_PLANE } else { v as usize };
                f.planes[p] = f.planes[p].or(bit);
            }
            f.heights[x] = field.height(x) as u8;
        }
        for d in 1..10 {
            f.planes[NBR + d] = Shifts::neighbours(&f.planes[d]);
        }
        // A field that is not stable (pairs present, e.g. from a picture) vanishes them at the
        // next action, as the reference does.
        if !f.pairs::<Shifts>(NUMBERS).0.is_zero() {
            f.pending = NUMBERS;
        }
        f
    }

    fn to_field(&self) -> Field {
        let mut rows = [[0u8; WIDTH]; MAX_HEIGHT];
        for (i, row) in rows.iter_mut().enumerate() {
            for (x, c) in row.iter_mut().enumerate() {
                *c = self.get(x, MAX_HEIGHT - 1 - i);
            }
        }
        Field::from_rows_top_first(&rows).expect("a bitboard always holds a settled field")
    }

    #[inline]
    fn drop_garbage_row(&mut self) {
        debug_assert!(self.heights.iter().all(|&h| (h as usize) < MAX_HEIGHT), "a column is full");
        let any = self.planes[ANY];
        let row = any.shl1().or(ROW0).andnot(any).and(VALID);
        self.planes[ANY] = any.or(row);
        self.planes[GARBAGE_PLANE] = self.planes[GARBAGE_PLANE].or(row);
        for h in &mut self.heights {
            *h = (*h + 1).min(MAX_HEIGHT as u8);
        }
    }

    #[inline]
    fn drop_pack_traced<T: ChainTracker>(&mut self, pack: &Pack, x: u8, rotation: u8, trace: &mut T) -> Outcome {
        self.drop_pack_with::<Shifts, T>(pack, x, rotation, trace)
    }

    #[inline]
    fn use_skill_traced<T: ChainTracker>(&mut self, trace: &mut T) -> Outcome {
        self.use_skill_with::<Shifts, T>(trace)
    }

    #[inline]
    fn erase(&mut self, x: usize, y: usize) -> Outcome {
        let number = self.get(x, y);
        assert!((1..=9).contains(&number), "erase ({x}, {y}): not a numbered block");
        debug_assert_eq!(self.pending, 0, "erase on an unsettled field");
        let (links, vanished) = self.chain::<Shifts, NoTrace>(B256::bit(cell(x, y)), 1 << number, &mut NoTrace);
        Outcome { links, vanished, exploded: 0, skill: false }
    }

    #[inline]
    fn is_dead(&self) -> bool {
        self.planes[ANY].intersects(DANGER)
    }

    #[inline]
    fn cell(&self, x: usize, y: usize) -> u8 {
        self.get(x, y)
    }

    fn height(&self, x: usize) -> usize {
        self.heights[x] as usize
    }

    #[inline]
    fn board_hash(&self) -> u64 {
        self.hash()
    }

    #[inline]
    fn block_count(&self) -> usize {
        self.planes[ANY].count_ones() as usize
    }

    fn gap_pairs(&self) -> u32 {
        // Bit offsets from a lower block to its partner: 2 rows up in the same column (+2), in
        // the next column (+24 + 2) and in the previous one (−24 + 2).
        let mut pairs = 0;
        for lower in 1..=9u8 {
            let (low, high) = (self.planes[lower as usize], self.planes[10 - lower as usize]);
            pairs += (high >> 2).and(low).count_ones()
                + (high >> (COLUMN_BITS as u32 + 2)).and(low).count_ones()
                + (high << (COLUMN_BITS as u32 - 2)).and(low).count_ones();
        }
        pairs
    }

    #[inline]
    fn drop_pack(&mut self, pack: &Pack, x: u8, rotation: u8) -> Outcome {
        self.drop_pack_with::<Shifts, NoTrace>(pack, x, rotation, &mut NoTrace)
    }

    #[inline]
    fn use_skill(&mut self) -> Outcome {
        self.use_skill_with::<Shifts, NoTrace>(&mut NoTrace)
    }
}

impl PartialEq for BitField {
    /// Same cells (planes 1–10; the rest is derived).
    #[inline]
    fn eq(&self, other: &Self) -> bool {
        let (a, b) = (&self.planes, &other.planes);
        let mut diff = B256::ZERO;
        for p in 1..GARBAGE_PLANE + 1 {
            diff = diff.or(a[p].xor(b[p]));
        }
        diff.is_zero()
    }
}

impl Eq for BitField {}

impl std::hash::Hash for BitField {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        state.write_u64(BitField::hash(self));
    }
}

impl From<&Field> for BitField {
    fn from(field: &Field) -> Self {
        BitField::from_field(field)
    }
}

impl fmt::Debug for BitField {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?}", self.to_field())
    }
}

impl fmt::Display for BitField {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.to_field())
    }
}
