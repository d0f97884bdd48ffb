//! The test opponents: `random` is legal and reproducible; `quiet` never sends garbage and
//! survives whole games.

mod common;

use std::collections::BTreeSet;

use proptest::prelude::*;

use codevs_reborn::bot::{play, BotOptions, Strategy};
use codevs_reborn::protocol::read_pack_file;
use codevs_reborn::rules::{Action, Field, Packs, Simulator, MAX_TURNS};
use codevs_reborn::search::simple::{quiet, random_drop};
use codevs_reborn::state::{Position, TurnState};
use codevs_reborn::Engine;

fn position<S>(field: S, gauge: u32) -> Position<S> {
    Position { field, garbage: 0, gauge, score: 0, time_left_ms: 180_000 }
}

fn state<S: Simulator>(packs: &Packs, turn: usize, field: S, gauge: u32) -> TurnState<'_, S> {
    TurnState { turn, packs, me: position(field.clone(), gauge), opponent: position(field, gauge) }
}

fn is_drop(action: Action) -> bool {
    matches!(action, Action::Drop { x, rotation } if x <= 8 && rotation <= 3)
}

#[test]
fn random_is_a_legal_drop_reproducible_per_seed_and_turn() {
    let packs = Packs::generate(3);
    let field = Engine::from_field(&Field::empty());
    let mut seen = BTreeSet::new();
    for turn in 0..400 {
        // Gauge 100: the skill would be legal, but the random bot only drops.
        let s = state(&packs, turn, field, 100);
        let (action, _) = random_drop(&s, 7);
        assert!(is_drop(action), "{action}");
        assert_eq!(random_drop(&s, 7).0, action, "same seed and turn, same drop");
        seen.insert(action);
    }
    assert_eq!(seen.len(), 36, "every drop turns up in 400 turns");
    let by_seed = |seed| (0..50).map(|t| random_drop(&state(&packs, t, field, 0), seed).0).collect::<Vec<_>>();
    assert_eq!(by_seed(1), by_seed(1));
    assert_ne!(by_seed(1), by_seed(2), "another seed, other drops");
}

#[test]
fn quiet_never_sends_garbage_and_survives_real_pack_files() {
    for index in [0, 17, 42, 63, 99] {
        let packs = read_pack_file(&common::data().join(format!("packs/pack_{index:04}.pack"))).unwrap();
        let mut field = Engine::from_field(&Field::empty());
        for turn in 0..MAX_TURNS {
            let (action, _) = quiet(&state(&packs, turn, field, 100));
            assert!(is_drop(action), "pack file {index}, turn {turn}: {action} (never the skill)");
            let outcome = field.apply(packs.get(turn), action);
            assert!(outcome.links <= 1 && outcome.garbage() == 0, "pack file {index}, turn {turn}: {outcome:?}");
            assert!(!field.is_dead(), "pack file {index}: dead at turn {turn}");
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]
    /// On any field: a quiet drop that survives when there is one; otherwise a surviving drop
    /// (a chain) when there is one.
    #[test]
    fn quiet_prefers_quiet_survival_then_any_survival(seed in 0u64..1000, choices in prop::collection::vec(0u8..36, 0..150)) {
        let packs = Packs::generate(seed);
        let field = common::grown_field(&packs, &choices);
        let turn = 200;
        let (action, _) = quiet(&state(&packs, turn, field, 100));
        prop_assert!(is_drop(action));
        let after = |a: Action| { let mut f = field; let o = f.apply(packs.get(turn), a); (o.links, f.is_dead()) };
        let (links, dead) = after(action);
        if Action::drops().map(after).any(|(l, d)| l <= 1 && !d) {
            prop_assert!(links <= 1 && !dead, "{action}: {links} links, dead {dead}");
        } else if Action::drops().map(after).any(|(_, d)| !d) {
            prop_assert!(!dead, "{action} dies though another drop survives");
        }
    }
}

#[test]
fn both_strategies_play_through_the_protocol_loop() {
    for strategy in [Strategy::Random, Strategy::Quiet] {
        let mut out = Vec::new();
        let options = BotOptions { strategy, ..BotOptions::default() };
        play(common::game_text(&Packs::generate(4), 5).as_bytes(), &mut out, &mut Vec::new(), options).unwrap();
        let out = String::from_utf8(out).unwrap();
        let answers: Vec<&str> = out.lines().skip(1).collect();
        assert_eq!(answers.len(), 5, "{strategy:?}: {out}");
        assert!(answers.iter().all(|l| l.parse::<Action>().is_ok_and(is_drop)), "{strategy:?}: {out}");
    }
}
