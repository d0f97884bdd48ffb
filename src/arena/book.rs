//! A book of race positions: states taken from recorded games, to play new games from
//! (`gauntlet --book`, `arena --book`). Only what follows a position differs between two bots
//! played from it, so a change to how the race is played is measured without the opening's
//! noise.
//!
//! A position is kept as the moves that led to it: the referee plays them by the rules (no bot
//! is asked) and hands the game to the bots at the position's turn, so the replay of a game from
//! a book is a whole game, turn 0 onwards, that the viewer and `calibrate` read as any other.
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
use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::protocol::Reader;
use crate::replay::{game_folders, Replay, ReplayState, REPLAY_FILE};
use crate::rules::{Action, Field, Game, Pack, Packs, PACK_COUNT};

/// `codevs-reborn book` flags.
#[derive(Clone, Debug, clap::Args)]
pub struct BookArgs {
    /// Folders searched (recursively) for recorded games: `--replays` folders of the arena,
    /// the gauntlet or tune (each game's `replay.json` with its `input-p0.txt`).
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
    /// game still going.
    fn check(&self) -> Result<(), String> {
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
fn encode_packs(packs: &Packs) -> String {
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

/// The positions of one recorded game (its folder under `root`, which names it).
pub fn positions_of(folder: &Path, root: &Path, args: &BookArgs) -> Result<Vec<Position>, String> {
    let path = folder.join(REPLAY_FILE);
    let text = fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    let replay: Replay = serde_json::from_str(&text).map_err(|e| format!("{}: not a replay: {e}", path.display()))?;
    let packs = packs_beside(folder)?;
    // Each seat's first chain of min_links or more.
    let first = |seat: usize| {
        replay.turns.iter().find(|t| t.outcomes.is_some_and(|o| o[seat].links >= args.min_links)).map(|t| t.turn)
    };
    let firsts: Vec<usize> = [first(0), first(1)].into_iter().flatten().collect();
    let (Some(&earliest), Some(&latest)) = (firsts.iter().min(), firsts.iter().max()) else { return Ok(Vec::new()) };
    // A position needs the turns before it played (no fault) and the game going on at it.
    let played = replay.turns.iter().take_while(|t| t.states.is_some()).count();
    let name = folder.strip_prefix(root).unwrap_or(folder).to_string_lossy().replace(['/', '\\'], "-");
    let source = folder.display().to_string();
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
    let mut games = 0;
    for dir in &args.dirs {
        for folder in game_folders(dir)? {
            games += 1;
            positions.extend(positions_of(&folder, dir, args)?);
        }
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
