//! The protocol reader fuzzed: arbitrary bytes and mutations of a real input stream (truncated,
//! lines dropped or doubled, junk, huge and negative numbers, empty lines). The bot's protocol
//! loop must never panic, must end Ok exactly when the stream ends cleanly between turns, and
//! must otherwise fail with a one-line message; the binary must say so in one stderr line.
//!
//! The oracle is an independent, plain reading of the protocol as RULES.md states it.

mod common;

use std::io::Write;
use std::process::{Command, Output, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Once;

use proptest::prelude::*;
use proptest::sample::Index;

use codevs_reborn::bot::{play, BotOptions, Strategy as BotStrategy};
use codevs_reborn::protocol::{read_pack_file, PlayerInput};
use codevs_reborn::rules::{Field, Simulator};
use common::{pack_text, turn_text};

/// Turns in the base stream.
const TURNS: usize = 3;
/// Lines of the pack list and of one turn.
const PACK_LINES: usize = 1500;
const TURN_LINES: usize = 1 + 2 * (4 + 16 + 1);

/// A real stream: pack file 0 and three turns of fields grown by dropping its packs, with
/// garbage cells, a garbage stock, a gauge and scores, as the server writes them.
fn base_input() -> String {
    let packs = read_pack_file(&common::data().join("packs/pack_0000.pack")).unwrap();
    let mut mine = Field::empty();
    let mut theirs = Field::empty();
    theirs.drop_garbage_row();
    let mut text = pack_text(0);
    for turn in 0..TURNS {
        let player = |field, time: u64, garbage, gauge| PlayerInput {
            time_left_ms: time,
            garbage,
            gauge,
            score: 3 * turn as u64,
            field,
        };
        let t = turn as u64;
        text += &turn_text(
            turn,
            player(mine, 18_000 - 700 * t, 4 * turn as u32, 40 * turn as u32),
            player(theirs, 17_500 - 300 * t, 13 * turn as u32, 8 * turn as u32),
        );
        mine.drop_pack(packs.get(turn), (3 * turn % 9) as u8, (turn % 4) as u8);
        theirs.drop_pack(packs.get(turn), (8 - 2 * turn) as u8, ((turn + 1) % 4) as u8);
    }
    text
}

/// How many turns a stream holds if it is well formed (every game complete up to a clean end
/// between turns), else `None`: what the bot must accept, read without the bot's code.
fn oracle(bytes: &[u8]) -> Option<usize> {
    let text = std::str::from_utf8(bytes).ok()?;
    let mut lines = text.lines().map(str::trim).peekable();
    let numbers = |line: Option<&str>, count: usize, valid: &dyn Fn(u64) -> bool| -> Option<Vec<u64>> {
        let values: Vec<u64> =
            line?.split_whitespace().map(|w| w.parse::<u64>().ok().filter(|&v| valid(v))).collect::<Option<_>>()?;
        (values.len() == count).then_some(values)
    };
    let mut turns = 0;
    'games: loop {
        while lines.next_if_eq(&"").is_some() {}
        for _ in 0..500 {
            numbers(lines.next(), 2, &|v| v <= 9)?;
            numbers(lines.next(), 2, &|v| v <= 9)?;
            (lines.next()? == "END").then_some(())?;
        }
        loop {
            while lines.next_if_eq(&"").is_some() {}
            let Some(&next) = lines.peek() else { return Some(turns) };
            if next.split_whitespace().count() == 2 {
                continue 'games;
            }
            numbers(lines.next(), 1, &|v| v < 500)?;
            for _player in 0..2 {
                numbers(lines.next(), 1, &|_| true)?; // time
                numbers(lines.next(), 1, &|v| v <= u32::MAX as u64)?; // garbage stock
                numbers(lines.next(), 1, &|v| v <= 100)?; // gauge
                numbers(lines.next(), 1, &|_| true)?; // score
                let mut rows = Vec::new();
                for _ in 0..16 {
                    rows.push(numbers(lines.next(), 10, &|v| v <= 9 || v == 11)?);
                }
                // Settled: going up each column, no block above an empty cell.
                for x in 0..10 {
                    let column: Vec<u64> = rows.iter().rev().map(|r| r[x]).collect();
                    let height = column.iter().take_while(|&&v| v != 0).count();
                    column[height..].iter().all(|&v| v == 0).then_some(())?;
                }
                (lines.next()? == "END").then_some(())?;
            }
            turns += 1;
        }
    }
}

static PANICS: AtomicUsize = AtomicUsize::new(0);

/// Counts every panic in this test binary, caught or not: the bot's loop catches a searcher's
/// panic and answers a fallback move, which would hide a bug from the result alone.
fn count_panics() {
    static HOOK: Once = Once::new();
    HOOK.call_once(|| {
        let default = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            PANICS.fetch_add(1, Ordering::SeqCst);
            default(info)
        }));
    });
}

/// Runs the bot's protocol loop (greedy, so every turn is cheap) and checks it against the
/// oracle: Ok with one answer per turn exactly when the stream is well formed, otherwise an
/// error whose message is one line.
fn check_stream(bytes: &[u8]) -> Result<(), TestCaseError> {
    count_panics();
    let options = BotOptions { strategy: BotStrategy::Greedy, ..BotOptions::default() };
    let mut out = Vec::new();
    let result =
        std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| play(bytes, &mut out, &mut Vec::new(), options)));
    prop_assert_eq!(PANICS.load(Ordering::SeqCst), 0, "a panic (see above)");
    let result = result.expect("no panic was counted");
    match (oracle(bytes), result) {
        (Some(turns), Ok(())) => {
            let answers = String::from_utf8(out).unwrap().lines().count() - 1;
            prop_assert_eq!(answers, turns, "one answer per turn");
        }
        (None, Err(e)) => {
            let message = e.to_string();
            prop_assert!(!message.is_empty() && !message.contains('\n'), "one line: {:?}", message);
        }
        (expected, got) => prop_assert!(false, "oracle: {:?} turns, bot: {:?}", expected, got),
    }
    Ok(())
}

/// One change to a stream's lines.
#[derive(Clone, Debug)]
enum Mutation {
    /// Cut the stream after this many bytes.
    Truncate(Index),
    Drop(Index),
    Duplicate(Index),
    /// Replace one word of a line (or add one past its end).
    Word(Index, Index, &'static str),
    /// Insert a whole line.
    Insert(Index, &'static str),
    /// Widen a line's white space and end it with a carriage return (still well formed).
    Spaces(Index),
}

const JUNK_WORDS: &[&str] = &[
    "x",
    "-1",
    "-0",
    "+3",
    "1.5",
    "0x1F",
    "",
    "END",
    "10",
    "11",
    "12",
    "99",
    "100",
    "101",
    "499",
    "500",
    "4294967295",
    "4294967296",
    "18446744073709551615",
    "18446744073709551616",
    "99999999999999999999999999",
    "\u{663}",
    "\u{ff11}",
    "\t",
    "\u{0}",
];
const JUNK_LINES: &[&str] = &["", "   ", "END", "0 0", "1 2 3", "junk", "\r", "0", "-5", "0 0 0 0 0 0 0 0 0 0"];

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        any::<Index>().prop_map(Mutation::Truncate),
        any::<Index>().prop_map(Mutation::Drop),
        any::<Index>().prop_map(Mutation::Duplicate),
        (any::<Index>(), any::<Index>(), prop::sample::select(JUNK_WORDS))
            .prop_map(|(l, w, j)| Mutation::Word(l, w, j)),
        (any::<Index>(), prop::sample::select(JUNK_LINES)).prop_map(|(l, j)| Mutation::Insert(l, j)),
        any::<Index>().prop_map(Mutation::Spaces),
    ]
}

/// A line of the stream: from the turns' part when `in_turns` (most bugs would hide there).
fn pick_line(lines: &[String], index: &Index, in_turns: bool) -> usize {
    let start = if in_turns { PACK_LINES.min(lines.len().saturating_sub(1)) } else { 0 };
    start + index.index(lines.len() - start)
}

fn mutate(base: &str, mutations: &[(Mutation, bool)]) -> String {
    let mut lines: Vec<String> = base.lines().map(str::to_string).collect();
    for (m, in_turns) in mutations {
        if lines.is_empty() {
            break;
        }
        match m {
            Mutation::Truncate(at) => {
                let text = lines.join("\n");
                let cut = &text[..at.index(text.len() + 1)];
                lines = cut.split('\n').map(str::to_string).collect();
            }
            Mutation::Drop(i) => {
                lines.remove(pick_line(&lines, i, *in_turns));
            }
            Mutation::Duplicate(i) => {
                let i = pick_line(&lines, i, *in_turns);
                lines.insert(i, lines[i].clone());
            }
            Mutation::Word(i, w, junk) => {
                let i = pick_line(&lines, i, *in_turns);
                let mut words: Vec<&str> = lines[i].split(' ').collect();
                let w = w.index(words.len() + 1);
                if w == words.len() {
                    words.push(junk);
                } else {
                    words[w] = junk;
                }
                lines[i] = words.join(" ");
            }
            Mutation::Insert(i, junk) => {
                let i = pick_line(&lines, i, *in_turns);
                lines.insert(i, junk.to_string());
            }
            Mutation::Spaces(i) => {
                let i = pick_line(&lines, i, *in_turns);
                lines[i] = format!(" {} \r", lines[i].replace(' ', " \t "));
            }
        }
    }
    lines.join("\n")
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn arbitrary_bytes(bytes in prop::collection::vec(any::<u8>(), 0..600)) {
        check_stream(&bytes)?;
    }

    /// Arbitrary bytes where the first turn should be: the turn reader's turn.
    #[test]
    fn a_pack_list_then_arbitrary_bytes(bytes in prop::collection::vec(any::<u8>(), 0..1200)) {
        check_stream(&[pack_text(0).as_bytes(), &bytes].concat())?;
    }

    /// Text close to a turn: digits, spaces, line breaks, `END` and signs.
    #[test]
    fn a_pack_list_then_turn_like_text(tail in "(([0-9]{1,3}|11|END|-|\\+| |\n|\r\n){0,400})") {
        check_stream(&[pack_text(0).as_bytes(), tail.as_bytes()].concat())?;
    }

    /// One to three mutations, each with a flag sending it to the turns' part of the stream
    /// (most lines are the pack list's, but the turns hold most of the grammar).
    #[test]
    fn mutations_of_a_real_stream(mutations in prop::collection::vec((mutation(), any::<bool>()), 1..4)) {
        check_stream(mutate(&base_input(), &mutations).as_bytes())?;
    }
}

#[test]
fn the_base_stream_is_well_formed_and_every_clean_cut_is_accepted() {
    let base = base_input();
    assert_eq!(oracle(base.as_bytes()), Some(TURNS));
    let lines: Vec<&str> = base.lines().collect();
    assert_eq!(lines.len(), PACK_LINES + TURNS * TURN_LINES);
    for turns in 0..=TURNS {
        let cut = lines[..PACK_LINES + turns * TURN_LINES].join("\n");
        assert_eq!(oracle(cut.as_bytes()), Some(turns));
        check_stream(cut.as_bytes()).unwrap();
        // One line fewer: inside a turn (or the pack list), an error.
        let short = lines[..PACK_LINES + turns * TURN_LINES - 1].join("\n");
        assert_eq!(oracle(short.as_bytes()), None);
        check_stream(short.as_bytes()).unwrap();
    }
}

/// The real binary: exit 0 at a clean end; for bad input exit 2 with one stderr line and no
/// panic or backtrace text.
#[test]
fn the_binary_reports_bad_input_in_one_line() {
    fn run(input: &[u8]) -> Output {
        let mut child = Command::new(env!("CARGO_BIN_EXE_codevs-reborn"))
            .args(["--strategy", "greedy"])
            .env("RUST_BACKTRACE", "1")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        // The bot may stop reading early (bad input): a broken pipe here is expected.
        let _ = child.stdin.take().unwrap().write_all(input);
        child.wait_with_output().unwrap()
    }
    let base = base_input();
    let clean = run(base.as_bytes());
    assert_eq!(clean.status.code(), Some(0), "{}", String::from_utf8_lossy(&clean.stderr));
    assert_eq!(String::from_utf8_lossy(&clean.stdout).lines().count(), 1 + TURNS);
    assert!(clean.stderr.is_empty());
    let packs_only = run(pack_text(0).as_bytes());
    assert_eq!((packs_only.status.code(), String::from_utf8_lossy(&packs_only.stdout).lines().count()), (Some(0), 1));

    let bad: Vec<(&str, Vec<u8>)> = vec![
        ("truncated in a field", base[..base.len() - 300].into()),
        ("a negative time", base.replacen("\n18000\n", "\n-18000\n", 1).into()),
        ("a huge score", base.replacen("\n0\n0\n0\n", "\n0\n0\n184467440737095516160\n", 1).into()),
        ("an empty line in a field", base.replacen("END\n17500", "\nEND\n17500", 1).into()),
        ("a junk word", base.replacen("END\n1\n", "END\none\n", 1).into()),
        ("a doubled turn number", base.replacen("END\n1\n", "END\n1\n1\n", 1).into()),
        ("invalid UTF-8", [base.as_bytes(), b"\xff\xfe\n"].concat()),
        ("nothing", Vec::new()),
    ];
    for (what, input) in bad {
        assert_ne!(oracle(&input), Some(TURNS), "{what}: the case must be bad input");
        let out = run(&input);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{what}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{what}: {stderr}");
        for word in ["panicked", "backtrace", "internal error"] {
            assert!(!stderr.contains(word), "{what}: {stderr}");
        }
    }
}
