//! The race as the bot saw it, one machine-readable line a turn on stderr (`race-features
//! {json}`): what a fitted value of positions is fitted on. Written while it plays, from what the
//! turn computed anyway (both menus, the chains ready now, the state): it costs no search. The
//! arena's `--replays` keeps each bot's stderr, so every recorded game carries its turns' lines.

use serde::{Deserialize, Serialize};

use crate::rules::{Simulator, GARBAGE, WIDTH};
use crate::search::chain::tallest;
use crate::state::{Position, TurnState};
use crate::Engine;

use super::super::plan::Plan;
use super::{FiresNow, Reading};

/// `f` of our position, then of theirs.
fn both<T>(state: &TurnState<Engine>, f: impl Fn(&Position<Engine>) -> T) -> [T; 2] {
    [f(&state.me), f(&state.opponent)]
}

/// What starts the line on stderr.
const FEATURES_PREFIX: &str = "race-features ";

/// One turn's race, each pair in the order ours, theirs.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RaceFeatures {
    pub turn: usize,
    /// Thinking time left for the game, in ms.
    pub time_left_ms: [u64; 2],
    /// Garbage stock pending after this turn's row fell (blocks).
    pub garbage_pending: [u32; 2],
    /// Garbage blocks already on the field (this turn's row included).
    pub garbage_on_field: [u32; 2],
    /// The tallest column (rows; 16 is the danger line).
    pub max_height: [usize; 2],
    pub gauge: [u32; 2],
    pub score: [u64; 2],
    /// The largest chain each side can fire with this turn's pack, in links.
    pub fires_now: [u32; 2],
    /// Our plan's line: the largest chain it has ready at each turn from this one (empty: no
    /// plan).
    pub our_line: Vec<u32>,
    /// The same on any line the plan's search kept.
    pub our_any_line: Vec<u32>,
    /// Their menu: the probe of their field, the largest chain fireable at each turn from this
    /// one.
    pub their_menu: Vec<u32>,
    /// The exchange game's values, when a chain of ours was ready to weigh: firing it now, and
    /// waiting for our plan's (net garbage blocks to them).
    pub exchange: Option<[i64; 2]>,
    /// With rows landing: the chain our plan fires if a garbage row falls on its fire turn
    /// (none where the plan's search did not measure it, or no plan).
    #[serde(default)]
    pub our_fire_under_row: Option<u32>,
    /// With rows landing: their largest chain within 10 turns under the garbage of our chain
    /// fired now (the exchange's probe of their answer; none when it was not weighed).
    #[serde(default)]
    pub their_answer: Option<u32>,
}

impl RaceFeatures {
    /// The turn's features from its state, the chains ready now, our plan, their menu and the
    /// race's reading (the exchange game's values and their probed answer).
    pub(in crate::bot) fn of(
        state: &TurnState<Engine>,
        fires_now: FiresNow,
        plan: Option<&Plan>,
        their_menu: &[u32],
        reading: &Reading,
    ) -> Self {
        let garbage_on_field = |p: &Position<Engine>| {
            let field = p.field.to_field();
            (0..WIDTH).map(|x| (0..p.field.height(x)).filter(|&y| field.get(x, y) == GARBAGE).count() as u32).sum()
        };
        let max_height = |p: &Position<Engine>| tallest(&p.field);
        RaceFeatures {
            turn: state.turn,
            time_left_ms: both(state, |p| p.time_left_ms),
            garbage_pending: both(state, |p| p.garbage),
            garbage_on_field: both(state, garbage_on_field),
            max_height: both(state, max_height),
            gauge: both(state, |p| p.gauge),
            score: both(state, |p| p.score),
            fires_now: [fires_now.ours, fires_now.theirs],
            our_line: plan.map_or_else(Vec::new, |p| p.line_from(state.turn).to_vec()),
            our_any_line: plan.map_or_else(Vec::new, |p| p.threats_from(state.turn).to_vec()),
            their_menu: their_menu.to_vec(),
            exchange: reading.exchange,
            our_fire_under_row: plan.and_then(|p| p.under_row),
            their_answer: reading.their_answer,
        }
    }

    /// The stderr line: the prefix, then the features as one JSON object.
    pub fn line(&self) -> String {
        format!("{FEATURES_PREFIX}{}", serde_json::to_string(self).expect("plain numbers serialize"))
    }

    /// The features of every `race-features` line of a bot's stderr, in order.
    pub fn all_in(stderr: &str) -> Result<Vec<Self>, String> {
        stderr.lines().filter_map(Self::parse).collect()
    }

    /// The features of a stderr line, if it is one.
    pub fn parse(line: &str) -> Option<Result<Self, String>> {
        let json = line.strip_prefix(FEATURES_PREFIX)?;
        Some(serde_json::from_str(json).map_err(|e| format!("not race features: {e}")))
    }
}
