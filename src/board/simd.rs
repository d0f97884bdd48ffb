//! The only place with `unsafe` and `std::arch`: a safe 256-bit bit set ([`B256`]) and `pext`.
//!
//! Two implementations with identical results:
//! - AVX2 + BMI2, chosen at compile time when the target has both (`.cargo/config.toml` builds
//!   with `target-cpu=native`) and the `force-portable` feature is off;
//! - portable code on `[u64; 4]`, used everywhere else. It is always compiled, so the unit tests
//!   compare every operation of both paths on random inputs whenever the AVX2 path is built.
//!
//! A `B256` is stored as four little-endian `u64` words aligned to 32 bytes, so byte `k` of the
//! set holds bits `8k..8k+8`; a 24-bit column at byte `3x` is read and written with one unaligned
//! `u32` access.

/// A 256-bit set, bit `i` in word `i / 64`. Plain data: `Copy`, compared and hashed by value.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
#[repr(C, align(32))]
pub struct B256(pub [u64; 4]);

impl std::fmt::Debug for B256 {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "B256({:016x}_{:016x}_{:016x}_{:016x})", self.0[3], self.0[2], self.0[1], self.0[0])
    }
}

/// True when this build uses the AVX2 + BMI2 path.
pub const ACCELERATED: bool = cfg!(all(
    target_arch = "x86_64",
    target_feature = "avx2",
    target_feature = "bmi2",
    not(feature = "force-portable")
));

/// Portable implementations (`const` where the tables need them). Always compiled: the tables
/// use them, and the tests compare the AVX2 path against them.
#[allow(dead_code)]
pub mod portable {
    use super::B256;

    #[inline(always)]
    pub const fn shl(a: B256, n: u32) -> B256 {
        let w = a.0;
        if n == 0 {
            return a;
        }
        B256([
            w[0] << n,
            (w[1] << n) | (w[0] >> (64 - n)),
            (w[2] << n) | (w[1] >> (64 - n)),
            (w[3] << n) | (w[2] >> (64 - n)),
        ])
    }

    #[inline(always)]
    pub const fn shl1(a: B256) -> B256 {
        shl(a, 1)
    }

    #[inline(always)]
    pub const fn shr(a: B256, n: u32) -> B256 {
        let w = a.0;
        if n == 0 {
            return a;
        }
        B256([
            (w[0] >> n) | (w[1] << (64 - n)),
            (w[1] >> n) | (w[2] << (64 - n)),
            (w[2] >> n) | (w[3] << (64 - n)),
            w[3] >> n,
        ])
    }

    #[inline(always)]
    pub const fn and(a: B256, b: B256) -> B256 {
        B256([a.0[0] & b.0[0], a.0[1] & b.0[1], a.0[2] & b.0[2], a.0[3] & b.0[3]])
    }

    #[inline(always)]
    pub const fn or(a: B256, b: B256) -> B256 {
        B256([a.0[0] | b.0[0], a.0[1] | b.0[1], a.0[2] | b.0[2], a.0[3] | b.0[3]])
    }

    #[inline(always)]
    pub const fn andnot(a: B256, b: B256) -> B256 {
        B256([a.0[0] & !b.0[0], a.0[1] & !b.0[1], a.0[2] & !b.0[2], a.0[3] & !b.0[3]])
    }

    #[inline(always)]
    pub const fn xor(a: B256, b: B256) -> B256 {
        B256([a.0[0] ^ b.0[0], a.0[1] ^ b.0[1], a.0[2] ^ b.0[2], a.0[3] ^ b.0[3]])
    }

    #[inline(always)]
    pub const fn is_zero(a: B256) -> bool {
        (a.0[0] | a.0[1] | a.0[2] | a.0[3]) == 0
    }

    #[inline(always)]
    pub const fn intersects(a: B256, b: B256) -> bool {
        !is_zero(and(a, b))
    }

    #[inline(always)]
    pub const fn eq(a: B256, b: B256) -> bool {
        ((a.0[0] ^ b.0[0]) | (a.0[1] ^ b.0[1]) | (a.0[2] ^ b.0[2]) | (a.0[3] ^ b.0[3])) == 0
    }

    /// The 8-neighbourhood of `s`, masked with `valid`; `s` must be zero at bits 240..256.
    #[inline(always)]
    pub const fn neighbours(s: B256, valid: B256) -> B256 {
        let up = shl(s, 1);
        let down = shr(s, 1);
        let t = or(or(s, up), down);
        and(or(or(shl(t, 24), shr(t, 24)), or(up, down)), valid)
    }

    /// The 24-bit column at byte `3x` (bits `24x..24x+24`).
    #[inline(always)]
    pub const fn column(a: &B256, x: usize) -> u32 {
        let bit = 24 * x;
        let (w, s) = (bit / 64, bit % 64);
        let mut v = a.0[w] >> s;
        if s > 40 {
            v |= a.0[w + 1] << (64 - s);
        }
        (v & 0xFF_FFFF) as u32
    }

    /// Replaces the 24-bit column at byte `3x` with the low 24 bits of `value`.
    #[inline(always)]
    pub const fn set_column(a: &mut B256, x: usize, value: u32) {
        let bit = 24 * x;
        let (w, s) = (bit / 64, bit % 64);
        let v = (value & 0xFF_FFFF) as u64;
        a.0[w] = (a.0[w] & !(0xFF_FFFF << s)) | (v << s);
        if s > 40 {
            let r = 64 - s;
            a.0[w + 1] = (a.0[w + 1] & !(0xFF_FFFF >> r)) | (v >> r);
        }
    }

    /// `a` with column `x` replaced by the low 24 bits of `value`.
    #[inline(always)]
    pub const fn with_column(mut a: B256, x: usize, value: u32) -> B256 {
        set_column(&mut a, x, value);
        a
    }

    /// Bit `x` set when column `x` (< 10) of `a` holds any bit.
    #[inline(always)]
    pub const fn nonzero_columns(a: &B256) -> u32 {
        let mut m = 0;
        let mut x = 0;
        while x < 10 {
            m |= ((column(a, x) != 0) as u32) << x;
            x += 1;
        }
        m
    }

    /// Parallel bit extract: the bits of `a` selected by `mask`, packed at the bottom.
    #[inline(always)]
    pub fn pext(a: u32, mut mask: u32) -> u32 {
        let mut out = 0;
        let mut k = 0;
        while mask != 0 {
            let low = mask & mask.wrapping_neg();
            if a & low != 0 {
                out |= 1 << k;
            }
            k += 1;
            mask ^= low;
        }
        out
    }
}

#[cfg(all(target_arch = "x86_64", target_feature = "avx2", target_feature = "bmi2", not(feature = "force-portable")))]
mod avx2 {
    //! SAFETY (whole module): compiled only when the target enables AVX2 and BMI2, so every
    //! intrinsic used here is available on the machine the binary was built for. `B256` is
    //! `repr(C, align(32))` of 32 bytes, the size and alignment of `__m256i`, so the transmutes
    //! between them are plain reinterpretations of the same bits.
    use super::B256;
    use std::arch::x86_64::*;

    #[inline(always)]
    fn v(a: B256) -> __m256i {
        unsafe { std::mem::transmute::<B256, __m256i>(a) }
    }

    #[inline(always)]
    fn b(a: __m256i) -> B256 {
        unsafe { std::mem::transmute::<__m256i, B256>(a) }
    }

    #[inline(always)]
    pub fn and(a: B256, c: B256) -> B256 {
        unsafe { b(_mm256_and_si256(v(a), v(c))) }
    }

    #[inline(always)]
    pub fn or(a: B256, c: B256) -> B256 {
        unsafe { b(_mm256_or_si256(v(a), v(c))) }
    }

    #[inline(always)]
    pub fn andnot(a: B256, c: B256) -> B256 {
        // _mm256_andnot_si256(x, y) is !x & y.
        unsafe { b(_mm256_andnot_si256(v(c), v(a))) }
    }

    #[inline(always)]
    pub fn xor(a: B256, c: B256) -> B256 {
        unsafe { b(_mm256_xor_si256(v(a), v(c))) }
    }

    #[inline(always)]
    pub fn is_zero(a: B256) -> bool {
        unsafe { _mm256_testz_si256(v(a), v(a)) != 0 }
    }

    #[inline(always)]
    pub fn intersects(a: B256, c: B256) -> bool {
        unsafe { _mm256_testz_si256(v(a), v(c)) == 0 }
    }

    #[inline(always)]
    pub fn eq(a: B256, c: B256) -> bool {
        unsafe {
            let x = _mm256_xor_si256(v(a), v(c));
            _mm256_testz_si256(x, x) != 0
        }
    }

    /// Left by 1 bit across the 256 bits, except that bit 0 of the result receives bit 255
    /// (zero in every caller's input: planes are clean above bit 240).
    #[inline(always)]
    fn shl1_loose(a: __m256i) -> __m256i {
        unsafe {
            let carry = _mm256_permute4x64_epi64::<0b10_01_00_11>(a);
            _mm256_or_si256(_mm256_slli_epi64::<1>(a), _mm256_srli_epi64::<63>(carry))
        }
    }

    /// Right by 1 bit across the 256 bits, zero-filled.
    #[inline(always)]
    fn shr1(a: __m256i) -> __m256i {
        unsafe {
            let carry = _mm256_permute4x64_epi64::<0b00_11_10_01>(a);
            let carry = _mm256_blend_epi32::<0b1100_0000>(carry, _mm256_setzero_si256());
            _mm256_or_si256(_mm256_srli_epi64::<1>(a), _mm256_slli_epi64::<63>(carry))
        }
    }

    /// Left by 24 bits (3 bytes) across the 256 bits, zero-filled.
    #[inline(always)]
    fn shl24(a: __m256i) -> __m256i {
        unsafe {
            let t = _mm256_permute2x128_si256::<0x08>(a, a); // [0, low lane]
            _mm256_alignr_epi8::<13>(a, t)
        }
    }

    /// Right by 24 bits (3 bytes) across the 256 bits, zero-filled.
    #[inline(always)]
    fn shr24(a: __m256i) -> __m256i {
        unsafe {
            let t = _mm256_permute2x128_si256::<0x81>(a, a); // [high lane, 0]
            _mm256_alignr_epi8::<3>(t, a)
        }
    }

    #[inline(always)]
    pub fn shl1(a: B256) -> B256 {
        unsafe {
            let x = v(a);
            let carry = _mm256_permute4x64_epi64::<0b10_01_00_11>(x);
            let carry = _mm256_blend_epi32::<0b0000_0011>(carry, _mm256_setzero_si256());
            b(_mm256_or_si256(_mm256_slli_epi64::<1>(x), _mm256_srli_epi64::<63>(carry)))
        }
    }

    #[inline(always)]
    pub fn neighbours(s: B256, valid: B256) -> B256 {
        unsafe {
            let s = v(s);
            let up = shl1_loose(s);
            let down = shr1(s);
            let vert = _mm256_or_si256(up, down);
            let t = _mm256_or_si256(s, vert);
            let h = _mm256_or_si256(shl24(t), shr24(t));
            b(_mm256_and_si256(_mm256_or_si256(h, vert), v(valid)))
        }
    }

    #[inline(always)]
    pub fn pext(a: u32, mask: u32) -> u32 {
        unsafe { _pext_u32(a, mask) }
    }

    /// Per column: 64-bit lane shifts that put a value at bit 24x (a count of 64 or more gives
    /// 0 in `vpsllvq`/`vpsrlvq`), and the column's mask.
    struct ColumnPlacement {
        left: [[u64; 4]; 10],
        right: [[u64; 4]; 10],
        mask: [[u64; 4]; 10],
    }

    const fn placement() -> ColumnPlacement {
        let mut t = ColumnPlacement { left: [[64; 4]; 10], right: [[64; 4]; 10], mask: [[0; 4]; 10] };
        let mut x = 0;
        while x < 10 {
            let bit = 24 * x as i64;
            let mut k = 0;
            while k < 4 {
                let d = bit - 64 * k as i64; // where the value's bit 0 lands in lane k
                if d >= 0 && d < 64 {
                    t.left[x][k] = d as u64;
                } else if d < 0 && d > -24 {
                    t.right[x][k] = (-d) as u64;
                }
                k += 1;
            }
            let m = super::portable::with_column(B256([0; 4]), x, 0xFF_FFFF);
            t.mask[x] = m.0;
            x += 1;
        }
        t
    }

    #[repr(C, align(32))]
    struct Aligned([[u64; 4]; 10]);
    static LEFT: Aligned = Aligned(placement().left);
    static RIGHT: Aligned = Aligned(placement().right);
    static MASK: Aligned = Aligned(placement().mask);

    /// Column replacement in registers: broadcast, two variable shifts, blend by mask.
    #[inline(always)]
    pub fn with_column(a: B256, x: usize, value: u32) -> B256 {
        assert!(x < 10);
        unsafe {
            let val = _mm256_set1_epi64x((value & 0xFF_FFFF) as i64);
            let left = _mm256_sllv_epi64(val, v(B256(LEFT.0[x])));
            let right = _mm256_srlv_epi64(val, v(B256(RIGHT.0[x])));
            let cleared = _mm256_andnot_si256(v(B256(MASK.0[x])), v(a));
            b(_mm256_or_si256(cleared, _mm256_or_si256(left, right)))
        }
    }

    /// Non-zero bytes by one compare, then each column's 3 bytes folded to one bit by `pext`.
    #[inline(always)]
    pub fn nonzero_columns(a: &B256) -> u32 {
        unsafe {
            let zero = _mm256_cmpeq_epi8(v(*a), _mm256_setzero_si256());
            let nz = !(_mm256_movemask_epi8(zero) as u32);
            let folded = nz | (nz >> 1) | (nz >> 2);
            _pext_u32(folded, 0x0924_9249) & 0x3FF
        }
    }
}

#[cfg(all(
    target_arch = "x86_64",
    target_feature = "avx2",
    target_feature = "bmi2",
    not(feature = "force-portable")
))]
use avx2 as fast;
#[cfg(not(all(
    target_arch = "x86_64",
    target_feature = "avx2",
    target_feature = "bmi2",
    not(feature = "force-portable")
)))]
use portable as fast;

/// Left by `n` (< 64) bits across all 256 bits, zero-filled (portable code: off the hot path).
impl std::ops::Shl<u32> for B256 {
    type Output = B256;
    #[inline(always)]
    fn shl(self, n: u32) -> B256 {
        portable::shl(self, n)
    }
}

/// Right by `n` (< 64) bits across all 256 bits, zero-filled.
impl std::ops::Shr<u32> for B256 {
    type Output = B256;
    #[inline(always)]
    fn shr(self, n: u32) -> B256 {
        portable::shr(self, n)
    }
}

impl B256 {
    pub const ZERO: B256 = B256([0; 4]);

    /// The set holding only bit `i` (< 256).
    #[inline(always)]
    pub const fn bit(i: usize) -> B256 {
        let mut w = [0; 4];
        w[i / 64] = 1 << (i % 64);
        B256(w)
    }

    #[inline(always)]
    pub const fn get(&self, i: usize) -> bool {
        self.0[i / 64] >> (i % 64) & 1 != 0
    }

    #[inline(always)]
    pub fn and(self, other: B256) -> B256 {
        fast::and(self, other)
    }

    #[inline(always)]
    pub fn or(self, other: B256) -> B256 {
        fast::or(self, other)
    }

    /// `self & !other`.
    #[inline(always)]
    pub fn andnot(self, other: B256) -> B256 {
        fast::andnot(self, other)
    }

    #[inline(always)]
    pub fn xor(self, other: B256) -> B256 {
        fast::xor(self, other)
    }

    #[inline(always)]
    pub fn is_zero(self) -> bool {
        fast::is_zero(self)
    }

    /// True when `self & other` is not empty.
    #[inline(always)]
    pub fn intersects(self, other: B256) -> bool {
        fast::intersects(self, other)
    }

    /// Equality through the vector unit (the derived `==` compares word by word).
    #[inline(always)]
    pub fn same(self, other: B256) -> bool {
        fast::eq(self, other)
    }

    #[inline(always)]
    pub fn count_ones(self) -> u32 {
        self.0[0].count_ones() + self.0[1].count_ones() + self.0[2].count_ones() + self.0[3].count_ones()
    }

    /// Left by one bit across all 256 bits (zero-filled).
    #[inline(always)]
    pub fn shl1(self) -> B256 {
        fast::shl1(self)
    }

    /// The cells among the 8 neighbours of the set's cells (24 bits a column, 10 columns),
    /// masked with `valid`. `self` must be zero at bits 240..256.
    #[inline(always)]
    pub fn neighbours(self, valid: B256) -> B256 {
        fast::neighbours(self, valid)
    }

    /// The 24-bit column at byte `3x`, `x` < 10.
    #[inline(always)]
    pub fn column(&self, x: usize) -> u32 {
        assert!(x < 10);
        // SAFETY: bytes 3x..3x+4 lie inside the 32 bytes of `self` for x < 10 (at most 27..31),
        // and any bit pattern is a valid u32. The read is unaligned on purpose.
        let word = unsafe { (self as *const B256 as *const u8).add(3 * x).cast::<u32>().read_unaligned() };
        u32::from_le(word) & 0xFF_FFFF
    }

    /// Replaces the 24-bit column at byte `3x` (`x` < 10) with the low 24 bits of `value`.
    /// Writes exactly the column's 3 bytes, so a following read of column `x + 1` does not
    /// overlap the store (a partial overlap defeats store-to-load forwarding).
    #[inline(always)]
    pub fn set_column(&mut self, x: usize, value: u32) {
        assert!(x < 10);
        // SAFETY: bytes 3x..3x+3 lie inside the 32 bytes of `self` for x < 10; u8 and u16
        // accept any bit pattern; the u16 write is unaligned on purpose.
        unsafe {
            let p = (self as *mut B256 as *mut u8).add(3 * x);
            p.cast::<u16>().write_unaligned((value as u16).to_le());
            p.add(2).write((value >> 16) as u8);
        }
    }

    /// `self` with column `x` (< 10) replaced by the low 24 bits of `value`, computed in
    /// registers (no narrow store, so a following 256-bit load is forwarded normally).
    #[inline(always)]
    pub fn with_column(self, x: usize, value: u32) -> B256 {
        fast::with_column(self, x, value)
    }

    /// Bit `x` (< 10) set when column `x` holds any bit.
    #[inline(always)]
    pub fn nonzero_columns(&self) -> u32 {
        fast::nonzero_columns(self)
    }
}

/// Parallel bit extract (`_pext_u32` on the AVX2 + BMI2 path).
#[inline(always)]
pub fn pext(a: u32, mask: u32) -> u32 {
    fast::pext(a, mask)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};
    use rand_pcg::Pcg64Mcg;

    fn random(rng: &mut Pcg64Mcg) -> B256 {
        // Mix dense, sparse and clean (zero above bit 240) values.
        let mut w: [u64; 4] = rng.gen();
        match rng.gen_range(0..3) {
            0 => {}
            1 => w = w.map(|x| x & rng.gen::<u64>() & rng.gen::<u64>()),
            _ => w[3] &= (1 << 48) - 1,
        }
        B256(w)
    }

    fn valid() -> B256 {
        let mut v = B256::ZERO;
        for x in 0..10 {
            for y in 0..19 {
                v = portable::or(v, B256::bit(24 * x + y));
            }
        }
        v
    }

    #[test]
    fn portable_column_access_matches_bytes() {
        let mut rng = Pcg64Mcg::seed_from_u64(1);
        for _ in 0..10_000 {
            let a = random(&mut rng);
            let x = rng.gen_range(0..10);
            let value: u32 = rng.gen();
            assert_eq!(portable::column(&a, x), a.column(x));
            let (mut p, mut q) = (a, a);
            portable::set_column(&mut p, x, value);
            q.set_column(x, value);
            assert_eq!(p, q);
            assert_eq!(q.column(x), value & 0xFF_FFFF);
        }
    }

    #[test]
    fn pext_matches_definition() {
        let mut rng = Pcg64Mcg::seed_from_u64(2);
        for _ in 0..100_000 {
            let (a, m): (u32, u32) = (rng.gen(), rng.gen::<u32>() & rng.gen::<u32>());
            let mut want = 0;
            let mut k = 0;
            for i in 0..32 {
                if m >> i & 1 == 1 {
                    want |= (a >> i & 1) << k;
                    k += 1;
                }
            }
            assert_eq!(portable::pext(a, m), want);
            assert_eq!(pext(a, m), want);
        }
    }

    #[test]
    fn neighbours_match_cell_definition() {
        let valid = valid();
        let mut rng = Pcg64Mcg::seed_from_u64(3);
        for _ in 0..2_000 {
            let s = portable::and(random(&mut rng), valid);
            let n = s.neighbours(valid);
            for x in 0..10i32 {
                for y in 0..19i32 {
                    let want = (-1..=1).any(|dx| {
                        (-1..=1).any(|dy| {
                            let (nx, ny) = (x + dx, y + dy);
                            (dx, dy) != (0, 0)
                                && (0..10).contains(&nx)
                                && (0..19).contains(&ny)
                                && s.get((24 * nx + ny) as usize)
                        })
                    });
                    assert_eq!(n.get((24 * x + y) as usize), want, "x {x} y {y}");
                }
            }
        }
    }

    /// Every operation of the fast path against the portable one (the same code when the
    /// portable path is the fast one).
    #[test]
    fn fast_path_matches_portable() {
        let valid = valid();
        let mut rng = Pcg64Mcg::seed_from_u64(4);
        for _ in 0..200_000 {
            let (a, c) = (random(&mut rng), random(&mut rng));
            assert_eq!(a.and(c), portable::and(a, c));
            assert_eq!(a.or(c), portable::or(a, c));
            assert_eq!(a.andnot(c), portable::andnot(a, c));
            assert_eq!(a.xor(c), portable::xor(a, c));
            assert_eq!(a.is_zero(), portable::is_zero(a));
            assert_eq!(B256::ZERO.is_zero(), portable::is_zero(B256::ZERO));
            assert_eq!(a.intersects(c), portable::intersects(a, c));
            assert_eq!(a.same(c), portable::eq(a, c));
            assert!(a.same(a));
            assert_eq!(a.shl1(), portable::shl(a, 1));
            assert_eq!(a.nonzero_columns(), portable::nonzero_columns(&a));
            let (x, value) = (rng.gen_range(0..10), rng.gen::<u32>());
            assert_eq!(a.with_column(x, value), portable::with_column(a, x, value));
            let sparse = portable::and(a, portable::and(random(&mut rng), random(&mut rng)));
            assert_eq!(sparse.nonzero_columns(), portable::nonzero_columns(&sparse));
            let clean = portable::and(a, valid);
            assert_eq!(clean.neighbours(valid), portable::neighbours(clean, valid));
            let (x, m) = (rng.gen::<u32>(), rng.gen::<u32>());
            assert_eq!(pext(x, m), portable::pext(x, m));
        }
        assert_eq!(
            ACCELERATED,
            cfg!(all(target_feature = "avx2", target_feature = "bmi2", not(feature = "force-portable")))
        );
    }
}
