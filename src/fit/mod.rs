//! `codevs-reborn fit POSITIONS...`: the win probability of a race position, fitted to the
//! outcomes of recorded games (`positions`), as Logistello and Texel tuning fit evaluations to
//! game results: logistic regression on a few features of the race, held-out games split by
//! game (never by position: a game's positions share its outcome).
//!
//! It prints the held-out log-loss and accuracy of four predictors, each fitted on the training
//! games: the base rate; the side with the larger menu chain wins (the win rate of each sign of
//! the difference); the exchange game's value (what the bot decides by today) through one
//! sigmoid; and the fitted model. Then the fitted model's gain over the exchange value with its
//! bootstrap interval over held-out games, and the weights (written with `-o`). The games played
//! on the same packs are held out together: two bots' paired games on a seed are often one game.
//!
//! With `--exchanges`, it fits instead our probability of winning after the first exchange of
//! chains to gauntlet `--json` lines ([`exchanges`]); with `--midgame`, the midgame evaluation's
//! garbage and height terms on the positions ([`midgame`]).
//!
//! The models have a dozen weights at most, so they are fitted by Newton's method (iteratively
//! reweighted least squares, a small ridge keeping it defined on few games) in a few lines here
//! rather than with a linear-algebra dependency. `-o` writes its model's part of the models file
//! the bot reads (`data/race-model.json`), keeping the other part.

pub mod exchanges;
pub mod midgame;

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use serde::Serialize;

use crate::bot::race::value::{best_within, features, sigmoid, Logistic, WinModel, FEATURES};
use crate::bot::RaceFeatures;
use crate::positions::{read_positions, RacePosition};
use crate::rules::GARBAGE_ROW;
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;

/// `codevs-reborn fit` flags.
#[derive(Clone, Debug, clap::Args)]
pub struct FitArgs {
    /// Positions files (`codevs-reborn positions -o FILE`).
    #[arg(required_unless_present = "exchanges", value_name = "FILE")]
    pub positions: Vec<PathBuf>,
    /// Fit the odds after the first exchange instead, on these gauntlet `--json` files (each
    /// game's first chain of 10+ links a side: who fired first, and by how many links ours was
    /// longer).
    #[arg(long, value_name = "FILE", num_args = 1.., conflicts_with = "positions")]
    pub exchanges: Vec<PathBuf>,
    /// Fit instead the midgame evaluation's garbage and height terms on the positions (Texel
    /// tuning): each term's hand-set weight, its fitted one and its held-out effect. A reading:
    /// the bot's weights stay its flags (`--mid-*`), and nothing is written.
    #[arg(long, conflicts_with_all = ["exchanges", "output"])]
    pub midgame: bool,
    /// Write the fitted model (its weights and the figures it was fitted with) into the models
    /// FILE (`data/race-model.json`): its part (`position`, or `exchange` with --exchanges) is
    /// replaced, the other kept.
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// One pack sequence in this many is held out with all its games (pack labels in order: the
    /// 1st, the K+1-th, ...).
    #[arg(long, value_name = "K", default_value_t = 4)]
    pub holdout_every: usize,
    /// Bootstrap resamples of the held-out games for the interval of the gain.
    #[arg(long, value_name = "N", default_value_t = 2000)]
    pub bootstrap: usize,
    /// Seed of the bootstrap.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Ridge penalty on the weights (not the bias).
    #[arg(long, default_value_t = 1.0)]
    pub ridge: f64,
}

/// The exchange game's value of the position for us: the better of firing now and waiting, in
/// garbage rows to them (0 when it was not weighed: no chain of ours ready).
fn exchange_value(f: &RaceFeatures) -> f64 {
    f.exchange.map_or(0.0, |[fire, wait]| fire.max(wait) as f64 / f64::from(GARBAGE_ROW))
}

/// The sign of our largest chain within 10 turns less theirs: -1, 0 or 1.
fn menu_sign(f: &RaceFeatures) -> usize {
    let ours = best_within(&[&f.fires_now[..1], &f.our_line, &f.our_any_line], 10);
    let theirs = best_within(&[&f.fires_now[1..], &f.their_menu], 10);
    match ours.cmp(&theirs) {
        std::cmp::Ordering::Less => 0,
        std::cmp::Ordering::Equal => 1,
        std::cmp::Ordering::Greater => 2,
    }
}

/// Fits the model to `(x, y)` (y in [0, 1]: a draw counts half) by Newton's method, with a
/// ridge of `ridge` on the weights.
pub fn fit_logistic(xs: &[Vec<f64>], ys: &[f64], ridge: f64) -> Logistic {
    let n = xs.first().map_or(0, Vec::len) + 1;
    let mut beta = vec![0.0; n];
    let with_bias = |x: &[f64]| std::iter::once(1.0).chain(x.iter().copied()).collect::<Vec<f64>>();
    for _ in 0..50 {
        // Gradient and Hessian of the penalised log-likelihood.
        let mut grad = vec![0.0; n];
        let mut hess = vec![vec![0.0; n]; n];
        for (x, &y) in xs.iter().zip(ys) {
            let x = with_bias(x);
            let p = sigmoid(x.iter().zip(&beta).map(|(a, b)| a * b).sum());
            for i in 0..n {
                grad[i] += (y - p) * x[i];
                for j in 0..n {
                    hess[i][j] += p * (1.0 - p) * x[i] * x[j];
                }
            }
        }
        for i in 1..n {
            grad[i] -= ridge * beta[i];
            hess[i][i] += ridge;
        }
        hess[0][0] += 1e-9; // defined even when every outcome is the same
        let step = solve(hess, grad);
        let size: f64 = step.iter().map(|s| s.abs()).sum();
        beta.iter_mut().zip(&step).for_each(|(b, s)| *b += s);
        if size < 1e-10 {
            break;
        }
    }
    Logistic { bias: beta[0], weights: beta[1..].to_vec() }
}

/// Solves `a·x = b` by Gaussian elimination with partial pivoting (`a` symmetric positive
/// definite here: a Hessian with a ridge).
fn solve(mut a: Vec<Vec<f64>>, mut b: Vec<f64>) -> Vec<f64> {
    let n = b.len();
    for col in 0..n {
        let pivot = (col..n).max_by(|&i, &j| a[i][col].abs().total_cmp(&a[j][col].abs())).unwrap_or(col);
        a.swap(col, pivot);
        b.swap(col, pivot);
        let d = a[col][col];
        if d.abs() < 1e-300 {
            continue;
        }
        let (above, below) = a.split_at_mut(col + 1);
        let pivot_row = &above[col];
        for (offset, row) in below.iter_mut().enumerate() {
            let factor = row[col] / d;
            row[col..].iter_mut().zip(&pivot_row[col..]).for_each(|(x, p)| *x -= factor * p);
            b[col + 1 + offset] -= factor * b[col];
        }
    }
    let mut x = vec![0.0; n];
    for row in (0..n).rev() {
        let rest: f64 = (row + 1..n).map(|k| a[row][k] * x[k]).sum();
        x[row] = if a[row][row].abs() < 1e-300 { 0.0 } else { (b[row] - rest) / a[row][row] };
    }
    x
}

/// The log-loss of predicting `p` for outcome `y`, clamped away from 0 and 1.
pub(crate) fn log_loss(p: f64, y: f64) -> f64 {
    let p = p.clamp(1e-6, 1.0 - 1e-6);
    -(y * p.ln() + (1.0 - y) * (1.0 - p).ln())
}

/// The pack sequences held out of a fit: of the distinct `labels` in order, the 1st, the
/// `every`-th after it, and so on (`every` at least 2); all the games on them go together. With
/// the number of distinct labels and the `every` used.
pub(crate) fn held_out_packs<'a>(
    labels: impl Iterator<Item = &'a str>,
    holdout_every: usize,
) -> (BTreeSet<&'a str>, usize, usize) {
    let packs: BTreeSet<&str> = labels.collect();
    let every = holdout_every.max(2);
    let held = packs.iter().copied().enumerate().filter(|(i, _)| i.is_multiple_of(every)).map(|(_, p)| p).collect();
    (held, packs.len(), every)
}

/// A predictor of P(win) from a position's features.
type Predictor<'a> = Box<dyn Fn(&RaceFeatures) -> f64 + 'a>;

/// A predictor's held-out figures.
#[derive(Clone, Debug, PartialEq)]
pub struct Scored {
    pub name: &'static str,
    pub log_loss: f64,
    pub accuracy: f64,
}

/// The fit's results: the four predictors on the held-out positions, the fitted model's gain in
/// log-loss over the exchange value with its bootstrap 95% interval, and the model.
#[derive(Clone, Debug)]
pub struct FitReport {
    pub train: (usize, usize),
    pub held_out: (usize, usize),
    pub scored: Vec<Scored>,
    pub gain: f64,
    pub gain_interval: (f64, f64),
    pub model: Logistic,
}

/// Fits and scores on positions, split by packs: the games of every `holdout_every`-th pack
/// sequence (in label order) are held out.
pub fn fit(positions: &[RacePosition], args: &FitArgs) -> Result<FitReport, String> {
    let (held, packs, every) = held_out_packs(positions.iter().map(|p| p.packs.as_str()), args.holdout_every);
    let (test, train): (Vec<&RacePosition>, Vec<&RacePosition>) =
        positions.iter().partition(|p| held.contains(p.packs.as_str()));
    if train.is_empty() || test.is_empty() {
        return Err(format!("{packs} pack sequences: too few to hold one in {every} out and fit on the rest"));
    }
    let games = |set: &[&RacePosition]| set.iter().map(|p| p.game.as_str()).collect::<BTreeSet<_>>().len();
    let ys = |set: &[&RacePosition]| set.iter().map(|p| p.result).collect::<Vec<f64>>();
    let (train_y, test_y) = (ys(&train), ys(&test));

    // The four predictors, fitted on the training games.
    let base = train_y.iter().sum::<f64>() / train_y.len() as f64;
    let mut by_sign = [(0.0, 0.0); 3];
    for p in &train {
        let s = &mut by_sign[menu_sign(&p.features)];
        *s = (s.0 + p.result, s.1 + 1.0);
    }
    let sign_rate = by_sign.map(|(won, n)| if n > 0.0 { won / n } else { base });
    let exchange =
        fit_logistic(&train.iter().map(|p| vec![exchange_value(&p.features)]).collect::<Vec<_>>(), &train_y, 0.0);
    let model = fit_logistic(&train.iter().map(|p| features(&p.features)).collect::<Vec<_>>(), &train_y, args.ridge);
    let predictors: [(&'static str, Predictor); 4] = [
        ("base rate", Box::new(|_| base)),
        ("larger menu chain wins", Box::new(|f| sign_rate[menu_sign(f)])),
        ("exchange value, one sigmoid", Box::new(|f| exchange.predict(&[exchange_value(f)]))),
        ("fitted model", Box::new(|f| model.predict(&features(f)))),
    ];
    let losses: Vec<Vec<f64>> = predictors
        .iter()
        .map(|(_, p)| test.iter().zip(&test_y).map(|(q, &y)| log_loss(p(&q.features), y)).collect())
        .collect();
    let scored = predictors
        .iter()
        .zip(&losses)
        .map(|((name, p), loss)| {
            let right = test.iter().zip(&test_y).filter(|(q, &y)| (p(&q.features) > 0.5) == (y > 0.5)).count();
            Scored {
                name,
                log_loss: loss.iter().sum::<f64>() / loss.len() as f64,
                accuracy: right as f64 / test.len() as f64,
            }
        })
        .collect::<Vec<_>>();

    // The gain (exchange's log-loss less the model's), resampled by held-out game.
    let mut per_game: BTreeMap<&str, (f64, usize)> = BTreeMap::new();
    for (i, p) in test.iter().enumerate() {
        let g = per_game.entry(p.game.as_str()).or_default();
        *g = (g.0 + losses[2][i] - losses[3][i], g.1 + 1);
    }
    let sums: Vec<(f64, usize)> = per_game.into_values().collect();
    let (gain, low, high) = bootstrap_mean(&sums, args.bootstrap, args.seed);
    drop(predictors);
    Ok(FitReport {
        train: (train.len(), games(&train)),
        held_out: (test.len(), games(&test)),
        scored,
        gain,
        gain_interval: (low, high),
        model,
    })
}

/// The mean per position of `per_game` (each held-out game's sum over its positions and their
/// count), with its 95% interval from `resamples` bootstrap resamples of the games (seed `seed`).
pub(crate) fn bootstrap_mean(per_game: &[(f64, usize)], resamples: usize, seed: u64) -> (f64, f64, f64) {
    let mean = |picks: &mut dyn Iterator<Item = (f64, usize)>| {
        let (total, count) = picks.fold((0.0, 0), |(t, c), (s, n)| (t + s, c + n));
        total / count.max(1) as f64
    };
    let whole = mean(&mut per_game.iter().copied());
    if per_game.is_empty() {
        return (whole, whole, whole);
    }
    let mut rng = Pcg64Mcg::seed_from_u64(seed);
    let mut resampled: Vec<f64> = (0..resamples.max(1))
        .map(|_| mean(&mut (0..per_game.len()).map(|_| per_game[rng.gen_range(0..per_game.len())])))
        .collect();
    resampled.sort_by(f64::total_cmp);
    let at = |q: f64| resampled[((resampled.len() - 1) as f64 * q).round() as usize];
    (whole, at(0.025), at(0.975))
}

/// The report as text.
pub fn report_text(r: &FitReport) -> String {
    let mut text = format!(
        "fitted on {} positions of {} games; held out {} positions of {} games\n",
        r.train.0, r.train.1, r.held_out.0, r.held_out.1
    );
    let _ = writeln!(text, "{:<30} {:>16} {:>9}", "predictor (held-out games)", "log-loss", "accuracy");
    for s in &r.scored {
        let _ = writeln!(text, "{:<30} {:>16.4} {:>8.1}%", s.name, s.log_loss, 100.0 * s.accuracy);
    }
    let _ = writeln!(
        text,
        "fitted model's log-loss below the exchange value's: {:+.4} [{:+.4}, {:+.4}] (95%, bootstrap over held-out games)",
        r.gain, r.gain_interval.0, r.gain_interval.1
    );
    let _ = writeln!(text, "weights (P(win) = sigmoid(bias + sum of weight x feature)): bias {:+.3}", r.model.bias);
    for (name, w) in FEATURES.iter().zip(&r.model.weights) {
        let _ = writeln!(text, "  {name:<40} {w:+.3}");
    }
    text
}

/// Replaces the `part` of the models file at `path` with `value` (the file is made if missing).
fn write_part(path: &Path, part: &str, value: impl Serialize) -> Result<(), String> {
    let at = |e: &dyn std::fmt::Display| format!("{}: {e}", path.display());
    let mut models = match std::fs::read_to_string(path) {
        Ok(text) => serde_json::from_str::<serde_json::Value>(&text).map_err(|e| at(&e))?,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => serde_json::json!({}),
        Err(e) => return Err(at(&e)),
    };
    let object = models.as_object_mut().ok_or_else(|| at(&"expected a JSON object of models"))?;
    object.insert(part.to_string(), serde_json::to_value(value).map_err(|e| at(&e))?);
    let json = serde_json::to_string_pretty(&models).map_err(|e| at(&e))?;
    std::fs::write(path, json + "\n").map_err(|e| at(&e))?;
    println!("model: the {part} part of {}", path.display());
    Ok(())
}

/// `codevs-reborn fit`.
pub fn run(args: &FitArgs) -> Result<(), String> {
    if !args.exchanges.is_empty() {
        let mut games = Vec::new();
        for path in &args.exchanges {
            games.extend(exchanges::read_exchanges(path)?);
        }
        let report = exchanges::fit_exchanges(&games, args.holdout_every, args.ridge)?;
        print!("{}", exchanges::exchange_report_text(&report));
        return match &args.output {
            Some(path) => write_part(path, "exchange", &report.model),
            None => Ok(()),
        };
    }
    let mut positions = Vec::new();
    for path in &args.positions {
        positions.extend(read_positions(path)?);
    }
    if args.midgame {
        let params = crate::search::midgame::MidgameParams::default();
        let report =
            midgame::fit_midgame(&positions, &params, args.holdout_every, args.ridge, args.bootstrap, args.seed)?;
        print!("{}", midgame::midgame_report_text(&report));
        return Ok(());
    }
    let report = fit(&positions, args)?;
    print!("{}", report_text(&report));
    if let Some(path) = &args.output {
        let model = WinModel {
            features: FEATURES.iter().map(|f| f.to_string()).collect(),
            model: report.model.clone(),
            positions: positions.len(),
            games: report.train.1 + report.held_out.1,
            held_out_log_loss: report.scored[3].log_loss,
        };
        write_part(path, "position", &model)?;
    }
    Ok(())
}
