//! The full bot (the default strategy), seed 000 from 最善手の探索 on: the turn-0 opening plan,
//! then every turn our plan (kept, rebuilt, or the answer to their fire), the race's reading of
//! both fields ([`super::race`]: fire now or keep building, the plan's safety), and
//! the midgame exhaustive search, which checks the tactics and is told what the plan's move is
//! worth. Data flows one way: state → plan → race → midgame → action.

use std::fmt::Write as _;
use std::time::Instant;

use crate::rules::{chain_garbage, Action, Simulator as _, GARBAGE_ROW};
use crate::search::chain::{either_way, fire_under_two_rows, BeamResult, Start};
use crate::search::midgame::{self, Advice, MidgameParams, VALUE_PER_BLOCK};
use crate::state::TurnState;
use crate::Engine;

use super::plan::{Plan, PlanKind, PlanStep};
use super::race::{
    self, aim_at_answer, aim_at_race, answer_plan, menu_text, plan_safety, stakes, FiresNow, Known, RaceFeatures,
    Safety, TheirStyle,
};
use super::time::slice;
use super::{BotOptions, Stakes, TimeManager};

/// The full bot's decision flags (seed 000's thresholds as defaults).
#[derive(Clone, Debug, clap::Args)]
pub struct DecideParams {
    /// Take the plan's move while its midgame value is within this many garbage blocks of the
    /// best move's: the opening plan's, and the answer plan's (when the safety check finds a
    /// first move answering the opponent's fire better than the plan's, that line becomes the
    /// plan). Both chains go off turns after the midgame search's horizon, which cannot see them.
    #[arg(long, default_value_t = 30)]
    pub plan_margin: i64,
    /// The same for a plan rebuilt in the midgame.
    #[arg(long, default_value_t = 10)]
    pub rebuild_margin: i64,
    /// The race weighs firing against waiting when we can fire at least this many links now, and
    /// the safety check runs when they can (a smaller chain sends less than a row); either
    /// side's makes the turn critical for the clock.
    #[arg(long, default_value_t = 8)]
    pub race_min_links: u32,
    /// A turn is decisive (the time manager gives it the most time) when either side can fire
    /// at least this many links now: a chain that can decide the game. The plan's fire of such a
    /// chain is taken whatever the margin when the race does not penalise it.
    #[arg(long, default_value_t = 12)]
    pub decisive_links: u32,
    /// The race's probes of a field (their menu, their answer, the safety check): states kept
    /// per depth and per chain group at most; the turn's time slice sets the width below that.
    #[arg(long, default_value_t = 4000)]
    pub probe_width: usize,
    /// Midgame depth once low on time.
    #[arg(long, default_value_t = 2)]
    pub low_time_depth: usize,
    /// Share of the turn's budget the rebuild beam may use.
    #[arg(long, default_value_t = 0.3)]
    pub rebuild_share: f64,
    /// Share of the turn's budget the race's probes of their field may use, together.
    #[arg(long, default_value_t = 0.3)]
    pub race_share: f64,
    /// Safety check: turns we are given to answer the opponent's fire.
    #[arg(long, default_value_t = 7)]
    pub plan_safety_turns: usize,
    /// Share of what is left of the turn's budget the safety check's beams may use.
    #[arg(long, default_value_t = 0.2)]
    pub plan_safety_share: f64,
    /// With at least this much garbage pending on our side (their chain is landing), a plan
    /// rebuilt is an answer: the largest chain within the safety check's turns, as the answer
    /// plan (0: rebuilds keep the rebuild's horizon, `--rebuild-plan-turns`).
    #[arg(long, default_value_t = 20)]
    pub answer_min_stock: u32,
}

impl Default for DecideParams {
    fn default() -> Self {
        crate::flag_defaults()
    }
}

/// What the full bot remembers between turns.
#[derive(Clone, Debug, Default)]
pub struct Brain {
    pub plan: Option<Plan>,
    /// Their score at the previous turn, to notice chains fired.
    last_score: Option<u64>,
    /// What the race has seen the opponent fire in this game.
    their_style: TheirStyle,
    /// This turn's race for machines, when the race was read (not while the opening plan is
    /// followed blindly, nor low on time).
    features: Option<RaceFeatures>,
}

/// A refinement of the opening plan uses at most this share of the time left.
const REFINE_SHARE_OF_LEFT: f64 = 0.05;

/// What every phase of one turn's decision shares.
struct Turn<'a> {
    options: &'a BotOptions,
    state: &'a TurnState<'a, Engine>,
    /// The turn's deadline, from the time manager.
    end: Instant,
    /// Low on time: no beams, a shallow midgame search.
    low: bool,
    /// The reproducible budget (`--node-budget`), when set.
    node_budget: Option<u64>,
}

impl Brain {
    pub fn new_game(&mut self) {
        *self = Brain::default();
    }

    /// The race of the last turn thought, as its `race-features` line gives it.
    pub fn features(&self) -> Option<&RaceFeatures> {
        self.features.as_ref()
    }

    /// Decides this turn's action, with an explanation: the plan (the opening's, followed
    /// blindly in the first turns; kept, refined or braced; or built anew), the race's reading
    /// of both fields, the plan's safety, then the midgame search, which takes the plan's move
    /// when it is within the plan's margin of its best.
    pub fn think(
        &mut self,
        options: &BotOptions,
        state: &TurnState<Engine>,
        clock: &TimeManager,
        started: Instant,
    ) -> (Action, String) {
        let mut why = String::new();
        self.features = None;
        let time_left = state.me.time_left_ms;
        let fires_now = FiresNow::of(state);
        let stakes = if state.turn == 0 { Stakes::Quiet } else { stakes(options, state, fires_now) };
        let turn = Turn {
            options,
            state,
            end: clock.turn_deadline(started, state.turn, time_left, options.beam.opening_ms, stakes),
            low: clock.low_on_time(time_left),
            node_budget: (options.beam.node_budget > 0).then_some(options.beam.node_budget),
        };
        let _ = writeln!(
            why,
            "  budget {} ms of {} ms left{}{}",
            turn.end.saturating_duration_since(started).as_millis(),
            time_left,
            stakes.label(),
            if turn.low { " (low on time: no beams, shallow search)" } else { "" }
        );
        let their_gain = self.last_score.map_or(0, |theirs| state.opponent.score.saturating_sub(theirs));
        self.last_score = Some(state.opponent.score);
        self.their_style.observe(state.turn, their_gain);

        if state.turn == 0 {
            let result = build_chain(options, state, true, turn.end);
            let _ = writeln!(why, "  opening {}: {}", options.beam.builder.name(), describe(&result));
            self.plan = Plan::from_search(&result, PlanKind::Opening);
        }
        let mut step = self.plan.as_ref().and_then(|p| p.step(state));
        if let Some(s) = step.filter(|_| state.turn < options.plan_unconditional_turns) {
            let action = self.early_turn(&turn, clock, started, s, &mut why);
            return (action, why);
        }
        if step.is_some_and(|s| !s.on_plan) {
            let _ = writeln!(why, "  plan dropped: the field is not the one it expected");
            self.plan = None;
            step = None;
        }
        // A plan played to its end (it fired its chain) must make way for the next one: kept,
        // it blocked every rebuild, and its exhausted menu read as "no chain within 10 turns".
        if step.is_none() && self.plan.take().is_some() {
            let _ = writeln!(why, "  plan finished: building the next chain");
        }

        // Their menu, probed first: a rebuild aims at the race against it.
        let theirs = (!turn.low).then(|| {
            let end = slice(Instant::now(), turn.end, options.decide.race_share / 2.0);
            race::their_menu(options, state, end)
        });
        if let (Some(theirs), Some(s)) = (&theirs, step) {
            let end = slice(Instant::now(), turn.end, options.decide.rebuild_share);
            if let Some(s) = self.brace_for_their_first_fire(options, state, theirs, s, end, &mut why) {
                step = Some(s);
            }
        }
        if let (None, Some(theirs)) = (&self.plan, &theirs) {
            step = self.new_plan(&turn, theirs, &mut why);
        }

        let mut advice = Advice { plan_action: step.map(|s| s.action), ..Advice::default() };
        if let Some(theirs) = theirs {
            let beams_end = slice(Instant::now(), turn.end, options.decide.race_share);
            let known = Known { plan: self.plan.as_ref(), style: &self.their_style, fires_now, theirs: &theirs };
            let reading = race::read(options, state, known, beams_end, &mut why);
            let features = RaceFeatures::of(state, fires_now, self.plan.as_ref(), &theirs, &reading);
            let model = &race::value::FITTED.position;
            let _ = writeln!(
                why,
                "  race value: we win {:.0}% (the model fitted on {} games, data/race-model.json)",
                100.0 * model.win_probability(&features),
                model.games
            );
            self.features = Some(features);
            self.their_style.remember(state.turn, theirs);
            advice.fire_bonus = reading.fire_bonus;
            advice.fire_penalty = reading.fire_penalty;
        } else {
            let _ = writeln!(why, "  race: not read (low on time)");
        }
        let safety_penalty = self.check_safety(&turn, &mut step, &mut advice, &mut why);
        let action = self.midgame_decision(&turn, step, &advice, safety_penalty, &mut why);
        (action, why)
    }

    /// A turn before `--plan-unconditional-turns`: the opening plan's step, followed blindly
    /// (nobody fires that early), its plan refined first when the field is the expected one.
    fn early_turn(
        &mut self,
        turn: &Turn,
        clock: &TimeManager,
        started: Instant,
        step: PlanStep,
        why: &mut String,
    ) -> Action {
        let (options, state) = (turn.options, turn.state);
        let step = match step.on_plan && state.turn > 0 && !turn.low && options.beam.refine_ms > 0 {
            true => {
                let time_left = state.me.time_left_ms;
                let end = clock.deadline(started, options.beam.refine_ms, time_left, REFINE_SHARE_OF_LEFT);
                self.refine_plan(options, state, end, why).unwrap_or(step)
            }
            false => step,
        };
        let ours = self.plan.as_ref().map_or("no plan".to_string(), |p| race::plan_menu_text(p, state.turn));
        let _ = writeln!(
            why,
            "  race: not read before turn {} (nobody fires that early); ours {ours}",
            options.plan_unconditional_turns
        );
        let _ = writeln!(why, "  decided: opening plan step {} (early turns follow it blindly)", step.index + 1);
        step.action
    }

    /// A new plan when there is none: under attack the chain must go off before the rows bury
    /// it (the answer's horizon, not the rebuild's); otherwise the chain that wins the exchange
    /// against their menu (the largest within the rebuild's horizon lets them fire first). Its
    /// first step.
    fn new_plan(&mut self, turn: &Turn, theirs: &[u32], why: &mut String) -> Option<PlanStep> {
        let (options, state) = (turn.options, turn.state);
        let end = slice(Instant::now(), turn.end, options.decide.rebuild_share);
        let mut result = build_chain(options, state, false, end);
        let d = &options.decide;
        let attacked = d.answer_min_stock > 0 && state.me.garbage >= d.answer_min_stock;
        let kind = if attacked && aim_at_answer(options, &mut result) {
            PlanKind::Answer
        } else {
            if let Some(aim) = aim_at_race(&mut result, theirs, d.race_min_links, options.beam.rebuild_plan_turns) {
                let odds = &race::value::FITTED.exchange;
                let _ = writeln!(
                    why,
                    "  rebuild aims at {} against their {}{}",
                    aim.chosen.describe(state.turn, odds),
                    menu_text(state.turn, theirs),
                    aim.others_text(state.turn, odds)
                );
            }
            PlanKind::Rebuild
        };
        let name = if kind == PlanKind::Answer { "answer" } else { "rebuild" };
        let _ = writeln!(why, "  {name} {}: {}", options.beam.builder.name(), describe(&result));
        self.plan = Plan::from_search(&result, kind);
        self.plan.as_ref().and_then(|p| p.step(state))
    }

    /// The plan's safety against their fire now: the penalty on the plan's move. When another
    /// first move answers their fire better, its line becomes the plan (`step` and the advice's
    /// plan move follow it) and the penalty is dropped: the midgame search sees only a few
    /// plies, and the chain that answers is further off.
    fn check_safety(&mut self, turn: &Turn, step: &mut Option<PlanStep>, advice: &mut Advice, why: &mut String) -> i64 {
        let (options, state) = (turn.options, turn.state);
        let safety = match advice.plan_action {
            Some(action) if !turn.low => {
                let end = slice(Instant::now(), turn.end, options.decide.plan_safety_share);
                plan_safety(options, state, action, end, turn.node_budget, why)
            }
            _ => Safety::default(),
        };
        let Some(plan) = safety.answer.and_then(|answer| answer_plan(options, answer)) else {
            return safety.penalty;
        };
        let _ = writeln!(
            why,
            "  answer plan: fires {} links at turn {} (replaces the plan)",
            plan.fire_links.unwrap_or(0),
            plan.fire_turn().unwrap_or(state.turn)
        );
        self.plan = Some(plan);
        *step = self.plan.as_ref().and_then(|p| p.step(state));
        advice.plan_action = step.map(|s| s.action);
        0
    }

    /// The midgame search, told the plan's move and the race's advice; the plan's move when its
    /// value (less `safety_penalty`) is within the plan's margin of the best, else the search's
    /// best move (and the plan is dropped: its next field will not come).
    fn midgame_decision(
        &mut self,
        turn: &Turn,
        step: Option<PlanStep>,
        advice: &Advice,
        safety_penalty: i64,
        why: &mut String,
    ) -> Action {
        let options = turn.options;
        let mut params: MidgameParams = options.midgame.clone();
        if turn.low {
            params.depth = params.depth.min(options.decide.low_time_depth);
        }
        let result = midgame::search(turn.state, &params, advice, Some(turn.end), turn.node_budget.map(|b| b / 10));
        let _ = writeln!(
            why,
            "  midgame: depth {}, {} nodes; best {} value {}{}",
            result.depth,
            result.nodes,
            result.best,
            result.value,
            result.plan_value.map_or(String::new(), |v| format!("; plan move value {v}"))
        );
        // Values the search only bounded (alpha-beta) are shown as "≤".
        let mut ranked: Vec<(Action, i64, bool)> =
            result.root.iter().zip(&result.root_exact).map(|(&(a, v), &exact)| (a, v, exact)).collect();
        ranked.sort_by_key(|&(_, v, exact)| (std::cmp::Reverse(exact), std::cmp::Reverse(v)));
        let top: Vec<String> =
            ranked.iter().take(5).map(|(a, v, exact)| format!("{a}: {}{v}", if *exact { "" } else { "≤" })).collect();
        let _ = writeln!(why, "  midgame top moves: {}", top.join(", "));

        if let (Some(s), Some(plan_value), Some(plan)) = (step, result.plan_value, self.plan.as_ref()) {
            let margin = match plan.kind {
                PlanKind::Opening | PlanKind::Answer => options.decide.plan_margin,
                PlanKind::Rebuild => options.decide.rebuild_margin,
            };
            if plan_value - safety_penalty >= result.value - margin * VALUE_PER_BLOCK {
                let _ = writeln!(
                    why,
                    "  decided: plan step {} of {} (within {margin} blocks of the best)",
                    s.index + 1,
                    plan.actions.len()
                );
                return s.action;
            }
            if self.plan_fires_decisive_chain(options, s, advice) && !found_kill_or_death(&params, &result) {
                let _ = writeln!(why, "  decided: plan step {} of {}, its fire", s.index + 1, plan.actions.len());
                return s.action;
            }
        }
        if step.is_some() {
            if safety_penalty > 0 {
                let _ = writeln!(why, "  plan rejected: its move is unsafe against their fire now");
            }
            self.plan = None;
        }
        let _ = writeln!(why, "  decided: the midgame search's best move");
        result.best
    }

    /// Whether `step` fires the plan's chain of `--decisive-links` or more, a fire the race's
    /// exchange game does not penalise. Such a fire is the race's call, not the midgame
    /// search's: a ready chain held back answers any attack within the search's few plies, so
    /// the search values holding it, while the race weighs what the opponent builds meanwhile.
    fn plan_fires_decisive_chain(&self, options: &BotOptions, step: PlanStep, advice: &Advice) -> bool {
        let Some(plan) = self.plan.as_ref() else { return false };
        let fires = plan.fire_links.is_some_and(|links| links >= options.decide.decisive_links);
        fires && step.index + 1 == plan.actions.len() && advice.fire_penalty.is_none()
    }

    /// The opening plan braced for their first fire: when their menu can fire a chain sending
    /// two rows or more two turns before our plan's fire or sooner, their rows land on the turn
    /// before our fire and on it, and the plan's chain (measured under one row) may not survive
    /// them. Its search runs again (until `end`) with the fires measured under two rows too
    /// ([`crate::search::beam::BeamConfig::two_rows`]), and a plan whose chain goes off either
    /// way replaces it when it is surer than the current plan under the same two rows
    /// ([`Plan::improves_on`]). Only where their field says so: against a builder that fires
    /// late the plan keeps the chain that is largest when nothing lands (session 54's candidate
    /// 16 measured every opening under two rows and lost 6 of 24 files to kera).
    fn brace_for_their_first_fire(
        &mut self,
        options: &BotOptions,
        state: &TurnState<Engine>,
        theirs: &[u32],
        step: PlanStep,
        end: Instant,
        why: &mut String,
    ) -> Option<PlanStep> {
        let two_rows = options.beam.plan_two_rows;
        let current = self.plan.as_ref().filter(|p| p.kind == PlanKind::Opening && step.on_plan && two_rows > 0)?;
        let fire_turn = current.fire_turn().filter(|&t| t >= state.turn + 2)?;
        let (their_turn, their_links) = fire_lands_two_rows_before(theirs, state.turn, fire_turn)?;
        // The current plan measured under the same two rows: the field it expects the turn
        // before its fire, a row, that turn's move chosen again, a row, its best fire.
        let before = Engine::from_field(current.expected_at(fire_turn - 1)?);
        let mut nodes = 0;
        let packs = state.packs;
        let two = fire_under_two_rows(
            &before,
            packs.get(fire_turn - 1),
            packs.get(fire_turn),
            options.beam.build_chain_max,
            &mut nodes,
        );
        let mut braced = current.clone();
        braced.under_row = Some(current.under_row.map_or(two, |one| one.min(two)));
        let start = Start { field: &state.me.field, packs, turn: state.turn, garbage: state.me.garbage };
        let result = options.beam.refine(start, true, fire_turn, two_rows, Some(end));
        let refined = Plan::from_search(&result, PlanKind::Opening);
        let better = refined.filter(|p| p.improves_on(&braced));
        let sure = |p: &Plan| either_way(p.under_row, p.fire_links).map_or("nothing".to_string(), |l| format!("{l}"));
        let _ = writeln!(
            why,
            "  brace: their {their_links}@{} lands two rows before our fire at {fire_turn}; under two rows \
             the plan fires {} of {} → {}",
            their_turn,
            sure(&braced),
            braced.fire_links.unwrap_or(0),
            better.as_ref().map_or("kept".to_string(), |p| format!(
                "replaced: fires {} of {} at turn {}",
                sure(p),
                p.fire_links.unwrap_or(0),
                p.fire_turn().unwrap_or(0)
            ))
        );
        self.plan = Some(better?);
        self.plan.as_ref().and_then(|p| p.step(state))
    }

    /// A plan's refinement: its search runs again from the field reached (on the plan), until
    /// `end`; a plan firing a longer chain by the same turn, or as long a chain sooner,
    /// replaces it. The new plan's step, when it did. Not for a plan firing this turn, nor for
    /// an answer (its turn is bound to the garbage falling).
    fn refine_plan(
        &mut self,
        options: &BotOptions,
        state: &TurnState<Engine>,
        end: Instant,
        why: &mut String,
    ) -> Option<PlanStep> {
        let current = self.plan.as_ref().filter(|p| p.kind != PlanKind::Answer)?;
        let fire_turn = current.fire_turn().filter(|&t| t > state.turn)?;
        let opening = current.kind == PlanKind::Opening;
        let start = Start { field: &state.me.field, packs: state.packs, turn: state.turn, garbage: state.me.garbage };
        let result = options.beam.refine(start, opening, fire_turn, 0, Some(end));
        let refined = Plan::from_search(&result, current.kind);
        let fires = |p: &Plan| {
            p.fire_links.zip(p.fire_turn()).map_or("nothing".to_string(), |(l, t)| format!("{l} links at turn {t}"))
        };
        let better = refined.filter(|p| p.improves_on(current));
        let _ = writeln!(
            why,
            "  refine: {}; the plan fires {} → {}",
            describe(&result),
            fires(current),
            better.as_ref().map_or("kept".to_string(), |p| format!("replaced: fires {}", fires(p)))
        );
        self.plan = Some(better?);
        self.plan.as_ref().and_then(|p| p.step(state))
    }
}

/// Whether the midgame search found a kill (a value past half the kill bonus) or our death
/// with the plan's move (past half the death penalty): tactics that overrule the race's call.
fn found_kill_or_death(params: &MidgameParams, result: &midgame::MidgameResult) -> bool {
    let death = result.plan_value.is_some_and(|v| v <= -params.death_penalty / 2);
    result.value >= params.kill_bonus / 2 || death
}

/// The first chain of their menu (`theirs[k]`: the largest they can fire `k` turns after `turn`)
/// that sends two rows or more and goes off two turns before our fire at `fire_turn` or sooner,
/// so that its rows land on the turn before our fire and on it: its turn and links.
fn fire_lands_two_rows_before(theirs: &[u32], turn: usize, fire_turn: usize) -> Option<(usize, u32)> {
    let turns = (fire_turn.checked_sub(turn + 1)?).min(theirs.len());
    (0..turns).find(|&k| chain_garbage(theirs[k]) >= 2 * GARBAGE_ROW).map(|k| (turn + k, theirs[k]))
}

/// Our chain from this turn's field with the chosen builder: the opening plan or a rebuild.
fn build_chain(options: &BotOptions, state: &TurnState<Engine>, opening: bool, end: Instant) -> BeamResult {
    let start = Start { field: &state.me.field, packs: state.packs, turn: state.turn, garbage: state.me.garbage };
    options.beam.build(start, opening, Some(end))
}

fn describe(result: &BeamResult) -> String {
    let line = &result.line;
    let fire = line.best_fire_step().and_then(|k| line.fires[k].map(|f| (k, f)));
    let under_row = match (fire, line.under_row) {
        (Some((k, _)), Some(links)) if k + 1 == line.fires.len() => format!(" ({links} if their garbage falls first)"),
        _ => String::new(),
    };
    format!(
        "{} nodes, depth {}{}{under_row}; best by turn {}",
        result.nodes,
        result.depth,
        fire.map_or(String::new(), |(k, f)| format!(", fires {} links at turn {}", f.chain.links, line.start_turn + k)),
        menu_text(line.start_turn, &result.threats())
    )
}

#[cfg(test)]
mod tests {
    use super::{fire_lands_two_rows_before, DecideParams};

    /// Issue 70 caps the decision's hand-set knobs at eleven: a value fitted to games replaces a
    /// flag, it does not add one.
    #[test]
    fn the_decision_has_at_most_eleven_flags() {
        use clap::Args;
        let command = DecideParams::augment_args(clap::Command::new("decide"));
        let flags: Vec<&str> = command.get_arguments().map(|a| a.get_id().as_str()).collect();
        assert!(flags.len() <= 11, "{} decision flags: {flags:?}", flags.len());
    }

    /// Their menu from turn 8 (togatoga's field of pack file 0006 at turn 8) against our plan
    /// firing at turn 13: their 10 at 10 sends two rows, which land before our fire.
    #[test]
    fn their_chain_two_turns_before_our_fire_is_the_one_to_brace_for() {
        let theirs = [2, 3, 10, 13, 13, 14];
        assert_eq!(fire_lands_two_rows_before(&theirs, 8, 13), Some((10, 10)));
        // A 9 sends one row: not two.
        assert_eq!(fire_lands_two_rows_before(&[2, 3, 9, 9, 13, 14], 8, 13), None);
        // Their 13 the turn before our fire lands one row on it: the one-row measure's case.
        assert_eq!(fire_lands_two_rows_before(&[2, 3, 9, 13, 13], 8, 12), None);
        assert_eq!(fire_lands_two_rows_before(&[2, 3, 10, 13, 13], 8, 12), Some((10, 10)));
        // Our fire next turn: nothing lands before it that the plan could brace for.
        assert_eq!(fire_lands_two_rows_before(&[12, 12], 8, 9), None);
        assert_eq!(fire_lands_two_rows_before(&[12, 12], 8, 8), None);
    }
}
