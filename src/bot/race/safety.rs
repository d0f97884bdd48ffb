//! Seed 000's safety check of the plan's move against the chain the opponent can fire now, and
//! the answer plan it finds when another first move answers better.

use std::fmt::Write as _;
use std::time::Instant;

use crate::rules::{chain_garbage, Action, Simulator, GARBAGE_ROW};
use crate::search::chain::{best_fire, BeamResult, Start};
use crate::search::midgame::VALUE_PER_BLOCK;
use crate::state::TurnState;
use crate::Engine;

use crate::bot::plan::{Plan, PlanKind};
use crate::bot::time::slice;
use crate::bot::BotOptions;

use super::menus::probe_for_bot;

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
    if theirs < d.race_min_links || state.turn + 1 >= state.packs.len() {
        return Safety::default();
    }
    // Their chain's garbage, less what ours still has pending on their side (after we fired
    // first, most of their answer only cancels ours): what the plan must answer.
    let incoming = chain_garbage(theirs);
    let net = incoming.saturating_sub(state.opponent.garbage);
    let stock = (state.me.garbage + incoming).saturating_sub(state.opponent.garbage);
    if stock < GARBAGE_ROW {
        let _ = writeln!(
            why,
            "  race safety: they fire {theirs} now ({incoming} blocks, {net} past ours pending) → no row lands: safe"
        );
        return Safety::default();
    }

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
    let _ = write!(
        why,
        "  race safety: they fire {theirs} now ({incoming} blocks, {net} past ours pending); the plan answers {planned}"
    );
    if planned >= net {
        let _ = writeln!(why, " → safe");
        return Safety::default();
    }
    // Any first move: the same horizon, starting this turn.
    let start = Start { field: &state.me.field, packs: state.packs, turn: state.turn, garbage: stock };
    let found = probe_for_bot(options, start, d.plan_safety_turns + 1, end, node_budget);
    let best = chain_garbage(found.best_within(d.plan_safety_turns + 1));
    let penalty = i64::from(best.min(net)) - i64::from(planned);
    if penalty <= 0 {
        let _ = writeln!(why, ", no other move answers more ({best}) → no adjustment");
        return Safety::default();
    }
    let _ = writeln!(why, ", another move {best} → plan move penalised {penalty} blocks");
    Safety { penalty: penalty * VALUE_PER_BLOCK, answer: Some(found) }
}

/// The plan that answers their fire: the safety check's search, its line to the largest chain
/// within the check's horizon (a rebuild's plan, trusted as one).
pub(in crate::bot) fn answer_plan(options: &BotOptions, mut answer: BeamResult) -> Option<Plan> {
    aim_at_answer(options, &mut answer).then(|| Plan::from_search(&answer, PlanKind::Answer)).flatten()
}

/// Points a search's line at the largest chain of its menu within the safety check's horizon
/// (one turn more than the check looks ahead from the next turn): the chain that can still go
/// off before their garbage lands. False, and the line unchanged, when the menu has no chain.
pub(in crate::bot) fn aim_at_answer(options: &BotOptions, result: &mut BeamResult) -> bool {
    match result.menu.choose(options.decide.plan_safety_turns + 1) {
        Some(line) => {
            result.line = line.clone();
            true
        }
        None => false,
    }
}
