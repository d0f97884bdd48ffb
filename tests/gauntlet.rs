//! The gauntlet end to end: the real binary playing the project's greedy bot against named
//! opponents (greedy again, and small `sh` bots that crash or print junk) on shared pack files, at
//! a short time control; plus its opponents-file parser, its core pinning, its shards (two run
//! under GNU parallel, then summarized together with --summary) and --summary's refusals.
//!
//! Without GNU parallel the sharded test prints a note and passes, unless `CI` is set: CI must run
//! it (`apt-get install -y parallel`).

use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};

use codevs_reborn::arena::bot::launch_command;
use codevs_reborn::arena::gauntlet::{parse_opponent, parse_opponents, parse_shard, planned_games, Opponent, Shard};
use codevs_reborn::arena::jobs::{parse_cpu_list, slot_cpus};
use serde_json::Value;

const BIN: &str = env!("CARGO_BIN_EXE_codevs-reborn");
const PACKS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/data/packs");

fn greedy() -> String {
    format!("{BIN} --strategy greedy")
}

/// A small beam search bounded by nodes, not time: deterministic, and unlike greedy self-play its
/// pairs are not mirrors.
fn small_beam() -> String {
    format!("{BIN} --strategy beam --node-budget 20000 --seed 1")
}

/// Prints its name, then exits: a crash in turn 0.
const CRASHER: &str = "echo crasher; exit 0";
/// Prints its name, then a line that is not a command: invalid in turn 0.
const JUNK: &str = "printf 'junk\\nhello there\\n'; cat > /dev/null";

fn gauntlet(args: &[&str]) -> Output {
    Command::new(BIN).arg("gauntlet").args(args).stdin(Stdio::null()).output().expect("the binary runs")
}

/// Runs a gauntlet at a short control, unpinned, on `packs`; checks it succeeded and returns stdout.
fn run_ok(packs: &str, extra: &[&str]) -> String {
    let bot = greedy();
    let mut args = vec!["--bot", &bot, "--packs", packs, "--time-ms", "5000", "--turn-ms", "1000", "--no-pin"];
    args.extend(extra);
    let out = gauntlet(&args);
    let stdout = String::from_utf8_lossy(&out.stdout).to_string();
    assert!(out.status.success(), "gauntlet failed: {}\n{stdout}", String::from_utf8_lossy(&out.stderr));
    stdout
}

/// One pair of games (with `extra` arguments) of greedy against the crasher on pack file 0000,
/// into the JSON file `json`; the gauntlet's stdout.
fn one_pair_against_the_crasher(json: &std::path::Path, extra: &[&str]) -> String {
    let opponent = format!("crasher={CRASHER}");
    let args = ["--opponent", &opponent, "--pairs", "1", "--json", json.to_str().unwrap()];
    run_ok(&format!("{PACKS}/pack_0000.pack"), &[args.as_slice(), extra].concat())
}

/// A temporary folder holding a `packs` folder with the first two shared pack files.
fn two_pack_files() -> (tempfile::TempDir, std::path::PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let packs = dir.path().join("packs");
    std::fs::create_dir(&packs).unwrap();
    for i in 0..2 {
        let name = format!("pack_{i:04}.pack");
        std::fs::copy(Path::new(PACKS).join(&name), packs.join(&name)).unwrap();
    }
    (dir, packs)
}

fn json_lines(path: &Path) -> Vec<Value> {
    let text = std::fs::read_to_string(path).unwrap();
    text.lines().map(|l| serde_json::from_str(l).expect("each line is JSON")).collect()
}

/// A table line's cells (two spaces or more apart).
fn cells(line: &str) -> Vec<String> {
    line.split("  ").map(str::trim).filter(|c| !c.is_empty()).map(str::to_string).collect()
}

/// The summary table's row for `name`, split into its cells.
fn row(stdout: &str, name: &str) -> Vec<String> {
    let line = stdout.lines().find(|l| l.split_whitespace().next() == Some(name)).unwrap_or_else(|| {
        panic!("no row for {name} in\n{stdout}");
    });
    cells(line)
}

/// The summary table's rows after its header, split into cells, with the columns that depend on
/// wall time or memory (the time medians, the peak RSS) masked as `*`.
fn table_without_times(stdout: &str) -> Vec<Vec<String>> {
    let mut lines = stdout.lines().skip_while(|l| !l.starts_with("opponent  games"));
    let header = cells(lines.next().unwrap_or_else(|| panic!("no summary table in\n{stdout}")));
    let masked: Vec<bool> =
        header.iter().map(|h| ["our time (median)", "their time", "our peak RSS"].contains(&h.as_str())).collect();
    assert_eq!(masked.iter().filter(|&&m| m).count(), 3, "{header:?}");
    lines
        .map(cells)
        .take_while(|r| r.len() == header.len())
        .map(|r| r.into_iter().zip(&masked).map(|(cell, &m)| if m { "*".to_string() } else { cell }).collect())
        .collect()
}

/// (opponent, game index) of each line, in file order.
fn games_of(lines: &[Value]) -> Vec<(String, u64)> {
    lines.iter().map(|g| (g["opponent"].as_str().unwrap().to_string(), g["game"].as_u64().unwrap())).collect()
}

fn has_parallel() -> bool {
    Command::new("parallel").arg("--version").stdout(Stdio::null()).stderr(Stdio::null()).status().is_ok()
}

/// A line for the person running the tests, shown even when the harness captures output.
fn note(line: &str) {
    let _ = writeln!(std::io::stderr(), "{line}");
}

#[test]
fn opponents_file_lines() {
    let text = "# opponents\n\ngreedy = ./run.sh --strategy greedy\n  old_v1.2=cd ../old && exec ./run.sh --x=1\n";
    let parsed = parse_opponents(Path::new("opps.txt"), text).unwrap();
    assert_eq!(
        parsed,
        vec![
            Opponent { name: "greedy".into(), command: "./run.sh --strategy greedy".into() },
            Opponent { name: "old_v1.2".into(), command: "cd ../old && exec ./run.sh --x=1".into() },
        ]
    );
    for (bad, line) in [
        ("a=b\nno equals sign\n", 2),
        ("\n\n=cmd\n", 3),
        ("two words=cmd\n", 1),
        ("name=\n", 1),
        ("../up=cmd\n", 1),
        ("a=b\n# c\na=c\n", 3),
    ] {
        let err = parse_opponents(Path::new("opps.txt"), bad).unwrap_err();
        assert!(err.starts_with(&format!("opps.txt:{line}: ")), "{bad:?}: {err}");
        assert!(!err.contains('\n'));
    }
    assert!(parse_opponent("x").unwrap_err().contains("expected NAME=COMMAND"));

    // Through the binary: a one-line error naming the file and line, exit code 2.
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("opponents.txt");
    std::fs::write(&file, "ok=true\n\n# fine\nnot an opponent\n").unwrap();
    let out = gauntlet(&["--bot", "true", "--opponents", file.to_str().unwrap(), "--no-pin"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    assert!(err.contains(&format!("{}:4: expected NAME=COMMAND", file.display())), "{err}");
}

#[test]
fn pinning_commands() {
    let plain = launch_command("./run.sh --x", None);
    assert_eq!(plain.get_program(), "sh");
    assert_eq!(plain.get_args().collect::<Vec<_>>(), ["-c", "./run.sh --x"]);
    let pinned = launch_command("./run.sh --x", Some("2,3"));
    assert_eq!(pinned.get_program(), "taskset");
    assert_eq!(pinned.get_args().collect::<Vec<_>>(), ["-c", "2,3", "sh", "-c", "./run.sh --x"]);

    let cpus = [0, 1, 2, 3];
    assert_eq!(slot_cpus(&cpus, 2, 0).as_deref(), Some("0,1"));
    assert_eq!(slot_cpus(&cpus, 2, 1).as_deref(), Some("2,3"));
    assert_eq!(slot_cpus(&cpus, 2, 2), None);
    assert_eq!(slot_cpus(&cpus, 1, 3).as_deref(), Some("3"));
    assert_eq!(parse_cpu_list("0-2,5,7-8"), Some(vec![0, 1, 2, 5, 7, 8]));
    assert_eq!(parse_cpu_list("x"), None);

    // More cores than the machine has: an error unless --no-pin.
    let out = gauntlet(&["--bot", "true", "--opponent", "a=true", "--jobs", "4096", "--cpus-per-game", "1"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--no-pin"));
}

/// Where taskset exists, a pinned game's bots really run on the slot's core.
#[test]
fn pinned_games_run_on_their_core() {
    let has_taskset = Command::new("sh").args(["-c", "command -v taskset"]).output().is_ok_and(|o| o.status.success());
    if !has_taskset {
        eprintln!("taskset missing: skipped");
        return;
    }
    let status = std::fs::read_to_string("/proc/self/status").unwrap();
    let allowed = status.lines().find_map(|l| l.strip_prefix("Cpus_allowed_list:")).and_then(parse_cpu_list).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let replays = dir.path().join("replays");
    let shows_cpus = format!("aff=grep Cpus_allowed_list /proc/self/status >&2; exec {}", greedy());
    let out = gauntlet(&[
        "--bot",
        &greedy(),
        "--opponent",
        &shows_cpus,
        "--seed",
        "3",
        "--pairs",
        "1",
        "--jobs",
        "1",
        "--cpus-per-game",
        "1",
        "--replays",
        replays.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    // Game 0: the opponent is player 1.
    let stderr = std::fs::read_to_string(replays.join("aff/game-0000/stderr-p1.txt")).unwrap();
    assert_eq!(stderr.trim_end(), format!("Cpus_allowed_list:\t{}", allowed[0]));
}

#[test]
fn greedy_against_three_opponents() {
    let dir = tempfile::tempdir().unwrap();
    let opponents = dir.path().join("opponents.txt");
    std::fs::write(&opponents, format!("# deterministic self-play\ngreedy={}\n\ncrasher={CRASHER}\n", greedy()))
        .unwrap();
    let (json, replays) = (dir.path().join("games.jsonl"), dir.path().join("replays"));
    let pack = format!("{PACKS}/pack_0000.pack");
    let stdout = run_ok(
        &pack,
        &[
            "--opponents",
            opponents.to_str().unwrap(),
            "--opponent",
            &format!("junk={JUNK}"),
            "--pairs",
            "1",
            "--jobs",
            "2",
            "--json",
            json.to_str().unwrap(),
            "--replays",
            replays.to_str().unwrap(),
        ],
    );

    // Greedy against itself: each pair is one game played twice, so it scores 1-1 or 2 draws.
    let greedy_row = row(&stdout, "greedy");
    assert_eq!(greedy_row[1], "2", "{stdout}");
    assert!(["1-0-1", "0-2-0"].contains(&greedy_row[2].as_str()), "{stdout}");
    assert_eq!(greedy_row[3], "50.0%");
    assert_eq!(greedy_row[4], "[9.5%, 90.5%]", "{stdout}");
    assert_eq!(greedy_row[6..8], ["1", "1/1"], "{stdout}");
    assert_eq!(greedy_row[10], "- / -", "{stdout}");
    assert!(stdout.contains("mirror pairs: 1 pair(s)"), "{stdout}");
    for (name, fault) in [("crasher", "crash"), ("junk", "invalid")] {
        let r = row(&stdout, name);
        assert_eq!(r[1..5], ["2", "2-0-0", "100.0%", "[34.2%, 100.0%]"], "{stdout}");
        assert_eq!(r[7], "0/1", "{stdout}");
        assert_eq!(r[10], format!("- / {fault} 2"), "{stdout}");
    }
    let total = row(&stdout, "total");
    assert_eq!(total[1], "6", "{stdout}");

    let games = json_lines(&json);
    assert_eq!(games.len(), 6);
    for name in ["greedy", "crasher", "junk"] {
        let mut indices: Vec<u64> =
            games.iter().filter(|g| g["opponent"] == name).map(|g| g["game"].as_u64().unwrap()).collect();
        indices.sort();
        assert_eq!(indices, [0, 1], "{name}");
        for game in 0..2 {
            assert!(replays.join(format!("{name}/game-{game:04}/replay.json")).is_file(), "{name} {game}");
        }
    }
    for g in &games {
        let ours = g["our_seat"].as_u64().unwrap() as usize;
        assert_eq!(ours as u64, g["game"].as_u64().unwrap() % 2);
        assert_eq!(g["pair"], 0);
        assert_eq!(g["packs"], pack.as_str());
        assert_eq!(g["commands"][ours], greedy().as_str());
        assert!(g["cpus"].is_null(), "--no-pin");
        if cfg!(target_os = "linux") {
            let kib = g["peak_rss_kib"][ours].as_u64().expect("measured on Linux");
            assert!((1024..1 << 20).contains(&kib), "{g}");
        }
    }
}

#[test]
fn a_second_run_resumes_the_first() {
    let (dir, packs) = two_pack_files();
    let json = dir.path().join("games.jsonl");
    let args = |pairs: &'static str| {
        vec![
            "--opponent".to_string(),
            format!("greedy={}", greedy()),
            "--opponent".to_string(),
            format!("crasher={CRASHER}"),
            "--pairs".to_string(),
            pairs.to_string(),
            "--json".to_string(),
            json.to_str().unwrap().to_string(),
        ]
    };
    let packs = packs.to_str().unwrap();
    let first_args = args("1");
    run_ok(packs, &first_args.iter().map(String::as_str).collect::<Vec<_>>());
    let first = std::fs::read_to_string(&json).unwrap();
    assert_eq!(first.lines().count(), 4);

    // A run killed while writing leaves half a line: it is dropped, not an error.
    let mut cut = first.clone();
    cut.push_str("{\"opponent\":\"gre");
    std::fs::write(&json, &cut).unwrap();

    let second_args = args("2");
    let stdout = run_ok(packs, &second_args.iter().map(String::as_str).collect::<Vec<_>>());
    let second = std::fs::read_to_string(&json).unwrap();
    assert!(second.starts_with(&first), "the first run's games are kept as they were");
    let games = json_lines(&json);
    assert_eq!(games.len(), 8);
    let new: Vec<(String, u64)> =
        games[4..].iter().map(|g| (g["opponent"].as_str().unwrap().to_string(), g["game"].as_u64().unwrap())).collect();
    assert!(new.iter().all(|(_, game)| *game >= 2), "only pair 1 is played now: {new:?}");
    assert!(stdout.contains(&format!("games: 8 (4 played now, 4 from {})", json.display())), "{stdout}");
    assert_eq!(row(&stdout, "greedy")[1], "4");
    assert_eq!(row(&stdout, "greedy")[6..8], ["2", "2/2"], "{stdout}");
    assert_eq!(row(&stdout, "crasher")[1..3], ["4", "4-0-0"], "{stdout}");

    // Another bot with the same file would mix two matches: refused.
    let json = json.to_str().unwrap();
    let out = gauntlet(&["--bot", "true", "--no-pin", "--packs", packs, "--opponent", "crasher=true", "--json", json]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("use another --json file"));
}

#[test]
fn a_command_that_never_starts_stops_the_gauntlet_with_a_hint() {
    // `--bot run.sh` for `./run.sh`: `sh` cannot find it, the bot prints no name, and every game
    // would be lost as a crash. The gauntlet stops at the first game and records nothing.
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("games.jsonl");
    let pack = format!("{PACKS}/pack_0000.pack");
    for (bot, opponent, named) in [
        ("no-such-bot-here.sh".to_string(), format!("greedy={}", greedy()), "our bot (--bot no-such-bot-here.sh)"),
        (greedy(), "ghost=no-such-opponent-here.sh".to_string(), "opponent ghost"),
    ] {
        let out = gauntlet(&[
            "--bot",
            &bot,
            "--opponent",
            &opponent,
            "--packs",
            &pack,
            "--pairs",
            "2",
            "--time-ms",
            "5000",
            "--turn-ms",
            "1000",
            "--no-pin",
            "--json",
            json.to_str().unwrap(),
        ]);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{stderr}");
        assert!(stderr.contains(named) && stderr.contains("before printing its name"), "{stderr}");
        assert!(json_lines(&json).is_empty(), "no game is recorded");
    }
}

#[test]
fn one_side_plays_each_pair_once_with_seats_alternating_and_the_rest_resumes() {
    let (dir, packs) = two_pack_files();
    let (packs, json) = (packs.to_str().unwrap(), dir.path().join("games.jsonl"));
    let opponent = format!("crasher={CRASHER}");
    let mut args = vec!["--opponent", &opponent, "--pairs", "2", "--json", json.to_str().unwrap()];
    let stdout = run_ok(packs, &[args.as_slice(), &["--one-side"]].concat());
    let games = json_lines(&json);
    let seats: Vec<(u64, u64, u64)> = games
        .iter()
        .map(|g| (g["pair"].as_u64().unwrap(), g["game"].as_u64().unwrap(), g["our_seat"].as_u64().unwrap()))
        .collect();
    // Pair 0 from seat 0 (game 0), pair 1 from seat 1 (game 3).
    assert_eq!(seats, [(0, 0, 0), (1, 3, 1)], "{stdout}");
    assert_eq!(row(&stdout, "crasher")[1..3], ["2", "2-0-0"], "{stdout}");
    assert_eq!(row(&stdout, "crasher")[7], "0/0", "no pair is complete: {stdout}");

    // The same gauntlet without --one-side plays the other halves only.
    args.retain(|a| *a != "--one-side");
    let stdout = run_ok(packs, &args);
    let mut played: Vec<u64> = json_lines(&json).iter().map(|g| g["game"].as_u64().unwrap()).collect();
    assert_eq!(played[..2], [0, 3]);
    played.sort();
    assert_eq!(played, [0, 1, 2, 3]);
    assert!(stdout.contains("(2 played now, 2 from"), "{stdout}");
}

/// `--seeds`: generated packs of the seeds listed, in their order, one side a pair: our seat 0
/// on even seeds and 1 on odd ones, wherever the seed stands in the list.
#[test]
fn listed_seeds_are_played_in_order_with_our_seat_by_the_seeds_parity() {
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("games.jsonl");
    let bot = greedy();
    let opponent = format!("crasher={CRASHER}");
    let args = ["--bot", &bot, "--opponent", &opponent, "--seeds", "1000871,1000864,1000866", "--one-side"];
    let out = gauntlet(
        &[&args[..], &["--time-ms", "5000", "--turn-ms", "1000", "--no-pin", "--json"], &[json.to_str().unwrap()]]
            .concat(),
    );
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let games: Vec<(String, u64)> = json_lines(&json)
        .iter()
        .map(|g| (g["packs"].as_str().unwrap().to_string(), g["our_seat"].as_u64().unwrap()))
        .collect();
    let expected = [("seed:1000871", 1), ("seed:1000864", 0), ("seed:1000866", 0)];
    assert_eq!(games, expected.map(|(p, s)| (p.to_string(), s)));
    // The same packs as `--seed` gives that seed.
    let seeded = dir.path().join("seeded.jsonl");
    let args = ["--bot", &bot, "--opponent", &opponent, "--seed", "1000871", "--pairs", "1", "--one-side"];
    let out = gauntlet(
        &[&args[..], &["--time-ms", "5000", "--turn-ms", "1000", "--no-pin", "--json"], &[seeded.to_str().unwrap()]]
            .concat(),
    );
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(json_lines(&seeded)[0]["packs"], json_lines(&json)[0]["packs"]);
    // Listed seeds and a seed block exclude each other.
    let out = gauntlet(&["--bot", &bot, "--opponent", &opponent, "--seeds", "1,2", "--seed", "5"]);
    assert_eq!(out.status.code(), Some(2), "{out:?}");
}

#[test]
fn a_judgement_plays_both_bots_on_each_game_and_stops_at_the_rules_verdict() {
    let dir = tempfile::tempdir().unwrap();
    let (bot_json, candidate_json) = (dir.path().join("bot.jsonl"), dir.path().join("candidate.jsonl"));
    let opponent = format!("random={BIN} --strategy random --seed 3");
    let judge = |extra: &[&str]| {
        let bot = greedy();
        let mut args = vec!["--bot", &bot, "--opponent", &opponent, "--seed", "7", "--pairs", "12", "--one-side"];
        args.extend(["--time-ms", "5000", "--turn-ms", "1000", "--no-pin"]);
        args.extend(["--json", bot_json.to_str().unwrap(), "--candidate", CRASHER]);
        args.extend(["--candidate-json", candidate_json.to_str().unwrap()]);
        args.extend(extra);
        let out = gauntlet(&args);
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        String::from_utf8_lossy(&out.stdout).to_string()
    };
    let replays = dir.path().join("candidate-games");
    let stdout = judge(&["--candidate-replays", replays.to_str().unwrap()]);
    // Greedy beats the random bot (all but always) and the crasher loses every game: the pairs
    // go against the candidate, and four of them (ln 0.4 each: -3.67 < -ln 19) stop the
    // judgement long before its 12 seeds.
    // (A void game, the opponent out of time before its first move, is played again: seeds are
    // counted once.)
    let games = |path: &Path| {
        json_lines(path)
            .iter()
            .map(|g| g["packs"].as_str().unwrap().to_string())
            .collect::<std::collections::BTreeSet<_>>()
    };
    let played = games(&bot_json);
    assert!((4..12).contains(&played.len()), "{stdout}");
    assert!(["seed:7", "seed:8", "seed:9", "seed:10"].iter().all(|s| played.contains(*s)), "{stdout}");
    // The candidate's games are the bot's: paired. The job slot may have started the bot's next
    // game while the verdict was being read; that one game is finished and kept, unpaired.
    let candidate_played = games(&candidate_json);
    assert!(candidate_played.is_subset(&played), "the same games, paired: {stdout}");
    assert!(played.len() - candidate_played.len() <= 1, "one game at most in flight: {stdout}");
    assert!(json_lines(&candidate_json)
        .iter()
        .all(|g| g["commands"][g["our_seat"].as_u64().unwrap() as usize] == CRASHER));
    let kept = std::fs::read_dir(replays.join("random")).unwrap().count();
    assert!(kept >= candidate_played.len(), "the candidate's games are kept");
    let header = stdout.lines().position(|l| l.starts_with("opponent  pairs")).expect("the paired table");
    let paired = cells(stdout.lines().nth(header + 1).unwrap());
    assert_eq!((paired[0].as_str(), paired[4].as_str(), paired[5].as_str()), ("random", "0", "4"), "{stdout}");
    assert_eq!(paired.last().unwrap(), "-3.67 stop: A not better", "{stdout}");

    // Run again, the verdict is in the files: nothing more is played.
    let again = judge(&[]);
    assert_eq!(games(&bot_json), played, "{again}");
    assert!(again.contains("-3.67 stop: A not better"), "{again}");

    // The candidate must be another bot, with its own file.
    let bot = greedy();
    let same = [
        "--bot",
        &bot,
        "--opponent",
        &opponent,
        "--json",
        "a.jsonl",
        "--candidate",
        &bot,
        "--candidate-json",
        "b.jsonl",
    ];
    let out = gauntlet(&same);
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("needs two bots"), "{stderr}");
    let folders = ["--replays", "games", "--candidate-replays", "games", "--no-pin"];
    let out = gauntlet(&[&same[..7], &["cand", "--candidate-json", "b.jsonl"], &folders[..]].concat());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("--candidate-replays is the --replays folder"), "{stderr}");
    let out = gauntlet(&["--bot", &bot, "--opponent", &opponent, "--candidate", CRASHER]);
    assert_eq!(out.status.code(), Some(2), "--json and --candidate-json are required");
}

/// Greedy, its stderr first saying (a `race-features` line) that at turn 8 its plan fires 13 now:
/// greedy fires nothing that large that early, so each of its games holds a plan fire of 13.
fn greedy_holding_13() -> String {
    let line = r#"race-features {"turn":8,"time_left_ms":[5000,5000],"garbage_pending":[0,0],"garbage_on_field":[0,0],"max_height":[6,6],"gauge":[0,0],"score":[0,0],"fires_now":[13,0],"our_line":[13],"our_any_line":[13],"their_menu":[4],"exchange":null}"#;
    format!("echo '{line}' >&2; exec {BIN} --strategy greedy")
}

#[test]
fn a_judgement_where_held_plays_the_candidate_only_where_the_bots_game_held_a_plan_fire() {
    let dir = tempfile::tempdir().unwrap();
    let opponent = format!("random={BIN} --strategy random --seed 3");
    let bot = greedy_holding_13();
    let judge = |name: &str, links: &str, pairs: &str| {
        let path = |what: &str| dir.path().join(format!("{name}-{what}")).to_str().unwrap().to_string();
        let (json, candidate_json, replays) = (path("bot.jsonl"), path("candidate.jsonl"), path("games"));
        let mut args = vec!["--bot", &bot, "--opponent", &opponent, "--seed", "7", "--pairs", pairs, "--one-side"];
        args.extend(["--time-ms", "5000", "--turn-ms", "1000", "--no-pin", "--json", &json, "--replays", &replays]);
        args.extend(["--candidate", CRASHER, "--candidate-json", &candidate_json, "--where-held", links]);
        let out = gauntlet(&args);
        let stdout = String::from_utf8_lossy(&out.stdout).to_string();
        assert!(out.status.success(), "{}\n{stdout}", String::from_utf8_lossy(&out.stderr));
        let lines = |path: &str| if Path::new(path).exists() { json_lines(Path::new(path)).len() } else { 0 };
        (lines(&json), lines(&candidate_json), stdout)
    };
    // No game held a plan fire of 14: the candidate plays none, and nothing stops the bot's.
    let (bot_games, candidate_games, stdout) = judge("none", "14", "3");
    assert_eq!((bot_games, candidate_games), (3, 0), "{stdout}");
    assert!(stdout.contains("--where-held 14: 3 of the candidate's games not played"), "{stdout}");
    // Every game held its 13: the candidate (the crasher) plays each pair and loses it, and four
    // such pairs stop the judgement as they would without --where-held.
    let (bot_games, candidate_games, stdout) = judge("all", "13", "12");
    assert!((4..12).contains(&bot_games) && candidate_games >= 4, "{stdout}");
    assert!(stdout.contains("--where-held 13: 0 of the candidate's games not played"), "{stdout}");
    assert!(stdout.contains("-3.67 stop: A not better"), "{stdout}");
    // The same reading of a judgement's files after the fact: every bot game held its 13.
    let path = |what: &str| dir.path().join(format!("all-{what}")).to_str().unwrap().to_string();
    let (json, candidate_json, replays) = (path("bot.jsonl"), path("candidate.jsonl"), path("games"));
    let read = |links: &str, folders: &[&str]| {
        let args = ["--summary", &candidate_json, "--compare", &json, "--where-held", links, "--compare-replays"];
        gauntlet(&[&args[..], folders].concat())
    };
    let read_where = |flag: &str, folders: &[&str]| {
        let args = ["--summary", &candidate_json, "--compare", &json, flag, "10", "--compare-replays"];
        gauntlet(&[&args[..], folders].concat())
    };
    let out = read("13", &[&replays]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(stdout.contains(&format!("plan fire of 13+ links: {bot_games} games")), "{stdout}");
    let out = read("14", &[&replays]);
    assert!(String::from_utf8_lossy(&out.stderr).contains("no games to summarize"), "none held 14");
    let out = read("13", &[dir.path().to_str().unwrap()]);
    assert!(String::from_utf8_lossy(&out.stderr).contains("not in any --compare-replays folder"));
    // It needs the bot's games kept, to read them.
    let judge_args = ["--bot", &bot, "--opponent", &opponent, "--json", "a", "--candidate", CRASHER];
    let out = gauntlet(&[&judge_args[..], &["--candidate-json", "b", "--where-held", "12"]].concat());
    assert_eq!(out.status.code(), Some(2), "--where-held needs --replays");
    assert!(String::from_utf8_lossy(&out.stderr).contains("--replays"));
    let out = gauntlet(&[&judge_args[..], &["--candidate-json", "b", "--where-forced-loss", "10"]].concat());
    assert_eq!(out.status.code(), Some(2), "--where-forced-loss needs --replays");
    assert!(String::from_utf8_lossy(&out.stderr).contains("--where-forced-loss 10 plays the candidate"));
    // These recorded games weighed no forced loss: the reading finds no pair.
    let out = read_where("--where-forced-loss", &[&replays]);
    assert!(String::from_utf8_lossy(&out.stderr).contains("no games to summarize"), "no forced loss");
    // Nor were they outpaced: their menu held no 10 before our plan's fire (at turn 8, now).
    let out = read_where("--where-outpaced", &[&replays]);
    assert!(String::from_utf8_lossy(&out.stderr).contains("no games to summarize"), "not outpaced");
    let both = ["--where-held", "12", "--where-forced-loss", "10"];
    assert_eq!(gauntlet(&[&judge_args[..], &both].concat()).status.code(), Some(2), "one reading at a time");
    let both = ["--where-forced-loss", "10", "--where-outpaced", "12"];
    assert_eq!(gauntlet(&[&judge_args[..], &both].concat()).status.code(), Some(2), "one reading at a time");
}

#[test]
fn shard_values() {
    assert_eq!(parse_shard("2/4"), Ok(Shard { index: 2, count: 4 }));
    assert_eq!(parse_shard("1/1"), Ok(Shard { index: 1, count: 1 }));
    for bad in ["0/2", "3/2", "1/0", "x", "2", "/2", "1/", "-1/2", "1/2/3"] {
        let err = parse_shard(bad).unwrap_err();
        assert!(err.starts_with("expected K/N with 1 <= K <= N"), "{bad}: {err}");
    }

    // Through the binary: clap's error, exit code 2.
    let out = gauntlet(&["--bot", "true", "--opponent", "a=true", "--no-pin", "--shard", "3/2"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("expected K/N with 1 <= K <= N"));
}

#[test]
fn shards_slice_the_planned_games_in_canonical_order() {
    let shard = |index, count| Some(Shard { index, count });
    let alternate = |_pair: usize| None;
    // Opponents in order, then game index; game i to shard i mod N + 1, across opponents.
    assert_eq!(planned_games(2, 1, false, alternate, None), [(0, 0), (0, 1), (1, 0), (1, 1)]);
    assert_eq!(planned_games(2, 1, false, alternate, shard(1, 3)), [(0, 0), (1, 1)]);
    assert_eq!(planned_games(2, 1, false, alternate, shard(2, 3)), [(0, 1)]);
    assert_eq!(planned_games(2, 1, false, alternate, shard(3, 3)), [(1, 0)]);
    // --one-side plans game 0 of pair 0 and game 3 of pair 1 (our seat alternating); shards
    // slice that list.
    assert_eq!(planned_games(2, 2, true, alternate, None), [(0, 0), (0, 3), (1, 0), (1, 3)]);
    assert_eq!(planned_games(2, 2, true, alternate, shard(2, 2)), [(0, 3), (1, 3)]);
    assert_eq!(planned_games(3, 2, false, alternate, shard(13, 13)), []);
    // From a book, --one-side puts our bot in the seat it had in each position's game (pair 0:
    // seat 1, pair 2: seat 0), and alternates where the game does not say (pair 1).
    let home = |pair: usize| [Some(1), None, Some(0)][pair];
    assert_eq!(planned_games(1, 3, true, home, None), [(0, 1), (0, 3), (0, 4)]);
    assert_eq!(planned_games(1, 3, false, home, None).len(), 6, "both seats without --one-side");

    // N shards cover the planned games exactly once.
    for one_side in [false, true] {
        let all = planned_games(3, 5, one_side, alternate, None);
        for count in 1..=7 {
            let mut union: Vec<(usize, usize)> =
                (1..=count).flat_map(|index| planned_games(3, 5, one_side, alternate, shard(index, count))).collect();
            union.sort();
            let mut expected = all.clone();
            expected.sort();
            assert_eq!(union, expected, "{count} shards, one side {one_side}");
        }
    }
}

/// Two shards under GNU parallel, each with its own --json file, then --summary of their
/// concatenation: every game once, and the table of the same gauntlet played in one run.
#[test]
fn two_shards_under_parallel_sum_up_to_the_whole_gauntlet() {
    if !has_parallel() {
        assert!(std::env::var_os("CI").is_none(), "CI must run the sharded test: install parallel");
        note("sharded gauntlet test skipped: no GNU parallel (apt-get install -y parallel)");
        return;
    }
    let (dir, packs) = two_pack_files();
    let (bot, packs) = (greedy(), packs.to_str().unwrap());
    let opponents = [format!("greedy={}", greedy()), format!("beam={}", small_beam()), format!("crasher={CRASHER}")];
    // Generous limits: the bots are bounded by work, so a loaded machine cannot turn a game into
    // a timeout and the runs stay comparable.
    let mut gauntlet_args = vec!["gauntlet", "--bot", &bot, "--packs", packs, "--pairs", "2", "--time-ms", "60000"];
    gauntlet_args.extend(["--turn-ms", "10000", "--no-pin"]);
    for o in &opponents {
        gauntlet_args.extend(["--opponent", o]);
    }

    let shard_json = |k: usize| dir.path().join(format!("shard-{k}.jsonl"));
    let out = Command::new("parallel")
        // -q: each argument reaches the gauntlet as it is (the bot commands hold spaces).
        .args(["--will-cite", "-q", BIN])
        .args(&gauntlet_args)
        .args(["--shard", "{}/2", "--json", dir.path().join("shard-{}.jsonl").to_str().unwrap(), ":::", "1", "2"])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(out.status.success(), "parallel failed: {}", String::from_utf8_lossy(&out.stderr));

    // Shard k holds the games i of the planned list (opponents in order, then games) with i mod 2
    // = k - 1.
    let planned: Vec<(String, u64)> =
        ["greedy", "beam", "crasher"].iter().flat_map(|o| (0..4).map(|g| (o.to_string(), g))).collect();
    let mut merged = String::new();
    for k in 1..=2 {
        let mut held = games_of(&json_lines(&shard_json(k)));
        held.sort();
        let mut slice: Vec<(String, u64)> = planned.iter().skip(k - 1).step_by(2).cloned().collect();
        slice.sort();
        assert_eq!(held, slice, "shard {k}/2");
        merged.push_str(&std::fs::read_to_string(shard_json(k)).unwrap());
    }
    let merged_json = dir.path().join("all.jsonl");
    std::fs::write(&merged_json, merged).unwrap();
    let mut held = games_of(&json_lines(&merged_json));
    held.sort();
    let mut expected = planned.clone();
    expected.sort();
    assert_eq!(held, expected, "every planned game exactly once");

    let summary = gauntlet(&["--summary", merged_json.to_str().unwrap()]);
    let summary_stdout = String::from_utf8_lossy(&summary.stdout).to_string();
    assert!(summary.status.success(), "{}", String::from_utf8_lossy(&summary.stderr));
    let whole = Command::new(BIN).args(&gauntlet_args).stdin(Stdio::null()).output().unwrap();
    let whole_stdout = String::from_utf8_lossy(&whole.stdout).to_string();
    assert!(whole.status.success(), "{}", String::from_utf8_lossy(&whole.stderr));

    let table = table_without_times(&summary_stdout);
    assert_eq!(table.len(), 4, "three opponents and a total: {summary_stdout}");
    assert_eq!(table, table_without_times(&whole_stdout), "{summary_stdout}\n{whole_stdout}");
    assert_eq!(row(&summary_stdout, "greedy")[7], "2/2", "both shards' halves make the mirror pairs");
    assert_eq!(summary_stdout.lines().next(), whole_stdout.lines().next(), "the same bot line");
}

#[test]
fn summary_refuses_a_game_twice_and_two_bots() {
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("games.jsonl");
    let whole = one_pair_against_the_crasher(&json, &[]);
    let text = std::fs::read_to_string(&json).unwrap();
    let (first, second) = text.split_at(text.find('\n').unwrap() + 1);
    let (a, b) = (dir.path().join("a.jsonl"), dir.path().join("b.jsonl"));
    std::fs::write(&a, first).unwrap();
    std::fs::write(&b, second).unwrap();
    let summary = |files: &[&Path]| {
        gauntlet(&[&["--summary"][..], &files.iter().map(|f| f.to_str().unwrap()).collect::<Vec<_>>()].concat())
    };

    // Split in two files, the games sum up to the run's table.
    let out = summary(&[&a, &b]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let stdout = String::from_utf8_lossy(&out.stdout);
    let table = table_without_times(&stdout);
    assert_eq!(table.len(), 1, "one opponent, no total: {stdout}");
    assert_eq!(table, table_without_times(&whole));
    assert!(stdout.contains("games: 2 (from 2 files)"), "{stdout}");

    let one_line_error = |out: &Output| {
        assert_eq!(out.status.code(), Some(2));
        let err = String::from_utf8_lossy(&out.stderr).to_string();
        assert_eq!(err.trim_end().lines().count(), 1, "{err}");
        err
    };
    // A file given twice, or with a file that holds it.
    let err = one_line_error(&summary(&[&a, &b, &a]));
    assert!(err.contains(&format!("{} holds game 0 of crasher", a.display())), "{err}");
    assert!(err.contains("give each shard's file once"), "{err}");
    let err = one_line_error(&summary(&[&json, &b]));
    assert!(err.contains(&format!("{} and {} both hold game 1 of crasher", json.display(), b.display())), "{err}");

    // Another bot's games.
    let mut game: Value = serde_json::from_str(second.trim_end()).unwrap();
    let seat = game["our_seat"].as_u64().unwrap() as usize;
    game["commands"][seat] = Value::from(format!("{} --name other", greedy()));
    std::fs::write(&b, format!("{game}\n")).unwrap();
    let err = one_line_error(&summary(&[&a, &b]));
    assert!(err.starts_with(&format!("codevs-reborn: {}: game 1 of crasher", b.display())), "{err}");
    assert!(err.contains(&format!("but {} holds games of", a.display())), "{err}");
    assert!(err.contains("summarize one bot's games at a time"), "{err}");

    // Pooled: one bot under two commands (the same build from two paths), each game once.
    let pooled = |files: &[&Path]| {
        let files: Vec<&str> = files.iter().map(|f| f.to_str().unwrap()).collect();
        gauntlet(&[&["--pool", "--summary"][..], &files].concat())
    };
    let out = pooled(&[&a, &b]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("games: 2 (from 2 files)"), "{stdout}");
    assert!(stdout.contains(&format!("{} --name other", greedy())) && stdout.contains("; pooled"), "{stdout}");
    let err = one_line_error(&pooled(&[&a, &b, &a]));
    assert!(err.contains("give each shard's file once"), "{err}");
}

/// `--summary A --compare B`: both summaries, then the games paired by opponent, pack file and
/// seat, with the files where one bot did better.
#[test]
fn compare_pairs_two_bots_games_on_the_same_packs() {
    let dir = tempfile::tempdir().unwrap();
    let a = dir.path().join("a.jsonl");
    one_pair_against_the_crasher(&a, &[]);
    // B: another bot on the same games, losing the one from seat 1 that A won.
    let mut b_text = String::new();
    for mut game in json_lines(&a) {
        let seat = game["our_seat"].as_u64().unwrap() as usize;
        assert_eq!(game["winner"].as_u64(), Some(seat as u64), "greedy beats the crasher");
        game["commands"][seat] = Value::from(format!("{} --name other", greedy()));
        if seat == 1 {
            // B lost this one, with other moves; the other game B played as A did.
            game["winner"] = Value::from(0);
            game["moves"][seat] = Value::from("other moves");
        }
        b_text.push_str(&format!("{game}\n"));
    }
    let b = dir.path().join("b.jsonl");
    std::fs::write(&b, b_text).unwrap();
    let out = gauntlet(&["--summary", a.to_str().unwrap(), "--compare", b.to_str().unwrap()]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(stdout.matches("bot: ").count(), 2, "both summaries: {stdout}");
    let header = stdout.lines().position(|l| l.starts_with("opponent  pairs")).expect("the paired table");
    let paired = cells(stdout.lines().nth(header + 1).unwrap());
    // One pair A better, none worse: the stop rule's ln 1.6 = +0.47, too few to stop.
    assert_eq!(paired, ["crasher", "2", "1", "1", "1", "0", "0", "0", "1.00", "+0.47 go on"], "{stdout}");
    assert!(stdout.contains("crasher: A better on pack_0000.pack"), "{stdout}");

    // Pooled (each side's games under two commands, as a judgement continued from another path):
    // the same pairs; a game twice on one side is refused whatever its commands.
    let lines = json_lines(&a);
    let (a1, a2) = (dir.path().join("a1.jsonl"), dir.path().join("a2.jsonl"));
    std::fs::write(&a1, format!("{}\n", lines[0])).unwrap();
    let mut moved = lines[1].clone();
    let seat = moved["our_seat"].as_u64().unwrap() as usize;
    moved["commands"][seat] = Value::from(format!("{} --name moved", greedy()));
    std::fs::write(&a2, format!("{moved}\n")).unwrap();
    let pooled = |a: &[&Path]| {
        let a: Vec<&str> = a.iter().map(|f| f.to_str().unwrap()).collect();
        gauntlet(&[&["--pool", "--summary"][..], &a, &["--compare", b.to_str().unwrap()]].concat())
    };
    let out = pooled(&[&a1, &a2]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let stdout = String::from_utf8_lossy(&out.stdout);
    let header = stdout.lines().position(|l| l.starts_with("opponent  pairs")).expect("the paired table");
    assert_eq!(cells(stdout.lines().nth(header + 1).unwrap()), paired, "{stdout}");
    let mut again = lines[1].clone();
    again["commands"][seat] = Value::from(format!("{} --name again", greedy()));
    let a3 = dir.path().join("a3.jsonl");
    std::fs::write(&a3, format!("{again}\n")).unwrap();
    let out = pooled(&[&a1, &a2, &a3]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains(&format!("{} and {} both hold game 1", a2.display(), a3.display())), "{err}");

    // --compare alone is refused: it compares with a summary.
    let out = gauntlet(&["--compare", b.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn the_summary_reads_the_first_and_second_exchanges() {
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("game.jsonl");
    one_pair_against_the_crasher(&json, &["--one-side"]);
    let played = json_lines(&json).remove(0);
    assert_eq!(played["our_seat"], 0);
    // Three games from the one played: (our first 10+ chain, theirs, the winner's seat).
    let chain = |c: Option<(u32, usize)>| {
        c.map_or(Value::Null, |(links, turn)| serde_json::json!({"links": links, "turn": turn}))
    };
    // Each game's chains of 10+ links, ours and theirs; the third game's file is older than the
    // record of every chain (only the first chains are known).
    type Chains<'a> = &'a [(u32, usize)];
    let chains = |c: Chains| c.iter().map(|&c| chain(Some(c))).collect::<Vec<_>>();
    let games: [(Chains, Chains, i32, bool); 3] = [
        // we fired first, they answered bigger; in the second, we fired first again, they
        // answered bigger again: lost
        (&[(12, 10), (11, 20)], &[(14, 11), (15, 22)], 1, true),
        // they fired first, we answered bigger; they fired a second and we did not: won
        (&[(15, 12)], &[(13, 10), (12, 18)], 0, true),
        (&[], &[], 0, false), // no exchange
    ];
    let mut text = String::new();
    for (i, (ours, theirs, winner, all_recorded)) in games.into_iter().enumerate() {
        let mut g = played.clone();
        g["game"] = (2 * i).into();
        g["pair"] = i.into();
        g["winner"] = winner.into();
        g["first_chain_10"] = serde_json::json!([chain(ours.first().copied()), chain(theirs.first().copied())]);
        match all_recorded {
            true => g["chains_10"] = serde_json::json!([chains(ours), chains(theirs)]),
            false => _ = g.as_object_mut().unwrap().remove("chains_10"),
        }
        text.push_str(&format!("{g}\n"));
    }
    let file = dir.path().join("three.jsonl");
    std::fs::write(&file, text).unwrap();
    let out = gauntlet(&["--summary", file.to_str().unwrap()]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let exchange = stdout.split("first exchange:").nth(1).unwrap_or_else(|| panic!("no exchange table in\n{stdout}"));
    assert_eq!(
        row(exchange, "crasher"),
        ["crasher", "3", "1/1/0/1", "13.5 at 11 (2)", "13.5 at 10.5 (2)", "1/1/1", "0-0-1", "1-0-0", "1-0-0", "0-0-1"]
    );
    let second = exchange.split("second exchange:").nth(1).unwrap_or_else(|| panic!("no second round in\n{stdout}"));
    assert_eq!(
        row(second, "crasher"),
        ["crasher", "2", "1/1/0/0", "11 at 20 (1)", "13.5 at 20 (2)", "0/2/0", "0-0-1", "1-0-0", "0-0-0", "1-0-1"]
    );
}

/// An opponent that ran out of time on its first turn never played (kera's JVM, sharing one core
/// with our opening search): the game is void, left out of every figure, and the same command on
/// the same `--json` plays it again; the new line replaces it.
#[test]
fn a_timeout_on_the_opponents_first_turn_is_void_and_played_again() {
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("games.jsonl");
    one_pair_against_the_crasher(&json, &["--one-side"]);
    let mut game = json_lines(&json).remove(0);
    assert_eq!((game["our_seat"].as_u64(), game["turns"].as_u64()), (Some(0), Some(1)), "{game}");
    assert_eq!(game["faults"], serde_json::json!([null, "crash"]), "a crash on turn 0 counts: {game}");
    // The same game, lost by the opponent on time on turn 0.
    game["faults"][1] = Value::from("timeout");
    game["reason"] = Value::from("timeout");
    std::fs::write(&json, format!("{game}\n")).unwrap();

    let out = gauntlet(&["--summary", json.to_str().unwrap()]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("games: 0 (from"), "{stdout}");
    assert!(stdout.contains("and 1 void: the opponent ran out of time on the first turn"), "{stdout}");
    assert!(stdout.contains("(crasher 1)"), "{stdout}");
    assert!(table_without_times(&stdout).is_empty(), "no figures from a void game: {stdout}");

    // A timeout later in the game is a loss like any other: not void.
    let mut later = game.clone();
    later["turns"] = Value::from(30);
    let file = dir.path().join("later.jsonl");
    std::fs::write(&file, format!("{later}\n")).unwrap();
    let stdout = String::from_utf8_lossy(&gauntlet(&["--summary", file.to_str().unwrap()]).stdout).to_string();
    assert!(stdout.contains("games: 1 (from") && !stdout.contains("void"), "{stdout}");
    assert_eq!(row(&stdout, "crasher")[2], "1-0-0", "{stdout}");

    // Resumed: the void game is played again (the crasher crashes: a real result).
    let stdout = one_pair_against_the_crasher(&json, &["--one-side"]);
    assert_eq!(json_lines(&json).len(), 2, "the void line and the game played again");
    assert!(stdout.contains("games: 1 (1 played now, 1 from"), "{stdout}");
    assert!(!stdout.contains("void"), "{stdout}");
    assert_eq!(row(&stdout, "crasher")[2], "1-0-0", "{stdout}");
    let out = gauntlet(&["--summary", json.to_str().unwrap()]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "the replaced void line is not a game twice: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.contains("games: 1 (from") && !stdout.contains("void"), "{stdout}");
    // A third run has nothing left to play.
    one_pair_against_the_crasher(&json, &["--one-side"]);
    assert_eq!(json_lines(&json).len(), 2);
}
