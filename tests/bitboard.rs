//! The bitboard ([`BitField`]) against the reference engine ([`Field`]): a seeded differential
//! test over at least 1,000,000 reachable positions (override with `BITBOARD_DIFF_POSITIONS`),
//! targeted cases (tall columns, chains reaching the top rows, the skill, unstable pictures),
//! the shared standard workloads' expected results, and a shrinkable proptest.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};

use codevs_reborn::bench::sim::{check_expected, read_expected, read_positions};
use codevs_reborn::board::{BitField, ACCELERATED};
use codevs_reborn::rules::{Action, ChainTrace, Field, Outcome, Pack, Packs, Simulator, WIDTH};
use proptest::prelude::*;
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;

/// The repository's data folder (real pack files, simulator workloads).
fn data() -> PathBuf {
    PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/data"))
}

fn real_packs() -> Vec<Packs> {
    let dir = data().join("packs");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "pack"))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no pack files in {}", dir.display());
    files.iter().map(|f| codevs_reborn::protocol::read_pack_file(f).unwrap()).collect()
}

/// Everything observable must agree: the field, heights, death, and value semantics (a fresh
/// conversion of the reference equals the bitboard and hashes alike).
fn assert_same(bits: &BitField, reference: &Field, context: &dyn Fn() -> String) {
    assert_eq!(bits.gap_pairs(), reference.gap_pairs(), "gap pairs: {}", context());
    let field = bits.to_field();
    if field != *reference {
        panic!("{}\nreference:{reference:?}\nbitboard:{field:?}", context());
    }
    assert_eq!(bits.is_dead(), reference.is_dead(), "{}", context());
    for x in 0..WIDTH {
        assert_eq!(Simulator::height(bits, x), reference.height(x), "{}: height of column {x}", context());
    }
    let fresh = BitField::from_field(reference);
    assert!(fresh == *bits, "{}: equality", context());
    assert_eq!(fresh.hash(), bits.hash(), "{}: hash", context());
    // The neighbourhood cache (fresh planes) agrees with planes rebuilt from scratch.
    for d in 1..=9 {
        assert_eq!(bits.neighbourhood(d), fresh.neighbourhood(d), "{}: neighbourhood of {d}", context());
    }
}

fn apply_both(
    bits: &mut BitField,
    reference: &mut Field,
    pack: &Pack,
    action: Action,
    traced: bool,
    context: &dyn Fn() -> String,
) -> Outcome {
    let (want, got) = if traced {
        let (mut tr, mut tb) = (ChainTrace::default(), ChainTrace::default());
        let want = match action {
            Action::Drop { x, rotation } => reference.drop_pack_traced(pack, x, rotation, &mut tr),
            Action::Skill => reference.use_skill_traced(&mut tr),
        };
        let got = match action {
            Action::Drop { x, rotation } => bits.drop_pack_traced(pack, x, rotation, &mut tb),
            Action::Skill => bits.use_skill_traced(&mut tb),
        };
        assert_eq!(tb.normalized(), tr.normalized(), "{}: chain trace of {action}", context());
        (want, got)
    } else {
        (reference.apply(pack, action), bits.apply(pack, action))
    };
    assert_eq!(got, want, "{}: outcome of {action}", context());
    assert_eq!(got.score(), want.score());
    assert_same(bits, reference, &|| format!("{} after {action}", context()));
    want
}

/// Plays one random game on both engines, comparing after every step; returns positions checked.
fn differential_game(packs: &Packs, seed: u64, all_actions_every: u64) -> u64 {
    let mut rng = Pcg64Mcg::seed_from_u64(seed);
    let garbage_rate = [0.0, 0.08, 0.2, 0.4][rng.gen_range(0..4)];
    let skill_rate = [0.0, 0.02, 0.1][rng.gen_range(0..3)];
    // How often the game plays the longest chain available instead of building up quietly.
    let fire_rate = [0.0, 0.05, 0.2, 1.0][rng.gen_range(0..4)];
    let (mut reference, mut bits) = (Field::empty(), BitField::empty());
    let mut checked = 0;
    for turn in 0..packs.len() {
        let pack = *packs.get(turn);
        let before = reference;
        let ctx = || format!("seed {seed} turn {turn}\nfield before:{before:?}pack {:?}", pack.rows);
        if rng.gen_bool(garbage_rate) {
            reference.drop_garbage_row();
            bits.drop_garbage_row();
            assert_same(&bits, &reference, &|| format!("{} after a garbage row", ctx()));
        }
        if all_actions_every > 0 && rng.gen_range(0..all_actions_every) == 0 {
            for action in Action::all(true) {
                let (mut r, mut b) = (reference, bits);
                apply_both(&mut b, &mut r, &pack, action, true, &ctx);
            }
            erase_every_block(&bits, &reference, &ctx);
        }
        // Candidates scored by the bitboard (every chosen action is then checked against the
        // reference, so the choice cannot hide a difference).
        let action = if rng.gen_bool(skill_rate) {
            Action::Skill
        } else {
            let fire = rng.gen_bool(fire_rate);
            let mut best: Option<(u32, Action)> = None;
            let start = rng.gen_range(0..36);
            for k in 0..36 {
                let a = Action::drops().nth((start + k) % 36).unwrap();
                let mut b = bits;
                let o = b.apply(&pack, a);
                if b.is_dead() {
                    continue;
                }
                let score = if fire { o.links + 1 } else { u32::from(o.links == 0) };
                if best.is_none_or(|(s, _)| score > s) {
                    best = Some((score, a));
                }
                if !fire && score == 1 && rng.gen_bool(0.5) {
                    break;
                }
            }
            best.map_or(Action::Drop { x: rng.gen_range(0..=8), rotation: rng.gen_range(0..4) }, |(_, a)| a)
        };
        apply_both(&mut bits, &mut reference, &pack, action, turn % 8 == 0, &ctx);
        checked += 1;
        if reference.is_dead() {
            break;
        }
    }
    checked
}

/// The chain-potential probe: erasing any numbered block gives the same outcome and field on
/// both engines.
fn erase_every_block(bits: &BitField, reference: &Field, context: &dyn Fn() -> String) {
    for x in 0..WIDTH {
        for y in 0..reference.height(x) {
            if !(1..=9).contains(&reference.get(x, y)) {
                continue;
            }
            let (mut r, mut b) = (*reference, *bits);
            let outcome = r.erase(x, y);
            assert_eq!(b.erase(x, y), outcome, "{}: erase ({x}, {y})", context());
            assert!(outcome.links >= 1 && outcome.vanished >= 1);
            assert_same(&b, &r, &|| format!("{}: after erasing ({x}, {y})", context()));
        }
    }
}

#[test]
fn erase_sets_off_the_chain_above() {
    // Erasing the 3 lets the 4 fall diagonally next to the 6: two links, three blocks.
    let field: Field = "4.........\n3.........\n16........\n".parse().unwrap();
    let mut reference = field;
    let mut bits = BitField::from_field(&field);
    let outcome = reference.erase(0, 1);
    assert_eq!((outcome.links, outcome.vanished), (2, 3));
    assert_eq!(bits.erase(0, 1), outcome);
    assert_eq!(bits.to_field(), reference);
    assert_eq!(reference, "..........\n..........\n1.........\n".parse().unwrap());
}

#[test]
fn differential_million_positions() {
    let target: u64 = std::env::var("BITBOARD_DIFF_POSITIONS").ok().and_then(|v| v.parse().ok()).unwrap_or(1_000_000);
    let packs = real_packs();
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get()).clamp(1, 8) as u64;
    let total = AtomicU64::new(0);
    let games = AtomicU64::new(0);
    let start = std::time::Instant::now();
    std::thread::scope(|s| {
        for t in 0..threads {
            let (packs, total, games) = (&packs, &total, &games);
            s.spawn(move || {
                let mut mine = 0;
                let mut g = t;
                while mine < target.div_ceil(threads) {
                    mine += differential_game(&packs[g as usize % packs.len()], 0xB17B0A2D ^ g, 64);
                    g += threads;
                    games.fetch_add(1, Ordering::Relaxed);
                }
                total.fetch_add(mine, Ordering::Relaxed);
            });
        }
    });
    let total = total.into_inner();
    eprintln!(
        "differential: {total} positions in {} games on {threads} threads, {:.1} s ({} path)",
        games.into_inner(),
        start.elapsed().as_secs_f64(),
        if ACCELERATED { "AVX2+BMI2" } else { "portable" }
    );
    assert!(total >= target);
}

/// Random fields that are not stable (pairs already present, as a picture may hold), with
/// columns up to 17 high before the drop, so drops reach 19: the bitboard must vanish the
/// existing pairs at the next action exactly as the reference does.
#[test]
fn unstable_and_tall_random_fields() {
    let mut rng = Pcg64Mcg::seed_from_u64(7);
    for case in 0..3_000 {
        let mut rows = vec![[0u8; WIDTH]; 17];
        let heights: Vec<usize> = (0..WIDTH).map(|_| rng.gen_range(0..=17)).collect();
        for (x, &h) in heights.iter().enumerate() {
            for y in 0..h {
                rows[16 - y][x] = if rng.gen_bool(0.15) { 11 } else { rng.gen_range(1..=9) };
            }
        }
        let field = Field::from_rows_top_first(&rows).unwrap();
        let pack =
            Pack::new([rng.gen_range(0..=9), rng.gen_range(1..=9)], [rng.gen_range(1..=9), rng.gen_range(0..=9)]);
        for (k, action) in Action::all(true).enumerate() {
            let (mut r, mut b) = (field, BitField::from_field(&field));
            let ctx = || format!("case {case} action {action}\nfield:{field:?}pack {:?}", pack.rows);
            apply_both(&mut b, &mut r, &pack, action, k % 5 == 0, &ctx);
        }
        // A garbage row on the unstable field, then the skill (columns up to 18 high).
        let (mut r, mut b) = (field, BitField::from_field(&field));
        r.drop_garbage_row();
        b.drop_garbage_row();
        let ctx = || format!("case {case}: garbage row, skill\nfield:{field:?}");
        assert_same(&b, &r, &ctx);
        apply_both(&mut b, &mut r, &pack, Action::Skill, true, &ctx);
    }
}

fn run_case(picture: &str, garbage: bool, pack: Pack, action: Action) -> (Outcome, BitField) {
    let field: Field = picture.parse().unwrap();
    let (mut r, mut b) = (field, BitField::from_field(&field));
    assert_same(&b, &r, &|| "conversion".into());
    if garbage {
        r.drop_garbage_row();
        b.drop_garbage_row();
        assert_same(&b, &r, &|| "garbage row".into());
    }
    let o = apply_both(&mut b, &mut r, &pack, action, true, &|| format!("{picture}\n{action}"));
    (o, b)
}

fn rows(top: &str, below: &str, count: usize) -> String {
    let mut s = top.to_string();
    for _ in 0..count {
        s.push('\n');
        s.push_str(below);
    }
    s
}

/// A column of 16 + a garbage row + a 2-high pack: 19 cells, the pack on rows 17 and 18.
#[test]
fn columns_transiently_19_high() {
    // Column 0: 2 and 4 (never a pair) 16 high.
    let full: Vec<&str> = (0..16).map(|i| if i % 2 == 0 { "2........." } else { "4........." }).collect();
    let full = full.join("\n");
    let field: Field = full.parse().unwrap();
    assert_eq!((field.height(0), field.height(1)), (16, 0), "{field:?}");
    // No chain: 19 high, dead.
    let (o, b) = run_case(&full, true, Pack::new([1, 0], [1, 0]), Action::Drop { x: 0, rotation: 0 });
    assert_eq!((o.links, Simulator::height(&b, 0), b.is_dead()), (0, 19, true));
    // 1 on row 17 and 8 on row 18 of column 0; 3 and 2 low in column 1: no pair.
    let (o, b) = run_case(&full, true, Pack::new([8, 2], [1, 3]), Action::Drop { x: 0, rotation: 0 });
    assert_eq!((o.links, Simulator::height(&b, 0), Simulator::height(&b, 1)), (0, 19, 3));
    // 9 on row 17 and 1 on row 18 vanish together.
    let (o, b) = run_case(&full, true, Pack::new([1, 0], [9, 0]), Action::Drop { x: 0, rotation: 0 });
    assert_eq!((o.links, o.vanished, Simulator::height(&b, 0), b.is_dead()), (1, 2, 17, true));
    // Two such columns: pairs across rows 17 and 18 (vertical and horizontal).
    let two: Vec<&str> = (0..16).map(|i| if i % 2 == 0 { "24........" } else { "42........" }).collect();
    let two = two.join("\n");
    let field: Field = two.parse().unwrap();
    assert_eq!((field.height(0), field.height(1)), (16, 16), "{field:?}");
    let (o, _) = run_case(&two, true, Pack::new([3, 5], [7, 5]), Action::Drop { x: 0, rotation: 0 });
    assert_eq!((o.links, o.vanished), (1, 4));
    let (o, _) = run_case(&two, true, Pack::new([5, 5], [5, 5]), Action::Drop { x: 0, rotation: 1 });
    assert_eq!((o.links, o.vanished), (1, 4));
    let (o, b) = run_case(&two, true, Pack::new([5, 5], [0, 0]), Action::Drop { x: 0, rotation: 0 });
    assert_eq!((o.links, Simulator::height(&b, 0)), (1, 17));
    // Every action on the 17-high field after the garbage row.
    for action in Action::all(true) {
        run_case(&two, true, Pack::new([5, 6], [4, 1]), action);
    }
    // The skill on columns 17 high: the 5 and the 3 beside it explode, garbage stays.
    let tall = rows("53#.......", "###.......", 16);
    let (o, b) = run_case(&tall, false, Pack::default(), Action::Skill);
    assert_eq!((o.exploded, o.links, Simulator::height(&b, 0), Simulator::height(&b, 1)), (2, 0, 16, 16));
}

/// Chains whose links happen on rows 16–18, then the hardest shared positions on top of a
/// garbage row (columns up to 19 high during the chain).
#[test]
fn chains_reaching_the_top_rows() {
    // 17 high (as after a garbage row); the pack puts 9 | 1 on row 17 and 4 | 3 on row 18.
    // Link 1: 9 and 1. The 4 and the 3 fall to row 17; link 2: the 3 with the 7 at (2, 16).
    let picture = rows("##7.......", "###.......", 16);
    let (o, b) = run_case(&picture, false, Pack::new([4, 3], [9, 1]), Action::Drop { x: 0, rotation: 0 });
    assert_eq!((o.links, o.vanished), (2, 4));
    assert_eq!([0, 1, 2].map(|x| Simulator::height(&b, x)), [18, 17, 16]);
    let positions = read_positions(&data().join("bench/sim-positions-chains.txt")).unwrap();
    let mut longest = 0;
    for (i, p) in positions.iter().enumerate() {
        let (mut r, mut b) = (p.field, BitField::from_field(&p.field));
        let o = apply_both(&mut b, &mut r, &p.pack, p.action, true, &|| format!("chains position {i}"));
        longest = longest.max(o.links);
        if (0..WIDTH).all(|x| p.field.height(x) <= 16) {
            let (mut r, mut b) = (p.field, BitField::from_field(&p.field));
            r.drop_garbage_row();
            b.drop_garbage_row();
            for action in Action::all(true) {
                let (mut r, mut b) = (r, b);
                apply_both(&mut b, &mut r, &p.pack, action, true, &|| format!("chains position {i} + garbage"));
            }
        }
    }
    assert!(longest >= 15, "the chain workload fires long chains ({longest})");
}

#[test]
fn skill_cases() {
    // 5s next to garbage: garbage survives; 5s next to 5s; numbers next to 5 diagonally.
    let picture = "\
        ..........\n..........\n..........\n..........\n..........\n..........\n..........\n..........\n\
        ..........\n..........\n..........\n..........\n.9........\n#53.......\n155#......\n#2#4......";
    let field: Field = picture.parse().unwrap();
    let mut b = BitField::from_field(&field);
    let mut r = field;
    let o = apply_both(&mut b, &mut r, &Pack::default(), Action::Skill, true, &|| "skill".into());
    assert!(o.skill && o.exploded == 8, "{o:?}");
    // No 5 at all: an explosion of 0 blocks, still a skill.
    let field: Field = "1.........\n2.........".parse().unwrap();
    let (mut r, mut b) = (field, BitField::from_field(&field));
    let o = apply_both(&mut b, &mut r, &Pack::default(), Action::Skill, true, &|| "empty skill".into());
    assert_eq!(o, Outcome { links: 0, vanished: 0, exploded: 0, skill: true });
    // Unstable picture: the skill also resolves the pairs that were there.
    let field: Field = "19........\n55........".parse().unwrap();
    let (mut r, mut b) = (field, BitField::from_field(&field));
    apply_both(&mut b, &mut r, &Pack::default(), Action::Skill, true, &|| "unstable skill".into());
}

#[test]
fn standard_workloads_match_expected() {
    for name in ["sim-positions-random", "sim-positions-chains"] {
        let dir = data().join("bench");
        let positions = read_positions(&dir.join(format!("{name}.txt"))).unwrap();
        let expected = read_expected(&dir.join(format!("{name}.expected"))).unwrap();
        assert!(!positions.is_empty());
        check_expected(name, &positions, &expected).unwrap();
        // The traced path and the full comparison too.
        for (i, p) in positions.iter().enumerate() {
            let (mut r, mut b) = (p.field, BitField::from_field(&p.field));
            apply_both(&mut b, &mut r, &p.pack, p.action, true, &|| format!("{name} position {i}"));
        }
    }
}

#[test]
fn check_expected_fails_loudly_on_a_mismatch() {
    let dir = data().join("bench");
    let positions = read_positions(&dir.join("sim-positions-random.txt")).unwrap();
    let mut expected = read_expected(&dir.join("sim-positions-random.expected")).unwrap();
    expected[3] = "7 - - - - - - - - - -".into();
    let err = check_expected("random", &positions, &expected).unwrap_err();
    assert!(err.contains("position 4"), "{err}");
}

#[test]
fn gap_pairs_from_pictures() {
    let count = |picture: &str| {
        let field: Field = picture.parse().unwrap();
        let bits = BitField::from_field(&field);
        assert_eq!(bits.gap_pairs(), field.gap_pairs(), "{picture}");
        field.gap_pairs()
    };
    // The 3 pairs with the 7 two rows up and with the 7 a knight's move right.
    assert_eq!(count("77........\n11........\n32........\n"), 2);
    // The 3 with the 7 a knight's move right; the 5 with the 5 a knight's move left.
    assert_eq!(count("57........\n11........\n35........\n"), 2);
    // Sums other than 10 and pairs three rows apart do not count.
    assert_eq!(count("7.........\n1.........\n1.........\n2.........\n"), 0);
    // Garbage never pairs.
    assert_eq!(count("#.........\n1.........\n#.........\n"), 0);
}

/// Equal fields reached by different histories are equal and hash alike; different fields of
/// the games hash apart (no collision among tens of thousands).
#[test]
fn hash_and_equality() {
    let packs = real_packs();
    let mut seen: HashMap<u64, Field> = HashMap::new();
    for g in 0..40 {
        let p = &packs[g % packs.len()];
        let mut rng = Pcg64Mcg::seed_from_u64(g as u64);
        let mut b = BitField::empty();
        for turn in 0..p.len() {
            for action in Action::drops() {
                let mut c = b;
                c.apply(p.get(turn), action);
                if let Some(other) = seen.insert(c.hash(), c.to_field()) {
                    assert_eq!(other, c.to_field(), "hash collision");
                }
            }
            let a = Action::Drop { x: rng.gen_range(0..=8), rotation: rng.gen_range(0..4) };
            b.apply(p.get(turn), a);
            if b.is_dead() {
                break;
            }
        }
    }
    assert!(seen.len() > 20_000, "{}", seen.len());
    // A 1 and a 2 in the cells at bit 63 of a word (column 2, row 15) of otherwise equal fields.
    let mut a = "..1.......".to_string();
    let mut c = "..2.......".to_string();
    for _ in 0..15 {
        a.push_str("\n..#.......");
        c.push_str("\n..#.......");
    }
    let (a, c) = (BitField::from_field(&a.parse().unwrap()), BitField::from_field(&c.parse().unwrap()));
    assert!(a != c);
    assert_ne!(a.hash(), c.hash());
}

#[derive(Clone, Debug)]
enum Step {
    Garbage,
    Drop([u8; 4], u8, u8),
    Skill,
}

fn step() -> impl Strategy<Value = Step> {
    let cell = 0u8..=9;
    let number = 1u8..=9;
    prop_oneof![
        1 => Just(Step::Garbage),
        1 => Just(Step::Skill),
        10 => (cell.clone(), number.clone(), number, cell, 0u8..=8, 0u8..4)
            .prop_map(|(a, b, c, d, x, r)| Step::Drop([a, b, c, d], x, r)),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    /// Short random games from the empty field: shrinks to a minimal differing sequence.
    #[test]
    fn small_games_agree(steps in proptest::collection::vec(step(), 1..60)) {
        let (mut r, mut b) = (Field::empty(), BitField::empty());
        for (i, s) in steps.iter().enumerate() {
            match *s {
                Step::Garbage => {
                    r.drop_garbage_row();
                    b.drop_garbage_row();
                }
                Step::Skill => {
                    let (mut tr, mut tb) = (ChainTrace::default(), ChainTrace::default());
                    prop_assert_eq!(b.use_skill_traced(&mut tb), r.use_skill_traced(&mut tr), "step {}", i);
                    prop_assert_eq!(tb.normalized(), tr.normalized());
                }
                Step::Drop(c, x, rot) => {
                    let pack = Pack::new([c[0], c[1]], [c[2], c[3]]);
                    let (mut tr, mut tb) = (ChainTrace::default(), ChainTrace::default());
                    prop_assert_eq!(
                        b.drop_pack_traced(&pack, x, rot, &mut tb),
                        r.drop_pack_traced(&pack, x, rot, &mut tr),
                        "step {}", i
                    );
                    prop_assert_eq!(tb.normalized(), tr.normalized());
                }
            }
            prop_assert_eq!(b.to_field(), r);
            prop_assert_eq!(b.is_dead(), r.is_dead());
            prop_assert!(BitField::from_field(&r) == b);
            prop_assert_eq!(BitField::from_field(&r).hash(), b.hash());
            if r.is_dead() {
                break;
            }
        }
    }
}
