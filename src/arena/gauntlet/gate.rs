//! `--where-held`, `--where-forced-loss`, `--where-outpaced`: a judgement that plays the candidate
//! only where the bot's game met the decision it changes ([`crate::arena::acts`]). Each candidate
//! game waits for the bot's game of its pair, then is played or skipped by what that game shows.

use std::collections::{HashMap, HashSet};
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Duration;

use super::Task;
use crate::arena::acts::{in_folder, Decision};
use crate::arena::record::replay_dir;

/// A pair of a judgement: (opponent index, game index).
type Pair = (usize, usize);

/// How often a candidate's game waiting for the bot's looks again.
const POLL: Duration = Duration::from_millis(200);

/// The candidate's side of a `--where-held`, `--where-forced-loss` or `--where-outpaced` judgement.
pub(super) struct ActsGate<'a> {
    decision: Decision,
    /// The bot's `--replays` folder, where its games' lines are read.
    replays: &'a Path,
    /// The pairs whose bot game is played in this run (the others were played before it).
    in_run: HashSet<Pair>,
    /// Whether the decision came up in each bot game of this run, once it has ended.
    came_up: Mutex<HashMap<Pair, bool>>,
    /// Candidate games skipped: the decision did not come up in their bot game.
    pub skipped: AtomicUsize,
}

impl<'a> ActsGate<'a> {
    pub(super) fn new(decision: Decision, replays: &'a Path, tasks: &[Task]) -> Self {
        let in_run = tasks.iter().filter(|t| t.arm == 0).map(|t| (t.o, t.game)).collect();
        ActsGate { decision, replays, in_run, came_up: Mutex::new(HashMap::new()), skipped: AtomicUsize::new(0) }
    }

    /// Reads the bot's game of `task`'s pair, just ended (in a void game nothing came up: it is
    /// played again).
    pub(super) fn bot_game_ended(&self, task: &Task, void: bool) -> Result<(), String> {
        let came_up = !void && self.read(task)?;
        self.came_up.lock().expect("no panic holds the lock").insert((task.o, task.game), came_up);
        Ok(())
    }

    /// Whether the candidate plays `task`: waits until the bot's game of its pair has ended.
    /// `None` when `given_up` while waiting (the gauntlet stopped, or the opponent's verdict is
    /// in and the bot's game will not be played).
    pub(super) fn plays(&self, task: &Task, given_up: impl Fn() -> bool) -> Result<Option<bool>, String> {
        let pair = (task.o, task.game);
        let came_up = if self.in_run.contains(&pair) {
            loop {
                if let Some(&came_up) = self.came_up.lock().expect("no panic holds the lock").get(&pair) {
                    break came_up;
                }
                if given_up() {
                    return Ok(None);
                }
                std::thread::sleep(POLL);
            }
        } else {
            self.read(task)?
        };
        if !came_up {
            self.skipped.fetch_add(1, Ordering::Relaxed);
        }
        Ok(Some(came_up))
    }

    fn read(&self, task: &Task) -> Result<bool, String> {
        let folder = replay_dir(&self.replays.join(&task.opponent.name), task.game);
        Ok(in_folder(&folder, task.game % 2, self.decision)?.is_some())
    }
}

/// The tasks in the order a `--where-held` (or another `--where-…`) judgement plays them: each
/// candidate game `lag` bot games after its own (the bot's games of `lag` job slots run
/// meanwhile, so it seldom waits); candidate games whose bot game was played before this run
/// first.
pub(super) fn candidate_after_bot<'t>(mut tasks: Vec<Task<'t>>, lag: usize) -> Vec<Task<'t>> {
    let bot_position: HashMap<Pair, usize> =
        tasks.iter().filter(|t| t.arm == 0).enumerate().map(|(k, t)| ((t.o, t.game), k)).collect();
    // Bot game k at 2k + 1, its candidate game at 2(k + lag) + 2; a candidate game whose bot
    // game is not in this run at 0. The sort is stable: equal keys keep the planned order.
    let key = |t: &Task| match (t.arm, bot_position.get(&(t.o, t.game))) {
        (0, Some(&k)) => 2 * k + 1,
        (_, Some(&k)) => 2 * (k + lag) + 2,
        (_, None) => 0,
    };
    tasks.sort_by_key(key);
    tasks
}

#[cfg(test)]
mod tests {
    use super::super::{Opponent, Task};
    use super::candidate_after_bot;

    #[test]
    fn each_candidate_game_comes_lag_bot_games_after_its_own() {
        let opponent = Opponent { name: "x".into(), command: "y".into() };
        let task = |game, arm| Task { o: 0, opponent: &opponent, game, arm };
        // Game 0's bot game was played before; games 2, 4, 6 are planned for both.
        let tasks = vec![task(0, 1), task(2, 0), task(2, 1), task(4, 0), task(4, 1), task(6, 0), task(6, 1)];
        let order: Vec<(usize, usize)> = candidate_after_bot(tasks, 1).iter().map(|t| (t.game, t.arm)).collect();
        assert_eq!(order, [(0, 1), (2, 0), (4, 0), (2, 1), (6, 0), (4, 1), (6, 1)]);
    }
}
