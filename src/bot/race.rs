//! The race: what each side can fire, and when, and what the exchanges that follow are worth.
//! Every reason the bot has to fire a ready chain, to hold it back, or to give the chain race up
//! is read here, and `--explain` prints it on lines starting with `race`:
//! - `race menus`: the chain each side can fire now, and the largest it can fire by each turn
//!   ahead, as `links@turn` where it grows: ours on our plan's line and on any line its search
//!   kept, theirs from a probe of their field; and the chains of 10+ links they fired in this
//!   game against what they had in reach ([`TheirStyle`]);
//! - `race counter`: the exchange if we fire now (their answer probed under our garbage) against
//!   the race if we wait (what they and we reach meanwhile), and the advice it gives;
//! - `race safety`: the exchange if they fire now, and whether the plan's move can answer it;
//! - `race skill mode`: the chain race given up for the skill.
//!
//! The advice is a bonus or a penalty on the root moves that fire; the midgame exhaustive search
//! then checks the tactics of the move it favours. Data flows one way: the turn's state and our
//! plan in, probes of both fields, advice out.

use std::fmt::Write as _;
use std::time::Instant;

use crate::rules::{chain_garbage, chain_score, Action, Simulator, GARBAGE, GARBAGE_ROW};
use crate::search::beam::BeamConfig;
use crate::search::builder::BuilderConfig;
use crate::search::chain::{best_fire, BeamResult, Start};
use crate::search::midgame::VALUE_PER_BLOCK;
use crate::state::TurnState;
use crate::Engine;

use super::plan::{Plan, PlanKind};
use super::time::slice;
use super::{BotOptions, Stakes};

/// What the race says to the midgame search this turn.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(super) struct Reading {
    /// `(links, bonus)` added to root moves firing at least `links` (value units).
    pub fire_bonus: Option<(u32, i64)>,
    /// `(links, penalty)` subtracted from root moves firing at least `links` (value units).
    pub fire_penalty: Option<(u32, i64)>,
    /// The chain race is lost: play for the skill.
    pub give_up_chains: bool,
    /// Their menu as probed this turn (the largest chain at each turn from now), when probed.
    pub their_menu: Option<Vec<u32>>,
}

/// Their chains only count from this many links: smaller ones do not race.
const STYLE_MIN_LINKS: u32 = 10;

/// How the opponent fires, as seen in this game: each chain of 10+ links it fired, against what
/// the probe of its field on that turn had in reach within 10 turns. A fast firer fires well
/// below that; a builder waits for it. Nothing here knows the opponent's name.
#[derive(Clone, Debug, Default)]
pub(super) struct TheirStyle {
    /// The last probe of their field: its turn and menu.
    last_probe: Option<(usize, Vec<u32>)>,
    /// Each 10+ fire: its turn, its links, and the probe's 10-turn potential that turn (None
    /// when their field was not probed on the turn they fired).
    fires: Vec<(usize, u32, Option<u32>)>,
}

impl TheirStyle {
    /// Notes what they fired on the previous turn, from what their score `gained` since (a drop's
    /// chain score is `chain_score(links)`; a gain that is no chain score, the skill's, is not a
    /// fire).
    pub(super) fn observe(&mut self, turn: usize, gained: u64) {
        let Some(links) = (STYLE_MIN_LINKS..=MAX_CHAIN_LINKS).find(|&l| chain_score(l) == gained) else { return };
        let fired_at = turn.saturating_sub(1);
        let potential = self
            .last_probe
            .as_ref()
            .filter(|(probed, _)| *probed == fired_at)
            .map(|(_, menu)| menu.iter().take(POTENTIAL_TURNS + 1).copied().max().unwrap_or(0));
        self.fires.push((fired_at, links, potential));
    }

    /// Keeps this turn's probe of their field.
    pub(super) fn remember(&mut self, turn: usize, menu: Vec<u32>) {
        self.last_probe = Some((turn, menu));
    }

    /// "13@11 of 20 in reach, ..." for each fire seen; None before any.
    pub(super) fn describe(&self) -> Option<String> {
        let fires: Vec<String> = self
            .fires
            .iter()
            .map(|&(turn, links, potential)| match potential {
                Some(p) => format!("{links}@{turn} of {p} in reach"),
                None => format!("{links}@{turn}"),
            })
            .collect();
        (!fires.is_empty()).then(|| fires.join(", "))
    }
}

/// The longest chain a style reading looks for: a score gain that is no chain's score up to this
/// is not a fire (the chains played stay far below it).
const MAX_CHAIN_LINKS: u32 = 40;

/// The potential of a probe: the largest chain within this many turns (the depth of the probe of
/// their field, and of `calibrate`'s).
pub const POTENTIAL_TURNS: usize = 10;

/// A menu as `links@turn` where it grows (the largest chain fireable by each turn), from
/// `links[d]`, the largest chain fireable at turn `start_turn + d`; "none" when empty.
pub(super) fn menu_text(start_turn: usize, links: &[u32]) -> String {
    let mut best = 0;
    let mut growth = Vec::new();
    for (d, &l) in links.iter().enumerate() {
        if l > best {
            best = l;
            growth.push(format!("{l}@{}", start_turn + d));
        }
    }
    if growth.is_empty() {
        "none".to_string()
    } else {
        growth.join(" ")
    }
}

/// Our plan's menus from `turn` on: what its own line makes ready at each turn, and what its
/// search found fireable on any line (a chain the plan no longer leads to).
pub(super) fn plan_menu_text(plan: &Plan, turn: usize) -> String {
    let from = |links: &[u32]| turn.saturating_sub(plan.start_turn).min(links.len());
    let at = turn.max(plan.start_turn);
    format!(
        "on the plan's line {}, on any line {}",
        menu_text(at, &plan.line_links[from(&plan.line_links)..]),
        menu_text(at, &plan.threats[from(&plan.threats)..])
    )
}

/// Their garbage stock once our chain of `links` fired now has been added and offset against ours:
/// what the counter analysis probes their answer under.
pub fn stock_after_our_fire<S>(state: &TurnState<S>, links: u32) -> u32 {
    (state.opponent.garbage + chain_garbage(links)).saturating_sub(state.me.garbage)
}

/// What the race knows besides the turn's state: our plan, what it has seen the opponent do, and
/// the chains both sides can fire now.
pub(super) struct Known<'a> {
    pub plan: Option<&'a Plan>,
    pub style: &'a TheirStyle,
    pub fires_now: FiresNow,
    /// Whether to ask if the chain race is lost (not in skill mode already, nor off by flag).
    pub check_skill: bool,
}

/// Reads the race from both fields: the counter analysis (when a chain of ours is ready) and,
/// when `check_skill`, whether to give the chain race up for the skill. Probes of the opponent
/// run until `end`.
pub(super) fn read(
    options: &BotOptions,
    state: &TurnState<Engine>,
    known: Known<'_>,
    end: Instant,
    why: &mut String,
) -> Reading {
    let Known { plan, style, fires_now, check_skill } = known;
    let mut reading = Reading::default();
    let d = &options.decide;
    let node_budget = (options.beam.node_budget > 0).then_some(options.beam.node_budget);
    let FiresNow { ours: ours_now, theirs: theirs_now } = fires_now;
    let race =
        d.counter_race_turns > 0 && state.turn <= d.counter_race_last_turn && ours_now >= d.counter_race_min_links;
    let counter =
        !d.no_counter && ours_now >= d.counter_min_links && (ours_now > theirs_now || (race && ours_now == theirs_now));
    if !counter && !check_skill {
        let _ = writeln!(
            why,
            "  race: no probe (we fire {ours_now} now, they {theirs_now}: no counter analysis; skill mode on, or off by flag)"
        );
        return reading;
    }
    let their_menu = |depth: usize, garbage: u32, end: Instant| -> BeamResult {
        let start = Start { field: &state.opponent.field, packs: state.packs, turn: state.turn, garbage };
        probe_for_bot(options, start, depth, end, node_budget)
    };
    let now = Instant::now();
    let waiting_end = if counter { slice(now, end, 0.5) } else { end };
    let waiting = their_menu(d.counter_wait_turns.max(POTENTIAL_TURNS), state.opponent.garbage, waiting_end);
    let ours = plan.map_or(String::from("no plan"), |p| plan_menu_text(p, state.turn));
    let theirs = waiting.threats();
    let fired = style.describe().map_or(String::new(), |f| format!(" | their fires: {f}"));
    let _ = writeln!(
        why,
        "  race menus: ours now {ours_now}, {ours} | theirs now {theirs_now}, {}{fired}",
        menu_text(state.turn, &theirs)
    );
    reading.their_menu = Some(theirs);
    if counter {
        let c3 = waiting.best_within(d.counter_wait_turns);
        let sent = chain_garbage(ours_now);
        let stock = stock_after_our_fire(state, ours_now);
        let answered = their_menu(d.counter_answer_turns, stock, end);
        let probed = answered.best_within(d.counter_answer_turns);
        let c4 = if probed > 0 { probed + d.counter_answer_margin } else { 0 };
        let (c1, mine, theirs) = (ours_now, sent as i64, chain_garbage(c4) as i64);
        // What we reach by waiting as long: our plan's menu (the chain ready now at least).
        let ours_waiting = plan.map_or(0, |p| p.best_within(state.turn, d.counter_wait_turns)).max(c1);
        let _ = write!(
            why,
            "  race counter: we fire {c1} now, they {theirs_now}; if we wait they reach {c3}, we {ours_waiting}; \
             they reach {c4} after (probed {probed})"
        );
        let keep_building = !d.no_counter_keep_building && c1 < c4;
        // The race: turns from now until they can fire a chain at least ours, and until our
        // plan fires a longer one.
        let their_first = if theirs_now >= c1 { Some(0) } else { waiting.earliest(c1) }
            .filter(|&k| race && k <= d.counter_race_turns);
        let our_longer = plan
            .filter(|p| p.fire_links.is_some_and(|l| l > c1))
            .and_then(|p| p.fire_turn())
            .map(|t| t.saturating_sub(state.turn));
        if let Some(k) = their_first {
            let ours = our_longer.map_or("never".to_string(), |t| format!("in {t}"));
            let _ = write!(why, "; they can fire {c1}+ in {k}, our plan a longer one {ours}");
        }
        if their_first.is_some_and(|k| our_longer.is_none_or(|t| t > k)) {
            reading.fire_bonus = Some((c1, mine * VALUE_PER_BLOCK));
            let _ = writeln!(why, " → bonus {mine} blocks for firing {c1}+ now (the race: they would fire first)");
        } else if state.me.garbage >= d.counter_under_attack_stock && c1 <= c4 {
            let _ = writeln!(why, " → no adjustment (under attack: waiting buries our chain)");
        } else if c1 > c3 && !keep_building {
            let _ = writeln!(why, " → no adjustment (they have nothing bigger)");
        } else if c1 > c4 {
            reading.fire_bonus = Some((c1, (mine - theirs) * VALUE_PER_BLOCK));
            let _ = writeln!(why, " → bonus {} blocks for firing {c1}+ now", mine - theirs);
        } else if c1 < c4 && c3 > ours_waiting && !d.counter_race_penalty {
            let _ = writeln!(why, " → no adjustment (racing: waiting lets them outgrow us)");
        } else if c1 < c4 {
            let still_building = c1 > c3;
            let penalty = theirs - mine;
            reading.fire_penalty = Some((d.counter_penalty_links, penalty * VALUE_PER_BLOCK));
            let _ = writeln!(
                why,
                " → penalty {penalty} blocks for firing {}+{}",
                d.counter_penalty_links,
                if still_building { " (they are still building: keep building)" } else { "" }
            );
        } else {
            let _ = writeln!(why, " → no adjustment (equal answer)");
        }
    }
    reading.give_up_chains = check_skill && give_up_chains(options, state, plan, &waiting, why);
    reading
}

/// Seed 000 (スキルモードの追加): the chain race is lost when we cannot build anything, or
/// when the opponent reaches 12 links well before we reach anything that could stop it.
fn give_up_chains(
    options: &BotOptions,
    state: &TurnState<Engine>,
    plan: Option<&Plan>,
    opponent: &BeamResult,
    why: &mut String,
) -> bool {
    let d = &options.decide;
    let Some(plan) = plan else { return false };
    let ours_10 = plan.best_within(state.turn, 10);
    let own_garbage = state.me.field.to_field().count(|c| c == GARBAGE);
    // Only when buried: right after our own big chain the field is empty and any chain is
    // far off, but the race is not lost.
    if own_garbage >= d.skill_min_own_garbage && ours_10 <= d.skill_give_up_links {
        let _ = writeln!(why, "  race skill mode: our best chain within 10 turns is {ours_10}");
        return true;
    }
    let theirs_10 = opponent.best_within(10);
    let mut probe = state.me.field;
    let exploded = probe.use_skill().exploded;
    let never = usize::MAX / 2;
    let ours = |links: u32| plan.earliest(links).map_or(never, |t| t.saturating_sub(state.turn));
    let theirs_12 = opponent.earliest(d.skill_opponent_links).unwrap_or(never);
    let give_up = own_garbage >= d.skill_min_own_garbage
        && state.opponent.garbage <= d.skill_max_opponent_stock
        && theirs_10 >= d.skill_opponent_links
        && !(ours_10 >= 9 && exploded < d.skill_min_exploded)
        && ours(12) >= theirs_12 + 3
        && ours(11) >= theirs_12 + 3
        && ours(10) >= theirs_12 + 2
        && ours(9) > theirs_12
        && ours(8) >= theirs_12;
    if give_up {
        let _ = writeln!(why, "  race skill mode: they reach {theirs_10} links within 10 turns, long before us");
    }
    give_up
}

/// The largest chain each side can fire with this turn's pack, in links: measured once a turn
/// for the time manager and the counter analysis.
#[derive(Clone, Copy, Debug)]
pub(super) struct FiresNow {
    pub ours: u32,
    pub theirs: u32,
}

impl FiresNow {
    pub(super) fn of(state: &TurnState<Engine>) -> Self {
        let mut nodes = 0;
        let mut links = |field: &Engine| best_fire(field, state.pack(), &mut nodes).map_or(0, |f| f.chain.links);
        FiresNow { ours: links(&state.me.field), theirs: links(&state.opponent.field) }
    }
}

/// How much this turn's decision matters, for the time manager: decisive when either side can
/// fire a chain that decides the game; critical when a fire decision is near (either side can
/// fire a real chain now, or garbage is pending: someone fired and an answer is due).
pub(super) fn stakes(options: &BotOptions, state: &TurnState<Engine>, fires_now: FiresNow) -> Stakes {
    let d = &options.decide;
    if fires_now.ours.max(fires_now.theirs) >= d.decisive_links {
        Stakes::Decisive
    } else if state.me.garbage > 0
        || state.opponent.garbage > 0
        || fires_now.ours >= d.counter_min_links
        || fires_now.theirs >= d.plan_safety_min_links
    {
        Stakes::Critical
    } else {
        Stakes::Quiet
    }
}

/// What the safety check found.
#[derive(Clone, Debug, Default)]
pub struct Safety {
    /// Subtracted from the plan's move (value units): the garbage it leaves unanswered.
    pub penalty: i64,
    /// When another first move answers their fire better: the search that found it (its menu
    /// holds the answering line).
    pub answer: Option<BeamResult>,
}

/// Seed 000's beam-plan safety check: if the opponent fired its best chain now, while we play
/// the plan's move, what could we send back within a few turns? The plan's move is penalised
/// (value units) by the garbage it leaves unanswered that another first move would answer.
pub fn plan_safety(
    options: &BotOptions,
    state: &TurnState<Engine>,
    plan_action: Action,
    end: Instant,
    node_budget: Option<u64>,
    why: &mut String,
) -> Safety {
    let d = &options.decide;
    let mut nodes = 0;
    let theirs = best_fire(&state.opponent.field, state.pack(), &mut nodes).map_or(0, |f| f.chain.links);
    if theirs < d.plan_safety_min_links || state.turn + 1 >= state.packs.len() {
        return Safety::default();
    }
    let incoming = chain_garbage(theirs);
    let stock = (state.me.garbage + incoming).saturating_sub(state.opponent.garbage);

    // Playing the plan's move, then searching our answer with their garbage falling.
    let mut field = state.me.field;
    let sent_now = field.apply(state.pack(), plan_action).garbage();
    let mut after = stock.saturating_sub(sent_now);
    if after >= GARBAGE_ROW {
        field.drop_garbage_row();
        after -= GARBAGE_ROW;
    }
    let planned = if field.is_dead() {
        sent_now
    } else {
        let start = Start { field: &field, packs: state.packs, turn: state.turn + 1, garbage: after };
        let end_plan = slice(Instant::now(), end, 0.5);
        let found = probe_for_bot(options, start, d.plan_safety_turns, end_plan, node_budget);
        sent_now.max(chain_garbage(found.best_within(d.plan_safety_turns)))
    };
    let _ = write!(why, "  race safety: they fire {theirs} now ({incoming} blocks); the plan answers {planned}");
    if planned >= incoming {
        let _ = writeln!(why, " → safe");
        return Safety::default();
    }
    // Any first move: the same horizon, starting this turn.
    let start = Start { field: &state.me.field, packs: state.packs, turn: state.turn, garbage: stock };
    let found = probe_for_bot(options, start, d.plan_safety_turns + 1, end, node_budget);
    let best = chain_garbage(found.best_within(d.plan_safety_turns + 1));
    let penalty = i64::from(best.min(incoming)) - i64::from(planned);
    if penalty <= 0 {
        let _ = writeln!(why, ", no other move answers more ({best}) → no adjustment");
        return Safety::default();
    }
    let _ = writeln!(why, ", another move {best} → plan move penalised {penalty} blocks");
    Safety { penalty: penalty * VALUE_PER_BLOCK, answer: Some(found) }
}

/// The plan that answers their fire: the safety check's search, its line to the largest chain
/// within the check's horizon (a rebuild's plan, trusted as one).
pub(super) fn answer_plan(options: &BotOptions, mut answer: BeamResult) -> Option<Plan> {
    aim_at_answer(options, &mut answer).then(|| Plan::from_search(&answer, PlanKind::Answer)).flatten()
}

/// Points a search's line at the largest chain of its menu within the safety check's horizon
/// (one turn more than the check looks ahead from the next turn): the chain that can still go
/// off before their garbage lands. False, and the line unchanged, when the menu has no chain.
pub(super) fn aim_at_answer(options: &BotOptions, result: &mut BeamResult) -> bool {
    match result.menu.choose(options.decide.plan_safety_turns + 1) {
        Some(line) => {
            result.line = line.clone();
            true
        }
        None => false,
    }
}

/// A small search of one field (opponent probes, safety check) with the chosen builder, at the
/// counter-analysis width, until `end` or, when the bot runs on a node budget, a twentieth of it.
fn probe_for_bot(
    options: &BotOptions,
    start: Start<'_, Engine>,
    depth: usize,
    end: Instant,
    node_budget: Option<u64>,
) -> BeamResult {
    match node_budget {
        Some(budget) => probe(options, start, depth, None, Some(budget / 20)),
        None => probe(options, start, depth, Some(end), None),
    }
}

/// The race's probe of a field: the largest chain it can fire at each turn ahead (the result's
/// menu), searched with the chosen builder at the counter-analysis width (`--counter-width`,
/// `--counter-chain-width`), until `deadline` or `node_budget` simulations.
pub fn probe(
    options: &BotOptions,
    start: Start<'_, Engine>,
    depth: usize,
    deadline: Option<Instant>,
    node_budget: Option<u64>,
) -> BeamResult {
    let d = &options.decide;
    let beam = BeamConfig {
        width: d.counter_width,
        chain_width: d.counter_chain_width,
        depth,
        deadline,
        node_budget,
        ..options.beam.rebuild(None)
    };
    let anytime = BuilderConfig { depth, deadline, node_budget, ..options.beam.builder(false, None) };
    options.beam.search_with(start, &beam, &anytime)
}

#[cfg(test)]
mod tests {
    use super::{chain_score, menu_text, TheirStyle};

    #[test]
    fn their_fires_are_read_from_their_score_against_the_probe_of_that_turn() {
        let mut style = TheirStyle::default();
        style.observe(9, 0);
        style.remember(9, vec![8, 9, 9]);
        style.observe(10, chain_score(3)); // a small chain does not race
        style.remember(10, vec![11, 13, 13, 15, 20, 20]);
        assert_eq!(style.describe(), None);
        // Turn 11's input shows the 13 links fired on turn 10, when the probe had 20 in reach.
        style.observe(11, chain_score(13));
        assert_eq!(style.describe().as_deref(), Some("13@10 of 20 in reach"));
        // A gain that is no chain's score (the skill's explosion) is not a fire; a fire on a turn
        // their field was not probed has no potential.
        style.observe(12, 33);
        style.observe(14, chain_score(12));
        assert_eq!(style.describe().as_deref(), Some("13@10 of 20 in reach, 12@13"));
    }

    #[test]
    fn a_menu_reads_where_it_grows() {
        assert_eq!(menu_text(10, &[0, 3, 3, 8, 5, 12, 12, 14]), "3@11 8@13 12@15 14@17");
        assert_eq!(menu_text(0, &[0, 0]), "none");
        assert_eq!(menu_text(4, &[]), "none");
    }
}
