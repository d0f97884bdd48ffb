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
//!
//! This module plans and plays the games; `line` reads and writes the `--json` file's game
//! lines, `summary` prints the tables from them.

mod gate;
mod line;
mod summary;

use std::collections::HashSet;
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};

use indicatif::{ProgressBar, ProgressStyle};

use super::jobs::PinnedJobs;
use super::paired::{pair_games, Paired};
use super::record;
use super::stats::SprtVerdict;
use super::{append_json_line, play_in_parallel, play_recorded, ControlArgs, GameSpec};
use super::{Finished, PackArgs, PackSource, RecordArgs};
use crate::arena::acts::Decision;
use crate::rules::FaultKind;

pub use line::GauntletLine;
use line::{drop_replayed_void, load_lines, moves_fingerprint};
pub use summary::Exchange;
use summary::{played_outcomes, print_summary, summarize, tally};

/// `codevs-reborn gauntlet` flags.
#[derive(Clone, Debug, clap::Args)]
pub struct GauntletArgs {
    /// Our bot: a shell command (run with `sh -c`); the summary is from its point of view.
    #[arg(long, value_name = "CMD", required_unless_present_any = ["summary", "rule_power"])]
    pub bot: Option<String>,
    #[command(flatten)]
    pub opponents: OpponentArgs,
    #[command(flatten)]
    pub packs: PackArgs,
    /// Game pairs per opponent: pair k plays pack file k (or seed S + k, the k-th of --seeds, or
    /// book position k) twice, sides swapped. Every opponent gets the same packs; pack files are
    /// reused in order when there are fewer. Default: 6, or every seed of --seeds or position of
    /// --book.
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
        conflicts_with_all = ["bot", "opponents", "opponent", "json", "replays", "shard", "candidate"]
    )]
    pub summary: Vec<PathBuf>,
    /// With --summary: also summarize another bot's games in these --json files, and compare
    /// the two game by game (same opponent, pack file and seat) with a sign test.
    #[arg(long, value_name = "FILE", num_args = 1.., requires = "summary")]
    pub compare: Vec<PathBuf>,
    /// With --summary: the files' games are one bot's even where its command differs, as the
    /// same build run from another path in another session does (to pool judgements); the
    /// summary names every command, and a game is refused twice only under the same command.
    /// With --compare both sides are pooled, and each side holds a game (opponent, pack file,
    /// seat) once whatever its command: a game there twice would pair twice.
    #[arg(long, requires = "summary")]
    pub pool: bool,
    /// With --summary, --compare and --where-held, --where-forced-loss or --where-outpaced: the
    /// --replays folders of the --compare games (each game is looked for in each), where whether a
    /// game met the decision is read.
    #[arg(long, value_name = "DIR", num_args = 1.., requires = "compare")]
    pub compare_replays: Vec<PathBuf>,
    /// Play nothing: print what the ledger's sequential sign rule decides when a pair where one
    /// bot did better goes to the candidate with each chance from 0.50 to 0.85 (the chance of
    /// each verdict and the discordant pairs it takes): what a judgement can see, read before
    /// its block is declared.
    #[arg(
        long,
        conflicts_with_all = ["bot", "opponents", "opponent", "json", "replays", "shard", "candidate", "summary"]
    )]
    pub rule_power: bool,
    /// With --rule-power: the most discordant pairs the judgement plays (a block's end); walks
    /// with no verdict by then count there.
    #[arg(long, value_name = "N", default_value_t = 1000, requires = "rule_power")]
    pub rule_cap: usize,
    #[command(flatten)]
    pub judge: JudgeArgs,
}

/// A paired judgement: a candidate against `--bot` on the same games, stopped by the ledger's
/// sequential rule.
#[derive(Clone, Debug, clap::Args)]
pub struct JudgeArgs {
    /// Judge a candidate against --bot: every planned game is played by both (the bot's game, then
    /// the candidate's: same packs, seat and opponent), and an opponent's games stop as soon as
    /// the ledger's sequential sign rule on its pairs reaches a verdict (each pair the candidate
    /// did better on adds ln 1.6, each it did worse on ln 0.4; stop at ±ln 19: data/README.md);
    /// a game a job slot had already started is finished and kept. Needs --json and
    /// --candidate-json; prints both summaries and the paired table at the end.
    #[arg(long, value_name = "CMD", requires_all = ["json", "candidate_json"], conflicts_with = "shard")]
    pub candidate: Option<String>,
    /// The candidate's games, one JSON object per game, resumed as --json is.
    #[arg(long, value_name = "FILE", requires = "candidate")]
    pub candidate_json: Option<PathBuf>,
    /// Keep the candidate's games as --replays keeps the bot's (`DIR/<opponent>/game-NNNN/`).
    #[arg(long, value_name = "DIR", requires = "candidate")]
    pub candidate_replays: Option<PathBuf>,
    /// Play the candidate's game of a pair only where the bot's game held a plan fire of LINKS
    /// or more: a turn, up to the first chain of 10+ links by either side, on which its plan's
    /// line fired that chain now and it fired no chain of 10+ (read from the game's
    /// `race-features` lines, so --replays is needed). A candidate that changes that decision
    /// plays the bot's game everywhere else, where its pairs differ only by chance; the stop
    /// rule then counts the pairs where it can act. Each candidate game starts once the bot's
    /// game of its pair has ended.
    ///
    /// With --summary and --compare, it reads a judgement played without it: only the pairs whose
    /// --compare game held such a fire are summarized and compared (--compare-replays).
    #[arg(long, value_name = "LINKS")]
    pub where_held: Option<u32>,
    /// Play the candidate's game of a pair only where the race of the bot's game weighed a fire
    /// into a forced loss: a turn, up to the first chain of 10+ links by either side, on which
    /// our chain of LINKS or more was ready, its rows more than the rows free above their
    /// tallest column (their answer forced), and their answer probed larger (fired or not). As
    /// --where-held otherwise, and with --summary and --compare too.
    #[arg(long, value_name = "LINKS", conflicts_with = "where_held")]
    pub where_forced_loss: Option<u32>,
    /// Play the candidate's game of a pair only where the bot's game was outpaced: a turn, up to
    /// the first chain of 10+ links by either side, on which their menu's first chain of LINKS or
    /// more went off before our plan's fire and our plan's line held no larger chain on the turn
    /// after it (on its fire turn, the chain it fires whether their row falls or not). As
    /// --where-held otherwise, and with --summary and --compare too.
    #[arg(long, value_name = "LINKS", conflicts_with_all = ["where_held", "where_forced_loss"])]
    pub where_outpaced: Option<u32>,
}

impl JudgeArgs {
    /// The decision the candidate is played (or read) where it came up, if one is asked for.
    fn acts(&self) -> Option<Decision> {
        // clap lets one of them through at most.
        self.where_held
            .map(Decision::HeldPlanFire)
            .or(self.where_forced_loss.map(Decision::ForcedLoss))
            .or(self.where_outpaced.map(Decision::Outpaced))
    }
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

/// One game still to play.
struct Task<'a> {
    /// The opponent's index, and the opponent.
    o: usize,
    opponent: &'a Opponent,
    /// The game's index within the opponent (pair game / 2, our seat game % 2).
    game: usize,
    /// Which bot plays it: 0 `--bot`, 1 `--candidate`.
    arm: usize,
}

/// One bot of the gauntlet (`--bot`, or a judgement's `--candidate`): its command, its games so
/// far, where new ones are written and kept.
struct Arm<'a> {
    bot: &'a str,
    json: Option<(&'a Path, fs::File)>,
    replays: Option<&'a Path>,
    lines: Vec<GauntletLine>,
    resumed: usize,
}

impl<'a> Arm<'a> {
    /// The bot's games so far (its `json` file's, checked to be this bot's against these
    /// opponents), its file opened to append, its replays folder made.
    fn open(
        bot: &'a str,
        json: Option<&'a Path>,
        replays: Option<&'a Path>,
        opponents: &[Opponent],
    ) -> Result<Self, String> {
        let lines = match json {
            Some(path) => load_lines(path)?,
            None => Vec::new(),
        };
        let file = match json {
            Some(path) => {
                check_resumed(path, &lines, bot, opponents)?;
                let file = fs::OpenOptions::new()
                    .create(true)
                    .append(true)
                    .open(path)
                    .map_err(|e| format!("{}: {e}", path.display()))?;
                Some((path, file))
            }
            None => None,
        };
        if let Some(dir) = replays {
            fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        }
        let resumed = lines.len();
        Ok(Arm { bot, json: file, replays, lines, resumed })
    }

    /// The games already played (void ones are played again: the opponent never got to play).
    fn done(&self) -> HashSet<(String, String, usize)> {
        let key = |g: &GauntletLine| (g.opponent.clone(), g.line.packs.clone(), g.line.game);
        self.lines.iter().filter(|g| !g.is_void()).map(key).collect()
    }
}

/// One opponent's pairs of a judgement: the candidate's games (A) against the bot's (B).
fn judge_opponent(bot: &Arm, candidate: &Arm, opponent: &str) -> Paired {
    let (mut by_opponent, _) = pair_games(&played_outcomes(&candidate.lines), &played_outcomes(&bot.lines));
    by_opponent.remove(opponent).unwrap_or_default()
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
    if args.rule_power {
        print!("{}", super::paired::rule_power_text(args.rule_cap));
        return Ok(());
    }
    if !args.summary.is_empty() {
        let acts = args.judge.acts().map(|decision| (decision, args.compare_replays.as_slice()));
        if let (Some((decision, _)), true) = (acts, args.compare_replays.is_empty()) {
            return Err(format!(
                "--summary {} reads the --compare games: give their --replays folders with --compare-replays",
                decision.flag()
            ));
        }
        return summarize(&args.summary, &args.compare, args.pool, acts);
    }
    let bot = args.bot.as_deref().ok_or("--bot is required")?;
    let judge = &args.judge;
    let acts = judge.acts();
    if let (Some(decision), true) = (acts, judge.candidate.is_none() || args.record.replays.is_none()) {
        return Err(format!(
            "{} plays the candidate where the bot's game {}: it needs --candidate and the bot's --replays (or \
             --summary and --compare, to read a judgement)",
            decision.flag(),
            decision.describe()
        ));
    }
    if judge.candidate.as_deref() == Some(bot) {
        return Err("--candidate is the same command as --bot: a judgement needs two bots".into());
    }
    let json = judge.candidate_json.as_deref();
    if json.is_some() && json == args.json.as_deref() {
        return Err("--candidate-json is the --json file: each bot needs its own".into());
    }
    let replays = judge.candidate_replays.as_deref();
    if replays.is_some() && replays == args.record.replays.as_deref() {
        return Err("--candidate-replays is the --replays folder: each bot's games need their own".into());
    }
    let limits = args.control.limits()?;
    let opponents = opponents(args)?;
    let source = PackSource::open(&args.packs)?;
    let listed = args.packs.book.is_some() || !args.packs.seeds.is_empty();
    let pairs = args.pairs.unwrap_or(if listed { source.len().unwrap_or(0) } else { DEFAULT_PAIRS });
    if pairs == 0 {
        return Err("--pairs must be at least 1".into());
    }
    let cpus = args.jobs.slots()?;
    let mut arms = vec![Arm::open(bot, args.json.as_deref(), args.record.replays.as_deref(), &opponents)?];
    if let Some(candidate) = &judge.candidate {
        arms.push(Arm::open(candidate, json, replays, &opponents)?);
    }

    // A judgement's opponents whose verdict is already in (resumed files) play no more games.
    let decided: Vec<AtomicBool> = opponents
        .iter()
        .map(|o| {
            AtomicBool::new(
                arms.len() == 2 && judge_opponent(&arms[0], &arms[1], &o.name).verdict() != SprtVerdict::Continue,
            )
        })
        .collect();
    let labels: Vec<String> = (0..pairs).map(|p| source.label(p)).collect();
    let done: Vec<_> = arms.iter().map(Arm::done).collect();
    let planned = planned_games(opponents.len(), pairs, args.one_side, |pair| source.home_seat(pair), args.shard);
    let (opponents, arm_count) = (&opponents, arms.len());
    let tasks: Vec<Task> = planned
        .iter()
        .flat_map(|&(o, game)| (0..arm_count).map(move |arm| Task { o, opponent: &opponents[o], game, arm }))
        .filter(|t| !done[t.arm].contains(&(t.opponent.name.clone(), labels[t.game / 2].clone(), t.game)))
        .filter(|t| !decided[t.o].load(Ordering::Relaxed))
        .collect();
    let planned = planned.len() * arms.len();
    let bot_replays = args.record.replays.as_deref();
    let (tasks, gate) = match (acts, bot_replays) {
        (Some(decision), Some(folder)) => {
            let tasks = gate::candidate_after_bot(tasks, args.jobs.jobs);
            let gate = gate::ActsGate::new(decision, folder, &tasks);
            (tasks, Some(gate))
        }
        _ => (tasks, None),
    };

    let stop = AtomicBool::new(false);
    let commands: Vec<&str> = arms.iter().map(|a| a.bot).collect();
    let replays: Vec<Option<&Path>> = arms.iter().map(|a| a.replays).collect();
    let play = |slot: usize, i: usize| {
        let task = &tasks[i];
        if decided[task.o].load(Ordering::Relaxed) {
            return Ok(None);
        }
        if let (1, Some(gate)) = (task.arm, &gate) {
            let given_up = || stop.load(Ordering::Relaxed) || decided[task.o].load(Ordering::Relaxed);
            if gate.plays(task, given_up)? != Some(true) {
                return Ok(None);
            }
        }
        let spec = GameSpec {
            game: task.game,
            a_seat: task.game % 2,
            deal: source.get(task.game / 2),
            commands: [commands[task.arm], &task.opponent.command],
            cpus: cpus[slot].as_deref(),
            replay_dir: replays[task.arm].map(|root| record::replay_dir(&root.join(&task.opponent.name), task.game)),
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
        let task = &tasks[i];
        match result {
            Ok(Some((finished, cpus))) => {
                let arm = &mut arms[task.arm];
                if let Some(e) = never_started(arm.bot, task.opponent, &finished) {
                    error = Some(e);
                } else {
                    let game = gauntlet_line(&task.opponent.name, finished, cpus);
                    if let (0, Some(gate)) = (task.arm, &gate) {
                        if let Err(e) = gate.bot_game_ended(task, game.is_void()) {
                            error = Some(e);
                        }
                    }
                    if let Some((_, file)) = &mut arm.json {
                        if let Err(e) = append_json_line(file, &game) {
                            error = Some(e);
                        }
                    }
                    arm.lines.push(game);
                    bar.inc(1);
                    bar.set_message(progress(&task.opponent.name, &arm.lines));
                    if arms.len() == 2 && !decided[task.o].load(Ordering::Relaxed) {
                        let pairs = judge_opponent(&arms[0], &arms[1], &task.opponent.name);
                        if pairs.verdict() != SprtVerdict::Continue {
                            decided[task.o].store(true, Ordering::Relaxed);
                            bar.println(format!(
                                "{}: the stop rule says {} (A: the candidate) after {} pairs: its other games are not played",
                                task.opponent.name,
                                pairs.stop_rule(),
                                pairs.pairs()
                            ));
                        }
                    }
                }
            }
            Ok(None) => bar.inc(1),
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
    if let (Some(gate), Some(decision)) = (&gate, acts) {
        println!(
            "{}: {} of the candidate's games not played (the bot's game never {})",
            decision.flag(),
            gate.skipped.load(Ordering::Relaxed),
            decision.describe()
        );
    }
    if let [bot, candidate] = &arms[..] {
        // Both files hold every game: the summaries and the paired table are --summary's.
        let path =
            |arm: &Arm| arm.json.as_ref().map(|(path, _)| path.to_path_buf()).ok_or("a judgement needs --json files");
        if candidate.lines.is_empty() {
            // --where-held (or another --where-…) found no pair the candidate can act on: the
            // bot's games alone.
            println!("the candidate has played no game: no pairs to judge yet");
            return summarize(&[path(bot)?], &[], false, None);
        }
        return summarize(&[path(candidate)?], &[path(bot)?], false, None);
    }
    let arm = arms.pop().expect("the bot's arm");
    let played = arm.lines.len() - arm.resumed;
    let mut source = match arm.json {
        Some((path, _)) if arm.resumed > 0 => format!("{played} played now, {} from {}", arm.resumed, path.display()),
        _ => format!("{played} played now"),
    };
    if let Some(Shard { index, count }) = args.shard {
        source.push_str(&format!("; shard {index}/{count}"));
    }
    print_summary(bot, &source, opponents, &drop_replayed_void(arm.lines));
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

/// The progress bar's message: the tally against the opponent of the game that just ended.
fn progress(opponent: &str, lines: &[GauntletLine]) -> String {
    let t = tally(lines.iter().filter(|g| g.opponent == opponent && !g.is_void()));
    format!("vs {opponent}: {}W {}D {}L", t.wins, t.draws, t.losses)
}
