//! `bench bot`: the whole bot's decision on fixed positions, at a node budget, with a signature.
//!
//! Stockfish's `bench`: every search of one decision (the opening plan or the rebuild, the probes
//! of their field, the race, the safety check, the midgame search) runs as the bot runs it, on
//! turn 0 of a few shipped pack files and on both sides of the books' race positions, each
//! decision by a fresh bot that starts there as `gauntlet --book` starts one. With a node budget
//! every decision is reproducible, so two signatures sum it all up: `moves` (the actions, the
//! same on any thread count) and `reading` (the actions and every line the bot explains them
//! with, but the time budget's; the same on one thread: the midgame search reports the nodes
//! it spent, a few past the budget when its threads stop).
//! A change meant to keep the bot's play leaves both alike; one meant to make it faster shows
//! its speed as the time a decision takes at the same budget, on the same machine.

use std::hash::Hasher as _;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use fnv::FnvHasher;

use crate::bench::positions::player_input;
use crate::book::Position;
use crate::bot::{Bot, BotOptions, Strategy};
use crate::protocol::{PlayerInput, TurnInput};
use crate::rules::{Action, Field, Packs};

/// The node budget of a decision's searches when the bot's own `--node-budget` is 0 (a time
/// budget would not be reproducible).
pub const DEFAULT_NODE_BUDGET: u64 = 1_000_000;

/// A whole game's thinking time at the contest's control: positions start with what the
/// recorded game left of it.
const GAME_TIME: Duration = Duration::from_secs(180);

/// `codevs-reborn bench bot` flags.
#[derive(Clone, Debug, clap::Args)]
pub struct BotBenchArgs {
    /// Books of positions (`codevs-reborn book`). Default: the books the project ships
    /// (data/books, built into the binary).
    #[arg(value_name = "BOOK")]
    pub books: Vec<PathBuf>,
    /// Decide on every K-th position of the books (1: all of them), both sides of each.
    #[arg(long, value_name = "K", default_value_t = 4, value_parser = clap::value_parser!(u64).range(1..))]
    pub every: u64,
    /// Also decide turn 0 (the opening plan) of the first N shipped pack files.
    #[arg(long, value_name = "N", default_value_t = 4)]
    pub openings: usize,
    /// The bot as it plays (its flags; `--node-budget` is a decision's budget, 0 meaning 1000000).
    #[command(flatten)]
    pub bot: BotOptions,
}

/// One decision of the bench: where, what was decided, and how long it took.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Decision {
    /// The position's id (`pack_NNNN.pack` for an opening) and the seat that decided.
    pub label: String,
    pub seat: usize,
    pub turn: usize,
    pub action: Action,
    /// The bot's explanation, the time budget's line left out.
    pub reading: String,
    pub elapsed: Duration,
}

/// A turn to decide: the game's packs and both players as the protocol gives them.
struct Case {
    label: String,
    seat: usize,
    packs: Packs,
    input: TurnInput,
}

/// The bot's options as the bench runs them: the full bot, a node budget set.
pub fn bench_options(bot: &BotOptions) -> BotOptions {
    let mut options = BotOptions { strategy: Strategy::Full, turn: None, game: None, ..bot.clone() };
    if options.beam.node_budget == 0 {
        options.beam.node_budget = DEFAULT_NODE_BUDGET;
    }
    options
}

/// The turns the bench decides: the openings, then both seats of every `every`-th position.
fn cases(args: &BotBenchArgs) -> Result<Vec<Case>, String> {
    let mut cases = Vec::new();
    let full = GAME_TIME.as_millis() as u64;
    let empty = PlayerInput { time_left_ms: full, garbage: 0, gauge: 0, score: 0, field: Field::empty() };
    for (label, packs) in crate::data::pack_set(None)?.into_iter().take(args.openings) {
        let label = label.rsplit('/').next().unwrap_or(&label).to_string();
        let input = TurnInput { turn: 0, me: empty.clone(), opponent: empty.clone() };
        cases.push(Case { label, seat: 0, packs, input });
    }
    let positions = crate::data::book_set(&args.books)?;
    for position in positions.iter().step_by(args.every as usize) {
        for seat in 0..2 {
            cases.push(position_case(position, seat)?);
        }
    }
    Ok(cases)
}

fn position_case(position: &Position, seat: usize) -> Result<Case, String> {
    let (packs, input) = position_turn(position, seat)?;
    Ok(Case { label: position.id.clone(), seat, packs, input })
}

/// The turn a bot in seat `seat` of a book position is asked (the game's packs and its input),
/// each clock where the recorded game left it.
pub fn position_turn(position: &Position, seat: usize) -> Result<(Packs, TurnInput), String> {
    let prelude = position.prelude()?;
    let mut used = [Duration::ZERO; 2];
    for turn in 0..position.turn {
        let time = prelude.time_at(turn, GAME_TIME);
        for (u, t) in used.iter_mut().zip(time) {
            *u += t;
        }
    }
    let left = |s: usize| GAME_TIME.saturating_sub(used[s]).as_millis() as u64;
    let input = TurnInput {
        turn: position.turn,
        me: player_input(position, seat, left(seat))?,
        opponent: player_input(position, 1 - seat, left(1 - seat))?,
    };
    Ok((position.packs()?, input))
}

/// Decides one case with a fresh bot.
fn decide(options: &BotOptions, case: Case) -> Decision {
    let mut bot = Bot::new(options.clone());
    bot.new_game(case.packs);
    let started = Instant::now();
    let (action, why) = bot.think(&case.input);
    let elapsed = started.elapsed();
    let reading = why.lines().filter(|l| !l.trim_start().starts_with("budget ")).collect::<Vec<_>>().join("\n");
    Decision { label: case.label, seat: case.seat, turn: case.input.turn, action, reading, elapsed }
}

/// Every decision of the bench, in order, a progress bar on stderr.
pub fn decisions(args: &BotBenchArgs) -> Result<Vec<Decision>, String> {
    let options = bench_options(&args.bot);
    if options.threads > 0 {
        rayon::ThreadPoolBuilder::new().num_threads(options.threads).build_global().map_err(|e| e.to_string())?;
    }
    let cases = cases(args)?;
    let progress = indicatif::ProgressBar::new(cases.len() as u64);
    let mut decisions = Vec::with_capacity(cases.len());
    for case in cases {
        let decision = decide(&options, case);
        progress.suspend(|| println!("{}", row(&decision)));
        if options.explain {
            progress.suspend(|| println!("{}", decision.reading));
        }
        progress.inc(1);
        decisions.push(decision);
    }
    progress.finish_and_clear();
    Ok(decisions)
}

fn row(d: &Decision) -> String {
    format!("{:<24} {:>4} {:>4} {:>6} {:>9.1}", d.label, d.seat, d.turn, d.action.to_string(), ms(d.elapsed))
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

/// The two signatures of a run: over the moves alone, and over the moves with their readings.
pub fn signatures(decisions: &[Decision]) -> (u64, u64) {
    let (mut moves, mut reading) = (FnvHasher::default(), FnvHasher::default());
    for d in decisions {
        let head = format!("{} {} {} {}\n", d.label, d.seat, d.turn, d.action);
        moves.write(head.as_bytes());
        reading.write(head.as_bytes());
        reading.write(d.reading.as_bytes());
    }
    (moves.finish(), reading.finish())
}

pub fn run(args: &BotBenchArgs) -> Result<(), String> {
    let options = bench_options(&args.bot);
    let threads = match options.threads {
        0 => "one per core".to_string(),
        1 => "1 thread".to_string(),
        n => format!("{n} threads"),
    };
    println!("bot bench: node budget {} a decision, {threads}", options.beam.node_budget);
    println!("{:<24} {:>4} {:>4} {:>6} {:>9}", "position", "seat", "turn", "action", "ms");
    let started = Instant::now();
    let decisions = decisions(args)?;
    let total = started.elapsed();
    let mut times: Vec<f64> = decisions.iter().map(|d| ms(d.elapsed)).collect();
    times.sort_by(f64::total_cmp);
    let median = times.get(times.len() / 2).copied().unwrap_or(0.0);
    let (moves, reading) = signatures(&decisions);
    println!(
        "decisions: {} in {:.1} s, {:.1} ms a decision (median {median:.1} ms)",
        decisions.len(),
        total.as_secs_f64(),
        ms(total) / decisions.len().max(1) as f64
    );
    if let Some(mib) = crate::memory::peak_rss_mib() {
        println!("peak RSS: {mib:.1} MiB");
    }
    println!("signature: moves {moves:016x} reading {reading:016x}");
    Ok(())
}
