//! `codevs-reborn fit --midgame POSITIONS...`: the midgame evaluation's garbage and height
//! terms, fitted to the outcomes of recorded games as the race's value is (Texel tuning: the
//! evaluation's own terms, weighed by logistic regression on who won).
//!
//! The midgame leaf ([`crate::search::midgame`]) values a position by the garbage pending each
//! way (whole rows, and the blocks short of a row), the garbage on each field, and our columns
//! in rows 15, 16 and 17; its other terms (the skill, wasted small chains, kills and deaths)
//! belong to the moves of a line, not to a position, and a recorded position does not hold
//! them. Each term is measured on every position of the positions files, from the turn's
//! `race-features`: the tallest column stands for the columns the evaluation counts, and a row
//! about to fall on us counts, as in the evaluation. The report gives the held-out log-loss of the
//! evaluation's hand-set weights through one fitted sigmoid and of the fitted terms, the gain
//! with its bootstrap interval, and for each term its hand-set weight, its fitted weight in the
//! evaluation's units (a garbage block on the field worth the hand-set 100) and its held-out
//! effect: how much worse the fit does without it.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

use super::{bootstrap_mean, fit_logistic, held_out_packs, log_loss};
use crate::bot::race::value::Logistic;
use crate::bot::RaceFeatures;
use crate::positions::RacePosition;
use crate::rules::GARBAGE_ROW;
use crate::search::midgame::MidgameParams;

/// The terms, in the order [`terms`] measures them: their names, and the weight each has in the
/// midgame evaluation's parameters.
pub const TERMS: [&str; 6] = [
    "pending garbage in whole rows, theirs less ours (blocks)",
    "pending garbage short of a row, theirs less ours (blocks)",
    "garbage on the fields, theirs less ours (blocks)",
    "our tallest column in row 15+ (with a row falling)",
    "in row 16+",
    "in row 17+",
];

/// The index in [`TERMS`] of the term the fitted weights are scaled by: a garbage block on a field.
const UNIT_TERM: usize = 2;

/// The evaluation's weight of each term of [`TERMS`] (the heights penalised, so negative).
pub fn hand_weights(p: &MidgameParams) -> [f64; 6] {
    [p.stock_rows, p.stock_units, p.field_garbage, -p.row15_penalty, -p.row16_penalty, -p.row17_penalty]
        .map(|w| w as f64)
}

/// The terms of one position, as the evaluation measures them at a leaf.
pub fn terms(f: &RaceFeatures) -> [f64; 6] {
    let net = i64::from(f.garbage_pending[1]) - i64::from(f.garbage_pending[0]);
    let row = i64::from(GARBAGE_ROW);
    let whole = net.abs() / row * row * net.signum();
    let on_fields = i64::from(f.garbage_on_field[1]) - i64::from(f.garbage_on_field[0]);
    let tallest = f.max_height[0] + usize::from(f.garbage_pending[0] >= GARBAGE_ROW);
    let at = |row: usize| f64::from(u8::from(tallest >= row));
    [whole as f64, (net - whole) as f64, on_fields as f64, at(15), at(16), at(17)]
}

/// One term's figures.
#[derive(Clone, Debug, PartialEq)]
pub struct TermFit {
    pub name: &'static str,
    /// The evaluation's weight.
    pub hand: f64,
    /// The fitted weight, in the evaluation's units (a garbage block on a field at its hand-set weight).
    pub fitted: f64,
    /// Held-out log-loss of the fit without this term less the fit's, with its 95% interval.
    pub effect: (f64, f64, f64),
}

/// The fit's results.
#[derive(Clone, Debug)]
pub struct MidgameReport {
    /// (positions, games) fitted on and held out.
    pub train: (usize, usize),
    pub held_out: (usize, usize),
    /// Held-out log-loss: the base rate, the hand-set evaluation through one sigmoid, the fitted
    /// terms.
    pub base: f64,
    pub hand: f64,
    pub fitted: f64,
    /// The hand-set evaluation's log-loss less the fitted terms', with its 95% interval.
    pub gain: (f64, f64, f64),
    pub terms: Vec<TermFit>,
    pub model: Logistic,
}

/// Fits the terms on the positions, holding out the games of every `holdout_every`-th pack
/// sequence; intervals from `bootstrap` resamples of the held-out games (seed `seed`).
pub fn fit_midgame(
    positions: &[RacePosition],
    params: &MidgameParams,
    holdout_every: usize,
    ridge: f64,
    bootstrap: usize,
    seed: u64,
) -> Result<MidgameReport, String> {
    let (held, packs, every) = held_out_packs(positions.iter().map(|p| p.packs.as_str()), holdout_every);
    let (test, train): (Vec<&RacePosition>, Vec<&RacePosition>) =
        positions.iter().partition(|p| held.contains(p.packs.as_str()));
    if train.is_empty() || test.is_empty() {
        return Err(format!("{packs} pack sequences: too few to hold one in {every} out and fit on the rest"));
    }
    let games = |set: &[&RacePosition]| set.iter().map(|p| p.game.as_str()).collect::<BTreeSet<_>>().len();
    // Each position's terms, measured once; `but(k)` leaves term k out (none for `TERMS.len()`).
    let measured = |set: &[&RacePosition]| set.iter().map(|p| terms(&p.features)).collect::<Vec<_>>();
    let (train_terms, test_terms) = (measured(&train), measured(&test));
    let but = |t: &[f64; 6], k: usize| -> Vec<f64> {
        t.iter().enumerate().filter(|&(i, _)| i != k).map(|(_, &x)| x).collect()
    };
    let train_y: Vec<f64> = train.iter().map(|p| p.result).collect();
    let hand_weights = hand_weights(params);
    let hand_value = |t: &[f64; 6]| vec![t.iter().zip(&hand_weights).map(|(x, w)| x * w).sum::<f64>() / 100.0];
    let fit_without =
        |k: usize| fit_logistic(&train_terms.iter().map(|t| but(t, k)).collect::<Vec<_>>(), &train_y, ridge);

    // Per held-out position, the log-loss of each predictor: base, hand, fitted, then the fit
    // without each term.
    let base = train_y.iter().sum::<f64>() / train_y.len() as f64;
    let hand = fit_logistic(&train_terms.iter().map(hand_value).collect::<Vec<_>>(), &train_y, 0.0);
    let model = fit_without(TERMS.len());
    let without: Vec<Logistic> = (0..TERMS.len()).map(fit_without).collect();
    let losses = |t: &[f64; 6], y: f64| -> Vec<f64> {
        let mut l = vec![log_loss(base, y), log_loss(hand.predict(&hand_value(t)), y), log_loss(model.predict(t), y)];
        l.extend(without.iter().enumerate().map(|(k, m)| log_loss(m.predict(&but(t, k)), y)));
        l
    };
    let mut per_game: BTreeMap<&str, (Vec<f64>, usize)> = BTreeMap::new();
    for (p, t) in test.iter().zip(&test_terms) {
        let l = losses(t, p.result);
        let g = per_game.entry(p.game.as_str()).or_insert_with(|| (vec![0.0; l.len()], 0));
        g.0.iter_mut().zip(&l).for_each(|(s, x)| *s += x);
        g.1 += 1;
    }
    let sums: Vec<&(Vec<f64>, usize)> = per_game.values().collect();
    let mean = |i: usize| sums.iter().map(|(s, _)| s[i]).sum::<f64>() / test.len() as f64;
    let difference = |a: usize, b: usize| {
        let per_game: Vec<(f64, usize)> = sums.iter().map(|(s, n)| (s[a] - s[b], *n)).collect();
        bootstrap_mean(&per_game, bootstrap, seed)
    };
    let unit = model.weights[UNIT_TERM];
    let scale = if unit.abs() > 1e-12 { hand_weights[UNIT_TERM] / unit } else { 0.0 };
    let terms = TERMS
        .iter()
        .enumerate()
        .map(|(k, &name)| TermFit {
            name,
            hand: hand_weights[k],
            fitted: model.weights[k] * scale,
            effect: difference(3 + k, 2),
        })
        .collect();
    Ok(MidgameReport {
        train: (train.len(), games(&train)),
        held_out: (test.len(), games(&test)),
        base: mean(0),
        hand: mean(1),
        fitted: mean(2),
        gain: difference(1, 2),
        terms,
        model,
    })
}

/// The report as text.
pub fn midgame_report_text(r: &MidgameReport) -> String {
    let mut text = format!(
        "the midgame evaluation's terms: fitted on {} positions of {} games; held out {} positions of {} games\n",
        r.train.0, r.train.1, r.held_out.0, r.held_out.1
    );
    let _ = writeln!(text, "{:<44} {:>9}", "predictor (held-out games)", "log-loss");
    for (name, loss) in [("base rate", r.base), ("hand-set weights, one sigmoid", r.hand), ("fitted terms", r.fitted)] {
        let _ = writeln!(text, "{name:<44} {loss:>9.4}");
    }
    let (gain, lo, hi) = r.gain;
    let _ = writeln!(
        text,
        "fitted terms' log-loss below the hand-set weights': {gain:+.4} [{lo:+.4}, {hi:+.4}] (95%, bootstrap over held-out games)"
    );
    let _ = writeln!(
        text,
        "{:<58} {:>8} {:>8}  held-out effect (log-loss without it, 95%)",
        "term (value units: a garbage block on a field = 100)", "hand", "fitted"
    );
    for t in &r.terms {
        let (effect, lo, hi) = t.effect;
        let _ = writeln!(text, "{:<58} {:>8.0} {:>8.0}  {effect:+.4} [{lo:+.4}, {hi:+.4}]", t.name, t.hand, t.fitted);
    }
    text
}
