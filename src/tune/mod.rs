//! `codevs-reborn tune`: SPSA over the bot's flags, as fishtest tunes Stockfish.
//!
//! The bot is tuned through its command line: every game appends `--NAME VALUE` for each
//! parameter of the parameters file to the `--bot` command. Iteration k plays θ⁺ against θ⁻ on
//! one pack pair from both seats (or each of them against an opponent pool), and moves θ by
//! the result ([`spsa`]). Games go through the arena's machinery: the referee, pinned job
//! slots, replays. The state file is written after every iteration, so a stopped run resumes
//! where it was; the plot page ([`plot`]) shows each parameter over the iterations.

pub mod plot;
pub mod spsa;

use std::fs;
use std::io::ErrorKind;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};

use indicatif::{ProgressBar, ProgressStyle};
use serde::{Deserialize, Serialize};

use crate::arena::gauntlet::OpponentArgs;
use crate::arena::jobs::PinnedJobs;
use crate::arena::referee::Limits;
use crate::arena::{
    play_in_parallel, play_recorded, record, ControlArgs, Finished, GameSpec, PackArgs, PackSource, RecordArgs,
};
use spsa::{Gains, ParamSpec};

/// `codevs-reborn tune` flags.
#[derive(Clone, Debug, clap::Args)]
pub struct TuneArgs {
    /// The run's state (JSON), written after every iteration. If FILE exists the run resumes
    /// from it; its flags must then be the ones it was started with.
    #[arg(long, value_name = "FILE")]
    pub state: PathBuf,
    /// The bot tuned: a shell command (run with `sh -c`) to which each game appends
    /// `--NAME VALUE` for every parameter.
    #[arg(long, value_name = "CMD", required_unless_present = "report")]
    pub bot: Option<String>,
    /// The parameters: one `NAME start min max c_end r_end` row per line (fishtest's SPSA
    /// format; spaces or commas between fields; `#` comments). NAME is a bot flag. A row whose
    /// start, min and max are integers passes rounded values.
    #[arg(long, value_name = "FILE", required_unless_present = "report")]
    pub params: Option<PathBuf>,
    /// N: iterations of the whole run (an iteration is a game pair per side and opponent); the
    /// gains reach c_end and r_end at the last one.
    #[arg(long, value_name = "N", default_value_t = 250)]
    pub iterations: usize,
    /// A, the learning rate's stability constant (default: a tenth of the iterations).
    #[arg(long, value_name = "A")]
    pub big_a: Option<f64>,
    /// α, the learning rate's decay exponent.
    #[arg(long, value_name = "ALPHA", default_value_t = 0.602)]
    pub alpha: f64,
    /// γ, the perturbation's decay exponent.
    #[arg(long, value_name = "GAMMA", default_value_t = 0.101)]
    pub gamma: f64,
    /// Seed of the perturbation directions (each iteration's are drawn from it and the
    /// iteration's number, so a resumed run draws what an unbroken one would).
    #[arg(long, value_name = "S", default_value_t = 1)]
    pub spsa_seed: u64,
    /// An opponent pool (the gauntlet's --opponents and --opponent). With a pool, θ⁺ and θ⁻
    /// each play every opponent from both seats, and the result is half the difference of their
    /// win−loss counts. Without one, θ⁺ plays θ⁻.
    #[command(flatten)]
    pub pool: OpponentArgs,
    #[command(flatten)]
    pub packs: PackArgs,
    #[command(flatten)]
    pub control: ControlArgs,
    #[command(flatten)]
    pub jobs: PinnedJobs,
    /// Iterations played at once from the same θ, their updates applied in order when all
    /// their games end (fishtest's workers do the same). Default: enough to keep --jobs busy.
    #[arg(long, value_name = "B")]
    pub batch: Option<usize>,
    /// Play at most this many iterations now, then save and stop (run again to go on).
    #[arg(long, value_name = "K")]
    pub stop_after: Option<usize>,
    /// Play nothing: print θ and its flag line and write the plot page from the state file.
    #[arg(long)]
    pub report: bool,
    /// The plot page (default: the state file with `.html` for its extension).
    #[arg(long, value_name = "FILE")]
    pub plot: Option<PathBuf>,
    #[command(flatten)]
    pub record: RecordArgs,
}

/// What a run is: everything that decides its games and its updates. A resumed run must be the
/// same run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RunDefinition {
    pub bot: String,
    pub params: Vec<ParamSpec>,
    pub gains: Gains,
    pub spsa_seed: u64,
    /// `NAME=COMMAND` of each pool opponent; empty: θ⁺ plays θ⁻.
    pub pool: Vec<String>,
    /// The pack source: a path or `seed:S`.
    pub packs: String,
    /// Game and turn time in ms.
    pub control: [u64; 2],
}

/// One finished iteration.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Iteration {
    /// k, from 1.
    pub k: usize,
    /// The pack file or `seed:N` its games were played on.
    pub pack: String,
    pub flips: Vec<i8>,
    pub plus: Vec<f64>,
    pub minus: Vec<f64>,
    /// Each game's score for its tuned side: +1 win, 0 draw, −1 loss (θ⁺'s games first).
    pub scores: Vec<i8>,
    /// Games in which a tuned side timed out, crashed or sent an illegal command.
    pub faults: usize,
    /// The result the update used.
    pub result: f64,
    /// θ after the update.
    pub theta: Vec<f64>,
}

/// The state file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TuneState {
    pub run: RunDefinition,
    /// θ now.
    pub theta: Vec<f64>,
    pub history: Vec<Iteration>,
}

impl TuneState {
    fn new(run: RunDefinition) -> TuneState {
        let theta = run.params.iter().map(|p| p.start).collect();
        TuneState { run, theta, history: Vec::new() }
    }

    /// The flags that set `values`: `--NAME VALUE …`.
    pub fn flags(&self, values: &[f64]) -> String {
        let flags: Vec<String> =
            self.run.params.iter().zip(values).map(|(p, &v)| format!("--{} {}", p.name, p.flag_value(v))).collect();
        flags.join(" ")
    }

    /// [`spsa::direction_z`] of each parameter over the iterations played.
    pub fn direction_z(&self) -> Vec<f64> {
        let iterations: Vec<(f64, &[i8])> = self.history.iter().map(|it| (it.result, it.flips.as_slice())).collect();
        spsa::direction_z(&iterations, self.run.params.len())
    }

    fn load(path: &Path) -> Result<Option<TuneState>, String> {
        match fs::read_to_string(path) {
            Ok(text) => serde_json::from_str(&text)
                .map(Some)
                .map_err(|e| format!("{}: not a tune state file ({e})", path.display())),
            Err(e) if e.kind() == ErrorKind::NotFound => Ok(None),
            Err(e) => Err(format!("{}: {e}", path.display())),
        }
    }

    /// Writes the state whole (to a temporary file first, so a run stopped while writing
    /// leaves the previous state intact).
    fn save(&self, path: &Path) -> Result<(), String> {
        let text = serde_json::to_string_pretty(self).map_err(|e| format!("{}: {e}", path.display()))?;
        let temporary = path.with_extension("tmp");
        fs::write(&temporary, text + "\n").map_err(|e| format!("{}: {e}", temporary.display()))?;
        fs::rename(&temporary, path).map_err(|e| format!("{}: {e}", path.display()))
    }
}

/// The run the flags describe.
fn run_definition(args: &TuneArgs, bot: &str, params_file: &Path) -> Result<RunDefinition, String> {
    let text = fs::read_to_string(params_file).map_err(|e| format!("{}: {e}", params_file.display()))?;
    let params = spsa::parse_params(params_file, &text)?;
    if args.iterations == 0 {
        return Err("--iterations must be at least 1".into());
    }
    let gains = Gains {
        iterations: args.iterations,
        big_a: args.big_a.unwrap_or(args.iterations as f64 / 10.0),
        alpha: args.alpha,
        gamma: args.gamma,
    };
    if !(gains.big_a >= 0.0 && gains.alpha > 0.0 && gains.gamma > 0.0) {
        return Err("--big-a must be at least 0, --alpha and --gamma positive".into());
    }
    let packs = match (&args.packs.seed, &args.packs.packs, &args.packs.book) {
        (Some(seed), _, _) => format!("seed:{seed}"),
        (None, Some(path), _) => path.display().to_string(),
        (None, None, Some(book)) => format!("book:{}", book.display()),
        (None, None, None) => "default".into(),
    };
    Ok(RunDefinition {
        bot: bot.to_string(),
        params,
        gains,
        spsa_seed: args.spsa_seed,
        pool: args.pool.read()?.iter().map(|o| format!("{}={}", o.name, o.command)).collect(),
        packs,
        control: [args.control.time_ms, args.control.turn_ms],
    })
}

/// The first field in which a resumed run differs from the state's.
fn difference(was: &RunDefinition, now: &RunDefinition) -> Option<String> {
    let fields = [
        ("--bot", format!("{:?}", was.bot), format!("{:?}", now.bot)),
        ("--params", format!("{:?}", was.params), format!("{:?}", now.params)),
        ("the gains (--iterations, --big-a, --alpha, --gamma)", format!("{:?}", was.gains), format!("{:?}", now.gains)),
        ("--spsa-seed", was.spsa_seed.to_string(), now.spsa_seed.to_string()),
        ("the opponent pool", format!("{:?}", was.pool), format!("{:?}", now.pool)),
        ("the packs", was.packs.clone(), now.packs.clone()),
        ("--time-ms/--turn-ms", format!("{:?}", was.control), format!("{:?}", now.control)),
    ];
    fields.into_iter().find(|(_, a, b)| a != b).map(|(what, a, b)| format!("{what}: {a} then, {b} now"))
}

/// One game of an iteration: the tuned side (0: θ⁺, 1: θ⁻), its command and the other's, and
/// the seat the tuned side plays.
struct TunedGame {
    iteration: usize,
    side: usize,
    commands: [String; 2],
    seat: usize,
}

/// The games of iteration `k`, θ⁺'s first.
fn iteration_games(state: &TuneState, k: usize, plus: &[f64], minus: &[f64]) -> Vec<TunedGame> {
    let sides = [plus, minus].map(|values| format!("{} {}", state.run.bot, state.flags(values)));
    let mut games = Vec::new();
    if state.run.pool.is_empty() {
        for seat in 0..2 {
            games.push(TunedGame { iteration: k, side: 0, commands: sides.clone(), seat });
        }
    } else {
        for (side, tuned) in sides.iter().enumerate() {
            for opponent in &state.run.pool {
                let command = opponent.split_once('=').map_or(opponent.as_str(), |(_, c)| c);
                for seat in 0..2 {
                    let commands = [tuned.clone(), command.to_string()];
                    games.push(TunedGame { iteration: k, side, commands, seat });
                }
            }
        }
    }
    games
}

/// The score of a finished game for the side that played seat `a_seat`: +1, 0 or −1.
fn score(f: &Finished) -> i8 {
    (f.score() * 2.0 - 1.0) as i8
}

/// The update's result from an iteration's scores (θ⁺'s games first): θ⁺'s win−loss count
/// against θ⁻, or with a pool half the difference of both sides' counts (so one comparison
/// weighs what one θ⁺-against-θ⁻ game does).
fn iteration_result(games: &[TunedGame], scores: &[i8], pool: bool) -> f64 {
    let sum = |side: usize| -> f64 {
        games.iter().zip(scores).filter(|(g, _)| g.side == side).map(|(_, &s)| f64::from(s)).sum()
    };
    if pool {
        (sum(0) - sum(1)) / 2.0
    } else {
        sum(0)
    }
}

/// Runs (or resumes, or reports) a tuning run; an error is a one-line message for the user.
pub fn run(args: &TuneArgs) -> Result<(), String> {
    let plot_path = args.plot.clone().unwrap_or_else(|| args.state.with_extension("html"));
    let saved = TuneState::load(&args.state)?;
    if args.report {
        let state = saved.ok_or_else(|| format!("{}: no such state file to report on", args.state.display()))?;
        return report(&state, &plot_path);
    }
    let (Some(bot), Some(params_file)) = (&args.bot, &args.params) else {
        unreachable!("clap requires --bot and --params without --report")
    };
    let definition = run_definition(args, bot, params_file)?;
    let mut state = match saved {
        Some(state) => {
            if let Some(diff) = difference(&state.run, &definition) {
                return Err(format!(
                    "{} was started with other settings ({diff}): resume it with the same flags, or use another --state",
                    args.state.display()
                ));
            }
            state
        }
        None => TuneState::new(definition),
    };
    let limits = args.control.limits()?;
    let source = PackSource::open(&args.packs)?;
    let cpus = args.jobs.slots()?;
    if let Some(dir) = &args.record.replays {
        fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    let total = state.run.gains.iterations;
    let first = state.history.len() + 1;
    let last = args.stop_after.map_or(total, |n| total.min(first - 1 + n));
    let games_per_iteration = iteration_games(&state, 1, &state.theta, &state.theta).len();
    let batch = args.batch.unwrap_or(args.jobs.jobs.div_ceil(games_per_iteration)).max(1);

    let bar = ProgressBar::new(total as u64);
    bar.set_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} iterations  {msg}  [{elapsed_precise}]")
            .expect("a valid template"),
    );
    bar.set_position((first - 1) as u64);
    let mut k = first;
    while k <= last {
        let ks: Vec<usize> = (k..=last.min(k + batch - 1)).collect();
        let count = state.run.params.len();
        let probes: Vec<(Vec<i8>, Vec<f64>, Vec<f64>)> = ks
            .iter()
            .map(|&k| {
                let flips = spsa::flips(state.run.spsa_seed, k, count);
                let (plus, minus) = state.run.gains.probes(&state.run.params, &state.theta, k, &flips);
                (flips, plus, minus)
            })
            .collect();
        let games: Vec<TunedGame> =
            ks.iter().zip(&probes).flat_map(|(&k, (_, plus, minus))| iteration_games(&state, k, plus, minus)).collect();
        let results = match play_games(args, &source, &limits, &cpus, &games, games_per_iteration) {
            Ok(results) => results,
            Err(e) => {
                bar.finish_and_clear();
                return Err(format!("{e} (the state holds the {} iterations before it)", state.history.len()));
            }
        };
        for (n, (&k, (flips, plus, minus))) in ks.iter().zip(probes).enumerate() {
            let range = n * games_per_iteration..(n + 1) * games_per_iteration;
            let finished = &results[range.clone()];
            let iteration_games = &games[range];
            let scores: Vec<i8> = finished.iter().map(score).collect();
            let faults = finished.iter().filter(|f| f.played.faults[f.a_seat].is_some()).count();
            let result = iteration_result(iteration_games, &scores, !state.run.pool.is_empty());
            state.theta = state.run.gains.update(&state.run.params, &state.theta, k, &flips, result);
            let pack = source.label(k - 1);
            state.history.push(Iteration {
                k,
                pack,
                flips,
                plus,
                minus,
                scores,
                faults,
                result,
                theta: state.theta.clone(),
            });
            state.save(&args.state)?;
            bar.inc(1);
            bar.set_message(format!("result {result:+}  θ: {}", state.flags(&state.theta)));
        }
        k = ks[ks.len() - 1] + 1;
    }
    bar.finish_and_clear();
    report(&state, &plot_path)
}

/// Plays a batch's games on the job slots; all of them, in order, or the first error.
fn play_games(
    args: &TuneArgs,
    source: &PackSource,
    limits: &Limits,
    cpus: &[Option<String>],
    games: &[TunedGame],
    games_per_iteration: usize,
) -> Result<Vec<Finished>, String> {
    let stop = AtomicBool::new(false);
    let mut results: Vec<Option<Finished>> = games.iter().map(|_| None).collect();
    let mut error = None;
    let play = |slot: usize, i: usize| {
        let g = &games[i];
        let within = i % games_per_iteration;
        let spec = GameSpec {
            game: within,
            a_seat: g.seat,
            deal: source.get(g.iteration - 1),
            commands: [&g.commands[0], &g.commands[1]],
            cpus: cpus[slot].as_deref(),
            replay_dir: args
                .record
                .replays
                .as_ref()
                .map(|root| record::replay_dir(&root.join(format!("iteration-{:05}", g.iteration)), within)),
            bot_stderr: args.record.bot_stderr,
        };
        play_recorded(spec, limits, &stop)
    };
    play_in_parallel(args.jobs.jobs, games.len(), &stop, play, |i, result| {
        match result {
            Ok(finished) => results[i] = finished,
            Err(e) => error = Some(e),
        }
        if error.is_some() {
            stop.store(true, Ordering::Relaxed);
        }
    });
    if let Some(e) = error {
        return Err(e);
    }
    // Without an error nothing raised the stop, so every game finished.
    Ok(results.into_iter().flatten().collect())
}

/// Prints θ and its flag line, and writes the plot page.
fn report(state: &TuneState, plot_path: &Path) -> Result<(), String> {
    let done = state.history.len();
    let games: usize = state.history.iter().map(|i| i.scores.len()).sum();
    let faults: usize = state.history.iter().map(|i| i.faults).sum();
    println!("iterations: {done} of {} ({games} games; tuned sides faulted in {faults})", state.run.gains.iterations);
    let width = state.run.params.iter().map(|p| p.name.len()).max().unwrap_or(0);
    for ((p, &theta), z) in state.run.params.iter().zip(&state.theta).zip(state.direction_z()) {
        println!("  {:<width$}  start {}  θ {:.4}  [{}, {}]  z {z:+.2}", p.name, p.start, theta, p.min, p.max);
    }
    println!(
        "  (z: Σ result·Δ / √Σ result², about standard normal where the parameter does not matter: |z| < 2 is noise)"
    );
    println!("flags: {}", state.flags(&state.theta));
    println!("run.sh line: ./run.sh {}", state.flags(&state.theta));
    fs::write(plot_path, plot::page(state)).map_err(|e| format!("{}: {e}", plot_path.display()))?;
    println!("plot: {}", plot_path.display());
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn state(pool: Vec<String>) -> TuneState {
        let p = ParamSpec {
            name: "greedy-height".into(),
            start: 3.0,
            min: 0.0,
            max: 10.0,
            c_end: 1.0,
            r_end: 0.01,
            integer: true,
        };
        let run = RunDefinition {
            bot: "bot".into(),
            params: vec![p],
            gains: Gains { iterations: 4, big_a: 0.4, alpha: 0.602, gamma: 0.101 },
            spsa_seed: 1,
            pool,
            packs: "seed:1".into(),
            control: [18_000, 2_000],
        };
        TuneState::new(run)
    }

    #[test]
    fn self_play_games_are_one_pair_and_pool_games_cover_both_sides_and_seats() {
        let s = state(Vec::new());
        let games = iteration_games(&s, 1, &[4.4], &[1.6]);
        assert_eq!(games.len(), 2);
        assert_eq!(games[0].commands, ["bot --greedy-height 4".to_string(), "bot --greedy-height 2".to_string()]);
        assert_eq!(games.iter().map(|g| g.seat).collect::<Vec<_>>(), [0, 1]);
        assert_eq!(iteration_result(&games, &[1, 1], false), 2.0);
        assert_eq!(iteration_result(&games, &[1, -1], false), 0.0);

        let s = state(vec!["a=x".into(), "b=y z".into()]);
        let games = iteration_games(&s, 1, &[4.0], &[2.0]);
        assert_eq!(games.len(), 8);
        assert_eq!(games[7].commands, ["bot --greedy-height 2".to_string(), "y z".to_string()]);
        // θ⁺ wins 3 of 4, θ⁻ wins 1 of 4: (2 − (−2)) / 2.
        assert_eq!(iteration_result(&games, &[1, 1, 1, -1, 1, -1, -1, -1], true), 2.0);
    }

    #[test]
    fn a_resumed_run_must_be_the_same_run() {
        let a = state(Vec::new()).run;
        assert_eq!(difference(&a, &a.clone()), None);
        let b = RunDefinition { spsa_seed: 2, ..a.clone() };
        assert_eq!(difference(&a, &b).as_deref(), Some("--spsa-seed: 1 then, 2 now"));
        let c = RunDefinition { bot: "other".into(), ..a.clone() };
        assert!(difference(&a, &c).unwrap().starts_with("--bot"));
    }
}
