//! `calibrate` end to end: a recorded arena game between two small beam bots (`beamer` and
//! `other`), then the race's probe of the beamer's field before each of its fires, and its
//! answer to the other's first fire.

use std::path::Path;
use std::process::{Command, Stdio};

use codevs_reborn::calibrate::{game_samples, report, CalibrateArgs};
use codevs_reborn::replay::game_folders;
use codevs_reborn::replay::{Replay, REPLAY_FILE};

const BIN: &str = env!("CARGO_BIN_EXE_codevs-reborn");

/// Plays one recorded game, the beamer as player 0, into `dir/replays`.
fn record_game(dir: &Path) -> std::path::PathBuf {
    let replays = dir.join("replays");
    let beamer = format!("{BIN} --strategy beam --node-budget 20000 --seed 1 --name beamer");
    let other = format!("{BIN} --strategy beam --node-budget 20000 --seed 2 --name other");
    let out = Command::new(BIN)
        .args(["arena", "--p0", &beamer, "--p1", &other, "--seed", "7", "--games", "1", "--time-ms", "20000"])
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
    let replays = record_game(dir.path());
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
    let table = report(&game, &args.leads, args.answer_turns);
    assert!(table.lines().nth(1).unwrap().starts_with("beamer"), "{table}");
    assert!(table.contains(&format!("{n}/{n}", n = samples.iter().filter(|s| s.nth == 0).count())), "{table}");
    let (_, answers) = table.split_once("\n\n").expect("an answers table after the fires");
    let answers = answers.lines().find(|l| l.starts_with("beamer")).expect("an answers row");
    assert!(answers.split_whitespace().nth(1) == Some("1"), "{table}");

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
