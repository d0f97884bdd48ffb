//! A gauntlet's `--json` file: one line per game, read back to resume and to summarize.

use std::fs;
use std::io::ErrorKind;
use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::arena::paired::Outcome;
use crate::arena::record::GameLine;
use crate::arena::referee::PlayedGame;
use crate::arena::{fault_name, stats};
use crate::rules::FaultKind;

/// One game's line in the gauntlet's `--json` file: the arena's line plus what the gauntlet
/// needs to resume and to report.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GauntletLine {
    /// The opponent's name.
    pub opponent: String,
    /// Our bot's seat (0 in even games, 1 in odd ones).
    pub our_seat: usize,
    /// The pack pair (`game / 2`; the game index counts within the opponent).
    pub pair: usize,
    #[serde(flatten)]
    pub line: GameLine,
    /// The cpus both bots were pinned to (a `taskset -c` list), or null.
    pub cpus: Option<String>,
    /// Each seat's peak resident memory in KiB (null where it could not be measured).
    pub peak_rss_kib: [Option<u64>; 2],
    /// A fingerprint of each seat's commands turn by turn (FNV-1a 64, hex): equal moves, equal
    /// fingerprints. Mirror pairs are found with it.
    pub moves: [String; 2],
}

impl GauntletLine {
    pub(super) fn their_seat(&self) -> usize {
        1 - self.our_seat
    }

    /// The game as a comparison with another bot's sees it.
    pub(super) fn outcome(&self) -> Outcome<'_> {
        Outcome {
            opponent: &self.opponent,
            packs: &self.line.packs,
            seat: self.our_seat,
            score: self.our_score(),
            moves: [&self.moves[self.our_seat], &self.moves[self.their_seat()]],
        }
    }

    /// Our score: 1, ½ or 0.
    pub(super) fn our_score(&self) -> f64 {
        stats::seat_score(usize::try_from(self.line.winner).ok(), self.our_seat)
    }

    /// A game the opponent lost on time on the first turn the bots played, before it made a move,
    /// while our bot made its own: it never got to play (kera's JVM runs out of its turn 0 when it
    /// shares one core with our opening search), so the game says nothing of our bot's strength
    /// but of the cores it was given. Void games are left out of every figure and played again
    /// on resume. (A crash or an illegal first command is the opponent's own fault, and counts.)
    pub fn is_void(&self) -> bool {
        let first_turn = self.line.start_turn.unwrap_or(0);
        self.line.turns == first_turn + 1
            && self.line.faults[self.their_seat()] == Some(FaultKind::Timeout)
            && self.line.faults[self.our_seat].is_none()
    }

    /// The game's identity in a gauntlet: our bot, the opponent, the packs and the game index.
    pub(super) fn key(&self) -> (&str, &str, &str, usize) {
        (&self.line.commands[self.our_seat], &self.opponent, &self.line.packs, self.line.game)
    }
}

/// The lines without the void games that a later line of the same game replaced: a resumed
/// gauntlet plays void games again and appends the new line to the same file.
pub(super) fn drop_replayed_void(lines: Vec<GauntletLine>) -> Vec<GauntletLine> {
    let replayed: Vec<bool> = (0..lines.len())
        .map(|i| lines[i].is_void() && lines[i + 1..].iter().any(|later| later.key() == lines[i].key()))
        .collect();
    lines.into_iter().zip(replayed).filter(|(_, replayed)| !replayed).map(|(g, _)| g).collect()
}

/// The fingerprint of seat `seat`'s commands: each turn's command, or its fault and refused line.
pub(super) fn moves_fingerprint(played: &PlayedGame, seat: usize) -> String {
    const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
    const FNV_PRIME: u64 = 0x0100_0000_01b3;
    let mut hash = FNV_OFFSET;
    for t in &played.turns {
        let a = &t.answers[seat];
        let text = match a.action {
            Ok(action) => action.to_string(),
            Err(kind) => format!("{}:{}", fault_name(kind), a.line.as_deref().unwrap_or("")),
        };
        for b in text.bytes().chain([b'\n']) {
            hash = (hash ^ u64::from(b)).wrapping_mul(FNV_PRIME);
        }
    }
    format!("{hash:016x}")
}

/// Reads the games of an existing `--json` file (none if it does not exist). An unfinished last
/// line (a run killed while writing) is cut off the file so that new lines start cleanly.
pub(super) fn load_lines(path: &Path) -> Result<Vec<GauntletLine>, String> {
    let text = match fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) if e.kind() == ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(format!("{}: {e}", path.display())),
    };
    let complete = complete_lines(&text);
    if complete.len() < text.len() {
        let file = fs::OpenOptions::new().write(true).open(path).map_err(|e| format!("{}: {e}", path.display()))?;
        file.set_len(complete.len() as u64).map_err(|e| format!("{}: {e}", path.display()))?;
        eprintln!("codevs-reborn: {}: dropped an unfinished last line", path.display());
    }
    parse_lines(path, complete).map(drop_replayed_void)
}

/// The text up to its last newline: without an unfinished last line.
pub(super) fn complete_lines(text: &str) -> &str {
    &text[..text.rfind('\n').map_or(0, |i| i + 1)]
}

/// The games of a `--json` file's complete lines (`path` names it in errors).
pub(super) fn parse_lines(path: &Path, text: &str) -> Result<Vec<GauntletLine>, String> {
    let mut lines = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let game = serde_json::from_str(line)
            .map_err(|e| format!("{}:{}: not a gauntlet game line ({e})", path.display(), i + 1))?;
        lines.push(game);
    }
    Ok(lines)
}
