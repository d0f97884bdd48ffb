//! Helpers shared by the integration tests: building protocol input streams, finding tools.
#![allow(dead_code)]

use std::ops::RangeInclusive;
use std::path::{Path, PathBuf};
use std::process::Command;

use codevs_reborn::protocol::{write_turn, Next, PlayerInput, Reader, TurnInput};
use codevs_reborn::rules::{Action, Field, Packs, Simulator, GARBAGE_ROW};
use codevs_reborn::search::chain::{Line, Menu};
use codevs_reborn::state::TurnState;

/// The repository's data folder (real pack files, simulator workloads).
pub fn data() -> PathBuf {
    PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/data"))
}

/// A real pack file's text.
pub fn pack_text(index: usize) -> String {
    std::fs::read_to_string(data().join(format!("packs/pack_{index:04}.pack"))).expect("shipped pack file")
}

/// A real game's turn kept in `tests/positions`: its packs and that turn's input (the text the
/// bot read, cut to the one turn).
pub fn position(name: &str) -> (Packs, TurnInput) {
    let path = PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/positions")).join(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut reader = Reader::new(text.as_bytes());
    let packs = reader.read_packs().expect("packs");
    let Ok(Next::Turn(input)) = reader.read_next() else { panic!("{name}: a turn's input after the packs") };
    (packs, *input)
}

/// The links `action` fires on our field this turn.
pub fn links_of<S: Simulator>(state: &TurnState<'_, S>, action: Action) -> u32 {
    state.me.field.clone().apply(state.pack(), action).links
}

/// A player's input with the given field picture.
pub fn player(field: &str, garbage: u32, gauge: u32) -> PlayerInput {
    PlayerInput {
        time_left_ms: 180_000,
        garbage,
        gauge,
        score: 0,
        field: field.parse::<Field>().expect("field picture"),
    }
}

/// One turn's protocol text.
pub fn turn_text(turn: usize, me: PlayerInput, opponent: PlayerInput) -> String {
    let mut out = Vec::new();
    write_turn(&mut out, &TurnInput { turn, me, opponent }).unwrap();
    String::from_utf8(out).unwrap()
}

/// A game's stream: packs then `turns` turns on empty fields.
pub fn game_text(packs: &Packs, turns: usize) -> String {
    let mut s = packs.to_string();
    for t in 0..turns {
        s += &turn_text(t, player("", 0, 0), player("", 0, 0));
    }
    s
}

/// The rule book's worked example: the skill explodes exactly five blocks here (33 points) — the
/// 5, the 2s above and below it, and the 2 and 3 beside it (the garbage is two rows down, out of
/// reach) — and the column then falls three rows into five links (9 points): 1–9, 2–8, 3–7,
/// 4–6, 7–3. Sends 16 + 4 = 20 garbage.
pub const FIVE_AND_FIVE: &str = "
    3.........
    6.........
    7.........
    8.........
    9.........
    2.........
    53........
    22........
    1#........
    2#........
    3#........
    4#........
    7#........";

/// A reachable field: drops chosen by `choices` (position and rotation packed in one byte) from
/// `packs`, stopping before death.
pub fn grown_field(packs: &Packs, choices: &[u8]) -> Field {
    let mut field = Field::empty();
    for (t, &c) in choices.iter().enumerate() {
        let mut next = field;
        next.drop_pack(packs.get(t), c % 9, c / 9 % 4);
        if next.is_dead() {
            break;
        }
        field = next;
    }
    field
}

/// Replays every menu line on the reference engine from `field` at the menu's turn with
/// `garbage` to fall: each build keeps to `positions`, fires at most `build_chain_max`, never
/// dies and meets the field the line expected, and the last move fires the chain promised.
pub fn check_menu_replays(
    menu: &Menu,
    field: &Field,
    packs: &Packs,
    garbage: u32,
    positions: &RangeInclusive<u8>,
    build_chain_max: u32,
) {
    let replay = |line: &Line, d: usize| -> Field {
        assert_eq!(line.builds.len(), d, "the entry at depth {d} builds for {d} turns");
        let mut field = *field;
        let mut stock = garbage;
        assert_eq!(field, line.expected[0]);
        for (step, &action) in line.builds.iter().enumerate() {
            let turn = menu.start_turn + step;
            assert!(matches!(action, Action::Drop { x, .. } if positions.contains(&x)), "turn {turn}: {action}");
            let outcome = field.apply(packs.get(turn), action);
            assert!(outcome.links <= build_chain_max, "turn {turn}: a build fired {} links", outcome.links);
            assert!(!field.is_dead(), "turn {turn}: the line dies");
            if stock >= GARBAGE_ROW {
                field.drop_garbage_row();
                stock -= GARBAGE_ROW;
            }
            assert_eq!(field, line.expected[step + 1], "turn {}: not the field the line expected", turn + 1);
        }
        let turn = menu.start_turn + d;
        let promised = line.fires.last().copied().flatten().expect("an entry has a fire");
        let mut fired = field;
        let outcome = fired.apply(packs.get(turn), promised.action);
        assert_eq!(outcome.links, promised.chain.links, "turn {turn}: the promised chain");
        assert_eq!(outcome.vanished, promised.chain.vanished, "turn {turn}: the promised blocks");
        field
    };
    let mut checked = 0;
    for (d, line) in menu.entries.iter().enumerate() {
        let Some(line) = line else { continue };
        assert_eq!(line.fires.last().copied().flatten(), menu.fire(d), "the entry's fire is its line's last");
        replay(line, d);
        checked += 1;
    }
    assert!(checked >= 10, "only {checked} menu entries");
    // The lines for a row falling first: the same promise, and the chain under the row is the
    // best any placement fires once the row has fallen (the reference engine's count).
    for (d, line) in menu.under_row.iter().enumerate() {
        let Some(line) = line else { continue };
        let mut buried = replay(line, d);
        buried.drop_garbage_row();
        let turn = menu.start_turn + d;
        let best = Action::drops()
            .map(|action| {
                let mut probe = buried;
                let outcome = probe.apply(packs.get(turn), action);
                if probe.is_dead() {
                    0
                } else {
                    outcome.links
                }
            })
            .max();
        assert_eq!(line.under_row, best.filter(|&l| l > 0), "turn {turn}: the chain under a row");
    }
}

/// The file `tool` names on PATH, if any.
pub fn find_on_path(tool: &str) -> Option<PathBuf> {
    let paths = std::env::var_os("PATH")?;
    std::env::split_paths(&paths).map(|dir| dir.join(tool)).find(|p| p.is_file())
}

/// Whether every tool is on PATH; when one is not, a note that `test` is skipped (it then
/// passes), or a failure when `CI` is set: CI must run it.
pub fn tools_present(tools: &[&str], test: &str) -> bool {
    let missing: Vec<&str> = tools.iter().copied().filter(|tool| find_on_path(tool).is_none()).collect();
    if missing.is_empty() {
        return true;
    }
    assert!(std::env::var_os("CI").is_none(), "CI must run {test}, but {missing:?} not found");
    eprintln!("note: skipping {test}: {missing:?} not found (with CI set this fails)");
    false
}

/// Runs git in `dir` with `args` as a plain unsigned commit by a test identity, whatever the
/// user's git config says; panics with git's stderr if it fails.
pub fn git(dir: &Path, args: &[&str]) {
    let out = Command::new("git")
        .current_dir(dir)
        .args([
            "-c",
            "user.name=codevs-reborn test",
            "-c",
            "user.email=test@codevs-reborn",
            "-c",
            "commit.gpgsign=false",
        ])
        .args(args)
        .output()
        .expect("git runs");
    assert!(out.status.success(), "git {args:?} failed: {}", String::from_utf8_lossy(&out.stderr));
}

/// A git work tree at `dir` holding `files` (path, text) in one commit.
pub fn commit_repo(dir: &Path, files: &[(&str, &str)]) {
    for (path, text) in files {
        let path = dir.join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
    git(dir, &["init", "-q"]);
    git(dir, &["add", "-A"]);
    git(dir, &["commit", "-q", "-m", "a made-up bot"]);
}
