//! What the arena writes: one JSON object per game (`--json`) and a replay folder per game
//! (`--replays`).

use std::fs;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::referee::{Chain, PlayedGame, TurnLog};
use crate::rules::{FaultKind, Field, GameEnd, Outcome, PlayerState};

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

#[derive(Serialize)]
struct ReplayTurn {
    turn: usize,
    /// The commands (as the rules read them), or the line that was refused, or null.
    commands: [Option<String>; 2],
    faults: [Option<FaultKind>; 2],
    time_ms: [u64; 2],
    /// Absent when a fault ended the game instead of the turn being played.
    #[serde(skip_serializing_if = "Option::is_none")]
    garbage_fell: Option<[bool; 2]>,
    #[serde(skip_serializing_if = "Option::is_none")]
    outcomes: Option<[ReplayOutcome; 2]>,
    #[serde(skip_serializing_if = "Option::is_none")]
    states: Option<[ReplayState; 2]>,
}

#[derive(Serialize)]
struct ReplayOutcome {
    skill: bool,
    /// Chain links (for the skill: the links after the explosion).
    links: u32,
    /// Blocks the skill exploded.
    exploded: u32,
    /// Blocks the chain links removed.
    vanished: u32,
    score: u64,
    /// Garbage sent (before offsetting).
    garbage: u32,
}

#[derive(Serialize)]
struct ReplayState {
    /// Rows top first: `.` empty, `1`–`9`, `#` garbage; 16 rows, more if a column is above the line.
    field: Vec<String>,
    garbage: u32,
    gauge: u32,
    score: u64,
}

impl ReplayTurn {
    fn new(t: &TurnLog) -> ReplayTurn {
        let outcome = |o: &Outcome| ReplayOutcome {
            skill: o.skill,
            links: o.links,
            exploded: o.exploded,
            vanished: o.vanished,
            score: o.score(),
            garbage: o.garbage(),
        };
        let state = |s: &PlayerState<Field>| ReplayState {
            field: s.field.to_string().lines().map(str::to_string).collect(),
            garbage: s.garbage,
            gauge: s.gauge,
            score: s.score,
        };
        ReplayTurn {
            turn: t.turn,
            commands: t.answers.each_ref().map(|a| match a.action {
                Ok(action) => Some(action.to_string()),
                Err(_) => a.line.clone(),
            }),
            faults: t.answers.each_ref().map(|a| a.action.err()),
            time_ms: t.answers.each_ref().map(|a| a.time.as_millis() as u64),
            garbage_fell: t.record.map(|r| r.garbage_fell),
            outcomes: t.record.map(|r| r.outcomes.each_ref().map(outcome)),
            states: t.states.as_ref().map(|s| s.each_ref().map(state)),
        }
    }
}

/// Writes `input-p0.txt`, `input-p1.txt` and `replay.json` into `dir` (which exists).
/// `replay.json` is `{"result": <the game's JSON line>, "turns": [<one object per turn>]}`.
pub fn write_replay(dir: &Path, line: &GameLine, played: &PlayedGame) -> Result<(), String> {
    let write = |name: &str, bytes: &[u8]| {
        let path = dir.join(name);
        fs::write(&path, bytes).map_err(|e| format!("{}: {e}", path.display()))
    };
    write("input-p0.txt", &played.inputs[0])?;
    write("input-p1.txt", &played.inputs[1])?;
    // `{"result": {...}, "turns": [...]}` with the result and each turn on a line of their own.
    let mut text = format!("{{\"result\": {},\n\"turns\": [", json(line)?);
    for (i, t) in played.turns.iter().enumerate() {
        text.push_str(if i == 0 { "\n" } else { ",\n" });
        text.push_str(&json(&ReplayTurn::new(t))?);
    }
    text.push_str("\n]}\n");
    write("replay.json", text.as_bytes())
}

fn json<T: Serialize>(value: &T) -> Result<String, String> {
    serde_json::to_string(value).map_err(|e| format!("replay.json: {e}"))
}
