//! The midgame evaluation (seed 000: 評䟡倀の蚈算方法, 評䟡倀の芋盎し, 盞手を殺しに行く評䟡).
//! Every weight comes from [`MidgameParams`]; values are in hundredths of a garbage block.

use super::MidgameParams;
use crate::rules::{chain_garbage, Outcome, Simulator, GARBAGE_ROW, GAUGE_GAIN, SKILL_THRESHOLD, WIDTH};

/// What a line of the search carries besides the fields: the exact garbage and gauge
/// bookkeeping of both sides under the opponent's modelled answers, and the terms that belong
/// to moves on the way rather than to the final position.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Line {
    /// Pending garbage, the opponent's minus ours (after offsetting one side is always 0).
    pub net: i32,
    /// The opponent's gauge: an upper bound (its own gains assumed whenever some line of its
    /// class gains), less our exact drains.
    pub opp_gauge: u32,
    /// The opponent's class: rows fallen on it and its attacks so far (see `Keys`).
    pub key: u32,
    /// Garbage rows fallen on each side since the root.
    pub rows_on_us: u32,
    pub rows_on_opp: u32,
    /// Garbage we sent in all (before offsetting).
    pub sent: u32,
    /// Path terms: wasted small chains of ours, small attacks the opponent is unlikely to make.
    pub bonus: i64,
    /// The ply (1-based) at which the garbage sent first reached lethal, near lethal; 0: never.
    pub lethal_ply: u32,
    pub near_ply: u32,
}

/// The evaluation with its per-search constants.
pub(super) struct Evaluator<'a> {
    pub params: &'a MidgameParams,
    /// The turn of ply 1.
    pub turn: usize,
    /// Garbage that kills the opponent, from its field at the root.
    pub lethal: u32,
    /// Garbage blocks on each field at the root.
    pub our_garbage: u32,
    pub opp_garbage: u32,
    /// The most an opponent chain of `early_attack_links` / `small_attack_links` sends.
    early_attack_send: u32,
    small_attack_send: u32,
}

impl<'a> Evaluator<'a> {
    pub fn new(params: &'a MidgameParams, turn: usize, lethal: u32, our_garbage: u32, opp_garbage: u32) -> Self {
        Evaluator {
            params,
            turn,
            lethal,
            our_garbage,
            opp_garbage,
            early_attack_send: chain_garbage(params.early_attack_links),
            small_attack_send: chain_garbage(params.small_attack_links),
        }
    }

    /// Our death at `ply`: below everything, later deaths less bad.
    pub fn death(&self, ply: usize) -> i64 {
        -self.params.death_penalty + self.params.death_ply_step * ply as i64
    }

    /// The opponent cannot survive ply `ply`: what killed it went out at ply − 1 at the latest
    /// (the ply a kill is dated by, as a predicted kill is dated by its lethal ply), or at the
    /// line's lethal ply if earlier.
    pub fn opponent_dead(&self, ply: usize, line: &Line) -> i64 {
        let mut sent_at = ply - 1;
        if line.lethal_ply > 0 {
            sent_at = sent_at.min(line.lethal_ply as usize);
        }
        self.params.kill_bonus - self.params.kill_ply_step * sent_at as i64
    }

    /// Garbage on the opponent's field after the line's rows.
    pub fn opp_field_garbage(&self, line: &Line) -> u32 {
        self.opp_garbage + GARBAGE_ROW * line.rows_on_opp
    }

    /// Garbage on our field after the line's rows.
    pub fn our_field_garbage(&self, line: &Line) -> u32 {
        self.our_garbage + GARBAGE_ROW * line.rows_on_us
    }

    /// Our chain of `links` while the opponent holds little garbage: it sends too little to
    /// hurt and spends what we built (3-link chains, which drain its gauge, are left alone).
    pub fn wasted_chain(&self, links: u32, line: &Line) -> i64 {
        let p = self.params;
        let small = (p.small_chain_min_links..=p.small_chain_max_links).contains(&links);
        if small && self.opp_field_garbage(line) <= p.small_chain_opp_garbage {
            -p.small_chain_penalty
        } else {
            0
        }
    }

    /// An opponent attack at `ply` by a drop sending `send`: small chains are unlikely early on,
    /// and hardly matter while our field holds little garbage.
    pub fn unlikely_attack(&self, ply: usize, send: u32, line: &Line) -> i64 {
        let p = self.params;
        let mut bonus = 0;
        if self.turn + ply - 1 < p.early_turns && send <= self.early_attack_send {
            bonus += p.early_attack_bonus;
        }
        if self.our_field_garbage(line) <= p.small_attack_field_garbage && send <= self.small_attack_send {
            bonus += p.small_attack_refund * send as i64;
        }
        bonus
    }

    /// Records the first ply at which the garbage sent reaches lethal and near lethal.
    pub fn track_lethal(&self, ply: usize, line: &mut Line) {
        let incoming = GARBAGE_ROW * line.rows_on_opp + line.net.max(0) as u32;
        if line.lethal_ply == 0 && incoming >= self.lethal {
            line.lethal_ply = ply as u32;
        }
        // Something must be on its way: when lethal is within the margin, nothing is no threat.
        let near = self.lethal.saturating_sub(self.params.near_kill_margin).max(1);
        if line.near_ply == 0 && incoming >= near {
            line.near_ply = ply as u32;
        }
    }

    /// The value after the last ply. `field` is ours, `gauge` our gauge; `skill` what our skill
    /// would do on `field` now; `opp_skill` the most the opponent's skill would send now.
    pub fn leaf<S: Simulator>(&self, field: &S, gauge: u32, skill: &Outcome, opp_skill: u32, line: &Line) -> i64 {
        let p = self.params;
        let mut value = line.bonus + self.stock(line.net);
        value += p.field_garbage * (self.opp_field_garbage(line) as i64 - self.our_field_garbage(line) as i64);
        value += self.own_skill(skill, gauge);
        value += self.opp_skill(opp_skill, line.opp_gauge);
        value -= self.high_rows(field, line.net <= -(GARBAGE_ROW as i32));
        if line.sent > 0 && line.sent <= p.small_send_max {
            value -= p.small_send_discount * line.sent as i64;
        }
        value + self.lethal_bonus(opp_skill, line)
    }

    /// Pending garbage: whole rows count fully, the rest a fifth (by default).
    fn stock(&self, net: i32) -> i64 {
        let n = net.unsigned_abs();
        let rows = n / GARBAGE_ROW * GARBAGE_ROW;
        let v = self.params.stock_rows * rows as i64 + self.params.stock_units * (n - rows) as i64;
        if net < 0 {
            -v
        } else {
            v
        }
    }

    /// Our skill's threat: what it would send now, scaled by (1 + gauge)/81 while charging.
    fn own_skill(&self, skill: &Outcome, gauge: u32) -> i64 {
        let p = self.params;
        let full = p.own_skill * skill.garbage() as i64;
        if gauge >= SKILL_THRESHOLD {
            full
        } else {
            full * (1 + gauge as i64) / (SKILL_THRESHOLD as i64 + 1)
        }
    }

    /// The opponent's skill threat: nothing while far from charged, a fifth of its garbage
    /// scaled by the gauge while charging, all of it once charged.
    fn opp_skill(&self, send: u32, gauge: u32) -> i64 {
        let p = self.params;
        let full = p.opp_skill * send as i64;
        if gauge < p.opp_skill_min_gauge {
            0
        } else if gauge < SKILL_THRESHOLD {
            -full * gauge as i64 / SKILL_THRESHOLD as i64 / p.opp_skill_divisor.max(1)
        } else {
            -full
        }
    }

    /// Penalties for our blocks in rows 15, 16 and 17, counting the row about to fall.
    fn high_rows<S: Simulator>(&self, field: &S, row_coming: bool) -> i64 {
        let p = self.params;
        (0..WIDTH)
            .map(|x| {
                let h = field.height(x) + row_coming as usize;
                let mut penalty = 0;
                if h >= 15 {
                    penalty += p.row15_penalty;
                }
                if h >= 16 {
                    penalty += p.row16_penalty;
                }
                if h >= 17 {
                    penalty += p.row17_penalty;
                }
                penalty
            })
            .sum()
    }

    /// Kill and near-kill bonuses: the garbage sent reaches (near) lethal and the opponent's
    /// skill cannot fire before the rows needed have fallen, or (near kill) the skill's
    /// estimated garbage cannot offset enough of it.
    fn lethal_bonus(&self, opp_skill: u32, line: &Line) -> i64 {
        let p = self.params;
        let fallen = GARBAGE_ROW * line.rows_on_opp;
        let pending = line.net.max(0) as u32;
        let incoming = fallen + pending;
        let turns_to_skill = SKILL_THRESHOLD.saturating_sub(line.opp_gauge).div_ceil(GAUGE_GAIN);
        let rows_needed = |garbage: u32| garbage.saturating_sub(fallen).div_ceil(GARBAGE_ROW);
        if line.lethal_ply > 0 && incoming >= self.lethal && rows_needed(self.lethal) <= turns_to_skill {
            return p.kill_bonus - p.kill_ply_step * line.lethal_ply as i64;
        }
        let near = self.lethal.saturating_sub(p.near_kill_margin).max(1);
        let near_holds = rows_needed(near) <= turns_to_skill || fallen + pending.saturating_sub(opp_skill) >= near;
        if line.near_ply > 0 && incoming >= near && near_holds {
            return p.near_kill_bonus - p.near_kill_ply_step * line.near_ply as i64;
        }
        0
    }
}
