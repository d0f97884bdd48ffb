//! The referee and match runner: plays games between any two bot commands (any language, run
//! with `sh -c`), on pack files or on packs generated from a seed, with sides swapped on every
//! pack, and reports wins, draws and losses, the Elo difference and, on request, an SPRT.
//!
//! - [`bot`]: a bot process, its input stream and its timed answers.
//! - [`referee`]: one game, turn by turn, with [`crate::rules::Game`] judging.
//! - [`record`]: the JSON lines and the replay folders.
//! - [`stats`]: Elo and SPRT arithmetic.
//! - [`gauntlet`]: one bot against several named opponents, pinned to cores, resumable, sharded
//!   over processes or machines (`--shard`), summarised from any JSON files (`--summary`).
//! - [`jobs`]: games played at once, each pinned to its own cores.
//!
//! Decisions where the rules are silent: the name line has its own startup limit and does not
//! count as thinking time (no name in time: a timeout, an exit: a crash, both judged in turn 0);
//! both bots are shown both remaining times as of the start of the turn, whatever the thinking
//! order; a line that is not `x r` or `S` (an empty line included) is an illegal command; a
//! bot's answer is the next line it prints, so extra lines answer later turns. Bots' stderr is
//! discarded unless `--bot-stderr` (shown) or `--replays` (kept per game). Bots run in their own
//! process group, which is killed at the end of each game.

pub mod acts;
pub mod book;
pub mod bot;
pub mod gauntlet;
pub mod jobs;
pub mod paired;
pub mod record;
pub mod referee;
pub mod stats;
pub mod table;

use std::collections::BTreeMap;
use std::fs;
use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressStyle};

use crate::book::Prelude;
use crate::rules::{FaultKind, Packs};
use bot::StderrTo;
use record::GameLine;
use referee::{Limits, PlayedGame};
use stats::{Sprt, SprtVerdict, Tally};

/// Games played with `--seed` unless `--games` says otherwise.
const DEFAULT_SEED_GAMES: usize = 100;

/// `codevs-reborn arena` flags.
#[derive(Clone, Debug, clap::Args)]
pub struct ArenaArgs {
    /// Bot A: a shell command (run with `sh -c`); the summary is from its point of view.
    #[arg(long, value_name = "CMD")]
    pub p0: String,
    /// Bot B: a shell command (run with `sh -c`).
    #[arg(long, value_name = "CMD")]
    pub p1: String,
    #[command(flatten)]
    pub packs: PackArgs,
    /// Games to play, in pairs on the same packs with sides swapped (default: 2 per pack file,
    /// or 100 with --seed). Pack files are reused in order when there are more games than files.
    #[arg(long, value_name = "N")]
    pub games: Option<usize>,
    #[command(flatten)]
    pub control: ControlArgs,
    /// Write one JSON object per game to FILE (JSON Lines, in game order).
    #[arg(long, value_name = "FILE")]
    pub json: Option<PathBuf>,
    /// Stop early by a sequential probability ratio test of Elo ELO0 against ELO1.
    #[arg(long, value_name = "ELO0,ELO1", value_parser = parse_sprt, allow_hyphen_values = true)]
    pub sprt: Option<(f64, f64)>,
    /// Play every game anyway: the SPRT's verdict is then the one on all the games (when a
    /// fixed number of games is wanted and the SPRT should confirm it).
    #[arg(long, requires = "sprt")]
    pub sprt_no_stop: bool,
    /// The SPRT's false-positive rate.
    #[arg(long, value_name = "P", default_value_t = 0.05)]
    pub sprt_alpha: f64,
    /// The SPRT's false-negative rate.
    #[arg(long, value_name = "P", default_value_t = 0.05)]
    pub sprt_beta: f64,
    /// Games played at once.
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub jobs: usize,
    #[command(flatten)]
    pub record: RecordArgs,
}

/// Where the games and the bots' stderr go (`arena`, `gauntlet` and `tune`).
#[derive(Clone, Debug, Default, clap::Args)]
pub struct RecordArgs {
    /// Keep every game in a folder of its own under DIR (arena: `DIR/game-NNNN/`; gauntlet:
    /// `DIR/<opponent>/game-NNNN/`; tune: `DIR/iteration-NNNNN/game-NNNN/`): input-p0.txt and
    /// input-p1.txt (each bot's exact input), replay.json (every turn's pack, commands, outcomes
    /// and states), game.html (the game as a page to watch in a browser, as `codevs-reborn view`
    /// writes it) and the bots' stderr.
    #[arg(long, value_name = "DIR")]
    pub replays: Option<PathBuf>,
    /// Show the bots' stderr (default: discarded, or kept in the replay folder with --replays).
    #[arg(long)]
    pub bot_stderr: bool,
}

/// Where the packs come from (`arena` and `gauntlet`).
#[derive(Clone, Debug, clap::Args)]
pub struct PackArgs {
    /// A pack file, or a folder of them (its `*.pack` files sorted by name; without any, all
    /// files but hidden ones and `*.md`). Default: the 100 real pack files the project ships
    /// (data/packs, built into the binary).
    #[arg(long, value_name = "PATH", conflicts_with_all = ["seed", "seeds", "book"])]
    pub packs: Option<PathBuf>,
    /// Generate the packs instead: game pair k plays the packs of seed S + k.
    #[arg(long, value_name = "S", conflicts_with_all = ["seeds", "book"])]
    pub seed: Option<u64>,
    /// Generate the packs of these seeds only (comma-separated), game pair k the k-th: a
    /// judgement on the seeds of a block where a change acts (a gate written before its first
    /// game). With `--one-side` our seat is 0 on even seeds, as `--seed` from an even S gives.
    #[arg(long, value_name = "S,S...", value_delimiter = ',', num_args = 1.., conflicts_with = "book")]
    pub seeds: Vec<u64>,
    /// Play from the positions of a book instead (`codevs-reborn book` writes one): game pair k
    /// starts from position k, its moves played by the referee, the bots asked from its turn on
    /// with the clocks where they stood; games are labelled `book:ID`.
    #[arg(long, value_name = "FILE")]
    pub book: Option<PathBuf>,
}

/// The time control and thinking order (`arena` and `gauntlet`).
#[derive(Clone, Debug, clap::Args)]
pub struct ControlArgs {
    /// Thinking time per bot for a whole game, in ms.
    #[arg(long, value_name = "MS", default_value_t = crate::rules::GAME_TIME_MS)]
    pub time_ms: u64,
    /// Cap on one turn's thinking, in ms (0: no cap).
    #[arg(long, value_name = "MS", default_value_t = crate::rules::TURN_TIME_MS)]
    pub turn_ms: u64,
    /// Time a bot has to print its name after starting, in ms (not thinking time).
    #[arg(long, value_name = "MS", default_value_t = 10_000)]
    pub startup_ms: u64,
    /// Let both bots think at the same time (default: one after the other, each with the
    /// whole machine while it thinks).
    #[arg(long)]
    pub simultaneous: bool,
}

impl ControlArgs {
    /// The referee's limits; an error when the game time is zero.
    pub(crate) fn limits(&self) -> Result<Limits, String> {
        if self.time_ms == 0 {
            return Err("--time-ms must be positive".into());
        }
        Ok(Limits {
            game: Duration::from_millis(self.time_ms),
            turn: (self.turn_ms > 0).then(|| Duration::from_millis(self.turn_ms)),
            startup: Duration::from_millis(self.startup_ms),
            simultaneous: self.simultaneous,
        })
    }
}

fn parse_sprt(s: &str) -> Result<(f64, f64), String> {
    let err = || format!("expected ELO0,ELO1 (e.g. 0,5), found {s:?}");
    let (a, b) = s.split_once(',').ok_or_else(err)?;
    let (a, b): (f64, f64) = (a.trim().parse().map_err(|_| err())?, b.trim().parse().map_err(|_| err())?);
    if !(a.is_finite() && b.is_finite() && a < b) {
        return Err(format!("ELO0 must be below ELO1, found {s:?}"));
    }
    Ok((a, b))
}

/// What a game pair is played on: its label (the pack file's path, `seed:N` or `book:ID`), its
/// packs, and for a book position the moves played before the bots are asked.
#[derive(Clone)]
pub(crate) struct Deal {
    pub(crate) label: String,
    pub(crate) packs: Packs,
    pub(crate) prelude: Option<Prelude>,
    /// With one side a pair, the seat our bot plays: for a book position, the seat our bot had in
    /// its game (see [`crate::book::Position::home_seat`]); for a listed seed (`--seeds`), 0 on
    /// even seeds; otherwise seats alternate.
    pub(crate) home_seat: Option<usize>,
}

/// Where each game's packs come from.
pub(crate) enum PackSource {
    /// Pack files or book positions, in order.
    Deals(Vec<Deal>),
    Seed(u64),
}

impl PackSource {
    pub(crate) fn open(args: &PackArgs) -> Result<PackSource, String> {
        if let Some(seed) = args.seed {
            return Ok(PackSource::Seed(seed));
        }
        if !args.seeds.is_empty() {
            let deal = |seed: u64| Deal {
                label: format!("seed:{seed}"),
                packs: Packs::generate(seed),
                prelude: None,
                home_seat: Some((seed % 2) as usize),
            };
            return Ok(PackSource::Deals(args.seeds.iter().map(|&s| deal(s)).collect()));
        }
        if let Some(path) = &args.book {
            let deals = crate::book::read_book(path)?
                .iter()
                .map(|p| {
                    Ok(Deal {
                        label: p.label(),
                        packs: p.packs()?,
                        prelude: Some(p.prelude()?),
                        home_seat: p.home_seat(),
                    })
                })
                .collect::<Result<_, String>>()?;
            return Ok(PackSource::Deals(deals));
        }
        let files = crate::data::pack_set(args.packs.as_deref())?;
        Ok(PackSource::Deals(
            files.into_iter().map(|(label, packs)| Deal { label, packs, prelude: None, home_seat: None }).collect(),
        ))
    }

    /// Pack files or positions before they repeat (`None` for generated packs).
    pub(crate) fn len(&self) -> Option<usize> {
        match self {
            PackSource::Deals(d) => Some(d.len()),
            PackSource::Seed(_) => None,
        }
    }

    fn default_games(&self) -> usize {
        match self {
            PackSource::Deals(d) => 2 * d.len(),
            PackSource::Seed(_) => DEFAULT_SEED_GAMES,
        }
    }

    /// The label of pack pair `pair`: the pack file's path, `seed:N` or `book:ID`.
    pub(crate) fn label(&self, pair: usize) -> String {
        match self {
            PackSource::Deals(d) => d[pair % d.len()].label.clone(),
            PackSource::Seed(s) => format!("seed:{}", s.wrapping_add(pair as u64)),
        }
    }

    /// With one side a pair, the seat our bot plays in pair `pair` (see [`Deal::home_seat`]).
    pub(crate) fn home_seat(&self, pair: usize) -> Option<usize> {
        match self {
            PackSource::Deals(d) => d[pair % d.len()].home_seat,
            PackSource::Seed(_) => None,
        }
    }

    /// What pack pair `pair` is played on.
    pub(crate) fn get(&self, pair: usize) -> Deal {
        match self {
            PackSource::Deals(d) => d[pair % d.len()].clone(),
            PackSource::Seed(s) => {
                let seed = s.wrapping_add(pair as u64);
                Deal { label: format!("seed:{seed}"), packs: Packs::generate(seed), prelude: None, home_seat: None }
            }
        }
    }
}

/// One game between bot A and bot B, as `arena` and `gauntlet` play it.
pub(crate) struct GameSpec<'a> {
    /// The game's number in its JSON line.
    pub(crate) game: usize,
    /// The seat bot A plays in (B plays the other).
    pub(crate) a_seat: usize,
    /// What the game is played on.
    pub(crate) deal: Deal,
    /// Bot A's and bot B's commands.
    pub(crate) commands: [&'a str; 2],
    /// Both bots run under `taskset -c cpus` when given.
    pub(crate) cpus: Option<&'a str>,
    /// The folder keeping the game's replay and the bots' stderr (`None`: no replay).
    pub(crate) replay_dir: Option<PathBuf>,
    /// Show the bots' stderr (else discarded or kept in the replay folder).
    pub(crate) bot_stderr: bool,
}

/// A game as the main thread gets it.
pub(crate) struct Finished {
    pub(crate) line: GameLine,
    /// The seat bot A played in.
    pub(crate) a_seat: usize,
    pub(crate) played: PlayedGame,
}

impl Finished {
    /// The game's score for bot A: 1, ½ or 0.
    pub(crate) fn score(&self) -> f64 {
        stats::seat_score(self.played.result.winner, self.a_seat)
    }
}

/// Plays a game and writes its replay folder. `Ok(None)` when `stop` was raised before the end
/// (its replay folder is then removed).
pub(crate) fn play_recorded(spec: GameSpec, limits: &Limits, stop: &AtomicBool) -> Result<Option<Finished>, String> {
    let [a, b] = spec.commands;
    let commands = if spec.a_seat == 0 { [a, b] } else { [b, a] };
    let dir = spec.replay_dir;
    let stderr = match &dir {
        _ if spec.bot_stderr => [StderrTo::Inherit, StderrTo::Inherit],
        None => [StderrTo::Discard, StderrTo::Discard],
        Some(dir) => {
            fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
            let file = |p: usize| {
                let path = dir.join(format!("stderr-p{p}.txt"));
                fs::File::create(&path).map(StderrTo::File).map_err(|e| format!("{}: {e}", path.display()))
            };
            [file(0)?, file(1)?]
        }
    };
    let Deal { label, packs, prelude, .. } = spec.deal;
    let played = referee::play_game(&packs, prelude.as_ref(), commands, spec.cpus, stderr, limits, stop)?;
    let Some(played) = played else {
        if let Some(dir) = &dir {
            let _ = fs::remove_dir_all(dir);
        }
        return Ok(None);
    };
    let line = GameLine::new(spec.game, label, commands.map(str::to_string), &played);
    if let Some(dir) = &dir {
        record::write_replay(dir, &line, &played)?;
    }
    Ok(Some(Finished { line, a_seat: spec.a_seat, played }))
}

/// Appends `value` to a JSON Lines file as one line.
fn append_json_line<T: serde::Serialize>(file: &mut fs::File, value: &T) -> Result<(), String> {
    let mut line = serde_json::to_string(value).map_err(|e| format!("--json: {e}"))?;
    line.push('\n');
    file.write_all(line.as_bytes()).map_err(|e| format!("--json: {e}"))
}

/// Plays games 0..count on `jobs` threads: worker `slot` (0..jobs) calls `play(slot, g)` for
/// the next game g not yet taken, until every game is taken or `stop` is raised; `take` gets
/// each result on the calling thread as it arrives (in any order).
pub(crate) fn play_in_parallel<T: Send>(
    jobs: usize,
    count: usize,
    stop: &AtomicBool,
    play: impl Fn(usize, usize) -> T + Sync,
    mut take: impl FnMut(usize, T),
) {
    let next = AtomicUsize::new(0);
    let (tx, rx) = mpsc::channel();
    std::thread::scope(|scope| {
        for slot in 0..jobs.min(count) {
            let tx = tx.clone();
            let (play, next) = (&play, &next);
            scope.spawn(move || loop {
                let g = next.fetch_add(1, Ordering::Relaxed);
                if g >= count || stop.load(Ordering::Relaxed) {
                    return;
                }
                if tx.send((g, play(slot, g))).is_err() {
                    return;
                }
            });
        }
        drop(tx);
        for (g, result) in rx {
            take(g, result);
        }
    });
}

/// The running totals from bot A's point of view.
#[derive(Default)]
struct Summary {
    tally: Tally,
    /// (bot, fault) → games lost or drawn with it.
    faults: BTreeMap<(char, &'static str), u64>,
    names: [Option<String>; 2],
    stopped: Option<SprtVerdict>,
    /// The SPRT's verdict on the games so far (when not stopping early).
    verdict: Option<SprtVerdict>,
}

impl Summary {
    fn add(&mut self, f: &Finished) {
        self.tally.add(f.score());
        for seat in 0..2 {
            let bot = usize::from(seat != f.a_seat);
            if let Some(kind) = f.played.faults[seat] {
                *self.faults.entry((['A', 'B'][bot], fault_name(kind))).or_default() += 1;
            }
            if self.names[bot].is_none() && !f.played.names[seat].is_empty() {
                self.names[bot] = Some(f.played.names[seat].clone());
            }
        }
    }

    fn progress(&self) -> String {
        let t = &self.tally;
        format!("A {}W {}D {}L", t.wins, t.draws, t.losses)
    }

    fn print(&self, args: &ArenaArgs, sprt: Option<&Sprt>) {
        let t = &self.tally;
        let name = |i: usize| self.names[i].as_deref().unwrap_or("?");
        println!("A: {} ({})", name(0), args.p0);
        println!("B: {} ({})", name(1), args.p1);
        let score = t.score().map_or("-".to_string(), |s| format!("{:.1}%", 100.0 * s));
        println!("games {}: A wins {}, draws {}, losses {} (score {score})", t.games(), t.wins, t.draws, t.losses);
        if let Some(e) = stats::elo_estimate(t) {
            println!("Elo A-B: {} [{}, {}] (95%)", fmt_elo(e.elo), fmt_elo(e.low), fmt_elo(e.high));
        }
        let faults: Vec<String> = self.faults.iter().map(|((bot, kind), n)| format!("{bot} {kind} {n}")).collect();
        println!("faults: {}", if faults.is_empty() { "none".to_string() } else { faults.join(", ") });
        if let Some(s) = sprt {
            let (low, high) = s.bounds();
            let verdict = match self.stopped.or(self.verdict) {
                Some(SprtVerdict::H0) => "H0 accepted",
                Some(SprtVerdict::H1) => "H1 accepted",
                _ => "no decision",
            };
            println!(
                "SPRT elo0 {} elo1 {} (alpha {}, beta {}): LLR {:.3} [{low:.3}, {high:.3}]: {verdict}",
                s.elo0,
                s.elo1,
                s.alpha,
                s.beta,
                s.llr(t)
            );
        }
    }
}

pub(crate) fn fault_name(kind: FaultKind) -> &'static str {
    match kind {
        FaultKind::Timeout => "timeout",
        FaultKind::Invalid => "invalid",
        FaultKind::Crash => "crash",
    }
}

pub(crate) fn fmt_elo(e: f64) -> String {
    if e.is_infinite() {
        if e > 0.0 { "+inf" } else { "-inf" }.to_string()
    } else {
        format!("{:+.1}", e + 0.0) // + 0.0 turns -0.0 into 0.0
    }
}

/// Runs a match; an error is a one-line message for the user.
pub fn run(args: &ArenaArgs) -> Result<(), String> {
    if args.jobs == 0 {
        return Err("--jobs must be at least 1".into());
    }
    let limits = args.control.limits()?;
    for (flag, p) in [("--sprt-alpha", args.sprt_alpha), ("--sprt-beta", args.sprt_beta)] {
        if !(p > 0.0 && p < 0.5) {
            return Err(format!("{flag} must be between 0 and 0.5, found {p}"));
        }
    }
    let sprt = args.sprt.map(|(elo0, elo1)| Sprt { elo0, elo1, alpha: args.sprt_alpha, beta: args.sprt_beta });
    let source = PackSource::open(&args.packs)?;
    let games = args.games.unwrap_or_else(|| source.default_games());
    if games == 0 {
        return Err("--games must be at least 1".into());
    }
    let mut json = match &args.json {
        Some(path) => Some(fs::File::create(path).map_err(|e| format!("{}: {e}", path.display()))?),
        None => None,
    };
    if let Some(dir) = &args.record.replays {
        fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    let stop = AtomicBool::new(false);
    // Game g: pack pair g / 2, bot A as player 0 in even games and player 1 in odd ones.
    let play = |_slot: usize, g: usize| {
        let spec = GameSpec {
            game: g,
            a_seat: g % 2,
            deal: source.get(g / 2),
            commands: [&args.p0, &args.p1],
            cpus: None,
            replay_dir: args.record.replays.as_ref().map(|root| record::replay_dir(root, g)),
            bot_stderr: args.record.bot_stderr,
        };
        play_recorded(spec, &limits, &stop)
    };

    let bar = ProgressBar::new(games as u64);
    bar.set_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} games  {msg}  [{elapsed_precise}]")
            .expect("a valid template"),
    );
    let mut summary = Summary::default();
    let mut error = None;
    // Results are taken in game order, so output and the SPRT do not depend on --jobs.
    let mut pending = BTreeMap::new();
    let mut in_order = 0;
    play_in_parallel(args.jobs, games, &stop, play, |g, result| {
        pending.insert(g, result);
        while error.is_none() && summary.stopped.is_none() {
            let Some(result) = pending.remove(&in_order) else { break };
            in_order += 1;
            match result {
                Ok(Some(finished)) => {
                    let outcome = take(&finished, &mut json, &mut summary, sprt.as_ref(), !args.sprt_no_stop);
                    if let Err(e) = outcome {
                        error = Some(e);
                    }
                    bar.inc(1);
                    bar.set_message(summary.progress());
                }
                Ok(None) => {}
                Err(e) => error = Some(e),
            }
            if error.is_some() || summary.stopped.is_some() {
                stop.store(true, Ordering::Relaxed);
            }
        }
    });
    bar.finish_and_clear();
    if let Some(e) = error {
        return Err(e);
    }
    summary.print(args, sprt.as_ref());
    Ok(())
}

/// Counts a finished game: its JSON line, the tally and the SPRT.
fn take(
    f: &Finished,
    json: &mut Option<fs::File>,
    summary: &mut Summary,
    sprt: Option<&Sprt>,
    stop: bool,
) -> Result<(), String> {
    if let Some(file) = json {
        append_json_line(file, &f.line)?;
    }
    summary.add(f);
    if let Some(s) = sprt {
        match s.verdict(&summary.tally) {
            SprtVerdict::Continue => summary.verdict = None,
            v if stop => summary.stopped = Some(v),
            v => summary.verdict = Some(v),
        }
    }
    Ok(())
}
