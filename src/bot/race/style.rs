//! How the opponent fires, as seen in this game: the belief the race holds about them, read
//! from their score and the probes of their field (nothing here knows the opponent's name).

use crate::rules::chain_score;

use super::menus::POTENTIAL_TURNS;

/// Their chains only count from this many links: smaller ones do not race.
const STYLE_MIN_LINKS: u32 = 10;

/// How the opponent fires, as seen in this game: each chain of 10+ links it fired, against what
/// the probe of its field on that turn had in reach within 10 turns. A fast firer fires well
/// below that; a builder waits for it. Nothing here knows the opponent's name.
#[derive(Clone, Debug, Default)]
pub(in crate::bot) struct TheirStyle {
    /// The last probe of their field: its turn and menu.
    last_probe: Option<(usize, Vec<u32>)>,
    /// Each 10+ fire: its turn, its links, and the probe's 10-turn potential that turn (None
    /// when their field was not probed on the turn they fired).
    fires: Vec<(usize, u32, Option<u32>)>,
}

impl TheirStyle {
    /// Notes what they fired on the previous turn, from what their score `gained` since (a drop's
    /// chain score is `chain_score(links)`; a gain that is no chain score, the skill's, is not a
    /// fire).
    pub(in crate::bot) fn observe(&mut self, turn: usize, gained: u64) {
        let Some(links) = (STYLE_MIN_LINKS..=MAX_CHAIN_LINKS).find(|&l| chain_score(l) == gained) else { return };
        let fired_at = turn.saturating_sub(1);
        let potential = self
            .last_probe
            .as_ref()
            .filter(|(probed, _)| *probed == fired_at)
            .map(|(_, menu)| menu.iter().take(POTENTIAL_TURNS + 1).copied().max().unwrap_or(0));
        self.fires.push((fired_at, links, potential));
    }

    /// Keeps this turn's probe of their field.
    pub(in crate::bot) fn remember(&mut self, turn: usize, menu: Vec<u32>) {
        self.last_probe = Some((turn, menu));
    }

    /// "13@11 of 20 in reach, ..." for each fire seen; None before any.
    pub(in crate::bot) fn describe(&self) -> Option<String> {
        let fires: Vec<String> = self
            .fires
            .iter()
            .map(|&(turn, links, potential)| match potential {
                Some(p) => format!("{links}@{turn} of {p} in reach"),
                None => format!("{links}@{turn}"),
            })
            .collect();
        (!fires.is_empty()).then(|| fires.join(", "))
    }
}

/// The longest chain a style reading looks for: a score gain that is no chain's score up to this
/// is not a fire (the chains played stay far below it).
const MAX_CHAIN_LINKS: u32 = 40;

#[cfg(test)]
mod tests {
    use super::TheirStyle;
    use crate::rules::chain_score;

    #[test]
    fn their_fires_are_read_from_their_score_against_the_probe_of_that_turn() {
        let mut style = TheirStyle::default();
        style.observe(9, 0);
        style.remember(9, vec![8, 9, 9]);
        style.observe(10, chain_score(3)); // a small chain does not race
        style.remember(10, vec![11, 13, 13, 15, 20, 20]);
        assert_eq!(style.describe(), None);
        // Turn 11's input shows the 13 links fired on turn 10, when the probe had 20 in reach.
        style.observe(11, chain_score(13));
        assert_eq!(style.describe().as_deref(), Some("13@10 of 20 in reach"));
        // A gain that is no chain's score (the skill's explosion) is not a fire; a fire on a turn
        // their field was not probed has no potential.
        style.observe(12, 33);
        style.observe(14, chain_score(12));
        assert_eq!(style.describe().as_deref(), Some("13@10 of 20 in reach, 12@13"));
    }
}
