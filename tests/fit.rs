//! `positions` and `fit`: the race positions of a recorded game, recorded or recomputed alike,
//! and the fit of a win probability on made-up games whose outcome the features decide.

use std::path::Path;
use std::process::{Command, Stdio};

use codevs_reborn::bot::race::value::Logistic;
use codevs_reborn::bot::RaceFeatures;
use codevs_reborn::fit::{fit, fit_logistic, FitArgs};
use codevs_reborn::positions::{positions_of, PositionsArgs, RacePosition};
use codevs_reborn::replay::{game_folders, Replay, REPLAY_FILE};
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;

const BIN: &str = env!("CARGO_BIN_EXE_codevs-reborn");

/// Our full bot at a small node budget (seat 0) against a beam bot named `other`, recorded into
/// `dir/replays`.
fn record_game(dir: &Path) -> std::path::PathBuf {
    let replays = dir.join("replays");
    let ours = format!("{BIN} --node-budget 20000 --threads 1");
    let other = format!("{BIN} --strategy beam --node-budget 20000 --seed 2 --name other");
    let out = Command::new(BIN)
        .args(["arena", "--p0", &ours, "--p1", &other, "--seed", "7", "--games", "1", "--time-ms", "60000"])
        .args(["--turn-ms", "5000", "--replays", replays.to_str().unwrap()])
        .stdin(Stdio::null())
        .output()
        .expect("the binary runs");
    assert!(out.status.success(), "arena failed: {}", String::from_utf8_lossy(&out.stderr));
    replays
}

fn positions_args(min_links: u32) -> PositionsArgs {
    PositionsArgs { dirs: Vec::new(), output: "unused".into(), min_links, recompute_nodes: 20_000 }
}

#[test]
fn a_recorded_games_positions_are_its_bots_lines_and_recomputing_them_gives_the_same() {
    let dir = tempfile::tempdir().unwrap();
    let replays = record_game(dir.path());
    let folder = game_folders(&replays).unwrap().remove(0);
    let replay: Replay = serde_json::from_str(&std::fs::read_to_string(folder.join(REPLAY_FILE)).unwrap()).unwrap();
    let recorded = positions_of(&folder, &positions_args(3)).unwrap();
    assert!(recorded.len() > 5, "{} positions", recorded.len());
    let result = match replay.result.winner {
        0 => 1.0,
        1 => 0.0,
        _ => 0.5,
    };
    for p in &recorded {
        assert_eq!((p.seat, p.opponent.as_str(), p.self_play, p.recomputed), (0, "other", false, false));
        assert_eq!(p.result, result);
        assert!(p.features.turn < replay.result.turns);
    }
    assert!(recorded.windows(2).all(|w| w[0].features.turn < w[1].features.turn));
    let first = &recorded[0].features;
    let in_view = first.our_line.iter().chain(&first.our_any_line).chain(&first.their_menu).chain(&first.fires_now);
    assert!(in_view.copied().max().unwrap() >= 3, "{first:?}");

    // Recorded without the lines: the bot plays its input again at the same budget and seed,
    // and takes the same decisions, so it writes the same lines.
    std::fs::remove_file(folder.join("stderr-p0.txt")).unwrap();
    let recomputed = positions_of(&folder, &positions_args(3)).unwrap();
    assert!(recomputed.iter().all(|p| p.recomputed));
    let features = |ps: &[RacePosition]| ps.iter().map(|p| p.features.clone()).collect::<Vec<_>>();
    assert_eq!(features(&recomputed), features(&recorded));

    // No chain of 30 links is ever in view: no positions.
    assert!(positions_of(&folder, &positions_args(30)).unwrap().is_empty());
}

#[test]
fn newtons_method_recovers_the_weights_that_drew_the_outcomes() {
    let mut rng = Pcg64Mcg::seed_from_u64(3);
    let (bias, w) = (0.5, [2.0, -1.0]);
    let xs: Vec<Vec<f64>> = (0..20_000).map(|_| vec![rng.gen_range(-1.0..1.0), rng.gen_range(-2.0..2.0)]).collect();
    let truth = Logistic { bias, weights: w.to_vec() };
    let ys: Vec<f64> = xs.iter().map(|x| f64::from(u8::from(rng.gen::<f64>() < truth.predict(x)))).collect();
    let fitted = fit_logistic(&xs, &ys, 0.0);
    assert!((fitted.bias - bias).abs() < 0.1, "{fitted:?}");
    assert!(fitted.weights.iter().zip(w).all(|(a, b)| (a - b).abs() < 0.1), "{fitted:?}");
}

/// A made-up position: our best chain within 10 turns `ours`, theirs `theirs`, rows pending.
fn position(game: usize, turn: usize, ours: u32, theirs: u32, pending: [u32; 2], won: bool) -> RacePosition {
    RacePosition {
        game: format!("made-up/game-{game:04}"),
        packs: format!("seed:{game}"),
        seat: 0,
        opponent: "made-up".into(),
        self_play: false,
        recomputed: false,
        result: f64::from(u8::from(won)),
        features: RaceFeatures {
            turn,
            time_left_ms: [100_000; 2],
            garbage_pending: pending,
            garbage_on_field: [0, 0],
            max_height: [8, 8],
            gauge: [0, 0],
            score: [0, 0],
            fires_now: [0, 0],
            our_line: vec![ours / 2, ours],
            our_any_line: vec![ours / 2, ours],
            their_menu: vec![theirs / 2, theirs],
            // The exchange is weighed on a third of the positions, and says little.
            exchange: turn.is_multiple_of(3).then_some([turn as i64 % 7 - 3, 0]),
            our_fire_under_row: None,
            their_answer: None,
        },
    }
}

fn fit_args() -> FitArgs {
    FitArgs { positions: Vec::new(), output: None, holdout_every: 4, bootstrap: 500, seed: 1, ridge: 1.0 }
}

#[test]
fn the_fitted_model_beats_the_baselines_where_the_race_decides_and_is_scored_on_unseen_games() {
    // 400 games: the side with the bigger chain in view, and less garbage pending, usually wins.
    let mut rng = Pcg64Mcg::seed_from_u64(9);
    let mut positions = Vec::new();
    for game in 0..400 {
        let (ours, theirs) = (rng.gen_range(6..18), rng.gen_range(6..18));
        let pending = [rng.gen_range(0..30), rng.gen_range(0..30)];
        let edge = (f64::from(ours) - f64::from(theirs)) / 2.0 + (f64::from(pending[1]) - f64::from(pending[0])) / 8.0;
        let won = rng.gen::<f64>() < 1.0 / (1.0 + (-edge).exp());
        for turn in 10..30 {
            positions.push(position(game, turn, ours, theirs, pending, won));
        }
    }
    let report = fit(&positions, &fit_args()).unwrap();
    assert_eq!((report.train.1, report.held_out.1), (300, 100), "one game in four held out, by game");
    assert_eq!((report.train.0, report.held_out.0), (6000, 2000));
    let loss = |name: &str| report.scored.iter().find(|s| s.name == name).unwrap().log_loss;
    assert!(loss("fitted model") < loss("larger menu chain wins"), "{report:?}");
    assert!(loss("larger menu chain wins") < loss("base rate"), "{report:?}");
    assert!(loss("fitted model") < loss("exchange value, one sigmoid"), "{report:?}");
    assert!(report.gain > 0.0 && report.gain_interval.0 > 0.0, "{report:?}");
    // Our chain in view counts for us, theirs against us, rows pending on them for us.
    let w = &report.model.weights;
    assert!(w[4] > 0.0 && w[5] < 0.0 && w[6] > 0.0, "{w:?}");
}

#[test]
fn outcomes_the_features_do_not_decide_give_the_fit_no_gain() {
    let mut rng = Pcg64Mcg::seed_from_u64(11);
    let mut positions = Vec::new();
    for game in 0..120 {
        let (ours, theirs) = (rng.gen_range(6..18), rng.gen_range(6..18));
        let won = rng.gen::<bool>();
        for turn in 10..20 {
            positions.push(position(game, turn, ours, theirs, [0, 0], won));
        }
    }
    let report = fit(&positions, &fit_args()).unwrap();
    // Coin flips: no predictor does much better than log 2 = 0.693, and the gain's interval
    // holds zero.
    assert!(report.scored.iter().all(|s| s.log_loss > 0.64), "{report:?}");
    assert!(report.gain_interval.0 <= 0.0, "{report:?}");
}

#[test]
fn too_few_games_to_hold_any_out_is_an_error() {
    let positions = vec![position(0, 10, 10, 8, [0, 0], true)];
    assert!(fit(&positions, &fit_args()).unwrap_err().contains("too few"));
}

#[test]
fn games_on_the_same_packs_are_held_out_together() {
    // 40 seeds, each played twice (two bots' paired games): the halves never straddle the split.
    let mut positions = Vec::new();
    for game in 0..80 {
        let mut p = position(game, 12, 10 + (game % 5) as u32, 12, [0, 0], game % 3 == 0);
        p.packs = format!("seed:{}", game / 2);
        positions.push(p);
    }
    let report = fit(&positions, &fit_args()).unwrap();
    assert_eq!((report.train.1, report.held_out.1), (60, 20), "10 of 40 seeds held out, both games of each");
}
