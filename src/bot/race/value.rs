//! The fitted values of the race, both fitted by `codevs-reborn fit` to the outcomes of recorded
//! games and kept in one file, `data/race-model.json`, built into the binary:
//! - the probability that we win a race position, by a logistic model on a few features of the
//!   race ([`RaceFeatures`]);
//! - the probability that we win after a first exchange, from who fired first and by how many
//!   links the chains differ: what `--explain` gives each line of the exchange game.

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
    /// Checks that the model was fitted on these features.
    pub fn check(&self) -> Result<(), String> {
        if self.features != FEATURES || self.model.weights.len() != FEATURES.len() {
            return Err(format!(
                "a race model of features {:?} with {} weights, where this bot reads {FEATURES:?}: fit it again",
                self.features,
                self.model.weights.len()
            ));
        }
        Ok(())
    }

    /// Our probability of winning the position.
    pub fn win_probability(&self, f: &RaceFeatures) -> f64 {
        self.model.predict(&features(f))
    }
}

/// The exchange model reads each side's first chain of this many links or more (the chains that
/// send rows; `codevs-reborn fit --exchanges`).
pub const EXCHANGE_MIN_LINKS: u32 = 10;

/// The link difference an exchange model reads is clamped to this many links either way: past
/// it every game in the data went one way.
pub const EXCHANGE_MAX_LINKS: i64 = 4;

/// Our probability of winning after the first exchange of chains (each side's first chain of
/// 10+ links), by who fired first: P(win) = σ(bias + slope · d), d our links less theirs
/// (clamped to ±[`EXCHANGE_MAX_LINKS`]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ExchangeModel {
    pub we_first: Logistic,
    pub they_first: Logistic,
    /// Games fitted on (training and held-out together).
    pub games: usize,
    /// The model's log-loss on the held-out games of its fit.
    pub held_out_log_loss: f64,
}

impl ExchangeModel {
    /// The model's one feature: our links less theirs, clamped.
    pub fn feature(ours: u32, theirs: u32) -> f64 {
        (i64::from(ours) - i64::from(theirs)).clamp(-EXCHANGE_MAX_LINKS, EXCHANGE_MAX_LINKS) as f64
    }

    /// Our probability of winning after an exchange of our chain of `ours` links against theirs
    /// of `theirs` links, the one of `we_first` fired first. As in the games it was fitted on,
    /// a chain under [`EXCHANGE_MIN_LINKS`] counts as none, and a side firing none did not fire
    /// first.
    pub fn win_probability(&self, we_first: bool, ours: u32, theirs: u32) -> f64 {
        let counted = |links: u32| if links >= EXCHANGE_MIN_LINKS { links } else { 0 };
        let (ours, theirs) = (counted(ours), counted(theirs));
        let we_first = match (ours, theirs) {
            (0, 1..) => false,
            (1.., 0) => true,
            _ => we_first,
        };
        let model = if we_first { &self.we_first } else { &self.they_first };
        model.predict(&[Self::feature(ours, theirs)])
    }
}

/// The file `data/race-model.json`: the fitted values the bot reads.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RaceModels {
    pub position: WinModel,
    pub exchange: ExchangeModel,
}

impl RaceModels {
    /// Reads the file, checking that its position model was fitted on these features.
    pub fn parse(json: &str) -> Result<RaceModels, String> {
        let models: RaceModels = serde_json::from_str(json).map_err(|e| format!("not the race models: {e}"))?;
        models.position.check()?;
        if models.exchange.we_first.weights.len() != 1 || models.exchange.they_first.weights.len() != 1 {
            return Err("an exchange model has one weight (the link difference) a side: fit it again".into());
        }
        Ok(models)
    }
}

/// The models built into the binary, `data/race-model.json`.
pub static FITTED: LazyLock<RaceModels> = LazyLock::new(|| {
    RaceModels::parse(include_str!("../../../data/race-model.json"))
        .expect("data/race-model.json is checked by its test")
});

#[cfg(test)]
mod tests {
    use super::{RaceModels, FEATURES, FITTED};

    #[test]
    fn the_built_in_models_read_and_were_fitted_on_these_features() {
        assert_eq!(FITTED.position.features, FEATURES);
        assert!(FITTED.position.games > 0 && FITTED.position.positions > FITTED.position.games);
        assert!(FITTED.exchange.games > 0);
    }

    #[test]
    fn after_an_exchange_more_links_win_more_often() {
        let exchange = &FITTED.exchange;
        for we_first in [true, false] {
            let p = |ours| exchange.win_probability(we_first, ours, 14);
            assert!(p(12) < p(14) && p(14) < p(16), "{exchange:?}");
            assert_eq!(p(18), p(30), "clamped at four links");
        }
    }

    #[test]
    fn a_chain_under_ten_links_counts_as_none_as_in_the_games_fitted_on() {
        let exchange = &FITTED.exchange;
        // Their 9 fired first is no first exchange: our 12 after it is, with nothing against it.
        assert_eq!(exchange.win_probability(false, 12, 9), exchange.win_probability(true, 12, 0));
        // Our 9 fired now against their answer of 13: they fired the first chain that counts.
        assert_eq!(exchange.win_probability(true, 9, 13), exchange.win_probability(false, 0, 13));
        assert!(exchange.win_probability(true, 9, 13) < 0.05);
    }

    #[test]
    fn models_of_other_features_are_refused() {
        let exchange = r#""exchange":{"we_first":{"bias":0.0,"weights":[1.0]},"they_first":{"bias":0.0,"weights":[1.0]},"games":1,"held_out_log_loss":0.6}"#;
        let position = r#""position":{"features":["turn"],"bias":0.0,"weights":[1.0],"positions":1,"games":1,"held_out_log_loss":0.6}"#;
        let error = RaceModels::parse(&format!("{{{position},{exchange}}}")).unwrap_err();
        assert!(error.contains("fit it again"), "{error}");
        let two = exchange.replace("[1.0]", "[1.0,2.0]");
        let ours = serde_json::to_string(&FITTED.position).unwrap();
        let error = RaceModels::parse(&format!("{{\"position\":{ours},{two}}}")).unwrap_err();
        assert!(error.contains("one weight"), "{error}");
        assert!(RaceModels::parse(&format!("{{\"position\":{ours},{exchange}}}")).is_ok());
    }
}
