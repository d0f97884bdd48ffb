//! The anytime chain builder: its menu's lines are legal and replay to the chains promised, the
//! menu is consistent in what it reports, and a node budget makes it reproducible.

mod common;

use codevs_reborn::protocol::read_pack_file;
use codevs_reborn::rules::{Field, Packs, Simulator, GARBAGE_ROW};
use codevs_reborn::search::builder::{search, BuildResult, BuilderConfig, PotentialProbe};
use codevs_reborn::search::chain::Menu;
use codevs_reborn::search::chain::Start;
use codevs_reborn::search::eval::BuilderWeights;
use codevs_reborn::Engine;

fn packs(i: usize) -> Packs {
    read_pack_file(&common::data().join(format!("packs/pack_{i:04}.pack"))).unwrap()
}

fn small_config(seed: u64) -> BuilderConfig {
    BuilderConfig { depth: 16, node_budget: Some(2_000_000), seed, ..BuilderConfig::default() }
}

fn run_with_threads(threads: usize, start: Start<'_, Engine>, config: &BuilderConfig) -> BuildResult {
    let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
    pool.install(|| search(start, config))
}

/// The builder's search from the empty field at turn 0 on `threads` threads.
fn from_empty(threads: usize, packs: &Packs, config: &BuilderConfig) -> BuildResult {
    let empty = Engine::from_field(&Field::empty());
    run_with_threads(threads, Start { field: &empty, packs, turn: 0, garbage: 0 }, config)
}

/// [`common::check_menu_replays`] with the builder's move constraints.
fn check_menu_replays(menu: &Menu, field: &Field, packs: &Packs, garbage: u32, config: &BuilderConfig) {
    common::check_menu_replays(menu, field, packs, garbage, &config.positions, config.build_chain_max);
}

#[test]
fn every_menu_line_replays_to_the_chain_it_promises() {
    // The default ranking, then each optional evaluation: the promises hold whatever ranks states.
    let gap_pairs = BuilderWeights { gap_pairs: 100, ..BuilderWeights::default() };
    for (i, potential, weights) in [
        (0, PotentialProbe::Drop, BuilderWeights::default()),
        (7, PotentialProbe::Drop, BuilderWeights::default()),
        (42, PotentialProbe::Drop, BuilderWeights::default()),
        (7, PotentialProbe::Erase, BuilderWeights::default()),
        (42, PotentialProbe::Drop, gap_pairs),
    ] {
        let packs = packs(i);
        let config = BuilderConfig { potential, weights, ..small_config(1) };
        let result = from_empty(2, &packs, &config);
        check_menu_replays(&result.menu, &Field::empty(), &packs, 0, &config);
    }
}

#[test]
fn a_replan_with_garbage_pending_keeps_its_promises() {
    // A midgame field: grown by the builder's own line to turn 12, two garbage rows on it and
    // three more rows to fall, one a turn.
    let packs = packs(11);
    let config = small_config(3);
    let grown = from_empty(2, &packs, &config);
    let line = grown.menu.entries[14].as_ref().expect("a line to turn 14");
    let mut field = line.expected[12];
    field.drop_garbage_row();
    field.drop_garbage_row();
    let engine = Engine::from_field(&field);
    let start = Start { field: &engine, packs: &packs, turn: 12, garbage: 3 * GARBAGE_ROW + 4 };
    let result = run_with_threads(2, start, &config);
    assert_eq!(result.menu.start_turn, 12);
    check_menu_replays(&result.menu, &field, &packs, 3 * GARBAGE_ROW + 4, &config);
}

#[test]
fn the_menu_reports_consistently() {
    let packs = packs(5);
    let result = from_empty(2, &packs, &small_config(0));
    let menu = &result.menu;
    let links = menu.links();
    let mut best = 0;
    for (turn, &fired) in links.iter().enumerate() {
        // The best by a turn is the running maximum of the fires up to it: never decreasing.
        best = best.max(fired);
        assert_eq!(menu.best_by_turn(turn), best, "turn {turn}");
    }
    assert!(best >= 8, "16 turns from an empty field build at least 8 links, found {best}");
    // The earliest turn to a chain is no later for a smaller chain, and is where it is reached.
    let mut last = 0;
    for l in 1..=best {
        let turn = menu.first_turn_with(l).expect("every chain up to the best is reached");
        assert!(turn >= last, "{l} links at {turn}, fewer at {last}");
        assert!(links[turn] >= l && links[..turn].iter().all(|&x| x < l));
        last = turn;
    }
    assert_eq!(menu.first_turn_with(best + 1), None);
    // The plan's choice: the largest chain within the horizon, the earliest of equals.
    for horizon in [10, 12, 14, 16] {
        let chosen = menu.choose(horizon).unwrap();
        let most = *links[..=horizon].iter().max().unwrap();
        assert_eq!(chosen.fires.last().unwrap().unwrap().chain.links, most, "horizon {horizon}");
        assert_eq!(Some(chosen.builds.len()), links.iter().position(|&l| l == most), "horizon {horizon}");
    }
}

#[test]
fn same_seed_and_node_budget_give_the_same_menu_on_any_thread_count() {
    let packs = packs(3);
    let config = small_config(42);
    let one = from_empty(1, &packs, &config);
    let two = from_empty(2, &packs, &config);
    let three = from_empty(3, &packs, &config);
    for other in [&two, &three] {
        assert_eq!(one.nodes, other.nodes);
        assert_eq!(one.sweeps, other.sweeps);
        assert_eq!(one.menu.links(), other.menu.links());
        for (a, b) in one.menu.entries.iter().zip(&other.menu.entries) {
            assert_eq!(a.as_ref().map(|l| &l.builds), b.as_ref().map(|l| &l.builds));
        }
    }
    // Another seed breaks ties differently but plays by the same rules.
    let other_seed = from_empty(2, &packs, &small_config(7));
    check_menu_replays(&other_seed.menu, &Field::empty(), &packs, 0, &config);
}

#[test]
fn more_nodes_never_make_the_menu_worse_at_any_turn() {
    // The queues only gain states as sweeps go on, and each depth keeps its best fire.
    let packs = packs(9);
    let short = from_empty(2, &packs, &small_config(0));
    let long = BuilderConfig { node_budget: Some(6_000_000), ..small_config(0) };
    let long = from_empty(2, &packs, &long);
    for (turn, (s, l)) in short.menu.links().into_iter().zip(long.menu.links()).enumerate() {
        assert!(l >= s, "turn {turn}: {s} links with 2M nodes, {l} with 6M");
    }
}

#[test]
fn under_garbage_the_builder_still_finds_the_answer() {
    // Kera's field in a gauntlet game (pack file 15, turn 13) with our 13-link fire (60 blocks)
    // about to fall on it: kera answered with 16 links at turn 20. Six garbage rows stack every
    // line into the danger zone; when such states all scored alike the builder found 13 links
    // at most, and the bot fired into the answer it could not see.
    let field: Field = "
        ......7...
        ......84..
        ......13..
        .....683..
        ....5686..
        ....2975..
        ....9429..
        ...74944..
        ...18495..
        ...81896.."
        .parse()
        .unwrap();
    let packs = packs(15);
    let engine = Engine::from_field(&field);
    let config = BuilderConfig { depth: 12, node_budget: Some(4_000_000), ..small_config(0) };
    let start = Start { field: &engine, packs: &packs, turn: 13, garbage: 60 };
    let result = run_with_threads(2, start, &config);
    let by_20 = result.menu.best_by_turn(20);
    assert!(by_20 >= 15, "best by turn 20 is {by_20} links: the probe misses the answer");
    check_menu_replays(&result.menu, &field, &packs, 60, &config);
}
