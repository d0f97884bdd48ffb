//! Where a judged candidate can act: the turns on which the bot's game met the decision the
//! candidate changes.
//!
//! A candidate that changes one decision plays as the bot does until that decision comes up, so
//! its pairs with the bot differ by chance (timing, the opponent's variance) everywhere else. A
//! decision the bot took before the first exchange shows in its recorded game: each turn's
//! `race-features` line (stderr) says what our plan's line fires and how the race weighed our
//! chain, the replay what each side fired. `gauntlet --where-held`, `--where-forced-loss` and
//! `--where-outpaced` play the candidate only on the pairs where the bot's game met its decision,
//! and the stop rule then counts those pairs alone.

use std::fs;
use std::path::Path;

use crate::bot::race::{forces_their_answer, stock_after_our_fire, RaceFeatures};
use crate::replay::{Chain, Replay};
use crate::search::chain::either_way;

/// A decision before the first exchange that a judgement is played, or read, where it came up.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decision {
    /// Our plan fired a chain of this many links or more now, and the bot held it
    /// ([`held_plan_fire`]; `--where-held`).
    HeldPlanFire(u32),
    /// The race weighed firing a chain of this many links or more into an answer it forces and
    /// that beats it ([`forced_loss`]; `--where-forced-loss`).
    ForcedLoss(u32),
    /// Their menu's first chain of this many links or more went off before our plan's fire, and
    /// our plan's line held no larger chain on the turn after it ([`outpaced`];
    /// `--where-outpaced`).
    Outpaced(u32),
}

impl Decision {
    /// The first turn of the game on which the decision came up: see each kind.
    pub fn turn(&self, first_chain_10: &[Option<Chain>; 2], features: &[RaceFeatures], seat: usize) -> Option<usize> {
        match *self {
            Decision::HeldPlanFire(links) => held_plan_fire(first_chain_10, features, seat, links),
            Decision::ForcedLoss(links) => forced_loss(first_chain_10, features, links),
            Decision::Outpaced(links) => outpaced(first_chain_10, features, links),
        }
    }

    /// The flag that asks for it, as the command line gives it.
    pub fn flag(&self) -> String {
        match *self {
            Decision::HeldPlanFire(links) => format!("--where-held {links}"),
            Decision::ForcedLoss(links) => format!("--where-forced-loss {links}"),
            Decision::Outpaced(links) => format!("--where-outpaced {links}"),
        }
    }

    /// What a game where it came up did, for the reports: "held a plan fire of 12+ links".
    pub fn describe(&self) -> String {
        match *self {
            Decision::HeldPlanFire(links) => format!("held a plan fire of {links}+ links"),
            Decision::ForcedLoss(links) => format!("weighed a {links}+ chain into a forced answer that beats it"),
            Decision::Outpaced(links) => {
                format!("met their first {links}+ chain before our plan's fire, no larger answer")
            }
        }
    }
}

/// The turns up to the first exchange (either side's first chain of 10+ links, the replay's
/// `first_chain_10`), in order.
fn before_first_exchange<'a>(
    first_chain_10: &[Option<Chain>; 2],
    features: &'a [RaceFeatures],
) -> impl Iterator<Item = &'a RaceFeatures> {
    let first_exchange = first_chain_10.iter().flatten().map(|c| c.turn).min();
    features.iter().take_while(move |f| first_exchange.is_none_or(|first| f.turn <= first))
}

/// The first turn, up to the first exchange, on which our plan fired a chain of `min_links` or
/// more now (its line from that turn is that one chain) and our bot did not fire its first 10+
/// chain. `features` are our bot's lines of the game, in turn order.
pub fn held_plan_fire(
    first_chain_10: &[Option<Chain>; 2],
    features: &[RaceFeatures],
    seat: usize,
    min_links: u32,
) -> Option<usize> {
    let our_first = first_chain_10[seat].map(|c| c.turn);
    before_first_exchange(first_chain_10, features)
        .find(|f| matches!(f.our_line[..], [links] if links >= min_links) && our_first != Some(f.turn))
        .map(|f| f.turn)
}

/// The first turn, up to the first exchange, on which the race weighed our chain of
/// `min_links` or more ready now against an answer its rows force (more whole rows than the
/// rows free above their tallest column) and the probe found that answer larger: whether the
/// bot then fired or not.
pub fn forced_loss(first_chain_10: &[Option<Chain>; 2], features: &[RaceFeatures], min_links: u32) -> Option<usize> {
    before_first_exchange(first_chain_10, features)
        .find(|f| {
            let ours = f.fires_now[0];
            let stock = stock_after_our_fire(f.garbage_pending, ours);
            let forced = forces_their_answer(stock, f.max_height[1]);
            ours >= min_links && forced && f.their_answer.is_some_and(|answer| answer > ours)
        })
        .map(|f| f.turn)
}

/// The first turn, up to the first exchange, on which their menu's first chain of
/// `min_links` or more went off before our plan's fire, and our plan's line held no larger chain
/// on the turn after it (their first row landed): on its fire turn, the chain it fires whether
/// that row falls or not; before it, the line's ready chain. Where the plan's line holds a larger
/// chain by then, our answer beats theirs as it stands.
pub fn outpaced(first_chain_10: &[Option<Chain>; 2], features: &[RaceFeatures], min_links: u32) -> Option<usize> {
    before_first_exchange(first_chain_10, features)
        .find(|f| {
            let last = f.our_line.len().checked_sub(1);
            let first_decisive = f.their_menu.iter().position(|&links| links >= min_links);
            let (Some(last), Some(k)) = (last, first_decisive) else {
                return false;
            };
            if k >= last {
                return false; // no plan fire to answer with before theirs goes off
            }
            // Our answer comes the turn after theirs, `k + 1` turns from now.
            let held = match k + 1 == last {
                true => either_way(f.our_fire_under_row, Some(f.our_line[last])).unwrap_or(0),
                false => f.our_line[k + 1],
            };
            held <= f.their_menu[k]
        })
        .map(|f| f.turn)
}

/// The turn `decision` came up in a recorded game, its replay read: our seat's `stderr-pN.txt`
/// in its folder (as `--replays` keeps it) gives the lines.
pub fn in_game(folder: &Path, replay: &Replay, seat: usize, decision: Decision) -> Result<Option<usize>, String> {
    let path = folder.join(format!("stderr-p{seat}.txt"));
    let stderr = fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    let features = RaceFeatures::all_in(&stderr).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(decision.turn(&replay.result.first_chain_10, &features, seat))
}

/// [`in_game`] of the game recorded in `folder`.
pub fn in_folder(folder: &Path, seat: usize, decision: Decision) -> Result<Option<usize>, String> {
    in_game(folder, &Replay::read(folder)?, seat, decision)
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

    /// Turn 13: our 14 ready, 79 blocks (7 whole rows) onto their field 10 rows tall with
    /// `their_pending` blocks pending, their answer probed at `answer`.
    fn weighed(their_pending: u32, their_tallest: usize, answer: u32) -> RaceFeatures {
        RaceFeatures {
            garbage_pending: [0, their_pending],
            max_height: [8, their_tallest],
            fires_now: [14, 0],
            their_answer: Some(answer),
            exchange: Some([-26, 0]),
            ..features(13, &[14])
        }
    }

    #[test]
    fn a_forced_answer_larger_than_our_chain_is_a_forced_loss() {
        let none = first(None, None);
        // 7 rows onto 6 free: forced; their 15 beats our 14.
        assert_eq!(forced_loss(&none, &[weighed(0, 10, 15)], 10), Some(13));
        assert_eq!(forced_loss(&none, &[weighed(0, 10, 14)], 10), None, "an answer no larger");
        assert_eq!(forced_loss(&none, &[weighed(0, 9, 15)], 10), None, "7 rows fit: free to wait");
        assert_eq!(forced_loss(&none, &[weighed(10, 9, 15)], 10), Some(13), "a row already pending");
        assert_eq!(forced_loss(&none, &[weighed(0, 10, 15)], 15), None, "our chain under the floor");
        let unweighed = RaceFeatures { their_answer: None, ..weighed(0, 10, 15) };
        assert_eq!(forced_loss(&none, &[unweighed], 10), None, "no exchange weighed");
        // Fired or not, it came up; after their first chain it did not.
        assert_eq!(forced_loss(&first(Some((14, 13)), None), &[weighed(0, 10, 15)], 10), Some(13));
        assert_eq!(forced_loss(&first(None, Some((12, 12))), &[weighed(0, 10, 15)], 10), None);
        let decision = Decision::ForcedLoss(10);
        assert_eq!(decision.turn(&none, &[weighed(0, 10, 15)], 0), Some(13));
        assert_eq!(decision.flag(), "--where-forced-loss 10");
        assert_eq!(Decision::HeldPlanFire(12).turn(&none, &lines(), 0), Some(12));
    }

    /// Turn 8 of [`lines`] (our 11 ready at turn 11, 13 fired at turn 12) against their menu.
    fn against(their_menu: &[u32], under_row: Option<u32>) -> RaceFeatures {
        RaceFeatures { their_menu: their_menu.to_vec(), our_fire_under_row: under_row, ..lines()[0].clone() }
    }

    #[test]
    fn their_first_decisive_chain_before_our_fire_without_a_larger_answer_outpaces_us() {
        let none = first(None, None);
        // Their 12 at turn 10: we answer at 11, where our line holds 11.
        assert_eq!(outpaced(&none, &[against(&[6, 6, 12, 14], None)], 12), Some(8));
        // Their 10 at turn 10 answered by our 11: no; counted from 10 links, as large is outpaced.
        assert_eq!(outpaced(&none, &[against(&[6, 6, 10, 11], None)], 12), None, "no 12 before ours");
        assert_eq!(outpaced(&none, &[against(&[6, 6, 11], None)], 10), Some(8), "our 11 against their 11");
        assert_eq!(outpaced(&none, &[against(&[6, 6, 10], None)], 10), None, "our 11 beats their 10");
        // Their 12 at turn 11: we answer on our fire turn, with what fires under their row.
        assert_eq!(outpaced(&none, &[against(&[6, 6, 6, 12], Some(13))], 12), None, "13 either way");
        assert_eq!(outpaced(&none, &[against(&[6, 6, 6, 12], Some(12))], 12), Some(8), "12 under the row");
        assert_eq!(outpaced(&none, &[against(&[6, 6, 6, 12], None)], 12), Some(8), "not measured: not sure");
        // Their 12 on our fire turn or after it, or no plan: nothing to answer with a plan.
        assert_eq!(outpaced(&none, &[against(&[6, 6, 6, 6, 12], None)], 12), None, "as soon as ours");
        let no_plan = RaceFeatures { our_line: vec![], ..against(&[12], None) };
        assert_eq!(outpaced(&none, &[no_plan], 12), None, "no plan");
        // After the first exchange it no longer comes up.
        assert_eq!(outpaced(&first(None, Some((10, 7))), &[against(&[6, 6, 12], None)], 12), None);
        let decision = Decision::Outpaced(12);
        assert_eq!(decision.turn(&none, &[against(&[6, 6, 12], None)], 0), Some(8));
        assert_eq!(decision.flag(), "--where-outpaced 12");
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
