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
use crate::replay::Replay;

/// The chain that starts the race: a held fire counts up to the turn either side first fires
/// one of this many links (the first exchange), and a turn firing one is no hold.
pub const RACE_LINKS: u32 = 10;

/// The first turn, up to the first chain of [`RACE_LINKS`]+ by either side, on which our plan
/// fired a chain of `min_links` or more now (its line from that turn is that one chain) and our
/// bot fired no chain of [`RACE_LINKS`]+ links. `fired[t]` is the links each seat fired on turn
/// `t`; `features` our bot's lines of the game, in turn order.
pub fn held_plan_fire(fired: &[[u32; 2]], features: &[RaceFeatures], seat: usize, min_links: u32) -> Option<usize> {
    let first_exchange = fired.iter().position(|links| links.iter().any(|&l| l >= RACE_LINKS));
    features
        .iter()
        .take_while(|f| first_exchange.is_none_or(|first| f.turn <= first))
        .find(|f| {
            let plan_fires_now = matches!(f.our_line[..], [links] if links >= min_links);
            let fired_now = fired.get(f.turn).map_or(0, |links| links[seat]);
            plan_fires_now && fired_now < RACE_LINKS
        })
        .map(|f| f.turn)
}

/// [`held_plan_fire`] of a recorded game: its folder (`replay.json` and our seat's
/// `stderr-pN.txt`, as `--replays` keeps them).
pub fn held_in_folder(folder: &Path, seat: usize, min_links: u32) -> Result<Option<usize>, String> {
    let read = |name: &str| {
        let path = folder.join(name);
        fs::read_to_string(&path).map_err(|e| format!("cannot read {}: {e}", path.display()))
    };
    let replay: Replay = serde_json::from_str(&read("replay.json")?)
        .map_err(|e| format!("{}: not a replay: {e}", folder.join("replay.json").display()))?;
    let mut fired = vec![[0; 2]; replay.turns.iter().map(|t| t.turn + 1).max().unwrap_or(0)];
    for turn in &replay.turns {
        if let Some(outcomes) = &turn.outcomes {
            fired[turn.turn] = [outcomes[0].links, outcomes[1].links];
        }
    }
    let stderr = read(&format!("stderr-p{seat}.txt"))?;
    let features = RaceFeatures::all_in(&stderr).map_err(|e| format!("{}: {e}", folder.display()))?;
    Ok(held_plan_fire(&fired, &features, seat, min_links))
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

    #[test]
    fn a_plan_fire_not_taken_before_the_first_exchange_is_held() {
        let mut fired = vec![[0, 0]; 30];
        // They fire first at turn 14: our 13 at turn 12 was ready and not fired.
        fired[14] = [0, 12];
        assert_eq!(held_plan_fire(&fired, &lines(), 0, 12), Some(12));
        // The 11 ready at turn 11 is no plan fire: the line goes on to the 13.
        assert_eq!(held_plan_fire(&fired, &lines(), 0, 11), Some(12));
        assert_eq!(held_plan_fire(&fired, &lines(), 0, 14), None);
    }

    #[test]
    fn a_plan_fire_taken_or_after_the_first_exchange_is_not_held() {
        let mut fired = vec![[0, 0]; 30];
        fired[12] = [13, 0];
        assert_eq!(held_plan_fire(&fired, &lines(), 0, 12), None, "fired on its turn");
        // The other seat's fires are not ours.
        assert_eq!(held_plan_fire(&fired, &lines(), 1, 12), Some(12));
        let mut fired = vec![[0, 0]; 30];
        fired[10] = [0, 10];
        assert_eq!(held_plan_fire(&fired, &lines(), 0, 12), None, "after their first chain");
        // A chain under the race's sends little: the race is still to come.
        fired[10] = [0, 9];
        assert_eq!(held_plan_fire(&fired, &lines(), 0, 12), Some(12));
    }
}
