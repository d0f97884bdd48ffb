//! The gauntlet's summary: the score table by opponent, and the first and second exchange tables.

use std::collections::hash_map::Entry;
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::fs;
use std::path::{Path, PathBuf};

use super::line::{complete_lines, drop_replayed_void, parse_lines, GauntletLine};
use super::Opponent;
use crate::arena::acts::{in_game, Decision};
use crate::arena::paired::{self, Outcome};
use crate::arena::record::replay_dir;
use crate::arena::stats::{self, Tally};
use crate::arena::table::{format_table, label_left};
use crate::arena::{fault_name, fmt_elo};
use crate::replay::Replay;

/// Reads the games of `--summary` files, refusing what would make a false summary: games of two
/// different bots, or one game twice (a file given twice, or a shard resumed into another's
/// file). The files are only read: one still being written loses just its unfinished last line.
/// With `pool`, games of different commands are one bot's (the same build from another path);
/// with `pairing` too (the games are compared with another bot's), a game is refused twice
/// whatever its commands, since it would pair twice.
fn load_summary_files(files: &[PathBuf], pool: bool, pairing: bool) -> Result<Vec<GauntletLine>, String> {
    let mut lines: Vec<GauntletLine> = Vec::new();
    let mut our_bot: Option<(String, &Path)> = None;
    let mut seen: HashMap<(String, String, String, usize), &Path> = HashMap::new();
    for path in files {
        let text = fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
        let complete = complete_lines(&text);
        if complete.len() < text.len() {
            eprintln!("codevs-reborn: {}: left out an unfinished last line", path.display());
        }
        for g in drop_replayed_void(parse_lines(path, complete)?) {
            let game = format!("game {} of {} on {}", g.line.game, g.opponent, g.line.packs);
            let ours = &g.line.commands[g.our_seat];
            match &our_bot {
                None => our_bot = Some((ours.clone(), path)),
                Some((bot, first)) if bot != ours && !pool => {
                    return Err(format!(
                        "{}: {game} was played by `{ours}`, but {} holds games of `{bot}`: summarize one \
                         bot's games at a time",
                        path.display(),
                        first.display()
                    ))
                }
                Some(_) => {}
            }
            let bot_key = if pool && pairing { String::new() } else { ours.clone() };
            match seen.entry((bot_key, g.opponent.clone(), g.line.packs.clone(), g.line.game)) {
                Entry::Occupied(first) => {
                    let both = if *first.get() == path.as_path() {
                        format!("{} holds", path.display())
                    } else {
                        format!("{} and {} both hold", first.get().display(), path.display())
                    };
                    return Err(format!(
                        "{both} {game}: give each shard's file once (the shards' files or their concatenation, \
                         not both)"
                    ));
                }
                Entry::Vacant(slot) => {
                    slot.insert(path);
                }
            }
            lines.push(g);
        }
    }
    Ok(lines)
}

/// `--summary`: the summary of the games in `files`, playing none; with `--compare`, the
/// summary of the other bot's games in `compare` too, and the two compared game by game.
/// With `acts` (`--where-held`, `--where-forced-loss` or `--where-outpaced`, and the `--compare`
/// games' `--replays` folders), only the pairs whose `--compare` game met that decision are
/// summarized and compared.
pub(super) fn summarize(
    files: &[PathBuf],
    compare: &[PathBuf],
    pool: bool,
    acts: Option<(Decision, &[PathBuf])>,
) -> Result<(), String> {
    let pairing = !compare.is_empty();
    let only = match acts {
        Some((decision, folders)) => {
            let keys = games_where(&load_summary_files(compare, pool, pairing)?, decision, folders)?;
            println!(
                "where the --compare bot's game {}: {} games ({})\n",
                decision.describe(),
                keys.len(),
                decision.flag()
            );
            Some(keys)
        }
        None => None,
    };
    let (a_bot, a) = summarize_one(files, pool, pairing, only.as_ref())?;
    if !pairing {
        return Ok(());
    }
    println!();
    let (b_bot, b) = summarize_one(compare, pool, pairing, only.as_ref())?;
    println!();
    let (a, b): (Vec<Outcome>, Vec<Outcome>) = (played_outcomes(&a), played_outcomes(&b));
    print!("{}", paired::paired_text(&a_bot, &b_bot, &a, &b));
    Ok(())
}

/// The games that count (not void), as a comparison with another bot's sees them.
pub(super) fn played_outcomes(lines: &[GauntletLine]) -> Vec<Outcome<'_>> {
    lines.iter().filter(|g| !g.is_void()).map(GauntletLine::outcome).collect()
}

/// Prints the summary of one bot's games in `files`; returns the bot's command (its commands,
/// pooled) and the games.
fn summarize_one(
    files: &[PathBuf],
    pool: bool,
    pairing: bool,
    only: Option<&HashSet<GameKey>>,
) -> Result<(String, Vec<GauntletLine>), String> {
    let mut lines = load_summary_files(files, pool, pairing)?;
    if let Some(keys) = only {
        lines.retain(|g| keys.contains(&game_key(g)));
    }
    if lines.is_empty() {
        let names: Vec<String> = files.iter().map(|f| f.display().to_string()).collect();
        return Err(format!("{}: no games to summarize", names.join(", ")));
    }
    let mut commands: Vec<&str> = Vec::new();
    for g in &lines {
        let ours = g.line.commands[g.our_seat].as_str();
        if !commands.contains(&ours) {
            commands.push(ours);
        }
    }
    let bot = match commands.as_slice() {
        [one] => one.to_string(),
        _ => format!("{}; pooled", commands.join(" | ")),
    };
    let source = match files {
        [file] => file.display().to_string(),
        _ => format!("{} files", files.len()),
    };
    print_summary(&bot, &format!("from {source}"), &[], &lines);
    Ok((bot, lines))
}

/// A game as a comparison pairs it: opponent, pack file or seed, our seat.
type GameKey = (String, String, usize);

fn game_key(g: &GauntletLine) -> GameKey {
    (g.opponent.clone(), g.line.packs.clone(), g.our_seat)
}

/// The games of `lines` where `decision` came up ([`in_game`]), each read from the one of
/// `folders` (`--replays` folders) that holds it: `<opponent>/game-NNNN/` there with the same
/// packs.
fn games_where(lines: &[GauntletLine], decision: Decision, folders: &[PathBuf]) -> Result<HashSet<GameKey>, String> {
    let mut came_up = HashSet::new();
    for g in lines {
        let recorded = folders.iter().find_map(|root| {
            let dir = replay_dir(&root.join(&g.opponent), g.line.game);
            let replay = Replay::read(&dir).ok().filter(|replay| replay.result.packs == g.line.packs)?;
            Some((dir, replay))
        });
        let (dir, replay) = recorded.ok_or_else(|| {
            format!(
                "game {} of {} on {}: not in any --compare-replays folder (give the --replays folder of each --compare file)",
                g.line.game, g.opponent, g.line.packs
            )
        })?;
        if in_game(&dir, &replay, g.our_seat, decision)?.is_some() {
            came_up.insert(game_key(g));
        }
    }
    Ok(came_up)
}

pub(super) fn tally<'a>(games: impl IntoIterator<Item = &'a GauntletLine>) -> Tally {
    let mut t = Tally::default();
    for g in games {
        t.add(g.our_score());
    }
    t
}

/// Complete pairs (both games on the same packs) and how many of them are mirrors: the same
/// commands seat by seat in both games, so each bot played exactly the other's game and the pair
/// scores 1–1 by construction (deterministic bots that play alike).
fn mirror_pairs(games: &[&GauntletLine]) -> (usize, usize) {
    let mut pairs: BTreeMap<(&str, &str, usize), [Option<&GauntletLine>; 2]> = BTreeMap::new();
    for g in games {
        pairs.entry((&g.opponent, &g.line.packs, g.pair)).or_default()[g.line.game % 2] = Some(g);
    }
    let complete: Vec<_> = pairs.values().filter_map(|[a, b]| Some((a.as_ref()?, b.as_ref()?))).collect();
    let mirrors = complete
        .iter()
        .filter(|(a, b)| {
            a.moves == b.moves
                && (a.line.winner, a.line.reason, a.line.turns, a.line.scores)
                    == (b.line.winner, b.line.reason, b.line.turns, b.line.scores)
        })
        .count();
    (complete.len(), mirrors)
}

fn median(mut values: Vec<u64>) -> Option<f64> {
    values.sort_unstable();
    let n = values.len();
    match n {
        0 => None,
        _ if n % 2 == 1 => Some(values[n / 2] as f64),
        _ => Some((values[n / 2 - 1] + values[n / 2]) as f64 / 2.0),
    }
}

/// How often each name occurs, in name order: `kera 10, toga 1` (empty for none).
fn counts_text<'a>(names: impl IntoIterator<Item = &'a str>) -> String {
    let mut counts: BTreeMap<&str, u64> = BTreeMap::new();
    for name in names {
        *counts.entry(name).or_default() += 1;
    }
    counts.iter().map(|(name, n)| format!("{name} {n}")).collect::<Vec<_>>().join(", ")
}

/// The void games by opponent: `kera 10, toga 1`.
fn void_counts(lines: &[GauntletLine]) -> String {
    counts_text(lines.iter().filter(|g| g.is_void()).map(|g| g.opponent.as_str()))
}

/// `kind n, kind n` or `-`.
fn faults(games: &[&GauntletLine], ours: bool) -> String {
    let seat = |g: &GauntletLine| if ours { g.our_seat } else { g.their_seat() };
    let text = counts_text(games.iter().filter_map(|g| g.line.faults[seat(g)]).map(fault_name));
    if text.is_empty() {
        "-".into()
    } else {
        text
    }
}

/// One row of the summary table.
fn row(label: &str, games: &[&GauntletLine]) -> (Vec<String>, usize) {
    let t = tally(games.iter().copied());
    let score = t.score().map_or("-".into(), |s| format!("{:.1}%", 100.0 * s));
    let interval =
        stats::score_interval(&t).map_or("-".into(), |(lo, hi)| format!("[{:.1}%, {:.1}%]", 100.0 * lo, 100.0 * hi));
    let elo = stats::elo_estimate(&t)
        .map_or("-".into(), |e| format!("{} [{}, {}]", fmt_elo(e.elo), fmt_elo(e.low), fmt_elo(e.high)));
    let packs: BTreeSet<&str> = games.iter().map(|g| g.line.packs.as_str()).collect();
    let (pairs, mirrors) = mirror_pairs(games);
    let seconds = |ours: bool| {
        let times = games.iter().map(|g| g.line.time_ms[if ours { g.our_seat } else { g.their_seat() }]);
        median(times.collect()).map_or("-".into(), |ms| format!("{:.2} s", ms / 1000.0))
    };
    let rss = games.iter().filter_map(|g| g.peak_rss_kib[g.our_seat]).max();
    let cells = vec![
        label.to_string(),
        games.len().to_string(),
        format!("{}-{}-{}", t.wins, t.draws, t.losses),
        score,
        interval,
        elo,
        packs.len().to_string(),
        format!("{mirrors}/{pairs}"),
        seconds(true),
        seconds(false),
        format!("{} / {}", faults(games, true), faults(games, false)),
        rss.map_or("-".into(), |kib| format!("{:.1} MiB", kib as f64 / 1024.0)),
    ];
    (cells, mirrors)
}

/// The opponents' names: those given now, then any other in the file.
fn opponent_names<'a>(opponents: &'a [Opponent], lines: &'a [GauntletLine]) -> Vec<&'a str> {
    let mut names: Vec<&str> = opponents.iter().map(|o| o.name.as_str()).collect();
    for g in lines {
        if !names.contains(&g.opponent.as_str()) {
            names.push(&g.opponent);
        }
    }
    names
}

/// The summary table: one row per opponent, and a total when there are several.
fn summary_table(opponents: &[Opponent], lines: &[GauntletLine]) -> (String, usize) {
    let names = opponent_names(opponents, lines);
    let header = [
        "opponent",
        "games",
        "W-D-L",
        "score",
        "95% interval",
        "Elo [95%]",
        "packs",
        "mirror pairs",
        "our time (median)",
        "their time",
        "faults (ours / theirs)",
        "our peak RSS",
    ];
    let mut rows = vec![header.map(str::to_string).to_vec()];
    let mut mirrors = 0;
    for name in &names {
        let games: Vec<&GauntletLine> = lines.iter().filter(|g| g.opponent == *name).collect();
        let (cells, m) = row(name, &games);
        rows.push(cells);
        mirrors += m;
    }
    if names.len() > 1 {
        rows.push(row("total", &lines.iter().collect::<Vec<_>>()).0);
    }
    let left = [true, false, false, false, false, true, false, false, false, false, true, false];
    (format_table(&rows, &left), mirrors)
}

/// How one exchange of a game went: each side's chain of 10 links or more of that round (the
/// chains that send rows; round 0 is each side's first, the opening race, round 1 the race to
/// rebuild after it), who fired first, and who sent more garbage with it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Exchange {
    /// Our chain of the round and theirs (links, turn).
    pub ours: Option<(u32, usize)>,
    pub theirs: Option<(u32, usize)>,
}

/// The exchanges the summary reads, by round.
const ROUND_NAMES: [&str; 2] = ["first", "second"];

impl Exchange {
    /// Round `round` of game `g`; None for a later round in a file written before every chain
    /// was recorded (only the first was).
    fn of(g: &GauntletLine, round: usize) -> Option<Exchange> {
        let chain = |seat: usize| match (&g.line.chains_10, round) {
            (Some(chains), _) => Some(chains[seat].get(round).map(|c| (c.links, c.turn))),
            (None, 0) => Some(g.line.first_chain_10[seat].map(|c| (c.links, c.turn))),
            (None, _) => None,
        };
        Some(Exchange { ours: chain(g.our_seat)?, theirs: chain(g.their_seat())? })
    }

    /// Who fired first: `Less` we did, `Greater` they did, `Equal` the same turn; `None` when
    /// neither fired a 10+ chain.
    pub fn first(&self) -> Option<std::cmp::Ordering> {
        match (self.ours, self.theirs) {
            (None, None) => None,
            (Some(_), None) => Some(std::cmp::Ordering::Less),
            (None, Some(_)) => Some(std::cmp::Ordering::Greater),
            (Some((_, ours)), Some((_, theirs))) => Some(ours.cmp(&theirs)),
        }
    }

    /// Our chain's garbage minus theirs (a side that fired none sent none): positive when we
    /// came out of the exchange ahead.
    pub fn garbage_ahead(&self) -> i64 {
        let garbage = |c: Option<(u32, usize)>| c.map_or(0, |(links, _)| i64::from(crate::rules::chain_garbage(links)));
        garbage(self.ours) - garbage(self.theirs)
    }
}

/// One row of an exchange table: the games of `games` that recorded round `round`.
fn exchange_row(label: &str, games: &[&GauntletLine], round: usize) -> Vec<String> {
    let exchanges: Vec<(Exchange, f64)> =
        games.iter().filter_map(|g| Exchange::of(g, round).map(|e| (e, g.our_score()))).collect();
    let count = |f: &dyn Fn(&Exchange) -> bool| exchanges.iter().filter(|(e, _)| f(e)).count();
    let fired = |side: fn(&Exchange) -> Option<(u32, usize)>| {
        let chains: Vec<(u32, usize)> = exchanges.iter().filter_map(|(e, _)| side(e)).collect();
        let links = median(chains.iter().map(|c| u64::from(c.0)).collect());
        let turn = median(chains.iter().map(|c| c.1 as u64).collect());
        match (links, turn) {
            (Some(l), Some(t)) => format!("{l} at {t} ({})", chains.len()),
            _ => "-".into(),
        }
    };
    let score_when = |f: &dyn Fn(&Exchange) -> bool| {
        let mut t = Tally::default();
        exchanges.iter().filter(|(e, _)| f(e)).for_each(|(_, s)| t.add(*s));
        format!("{}-{}-{}", t.wins, t.draws, t.losses)
    };
    let (ahead, behind) = (count(&|e| e.garbage_ahead() > 0), count(&|e| e.garbage_ahead() < 0));
    vec![
        label.to_string(),
        exchanges.len().to_string(),
        format!(
            "{}/{}/{}/{}",
            count(&|e| e.first() == Some(std::cmp::Ordering::Less)),
            count(&|e| e.first() == Some(std::cmp::Ordering::Greater)),
            count(&|e| e.first() == Some(std::cmp::Ordering::Equal)),
            count(&|e| e.first().is_none())
        ),
        fired(|e| e.ours),
        fired(|e| e.theirs),
        format!("{ahead}/{behind}/{}", exchanges.len() - ahead - behind),
        score_when(&|e| e.first() == Some(std::cmp::Ordering::Less)),
        score_when(&|e| e.first() == Some(std::cmp::Ordering::Greater)),
        score_when(&|e| e.garbage_ahead() > 0),
        score_when(&|e| e.garbage_ahead() < 0),
    ]
}

/// The exchange table of round `round`: one row per opponent, and a total when there are several.
fn exchange_table(opponents: &[Opponent], lines: &[GauntletLine], round: usize) -> String {
    let names = opponent_names(opponents, lines);
    let round_columns = [
        format!("{} 10+ fire: ours/theirs/same turn/none", ROUND_NAMES[round]),
        format!("our {} (median links at turn, games)", ROUND_NAMES[round]),
    ];
    let header = [
        "opponent",
        "games",
        &round_columns[0],
        &round_columns[1],
        "theirs",
        "garbage ahead: ours/theirs/even",
        "W-D-L we fired first",
        "they fired first",
        "we were ahead",
        "they were",
    ];
    let mut rows = vec![header.map(str::to_string).to_vec()];
    for name in &names {
        let games: Vec<&GauntletLine> = lines.iter().filter(|g| g.opponent == *name).collect();
        rows.push(exchange_row(name, &games, round));
    }
    if names.len() > 1 {
        rows.push(exchange_row("total", &lines.iter().collect::<Vec<_>>(), round));
    }
    format_table(&rows, &label_left(header.len()))
}

/// Prints the summary of `lines`, played by `bot`; `source` says where the games come from. Void
/// games ([`GauntletLine::is_void`]) are counted, then left out of every figure.
pub(super) fn print_summary(bot: &str, source: &str, opponents: &[Opponent], all: &[GauntletLine]) {
    let our_name = all.iter().map(|g| g.line.names[g.our_seat].as_str()).find(|n| !n.is_empty()).unwrap_or("?");
    println!("bot: {our_name} ({bot})");
    let lines: Vec<GauntletLine> = all.iter().filter(|g| !g.is_void()).cloned().collect();
    let lines = &lines[..];
    let void = all.len() - lines.len();
    if void == 0 {
        println!("games: {} ({source})", lines.len());
    } else {
        println!(
            "games: {} ({source}), and {void} void: the opponent ran out of time on the first turn, before \
             it made a move ({}), left out of every figure below; play them again with more cores a game \
             (--cpus-per-game, or fewer --jobs): the same command with the same --json plays only them",
            lines.len(),
            void_counts(all)
        );
    }
    let (table, mirrors) = summary_table(opponents, lines);
    print!("{table}");
    if mirrors > 0 {
        println!(
            "mirror pairs: {mirrors} pair(s) were one game played twice with seats swapped (deterministic bots \
             playing alike): such a pair scores exactly 50% whatever the strengths"
        );
    }
    println!(
        "our peak RSS: the largest peak resident memory (the kernel's VmHWM) of any of our bot's processes \
         in any game, sampled during the game and at its end"
    );
    println!();
    println!("first exchange: each side's first chain of 10 links or more (the first to send rows)");
    print!("{}", exchange_table(opponents, lines, 0));
    if lines.iter().any(|g| g.line.chains_10.is_some()) {
        println!("second exchange: each side's second chain of 10 links or more (the race to rebuild after the first)");
        print!("{}", exchange_table(opponents, lines, 1));
    }
    println!(
        "garbage ahead: whose chain of the round sent more garbage (a side that fired none sent none); W-D-L: \
         our results in the games where we, or they, fired first in that round, and where our chain, or \
         theirs, sent more; the second exchange counts the games whose file recorded every chain"
    );
}
