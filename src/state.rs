//! What a strategy thinks about: the turn's input turned into simulator state, with this turn's
//! garbage row already fallen (the input shows the field before it).

use crate::protocol::{PlayerInput, TurnInput};
use crate::rules::{Pack, Packs, Simulator, GARBAGE_ROW, SKILL_THRESHOLD};

/// One player at the moment of choosing an action.
#[derive(Clone, Debug)]
pub struct Position<S> {
    /// The field after this turn's garbage row (if any) fell.
    pub field: S,
    /// Garbage stock left after this turn's drop.
    pub garbage: u32,
    pub gauge: u32,
    pub score: u64,
    pub time_left_ms: u64,
}

impl<S: Simulator> Position<S> {
    /// Applies turn step 1 to the input: one garbage row falls when the stock holds 10.
    pub fn from_input(input: &PlayerInput) -> Self {
        let mut field = S::from_field(&input.field);
        let mut garbage = input.garbage;
        if garbage >= GARBAGE_ROW {
            field.drop_garbage_row();
            garbage -= GARBAGE_ROW;
        }
        Position { field, garbage, gauge: input.gauge, score: input.score, time_left_ms: input.time_left_ms }
    }

    pub fn skill_allowed(&self) -> bool {
        self.gauge >= SKILL_THRESHOLD
    }
}

/// A turn as the bot sees it.
#[derive(Clone, Debug)]
pub struct TurnState<'a, S> {
    pub turn: usize,
    pub packs: &'a Packs,
    pub me: Position<S>,
    pub opponent: Position<S>,
}

impl<'a, S: Simulator> TurnState<'a, S> {
    pub fn new(input: &TurnInput, packs: &'a Packs) -> Self {
        TurnState {
            turn: input.turn,
            packs,
            me: Position::from_input(&input.me),
            opponent: Position::from_input(&input.opponent),
        }
    }

    /// This turn's pack.
    pub fn pack(&self) -> &Pack {
        self.packs.get(self.turn)
    }
}
