//! `positions` and `fit`: the race positions of a recorded game, recorded or recomputed alike,
//! and the fit of a win probability on made-up games whose outcome the features decide.

use std::path::Path;
use std::process::{Command, Stdio};

use codevs_reborn::bot::race::value::Logistic;
use codevs_reborn::bot::RaceFeatures;
use codevs_reborn::fit::{fit, fit_logistic, FitArgs};
use codevs_reborn::positions::{positions_of, PositionsArgs, RacePosition};
use codevs_reborn::replay::{game_folders, RecordedGames, Replay, REPLAY_FILE};
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
    let name = folder.display().to_string();
    let recorded = positions_of(&folder, &name, &positions_args(3)).unwrap();
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
    let recomputed = positions_of(&folder, &name, &positions_args(3)).unwrap();
    assert!(recomputed.iter().all(|p| p.recomputed));
    let features = |ps: &[RacePosition]| ps.iter().map(|p| p.features.clone()).collect::<Vec<_>>();
    assert_eq!(features(&recomputed), features(&recorded));

    // No chain of 30 links is ever in view: no positions.
    assert!(positions_of(&folder, &name, &positions_args(30)).unwrap().is_empty());
}

/// `replays` packed as `data/games/` keeps games: a tar of the folder, xz-compressed.
fn archive(replays: &Path, to: &Path) {
    let mut tar = tar::Builder::new(Vec::new());
    tar.append_dir_all("replays-x", replays).unwrap();
    let tar = tar.into_inner().unwrap();
    let mut xz = Vec::new();
    lzma_rs::xz_compress(&mut tar.as_slice(), &mut xz).unwrap();
    std::fs::write(to, xz).unwrap();
}

#[test]
fn an_archived_game_reads_as_the_folder_it_was_packed_from() {
    let dir = tempfile::tempdir().unwrap();
    let replays = record_game(dir.path());
    let folder = game_folders(&replays).unwrap().remove(0);
    let from_folder = positions_of(&folder, "g", &positions_args(3)).unwrap();
    let games = dir.path().join("games");
    std::fs::create_dir(&games).unwrap();
    let packed = games.join("judge.tar.xz");
    archive(&replays, &packed);
    std::fs::remove_dir_all(&replays).unwrap();

    // Given the archive, or the folder that holds it: the same game, named in the archive.
    for given in [&packed, &games] {
        let found = RecordedGames::find(std::slice::from_ref(given)).unwrap();
        assert_eq!(found.games.len(), 1);
        let game = &found.games[0];
        let inside = folder.strip_prefix(&replays).unwrap();
        assert_eq!(game.name, packed.join("replays-x").join(inside).display().to_string());
        assert_eq!(game.relative, Path::new("judge/replays-x").join(inside));
        assert_eq!(positions_of(&game.folder, "g", &positions_args(3)).unwrap(), from_folder);
    }

    // Anything else is refused, naming what is expected.
    let other = games.join("notes.txt");
    std::fs::write(&other, "x").unwrap();
    let refused = RecordedGames::find(&[other]).unwrap_err();
    assert!(refused.contains("neither a folder of recorded games nor a .tar.xz archive"), "{refused}");
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
    FitArgs {
        positions: Vec::new(),
        exchanges: Vec::new(),
        midgame: false,
        output: None,
        holdout_every: 4,
        bootstrap: 500,
        seed: 1,
        ridge: 1.0,
    }
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

/// A gauntlet `--json` line: our seat, each side's first chain of 10+ links (links, turn), the
/// winner, and whether it was played from a book position.
fn gauntlet_line(seed: usize, our_seat: usize, first: [Option<(u32, usize)>; 2], winner: i8, book: bool) -> String {
    let chain = |c: Option<(u32, usize)>| c.map(|(links, turn)| serde_json::json!({"links": links, "turn": turn}));
    let mut line = serde_json::json!({
        "opponent": "made-up", "our_seat": our_seat, "pair": seed, "game": 2 * seed + our_seat,
        "packs": format!("seed:{seed}"), "names": ["a", "b"], "commands": ["a", "b"], "winner": winner,
        "reason": "dead", "turns": 40, "scores": [0, 0], "max_chain": [chain(first[0]), chain(first[1])],
        "first_chain_10": [chain(first[0]), chain(first[1])], "faults": [null, null], "time_ms": [0, 0],
        "cpus": null, "peak_rss_kib": [null, null], "moves": ["", ""],
    });
    if book {
        line["start_turn"] = serde_json::json!(20);
    }
    format!("{line}\n")
}

#[test]
fn the_odds_after_the_first_exchange_are_fitted_to_who_fired_first_and_by_how_many_links() {
    use codevs_reborn::fit::exchanges::{fit_exchanges, read_exchanges};
    let dir = tempfile::tempdir().unwrap();
    // 600 games: our first chain fired first on even seeds, theirs on odd ones; a link more
    // than theirs wins most games, whoever fired first (within the clamp of four links).
    let mut rng = Pcg64Mcg::seed_from_u64(5);
    let mut text = String::new();
    for seed in 0..600 {
        let (ours, theirs) = (rng.gen_range(12..17u32), rng.gen_range(12..17u32));
        let (our_turn, their_turn) = if seed % 2 == 0 { (12, 17) } else { (17, 12) };
        let edge = 1.5 * (f64::from(ours) - f64::from(theirs));
        let our_seat = seed % 2;
        let won = rng.gen::<f64>() < 1.0 / (1.0 + (-edge).exp());
        let winner = if won { our_seat } else { 1 - our_seat } as i8;
        let mut first = [None, None];
        first[our_seat] = Some((ours, our_turn));
        first[1 - our_seat] = Some((theirs, their_turn));
        text.push_str(&gauntlet_line(seed, our_seat, first, winner, false));
    }
    // Not read: a draw, a game from a book position, a game with no chain of 10.
    text.push_str(&gauntlet_line(900, 0, [Some((12, 10)), Some((12, 10))], -1, false));
    text.push_str(&gauntlet_line(901, 0, [Some((12, 10)), Some((14, 11))], 0, true));
    text.push_str(&gauntlet_line(902, 0, [None, None], 0, false));
    // One side fired none: its chain counts 0 links, the other fired first.
    text.push_str(&gauntlet_line(903, 1, [Some((13, 15)), None], 1, false));
    let path = dir.path().join("games.jsonl");
    std::fs::write(&path, text).unwrap();
    let games = read_exchanges(&path).unwrap();
    assert_eq!(games.len(), 601);
    let last = games.last().unwrap();
    assert_eq!((last.we_first, last.ours, last.theirs, last.won), (false, 0, 13, true));
    assert!(games[..600].iter().enumerate().all(|(i, g)| g.we_first == (i % 2 == 0)));

    let report = fit_exchanges(&games, 4, 1.0).unwrap();
    assert_eq!(report.train_games + report.held_out_games, 601);
    assert!(report.model_log_loss < report.base_log_loss - 0.1, "{report:?}");
    for side in [&report.model.we_first, &report.model.they_first] {
        assert!((side.weights[0] - 1.5).abs() < 0.4, "the slope drawn: {side:?}");
    }
    let model = &report.model;
    assert!(model.win_probability(true, 15, 14) > 0.7 && model.win_probability(false, 13, 14) < 0.3);

    // Too few: one side never fired first.
    let error = fit_exchanges(&games[..1], 4, 1.0).unwrap_err();
    assert!(error.contains("too few"), "{error}");
    // A line that is not a gauntlet's names the file and line.
    std::fs::write(&path, "{\"game\": 1}\n").unwrap();
    let error = read_exchanges(&path).unwrap_err();
    assert!(error.contains("games.jsonl:1: expected a gauntlet --json line"), "{error}");
}

#[test]
fn fit_writes_its_part_of_the_models_file_and_keeps_the_other() {
    let dir = tempfile::tempdir().unwrap();
    let games = dir.path().join("games.jsonl");
    let mut text = String::new();
    for seed in 0..40 {
        let our_seat = seed % 2;
        let (ours, theirs) = (12 + (seed % 5) as u32, 14);
        let mut first = [None, None];
        first[our_seat] = Some((ours, 10 + seed % 3));
        first[1 - our_seat] = Some((theirs, 11));
        let winner = if ours + (seed % 3) as u32 > theirs { our_seat } else { 1 - our_seat } as i8;
        text.push_str(&gauntlet_line(seed, our_seat, first, winner, false));
    }
    std::fs::write(&games, text).unwrap();
    let models = dir.path().join("race-model.json");
    let built_in = include_str!("../data/race-model.json");
    std::fs::write(&models, built_in).unwrap();
    let out = Command::new(BIN)
        .args(["fit", "--exchanges", games.to_str().unwrap(), "-o", models.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("first exchanges of 40 games"), "{stdout}");
    let written: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&models).unwrap()).unwrap();
    let before: serde_json::Value = serde_json::from_str(built_in).unwrap();
    assert_eq!(written["position"], before["position"], "the position model is kept");
    assert_eq!(written["exchange"]["games"], 40);
    assert_ne!(written["exchange"], before["exchange"]);
    // The bot reads the file it wrote.
    codevs_reborn::bot::race::value::RaceModels::parse(&std::fs::read_to_string(&models).unwrap()).unwrap();
}

#[test]
fn the_midgame_terms_are_fitted_in_the_evaluations_units_and_each_is_scored_held_out() {
    use codevs_reborn::fit::midgame::{fit_midgame, hand_weights, terms, TERMS};
    use codevs_reborn::search::midgame::MidgameParams;
    // 800 games decided by the garbage on the fields; the garbage pending, which the hand-set
    // evaluation counts as much, decides nothing here.
    let mut rng = Pcg64Mcg::seed_from_u64(5);
    let mut positions = Vec::new();
    for game in 0..800 {
        let on_field = [rng.gen_range(0..60), rng.gen_range(0..60)];
        let pending = [rng.gen_range(0..80), rng.gen_range(0..80)];
        let edge = (f64::from(on_field[1]) - f64::from(on_field[0])) / 15.0;
        let won = rng.gen::<f64>() < 1.0 / (1.0 + (-edge).exp());
        for turn in 10..20 {
            let mut p = position(game, turn, 12, 12, pending, won);
            p.features.garbage_on_field = on_field;
            positions.push(p);
        }
    }
    let params = MidgameParams::default();
    let report = fit_midgame(&positions, &params, 4, 1.0, 500, 1).unwrap();
    assert_eq!((report.train.1, report.held_out.1), (600, 200), "one game in four held out, by game");
    assert!(report.fitted < report.hand && report.hand < report.base, "{report:?}");
    assert!(report.gain.1 > 0.0, "the fit beats the hand-set weights, which count pending garbage: {report:?}");
    let term = |name: &str| report.terms.iter().find(|t| t.name.starts_with(name)).unwrap();
    let fields = term("garbage on the fields");
    assert_eq!(fields.fitted, fields.hand, "the unit: a block on a field at its hand-set weight");
    assert!(fields.effect.1 > 0.0, "the fields decide: {fields:?}");
    let rows = term("pending garbage in whole rows");
    assert!(rows.fitted.abs() < 0.3 * fields.fitted, "pending decides nothing: {rows:?}");
    assert!(rows.effect.1 < 0.0 && rows.effect.0 < 0.01, "{rows:?}");
    // The terms as the evaluation measures them: 23 blocks pending on them is two whole rows and
    // three blocks; our tallest column at 14 with a row about to fall counts in row 15.
    let mut f = positions[0].features.clone();
    (f.garbage_pending, f.garbage_on_field, f.max_height) = ([10, 33], [20, 5], [14, 9]);
    assert_eq!(terms(&f), [20.0, 3.0, -15.0, 1.0, 0.0, 0.0]);
    assert_eq!(TERMS.len(), hand_weights(&params).len());
}
