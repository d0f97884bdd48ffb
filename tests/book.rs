//! Books of race positions end to end: `book` takes positions from recorded games, and the arena
//! and the gauntlet play games from them (`--book`), the bots asked from the position's turn
//! with the clocks where they stood.

use std::path::Path;
use std::process::{Command, Stdio};

use codevs_reborn::protocol::{Next, Reader};
use codevs_reborn::replay::ReplayState;
use codevs_reborn::rules::PlayerState;
use serde_json::Value;

const BIN: &str = env!("CARGO_BIN_EXE_codevs-reborn");

fn greedy() -> String {
    format!("{BIN} --strategy greedy")
}

fn run(args: &[&str]) -> String {
    let out = Command::new(BIN).args(args).stdin(Stdio::null()).output().expect("the binary runs");
    assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn json_lines(path: &Path) -> Vec<Value> {
    let text = std::fs::read_to_string(path).unwrap();
    text.lines().map(|l| serde_json::from_str(l).unwrap()).collect()
}

fn read_json(path: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// Two greedy games recorded at a tenth of the control, and the book of their chains of 3+
/// links (greedy seldom fires 10): (folder, book path, positions).
fn recorded_book() -> (tempfile::TempDir, std::path::PathBuf, Vec<Value>) {
    let dir = tempfile::tempdir().unwrap();
    let replays = dir.path().join("recorded");
    let g = greedy();
    let r = replays.to_str().unwrap();
    run(&["arena", "--p0", &g, "--p1", &g, "--seed", "5", "--games", "2", "--time-ms", "18000", "--replays", r]);
    let book = dir.path().join("book.jsonl");
    let out = run(&[
        "book",
        r,
        "-o",
        book.to_str().unwrap(),
        "--min-links",
        "3",
        "--after",
        "2",
        "--lead",
        "2",
        "--earliest",
        "1",
    ]);
    assert!(out.contains("from 2 games"), "{out}");
    let positions = json_lines(&book);
    (dir, book, positions)
}

#[test]
fn a_book_holds_the_race_start_the_first_chain_and_the_race_after_the_exchange() {
    let (_dir, _, positions) = recorded_book();
    assert!(positions.len() >= 2, "{} positions", positions.len());
    let kinds: std::collections::BTreeSet<&str> = positions.iter().map(|p| p["kind"].as_str().unwrap()).collect();
    assert_eq!(kinds.len(), 3, "every kind: {kinds:?}");
    for p in &positions {
        let source = Path::new(p["source"].as_str().unwrap());
        let replay = read_json(&source.join("replay.json"));
        let turns = replay["turns"].as_array().unwrap();
        let turn = p["turn"].as_u64().unwrap() as usize;
        let fires = |seat: usize| turns.iter().position(|t| t["outcomes"][seat]["links"].as_u64().unwrap_or(0) >= 3);
        let (first, later) = match (fires(0), fires(1)) {
            (Some(a), Some(b)) => (a.min(b), a.max(b)),
            (a, b) => (a.or(b).unwrap(), a.or(b).unwrap()),
        };
        match p["kind"].as_str().unwrap() {
            "race-start" => assert_eq!(turn, first - 2, "{}", p["id"]),
            "first-chain" => assert_eq!(turn, first, "{}", p["id"]),
            "after-exchange" => assert_eq!(turn, later + 2, "{}", p["id"]),
            kind => panic!("kind {kind}"),
        }
        assert_eq!(p["id"].as_str().unwrap(), format!("{}-t{turn}", source.file_name().unwrap().to_string_lossy()));
        // The moves are the recorded game's, and lead to the state it recorded at the turn.
        let moves = p["moves"].as_array().unwrap();
        assert_eq!(moves.len(), turn);
        for (t, m) in moves.iter().enumerate() {
            assert_eq!(m, &turns[t]["commands"], "{} turn {t}", p["id"]);
            assert_eq!(p["time_ms"][t], turns[t]["time_ms"]);
        }
        assert_eq!(p["state"], turns[turn - 1]["states"], "{}", p["id"]);
        assert_eq!(p["source_packs"], replay["result"]["packs"]);
    }
}

#[test]
fn games_from_a_book_start_at_its_positions_from_both_seats() {
    let (dir, book, positions) = recorded_book();
    let replays = dir.path().join("from-book");
    let json = dir.path().join("games.jsonl");
    let g = greedy();
    let games = (2 * positions.len()).to_string();
    run(&[
        "arena",
        "--p0",
        &g,
        "--p1",
        &g,
        "--book",
        book.to_str().unwrap(),
        "--games",
        &games,
        "--time-ms",
        "9000",
        "--json",
        json.to_str().unwrap(),
        "--replays",
        replays.to_str().unwrap(),
    ]);
    let lines = json_lines(&json);
    assert_eq!(lines.len(), 2 * positions.len());
    for (i, line) in lines.iter().enumerate() {
        let p = &positions[i / 2];
        let turn = p["turn"].as_u64().unwrap();
        assert_eq!(line["packs"], format!("book:{}", p["id"].as_str().unwrap()));
        assert_eq!(line["start_turn"], turn);
        assert_eq!(line["faults"], serde_json::json!([null, null]));
        // The replay is the whole game: the position's moves, then the bots'.
        let folder = replays.join(format!("game-{i:04}"));
        let replay = read_json(&folder.join("replay.json"));
        let turns = replay["turns"].as_array().unwrap();
        assert!(turns.len() > turn as usize, "the bots played from the position");
        for (t, m) in p["moves"].as_array().unwrap().iter().enumerate() {
            assert_eq!(&turns[t]["commands"], m);
        }
        assert_eq!(turns[turn as usize - 1]["states"], p["state"]);
        assert!(folder.join("game.html").exists(), "the viewer re-plays it from turn 0");
        // Each bot's first turn is the position's, its state the recorded one, its clock where
        // it stood (the recorded 18 s game's times, halved for a 9 s game).
        for seat in 0..2 {
            let input = std::fs::read(folder.join(format!("input-p{seat}.txt"))).unwrap();
            let mut reader = Reader::new(&input[..]);
            reader.read_packs().unwrap();
            let Ok(Next::Turn(first)) = reader.read_next() else { panic!("a turn after the packs") };
            assert_eq!(first.turn as u64, turn);
            let expected: ReplayState = serde_json::from_value(p["state"][seat].clone()).unwrap();
            let seen = PlayerState {
                field: first.me.field,
                garbage: first.me.garbage,
                gauge: first.me.gauge,
                score: first.me.score,
            };
            assert_eq!(ReplayState::from(&seen), expected);
            let used: u64 = p["time_ms"].as_array().unwrap().iter().map(|t| t[seat].as_u64().unwrap()).sum();
            let left = first.me.time_left_ms as i64;
            assert!(
                (left - (9000 - used as i64 / 2)).abs() <= 1,
                "seat {seat}: {left} ms left, {used} ms used of 18 s"
            );
        }
    }
}

#[test]
fn a_book_whose_moves_do_not_lead_to_its_state_is_refused() {
    let (dir, _, positions) = recorded_book();
    let mut p = positions[0].clone();
    p["state"][0]["garbage"] = serde_json::json!(p["state"][0]["garbage"].as_u64().unwrap() + 1);
    let bad = dir.path().join("bad.jsonl");
    std::fs::write(&bad, format!("{p}\n")).unwrap();
    let g = greedy();
    let out = Command::new(BIN)
        .args(["arena", "--p0", &g, "--p1", &g, "--book", bad.to_str().unwrap()])
        .output()
        .expect("the binary runs");
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(
        stderr.trim(),
        format!(
            "codevs-reborn: {}: line 1: position {}: seat 0's moves do not lead to its recorded state",
            bad.display(),
            p["id"].as_str().unwrap()
        )
    );
}

#[test]
fn the_gauntlet_plays_every_position_by_default_and_compare_pairs_them() {
    let (dir, book, positions) = recorded_book();
    let g = greedy();
    let play = |name: &str, bot: &str| {
        let json = dir.path().join(format!("{name}.jsonl"));
        run(&[
            "gauntlet",
            "--bot",
            bot,
            "--opponent",
            &format!("greedy={g}"),
            "--book",
            book.to_str().unwrap(),
            "--time-ms",
            "18000",
            "--no-pin",
            "--json",
            json.to_str().unwrap(),
        ]);
        json
    };
    let a = play("a", &g);
    let lines = json_lines(&a);
    assert_eq!(lines.len(), 2 * positions.len(), "both seats of every position");
    let labels: std::collections::BTreeSet<&str> = lines.iter().map(|l| l["packs"].as_str().unwrap()).collect();
    assert_eq!(labels.len(), positions.len());
    let b = play("b", &format!("{BIN} --strategy random --seed 3"));
    let out = run(&["gauntlet", "--summary", b.to_str().unwrap(), "--compare", a.to_str().unwrap()]);
    // Every game of one bot has its pair in the other's: same position, opponent and seat.
    let header = out.lines().position(|l| l.starts_with("opponent  pairs")).expect("the paired table");
    let row: Vec<&str> = out.lines().nth(header + 1).unwrap().split_whitespace().collect();
    assert_eq!(row[..2], ["greedy", &(2 * positions.len()).to_string()], "{out}");
}

/// With one side a position, the gauntlet puts our bot where it was in the position's game: on
/// the field it built, not its opponent's (a book of games against one bot holds both seats).
#[test]
fn one_side_from_a_book_plays_the_seat_our_bot_had_in_the_game() {
    let (dir, _, positions) = recorded_book();
    // The recorded games are greedy against itself; name the sides as a gauntlet's game would.
    let ours_in = |i: usize| if i.is_multiple_of(3) { 0 } else { 1 };
    let text: String = positions
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let mut p = p.clone();
            p["names"][ours_in(i)] = "codevs-reborn".into();
            p["names"][1 - ours_in(i)] = "opponent".into();
            format!("{p}\n")
        })
        .collect();
    let book = dir.path().join("named.jsonl");
    std::fs::write(&book, text).unwrap();
    let json = dir.path().join("one-side.jsonl");
    let g = greedy();
    run(&[
        "gauntlet",
        "--bot",
        &g,
        "--opponent",
        &format!("greedy={g}"),
        "--book",
        book.to_str().unwrap(),
        "--one-side",
        "--time-ms",
        "9000",
        "--no-pin",
        "--json",
        json.to_str().unwrap(),
    ]);
    let lines = json_lines(&json);
    assert_eq!(lines.len(), positions.len(), "one game a position");
    for line in &lines {
        let id = line["packs"].as_str().unwrap().strip_prefix("book:").unwrap();
        let i = positions.iter().position(|p| p["id"] == id).unwrap();
        assert_eq!(line["our_seat"], ours_in(i), "{id}");
    }
}

/// `bench rebuild` searches, on each side of a position, the field and the pending garbage the
/// position's moves lead to by the rules (its text state read back), as the bot's rebuild would.
#[test]
fn bench_rebuild_searches_the_field_and_the_garbage_the_moves_lead_to() {
    use codevs_reborn::bench::positions::{BookBenchArgs, WITHIN};
    use codevs_reborn::bench::rebuild::{search_side, RebuildBenchArgs};
    use codevs_reborn::book::{read_book, PositionKind};
    use codevs_reborn::rules::{Field, Game, Simulator, GARBAGE_ROW};
    use codevs_reborn::search::build::BeamParams;
    use codevs_reborn::search::chain::Start;
    use codevs_reborn::Engine;

    let book = Path::new(env!("CARGO_MANIFEST_DIR")).join("data/books/toga-0000-0023.jsonl");
    let positions = read_book(&book).unwrap();
    // A position after the exchange with rows still pending on one side.
    let position = positions
        .iter()
        .find(|p| p.kind == PositionKind::AfterExchange && p.state.iter().any(|s| s.garbage >= 30))
        .expect("an after-exchange position with three rows pending");
    let args = RebuildBenchArgs {
        positions: BookBenchArgs { books: vec![book.clone()], kind: PositionKind::AfterExchange, count: 0, threads: 1 },
        time_ms: 0,
        beam: BeamParams { node_budget: 300_000, ..BeamParams::default() },
    };
    let packs = position.packs().unwrap();
    let mut game = Game::<Field>::new(packs.clone());
    for actions in position.prelude().unwrap().actions {
        game.play(actions.map(Ok));
    }
    for seat in 0..2 {
        let player = &game.players[seat];
        let search = |field: &Engine, garbage| {
            let start = Start { field, packs: &packs, turn: position.turn, garbage };
            let result = args.beam.build(start, false, None);
            WITHIN.map(|t| result.best_within(t))
        };
        // The bot's view of its turn: this turn's row falls first, the rest a row a turn.
        let raw = Engine::from_field(&player.field);
        let mut field = raw;
        let stock = match player.garbage {
            g if g >= GARBAGE_ROW => {
                field.drop_garbage_row();
                g - GARBAGE_ROW
            }
            g => g,
        };
        let report = search_side(position, &packs, seat, &args).unwrap();
        assert_eq!(report.pending, player.garbage, "seat {seat}");
        assert_eq!(report.reach.best, search(&field, stock), "seat {seat}");
        if player.garbage >= 30 {
            assert_ne!(report.reach.best, search(&raw, 0), "seat {seat}: the pending rows fall on the searched lines");
        }
    }
}
