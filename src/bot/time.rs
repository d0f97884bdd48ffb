//! The time manager: how long each search may think, from the time the bot is given.
//!
//! Budgets are written for the contest's control (180 000 ms a game, 20 000 ms a turn) and
//! scaled by the time the game actually gives (the input's remaining time at turn 0), so the
//! bot plays the same way at a tenth of the control, only faster.

use std::time::{Duration, Instant};

use crate::rules::GAME_TIME_MS;

/// The slice of a turn's budget a search may use: a share of what is left until the turn's end.
pub fn slice(now: Instant, turn_end: Instant, share: f64) -> Instant {
    now + turn_end.saturating_duration_since(now).mul_f64(share.clamp(0.0, 1.0))
}

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
    /// The game's likely length in turns: time above the low-time reserve is spread over the
    /// turns left until then.
    #[arg(long, default_value_t = 50)]
    pub expected_turns: usize,
    /// Spread the time over at least this many turns, however late the game is.
    #[arg(long, default_value_t = 20)]
    pub min_turns_left: usize,
    /// Below the low-time reserve, each turn may use 1/N of the time left.
    #[arg(long, default_value_t = 200)]
    pub endgame_turns: usize,
    /// A turn where a fire decision is near (a chain is ready on either side, or garbage is
    /// pending) may use this many times the even share: the game is decided there, not in the
    /// quiet turns that follow.
    #[arg(long, default_value_t = 2.0)]
    pub critical_factor: f64,
    /// A decisive turn (a chain big enough to decide the game is ready on either side) may use
    /// this many times the even share: whether to fire it rests on reading the opponent's
    /// answer, and a short probe reads kera's 18-link answer as 16.
    #[arg(long, default_value_t = 4.0)]
    pub decisive_factor: f64,
}

/// How much a turn's decision matters, for its share of the clock.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Stakes {
    /// Nothing is ready on either side: building moves.
    Quiet,
    /// A fire decision is near: a chain is ready on either side, or garbage is pending.
    Critical,
    /// A chain big enough to decide the game is ready on either side.
    Decisive,
}

impl Stakes {
    /// How the explanation names the turn.
    pub fn label(self) -> &'static str {
        match self {
            Stakes::Quiet => "",
            Stakes::Critical => " (critical turn)",
            Stakes::Decisive => " (decisive turn)",
        }
    }
}

impl Default for TimeParams {
    fn default() -> Self {
        TimeParams {
            turn_cap_ms: 20_000,
            safety_ms: 50,
            low_time_ms: 30_000,
            expected_turns: 50,
            min_turns_left: 20,
            endgame_turns: 200,
            critical_factor: 2.0,
            decisive_factor: 4.0,
        }
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

    /// The time this turn may use in all, in ms: turn 0 the opening budget (scaled); later turns
    /// an even share of the time above the low-time reserve over the turns the game likely has
    /// left (times [`TimeParams::critical_factor`] on a critical turn and
    /// [`TimeParams::decisive_factor`] on a decisive one, never more than a quarter of that
    /// time), plus a small share of the reserve.
    pub fn turn_budget_ms(&self, turn: usize, time_left_ms: u64, opening_ms: u64, stakes: Stakes) -> f64 {
        let left = time_left_ms as f64;
        let reserve = self.params.low_time_ms as f64 * self.scale;
        let endgame_share = reserve.min(left) / self.params.endgame_turns.max(1) as f64;
        if turn == 0 {
            return (opening_ms as f64 * self.scale).min(left * 0.5);
        }
        let turns_left = self.params.expected_turns.saturating_sub(turn).max(self.params.min_turns_left).max(1);
        let above_reserve = (left - reserve).max(0.0);
        let factor = match stakes {
            Stakes::Quiet => 1.0,
            Stakes::Critical => self.params.critical_factor.max(1.0),
            Stakes::Decisive => self.params.decisive_factor.max(self.params.critical_factor).max(1.0),
        };
        (above_reserve / turns_left as f64 * factor).min(above_reserve * 0.25) + endgame_share
    }

    /// The deadline of this whole turn (see [`Self::turn_budget_ms`]), within the turn cap.
    pub fn turn_deadline(
        &self,
        now: Instant,
        turn: usize,
        time_left_ms: u64,
        opening_ms: u64,
        stakes: Stakes,
    ) -> Instant {
        self.deadline(now, u64::MAX, time_left_ms, 1.0)
            .min(self.after(now, self.turn_budget_ms(turn, time_left_ms, opening_ms, stakes)))
    }

    fn after(&self, now: Instant, ms: f64) -> Instant {
        now + Duration::from_millis((ms - self.params.safety_ms as f64).max(1.0) as u64)
    }

    /// The deadline for a search that would like `wanted_ms` at the full control, started at
    /// `now` with `time_left_ms` left: scaled, and never past the turn cap or a share of the
    /// time left that keeps enough for the rest of the game.
    pub fn deadline(&self, now: Instant, wanted_ms: u64, time_left_ms: u64, share_of_left: f64) -> Instant {
        let scaled = wanted_ms as f64 * self.scale;
        let cap = self.params.turn_cap_ms as f64 * 0.95;
        let left = time_left_ms as f64 * share_of_left;
        self.after(now, scaled.min(cap).min(left))
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

    #[test]
    fn turns_share_the_time_above_the_reserve_and_never_pass_the_cap() {
        let now = Instant::now();
        let full = TimeManager::new(TimeParams::default(), 180_000);
        // Turn 0: the opening budget.
        assert_eq!(full.turn_budget_ms(0, 180_000, 19_000, Stakes::Quiet), 19_000.0);
        // Turn 10 with 160 s left: 130 s over 40 turns, plus 30 s / 200.
        let budget = full.turn_budget_ms(10, 160_000, 19_000, Stakes::Quiet);
        assert!((budget - (130_000.0 / 40.0 + 150.0)).abs() < 1e-6, "{budget}");
        // A critical turn gets twice the share.
        let critical = full.turn_budget_ms(10, 160_000, 19_000, Stakes::Critical);
        assert!((critical - (2.0 * 130_000.0 / 40.0 + 150.0)).abs() < 1e-6, "{critical}");
        // A decisive turn four times.
        let decisive = full.turn_budget_ms(10, 160_000, 19_000, Stakes::Decisive);
        assert!((decisive - (4.0 * 130_000.0 / 40.0 + 150.0)).abs() < 1e-6, "{decisive}");
        // ... but never more than a quarter of the time above the reserve.
        let eager = TimeManager::new(TimeParams { critical_factor: 10.0, ..Default::default() }, 180_000);
        let short = eager.turn_budget_ms(45, 50_000, 19_000, Stakes::Critical);
        assert!((short - (20_000.0 * 0.25 + 150.0)).abs() < 1e-6, "{short}");
        // Late in a long game the share stays finite; below the reserve only the endgame share.
        assert!((full.turn_budget_ms(300, 20_000, 19_000, Stakes::Decisive) - 100.0).abs() < 1e-6);
        // A huge time left is still capped by the per-turn cap.
        let capped = full.turn_deadline(now, 1, 10_000_000, 19_000, Stakes::Decisive) - now;
        assert_eq!(capped, Duration::from_millis(18_950));
        // A tenth of the control scales the reserve too.
        let tenth = TimeManager::new(TimeParams { turn_cap_ms: 2_000, ..Default::default() }, 18_000);
        let budget = tenth.turn_budget_ms(10, 16_000, 19_000, Stakes::Quiet);
        assert!((budget - (13_000.0 / 40.0 + 15.0)).abs() < 1e-6, "{budget}");
    }
}
