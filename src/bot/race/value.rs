//! The fitted value of a race position: the probability that we win it, by a logistic model on
//! a few features of the race (`RaceFeatures`), its weights fitted by `codevs-reborn fit` to the
//! outcomes of recorded games and kept in one file, `data/race-model.json`, built into the
//! binary. `--explain` prints it every turn the race is read.

use std::sync::LazyLock;

use serde::{Deserialize, Serialize};

use crate::rules::{chain_garbage, GARBAGE_ROW};

use super::RaceFeatures;

/// The fitted model's features, by name: each a side's chain or a difference, in garbage rows.
pub const FEATURES: [&str; 9] = [
    "our chain now (rows)",
    "their chain now (rows)",
    "our best within 5 turns (rows)",
    "their best within 5 turns (rows)",
    "our best within 10 turns (rows)",
    "their best within 10 turns (rows)",
    "rows pending on them less on us",
    "garbage rows on their field less ours",
    "their tallest column less ours (rows)",
];

/// Garbage rows a chain of `links` sends.
fn rows(links: u32) -> f64 {
    f64::from(chain_garbage(links)) / f64::from(GARBAGE_ROW)
}

/// The largest chain of `menus` within `turns` turns from now (index 0 is now).
pub fn best_within(menus: &[&[u32]], turns: usize) -> u32 {
    menus.iter().flat_map(|m| m.iter().take(turns + 1)).copied().max().unwrap_or(0)
}

/// The features of a position, in [`FEATURES`]' order.
pub fn features(f: &RaceFeatures) -> Vec<f64> {
    let ours: [&[u32]; 3] = [&f.fires_now[..1], &f.our_line, &f.our_any_line];
    let theirs: [&[u32]; 2] = [&f.fires_now[1..], &f.their_menu];
    let diff = |v: [u32; 2]| (f64::from(v[1]) - f64::from(v[0])) / f64::from(GARBAGE_ROW);
    vec![
        rows(f.fires_now[0]),
        rows(f.fires_now[1]),
        rows(best_within(&ours, 5)),
        rows(best_within(&theirs, 5)),
        rows(best_within(&ours, 10)),
        rows(best_within(&theirs, 10)),
        diff(f.garbage_pending),
        diff(f.garbage_on_field),
        (f.max_height[1] as f64 - f.max_height[0] as f64),
    ]
}

pub fn sigmoid(z: f64) -> f64 {
    1.0 / (1.0 + (-z).exp())
}

/// A logistic model: P(win) = σ(bias + w·x).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Logistic {
    pub bias: f64,
    pub weights: Vec<f64>,
}

impl Logistic {
    pub fn predict(&self, x: &[f64]) -> f64 {
        sigmoid(self.bias + self.weights.iter().zip(x).map(|(w, v)| w * v).sum::<f64>())
    }
}

/// The model file (`codevs-reborn fit -o`): the features' names, the weights, and what they
/// were fitted on.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct WinModel {
    pub features: Vec<String>,
    #[serde(flatten)]
    pub model: Logistic,
    /// Positions and games fitted on (training and held-out games together).
    pub positions: usize,
    pub games: usize,
    /// The model's log-loss on the held-out games of its fit.
    pub held_out_log_loss: f64,
}

impl WinModel {
    /// Reads a model file, checking that it was fitted on these features.
    pub fn parse(json: &str) -> Result<WinModel, String> {
        let model: WinModel = serde_json::from_str(json).map_err(|e| format!("not a race model: {e}"))?;
        if model.features != FEATURES || model.model.weights.len() != FEATURES.len() {
            return Err(format!(
                "a race model of features {:?} with {} weights, where this bot reads {FEATURES:?}: fit it again",
                model.features,
                model.model.weights.len()
            ));
        }
        Ok(model)
    }

    /// Our probability of winning the position.
    pub fn win_probability(&self, f: &RaceFeatures) -> f64 {
        self.model.predict(&features(f))
    }
}

/// The model built into the binary, `data/race-model.json`.
pub static FITTED: LazyLock<WinModel> = LazyLock::new(|| {
    WinModel::parse(include_str!("../../../data/race-model.json")).expect("data/race-model.json is checked by its test")
});

#[cfg(test)]
mod tests {
    use super::{WinModel, FEATURES, FITTED};

    #[test]
    fn the_built_in_model_reads_and_was_fitted_on_these_features() {
        assert_eq!(FITTED.features, FEATURES);
        assert!(FITTED.games > 0 && FITTED.positions > FITTED.games);
    }

    #[test]
    fn a_model_of_other_features_is_refused() {
        let json =
            r#"{"features":["turn"],"bias":0.0,"weights":[1.0],"positions":1,"games":1,"held_out_log_loss":0.6}"#;
        let error = WinModel::parse(json).unwrap_err();
        assert!(error.contains("fit it again"), "{error}");
    }
}
