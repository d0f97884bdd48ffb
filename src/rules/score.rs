//! Scores, garbage and gauge arithmetic, in exact integers.

/// floor(1.3^i) for i = 0..LINK_SCORES.len(), computed exactly as floor(13^i / 10^i)
/// (checked against big-integer arithmetic in the tests). A field holds at most 190 blocks and
/// every link removes at least two, so 96 entries cover every possible chain.
const LINK_SCORES: [u64; 96] = link_score_table();

const fn link_score_table() -> [u64; 96] {
    // Exact floor(13^i / 10^i) with a small fixed-width big number (base 10^9 limbs): const fns
    // cannot call a big-integer crate, and the table must be exact, never a float power.
    const LIMBS: usize = 14; // 13^95 < 10^106 < (10^9)^12
    const BASE: u64 = 1_000_000_000;
    let mut table = [0u64; 96];
    let mut power = [0u64; LIMBS]; // 13^i, little-endian base 10^9
    power[0] = 1;
    let mut i = 0;
    while i < 96 {
        // floor(13^i / 10^i): drop i decimal digits. Split i into whole limbs and a remainder.
        let whole = i / 9;
        let rest = (i % 9) as u32;
        let div = 10u64.pow(rest);
        // value = sum power[k] * BASE^(k - whole) for k >= whole, then / div
        let mut value: u128 = 0;
        let mut k = LIMBS;
        while k > whole {
            k -= 1;
            value = value * BASE as u128 + power[k] as u128;
        }
        table[i] = (value / div as u128) as u64;
        // power *= 13
        let mut carry = 0u64;
        let mut k = 0;
        while k < LIMBS {
            let v = power[k] * 13 + carry;
            power[k] = v % BASE;
            carry = v / BASE;
            k += 1;
        }
        i += 1;
    }
    table
}

/// Points for link `i` (1-based) of a chain: floor(1.3^i).
pub fn link_score(i: u32) -> u64 {
    LINK_SCORES[i as usize]
}

/// Chain score for `links` links: the sum of floor(1.3^i) for i = 1..=links.
pub fn chain_score(links: u32) -> u64 {
    (1..=links).map(link_score).sum()
}

/// Explosion score for `blocks` blocks: floor(25 · 2^(blocks/12)), 0 when nothing exploded.
pub fn explosion_score(blocks: u32) -> u64 {
    if blocks == 0 {
        return 0;
    }
    // 2^(b/12) = 2^(b div 12) · 2^((b mod 12)/12): the float part stays in [1, 2), where f64 is
    // exact enough; the tests confirm every value by the integer inequality v^12 ≤ 25^12·2^b.
    let whole = blocks / 12;
    let frac = 2f64.powf((blocks % 12) as f64 / 12.0);
    ((25.0 * frac) * (1u64 << whole.min(62)) as f64).floor() as u64
}

/// Garbage sent for a score: half, rounded down.
pub fn garbage_for(score: u64) -> u32 {
    (score / 2).min(u32::MAX as u64) as u32
}

/// Garbage a chain of `links` links sends (no skill explosion).
pub fn chain_garbage(links: u32) -> u32 {
    garbage_for(chain_score(links))
}

/// Gauge the opponent loses when a player makes `links` links in a turn: 12 + 2·links from 3 on.
pub fn gauge_drain(links: u32) -> u32 {
    if links >= 3 {
        12 + 2 * links
    } else {
        0
    }
}
