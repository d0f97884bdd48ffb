//! `bench opening`: the turn-0 chain search on real pack files, as the bot runs it, and a
//! re-plan from a midgame field with garbage on it.
//!
//! For each file (or generated pack list): the best chain some searched line can fire by turns
//! 10–24 (the menu), the earliest turn it can fire 12, 14, 16 and 20 links, the plan's turn-0
//! chain against the largest chain by the plan's turn (what its sturdiness under a row costs),
//! what the plan's own line (the one the bot follows) can fire by turns 12, 13 and 16, what its
//! chain still fires if the opponent's garbage lands first (one row at its fire turn, or rows
//! then and the turn before), and what a re-plan at turn 15 with two garbage rows on the field
//! finds within 5 and 10 turns. The last line is the summary the issue tracker reads: `opening:
//! best by 12 = X, turn to 12 = Y, best by 22 = Z`.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use crate::bot::{Plan, PlanKind};
use crate::rules::{Field, Packs, Simulator, MAX_TURNS};
use crate::search::build::BeamParams;
use crate::search::builder::{self, BuilderConfig};
use crate::search::chain::{erase_fires, fire_under_a_row, fire_under_two_rows, BeamResult, Line, Start};
use crate::Engine;

/// `codevs-reborn bench opening` flags.
#[derive(Clone, Debug, clap::Args)]
pub struct OpeningBenchArgs {
    /// A folder of pack files (every file in it, sorted by name) or one pack file (default: the
    /// shipped data/packs, built into the binary).
    #[arg(long, value_name = "PATH", conflicts_with = "pack_seed")]
    pub packs: Option<PathBuf>,
    /// Generated packs instead of files (as `gauntlet --seed` plays them): seeds S, S + 1, ...
    /// (`--count` of them, 24 when it is 0), named `seed:S`. (`--seed` seeds the search.)
    #[arg(long, value_name = "S")]
    pub pack_seed: Option<u64>,
    /// Search the first N pack files only (0 = all).
    #[arg(long, default_value_t = 0)]
    pub count: usize,
    /// Thinking time per file in ms (the turn-0 budget; ignored with --node-budget).
    #[arg(long, default_value_t = 19_000)]
    pub time_ms: u64,
    /// The re-plan case's budget in ms (ignored with --node-budget, which gives it a tenth).
    #[arg(long, default_value_t = 1000)]
    pub replan_ms: u64,
    /// Skip the re-plan case.
    #[arg(long)]
    pub no_replan: bool,
    /// Worker threads (0 = one per core).
    #[arg(long, default_value_t = 0)]
    pub threads: usize,
    /// With `--refine-ms`: the plan is refined at turns 1 to N − 1, as the bot does while it
    /// follows the plan blindly (its `--plan-unconditional-turns`).
    #[arg(long, default_value_t = 8)]
    pub blind_turns: usize,
    #[command(flatten)]
    pub beam: BeamParams,
}

/// Turns the best chain fireable by is reported for.
const BY_TURNS: [usize; 6] = [10, 12, 16, 20, 22, 24];
/// Turns the plan's own line (the one the bot follows) is reported for: what it can fire by then.
const LINE_BY_TURNS: [usize; 3] = [12, 13, 16];
/// Chains the earliest turn to fire is reported for.
const MILESTONES: [u32; 4] = [12, 14, 16, 20];
/// The re-plan case: the turn, the garbage rows on the field, and the horizons reported.
const REPLAN_TURN: usize = 15;
const REPLAN_ROWS: usize = 2;
const REPLAN_WITHIN: [usize; 2] = [5, 10];
/// What the plan's fire leaves: the best chain a rebuild from the field after it finds within
/// this many turns (the turns an opponent answering through our rows takes).
const NEXT_WITHIN: usize = 8;
/// The fixed node budget that grows the re-plan position, whatever builder is measured.
const REPLAN_SETUP_NODES: u64 = 3_000_000;

/// What one file's searches found.
#[derive(Clone, Debug)]
pub struct OpeningReport {
    pub name: String,
    /// The best chain fireable by each of `BY_TURNS` (some searched line).
    pub best_by: [u32; 6],
    /// The best chain the plan's own line fires by each of `LINE_BY_TURNS` (after the
    /// refinements, with `--refine-ms`).
    pub line_by: [u32; 3],
    /// The plan's chain and the turn it fires, before and after the refinements, and how many
    /// refinements replaced it.
    pub opening_fire: Option<(u32, usize)>,
    pub plan_fire: Option<(u32, usize)>,
    /// The largest chain the turn-0 menu fires by the plan's turn, and its turn: the plan's
    /// chain where no garbage row could land first (`fire0` is the one that still fires if a
    /// row lands on its turn).
    pub largest_fire: Option<(u32, usize)>,
    pub refined: usize,
    /// The plan's chain if their garbage lands first: the best fire at its fire turn with one
    /// row fallen that turn, and with rows fallen at the turn before and that turn (the move
    /// before the fire chosen again on top of the first row).
    pub under_rows: Option<[u32; 2]>,
    /// What the plan's fire leaves: the chain erasing one exposed block sets off on the field
    /// after it, and the best chain a rebuild (`--rebuild-ms`) finds within `NEXT_WITHIN` turns.
    pub after_fire: Option<[u32; 2]>,
    /// The earliest turn each of `MILESTONES` can be fired.
    pub first_turn: [Option<usize>; 4],
    /// The re-plan case: the best chain within each of `REPLAN_WITHIN` turns.
    pub replan: Option<[u32; 2]>,
    pub nodes: u64,
    pub seconds: f64,
}

/// Runs the turn-0 search on one pack list from an empty field, then the re-plan case.
pub fn run_one(name: String, packs: &Packs, args: &OpeningBenchArgs) -> OpeningReport {
    let field = Engine::from_field(&Field::empty());
    let started = Instant::now();
    let deadline = Some(started + Duration::from_millis(args.time_ms));
    let result = args.beam.build(Start { field: &field, packs, turn: 0, garbage: 0 }, true, deadline);
    let seconds = started.elapsed().as_secs_f64();
    // The best chain some searched line fires by each turn (the menu).
    let best_by = BY_TURNS.map(|t| result.best_within(t));
    let first_turn = MILESTONES.map(|m| result.earliest(m));
    let fire = |p: &Plan| p.fire_links.zip(p.fire_turn());
    let opening_fire = Plan::from_search(&result, PlanKind::Opening).as_ref().and_then(fire);
    let largest_fire = result.menu.choose(args.beam.plan_turn).and_then(|line| {
        Some((line.fires.last().copied().flatten()?.chain.links, line.start_turn + line.builds.len()))
    });
    let (line, plan, refined) = refine(packs, args, &result);
    let line_by = LINE_BY_TURNS.map(|t| line.best_by_turn(t));
    let plan_fire = plan.as_ref().and_then(fire);
    let under_rows = plan.as_ref().and_then(|p| under_rows(packs, p, args.beam.build_chain_max));
    let replan = (!args.no_replan).then(|| replan(packs, args)).flatten();
    let after_fire = plan.as_ref().and_then(|p| after_fire(packs, p, args));
    OpeningReport {
        name,
        best_by,
        line_by,
        opening_fire,
        plan_fire,
        largest_fire,
        refined,
        under_rows,
        after_fire,
        first_turn,
        replan,
        nodes: result.nodes,
        seconds,
    }
}

/// The plan's refinements (`--refine-ms`) at the turns it is followed blindly, as the bot makes
/// them: the final line and plan, and how many refinements replaced the plan.
fn refine(packs: &Packs, args: &OpeningBenchArgs, opening: &BeamResult) -> (Line, Option<Plan>, usize) {
    let (mut line, mut plan, mut refined) = (opening.line.clone(), Plan::from_search(opening, PlanKind::Opening), 0);
    if args.beam.refine_ms == 0 {
        return (line, plan, refined);
    }
    for turn in 1..args.blind_turns {
        let Some(current) = plan.as_ref() else { break };
        // Only while the plan still builds: its last move fires.
        if current.fire_turn().is_some_and(|t| t <= turn) || turn >= current.start_turn + current.actions.len() {
            break;
        }
        let Some(field) = current.expected_at(turn) else { break };
        let field = Engine::from_field(field);
        let deadline = Some(Instant::now() + Duration::from_millis(args.beam.refine_ms));
        let fire_turn = current.fire_turn().unwrap_or(args.beam.plan_turn);
        let result = args.beam.refine(Start { field: &field, packs, turn, garbage: 0 }, true, fire_turn, 0, deadline);
        if let Some(better) = Plan::from_search(&result, PlanKind::Opening).filter(|p| p.improves_on(current)) {
            (line, plan) = (result.line, Some(better));
            refined += 1;
        }
    }
    (line, plan, refined)
}

/// The best chain the plan's position can fire at its fire turn when their garbage lands first:
/// one row at that turn, and rows at the turn before and that turn (the move before chosen
/// again on top of the first row: every placement that builds, firing at most
/// `build_chain_max` links, as the searches' building moves).
pub fn under_rows(packs: &Packs, plan: &Plan, build_chain_max: u32) -> Option<[u32; 2]> {
    let fire_turn = plan.fire_turn()?;
    let mut nodes = 0;
    let mut links_under_a_row =
        |field: Engine| fire_under_a_row(&field, packs.get(fire_turn), &mut nodes).map_or(0, |f| f.chain.links);
    let one = links_under_a_row(Engine::from_field(plan.expected_at(fire_turn)?));
    let before = fire_turn.checked_sub(1).and_then(|t| plan.expected_at(t).map(|field| (t, field)));
    let two = before.map_or(0, |(turn, field)| {
        let field = Engine::from_field(field);
        fire_under_two_rows(&field, packs.get(turn), packs.get(fire_turn), build_chain_max, &mut nodes)
    });
    Some([one, two])
}

/// What the plan's fire leaves on the field (see [`OpeningReport::after_fire`]).
fn after_fire(packs: &Packs, plan: &Plan, args: &OpeningBenchArgs) -> Option<[u32; 2]> {
    let (field, held) = left_after_fire(packs, plan)?;
    let fire_turn = plan.fire_turn()?;
    let deadline = Some(Instant::now() + Duration::from_millis(args.beam.rebuild_ms));
    let start = Start { field: &field, packs, turn: fire_turn + 1, garbage: 0 };
    let next = args.beam.build(start, false, deadline).best_within(NEXT_WITHIN);
    Some([held, next])
}

/// The field after the plan's fire, and the longest chain erasing one exposed block sets off on
/// it: the next chain's start the fire left.
pub fn left_after_fire(packs: &Packs, plan: &Plan) -> Option<(Engine, u32)> {
    let fire_turn = plan.fire_turn()?;
    let mut field = Engine::from_field(plan.expected_at(fire_turn)?);
    field.apply(packs.get(fire_turn), *plan.actions.last()?);
    let mut nodes = 0;
    let mut held = 0;
    erase_fires(&field, &mut nodes, |chain, _| held = held.max(chain.links));
    Some((field, held))
}

/// The re-plan case: a field grown to turn 15 by a fixed small search (the same for every
/// builder measured), two garbage rows on it, then the builder under test from there.
fn replan(packs: &Packs, args: &OpeningBenchArgs) -> Option<[u32; 2]> {
    let empty = Engine::from_field(&Field::empty());
    let setup = BuilderConfig { node_budget: Some(REPLAN_SETUP_NODES), ..BuilderConfig::default() };
    let grown = builder::search(Start { field: &empty, packs, turn: 0, garbage: 0 }, &setup);
    // The deepest line that builds past turn 15 without firing on the way.
    let line = (REPLAN_TURN + 1..grown.menu.entries.len()).rev().find_map(|d| grown.menu.entries[d].as_ref())?;
    let mut field = Engine::from_field(line.expected.get(REPLAN_TURN)?);
    for _ in 0..REPLAN_ROWS {
        field.drop_garbage_row();
    }
    let deadline = Some(Instant::now() + Duration::from_millis(args.replan_ms));
    let start = Start { field: &field, packs, turn: REPLAN_TURN, garbage: 0 };
    let result = args.beam.build(start, false, deadline);
    Some(REPLAN_WITHIN.map(|t| result.best_within(t)))
}

/// The per-file table's figure columns, each right-aligned to 5 characters.
fn columns(cells: &[String]) -> String {
    cells.iter().map(|c| format!("{c:>5}")).collect::<Vec<_>>().join(" ")
}

/// The value at quantile `q` (0..=1) of sorted values.
fn at<T: Copy>(sorted: &[T], q: f64) -> T {
    sorted[((sorted.len() - 1) as f64 * q).round() as usize]
}

/// Median and 10th/90th percentiles of turns (`never` when not reached).
fn turn_quantiles(values: &[Option<usize>]) -> [String; 3] {
    let mut v: Vec<usize> = values.iter().map(|v| v.unwrap_or(MAX_TURNS)).collect();
    v.sort_unstable();
    [0.5, 0.1, 0.9].map(|q| match at(&v, q) {
        t if t >= MAX_TURNS => "never".to_string(),
        t => t.to_string(),
    })
}

/// Median and 10th/90th percentiles of chains, and the mean.
fn chain_quantiles(values: &[u32]) -> (u32, u32, u32, f64) {
    let mut v = values.to_vec();
    v.sort_unstable();
    let mean = v.iter().sum::<u32>() as f64 / v.len() as f64;
    (at(&v, 0.5), at(&v, 0.1), at(&v, 0.9), mean)
}

impl OpeningReport {
    /// The plan's chain at turn 0 is not the largest by the plan's turn, in links or in turn
    /// (`fire0` against `max0`): the files where a choice of the largest would play otherwise.
    pub fn plans_part(&self) -> bool {
        self.opening_fire != self.largest_fire
    }
}

pub fn run(args: &OpeningBenchArgs) -> Result<(), String> {
    if args.threads > 0 {
        rayon::ThreadPoolBuilder::new().num_threads(args.threads).build_global().map_err(|e| e.to_string())?;
    }
    let mut files = match args.pack_seed {
        Some(seed) => {
            let count = if args.count > 0 { args.count } else { 24 };
            (seed..seed + count as u64).map(|s| (format!("seed:{s}"), Packs::generate(s))).collect()
        }
        None => crate::data::pack_set(args.packs.as_deref())?,
    };
    if args.count > 0 {
        files.truncate(args.count);
    }
    println!(
        "opening search: {} files, the {}, {} each, re-plan {}, {} threads",
        files.len(),
        args.beam.builder.name(),
        if args.beam.node_budget > 0 {
            format!("node budget {}", args.beam.node_budget)
        } else {
            format!("{} ms", args.time_ms)
        },
        if args.no_replan { "off".to_string() } else { format!("{} ms", args.replan_ms) },
        rayon::current_num_threads()
    );
    let header: Vec<String> = BY_TURNS
        .iter()
        .map(|t| format!("by{t}"))
        .chain(MILESTONES.iter().map(|m| format!("≥{m}")))
        .chain(LINE_BY_TURNS.iter().map(|t| format!("L{t}")))
        .chain([
            "fire0".into(),
            "max0".into(),
            "fire".into(),
            "ref".into(),
            "row1".into(),
            "row2".into(),
            "left".into(),
            format!("nx{NEXT_WITHIN}"),
            "re+5".into(),
            "re+10".into(),
        ])
        .collect();
    println!("{:<16} {} {:>12} {:>10}", "file", columns(&header), "nodes", "nodes/s");
    let mut reports = Vec::new();
    let progress = indicatif::ProgressBar::new(files.len() as u64);
    progress.set_style(
        indicatif::ProgressStyle::with_template("{bar:30} {pos}/{len} files, {elapsed} (eta {eta})")
            .expect("a valid progress template"),
    );
    for (label, packs) in &files {
        let name = Path::new(label).file_name().map_or_else(|| label.clone(), |n| n.to_string_lossy().into_owned());
        let r = run_one(name, packs, args);
        let turn = |t: Option<usize>| t.map_or("-".to_string(), |t| t.to_string());
        let re = |i: usize| r.replan.map_or("-".to_string(), |v| v[i].to_string());
        let cells: Vec<String> = r
            .best_by
            .iter()
            .map(u32::to_string)
            .chain(r.first_turn.iter().map(|&t| turn(t)))
            .chain(r.line_by.iter().map(u32::to_string))
            .chain(
                [r.opening_fire, r.largest_fire, r.plan_fire]
                    .map(|f| f.map_or("-".into(), |(l, t)| format!("{l}@{t}"))),
            )
            .chain([r.refined.to_string()])
            .chain((0..2).map(|i| r.under_rows.map_or("-".into(), |v| v[i].to_string())))
            .chain((0..2).map(|i| r.after_fire.map_or("-".into(), |v| v[i].to_string())))
            .chain([re(0), re(1)])
            .collect();
        progress.suspend(|| {
            println!("{:<16} {} {:>12} {:>10.0}", r.name, columns(&cells), r.nodes, r.nodes as f64 / r.seconds)
        });
        progress.inc(1);
        reports.push(r);
    }
    progress.finish_and_clear();
    let mut medians = [0; 6];
    for (i, t) in BY_TURNS.iter().enumerate() {
        let (median, p10, p90, mean) = chain_quantiles(&reports.iter().map(|r| r.best_by[i]).collect::<Vec<_>>());
        medians[i] = median;
        println!("best chain by turn {t}: median {median}, 10th percentile {p10}, 90th {p90}, mean {mean:.2}");
    }
    for (i, t) in LINE_BY_TURNS.iter().enumerate() {
        let (median, p10, p90, mean) = chain_quantiles(&reports.iter().map(|r| r.line_by[i]).collect::<Vec<_>>());
        println!("the plan's own line by turn {t}: median {median}, 10th percentile {p10}, 90th {p90}, mean {mean:.2}");
    }
    for (i, rows) in ["one garbage row", "rows the turn before and that turn"].iter().enumerate() {
        let under: Vec<u32> = reports.iter().filter_map(|r| r.under_rows.map(|v| v[i])).collect();
        if !under.is_empty() {
            let (median, p10, p90, mean) = chain_quantiles(&under);
            println!(
                "the plan's chain at its fire turn under {rows}: median {median}, 10th percentile {p10}, 90th \
                 {p90}, mean {mean:.2}"
            );
        }
    }
    for (i, what) in [
        "the chain left on the field after the plan's fire".to_string(),
        format!("the best chain a rebuild finds within {NEXT_WITHIN} turns of the plan's fire"),
    ]
    .iter()
    .enumerate()
    {
        let after: Vec<u32> = reports.iter().filter_map(|r| r.after_fire.map(|v| v[i])).collect();
        if !after.is_empty() {
            let (median, p10, p90, mean) = chain_quantiles(&after);
            println!("{what}: median {median}, 10th percentile {p10}, 90th {p90}, mean {mean:.2}");
        }
    }
    let below: Vec<u32> = reports
        .iter()
        .filter_map(|r| Some(r.largest_fire?.0.saturating_sub(r.opening_fire?.0)))
        .filter(|&d| d > 0)
        .collect();
    println!(
        "the turn-0 plan's chain below the largest by turn {}: {}/{} files, by {:.2} links there (max0 - fire0)",
        args.beam.plan_turn,
        below.len(),
        reports.len(),
        below.iter().sum::<u32>() as f64 / below.len().max(1) as f64
    );
    let parted: Vec<&str> = reports.iter().filter(|r| r.plans_part()).map(|r| r.name.as_str()).collect();
    println!(
        "the turn-0 plan's chain other than the largest by its turn (max0, links or turn): {}/{} files{}{}",
        parted.len(),
        reports.len(),
        if parted.is_empty() { "" } else { ": " },
        parted.join(" ")
    );
    if args.beam.refine_ms > 0 {
        let refined = reports.iter().filter(|r| r.refined > 0).count();
        println!("refined at turns 1-{}: the plan replaced in {refined}/{} files", args.blind_turns - 1, reports.len());
    }
    let mut turn_to_12 = String::new();
    for (i, m) in MILESTONES.iter().enumerate() {
        let turns: Vec<Option<usize>> = reports.iter().map(|r| r.first_turn[i]).collect();
        let reached = turns.iter().flatten().count();
        let [median, p10, p90] = turn_quantiles(&turns);
        println!(
            "earliest turn to fire ≥{m}: median {median}, 10th percentile {p10}, 90th {p90}, reached in {reached}/{}",
            reports.len()
        );
        if *m == 12 {
            turn_to_12 = median;
        }
    }
    let replans: Vec<[u32; 2]> = reports.iter().filter_map(|r| r.replan).collect();
    if !replans.is_empty() {
        for (i, within) in REPLAN_WITHIN.iter().enumerate() {
            let (median, p10, p90, mean) = chain_quantiles(&replans.iter().map(|r| r[i]).collect::<Vec<_>>());
            println!(
                "re-plan at turn {REPLAN_TURN} with {REPLAN_ROWS} garbage rows, best within {within} turns: median \
                 {median}, 10th percentile {p10}, 90th {p90}, mean {mean:.2} ({} files)",
                replans.len()
            );
        }
    }
    let nodes: u64 = reports.iter().map(|r| r.nodes).sum();
    let secs: f64 = reports.iter().map(|r| r.seconds).sum();
    println!("nodes: {nodes} in {secs:.1} s, {:.0} nodes/s", nodes as f64 / secs);
    if let Some(mib) = super::peak_rss_mib() {
        println!("peak RSS: {mib:.1} MiB");
    }
    println!("opening: best by 12 = {}, turn to 12 = {turn_to_12}, best by 22 = {}", medians[1], medians[4]);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::OpeningReport;

    fn report(fire0: (u32, usize), max0: (u32, usize)) -> OpeningReport {
        OpeningReport {
            name: "seed:1".into(),
            best_by: [0; 6],
            line_by: [0; 3],
            opening_fire: Some(fire0),
            plan_fire: Some(fire0),
            largest_fire: Some(max0),
            refined: 0,
            under_rows: None,
            after_fire: None,
            first_turn: [None; 4],
            replan: None,
            nodes: 0,
            seconds: 1.0,
        }
    }

    #[test]
    fn the_plans_part_where_the_largest_differs_in_links_or_in_turn() {
        assert!(!report((14, 13), (14, 13)).plans_part());
        assert!(report((14, 12), (15, 13)).plans_part(), "a link more two turns later");
        assert!(report((14, 13), (14, 12)).plans_part(), "the same chain a turn earlier");
    }
}
