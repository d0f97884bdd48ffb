//! `codevs-reborn view`: a game's replay as one self-contained HTML page, both fields side by
//! side turn by turn, every chain link's vanishing blocks, garbage, gauges, scores, times and a
//! timeline of both players' chains and garbage stocks.
//!
//! - [`data`]: the replay re-played by the reference rules (and checked against them) into the
//!   frames the page draws.
//! - `page.html`, `page.css`, `page.js`: the page; the game data goes in as JSON. Nothing is
//!   fetched: no network, no external scripts, fonts or images, so the file can be mailed or
//!   opened offline.

pub mod data;

use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use crate::protocol::{Next, Reader};
use crate::replay::{Replay, PAGE_FILE, REPLAY_FILE};
use crate::rules::{Pack, Packs};
pub use data::{build, Frame, FrameKind, GameView, PlayerTurn, TurnView};

const PAGE: &str = include_str!("page.html");
const STYLE: &str = include_str!("page.css");
const SCRIPT: &str = include_str!("page.js");

/// `codevs-reborn view` flags.
#[derive(Clone, Debug, clap::Args)]
pub struct ViewArgs {
    /// A game's replay.json, or its folder (as `arena --replays DIR` writes them: DIR/game-NNNN).
    #[arg(value_name = "REPLAY")]
    pub replay: PathBuf,
    /// Where to write the page (default: game.html beside the replay).
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,
}

/// Writes the page and prints its path; an error is a one-line message naming the file.
pub fn run(args: &ViewArgs) -> Result<(), String> {
    let replay = replay_file(&args.replay);
    let output = args.output.clone().unwrap_or_else(|| replay.with_file_name(PAGE_FILE));
    write_page(&replay, &output)?;
    println!("{}", output.display());
    Ok(())
}

/// The replay file a path names: the path itself, or `replay.json` in the folder it names.
pub fn replay_file(path: &Path) -> PathBuf {
    if path.is_dir() {
        path.join(REPLAY_FILE)
    } else {
        path.to_path_buf()
    }
}

/// Reads the replay at `replay`, re-plays it and writes its page to `output`.
pub fn write_page(replay: &Path, output: &Path) -> Result<(), String> {
    let html = render(&load(replay)?);
    fs::write(output, html).map_err(|e| format!("{}: {e}", output.display()))
}

/// Reads and re-plays a replay file. Replays written before the packs were recorded take them
/// (and the time limit) from the `input-p0.txt` or `input-p1.txt` beside the replay.
pub fn load(path: &Path) -> Result<GameView, String> {
    let in_file = |e: String| format!("{}: {e}", path.display());
    let text = fs::read_to_string(path).map_err(|e| in_file(e.to_string()))?;
    let mut replay: Replay =
        serde_json::from_str(&text).map_err(|e| in_file(format!("not a replay ({REPLAY_FILE}): {e}")))?;
    let packs = match &replay.packs {
        Some(packs) => packs.iter().map(|&rows| Pack { rows }).collect(),
        None => {
            let (packs, time_limit) = packs_from_inputs(path).map_err(in_file)?;
            replay.time_limit_ms = replay.time_limit_ms.or(time_limit);
            packs.0
        }
    };
    build(&replay, &packs).map_err(in_file)
}

/// The packs (and the game's time limit, when a turn follows) from a bot's input beside the replay.
fn packs_from_inputs(replay: &Path) -> Result<(Packs, Option<u64>), String> {
    let dir = replay.parent().unwrap_or(Path::new("."));
    let mut why = Vec::new();
    // A bot that faulted before the game started was never sent the packs: try the other's input.
    for name in ["input-p0.txt", "input-p1.txt"] {
        let path = dir.join(name);
        match read_input(&path) {
            Ok(found) => return Ok(found),
            Err(e) => why.push(format!("{name}: {e}")),
        }
    }
    Err(format!("the replay holds no packs and no bot input beside it does ({})", why.join("; ")))
}

fn read_input(path: &Path) -> Result<(Packs, Option<u64>), String> {
    let file = fs::File::open(path).map_err(|e| e.to_string())?;
    let mut reader = Reader::new(io::BufReader::new(file));
    let packs = reader.read_packs().map_err(|e| e.to_string())?;
    // Turn 0's remaining time is the whole game's.
    let time_limit = match reader.read_next() {
        Ok(Next::Turn(t)) if t.turn == 0 => Some(t.me.time_left_ms),
        _ => None,
    };
    Ok((packs, time_limit))
}

/// The page: the template with its style, script and the game data filled in.
pub fn render(view: &GameView) -> String {
    let json = serde_json::to_string(view).expect("the game data is plain JSON");
    // The data sits in a <script> element: no `<` may end it early. `<` only occurs inside JSON
    // strings (names, refused lines), where `\u003c` reads back as the same character.
    let json = json.replace('<', "\\u003c");
    let (head, tail) = PAGE.split_once("{{DATA}}").expect("the page template has a data slot");
    let fill = |part: &str| part.replace("{{STYLE}}", STYLE).replace("{{SCRIPT}}", SCRIPT);
    let mut html = fill(head);
    html.push_str(&json);
    html.push_str(&fill(tail));
    html
}
