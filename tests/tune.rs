//! `codevs-reborn tune` end to end: SPSA over the greedy bot's weights (a deterministic bot, so
//! a run's games and updates repeat exactly), on generated packs at a short control.

use std::path::Path;
use std::process::{Command, Output, Stdio};

use codevs_reborn::tune::spsa::flips;
use codevs_reborn::tune::TuneState;

const BIN: &str = env!("CARGO_BIN_EXE_codevs-reborn");

const PARAMS: &str = "# the greedy bot's weights\n\
                      greedy-height 3 0 12 2 0.05\n\
                      greedy-potential, 10, 0, 40, 4, 0.05\n";

fn tune(dir: &Path, extra: &[&str]) -> Output {
    let bot = format!("{BIN} --strategy greedy");
    let params = dir.join("params.txt");
    std::fs::write(&params, PARAMS).unwrap();
    let state = dir.join("state.json");
    let mut args =
        vec!["tune", "--bot", &bot, "--params", params.to_str().unwrap(), "--state", state.to_str().unwrap()];
    args.extend([
        "--seed",
        "11",
        "--iterations",
        "3",
        "--time-ms",
        "5000",
        "--turn-ms",
        "1000",
        "--no-pin",
        "--jobs",
        "2",
    ]);
    args.extend(extra);
    Command::new(BIN).args(&args).stdin(Stdio::null()).output().expect("the binary runs")
}

fn tune_ok(dir: &Path, extra: &[&str]) -> String {
    let out = tune(dir, extra);
    let stdout = String::from_utf8_lossy(&out.stdout).to_string();
    assert!(out.status.success(), "tune failed: {}\n{stdout}", String::from_utf8_lossy(&out.stderr));
    stdout
}

fn state(dir: &Path) -> TuneState {
    serde_json::from_str(&std::fs::read_to_string(dir.join("state.json")).unwrap()).expect("a state file")
}

#[test]
fn a_run_stopped_and_resumed_repeats_an_unbroken_one() {
    let unbroken = tempfile::tempdir().unwrap();
    let stdout = tune_ok(unbroken.path(), &[]);
    let whole = state(unbroken.path());
    assert_eq!(whole.history.len(), 3);
    assert!(stdout.contains("iterations: 3 of 3 (6 games"), "{stdout}");

    let broken = tempfile::tempdir().unwrap();
    tune_ok(broken.path(), &["--stop-after", "1"]);
    assert_eq!(state(broken.path()).history.len(), 1, "stopped after one iteration");
    tune_ok(broken.path(), &[]);
    let resumed = state(broken.path());
    assert_eq!(resumed.history, whole.history, "the resumed run played and updated as the unbroken one");
    assert_eq!(resumed.theta, whole.theta);

    // Each iteration: its directions come from the seed and k, θ± straddle the θ before it,
    // the result is θ⁺'s wins minus losses over its two games, and θ moved along it.
    let mut theta: Vec<f64> = whole.run.params.iter().map(|p| p.start).collect();
    for it in &whole.history {
        assert_eq!(it.flips, flips(1, it.k, 2));
        assert_eq!(it.scores.len(), 2);
        assert_eq!(it.result, it.scores.iter().map(|&s| f64::from(s)).sum::<f64>());
        for (i, p) in whole.run.params.iter().enumerate() {
            let c = whole.run.gains.c_k(p, it.k);
            let direction = f64::from(it.flips[i]);
            assert!((it.plus[i] - p.clamp(theta[i] + c * direction)).abs() < 1e-9);
            assert!((it.minus[i] - p.clamp(theta[i] - c * direction)).abs() < 1e-9);
            let step = it.theta[i] - theta[i];
            if it.result != 0.0 && it.theta[i] > p.min && it.theta[i] < p.max {
                assert_eq!(step.signum(), (it.result * direction).signum(), "{} moved against its result", p.name);
            } else if it.result == 0.0 {
                assert_eq!(step, 0.0);
            }
        }
        theta = it.theta.clone();
    }

    // The outputs: θ as flags, and the plot page with a chart per parameter.
    let line = stdout.lines().find(|l| l.starts_with("run.sh line: ./run.sh --greedy-height ")).expect("a flag line");
    assert!(line.contains(" --greedy-potential "), "{line}");
    let page = std::fs::read_to_string(unbroken.path().join("state.html")).unwrap();
    for name in ["greedy-height:", "greedy-potential:", "running sum"] {
        assert!(page.contains(name), "the page names {name}");
    }
    assert_eq!(page.matches("<svg").count(), 3);
    assert_eq!(page.matches("class=\"theta\"").count(), 3);
}

#[test]
fn a_report_plays_nothing_and_a_changed_run_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    tune_ok(dir.path(), &["--stop-after", "1"]);
    let state_path = dir.path().join("state.json");
    let before = std::fs::read_to_string(&state_path).unwrap();

    let out = Command::new(BIN)
        .args(["tune", "--report", "--state", state_path.to_str().unwrap(), "--plot", "other.html"])
        .current_dir(dir.path())
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(stdout.contains("iterations: 1 of 3"), "{stdout}");
    assert!(stdout.contains("flags: --greedy-height "), "{stdout}");
    // One iteration: z is ±1 or 0 along each parameter (|result·Δ| / |result|).
    let z = |name: &str| {
        let line = stdout.lines().find(|l| l.trim_start().starts_with(name)).expect("a parameter line");
        line.rsplit("z ").next().unwrap().parse::<f64>().unwrap()
    };
    for name in ["greedy-height", "greedy-potential"] {
        assert!([-1.0, 0.0, 1.0].contains(&z(name)), "{stdout}");
    }
    assert!(dir.path().join("other.html").exists());
    assert_eq!(std::fs::read_to_string(&state_path).unwrap(), before, "a report leaves the state alone");

    let out = tune(dir.path(), &["--spsa-seed", "2"]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("was started with other settings (--spsa-seed: 1 then, 2 now)"), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "one line: {stderr}");
}

#[test]
fn against_a_pool_each_side_plays_every_opponent_from_both_seats() {
    let dir = tempfile::tempdir().unwrap();
    let opponent = format!("greedy=exec {BIN} --strategy greedy --greedy-height 9");
    tune_ok(dir.path(), &["--opponent", &opponent, "--stop-after", "1"]);
    let s = state(dir.path());
    assert_eq!(s.run.pool, vec![opponent.clone()]);
    let it = &s.history[0];
    assert_eq!(it.scores.len(), 4);
    let side = |games: &[i8]| games.iter().map(|&s| f64::from(s)).sum::<f64>();
    assert_eq!(it.result, (side(&it.scores[..2]) - side(&it.scores[2..])) / 2.0);
}

#[test]
fn a_bad_parameters_file_is_one_line_naming_it() {
    let dir = tempfile::tempdir().unwrap();
    let params = dir.path().join("bad.txt");
    std::fs::write(&params, "greedy-height 3 0 12 2\n").unwrap();
    let out = Command::new(BIN)
        .args(["tune", "--bot", "true", "--params", params.to_str().unwrap(), "--state", "s.json"])
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("bad.txt:1: expected `NAME start min max c_end r_end`"), "{stderr}");
    assert!(!dir.path().join("s.json").exists());
}
