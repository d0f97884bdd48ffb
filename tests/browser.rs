//! The replay viewer in a real browser: a recorded game's page opened in headless Chromium must
//! load without errors and show, read back from its DOM, the fields replay.json holds; a
//! screenshot of a chain and of the last turn goes to target/browser/ for a person to look at.
//!
//! Without Chromium the test prints a note and passes, unless `CI` is set: CI must run it
//! (`apt-get install -y chromium`; `CHROMIUM=/path` picks another binary, `CHROMIUM=` none).

use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

use serde_json::Value;
use wait_timeout::ChildExt;

const BIN: &str = env!("CARGO_BIN_EXE_codevs-reborn");
const PACK: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/data/packs/pack_0000.pack");
const WINDOW: &str = "1500,1100";

fn find_chromium() -> Option<PathBuf> {
    // CHROMIUM names the browser; set empty, it plays a machine without one.
    if let Some(path) = std::env::var_os("CHROMIUM") {
        return (!path.is_empty()).then(|| PathBuf::from(path));
    }
    let on_path = std::env::var_os("PATH")
        .map(|paths| std::env::split_paths(&paths).map(|dir| dir.join("chromium")).collect::<Vec<_>>())
        .unwrap_or_default();
    [PathBuf::from("/usr/bin/chromium")].into_iter().chain(on_path).find(|p| p.is_file())
}

/// Where the test leaves its page and screenshots: `target/browser/`.
fn output_dir() -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).parent().expect("target/tmp is in target").join("browser");
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Records one short game: a small seeded beam (so a real chain is fired) against greedy.
fn record_game(dir: &Path) -> PathBuf {
    let p0 = format!("{BIN} --strategy beam --node-budget 300000 --seed 1 --name beam");
    let p1 = format!("{BIN} --strategy greedy --name greedy");
    let replays = dir.join("replays");
    let out = Command::new(BIN)
        .args(["arena", "--p0", &p0, "--p1", &p1, "--packs", PACK, "--games", "1"])
        // The contest's control: both bots are bounded by work, not time, so this costs nothing,
        // and a loaded machine cannot end the game by a timeout (a turn without a field to show).
        .args(["--time-ms", "180000", "--turn-ms", "20000", "--replays", replays.to_str().unwrap()])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(out.status.success(), "arena failed: {}", String::from_utf8_lossy(&out.stderr));
    replays.join("game-0000")
}

struct Browser {
    chromium: PathBuf,
    scratch: tempfile::TempDir,
}

impl Browser {
    /// Runs Chromium headless on `page#fragment` with `extra` flags, in a fresh profile and with
    /// nothing reaching the network; returns its stdout and stderr.
    fn run(&self, page: &Path, fragment: &str, extra: &[String]) -> (String, String) {
        let profile = tempfile::tempdir_in(self.scratch.path()).unwrap();
        let stdout_path = self.scratch.path().join("stdout.txt");
        let stderr_path = self.scratch.path().join("stderr.txt");
        let mut child = Command::new(&self.chromium)
            .args([
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--hide-scrollbars",
                "--enable-logging=stderr",
                "--v=0",
            ])
            .arg(format!("--user-data-dir={}", profile.path().display()))
            .args(extra)
            .arg(format!("file://{}#{fragment}", page.display()))
            .stdin(Stdio::null())
            // Files, not pipes: a DOM larger than a pipe's buffer must not block Chromium.
            .stdout(File::create(&stdout_path).unwrap())
            .stderr(File::create(&stderr_path).unwrap())
            .spawn()
            .expect("chromium starts");
        if child.wait_timeout(Duration::from_secs(90)).unwrap().is_none() {
            let _ = child.kill();
            let _ = child.wait();
            panic!("chromium did not finish in 90 s on {fragment}");
        }
        (std::fs::read_to_string(stdout_path).unwrap(), std::fs::read_to_string(stderr_path).unwrap())
    }

    /// The page's DOM after its scripts ran, checked free of errors.
    fn dom(&self, page: &Path, fragment: &str) -> String {
        let (dom, log) = self.run(page, fragment, &["--dump-dom".to_string()]);
        // The page's own error box (window.onerror, console.error) must be empty and hidden.
        let errors = element_text(&dom, "errors");
        assert!(errors.trim().is_empty(), "page errors on {fragment}: {errors}");
        assert!(dom.contains(r#"data-state="ready""#), "the viewer did not finish on {fragment}");
        // Chromium logs the page's console messages and uncaught errors on stderr.
        let console: Vec<&str> = log.lines().filter(|l| l.contains("CONSOLE") || l.contains("Uncaught")).collect();
        assert!(console.is_empty(), "console output on {fragment}:\n{}", console.join("\n"));
        dom
    }

    fn screenshot(&self, page: &Path, fragment: &str, png: &Path) {
        let flags = [format!("--screenshot={}", png.display()), format!("--window-size={WINDOW}")];
        let _ = std::fs::remove_file(png);
        self.run(page, fragment, &flags);
        let size = std::fs::metadata(png).map(|m| m.len()).unwrap_or(0);
        assert!(size > 10_000, "no screenshot at {} for {fragment}", png.display());
        note(&format!("screenshot: {}", png.display()));
    }
}

/// A line for the person running the tests, shown even when the harness captures output (it
/// captures only the print macros).
fn note(line: &str) {
    let _ = writeln!(std::io::stderr(), "{line}");
}

/// The text inside the element with `id` (its first tag's content up to the next `<`).
fn element_text(dom: &str, id: &str) -> String {
    let at = dom.find(&format!(r#"id="{id}""#)).unwrap_or_else(|| panic!("no #{id} in the DOM"));
    let open = at + dom[at..].find('>').unwrap() + 1;
    let close = open + dom[open..].find('<').unwrap();
    dom[open..close].to_string()
}

/// An attribute of the element with `id`.
fn attribute(dom: &str, id: &str, name: &str) -> String {
    let at = dom.find(&format!(r#"id="{id}""#)).unwrap_or_else(|| panic!("no #{id} in the DOM"));
    let tag = &dom[dom[..at].rfind('<').unwrap()..at + dom[at..].find('>').unwrap()];
    let start =
        tag.find(&format!(r#" {name}=""#)).unwrap_or_else(|| panic!("#{id} has no {name}: {tag}")) + name.len() + 3;
    tag[start..start + tag[start..].find('"').unwrap()].to_string()
}

/// Player `p`'s field as its cells show it, in replay.json's form: rows top first, `.`, `1`–`9`,
/// `#`, 16 rows or more when a column is taller.
fn field_from_cells(dom: &str, p: usize) -> Vec<String> {
    let start = dom.find(&format!(r#"id="field-{p}""#)).unwrap();
    let end = start + dom[start..].find(&format!(r#"id="caption-{p}""#)).unwrap();
    let values: Vec<u8> = dom[start..end]
        .split(r#"data-v=""#)
        .skip(1)
        .map(|rest| rest[..rest.find('"').unwrap()].parse().unwrap())
        .collect();
    assert_eq!(values.len(), 19 * 10, "19 rows of 10 cells");
    let mut rows: Vec<String> = values
        .chunks(10)
        .map(|row| {
            row.iter()
                .map(|&v| match v {
                    0 => '.',
                    11 => '#',
                    v => char::from(b'0' + v),
                })
                .collect()
        })
        .collect();
    while rows.len() > 16 && rows[0] == ".........." {
        rows.remove(0);
    }
    rows
}

fn recorded_field(replay: &Value, turn: usize, p: usize) -> Vec<String> {
    serde_json::from_value(replay["turns"][turn]["states"][p]["field"].clone()).unwrap()
}

#[test]
fn the_page_shows_the_recorded_game_in_chromium() {
    let Some(chromium) = find_chromium() else {
        assert!(std::env::var_os("CI").is_none(), "CI must run the browser test: install chromium");
        note("browser test skipped: no chromium (apt-get install -y chromium, or set CHROMIUM=/path)");
        return;
    };
    let scratch = tempfile::tempdir().unwrap();
    let game = record_game(scratch.path());
    let replay: Value = serde_json::from_str(&std::fs::read_to_string(game.join("replay.json")).unwrap()).unwrap();
    let turns = replay["turns"].as_array().unwrap();
    let last = turns.len() - 1;
    assert!(game.join("game.html").is_file(), "the arena writes the page beside the replay");

    // The page under test is the one `view` writes, into target/browser/ beside the screenshots.
    let shots = output_dir();
    let page = shots.join("game.html");
    let out = Command::new(BIN).args(["view", game.to_str().unwrap(), "-o", page.to_str().unwrap()]).output().unwrap();
    assert!(out.status.success(), "view failed: {}", String::from_utf8_lossy(&out.stderr));
    let browser = Browser { chromium, scratch };

    for turn in [0, last] {
        let dom = browser.dom(&page, &format!("turn={turn}"));
        assert_eq!(attribute(&dom, "app", "data-turn"), turn.to_string(), "the page opened the fragment's turn");
        assert_eq!(element_text(&dom, "turn-number"), turn.to_string());
        for p in 0..2 {
            let recorded = recorded_field(&replay, turn, p);
            assert_eq!(field_from_cells(&dom, p), recorded, "turn {turn} player {p}: the cells");
            assert_eq!(attribute(&dom, &format!("field-{p}"), "data-rows"), recorded.join("/"));
            assert_eq!(attribute(&dom, &format!("field-{p}"), "data-frame"), "end");
        }
    }

    // The game's largest chain, at its second link (steps: start, garbage, drop, link 1, link 2).
    let links = |t: &Value, p: usize| t["outcomes"][p]["links"].as_u64().unwrap_or(0);
    let (chain_turn, chain_player) = (0..turns.len())
        .flat_map(|t| [(t, 0), (t, 1)])
        .max_by_key(|&(t, p)| (links(&turns[t], p), std::cmp::Reverse(t)))
        .unwrap();
    assert!(links(&turns[chain_turn], chain_player) >= 2, "the recorded game should hold a chain");
    let fragment = format!("turn={chain_turn}&step=4");
    let dom = browser.dom(&page, &fragment);
    assert_eq!(attribute(&dom, &format!("field-{chain_player}"), "data-frame"), "link");
    assert!(dom.contains("mark-vanish"), "the link's vanishing blocks are marked");

    browser.screenshot(&page, &fragment, &shots.join("chain.png"));
    browser.screenshot(&page, &format!("turn={last}"), &shots.join("last-turn.png"));
}
