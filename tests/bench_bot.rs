//! `bench bot`: the whole bot's decisions on fixed positions at a node budget, and their
//! signatures.

mod common;

use std::process::Command;

use codevs_reborn::bench::bot::{decisions, position_turn, signatures, BotBenchArgs};
use codevs_reborn::bot::{play, BotOptions, Strategy};
use codevs_reborn::data::book_set;
use common::turn_text;

const BUDGET: u64 = 200_000;

/// The bench on the first shipped position only (both seats), and turn 0 of `openings` files.
fn args(openings: usize, budget: u64) -> BotBenchArgs {
    let positions = book_set(&[]).unwrap().len() as u64;
    let mut bot = BotOptions::default();
    bot.beam.node_budget = budget;
    BotBenchArgs { books: Vec::new(), every: positions, openings, bot }
}

#[test]
fn the_bench_decides_as_the_bot_plays_from_the_same_input() {
    let args = args(1, BUDGET);
    let decided = decisions(&args).unwrap();
    assert_eq!(decided.len(), 3, "an opening and both seats of one position");
    assert_eq!((decided[0].label.as_str(), decided[0].turn), ("pack_0000.pack", 0));
    let position = &book_set(&[]).unwrap()[0];
    for decision in &decided[1..] {
        assert_eq!(decision.label, position.id);
        let (packs, input) = position_turn(position, decision.seat).unwrap();
        let text = packs.to_string() + &turn_text(input.turn, input.me, input.opponent);
        let mut options = BotOptions { strategy: Strategy::Full, ..BotOptions::default() };
        options.beam.node_budget = BUDGET;
        let (mut out, mut err) = (Vec::new(), Vec::new());
        play(text.as_bytes(), &mut out, &mut err, options).unwrap();
        let out = String::from_utf8(out).unwrap();
        let played = out.lines().nth(1).expect("an answer");
        assert_eq!(played, decision.action.to_string(), "seat {}", decision.seat);
        assert!(decision.reading.contains("midgame: depth"), "{}", decision.reading);
        assert!(!decision.reading.contains("budget "), "the time budget's line is left out: {}", decision.reading);
    }
}

#[test]
fn the_moves_repeat() {
    let once = signatures(&decisions(&args(1, BUDGET)).unwrap());
    assert_eq!(once.0, signatures(&decisions(&args(1, BUDGET)).unwrap()).0);
}

/// The signature line of `bench bot` on a few positions, run by the binary: (moves, reading).
fn signature_line(threads: &str, budget: u64) -> (String, String) {
    let budget = budget.to_string();
    let out = Command::new(env!("CARGO_BIN_EXE_codevs-reborn"))
        .args(["bench", "bot", "--every", "70", "--openings", "1", "--node-budget", &budget, "--threads", threads])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.lines().filter(|l| l.starts_with("kera-game-")).count() >= 2, "{text}");
    let line = text.lines().find(|l| l.starts_with("signature: moves ")).expect("a signature line");
    let words: Vec<&str> = line.split_whitespace().collect();
    assert_eq!((words[1], words[3]), ("moves", "reading"), "{line}");
    (words[2].to_string(), words[4].to_string())
}

/// The moves are the same on any thread count; the explanations only on one thread (the
/// midgame search reports the nodes it spent, and how far its threads overran the budget when
/// it stopped depends on them).
#[test]
fn the_moves_signature_does_not_depend_on_the_thread_count() {
    assert_eq!(signature_line("1", BUDGET).0, signature_line("2", BUDGET).0);
}

#[test]
fn on_one_thread_the_reading_repeats_and_sees_a_change_of_budget() {
    let once = signature_line("1", BUDGET);
    assert_eq!(once, signature_line("1", BUDGET));
    // Another budget searches other nodes: the explanations' node counts differ.
    assert_ne!(once.1, signature_line("1", BUDGET + 50_000).1);
}
