//! `codevs-reborn positions DIR... -o POSITIONS.jsonl`: the race positions of recorded games with
//! their outcomes, what `fit` fits a win probability to.
//!
//! For every game under the folders (any `--replays` folder, or `.tar.xz` archives of them as
//! `data/games/` keeps them) and every seat our bot played (both
//! in self-play), each turn from the first one a chain of `--min-links` stands on either side's
//! menu to the game's end: the race as the bot saw it (its `race-features` line, see
//! [`crate::bot::RaceFeatures`]) and how the game ended for that seat. A game recorded before the
//! bot wrote those lines has them recomputed: the bot plays its input again at a node budget
//! (its own moves are not the recorded ones, so its plan may differ from the one it had; the
//! positions are marked `recomputed`).

use std::fs;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::bot::{play, BotOptions, RaceFeatures, Strategy, DEFAULT_NAME};
use crate::replay::{RecordedGames, Replay};

/// `codevs-reborn positions` flags.
#[derive(Clone, Debug, clap::Args)]
pub struct PositionsArgs {
    /// Folders searched (recursively) for recorded games (`--replays` folders of the arena, the
    /// gauntlet or tune: each game's `replay.json`, `input-pN.txt` and `stderr-pN.txt`), and
    /// `.tar.xz` archives of them, given or found in the folders (`data/games/`).
    #[arg(required = true, value_name = "DIR")]
    pub dirs: Vec<PathBuf>,
    /// The positions file to write (JSON Lines, one position a line; replaced if it exists).
    #[arg(short, long, value_name = "FILE")]
    pub output: PathBuf,
    /// A game's positions start at the first turn a chain of this many links stands on either
    /// side's menu (or is ready now).
    #[arg(long, value_name = "LINKS", default_value_t = 10)]
    pub min_links: u32,
    /// The node budget of each decision when a game's lines are recomputed (recorded without
    /// them): the bot plays the seat's input again, reproducibly.
    #[arg(long, value_name = "N", default_value_t = 1_000_000)]
    pub recompute_nodes: u64,
}

/// One position: a turn of one seat of a recorded game, the race as our bot saw it, and the
/// game's result for that seat.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RacePosition {
    /// The game's folder, as found under the folder given.
    pub game: String,
    /// The game's pack file or `seed:N`: a fit holds out all the games on the same packs
    /// together (two bots' paired games on them are often the same game).
    pub packs: String,
    pub seat: usize,
    /// The other seat's name.
    pub opponent: String,
    /// Both seats were our bot.
    pub self_play: bool,
    /// The features were recomputed (the game was recorded without its `race-features` lines).
    pub recomputed: bool,
    /// 1 won, ½ drawn, 0 lost, for this seat.
    pub result: f64,
    #[serde(flatten)]
    pub features: RaceFeatures,
}

/// The largest chain on any menu of the position, or ready now.
fn largest_in_view(f: &RaceFeatures) -> u32 {
    let lists = [&f.our_line, &f.our_any_line, &f.their_menu];
    lists.iter().flat_map(|l| l.iter()).chain(&f.fires_now).copied().max().unwrap_or(0)
}

/// The features of `seat`'s turns in the game at `folder`: its recorded lines, or, without any,
/// those of the bot playing its input again (`true`: recomputed).
fn seat_features(folder: &Path, seat: usize, nodes: u64) -> Result<(Vec<RaceFeatures>, bool), String> {
    let stderr = folder.join(format!("stderr-p{seat}.txt"));
    let recorded = match fs::read_to_string(&stderr) {
        Ok(text) => RaceFeatures::all_in(&text).map_err(|e| format!("{}: {e}", stderr.display()))?,
        Err(_) => Vec::new(),
    };
    if !recorded.is_empty() {
        return Ok((recorded, false));
    }
    let input_path = folder.join(format!("input-p{seat}.txt"));
    let input = fs::read(&input_path).map_err(|e| format!("{}: {e}", input_path.display()))?;
    let mut options = BotOptions { strategy: Strategy::Full, threads: 1, ..BotOptions::default() };
    options.beam.node_budget = nodes;
    let (mut moves, mut diagnostics) = (Vec::new(), Vec::new());
    play(&input[..], &mut moves, &mut diagnostics, options).map_err(|e| format!("{}: {e}", input_path.display()))?;
    Ok((RaceFeatures::all_in(&String::from_utf8_lossy(&diagnostics))?, true))
}

/// The positions of one recorded game, in its `folder`, named `game` in them.
pub fn positions_of(folder: &Path, game: &str, args: &PositionsArgs) -> Result<Vec<RacePosition>, String> {
    let replay = Replay::read(folder)?;
    let names = &replay.result.names;
    let ours = |seat: usize| names[seat] == DEFAULT_NAME;
    let mut out = Vec::new();
    for seat in (0..2).filter(|&s| ours(s)) {
        let (features, recomputed) = seat_features(folder, seat, args.recompute_nodes)?;
        let result = match replay.result.winner {
            -1 => 0.5,
            w if w as usize == seat => 1.0,
            _ => 0.0,
        };
        let Some(start) = features.iter().position(|f| largest_in_view(f) >= args.min_links) else { continue };
        out.extend(features.into_iter().skip(start).map(|features| RacePosition {
            game: game.to_string(),
            packs: replay.result.packs.clone(),
            seat,
            opponent: names[1 - seat].clone(),
            self_play: ours(1 - seat),
            recomputed,
            result,
            features,
        }));
    }
    Ok(out)
}

/// Reads a positions file.
pub fn read_positions(path: &Path) -> Result<Vec<RacePosition>, String> {
    let text = fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, l)| {
            serde_json::from_str(l).map_err(|e| format!("{}: line {}: not a position: {e}", path.display(), i + 1))
        })
        .collect()
}

/// `codevs-reborn positions`: writes the positions of every game under the folders, with
/// progress on stderr.
pub fn run(args: &PositionsArgs) -> Result<(), String> {
    let found = RecordedGames::find(&args.dirs)?;
    let mut positions = Vec::new();
    let mut recomputed = 0;
    // Drawn only on a terminal: a log gets the summary line alone.
    let progress = indicatif::ProgressBar::new(found.games.len() as u64);
    progress
        .set_style(indicatif::ProgressStyle::with_template("positions: {pos}/{len} games").expect("a valid template"));
    for game in &found.games {
        let of_game = positions_of(&game.folder, &game.name, args)?;
        recomputed += usize::from(of_game.iter().any(|p| p.recomputed));
        positions.extend(of_game);
        progress.inc(1);
    }
    progress.finish_and_clear();
    let games = found.games.len();
    let mut text = String::new();
    for p in &positions {
        text.push_str(&serde_json::to_string(p).map_err(|e| e.to_string())?);
        text.push('\n');
    }
    fs::write(&args.output, text).map_err(|e| format!("{}: {e}", args.output.display()))?;
    let distinct: std::collections::BTreeSet<&str> = positions.iter().map(|p| p.game.as_str()).collect();
    println!(
        "positions {}: {} positions from {} of {games} games ({recomputed} recomputed at {} nodes a decision)",
        args.output.display(),
        positions.len(),
        distinct.len(),
        args.recompute_nodes
    );
    Ok(())
}
