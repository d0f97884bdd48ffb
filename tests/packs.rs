//! Generated packs (`Packs::generate`, what `--seed` plays) against the real pack files, on the
//! statistics a bot feels: how many four-block packs come early, which numbers come early, how
//! often a pack holds two blocks summing to 10, where a three-block pack's empty cell is. A
//! judgement on generated packs stands for one on real files only while these agree.
//!
//! Each statistic is a per-game figure, averaged over the 100 shipped real files and over 100
//! seeds; the two means must agree within 3.5 standard errors of their difference (about
//! 99.95% two-sided for one figure, so the ~40 figures together would rarely all pass by chance
//! if they differed). Seeds are fixed: the test's outcome never changes between runs.

use codevs_reborn::data::pack_set;
use codevs_reborn::rules::{Pack, Packs};
use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_pcg::Pcg64Mcg;

/// Turn ranges the statistics are read over: the opening a bot plans (0–19), the first race
/// (20–49), the rest.
const RANGES: [(usize, usize); 3] = [(0, 20), (20, 50), (50, 500)];
/// Agreement bound, in standard errors of the difference of the two means.
const MAX_Z: f64 = 3.5;

fn blocks(pack: &Pack) -> Vec<u8> {
    pack.rows.iter().flatten().copied().filter(|&v| v != 0).collect()
}

fn holds_a_ten(pack: &Pack) -> bool {
    let b = blocks(pack);
    (0..b.len()).any(|i| (i + 1..b.len()).any(|j| b[i] + b[j] == 10))
}

/// One game's figures, by name.
fn figures(packs: &Packs) -> Vec<(String, f64)> {
    let mut out = Vec::new();
    for (from, to) in RANGES {
        let range = &packs.0[from..to];
        let four = range.iter().filter(|p| blocks(p).len() == 4).count();
        out.push((format!("four-block packs, turns {from}-{}", to - 1), four as f64));
        let tens = range.iter().filter(|p| holds_a_ten(p)).count();
        out.push((format!("packs holding a pair summing to 10, turns {from}-{}", to - 1), tens as f64));
        if from < 50 {
            for n in 1..=9 {
                let count = range.iter().flat_map(blocks).filter(|&v| v == n).count();
                out.push((format!("blocks of {n}, turns {from}-{}", to - 1), count as f64));
            }
        }
    }
    let three: Vec<&Pack> = packs.0.iter().filter(|p| blocks(p).len() == 3).collect();
    for (cell, name) in ["top-left", "top-right", "bottom-left", "bottom-right"].iter().enumerate() {
        let empty = three.iter().filter(|p| p.rows[cell / 2][cell % 2] == 0).count();
        out.push((format!("three-block packs empty at {name}"), empty as f64 / three.len() as f64));
    }
    out
}

/// Mean and standard error of the mean.
fn mean_se(values: &[f64]) -> (f64, f64) {
    let n = values.len() as f64;
    let mean = values.iter().sum::<f64>() / n;
    let var = values.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / (n - 1.0);
    (mean, (var / n).sqrt())
}

/// The figures on which `generated` and `real` games disagree, each with both means and z; the
/// whole comparison as a table is printed (`cargo test --test packs -- --nocapture`).
fn disagreements(real: &[Packs], generated: &[Packs]) -> Vec<String> {
    let per_game = |games: &[Packs]| games.iter().map(figures).collect::<Vec<_>>();
    let (r, g) = (per_game(real), per_game(generated));
    let mut out = Vec::new();
    println!("{:<50} {:>16} {:>16} {:>6}", "figure (per game)", "real ± se", "generated ± se", "z");
    for (i, (name, _)) in r[0].iter().enumerate() {
        let column = |games: &[Vec<(String, f64)>]| games.iter().map(|f| f[i].1).collect::<Vec<_>>();
        let ((mr, sr), (mg, sg)) = (mean_se(&column(&r)), mean_se(&column(&g)));
        let spread = (sr * sr + sg * sg).sqrt();
        // A figure constant in both (the top-right cell is never empty) agrees only exactly.
        let z = if spread == 0.0 {
            if mr == mg {
                0.0
            } else {
                f64::INFINITY
            }
        } else {
            (mg - mr) / spread
        };
        println!("{name:<50} {mr:>9.3} ± {sr:<5.3} {mg:>9.3} ± {sg:<5.3} {z:>6.2}");
        if z.abs() > MAX_Z {
            out.push(format!("{name}: real {mr:.3}, generated {mg:.3} (z = {z:.2})"));
        }
    }
    out
}

fn real_files() -> Vec<Packs> {
    let files = pack_set(None).unwrap();
    assert_eq!(files.len(), 100, "the shipped real files 0000-0099");
    files.into_iter().map(|(_, packs)| packs).collect()
}

#[test]
fn generated_packs_agree_with_the_real_files() {
    let generated: Vec<Packs> = (0..100).map(Packs::generate).collect();
    let wrong = disagreements(&real_files(), &generated);
    assert!(wrong.is_empty(), "generated packs differ from the real files:\n{}", wrong.join("\n"));
}

/// Packs with the rule book's make-up (380 three-block and 120 four-block packs, 180 of each
/// number), which the client's files do not have: the comparison must tell them apart.
fn rule_book_packs(seed: u64) -> Packs {
    let mut rng = Pcg64Mcg::seed_from_u64(seed);
    let mut numbers: Vec<u8> = (1..=9).flat_map(|d| std::iter::repeat_n(d, 180)).collect();
    numbers.shuffle(&mut rng);
    let mut sizes = [3].repeat(380);
    sizes.extend([4].repeat(120));
    sizes.shuffle(&mut rng);
    let mut numbers = numbers.into_iter();
    let mut next = || numbers.next().unwrap();
    Packs(
        sizes
            .into_iter()
            .map(|size| match size {
                4 => Pack::new([next(), next()], [next(), next()]),
                _ => Pack::new([next(), 0], [next(), next()]),
            })
            .collect(),
    )
}

#[test]
fn the_comparison_tells_the_rule_books_make_up_apart() {
    let generated: Vec<Packs> = (0..100).map(rule_book_packs).collect();
    let wrong = disagreements(&real_files(), &generated);
    assert!(wrong.iter().any(|w| w.starts_with("four-block packs, turns 50-499")), "{wrong:?}");
    assert!(wrong.iter().any(|w| w.starts_with("three-block packs empty at top-left")), "{wrong:?}");
}
