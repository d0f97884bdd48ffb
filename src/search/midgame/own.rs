//! Our tree (seed 000: 自分の探玢): every action at every ply, each followed by the opponent's
//! modelled answers (it attacks with the worst its class allows, or keeps quiet), with the
//! exact turn order of the rules for garbage, offsetting and gauges; minimax with alpha-beta.

use std::cmp::Reverse;

use rayon::prelude::*;

use super::eval::{Evaluator, Line};
use super::opponent::{PlyStats, Summary};
use super::{Budget, Keys, OpponentModel};
use crate::rules::{
    gauge_drain, Action, Outcome, Pack, Packs, Simulator, GARBAGE_ROW, GAUGE_GAIN, GAUGE_MAX, SKILL_THRESHOLD,
};

/// Our side of a position in the tree: the field at the start of a ply (its row fallen).
#[derive(Clone, Debug)]
pub(super) struct Node<S> {
    pub field: S,
    pub gauge: u32,
    pub line: Line,
}

/// One of our moves, simulated.
struct Child<S> {
    field: S,
    outcome: Outcome,
    /// Our gauge after the move (the skill empties it, a chain adds 8), before any drain.
    gauge: u32,
    dead: bool,
}

/// An answer of the opponent as the summary allows it.
#[derive(Clone, Copy, Debug)]
struct Reply {
    attack: bool,
    send: u32,
    drain: u32,
    /// The answer is the skill (the gauge then empties).
    skill: bool,
    /// The answer may chain (the gauge may gain).
    chains: bool,
}

fn simulate<S: Simulator>(field: &S, gauge: u32, pack: &Pack, action: Action) -> Child<S> {
    let mut field = field.clone();
    let outcome = field.apply(pack, action);
    let mut gauge = if action == Action::Skill { 0 } else { gauge };
    if outcome.links > 0 {
        gauge = (gauge + GAUGE_GAIN).min(GAUGE_MAX);
    }
    let dead = field.is_dead();
    Child { field, outcome, gauge, dead }
}

/// The most garbage we can have sent by the end of each ply 1..=`plies` over all our lines,
/// with and without rows falling on us at every ply and with the skill whenever our own gains
/// allow it: a bound on every line of the real tree. `None` when the budget ran out.
pub(super) fn most_sent<S: Simulator>(
    packs: &Packs,
    turn: usize,
    plies: usize,
    field: &S,
    gauge: u32,
    budget: &Budget,
) -> Option<Vec<u32>> {
    let bound = SendBound { packs, turn, plies, budget };
    let roots: Vec<Action> = Action::all(gauge >= SKILL_THRESHOLD).collect();
    let best = roots
        .par_iter()
        .map(|&action| {
            let mut best = vec![0; plies];
            let mut nodes = 0;
            bound.step(1, field, gauge, 0, action, &mut best, &mut nodes);
            budget.spend(nodes);
            best
        })
        .reduce(|| vec![0; plies], |a, b| a.iter().zip(&b).map(|(x, y)| *x.max(y)).collect());
    (!budget.stopped()).then_some(best)
}

/// The search behind [`most_sent`].
struct SendBound<'a> {
    packs: &'a Packs,
    turn: usize,
    plies: usize,
    budget: &'a Budget,
}

impl SendBound<'_> {
    /// Our `action` at `ply` after `sent` so far; records the sums in `best`.
    #[allow(clippy::too_many_arguments)]
    fn step<S: Simulator>(
        &self,
        ply: usize,
        field: &S,
        gauge: u32,
        sent: u32,
        action: Action,
        best: &mut [u32],
        nodes: &mut u64,
    ) {
        let child = simulate(field, gauge, self.packs.get(self.turn + ply - 1), action);
        *nodes += 1;
        if child.dead {
            return;
        }
        let sent = sent + child.outcome.garbage();
        best[ply - 1] = best[ply - 1].max(sent);
        if ply == self.plies || self.budget.checkpoint(nodes) {
            return;
        }
        for row in [false, true] {
            let mut next = child.field.clone();
            if row {
                next.drop_garbage_row();
            }
            for action in Action::all(child.gauge >= SKILL_THRESHOLD) {
                self.step(ply + 1, &next, child.gauge, sent, action, best, nodes);
            }
        }
    }
}

/// What one task (one root move) keeps while it searches.
pub(super) struct Task {
    pub nodes: u64,
    /// Per ply, the move that last caused a cut-off (index in [`Action::all`] order): tried first
    /// at the next node of that ply, since sibling positions often share their best move.
    killers: [Option<usize>; super::MAX_DEPTH + 1],
    /// Per ply, whether the opponent's quiet answer (rather than its attack) last refuted one of
    /// our moves: that answer is tried first at the next node of that ply.
    quiet_refutes: [bool; super::MAX_DEPTH + 1],
}

impl Task {
    pub fn new() -> Self {
        Task { nodes: 0, killers: [None; super::MAX_DEPTH + 1], quiet_refutes: [false; super::MAX_DEPTH + 1] }
    }
}

/// Our tree over a finished opponent summary.
pub(super) struct OwnTree<'a> {
    pub packs: &'a Packs,
    pub turn: usize,
    pub keys: Keys,
    pub summary: &'a Summary,
    pub eval: &'a Evaluator<'a>,
    pub model: OpponentModel,
    pub budget: &'a Budget,
    /// Whether the leaves need what our skill would do (some weight uses it).
    pub own_skill_used: bool,
}

impl OwnTree<'_> {
    fn depth(&self) -> usize {
        self.keys.depth
    }

    /// The value of the root `action` with the window (`alpha`, +∞): exact when above
    /// `alpha`, otherwise an upper bound (fail-soft).
    pub fn root_value<S: Simulator>(&self, root: &Node<S>, action: Action, alpha: i64, task: &mut Task) -> i64 {
        let pack = self.packs.get(self.turn);
        let child = simulate(&root.field, root.gauge, pack, action);
        task.nodes += 1;
        if child.dead {
            return self.eval.death(1);
        }
        let skill = if self.depth() == 1 { self.skill_before_last_move(root, task) } else { Outcome::default() };
        self.reply(1, root, &child, alpha, i64::MAX, &skill, task)
    }

    /// What our skill would do, for the threat measured at the leaves: once before the last
    /// move (the move rarely changes it, and measuring it per leaf would cost as much as the
    /// leaves themselves).
    fn skill_before_last_move<S: Simulator>(&self, node: &Node<S>, task: &mut Task) -> Outcome {
        if self.own_skill_used {
            task.nodes += 1;
            node.field.clone().use_skill()
        } else {
            Outcome::default()
        }
    }

    /// Our best move at `ply` from `node` (fail-soft alpha-beta).
    fn max_node<S: Simulator>(&self, ply: usize, node: &Node<S>, mut alpha: i64, beta: i64, task: &mut Task) -> i64 {
        if self.budget.checkpoint(&mut task.nodes) {
            return 0;
        }
        let pack = self.packs.get(self.turn + ply - 1);
        let actions: Vec<Action> = Action::all(node.gauge >= SKILL_THRESHOLD).collect();
        let killer = task.killers[ply].filter(|&k| k < actions.len());
        let mut best = i64::MIN;
        if ply < self.depth() {
            // The killer first, then the moves sending the most: they decide most values.
            let mut children: Vec<(usize, Child<S>)> =
                actions.iter().enumerate().map(|(i, &a)| (i, simulate(&node.field, node.gauge, pack, a))).collect();
            task.nodes += children.len() as u64;
            children.sort_by_key(|(i, c)| (Some(*i) != killer, c.dead, Reverse(c.outcome.garbage())));
            for (i, child) in &children {
                let value = if child.dead {
                    self.eval.death(ply)
                } else {
                    self.reply(ply, node, child, alpha, beta, &Outcome::default(), task)
                };
                best = best.max(value);
                alpha = alpha.max(best);
                if best >= beta {
                    task.killers[ply] = Some(*i);
                    break;
                }
            }
        } else {
            // The last ply: simulate lazily, a cut-off spares the rest.
            let skill = self.skill_before_last_move(node, task);
            let order = killer.into_iter().chain((0..actions.len()).filter(|&i| Some(i) != killer));
            for i in order {
                let child = simulate(&node.field, node.gauge, pack, actions[i]);
                task.nodes += 1;
                let value = if child.dead {
                    self.eval.death(ply)
                } else {
                    self.reply(ply, node, &child, alpha, beta, &skill, task)
                };
                best = best.max(value);
                alpha = alpha.max(best);
                if best >= beta {
                    task.killers[ply] = Some(i);
                    break;
                }
            }
        }
        best
    }

    /// The opponent's worst answer to our `child` at `ply` (fail-soft alpha-beta); `skill` is
    /// what our skill would do, used at the last ply.
    #[allow(clippy::too_many_arguments)]
    fn reply<S: Simulator>(
        &self,
        ply: usize,
        node: &Node<S>,
        child: &Child<S>,
        alpha: i64,
        mut beta: i64,
        skill: &Outcome,
        task: &mut Task,
    ) -> i64 {
        let stats = self.summary.ply(ply, node.line.key);
        debug_assert!(stats.reached, "our tree reached an opponent class its search left out");
        let mut replies = self.replies(stats, node.line.opp_gauge);
        if replies.iter().all(Option::is_none) {
            if stats.reached {
                return self.eval.opponent_dead(ply, &node.line);
            }
            // Not searched (never, by the row bound): an opponent that sends nothing, not a kill.
            replies[0] = Some(Reply { attack: false, send: 0, drain: 0, skill: false, chains: false });
        }
        if task.quiet_refutes[ply] {
            replies.reverse();
        }
        let last = ply == self.depth();
        let mut value = i64::MAX;
        for reply in replies.into_iter().flatten() {
            let (line, gauge, row) = self.advance(ply, node, child, reply);
            let v = if last {
                self.eval.leaf(&child.field, gauge, skill, self.summary.leaf_skill(line.key), &line)
            } else {
                let mut field = child.field.clone();
                if row {
                    field.drop_garbage_row();
                }
                self.max_node(ply + 1, &Node { field, gauge, line }, alpha, beta, task)
            };
            value = value.min(v);
            beta = beta.min(value);
            if value <= alpha {
                task.quiet_refutes[ply] = !reply.attack;
                break;
            }
        }
        value
    }

    /// The opponent's answers in its class under the model, the attack first (usually the
    /// worse for us, so the quiet answer is often cut off). None at all when it cannot survive.
    fn replies(&self, stats: &PlyStats, opp_gauge: u32) -> [Option<Reply>; 2] {
        let quiet = stats.quiet.then_some(Reply {
            attack: false,
            send: stats.quiet_send,
            drain: stats.quiet_drain,
            skill: false,
            chains: stats.quiet_chains,
        });
        let attack = stats.attack.then(|| {
            let skill = stats.skill_send.filter(|_| opp_gauge >= SKILL_THRESHOLD);
            let by_skill = skill.is_some_and(|s| s > stats.chain_send);
            Reply {
                attack: true,
                send: stats.chain_send.max(skill.unwrap_or(0)),
                drain: stats.drain,
                skill: by_skill,
                chains: stats.attack_chains,
            }
        });
        // An attack that only the skill made, where our bookkeeping says its gauge is short,
        // is no attack: keep it only if the opponent has nothing else.
        let attack = attack.filter(|a| a.send > 0 || a.drain > 0 || quiet.is_none());
        let (first, second) = match self.model {
            OpponentModel::Worst => (attack, quiet),
            OpponentModel::Attack => (attack.or(quiet), None),
            OpponentModel::Quiet => (quiet.or(attack), None),
        };
        [first, second]
    }

    /// The turn's end for both sides (rules steps 5–8) and the next turn's garbage row
    /// (step 1): returns the line, our gauge and whether a row falls on us next.
    fn advance<S: Simulator>(&self, ply: usize, node: &Node<S>, child: &Child<S>, reply: Reply) -> (Line, u32, bool) {
        let mut line = node.line;
        let links = child.outcome.links;
        let sent = child.outcome.garbage();
        let gauge = child.gauge.saturating_sub(reply.drain);
        let mut opp_gauge = if reply.skill { 0 } else { line.opp_gauge };
        if reply.chains {
            opp_gauge = (opp_gauge + GAUGE_GAIN).min(GAUGE_MAX);
        }
        line.opp_gauge = opp_gauge.saturating_sub(gauge_drain(links));
        line.bonus += self.eval.wasted_chain(links, &line);
        if reply.attack {
            line.key |= self.keys.attack(ply);
            if !reply.skill {
                line.bonus += self.eval.unlikely_attack(ply, reply.send, &line);
            }
        }
        line.net += sent as i32 - reply.send as i32;
        line.sent += sent;
        self.eval.track_lethal(ply, &mut line);
        let mut row_on_us = false;
        if ply < self.depth() {
            let row = GARBAGE_ROW as i32;
            if line.net >= row {
                line.net -= row;
                line.rows_on_opp += 1;
                line.key |= self.keys.fall(ply + 1);
            } else if line.net <= -row {
                line.net += row;
                line.rows_on_us += 1;
                row_on_us = true;
            }
        }
        (line, gauge, row_on_us)
    }
}

#[cfg(test)]
mod tests {
    use rand::{Rng, SeedableRng};
    use rand_pcg::Pcg64Mcg;

    use super::*;
    use crate::rules::{Field, Game, Packs, GARBAGE_ROW};
    use crate::search::midgame::{Budget, MidgameParams};

    /// One ply of our tree, with the opponent's answer given exactly as its real move, keeps the
    /// same books as the rules' two-player turn: fields, gauges, the pending garbage after
    /// offsetting, and the rows that fall at the next turn's start.
    #[test]
    fn a_ply_keeps_the_books_of_the_rules() {
        let params = MidgameParams::default();
        let budget = Budget::new(None, None);
        let keys = Keys { depth: 2 };
        let summary = Summary::new(keys);
        let mut checked = [0usize; 4]; // rows on us, rows on them, skills, drains
        for seed in 0..30 {
            let packs = Packs::generate(seed);
            let eval = Evaluator::new(&params, 0, 160, 0, 0);
            let tree = OwnTree {
                packs: &packs,
                turn: 0,
                keys,
                summary: &summary,
                eval: &eval,
                model: OpponentModel::Worst,
                budget: &budget,
                own_skill_used: true,
            };
            let mut rng = Pcg64Mcg::seed_from_u64(seed);
            let mut game = Game::<Field>::new(packs.clone());
            for turn in 0..80 {
                if game.result().is_some() {
                    break;
                }
                // Stir the books: stocks (one side only, as after offsetting) and gauges.
                if rng.gen_bool(0.2) {
                    let p = rng.gen_range(0..2);
                    game.players[p].garbage += rng.gen_range(0..25);
                    game.players[1 - p].garbage = 0;
                }
                if rng.gen_bool(0.2) {
                    game.players[rng.gen_range(0..2)].gauge = rng.gen_range(60..=100);
                }
                // The turn's start as the bot sees it: this turn's row fallen.
                let start: Vec<(Field, u32)> = game
                    .players
                    .iter()
                    .map(|p| {
                        let mut field = p.field;
                        if p.garbage >= GARBAGE_ROW {
                            field.drop_garbage_row();
                        }
                        (field, p.garbage - if p.garbage >= GARBAGE_ROW { GARBAGE_ROW } else { 0 })
                    })
                    .collect();
                let pack = packs.get(turn);
                let choose = |rng: &mut Pcg64Mcg, field: &Field, gauge: u32| {
                    let actions: Vec<Action> = Action::all(gauge >= SKILL_THRESHOLD).collect();
                    let survives = |&a: &Action| {
                        let mut f = *field;
                        f.apply(pack, a);
                        !f.is_dead()
                    };
                    let alive: Vec<Action> = actions.iter().copied().filter(survives).collect();
                    let from = if alive.is_empty() { &actions } else { &alive };
                    from[rng.gen_range(0..from.len())]
                };
                let ours = choose(&mut rng, &start[0].0, game.players[0].gauge);
                let theirs = choose(&mut rng, &start[1].0, game.players[1].gauge);
                let node = Node {
                    field: start[0].0,
                    gauge: game.players[0].gauge,
                    line: Line {
                        net: start[1].1 as i32 - start[0].1 as i32,
                        opp_gauge: game.players[1].gauge,
                        ..Line::default()
                    },
                };
                let child = simulate(&node.field, node.gauge, pack, ours);
                let opponent = simulate(&start[1].0, game.players[1].gauge, pack, theirs).outcome;
                let reply = Reply {
                    attack: opponent.garbage() > 0 || gauge_drain(opponent.links) > 0,
                    send: opponent.garbage(),
                    drain: gauge_drain(opponent.links),
                    skill: theirs == Action::Skill,
                    chains: opponent.links > 0,
                };
                let (line, gauge, row_on_us) = tree.advance(1, &node, &child, reply);
                game.play([Ok(ours), Ok(theirs)]);
                let [me, them] = &game.players;
                assert_eq!(child.field, me.field, "seed {seed} turn {turn}: our field");
                assert_eq!(gauge, me.gauge, "seed {seed} turn {turn}: our gauge");
                assert_eq!(line.opp_gauge, them.gauge, "seed {seed} turn {turn}: their gauge");
                let rows = [me.garbage >= GARBAGE_ROW, them.garbage >= GARBAGE_ROW];
                let left = |g: u32, row: bool| g as i32 - if row { GARBAGE_ROW as i32 } else { 0 };
                assert_eq!(
                    line.net,
                    left(them.garbage, rows[1]) - left(me.garbage, rows[0]),
                    "seed {seed} turn {turn}"
                );
                assert_eq!((row_on_us, line.rows_on_opp == 1), (rows[0], rows[1]), "seed {seed} turn {turn}");
                checked[0] += rows[0] as usize;
                checked[1] += rows[1] as usize;
                checked[2] += (ours == Action::Skill || theirs == Action::Skill) as usize;
                checked[3] += (reply.drain > 0 || gauge_drain(child.outcome.links) > 0) as usize;
            }
        }
        assert!(checked.iter().all(|&n| n >= 5), "every case came up: {checked:?}");
    }
}
