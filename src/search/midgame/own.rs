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
    fn dfs<S: Simulator>(
        packs: &Packs,
        turn: usize,
        ply: usize,
        plies: usize,
        field: &S,
        gauge: u32,
        sent: u32,
        best: &mut [u32],
        nodes: &mut u64,
        budget: &Budget,
    ) {
        if budget.checkpoint(nodes) {
            return;
        }
        let pack = packs.get(turn + ply - 1);
        for action in Action::all(gauge >= SKILL_THRESHOLD) {
            let child = simulate(field, gauge, pack, action);
            *nodes += 1;
            if child.dead {
                continue;
            }
            let sent = sent + child.outcome.garbage();
            best[ply - 1] = best[ply - 1].max(sent);
            if ply < plies {
                for row in [false, true] {
                    let mut next = child.field.clone();
                    if row {
                        next.drop_garbage_row();
                    }
                    dfs(packs, turn, ply + 1, plies, &next, child.gauge, sent, best, nodes, budget);
                }
            }
        }
    }
    let pack = packs.get(turn);
    let roots: Vec<Action> = Action::all(gauge >= SKILL_THRESHOLD).collect();
    let best = roots
        .par_iter()
        .map(|&action| {
            let mut best = vec![0; plies];
            let mut nodes = 1;
            let child = simulate(field, gauge, pack, action);
            if !child.dead {
                best[0] = child.outcome.garbage();
                if plies > 1 {
                    for row in [false, true] {
                        let mut next = child.field.clone();
                        if row {
                            next.drop_garbage_row();
                        }
                        let sent = best[0];
                        dfs(packs, turn, 2, plies, &next, child.gauge, sent, &mut best, &mut nodes, budget);
                    }
                }
            }
            budget.spend(nodes);
            best
        })
        .reduce(|| vec![0; plies], |a, b| a.iter().zip(&b).map(|(x, y)| *x.max(y)).collect());
    (!budget.stopped()).then_some(best)
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

    /// The exact value of every root action (each searched with a full window, in parallel),
    /// with the links its own chain makes. `None` when the budget ran out.
    pub fn root_values<S: Simulator>(&self, root: &Node<S>, actions: &[Action]) -> Option<Vec<(i64, u32)>> {
        let pack = self.packs.get(self.turn);
        let values: Vec<(i64, u32)> = actions
            .par_iter()
            .map(|&action| {
                let mut nodes = 1;
                let child = simulate(&root.field, root.gauge, pack, action);
                let value = if child.dead {
                    self.eval.death(1)
                } else {
                    self.reply(1, root, &child, i64::MIN, i64::MAX, &mut nodes)
                };
                self.budget.spend(nodes);
                (value, child.outcome.links)
            })
            .collect();
        (!self.budget.stopped()).then_some(values)
    }

    /// Our best move at `ply` from `node` (fail-soft alpha-beta).
    fn max_node<S: Simulator>(&self, ply: usize, node: &Node<S>, mut alpha: i64, beta: i64, nodes: &mut u64) -> i64 {
        if self.budget.checkpoint(nodes) {
            return 0;
        }
        let pack = self.packs.get(self.turn + ply - 1);
        let actions = Action::all(node.gauge >= SKILL_THRESHOLD);
        let mut best = i64::MIN;
        let mut visit = |child: &Child<S>, alpha: &mut i64, nodes: &mut u64| {
            let value = if child.dead {
                self.eval.death(ply)
            } else {
                self.reply(ply, node, child, *alpha, beta, nodes)
            };
            best = best.max(value);
            *alpha = (*alpha).max(best);
            best >= beta
        };
        if ply < self.depth() {
            // Moves sending the most first: they decide most values, so cut-offs come early.
            let mut children: Vec<Child<S>> = actions.map(|a| simulate(&node.field, node.gauge, pack, a)).collect();
            *nodes += children.len() as u64;
            children.sort_by_key(|c| (c.dead, Reverse(c.outcome.garbage())));
            for child in &children {
                if visit(child, &mut alpha, nodes) {
                    break;
                }
            }
        } else {
            // The last ply: simulate lazily, a cut-off spares the rest.
            for action in actions {
                let child = simulate(&node.field, node.gauge, pack, action);
                *nodes += 1;
                if visit(&child, &mut alpha, nodes) {
                    break;
                }
            }
        }
        best
    }

    /// The opponent's worst answer to our `child` at `ply` (fail-soft alpha-beta).
    fn reply<S: Simulator>(
        &self,
        ply: usize,
        node: &Node<S>,
        child: &Child<S>,
        alpha: i64,
        mut beta: i64,
        nodes: &mut u64,
    ) -> i64 {
        let stats = self.summary.ply(ply, node.line.key);
        debug_assert!(stats.reached, "our tree reached an opponent class its search left out");
        let replies = self.replies(stats, node.line.opp_gauge);
        if replies.iter().all(Option::is_none) {
            return self.eval.opponent_dead(ply, &node.line);
        }
        let last = ply == self.depth();
        let skill = if last && self.own_skill_used {
            *nodes += 1;
            child.field.clone().use_skill()
        } else {
            Outcome::default()
        };
        let mut value = i64::MAX;
        for reply in replies.into_iter().flatten() {
            let (line, gauge, row) = self.advance(ply, node, child, reply);
            let v = if last {
                self.eval.leaf(&child.field, gauge, &skill, self.summary.leaf_skill(line.key), &line)
            } else {
                let mut field = child.field.clone();
                if row {
                    field.drop_garbage_row();
                }
                self.max_node(ply + 1, &Node { field, gauge, line }, alpha, beta, nodes)
            };
            value = value.min(v);
            beta = beta.min(value);
            if value <= alpha {
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
            send: 0,
            drain: 0,
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
