//! The exchange game: what firing a chain now, or waiting for a longer one, is worth against the
//! chains the opponent can fire first or answer with (net garbage blocks), and the chain a
//! rebuild aims at by the same measure.

use crate::rules::{chain_garbage, GARBAGE_ROW, VISIBLE_HEIGHT};
use crate::search::chain::{BeamResult, Line};
use crate::search::midgame::VALUE_PER_BLOCK;

use super::menus::POTENTIAL_TURNS;
use super::value::ExchangeModel;

/// What the race says to the midgame search this turn.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(in crate::bot) struct Reading {
    /// `(links, bonus)` added to root moves firing at least `links` (value units).
    pub fire_bonus: Option<(u32, i64)>,
    /// `(links, penalty)` subtracted from root moves firing at least `links` (value units).
    pub fire_penalty: Option<(u32, i64)>,
    /// The exchange game's values when it was weighed: firing now, waiting (net garbage blocks
    /// to them).
    pub exchange: Option<[i64; 2]>,
    /// Their answer to our chain fired now, as probed under its garbage (before the shortfall
    /// the game takes off it), when the exchange was weighed.
    pub their_answer: Option<u32>,
}

/// Their garbage stock once our chain of `links` fired now has been added and offset against ours:
/// what the exchange game probes their answer under.
/// `pending` is the garbage pending on each side, ours first.
pub fn stock_after_our_fire(pending: [u32; 2], links: u32) -> u32 {
    let [ours, theirs] = pending;
    (theirs + chain_garbage(links)).saturating_sub(ours)
}

/// Whether our chain's rows force their answer: the whole rows of `stock` (their garbage pending
/// once our chain is added, [`stock_after_our_fire`]) are more than the rows free above their
/// tallest column, so waiting buries them. Rows that only fill the field leave them free to wait.
pub fn forces_their_answer(stock: u32, their_tallest: usize) -> bool {
    (stock / GARBAGE_ROW) as usize > VISIBLE_HEIGHT.saturating_sub(their_tallest)
}

/// A field holds 16 rows: net garbage beyond that buries any field, so an exchange is worth at
/// most this many blocks either way (waiting to turn a 17 into a 19 gains nothing).
const KILL_BLOCKS: i64 = GARBAGE_ROW as i64 * VISIBLE_HEIGHT as i64;

/// Root moves firing fewer links than this are never penalised: 3–4-link chains send almost
/// nothing and drain their gauge.
const PENALTY_MIN_LINKS: u32 = 5;

/// One exchange at the level of menus: a chain of `fired` links answered by one of `answer`
/// links. The net garbage blocks the answering side receives (negative: the firing side does),
/// at most a kill.
pub(in crate::bot) fn exchange(fired: u32, answer: u32) -> i64 {
    (i64::from(chain_garbage(fired)) - i64::from(chain_garbage(answer))).clamp(-KILL_BLOCKS, KILL_BLOCKS)
}

/// The exchange game of one turn, over the turns each side fires (offsets from now: index 0 is
/// this turn). We either fire the chain ready now, or wait for our plan's chain; while we wait
/// they either fire first (a chain sending a row or more), on any turn before ours, and we answer
/// with what our plan's line has ready the turn after (their rows land before our drop), or they
/// wait too and answer our chain with their answer of now, or with a longer chain they have ready
/// by then. They pick the reply worst for us (minimax: no opponent is recognised, and a fast firer's turn is as possible as a
/// builder's).
pub(in crate::bot) struct Exchange<'a> {
    /// The chain we can fire now.
    pub ours_now: u32,
    /// What our plan's own line makes ready at each turn from now (empty without a plan).
    pub our_line: &'a [u32],
    /// The largest chain they can fire at each turn from now (the probe of their field).
    pub their_menu: &'a [u32],
    /// Their answer to our fire now: the probe of their field under our garbage.
    pub their_answer: u32,
    /// Our chain of now forces their answer ([`forces_their_answer`]): they fire the answer the
    /// probe finds, not one the rows cut short, and while we hold it they have nothing to answer.
    pub forced: bool,
}

/// What the exchange game found: the value of each of our two choices (net garbage blocks to
/// them, see [`exchange`]) and how the opponent answers each.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(in crate::bot) struct Weighed {
    /// The chain we can fire now and their answer to it.
    pub ours_now: u32,
    pub their_answer: u32,
    /// Their answer is forced ([`Exchange::forced`]).
    pub forced: bool,
    /// Firing now.
    pub fire_now: i64,
    /// Waiting: our chain's links and turn offset, and their best reply.
    pub wait_links: u32,
    pub wait_turns: usize,
    pub wait: i64,
    pub reply: Reply,
}

/// Their best reply to our waiting.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(in crate::bot) enum Reply {
    /// They fire `links` first, `turns` from now; we answer with `answer`.
    FireFirst { turns: usize, links: u32, answer: u32 },
    /// They wait and answer our chain with `answer`.
    Answer { answer: u32 },
}

/// Links an answer given under garbage falls short of what a search of the field finds: the
/// rows land before the answering drop and on its chain. `calibrate` measured the probe's
/// answers 2.25 links above togatoga's real ones and 2.0 above ysgeso's (decide files).
const ANSWER_SHORTFALL: u32 = 2;

impl Exchange<'_> {
    pub(in crate::bot) fn weigh(&self) -> Weighed {
        // A forced answer is fired under the rows as the probe fired it; a free one is not.
        let shortfall = if self.forced { 0 } else { ANSWER_SHORTFALL };
        let their_answer = self.their_answer.saturating_sub(shortfall);
        let fire_now = exchange(self.ours_now, their_answer);
        // Our chain if we wait: the plan line's largest within the probe's horizon, at its
        // earliest turn; without a longer one, the chain ready now held one turn.
        let ready = |k: usize| self.our_line.get(k).copied().unwrap_or(0);
        let horizon = self.our_line.len().min(POTENTIAL_TURNS + 1);
        let longest = (1..horizon).map(ready).max().unwrap_or(0);
        let (wait_links, wait_turns) = match (1..horizon).find(|&k| ready(k) == longest) {
            Some(k) if longest > self.ours_now => (longest, k),
            _ => (self.ours_now, 1),
        };
        let theirs = |k: usize| self.their_menu.get(k).copied().unwrap_or(0);
        // Their answer of now already counts the turns they build under our garbage; a chain
        // they have ready by our later fire answers it at least as well.
        let answer = (0..=wait_turns).map(theirs).max().unwrap_or(0).max(their_answer);
        let mut reply = Reply::Answer { answer };
        let mut wait = exchange(wait_links, answer);
        // Holding a chain whose forced answer beats it: nothing is answered while we hold, and
        // firing it would be (the midgame search never sees the answer coming).
        if self.forced && wait_links == self.ours_now && their_answer > self.ours_now {
            wait = 0;
        }
        for turns in 0..wait_turns {
            let (links, answer) = (theirs(turns), ready(turns + 1).saturating_sub(ANSWER_SHORTFALL));
            let value = -exchange(links, answer);
            // A chain sending less than a row drops nothing on our field: the plan goes on.
            if chain_garbage(links) >= GARBAGE_ROW && value < wait {
                (wait, reply) = (value, Reply::FireFirst { turns, links, answer });
            }
        }
        Weighed {
            ours_now: self.ours_now,
            their_answer,
            forced: self.forced,
            fire_now,
            wait_links,
            wait_turns,
            wait,
            reply,
        }
    }
}

impl Reply {
    /// Our probability of winning after this exchange, our chain of `ours` links fired (or
    /// waiting for it), by the fitted exchange model: who fires first, and by how many links
    /// the chains differ.
    pub(in crate::bot) fn odds(&self, ours: u32, model: &ExchangeModel) -> f64 {
        match *self {
            Reply::FireFirst { links, answer, .. } => model.win_probability(false, answer, links),
            Reply::Answer { answer } => model.win_probability(true, ours, answer),
        }
    }
}

impl Weighed {
    /// Our probability of winning after each of our two choices' exchanges (firing now, waiting),
    /// by the fitted exchange model ([`Reply::odds`]).
    pub(in crate::bot) fn odds(&self, model: &ExchangeModel) -> [f64; 2] {
        let fire_now = Reply::Answer { answer: self.their_answer }.odds(self.ours_now, model);
        [fire_now, self.reply.odds(self.wait_links, model)]
    }

    /// The advice to the midgame search: the difference between firing now and waiting, as a
    /// bonus on firing our chain or a penalty on firing anything but small chains (none while
    /// rows are falling on us: waiting only buries the chain).
    /// With the advice, the words `--explain` gives it.
    pub(in crate::bot) fn advice(&self, under_attack: bool) -> (Reading, String) {
        let gain = self.fire_now - self.wait;
        let mut reading = Reading { exchange: Some([self.fire_now, self.wait]), ..Reading::default() };
        let said = if gain > 0 {
            reading.fire_bonus = Some((self.ours_now, gain * VALUE_PER_BLOCK));
            format!("bonus {gain} blocks for firing {}+ now", self.ours_now)
        } else if gain < 0 && !under_attack {
            reading.fire_penalty = Some((PENALTY_MIN_LINKS, -gain * VALUE_PER_BLOCK));
            format!("penalty {} blocks for firing {PENALTY_MIN_LINKS}+ (keep building)", -gain)
        } else if gain < 0 {
            "no adjustment (under attack: waiting buries our chain)".to_string()
        } else {
            "no adjustment".to_string()
        };
        (reading, said)
    }
}

impl std::fmt::Display for Weighed {
    /// "fire 12 now, they answer 9: +27 | wait for 16 in 3, they fire 13 in 1 first, we answer
    /// 11: -27" (net garbage blocks to them).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (ours, answer) = (self.ours_now, self.their_answer);
        let forced = if self.forced { " (forced)" } else { "" };
        write!(f, "fire {ours} now, they answer {answer}{forced}: {:+} | ", self.fire_now)?;
        write!(f, "wait for {} in {}, ", self.wait_links, self.wait_turns)?;
        match self.reply {
            Reply::FireFirst { turns, links, answer } => {
                write!(f, "they fire {links} in {turns} first, we answer {answer}")?
            }
            Reply::Answer { answer } => write!(f, "they wait and answer {answer}")?,
        }
        write!(f, ": {:+}", self.wait)
    }
}

/// One chain a rebuild can aim at, valued by [`race_value`] against their menu.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(in crate::bot) struct AimOption {
    /// Links and turn offset of the chain, its value (net garbage blocks to them), and the reply
    /// of theirs that value assumes.
    pub links: u32,
    pub turns: usize,
    pub value: i64,
    pub reply: Reply,
}

impl AimOption {
    /// "13@23: -20 blocks, 12% (their 11@19 first, we answer 7)" or "9@18: +0 blocks, 57% (they
    /// answer 9)", from `turn`: the value, then our odds after that exchange ([`Reply::odds`]).
    pub(in crate::bot) fn describe(&self, turn: usize, model: &ExchangeModel) -> String {
        let reply = match self.reply {
            Reply::FireFirst { turns, links, answer } => {
                format!("their {links}@{} first, we answer {answer}", turn + turns)
            }
            Reply::Answer { answer } => format!("they answer {answer}"),
        };
        let odds = 100.0 * self.reply.odds(self.links, model);
        format!("{}@{}: {:+} blocks, {odds:.0}% ({reply})", self.links, turn + self.turns, self.value)
    }
}

/// A rebuild's chain chosen for the race: of the chains its search can fire at each turn, the
/// one whose exchange against their menu sends most ([`race_value`]), and the others it was
/// weighed against (the first turn of each chain size, sooner first), for `--explain`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(in crate::bot) struct RaceAim {
    pub chosen: AimOption,
    pub options: Vec<AimOption>,
}

impl RaceAim {
    /// " | weighed against 13@23: -20 blocks, 12% (...), ..." for the options not chosen; empty
    /// when there were none.
    pub(in crate::bot) fn others_text(&self, turn: usize, model: &ExchangeModel) -> String {
        let others: Vec<String> =
            self.options.iter().filter(|o| **o != self.chosen).map(|o| o.describe(turn, model)).collect();
        match others.is_empty() {
            true => String::new(),
            false => format!(" | weighed against {}", others.join(", ")),
        }
    }
}

/// The value of firing our chain on a line `ours.len() - 1` turns from now (`ours[k]`: what the
/// line has ready `k` turns from now, its last the chain), against `theirs` (their menu; past
/// its end, its largest): the worst for us of their replies, and that reply. They fire first,
/// any turn before ours, a chain of `min_links` or more, and we answer with what our line has
/// ready the turn after; or they wait, and answer with what they have by our fire, or a longer
/// chain in the two turns after it under our rows ([`ANSWER_SHORTFALL`]). Smaller chains of
/// theirs send at most a row and are not a race.
pub(in crate::bot) fn race_value(ours: &[u32], theirs: &[u32], min_links: u32) -> (i64, Reply) {
    let Some((&links, before)) = ours.split_last() else { return (0, Reply::Answer { answer: 0 }) };
    let fire_turn = before.len();
    let largest = theirs.iter().copied().max().unwrap_or(0);
    let their = |k: usize| theirs.get(k).copied().unwrap_or(largest);
    let answer = (0..=fire_turn)
        .map(their)
        .max()
        .unwrap_or(0)
        .max((fire_turn + 1..=fire_turn + 2).map(their).max().unwrap_or(0).saturating_sub(ANSWER_SHORTFALL));
    let fire_first = (0..fire_turn).filter(|&k| their(k) >= min_links).map(|k| {
        let answer = ours[k + 1].saturating_sub(ANSWER_SHORTFALL);
        (-exchange(their(k), answer), Reply::FireFirst { turns: k, links: their(k), answer })
    });
    // Of equally bad replies, their answer, then the earliest fire first.
    let answered = (exchange(links, answer), Reply::Answer { answer });
    fire_first.min_by_key(|&(value, _)| value).filter(|&(value, _)| value < answered.0).unwrap_or(answered)
}

/// Points a rebuild's line at the chain of at least `min_links` links, within `turns` turns,
/// with the best [`race_value`] against their menu (the larger chain, then the earlier, of
/// equal values). None, and the line unchanged, when the search found no such chain.
pub(in crate::bot) fn aim_at_race(
    result: &mut BeamResult,
    theirs: &[u32],
    min_links: u32,
    turns: usize,
) -> Option<RaceAim> {
    let weighed: Vec<(AimOption, &Line)> = result
        .menu
        .entries
        .iter()
        .take(turns + 1)
        .flatten()
        .filter_map(|line| {
            let ready = line.ready_links();
            let links = *ready.last().filter(|&&links| links >= min_links)?;
            let (value, reply) = race_value(&ready, theirs, min_links);
            Some((AimOption { links, turns: ready.len() - 1, value, reply }, line))
        })
        .collect();
    let (chosen, line) = weighed.iter().max_by_key(|(aim, _)| (aim.value, aim.links, std::cmp::Reverse(aim.turns)))?;
    let chosen = *chosen;
    result.line = (*line).clone();
    let mut options: Vec<AimOption> = Vec::new();
    for &(option, _) in &weighed {
        if options.iter().all(|o| o.links != option.links) {
            options.push(option);
        }
    }
    // The menu's entries are by fire turn: the options are too.
    Some(RaceAim { chosen, options })
}

#[cfg(test)]
mod tests {
    use super::{
        aim_at_race, exchange, forces_their_answer, race_value, AimOption, Exchange, Reading, Reply, KILL_BLOCKS,
    };
    use crate::bot::race::value::{ExchangeModel, Logistic};
    use crate::rules::{chain_garbage, Action};
    use crate::search::chain::{BeamResult, Fire, Line, Menu};
    use crate::search::eval::Chain;
    use crate::search::midgame::VALUE_PER_BLOCK;

    /// A line that has `ready[k]` links ready `k` turns from turn 16, its last the chain it fires.
    fn line(ready: &[u32]) -> Line {
        let fire = |&links: &u32| {
            (links > 0).then_some(Fire {
                chain: Chain { links, vanished: 2 * links },
                action: Action::Skill,
                remaining: 0,
            })
        };
        Line { start_turn: 16, fires: ready.iter().map(fire).collect(), ..Line::default() }
    }

    /// Togatoga after the first exchange (pack file 13, turn 16): its 11 comes in 10 turns.
    const REBUILDING: [u32; 11] = [1, 2, 2, 3, 6, 8, 9, 9, 9, 9, 11];
    /// Our rebuild's lines then: 10 links in 5 turns, or 17 in 15.
    const QUICK: [u32; 6] = [1, 3, 7, 7, 8, 10];
    const LARGEST: [u32; 16] = [1, 2, 2, 4, 6, 8, 8, 8, 8, 8, 8, 8, 8, 8, 13, 17];

    #[test]
    fn a_chain_fired_before_theirs_is_answered_by_what_they_have_then() {
        // They have 8 by turn 21 and 9 the turn after (a row on it): they answer 8.
        assert_eq!(race_value(&QUICK, &REBUILDING, 8), (exchange(10, 8), Reply::Answer { answer: 8 }));
        // Waiting for the 17 lets them fire their 11 first, when our line has 8 ready.
        let fire_first = -exchange(11, 8 - 2);
        let (value, reply) = race_value(&LARGEST, &REBUILDING, 8);
        assert!(value <= fire_first);
        assert!(matches!(reply, Reply::FireFirst { links: 8.., .. }), "{reply:?}");
    }

    #[test]
    fn against_a_field_with_no_race_chain_the_larger_chain_is_worth_more() {
        let slow = [1, 2, 3, 4, 5, 6, 7, 7, 7, 7, 7];
        assert_eq!(race_value(&LARGEST, &slow, 8), (exchange(17, 7), Reply::Answer { answer: 7 }));
        assert!(race_value(&LARGEST, &slow, 8).0 > race_value(&QUICK, &slow, 8).0);
        // Their 7 sends less than our 8-link race threshold: it is not a chain fired first.
        assert_eq!(race_value(&QUICK, &slow, 8), (exchange(10, 6), Reply::Answer { answer: 6 }), "their 6 by our fire");
    }

    #[test]
    fn a_rebuild_aims_at_the_chain_that_wins_the_race_not_the_largest() {
        let mut entries = vec![None; 16];
        entries[5] = Some(line(&QUICK));
        entries[15] = Some(line(&LARGEST));
        let menu = Menu { start_turn: 16, entries, under_row: Vec::new() };
        let mut result = BeamResult { line: line(&LARGEST), menu, ..BeamResult::default() };
        let aim = aim_at_race(&mut result, &REBUILDING, 8, 16);
        let quick = AimOption { links: 10, turns: 5, value: exchange(10, 8), reply: Reply::Answer { answer: 8 } };
        let aim = aim.expect("a chain of 8+ within 16 turns");
        assert_eq!(aim.chosen, quick);
        // The 17 was weighed and lost: their 11 fires first at turn 26, when our line has 8 (6 under
        // their rows).
        assert_eq!(aim.options.len(), 2);
        assert_eq!(aim.options[0], quick);
        // Odds by a model even at equal chains, a link ahead σ(1): their 11 fired first and
        // answered by a 6 (a chain under 10 links counts as none) is 4 links behind.
        let model = even_odds();
        assert_eq!(aim.options[1].describe(16, &model), "17@31: -27 blocks, 2% (their 11@26 first, we answer 6)");
        assert_eq!(quick.describe(16, &model), "10@21: +12 blocks, 98% (they answer 8)");
        assert_eq!(
            aim.others_text(16, &model),
            " | weighed against 17@31: -27 blocks, 2% (their 11@26 first, we answer 6)"
        );
        assert_eq!(result.line.fires.len(), QUICK.len(), "the line now fires the 10");
        // Within a horizon that ends before it, no chain of 8+ is found: the line stays.
        let mut short = result.clone();
        assert_eq!(aim_at_race(&mut short, &REBUILDING, 8, 4), None);
        assert_eq!(short.line.fires.len(), QUICK.len());
        // Against a slow builder the largest chain is chosen.
        let slow = [1, 2, 3, 4, 5, 6, 7, 7, 7, 7, 7];
        assert_eq!(aim_at_race(&mut result, &slow, 8, 16).map(|a| a.chosen.links), Some(17));
    }

    /// An exchange model even at equal chains whoever fires first, σ(links ahead).
    fn even_odds() -> ExchangeModel {
        let even = Logistic { bias: 0.0, weights: vec![1.0] };
        ExchangeModel { we_first: even.clone(), they_first: even, games: 0, held_out_log_loss: 0.0 }
    }

    fn weigh(ours_now: u32, our_line: &[u32], their_menu: &[u32], their_answer: u32) -> super::Weighed {
        Exchange { ours_now, our_line, their_menu, their_answer, forced: false }.weigh()
    }

    #[test]
    fn an_exchange_is_the_net_garbage_up_to_a_kill() {
        assert_eq!(exchange(13, 12), 60 - 45);
        assert_eq!(exchange(10, 13), 25 - 60);
        assert_eq!(exchange(12, 0), i64::from(chain_garbage(12)));
        assert_eq!(exchange(20, 3), KILL_BLOCKS, "a 20-link chain buries any field");
        assert_eq!(exchange(3, 20), -KILL_BLOCKS);
    }

    /// Colun's opening (pack file 28, turn 10): our 12 is ready, its 12 comes next turn, our
    /// plan's 16 four turns later. Waiting lets it fire first and our answer comes under its
    /// rows: firing now is worth more.
    #[test]
    fn a_fast_opener_that_fires_first_makes_firing_now_worth_more() {
        let weighed = weigh(12, &[12, 11, 11, 15, 16], &[4, 12, 13, 14, 15], 15);
        assert_eq!(weighed.their_answer, 13, "the probed answer less what rows cost it");
        assert_eq!(weighed.fire_now, exchange(12, 13));
        assert_eq!((weighed.wait_links, weighed.wait_turns), (16, 4));
        assert_eq!(weighed.reply, Reply::FireFirst { turns: 1, links: 12, answer: 9 });
        assert_eq!(weighed.wait, -exchange(12, 9));
        let gain = weighed.fire_now - weighed.wait;
        assert!(gain > 0);
        let values = Some([weighed.fire_now, weighed.wait]);
        let bonus = Reading { fire_bonus: Some((12, gain * VALUE_PER_BLOCK)), exchange: values, ..Reading::default() };
        let (reading, said) = weighed.advice(false);
        assert_eq!(reading, bonus);
        assert_eq!(said, format!("bonus {gain} blocks for firing 12+ now"));
    }

    /// A builder far from a chain: nothing it can fire first beats what our line has ready, and
    /// our longer chain later sends more past its answer: keep building.
    #[test]
    fn against_a_slow_builder_waiting_for_the_longer_chain_is_worth_more() {
        let weighed = weigh(10, &[10, 10, 11, 13, 15, 15], &[3, 5, 6, 7, 7, 10], 11);
        assert_eq!((weighed.wait_links, weighed.wait_turns), (15, 4));
        assert_eq!(weighed.reply, Reply::Answer { answer: 9 });
        assert_eq!(weighed.wait, exchange(15, 9));
        let loss = weighed.wait - weighed.fire_now;
        assert!(loss > 0);
        let values = Some([weighed.fire_now, weighed.wait]);
        let penalty =
            Reading { fire_penalty: Some((5, loss * VALUE_PER_BLOCK)), exchange: values, ..Reading::default() };
        assert_eq!(weighed.advice(false).0, penalty, "small chains are spared");
        let (reading, said) = weighed.advice(true);
        assert_eq!(
            reading,
            Reading { exchange: values, ..Reading::default() },
            "under attack waiting buries the chain"
        );
        assert_eq!(said, "no adjustment (under attack: waiting buries our chain)");
    }

    /// Kera answers only rows that would overflow its field: on a field 10 rows tall, 13 links
    /// (60 blocks, 6 rows) fill it exactly and it waits; 14 links (79 blocks, 7 whole rows) do
    /// not fit, and it must answer.
    #[test]
    fn rows_that_overflow_their_field_force_their_answer() {
        assert_eq!((chain_garbage(13), chain_garbage(14)), (60, 79));
        assert!(!forces_their_answer(chain_garbage(13), 10));
        assert!(forces_their_answer(chain_garbage(14), 10));
        assert!(!forces_their_answer(69, 10), "a part row does not land: 6 whole rows fit");
        assert!(forces_their_answer(10, 16), "a full field: no row fits");
        assert!(!forces_their_answer(9, 16), "nor lands");
    }

    /// Our 15 ready, their answer probed at 16 under its rows: free to wait, they fire 14 (two
    /// links short) and firing gains; forced, they fire the 16, firing loses, and holding is
    /// worth nothing either way: firing is penalised.
    #[test]
    fn a_forced_answer_bigger_than_our_chain_makes_holding_it_worth_more() {
        let free = weigh(15, &[15], &[6, 6], 16);
        assert_eq!((free.their_answer, free.fire_now), (14, exchange(15, 14)));
        assert!(free.fire_now > 0 && free.wait == free.fire_now, "{free}");
        let forced =
            Exchange { ours_now: 15, our_line: &[15], their_menu: &[6, 6], their_answer: 16, forced: true }.weigh();
        assert_eq!((forced.their_answer, forced.fire_now, forced.wait), (16, exchange(15, 16), 0));
        assert_eq!(
            forced.to_string(),
            "fire 15 now, they answer 16 (forced): -33 | wait for 15 in 1, they wait and answer 16: +0"
        );
        assert_eq!(forced.advice(false).0.fire_penalty, Some((5, 33 * VALUE_PER_BLOCK)));
        // A chain they can fire first still counts against holding.
        let first =
            Exchange { ours_now: 15, our_line: &[15], their_menu: &[12, 12], their_answer: 16, forced: true }.weigh();
        assert_eq!(first.wait, -exchange(12, 0), "{first}");
        // Waiting for a longer chain is weighed as before: they answer it as their menu allows.
        let longer =
            Exchange { ours_now: 15, our_line: &[15, 18], their_menu: &[6, 6], their_answer: 16, forced: true }.weigh();
        assert_eq!((longer.wait_links, longer.wait), (18, exchange(18, 16)), "{longer}");
    }

    /// With no longer chain on our line, waiting is holding the chain a turn, which can only
    /// give them time: firing never loses to it.
    #[test]
    fn with_nothing_longer_to_wait_for_waiting_holds_the_chain_a_turn() {
        let weighed = weigh(11, &[11], &[9, 10, 10], 5);
        assert_eq!((weighed.wait_links, weighed.wait_turns), (11, 1));
        assert!(weighed.fire_now >= weighed.wait, "{weighed}");
        assert_eq!(
            weighed.to_string(),
            "fire 11 now, they answer 3: +31 | wait for 11 in 1, they fire 9 in 0 first, we answer 0: -18"
        );
    }
}
