//! The arena end to end: the real binary refereeing real processes (the project's greedy bot and
//! small `sh` bots), its JSON lines, its replays, its SPRT, and an independent replay of a
//! recorded game through the reference rules.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use codevs_reborn::protocol::read_pack_file;
use codevs_reborn::rules::{Action, Field, Game, GameEnd};
use serde_json::Value;

const BIN: &str = env!("CARGO_BIN_EXE_codevs-reborn");
const PACKS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/data/packs");

fn greedy() -> String {
    format!("{BIN} --strategy greedy")
}

/// A `sh` bot: prints `name`, then after each turn's input (the second `END` after the 500
/// packs) runs `on_turn`, where `$t` is the turn number.
fn sh_bot(name: &str, on_turn: &str) -> String {
    format!(
        r#"echo {name}; n=0; while read -r l; do if [ "$l" = END ]; then n=$((n+1)); if [ $n -gt 500 ] && [ $(((n-500)%2)) -eq 0 ]; then t=$(((n-500)/2-1)); {on_turn}; fi; fi; done"#
    )
}

fn zero_bot() -> String {
    sh_bot("zero", r#"echo "0 0""#)
}

fn arena(args: &[&str]) -> Output {
    Command::new(BIN).arg("arena").args(args).stdin(Stdio::null()).output().expect("the binary runs")
}

/// Runs the arena with `--json` into `dir`, checks it succeeded and returns the lines and stdout.
fn arena_json(dir: &Path, args: &[&str]) -> (Vec<Value>, String) {
    let json = dir.join("games.jsonl");
    let mut all = args.to_vec();
    all.extend(["--json", json.to_str().unwrap()]);
    let out = arena(&all);
    let stdout = String::from_utf8_lossy(&out.stdout).to_string();
    assert!(out.status.success(), "arena failed: {}\n{stdout}", String::from_utf8_lossy(&out.stderr));
    let text = std::fs::read_to_string(&json).unwrap();
    (text.lines().map(|l| serde_json::from_str(l).expect("each line is JSON")).collect(), stdout)
}

fn reason(g: &Value) -> &str {
    g["reason"].as_str().unwrap()
}

/// Plays 2 games between greedy (A) and `bot` (B) on seeded packs; in both, B must lose by
/// `expected` in turn `turn` (0-based).
fn assert_b_loses(bot: &str, expected: &str, turn: u64, extra: &[&str]) {
    let dir = tempfile::tempdir().unwrap();
    let a = greedy();
    let mut args = vec!["--p0", &a, "--p1", bot, "--seed", "11", "--games", "2"];
    let replays = dir.path().join("replays");
    args.extend(["--replays", replays.to_str().unwrap()]);
    args.extend(extra);
    let (games, stdout) = arena_json(dir.path(), &args);
    assert_eq!(games.len(), 2);
    for (i, g) in games.iter().enumerate() {
        let b_seat = 1 - i; // A is player 0 in game 0, player 1 in game 1
        let (_, replay) = read_replay(&replays, i);
        let last = replay["turns"].as_array().unwrap().last().unwrap().clone();
        assert_eq!((&last["turn"], &last["faults"][b_seat]), (&serde_json::json!(turn), &serde_json::json!(expected)));
        assert!(last["states"].is_null(), "a fault ends the game before the turn is played");
        assert_eq!(reason(g), expected, "game {i}: {g}");
        assert_eq!(g["winner"], 1 - b_seat as i64, "game {i}: {g}");
        assert_eq!(g["faults"][b_seat], expected, "game {i}: {g}");
        assert!(g["faults"][1 - b_seat].is_null(), "game {i}: {g}");
        assert_eq!(g["turns"], turn + 1, "game {i}: {g}");
        assert_eq!(g["packs"], "seed:11");
    }
    assert!(stdout.contains("A wins 2, draws 0, losses 0"), "{stdout}");
    assert!(stdout.contains(&format!("B {expected} 2")), "{stdout}");
}

#[test]
fn twenty_greedy_games_without_fault() {
    let dir = tempfile::tempdir().unwrap();
    let started = std::time::Instant::now();
    let (games, stdout) = arena_json(
        dir.path(),
        &["--p0", &greedy(), "--p1", &greedy(), "--packs", PACKS, "--games", "20", "--jobs", "2"],
    );
    eprintln!("20 greedy games: {:.1} s", started.elapsed().as_secs_f64());
    assert_eq!(games.len(), 20);
    let (mut wins, mut draws) = (0, 0);
    for (i, g) in games.iter().enumerate() {
        assert_eq!(g["game"], i as u64);
        assert_eq!(g["packs"].as_str().unwrap(), format!("{PACKS}/pack_{:04}.pack", i / 2));
        assert!(matches!(reason(g), "dead" | "turns"), "game {i}: {g}");
        assert_eq!(g["faults"], serde_json::json!([null, null]));
        assert_eq!(g["commands"], serde_json::json!([greedy(), greedy()]));
        let turns = g["turns"].as_u64().unwrap();
        assert!((1..=500).contains(&turns));
        assert_eq!(reason(g) == "turns", turns == 500, "game {i}: {g}");
        let scores: Vec<u64> = g["scores"].as_array().unwrap().iter().map(|s| s.as_u64().unwrap()).collect();
        let winner = g["winner"].as_i64().unwrap();
        if reason(g) == "turns" {
            let by_score = match scores[0].cmp(&scores[1]) {
                std::cmp::Ordering::Greater => 0,
                std::cmp::Ordering::Less => 1,
                std::cmp::Ordering::Equal => -1,
            };
            assert_eq!(winner, by_score, "game {i}: {g}");
        }
        for seat in 0..2 {
            for key in ["max_chain", "first_chain_10"] {
                let c = &g[key][seat];
                if !c.is_null() {
                    assert!(c["links"].as_u64().unwrap() >= 1 && c["turn"].as_u64().unwrap() < turns, "{g}");
                }
            }
            let first10 = &g["first_chain_10"][seat];
            assert!(first10.is_null() || first10["links"].as_u64() >= Some(10));
            // Every chain of 10+ links, in turn order, the first of them the first_chain_10.
            let chains = g["chains_10"][seat].as_array().unwrap_or_else(|| panic!("no chains_10 in {g}"));
            assert_eq!(chains.first().unwrap_or(&serde_json::Value::Null), first10, "{g}");
            assert!(chains.iter().all(|c| c["links"].as_u64() >= Some(10)), "{g}");
            assert!(chains.windows(2).all(|w| w[0]["turn"].as_u64() < w[1]["turn"].as_u64()), "{g}");
        }
        // Score for A (player 0 in even games).
        match (winner, i % 2) {
            (-1, _) => draws += 1,
            (w, a_seat) if w == a_seat as i64 => wins += 1,
            _ => {}
        }
    }
    assert!(stdout.contains(&format!("games 20: A wins {wins}, draws {draws}")), "{stdout}");
    assert!(stdout.contains("faults: none"), "{stdout}");
}

#[test]
fn nine_nine_is_invalid() {
    assert_b_loses(&sh_bot("nines", r#"echo "9 9""#), "invalid", 0, &[]);
}

#[test]
fn skill_without_gauge_is_invalid() {
    assert_b_loses(&sh_bot("skiller", r#"if [ $t -ge 2 ]; then echo S; else echo "0 0"; fi"#), "invalid", 2, &[]);
}

#[test]
fn sleeping_past_the_turn_cap_is_a_timeout() {
    let sleeper = sh_bot("sleeper", r#"if [ $t -ge 3 ]; then sleep 2; fi; echo "4 0""#);
    assert_b_loses(&sleeper, "timeout", 3, &["--turn-ms", "500"]);
}

#[test]
fn running_out_of_game_time_is_a_timeout() {
    // 0.4 s a turn against 1 s for the game and no turn cap: the third turn runs out.
    let slow = sh_bot("slow", r#"sleep 0.4; echo "4 0""#);
    assert_b_loses(&slow, "timeout", 2, &["--turn-ms", "0", "--time-ms", "1000"]);
}

#[test]
fn exiting_after_the_packs_is_a_crash() {
    let quitter =
        r#"echo quitter; n=0; while read -r l; do [ "$l" = END ] && n=$((n+1)); [ $n -ge 500 ] && exit 0; done"#;
    assert_b_loses(quitter, "crash", 0, &[]);
}

#[test]
fn no_name_line_is_a_startup_fault() {
    assert_b_loses("exit 0", "crash", 0, &[]);
    assert_b_loses("sleep 5", "timeout", 0, &["--startup-ms", "1000"]);
}

#[test]
fn both_invalid_in_one_turn_is_a_draw() {
    let dir = tempfile::tempdir().unwrap();
    let nines = sh_bot("nines", r#"echo "9 9""#);
    let (games, stdout) = arena_json(dir.path(), &["--p0", &nines, "--p1", &nines, "--seed", "3", "--games", "2"]);
    for g in &games {
        assert_eq!((g["winner"].as_i64(), reason(g), g["turns"].as_u64()), (Some(-1), "invalid", Some(1)));
        assert_eq!(g["faults"], serde_json::json!(["invalid", "invalid"]));
    }
    assert!(stdout.contains("A wins 0, draws 2, losses 0"), "{stdout}");
}

#[test]
fn simultaneous_thinking_gives_the_same_games() {
    let dir = tempfile::tempdir().unwrap();
    let args = ["--p0", &greedy(), "--p1", &zero_bot(), "--seed", "5", "--games", "2"];
    let (seq, _) = arena_json(dir.path(), &args);
    let mut sim_args = args.to_vec();
    sim_args.push("--simultaneous");
    let (sim, _) = arena_json(dir.path(), &sim_args);
    let key = |g: &Value| (g["winner"].clone(), g["reason"].clone(), g["turns"].clone(), g["scores"].clone());
    assert_eq!(seq.iter().map(key).collect::<Vec<_>>(), sim.iter().map(key).collect::<Vec<_>>());
    assert_eq!(seq[0]["winner"], 0);
}

#[test]
fn sprt_stops_a_lopsided_match_early() {
    let dir = tempfile::tempdir().unwrap();
    let (games, stdout) = arena_json(
        dir.path(),
        &["--p0", &greedy(), "--p1", &zero_bot(), "--seed", "1", "--games", "40", "--sprt", "0,50"],
    );
    assert!(stdout.contains("H1 accepted"), "{stdout}");
    assert!(games.len() < 10, "{} games", games.len());
    assert!(games.iter().enumerate().all(|(i, g)| g["winner"] == (i % 2) as i64));
    // And the other way round: A is the weak one.
    let (games, stdout) = arena_json(
        dir.path(),
        &["--p0", &zero_bot(), "--p1", &greedy(), "--seed", "1", "--games", "40", "--sprt=-50,0", "--jobs", "2"],
    );
    assert!(stdout.contains("H0 accepted"), "{stdout}");
    assert!(games.len() < 10, "{} games", games.len());
}

#[test]
fn sprt_no_stop_plays_every_game_and_gives_the_final_verdict() {
    let dir = tempfile::tempdir().unwrap();
    let (games, stdout) = arena_json(
        dir.path(),
        &["--p0", &greedy(), "--p1", &zero_bot(), "--seed", "1", "--games", "12", "--sprt", "0,50", "--sprt-no-stop"],
    );
    assert_eq!(games.len(), 12);
    assert!(stdout.contains("H1 accepted"), "{stdout}");
}

fn read_replay(dir: &Path, game: usize) -> (PathBuf, Value) {
    let folder = dir.join(format!("game-{game:04}"));
    let text = std::fs::read_to_string(folder.join("replay.json")).unwrap();
    (folder, serde_json::from_str(&text).unwrap())
}

/// Plays one recorded game (seeded with greedy, so chains, garbage and gauge all happen).
fn recorded_game(dir: &Path) -> (PathBuf, Value) {
    let replays = dir.join("replays");
    let pack = format!("{PACKS}/pack_0003.pack");
    let (games, _) = arena_json(
        dir,
        &[
            "--p0",
            &greedy(),
            "--p1",
            &greedy(),
            "--packs",
            &pack,
            "--games",
            "1",
            "--replays",
            replays.to_str().unwrap(),
        ],
    );
    assert_eq!(games.len(), 1);
    let (folder, replay) = read_replay(&replays, 0);
    assert_eq!(replay["result"], games[0], "replay.json holds the game's JSON line");
    (folder, replay)
}

fn commands(replay: &Value, seat: usize) -> Vec<String> {
    replay["turns"].as_array().unwrap().iter().map(|t| t["commands"][seat].as_str().unwrap().to_string()).collect()
}

#[test]
fn replay_input_refeeds_the_bot() {
    let dir = tempfile::tempdir().unwrap();
    let (folder, replay) = recorded_game(dir.path());
    for seat in 0..2 {
        let input = std::fs::File::open(folder.join(format!("input-p{seat}.txt"))).unwrap();
        let out = Command::new(BIN).args(["--strategy", "greedy"]).stdin(input).output().unwrap();
        assert!(out.status.success());
        let text = String::from_utf8(out.stdout).unwrap();
        let answers: Vec<String> = text.lines().skip(1).map(|l| l.trim().to_string()).collect();
        assert_eq!(answers, commands(&replay, seat), "seat {seat}");
    }
}

#[test]
fn the_referee_agrees_with_the_reference_rules() {
    let dir = tempfile::tempdir().unwrap();
    let (_, replay) = recorded_game(dir.path());
    let result = &replay["result"];
    let packs = read_pack_file(Path::new(result["packs"].as_str().unwrap())).unwrap();
    let mut game = Game::<Field>::new(packs);
    let turns = replay["turns"].as_array().unwrap();
    let mut chained = false;
    for t in turns {
        let actions = [0, 1].map(|p| Ok(t["commands"][p].as_str().unwrap().parse::<Action>().unwrap()));
        let record = game.play(actions).expect("a played turn");
        for p in 0..2 {
            let state = &t["states"][p];
            let player = &game.players[p];
            let rows: Vec<String> = player.field.to_string().lines().map(str::to_string).collect();
            assert_eq!(state["field"], serde_json::json!(rows), "turn {} player {p}", t["turn"]);
            assert_eq!(state["garbage"], player.garbage);
            assert_eq!(state["gauge"], player.gauge);
            assert_eq!(state["score"], player.score);
            assert_eq!(t["outcomes"][p]["links"], record.outcomes[p].links);
            chained |= record.outcomes[p].links > 0;
        }
    }
    assert!(chained, "the recorded game should hold chains");
    let r = game.result().expect("the recorded game is over");
    assert_eq!(r.turns, turns.len());
    assert_eq!(result["turns"], r.turns);
    assert_eq!(result["scores"], serde_json::json!(r.scores));
    assert_eq!(result["winner"], r.winner.map_or(-1, |w| w as i64));
    let reason = match r.reason {
        GameEnd::Dead => "dead",
        GameEnd::Turns => "turns",
        other => panic!("unexpected end {other:?}"),
    };
    assert_eq!(result["reason"], reason);
}

#[test]
fn bad_packs_are_a_one_line_error() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.pack");
    std::fs::write(&bad, "1 2\n3 x\nEND\n").unwrap();
    for packs in [bad.to_str().unwrap(), "/no/such/packs"] {
        let out = arena(&["--p0", "true", "--p1", "true", "--packs", packs]);
        assert_eq!(out.status.code(), Some(2));
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(err.trim_end().lines().count(), 1, "{err}");
        assert!(err.contains(packs), "{err}");
    }
}
