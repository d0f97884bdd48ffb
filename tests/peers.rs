//! scripts/peers.sh without the network: it fetches made-up bots laid out as two of the 2019
//! sparring partners (colun's `run.cpp`, togatoga's Rust crate `togatog_ai`) from git repositories
//! made here, builds them outside the project, and the gauntlet plays what it built; it names
//! every missing tool before building anything, keeps the sources when asked (`--keep-source`,
//! for scripts/simcmp.sh), and refuses bad usage.
//!
//! Without git, g++ or cargo the building test prints a note and passes, unless `CI` is set: CI
//! must run it.

use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use serde_json::Value;

mod common;

const BIN: &str = env!("CARGO_BIN_EXE_codevs-reborn");
const SCRIPT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/scripts/peers.sh");

/// A bot laid out as colun's: one `run.cpp` at the top. It uses `std::array` without including
/// `<array>`, as colun's code does, so it builds only with the script's `-include array`.
const COLUN_RUN_CPP: &str = r#"#include <iostream>
#include <string>

// Prints its name, then drops each pack in the next column: a legal move every turn.
int main() {
    std::cout << "fakecolun" << std::endl;
    std::string word;
    for (int i = 0; i < 500 * 5; ++i) {  // 500 packs: two rows of two numbers, then END
        if (!(std::cin >> word)) return 0;
    }
    std::array<int, 4> rotations{{0, 1, 2, 3}};
    int turn;
    while (std::cin >> turn) {
        for (int i = 0; i < 2 * (4 + 16 * 10 + 1); ++i) {  // both players: 4 numbers, field, END
            if (!(std::cin >> word)) return 0;
        }
        std::cout << turn % 9 << " " << rotations[turn % 4] << std::endl;
    }
}
"#;

/// A crate laid out as togatoga's: a binary named togatog_ai (no dependencies, so it builds
/// offline) and a `.cargo` config the script must remove (togatoga's names a musl linker; this
/// one would send the build to another target).
const TOGA_CARGO_TOML: &str = r#"[package]
name = "togatog_ai"
version = "0.1.0"
edition = "2021"

[dependencies]
"#;
const TOGA_CARGO_CONFIG: &str = "[build]\ntarget = \"x86_64-unknown-linux-musl\"\n";
const TOGA_MAIN_RS: &str = r#"use std::io::{self, BufRead, Write};

// Prints its name, then drops each pack one column further than the turn before.
fn main() {
    let stdin = io::stdin();
    let mut words = stdin
        .lock()
        .lines()
        .map_while(Result::ok)
        .flat_map(|line| line.split_whitespace().map(String::from).collect::<Vec<_>>());
    let mut out = io::stdout();
    writeln!(out, "faketoga").unwrap();
    out.flush().unwrap();
    // 500 packs: two rows of two numbers, then END.
    if words.by_ref().take(500 * 5).count() < 500 * 5 {
        return;
    }
    while let Some(turn) = words.next() {
        let turn: usize = turn.parse().expect("a turn number");
        // Both players: 4 numbers, the field's 16 rows of 10, END.
        if words.by_ref().take(2 * (4 + 16 * 10 + 1)).count() < 2 * (4 + 16 * 10 + 1) {
            return;
        }
        writeln!(out, "{} {}", (turn + 4) % 9, turn % 4).unwrap();
        out.flush().unwrap();
    }
}
"#;

/// Whether every tool a building test needs is on PATH (see [`common::tools_present`]).
fn tools_present(tools: &[&str]) -> bool {
    common::tools_present(tools, "the peers.sh build test")
}

fn run_script(args: &[&str], tmp: &Path) -> Output {
    Command::new(SCRIPT)
        .args(args)
        .env("TMPDIR", tmp) // its scratch sources go where the test cleans up
        .stdin(Stdio::null())
        .output()
        .expect("scripts/peers.sh runs")
}

fn is_executable(path: &Path) -> bool {
    fs::metadata(path).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

#[test]
fn builds_made_up_peers_from_local_repositories_and_the_gauntlet_plays_them() {
    if !tools_present(&["git", "g++", "cargo"]) {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let colun_repo = tmp.path().join("colun");
    common::commit_repo(&colun_repo, &[("run.cpp", COLUN_RUN_CPP), ("README.md", "a made-up colun\n")]);
    let toga_repo = tmp.path().join("toga");
    common::commit_repo(
        &toga_repo,
        &[("Cargo.toml", TOGA_CARGO_TOML), (".cargo/config.toml", TOGA_CARGO_CONFIG), ("src/main.rs", TOGA_MAIN_RS)],
    );
    // togatoga's comes as a URL to clone (file://, so --depth 1 applies), colun's as a work tree.
    let toga_bare = tmp.path().join("toga.git");
    common::git(tmp.path(), &["clone", "-q", "--bare", toga_repo.to_str().unwrap(), toga_bare.to_str().unwrap()]);

    let out_dir = tmp.path().join("peers");
    // An earlier build's leftovers: building colun again must replace its folder.
    fs::create_dir_all(out_dir.join("colun")).unwrap();
    fs::write(out_dir.join("colun/stale.txt"), "from an earlier build").unwrap();
    let colun_source = format!("colun={}", colun_repo.display());
    let toga_source = format!("toga=file://{}", toga_bare.display());
    let out = run_script(
        &["--out", out_dir.to_str().unwrap(), "--source", &colun_source, "--source", &toga_source, "colun", "toga"],
        tmp.path(),
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "peers.sh failed:\n{stderr}");

    for name in ["colun", "toga"] {
        let run = out_dir.join(name).join("run");
        assert!(is_executable(&run), "{} is not an executable file\n{stderr}", run.display());
        let built_from = fs::read_to_string(out_dir.join(name).join("source.txt")).unwrap();
        assert!(built_from.contains("commit: "), "{name}'s source.txt names no commit: {built_from}");
    }
    assert!(!out_dir.join("colun/stale.txt").exists(), "a rebuilt bot's folder must be replaced");
    assert!(!out_dir.join("colun/run.cpp").exists(), "the sources are deleted after the build");
    let mut entries: Vec<String> =
        fs::read_dir(&out_dir).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    entries.sort();
    assert_eq!(entries, ["colun", "opponents.txt", "toga"], "only the bots and the opponents file are left");

    let opponents = out_dir.join("opponents.txt");
    let listed = fs::read_to_string(&opponents).unwrap();
    let lines: Vec<&str> = listed.lines().filter(|l| !l.starts_with('#')).collect();
    let expected =
        [format!("toga=exec {}/toga/run", out_dir.display()), format!("colun=exec {}/colun/run", out_dir.display())];
    assert_eq!(lines, expected, "opponents.txt:\n{listed}");
    assert!(stdout.contains(&format!("# {}", opponents.display())), "stdout names the opponents file:\n{stdout}");
    assert!(stdout.contains(&expected[0]) && stdout.contains(&expected[1]), "stdout shows its lines:\n{stdout}");

    // Both built bots play a pair of games each against our greedy bot, to the end, fault-free.
    let json = tmp.path().join("gauntlet.jsonl");
    let bot = format!("{BIN} --strategy greedy");
    let played = Command::new(BIN)
        .args(["gauntlet", "--bot", &bot, "--opponents", opponents.to_str().unwrap(), "--seed", "1", "--pairs", "1"])
        .args(["--time-ms", "18000", "--turn-ms", "2000", "--no-pin", "--json", json.to_str().unwrap()])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(played.status.success(), "gauntlet failed: {}", String::from_utf8_lossy(&played.stderr));
    let games: Vec<Value> =
        fs::read_to_string(&json).unwrap().lines().map(|l| serde_json::from_str(l).expect("a JSON line")).collect();
    assert_eq!(games.len(), 4, "a pair against each of the two bots");
    for game in &games {
        let their_seat = 1 - game["our_seat"].as_u64().unwrap() as usize;
        let expected_name = format!("fake{}", game["opponent"].as_str().unwrap());
        assert_eq!(game["names"][their_seat], expected_name.as_str(), "{game}");
        assert!(game["faults"][their_seat].is_null(), "the built bot faulted: {game}");
        assert!(game["turns"].as_u64().unwrap() >= 5, "a game of a few turns at least: {game}");
    }
}

#[test]
fn keep_source_leaves_the_sources_as_built_beside_the_bot() {
    if !tools_present(&["git", "g++"]) {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let colun_repo = tmp.path().join("colun");
    common::commit_repo(&colun_repo, &[("run.cpp", COLUN_RUN_CPP)]);
    let out_dir = tmp.path().join("peers");
    let source = format!("colun={}", colun_repo.display());
    let out =
        run_script(&["--out", out_dir.to_str().unwrap(), "--source", &source, "--keep-source", "colun"], tmp.path());
    assert!(out.status.success(), "peers.sh failed:\n{}", String::from_utf8_lossy(&out.stderr));
    assert!(is_executable(&out_dir.join("colun/run")));
    assert_eq!(fs::read_to_string(out_dir.join("colun/src/run.cpp")).unwrap(), COLUN_RUN_CPP);
}

#[test]
fn a_failed_fetch_names_the_bot_exits_1_and_keeps_its_old_folder() {
    if !tools_present(&["git", "g++"]) {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let not_a_repo = tmp.path().join("empty");
    fs::create_dir(&not_a_repo).unwrap();
    let out_dir = tmp.path().join("peers");
    fs::create_dir_all(out_dir.join("colun")).unwrap();
    fs::write(out_dir.join("colun/run"), "#!/bin/sh\n# an earlier build\n").unwrap();
    fs::set_permissions(out_dir.join("colun/run"), fs::Permissions::from_mode(0o755)).unwrap();
    let source = format!("colun={}", not_a_repo.display());
    let out = run_script(&["--out", out_dir.to_str().unwrap(), "--source", &source, "colun"], tmp.path());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains(&format!("peers.sh: colun: {} is not a git directory", not_a_repo.display())), "{stderr}");
    assert!(stderr.lines().last().unwrap().ends_with("failed to build: colun"), "{stderr}");
    assert_eq!(fs::read_to_string(out_dir.join("colun/run")).unwrap(), "#!/bin/sh\n# an earlier build\n");
    // The earlier build is still listed; no half-built folder or scratch sources are left.
    assert!(fs::read_to_string(out_dir.join("opponents.txt")).unwrap().contains("colun=exec "));
    let leftovers: Vec<_> = fs::read_dir(&out_dir)
        .unwrap()
        .chain(fs::read_dir(tmp.path()).unwrap())
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| name.contains("building") || name.starts_with("peers-"))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
}

#[test]
fn names_every_missing_tool_and_builds_nothing() {
    let tmp = tempfile::tempdir().unwrap();
    // A PATH holding git and g++ (stubs: the script only looks them up) but no cargo or JDK.
    let path_dir = tmp.path().join("bin");
    fs::create_dir(&path_dir).unwrap();
    for tool in ["git", "g++"] {
        let stub = path_dir.join(tool);
        fs::write(&stub, "#!/bin/sh\nexit 1\n").unwrap();
        fs::set_permissions(&stub, fs::Permissions::from_mode(0o755)).unwrap();
    }
    let bash = common::find_on_path("bash").unwrap_or_else(|| PathBuf::from("/bin/bash"));
    let out_dir = tmp.path().join("peers");
    let out = Command::new(bash)
        .args([SCRIPT, "--out", out_dir.to_str().unwrap(), "toga", "kera", "colun"])
        .env("PATH", &path_dir)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "peers.sh: toga needs cargo (Rust), not found\n\
         peers.sh: kera needs javac (a JDK), not found\n\
         peers.sh: kera needs java (a Java runtime), not found\n"
    );
    assert!(out.stdout.is_empty());
    assert!(!out_dir.exists(), "nothing is built, not even the output folder");
}

#[test]
fn refuses_bad_usage_with_one_line() {
    let tmp = tempfile::tempdir().unwrap();
    for (args, message) in [
        (&["nobody"][..], "peers.sh: unknown bot 'nobody'"),
        (&["--source", "nobody=/tmp/x"][..], "peers.sh: --source wants NAME=URL or NAME=GITDIR"),
        (&["--source", "colun"][..], "peers.sh: --source wants NAME=URL or NAME=GITDIR"),
        (&["--march", "x86-64 -v3"][..], "peers.sh: --march wants a CPU name"),
        (&["--out"][..], "peers.sh: --out needs a value"),
        (&["--jobs", "2"][..], "peers.sh: unknown option --jobs"),
    ] {
        let out = run_script(args, tmp.path());
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.starts_with(message) && stderr.lines().count() == 1, "{args:?}: {stderr}");
    }
    let help = run_script(&["--help"], tmp.path());
    assert!(help.status.success());
    assert!(String::from_utf8_lossy(&help.stdout).starts_with("Usage: scripts/peers.sh"));
}
