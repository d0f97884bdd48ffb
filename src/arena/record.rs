//! What the arena writes: one JSON object per game (`--json`) and a replay folder per game
//! (`--replays`). The replay types also read `replay.json` back (for `codevs-reborn view`).

use std::fs;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::referee::{Chain, PlayedGame, TurnLog};
use crate::rules::{FaultKind, Field, GameEnd, Outcome, PlayerState};

/// The file name of a game's replay in its folder.
pub const REPLAY_FILE: &str = "replay.json";
/// The file name of a game's HTML viewer page in its folder.
pub const PAGE_FILE: &str = "game.html";

/// One game's line in the `--json` file (JSON Lines), seats in that game's order.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameLine {
    /// The game's index (0-based; games 2k and 2k+1 share packs with sides swapped).
    pub game: usize,
    /// The pack file's path, or `seed:N` for generated packs.
    pub packs: String,
    /// The names the bots printed, player 0 first.
    pub names: [String; 2],
    /// The commands playing as player 0 and player 1.
    pub commands: [String; 2],
    /// 0 or 1, or -1 for a draw.
    pub winner: i8,
    pub reason: GameEnd,
    /// Turns begun, the last one included.
    pub turns: usize,
    pub scores: [u64; 2],
    /// Each player's largest chain (links of drops and skill chains) and its first turn.
    pub max_chain: [Option<Chain>; 2],
    /// Each player's first chain of 10 links or more.
    pub first_chain_10: [Option<Chain>; 2],
    /// Each player's fault in the last turn, if any.
    pub faults: [Option<FaultKind>; 2],
    /// Thinking time each player used, in ms.
    pub time_ms: [u64; 2],
}

impl GameLine {
    pub fn new(game: usize, packs: String, commands: [String; 2], played: &PlayedGame) -> GameLine {
        let r = &played.result;
        GameLine {
            game,
            packs,
            names: played.names.clone(),
            commands,
            winner: r.winner.map_or(-1, |w| w as i8),
            reason: r.reason,
            turns: r.turns,
            scores: r.scores,
            max_chain: played.max_chain,
            first_chain_10: played.first_chain_10,
            faults: played.faults,
            time_ms: played.time_used.map(|t| t.as_millis() as u64),
        }
    }
}

/// The folder of game `game` under the replay directory.
pub fn replay_dir(root: &Path, game: usize) -> PathBuf {
    root.join(format!("game-{game:04}"))
}

/// `replay.json`: the game's JSON line, then the turns; written with the result and each turn on
/// a line of their own so the file reads (and diffs) turn by turn.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Replay {
    pub result: GameLine,
    /// Each bot's thinking time for the whole game, in ms (absent in replays written before it
    /// was recorded).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub time_limit_ms: Option<u64>,
    /// The packs of the turns played, in order, each as the protocol gives it: rows top first
    /// (absent in replays written before the packs were recorded: `input-p0.txt` holds them).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub packs: Option<Vec<[[u8; 2]; 2]>>,
    pub turns: Vec<ReplayTurn>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReplayTurn {
    pub turn: usize,
    /// The commands (as the rules read them), or the line that was refused, or null.
    pub commands: [Option<String>; 2],
    pub faults: [Option<FaultKind>; 2],
    pub time_ms: [u64; 2],
    /// Absent when a fault ended the game instead of the turn being played.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub garbage_fell: Option<[bool; 2]>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub outcomes: Option<[ReplayOutcome; 2]>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub states: Option<[ReplayState; 2]>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReplayOutcome {
    pub skill: bool,
    /// Chain links (for the skill: the links after the explosion).
    pub links: u32,
    /// Blocks the skill exploded.
    pub exploded: u32,
    /// Blocks the chain links removed.
    pub vanished: u32,
    pub score: u64,
    /// Garbage sent (before offsetting).
    pub garbage: u32,
}

impl From<&Outcome> for ReplayOutcome {
    fn from(o: &Outcome) -> Self {
        ReplayOutcome {
            skill: o.skill,
            links: o.links,
            exploded: o.exploded,
            vanished: o.vanished,
            score: o.score(),
            garbage: o.garbage(),
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReplayState {
    /// Rows top first: `.` empty, `1`–`9`, `#` garbage; 16 rows, more if a column is above the line.
    pub field: Vec<String>,
    pub garbage: u32,
    pub gauge: u32,
    pub score: u64,
}

impl From<&PlayerState<Field>> for ReplayState {
    fn from(s: &PlayerState<Field>) -> Self {
        ReplayState {
            field: s.field.to_string().lines().map(str::to_string).collect(),
            garbage: s.garbage,
            gauge: s.gauge,
            score: s.score,
        }
    }
}

impl ReplayTurn {
    fn new(t: &TurnLog) -> ReplayTurn {
        ReplayTurn {
            turn: t.turn,
            commands: t.answers.each_ref().map(|a| match a.action {
                Ok(action) => Some(action.to_string()),
                Err(_) => a.line.clone(),
            }),
            faults: t.answers.each_ref().map(|a| a.action.err()),
            time_ms: t.answers.each_ref().map(|a| a.time.as_millis() as u64),
            garbage_fell: t.record.map(|r| r.garbage_fell),
            outcomes: t.record.map(|r| r.outcomes.each_ref().map(ReplayOutcome::from)),
            states: t.states.as_ref().map(|s| s.each_ref().map(ReplayState::from)),
        }
    }
}

/// Writes `input-p0.txt`, `input-p1.txt`, `replay.json` and its viewer page `game.html` into
/// `dir` (which exists). `replay.json` is a [`Replay`]: `{"result": <the game's JSON line>,
/// "time_limit_ms": .., "packs": [..], "turns": [<one object per turn>]}`.
pub fn write_replay(dir: &Path, line: &GameLine, played: &PlayedGame) -> Result<(), String> {
    let write = |name: &str, bytes: &[u8]| {
        let path = dir.join(name);
        fs::write(&path, bytes).map_err(|e| format!("{}: {e}", path.display()))
    };
    write("input-p0.txt", &played.inputs[0])?;
    write("input-p1.txt", &played.inputs[1])?;
    let packs: Vec<[[u8; 2]; 2]> = played.packs.iter().map(|p| p.rows).collect();
    let mut text = format!("{{\"result\": {},\n", json(line)?);
    text.push_str(&format!("\"time_limit_ms\": {},\n", played.time_limit.as_millis()));
    text.push_str(&format!("\"packs\": {},\n", json(&packs)?));
    text.push_str("\"turns\": [");
    for (i, t) in played.turns.iter().enumerate() {
        text.push_str(if i == 0 { "\n" } else { ",\n" });
        text.push_str(&json(&ReplayTurn::new(t))?);
    }
    text.push_str("\n]}\n");
    write(REPLAY_FILE, text.as_bytes())?;
    crate::view::write_page(&dir.join(REPLAY_FILE), &dir.join(PAGE_FILE))
}

fn json<T: Serialize>(value: &T) -> Result<String, String> {
    serde_json::to_string(value).map_err(|e| format!("{REPLAY_FILE}: {e}"))
}
