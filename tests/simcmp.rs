//! scripts/simcmp.sh without the network: it builds its togatoga harness against a made-up crate
//! laid out as togatoga's (`togatog_ai`'s `Board`, `Pack` and `Simulator`), times it beside our
//! `bench sim` on the shipped workloads, prints the table, and refuses the figures of a simulator
//! whose signature differs from ours; and it refuses bad usage with one line.
//!
//! Without cargo the building test prints a note and passes, unless `CI` is set: CI must run it.

use std::fs;
use std::path::Path;
use std::process::{Command, Output, Stdio};

mod common;

const BIN: &str = env!("CARGO_BIN_EXE_codevs-reborn");
const SCRIPT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/scripts/simcmp.sh");

/// A crate with togatoga's simulator API whose simulator is wrong on purpose: every placement
/// "chains" one link and nothing dies, so its links cannot match ours (no dependencies: it
/// builds offline).
const FAKE_TOGA_CARGO_TOML: &str = "[package]\nname = \"togatog_ai\"\nversion = \"0.1.0\"\nedition = \"2021\"\n";
const FAKE_TOGA_LIB_RS: &str = r#"pub mod board {
    #[derive(Clone, Copy)]
    pub struct Board(pub [[u8; 10]; 16]);
    impl Board {
        pub fn new(rows: [[u8; 10]; 16]) -> Board { Board(rows) }
        pub fn is_game_over(&self) -> bool { false }
    }
}
pub mod pack {
    #[derive(Clone, Copy)]
    pub struct Pack(pub [u8; 4]);
    impl Pack {
        pub fn new(blocks: &[u8; 4]) -> Pack { Pack(*blocks) }
        pub fn rotates(&mut self, _count: usize) {}
        pub fn drop(&mut self) {}
    }
}
pub mod simulator {
    pub struct Simulator;
    impl Simulator {
        pub fn new() -> Simulator { Simulator }
        pub fn simulate(&mut self, _board: &mut crate::board::Board, _x: usize, _pack: &crate::pack::Pack) -> u8 { 1 }
    }
}
"#;

fn run_script(args: &[&str]) -> Output {
    Command::new(SCRIPT).args(args).stdin(Stdio::null()).output().expect("scripts/simcmp.sh runs")
}

fn write(path: &Path, text: &str) {
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    fs::write(path, text).unwrap();
}

#[test]
fn times_a_peer_beside_ours_and_refuses_a_simulator_that_disagrees() {
    if !common::tools_present(&["cargo"], "the simcmp.sh build test") {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let peers = tmp.path().join("peers");
    write(&peers.join("toga/src/Cargo.toml"), FAKE_TOGA_CARGO_TOML);
    write(&peers.join("toga/src/src/lib.rs"), FAKE_TOGA_LIB_RS);
    let out = run_script(&["--peers", peers.to_str().unwrap(), "--bin", BIN, "--min-ms", "1", "toga"]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "the made-up simulator's links differ from ours:\n{stdout}\n{stderr}");
    // The table: a header and one row a workload, our signature from `bench sim` (the shipped
    // chains workload: 181 positions, 36 placements each, 11 508 links, no death).
    let rows: Vec<Vec<&str>> = stdout.lines().map(|l| l.split_whitespace().collect()).collect();
    assert_eq!(rows.len(), 3, "{stdout}");
    assert_eq!(rows[0], ["workload", "placements", "links", "dead", "codevs-reborn_ns", "toga_ns", "slower"]);
    assert_eq!(rows[2][..4], ["sim-positions-chains", "6516", "11508", "0"], "{stdout}");
    for row in &rows[1..] {
        assert!(row[4].parse::<f64>().is_ok_and(|ns| ns > 0.0), "our ns a placement: {row:?}");
        assert!(row[6].ends_with('x'), "{row:?}");
    }
    assert!(
        stderr.contains(
            "simcmp.sh: toga: sim-positions-chains: signature 6516 placements, 6516 links, 0 dead; ours 6516, 11508, 0"
        ),
        "{stderr}"
    );
    assert!(stderr
        .lines()
        .last()
        .unwrap()
        .ends_with("a simulator disagrees with ours: its figures are not comparable"));
    assert!(peers.join("toga/simcmp/harness").is_file(), "the harness is built beside the peer's sources");
}

#[test]
fn refuses_bad_usage_with_one_line() {
    let tmp = tempfile::tempdir().unwrap();
    let empty = tmp.path().to_str().unwrap();
    for (args, message) in [
        (&["nobody"][..], "simcmp.sh: unknown bot 'nobody'".to_string()),
        (&["--min-ms", "0"][..], "simcmp.sh: --min-ms wants a number of milliseconds".to_string()),
        (&["--peers"][..], "simcmp.sh: --peers needs a value".to_string()),
        (&["--jobs", "2"][..], "simcmp.sh: unknown option --jobs".to_string()),
        (
            &["--bin", "/nonexistent/codevs-reborn"][..],
            "simcmp.sh: no binary at /nonexistent/codevs-reborn".to_string(),
        ),
        (
            &["--bin", BIN, "--peers", empty, "ysgeso"][..],
            format!("simcmp.sh: no sources of ysgeso in {empty}/ysgeso/src: run scripts/peers.sh --keep-source"),
        ),
    ] {
        let out = run_script(args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.starts_with(&message) && stderr.lines().count() == 1, "{args:?}: {stderr}");
    }
    let help = run_script(&["--help"]);
    assert!(help.status.success());
    assert!(String::from_utf8_lossy(&help.stdout).starts_with("Usage: scripts/simcmp.sh"));
}
