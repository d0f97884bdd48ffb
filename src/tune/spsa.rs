//! SPSA as fishtest runs it: the parameters file, the gain schedules and one iteration's update.
//!
//! Each parameter row gives `c_end` (the perturbation at the last iteration: choose it so that
//! θ ± c_end differ by a few Elo) and `r_end` (the learning rate at the last iteration). With N
//! iterations (game pairs), at iteration k = 1..=N:
//!
//! - `c_k = c_end · N^γ / k^γ` (so `c_N = c_end`);
//! - `a_k = a_end · (A + N)^α / (A + k)^α` with `a_end = r_end · c_end²`;
//! - the bots play `θ⁺ = clamp(θ + c_k·Δ)` and `θ⁻ = clamp(θ − c_k·Δ)`, Δ a random ±1 per
//!   parameter;
//! - `result` is θ⁺'s wins minus its losses, and `θ ← clamp(θ + (a_k / c_k) · result · Δ)`.

use std::path::Path;

use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64;
use serde::{Deserialize, Serialize};

/// One parameter row: a bot flag (`--NAME VALUE`) and its SPSA settings.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ParamSpec {
    /// The flag's name without its dashes (`plan-margin` for `--plan-margin`).
    pub name: String,
    pub start: f64,
    pub min: f64,
    pub max: f64,
    /// The perturbation at the last iteration.
    pub c_end: f64,
    /// The learning rate at the last iteration.
    pub r_end: f64,
    /// Start, min and max were written as integers: the flag takes an integer, so the values
    /// passed to the bot are rounded (θ itself stays real).
    pub integer: bool,
}

impl ParamSpec {
    pub fn clamp(&self, value: f64) -> f64 {
        value.clamp(self.min, self.max)
    }

    /// The flag's value as the bot reads it.
    pub fn flag_value(&self, value: f64) -> String {
        if self.integer {
            format!("{}", value.round() as i64)
        } else {
            // Four decimals are finer than any step a game can measure; trailing zeros go.
            let text = format!("{value:.4}");
            text.trim_end_matches('0').trim_end_matches('.').to_string()
        }
    }
}

const PARAMS_SYNTAX: &str = "expected `NAME start min max c_end r_end` (spaces or commas between)";

/// Reads a parameters file's text (`file` names it in errors): one `NAME start min max c_end
/// r_end` row per line, fields separated by spaces or commas (fishtest's format); blank lines
/// and `#` comments are skipped. NAME is a bot flag, with or without its leading `--`.
pub fn parse_params(file: &Path, text: &str) -> Result<Vec<ParamSpec>, String> {
    let mut params: Vec<ParamSpec> = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let at = format!("{}:{}", file.display(), i + 1);
        let fields: Vec<&str> = line.split(|c: char| c == ',' || c.is_whitespace()).filter(|f| !f.is_empty()).collect();
        let [name, numbers @ ..] = fields.as_slice() else { unreachable!("a non-empty line has a field") };
        if numbers.len() != 5 {
            return Err(format!("{at}: {PARAMS_SYNTAX}, found {} fields", fields.len()));
        }
        let name = name.trim_start_matches("--");
        if name.is_empty() || !name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_') {
            return Err(format!("{at}: the name must be a flag name (letters, digits, '-', '_'), found {name:?}"));
        }
        let mut values = [0.0; 5];
        for (value, text) in values.iter_mut().zip(numbers) {
            *value = text
                .parse::<f64>()
                .ok()
                .filter(|v| v.is_finite())
                .ok_or_else(|| format!("{at}: {PARAMS_SYNTAX}; {text:?} is not a number"))?;
        }
        let [start, min, max, c_end, r_end] = values;
        if !(min < max && (min..=max).contains(&start)) {
            return Err(format!(
                "{at}: {name}: need min < max and start between them, found {start} in [{min}, {max}]"
            ));
        }
        if !(c_end > 0.0 && r_end > 0.0) {
            return Err(format!("{at}: {name}: c_end and r_end must be positive, found {c_end} and {r_end}"));
        }
        if params.iter().any(|p| p.name == name) {
            return Err(format!("{at}: parameter {name} is named twice"));
        }
        let integer = numbers[..3].iter().all(|t| t.parse::<i64>().is_ok());
        params.push(ParamSpec { name: name.to_string(), start, min, max, c_end, r_end, integer });
    }
    if params.is_empty() {
        return Err(format!("{}: no parameters ({PARAMS_SYNTAX})", file.display()));
    }
    Ok(params)
}

/// The run-wide gains.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Gains {
    /// N: the iterations (game pairs) of the whole run; the schedules end at it.
    pub iterations: usize,
    /// A: the stability constant of the learning-rate schedule.
    pub big_a: f64,
    /// α: the learning-rate decay exponent.
    pub alpha: f64,
    /// γ: the perturbation decay exponent.
    pub gamma: f64,
}

impl Gains {
    /// The perturbation `c_k` of iteration `k` (1-based).
    pub fn c_k(&self, p: &ParamSpec, k: usize) -> f64 {
        p.c_end * (self.iterations as f64 / k as f64).powf(self.gamma)
    }

    /// The learning rate `a_k` of iteration `k` (1-based).
    pub fn a_k(&self, p: &ParamSpec, k: usize) -> f64 {
        let a_end = p.r_end * p.c_end * p.c_end;
        a_end * ((self.big_a + self.iterations as f64) / (self.big_a + k as f64)).powf(self.alpha)
    }

    /// The two points iteration `k` plays from θ with the perturbation directions `flips`:
    /// (θ⁺, θ⁻), each clamped to its parameter's range.
    pub fn probes(&self, params: &[ParamSpec], theta: &[f64], k: usize, flips: &[i8]) -> (Vec<f64>, Vec<f64>) {
        let point = |sign: f64| {
            params
                .iter()
                .zip(theta)
                .zip(flips)
                .map(|((p, &t), &f)| p.clamp(t + sign * self.c_k(p, k) * f64::from(f)))
                .collect()
        };
        (point(1.0), point(-1.0))
    }

    /// θ after iteration `k`, whose games gave `result` (θ⁺'s wins minus its losses).
    pub fn update(&self, params: &[ParamSpec], theta: &[f64], k: usize, flips: &[i8], result: f64) -> Vec<f64> {
        params
            .iter()
            .zip(theta)
            .zip(flips)
            .map(|((p, &t), &f)| p.clamp(t + self.a_k(p, k) / self.c_k(p, k) * result * f64::from(f)))
            .collect()
    }
}

/// How strongly the results point one way along each parameter: `Σ result·Δᵢ / √(Σ result²)`
/// over the iterations given as (result, directions). Where the parameter does not matter,
/// the result is independent of its direction and this is about standard normal, so |z| < 2
/// says the moves of θ along it are noise.
pub fn direction_z(iterations: &[(f64, &[i8])], count: usize) -> Vec<f64> {
    let spread = iterations.iter().map(|(r, _)| r * r).sum::<f64>().sqrt();
    (0..count)
        .map(|i| {
            let along: f64 = iterations.iter().map(|(r, flips)| r * f64::from(flips[i])).sum();
            if spread > 0.0 {
                along / spread
            } else {
                0.0
            }
        })
        .collect()
}

/// The perturbation directions of iteration `k`: ±1 per parameter, drawn from the run's seed and
/// `k` alone, so a resumed run draws what the uninterrupted one would have.
pub fn flips(seed: u64, k: usize, count: usize) -> Vec<i8> {
    let mut rng = Pcg64::seed_from_u64(seed ^ (k as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15));
    (0..count).map(|_| if rng.gen::<bool>() { 1 } else { -1 }).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn param(c_end: f64, r_end: f64) -> ParamSpec {
        ParamSpec { name: "x".into(), start: 50.0, min: 0.0, max: 100.0, c_end, r_end, integer: true }
    }

    /// One iteration computed by hand. N = 100, A = 10, α = 0.602, γ = 0.101, c_end = 4,
    /// r_end = 0.002, k = 1:
    /// c_1 = 4 · 100^0.101 = 4 · 1.592209 = 6.368835;
    /// a_end = 0.002 · 16 = 0.032; a_1 = 0.032 · (110 / 11)^0.602 = 0.032 · 3.999447 = 0.127982;
    /// step = a_1 / c_1 · result · Δ = 0.020095 · 2 · (−1) = −0.040190, so θ 50 → 49.959810.
    #[test]
    fn one_iteration_matches_the_hand_computation() {
        let gains = Gains { iterations: 100, big_a: 10.0, alpha: 0.602, gamma: 0.101 };
        let p = param(4.0, 0.002);
        assert!((gains.c_k(&p, 1) - 6.368835).abs() < 1e-5, "c_1 = {}", gains.c_k(&p, 1));
        assert!((gains.a_k(&p, 1) - 0.127982).abs() < 1e-5, "a_1 = {}", gains.a_k(&p, 1));
        let (plus, minus) = gains.probes(std::slice::from_ref(&p), &[50.0], 1, &[-1]);
        assert!((plus[0] - 43.631165).abs() < 1e-5 && (minus[0] - 56.368835).abs() < 1e-5, "{plus:?} {minus:?}");
        let theta = gains.update(&[p], &[50.0], 1, &[-1], 2.0);
        assert!((theta[0] - 49.959810).abs() < 1e-5, "θ = {}", theta[0]);
    }

    #[test]
    fn the_last_iteration_uses_c_end_and_r_end() {
        let gains = Gains { iterations: 40, big_a: 4.0, alpha: 0.602, gamma: 0.101 };
        let p = param(3.0, 0.01);
        assert!((gains.c_k(&p, 40) - 3.0).abs() < 1e-12);
        assert!((gains.a_k(&p, 40) - 0.01 * 9.0).abs() < 1e-12);
        // step = r_end · c_end · result = 0.03 per point of result.
        let theta = gains.update(&[p], &[50.0], 40, &[1], -1.0);
        assert!((theta[0] - 49.97).abs() < 1e-12);
    }

    #[test]
    fn probes_and_updates_stay_in_range() {
        let gains = Gains { iterations: 10, big_a: 1.0, alpha: 0.602, gamma: 0.101 };
        let p = ParamSpec { start: 99.0, ..param(5.0, 1.0) };
        let (plus, minus) = gains.probes(std::slice::from_ref(&p), &[99.0], 1, &[1]);
        assert_eq!(plus, vec![100.0]);
        assert!(minus[0] < 99.0);
        assert_eq!(gains.update(std::slice::from_ref(&p), &[99.0], 1, &[1], 2.0), vec![100.0]);
        assert_eq!(gains.update(&[p], &[1.0], 1, &[-1], 2.0), vec![0.0]);
    }

    #[test]
    fn direction_z_reads_a_consistent_direction_and_is_zero_without_results() {
        // Parameter 0's +1 direction always won; parameter 1's direction had nothing to do
        // with it. z₀ = (2+2+2+2)/√16 = 2, z₁ = (2−2−2+2)/4 = 0.
        let (up, mixed_a, mixed_b): (&[i8], &[i8], &[i8]) = (&[1, 1], &[1, -1], &[-1, 1]);
        let history = [(2.0, up), (2.0, mixed_a), (-2.0, mixed_b), (-2.0, &[-1, -1][..])];
        assert_eq!(direction_z(&history, 2), vec![2.0, 0.0]);
        assert_eq!(direction_z(&[(0.0, up)], 2), vec![0.0, 0.0]);
    }

    #[test]
    fn flips_depend_on_seed_and_iteration_only() {
        assert_eq!(flips(7, 3, 16), flips(7, 3, 16));
        assert!(flips(7, 3, 16).iter().all(|&f| f == 1 || f == -1));
        let draws: Vec<Vec<i8>> = (1..=8).map(|k| flips(7, k, 16)).collect();
        assert!(draws.windows(2).any(|w| w[0] != w[1]), "iterations draw different directions");
        let ones = draws.iter().flatten().filter(|&&f| f == 1).count();
        assert!((32..=96).contains(&ones), "about half of 128 flips are +1, found {ones}");
    }

    #[test]
    fn a_parameters_file_reads_both_separators_and_types() {
        let text = "# flag start min max c_end r_end\n\
                    plan-margin 10 0 40 3 0.002\n\
                    --critical-factor, 2.0, 1, 4, 0.3, 0.002\n";
        let params = parse_params(Path::new("p.txt"), text).unwrap();
        assert_eq!(params.len(), 2);
        assert_eq!(params[0].name, "plan-margin");
        assert!(params[0].integer);
        assert_eq!(params[1].name, "critical-factor");
        assert!(!params[1].integer);
        assert_eq!((params[1].min, params[1].max, params[1].c_end), (1.0, 4.0, 0.3));
        assert_eq!(params[0].flag_value(12.6), "13");
        assert_eq!(params[1].flag_value(2.25), "2.25");
        assert_eq!(params[1].flag_value(3.0), "3");
    }

    #[test]
    fn a_bad_parameters_file_names_the_line_and_the_fault() {
        let err = |text: &str| parse_params(Path::new("p.txt"), text).unwrap_err();
        assert!(err("a 1 0 2 1\n").starts_with("p.txt:1: expected"), "{}", err("a 1 0 2 1\n"));
        assert!(err("\na 1 0 2 1 x\n").contains("p.txt:2:") && err("\na 1 0 2 1 x\n").contains("\"x\""));
        assert!(err("a 5 0 2 1 1\n").contains("start between them"));
        assert!(err("a 1 0 2 0 1\n").contains("must be positive"));
        assert!(err("a 1 0 2 1 1\na 1 0 2 1 1\n").contains("p.txt:2: parameter a is named twice"));
        assert!(err("a$ 1 0 2 1 1\n").contains("flag name"));
        assert!(err("# nothing\n").contains("no parameters"));
    }
}
