//! `codevs-reborn gauntlet`: one bot against several named opponents, as cutechess-cli's gauntlet.
//!
//! Every opponent plays the same pack pairs (pair k: pack file k, or seed S + k, played twice with
//! sides swapped), so opponents are compared on the same packs. Games run `--jobs` at a time, job
//! slot k pinned with `taskset` to its own cores. Each game is appended to the `--json` file as it
//! ends, and a run with an existing file skips the games already in it, so a long gauntlet can
//! span several sittings; the summary always covers every game in the file.
//!
//! `--shard K/N` plays the K-th of N disjoint slices of the planned games (game i of the list,
//! opponents in order then game index, goes to shard i mod N + 1), so N runs with the same flags,
//! on one machine or many, play every game once; `--summary FILE...` then reads their files
//! together and prints the table without playing.

use std::collections::hash_map::Entry;
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::fs;
use std::io::ErrorKind;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};

use indicatif::{ProgressBar, ProgressStyle};
use serde::{Deserialize, Serialize};

use super::jobs::PinnedJobs;
use super::paired::{self, Outcome};
use super::record::{self, GameLine};
use super::referee::PlayedGame;
use super::stats::{self, Tally};
use super::table::{format_table, label_left};
use super::{append_json_line, fault_name, fmt_elo, play_in_parallel, play_recorded, ControlArgs, GameSpec};
use super::{Finished, PackArgs, PackSource, RecordArgs};
use crate::rules::FaultKind;

/// `codevs-reborn gauntlet` flags.
#[derive(Clone, Debug, clap::Args)]
pub struct GauntletArgs {
    /// Our bot: a shell command (run with `sh -c`); the summary is from its point of view.
    #[arg(long, value_name = "CMD", required_unless_present = "summary")]
    pub bot: Option<String>,
    #[command(flatten)]
    pub opponents: OpponentArgs,
    #[command(flatten)]
    pub packs: PackArgs,
    /// Game pairs per opponent: pair k plays pack file k (or seed S + k, or book position k)
    /// twice, sides swapped. Every opponent gets the same packs; pack files are reused in order
    /// when there are fewer. Default: 6, or every position of --book.
    #[arg(long, value_name = "N")]
    pub pairs: Option<usize>,
    /// Play one game of each pair instead of both (our seat alternating: seat 0 on even pairs,
    /// seat 1 on odd ones; from a book, the seat our bot had in the position's game, so that it
    /// plays on from the field it built, where that game had it on one side). Both seats get the
    /// same packs and move at once, so between deterministic bots the second game only repeats
    /// the first: this doubles the pack files covered per hour. Run again without it (same
    /// `--json`) to play the other halves.
    #[arg(long)]
    pub one_side: bool,
    #[command(flatten)]
    pub control: ControlArgs,
    /// One JSON object per game (the arena's, plus the opponent's name, our seat, the pair, the
    /// cpus, each bot's peak memory and a fingerprint of its moves), appended as games end. If
    /// FILE exists the gauntlet resumes: games already in it are not played again, and the
    /// summary covers them all.
    #[arg(long, value_name = "FILE")]
    pub json: Option<PathBuf>,
    #[command(flatten)]
    pub record: RecordArgs,
    #[command(flatten)]
    pub jobs: PinnedJobs,
    /// Play only the K-th of N disjoint slices of the games (game i of the planned list, opponents
    /// in order then game index, goes to shard i mod N + 1): N runs with the same flags, each
    /// with its own --json file, play every game once. Summarize them with --summary.
    #[arg(long, value_name = "K/N", value_parser = parse_shard)]
    pub shard: Option<Shard>,
    /// Play nothing: print the summary of the games in these --json files (shards' files, or
    /// their concatenation). They must hold one bot's games, each game once.
    #[arg(
        long,
        value_name = "FILE",
        num_args = 1..,
        conflicts_with_all = ["bot", "opponents", "opponent", "json", "replays", "shard"]
    )]
    pub summary: Vec<PathBuf>,
    /// With --summary: also summarize another bot's games in these --json files, and compare
    /// the two game by game (same opponent, pack file and seat) with a sign test.
    #[arg(long, value_name = "FILE", num_args = 1.., requires = "summary")]
    pub compare: Vec<PathBuf>,
    /// With --summary: the files' games are one bot's even where its command differs, as the
    /// same build run from another path in another session does (to pool judgements); the
    /// summary names every command, and a game is refused twice only under the same command.
    /// Not with --compare: a pack file played twice would pair twice.
    #[arg(long, requires = "summary", conflicts_with = "compare")]
    pub pool: bool,
}

/// One slice of a sharded gauntlet: shard `index` (1-based) of `count`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    pub index: usize,
    pub count: usize,
}

impl Shard {
    /// Whether game `i` of the planned list is this shard's.
    fn takes(&self, i: usize) -> bool {
        i % self.count == self.index - 1
    }
}

/// Reads `K/N` with 1 ≤ K ≤ N.
pub fn parse_shard(text: &str) -> Result<Shard, String> {
    let bad = || format!("expected K/N with 1 <= K <= N (shard K of N, e.g. 2/4), found {text:?}");
    let (index, count) = text.split_once('/').ok_or_else(bad)?;
    let (index, count): (usize, usize) =
        (index.trim().parse().map_err(|_| bad())?, count.trim().parse().map_err(|_| bad())?);
    if !(1..=count).contains(&index) {
        return Err(bad());
    }
    Ok(Shard { index, count })
}

/// The games a gauntlet plans, as (opponent index, game index; game `2k + s` is pair `k` with
/// our bot in seat `s`): opponents in order, then games. With `one_side`, one game of each pair:
/// our seat is `home_seat(pair)` where it says one (a book position's side), else 0 on even pairs
/// and 1 on odd ones. With a shard, only its slice; the slice depends on nothing else, so that
/// shards never overlap.
pub fn planned_games(
    opponents: usize,
    pairs: usize,
    one_side: bool,
    home_seat: impl Fn(usize) -> Option<usize>,
    shard: Option<Shard>,
) -> Vec<(usize, usize)> {
    let played = |game: usize| {
        let pair = game / 2;
        !one_side || game % 2 == home_seat(pair).unwrap_or(pair % 2)
    };
    (0..opponents)
        .flat_map(|o| (0..2 * pairs).filter(|&g| played(g)).map(move |g| (o, g)))
        .enumerate()
        .filter(|(i, _)| shard.is_none_or(|s| s.takes(*i)))
        .map(|(_, game)| game)
        .collect()
}

/// A named opponent.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opponent {
    pub name: String,
    pub command: String,
}

/// Game pairs per opponent when `--pairs` is not given (and no book gives them).
const DEFAULT_PAIRS: usize = 6;
const OPPONENT_SYNTAX: &str = "expected NAME=COMMAND (NAME: letters, digits, '.', '_', '-'; a command after '=')";

/// Reads `NAME=COMMAND`: the name is also a replay folder, so it is kept to a safe alphabet.
pub fn parse_opponent(text: &str) -> Result<Opponent, String> {
    let bad = || format!("{OPPONENT_SYNTAX}, found {text:?}");
    let (name, command) = text.split_once('=').ok_or_else(bad)?;
    let (name, command) = (name.trim(), command.trim());
    let name_ok = !name.is_empty()
        && !name.starts_with('.')
        && name.bytes().all(|b| b.is_ascii_alphanumeric() || b"._-".contains(&b));
    if !name_ok || command.is_empty() {
        return Err(bad());
    }
    Ok(Opponent { name: name.to_string(), command: command.to_string() })
}

/// Reads an opponents file's text (`file` names it in errors): `NAME=COMMAND` lines, blank lines
/// and `#` comments. An error names the file and line.
pub fn parse_opponents(file: &Path, text: &str) -> Result<Vec<Opponent>, String> {
    let mut opponents: Vec<Opponent> = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let at = format!("{}:{}", file.display(), i + 1);
        let opponent = parse_opponent(line).map_err(|e| format!("{at}: {e}"))?;
        if opponents.iter().any(|o| o.name == opponent.name) {
            return Err(format!("{at}: opponent {} is named twice", opponent.name));
        }
        opponents.push(opponent);
    }
    Ok(opponents)
}

/// Named opponents (`gauntlet`, and `tune`'s pool).
#[derive(Clone, Debug, clap::Args)]
pub struct OpponentArgs {
    /// The opponents: a file of `NAME=COMMAND` lines (NAME: letters, digits, `.`, `_`, `-`);
    /// blank lines and lines starting with `#` are skipped.
    #[arg(long, value_name = "FILE")]
    pub opponents: Option<PathBuf>,
    /// One more opponent, NAME=COMMAND (repeatable; after those of --opponents).
    #[arg(long = "opponent", value_name = "NAME=COMMAND")]
    pub opponent: Vec<String>,
}

impl OpponentArgs {
    /// The opponents of `--opponents FILE` then of each `--opponent` (perhaps none).
    pub fn read(&self) -> Result<Vec<Opponent>, String> {
        let mut all = match &self.opponents {
            Some(path) => {
                let text = fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
                parse_opponents(path, &text)?
            }
            None => Vec::new(),
        };
        for text in &self.opponent {
            let opponent = parse_opponent(text).map_err(|e| format!("--opponent: {e}"))?;
            if all.iter().any(|o| o.name == opponent.name) {
                return Err(format!("--opponent: opponent {} is named twice", opponent.name));
            }
            all.push(opponent);
        }
        Ok(all)
    }
}

/// The gauntlet's opponents: at least one.
fn opponents(args: &GauntletArgs) -> Result<Vec<Opponent>, String> {
    let all = args.opponents.read()?;
    if all.is_empty() {
        return Err("no opponents: give --opponents FILE or --opponent NAME=COMMAND".into());
    }
    Ok(all)
}

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
    fn their_seat(&self) -> usize {
        1 - self.our_seat
    }

    /// The game as a comparison with another bot's sees it.
    fn outcome(&self) -> Outcome<'_> {
        Outcome {
            opponent: &self.opponent,
            packs: &self.line.packs,
            seat: self.our_seat,
            score: self.our_score(),
            moves: [&self.moves[self.our_seat], &self.moves[self.their_seat()]],
        }
    }

    /// Our score: 1, ½ or 0.
    fn our_score(&self) -> f64 {
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
    fn key(&self) -> (&str, &str, &str, usize) {
        (&self.line.commands[self.our_seat], &self.opponent, &self.line.packs, self.line.game)
    }
}

/// The lines without the void games that a later line of the same game replaced: a resumed
/// gauntlet plays void games again and appends the new line to the same file.
fn drop_replayed_void(lines: Vec<GauntletLine>) -> Vec<GauntletLine> {
    let replayed: Vec<bool> = (0..lines.len())
        .map(|i| lines[i].is_void() && lines[i + 1..].iter().any(|later| later.key() == lines[i].key()))
        .collect();
    lines.into_iter().zip(replayed).filter(|(_, replayed)| !replayed).map(|(g, _)| g).collect()
}

/// The fingerprint of seat `seat`'s commands: each turn's command, or its fault and refused line.
fn moves_fingerprint(played: &PlayedGame, seat: usize) -> String {
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

/// One game still to play.
struct Task<'a> {
    opponent: &'a Opponent,
    /// The game's index within the opponent (pair game / 2, our seat game % 2).
    game: usize,
}

/// Reads the games of an existing `--json` file (none if it does not exist). An unfinished last
/// line (a run killed while writing) is cut off the file so that new lines start cleanly.
fn load_lines(path: &Path) -> Result<Vec<GauntletLine>, String> {
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
fn complete_lines(text: &str) -> &str {
    &text[..text.rfind('\n').map_or(0, |i| i + 1)]
}

/// The games of a `--json` file's complete lines (`path` names it in errors).
fn parse_lines(path: &Path, text: &str) -> Result<Vec<GauntletLine>, String> {
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

/// Reads the games of `--summary` files, refusing what would make a false summary: games of two
/// different bots, or one game twice (a file given twice, or a shard resumed into another's
/// file). The files are only read: one still being written loses just its unfinished last line.
/// With `pool`, games of different commands are one bot's (the same build from another path).
fn load_summary_files(files: &[PathBuf], pool: bool) -> Result<Vec<GauntletLine>, String> {
    let mut lines: Vec<GauntletLine> = Vec::new();
    let mut our_bot: Option<(String, &Path)> = None;
    let mut seen: HashMap<(String, String, String, usize), &Path> = HashMap::new();
    for path in files {
        let text = fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
        let complete = complete_lines(&text);
        if complete.len() < text.len() {
            eprintln!("codevs-reborn: {}: left out an unfinished last line", path.display());
        }
        for g in drop_replayed_void(parse_lines(path, complete)?) {
            let game = format!("game {} of {} on {}", g.line.game, g.opponent, g.line.packs);
            let ours = &g.line.commands[g.our_seat];
            match &our_bot {
                None => our_bot = Some((ours.clone(), path)),
                Some((bot, first)) if bot != ours && !pool => {
                    return Err(format!(
                        "{}: {game} was played by `{ours}`, but {} holds games of `{bot}`: summarize one \
                         bot's games at a time",
                        path.display(),
                        first.display()
                    ))
                }
                Some(_) => {}
            }
            match seen.entry((ours.clone(), g.opponent.clone(), g.line.packs.clone(), g.line.game)) {
                Entry::Occupied(first) => {
                    let both = if *first.get() == path.as_path() {
                        format!("{} holds", path.display())
                    } else {
                        format!("{} and {} both hold", first.get().display(), path.display())
                    };
                    return Err(format!(
                        "{both} {game}: give each shard's file once (the shards' files or their concatenation, \
                         not both)"
                    ));
                }
                Entry::Vacant(slot) => {
                    slot.insert(path);
                }
            }
            lines.push(g);
        }
    }
    Ok(lines)
}

/// `--summary`: the summary of the games in `files`, playing none; with `--compare`, the
/// summary of the other bot's games in `compare` too, and the two compared game by game.
fn summarize(files: &[PathBuf], compare: &[PathBuf], pool: bool) -> Result<(), String> {
    let (a_bot, a) = summarize_one(files, pool)?;
    if compare.is_empty() {
        return Ok(());
    }
    println!();
    let (b_bot, b) = summarize_one(compare, false)?;
    println!();
    let (a, b): (Vec<Outcome>, Vec<Outcome>) = (played_outcomes(&a), played_outcomes(&b));
    print!("{}", paired::paired_text(&a_bot, &b_bot, &a, &b));
    Ok(())
}

/// The games that count (not void), as a comparison with another bot's sees them.
fn played_outcomes(lines: &[GauntletLine]) -> Vec<Outcome<'_>> {
    lines.iter().filter(|g| !g.is_void()).map(GauntletLine::outcome).collect()
}

/// Prints the summary of one bot's games in `files`; returns the bot's command (its commands,
/// pooled) and the games.
fn summarize_one(files: &[PathBuf], pool: bool) -> Result<(String, Vec<GauntletLine>), String> {
    let lines = load_summary_files(files, pool)?;
    if lines.is_empty() {
        let names: Vec<String> = files.iter().map(|f| f.display().to_string()).collect();
        return Err(format!("{}: no games to summarize", names.join(", ")));
    }
    let mut commands: Vec<&str> = Vec::new();
    for g in &lines {
        let ours = g.line.commands[g.our_seat].as_str();
        if !commands.contains(&ours) {
            commands.push(ours);
        }
    }
    let bot = match commands.as_slice() {
        [one] => one.to_string(),
        _ => format!("{}; pooled", commands.join(" | ")),
    };
    let source = match files {
        [file] => file.display().to_string(),
        _ => format!("{} files", files.len()),
    };
    print_summary(&bot, &format!("from {source}"), &[], &lines);
    Ok((bot, lines))
}

/// Checks that the file's games were played by the same bot and the same opponents as now, so a
/// resumed gauntlet never mixes two matches.
fn check_resumed(path: &Path, lines: &[GauntletLine], bot: &str, opponents: &[Opponent]) -> Result<(), String> {
    for g in lines {
        let at = || format!("{} (game {} of {})", path.display(), g.line.game, g.opponent);
        let ours = &g.line.commands[g.our_seat];
        if ours != bot {
            return Err(format!("{}: our bot was `{ours}`, not `{bot}` (use another --json file)", at()));
        }
        let theirs = &g.line.commands[g.their_seat()];
        if let Some(o) = opponents.iter().find(|o| o.name == g.opponent) {
            if *theirs != o.command {
                return Err(format!("{}: {} was `{theirs}`, not `{}` (rename it)", at(), o.name, o.command));
            }
        }
    }
    Ok(())
}

/// Runs a gauntlet (or with `--summary`, summarizes files); an error is a one-line message for
/// the user.
pub fn run(args: &GauntletArgs) -> Result<(), String> {
    if !args.summary.is_empty() {
        return summarize(&args.summary, &args.compare, args.pool);
    }
    let bot = args.bot.as_deref().ok_or("--bot is required")?;
    let limits = args.control.limits()?;
    let opponents = opponents(args)?;
    let source = PackSource::open(&args.packs)?;
    let pairs = args.pairs.unwrap_or(if args.packs.book.is_some() { source.len().unwrap_or(0) } else { DEFAULT_PAIRS });
    if pairs == 0 {
        return Err("--pairs must be at least 1".into());
    }
    let cpus = args.jobs.slots()?;
    let mut lines = match &args.json {
        Some(path) => load_lines(path)?,
        None => Vec::new(),
    };
    if let Some(path) = &args.json {
        check_resumed(path, &lines, bot, &opponents)?;
    }
    let resumed = lines.len();
    let mut json = match &args.json {
        Some(path) => Some(
            fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(path)
                .map_err(|e| format!("{}: {e}", path.display()))?,
        ),
        None => None,
    };
    if let Some(dir) = &args.record.replays {
        fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    }

    let labels: Vec<String> = (0..pairs).map(|p| source.label(p)).collect();
    // Void games are played again: the opponent never got to play them.
    let done: HashSet<(&str, &str, usize)> = lines
        .iter()
        .filter(|g| !g.is_void())
        .map(|g| (g.opponent.as_str(), g.line.packs.as_str(), g.line.game))
        .collect();
    let planned = planned_games(opponents.len(), pairs, args.one_side, |pair| source.home_seat(pair), args.shard);
    let tasks: Vec<Task> = planned
        .iter()
        .map(|&(o, game)| Task { opponent: &opponents[o], game })
        .filter(|t| !done.contains(&(t.opponent.name.as_str(), labels[t.game / 2].as_str(), t.game)))
        .collect();
    let planned = planned.len();

    let stop = AtomicBool::new(false);
    let play = |slot: usize, i: usize| {
        let task = &tasks[i];
        let spec = GameSpec {
            game: task.game,
            a_seat: task.game % 2,
            deal: source.get(task.game / 2),
            commands: [bot, &task.opponent.command],
            cpus: cpus[slot].as_deref(),
            replay_dir: args
                .record
                .replays
                .as_ref()
                .map(|root| record::replay_dir(&root.join(&task.opponent.name), task.game)),
            bot_stderr: args.record.bot_stderr,
        };
        play_recorded(spec, &limits, &stop).map(|f| f.map(|f| (f, cpus[slot].clone())))
    };

    let bar = ProgressBar::new(planned as u64);
    bar.set_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} games  {msg}  [{elapsed_precise}]")
            .expect("a valid template"),
    );
    bar.set_position((planned - tasks.len()) as u64);
    let mut error = None;
    play_in_parallel(args.jobs.jobs, tasks.len(), &stop, play, |i, result| {
        match result {
            Ok(Some((finished, cpus))) => {
                if let Some(e) = never_started(bot, tasks[i].opponent, &finished) {
                    error = Some(e);
                } else {
                    let game = gauntlet_line(&tasks[i].opponent.name, finished, cpus);
                    if let Some(file) = &mut json {
                        if let Err(e) = append_json_line(file, &game) {
                            error = Some(e);
                        }
                    }
                    let name = game.opponent.clone();
                    lines.push(game);
                    bar.inc(1);
                    bar.set_message(progress(&name, &lines));
                }
            }
            Ok(None) => {}
            Err(e) => error = Some(e),
        }
        if error.is_some() {
            stop.store(true, Ordering::Relaxed);
        }
    });
    bar.finish_and_clear();
    if let Some(e) = error {
        return Err(e);
    }
    let played = lines.len() - resumed;
    let mut source = match &args.json {
        Some(path) if resumed > 0 => format!("{played} played now, {resumed} from {}", path.display()),
        _ => format!("{played} played now"),
    };
    if let Some(Shard { index, count }) = args.shard {
        source.push_str(&format!("; shard {index}/{count}"));
    }
    print_summary(bot, &source, &opponents, &drop_replayed_void(lines));
    Ok(())
}

/// The error for a bot that exited without ever printing its name: its command does not run (a
/// misspelt path), and every game would be lost the same way, so the gauntlet stops at once. (A
/// slow start is a timeout, recorded as usual.)
fn never_started(bot: &str, opponent: &Opponent, f: &Finished) -> Option<String> {
    let seat =
        (0..2).find(|&seat| f.played.names[seat].is_empty() && f.played.faults[seat] == Some(FaultKind::Crash))?;
    let who = if seat == f.a_seat {
        format!("our bot (--bot {bot})")
    } else {
        format!("opponent {} ({})", opponent.name, opponent.command)
    };
    Some(format!(
        "{who} ended before printing its name: check that the command runs from this folder (a script \
         here needs ./ or its full path); the game was not recorded"
    ))
}

fn gauntlet_line(opponent: &str, f: Finished, cpus: Option<String>) -> GauntletLine {
    GauntletLine {
        opponent: opponent.to_string(),
        our_seat: f.a_seat,
        pair: f.line.game / 2,
        moves: [0, 1].map(|seat| moves_fingerprint(&f.played, seat)),
        peak_rss_kib: f.played.peak_rss_kib,
        cpus,
        line: f.line,
    }
}

fn tally<'a>(games: impl IntoIterator<Item = &'a GauntletLine>) -> Tally {
    let mut t = Tally::default();
    for g in games {
        t.add(g.our_score());
    }
    t
}

/// The progress bar's message: the tally against the opponent of the game that just ended.
fn progress(opponent: &str, lines: &[GauntletLine]) -> String {
    let t = tally(lines.iter().filter(|g| g.opponent == opponent && !g.is_void()));
    format!("vs {opponent}: {}W {}D {}L", t.wins, t.draws, t.losses)
}

/// Complete pairs (both games on the same packs) and how many of them are mirrors: the same
/// commands seat by seat in both games, so each bot played exactly the other's game and the pair
/// scores 1–1 by construction (deterministic bots that play alike).
fn mirror_pairs(games: &[&GauntletLine]) -> (usize, usize) {
    let mut pairs: BTreeMap<(&str, &str, usize), [Option<&GauntletLine>; 2]> = BTreeMap::new();
    for g in games {
        pairs.entry((&g.opponent, &g.line.packs, g.pair)).or_default()[g.line.game % 2] = Some(g);
    }
    let complete: Vec<_> = pairs.values().filter_map(|[a, b]| Some((a.as_ref()?, b.as_ref()?))).collect();
    let mirrors = complete
        .iter()
        .filter(|(a, b)| {
            a.moves == b.moves
                && (a.line.winner, a.line.reason, a.line.turns, a.line.scores)
                    == (b.line.winner, b.line.reason, b.line.turns, b.line.scores)
        })
        .count();
    (complete.len(), mirrors)
}

fn median(mut values: Vec<u64>) -> Option<f64> {
    values.sort_unstable();
    let n = values.len();
    match n {
        0 => None,
        _ if n % 2 == 1 => Some(values[n / 2] as f64),
        _ => Some((values[n / 2 - 1] + values[n / 2]) as f64 / 2.0),
    }
}

/// How often each name occurs, in name order: `kera 10, toga 1` (empty for none).
fn counts_text<'a>(names: impl IntoIterator<Item = &'a str>) -> String {
    let mut counts: BTreeMap<&str, u64> = BTreeMap::new();
    for name in names {
        *counts.entry(name).or_default() += 1;
    }
    counts.iter().map(|(name, n)| format!("{name} {n}")).collect::<Vec<_>>().join(", ")
}

/// The void games by opponent: `kera 10, toga 1`.
fn void_counts(lines: &[GauntletLine]) -> String {
    counts_text(lines.iter().filter(|g| g.is_void()).map(|g| g.opponent.as_str()))
}

/// `kind n, kind n` or `-`.
fn faults(games: &[&GauntletLine], ours: bool) -> String {
    let seat = |g: &GauntletLine| if ours { g.our_seat } else { g.their_seat() };
    let text = counts_text(games.iter().filter_map(|g| g.line.faults[seat(g)]).map(fault_name));
    if text.is_empty() {
        "-".into()
    } else {
        text
    }
}

/// One row of the summary table.
fn row(label: &str, games: &[&GauntletLine]) -> (Vec<String>, usize) {
    let t = tally(games.iter().copied());
    let score = t.score().map_or("-".into(), |s| format!("{:.1}%", 100.0 * s));
    let interval =
        stats::score_interval(&t).map_or("-".into(), |(lo, hi)| format!("[{:.1}%, {:.1}%]", 100.0 * lo, 100.0 * hi));
    let elo = stats::elo_estimate(&t)
        .map_or("-".into(), |e| format!("{} [{}, {}]", fmt_elo(e.elo), fmt_elo(e.low), fmt_elo(e.high)));
    let packs: BTreeSet<&str> = games.iter().map(|g| g.line.packs.as_str()).collect();
    let (pairs, mirrors) = mirror_pairs(games);
    let seconds = |ours: bool| {
        let times = games.iter().map(|g| g.line.time_ms[if ours { g.our_seat } else { g.their_seat() }]);
        median(times.collect()).map_or("-".into(), |ms| format!("{:.2} s", ms / 1000.0))
    };
    let rss = games.iter().filter_map(|g| g.peak_rss_kib[g.our_seat]).max();
    let cells = vec![
        label.to_string(),
        games.len().to_string(),
        format!("{}-{}-{}", t.wins, t.draws, t.losses),
        score,
        interval,
        elo,
        packs.len().to_string(),
        format!("{mirrors}/{pairs}"),
        seconds(true),
        seconds(false),
        format!("{} / {}", faults(games, true), faults(games, false)),
        rss.map_or("-".into(), |kib| format!("{:.1} MiB", kib as f64 / 1024.0)),
    ];
    (cells, mirrors)
}

/// The opponents' names: those given now, then any other in the file.
fn opponent_names<'a>(opponents: &'a [Opponent], lines: &'a [GauntletLine]) -> Vec<&'a str> {
    let mut names: Vec<&str> = opponents.iter().map(|o| o.name.as_str()).collect();
    for g in lines {
        if !names.contains(&g.opponent.as_str()) {
            names.push(&g.opponent);
        }
    }
    names
}

/// The summary table: one row per opponent, and a total when there are several.
fn summary_table(opponents: &[Opponent], lines: &[GauntletLine]) -> (String, usize) {
    let names = opponent_names(opponents, lines);
    let header = [
        "opponent",
        "games",
        "W-D-L",
        "score",
        "95% interval",
        "Elo [95%]",
        "packs",
        "mirror pairs",
        "our time (median)",
        "their time",
        "faults (ours / theirs)",
        "our peak RSS",
    ];
    let mut rows = vec![header.map(str::to_string).to_vec()];
    let mut mirrors = 0;
    for name in &names {
        let games: Vec<&GauntletLine> = lines.iter().filter(|g| g.opponent == *name).collect();
        let (cells, m) = row(name, &games);
        rows.push(cells);
        mirrors += m;
    }
    if names.len() > 1 {
        rows.push(row("total", &lines.iter().collect::<Vec<_>>()).0);
    }
    let left = [true, false, false, false, false, true, false, false, false, false, true, false];
    (format_table(&rows, &left), mirrors)
}

/// How one exchange of a game went: each side's chain of 10 links or more of that round (the
/// chains that send rows; round 0 is each side's first, the opening race, round 1 the race to
/// rebuild after it), who fired first, and who sent more garbage with it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Exchange {
    /// Our chain of the round and theirs (links, turn).
    pub ours: Option<(u32, usize)>,
    pub theirs: Option<(u32, usize)>,
}

/// The exchanges the summary reads, by round.
const ROUND_NAMES: [&str; 2] = ["first", "second"];

impl Exchange {
    /// Round `round` of game `g`; None for a later round in a file written before every chain
    /// was recorded (only the first was).
    fn of(g: &GauntletLine, round: usize) -> Option<Exchange> {
        let chain = |seat: usize| match (&g.line.chains_10, round) {
            (Some(chains), _) => Some(chains[seat].get(round).map(|c| (c.links, c.turn))),
            (None, 0) => Some(g.line.first_chain_10[seat].map(|c| (c.links, c.turn))),
            (None, _) => None,
        };
        Some(Exchange { ours: chain(g.our_seat)?, theirs: chain(g.their_seat())? })
    }

    /// Who fired first: `Less` we did, `Greater` they did, `Equal` the same turn; `None` when
    /// neither fired a 10+ chain.
    pub fn first(&self) -> Option<std::cmp::Ordering> {
        match (self.ours, self.theirs) {
            (None, None) => None,
            (Some(_), None) => Some(std::cmp::Ordering::Less),
            (None, Some(_)) => Some(std::cmp::Ordering::Greater),
            (Some((_, ours)), Some((_, theirs))) => Some(ours.cmp(&theirs)),
        }
    }

    /// Our chain's garbage minus theirs (a side that fired none sent none): positive when we
    /// came out of the exchange ahead.
    pub fn garbage_ahead(&self) -> i64 {
        let garbage = |c: Option<(u32, usize)>| c.map_or(0, |(links, _)| i64::from(crate::rules::chain_garbage(links)));
        garbage(self.ours) - garbage(self.theirs)
    }
}

/// One row of an exchange table: the games of `games` that recorded round `round`.
fn exchange_row(label: &str, games: &[&GauntletLine], round: usize) -> Vec<String> {
    let exchanges: Vec<(Exchange, f64)> =
        games.iter().filter_map(|g| Exchange::of(g, round).map(|e| (e, g.our_score()))).collect();
    let count = |f: &dyn Fn(&Exchange) -> bool| exchanges.iter().filter(|(e, _)| f(e)).count();
    let fired = |side: fn(&Exchange) -> Option<(u32, usize)>| {
        let chains: Vec<(u32, usize)> = exchanges.iter().filter_map(|(e, _)| side(e)).collect();
        let links = median(chains.iter().map(|c| u64::from(c.0)).collect());
        let turn = median(chains.iter().map(|c| c.1 as u64).collect());
        match (links, turn) {
            (Some(l), Some(t)) => format!("{l} at {t} ({})", chains.len()),
            _ => "-".into(),
        }
    };
    let score_when = |f: &dyn Fn(&Exchange) -> bool| {
        let mut t = Tally::default();
        exchanges.iter().filter(|(e, _)| f(e)).for_each(|(_, s)| t.add(*s));
        format!("{}-{}-{}", t.wins, t.draws, t.losses)
    };
    let (ahead, behind) = (count(&|e| e.garbage_ahead() > 0), count(&|e| e.garbage_ahead() < 0));
    vec![
        label.to_string(),
        exchanges.len().to_string(),
        format!(
            "{}/{}/{}/{}",
            count(&|e| e.first() == Some(std::cmp::Ordering::Less)),
            count(&|e| e.first() == Some(std::cmp::Ordering::Greater)),
            count(&|e| e.first() == Some(std::cmp::Ordering::Equal)),
            count(&|e| e.first().is_none())
        ),
        fired(|e| e.ours),
        fired(|e| e.theirs),
        format!("{ahead}/{behind}/{}", exchanges.len() - ahead - behind),
        score_when(&|e| e.first() == Some(std::cmp::Ordering::Less)),
        score_when(&|e| e.first() == Some(std::cmp::Ordering::Greater)),
        score_when(&|e| e.garbage_ahead() > 0),
        score_when(&|e| e.garbage_ahead() < 0),
    ]
}

/// The exchange table of round `round`: one row per opponent, and a total when there are several.
fn exchange_table(opponents: &[Opponent], lines: &[GauntletLine], round: usize) -> String {
    let names = opponent_names(opponents, lines);
    let round_columns = [
        format!("{} 10+ fire: ours/theirs/same turn/none", ROUND_NAMES[round]),
        format!("our {} (median links at turn, games)", ROUND_NAMES[round]),
    ];
    let header = [
        "opponent",
        "games",
        &round_columns[0],
        &round_columns[1],
        "theirs",
        "garbage ahead: ours/theirs/even",
        "W-D-L we fired first",
        "they fired first",
        "we were ahead",
        "they were",
    ];
    let mut rows = vec![header.map(str::to_string).to_vec()];
    for name in &names {
        let games: Vec<&GauntletLine> = lines.iter().filter(|g| g.opponent == *name).collect();
        rows.push(exchange_row(name, &games, round));
    }
    if names.len() > 1 {
        rows.push(exchange_row("total", &lines.iter().collect::<Vec<_>>(), round));
    }
    format_table(&rows, &label_left(header.len()))
}

/// Prints the summary of `lines`, played by `bot`; `source` says where the games come from. Void
/// games ([`GauntletLine::is_void`]) are counted, then left out of every figure.
fn print_summary(bot: &str, source: &str, opponents: &[Opponent], all: &[GauntletLine]) {
    let our_name = all.iter().map(|g| g.line.names[g.our_seat].as_str()).find(|n| !n.is_empty()).unwrap_or("?");
    println!("bot: {our_name} ({bot})");
    let lines: Vec<GauntletLine> = all.iter().filter(|g| !g.is_void()).cloned().collect();
    let lines = &lines[..];
    let void = all.len() - lines.len();
    if void == 0 {
        println!("games: {} ({source})", lines.len());
    } else {
        println!(
            "games: {} ({source}), and {void} void: the opponent ran out of time on the first turn, before \
             it made a move ({}), left out of every figure below; play them again with more cores a game \
             (--cpus-per-game, or fewer --jobs): the same command with the same --json plays only them",
            lines.len(),
            void_counts(all)
        );
    }
    let (table, mirrors) = summary_table(opponents, lines);
    print!("{table}");
    if mirrors > 0 {
        println!(
            "mirror pairs: {mirrors} pair(s) were one game played twice with seats swapped (deterministic bots \
             playing alike): such a pair scores exactly 50% whatever the strengths"
        );
    }
    println!(
        "our peak RSS: the largest peak resident memory (the kernel's VmHWM) of any of our bot's processes \
         in any game, sampled during the game and at its end"
    );
    println!();
    println!("first exchange: each side's first chain of 10 links or more (the first to send rows)");
    print!("{}", exchange_table(opponents, lines, 0));
    if lines.iter().any(|g| g.line.chains_10.is_some()) {
        println!("second exchange: each side's second chain of 10 links or more (the race to rebuild after the first)");
        print!("{}", exchange_table(opponents, lines, 1));
    }
    println!(
        "garbage ahead: whose chain of the round sent more garbage (a side that fired none sent none); W-D-L: \
         our results in the games where we, or they, fired first in that round, and where our chain, or \
         theirs, sent more; the second exchange counts the games whose file recorded every chain"
    );
}
