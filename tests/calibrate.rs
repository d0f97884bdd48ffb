//! `calibrate` end to end: a recorded arena game between two small beam bots (`beamer` and
//! `other`), then the race's probe of the beamer's field before each of its fires, and its
//! answer to the other's first fire.

use std::path::Path;
use std::process::{Command, Stdio};

use codevs_reborn::calibrate::{game_samples, report, CalibrateArgs};
use codevs_reborn::replay::game_folders;
use codevs_reborn::replay::{Replay, REPLAY_FILE};

const BIN: &str = env!("CARGO_BIN_EXE_codevs-reborn");

/// Plays one recorded game, the beamer as player 0 against `other`, into `dir/replays`.
fn record_game(dir: &Path, other: &str) -> std::path::PathBuf {
    let replays = dir.join("replays");
    let beamer = format!("{BIN} --strategy beam --node-budget 20000 --seed 1 --name beamer");
    let out = Command::new(BIN)
        .args(["arena", "--p0", &beamer, "--p1", other, "--seed", "7", "--games", "1", "--time-ms", "20000"])
        .args(["--turn-ms", "2000", "--replays", replays.to_str().unwrap()])
        .stdin(Stdio::null())
        .output()
        .expect("the binary runs");
    assert!(out.status.success(), "arena failed: {}", String::from_utf8_lossy(&out.stderr));
    replays
}

fn args(replays: &Path) -> CalibrateArgs {
    use clap::Parser;
    #[derive(Parser)]
    struct Cli {
        #[command(flatten)]
        args: CalibrateArgs,
    }
    let cli = Cli::parse_from([
        "calibrate",
        replays.to_str().unwrap(),
        "--bot-name",
        "beamer",
        "--min-links",
        "3",
        "--probe-nodes",
        "20000",
        "--leads",
        "0,2",
    ]);
    cli.args
}

#[test]
fn the_probe_sees_each_fire_from_its_own_turn() {
    let dir = tempfile::tempdir().unwrap();
    let replays = record_game(dir.path(), &format!("{BIN} --strategy beam --node-budget 20000 --seed 2 --name other"));
    let folders = game_folders(&replays).unwrap();
    assert_eq!(folders.len(), 1, "{folders:?}");
    let replay: Replay = serde_json::from_str(&std::fs::read_to_string(folders[0].join(REPLAY_FILE)).unwrap()).unwrap();
    // Each seat's drops chaining 3+ links, from the replay itself.
    let chains = |seat: usize| -> Vec<(usize, u32)> {
        replay
            .turns
            .iter()
            .filter_map(|t| t.outcomes.map(|o| (t.turn, o[seat])))
            .filter(|(_, o)| !o.skill && o.links >= 3)
            .map(|(turn, o)| (turn, o.links))
            .collect()
    };
    let fires: Vec<(usize, u32)> = chains(0).into_iter().take(2).collect();
    assert!(!fires.is_empty(), "the beamer fired no 3+ chain");
    let (their_turn, their_links) = *chains(1).first().expect("the other fired a 3+ chain");
    let args = args(&replays);
    let game = game_samples(&folders[0], &args).unwrap();
    let samples = &game.fires;
    assert_eq!(samples.iter().map(|s| (s.turn, s.links)).collect::<Vec<_>>(), fires, "only the beamer's fires");
    assert!(samples.iter().all(|s| s.name == "beamer"));
    for s in samples {
        // Lead 0: the probe of the field it fired from tries every placement of that turn's pack,
        // the one fired included, so it sees at least that chain.
        let now = s.predicted[0].expect("lead 0 is always probed");
        assert!(now >= s.links, "the probe at the fire's turn saw {now} of the {} fired", s.links);
        assert!(s.potential[0].unwrap() >= now, "the potential is the larger horizon");
        // Lead 2 is probed only when that turn is after the previous fire.
        let earliest = if s.nth == 0 { 0 } else { samples[s.nth - 1].turn + 1 };
        assert_eq!(s.predicted[1].is_some(), s.turn >= earliest + 2, "{s:?}");
    }
    // The answer: the beamer's largest chain from the other's first fire to 10 turns later.
    let answered = chains(0).iter().filter(|&&(t, _)| (their_turn..=their_turn + 10).contains(&t)).map(|c| c.1).max();
    assert_eq!(game.answers.len(), 1, "{:?}", game.answers);
    let answer = &game.answers[0];
    assert_eq!((answer.name.as_str(), answer.turn, answer.fired), ("beamer", their_turn, their_links));
    assert_eq!(answer.answered, answered.unwrap_or(0));
    // The other seat (player 1) fired: the game's result for it.
    let firer_result = match replay.result.winner {
        1 => 1.0,
        0 => 0.0,
        _ => 0.5,
    };
    assert_eq!(answer.firer_result, firer_result);
    let table = report(&game, &args.leads, args.answer_turns, args.min_links);
    assert!(table.lines().nth(1).unwrap().starts_with("beamer"), "{table}");
    assert!(table.contains(&format!("{n}/{n}", n = samples.iter().filter(|s| s.nth == 0).count())), "{table}");
    let (_, answers) = table.split_once("\n\n").expect("an answers table after the fires");
    let answers = answers.lines().find(|l| l.starts_with("beamer")).expect("an answers row");
    assert!(answers.split_whitespace().nth(1) == Some("1"), "{table}");
    // The margins table counts that one fire once, in the column of its margin over the probe.
    let margins = table.lines().skip_while(|l| !l.contains("margin ≥ +1")).nth(1).expect("a margins row");
    let margin = i64::from(answer.fired) - i64::from(answer.predicted);
    let column = [margin <= -3, (-2..=-1).contains(&margin), margin == 0, margin >= 1].iter().position(|&c| c).unwrap();
    let cells: Vec<&str> = margins.split_whitespace().skip(1).collect();
    let games: Vec<&str> = (0..4).map(|k| cells[3 * k + 2]).collect();
    let expected: Vec<&str> = (0..4).map(|k| if k == column { "1" } else { "0" }).collect();
    assert_eq!(games, expected, "{table}");
    // The room: the garbage pending on the beamer after that turn, less 10 blocks a row between
    // its tallest column and the danger line (row 16); the room table counts the fire once, on
    // the side of it that says.
    let state = &replay.turns.iter().find(|t| t.turn == their_turn).unwrap().states.as_ref().unwrap()[0];
    let tallest = state.field.len() - state.field.iter().position(|row| row.chars().any(|c| c != '.')).unwrap();
    let overflow = i64::from(state.garbage) - 10 * (16 - tallest as i64);
    assert_eq!(answer.overflow, Some(overflow));
    let room = table.lines().skip_while(|l| !l.contains("rows pending once it is full")).nth(1).expect("a room row");
    let fits = if overflow <= 0 { 0 } else { 1 };
    let counts: Vec<&str> = room.split(',').filter(|c| c.ends_with(" fires")).collect();
    assert_eq!(counts.len(), 2, "{room}");
    assert!(counts[fits].trim().ends_with("1 fires") && counts[1 - fits].trim().ends_with("0 fires"), "{room}");

    // The command prints the same table; a folder without games is an error that says what to do.
    let out = Command::new(BIN)
        .args(["calibrate", replays.to_str().unwrap(), "--bot-name", "beamer", "--min-links", "3"])
        .args(["--probe-nodes", "20000", "--leads", "0,2"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(String::from_utf8_lossy(&out.stdout), table);
    let empty = tempfile::tempdir().unwrap();
    let out = Command::new(BIN).args(["calibrate", empty.path().to_str().unwrap()]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no replay.json found"), "{out:?}");
}

/// `--recorded`: the predictions are the probes our bot ran while it played, read from its
/// `race-features` lines (the turn a line was written predicts for that turn), and a turn without
/// one predicts nothing.
#[test]
fn recorded_probes_are_read_from_our_bots_lines() {
    let dir = tempfile::tempdir().unwrap();
    // Our bot (its default name) reads the race from turn 2 and weighs its chains of 3+ links, so
    // that its lines cover the beamer's early fires and hold the answer it probed to its own.
    let ours = format!("{BIN} --node-budget 20000 --seed 2 --plan-unconditional-turns 2 --race-min-links 3");
    let replays = record_game(dir.path(), &ours);
    let folder = &game_folders(&replays).unwrap()[0];
    let stderr = std::fs::read_to_string(folder.join("stderr-p1.txt")).unwrap();
    let lines = codevs_reborn::bot::RaceFeatures::all_in(&stderr).unwrap();
    assert!(!lines.is_empty(), "our bot wrote no race-features line");
    let line_at = |turn: usize| lines.iter().find(|f| f.turn == turn);

    let mut recorded = args(&replays);
    recorded.recorded = true;
    let game = game_samples(folder, &recorded).unwrap();
    let probed = game_samples(folder, &args(&replays)).unwrap();
    let fires =
        |g: &codevs_reborn::calibrate::GameSamples| g.fires.iter().map(|s| (s.turn, s.links)).collect::<Vec<_>>();
    assert!(!game.fires.is_empty(), "the beamer fired no 3+ chain");
    assert_eq!(fires(&game), fires(&probed), "the same fires, whatever predicts them");
    let mut predicted = 0;
    for s in &game.fires {
        for (i, &lead) in recorded.leads.iter().enumerate() {
            let expected = s.turn.checked_sub(lead).and_then(line_at).map(|f| {
                let within = |turns: usize| f.their_menu.iter().take(turns + 1).copied().max().unwrap_or(0);
                (within(lead), within(10))
            });
            if s.predicted[i].is_some() {
                predicted += 1;
                assert_eq!((s.predicted[i], s.potential[i]), expected.unzip(), "{s:?} at lead {lead}");
            } else {
                // Only a turn before the previous fire or without a line predicts nothing.
                let earliest = if s.nth == 0 { 0 } else { game.fires[s.nth - 1].turn + 1 };
                assert!(expected.is_none() || s.turn < earliest + lead, "{s:?} at lead {lead}");
            }
        }
    }
    assert!(predicted > 0, "no fire was predicted from a line: {:?}", game.fires);
    // The answer: the line of the turn our bot fired holds the answer it probed, if it weighed it.
    let answers = |g: &codevs_reborn::calibrate::GameSamples| {
        g.answers.iter().map(|a| (a.turn, a.fired, a.answered)).collect::<Vec<_>>()
    };
    assert_eq!(game.answers.len(), 1, "the beamer's answer to our first 3+ chain: {:?}", game.answers);
    for a in &game.answers {
        assert_eq!(Some(a.predicted), line_at(a.turn).and_then(|f| f.their_answer), "{a:?}");
    }
    let weighed: Vec<_> = answers(&probed)
        .into_iter()
        .filter(|&(turn, ..)| line_at(turn).is_some_and(|f| f.their_answer.is_some()))
        .collect();
    assert_eq!(answers(&game), weighed, "an answer for each fire whose line weighed it");
}

/// The tables of first fires read from made-up samples: by the answer they met (none, or its
/// links less theirs) and by their turn and links, each fire counted once with the games the
/// seat that fired won (a draw a half).
#[test]
fn first_fires_are_tabled_by_their_answer_and_by_turn_and_links() {
    use codevs_reborn::calibrate::{AnswerSample, GameSamples};
    let fire = |turn: usize, fired: u32, answered: u32, firer_result: f64| AnswerSample {
        name: "kera".into(),
        turn,
        fired,
        answered,
        predicted: fired,
        firer_result,
        overflow: None,
    };
    // Two fires of 13 at turn 13, one won unanswered, one lost to a 14; a drawn 15 at 12 met by a
    // 15; a lost 18 at 20 met by a 12; a won 10 at 9 met by a 13; and a 9-link answer is none.
    let answers = vec![
        fire(13, 13, 0, 1.0),
        fire(13, 13, 14, 0.0),
        fire(12, 15, 15, 0.5),
        fire(20, 18, 12, 0.0),
        fire(9, 10, 13, 1.0),
    ];
    let table = report(&GameSamples { fires: Vec::new(), answers: answers.clone() }, &[0], 10, 10);
    let answered = table.lines().skip_while(|l| !l.contains("answer ≥ +2")).nth(1).expect("an answers row");
    let cells: Vec<String> =
        answered.split_whitespace().skip(1).collect::<Vec<_>>().chunks(3).map(|c| c.join(" ")).collect();
    assert_eq!(cells, ["1 of 1", "0 of 1", "0.5 of 1", "0 of 1", "1 of 1"], "{table}");
    let mut small = answers;
    small[0].answered = 9;
    let table_small = report(&GameSamples { fires: Vec::new(), answers: small }, &[0], 10, 10);
    let answered_row = |t: &str| t.lines().skip_while(|l| !l.contains("answer ≥ +2")).nth(1).map(String::from);
    assert_eq!(answered_row(&table_small), answered_row(&table), "an answer under --min-links is none");
    let timing: Vec<&str> = table.lines().skip_while(|l| !l.starts_with("kera: turn")).collect();
    let header = timing[0].split_whitespace().collect::<Vec<_>>().join(" ");
    assert_eq!(header, "kera: turn ≤ 12 links 13 links 14 links 15-16 links ≥ 17 links", "{table}");
    // A row: its label in 12 characters, then a "won of games" cell a column.
    let cells = |row: &str| -> Vec<String> {
        let line = timing.iter().find(|l| l.starts_with(row)).unwrap_or_else(|| panic!("no row {row}: {table}"));
        let tokens: Vec<String> =
            line.chars().skip(12).collect::<String>().split_whitespace().map(String::from).collect();
        tokens.chunks(3).map(|c| c.join(" ")).collect()
    };
    assert!(!table.contains("-0 "), "an empty cell reads 0, not -0: {table}");
    assert_eq!(cells("13"), ["0 of 0", "1 of 2", "0 of 0", "0 of 0", "0 of 0"], "{table}");
    assert_eq!(cells("12")[3], "0.5 of 1", "{table}");
    assert_eq!(cells("≥ 16")[4], "0 of 1", "{table}");
    assert_eq!(cells("≤ 11")[0], "1 of 1", "{table}");
    // Every fire once: the cells' games add up to the five.
    let games: usize = ["≤ 11", "12", "13", "14", "15", "≥ 16"]
        .iter()
        .flat_map(|row| cells(row))
        .map(|c| c.rsplit(' ').next().unwrap().parse::<usize>().unwrap())
        .sum();
    assert_eq!(games, 5, "{table}");
}
