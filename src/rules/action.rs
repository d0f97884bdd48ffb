//! A player's command for one turn.

use std::fmt;
use std::str::FromStr;

use super::{MAX_X, ROTATIONS};

/// What a player does in a turn: drop the pack, or use the skill (the pack is then discarded).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Action {
    /// Drop the pack with its left column at `x` (0..=8) after `rotation` (0..=3) clockwise turns.
    Drop { x: u8, rotation: u8 },
    /// Use the skill (legal only with gauge ≥ 80 at the end of the previous turn).
    Skill,
}

impl Action {
    /// Every drop: 9 positions × 4 rotations, in the order (x, rotation).
    pub fn drops() -> impl Iterator<Item = Action> + Clone {
        (0..=MAX_X).flat_map(|x| (0..ROTATIONS).map(move |rotation| Action::Drop { x, rotation }))
    }

    /// Every drop, then the skill when `skill_allowed`.
    pub fn all(skill_allowed: bool) -> impl Iterator<Item = Action> + Clone {
        Self::drops().chain(skill_allowed.then_some(Action::Skill))
    }

    /// A drop, checked: `None` when `x` or `rotation` is out of range.
    pub fn drop(x: u8, rotation: u8) -> Option<Action> {
        (x <= MAX_X && rotation < ROTATIONS).then_some(Action::Drop { x, rotation })
    }
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Action::Drop { x, rotation } => write!(f, "{x} {rotation}"),
            Action::Skill => f.write_str("S"),
        }
    }
}

/// Why a command line is not a legal action.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("expected `x r` with x in 0..=8 and r in 0..=3, or `S`; found {found:?}")]
pub struct ActionParseError {
    pub found: String,
}

impl FromStr for Action {
    type Err = ActionParseError;

    /// Parses a command as the server does: `x r` or `S`, surrounding white space ignored.
    fn from_str(line: &str) -> Result<Self, Self::Err> {
        let err = || ActionParseError { found: line.to_string() };
        let mut words = line.split_whitespace();
        let first = words.next().ok_or_else(err)?;
        if first == "S" {
            return if words.next().is_none() { Ok(Action::Skill) } else { Err(err()) };
        }
        let second = words.next().ok_or_else(err)?;
        if words.next().is_some() {
            return Err(err());
        }
        let x: u8 = first.parse().map_err(|_| err())?;
        let rotation: u8 = second.parse().map_err(|_| err())?;
        Action::drop(x, rotation).ok_or_else(err)
    }
}
