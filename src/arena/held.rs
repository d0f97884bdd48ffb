//! Where a judged candidate can act: the turns on which the bot's game held its plan's fire.
//!
//! A candidate that changes one decision plays as the bot does until that decision comes up, so
//! its pairs with the bot differ by chance (timing, the opponent's variance) everywhere else. A
//! decision the bot took before the first exchange shows in its recorded game: each turn's
//! `race-features` line (stderr) says what our plan's line fires, the replay what each side
//! fired. `gauntlet --where-held` plays the candidate only on the pairs where the bot's game
//! held a plan fire, and the stop rule then counts those pairs alone.

use std::fs;
use std::path::Path;

use crate::bot::race::RaceFeatures;
use crate::replay::{Chain, Replay};

/// The first turn, up to the first exchange (either side's first chain of 10+ links, the
/// replay's `first_chain_10`), on which our plan fired a chain of `min_links` or more now (its
/// line from that turn is that one chain) and our bot did not fire its first 10+ chain.
/// `features` are our bot's lines of the game, in turn order.
pub fn held_plan_fire(
    first_chain_10: &[Option<Chain>; 2],
    features: &[RaceFeatures],
    seat: usize,
    min_links: u32,
) -> Option<usize> {
    let first_exchange = first_chain_10.iter().flatten().map(|c| c.turn).min();
    let our_first = first_chain_10[seat].map(|c| c.turn);
    features
        .iter()
        .take_while(|f| first_exchange.is_none_or(|first| f.turn <= first))
        .find(|f| matches!(f.our_line[..], [links] if links >= min_links) && our_first != Some(f.turn))
        .map(|f| f.turn)
}

/// [`held_plan_fire`] of a recorded game, its replay read: our seat's `stderr-pN.txt` in its
/// folder (as `--replays` keeps it) gives the lines.
pub fn held_in_game(folder: &Path, replay: &Replay, seat: usize, min_links: u32) -> Result<Option<usize>, String> {
    let path = folder.join(format!("stderr-p{seat}.txt"));
    let stderr = fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    let features = RaceFeatures::all_in(&stderr).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(held_plan_fire(&replay.result.first_chain_10, &features, seat, min_links))
}

/// [`held_in_game`] of the game recorded in `folder`.
pub fn held_in_folder(folder: &Path, seat: usize, min_links: u32) -> Result<Option<usize>, String> {
    held_in_game(folder, &Replay::read(folder)?, seat, min_links)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn features(turn: usize, our_line: &[u32]) -> RaceFeatures {
        RaceFeatures {
            turn,
            time_left_ms: [100_000; 2],
            garbage_pending: [0; 2],
            garbage_on_field: [0; 2],
            max_height: [8; 2],
            gauge: [0; 2],
            score: [0; 2],
            fires_now: [our_line.first().copied().unwrap_or(0), 0],
            our_line: our_line.to_vec(),
            our_any_line: our_line.to_vec(),
            their_menu: vec![6; 11],
            exchange: None,
            our_fire_under_row: None,
            their_answer: None,
        }
    }

    /// Turns 8–15: our plan's line makes 11 ready at turn 11 and fires 13 at turn 12; no plan after.
    fn lines() -> Vec<RaceFeatures> {
        let line = |turn: usize| -> Vec<u32> { [5, 7, 8, 11, 13][turn.min(12) - 8..].to_vec() };
        (8..16).map(|t| features(t, &if t <= 12 { line(t) } else { vec![] })).collect()
    }

    /// Each seat's first chain of 10+ links: `links` at `turn`, or none.
    fn first(seat0: Option<(u32, usize)>, seat1: Option<(u32, usize)>) -> [Option<Chain>; 2] {
        [seat0, seat1].map(|c| c.map(|(links, turn)| Chain { links, turn }))
    }

    #[test]
    fn a_plan_fire_not_taken_before_the_first_exchange_is_held() {
        // They fire first at turn 14: our 13 at turn 12 was ready and not fired.
        let chains = first(Some((15, 20)), Some((12, 14)));
        assert_eq!(held_plan_fire(&chains, &lines(), 0, 12), Some(12));
        // The 11 ready at turn 11 is no plan fire: the line goes on to the 13.
        assert_eq!(held_plan_fire(&chains, &lines(), 0, 11), Some(12));
        assert_eq!(held_plan_fire(&chains, &lines(), 0, 14), None);
        // No chain of 10+ in the whole game: every turn is before the first exchange.
        assert_eq!(held_plan_fire(&first(None, None), &lines(), 0, 12), Some(12));
    }

    #[test]
    fn a_plan_fire_taken_or_after_the_first_exchange_is_not_held() {
        let chains = first(Some((13, 12)), None);
        assert_eq!(held_plan_fire(&chains, &lines(), 0, 12), None, "fired on its turn");
        // The other seat's fires are not ours: its lines held the same plan at turn 12.
        assert_eq!(held_plan_fire(&chains, &lines(), 1, 12), Some(12));
        let chains = first(None, Some((10, 10)));
        assert_eq!(held_plan_fire(&chains, &lines(), 0, 12), None, "after their first chain");
    }
}
