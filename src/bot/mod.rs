//! The bot: the protocol loop that turns input into state, asks a strategy, and answers.

mod decide;
mod plan;
pub mod race;
mod time;

use std::io::{BufRead, Write};

pub use decide::{Brain, DecideParams};
pub use plan::{Plan, PlanKind};
pub use race::{plan_safety, RaceFeatures, Safety};
pub use time::{Stakes, TimeManager, TimeParams};

use crate::protocol::{write_action, Next, ProtocolError, Reader, TurnInput};
use std::time::Instant;

use crate::rules::{Action, Packs};
use crate::search::build::BeamParams;
use crate::search::chain::Start;
use crate::search::greedy::{self, GreedyParams};
use crate::search::midgame::MidgameParams;
use crate::search::simple;
use crate::state::TurnState;
use crate::Engine;

/// The name the bot announces (no `\/:*?"<>|`).
pub const DEFAULT_NAME: &str = "codevs-reborn";

/// Always legal: what the bot answers if a searcher fails.
const FALLBACK: Action = Action::Drop { x: 4, rotation: 0 };

/// Which searcher decides.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum Strategy {
    /// One ply: the best immediate action by a simple evaluation (the baseline).
    Greedy,
    /// Opening only: the turn-0 beam's plan, followed while no garbage disturbs it, then
    /// rebuilt by a shorter beam (no midgame search).
    Beam,
    /// The whole bot: the opening plan, then every turn the midgame exhaustive search of both
    /// fields, advised by the race (fire now or wait).
    #[default]
    Full,
    /// A test opponent: a uniformly random drop each turn (reproducible: `--seed`).
    Random,
    /// A test opponent that never sends garbage (one chain link at most) and survives as long
    /// as it can: two quiet bots play to the 500-turn limit.
    Quiet,
}

/// Everything the bot's behaviour depends on; one flag each (see `codevs-reborn --help`).
#[derive(Clone, Debug, clap::Args)]
pub struct BotOptions {
    /// The searcher that decides.
    #[arg(long, value_enum, default_value_t = Strategy::Full)]
    pub strategy: Strategy,
    /// The name printed at the start.
    #[arg(long, default_value = DEFAULT_NAME)]
    pub name: String,
    /// Debugging: think on this turn only (other turns are read and skipped) and explain the
    /// decision on stderr.
    #[arg(long)]
    pub turn: Option<usize>,
    /// Debugging: explain every turn's decision on stderr (as `--turn` does for one turn), for
    /// a whole game played through the arena (`--replays` keeps each bot's stderr).
    #[arg(long)]
    pub explain: bool,
    /// Debugging: play only the K-th game (1 = first) of an input file holding several.
    #[arg(long, value_name = "K")]
    pub game: Option<usize>,
    /// Print the process's peak resident memory on stderr after every turn (memory checks in
    /// arena runs: `arena --replays` keeps each bot's stderr).
    #[arg(long)]
    pub report_memory: bool,
    /// Worker threads for the searches (0 = one per core).
    #[arg(long, default_value_t = 0)]
    pub threads: usize,
    /// The turn-0 plan is followed this many turns even if the field differs from the plan's
    /// (nobody fires that early).
    #[arg(long, default_value_t = 8)]
    pub plan_unconditional_turns: usize,
    #[command(flatten)]
    pub greedy: GreedyParams,
    #[command(flatten)]
    pub beam: BeamParams,
    #[command(flatten)]
    pub midgame: MidgameParams,
    #[command(flatten)]
    pub decide: DecideParams,
    #[command(flatten)]
    pub time: TimeParams,
}

impl Default for BotOptions {
    fn default() -> Self {
        BotOptions {
            strategy: Strategy::default(),
            name: DEFAULT_NAME.into(),
            turn: None,
            explain: false,
            game: None,
            report_memory: false,
            threads: 0,
            plan_unconditional_turns: 8,
            greedy: Default::default(),
            beam: Default::default(),
            midgame: Default::default(),
            decide: Default::default(),
            time: Default::default(),
        }
    }
}

/// A bot for one game at a time.
pub struct Bot {
    options: BotOptions,
    packs: Option<Packs>,
    clock: Option<TimeManager>,
    plan: Option<Plan>,
    brain: Brain,
}

impl Bot {
    pub fn new(options: BotOptions) -> Self {
        Bot { options, packs: None, clock: None, plan: None, brain: Brain::default() }
    }

    /// Starts a game with its packs.
    pub fn new_game(&mut self, packs: Packs) {
        self.packs = Some(packs);
        self.clock = None;
        self.plan = None;
        self.brain.new_game();
    }

    /// Starts the game's clock from the first turn seen (the time given is what is left then),
    /// even when that turn is skipped: `--turn N` then budgets as the real game did.
    pub fn observe(&mut self, input: &TurnInput) {
        let time = &self.options.time;
        self.clock.get_or_insert_with(|| TimeManager::new(time.clone(), input.me.time_left_ms));
    }

    /// The race of the turn just thought (the full strategy, on the turns it reads the race),
    /// for its `race-features` line.
    pub fn race_features(&self) -> Option<&RaceFeatures> {
        (self.options.strategy == Strategy::Full).then(|| self.brain.features()).flatten()
    }

    /// Decides this turn's action, and an explanation of it.
    pub fn think(&mut self, input: &TurnInput) -> (Action, String) {
        let started = Instant::now();
        // Fields borrowed apart: a search that panics (caught by the protocol loop) must leave
        // the game's packs and plan in place for the next turn.
        let packs = self.packs.as_ref().expect("a game has started");
        let options = &self.options;
        let clock = self.clock.get_or_insert_with(|| TimeManager::new(options.time.clone(), input.me.time_left_ms));
        let state = TurnState::<Engine>::new(input, packs);
        match options.strategy {
            Strategy::Greedy => greedy::choose(&state, &options.greedy),
            Strategy::Beam => follow_or_rebuild(&mut self.plan, options, &state, clock, started),
            Strategy::Full => self.brain.think(options, &state, clock, started),
            Strategy::Random => simple::random_drop(&state, options.beam.seed),
            Strategy::Quiet => simple::quiet(&state),
        }
    }
}

/// The next move of the plan while it still fits the field; otherwise a new beam search.
fn follow_or_rebuild(
    plan: &mut Option<Plan>,
    options: &BotOptions,
    state: &TurnState<Engine>,
    clock: &TimeManager,
    started: Instant,
) -> (Action, String) {
    if let Some(current) = plan.as_ref() {
        if let Some(step) = current.step(state) {
            if step.on_plan || state.turn < options.plan_unconditional_turns {
                let why = format!(
                    "  following the plan: step {} of {}{}\n",
                    step.index + 1,
                    current.actions.len(),
                    if step.on_plan { "" } else { " (field differs; early turns follow anyway)" }
                );
                return (step.action, why);
            }
        }
    }
    *plan = None;
    let time_left = state.me.time_left_ms;
    if clock.low_on_time(time_left) {
        let (action, why) = greedy::choose(state, &options.greedy);
        return (action, format!("  low on time: greedy\n{why}"));
    }
    let (deadline, kind) = if state.turn == 0 {
        (clock.deadline(started, options.beam.opening_ms, time_left, 0.5), "opening")
    } else {
        (clock.deadline(started, options.beam.rebuild_ms, time_left, 0.05), "rebuild")
    };
    let start = Start { field: &state.me.field, packs: state.packs, turn: state.turn, garbage: state.me.garbage };
    let result = options.beam.build(start, state.turn == 0, Some(deadline));
    let plan_kind = if state.turn == 0 { PlanKind::Opening } else { PlanKind::Rebuild };
    let Some(new_plan) = Plan::from_search(&result, plan_kind) else {
        let (action, why) = greedy::choose(state, &options.greedy);
        return (action, format!("  the {kind} search found no line: greedy\n{why}"));
    };
    let fire = result.line.best_fire_step().and_then(|k| result.line.fires[k].map(|f| (k, f)));
    let why = format!(
        "  {kind} {}: {} nodes, depth {}, {} ms; plan of {} moves{}\n",
        options.beam.builder.name(),
        result.nodes,
        result.depth,
        started.elapsed().as_millis(),
        new_plan.actions.len(),
        fire.map_or(String::new(), |(k, f)| format!(", firing {} links at turn {}", f.chain.links, state.turn + k))
    );
    let first = new_plan.actions[0];
    *plan = Some(new_plan);
    (first, why)
}

/// Plays every game in `input` (or only those selected by the options): prints the name, then
/// answers every turn. End of input between turns ends cleanly.
pub fn play(
    input: impl BufRead,
    output: &mut impl Write,
    diagnostics: &mut impl Write,
    options: BotOptions,
) -> Result<(), ProtocolError> {
    writeln!(output, "{}", options.name)?;
    output.flush()?;
    if options.threads > 0 {
        // Only the first call can size the global pool; later ones keep it.
        let _ = rayon::ThreadPoolBuilder::new().num_threads(options.threads).build_global();
    }
    let mut reader = Reader::new(input);
    let mut bot = Bot::new(options.clone());
    bot.new_game(reader.read_packs()?);
    let mut game = 1;
    loop {
        match reader.read_next()? {
            Next::End => return Ok(()),
            Next::NewGame => {
                bot.new_game(reader.read_packs()?);
                game += 1;
            }
            Next::Turn(turn) => {
                let selected = options.game.is_none_or(|k| k == game) && options.turn.is_none_or(|t| t == turn.turn);
                if options.game.is_none_or(|k| k == game) {
                    bot.observe(&turn);
                }
                if !selected {
                    continue;
                }
                // A bug in a searcher must not lose the game by a crash: answer a legal drop.
                let (action, why) = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| bot.think(&turn)))
                    .unwrap_or_else(|_| (FALLBACK, "  the search failed; fallback action\n".into()));
                if options.turn.is_some() || options.explain {
                    writeln!(diagnostics, "game {game}, turn {}: {action}\n{why}", turn.turn)?;
                }
                // Always, for the recorded games a fitted value is fitted on (costs no search).
                if let Some(features) = bot.race_features() {
                    writeln!(diagnostics, "{}", features.line())?;
                }
                if options.report_memory {
                    if let Some(mib) = crate::memory::peak_rss_mib() {
                        writeln!(diagnostics, "turn {}: peak RSS {mib:.1} MiB", turn.turn)?;
                    }
                }
                write_action(output, action)?;
            }
        }
    }
}
