//! Match statistics: the logistic Elo difference with its 95% interval, and the sequential
//! probability ratio test (the GSPRT approximation fishtest and cutechess use).
//!
//! Every game scores 1, ½ or 0 for bot A. Elo from a score fraction `p` is `−400·log10(1/p − 1)`.

/// The 97.5% quantile of the standard normal distribution (a two-sided 95% interval).
const Z_95: f64 = 1.959_963_984_540_054;

/// The exact two-sided sign test: the chance, were both outcomes equally likely, of a split of
/// `a + b` trials at least as uneven as `a` against `b`. 1 when there are none.
pub fn sign_test_p(a: u64, b: u64) -> f64 {
    let n = a + b;
    let k = a.min(b);
    // P(X ≤ k) for X ~ Binomial(n, ½), summed in logs so that large n does not overflow.
    let ln_half_n = n as f64 * 0.5f64.ln();
    let mut ln_choose = 0.0; // ln C(n, 0)
    let mut tail = 0.0;
    for i in 0..=k {
        if i > 0 {
            ln_choose += ((n - i + 1) as f64).ln() - (i as f64).ln();
        }
        tail += (ln_choose + ln_half_n).exp();
    }
    (2.0 * tail).min(1.0)
}

/// A game's score for the bot in `seat`: 1 for a win, ½ for a draw (no winner), 0 for a loss.
pub fn seat_score(winner: Option<usize>, seat: usize) -> f64 {
    match winner {
        None => 0.5,
        Some(w) if w == seat => 1.0,
        Some(_) => 0.0,
    }
}

/// Wins, draws and losses from bot A's point of view.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
}

impl Tally {
    pub fn games(&self) -> u64 {
        self.wins + self.draws + self.losses
    }

    /// Adds one game scoring `score` (1, ½ or 0) for A.
    pub fn add(&mut self, score: f64) {
        if score > 0.75 {
            self.wins += 1;
        } else if score > 0.25 {
            self.draws += 1;
        } else {
            self.losses += 1;
        }
    }

    /// Mean score and population variance of the per-game score; `None` without games.
    fn mean_var(counts: [f64; 3]) -> Option<(f64, f64, f64)> {
        let [l, d, w] = counts;
        let n = l + d + w;
        if n <= 0.0 {
            return None;
        }
        let mean = (w + d / 2.0) / n;
        let var = (w + d / 4.0) / n - mean * mean;
        Some((n, mean, var.max(0.0)))
    }

    fn counts(&self) -> [f64; 3] {
        [self.losses as f64, self.draws as f64, self.wins as f64]
    }

    /// A's score fraction (0..=1); `None` without games.
    pub fn score(&self) -> Option<f64> {
        Self::mean_var(self.counts()).map(|(_, m, _)| m)
    }
}

/// The Wilson score interval (95%) of the score fraction, draws counting half: unlike the normal
/// approximation it stays inside [0, 1] and is honest for the few dozen games a gauntlet has.
pub fn score_interval(t: &Tally) -> Option<(f64, f64)> {
    let n = t.games() as f64;
    let p = t.score()?;
    let z2 = Z_95 * Z_95;
    let centre = (p + z2 / (2.0 * n)) / (1.0 + z2 / n);
    let half = Z_95 * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt() / (1.0 + z2 / n);
    Some(((centre - half).max(0.0), (centre + half).min(1.0)))
}

/// Elo difference for a score fraction (±∞ at 0 and 1).
pub fn elo_from_score(p: f64) -> f64 {
    if p <= 0.0 {
        f64::NEG_INFINITY
    } else if p >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / p - 1.0).log10()
    }
}

/// The expected score for an Elo difference.
pub fn score_from_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// An Elo difference with its 95% interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EloEstimate {
    pub elo: f64,
    pub low: f64,
    pub high: f64,
}

/// The Elo difference and its 95% interval: the score fraction ± 1.96 standard errors of the
/// mean per-game score, each end converted to Elo. `None` without games.
pub fn elo_estimate(t: &Tally) -> Option<EloEstimate> {
    let (n, mean, var) = Tally::mean_var(t.counts())?;
    let margin = Z_95 * (var / n).sqrt();
    Some(EloEstimate {
        elo: elo_from_score(mean),
        low: elo_from_score(mean - margin),
        high: elo_from_score(mean + margin),
    })
}

/// The verdict of a sequential probability ratio test so far.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SprtVerdict {
    Continue,
    /// The Elo difference is `elo0` (or less): H0 accepted.
    H0,
    /// The Elo difference is `elo1` (or more): H1 accepted.
    H1,
}

/// A sequential probability ratio test of H0: Elo = `elo0` against H1: Elo = `elo1`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
}

impl Sprt {
    /// The LLR bounds: (ln(β/(1−α)), ln((1−β)/α)).
    pub fn bounds(&self) -> (f64, f64) {
        wald_bounds(self.alpha, self.beta)
    }

    /// The generalized log-likelihood ratio in the logistic model:
    /// N·(s1−s0)·(2·x̄ − s0 − s1)/(2·var), with s = 1/(1+10^(−elo/400)). As in fishtest, a
    /// result count of zero is taken as 0.001 so that one-sided results (var = 0) still decide.
    pub fn llr(&self, t: &Tally) -> f64 {
        if t.games() == 0 {
            return 0.0;
        }
        let counts = t.counts().map(|c| c.max(1e-3));
        let (n, mean, var) = Tally::mean_var(counts).expect("regularized counts are positive");
        let (s0, s1) = (score_from_elo(self.elo0), score_from_elo(self.elo1));
        n * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * var)
    }

    pub fn verdict(&self, t: &Tally) -> SprtVerdict {
        wald_verdict(self.llr(t), self.alpha, self.beta)
    }
}

/// Wald's bounds on the log-likelihood ratio for error rates α and β: (ln(β/(1−α)), ln((1−β)/α)).
fn wald_bounds(alpha: f64, beta: f64) -> (f64, f64) {
    ((beta / (1.0 - alpha)).ln(), ((1.0 - beta) / alpha).ln())
}

/// H1 at or above the upper bound, H0 at or below the lower one, else go on.
fn wald_verdict(llr: f64, alpha: f64, beta: f64) -> SprtVerdict {
    let (low, high) = wald_bounds(alpha, beta);
    if llr >= high {
        SprtVerdict::H1
    } else if llr <= low {
        SprtVerdict::H0
    } else {
        SprtVerdict::Continue
    }
}

/// The sequential sign test that stops a paired judgement (the rule in `data/README.md`'s
/// ledger): Wald's SPRT over the discordant pairs (one bot won, the other did not) of
/// H0: p = ½ against H1: p = `p1`, where p is the chance that such a pair goes to the candidate.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SignSprt {
    pub p1: f64,
    pub alpha: f64,
    pub beta: f64,
}

impl SignSprt {
    /// The ledger's rule: p1 = 0.8, α = β = 0.05 (bounds ±ln 19).
    pub const LEDGER: SignSprt = SignSprt { p1: 0.8, alpha: 0.05, beta: 0.05 };

    /// The log-likelihood ratio after `better` pairs went the candidate's way and `worse` the
    /// other's: each adds ln(p1/½) or ln((1−p1)/½).
    pub fn llr(&self, better: u64, worse: u64) -> f64 {
        better as f64 * (self.p1 / 0.5).ln() + worse as f64 * ((1.0 - self.p1) / 0.5).ln()
    }

    /// H1: the candidate is better; H0: it is not.
    pub fn verdict(&self, better: u64, worse: u64) -> SprtVerdict {
        wald_verdict(self.llr(better, worse), self.alpha, self.beta)
    }

    /// What the rule decides when each discordant pair goes to the candidate with chance `p`,
    /// stopped after `cap` discordant pairs (a block's end): the walk of its log-likelihood
    /// ratio followed exactly, pair by pair, over the number of pairs won so far.
    pub fn power(&self, p: f64, cap: usize) -> RulePower {
        let mut power = RulePower { better: 0.0, not_better: 0.0, undecided: 0.0, mean_pairs: 0.0 };
        // `going[b]`: the chance of no verdict yet with `b` of the pairs so far the candidate's.
        let mut going = vec![1.0];
        for pairs in 1..=cap {
            let mut next = vec![0.0; pairs + 1];
            for (better, &chance) in going.iter().enumerate() {
                next[better + 1] += chance * p;
                next[better] += chance * (1.0 - p);
            }
            for (better, chance) in next.iter_mut().enumerate() {
                let stopped = match self.verdict(better as u64, (pairs - better) as u64) {
                    SprtVerdict::H1 => &mut power.better,
                    SprtVerdict::H0 => &mut power.not_better,
                    SprtVerdict::Continue => continue,
                };
                *stopped += *chance;
                power.mean_pairs += *chance * pairs as f64;
                *chance = 0.0;
            }
            going = next;
        }
        power.undecided = going.iter().sum();
        power.mean_pairs += power.undecided * cap as f64;
        power
    }
}

/// A sign rule's operating characteristic at one chance per discordant pair
/// ([`SignSprt::power`]): the chance of each verdict, and how many discordant pairs it takes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RulePower {
    pub better: f64,
    pub not_better: f64,
    /// No verdict by the cap.
    pub undecided: f64,
    /// Discordant pairs played, on average (to a verdict or the cap).
    pub mean_pairs: f64,
}

#[cfg(test)]
mod tests {

    #[test]
    fn the_sign_rules_power_follows_its_walk_exactly() {
        let rule = SignSprt::LEDGER;
        // Within seven pairs only seven straight wins reach the upper bound (6-0: +2.82; 8-1 needs
        // nine); the lower one is reached at 0-4 (−3.67), 1-4 (−3.20) and 2-5 (−3.64), each by
        // the paths that did not stop before: the win among the first four, then the fifth
        // lost; two wins in the first five (2-3: −1.81), then two losses.
        let short = rule.power(0.7, 7);
        assert!(close(short.better, 0.7f64.powi(7)));
        let (p, q) = (0.7f64, 0.3f64);
        let stopped_low = q.powi(4) + 4.0 * p * q.powi(4) + 10.0 * p * p * q.powi(5);
        assert!(close(short.not_better, stopped_low));
        assert!(close(short.better + short.not_better + short.undecided, 1.0));
        // Run long, the rule keeps its error rates near Wald's: a fair change is called better
        // about α of the time, one at H1 missed about β of the time.
        let fair = rule.power(0.5, 2000);
        assert!(fair.better > 0.02 && fair.better < 0.06, "{fair:?}");
        assert!(fair.undecided < 1e-9);
        let strong = rule.power(0.8, 2000);
        assert!(strong.better > 0.93 && strong.not_better < 0.06, "{strong:?}");
        // Between them the chance of "better" grows with p, and the walk is longest in between.
        let middle = rule.power(0.65, 2000);
        assert!(fair.better < middle.better && middle.better < strong.better);
        assert!(middle.mean_pairs > fair.mean_pairs && middle.mean_pairs > strong.mean_pairs);
        // A cap leaves some walks undecided, and counts them at the cap.
        let capped = rule.power(0.65, 10);
        assert!(capped.undecided > 0.0 && capped.mean_pairs <= 10.0);
    }

    #[test]
    fn sign_test_known_values() {
        assert!(close(sign_test_p(4, 2), 0.6875));
        assert!(close(sign_test_p(0, 5), 0.0625));
        assert!(close(sign_test_p(1, 9), 0.021_484_375));
        assert!(close(sign_test_p(3, 3), 1.0));
        assert!(close(sign_test_p(0, 0), 1.0));
        assert!(sign_test_p(100, 200) < 1e-7, "large counts do not overflow");
    }

    #[test]
    fn the_score_interval_is_wilsons() {
        let t = |wins, draws, losses| Tally { wins, draws, losses };
        let close = |(lo, hi): (f64, f64), (a, b): (f64, f64)| (lo - a).abs() < 1e-9 && (hi - b).abs() < 1e-9;
        // 5-0-3: p = 0.625, n = 8 (computed by hand from Wilson's formula, z = 1.959964).
        assert!(close(score_interval(&t(5, 0, 3)).unwrap(), (0.305_742_394_6, 0.863_155_714_2)));
        assert!(close(score_interval(&t(2, 0, 0)).unwrap(), (0.342_380_227_5, 1.0)));
        assert!(close(score_interval(&t(0, 2, 0)).unwrap(), (0.094_531_205_7, 0.905_468_794_3)));
        assert_eq!(score_interval(&t(0, 0, 0)), None);
    }
    use super::*;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-9 * b.abs().max(1.0)
    }

    fn tally(wins: u64, draws: u64, losses: u64) -> Tally {
        Tally { wins, draws, losses }
    }

    #[test]
    fn the_ledgers_sign_rule_stops_where_it_says() {
        let rule = SignSprt::LEDGER;
        // ln 1.6 = 0.470 a pair won, ln 0.4 = -0.916 a pair lost; bounds ±ln 19 = ±2.944.
        assert!(close(rule.llr(1, 0), 1.6f64.ln()) && close(rule.llr(0, 1), 0.4f64.ln()));
        assert_eq!(rule.verdict(6, 0), SprtVerdict::Continue); // 2.820
        assert_eq!(rule.verdict(7, 0), SprtVerdict::H1); // 3.290
        assert_eq!(rule.verdict(8, 1), SprtVerdict::Continue); // 2.844
        assert_eq!(rule.verdict(3, 0), SprtVerdict::Continue); // 1.410
        assert_eq!(rule.verdict(0, 3), SprtVerdict::Continue); // -2.749
        assert_eq!(rule.verdict(1, 4), SprtVerdict::H0); // -3.195
        assert_eq!(rule.verdict(0, 0), SprtVerdict::Continue);
    }

    #[test]
    fn elo_and_score_convert_both_ways() {
        assert_eq!(elo_from_score(0.5), 0.0);
        assert!(close(elo_from_score(0.75), 190.848_501_887_865));
        assert!(close(score_from_elo(400.0), 10.0 / 11.0));
        assert!(close(elo_from_score(score_from_elo(-123.0)), -123.0));
        assert_eq!(elo_from_score(1.0), f64::INFINITY);
        assert_eq!(elo_from_score(0.0), f64::NEG_INFINITY);
    }

    #[test]
    fn elo_interval_known_values() {
        // 60 wins, 20 draws, 20 losses: score 0.7, variance 0.16 (values from an independent script).
        let e = elo_estimate(&tally(60, 20, 20)).unwrap();
        assert!(close(e.elo, 147.190_714_117_837_76));
        assert!(close(e.low, 86.225_015_200_304_1));
        assert!(close(e.high, 218.251_777_641_074_94));
        assert_eq!(elo_estimate(&Tally::default()), None);
        let all = elo_estimate(&tally(5, 0, 0)).unwrap();
        assert_eq!((all.elo, all.low, all.high), (f64::INFINITY, f64::INFINITY, f64::INFINITY));
    }

    #[test]
    fn sprt_known_values() {
        let s = Sprt { elo0: 0.0, elo1: 10.0, alpha: 0.05, beta: 0.05 };
        let (low, high) = s.bounds();
        assert!(close(low, -2.944_438_979_166_440_3) && close(high, 2.944_438_979_166_440_3));
        assert!(close(s.llr(&tally(60, 20, 20)), 1.733_713_311_929_098_8));
        assert_eq!(s.verdict(&tally(60, 20, 20)), SprtVerdict::Continue);
        // Symmetric hypotheses and an even score: no evidence either way.
        let sym = Sprt { elo0: -5.0, elo1: 5.0, alpha: 0.05, beta: 0.05 };
        assert!(sym.llr(&tally(30, 40, 30)).abs() < 1e-12);
        // One-sided results decide through the regularization.
        let s = Sprt { elo0: 0.0, elo1: 5.0, alpha: 0.05, beta: 0.05 };
        assert!(close(s.llr(&tally(1, 0, 0)), 2.865_261_542_790_262));
        assert!(close(s.llr(&tally(2, 0, 0)), 11.445_174_945_319_748));
        assert!(close(s.llr(&tally(10, 0, 0)), 285.811_882_362_819_46));
        assert_eq!(s.verdict(&tally(1, 0, 0)), SprtVerdict::Continue);
        assert_eq!(s.verdict(&tally(2, 0, 0)), SprtVerdict::H1);
        assert_eq!(s.verdict(&tally(0, 0, 2)), SprtVerdict::H0);
        assert_eq!(s.llr(&Tally::default()), 0.0);
    }

    #[test]
    fn tally_counts_scores() {
        let mut t = Tally::default();
        for s in [1.0, 0.5, 0.0, 1.0] {
            t.add(s);
        }
        assert_eq!(t, tally(2, 1, 1));
        assert_eq!(t.score(), Some(0.625));
    }
}
