//! Criterion benches of the bitboard (and the reference for scale): a drop without chain, with
//! a chain (grown positions, mostly 1–2 links), with a long chain (`sim-positions-chains`, 6–22
//! links), the skill, hashing and equality, and the neighbourhood computation (shifts against
//! the two table variants, alone and inside the simulator). Every group measures a batch of
//! real positions and reports throughput per element, so `time / element` is the cost of one
//! operation; a placement includes copying the state first, as a search does.
//!
//! `cargo bench --bench simulator` (the workload paths are relative to the crate root).

use std::hint::black_box;
use std::path::PathBuf;

use codevs_reborn::bench::sim::{grow_positions, read_positions};
use codevs_reborn::board::table::{SeedTable, SplitTable};
use codevs_reborn::board::{BitField, NeighbourSource, Shifts, B256};
use codevs_reborn::data::pack_set;
use codevs_reborn::rules::{Action, Field, NoTrace, Pack, Simulator};
use criterion::{criterion_group, criterion_main, Criterion, Throughput};

/// The repository's data folder (real pack files, simulator workloads).
fn data() -> PathBuf {
    PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/data"))
}

/// Positions with their pack and the actions to time from each (each from a fresh copy), as a
/// search expands a node: the position stays in cache.
type Cases<S> = Vec<(S, Pack, Vec<Action>)>;

/// From the grown workload: the drops without chain of each position, those with a chain,
/// and the skill.
fn grown_cases() -> (Cases<Field>, Cases<Field>, Cases<Field>) {
    let grown = grow_positions(&pack_set(Some(&data().join("packs"))).expect("packs"), 300, 7).expect("positions");
    let (mut quiet, mut chains, mut skills) = (Vec::new(), Vec::new(), Vec::new());
    for p in &grown {
        let links = |a: &Action| {
            let mut f = p.field;
            f.apply(&p.pack, *a).links
        };
        quiet.push((p.field, p.pack, Action::drops().filter(|a| links(a) == 0).collect()));
        chains.push((p.field, p.pack, Action::drops().filter(|a| links(a) > 0).collect()));
        skills.push((p.field, p.pack, vec![Action::Skill]));
    }
    (quiet, chains, skills)
}

fn count<S>(cases: &Cases<S>) -> u64 {
    cases.iter().map(|c| c.2.len() as u64).sum()
}

fn run<S: Simulator>(cases: &Cases<S>) -> u32 {
    let mut links = 0;
    for (f, pack, actions) in cases {
        for &action in actions {
            let mut f = f.clone();
            links += f.apply(pack, action).links;
            black_box(&f);
        }
    }
    links
}

fn convert(cases: &Cases<Field>) -> Cases<BitField> {
    cases.iter().map(|(f, p, a)| (BitField::from_field(f), *p, a.clone())).collect()
}

fn benches(c: &mut Criterion) {
    let (quiet, short, skills) = grown_cases();
    let chains: Cases<Field> = read_positions(&data().join("bench/sim-positions-chains.txt"))
        .expect("chains workload")
        .into_iter()
        .map(|p| (p.field, p.pack, vec![p.action]))
        .collect();

    for (name, cases) in [
        ("drop_without_chain", &quiet),
        ("drop_with_chain", &short),
        ("drop_with_long_chain", &chains),
        ("skill", &skills),
    ] {
        let bits = convert(cases);
        let mut g = c.benchmark_group(name);
        g.throughput(Throughput::Elements(count(cases)));
        g.bench_function("bitboard", |b| b.iter(|| run(black_box(&bits))));
        g.sample_size(10);
        g.bench_function("reference", |b| b.iter(|| run(black_box(cases))));
        g.finish();
    }

    // 300 fields (200 KB): in L2, as a search's hot states.
    let fields: Vec<BitField> = convert(&quiet).into_iter().map(|(f, _, _)| f).collect();
    let mut g = c.benchmark_group("hash");
    g.throughput(Throughput::Elements(fields.len() as u64));
    g.bench_function("bitboard", |b| b.iter(|| fields.iter().fold(0u64, |h, f| h ^ black_box(f).hash())));
    g.bench_function("equality", |b| {
        b.iter(|| fields.windows(2).filter(|w| black_box(&w[0]) == black_box(&w[1])).count())
    });
    g.finish();

    // Neighbourhood of one number plane, on the planes of real positions.
    let planes: Vec<B256> = fields.iter().flat_map(|f| (1..=9).map(|d| f.number(d))).take(2700).collect();
    SeedTable::init();
    SplitTable::init();
    fn all<N: NeighbourSource>(planes: &[B256]) -> B256 {
        planes.iter().fold(B256::ZERO, |acc, p| acc.or(N::neighbours(black_box(p))))
    }
    let mut g = c.benchmark_group("neighbourhood");
    g.throughput(Throughput::Elements(planes.len() as u64));
    g.bench_function("shifts", |b| b.iter(|| all::<Shifts>(&planes)));
    g.bench_function("split_table_480KiB", |b| b.iter(|| all::<SplitTable>(&planes)));
    g.bench_function("seed_table_160MiB", |b| b.iter(|| all::<SeedTable>(&planes)));
    g.finish();

    // Long chains with each neighbourhood source inside the simulator.
    let bits = convert(&chains);
    let mut g = c.benchmark_group("drop_with_long_chain_by_neighbourhood");
    g.throughput(Throughput::Elements(count(&bits)));
    fn with<N: NeighbourSource>(cases: &Cases<BitField>) -> u32 {
        let mut links = 0;
        for (f, pack, actions) in cases {
            for action in actions {
                let mut f = *f;
                if let Action::Drop { x, rotation } = action {
                    links += f.drop_pack_with::<N, _>(pack, *x, *rotation, &mut NoTrace).links;
                }
                black_box(&f);
            }
        }
        links
    }
    g.bench_function("shifts", |b| b.iter(|| with::<Shifts>(&bits)));
    g.bench_function("split_table_480KiB", |b| b.iter(|| with::<SplitTable>(&bits)));
    g.bench_function("seed_table_160MiB", |b| b.iter(|| with::<SeedTable>(&bits)));
    g.finish();
}

criterion_group!(simulator, benches);
criterion_main!(simulator);
