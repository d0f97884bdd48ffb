//! `bench sim`: the bitboard ([`BitField`]) against the reference engine ([`Field`]) on fixed,
//! seeded workloads, one thread, in the same run.
//!
//! Workloads:
//! - `grown`: positions grown by seeded random games from the pack files (garbage rows mixed in,
//!   skills used when the gauge allows), then every legal action from each position, each from
//!   a fresh copy, chains resolved and the death check done. Also split into the placements
//!   without and with a chain (classified by the reference beforehand).
//! - the standard workloads of `data/bench` (`sim-positions-*.txt`): every expected result
//!   is checked for both engines first (a mismatch is an error), then all 36 placements of every
//!   position are timed.
//!
//! Each measurement repeats whole passes until each engine has run `--min-ms` (at least 3
//! passes), the two engines' passes interleaved so that a change in the machine's load hits
//! both alike, and reports the median pass. Each workload also prints a signature (placements,
//! links, blocks vanished and exploded, deaths), the same for both engines (a difference is an
//! error) and from run to run. The last line is `sim speedup: X.Y`: bitboard over reference
//! placements per second on the whole `grown` workload.

use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::time::Instant;

use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;

use crate::board::table::{SeedTable, SplitTable};
use crate::board::{BitField, NeighbourSource, Shifts};
use crate::rules::{
    Action, Field, NoTrace, Outcome, Pack, Packs, Simulator, GAUGE_GAIN, GAUGE_MAX, SKILL_THRESHOLD, WIDTH,
};

/// `codevs-reborn bench sim` flags.
#[derive(Clone, Debug, clap::Args)]
pub struct SimBenchArgs {
    /// Pack files the `grown` workload is grown from: a folder or a file (default: the shipped
    /// data/packs, built into the binary).
    #[arg(long, value_name = "PATH")]
    pub packs: Option<PathBuf>,
    /// Folder of the standard workloads, `sim-positions-*.txt` with their `.expected` (default:
    /// the shipped data/bench, built into the binary).
    #[arg(long, value_name = "DIR")]
    pub workloads: Option<PathBuf>,
    /// Positions of the `grown` workload.
    #[arg(long, default_value_t = 2000)]
    pub positions: usize,
    /// Seed of the `grown` workload.
    #[arg(long, default_value_t = 2019)]
    pub seed: u64,
    /// Minimum time per measurement, in milliseconds (whole passes, at least 3).
    #[arg(long, default_value_t = 600)]
    pub min_ms: u64,
    /// Also measure table-driven neighbourhoods (allocates the seed's 160 MiB table).
    #[arg(long)]
    pub tables: bool,
}

/// A position of a standard workload: the field, the pack and the action the check uses.
#[derive(Clone, Debug)]
pub struct BenchPosition {
    pub field: Field,
    pub pack: Pack,
    pub action: Action,
}

/// Reads a standard workload file (see [`parse_positions`]).
pub fn read_positions(path: &Path) -> Result<Vec<BenchPosition>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    parse_positions(&text, &path.display().to_string())
}

/// Parses a standard workload (19 lines a position: 16 field rows top first, the pack's two
/// rows, `x r`); errors name `label` and the line.
pub fn parse_positions(text: &str, label: &str) -> Result<Vec<BenchPosition>, String> {
    let lines: Vec<&str> = text.lines().map(str::trim).filter(|l| !l.is_empty()).collect();
    if !lines.len().is_multiple_of(19) {
        return Err(format!("{}: {} lines, not a multiple of 19", label, lines.len()));
    }
    let numbers = |i: usize| -> Result<Vec<u8>, String> {
        lines[i]
            .split_whitespace()
            .map(|w| w.parse::<u8>().map_err(|_| format!("{}: line {}: bad number {w:?}", label, i + 1)))
            .collect()
    };
    let mut out = Vec::with_capacity(lines.len() / 19);
    for start in (0..lines.len()).step_by(19) {
        let mut rows = Vec::with_capacity(16);
        for i in start..start + 16 {
            let row: [u8; WIDTH] =
                numbers(i)?.try_into().map_err(|_| format!("{}: line {}: expected 10 cells", label, i + 1))?;
            rows.push(row);
        }
        let field = Field::from_rows_top_first(&rows).map_err(|e| format!("{}: line {}: {e}", label, start + 1))?;
        let pack_row = |i: usize| -> Result<[u8; 2], String> {
            numbers(i)?.try_into().map_err(|_| format!("{}: line {}: expected 2 cells", label, i + 1))
        };
        let pack = Pack::new(pack_row(start + 16)?, pack_row(start + 17)?);
        let action = lines[start + 18].parse::<Action>().map_err(|e| format!("{}: line {}: {e}", label, start + 19))?;
        out.push(BenchPosition { field, pack, action });
    }
    Ok(out)
}

/// Reads a `.expected` file: one line a position.
pub fn read_expected(path: &Path) -> Result<Vec<String>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(parse_expected(&text))
}

/// Parses a `.expected` file: one line a position.
pub fn parse_expected(text: &str) -> Vec<String> {
    text.lines().map(str::trim).filter(|l| !l.is_empty()).map(String::from).collect()
}

/// The `.expected` line for a result: the links, then each column bottom to top (`-` if empty).
pub fn expected_line(links: u32, field: &Field) -> String {
    let mut s = links.to_string();
    for x in 0..WIDTH {
        let cells: Vec<String> = (0..field.height(x)).map(|y| field.get(x, y).to_string()).collect();
        s.push(' ');
        s.push_str(if cells.is_empty() { "-" } else { "" });
        s.push_str(&cells.join(","));
    }
    s
}

/// Checks both engines against a standard workload's expected results; the error names the
/// first mismatch.
pub fn check_expected(name: &str, positions: &[BenchPosition], expected: &[String]) -> Result<(), String> {
    if positions.len() != expected.len() {
        return Err(format!("{name}: {} positions but {} expected lines", positions.len(), expected.len()));
    }
    for (i, (p, want)) in positions.iter().zip(expected).enumerate() {
        let mut reference = p.field;
        let o = reference.apply(&p.pack, p.action);
        let got = expected_line(o.links, &reference);
        if &got != want {
            return Err(format!(
                "{name}: position {} (action {}): the reference engine gives `{got}`, expected `{want}`",
                i + 1,
                p.action
            ));
        }
        let mut bits = BitField::from_field(&p.field);
        let o = bits.apply(&p.pack, p.action);
        let got = expected_line(o.links, &bits.to_field());
        if &got != want {
            return Err(format!(
                "{name}: position {} (action {}): the bitboard gives `{got}`, expected `{want}`",
                i + 1,
                p.action
            ));
        }
    }
    Ok(())
}

/// A position of the `grown` workload.
#[derive(Clone, Debug)]
pub struct GrownPosition {
    pub field: Field,
    pub pack: Pack,
    /// The gauge allows the skill.
    pub skill_allowed: bool,
}

/// Grows `count` positions (the field after the turn's garbage row, before the action) by
/// seeded random games on the pack files `files` (as [`crate::data::pack_set`] lists them).
pub fn grow_positions(files: &[(String, Packs)], count: usize, seed: u64) -> Result<Vec<GrownPosition>, String> {
    if files.is_empty() {
        return Err("no pack files to grow positions from".to_string());
    }
    let mut out = Vec::with_capacity(count);
    let mut game = 0u64;
    while out.len() < count {
        let packs = &files[game as usize % files.len()].1;
        let mut rng = Pcg64Mcg::seed_from_u64(seed ^ game.wrapping_mul(0x9E37_79B9_7F4A_7C15));
        let garbage_rate = [0.0, 0.1, 0.25][game as usize % 3];
        let (mut field, mut gauge) = (Field::empty(), 0u32);
        for turn in 0..packs.len() {
            if out.len() == count {
                break;
            }
            let pack = *packs.get(turn);
            if rng.gen_bool(garbage_rate) {
                field.drop_garbage_row();
            }
            let skill_allowed = gauge >= SKILL_THRESHOLD;
            out.push(GrownPosition { field, pack, skill_allowed });
            // A random action that survives, when one of a few tries does.
            let mut next = None;
            for _ in 0..8 {
                let action = if skill_allowed && rng.gen_bool(0.3) {
                    Action::Skill
                } else {
                    Action::Drop { x: rng.gen_range(0..=8), rotation: rng.gen_range(0..4) }
                };
                let mut f = field;
                let o = f.apply(&pack, action);
                if !f.is_dead() {
                    next = Some((f, o, action));
                    break;
                }
            }
            let Some((f, o, action)) = next else { break };
            field = f;
            if action == Action::Skill {
                gauge = 0;
            }
            if o.links > 0 {
                gauge = (gauge + GAUGE_GAIN).min(GAUGE_MAX);
            }
        }
        game += 1;
    }
    Ok(out)
}

/// What a pass computed, to compare engines and runs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Signature {
    pub placements: u64,
    pub links: u64,
    pub vanished: u64,
    pub exploded: u64,
    pub dead: u64,
}

impl Signature {
    /// Counts one placement's outcome.
    fn add(&mut self, outcome: &Outcome, dead: bool) {
        self.links += outcome.links as u64;
        self.vanished += outcome.vanished as u64;
        self.exploded += outcome.exploded as u64;
        self.dead += dead as u64;
    }
}

/// A flat list of (position index, action).
type Work = Vec<(u32, Action)>;

#[inline(never)]
fn pass<S: Simulator>(fields: &[S], packs: &[Pack], work: &[(u32, Action)]) -> Signature {
    let mut sig = Signature::default();
    for &(p, action) in work {
        let mut f = fields[p as usize].clone();
        let o = f.apply(&packs[p as usize], action);
        sig.add(&o, f.is_dead());
        black_box(&f);
    }
    sig.placements = work.len() as u64;
    sig
}

#[inline(never)]
fn pass_with<N: NeighbourSource>(fields: &[BitField], packs: &[Pack], work: &[(u32, Action)]) -> Signature {
    let mut sig = Signature::default();
    for &(p, action) in work {
        let mut f = fields[p as usize];
        let o = match action {
            Action::Drop { x, rotation } => {
                f.drop_pack_with::<N, NoTrace>(&packs[p as usize], x, rotation, &mut NoTrace)
            }
            Action::Skill => f.use_skill_with::<N, NoTrace>(&mut NoTrace),
        };
        sig.add(&o, f.is_dead());
        black_box(&f);
    }
    sig.placements = work.len() as u64;
    sig
}

/// A timing: the median pass.
#[derive(Clone, Copy, Debug)]
pub struct Timing {
    pub signature: Signature,
    pub seconds_per_pass: f64,
    pub passes: usize,
}

impl Timing {
    pub fn per_second(&self) -> f64 {
        self.signature.placements as f64 / self.seconds_per_pass
    }
    pub fn ns_per_placement(&self) -> f64 {
        self.seconds_per_pass * 1e9 / self.signature.placements.max(1) as f64
    }
}

fn timing(signature: Signature, mut times: Vec<f64>) -> Timing {
    times.sort_by(f64::total_cmp);
    Timing { signature, seconds_per_pass: times[times.len() / 2], passes: times.len() }
}

fn measure(min_ms: u64, mut f: impl FnMut() -> Signature) -> Timing {
    let start = Instant::now();
    let mut times = Vec::new();
    let mut signature = Signature::default();
    while times.len() < 3 || start.elapsed().as_millis() < min_ms as u128 {
        let t = Instant::now();
        signature = f();
        times.push(t.elapsed().as_secs_f64());
    }
    timing(signature, times)
}

/// Times two engines with their passes interleaved (whichever has run for less time goes
/// next), so a change in the machine's load affects both alike; each gets `min_ms` and at
/// least 3 passes.
fn measure_both(min_ms: u64, mut a: impl FnMut() -> Signature, mut b: impl FnMut() -> Signature) -> (Timing, Timing) {
    let (mut ta, mut tb) = (Vec::new(), Vec::new());
    let (mut sa, mut sb) = (Signature::default(), Signature::default());
    let (mut spent_a, mut spent_b) = (0.0, 0.0);
    let min = min_ms as f64 / 1e3;
    while ta.len() < 3 || tb.len() < 3 || spent_a < min || spent_b < min {
        let t = Instant::now();
        if spent_a <= spent_b {
            sa = a();
            ta.push(t.elapsed().as_secs_f64());
            spent_a += ta[ta.len() - 1];
        } else {
            sb = b();
            tb.push(t.elapsed().as_secs_f64());
            spent_b += tb[tb.len() - 1];
        }
    }
    (timing(sa, ta), timing(sb, tb))
}

fn report(engine: &str, workload: &str, t: &Timing) {
    println!(
        "  {engine:<16} {workload:<24} {:>12} placements/s {:>10.1} ns/placement ({} passes)",
        group(t.per_second() as u64),
        t.ns_per_placement(),
        t.passes
    );
}

fn group(n: u64) -> String {
    let s = n.to_string();
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// Times both engines (and the table variants when asked) on one workload; returns the
/// (reference, bitboard) timings. A signature mismatch between engines is an error.
fn compare(
    args: &SimBenchArgs,
    name: &str,
    reference: &[Field],
    bits: &[BitField],
    packs: &[Pack],
    work: &[(u32, Action)],
) -> Result<(Timing, Timing), String> {
    let (r, b) = measure_both(args.min_ms, || pass(reference, packs, work), || pass(bits, packs, work));
    if r.signature != b.signature {
        return Err(format!("{name}: the engines disagree: reference {:?}, bitboard {:?}", r.signature, b.signature));
    }
    let sig = r.signature;
    println!(
        "  {name}: {} placements, signature links={} vanished={} exploded={} dead={}",
        sig.placements, sig.links, sig.vanished, sig.exploded, sig.dead
    );
    report("reference", name, &r);
    report("bitboard", name, &b);
    if args.tables {
        for (label, t) in [
            ("bitboard+split", measure(args.min_ms, || pass_with::<SplitTable>(bits, packs, work))),
            ("bitboard+seed", measure(args.min_ms, || pass_with::<SeedTable>(bits, packs, work))),
            ("bitboard+shifts", measure(args.min_ms, || pass_with::<Shifts>(bits, packs, work))),
        ] {
            report(label, name, &t);
            if t.signature != b.signature {
                return Err(format!("{name}: {label} disagrees with the bitboard"));
            }
        }
    }
    println!("  speedup {name}: {:.1}", b.per_second() / r.per_second());
    Ok((r, b))
}

/// Runs the simulator benchmark; an error is a one-line message for the user.
pub fn run(args: &SimBenchArgs) -> Result<(), String> {
    println!(
        "bench sim: {} path, one thread, median pass (each engine runs at least {} ms, passes interleaved); \
         BitField is {} bytes",
        if crate::board::ACCELERATED { "AVX2+BMI2" } else { "portable" },
        args.min_ms,
        std::mem::size_of::<BitField>()
    );
    if args.tables {
        let t = Instant::now();
        let seed = SeedTable::init();
        let split = SplitTable::init();
        println!(
            "tables: seed {:.0} MiB, split {:.0} KiB, built in {:.0} ms",
            seed as f64 / (1 << 20) as f64,
            split as f64 / 1024.0,
            t.elapsed().as_secs_f64() * 1e3
        );
    }

    // Standard workloads: check, then time all 36 placements of each position.
    for name in ["sim-positions-random", "sim-positions-chains"] {
        let dir = args.workloads.as_deref();
        let label = |ext: &str| match dir {
            Some(d) => d.join(format!("{name}.{ext}")).display().to_string(),
            None => format!("{}/{name}.{ext}", crate::data::BENCH_DIR),
        };
        let positions = parse_positions(&crate::data::bench_text(dir, &format!("{name}.txt"))?, &label("txt"))?;
        let expected = parse_expected(&crate::data::bench_text(dir, &format!("{name}.expected"))?);
        check_expected(name, &positions, &expected)?;
        println!("workload {name}: {} positions, all expected results match for both engines", positions.len());
        let reference: Vec<Field> = positions.iter().map(|p| p.field).collect();
        let bits: Vec<BitField> = reference.iter().map(BitField::from_field).collect();
        let packs: Vec<Pack> = positions.iter().map(|p| p.pack).collect();
        let all: Work = (0..positions.len() as u32).flat_map(|p| Action::drops().map(move |a| (p, a))).collect();
        compare(args, &format!("{name}/all"), &reference, &bits, &packs, &all)?;
        if name.ends_with("chains") {
            let own: Work = positions.iter().enumerate().map(|(i, p)| (i as u32, p.action)).collect();
            compare(args, &format!("{name}/own"), &reference, &bits, &packs, &own)?;
        }
    }

    // The grown workload.
    let t = Instant::now();
    let files = crate::data::pack_set(args.packs.as_deref())?;
    let grown = grow_positions(&files, args.positions, args.seed)?;
    let reference: Vec<Field> = grown.iter().map(|p| p.field).collect();
    let bits: Vec<BitField> = reference.iter().map(BitField::from_field).collect();
    let packs: Vec<Pack> = grown.iter().map(|p| p.pack).collect();
    let all: Work =
        grown.iter().enumerate().flat_map(|(i, p)| Action::all(p.skill_allowed).map(move |a| (i as u32, a))).collect();
    let (mut quiet, mut chains) = (Work::new(), Work::new());
    for &(p, a) in &all {
        let mut f = reference[p as usize];
        if f.apply(&packs[p as usize], a).links == 0 {
            quiet.push((p, a));
        } else {
            chains.push((p, a));
        }
    }
    let skills = all.iter().filter(|(_, a)| *a == Action::Skill).count();
    println!(
        "workload grown: {} positions from {} (seed {}), {} placements ({} without chain, {} with, {} skills), \
         grown in {:.1} s",
        grown.len(),
        args.packs.as_deref().map_or(crate::data::PACKS_DIR.to_string(), |p| p.display().to_string()),
        args.seed,
        all.len(),
        quiet.len(),
        chains.len(),
        skills,
        t.elapsed().as_secs_f64(),
    );
    compare(args, "grown/no-chain", &reference, &bits, &packs, &quiet)?;
    compare(args, "grown/chain", &reference, &bits, &packs, &chains)?;
    let (r, b) = compare(args, "grown/all", &reference, &bits, &packs, &all)?;
    if let Some(mib) = super::peak_rss_mib() {
        println!("peak RSS: {mib:.1} MiB");
    }
    println!("sim speedup: {:.1}", b.per_second() / r.per_second());
    Ok(())
}
