//! A book of race positions: states taken from recorded games, to play new games from
//! (`gauntlet --book`, `arena --book`). Only what follows a position differs between two bots
//! played from it, so a change to how the race is played is measured without the opening's
//! noise. The format and its reader are [`crate::book`]'s; this module writes books.
//!
//! `codevs-reborn book DIR... -o BOOK.jsonl` takes from every game recorded under the folders
//! (their `replay.json` and `input-p0.txt`) the positions of the race:
//! - `race-start`: `--lead` (3) turns before the first chain of `--min-links` (10) or more, by
//!   either side, and not before `--earliest` (8): both sides still building, every decision of
//!   the first exchange ahead (against togatoga the two kinds below were already decided: the
//!   same seat won whoever played it);
//! - `first-chain`: the start of the turn in which that chain was fired (its fire is the first
//!   decision played);
//! - `after-exchange`: `--after` (3) turns after the later of the two sides' first such chains
//!   (or the only one, when one side never fired one), while the game was still going: the
//!   race to rebuild.

use std::collections::HashSet;
use std::fs;
use std::path::{Path, PathBuf};

use crate::book::{encode_packs, Position, PositionKind};
use crate::protocol::Reader;
use crate::replay::{RecordedGame, RecordedGames, Replay};
use crate::rules::Packs;

/// `codevs-reborn book` flags.
#[derive(Clone, Debug, clap::Args)]
pub struct BookArgs {
    /// Folders searched (recursively) for recorded games: `--replays` folders of the arena,
    /// the gauntlet or tune (each game's `replay.json` with its `input-p0.txt`), and `.tar.xz`
    /// archives of them, given or found in the folders (`data/games/`).
    #[arg(required = true, value_name = "DIR")]
    pub dirs: Vec<PathBuf>,
    /// The book to write (JSON Lines, one position a line; replaced if it exists).
    #[arg(short, long, value_name = "FILE")]
    pub output: PathBuf,
    /// The chain that starts the race: this many links or more.
    #[arg(long, value_name = "LINKS", default_value_t = 10)]
    pub min_links: u32,
    /// The `after-exchange` position: this many turns after the first exchange.
    #[arg(long, value_name = "TURNS", default_value_t = 3)]
    pub after: usize,
    /// The `race-start` position: this many turns before the first chain of --min-links.
    #[arg(long, value_name = "TURNS", default_value_t = 3)]
    pub lead: usize,
    /// The `race-start` position is not taken before this turn (a bot follows its opening plan
    /// blindly before it).
    #[arg(long, value_name = "TURN", default_value_t = 8)]
    pub earliest: usize,
}

/// The positions of one recorded game.
pub fn positions_of(game: &RecordedGame, args: &BookArgs) -> Result<Vec<Position>, String> {
    let folder = &game.folder;
    let replay = Replay::read(folder)?;
    let packs = packs_beside(folder)?;
    // Each seat's first chain of min_links or more.
    let first = |seat: usize| {
        replay.turns.iter().find(|t| t.outcomes.is_some_and(|o| o[seat].links >= args.min_links)).map(|t| t.turn)
    };
    let firsts: Vec<usize> = [first(0), first(1)].into_iter().flatten().collect();
    let (Some(&earliest), Some(&latest)) = (firsts.iter().min(), firsts.iter().max()) else { return Ok(Vec::new()) };
    // A position needs the turns before it played (no fault) and the game going on at it.
    let played = replay.turns.iter().take_while(|t| t.states.is_some()).count();
    let name = game.relative.to_string_lossy().replace(['/', '\\'], "-");
    let source = game.name.clone();
    let mut out = Vec::new();
    let kinds = [
        (PositionKind::RaceStart, earliest.checked_sub(args.lead).filter(|&t| t >= args.earliest)),
        (PositionKind::FirstChain, Some(earliest)),
        (PositionKind::AfterExchange, Some(latest + args.after)),
    ];
    for (kind, turn) in kinds.into_iter().filter_map(|(kind, turn)| Some((kind, turn?))) {
        if turn == 0 || turn >= played {
            continue;
        }
        let before = &replay.turns[turn - 1];
        let Some(states) = before.states.clone() else { continue };
        let moves: Option<Vec<[String; 2]>> =
            replay.turns[..turn].iter().map(|t| Some([t.commands[0].clone()?, t.commands[1].clone()?])).collect();
        let Some(moves) = moves else { continue };
        let position = Position {
            id: format!("{name}-t{turn}"),
            kind,
            source: source.clone(),
            source_packs: replay.result.packs.clone(),
            names: replay.result.names.clone(),
            packs: encode_packs(&packs),
            turn,
            moves,
            time_ms: replay.turns[..turn].iter().map(|t| t.time_ms).collect(),
            time_limit_ms: replay.time_limit_ms.unwrap_or(crate::rules::GAME_TIME_MS),
            state: states,
        };
        position.check().map_err(|e| format!("{}: {e}", folder.display()))?;
        out.push(position);
    }
    Ok(out)
}

/// The whole game's packs, from a bot's input beside the replay (the replay keeps only the
/// packs of the turns played).
fn packs_beside(folder: &Path) -> Result<Packs, String> {
    let mut why = Vec::new();
    for name in ["input-p0.txt", "input-p1.txt"] {
        let path = folder.join(name);
        let read = fs::read(&path)
            .map_err(|e| e.to_string())
            .and_then(|bytes| Reader::new(&bytes[..]).read_packs().map_err(|e| e.to_string()));
        match read {
            Ok(packs) => return Ok(packs),
            Err(e) => why.push(format!("{name}: {e}")),
        }
    }
    Err(format!("{}: no bot input with the packs ({})", folder.display(), why.join("; ")))
}

/// `codevs-reborn book`: writes the positions of every game under the folders.
pub fn run(args: &BookArgs) -> Result<(), String> {
    let mut positions = Vec::new();
    let found = RecordedGames::find(&args.dirs)?;
    let games = found.games.len();
    for game in &found.games {
        positions.extend(positions_of(game, args)?);
    }
    // Ids name the folder under the one given: two folders given may hold the same names.
    let mut seen = HashSet::new();
    for p in &mut positions {
        let mut id = p.id.clone();
        let mut n = 1;
        while !seen.insert(id.clone()) {
            n += 1;
            id = format!("{}-{n}", p.id);
        }
        p.id = id;
    }
    let mut text = String::new();
    for p in &positions {
        text.push_str(&serde_json::to_string(p).map_err(|e| e.to_string())?);
        text.push('\n');
    }
    fs::write(&args.output, text).map_err(|e| format!("{}: {e}", args.output.display()))?;
    let count = |kind| positions.iter().filter(|p| p.kind == kind).count();
    println!(
        "book {}: {} positions from {games} games ({} race-start, {} first-chain, {} after-exchange)",
        args.output.display(),
        positions.len(),
        count(PositionKind::RaceStart),
        count(PositionKind::FirstChain),
        count(PositionKind::AfterExchange)
    );
    Ok(())
}
