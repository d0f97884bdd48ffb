//! The binary as a user runs it: playing from input files, debugging flags, and bad input.

mod common;

use std::io::Write;
use std::process::{Command, Output, Stdio};

use codevs_reborn::rules::{Action, Packs};
use common::{game_text, pack_text, player, turn_text};

fn run(args: &[&str], input: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_codevs-reborn"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(input.as_bytes()).unwrap();
    child.wait_with_output().unwrap()
}

fn lines(bytes: &[u8]) -> Vec<String> {
    String::from_utf8_lossy(bytes).lines().map(str::to_string).collect()
}

/// Malformed input: exit code 2 and exactly one line on stderr naming the input line.
fn assert_rejected(input: &str, line: usize) {
    let out = run(&[], input);
    assert_eq!(out.status.code(), Some(2));
    let err = lines(&out.stderr);
    assert_eq!(err.len(), 1, "one line: {err:?}");
    assert!(err[0].contains(&format!("line {line}:")), "{}", err[0]);
    assert!(!err[0].contains("panicked"), "{}", err[0]);
}

#[test]
fn plays_every_turn_of_an_input_file_and_ends_cleanly() {
    let out = run(&["--node-budget", "2000000"], &game_text(&Packs::generate(5), 3));
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let out = lines(&out.stdout);
    assert_eq!(out[0], "codevs-reborn", "the name comes first");
    assert_eq!(out.len(), 4);
    for l in &out[1..] {
        assert!(l.parse::<Action>().is_ok(), "{l}");
    }
}

#[test]
fn short_field_row_is_rejected() {
    let t = turn_text(0, player("", 0, 0), player("", 0, 0)).replacen("0 0 0 0 0 0 0 0 0 0\n", "0 0 0 0 0\n", 1);
    assert_rejected(&(pack_text(1) + &t), 1506);
}

#[test]
fn a_letter_is_rejected() {
    let t = turn_text(0, player("", 0, 0), player("", 0, 0)).replacen("180000", "18o000", 1);
    assert_rejected(&(pack_text(1) + &t), 1502);
}

#[test]
fn a_missing_end_is_rejected() {
    let t = turn_text(0, player("", 0, 0), player("", 0, 0)).replacen("END\n", "", 1);
    assert_rejected(&(pack_text(1) + &t), 1522);
}

#[test]
fn a_truncated_pack_list_is_rejected() {
    let text: String = pack_text(1).lines().take(700).map(|l| format!("{l}\n")).collect();
    assert_rejected(&text, 701);
}

#[test]
fn empty_input_is_rejected() {
    assert_rejected("", 1);
}

#[test]
fn turn_flag_thinks_on_one_turn_and_explains() {
    let out = run(&["--strategy", "greedy", "--turn", "1"], &game_text(&Packs::generate(5), 3));
    assert_eq!(out.status.code(), Some(0));
    let stdout = lines(&out.stdout);
    assert_eq!(stdout.len(), 2, "the name and one command: {stdout:?}");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("turn 1:"), "{stderr}");
    assert!(stderr.contains("value"), "{stderr}");
}

#[test]
fn explain_flag_explains_every_turn() {
    let out = run(&["--strategy", "greedy", "--explain"], &game_text(&Packs::generate(5), 3));
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(lines(&out.stdout).len(), 4, "the name and three commands");
    let stderr = String::from_utf8_lossy(&out.stderr);
    for turn in 0..3 {
        assert!(stderr.contains(&format!("game 1, turn {turn}:")), "{stderr}");
    }
}

#[test]
fn game_flag_picks_one_game_of_several() {
    let text = game_text(&Packs::generate(1), 2) + &game_text(&Packs::generate(2), 3);
    let out = run(&["--strategy", "greedy", "--game", "2"], &text);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(lines(&out.stdout).len(), 1 + 3);
    let out = run(&["--strategy", "greedy"], &text);
    assert_eq!(lines(&out.stdout).len(), 1 + 2 + 3, "all games by default");
}

#[test]
fn skill_only_with_gauge() {
    // A field full of 5s: the skill sends far more than any drop, but is legal only at 80.
    let fives = "5555555555\n5555555555\n5555555555\n5555555555\n5555555555";
    let packs = pack_text(2);
    let greedy = ["--strategy", "greedy"];
    let at_79 = run(&greedy, &(packs.clone() + &turn_text(0, player(fives, 0, 79), player("", 0, 0))));
    assert_ne!(lines(&at_79.stdout)[1], "S");
    let at_80 = run(&greedy, &(packs + &turn_text(0, player(fives, 0, 80), player("", 0, 0))));
    assert_eq!(lines(&at_80.stdout)[1], "S");
}

#[test]
fn help_lists_the_subcommands() {
    let out = run(&["--help"], "");
    let help = String::from_utf8_lossy(&out.stdout);
    for word in ["arena", "bench", "--turn", "--game", "--strategy"] {
        assert!(help.contains(word), "{word} missing from --help");
    }
}

#[test]
fn bad_flag_exits_with_2() {
    let out = run(&["--no-such-flag"], "");
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn the_beam_bot_follows_its_plan_and_explains_it() {
    // With --turn 1 there is no turn-0 plan, so the bot searches afresh on turn 1; a node
    // budget keeps it quick and reproducible.
    let text = game_text(&Packs::generate(9), 2);
    let args = ["--node-budget", "3000000", "--turn", "1"];
    let first = run(&args, &text);
    assert_eq!(first.status.code(), Some(0));
    let stderr = String::from_utf8_lossy(&first.stderr);
    assert!(stderr.contains("beam:") && stderr.contains("nodes"), "{stderr}");
    let again = run(&args, &text);
    assert_eq!(lines(&first.stdout), lines(&again.stdout), "same node budget, same answer");
}
