//! scripts/device-pack.sh on a made-up crate: it builds the named revision, prints its bench
//! signature, packs it with the chosen partners (a Java runtime with kera), and the `play.sh` it
//! writes unpacks the pack, runs the built binary with the arguments given and hands back its
//! JSON lines and a tar of its work folder; bad usage and a missing partner are refused.
//!
//! Without git or cargo the building tests print a note and pass, unless `CI` is set: CI must
//! run them. The kera test needs a JDK (`jlink` beside `java`) and is skipped without one.

use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

mod common;

const SCRIPT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/scripts/device-pack.sh");

const CARGO_TOML: &str = "[package]\nname = \"codevs-reborn\"\nversion = \"0.1.0\"\nedition = \"2021\"\n";

/// A made-up `codevs-reborn`: `bench bot` prints a signature; any other subcommand writes what it
/// was given, and what `java -version` said where a runtime is on PATH, to `played.jsonl`.
const MAIN_RS: &str = r#"use std::process::Command;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().map(String::as_str) == Some("bench") {
        println!("bench: made up\nsignature: moves 00c0ffee00c0ffee");
        return;
    }
    let java = Command::new("java").arg("-version").output().map(|o| o.status.success()).unwrap_or(false);
    let line = format!("{{\"args\":{:?},\"java\":{java}}}\n", args.join(" "));
    std::fs::write("played.jsonl", line).unwrap();
}
"#;

/// A git work tree under `tmp` holding the made-up crate in one commit, tagged `made-up`.
fn made_up_repo(tmp: &Path) -> PathBuf {
    let repo = tmp.join("repo");
    common::commit_repo(&repo, &[("Cargo.toml", CARGO_TOML), ("src/main.rs", MAIN_RS)]);
    common::git(&repo, &["tag", "made-up"]);
    repo
}

/// A peers folder as scripts/peers.sh leaves it: `NAME/run` and a source folder not to pack.
fn made_up_peers(tmp: &Path, names: &[&str]) -> PathBuf {
    let peers = tmp.join("peers");
    for name in names {
        let dir = peers.join(name);
        fs::create_dir_all(dir.join("src")).unwrap();
        fs::write(dir.join("run"), "#!/bin/sh\nexec cat\n").unwrap();
        fs::set_permissions(dir.join("run"), fs::Permissions::from_mode(0o755)).unwrap();
    }
    peers
}

fn pack(repo: &Path, tmp: &Path, args: &[&str]) -> Output {
    Command::new(SCRIPT)
        .current_dir(repo)
        .args(args)
        .env("TMPDIR", tmp)
        .stdin(Stdio::null())
        .output()
        .expect("scripts/device-pack.sh runs")
}

/// The tools play.sh uses, all a lent machine is sure to have.
const BARE_TOOLS: &[&str] =
    &["bash", "cat", "cp", "dirname", "grep", "head", "ls", "mkdir", "nproc", "rm", "tar", "timeout", "wc", "xz"];

/// A PATH of those tools alone (links in a folder under `tmp`), as on a bare machine: no java.
fn bare_path(tmp: &Path) -> PathBuf {
    let bin = tmp.join("bare-bin");
    fs::create_dir_all(&bin).unwrap();
    for tool in BARE_TOOLS {
        let found = common::find_on_path(tool).unwrap_or_else(|| panic!("{tool} is on PATH"));
        std::os::unix::fs::symlink(found, bin.join(tool)).unwrap();
    }
    bin
}

/// Runs the written play.sh as the lent machine would, from the repository's root, on a bare
/// PATH; returns its $OUT folder.
fn play(repo: &Path, tmp: &Path, args: &[&str]) -> PathBuf {
    let out = tmp.join("out");
    fs::create_dir_all(&out).unwrap();
    let played = Command::new(common::find_on_path("bash").expect("bash is on PATH"))
        .env("PATH", bare_path(tmp))
        .current_dir(repo)
        .arg(".dev/play.sh")
        .args(args)
        .env("OUT", &out)
        .env("DEVICE_ROOT", tmp.join("device"))
        .stdin(Stdio::null())
        .output()
        .expect("play.sh runs");
    let stdout = String::from_utf8_lossy(&played.stdout);
    assert!(played.status.success(), "play.sh failed: {stdout}{}", String::from_utf8_lossy(&played.stderr));
    assert!(stdout.contains("exit status 0"), "{stdout}");
    out
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn packs_a_revision_and_a_partner_and_play_runs_them_there() {
    if !common::tools_present(&["git", "cargo", "tar", "xz"], "the device-pack.sh build test") {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let repo = made_up_repo(tmp.path());
    let peers = made_up_peers(tmp.path(), &["toga"]);
    let packed = pack(&repo, tmp.path(), &["--peers", peers.to_str().unwrap(), "main=made-up", "toga"]);
    let log = stderr(&packed);
    assert!(packed.status.success(), "{log}");
    assert!(log.contains("main: signature: moves 00c0ffee00c0ffee"), "{log}");
    assert!(repo.join(".dev/pack.tar.xz").is_file() && repo.join(".dev/play.sh").is_file());

    let out = play(&repo, tmp.path(), &["60", "gauntlet", "--seed", "1000752"]);
    let line = fs::read_to_string(out.join("played.jsonl")).unwrap();
    assert_eq!(line, "{\"args\":\"gauntlet --seed 1000752\",\"java\":false}\n");
    assert!(out.join("results.tar.xz").is_file());
    let device = tmp.path().join("device");
    assert!(device.join("peers/toga/run").is_file(), "the partner is unpacked where ARGS name it");
    assert!(!device.join("peers/toga/src").exists(), "a partner's sources stay behind");
    assert!(!device.join("jre").exists(), "no runtime without kera");
}

#[test]
fn packs_a_java_runtime_for_kera_that_play_puts_on_path() {
    if !common::tools_present(&["git", "cargo", "tar", "xz"], "the device-pack.sh kera test") {
        return;
    }
    let jlink = common::find_on_path("java")
        .and_then(|java| fs::canonicalize(java).ok())
        .map(|java| java.with_file_name("jlink"))
        .filter(|jlink| jlink.is_file());
    if jlink.is_none() {
        eprintln!("note: skipping the device-pack.sh kera test: no JDK (jlink beside java)");
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let repo = made_up_repo(tmp.path());
    let peers = made_up_peers(tmp.path(), &["kera"]);
    let packed = pack(&repo, tmp.path(), &["--peers", peers.to_str().unwrap(), "main=made-up", "kera"]);
    assert!(packed.status.success(), "{}", stderr(&packed));

    // play.sh runs on a PATH without this machine's java: the one found is the packed runtime.
    let out = play(&repo, tmp.path(), &["60", "gauntlet"]);
    let line = fs::read_to_string(out.join("played.jsonl")).unwrap();
    assert!(line.contains("\"java\":true"), "{line}");
    assert!(tmp.path().join("device/jre/bin/java").is_file());
}

#[test]
fn refuses_bad_usage_and_a_partner_not_built() {
    let tmp = tempfile::tempdir().unwrap();
    let help = pack(Path::new(env!("CARGO_MANIFEST_DIR")), tmp.path(), &["--help"]);
    assert!(help.status.success());
    assert!(String::from_utf8_lossy(&help.stdout).starts_with("Usage: scripts/device-pack.sh"));

    for (args, message) in [
        (&["toga"][..], "device-pack.sh: name at least one NAME=REV to build (see --help)\n"),
        (
            &["main=HEAD", "fred"][..],
            "device-pack.sh: unknown bot 'fred' (the bots: toga kera ysgeso colun) (see --help)\n",
        ),
        (&["main=HEAD", "--march"][..], "device-pack.sh: --march needs a value (see --help)\n"),
        (
            &["a b=HEAD"][..],
            "device-pack.sh: NAME=REV wants a name of letters, digits, _ and -, found 'a b=HEAD' (see --help)\n",
        ),
    ] {
        let out = pack(Path::new(env!("CARGO_MANIFEST_DIR")), tmp.path(), args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert_eq!(stderr(&out), message, "{args:?}");
    }

    if !common::tools_present(&["git", "cargo"], "the device-pack.sh missing-partner test") {
        return;
    }
    let repo = made_up_repo(tmp.path());
    let peers = made_up_peers(tmp.path(), &[]);
    let out = pack(&repo, tmp.path(), &["--peers", peers.to_str().unwrap(), "main=made-up", "ysgeso"]);
    assert_eq!(out.status.code(), Some(1));
    let expected =
        format!("no {}/ysgeso/run: build it with scripts/peers.sh --march x86-64-v3 ysgeso", peers.display());
    assert!(stderr(&out).contains(&expected), "{}", stderr(&out));
}
