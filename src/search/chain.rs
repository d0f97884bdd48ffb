//! What the chain searches share: where a search starts, the fires it measures (the best chain
//! a field can fire with a pack, with one block, by erasing one block), the lines it finds and
//! the menu of the best chain at every turn. The beam ([`super::beam`]) and the anytime builder
//! ([`super::builder`]) both build on this module and on nothing of each other.

use super::eval::Chain;
use crate::rules::{Action, Field, Pack, Packs, Simulator, GARBAGE_ROW, VISIBLE_HEIGHT, WIDTH};

/// Where the search starts: a field at the start of `turn` (this turn's garbage row fallen)
/// with `garbage` stock still to fall, one row a turn.
#[derive(Clone, Copy, Debug)]
pub struct Start<'a, S> {
    pub field: &'a S,
    pub packs: &'a Packs,
    pub turn: usize,
    pub garbage: u32,
}

impl<S> Start<'_, S> {
    /// True when a garbage row falls at the start of the turn `depth` turns from now.
    pub(crate) fn row_falls(&self, depth: usize) -> bool {
        depth >= 1 && depth <= (self.garbage / GARBAGE_ROW) as usize
    }
}

/// The best chain a field can fire this turn, the action that fires it and what it leaves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fire {
    pub chain: Chain,
    pub action: Action,
    /// Blocks left on the field after the chain.
    pub remaining: usize,
}

/// The line the search chose: building moves, with what could be fired at each turn of it.
#[derive(Clone, Debug, Default)]
pub struct Line {
    /// The turn of the first step.
    pub start_turn: usize,
    /// Building moves, one a turn.
    pub builds: Vec<Action>,
    /// The best fire available at each turn of the line (one more than `builds`: the last is
    /// the fire at the end of the line).
    pub fires: Vec<Option<Fire>>,
    /// The field expected at the start of each turn of the line (after that turn's garbage).
    pub expected: Vec<Field>,
    /// Links of the best fire at the line's last turn if a garbage row falls first (the
    /// opponent fired the turn before), when the search measured it; where it measured two rows
    /// too ([`fire_under_two_rows`]: they fired two turns before), the smaller of the two.
    pub under_row: Option<u32>,
}

impl Line {
    /// Links of the best fire at each turn of the line (0 where none): what it has ready.
    pub fn ready_links(&self) -> Vec<u32> {
        self.fires.iter().map(|f| f.map_or(0, |f| f.chain.links)).collect()
    }

    /// The step (0-based) of the earliest largest fire on the line.
    pub fn best_fire_step(&self) -> Option<usize> {
        let best = self.fires.iter().flatten().map(|f| f.chain).max()?;
        self.fires.iter().position(|f| f.is_some_and(|f| f.chain == best))
    }

    /// The earliest turn at which the line can fire at least `links` links.
    pub fn first_turn_with(&self, links: u32) -> Option<usize> {
        self.fires.iter().position(|f| f.is_some_and(|f| f.chain.links >= links)).map(|i| self.start_turn + i)
    }

    /// The largest chain the line can fire at or before `turn`.
    pub fn best_by_turn(&self, turn: usize) -> u32 {
        let steps = (turn + 1).saturating_sub(self.start_turn).min(self.fires.len());
        self.fires[..steps].iter().flatten().map(|f| f.chain.links).max().unwrap_or(0)
    }

    /// The moves to play: the builds up to the best fire, then the fire.
    pub fn plan(&self) -> Vec<Action> {
        match self.best_fire_step() {
            Some(k) => self.builds[..k].iter().copied().chain(self.fires[k].map(|f| f.action)).collect(),
            None => self.builds.clone(),
        }
    }
}

/// What a search found and what it cost.
#[derive(Clone, Debug, Default)]
pub struct BeamResult {
    pub line: Line,
    /// Placements simulated.
    pub nodes: u64,
    /// Depths completed.
    pub depth: usize,
    /// The best chain any kept state could fire at each turn, with the line to it: a plan may
    /// follow another line than `line`.
    pub menu: Menu,
}

impl BeamResult {
    /// The longest chain any kept state could fire at each turn from the start (index 0 is the
    /// start turn itself): what the searched position can threaten, line or not.
    pub fn threats(&self) -> Vec<u32> {
        self.menu.links()
    }

    /// The earliest turn (from the start) at which some searched line could fire `links`.
    pub fn earliest(&self, links: u32) -> Option<usize> {
        self.threats().iter().position(|&l| l >= links)
    }

    /// The longest chain some searched line could fire within `turns` turns from the start.
    pub fn best_within(&self, turns: usize) -> u32 {
        self.threats().into_iter().take(turns + 1).max().unwrap_or(0)
    }
}

/// The best chain found fireable at each turn, with the line to it.
#[derive(Clone, Debug, Default)]
pub struct Menu {
    /// The turn of depth 0.
    pub start_turn: usize,
    /// Index `d`: the best fire at turn `start_turn + d` and its line (builds, then the fire as
    /// the line's last fire).
    pub entries: Vec<Option<Line>>,
    /// Index `d`: the line to the fire at turn `start_turn + d` that stays largest if a garbage
    /// row falls first ([`Line::under_row`]); none where the search did not measure it.
    pub under_row: Vec<Option<Line>>,
}

impl Menu {
    /// The fire of the entry at depth `d`.
    pub fn fire(&self, d: usize) -> Option<Fire> {
        self.entries.get(d)?.as_ref()?.fires.last().copied().flatten()
    }

    /// Links of the best fire at each depth (0 where none was found).
    pub fn links(&self) -> Vec<u32> {
        (0..self.entries.len()).map(|d| self.fire(d).map_or(0, |f| f.chain.links)).collect()
    }

    /// The largest chain fireable at or before `turn`.
    pub fn best_by_turn(&self, turn: usize) -> u32 {
        let steps = (turn + 1).saturating_sub(self.start_turn);
        self.links().into_iter().take(steps).max().unwrap_or(0)
    }

    /// The earliest turn at which at least `links` can be fired.
    pub fn first_turn_with(&self, links: u32) -> Option<usize> {
        self.links().iter().position(|&l| l >= links).map(|d| self.start_turn + d)
    }

    /// The entry a plan should follow: the largest chain fireable within `turns` turns of the
    /// start (the earliest of equal chains), or past that when nothing is found within.
    pub fn choose(&self, turns: usize) -> Option<&Line> {
        let links = self.links();
        let best_within = |limit: usize| -> Option<usize> {
            let within = &links[..(limit + 1).min(links.len())];
            let most = *within.iter().max()?;
            (most > 0).then(|| within.iter().position(|&l| l == most)).flatten()
        };
        let d = best_within(turns).or_else(|| best_within(links.len()))?;
        self.entries[d].as_ref()
    }

    /// The entry a plan should follow when the opponent's garbage may land first: the line to
    /// the largest chain fireable within `turns` turns whether a garbage row falls first or not
    /// (the smaller of the two; of equal ones, the larger chain without the row, then the
    /// earliest); [`Self::choose`] when nothing under a row was measured.
    pub fn choose_under_row(&self, turns: usize) -> Option<&Line> {
        let fire = |line: &Line| line.fires.last().copied().flatten().map_or(0, |f| f.chain.links);
        let sturdiest = self
            .under_row
            .iter()
            .take(turns + 1)
            .flatten()
            .filter_map(|line| Some(((either_way(line.under_row, Some(fire(line)))?, fire(line)), line)))
            .filter(|((sure, _), _)| *sure > 0)
            .reduce(|best, next| if next.0 > best.0 { next } else { best });
        sturdiest.map(|(_, line)| line).or_else(|| self.choose(turns))
    }
}

/// The best chain `field` can fire with `pack` (every placement tried), counting placements.
pub fn best_fire<S: Simulator>(field: &S, pack: &Pack, nodes: &mut u64) -> Option<Fire> {
    let mut best: Option<Fire> = None;
    for action in Action::drops() {
        let mut probe = field.clone();
        let outcome = probe.apply(pack, action);
        *nodes += 1;
        if outcome.links == 0 || probe.is_dead() {
            continue;
        }
        let chain = Chain { links: outcome.links, vanished: outcome.vanished };
        if best.is_none_or(|b| chain > b.chain) {
            best = Some(Fire { chain, action, remaining: probe.block_count() });
        }
    }
    best
}

/// The chain that goes off whether or not a garbage row falls first: the smaller of the fire
/// under a row and the fire without it, when both were measured.
pub fn either_way(under_row: Option<u32>, links: Option<u32>) -> Option<u32> {
    Some(under_row?.min(links?))
}

/// The best chain `field` can fire with `pack` once a garbage row has fallen on it: what is
/// left to fire when the opponent's chain lands first.
pub fn fire_under_a_row<S: Simulator>(field: &S, pack: &Pack, nodes: &mut u64) -> Option<Fire> {
    let mut buried = field.clone();
    buried.drop_garbage_row();
    best_fire(&buried, pack, nodes)
}

/// The best chain `field` can fire with `next` when a garbage row falls before each of the two
/// turns: before this turn's building move with `pack` (chosen again on top of the row: every
/// placement that builds, firing at most `build_chain_max` links) and before the fire. What a
/// chain fired the turn after is worth when their chain lands the turn before. 0 when nothing
/// fires.
pub fn fire_under_two_rows<S: Simulator>(
    field: &S,
    pack: &Pack,
    next: &Pack,
    build_chain_max: u32,
    nodes: &mut u64,
) -> u32 {
    let mut first_row = field.clone();
    first_row.drop_garbage_row();
    let mut best = 0;
    for action in Action::drops() {
        let mut built = first_row.clone();
        let outcome = built.apply(pack, action);
        *nodes += 1;
        if outcome.links <= build_chain_max && !built.is_dead() {
            best = best.max(fire_under_a_row(&built, next, nodes).map_or(0, |f| f.chain.links));
        }
    }
    best
}

/// The best chain one block of any number would fire, dropped on any column (counting drops).
/// On a settled field only a number that pairs with a neighbour of the landing cell can start a
/// chain, so only those numbers are dropped; they are tried in order 1..=9, so ties go to the
/// smaller number.
pub fn best_block_fire<S: Simulator>(field: &S, nodes: &mut u64) -> Option<Fire> {
    let mut best: Option<Fire> = None;
    block_fires(field, nodes, |fire| {
        if best.is_none_or(|b| fire.chain > b.chain) {
            best = Some(fire);
        }
    });
    best
}

/// Every chain one block would start (see [`best_block_fire`]), column by column, numbers in
/// order: what a chain potential is measured from.
pub fn block_fires<S: Simulator>(field: &S, nodes: &mut u64, mut visit: impl FnMut(Fire)) {
    for x in 0..WIDTH {
        let y = field.height(x);
        if y >= VISIBLE_HEIGHT {
            continue;
        }
        // The landing cell's neighbours: beside it, below it, and diagonally above and below.
        let mut pairs = [false; 10];
        let (left_x, below) = (x.wrapping_sub(1), y.wrapping_sub(1));
        for (nx, ny) in
            [(left_x, y + 1), (left_x, y), (left_x, below), (x, below), (x + 1, y + 1), (x + 1, y), (x + 1, below)]
        {
            let v = if nx < WIDTH && ny <= y + 1 { field.cell(nx, ny) } else { 0 };
            if (1..=9).contains(&v) {
                pairs[(10 - v) as usize] = true;
            }
        }
        // A one-block pack: the left column of position x, or the right one of position 8.
        let (position, left) = if x < WIDTH - 1 { (x as u8, true) } else { (x as u8 - 1, false) };
        for number in (1..=9).filter(|&n| pairs[n as usize]) {
            let pack = if left { Pack::new([0, 0], [number, 0]) } else { Pack::new([0, 0], [0, number]) };
            let mut probe = field.clone();
            let outcome = probe.drop_pack(&pack, position, 0);
            *nodes += 1;
            if outcome.links == 0 {
                continue;
            }
            let chain = Chain { links: outcome.links, vanished: outcome.vanished };
            let action = Action::Drop { x: position, rotation: 0 };
            visit(Fire { chain, action, remaining: probe.block_count() });
        }
    }
}

/// Every chain set off by erasing one exposed numbered block (one with an empty neighbour, as
/// a partner could reach it): the chain's links (the erase counts as the first) and blocks,
/// and the blocks left. A more hopeful potential than [`block_fires`]: it also sees triggers
/// a partner can reach only from the side or after more building.
pub fn erase_fires<S: Simulator>(field: &S, nodes: &mut u64, mut visit: impl FnMut(Chain, usize)) {
    let heights: [usize; WIDTH] = std::array::from_fn(|x| field.height(x));
    for x in 0..WIDTH {
        // A block in row y has an empty neighbour when it tops its column, or when a column
        // beside it is at most y + 1 high (its upper diagonal neighbour is empty).
        let side_low = [x.wrapping_sub(1), x + 1].into_iter().filter(|&n| n < WIDTH).map(|n| heights[n]).min();
        for y in (0..heights[x]).rev() {
            let exposed = y + 1 == heights[x] || side_low.is_some_and(|h| h <= y + 1);
            if !exposed {
                break;
            }
            if !(1..=9).contains(&field.cell(x, y)) {
                continue;
            }
            let mut probe = field.clone();
            let outcome = probe.erase(x, y);
            *nodes += 1;
            visit(Chain { links: outcome.links, vanished: outcome.vanished }, probe.block_count());
        }
    }
}

pub(crate) fn tallest<S: Simulator>(field: &S) -> usize {
    (0..WIDTH).map(|x| field.height(x)).max().unwrap_or(0)
}

pub(crate) fn mix(mut z: u64) -> u64 {
    // splitmix64's finaliser: spreads seeds and hashes into tie-break keys.
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A line of `depth` builds ending in a fire of `links`, `under_row` links if a row falls.
    fn line(depth: usize, links: u32, under_row: Option<u32>) -> Option<Line> {
        let action = Action::Drop { x: 4, rotation: 0 };
        let fire = Fire { chain: Chain { links, vanished: 2 * links }, action, remaining: 0 };
        let mut fires = vec![None; depth];
        fires.push(Some(fire));
        Some(Line { builds: vec![action; depth], fires, under_row, ..Line::default() })
    }

    #[test]
    fn under_a_row_the_plan_takes_the_chain_that_fires_either_way() {
        // Depth 11: 15 links, 2 if a row falls first; depth 12: 13 either way; depth 13: 14, or
        // 12 under the row.
        let menu = Menu {
            start_turn: 0,
            entries: vec![None, None, None, None, None, None, None, None, None, None, None, line(11, 15, Some(2))],
            under_row: [vec![None; 11], vec![line(11, 15, Some(2)), line(12, 13, Some(13)), line(13, 14, Some(12))]]
                .concat(),
        };
        let fire = |line: Option<&Line>| line.map(|l| (l.builds.len(), l.under_row));
        assert_eq!(fire(menu.choose(13)), Some((11, Some(2))), "the largest chain alone");
        assert_eq!(fire(menu.choose_under_row(13)), Some((12, Some(13))));
        assert_eq!(fire(menu.choose_under_row(11)), Some((11, Some(2))), "only one line within 11 turns");
        // A chain larger under the row than without it counts as the smaller.
        let menu = Menu { under_row: vec![None, line(1, 9, Some(15)), line(2, 10, Some(10))], ..menu };
        assert_eq!(fire(menu.choose_under_row(2)), Some((2, Some(10))));
        // Nothing measured under a row: the largest chain.
        let menu = Menu { under_row: Vec::new(), ..menu };
        assert_eq!(fire(menu.choose_under_row(13)), Some((11, Some(2))));
    }
}
