//! A whole game between two players: the turn in the rule book's order, faults and the end.

use super::{
    gauge_drain, Action, Outcome, Packs, Simulator, GARBAGE_ROW, GAUGE_GAIN, GAUGE_MAX, MAX_TURNS, SKILL_THRESHOLD,
};

/// One player's state between turns.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayerState<S> {
    pub field: S,
    /// Garbage waiting to fall on this player (before this turn's drop).
    pub garbage: u32,
    /// Skill gauge as of the end of the previous turn (0..=100).
    pub gauge: u32,
    /// Running total of chain, skill-chain and explosion scores.
    pub score: u64,
}

impl<S: Simulator> Default for PlayerState<S> {
    fn default() -> Self {
        PlayerState { field: S::from_field(&Default::default()), garbage: 0, gauge: 0, score: 0 }
    }
}

impl<S> PlayerState<S> {
    /// True when the skill is a legal action this turn.
    pub fn skill_allowed(&self) -> bool {
        self.gauge >= SKILL_THRESHOLD
    }
}

/// How a player failed to give a legal command.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum FaultKind {
    /// Exceeded its thinking time (game or per-turn cap).
    Timeout,
    /// Sent an illegal command: bad position, bad rotation, skill without 80 gauge, unparsable line.
    Invalid,
    /// Exited or closed its output without answering. Judged like a timeout (no answer came).
    Crash,
}

/// A player's fault in a turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fault {
    pub player: usize,
    pub kind: FaultKind,
}

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum GameEnd {
    /// A field reached the danger line at the end of a turn.
    Dead,
    /// A player exceeded its time.
    Timeout,
    /// A player sent an illegal command.
    Invalid,
    /// A player crashed (no answer).
    Crash,
    /// The 500-turn limit.
    Turns,
}

/// The end of a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameResult {
    /// 0 or 1, or `None` for a draw.
    pub winner: Option<usize>,
    pub reason: GameEnd,
    /// Turns begun, the last one included (the game ended in turn `turns - 1`).
    pub turns: usize,
    pub scores: [u64; 2],
}

/// What happened in one played turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TurnRecord {
    pub turn: usize,
    pub actions: [Action; 2],
    /// Whether a garbage row fell on each player at the start of the turn.
    pub garbage_fell: [bool; 2],
    pub outcomes: [Outcome; 2],
}

/// A game in progress, generic over the field simulator (the reference or the bitboard).
#[derive(Clone, Debug)]
pub struct Game<S> {
    pub packs: Packs,
    /// The turn to be played next (0-based).
    pub turn: usize,
    pub players: [PlayerState<S>; 2],
    result: Option<GameResult>,
}

impl<S: Simulator> Game<S> {
    pub fn new(packs: Packs) -> Self {
        assert!(packs.len() >= MAX_TURNS, "a game needs {MAX_TURNS} packs, got {}", packs.len());
        Game { packs, turn: 0, players: Default::default(), result: None }
    }

    /// The result once the game is over.
    pub fn result(&self) -> Option<GameResult> {
        self.result
    }

    /// Checks a command against this turn's state: the skill needs 80 gauge; a drop needs x in
    /// 0..=8 and a rotation in 0..=3 (an `Action` built by hand may hold anything).
    pub fn check(&self, player: usize, action: Action) -> Result<Action, FaultKind> {
        match action {
            Action::Skill if !self.players[player].skill_allowed() => Err(FaultKind::Invalid),
            Action::Drop { x, rotation } if Action::drop(x, rotation).is_none() => Err(FaultKind::Invalid),
            a => Ok(a),
        }
    }

    /// Plays one turn from both players' answers (an action, or the fault that replaced it).
    /// A fault ends the game before the turn is played; otherwise the turn runs in the rule
    /// book's order. Returns the record of a played turn.
    pub fn play(&mut self, answers: [Result<Action, FaultKind>; 2]) -> Option<TurnRecord> {
        assert!(self.result.is_none(), "the game is over");
        let answers = [0, 1].map(|p| answers[p].and_then(|a| self.check(p, a)));
        match answers {
            [Ok(a0), Ok(a1)] => Some(self.play_actions([a0, a1])),
            [r0, r1] => {
                self.end_by_faults([r0.err(), r1.err()]);
                None
            }
        }
    }

    fn end_by_faults(&mut self, faults: [Option<FaultKind>; 2]) {
        let scores = self.scores();
        let (winner, reason) = match faults {
            [Some(k), None] => (Some(1), k),
            [None, Some(k)] => (Some(0), k),
            // Both illegal: a draw. Both without an answer in time (timeouts; a crash gives no
            // answer either): the higher score wins. The rule book is silent on a mixed pair;
            // it is judged a draw here.
            [Some(FaultKind::Invalid), Some(FaultKind::Invalid)] => (None, FaultKind::Invalid),
            [Some(a), Some(b)] if a != FaultKind::Invalid && b != FaultKind::Invalid => {
                (higher_score(scores), if a == b { a } else { FaultKind::Timeout })
            }
            [Some(_), Some(_)] => (None, FaultKind::Invalid),
            [None, None] => unreachable!("no fault"),
        };
        let reason = match reason {
            FaultKind::Timeout => GameEnd::Timeout,
            FaultKind::Invalid => GameEnd::Invalid,
            FaultKind::Crash => GameEnd::Crash,
        };
        self.result = Some(GameResult { winner, reason, turns: self.turn + 1, scores });
    }

    fn scores(&self) -> [u64; 2] {
        [self.players[0].score, self.players[1].score]
    }

    fn play_actions(&mut self, actions: [Action; 2]) -> TurnRecord {
        let pack = *self.packs.get(self.turn);
        let mut garbage_fell = [false; 2];
        let mut outcomes = [Outcome::default(); 2];
        for (p, player) in self.players.iter_mut().enumerate() {
            // 1–2. One garbage row falls when the stock holds 10; the rest carries over.
            if player.garbage >= GARBAGE_ROW {
                player.field.drop_garbage_row();
                player.garbage -= GARBAGE_ROW;
                garbage_fell[p] = true;
            }
            // 3–4. The action and its chain. The skill empties the gauge before anything else.
            if actions[p] == Action::Skill {
                player.gauge = 0;
            }
            outcomes[p] = player.field.apply(&pack, actions[p]);
        }
        // 5. +8 for chaining (explosions alone do not count), capped.
        for (player, outcome) in self.players.iter_mut().zip(&outcomes) {
            if outcome.links > 0 {
                player.gauge = (player.gauge + GAUGE_GAIN).min(GAUGE_MAX);
            }
        }
        // 6–7. Drain the opponent's gauge for 3+ links; send garbage; add scores.
        for (p, o) in outcomes.iter().enumerate() {
            let opponent = &mut self.players[1 - p];
            opponent.gauge = opponent.gauge.saturating_sub(gauge_drain(o.links));
            opponent.garbage += o.garbage();
            self.players[p].score += o.score();
        }
        // 8. Offsetting: both stocks drop by the smaller.
        let offset = self.players[0].garbage.min(self.players[1].garbage);
        for player in &mut self.players {
            player.garbage -= offset;
        }
        // 9. The danger line, then the turn limit.
        let record = TurnRecord { turn: self.turn, actions, garbage_fell, outcomes };
        let dead = [0, 1].map(|p| self.players[p].field.is_dead());
        let scores = self.scores();
        let end = match dead {
            [true, true] => Some((higher_score(scores), GameEnd::Dead)),
            [true, false] => Some((Some(1), GameEnd::Dead)),
            [false, true] => Some((Some(0), GameEnd::Dead)),
            [false, false] if self.turn + 1 == MAX_TURNS => Some((higher_score(scores), GameEnd::Turns)),
            [false, false] => None,
        };
        if let Some((winner, reason)) = end {
            self.result = Some(GameResult { winner, reason, turns: self.turn + 1, scores });
        }
        self.turn += 1;
        record
    }
}

/// The player with the higher score, or `None` when equal.
fn higher_score(scores: [u64; 2]) -> Option<usize> {
    match scores[0].cmp(&scores[1]) {
        std::cmp::Ordering::Greater => Some(0),
        std::cmp::Ordering::Less => Some(1),
        std::cmp::Ordering::Equal => None,
    }
}
