//! `codevs-reborn calibrate`: how well the race model reads an opponent, from recorded games (an
//! arena or gauntlet `--replays` folder), with each field as the other seat saw it (that seat's
//! `input-pN.txt`):
//! - fires: for each chain of 10+ links a bot fired (its first and second) and a few leads k, the
//!   race's probe of its field k turns before predicts the largest chain it can fire within those
//!   k turns;
//! - answers: when the other seat fired its first 10+ chain, the race's probe of the
//!   bot's field under that garbage predicts its answer within 10 turns.
//!
//! The probe is the one the bot runs every turn (`race menus`, theirs), bounded by nodes instead
//! of time so that a report can be reproduced; or, with `--recorded`, the probe our bot ran while
//! it played, read from the `race-features` lines its stderr kept: what it decided by.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::fs;
use std::io::BufReader;
use std::path::{Path, PathBuf};

use crate::bot::race::value::best_within;
use crate::bot::race::{probe, stock_after_our_fire, POTENTIAL_TURNS};
use crate::bot::{BotOptions, RaceFeatures, DEFAULT_NAME};
use crate::protocol::{Next, Reader, TurnInput};
use crate::replay::{RecordedGames, Replay};
use crate::rules::{Field, Packs, DANGER_ROW, GARBAGE_ROW};
use crate::search::chain::{tallest, Start};
use crate::state::TurnState;
use crate::Engine;

/// Flags of `calibrate`.
#[derive(Clone, Debug, clap::Args)]
pub struct CalibrateArgs {
    /// Folders searched (recursively) for games: each `replay.json` with the `input-p0.txt` and
    /// `input-p1.txt` beside it, as `arena --replays` and `gauntlet --replays` keep them; and
    /// `.tar.xz` archives of them, given or found in the folders (`data/games/`).
    #[arg(required = true, value_name = "DIR")]
    pub replays: Vec<PathBuf>,
    /// The bot whose fires are predicted, by the name it prints (default: every seat whose name
    /// is not ours).
    #[arg(long, value_name = "NAME")]
    pub bot_name: Option<String>,
    /// A fire is a drop's chain of at least this many links.
    #[arg(long, default_value_t = 10)]
    pub min_links: u32,
    /// Leads, in turns before the fire, at which the probe predicts it.
    #[arg(long, value_delimiter = ',', default_value = "0,1,2,3,5,8")]
    pub leads: Vec<usize>,
    /// Turns after the other seat's fire in which an answer counts (the race's exchange game
    /// gives the opponent 10).
    #[arg(long, default_value_t = 10)]
    pub answer_turns: usize,
    /// Simulations each probe may run (the bot's probes are bounded by time; this makes a
    /// report reproducible).
    #[arg(long, default_value_t = 1_000_000)]
    pub probe_nodes: u64,
    /// Read the probes our bot ran while it played instead of probing again: the `race-features`
    /// lines the other seat's stderr kept (`their_menu` each turn, `their_answer` on a turn our
    /// chain was weighed). No search, and the probe the bot decided by (its time budget, not
    /// --probe-nodes); a turn without a line predicts nothing.
    #[arg(long)]
    pub recorded: bool,
    /// The bot's flags (the probe's width and builder come from them).
    #[command(flatten)]
    pub bot: BotOptions,
}

/// One fire of the calibrated bot, and the probe's predictions of it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FireSample {
    /// The bot's printed name.
    pub name: String,
    /// 0 for its first fire of the game, 1 for its second.
    pub nth: usize,
    pub turn: usize,
    pub links: u32,
    /// Per lead (in the order asked): the largest chain the probe of its field at `turn − lead`
    /// found within `lead` turns, or None when that turn is before the game or the previous fire.
    pub predicted: Vec<Option<u32>>,
    /// Per lead: the largest chain that probe found within [`POTENTIAL_TURNS`] turns (what the
    /// bot could have built to had it waited; a fast firer fires below it).
    pub potential: Vec<Option<u32>>,
}

/// The other seat's first fire (of `--min-links` or more), the calibrated bot's answer to it, and
/// the race's prediction of that answer.
#[derive(Clone, Debug, PartialEq)]
pub struct AnswerSample {
    /// The answering bot's printed name.
    pub name: String,
    /// The turn of the other seat's fire.
    pub turn: usize,
    /// Its links.
    pub fired: u32,
    /// The answering bot's largest drop chain from that turn to `--answer-turns` turns later.
    pub answered: u32,
    /// The probe of its field at that turn, our garbage added to its stock (the counter
    /// analysis's): the largest chain within `--answer-turns` turns.
    pub predicted: u32,
    /// The game's result for the seat that fired: 1 won, ½ drawn, 0 lost.
    pub firer_result: f64,
    /// The garbage pending on the answering seat after that turn, less the room under the danger
    /// line above its tallest column (a row of blocks a row): above 0, rows are still pending
    /// when its field is full, and it must answer or die; at most 0, the rows fit and a field
    /// that waits them out is filled to the line, its chain under them. None when the replay
    /// holds no fields.
    pub overflow: Option<i64>,
}

/// What one game gives: the fires and the answers of the bots calibrated.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct GameSamples {
    pub fires: Vec<FireSample>,
    pub answers: Vec<AnswerSample>,
}

/// The turns of one seat's input file, by turn number.
fn read_inputs(path: &Path) -> Result<(Packs, Vec<TurnInput>), String> {
    let file = fs::File::open(path).map_err(|e| format!("cannot open {}: {e}", path.display()))?;
    let mut reader = Reader::new(BufReader::new(file));
    let packs = reader.read_packs().map_err(|e| format!("{}: {e}", path.display()))?;
    let mut turns = Vec::new();
    while let Next::Turn(turn) = reader.read_next().map_err(|e| format!("{}: {e}", path.display()))? {
        turns.push(*turn);
    }
    Ok((packs, turns))
}

/// The samples of one game folder.
pub fn game_samples(folder: &Path, args: &CalibrateArgs) -> Result<GameSamples, String> {
    let replay = Replay::read(folder)?;
    // Each seat's drop chains (not the skill's), by turn.
    let chains = |seat: usize| -> Vec<(usize, u32)> {
        replay
            .turns
            .iter()
            .filter_map(|t| t.outcomes.map(|o| (t.turn, o[seat])))
            .filter(|(_, o)| !o.skill && o.links > 0)
            .map(|(turn, o)| (turn, o.links))
            .collect()
    };
    let mut samples = GameSamples::default();
    for seat in 0..2 {
        let name = &replay.result.names[seat];
        let wanted = match &args.bot_name {
            Some(n) => n == name,
            None => name != DEFAULT_NAME,
        };
        if !wanted {
            continue;
        }
        let ours = chains(seat);
        let fires: Vec<(usize, u32)> = ours.iter().copied().filter(|&(_, l)| l >= args.min_links).take(2).collect();
        let their_fire = chains(1 - seat).into_iter().find(|&(_, l)| l >= args.min_links);
        if fires.is_empty() && their_fire.is_none() {
            continue;
        }
        let predictions = Predictions::of(folder, 1 - seat, args)?;
        for (nth, &(turn, links)) in fires.iter().enumerate() {
            let earliest = if nth == 0 { 0 } else { fires[nth - 1].0 + 1 };
            let (predicted, potential) = args
                .leads
                .iter()
                .map(|&lead| {
                    let at = turn.checked_sub(lead).filter(|&t| t >= earliest);
                    at.and_then(|at| predictions.fire(args, at, lead)).unzip()
                })
                .unzip();
            samples.fires.push(FireSample { name: name.clone(), nth, turn, links, predicted, potential });
        }
        if let Some((turn, fired)) = their_fire {
            if let Some(predicted) = predictions.answer(args, turn, fired) {
                let last = turn + args.answer_turns;
                let answered =
                    ours.iter().filter(|&&(t, _)| (turn..=last).contains(&t)).map(|&(_, l)| l).max().unwrap_or(0);
                let firer_result = match replay.result.winner {
                    -1 => 0.5,
                    w if w as usize == seat => 0.0,
                    _ => 1.0,
                };
                samples.answers.push(AnswerSample {
                    name: name.clone(),
                    turn,
                    fired,
                    answered,
                    predicted,
                    firer_result,
                    overflow: overflow(&replay, turn, seat)?,
                });
            }
        }
    }
    Ok(samples)
}

/// [`AnswerSample::overflow`] of `seat` after `turn`, from the replay's fields.
fn overflow(replay: &Replay, turn: usize, seat: usize) -> Result<Option<i64>, String> {
    let Some(state) = replay.turns.iter().find(|t| t.turn == turn).and_then(|t| t.states.as_ref()) else {
        return Ok(None);
    };
    let state = &state[seat];
    let field: Field =
        state.field.join("\n").parse().map_err(|e| format!("turn {turn}: a field that does not read: {e}"))?;
    let room = DANGER_ROW.saturating_sub(tallest(&field)) as i64 * i64::from(GARBAGE_ROW);
    Ok(Some(i64::from(state.garbage) - room))
}

/// The input of `turn` among a seat's inputs.
fn input_at(inputs: &[TurnInput], turn: usize) -> Option<&TurnInput> {
    inputs.iter().find(|t| t.turn == turn)
}

/// Where a game's predictions come from: the probe run again on the other seat's input (each
/// field as that seat saw it), or that seat's recorded `race-features` lines, by turn.
enum Predictions {
    Probed { packs: Packs, inputs: Vec<TurnInput> },
    Recorded(HashMap<usize, RaceFeatures>),
}

impl Predictions {
    /// The predictions of `seat`, the seat that saw the calibrated bot as its opponent.
    fn of(folder: &Path, seat: usize, args: &CalibrateArgs) -> Result<Self, String> {
        if !args.recorded {
            let (packs, inputs) = read_inputs(&folder.join(format!("input-p{seat}.txt")))?;
            return Ok(Predictions::Probed { packs, inputs });
        }
        let path = folder.join(format!("stderr-p{seat}.txt"));
        let lines = match fs::read_to_string(&path) {
            Ok(text) => RaceFeatures::all_in(&text).map_err(|e| format!("{}: {e}", path.display()))?,
            Err(_) => Vec::new(),
        };
        Ok(Predictions::Recorded(lines.into_iter().map(|f| (f.turn, f)).collect()))
    }

    /// At `turn`: the largest chain the probe found within `lead` turns, and within
    /// [`POTENTIAL_TURNS`].
    fn fire(&self, args: &CalibrateArgs, turn: usize, lead: usize) -> Option<(u32, u32)> {
        match self {
            Predictions::Probed { packs, inputs } => {
                input_at(inputs, turn).map(|input| predict(args, packs, input, lead))
            }
            Predictions::Recorded(lines) => {
                let menu: &[u32] = &lines.get(&turn)?.their_menu;
                Some((best_within(&[menu], lead), best_within(&[menu], POTENTIAL_TURNS)))
            }
        }
    }

    /// At `turn`, when the other seat fired `fired` links: the probe's answer.
    fn answer(&self, args: &CalibrateArgs, turn: usize, fired: u32) -> Option<u32> {
        match self {
            Predictions::Probed { packs, inputs } => {
                input_at(inputs, turn).map(|input| predict_answer(args, packs, input, fired))
            }
            Predictions::Recorded(lines) => lines.get(&turn)?.their_answer,
        }
    }
}

/// The race's probe of the opponent's answer to our fire of `fired` links now: its
/// field with our garbage added to its stock (less ours), the largest chain within
/// `--answer-turns` turns.
fn predict_answer(args: &CalibrateArgs, packs: &Packs, input: &TurnInput, fired: u32) -> u32 {
    let state = TurnState::<Engine>::new(input, packs);
    let stock = stock_after_our_fire([state.me.garbage, state.opponent.garbage], fired);
    let start = Start { field: &state.opponent.field, packs, turn: state.turn, garbage: stock };
    let result = probe(&args.bot, start, args.answer_turns, None, Some(args.probe_nodes));
    result.best_within(args.answer_turns)
}

/// The largest chain the race's probe of the opponent's field finds within `lead` turns, and
/// within [`POTENTIAL_TURNS`].
fn predict(args: &CalibrateArgs, packs: &Packs, input: &TurnInput, lead: usize) -> (u32, u32) {
    let state = TurnState::<Engine>::new(input, packs);
    let start = Start { field: &state.opponent.field, packs, turn: state.turn, garbage: state.opponent.garbage };
    let depth = lead.max(POTENTIAL_TURNS);
    let result = probe(&args.bot, start, depth, None, Some(args.probe_nodes));
    (result.best_within(lead), result.best_within(POTENTIAL_TURNS))
}

/// The report: per bot and fire (first, second), the fires seen and, per lead, the probe's error;
/// then per bot its answers to the other seat's first fire against the race's probe.
pub fn report(all: &GameSamples, leads: &[usize], answer_turns: usize, min_links: u32) -> String {
    let samples = &all.fires;
    let mut out = String::new();
    // The bot column fits the longest name.
    let names_all = samples.iter().map(|s| &s.name).chain(all.answers.iter().map(|s| &s.name));
    let w = names_all.map(|n| n.chars().count()).max().unwrap_or(0).max(3);
    let mut names: Vec<&str> = samples.iter().map(|s| s.name.as_str()).collect();
    names.sort();
    names.dedup();
    let _ = writeln!(
        out,
        "{:<w$} {:<6} {:>5} {:>22} {:>5} {:>6} {:>15} {:>10} {:>12} {:>10}",
        "bot",
        "fire",
        "fires",
        "links at turn (median)",
        "lead",
        "probed",
        "mean error",
        "mean |err|",
        "probe ≥ fire",
        "held back"
    );
    for name in names {
        for nth in 0..2 {
            let of: Vec<&FireSample> = samples.iter().filter(|s| s.name == name && s.nth == nth).collect();
            if of.is_empty() {
                continue;
            }
            let fire = if nth == 0 { "first" } else { "second" };
            let links = median(of.iter().map(|s| f64::from(s.links)).collect());
            let turn = median(of.iter().map(|s| s.turn as f64).collect());
            for (i, lead) in leads.iter().enumerate() {
                let errors: Vec<i64> =
                    of.iter().filter_map(|s| s.predicted[i].map(|p| i64::from(s.links) - i64::from(p))).collect();
                let n = errors.len();
                let held: Vec<i64> =
                    of.iter().filter_map(|s| s.potential[i].map(|p| i64::from(p) - i64::from(s.links))).collect();
                let held = match held.len() {
                    0 => "-".to_string(),
                    k => format!("{:+.2}", held.iter().sum::<i64>() as f64 / k as f64),
                };
                let (mean, mean_abs, covered) = if n == 0 {
                    ("-".to_string(), "-".to_string(), "-".to_string())
                } else {
                    let mean = errors.iter().sum::<i64>() as f64 / n as f64;
                    let abs = errors.iter().map(|e| e.abs()).sum::<i64>() as f64 / n as f64;
                    let covered = errors.iter().filter(|&&e| e <= 0).count();
                    (format!("{mean:+.2} links"), format!("{abs:.2}"), format!("{covered}/{n}"))
                };
                let head = if i == 0 {
                    format!("{name:<w$} {fire:<6} {:>5} {:>22}", of.len(), format!("{links} at {turn}"))
                } else {
                    format!("{:<w$} {:<6} {:>5} {:>22}", "", "", "", "")
                };
                let _ = writeln!(out, "{head} {lead:>5} {n:>6} {mean:>15} {mean_abs:>10} {covered:>12} {held:>10}");
            }
        }
    }
    let _ = writeln!(
        out,
        "error: the links fired minus the probe's largest chain within `lead` turns of its field `lead` turns before \
         (positive: the bot fired more than the probe saw); probe ≥ fire: fires the probe saw coming at that size; \
         held back: the mean of the probe's largest chain within {POTENTIAL_TURNS} turns minus the links fired \
         (positive: the bot fired below what it could have built, a fast firer)"
    );
    if all.answers.is_empty() {
        return out;
    }
    let _ = writeln!(
        out,
        "\n{:<w$} {:>7} {:>18} {:>18} {:>16} {:>15} {:>10} {:>14}",
        "bot",
        "answers",
        "their fire (med.)",
        "answered (med.)",
        "probed (med.)",
        "mean error",
        "mean |err|",
        "probe ≥ answer"
    );
    let names = bot_names(&all.answers);
    for name in names {
        let of: Vec<&AnswerSample> = all.answers.iter().filter(|s| s.name == name).collect();
        let n = of.len();
        let errors: Vec<i64> = of.iter().map(|s| i64::from(s.answered) - i64::from(s.predicted)).collect();
        let mean = errors.iter().sum::<i64>() as f64 / n as f64;
        let abs = errors.iter().map(|e| e.abs()).sum::<i64>() as f64 / n as f64;
        let covered = errors.iter().filter(|&&e| e <= 0).count();
        let med = |f: fn(&AnswerSample) -> u32| median(of.iter().map(|s| f64::from(f(s))).collect());
        let _ = writeln!(
            out,
            "{name:<w$} {n:>7} {:>18} {:>18} {:>16} {:>15} {:>10.2} {:>14}",
            med(|s| s.fired),
            med(|s| s.answered),
            med(|s| s.predicted),
            format!("{mean:+.2} links"),
            abs,
            format!("{covered}/{n}")
        );
    }
    let _ = writeln!(
        out,
        "answers: the bot's largest drop chain within {answer_turns} turns of the other seat's first fire (0: none), \
         against the race's probe of its field at that turn, the fire's garbage added to its stock \
         (error: answered minus probed)"
    );
    out.push_str(&margins_report(&all.answers));
    out.push_str(&answered_report(&all.answers, min_links));
    out.push_str(&room_report(&all.answers, min_links));
    out.push_str(&timing_report(&all.answers));
    out
}

/// The margins a first fire is weighed by, in links: the chain fired less the probed answer.
const MARGINS: [(&str, i64, i64); 4] = [("≤ -3", i64::MIN, -3), ("-2..-1", -2, -1), ("0", 0, 0), ("≥ +1", 1, i64::MAX)];

/// Per bot, the other seat's first fires by their margin over the probed answer (what the
/// race's exchange game weighs), and how the game ended for the seat that fired.
fn margins_report(answers: &[AnswerSample]) -> String {
    let mut out = String::new();
    let w = name_width(answers);
    let _ = write!(out, "\n{:<w$}", "bot");
    for (label, ..) in MARGINS {
        let _ = write!(out, " {:>16}", format!("margin {label}"));
    }
    let _ = writeln!(out);
    let names = bot_names(answers);
    for name in names {
        let _ = write!(out, "{name:<w$}");
        for (_, low, high) in MARGINS {
            let of: Vec<&AnswerSample> = answers
                .iter()
                .filter(|s| s.name == name && (low..=high).contains(&(i64::from(s.fired) - i64::from(s.predicted))))
                .collect();
            let won = games_won(&of);
            let _ = write!(out, " {:>16}", format!("{won} of {}", of.len()));
        }
        let _ = writeln!(out);
    }
    let _ = writeln!(
        out,
        "margin: the other seat's first fire less the probed answer, in links; won: the games the seat that fired won \
         (a draw counts a half)"
    );
    out
}

/// The answers a first fire met, in links: the chain answered less the chain fired (an answer
/// under `--min-links` counts as none).
const ANSWER_GAPS: [(&str, i64, i64); 4] = [("≤ -1", i64::MIN, -1), ("+0", 0, 0), ("+1", 1, 1), ("≥ +2", 2, i64::MAX)];

/// Per bot, the other seat's first fires by the answer the bot fired (none, or its links less
/// the fire's), and how the game ended for the seat that fired: what the probe's margin stands
/// for, read on what happened.
fn answered_report(answers: &[AnswerSample], min_links: u32) -> String {
    let mut out = String::new();
    let w = name_width(answers);
    let _ = write!(out, "\n{:<w$} {:>16}", "bot", "no answer");
    for (label, ..) in ANSWER_GAPS {
        let _ = write!(out, " {:>16}", format!("answer {label}"));
    }
    let _ = writeln!(out);
    let names = bot_names(answers);
    for name in names {
        let of_bot = answers.iter().filter(|s| s.name == name);
        let none: Vec<&AnswerSample> = of_bot.clone().filter(|s| s.answered < min_links).collect();
        let _ = write!(out, "{name:<w$} {:>16}", format!("{} of {}", games_won(&none), none.len()));
        for (_, low, high) in ANSWER_GAPS {
            let of: Vec<&AnswerSample> = of_bot
                .clone()
                .filter(|s| s.answered >= min_links)
                .filter(|s| (low..=high).contains(&(i64::from(s.answered) - i64::from(s.fired))))
                .collect();
            let _ = write!(out, " {:>16}", format!("{} of {}", games_won(&of), of.len()));
        }
        let _ = writeln!(out);
    }
    let _ = writeln!(
        out,
        "answer: the bot's answer (its largest drop chain in the answer's turns, none under {min_links} links) less \
         the other seat's first fire, in links; won: by the seat that fired"
    );
    out
}

/// Per bot, the other seat's first fires by whether their rows fit the room left on its field
/// ([`AnswerSample::overflow`]): how often it answered, and how the game ended for the seat that
/// fired. A bot that answers only when the rows would bury it shows here.
fn room_report(answers: &[AnswerSample], min_links: u32) -> String {
    let mut out = String::new();
    let w = name_width(answers);
    let _ = writeln!(out, "\n{:<w$} {:>34} {:>34}", "bot", "the rows fit its room", "rows pending once it is full");
    let names = bot_names(answers);
    for name in names {
        let _ = write!(out, "{name:<w$}");
        for fits in [true, false] {
            let of: Vec<&AnswerSample> =
                answers.iter().filter(|s| s.name == name && s.overflow.is_some_and(|o| (o <= 0) == fits)).collect();
            let answered = of.iter().filter(|s| s.answered >= min_links).count();
            let won = games_won(&of);
            let _ = write!(out, " {:>34}", format!("{} fires, {answered} answered, {won} won", of.len()));
        }
        let _ = writeln!(out);
    }
    let _ = writeln!(
        out,
        "room: the rows under the danger line above its tallest column, against the garbage pending on it after the \
         other seat's first fire; answered: a drop chain of {min_links}+ links in the answer's turns; won: by the seat \
         that fired"
    );
    out
}

/// The turns and the links a first fire is counted in by [`timing_report`]: (label, lowest,
/// highest), both ends included.
const FIRE_TURNS: [(&str, usize, usize); 6] =
    [("≤ 11", 0, 11), ("12", 12, 12), ("13", 13, 13), ("14", 14, 14), ("15", 15, 15), ("≥ 16", 16, usize::MAX)];
const FIRE_LINKS: [(&str, u32, u32); 5] =
    [("≤ 12", 0, 12), ("13", 13, 13), ("14", 14, 14), ("15-16", 15, 16), ("≥ 17", 17, u32::MAX)];

/// Per bot, the other seat's first fires by their turn and their links, with the games the seat
/// that fired won: whether a chain is worth its wait (a link more against a turn later) reads
/// here, as the opponent answered it.
fn timing_report(answers: &[AnswerSample]) -> String {
    let mut out = String::new();
    let names = bot_names(answers);
    for name in names {
        let w = (name.chars().count() + ": turn".len()).max(12);
        let _ = write!(out, "\n{:<w$}", format!("{name}: turn"));
        for (label, ..) in FIRE_LINKS {
            let _ = write!(out, " {:>13}", format!("{label} links"));
        }
        let _ = writeln!(out);
        for (turn_label, first_turn, last_turn) in FIRE_TURNS {
            let _ = write!(out, "{turn_label:<w$}");
            for (_, fewest, most) in FIRE_LINKS {
                let of: Vec<&AnswerSample> = answers
                    .iter()
                    .filter(|s| s.name == name)
                    .filter(|s| (first_turn..=last_turn).contains(&s.turn) && (fewest..=most).contains(&s.fired))
                    .collect();
                let won = games_won(&of);
                let _ = write!(out, " {:>13}", format!("{won} of {}", of.len()));
            }
            let _ = writeln!(out);
        }
    }
    let _ = writeln!(
        out,
        "the other seat's first fires by their turn and links, against each bot: the games the seat that fired won \
         (a draw counts a half)"
    );
    out
}

/// The bots answering, each once, by name.
fn bot_names(answers: &[AnswerSample]) -> Vec<&str> {
    let mut names: Vec<&str> = answers.iter().map(|s| s.name.as_str()).collect();
    names.sort();
    names.dedup();
    names
}

/// The width of a table's bot column: the longest name, at least "bot".
fn name_width(answers: &[AnswerSample]) -> usize {
    answers.iter().map(|s| s.name.chars().count()).max().unwrap_or(0).max(3)
}

/// The games the firing seat won among `fires` (a draw a half); 0, not −0, for none (an empty
/// `f64` sum is −0).
fn games_won(fires: &[&AnswerSample]) -> f64 {
    fires.iter().fold(0.0, |won, s| won + s.firer_result)
}

fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(f64::total_cmp);
    let n = values.len();
    if n == 0 {
        return 0.0;
    }
    if n % 2 == 1 {
        values[n / 2]
    } else {
        (values[n / 2 - 1] + values[n / 2]) / 2.0
    }
}

/// `codevs-reborn calibrate`.
pub fn run(args: &CalibrateArgs) -> Result<(), String> {
    let found = RecordedGames::find(&args.replays)?;
    let folders: Vec<&Path> = found.games.iter().map(|g| g.folder.as_path()).collect();
    if folders.is_empty() {
        return Err("no replay.json found under the folders given (record games with --replays)".into());
    }
    let mut samples = GameSamples::default();
    for (i, folder) in folders.iter().enumerate() {
        eprint!("\rcalibrate: game {} of {}", i + 1, folders.len());
        let game = game_samples(folder, args)?;
        samples.fires.extend(game.fires);
        samples.answers.extend(game.answers);
    }
    eprintln!();
    if samples.fires.is_empty() && samples.answers.is_empty() {
        return Err(format!("no fire of {}+ links by the bot calibrated in {} games", args.min_links, folders.len()));
    }
    print!("{}", report(&samples, &args.leads, args.answer_turns, args.min_links));
    Ok(())
}
