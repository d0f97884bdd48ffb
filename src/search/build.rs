//! Which search builds our chains, and with what: the beam's and the anytime builder's flags
//! (the opening, the rebuilds, the opponent probes), and the one place that dispatches on
//! `--builder`.

use std::time::Instant;

use super::beam::{search, BeamConfig, Potential};
use super::builder::{self, BuilderConfig, PotentialProbe};
use super::chain::{BeamResult, Line, Menu, Start};
use super::eval::{BeamWeights, BuilderWeights};
use crate::rules::{Simulator, MAX_X};

/// The beam searches' parameters, one flag each (seed 000's flag names in brackets).
#[derive(Clone, Debug, clap::Args)]
pub struct BeamParams {
    /// Opening beam: states kept per depth at most, W (narrower when the budget is short) [-bw].
    /// High enough that the 19 s budget, not this cap, sets the width; the cap bounds memory
    /// (the 19 s search peaks at about 450 MiB).
    #[arg(long, default_value_t = 60000)]
    pub beam_width: usize,
    /// Opening beam: states kept per group of equal fireable chain, W2 ≈ 20–30% of W [-bcw].
    #[arg(long, default_value_t = 60000)]
    pub beam_chain_width: usize,
    /// The opening plan (and its refinements) follows the line to the largest chain fireable by
    /// this turn that still fires if the opponent's first garbage row lands on its turn (then
    /// the largest without the row, then the earliest): the turn our first chain is built for;
    /// a chain triggered from the top is buried by that row. 0: the line the beam valued best
    /// at its deepest depth (seed 000's choice).
    #[arg(long, default_value_t = 13)]
    pub plan_turn: usize,
    /// A rebuild's plan follows the line to a chain fireable within this many turns: the largest
    /// (0: the deepest line, as for the opening), or in the full bot the one that wins most
    /// against the opponent's menu.
    #[arg(long, default_value_t = 16)]
    pub rebuild_plan_turns: usize,
    /// Opening beam: turns searched ahead at most [-bd].
    #[arg(long, default_value_t = 24)]
    pub beam_depth: usize,
    /// Target chain c: once a line can fire c links, only lines reaching c−1 are kept [-bcm]
    /// (0 = no target).
    #[arg(long, default_value_t = 0)]
    pub beam_target: u32,
    /// Final target: the opening search stops once a line can fire this many links [-bcm2].
    #[arg(long, default_value_t = 0)]
    pub beam_final_target: u32,
    /// Once the target is reached, lines reaching this many links less survive too (seed 000
    /// keeps one less for diversity; 0 keeps the earliest target on the plan).
    #[arg(long, default_value_t = 0)]
    pub beam_target_slack: u32,
    /// Opening beam: leftmost drop position (keeps off the outer columns) [-bminx].
    #[arg(long, default_value_t = 2)]
    pub opening_min_x: u8,
    /// Opening beam: rightmost drop position [-bmaxx].
    #[arg(long, default_value_t = 6)]
    pub opening_max_x: u8,
    /// Opening beam: use every column (turns the outer-column pruning off).
    #[arg(long)]
    pub opening_all_columns: bool,
    /// Turn 0's thinking budget in ms at the full time control (scaled with the time given).
    #[arg(long, default_value_t = 19_000)]
    pub opening_ms: u64,
    /// The opening plan's refinement: while the plan is followed blindly (turns 1 to
    /// `--plan-unconditional-turns` − 1) the opening search runs again from the field reached,
    /// for this many ms at the full control (0: never), and a plan firing a longer chain, or
    /// as long a chain sooner, replaces it. Under a node budget it gets the budget's share
    /// `--refine-ms` / `--opening-ms`.
    #[arg(long, default_value_t = 4000)]
    pub refine_ms: u64,
    /// When their field can fire a chain sending two rows two turns before the opening plan's
    /// fire, the plan is searched again for the chain that fires whether their garbage lands one
    /// turn before its fire or two, measured for this many of each depth's largest fires (0: never).
    #[arg(long, default_value_t = 1000)]
    pub plan_two_rows: usize,
    /// A refinement searches this many turns past the turn its plan fires.
    #[arg(long, default_value_t = 3)]
    pub refine_past_plan_turn: usize,
    /// Rebuild beam (after garbage or the plan's end; all columns): states kept per depth at
    /// most; the turn's time slice sets the width below that [-nbw].
    #[arg(long, default_value_t = 8000)]
    pub rebuild_width: usize,
    /// Rebuild beam: states kept per chain group at most [-nbcw].
    #[arg(long, default_value_t = 8000)]
    pub rebuild_chain_width: usize,
    /// Rebuild beam: turns searched ahead at most.
    #[arg(long, default_value_t = 16)]
    pub rebuild_depth: usize,
    /// Rebuild beam: budget in ms at the full time control [-nftl].
    #[arg(long, default_value_t = 1000)]
    pub rebuild_ms: u64,
    /// Evaluation: weight per link of the best chain reachable on the line so far.
    #[arg(long, default_value_t = 0)]
    pub eval_reachable_links: i64,
    /// Evaluation: weight per link of the deepest state's best chain.
    #[arg(long, default_value_t = 1_000_000)]
    pub eval_deepest_links: i64,
    /// Evaluation: weight per block vanished by the best chain reachable on the line so far.
    #[arg(long, default_value_t = 0)]
    pub eval_reachable: i64,
    /// Evaluation: weight per block vanished by the deepest state's best chain.
    #[arg(long, default_value_t = 0)]
    pub eval_deepest: i64,
    /// Evaluation: weight per block left after the deepest state's best chain.
    #[arg(long, default_value_t = 0)]
    pub eval_remaining: i64,
    /// Evaluation: weight per link of the chain a state can really fire with its turn's pack
    /// (its readiness; 0 = measured only for the states kept).
    #[arg(long, default_value_t = 0)]
    pub eval_ready_links: i64,
    /// Evaluation: weight per block vanished by that chain.
    #[arg(long, default_value_t = 0)]
    pub eval_ready: i64,
    /// Evaluation: weight per block on the field (material kept rather than spent building).
    #[arg(long, default_value_t = 1000)]
    pub eval_blocks: i64,
    /// Evaluation: weight per gap pair (two blocks summing to 10 one block apart, vertically or
    /// a knight's move: links waiting to be made; 0 = not measured).
    #[arg(long, default_value_t = 0)]
    pub eval_gap_pairs: i64,
    /// Evaluation: a state with a block in this row (1-based) or above ranks below every lower one.
    #[arg(long, default_value_t = 14)]
    pub eval_max_row: usize,
    /// Evaluation: weight per row of the tallest column (negative for flatter fields).
    #[arg(long, default_value_t = 0, allow_negative_numbers = true)]
    pub eval_tallest: i64,
    /// Reproducible searches: stop each search after this many simulated placements instead of
    /// by time (0 = by time).
    #[arg(long, default_value_t = 0)]
    pub node_budget: u64,
    /// Seeds the searches' tie-breaks (and the `random` strategy's drops).
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// A building move may fire at most this many links (bigger chains are fires, not builds).
    #[arg(long, default_value_t = 2)]
    pub build_chain_max: u32,
    /// How the beams rank states by chain potential.
    #[arg(long, value_enum, default_value_t = Potential::Erase)]
    pub beam_potential: Potential,
    /// Which search builds our chains (the opening and the rebuilds).
    #[arg(long, value_enum, default_value_t = ChainBuilder::Beam)]
    pub builder: ChainBuilder,
    /// Anytime builder: turns searched ahead at most at turn 0 (the menu's reach; a rebuild
    /// searches at most --rebuild-depth).
    #[arg(long, default_value_t = 24)]
    pub builder_depth: usize,
    /// Anytime builder: states expanded per depth per sweep (chokudai width).
    #[arg(long, default_value_t = 4)]
    pub builder_sweep_width: usize,
    /// Anytime builder: states a depth's queue may hold before its worse half is dropped.
    #[arg(long, default_value_t = 1 << 16)]
    pub builder_queue_cap: usize,
    /// Anytime builder: how a state's chain potential is measured.
    #[arg(long, value_enum, default_value_t = PotentialProbe::Drop)]
    pub builder_potential: PotentialProbe,
    /// Anytime builder evaluation: weight per link of the chain a state's structure holds.
    #[arg(long, default_value_t = 10_000)]
    pub build_eval_links: i64,
    /// Anytime builder evaluation: weight per block that chain vanishes.
    #[arg(long, default_value_t = 100)]
    pub build_eval_vanished: i64,
    /// Anytime builder evaluation: weight per block left after it.
    #[arg(long, default_value_t = 1)]
    pub build_eval_remaining: i64,
    /// Anytime builder evaluation: weight per single block (column and number) that sets off a
    /// chain as long (a chain only one exact block starts is fragile).
    #[arg(long, default_value_t = 0)]
    pub build_eval_triggers: i64,
    /// Anytime builder evaluation: weight per link of the chain a state can really fire with
    /// its turn's pack (seed 000's measure; 0 = not measured).
    #[arg(long, default_value_t = 0)]
    pub build_eval_next_fire_links: i64,
    /// Anytime builder evaluation: weight per gap pair (two blocks summing to 10 one block
    /// apart, vertically or a knight's move: links waiting to be made; 0 = not measured).
    #[arg(long, default_value_t = 0)]
    pub build_eval_gap_pairs: i64,
    /// Anytime builder evaluation: a state with a block in this row (1-based) or above is
    /// ranked last.
    #[arg(long, default_value_t = 14)]
    pub build_eval_max_row: usize,
}

/// The search that builds our chains.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum ChainBuilder {
    /// The chain-diversified beam with targets (seed 000).
    #[default]
    Beam,
    /// The anytime chokudai search answering with a menu of the best chain at every turn.
    Chokudai,
}

impl ChainBuilder {
    /// How the bot's explanations name it.
    pub fn name(self) -> &'static str {
        match self {
            ChainBuilder::Beam => "beam",
            ChainBuilder::Chokudai => "chokudai builder",
        }
    }
}

impl Default for BeamParams {
    fn default() -> Self {
        crate::flag_defaults()
    }
}

impl BeamParams {
    fn weights(&self) -> BeamWeights {
        BeamWeights {
            reachable_links: self.eval_reachable_links,
            deepest_links: self.eval_deepest_links,
            reachable: self.eval_reachable,
            deepest: self.eval_deepest,
            remaining: self.eval_remaining,
            ready_links: self.eval_ready_links,
            ready: self.eval_ready,
            blocks: self.eval_blocks,
            gap_pairs: self.eval_gap_pairs,
            tallest: self.eval_tallest,
            max_row: self.eval_max_row,
        }
    }

    fn node_budget(&self) -> Option<u64> {
        (self.node_budget > 0).then_some(self.node_budget)
    }

    /// The turn-0 search: narrow columns, targets, long budget.
    pub fn opening(&self, deadline: Option<Instant>) -> BeamConfig {
        let positions =
            if self.opening_all_columns { 0..=MAX_X } else { self.opening_min_x..=self.opening_max_x.min(MAX_X) };
        BeamConfig {
            width: self.beam_width,
            chain_width: self.beam_chain_width,
            depth: self.beam_depth,
            target: (self.beam_target > 0).then_some(self.beam_target),
            final_target: (self.beam_final_target > 0).then_some(self.beam_final_target),
            target_slack: self.beam_target_slack,
            positions,
            weights: self.weights(),
            deadline: if self.node_budget().is_some() { None } else { deadline },
            node_budget: self.node_budget(),
            seed: self.seed,
            build_chain_max: self.build_chain_max,
            potential: self.beam_potential,
            under_row: true,
            two_rows: 0,
        }
    }

    fn builder_weights(&self) -> BuilderWeights {
        BuilderWeights {
            links: self.build_eval_links,
            vanished: self.build_eval_vanished,
            remaining: self.build_eval_remaining,
            triggers: self.build_eval_triggers,
            next_fire_links: self.build_eval_next_fire_links,
            gap_pairs: self.build_eval_gap_pairs,
            max_row: self.build_eval_max_row,
        }
    }

    /// The anytime builder's configuration: the opening's columns at turn 0, every column in a
    /// rebuild (a tenth of the node budget, as the beam's rebuild).
    pub fn builder(&self, opening: bool, deadline: Option<Instant>) -> BuilderConfig {
        let beam = if opening { self.opening(deadline) } else { self.rebuild(deadline) };
        BuilderConfig {
            depth: if opening { self.builder_depth } else { self.builder_depth.min(self.rebuild_depth) },
            sweep_width: self.builder_sweep_width,
            queue_cap: self.builder_queue_cap,
            positions: beam.positions,
            weights: self.builder_weights(),
            potential: self.builder_potential,
            deadline: beam.deadline,
            node_budget: beam.node_budget,
            seed: self.seed,
            build_chain_max: self.build_chain_max,
        }
    }

    /// Builds our chain from `start` with the chosen builder: the opening (turn 0) or a rebuild,
    /// its line chosen from the menu by [`Self::plan_turn`] or [`Self::rebuild_plan_turns`].
    pub fn build<S: Simulator>(&self, start: Start<'_, S>, opening: bool, deadline: Option<Instant>) -> BeamResult {
        let beam = if opening { self.opening(deadline) } else { self.rebuild(deadline) };
        let turn = start.turn;
        let result = self.search_with(start, &beam, &self.builder(opening, deadline));
        self.choose_line(turn, opening, result)
    }

    /// A plan's search again, from a later turn of the plan: the opening's or a rebuild's
    /// configuration, to [`Self::refine_past_plan_turn`] turns past the turn the plan fires
    /// (the searches that made it spread their width over every depth to their far end; a
    /// shorter one searches the turns that matter wider), the line to the largest chain by
    /// that turn (by [`Self::plan_turn`] at the earliest for the opening). Under a node budget
    /// an opening refinement gets the share `refine_ms / opening_ms` of it, a rebuild's the
    /// rebuild's.
    /// `two_rows`: the opening's fires measured under two rows as well ([`BeamConfig::two_rows`]).
    pub fn refine<S: Simulator>(
        &self,
        start: Start<'_, S>,
        opening: bool,
        fire_turn: usize,
        two_rows: usize,
        deadline: Option<Instant>,
    ) -> BeamResult {
        let by = if opening { fire_turn.max(self.plan_turn) } else { fire_turn };
        let depth = (by + self.refine_past_plan_turn).saturating_sub(start.turn).max(1);
        let base = if opening { self.opening(deadline) } else { self.rebuild(deadline) };
        let node_budget = match opening {
            true => self.node_budget().map(|b| (b * self.refine_ms / self.opening_ms.max(1)).max(1)),
            false => base.node_budget,
        };
        let beam = BeamConfig { depth, node_budget, two_rows: if opening { two_rows } else { 0 }, ..base };
        let anytime = BuilderConfig { depth, node_budget, ..self.builder(opening, deadline) };
        let turn = start.turn;
        let mut result = self.search_with(start, &beam, &anytime);
        if let Some(line) = self.choose_from(&result.menu, opening, by.saturating_sub(turn)) {
            result.line = line.clone();
        }
        result
    }

    /// The menu's line for a plan within `turns`: for the opening the largest under a garbage
    /// row, for a rebuild the largest chain.
    fn choose_from<'m>(&self, menu: &'m Menu, opening: bool, turns: usize) -> Option<&'m Line> {
        match opening {
            true => menu.choose_under_row(turns),
            false => menu.choose(turns),
        }
    }

    /// Sets a search's line to its menu's choice: the largest chain by [`Self::plan_turn`] for
    /// the opening, within [`Self::rebuild_plan_turns`] for a rebuild (0 turns: the deepest
    /// line, seed 000's plan, no menu choice).
    fn choose_line(&self, turn: usize, opening: bool, mut result: BeamResult) -> BeamResult {
        let horizon = if opening {
            (self.plan_turn > 0).then(|| self.plan_turn.saturating_sub(turn))
        } else {
            (self.rebuild_plan_turns > 0).then_some(self.rebuild_plan_turns)
        };
        if let Some(line) = horizon.and_then(|turns| self.choose_from(&result.menu, opening, turns)) {
            result.line = line.clone();
        }
        result
    }

    /// Runs the chosen builder from `start` with its configuration of the two given: the one
    /// place that dispatches on `--builder`.
    pub fn search_with<S: Simulator>(
        &self,
        start: Start<'_, S>,
        beam: &BeamConfig,
        anytime: &BuilderConfig,
    ) -> BeamResult {
        match self.builder {
            ChainBuilder::Beam => search(start, beam),
            ChainBuilder::Chokudai => builder::search(start, anytime).to_beam_result(),
        }
    }

    /// The midgame rebuild: every column, no targets, a short budget.
    pub fn rebuild(&self, deadline: Option<Instant>) -> BeamConfig {
        BeamConfig {
            width: self.rebuild_width,
            chain_width: self.rebuild_chain_width,
            depth: self.rebuild_depth,
            target: None,
            final_target: None,
            target_slack: self.beam_target_slack,
            positions: 0..=MAX_X,
            weights: self.weights(),
            deadline: if self.node_budget().is_some() { None } else { deadline },
            node_budget: self.node_budget().map(|b| b / 10),
            seed: self.seed,
            build_chain_max: self.build_chain_max,
            potential: self.beam_potential,
            under_row: false,
            two_rows: 0,
        }
    }
}
