//! `codevs-reborn view`: the game data re-played from a replay the arena wrote (a known chain,
//! link by link), a tampered replay, replays without packs, the page being self-contained, and
//! the command line's errors.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use codevs_reborn::rules::{Pack, Packs};
use codevs_reborn::view::{self, FrameKind, GameView};
use serde_json::Value;

const BIN: &str = env!("CARGO_BIN_EXE_codevs-reborn");

/// A `sh` bot named `zero` that answers `0 0` to every turn but `skill_turn`, where it uses the
/// skill (a turn's input ends with its second `END` after the 500 packs').
fn zero_bot(skill_turn: usize) -> String {
    format!(
        r#"echo zero; n=0; while read -r l; do if [ "$l" = END ]; then n=$((n+1)); if [ $n -gt 500 ] && [ $(((n-500)%2)) -eq 0 ]; then if [ $(((n-500)/2-1)) -eq {skill_turn} ]; then echo S; else echo "0 0"; fi; fi; fi; done"#
    )
}

/// Packs where `0 0` makes a known chain on turn 1, then stacks ones (which never vanish) until
/// both fields die.
///
/// Turn 0 puts 2 then 1 in column 0 and 3 in column 1. Turn 1 puts 9 then 7 on column 0: link 1
/// removes the 1 and the 9 above it (rows 1 and 2); the 7 falls to row 1, beside the 3 below-right
/// of it, and link 2 removes both.
fn chain_packs() -> Packs {
    let mut packs = vec![Pack::new([1, 0], [2, 3]), Pack::new([7, 0], [9, 0])];
    packs.resize(500, Pack::new([1, 1], [1, 1]));
    Packs(packs)
}

fn run(args: &[&str]) -> Output {
    Command::new(BIN).args(args).stdin(Stdio::null()).output().expect("the binary runs")
}

/// Plays the chain game with the arena into `dir`; returns the replay folder.
fn recorded_chain_game(dir: &Path) -> PathBuf {
    recorded_game(dir, &chain_packs(), &zero_bot(usize::MAX))
}

/// Plays `bot` against itself on `packs` with the arena into `dir`; returns the replay folder.
fn recorded_game(dir: &Path, packs: &Packs, bot: &str) -> PathBuf {
    std::fs::create_dir_all(dir).unwrap();
    let pack_file = dir.join("game.pack");
    std::fs::write(&pack_file, packs.to_string()).unwrap();
    let replays = dir.join("replays");
    let out = run(&[
        "arena",
        "--p0",
        bot,
        "--p1",
        bot,
        "--packs",
        pack_file.to_str().unwrap(),
        "--games",
        "1",
        "--time-ms",
        "30000",
        "--replays",
        replays.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "arena failed: {}", String::from_utf8_lossy(&out.stderr));
    replays.join("game-0000")
}

fn rows(picture: &str) -> Vec<String> {
    let mut rows: Vec<String> = picture.split_whitespace().map(str::to_string).collect();
    while rows.len() < 16 {
        rows.insert(0, ".".repeat(10));
    }
    rows
}

/// The field of a player's frame, rows omitted where unchanged filled back in.
fn frame_rows(view: &GameView, turn: usize, player: usize, frame: usize) -> Vec<String> {
    let mut last = rows("");
    for t in &view.turns[..=turn] {
        for (i, f) in t.players[player].frames.iter().enumerate() {
            if let Some(r) = &f.rows {
                last = r.clone();
            }
            if t.turn == turn && i == frame {
                return last;
            }
        }
    }
    panic!("no frame {frame} in turn {turn}");
}

#[test]
fn a_known_chain_is_shown_link_by_link() {
    let dir = tempfile::tempdir().unwrap();
    let game = recorded_chain_game(dir.path());
    assert!(game.join("game.html").is_file(), "the arena writes the page beside replay.json");
    let view = view::load(&game.join("replay.json")).unwrap();
    assert_eq!(view.names, ["zero", "zero"]);
    assert_eq!(view.time_limit_ms, Some(30_000));

    for p in 0..2 {
        let turn = &view.turns[1].players[p];
        let kinds: Vec<FrameKind> = turn.frames.iter().map(|f| f.kind).collect();
        use FrameKind::*;
        assert_eq!(kinds, [Start, Garbage, Drop, Link, Link, End]);
        assert_eq!(turn.frames[2].marks, [[0, 2], [0, 3]], "the dropped pack's blocks");
        assert_eq!(turn.frames[3].marks, [[0, 1], [0, 2]], "link 1: the 1 and the 9");
        assert_eq!(turn.frames[4].marks, [[0, 1], [1, 0]], "link 2: the fallen 7 and the 3");
        assert_eq!((turn.frames[3].link, turn.frames[4].link), (1, 2));
        assert_eq!(frame_rows(&view, 1, p, 2), rows("7......... 9......... 1......... 23........"));
        assert_eq!(frame_rows(&view, 1, p, 4), rows("7......... 23........"));
        assert_eq!(frame_rows(&view, 1, p, 5), rows("2........."));
        let outcome = turn.outcome.unwrap();
        assert_eq!((outcome.links, outcome.vanished, outcome.score), (2, 4, 2));
    }
    // Turn 0 chains nothing: no link frames, and the start is the empty field.
    let turn0 = &view.turns[0].players[0];
    assert_eq!(turn0.frames.len(), 4);
    assert_eq!(frame_rows(&view, 0, 0, 0), rows(""));
    assert_eq!(view.firsts[0].largest.map(|m| (m.turn, m.links)), Some((1, 2)));
}

#[test]
fn a_skill_explosion_is_a_frame_of_its_own() {
    // Turn 0 leaves a 5 on a 3 in column 1; turns 0-9 each vanish a 1 and a 9 (a 1-link chain,
    // +8 gauge), so turn 10 may use the skill: it explodes the 5 and the 3 beside it.
    let mut packs = vec![Pack::new([1, 5], [9, 3])];
    packs.resize(10, Pack::new([1, 0], [9, 0]));
    packs.resize(500, Pack::new([1, 1], [1, 1]));
    let dir = tempfile::tempdir().unwrap();
    let game = recorded_game(dir.path(), &Packs(packs), &zero_bot(10));
    let view = view::load(&game.join("replay.json")).unwrap();
    let turn = &view.turns[10].players[0];
    assert!(turn.skill && turn.drop.is_none());
    assert_eq!(turn.before.gauge, 80);
    let kinds: Vec<FrameKind> = turn.frames.iter().map(|f| f.kind).collect();
    assert_eq!(kinds, [FrameKind::Start, FrameKind::Garbage, FrameKind::Explosion, FrameKind::End]);
    assert_eq!(turn.frames[2].marks, [[1, 0], [1, 1]]);
    assert_eq!(frame_rows(&view, 10, 0, 2), rows(".5........ .3........"));
    assert_eq!(frame_rows(&view, 10, 0, 3), rows(""));
    assert_eq!(turn.outcome.map(|o| (o.skill, o.exploded, o.links)), Some((true, 2, 0)));
}

/// Rewrites the replay as `edit` says.
fn edit_replay(game: &Path, edit: impl FnOnce(&mut Value)) {
    let path = game.join("replay.json");
    let mut replay: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    edit(&mut replay);
    std::fs::write(&path, serde_json::to_string(&replay).unwrap()).unwrap();
}

fn one_line_error(out: &Output) -> String {
    assert_eq!(out.status.code(), Some(2), "stdout: {}", String::from_utf8_lossy(&out.stdout));
    let err = String::from_utf8_lossy(&out.stderr).to_string();
    assert_eq!(err.trim_end().lines().count(), 1, "one line: {err}");
    assert!(!err.contains("panicked"), "{err}");
    err
}

#[test]
fn a_tampered_state_is_a_mismatch_naming_the_turn() {
    let dir = tempfile::tempdir().unwrap();
    let game = recorded_chain_game(dir.path());
    edit_replay(&game, |r| r["turns"][3]["states"][1]["score"] = 999.into());
    let err = view::load(&game.join("replay.json")).unwrap_err();
    assert!(err.contains("replay.json: turn 3: player 1's score"), "{err}");
    let err = one_line_error(&run(&["view", game.to_str().unwrap()]));
    assert!(err.contains("turn 3"), "{err}");

    let game = recorded_chain_game(&dir.path().join("again"));
    edit_replay(&game, |r| r["turns"][1]["states"][0]["field"][15] = "2........1".into());
    let err = view::load(&game.join("replay.json")).unwrap_err();
    assert!(err.contains("turn 1: player 0's field row 16"), "{err}");
}

#[test]
fn replays_without_packs_take_them_from_the_bot_input() {
    let dir = tempfile::tempdir().unwrap();
    let game = recorded_chain_game(dir.path());
    let with_packs = view::load(&game.join("replay.json")).unwrap();
    edit_replay(&game, |r| {
        let r = r.as_object_mut().unwrap();
        r.remove("packs");
        r.remove("time_limit_ms");
    });
    let without = view::load(&game.join("replay.json")).unwrap();
    assert_eq!(serde_json::to_value(&without).unwrap(), serde_json::to_value(&with_packs).unwrap());

    for name in ["input-p0.txt", "input-p1.txt"] {
        std::fs::remove_file(game.join(name)).unwrap();
    }
    let err = view::load(&game.join("replay.json")).unwrap_err();
    assert!(err.contains("no packs") && err.contains("input-p0.txt"), "{err}");
}

#[test]
fn the_page_is_self_contained() {
    let dir = tempfile::tempdir().unwrap();
    let game = recorded_chain_game(dir.path());
    let html = std::fs::read_to_string(game.join("game.html")).unwrap();
    for external in ["http://", "https://", "src=", "href=", "url(", "@import", "<link", "<iframe", "<img"] {
        assert!(!html.contains(external), "the page holds {external:?}");
    }
    assert!(html.starts_with("<!doctype html>"));
    // Three scripts, all inline: the error hook, the game data, the viewer.
    assert_eq!(html.matches("<script").count(), 3);
    assert_eq!(html.matches("</script>").count(), 3);
    assert!(html.contains(r#""names":["zero","zero"]"#));
}

#[test]
fn a_name_with_markup_cannot_end_the_data_script() {
    let dir = tempfile::tempdir().unwrap();
    let game = recorded_chain_game(dir.path());
    edit_replay(&game, |r| r["result"]["names"][0] = "</script><b>x".into());
    let html = view::render(&view::load(&game.join("replay.json")).unwrap());
    assert_eq!(html.matches("</script>").count(), 3);
    assert!(html.contains(r#""names":["\u003c/script>\u003cb>x","zero"]"#));
}

#[test]
fn view_writes_beside_the_replay_or_where_told() {
    let dir = tempfile::tempdir().unwrap();
    let game = recorded_chain_game(dir.path());
    std::fs::remove_file(game.join("game.html")).unwrap();
    let out = run(&["view", game.join("replay.json").to_str().unwrap()]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(game.join("game.html").is_file());
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), game.join("game.html").to_str().unwrap());

    let elsewhere = dir.path().join("elsewhere.html");
    let out = run(&["view", game.to_str().unwrap(), "-o", elsewhere.to_str().unwrap()]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(std::fs::read(&elsewhere).unwrap(), std::fs::read(game.join("game.html")).unwrap());
}

#[test]
fn a_missing_or_bad_replay_is_a_one_line_error() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("no-such-replay.json");
    let err = one_line_error(&run(&["view", missing.to_str().unwrap()]));
    assert!(err.contains("no-such-replay.json"), "{err}");

    let bad = dir.path().join("bad.json");
    std::fs::write(&bad, "{\"result\": [1, 2").unwrap();
    let err = one_line_error(&run(&["view", bad.to_str().unwrap()]));
    assert!(err.contains("bad.json: not a replay"), "{err}");

    let empty_dir = dir.path().join("empty");
    std::fs::create_dir(&empty_dir).unwrap();
    let err = one_line_error(&run(&["view", empty_dir.to_str().unwrap()]));
    assert!(err.contains("replay.json"), "{err}");
}
