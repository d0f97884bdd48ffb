//! `bench opening`: the turn-0 search on real pack files, as the bot runs it.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use crate::protocol::{pack_files, read_pack_file};
use crate::rules::{Field, Simulator, MAX_TURNS};
use crate::search::beam::{self, BeamParams, Start};
use crate::Engine;

/// `codevs-reborn bench opening` flags.
#[derive(Clone, Debug, clap::Args)]
pub struct OpeningBenchArgs {
    /// A folder of pack files (every file in it, sorted by name) or one pack file.
    #[arg(long, default_value = "../shared/packs")]
    pub packs: PathBuf,
    /// Search the first N pack files only (0 = all).
    #[arg(long, default_value_t = 0)]
    pub count: usize,
    /// Thinking time per file in ms (the turn-0 budget; ignored with --node-budget).
    #[arg(long, default_value_t = 19_000)]
    pub time_ms: u64,
    /// Worker threads (0 = one per core).
    #[arg(long, default_value_t = 0)]
    pub threads: usize,
    #[command(flatten)]
    pub beam: BeamParams,
}

/// What one file's turn-0 search found.
#[derive(Clone, Debug)]
pub struct OpeningReport {
    pub name: String,
    /// Earliest turn the plan can fire at least 10, 12, 14 and 16 links.
    pub first_turn: [Option<usize>; 4],
    pub best_by_12: u32,
    pub best_by_16: u32,
    pub nodes: u64,
    pub seconds: f64,
}

const MILESTONES: [u32; 4] = [10, 12, 14, 16];

/// The turn a milestone counts as in means when the plan never reaches it.
const MISSED_TURN: usize = 20;

/// Runs the turn-0 search on one pack list from an empty field.
pub fn run_one(name: String, packs: &crate::rules::Packs, params: &BeamParams, time: Duration) -> OpeningReport {
    let field = Engine::from_field(&Field::empty());
    let started = Instant::now();
    let config = params.opening(Some(started + time));
    let result = beam::search(Start { field: &field, packs, turn: 0, garbage: 0 }, &config);
    let line = &result.line;
    OpeningReport {
        name,
        first_turn: MILESTONES.map(|m| line.first_turn_with(m)),
        best_by_12: line.best_by_turn(12),
        best_by_16: line.best_by_turn(16),
        nodes: result.nodes,
        seconds: started.elapsed().as_secs_f64(),
    }
}

/// The value at quantile `q` (0..=1) of sorted values, `None` values counting as never.
fn quantile(values: &[Option<usize>], q: f64) -> String {
    let mut v: Vec<usize> = values.iter().map(|v| v.unwrap_or(MAX_TURNS)).collect();
    v.sort_unstable();
    let i = ((v.len() - 1) as f64 * q).round() as usize;
    if v[i] >= MAX_TURNS {
        "never".into()
    } else {
        v[i].to_string()
    }
}

pub fn run(args: &OpeningBenchArgs) -> Result<(), String> {
    if args.threads > 0 {
        rayon::ThreadPoolBuilder::new().num_threads(args.threads).build_global().map_err(|e| e.to_string())?;
    }
    let mut files = pack_files(&args.packs)?;
    if args.count > 0 {
        files.truncate(args.count);
    }
    println!(
        "opening search: {} files, {} each, width {} / chain width {}, depth {}, target {} then {}, {} threads",
        files.len(),
        if args.beam.node_budget > 0 {
            format!("node budget {}", args.beam.node_budget)
        } else {
            format!("{} ms", args.time_ms)
        },
        args.beam.beam_width,
        args.beam.beam_chain_width,
        args.beam.beam_depth,
        args.beam.beam_target,
        args.beam.beam_final_target,
        rayon::current_num_threads()
    );
    println!(
        "{:<16} {:>5} {:>5} {:>5} {:>5} {:>6} {:>6} {:>12} {:>10}",
        "file", "≥10", "≥12", "≥14", "≥16", "by 12", "by 16", "nodes", "nodes/s"
    );
    let mut reports = Vec::new();
    for file in &files {
        let packs = read_pack_file(file)?;
        let name = file.file_name().map_or_else(|| file.display().to_string(), |n| n.to_string_lossy().into_owned());
        let r = run_one(name, &packs, &args.beam, Duration::from_millis(args.time_ms));
        let turn = |t: Option<usize>| t.map_or("-".to_string(), |t| t.to_string());
        println!(
            "{:<16} {:>5} {:>5} {:>5} {:>5} {:>6} {:>6} {:>12} {:>10.0}",
            r.name,
            turn(r.first_turn[0]),
            turn(r.first_turn[1]),
            turn(r.first_turn[2]),
            turn(r.first_turn[3]),
            r.best_by_12,
            r.best_by_16,
            r.nodes,
            r.nodes as f64 / r.seconds
        );
        reports.push(r);
    }
    for (i, m) in MILESTONES.iter().enumerate() {
        let turns: Vec<Option<usize>> = reports.iter().map(|r| r.first_turn[i]).collect();
        let reached = turns.iter().flatten().count();
        // The mean (a miss counting as turn 20) moves with small changes the median hides.
        let mean = turns.iter().map(|t| t.unwrap_or(MISSED_TURN).min(MISSED_TURN)).sum::<usize>() as f64
            / reports.len() as f64;
        println!(
            "turn to fire ≥{m}: median {}, 90th percentile {}, mean {mean:.2} (miss = {MISSED_TURN}), reached in {reached}/{}",
            quantile(&turns, 0.5),
            quantile(&turns, 0.9),
            reports.len()
        );
    }
    let chains = |f: fn(&OpeningReport) -> u32| -> (String, String) {
        let mut v: Vec<u32> = reports.iter().map(f).collect();
        v.sort_unstable();
        let at = |q: f64| v[((v.len() - 1) as f64 * q).round() as usize].to_string();
        let mean = v.iter().sum::<u32>() as f64 / v.len() as f64;
        (at(0.5), format!("{}, mean {mean:.2}", at(0.1)))
    };
    let (m12, p12) = chains(|r| r.best_by_12);
    let (m16, p16) = chains(|r| r.best_by_16);
    println!("best chain by turn 12: median {m12}, 10th percentile {p12}");
    println!("best chain by turn 16: median {m16}, 10th percentile {p16}");
    let nodes: u64 = reports.iter().map(|r| r.nodes).sum();
    let secs: f64 = reports.iter().map(|r| r.seconds).sum();
    println!("nodes: {nodes} in {secs:.1} s, {:.0} nodes/s", nodes as f64 / secs);
    let turns12: Vec<Option<usize>> = reports.iter().map(|r| r.first_turn[1]).collect();
    if let Some(mib) = super::peak_rss_mib() {
        println!("peak RSS: {mib:.1} MiB");
    }
    println!("opening: median turn to 12 = {}, median best chain by 16 = {m16}", quantile(&turns12, 0.5));
    Ok(())
}
