//! The game as the page shows it: the replay re-played by the reference rules, every turn split
//! into frames (the field before the turn, after the garbage row, after the drop or at the
//! skill's explosion, before each chain link with the blocks it removes, after the turn).
//!
//! Re-playing is also a check: every state the replay recorded must be the one the rules give,
//! so a page never shows a game the rules would not have played.

use serde::Serialize;

use crate::replay::{Replay, ReplayOutcome, ReplayState, ReplayTurn};
use crate::rules::{
    Action, ChainTrace, FaultKind, Field, Game, GameEnd, Pack, Packs, PlayerState, Simulator, GARBAGE, MAX_HEIGHT,
    PACK_COUNT, VISIBLE_HEIGHT, WIDTH,
};

/// Everything the page needs, embedded in it as JSON.
#[derive(Clone, Debug, Serialize)]
pub struct GameView {
    /// The names the bots printed, player 0 first.
    pub names: [String; 2],
    /// The commands that ran the bots.
    pub commands: [String; 2],
    /// The pack file's path, or `seed:N`.
    pub packs: String,
    /// 0 or 1, or -1 for a draw.
    pub winner: i8,
    pub reason: GameEnd,
    pub scores: [u64; 2],
    /// Each bot's thinking time for the game, when known.
    pub time_limit_ms: Option<u64>,
    /// Each player's landmarks: first chain of 10+, first garbage sent, largest chain.
    pub firsts: [Landmarks; 2],
    pub turns: Vec<TurnView>,
}

/// A player's turns worth pointing at.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Landmarks {
    /// The first chain of 10 links or more.
    pub chain_10: Option<Moment>,
    /// The first turn that sent garbage.
    pub garbage: Option<Moment>,
    /// The largest chain (its first turn).
    pub largest: Option<Moment>,
}

/// What a player's action did in `turn`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Moment {
    pub turn: usize,
    pub links: u32,
    /// Garbage sent (before offsetting).
    pub garbage: u32,
}

#[derive(Clone, Debug, Serialize)]
pub struct TurnView {
    pub turn: usize,
    /// The turn's pack, rows top first (both players get the same one).
    pub pack: [[u8; 2]; 2],
    /// False when a fault ended the game before the turn was played.
    pub played: bool,
    pub players: [PlayerTurn; 2],
}

/// One player's turn.
#[derive(Clone, Debug, Serialize)]
pub struct PlayerTurn {
    /// The command as the rules read it, or the refused line, or null when none came.
    pub command: Option<String>,
    /// The drop, when the command was a legal drop.
    pub drop: Option<DropView>,
    pub skill: bool,
    pub fault: Option<FaultKind>,
    /// Thinking time this turn and in the game so far (this turn included), in ms.
    pub time_ms: u64,
    pub time_used_ms: u64,
    pub garbage_fell: bool,
    /// Stock, gauge and score at the start of the turn and at its end.
    pub before: Stats,
    pub after: Stats,
    pub outcome: Option<ReplayOutcome>,
    /// The field through the turn; the last frame is the field after the turn.
    pub frames: Vec<Frame>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct DropView {
    pub x: u8,
    pub rotation: u8,
    /// The pack after rotation, rows top first, as it lands on columns x and x + 1.
    pub rotated: [[u8; 2]; 2],
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Stats {
    pub garbage: u32,
    pub gauge: u32,
    pub score: u64,
}

impl<S> From<&PlayerState<S>> for Stats {
    fn from(s: &PlayerState<S>) -> Self {
        Stats { garbage: s.garbage, gauge: s.gauge, score: s.score }
    }
}

/// What a frame shows; a played turn's frames are always `start`, `garbage`, `drop` or
/// `explosion`, one `link` per chain link, `end`, so both players' frames line up step by step.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum FrameKind {
    /// The field as the turn starts.
    Start,
    /// After the garbage row (marks: its blocks; none when no row fell).
    Garbage,
    /// After the pack landed (marks: its blocks).
    Drop,
    /// Before the skill's explosion (marks: the blocks it removes).
    Explosion,
    /// Before chain link `link` (marks: the blocks it removes).
    Link,
    /// The field after the turn.
    End,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Frame {
    pub kind: FrameKind,
    /// The chain link (1-based) of a `link` frame, else 0.
    pub link: u32,
    /// The field, rows top first as `replay.json` writes them; absent when it is the same as the
    /// frame before (the frame before the first is the previous turn's last), which halves the page.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rows: Option<Vec<String>>,
    /// Marked cells as `[x, y]`, y from the bottom.
    pub marks: Vec<[usize; 2]>,
}

/// Re-plays `replay` on `packs` (at least one per turn) and builds the page's data. An error
/// names the turn and what differs.
pub fn build(replay: &Replay, packs: &[Pack]) -> Result<GameView, String> {
    let turns = replay.turns.len();
    if packs.len() < turns {
        return Err(format!("the replay holds {turns} turns but only {} packs", packs.len()));
    }
    // `Game` wants a whole game's packs; the turns never played never use the padding.
    let mut all = packs.to_vec();
    all.resize(all.len().max(PACK_COUNT), Pack::default());
    let mut game = Game::<Field>::new(Packs(all));
    let mut time_used = [0; 2];
    let mut last_rows: [Vec<String>; 2] = [Field::empty(), Field::empty()].map(|f| Grid::from(&f).rows());
    let mut views = Vec::with_capacity(turns);
    for (i, t) in replay.turns.iter().enumerate() {
        let at = |e: String| format!("turn {i}: {e}");
        if t.turn != i {
            return Err(at(format!("recorded as turn {}", t.turn)));
        }
        if game.result().is_some() {
            return Err(at("the rules ended the game on the turn before".into()));
        }
        let before = game.players.clone();
        let pack = *game.packs.get(i);
        let answers = [answer(t, 0).map_err(at)?, answer(t, 1).map_err(at)?];
        let record = game.play(answers);
        let players = [0, 1].map(|p| {
            time_used[p] += t.time_ms[p];
            let action = answers[p].ok();
            PlayerTurn {
                command: t.commands[p].clone(),
                drop: match action {
                    Some(Action::Drop { x, rotation }) => {
                        Some(DropView { x, rotation, rotated: pack.rotated(rotation).rows })
                    }
                    _ => None,
                },
                skill: action == Some(Action::Skill),
                fault: t.faults[p],
                time_ms: t.time_ms[p],
                time_used_ms: time_used[p],
                garbage_fell: record.is_some_and(|r| r.garbage_fell[p]),
                before: Stats::from(&before[p]),
                after: Stats::from(if record.is_some() { &game.players[p] } else { &before[p] }),
                outcome: record.map(|r| ReplayOutcome::from(&r.outcomes[p])),
                frames: Vec::new(),
            }
        });
        let mut view = TurnView { turn: i, pack: pack.rows, played: record.is_some(), players };
        match (record, &t.states) {
            (Some(record), Some(states)) => {
                for p in 0..2 {
                    check_state(p, &states[p], &ReplayState::from(&game.players[p])).map_err(at)?;
                    let replayed = ReplayOutcome::from(&record.outcomes[p]);
                    let recorded = t.outcomes.map(|o| o[p]);
                    if recorded != Some(replayed) {
                        return Err(at(format!(
                            "player {p}'s outcome is {} in the replay but {replayed:?} when re-played",
                            recorded.map_or("missing".into(), |o| format!("{o:?}"))
                        )));
                    }
                    if t.garbage_fell.map(|g| g[p]) != Some(record.garbage_fell[p]) {
                        return Err(at(format!("player {p}'s garbage_fell differs from the re-played turn")));
                    }
                    let frames = turn_frames(&before[p].field, record.garbage_fell[p], &pack, record.actions[p])
                        .map_err(|e| at(format!("player {p}: {e}")))?;
                    view.players[p].frames = dedupe_rows(frames, &mut last_rows[p]);
                }
            }
            (None, None) => {
                for (p, player) in view.players.iter_mut().enumerate() {
                    // The game ended before the turn was played: its only frame is the field as it was.
                    let start = Frame { kind: FrameKind::Start, link: 0, rows: None, marks: Vec::new() };
                    player.frames = dedupe_rows(vec![(start, last_rows[p].clone())], &mut last_rows[p]);
                }
            }
            (None, Some(_)) => {
                return Err(at("the replay holds states but the rules end the game with a fault".into()))
            }
            (Some(_), None) => return Err(at("the replay holds no states but the rules play the turn".into())),
        }
        views.push(view);
    }
    check_result(replay, &game)?;
    Ok(GameView {
        names: replay.result.names.clone(),
        commands: replay.result.commands.clone(),
        packs: replay.result.packs.clone(),
        winner: replay.result.winner,
        reason: replay.result.reason,
        scores: replay.result.scores,
        time_limit_ms: replay.time_limit_ms,
        firsts: [0, 1].map(|p| landmarks(&views, p)),
        turns: views,
    })
}

/// Player `p`'s answer in turn `t` as the referee judged it.
fn answer(t: &ReplayTurn, p: usize) -> Result<Result<Action, FaultKind>, String> {
    if let Some(kind) = t.faults[p] {
        return Ok(Err(kind));
    }
    match &t.commands[p] {
        Some(command) => command
            .parse::<Action>()
            .map(Ok)
            .map_err(|_| format!("player {p}'s command {command:?} is not an action and no fault is recorded")),
        None => Err(format!("player {p} has neither a command nor a fault")),
    }
}

fn check_state(p: usize, recorded: &ReplayState, replayed: &ReplayState) -> Result<(), String> {
    let differs = |what: &str, a: &dyn std::fmt::Display, b: &dyn std::fmt::Display| {
        Err(format!("player {p}'s {what} after the turn is {a} in the replay but {b} when re-played"))
    };
    if recorded.field != replayed.field {
        // Fields are pictures of many lines; one line of error names the first row that differs.
        let rows = recorded.field.len().max(replayed.field.len());
        let row = (0..rows).find(|&r| recorded.field.get(r) != replayed.field.get(r)).unwrap_or(0);
        let show = |f: &[String]| f.get(row).map_or("(none)".to_string(), |r| format!("{r:?}"));
        return differs(
            &format!("field row {} (from the top)", row + 1),
            &show(&recorded.field),
            &show(&replayed.field),
        );
    }
    if recorded.garbage != replayed.garbage {
        return differs("garbage stock", &recorded.garbage, &replayed.garbage);
    }
    if recorded.gauge != replayed.gauge {
        return differs("skill gauge", &recorded.gauge, &replayed.gauge);
    }
    if recorded.score != replayed.score {
        return differs("score", &recorded.score, &replayed.score);
    }
    Ok(())
}

fn check_result(replay: &Replay, game: &Game<Field>) -> Result<(), String> {
    let recorded = &replay.result;
    let Some(result) = game.result() else {
        return Err(format!(
            "the replay ends after turn {} but the rules go on playing",
            replay.turns.len().saturating_sub(1)
        ));
    };
    let winner = result.winner.map_or(-1, |w| w as i8);
    if (recorded.winner, recorded.turns, recorded.scores) != (winner, result.turns, result.scores) {
        return Err(format!(
            "the result (winner {}, {} turns, scores {:?}) differs from the re-played one (winner {winner}, {} turns, scores {:?})",
            recorded.winner, recorded.turns, recorded.scores, result.turns, result.scores
        ));
    }
    Ok(())
}

/// Each frame keeps its rows only where they differ from the frame before.
fn dedupe_rows(frames: Vec<(Frame, Vec<String>)>, last: &mut Vec<String>) -> Vec<Frame> {
    frames
        .into_iter()
        .map(|(mut frame, rows)| {
            if rows != *last {
                frame.rows = Some(rows.clone());
                *last = rows;
            }
            frame
        })
        .collect()
}

/// A player's frames through one played turn (with their full rows), from the reference engine's
/// chain trace. The cells each link removes are re-applied to a plain grid, and the grid must end
/// as the engine's field did.
fn turn_frames(
    start: &Field,
    garbage_fell: bool,
    pack: &Pack,
    action: Action,
) -> Result<Vec<(Frame, Vec<String>)>, String> {
    let mut field = *start;
    if garbage_fell {
        field.drop_garbage_row();
    }
    let mut trace = ChainTrace::default();
    let outcome = match action {
        Action::Drop { x, rotation } => field.drop_pack_traced(pack, x, rotation, &mut trace),
        Action::Skill => field.use_skill_traced(&mut trace),
    };

    let mut grid = Grid::from(start);
    let mut frames = Vec::new();
    let mut push = |kind, link, grid: &Grid, marks: Vec<[usize; 2]>| {
        frames.push((Frame { kind, link, rows: None, marks }, grid.rows()));
    };
    push(FrameKind::Start, 0, &grid, Vec::new());
    let marks =
        if garbage_fell { (0..WIDTH).map(|x| grid.push(x, GARBAGE)).collect::<Result<_, _>>()? } else { Vec::new() };
    push(FrameKind::Garbage, 0, &grid, marks);
    match action {
        Action::Drop { x, rotation } => {
            let mut marks = Vec::new();
            for (dx, column) in pack.columns(rotation).iter().enumerate() {
                for &v in column.as_slice() {
                    marks.push(grid.push(x as usize + dx, v)?);
                }
            }
            push(FrameKind::Drop, 0, &grid, marks);
        }
        Action::Skill => {
            let marks = grid.vanish(&trace, 0)?;
            push(FrameKind::Explosion, 0, &grid, marks);
            grid.remove_and_settle(&trace, 0);
        }
    }
    for link in 1..=outcome.links {
        let marks = grid.vanish(&trace, link)?;
        push(FrameKind::Link, link, &grid, marks);
        grid.remove_and_settle(&trace, link);
    }
    push(FrameKind::End, 0, &grid, Vec::new());
    if grid.rows() != Grid::from(&field).rows() {
        return Err("the chain trace does not reproduce the engine's field".into());
    }
    Ok(frames)
}

/// A plain grid the frames are drawn from: `cells[x][y]`, y from the bottom.
struct Grid {
    cells: [[u8; MAX_HEIGHT]; WIDTH],
}

impl From<&Field> for Grid {
    fn from(field: &Field) -> Self {
        Grid { cells: std::array::from_fn(|x| std::array::from_fn(|y| field.get(x, y))) }
    }
}

impl Grid {
    fn height(&self, x: usize) -> usize {
        self.cells[x].iter().take_while(|&&v| v != 0).count()
    }

    /// Puts `value` on top of column `x`; returns where it landed.
    fn push(&mut self, x: usize, value: u8) -> Result<[usize; 2], String> {
        let y = self.height(x);
        if y >= MAX_HEIGHT {
            return Err(format!("column {x} overflows"));
        }
        self.cells[x][y] = value;
        Ok([x, y])
    }

    /// The cells `link` removes (0: the skill's explosion), checked against the grid.
    fn vanish(&self, trace: &ChainTrace, link: u32) -> Result<Vec<[usize; 2]>, String> {
        let mut marks = Vec::new();
        for &(l, x, y, number) in &trace.cells {
            if l == link {
                if self.cells[x][y] != number {
                    return Err(format!(
                        "link {link} removes a {number} at ({x}, {y}) but the field holds {}",
                        self.cells[x][y]
                    ));
                }
                marks.push([x, y]);
            }
        }
        marks.sort_unstable();
        Ok(marks)
    }

    fn remove_and_settle(&mut self, trace: &ChainTrace, link: u32) {
        for &(l, x, y, _) in &trace.cells {
            if l == link {
                self.cells[x][y] = 0;
            }
        }
        for column in &mut self.cells {
            let mut kept = column.iter().copied().filter(|&v| v != 0);
            *column = std::array::from_fn(|_| kept.next().unwrap_or(0));
        }
    }

    /// Rows top first, as `replay.json` writes a field: 16 rows, more when a column is taller.
    fn rows(&self) -> Vec<String> {
        let top = (0..WIDTH).map(|x| self.height(x)).max().unwrap_or(0).max(VISIBLE_HEIGHT);
        (0..top)
            .rev()
            .map(|y| {
                (0..WIDTH)
                    .map(|x| match self.cells[x][y] {
                        0 => '.',
                        GARBAGE => '#',
                        v => char::from(b'0' + v),
                    })
                    .collect()
            })
            .collect()
    }
}

fn landmarks(turns: &[TurnView], p: usize) -> Landmarks {
    let mut marks = Landmarks::default();
    for t in turns {
        let Some(o) = t.players[p].outcome else { continue };
        let moment = Moment { turn: t.turn, links: o.links, garbage: o.garbage };
        if o.links >= 10 && marks.chain_10.is_none() {
            marks.chain_10 = Some(moment);
        }
        if o.garbage > 0 && marks.garbage.is_none() {
            marks.garbage = Some(moment);
        }
        if o.links > 0 && marks.largest.is_none_or(|m| o.links > m.links) {
            marks.largest = Some(moment);
        }
    }
    marks
}
