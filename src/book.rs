//! The book format: race positions taken from recorded games, one JSON line each, and their
//! reader, which checks every position by the rules. The shipped books (`data`) and the games
//! played from a book (`arena`) both read it; `arena::book` writes books from recorded games.
//!
//! A position is kept as the moves that led to it: the referee plays them by the rules (no bot
//! is asked) and hands the game to the bots at the position's turn, so the replay of a game from
//! a book is a whole game, turn 0 onwards, that the viewer and `calibrate` read as any other.

use std::collections::HashSet;
use std::fs;
use std::path::Path;
use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::replay::ReplayState;
use crate::rules::{Action, Field, Game, Pack, Packs, PACK_COUNT};

/// Which moment of the race a position is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "kebab-case")]
pub enum PositionKind {
    /// A few turns before the game's first chain of 10+ links: the race ahead.
    RaceStart,
    /// The start of the turn of the game's first chain of 10+ links.
    FirstChain,
    /// A few turns after both sides' first 10+ chains: the race to rebuild.
    AfterExchange,
}

/// One position of a book (a line of its JSON Lines file).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Position {
    /// The position's name, unique in its book and without `/` (games from it are labelled
    /// `book:ID`, and `gauntlet --compare` pairs games by that label).
    pub id: String,
    pub kind: PositionKind,
    /// The recorded game's folder and its pack file's label.
    pub source: String,
    pub source_packs: String,
    /// The bots that played the recorded game, seat order.
    pub names: [String; 2],
    /// The whole game's packs: 4 digits each (top row, then bottom row), space separated.
    pub packs: String,
    /// The turn the bots play first.
    pub turn: usize,
    /// Turns 0 .. `turn`: each seat's command.
    pub moves: Vec<[String; 2]>,
    /// Turns 0 .. `turn`: each seat's thinking time in ms (the clocks start where they stood).
    pub time_ms: Vec<[u64; 2]>,
    /// Each bot's thinking time for the whole recorded game, in ms.
    pub time_limit_ms: u64,
    /// Both players at the start of `turn` (what the moves lead to; checked when the book is
    /// read), for a reader of the book.
    pub state: [ReplayState; 2],
}

/// What the referee plays before asking the bots: a position's moves and their times.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Prelude {
    pub actions: Vec<[Action; 2]>,
    pub time: Vec<[Duration; 2]>,
    /// The recorded game's time limit: played at another control, the times scale with it.
    pub time_limit: Duration,
}

impl Prelude {
    /// Turn `turn`'s thinking times in a game of `limit` per bot.
    pub fn time_at(&self, turn: usize, limit: Duration) -> [Duration; 2] {
        let scale = limit.as_secs_f64() / self.time_limit.as_secs_f64().max(1e-3);
        self.time[turn].map(|t| t.mul_f64(scale))
    }
}

impl Position {
    /// The label of games played from it (in place of a pack file's path).
    pub fn label(&self) -> String {
        format!("book:{}", self.id)
    }

    /// The seat this project's bot played in the recorded game (its default name), when exactly
    /// one side was it: the side whose position it reached.
    pub fn home_seat(&self) -> Option<usize> {
        let ours = |seat: usize| self.names[seat] == crate::bot::DEFAULT_NAME;
        match (ours(0), ours(1)) {
            (true, false) => Some(0),
            (false, true) => Some(1),
            _ => None,
        }
    }

    pub fn packs(&self) -> Result<Packs, String> {
        decode_packs(&self.packs).map_err(|e| format!("position {}: {e}", self.id))
    }

    pub fn prelude(&self) -> Result<Prelude, String> {
        let actions = self
            .moves
            .iter()
            .enumerate()
            .map(|(turn, m)| {
                let parse = |s: &String| {
                    s.parse::<Action>().map_err(|e| format!("position {}: turn {turn}: {s:?}: {e}", self.id))
                };
                Ok([parse(&m[0])?, parse(&m[1])?])
            })
            .collect::<Result<Vec<_>, String>>()?;
        if self.time_ms.len() != actions.len() || actions.len() != self.turn {
            return Err(format!(
                "position {}: {} moves and {} times for turn {}",
                self.id,
                actions.len(),
                self.time_ms.len(),
                self.turn
            ));
        }
        let time = self.time_ms.iter().map(|t| t.map(Duration::from_millis)).collect();
        Ok(Prelude { actions, time, time_limit: Duration::from_millis(self.time_limit_ms) })
    }

    /// Plays the moves by the rules and checks that they lead to the recorded state with the
    /// game still going (every reader of a book does, and so does the book's writer).
    pub fn check(&self) -> Result<(), String> {
        let mut game = Game::<Field>::new(self.packs()?);
        for (turn, actions) in self.prelude()?.actions.iter().enumerate() {
            game.play(actions.map(Ok));
            if game.result().is_some() {
                return Err(format!("position {}: the game ends at turn {turn}, before the position", self.id));
            }
        }
        for seat in 0..2 {
            if ReplayState::from(&game.players[seat]) != self.state[seat] {
                return Err(format!("position {}: seat {seat}'s moves do not lead to its recorded state", self.id));
            }
        }
        Ok(())
    }
}

/// The packs as a position keeps them: 4 digits a pack, space separated.
pub fn encode_packs(packs: &Packs) -> String {
    let words: Vec<String> =
        packs.0.iter().map(|p| p.rows.iter().flatten().map(|v| char::from(b'0' + v)).collect()).collect();
    words.join(" ")
}

fn decode_packs(text: &str) -> Result<Packs, String> {
    let packs = text
        .split_whitespace()
        .map(|w| {
            let d: Vec<u8> = w.bytes().map(|b| b.wrapping_sub(b'0')).collect();
            match d[..] {
                [a, b, c, e] if d.iter().all(|&v| v <= 9) => Ok(Pack::new([a, b], [c, e])),
                _ => Err(format!("the pack {w:?} is not 4 digits")),
            }
        })
        .collect::<Result<Vec<_>, String>>()?;
    if packs.len() < PACK_COUNT {
        return Err(format!("{} packs, a game needs {PACK_COUNT}", packs.len()));
    }
    Ok(Packs(packs))
}

/// Reads a book: every position, checked (its moves lead to its state).
pub fn read_book(path: &Path) -> Result<Vec<Position>, String> {
    let text = fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    parse_book(&text, &path.display().to_string())
}

/// A book's positions from its text (`label` names it in errors), each checked as [`read_book`]
/// checks them.
pub fn parse_book(text: &str, label: &str) -> Result<Vec<Position>, String> {
    let mut ids = HashSet::new();
    let mut positions = Vec::new();
    for (i, line) in text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty()) {
        let at = |e: String| format!("{label}: line {}: {e}", i + 1);
        let position: Position = serde_json::from_str(line).map_err(|e| at(format!("not a book position: {e}")))?;
        position.check().map_err(at)?;
        if !ids.insert(position.id.clone()) {
            return Err(at(format!("the id {} is used twice", position.id)));
        }
        positions.push(position);
    }
    if positions.is_empty() {
        return Err(format!("{label}: no positions"));
    }
    Ok(positions)
}
