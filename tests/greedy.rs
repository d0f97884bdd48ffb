//! The greedy bot never answers illegally, and avoids dying when it can.

mod common;

use proptest::prelude::*;

use codevs_reborn::protocol::{PlayerInput, TurnInput};
use codevs_reborn::rules::{Action, Field, Packs, Simulator, VISIBLE_HEIGHT};
use codevs_reborn::search::greedy::{choose, rank, GreedyParams};
use codevs_reborn::state::TurnState;

fn input(field: Field, gauge: u32) -> PlayerInput {
    PlayerInput { time_left_ms: 180_000, garbage: 0, gauge, score: 0, field }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(100))]
    #[test]
    fn greedy_answers_are_legal(seed in 0u64..1000, drops in 0usize..60, choices in prop::collection::vec(0u8..36, 60), gauge in 0u32..=100) {
        let packs = Packs::generate(seed);
        let field = common::grown_field(&packs, &choices[..drops.min(choices.len())]);
        let turn = TurnInput { turn: 60, me: input(field, gauge), opponent: input(Field::empty(), 0) };
        let state = TurnState::<Field>::new(&turn, &packs);
        let (action, _) = choose(&state, &GreedyParams::default());
        match action {
            Action::Skill => prop_assert!(gauge >= 80),
            Action::Drop { x, rotation } => prop_assert!(x <= 8 && rotation <= 3),
        }
        // When some action survives, the chosen one does.
        let ranked = rank(&state, &GreedyParams::default());
        let survives = |a: Action| { let mut f = field; f.apply(packs.get(60), a); !f.is_dead() };
        if ranked.iter().any(|s| survives(s.action)) {
            prop_assert!(survives(action));
        }
        prop_assert!((0..10).all(|x| field.height(x) <= VISIBLE_HEIGHT));
    }
}
