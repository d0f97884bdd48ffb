//! The referee: plays one game between two bot processes with [`Game`], asking both bots every
//! turn, timing them, and turning silence, exits and bad lines into the rules' faults.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use super::bot::{BotProcess, Reply, StderrTo};
use crate::book::Prelude;
use crate::protocol::{write_turn, PlayerInput, TurnInput};
use crate::replay::Chain;
use crate::rules::{Action, FaultKind, Field, Game, GameResult, Pack, Packs, PlayerState, Simulator, TurnRecord};

/// Time limits and the thinking order.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// Thinking time for the whole game.
    pub game: Duration,
    /// Cap on one turn's thinking (`None`: no cap).
    pub turn: Option<Duration>,
    /// Time to print the name line after starting (not counted as thinking time).
    pub startup: Duration,
    /// Both bots think at once instead of one after the other.
    pub simultaneous: bool,
}
/// One player's answer in a turn.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Answer {
    /// The line the bot printed (`None`: none came).
    pub line: Option<String>,
    /// Thinking time spent on it.
    pub time: Duration,
    /// The legal action, or the fault that replaced it (skill legality included).
    pub action: Result<Action, FaultKind>,
}

/// What happened in one turn.
#[derive(Clone, Debug)]
pub struct TurnLog {
    pub turn: usize,
    pub answers: [Answer; 2],
    /// The played turn; `None` when a fault ended the game instead.
    pub record: Option<TurnRecord>,
    /// Both players after the turn (when it was played).
    pub states: Option<[PlayerState<Field>; 2]>,
}

/// A finished game, seats in this game's order.
#[derive(Clone, Debug)]
pub struct PlayedGame {
    /// The name lines (empty when a bot printed none).
    pub names: [String; 2],
    pub result: GameResult,
    /// Each seat's fault in the last turn, if any.
    pub faults: [Option<FaultKind>; 2],
    pub turns: Vec<TurnLog>,
    /// Each bot's exact input stream.
    pub inputs: [Vec<u8>; 2],
    /// The packs of the turns begun, in order (so a replay can be re-played without the pack file).
    pub packs: Vec<Pack>,
    /// Each bot's thinking time for the whole game.
    pub time_limit: Duration,
    pub time_used: [Duration; 2],
    pub max_chain: [Option<Chain>; 2],
    /// Each bot's chains of 10 links or more, in turn order: the chains that send rows.
    pub chains_10: [Vec<Chain>; 2],
    /// Each bot's peak resident memory in KiB, when it could be measured (see
    /// [`BotProcess::finish`]).
    pub peak_rss_kib: [Option<u64>; 2],
    /// The first turn the bots were asked: 0, or a book position's turn (the turns before it
    /// were its moves, played by the referee).
    pub start_turn: usize,
}

/// Plays one game between `commands[0]` (player 0) and `commands[1]`, both under `taskset -c
/// cpus` when `cpus` is given. With a prelude (a book position) its moves are played first,
/// their times taken from both clocks, and the bots are asked from the turn after them. Returns
/// `Ok(None)` when `stop` was raised before the end; `Err` when a bot cannot be started at all or
/// the prelude is not a game in progress.
pub fn play_game(
    packs: &Packs,
    prelude: Option<&Prelude>,
    commands: [&str; 2],
    cpus: Option<&str>,
    stderr: [StderrTo; 2],
    limits: &Limits,
    stop: &AtomicBool,
) -> Result<Option<PlayedGame>, String> {
    let [e0, e1] = stderr;
    let mut bots = [BotProcess::start(commands[0], cpus, e0)?, BotProcess::start(commands[1], cpus, e1)?];

    // The name lines: both bots start at once; a bot without one has faulted before turn 0.
    let started = Instant::now();
    let mut names = [String::new(), String::new()];
    let mut startup_faults = [None; 2];
    for p in 0..2 {
        match bots[p].reply(started, limits.startup) {
            Reply::Line(name, _) => names[p] = name.trim().to_string(),
            Reply::Timeout => startup_faults[p] = Some(FaultKind::Timeout),
            Reply::Closed => startup_faults[p] = Some(FaultKind::Crash),
        }
    }
    let pack_text = packs.to_string();
    for p in 0..2 {
        if startup_faults[p].is_none() {
            bots[p].send(pack_text.as_bytes());
        }
    }

    let mut game = Game::<crate::Engine>::new(packs.clone());
    let mut remaining = [limits.game; 2];
    let mut turns = Vec::new();
    let mut chains = Chains::default();
    let prelude_turns = prelude.map_or(&[][..], |p| &p.actions[..]);
    for (turn, actions) in prelude_turns.iter().enumerate() {
        let time = prelude.map(|p| p.time_at(turn, limits.game)).unwrap_or_default();
        let answers =
            [0, 1].map(|p| Answer { line: Some(actions[p].to_string()), time: time[p], action: Ok(actions[p]) });
        let Some(record) = game.play(actions.map(Ok)) else {
            return Err(format!("the position's move at turn {turn} is illegal: {} / {}", actions[0], actions[1]));
        };
        if game.result().is_some() {
            return Err(format!("the position's moves end the game at turn {turn}"));
        }
        chains.add(&record);
        for p in 0..2 {
            remaining[p] = remaining[p].saturating_sub(time[p]);
        }
        let states = Some(game.players.clone().map(plain_state));
        turns.push(TurnLog { turn, answers, record: Some(record), states });
    }
    let first_asked = game.turn;
    let result = loop {
        if stop.load(Ordering::Relaxed) {
            return Ok(None);
        }
        let turn = game.turn;
        let inputs = [0, 1].map(|p| turn_input(&game, p, remaining));
        let limit = |rem: Duration| limits.turn.map_or(rem, |cap| cap.min(rem));
        let mut replies = [None, None];
        if limits.simultaneous {
            let sent = [0, 1].map(|p| startup_faults[p].is_none().then(|| bots[p].send(&inputs[p])));
            for p in 0..2 {
                replies[p] = sent[p].map(|at| bots[p].reply(at, limit(remaining[p])));
            }
        } else {
            for p in 0..2 {
                if startup_faults[p].is_none() {
                    let at = bots[p].send(&inputs[p]);
                    replies[p] = Some(bots[p].reply(at, limit(remaining[p])));
                }
            }
        }
        let answers = [0, 1].map(|p| {
            let lim = limit(remaining[p]);
            let (line, time, action) = match replies[p].take() {
                None => (None, Duration::ZERO, Err(startup_faults[p].expect("a bot is asked unless it faulted"))),
                Some(Reply::Line(line, took)) => {
                    let action = line.parse::<Action>().map_err(|_| FaultKind::Invalid).and_then(|a| game.check(p, a));
                    (Some(line), took, action)
                }
                Some(Reply::Timeout) => (None, lim, Err(FaultKind::Timeout)),
                Some(Reply::Closed) => (None, Duration::ZERO, Err(FaultKind::Crash)),
            };
            remaining[p] = remaining[p].saturating_sub(time);
            Answer { line, time, action }
        });
        // Memory: the bot's processes are looked for once it has answered (a wrapper may print
        // the name before starting it), then sampled every turn.
        for bot in &mut bots {
            if turn == first_asked {
                bot.find_processes();
            } else {
                bot.sample_memory();
            }
        }
        let record = game.play([answers[0].action, answers[1].action]);
        if let Some(r) = &record {
            chains.add(r);
        }
        let states = record.is_some().then(|| game.players.clone().map(plain_state));
        turns.push(TurnLog { turn, answers, record, states });
        if let Some(result) = game.result() {
            break result;
        }
    };
    let last = turns.last().expect("a game has a turn");
    let faults = [0, 1].map(|p| last.answers[p].action.err());
    let time_used = [0, 1].map(|p| limits.game.saturating_sub(remaining[p]));
    let inputs = bots.each_mut().map(|b| std::mem::take(&mut b.input));
    let peak_rss_kib = bots.map(BotProcess::finish);
    let packs = packs.0[..turns.len()].to_vec();
    Ok(Some(PlayedGame {
        names,
        result,
        faults,
        turns,
        inputs,
        packs,
        time_limit: limits.game,
        time_used,
        max_chain: chains.max,
        chains_10: chains.of_10,
        peak_rss_kib,
        start_turn: first_asked,
    }))
}

/// Each player's largest chain and its chains of 10+ links, as the turns are played.
#[derive(Default)]
struct Chains {
    max: [Option<Chain>; 2],
    of_10: [Vec<Chain>; 2],
}

impl Chains {
    fn add(&mut self, record: &TurnRecord) {
        for p in 0..2 {
            let chain = Chain { links: record.outcomes[p].links, turn: record.turn };
            if chain.links > 0 && self.max[p].is_none_or(|m| chain.links > m.links) {
                self.max[p] = Some(chain);
            }
            if chain.links >= 10 {
                self.of_10[p].push(chain);
            }
        }
    }
}

/// The bytes player `p` is sent at the start of the current turn: itself first, then the
/// opponent, each with its remaining time as of the turn's start.
fn turn_input<S: Simulator>(game: &Game<S>, p: usize, remaining: [Duration; 2]) -> Vec<u8> {
    let player = |q: usize| {
        let s = &game.players[q];
        PlayerInput {
            time_left_ms: remaining[q].as_millis() as u64,
            garbage: s.garbage,
            gauge: s.gauge,
            score: s.score,
            field: s.field.to_field(),
        }
    };
    let input = TurnInput { turn: game.turn, me: player(p), opponent: player(1 - p) };
    let mut bytes = Vec::with_capacity(800);
    write_turn(&mut bytes, &input).expect("writing to memory");
    bytes
}

fn plain_state<S: Simulator>(s: PlayerState<S>) -> PlayerState<Field> {
    PlayerState { field: s.field.to_field(), garbage: s.garbage, gauge: s.gauge, score: s.score }
}
