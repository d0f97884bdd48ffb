//! The race: what each side can fire, and when, and what the exchanges that follow are worth.
//! Every reason the bot has to fire a ready chain, to hold it back, or to give the chain race up
//! is read here, and `--explain` prints it on lines starting with `race`:
//! - `race menus` (`menus`): the chain each side can fire now, and the largest it can fire by
//!   each turn ahead, as `links@turn` where it grows: ours on our plan's line and on any line its
//!   search kept, theirs from a probe of their field; and the chains of 10+ links they fired in
//!   this game against what they had in reach (`style`);
//! - `race exchange` (`exchange`): when a chain of ours is ready, the small game over both
//!   sides' fire turns: fire it now (their answer probed under our garbage) or wait for our
//!   plan's chain (while they fire first, or wait and answer bigger), and the advice it gives;
//! - `race safety` (`safety`): the exchange if they fire now, and whether the plan's move can
//!   answer it;
//! - `rebuild aims at` (`exchange::aim_at_race`): the chain a rebuild's plan fires, chosen by
//!   its exchange against their menu: before their chain when the largest comes after it.
//!
//! Every turn the race is read, it is also written for machines (`features`): one
//! `race-features {json}` line on stderr, explain or not, the data a fitted value is fitted on.
//!
//! The advice is a bonus or a penalty on the root moves that fire; the midgame exhaustive search
//! then checks the tactics of the move it favours (the skill is one of its moves, chosen when
//! it is worth most, never a mode). Data flows one way: the turn's state and our
//! plan in, probes of both fields, advice out.

mod exchange;
mod features;
mod menus;
mod safety;
mod style;
pub mod value;

use std::fmt::Write as _;
use std::time::Instant;

use crate::rules::GARBAGE_ROW;
use crate::search::chain::{best_fire, tallest};
use crate::state::TurnState;
use crate::Engine;

use super::plan::Plan;
use super::{BotOptions, Stakes};

pub(super) use exchange::{aim_at_race, Exchange, Reading};
pub use exchange::{forces_their_answer, stock_after_our_fire};
pub use features::RaceFeatures;
use menus::probe_their_field;
pub(super) use menus::{menu_text, plan_menu_text, their_menu};
pub use menus::{probe, POTENTIAL_TURNS};
pub(super) use safety::{aim_at_answer, answer_plan};
pub use safety::{plan_safety, Safety};
pub(super) use style::TheirStyle;

/// What the race knows besides the turn's state: our plan, what it has seen the opponent do, and
/// the chains both sides can fire now.
pub(super) struct Known<'a> {
    pub plan: Option<&'a Plan>,
    pub style: &'a TheirStyle,
    pub fires_now: FiresNow,
    /// Their menu this turn ([`their_menu`]).
    pub theirs: &'a [u32],
}

/// Reads the race from both fields: their menu, and, when a chain of ours is ready, the exchange
/// game of firing it now or waiting (their answer probed until `end`).
pub(super) fn read(
    options: &BotOptions,
    state: &TurnState<Engine>,
    known: Known<'_>,
    end: Instant,
    why: &mut String,
) -> Reading {
    let Known { plan, style, fires_now, theirs } = known;
    let mut reading = Reading::default();
    let d = &options.decide;
    let FiresNow { ours: ours_now, theirs: theirs_now } = fires_now;
    let weigh = ours_now >= d.race_min_links;
    let ours = plan.map_or(String::from("no plan"), |p| plan_menu_text(p, state.turn));
    let fired = style.describe().map_or(String::new(), |f| format!(" | their fires: {f}"));
    let _ = writeln!(
        why,
        "  race menus: ours now {ours_now}, {ours} | theirs now {theirs_now}, {}{fired}",
        menu_text(state.turn, theirs)
    );
    if weigh {
        let stock = stock_after_our_fire([state.me.garbage, state.opponent.garbage], ours_now);
        let answered = probe_their_field(options, state, stock, end);
        let forced = forces_their_answer(stock, tallest(&state.opponent.field));
        let our_line = plan.map_or(&[][..], |p| p.line_from(state.turn));
        let their_answer = answered.best_within(POTENTIAL_TURNS);
        let game = Exchange { ours_now, our_line, their_menu: theirs, their_answer, forced };
        let weighed = game.weigh();
        let under_attack = state.me.garbage >= GARBAGE_ROW;
        let advice;
        (reading, advice) = weighed.advice(under_attack);
        reading.their_answer = Some(their_answer);
        let _ = writeln!(why, "  race exchange: {weighed} → {advice}");
        let exchanges = &value::FITTED.exchange;
        let [fire_now, wait] = weighed.odds(exchanges);
        let _ = writeln!(
            why,
            "  race exchange odds: we win {:.0}% firing now, {:.0}% waiting (the first exchanges of {} games)",
            100.0 * fire_now,
            100.0 * wait,
            exchanges.games
        );
    }
    reading
}

/// The largest chain each side can fire with this turn's pack, in links: measured once a turn
/// for the time manager and the race.
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
        || fires_now.ours.max(fires_now.theirs) >= d.race_min_links
    {
        Stakes::Critical
    } else {
        Stakes::Quiet
    }
}
