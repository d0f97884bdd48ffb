//! The rules of CODE VS Reborn for a whole turn and a whole game (RULES.md: "A turn, in order",
//! "End of game"), tested through `Game<Field>`; and the shared benchmark positions
//! (data/bench) replayed on the reference engine. Expected values are worked out by hand
//! from RULES.md. The board itself is tested in `tests/rules.rs`.

mod common;

use std::fs;
use std::path::Path;

use codevs_reborn::rules::{Action, FaultKind, Field, Game, GameEnd, GameResult, Pack, Packs, Simulator};

/// A field from a picture: top row first, `.` empty, `1`–`9` blocks, `#` garbage; last line = bottom.
fn pic(picture: &str) -> Field {
    picture.parse().unwrap_or_else(|e| panic!("bad picture ({e}):\n{picture}"))
}

/// The trigger pack: a 4 over a 9 on the left, a lone 1 on the right (it falls past the empty cell).
/// Dropped at x = 1 on the fields below, its 9 sets off their chains.
const P: Pack = Pack::new([4, 1], [9, 0]);
/// Vanishes completely when dropped on a flat floor: the 1 sits on one 9 and beside the other.
const FILLER: Pack = Pack::new([1, 9], [9, 0]);
/// Blocks 1–3 never make 10.
const NEUTRAL: Pack = Pack::new([1, 2], [3, 0]);
/// A 4 on a 4 on the left, a 2 on a 1 on the right.
const TALL: Pack = Pack::new([4, 2], [4, 1]);

/// `P` at x = 1: 9–1, 3–7 → 2 links (score 2, 1 garbage).
const TWO_LINKS: &str = "
    7.........
    1.........
    3#........
    3#........";
/// `P` at x = 1: 9–1, 7–3, 6–4 → 3 links (score 4, 2 garbage).
const THREE_LINKS: &str = "
    4.........
    3.........
    1.........
    7#........
    6#........";
/// `P` at x = 1: 9–1, 7–3, 6–4, 2–8, 1–9 → 5 links (score 9, 4 garbage).
const FIVE_LINKS: &str = "
    9.........
    8.........
    4.........
    3.........
    1.........
    7#........
    6#........
    2#........
    1#........";
/// What `FIVE_LINKS` (and, with a shorter column 0, `THREE_LINKS`) leaves.
const FIVE_LINKS_AFTER: &str = "
    .4........
    .#........
    .#........
    .#........
    .#1.......";
/// `P` at x = 1 lands without a pair: the 1 ends three rows above the 9.
const NO_CHAIN: &str = "
    ..#.......
    ..#.......
    ..#.......";
/// The skill explodes the 5 and its three neighbours (4 blocks: 31 points, 15 garbage), no chain.
const EXPLODE_FOUR: &str = "
    12........
    53........";

type Answer = Result<Action, FaultKind>;
const SKILL: Answer = Ok(Action::Skill);
fn drop(x: u8, rotation: u8) -> Answer {
    Ok(Action::drop(x, rotation).expect("a legal drop"))
}

/// A game whose first packs are `first`, the rest `FILLER`.
fn game(first: &[Pack]) -> Game<Field> {
    let mut packs = first.to_vec();
    packs.resize(500, FILLER);
    Game::new(Packs(packs))
}

/// Sets player `p`'s field, garbage stock and gauge.
fn put(g: &mut Game<Field>, p: usize, field: &str, garbage: u32, gauge: u32) {
    g.players[p].field = pic(field);
    g.players[p].garbage = garbage;
    g.players[p].gauge = gauge;
}

fn play(g: &mut Game<Field>, answers: [Answer; 2]) {
    assert!(g.play(answers).is_some(), "the turn must be played");
}

// ---------------------------------------------------------------------------------------------
// Steps 1–2: the garbage drop
// ---------------------------------------------------------------------------------------------

#[test]
fn a_garbage_row_falls_only_from_a_stock_of_10_and_at_most_one_a_turn() {
    let plain = "1.........\n32........";
    let with_row = "1.........\n32........\n##########";
    for (stock, fell, left) in
        [(0, false, 0), (9, false, 9), (10, true, 0), (19, true, 9), (25, true, 15), (40, true, 30)]
    {
        let mut g = game(&[NEUTRAL]);
        put(&mut g, 0, "", stock, 0);
        let record = g.play([drop(0, 0), drop(0, 0)]).unwrap();
        assert_eq!(record.garbage_fell, [fell, false], "stock {stock}");
        assert_eq!(g.players[0].garbage, left, "stock {stock}: the rest carries over");
        let expected = if fell { with_row } else { plain };
        assert_eq!(g.players[0].field, pic(expected), "stock {stock}: the row falls before the pack");
        assert_eq!(g.players[1].field, pic(plain));
    }
}

#[test]
fn a_large_stock_falls_one_row_per_turn() {
    let mut g = game(&[NEUTRAL, NEUTRAL, NEUTRAL]);
    put(&mut g, 0, "", 25, 0);
    play(&mut g, [drop(0, 0), drop(0, 0)]);
    play(&mut g, [drop(4, 0), drop(4, 0)]);
    assert_eq!(g.players[0].garbage, 5);
    let after = "
        #...1.....
        1#..32....
        32########
        ##########";
    assert_eq!(g.players[0].field, pic(after));
    play(&mut g, [drop(7, 0), drop(7, 0)]);
    assert_eq!(g.players[0].garbage, 5, "5 < 10: no row");
    assert_eq!(g.players[0].field.count(|v| v == 11), 20);
}

// ---------------------------------------------------------------------------------------------
// Steps 7–8: garbage sent and offsetting
// ---------------------------------------------------------------------------------------------

#[test]
fn offsetting_a_sends_15_while_b_sends_4() {
    let mut g = game(&[P, FILLER]);
    put(&mut g, 0, EXPLODE_FOUR, 0, 100);
    put(&mut g, 1, FIVE_LINKS, 0, 0);
    play(&mut g, [SKILL, drop(1, 0)]);
    assert_eq!((g.players[0].score, g.players[1].score), (31, 9));
    assert_eq!((g.players[0].garbage, g.players[1].garbage), (0, 11), "15 against 4");
    assert_eq!((g.players[0].field, g.players[1].field), (Field::empty(), pic(FIVE_LINKS_AFTER)));
    // Next turn B's stock of 11 drops one row and keeps 1.
    let record = g.play([drop(5, 0), drop(5, 0)]).unwrap();
    assert_eq!(record.garbage_fell, [false, true]);
    assert_eq!((g.players[0].garbage, g.players[1].garbage), (0, 1));
    let b_after = "
        .#........
        .4........
        .#........
        .#........
        .##.......
        ##1#######";
    assert_eq!(g.players[1].field, pic(b_after));
}

#[test]
fn offsetting_a_new_chain_against_a_carried_stock() {
    // FIVE_LINKS with one garbage less in column 1: the garbage row of turn 1 makes it FIVE_LINKS.
    let five_links_low = FIVE_LINKS.replace("7#........", "7.........");
    let mut g = game(&[NEUTRAL, P]);
    put(&mut g, 0, &five_links_low, 0, 0);
    put(&mut g, 1, EXPLODE_FOUR, 0, 100);
    // Turn 0: B's skill sends 15.
    play(&mut g, [drop(8, 0), SKILL]);
    assert_eq!((g.players[0].garbage, g.players[1].garbage), (15, 0));
    // Turn 1: a row falls on A (15 → 5 carried); A's 5 links send 4; 5 against 4 leaves A 1.
    let record = g.play([drop(1, 0), drop(1, 0)]).unwrap();
    assert_eq!(record.garbage_fell, [true, false]);
    assert_eq!(record.outcomes.map(|o| o.links), [5, 1]);
    assert_eq!((g.players[0].garbage, g.players[1].garbage), (1, 0));
    let a_after = "
        .4........
        .#........
        .#......#.
        .#1.....1#
        ########32";
    assert_eq!(g.players[0].field, pic(a_after));
    assert_eq!((g.players[0].score, g.players[1].score), (9, 32));
}

#[test]
fn offsetting_equal_amounts_cancel() {
    let mut g = game(&[P, NEUTRAL]);
    put(&mut g, 0, FIVE_LINKS, 0, 0);
    put(&mut g, 1, FIVE_LINKS, 0, 0);
    play(&mut g, [drop(1, 0), drop(1, 0)]);
    assert_eq!((g.players[0].garbage, g.players[1].garbage), (0, 0), "4 against 4");
    assert_eq!((g.players[0].score, g.players[1].score), (9, 9));
    let record = g.play([drop(5, 0), drop(5, 0)]).unwrap();
    assert_eq!(record.garbage_fell, [false, false]);
}

// ---------------------------------------------------------------------------------------------
// Steps 5–6: the skill gauge
// ---------------------------------------------------------------------------------------------

#[test]
fn gauge_rises_by_8_only_when_a_chain_vanished_something_capped_at_100() {
    let mut g = game(&[P]);
    put(&mut g, 0, "", 0, 20);
    put(&mut g, 1, NO_CHAIN, 0, 20);
    play(&mut g, [drop(1, 0), drop(1, 0)]);
    assert_eq!((g.players[0].gauge, g.players[1].gauge), (28, 20), "1 link: +8, no drain; no link: +0");
    assert_eq!(g.players[0].field, pic(".4........"));
    for (before, after) in [(92, 100), (93, 100), (96, 100), (100, 100)] {
        let mut g = game(&[P]);
        put(&mut g, 0, "", 0, before);
        play(&mut g, [drop(1, 0), drop(1, 0)]);
        assert_eq!(g.players[0].gauge, after, "{before} + 8");
    }
}

#[test]
fn skill_empties_the_gauge_and_only_its_chain_earns_8() {
    // Explosion alone, opponent making nothing (so no drain can hide a wrong +8): 100 → 0.
    let mut g = game(&[P]);
    put(&mut g, 0, EXPLODE_FOUR, 0, 100);
    put(&mut g, 1, NO_CHAIN, 0, 50);
    play(&mut g, [SKILL, drop(1, 0)]);
    assert_eq!((g.players[0].gauge, g.players[1].gauge), (0, 50), "no chain link, no +8 and no drain");
    assert_eq!((g.players[0].score, g.players[1].garbage), (31, 15));
    let mut g = game(&[P]);
    put(&mut g, 0, EXPLODE_FOUR, 0, 100);
    put(&mut g, 1, common::FIVE_AND_FIVE, 0, 90);
    play(&mut g, [SKILL, SKILL]);
    assert_eq!(g.players[0].gauge, 0, "explosion alone: nothing");
    assert_eq!(g.players[1].gauge, 8, "0, then +8 for the skill chain; A's 0 links drain nothing");
    assert_eq!((g.players[0].score, g.players[1].score), (31, 42));
    assert_eq!((g.players[0].garbage, g.players[1].garbage), (5, 0), "20 against 15");
}

#[test]
fn opponent_gauge_drains_by_12_plus_2c_from_three_links() {
    for (field, drained_to) in [(TWO_LINKS, 50), (THREE_LINKS, 32), (FIVE_LINKS, 28)] {
        let mut g = game(&[P]);
        put(&mut g, 0, field, 0, 0);
        put(&mut g, 1, NO_CHAIN, 0, 50);
        play(&mut g, [drop(1, 0), drop(1, 0)]);
        assert_eq!((g.players[0].gauge, g.players[1].gauge), (8, drained_to), "\n{field}");
    }
    // Skill-chain links count too: 5 links drain 22.
    let mut g = game(&[P]);
    put(&mut g, 0, common::FIVE_AND_FIVE, 0, 80);
    put(&mut g, 1, NO_CHAIN, 0, 50);
    play(&mut g, [SKILL, drop(1, 0)]);
    assert_eq!((g.players[0].gauge, g.players[1].gauge), (8, 28));
    // Floored at 0.
    let mut g = game(&[P]);
    put(&mut g, 0, THREE_LINKS, 0, 0);
    put(&mut g, 1, NO_CHAIN, 0, 10);
    play(&mut g, [drop(1, 0), drop(1, 0)]);
    assert_eq!(g.players[1].gauge, 0);
}

#[test]
fn every_gain_comes_before_every_drain() {
    // B: 4 + 8 = 12, then − 18 → 0 (draining first would give 0 + 8 = 8).
    let mut g = game(&[P]);
    put(&mut g, 0, THREE_LINKS, 0, 50);
    put(&mut g, 1, "", 0, 4);
    play(&mut g, [drop(1, 0), drop(1, 0)]);
    assert_eq!((g.players[0].gauge, g.players[1].gauge), (58, 0));
    // Both: 96 + 8 capped at 100, then − 18 → 82 (draining first would give 86).
    let mut g = game(&[P]);
    put(&mut g, 0, THREE_LINKS, 0, 96);
    put(&mut g, 1, THREE_LINKS, 0, 96);
    play(&mut g, [drop(1, 0), drop(1, 0)]);
    assert_eq!((g.players[0].gauge, g.players[1].gauge), (82, 82));
}

#[test]
fn skill_below_80_is_an_illegal_command() {
    for p in 0..2 {
        let mut g = game(&[P]);
        put(&mut g, p, common::FIVE_AND_FIVE, 0, 79);
        let mut answers = [drop(1, 0), drop(1, 0)];
        answers[p] = SKILL;
        assert!(g.play(answers).is_none(), "no turn is played");
        let r = g.result().expect("the game is over");
        assert_eq!((r.winner, r.reason, r.turns), (Some(1 - p), GameEnd::Invalid, 1));
    }
    let mut g = game(&[P]);
    put(&mut g, 0, common::FIVE_AND_FIVE, 0, 80);
    play(&mut g, [SKILL, drop(1, 0)]);
    assert_eq!((g.result(), g.players[0].gauge, g.players[0].score), (None, 8, 42));
}

#[test]
fn gauge_reached_in_a_turn_allows_the_skill_from_the_next_turn() {
    let mut g = game(&[P, FILLER]);
    put(&mut g, 0, "", 0, 72);
    play(&mut g, [drop(1, 0), drop(1, 0)]);
    assert_eq!(g.players[0].gauge, 80);
    play(&mut g, [SKILL, drop(5, 0)]);
    assert_eq!((g.result(), g.players[0].gauge), (None, 0));
}

#[test]
fn skill_discards_the_pack_of_its_turn() {
    let mut g = game(&[NEUTRAL, Pack::new([3, 4], [2, 0])]);
    put(&mut g, 0, "", 0, 100);
    play(&mut g, [SKILL, drop(0, 0)]);
    assert_eq!(g.players[0].field, Field::empty());
    play(&mut g, [drop(0, 0), drop(4, 0)]);
    assert_eq!(g.players[0].field, pic("3.........\n24........"), "turn 1 uses pack 1");
    assert_eq!(g.players[1].field, pic("1...3.....\n32..24...."));
}

#[test]
fn scores_accumulate_chain_skill_chain_and_explosion() {
    let mut g = game(&[P, FILLER]);
    put(&mut g, 0, common::FIVE_AND_FIVE, 0, 100);
    put(&mut g, 1, FIVE_LINKS, 0, 0);
    play(&mut g, [SKILL, drop(1, 0)]);
    assert_eq!((g.players[0].score, g.players[1].score), (42, 9));
    assert_eq!((g.players[0].garbage, g.players[1].garbage), (0, 16), "20 against 4");
    play(&mut g, [drop(4, 0), drop(4, 0)]);
    assert_eq!((g.players[0].score, g.players[1].score), (43, 10));
    assert_eq!(g.players[1].garbage, 6);
}

// ---------------------------------------------------------------------------------------------
// Step 9 and the end of the game
// ---------------------------------------------------------------------------------------------

fn column(rows: usize) -> String {
    "3.........\n".repeat(rows)
}

#[test]
fn only_the_turn_end_counts_a_column_19_high_during_the_turn_survives() {
    // 16 high + a garbage row + the pack = 19; the pack's 1 and 2 take three blocks out from
    // under the garbage and column 0 ends 16 high.
    let before = format!("8.........\n9.........\n9.........\n{}", "33........\n".repeat(13));
    let after = format!("4.........\n4.........\n##........\n{}33########", "33........\n".repeat(12));
    let mut g = game(&[TALL]);
    put(&mut g, 0, &before, 10, 0);
    let record = g.play([drop(0, 0), drop(0, 0)]).unwrap();
    assert_eq!(record.outcomes[0].links, 1);
    assert_eq!(g.result(), None);
    assert_eq!(g.players[0].field, pic(&after));
    assert_eq!(g.players[1].field, pic("42........\n41........"));
}

#[test]
fn a_block_in_row_17_at_the_turn_end_loses() {
    let mut g = game(&[TALL]);
    put(&mut g, 0, &column(14), 0, 0);
    play(&mut g, [drop(0, 0), drop(0, 0)]);
    assert_eq!((g.result(), g.players[0].field.height(0)), (None, 16), "row 16 is inside the field");
    for p in 0..2 {
        let mut g = game(&[TALL]);
        put(&mut g, p, &column(15), 0, 0);
        play(&mut g, [drop(0, 0), drop(0, 0)]);
        let r = g.result().expect("the game is over");
        assert_eq!((r.winner, r.reason, r.turns), (Some(1 - p), GameEnd::Dead, 1));
    }
}

#[test]
fn a_garbage_row_can_push_a_field_over_the_line() {
    let mut g = game(&[TALL]);
    put(&mut g, 0, &column(16), 10, 0);
    play(&mut g, [drop(4, 0), drop(4, 0)]);
    assert_eq!(g.result().map(|r| (r.winner, r.reason)), Some((Some(1), GameEnd::Dead)));
    // The highest a column can get: 16 + garbage + a 2-high pack = 19, then the loss.
    let mut g = game(&[TALL]);
    put(&mut g, 1, &column(16), 10, 0);
    play(&mut g, [drop(0, 0), drop(0, 0)]);
    assert_eq!(g.players[1].field.height(0), 19);
    assert_eq!(g.result().map(|r| (r.winner, r.reason)), Some((Some(0), GameEnd::Dead)));
}

#[test]
fn both_dead_in_one_turn_the_higher_score_wins_equal_scores_draw() {
    let both_dead = |score0, score1| {
        let mut g = game(&[TALL]);
        put(&mut g, 0, &column(15), 0, 0);
        put(&mut g, 1, &column(15), 0, 0);
        (g.players[0].score, g.players[1].score) = (score0, score1);
        play(&mut g, [drop(0, 0), drop(0, 0)]);
        let r = g.result().expect("the game is over");
        assert_eq!((r.reason, r.scores), (GameEnd::Dead, [score0, score1]));
        r.winner
    };
    assert_eq!(both_dead(0, 0), None);
    assert_eq!(both_dead(5, 0), Some(0));
    assert_eq!(both_dead(5, 7), Some(1));
    // The fatal turn's own chain counts: A's pack 1 takes the 9 beside it, B makes nothing.
    let mut g = game(&[TALL]);
    put(&mut g, 0, &format!("{}3.9.......", column(14)), 0, 0);
    put(&mut g, 1, &column(15), 0, 0);
    play(&mut g, [drop(0, 0), drop(0, 0)]);
    let r = g.result().expect("the game is over");
    assert_eq!((r.winner, r.reason, r.scores), (Some(0), GameEnd::Dead, [1, 0]));
}

#[test]
fn a_field_dead_at_the_end_of_turn_499_loses_whatever_the_scores() {
    // FILLER vanishes whole for 499 turns; on the last, B, far ahead on score, tops out.
    let mut packs = vec![FILLER; 499];
    packs.push(TALL);
    let mut g = Game::new(Packs(packs));
    for _ in 0..499 {
        play(&mut g, [drop(0, 0), drop(0, 0)]);
    }
    assert_eq!(g.result(), None);
    put(&mut g, 1, &column(15), 0, 0);
    g.players[1].score = 10_000;
    play(&mut g, [drop(4, 0), drop(0, 0)]);
    let r = g.result().expect("the game is over");
    assert_eq!((r.winner, r.reason, r.turns), (Some(0), GameEnd::Dead, 500));
}

#[test]
fn after_500_turns_the_higher_score_wins() {
    // FILLER vanishes whole every turn: 1 point a turn each. A spends turn 10 on the skill
    // (gauge 80 after ten chains), which scores 0 on an empty field.
    for a_uses_skill in [false, true] {
        let mut g = game(&[]);
        for turn in 0..500 {
            assert_eq!(g.result(), None, "turn {turn}");
            let a = if a_uses_skill && turn == 10 { SKILL } else { drop(0, 0) };
            play(&mut g, [a, drop(0, 0)]);
        }
        let (winner, scores) = if a_uses_skill { (Some(1), [499, 500]) } else { (None, [500, 500]) };
        assert_eq!(g.result(), Some(GameResult { winner, reason: GameEnd::Turns, turns: 500, scores }));
    }
}

// ---------------------------------------------------------------------------------------------
// Faults
// ---------------------------------------------------------------------------------------------

fn faulted(answers: [Answer; 2], scores: [u64; 2]) -> (Option<usize>, GameEnd) {
    let mut g = game(&[P]);
    (g.players[0].score, g.players[1].score) = (scores[0], scores[1]);
    assert!(g.play(answers).is_none(), "a fault ends the game before the turn");
    let r = g.result().expect("the game is over");
    (r.winner, r.reason)
}

#[test]
fn one_timeout_or_one_illegal_command_loses() {
    let ok = drop(0, 0);
    assert_eq!(faulted([Err(FaultKind::Timeout), ok], [50, 0]), (Some(1), GameEnd::Timeout));
    assert_eq!(faulted([ok, Err(FaultKind::Timeout)], [0, 50]), (Some(0), GameEnd::Timeout));
    assert_eq!(faulted([Err(FaultKind::Invalid), ok], [50, 0]), (Some(1), GameEnd::Invalid));
    assert_eq!(faulted([ok, Err(FaultKind::Invalid)], [0, 50]), (Some(0), GameEnd::Invalid));
}

#[test]
fn both_timeouts_the_higher_score_wins() {
    let both = [Err(FaultKind::Timeout), Err(FaultKind::Timeout)];
    assert_eq!(faulted(both, [10, 3]), (Some(0), GameEnd::Timeout));
    assert_eq!(faulted(both, [3, 10]), (Some(1), GameEnd::Timeout));
    assert_eq!(faulted(both, [3, 3]).0, None, "equal scores (RULES.md is silent): a draw");
}

#[test]
fn both_illegal_commands_draw_whatever_the_scores() {
    let both = [Err(FaultKind::Invalid), Err(FaultKind::Invalid)];
    assert_eq!(faulted(both, [10, 3]), (None, GameEnd::Invalid));
    assert_eq!(faulted(both, [3, 10]), (None, GameEnd::Invalid));
}

#[test]
fn mixed_faults_a_timeout_with_a_crash_goes_to_the_score_an_illegal_command_draws() {
    // A crash gives no answer, as a timeout: the higher score wins, equal scores draw.
    for pair in [[FaultKind::Timeout, FaultKind::Crash], [FaultKind::Crash, FaultKind::Timeout]] {
        let both = pair.map(Err);
        assert_eq!(faulted(both, [10, 3]), (Some(0), GameEnd::Timeout), "{pair:?}");
        assert_eq!(faulted(both, [3, 10]), (Some(1), GameEnd::Timeout), "{pair:?}");
        assert_eq!(faulted(both, [3, 3]).0, None, "{pair:?}");
    }
    let crashes = [Err(FaultKind::Crash), Err(FaultKind::Crash)];
    assert_eq!(faulted(crashes, [3, 10]), (Some(1), GameEnd::Crash));
    // An illegal command against no answer: a draw whatever the scores.
    for other in [FaultKind::Timeout, FaultKind::Crash] {
        for both in [[Err(FaultKind::Invalid), Err(other)], [Err(other), Err(FaultKind::Invalid)]] {
            assert_eq!(faulted(both, [10, 3]), (None, GameEnd::Invalid), "{both:?}");
            assert_eq!(faulted(both, [3, 10]), (None, GameEnd::Invalid), "{both:?}");
        }
    }
}

#[test]
fn a_drop_outside_x_0_8_or_r_0_3_is_an_illegal_command() {
    for bad in
        [Action::Drop { x: 9, rotation: 0 }, Action::Drop { x: 0, rotation: 4 }, Action::Drop { x: 200, rotation: 9 }]
    {
        for p in 0..2 {
            let mut answers = [drop(0, 0), drop(0, 0)];
            answers[p] = Ok(bad);
            assert_eq!(faulted(answers, [0, 0]), (Some(1 - p), GameEnd::Invalid), "{bad:?} by player {p}");
        }
    }
}

// ---------------------------------------------------------------------------------------------
// The shipped benchmark positions (data/README.md)
// ---------------------------------------------------------------------------------------------

/// Replays every position of `name`.txt with its own `x r` and compares with `name`.expected:
/// links, then the ten columns bottom to top (`-` for an empty column).
fn check_bench(name: &str) -> usize {
    let dir = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/data/bench"));
    let read = |ext: &str| fs::read_to_string(dir.join(format!("{name}.{ext}"))).expect("bench file");
    let (text, expected) = (read("txt"), read("expected"));
    let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
    let wanted: Vec<&str> = expected.lines().filter(|l| !l.trim().is_empty()).collect();
    assert_eq!(lines.len() % 19, 0, "{name}: 19 lines a position");
    assert_eq!(lines.len() / 19, wanted.len(), "{name}: one expected line a position");
    let numbers = |l: &str| -> Vec<u8> { l.split_whitespace().map(|w| w.parse().expect("a number")).collect() };
    for (i, (position, want)) in lines.chunks(19).zip(&wanted).enumerate() {
        let rows: Vec<[u8; 10]> = position[..16].iter().map(|l| numbers(l).try_into().expect("10 cells")).collect();
        let (top, bottom, xr) = (numbers(position[16]), numbers(position[17]), numbers(position[18]));
        let mut field = Field::from_rows_top_first(&rows).expect("a valid field");
        let outcome = field.drop_pack(&Pack::new([top[0], top[1]], [bottom[0], bottom[1]]), xr[0], xr[1]);
        let mut words = want.split_whitespace();
        let links: u32 = words.next().unwrap().parse().unwrap();
        let columns: Vec<Vec<u8>> =
            words.map(|w| if w == "-" { vec![] } else { w.split(',').map(|v| v.parse().unwrap()).collect() }).collect();
        assert_eq!(columns.len(), 10, "{name} position {i}");
        let got: Vec<Vec<u8>> = (0..10).map(|x| (0..field.height(x)).map(|y| field.get(x, y)).collect()).collect();
        assert_eq!((outcome.links, got), (links, columns), "{name} position {i} (x r = {})", position[18]);
    }
    wanted.len()
}

#[test]
fn bench_random_positions_match_the_expected_results() {
    assert_eq!(check_bench("sim-positions-random"), 500);
}

#[test]
fn bench_chain_positions_match_the_expected_results() {
    assert_eq!(check_bench("sim-positions-chains"), 181);
}
