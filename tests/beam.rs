//! The chain-building beam search: reproducible, and its plans do what they promise.

mod common;

use codevs_reborn::bench::opening::{left_after_fire, under_rows};
use codevs_reborn::bot::{Plan, PlanKind};
use codevs_reborn::protocol::read_pack_file;
use codevs_reborn::rules::{Action, Field, Packs, Simulator, WIDTH};
use codevs_reborn::search::beam::{search, BeamConfig, Potential};
use codevs_reborn::search::chain::{BeamResult, Start};
use codevs_reborn::search::eval::BeamWeights;
use codevs_reborn::Engine;

fn packs(i: usize) -> Packs {
    read_pack_file(&common::data().join(format!("packs/pack_{i:04}.pack"))).unwrap()
}

fn small_config(seed: u64) -> BeamConfig {
    BeamConfig {
        width: 300,
        chain_width: 80,
        depth: 14,
        target: Some(8),
        final_target: Some(12),
        positions: 2..=6,
        node_budget: Some(3_000_000),
        seed,
        ..BeamConfig::default()
    }
}

fn run_with_threads(threads: usize, packs: &Packs, config: &BeamConfig) -> BeamResult {
    let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
    let field = Engine::from_field(&Field::empty());
    pool.install(|| search(Start { field: &field, packs, turn: 0, garbage: 0 }, config))
}

#[test]
fn same_seed_and_node_budget_give_the_same_line_on_any_thread_count() {
    let packs = packs(3);
    let config = small_config(42);
    let one = run_with_threads(1, &packs, &config);
    let two = run_with_threads(2, &packs, &config);
    let three = run_with_threads(3, &packs, &config);
    assert!(!one.line.builds.is_empty());
    assert_eq!(one.line.builds, two.line.builds);
    assert_eq!(one.line.builds, three.line.builds);
    assert_eq!(one.line.fires, two.line.fires);
    assert_eq!(one.nodes, two.nodes);
}

#[test]
fn the_plan_fires_the_chain_it_promises() {
    for i in [0, 7, 42] {
        let packs = packs(i);
        let result = run_with_threads(2, &packs, &small_config(1));
        let line = &result.line;
        let k = line.best_fire_step().expect("a fire within 14 turns");
        let promised = line.fires[k].unwrap();
        let plan = line.plan();
        assert_eq!(plan.len(), k + 1);
        // Replay on the reference engine: the fields the plan expects, then the promised chain.
        let mut field = Field::empty();
        for (turn, &action) in plan.iter().enumerate() {
            assert_eq!(field, line.expected[turn], "pack file {i}, turn {turn}: the field the plan expects");
            let outcome = field.apply(packs.get(turn), action);
            assert!(!field.is_dead());
            if turn < k {
                assert!(matches!(action, Action::Drop { x: 2..=6, .. }), "opening moves keep off the outer columns");
            } else {
                assert_eq!(outcome.links, promised.chain.links);
                assert_eq!(outcome.vanished, promised.chain.vanished);
            }
        }
        // Strength is measured by `bench opening`; this is a floor that a broken evaluation misses.
        assert!(promised.chain.links >= 5, "pack file {i}: only {} links", promised.chain.links);
    }
}

#[test]
fn garbage_in_stock_falls_in_the_searched_lines() {
    let packs = packs(5);
    let field = Engine::from_field(&Field::empty());
    let config = BeamConfig { depth: 4, target: None, final_target: None, node_budget: None, ..small_config(0) };
    let result = search(Start { field: &field, packs: &packs, turn: 0, garbage: 25 }, &config);
    let garbage_at = |t: usize| result.line.expected[t].count(|v| v == 11);
    assert_eq!(
        [garbage_at(0), garbage_at(1), garbage_at(2), garbage_at(3)],
        [0, 10, 20, 20],
        "one row a turn while 10 remain"
    );
}

#[test]
fn the_threat_summary_covers_every_turn_and_bounds_the_line() {
    let packs = packs(5);
    let result = run_with_threads(2, &packs, &small_config(3));
    let threats = result.threats();
    assert_eq!(threats.len(), result.depth + 1);
    for (turn, fire) in result.line.fires.iter().enumerate() {
        let links = fire.map_or(0, |f| f.chain.links);
        assert!(links <= threats[turn], "turn {turn}: the line fires more than the beam's best");
    }
    let best = result.line.fires.iter().flatten().map(|f| f.chain.links).max().unwrap();
    let first = result.earliest(best).unwrap();
    assert!(first <= result.line.fires.iter().position(|f| f.is_some_and(|f| f.chain.links == best)).unwrap());
    assert!(result.best_within(result.depth) >= best);
}

/// The beam with no targets: it searches all `depth` turns and its menu covers each of them.
fn untargeted(seed: u64) -> BeamConfig {
    BeamConfig { target: None, final_target: None, ..small_config(seed) }
}

#[test]
fn every_menu_line_replays_to_the_chain_it_promises() {
    // The default ranking (deepest potential, erase probe), then seed 000's: the promises hold
    // whatever ranks the states.
    // With the fires under a garbage row measured, those lines' promises hold too.
    let seed_000 = BeamConfig { weights: BeamWeights::seed(), potential: Potential::NextPack, ..untargeted(1) };
    let under_row = BeamConfig { under_row: true, ..untargeted(1) };
    for (i, config) in [(0, untargeted(1)), (42, under_row), (7, seed_000)] {
        let packs = packs(i);
        let result = run_with_threads(2, &packs, &config);
        common::check_menu_replays(&result.menu, &Field::empty(), &packs, 0, &config.positions, config.build_chain_max);
        let measured = result.menu.under_row.iter().flatten().count();
        assert_eq!(measured >= 10, config.under_row, "{measured} lines under a row");
    }
}

#[test]
fn the_menu_never_shrinks_and_the_plan_is_a_menu_line() {
    let packs = packs(9);
    let config = untargeted(2);
    let result = run_with_threads(2, &packs, &config);
    // The menu's best by each turn is the running maximum of its fires: it never decreases.
    let threats = result.menu.links();
    assert_eq!(threats.len(), result.depth + 1);
    let mut best = 0;
    for (turn, &links) in threats.iter().enumerate() {
        best = best.max(links);
        assert_eq!(result.menu.best_by_turn(turn), best, "turn {turn}");
    }
    assert!(best >= 10, "14 turns from an empty field build at least 10 links, found {best}");
    // A plan chosen by turn 10 fires the largest chain fireable by then, at the earliest turn.
    let chosen = result.menu.choose(10).unwrap();
    let most = result.best_within(10);
    assert_eq!(chosen.fires.last().unwrap().unwrap().chain.links, most);
    assert_eq!(Some(chosen.builds.len()), result.earliest(most));
    assert_eq!(chosen.best_fire_step(), Some(chosen.builds.len()), "the chosen line's best fire is its last");
}

#[test]
fn same_seed_and_node_budget_give_the_same_menu_on_any_thread_count() {
    let packs = packs(4);
    let config = untargeted(5);
    let one = run_with_threads(1, &packs, &config);
    let three = run_with_threads(3, &packs, &config);
    assert_eq!(one.menu.links(), three.menu.links());
    for (a, b) in one.menu.entries.iter().zip(&three.menu.entries) {
        assert_eq!(a.as_ref().map(|l| &l.builds), b.as_ref().map(|l| &l.builds));
    }
}

/// The opening plan `bench opening`'s figures are checked on: pack file 2, a small untargeted
/// search, one thread; with the plan's fire turn.
fn bench_plan() -> (Packs, BeamConfig, Plan, usize) {
    let packs = packs(2);
    let config = untargeted(3);
    let result = run_with_threads(1, &packs, &config);
    let plan = Plan::from_search(&result, PlanKind::Opening).expect("a plan");
    let fire_turn = plan.fire_turn().expect("the plan fires");
    (packs, config, plan, fire_turn)
}

/// `bench opening`'s figures for a plan's chain when their garbage lands first, recomputed with
/// the reference engine: one row on the fire turn; rows on the turn before (every move tried on
/// top of it) and on the fire turn.
#[test]
fn the_bench_reads_the_plans_chain_under_their_rows_as_the_rules_do() {
    let (packs, config, plan, fire_turn) = bench_plan();
    let best_under_row = |field: &Field, turn: usize| -> u32 {
        let mut buried = *field;
        buried.drop_garbage_row();
        Action::drops()
            .map(|action| {
                let mut probe = buried;
                let links = probe.apply(packs.get(turn), action).links;
                if probe.is_dead() {
                    0
                } else {
                    links
                }
            })
            .max()
            .unwrap_or(0)
    };
    let one = best_under_row(plan.expected_at(fire_turn).unwrap(), fire_turn);
    let mut before = *plan.expected_at(fire_turn - 1).unwrap();
    before.drop_garbage_row();
    let two = Action::drops()
        .filter_map(|action| {
            let mut field = before;
            let built = field.apply(packs.get(fire_turn - 1), action);
            (built.links <= config.build_chain_max && !field.is_dead()).then(|| best_under_row(&field, fire_turn))
        })
        .max()
        .unwrap_or(0);
    assert_eq!(under_rows(&packs, &plan, config.build_chain_max), Some([one, two]));
}

/// `bench opening`'s chain left after the plan's fire, recomputed with the reference engine:
/// the fire played, then every numbered block with an empty cell among its eight neighbours
/// erased in turn, the chain that sets off counted with the erased block as its first link.
#[test]
fn the_bench_reads_what_the_plans_fire_leaves_as_the_rules_do() {
    let (packs, _, plan, fire_turn) = bench_plan();
    let mut after = *plan.expected_at(fire_turn).unwrap();
    after.apply(packs.get(fire_turn), *plan.actions.last().unwrap());
    let empty =
        |x: isize, y: isize| (0..WIDTH as isize).contains(&x) && y >= 0 && after.get(x as usize, y as usize) == 0;
    let mut held = 0;
    for x in 0..WIDTH {
        for y in 0..after.height(x) {
            let exposed = (-1..=1).any(|dx| (-1..=1).any(|dy| empty(x as isize + dx, y as isize + dy)));
            if exposed && (1..=9).contains(&after.get(x, y)) {
                let mut probe = after;
                held = held.max(probe.erase(x, y).links);
            }
        }
    }
    let (field, left) = left_after_fire(&packs, &plan).expect("the plan fires");
    assert_eq!(field.to_field(), after);
    assert_eq!(left, held);
}

/// With `two_rows`, the opening's menu lines carry the chain that goes off whether their rows
/// land one turn before the fire or two: the smaller of `bench opening`'s two figures, which the
/// test above checks with the rules.
#[test]
fn a_plan_weighed_under_two_rows_carries_the_chain_the_rules_leave_it() {
    let packs = packs(2);
    let config = BeamConfig { under_row: true, two_rows: 64, ..untargeted(3) };
    let result = run_with_threads(1, &packs, &config);
    // A line whose best fire is its last move (a plan cuts a line at its best fire).
    let measured: Vec<_> = result
        .menu
        .under_row
        .iter()
        .flatten()
        .filter(|line| line.best_fire_step() == Some(line.fires.len() - 1))
        .collect();
    assert!(!measured.is_empty(), "the search measured some lines under two rows");
    for line in measured {
        let plan =
            Plan::from_search(&BeamResult { line: line.clone(), ..result.clone() }, PlanKind::Opening).expect("a plan");
        let either = under_rows(&packs, &plan, config.build_chain_max).map(|[one, two]| one.min(two));
        assert_eq!(line.under_row, either, "the line firing at turn {:?}", plan.fire_turn());
    }
}

/// `bench opening --pack-seed`: generated packs named by their seed, and the `max0` column, the
/// largest chain the turn-0 menu fires by the plan's turn, which the plan's own chain (`fire0`,
/// the one that still fires under a row) never exceeds.
#[test]
fn the_bench_sets_the_plans_chain_against_the_largest_by_its_turn() {
    use clap::Parser;
    use codevs_reborn::bench::opening::{run_one, OpeningBenchArgs};
    #[derive(Parser)]
    struct Cli {
        #[command(flatten)]
        args: OpeningBenchArgs,
    }
    let cli =
        Cli::parse_from(["bench", "--pack-seed", "1000", "--count", "1", "--node-budget", "400000", "--no-replan"]);
    let args = cli.args;
    assert_eq!(args.pack_seed, Some(1000));
    let report = run_one("seed:1000".into(), &Packs::generate(1000), &args);
    let (largest, turn) = report.largest_fire.expect("a chain by turn 13");
    let (planned, _) = report.opening_fire.expect("a plan");
    assert!(turn <= args.beam.plan_turn, "the largest chain within the plan's turn: {turn}");
    assert!(largest >= planned, "the largest chain {largest} is at least the plan's {planned}");
    assert!(largest <= report.best_by[2], "turn 13's chain is within the menu's best by 16");
}
