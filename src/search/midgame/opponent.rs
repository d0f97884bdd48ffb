//! The opponent's tree (seed 000: 敵の探玢), searched alone and summarised for ours.
//!
//! Every opponent line is put in a class by what our tree can tell apart: at which plies a
//! garbage row fell on it (our sends decide) and at which plies it attacked (sent at least
//! `--mid-attack-min-send` garbage) or kept quiet (sent less, perhaps draining our gauge); the
//! minimiser in our tree picks. For each ply and class the summary keeps the worst the
//! opponent can do next: whether it can move without dying, the most garbage an attacking drop
//! or the skill sends and the most gauge it drains, the same for its quiet moves, whether it
//! gains gauge; and after the last ply the most garbage its skill would send if fired then
//! (measured before its last move).
//!
//! A row can fall on the opponent at ply k only if our sends can have pushed its stock to 10:
//! with `U` the most we can have sent by then (from a cheap search of our own field alone),
//! max(stock difference, 0) + U − 10·(rows already fallen) must reach 10. Classes that cannot
//! happen are not searched; the no-row branch is always searched (our own tree's model of
//! the opponent's sends can leave its stock under 10 even where a real line would not).

use rayon::prelude::*;
use rustc_hash::FxHashSet;

use super::{mix, Budget, Keys};
use crate::rules::{gauge_drain, Action, Packs, Simulator, GAUGE_GAIN, GAUGE_MAX, SKILL_THRESHOLD};

/// What the opponent can do at one ply in one class.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct PlyStats {
    /// Some opponent line reaches this class alive (so no move at all means it dies here).
    pub reached: bool,
    /// A quiet move exists (and survives): one that sends less than an attack (see
    /// [`OpponentTree::attack_min_send`]).
    pub quiet: bool,
    /// Some quiet move chains (gains gauge).
    pub quiet_chains: bool,
    /// A move that sends garbage or drains our gauge exists (and survives).
    pub attack: bool,
    /// Some attacking move chains (gains gauge).
    pub attack_chains: bool,
    /// The most garbage an attacking drop sends.
    pub chain_send: u32,
    /// The most garbage the skill sends (only lines whose own gauge allowed it).
    pub skill_send: Option<u32>,
    /// The most gauge an attacking move drains from us.
    pub drain: u32,
    /// The most garbage a quiet move sends (under an attack's minimum).
    pub quiet_send: u32,
    /// The most gauge a quiet move drains from us.
    pub quiet_drain: u32,
}

impl PlyStats {
    fn merge(&mut self, o: &PlyStats) {
        self.reached |= o.reached;
        self.quiet |= o.quiet;
        self.quiet_chains |= o.quiet_chains;
        self.attack |= o.attack;
        self.attack_chains |= o.attack_chains;
        self.chain_send = self.chain_send.max(o.chain_send);
        self.skill_send = self.skill_send.max(o.skill_send);
        self.drain = self.drain.max(o.drain);
        self.quiet_send = self.quiet_send.max(o.quiet_send);
        self.quiet_drain = self.quiet_drain.max(o.quiet_drain);
    }
}

/// The opponent's tree summarised per ply and class.
#[derive(Clone, Debug)]
pub(super) struct Summary {
    /// `plies[k - 1][key]`: ply k, class `key` (rows fallen at plies 2..=k, attacks at 1..k).
    plies: Vec<Vec<PlyStats>>,
    /// After the last ply, class `key` (attacks at every ply): the most garbage the skill would
    /// send if fired then, among lines whose gauge is high enough to matter.
    leaves: Vec<u32>,
}

impl Summary {
    pub fn new(keys: Keys) -> Self {
        Summary { plies: vec![vec![PlyStats::default(); keys.size()]; keys.depth], leaves: vec![0; keys.size()] }
    }

    fn merge(mut self, other: Summary) -> Summary {
        for (mine, theirs) in self.plies.iter_mut().zip(&other.plies) {
            for (a, b) in mine.iter_mut().zip(theirs) {
                a.merge(b);
            }
        }
        for (a, b) in self.leaves.iter_mut().zip(&other.leaves) {
            *a = (*a).max(*b);
        }
        self
    }

    pub fn ply(&self, ply: usize, key: u32) -> &PlyStats {
        &self.plies[ply - 1][key as usize]
    }

    pub fn leaf_skill(&self, key: u32) -> u32 {
        self.leaves[key as usize]
    }
}

/// What one task (one first opponent move) builds and counts.
struct Task {
    summary: Summary,
    /// Lines already expanded (field, gauge, class, ply), local to the task so the result does
    /// not depend on which thread gets where first.
    seen: FxHashSet<u64>,
    nodes: u64,
}

/// The opponent's side of the search.
pub(super) struct OpponentTree<'a> {
    pub packs: &'a Packs,
    pub turn: usize,
    pub keys: Keys,
    /// `row_possible[k][f]`: a row can fall at the start of ply k after f rows fell before.
    pub row_possible: Vec<Vec<bool>>,
    /// Leaves below this gauge are not asked what their skill would send.
    pub skill_gauge_min: u32,
    /// A move sending at least this much garbage is an attack; 0: any send or drain is.
    pub attack_min_send: u32,
    pub budget: &'a Budget,
}

impl OpponentTree<'_> {
    /// Searches every opponent line from `field` (this turn's row already fallen) and `gauge`.
    /// `None` when the budget ran out.
    pub fn summarise<S: Simulator>(&self, field: &S, gauge: u32) -> Option<Summary> {
        let pack = self.packs.get(self.turn);
        let roots: Vec<Action> = Action::all(gauge >= SKILL_THRESHOLD).collect();
        let summary = roots
            .par_iter()
            .map(|&action| {
                let mut task = Task { summary: Summary::new(self.keys), seen: FxHashSet::default(), nodes: 0 };
                task.summary.plies[0][0].reached = true;
                let skill = self.skill_before_last_move(1, field, gauge, &mut task.nodes);
                self.step(1, field, gauge, 0, action, pack, skill, &mut task);
                self.budget.spend(task.nodes);
                task.summary
            })
            .reduce_with(Summary::merge)
            .expect("at least 36 drops");
        (!self.budget.stopped()).then_some(summary)
    }

    /// Expands a line that reached ply `ply` in class `key`.
    fn expand<S: Simulator>(&self, ply: usize, field: &S, gauge: u32, key: u32, task: &mut Task) {
        if self.budget.checkpoint(&mut task.nodes) {
            return;
        }
        task.summary.plies[ply - 1][key as usize].reached = true;
        let pack = self.packs.get(self.turn + ply - 1);
        let skill = self.skill_before_last_move(ply, field, gauge, &mut task.nodes);
        for action in Action::all(gauge >= SKILL_THRESHOLD) {
            self.step(ply, field, gauge, key, action, pack, skill, task);
        }
    }

    /// What the opponent's skill would send after the last ply, measured before its last move
    /// (as for our own skill: per leaf it would cost as much as the leaves), when its gauge can
    /// reach the threat range.
    fn skill_before_last_move<S: Simulator>(&self, ply: usize, field: &S, gauge: u32, nodes: &mut u64) -> u32 {
        if ply == self.keys.depth && gauge + GAUGE_GAIN >= self.skill_gauge_min {
            *nodes += 1;
            field.clone().use_skill().garbage()
        } else {
            0
        }
    }

    /// One opponent move at `ply`, recorded in its class, then the lines below it.
    #[allow(clippy::too_many_arguments)]
    fn step<S: Simulator>(
        &self,
        ply: usize,
        field: &S,
        gauge: u32,
        key: u32,
        action: Action,
        pack: &crate::rules::Pack,
        skill_before: u32,
        task: &mut Task,
    ) {
        let mut child = field.clone();
        let outcome = child.apply(pack, action);
        task.nodes += 1;
        if child.is_dead() {
            return;
        }
        let skill = action == Action::Skill;
        let mut gauge = if skill { 0 } else { gauge };
        if outcome.links > 0 {
            gauge = (gauge + GAUGE_GAIN).min(GAUGE_MAX);
        }
        let send = outcome.garbage();
        let drain = gauge_drain(outcome.links);
        let attack = match self.attack_min_send {
            0 => send > 0 || drain > 0,
            min => send >= min,
        };
        let stats = &mut task.summary.plies[ply - 1][key as usize];
        let chains = outcome.links > 0;
        if attack {
            stats.attack = true;
            stats.attack_chains |= chains;
            stats.drain = stats.drain.max(drain);
            if skill {
                stats.skill_send = stats.skill_send.max(Some(send));
            } else {
                stats.chain_send = stats.chain_send.max(send);
            }
        } else {
            stats.quiet = true;
            stats.quiet_chains |= chains;
            stats.quiet_send = stats.quiet_send.max(send);
            stats.quiet_drain = stats.quiet_drain.max(drain);
        }
        let key = if attack { key | self.keys.attack(ply) } else { key };
        if ply == self.keys.depth {
            if gauge >= self.skill_gauge_min {
                let leaf = &mut task.summary.leaves[key as usize];
                *leaf = (*leaf).max(skill_before);
            }
            return;
        }
        let next = ply + 1;
        let fallen = self.keys.rows_fallen(key) as usize;
        let row_possible = self.row_possible[next][fallen];
        for row in [false, true] {
            if row && !row_possible {
                continue;
            }
            let mut field = child.clone();
            let mut key = key;
            if row {
                field.drop_garbage_row();
                key |= self.keys.fall(next);
            }
            // Lines that meet again (same field, gauge and class) add nothing new.
            let id = field.board_hash() ^ mix((gauge as u64) | (key as u64) << 8 | (next as u64) << 40);
            if task.seen.insert(id) {
                self.expand(next, &field, gauge, key, task);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{Field, Pack, Packs, GARBAGE_ROW};
    use crate::search::midgame::{Budget, MidgameParams};

    /// The pack of every turn here: one 8 on the left column of the drop.
    fn eight() -> Pack {
        Pack::new([0, 0], [8, 0])
    }

    /// An opponent with one chain of 13 garbage (an 8 on column 1 sets it off) and, beside it, a
    /// small chain an 8 on column 8 sets off for three links: it sends a few blocks and drains
    /// our gauge. 8s in every pack: the opponent can fire the big chain at ply 1, or the small
    /// one at ply 1 and the big one at ply 2.
    const BIG_AND_SMALL: &str = "
        9.........
        9.........
        9.........
        9.........
        9.........
        9.........
        9.........
        2.........
        1#........
        1#........
        1#........
        1#.....1..
        1#.....6..
        1#.....7..
        1#.....2..
        1#.....34.";

    fn summarise(attack_min_send: u32) -> (Summary, Keys) {
        let field: Field = BIG_AND_SMALL.parse().expect("a valid picture");
        let packs = Packs(vec![eight(); 4]);
        let budget = Budget::new(None, None);
        let keys = Keys { depth: 2 };
        let tree = OpponentTree {
            packs: &packs,
            turn: 0,
            keys,
            row_possible: vec![vec![false; 2]; 3],
            skill_gauge_min: MidgameParams::default().opp_skill_min_gauge,
            attack_min_send,
            budget: &budget,
        };
        (tree.summarise(&field, 0).expect("no budget"), keys)
    }

    #[test]
    fn a_line_that_fired_its_chain_cannot_fire_it_again_in_its_class() {
        let fire = |x: u8| {
            let mut field: Field = BIG_AND_SMALL.parse().unwrap();
            field.drop_pack(&eight(), x, 0)
        };
        let (big, small) = (fire(1).garbage(), fire(8));
        assert!(big >= GARBAGE_ROW, "the big chain sends a row: {big}");
        assert_eq!(small.links, 3);
        assert!(small.garbage() > 0 && small.garbage() < GARBAGE_ROW, "{small:?}");
        // Seed 000's classes: the small chain is an attack, so the class "attacked at ply 1"
        // holds the line that fired it first, and the big chain is fired in that class at ply 1
        // and again at ply 2.
        let (seed, keys) = summarise(0);
        let attacked = keys.attack(1);
        assert_eq!(seed.ply(1, 0).chain_send, big);
        assert_eq!(seed.ply(2, attacked).chain_send, big);
        // Classes by size: the small chain is a quiet move (its send and drain kept for the
        // quiet answer), and after the big chain at ply 1 nothing that big is left at ply 2.
        let (sized, keys) = summarise(GARBAGE_ROW);
        let attacked = keys.attack(1);
        assert_eq!(sized.ply(1, 0).chain_send, big);
        assert_eq!(sized.ply(1, 0).quiet_send, small.garbage());
        assert_eq!(sized.ply(1, 0).quiet_drain, gauge_drain(3));
        assert!(sized.ply(2, attacked).chain_send < big, "{:?}", sized.ply(2, attacked));
        // The line that fired the small chain first still fires the big one at ply 2, in the
        // quiet class.
        assert_eq!(sized.ply(2, 0).chain_send, big);
    }
}
