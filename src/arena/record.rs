//! What the arena writes: one JSON object per game (`--json`) and a replay folder per game
//! (`--replays`), in the format of [`crate::replay`].

use std::fs;
use std::path::{Path, PathBuf};

use serde::Serialize;

use super::referee::{PlayedGame, TurnLog};
pub use crate::replay::GameLine;
use crate::replay::{ReplayOutcome, ReplayState, ReplayTurn, PAGE_FILE, REPLAY_FILE};

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
            first_chain_10: played.chains_10.each_ref().map(|c| c.first().copied()),
            chains_10: Some(played.chains_10.clone()),
            faults: played.faults,
            time_ms: played.time_used.map(|t| t.as_millis() as u64),
            start_turn: (played.start_turn > 0).then_some(played.start_turn),
        }
    }
}

/// The folder of game `game` under the replay directory.
pub fn replay_dir(root: &Path, game: usize) -> PathBuf {
    root.join(format!("game-{game:04}"))
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
/// `dir` (which exists). `replay.json` is a [`Replay`](crate::replay::Replay):
/// `{"result": <the game's JSON line>, "time_limit_ms": .., "packs": [..], "turns": [<one object
/// per turn>]}`.
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
