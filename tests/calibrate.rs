//! `calibrate` end to end: a recorded arena game between a small beam bot (named `beamer`) and
//! the greedy bot, then the race's probe of the beamer's field before each of its fires.

use std::path::Path;
use std::process::{Command, Stdio};

use codevs_reborn::calibrate::{game_folders, game_samples, report, CalibrateArgs};
use codevs_reborn::replay::{Replay, REPLAY_FILE};

const BIN: &str = env!("CARGO_BIN_EXE_codevs-reborn");

/// Plays one recorded game, the beamer as player 0, into `dir/replays`.
fn record_game(dir: &Path) -> std::path::PathBuf {
    let replays = dir.join("replays");
    let beamer = format!("{BIN} --strategy beam --node-budget 20000 --seed 1 --name beamer");
    let greedy = format!("{BIN} --strategy greedy");
    let out = Command::new(BIN)
        .args(["arena", "--p0", &beamer, "--p1", &greedy, "--seed", "7", "--games", "1", "--time-ms", "20000"])
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
    // The beamer's first two drops chaining 3+ links, from the replay itself.
    let fires: Vec<(usize, u32)> = replay
        .turns
        .iter()
        .filter_map(|t| t.outcomes.map(|o| (t.turn, o[0])))
        .filter(|(_, o)| !o.skill && o.links >= 3)
        .map(|(turn, o)| (turn, o.links))
        .take(2)
        .collect();
    assert!(!fires.is_empty(), "the beamer fired no 3+ chain");

    let args = args(&replays);
    let samples = game_samples(&folders[0], &args).unwrap();
    assert_eq!(samples.iter().map(|s| (s.turn, s.links)).collect::<Vec<_>>(), fires, "only the beamer's fires");
    assert!(samples.iter().all(|s| s.name == "beamer"));
    for s in &samples {
        // Lead 0: the probe of the field it fired from tries every placement of that turn's pack,
        // the one fired included, so it sees at least that chain.
        let now = s.predicted[0].expect("lead 0 is always probed");
        assert!(now >= s.links, "the probe at the fire's turn saw {now} of the {} fired", s.links);
        assert!(s.potential[0].unwrap() >= now, "the potential is the larger horizon");
        // Lead 2 is probed only when that turn is after the previous fire.
        let earliest = if s.nth == 0 { 0 } else { samples[s.nth - 1].turn + 1 };
        assert_eq!(s.predicted[1].is_some(), s.turn >= earliest + 2, "{s:?}");
    }
    let table = report(&samples, &args.leads);
    assert!(table.lines().nth(1).unwrap().starts_with("beamer"), "{table}");
    assert!(table.contains(&format!("{n}/{n}", n = samples.iter().filter(|s| s.nth == 0).count())), "{table}");

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
