//! The time manager: how long each search may think, from the time the bot is given.
//!
//! Budgets are written for the contest's control (180 000 ms a game, 20 000 ms a turn) and
//! scaled by the time the game actually gives (the input's remaining time at turn 0), so the
//! bot plays the same way at a tenth of the control, only faster.

use std::time::{Duration, Instant};

use crate::rules::GAME_TIME_MS;

/// Time-control flags.
#[derive(Clone, Debug, clap::Args)]
pub struct TimeParams {
    /// The per-turn cap the server enforces, in ms (the 2019 online qualifier: 20 000).
    #[arg(long, default_value_t = 20_000)]
    pub turn_cap_ms: u64,
    /// Kept back from every budget for reading input and answering, in ms.
    #[arg(long, default_value_t = 50)]
    pub safety_ms: u64,
    /// Below this much time left (at the full control, scaled) the bot stops running beams.
    #[arg(long, default_value_t = 30_000)]
    pub low_time_ms: u64,
}

impl Default for TimeParams {
    fn default() -> Self {
        TimeParams { turn_cap_ms: 20_000, safety_ms: 50, low_time_ms: 30_000 }
    }
}

/// Budgets for one game.
#[derive(Clone, Debug)]
pub struct TimeManager {
    params: TimeParams,
    /// Game time given, relative to the contest's 180 000 ms (1.0 at the full control).
    scale: f64,
}

impl TimeManager {
    /// Starts a game that gives `game_time_ms` in all.
    pub fn new(params: TimeParams, game_time_ms: u64) -> Self {
        let scale = (game_time_ms as f64 / GAME_TIME_MS as f64).clamp(0.001, 1.0);
        TimeManager { params, scale }
    }

    /// True when so little time is left that only cheap searches should run.
    pub fn low_on_time(&self, time_left_ms: u64) -> bool {
        (time_left_ms as f64) < self.params.low_time_ms as f64 * self.scale
    }

    /// The deadline for a search that would like `wanted_ms` at the full control, started at
    /// `now` with `time_left_ms` left: scaled, and never past the turn cap or a share of the
    /// time left that keeps enough for the rest of the game.
    pub fn deadline(&self, now: Instant, wanted_ms: u64, time_left_ms: u64, share_of_left: f64) -> Instant {
        let scaled = wanted_ms as f64 * self.scale;
        let cap = self.params.turn_cap_ms as f64 * 0.95;
        let left = time_left_ms as f64 * share_of_left;
        let ms = scaled.min(cap).min(left) - self.params.safety_ms as f64;
        now + Duration::from_millis(ms.max(1.0) as u64)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn budgets_scale_with_the_time_given_and_respect_the_caps() {
        let now = Instant::now();
        let full = TimeManager::new(TimeParams::default(), 180_000);
        assert_eq!(full.deadline(now, 19_000, 180_000, 0.5) - now, Duration::from_millis(18_950));
        let tenth = TimeManager::new(TimeParams { turn_cap_ms: 2_000, ..Default::default() }, 18_000);
        assert_eq!(tenth.deadline(now, 19_000, 18_000, 0.5) - now, Duration::from_millis(1_850));
        // Never more than the share of what is left.
        assert_eq!(full.deadline(now, 19_000, 10_000, 0.1) - now, Duration::from_millis(950));
        assert!(tenth.low_on_time(2_999) && !tenth.low_on_time(3_001));
    }
}
