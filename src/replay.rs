//! The replay format: a game's JSON line (the arena's `--json` files) and its `replay.json`,
//! as the arena writes them and the viewer reads them back. Plain data over the rules' types,
//! so the viewer needs nothing of the arena.

use std::fs;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::rules::{FaultKind, Field, GameEnd, Outcome, PlayerState};

/// The file name of a game's replay in its folder.
pub const REPLAY_FILE: &str = "replay.json";
/// The file name of a game's HTML viewer page in its folder.
pub const PAGE_FILE: &str = "game.html";

/// A chain of `links` links made in `turn`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Chain {
    pub links: u32,
    pub turn: usize,
}

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
    /// Each player's chains of 10 links or more, in turn order (the exchanges of the game; absent
    /// from files written before they were recorded).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub chains_10: Option<[Vec<Chain>; 2]>,
    /// Each player's fault in the last turn, if any.
    pub faults: [Option<FaultKind>; 2],
    /// Thinking time each player used, in ms.
    pub time_ms: [u64; 2],
    /// The first turn the bots played, for a game from a book position (its moves, played by
    /// the referee, come before it; absent when the bots played from turn 0).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub start_turn: Option<usize>,
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

impl Replay {
    /// The replay of a recorded game: `replay.json` in its folder.
    pub fn read(folder: &Path) -> Result<Replay, String> {
        let path = folder.join(REPLAY_FILE);
        let text = fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        serde_json::from_str(&text).map_err(|e| format!("{}: not a replay: {e}", path.display()))
    }
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

/// Every game folder under `dir` (those holding a `replay.json`), sorted.
pub fn game_folders(dir: &Path) -> Result<Vec<PathBuf>, String> {
    Ok(scan(dir)?.0)
}

/// The game folders and the archives of games under `dir`, each sorted.
fn scan(dir: &Path) -> Result<(Vec<PathBuf>, Vec<PathBuf>), String> {
    let (mut folders, mut archives) = (Vec::new(), Vec::new());
    walk(dir, &mut |file| {
        if file.file_name().is_some_and(|n| n == REPLAY_FILE) {
            folders.push(file.parent().unwrap_or(dir).to_path_buf());
        } else if is_archive(file) {
            archives.push(file.to_path_buf());
        }
    })?;
    folders.sort();
    archives.sort();
    Ok((folders, archives))
}

/// Calls `file` on every file under `dir`, recursively.
fn walk(dir: &Path, file: &mut dyn FnMut(&Path)) -> Result<(), String> {
    let mut pending = vec![dir.to_path_buf()];
    while let Some(d) = pending.pop() {
        let entries = fs::read_dir(&d).map_err(|e| format!("cannot read {}: {e}", d.display()))?;
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                pending.push(path);
            } else {
                file(&path);
            }
        }
    }
    Ok(())
}

/// The ending of an archive of recorded games, as `data/games/` keeps them.
pub const ARCHIVE_SUFFIX: &str = ".tar.xz";

/// One recorded game found by [`RecordedGames::find`].
#[derive(Clone, Debug)]
pub struct RecordedGame {
    /// Its folder on disk (for an archived game, in the temporary folder it was unpacked to).
    pub folder: PathBuf,
    /// Its folder under the one given; for an archived game, under the archive's name without
    /// its ending (`A/replays-kera/kera/game-0000`).
    pub relative: PathBuf,
    /// Its name in what a command writes: its folder, or for an archived game the archive's
    /// path and the folder inside it (`data/games/A.tar.xz/replays-kera/kera/game-0000`).
    pub name: String,
}

/// The recorded games under some paths: folders searched recursively for `replay.json`, and
/// `.tar.xz` archives of such folders, given or found in them. An archive is unpacked into a
/// temporary folder that lives as long as this value.
#[derive(Debug)]
pub struct RecordedGames {
    pub games: Vec<RecordedGame>,
    _unpacked: Vec<tempfile::TempDir>,
}

impl RecordedGames {
    pub fn find(paths: &[PathBuf]) -> Result<RecordedGames, String> {
        let mut archives = Vec::new();
        let mut games = Vec::new();
        for path in paths {
            if path.is_dir() {
                let (folders, found) = scan(path)?;
                for folder in folders {
                    let relative = folder.strip_prefix(path).unwrap_or(&folder).to_path_buf();
                    games.push(RecordedGame { name: folder.display().to_string(), folder, relative });
                }
                archives.extend(found);
            } else if is_archive(path) {
                archives.push(path.clone());
            } else {
                return Err(format!(
                    "{} is neither a folder of recorded games nor a {ARCHIVE_SUFFIX} archive of them",
                    path.display()
                ));
            }
        }
        let mut unpacked = Vec::new();
        for archive in archives {
            let dir = unpack(&archive)?;
            let file_name = archive.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
            let stem = file_name.strip_suffix(ARCHIVE_SUFFIX).unwrap_or(&file_name);
            for folder in game_folders(dir.path())? {
                let inside = folder.strip_prefix(dir.path()).unwrap_or(&folder);
                let name = archive.join(inside).display().to_string();
                games.push(RecordedGame { name, relative: Path::new(stem).join(inside), folder });
            }
            unpacked.push(dir);
        }
        Ok(RecordedGames { games, _unpacked: unpacked })
    }
}

fn is_archive(path: &Path) -> bool {
    path.is_file() && path.to_string_lossy().ends_with(ARCHIVE_SUFFIX)
}

/// Unpacks a `.tar.xz` archive into a new temporary folder.
fn unpack(archive: &Path) -> Result<tempfile::TempDir, String> {
    let failed = |e: &dyn std::fmt::Display| format!("{}: cannot unpack: {e}", archive.display());
    let file = fs::File::open(archive).map_err(|e| failed(&e))?;
    let mut tar = Vec::new();
    lzma_rs::xz_decompress(&mut std::io::BufReader::new(file), &mut tar).map_err(|e| failed(&e))?;
    let dir = tempfile::Builder::new().prefix("codevs-reborn-games-").tempdir().map_err(|e| failed(&e))?;
    tar::Archive::new(tar.as_slice()).unpack(dir.path()).map_err(|e| failed(&e))?;
    Ok(dir)
}
