//! The skill builder (skill mode's search): its lines are legal, charge the gauge as the rules
//! do, and their skills send what they promise; a node budget makes it reproducible.

mod common;

use codevs_reborn::protocol::read_pack_file;
use codevs_reborn::rules::{Action, Field, Packs, Simulator, GARBAGE_ROW, GAUGE_GAIN, GAUGE_MAX, SKILL_THRESHOLD};
use codevs_reborn::search::chain::Start;
use codevs_reborn::search::skill::{search, SkillConfig, SkillLine, SkillResult};
use codevs_reborn::Engine;

fn packs(i: usize) -> Packs {
    read_pack_file(&common::data().join(format!("packs/pack_{i:04}.pack"))).unwrap()
}

fn config() -> SkillConfig {
    SkillConfig { depth: 12, width: 100, node_budget: Some(400_000), ..SkillConfig::default() }
}

fn run(threads: usize, field: &Field, packs: &Packs, turn: usize, garbage: u32, gauge: u32) -> SkillResult {
    let engine = Engine::from_field(field);
    let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
    pool.install(|| search(Start { field: &engine, packs, turn, garbage }, gauge, &config()))
}

/// Replays `line` on the reference engine from `field` with `garbage` to fall a row a turn and
/// `gauge`: the fields it expected, a gauge of 80 by the skill, and the skill's promise.
fn check_line(line: &SkillLine, field: &Field, packs: &Packs, garbage: u32, gauge: u32) {
    let (mut field, mut stock, mut gauge) = (*field, garbage, gauge);
    let (skill, builds) = line.actions.split_last().expect("a line has its skill");
    assert_eq!(*skill, Action::Skill);
    for (step, &action) in builds.iter().enumerate() {
        assert_eq!(field, line.expected[step], "step {step}: not the field the line expected");
        let turn = line.start_turn + step;
        assert!(matches!(action, Action::Drop { .. }), "turn {turn}: {action}");
        let outcome = field.apply(packs.get(turn), action);
        assert!(!field.is_dead(), "turn {turn}: the line dies");
        if outcome.links > 0 {
            gauge = (gauge + GAUGE_GAIN).min(GAUGE_MAX);
        }
        if stock >= GARBAGE_ROW {
            field.drop_garbage_row();
            stock -= GARBAGE_ROW;
        }
    }
    assert_eq!(field, line.expected[builds.len()]);
    assert!(gauge >= SKILL_THRESHOLD, "turn {}: gauge {gauge}", line.fire_turn());
    let outcome = field.use_skill();
    assert_eq!((outcome.exploded, outcome.links, outcome.garbage()), (line.exploded, line.links, line.send));
}

#[test]
fn a_charged_gauge_fires_at_once_and_the_explosion_is_the_rules() {
    // One 5 with eight neighbours, a garbage block beside them that survives: 9 blocks explode,
    // floor(25 · 2^(9/12)) = 42 points, 21 garbage; nothing is left to chain.
    let field: Field = "\
        ..........\n\
        ..........\n\
        ..........\n\
        ..........\n\
        ..........\n\
        ..........\n\
        ..........\n\
        ..........\n\
        ..........\n\
        ..........\n\
        ..........\n\
        ..........\n\
        ..........\n\
        .111......\n\
        .151#.....\n\
        .111#....."
        .parse()
        .unwrap();
    let packs = packs(3);
    let charged = run(1, &field, &packs, 30, 0, SKILL_THRESHOLD);
    let now = charged.by_turn[0].as_ref().expect("a full gauge fires now");
    assert_eq!((now.exploded, now.links, now.send), (9, 0, 21));
    assert_eq!(now.actions, vec![Action::Skill]);
    check_line(now, &field, &packs, 0, SKILL_THRESHOLD);
    // A gauge of 72 must erase something first: nothing at turn 30.
    let short = run(1, &field, &packs, 30, 0, SKILL_THRESHOLD - GAUGE_GAIN);
    assert!(short.by_turn[0].is_none());
    for line in short.by_turn.iter().flatten() {
        check_line(line, &field, &packs, 0, SKILL_THRESHOLD - GAUGE_GAIN);
    }
}

#[test]
fn every_line_charges_the_gauge_by_the_rules_and_sends_what_it_promises() {
    // A grown midgame field, three and a half rows of garbage to fall, the gauge at 16.
    let packs = packs(11);
    let field = common::grown_field(&packs, &[0, 10, 20, 30, 40, 50, 60, 70, 8, 17, 26, 35]);
    let garbage = 3 * GARBAGE_ROW + 5;
    let result = run(2, &field, &packs, 12, garbage, 16);
    let lines: Vec<&SkillLine> = result.by_turn.iter().flatten().collect();
    assert!(!lines.is_empty(), "no skill within 12 turns");
    for line in &lines {
        check_line(line, &field, &packs, garbage, 16);
    }
    // 64 gauge to charge: eight erasing turns at least.
    assert!(lines.iter().all(|l| l.actions.len() > 8));
    assert_eq!(result.best_within(12), lines.iter().map(|l| l.send).max().unwrap());
}

#[test]
fn a_node_budget_makes_the_search_reproducible_whatever_the_threads() {
    let packs = packs(7);
    let field = common::grown_field(&packs, &[4, 13, 22, 31, 5, 14, 23, 32]);
    let summary = |r: &SkillResult| -> Vec<Option<(Vec<Action>, u32)>> {
        r.by_turn.iter().map(|l| l.as_ref().map(|l| (l.actions.clone(), l.send))).collect()
    };
    let one = run(1, &field, &packs, 8, 0, 40);
    let two = run(2, &field, &packs, 8, 0, 40);
    assert_eq!(summary(&one), summary(&two));
    assert_eq!(one.nodes, two.nodes);
}
