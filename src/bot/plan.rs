//! A beam's line turned into moves the bot follows while the field is as the line expected.

use crate::rules::{Action, Field, Simulator};
use crate::search::chain::{either_way, BeamResult, Line};

use crate::state::TurnState;

/// Moves found by a beam, with the field expected before each, to notice when reality differs.
#[derive(Clone, Debug)]
pub struct Plan {
    pub start_turn: usize,
    pub actions: Vec<Action>,
    expected: Vec<Field>,
    /// The chain the plan ends by firing, if any.
    pub fire_links: Option<u32>,
    /// What the plan is for: how far the midgame search's best move may outvalue its move.
    pub kind: PlanKind,
    /// What the searched position could fire at each turn from `start_turn` (any line).
    pub threats: Vec<u32>,
    /// What the plan's own line can fire at each turn from `start_turn` (links; 0 for none): what
    /// following the plan makes ready, where `threats` also counts lines the plan left.
    pub line_links: Vec<u32>,
    /// Links of the plan's fire if a garbage row falls on its fire turn, when measured.
    pub under_row: Option<u32>,
}

/// What a plan is for. The midgame search sees a few plies, not the chain a plan builds to, so
/// a plan's move is taken while the search's best move outvalues it by at most a margin: the
/// opening's and the answer's (`--plan-margin`), or a rebuild's (`--rebuild-margin`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlanKind {
    /// The turn-0 plan (and its refinements and braces): the first chain, searched
    /// longest.
    Opening,
    /// A plan searched in the midgame for the next chain.
    Rebuild,
    /// The line answering the chain the opponent can fire now (the safety check's).
    Answer,
}

/// Where the plan stands this turn.
#[derive(Clone, Copy, Debug)]
pub struct PlanStep {
    pub action: Action,
    /// 0-based step, out of `Plan::actions.len()`.
    pub index: usize,
    /// True when the field is exactly the one the plan expected.
    pub on_plan: bool,
}

impl Plan {
    /// The plan of a beam result (its line up to the best fire), if it has any move.
    pub fn from_search(result: &BeamResult, kind: PlanKind) -> Option<Plan> {
        let line: &Line = &result.line;
        let actions = line.plan();
        if actions.is_empty() {
            return None;
        }
        let fire_step = line.best_fire_step();
        let fire_links = fire_step.and_then(|k| line.fires[k]).map(|f| f.chain.links);
        // Measured for the line's last position: the plan's own only when it fires there.
        let under_row = line.under_row.filter(|_| fire_step == Some(line.fires.len() - 1));
        Some(Plan {
            start_turn: line.start_turn,
            actions,
            expected: line.expected.clone(),
            fire_links,
            kind,
            threats: result.threats(),
            line_links: line.ready_links(),
            under_row,
        })
    }

    /// This turn's move of the plan, unless the plan is over or the turn is before it.
    pub fn step<S: Simulator>(&self, state: &TurnState<S>) -> Option<PlanStep> {
        let index = state.turn.checked_sub(self.start_turn).filter(|&i| i < self.actions.len())?;
        let on_plan = self.expected[index] == state.me.field.to_field();
        Some(PlanStep { action: self.actions[index], index, on_plan })
    }

    /// The field the plan expects at the start of `turn` (after that turn's garbage).
    pub fn expected_at(&self, turn: usize) -> Option<&Field> {
        self.expected.get(turn.checked_sub(self.start_turn)?)
    }

    /// The turn at which the plan fires its chain, if it ends by firing.
    pub fn fire_turn(&self) -> Option<usize> {
        self.fire_links.map(|_| self.start_turn + self.actions.len() - 1)
    }

    /// True when this plan fires a longer chain than `other`, or as long a chain sooner: what
    /// a refinement of a plan must offer to replace it. When both measured their chain under a
    /// garbage row, the chain they fire whether the row falls or not counts first.
    pub fn improves_on(&self, other: &Plan) -> bool {
        let fire = |p: &Plan| p.fire_links.zip(p.fire_turn());
        let sure = |p: &Plan| either_way(p.under_row, p.fire_links);
        if let (Some(sure), Some(other_sure)) = (sure(self), sure(other)) {
            if sure != other_sure {
                return sure > other_sure;
            }
        }
        match (fire(self), fire(other)) {
            (Some((links, turn)), Some((other_links, other_turn))) => {
                links > other_links || (links == other_links && turn < other_turn)
            }
            (Some(_), None) => true,
            (None, _) => false,
        }
    }

    /// What the plan's own line makes ready at each turn from `turn` on (empty past its end).
    pub fn line_from(&self, turn: usize) -> &[u32] {
        self.tail_from(&self.line_links, turn)
    }

    /// What the searched position could fire at each turn from `turn` on, any line.
    pub fn threats_from(&self, turn: usize) -> &[u32] {
        self.tail_from(&self.threats, turn)
    }

    /// The part of `links` (indexed from `start_turn`) from `turn` on.
    fn tail_from<'a>(&self, links: &'a [u32], turn: usize) -> &'a [u32] {
        &links[turn.saturating_sub(self.start_turn).min(links.len())..]
    }

    /// The longest chain the searched position could fire from `turn` to `turn + turns`.
    pub fn best_within(&self, turn: usize, turns: usize) -> u32 {
        let from = turn.saturating_sub(self.start_turn);
        let to = (turn + turns + 1).saturating_sub(self.start_turn).min(self.threats.len());
        self.threats.get(from..to).and_then(|t| t.iter().max()).copied().unwrap_or(0)
    }

    /// The earliest turn (absolute) at which the searched position could fire `links`.
    pub fn earliest(&self, links: u32) -> Option<usize> {
        self.threats.iter().position(|&l| l >= links).map(|i| self.start_turn + i)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plan(start_turn: usize, moves: usize, fire_links: Option<u32>) -> Plan {
        Plan {
            start_turn,
            actions: vec![Action::Drop { x: 4, rotation: 0 }; moves],
            expected: vec![Field::empty(); moves + 1],
            fire_links,
            kind: PlanKind::Rebuild,
            threats: Vec::new(),
            line_links: Vec::new(),
            under_row: None,
        }
    }

    #[test]
    fn a_refinement_must_fire_longer_or_as_long_sooner() {
        let held = plan(3, 10, Some(14)); // fires 14 links at turn 12
        assert_eq!(held.fire_turn(), Some(12));
        assert!(plan(5, 8, Some(15)).improves_on(&held), "longer, same turn");
        assert!(plan(5, 9, Some(15)).improves_on(&held), "longer, later");
        assert!(plan(5, 7, Some(14)).improves_on(&held), "as long, sooner");
        assert!(!plan(5, 8, Some(14)).improves_on(&held), "as long, same turn");
        assert!(!plan(5, 6, Some(13)).improves_on(&held), "shorter, sooner");
        assert!(!plan(5, 8, None).improves_on(&held), "no fire");
        assert!(plan(5, 8, Some(3)).improves_on(&plan(3, 10, None)), "any fire beats none");
        // Plans that measured their chain under a garbage row: the chain fired either way first.
        let sure = |p: Plan, under_row| Plan { under_row: Some(under_row), ..p };
        let fragile = sure(plan(3, 10, Some(15)), 2);
        assert!(sure(plan(5, 8, Some(13)), 13).improves_on(&fragile), "13 either way against 15 or 2");
        assert!(!fragile.improves_on(&sure(plan(5, 8, Some(13)), 13)));
        assert!(sure(plan(5, 8, Some(16)), 12).improves_on(&sure(plan(3, 10, Some(14)), 12)), "then the longer");
        assert!(plan(5, 8, Some(16)).improves_on(&fragile), "unmeasured: by the chain alone");
        assert_eq!(held.expected_at(3), Some(&Field::empty()));
        assert_eq!(held.expected_at(2), None);
    }
}
