//! The data the project ships (data/) and the defaults that read it: the copy built into the
//! binary is the files in the repository, and every default works from any folder.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use codevs_reborn::data::{bench_text, pack_set, BENCH_DIR, PACKS_DIR};
use codevs_reborn::protocol::read_pack_file;

const BIN: &str = env!("CARGO_BIN_EXE_codevs-reborn");

fn data() -> PathBuf {
    PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/data"))
}

#[test]
fn the_built_in_packs_are_the_files_of_data_packs() {
    let shipped = pack_set(None).unwrap();
    let on_disk = pack_set(Some(&data().join("packs"))).unwrap();
    assert_eq!(shipped.len(), 100, "the files 0000–0099");
    assert_eq!(shipped.len(), on_disk.len());
    for (i, ((label, packs), (path, disk))) in shipped.iter().zip(&on_disk).enumerate() {
        assert_eq!(label, &format!("{PACKS_DIR}/pack_{i:04}.pack"));
        assert!(path.ends_with(&format!("/pack_{i:04}.pack")), "{path}");
        assert_eq!(packs, disk, "{label}");
    }
    // One file given reads that file.
    let one = data().join("packs/pack_0007.pack");
    let read = pack_set(Some(&one)).unwrap();
    assert_eq!(read.len(), 1);
    assert_eq!(read[0].1, read_pack_file(&one).unwrap());
}

#[test]
fn the_built_in_workloads_are_the_files_of_data_bench() {
    for name in [
        "sim-positions-random.txt",
        "sim-positions-random.expected",
        "sim-positions-chains.txt",
        "sim-positions-chains.expected",
    ] {
        let disk = std::fs::read_to_string(data().join("bench").join(name)).unwrap();
        assert_eq!(bench_text(None, name).unwrap(), disk, "{name}");
        assert_eq!(bench_text(Some(&data().join("bench")), name).unwrap(), disk, "{name}");
    }
    let missing = bench_text(None, "nothing.txt").unwrap_err();
    assert_eq!(missing, format!("{BENCH_DIR}/nothing.txt: not among the shipped workloads"));
}

fn run_in(dir: &Path, args: &[&str]) -> (String, String) {
    let out = Command::new(BIN).args(args).current_dir(dir).stdin(Stdio::null()).output().expect("the binary runs");
    let (stdout, stderr) = (String::from_utf8_lossy(&out.stdout).into_owned(), String::from_utf8_lossy(&out.stderr));
    assert!(out.status.success(), "{args:?} failed: {stderr}");
    (stdout, stderr.into_owned())
}

#[test]
fn defaults_find_the_data_from_any_folder() {
    // A folder with nothing in it: the arena's packs and the benchmarks' data are built in.
    let dir = tempfile::tempdir().unwrap();
    let greedy = format!("{BIN} --strategy greedy");
    let json = dir.path().join("games.jsonl");
    run_in(dir.path(), &["arena", "--p0", &greedy, "--p1", &greedy, "--games", "2", "--json", json.to_str().unwrap()]);
    let lines = std::fs::read_to_string(&json).unwrap();
    for line in lines.lines() {
        let game: serde_json::Value = serde_json::from_str(line).unwrap();
        assert_eq!(game["packs"], format!("{PACKS_DIR}/pack_0000.pack"));
    }
    let (sim, _) = run_in(dir.path(), &["bench", "sim", "--min-ms", "1", "--positions", "20"]);
    assert!(sim.contains("sim-positions-chains: 181 positions, all expected results match"), "{sim}");
    assert!(sim.contains(&format!("from {PACKS_DIR} (seed")), "{sim}");
}

#[test]
fn version_names_the_crate() {
    let (out, _) = run_in(Path::new("."), &["--version"]);
    assert_eq!(out.trim(), format!("codevs-reborn {}", env!("CARGO_PKG_VERSION")));
}

#[test]
fn the_shipped_books_lead_to_their_positions() {
    // read_book plays every position's moves by the rules and compares the state they reach.
    let mut found = 0;
    for entry in std::fs::read_dir(data().join("books")).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "jsonl") {
            let book = codevs_reborn::book::read_book(&path).unwrap();
            assert!(book.len() >= 40, "{}: {} positions", path.display(), book.len());
            found += 1;
        }
    }
    assert!(found >= 2, "the books of data/books");
}
