//! The command line: with no subcommand the bot plays over stdin/stdout.

use clap::{Parser, Subcommand};

use crate::arena::book::BookArgs;
use crate::arena::gauntlet::GauntletArgs;
use crate::arena::ArenaArgs;
use crate::bench::bot::BotBenchArgs;
use crate::bench::opening::OpeningBenchArgs;
use crate::bench::rebuild::RebuildBenchArgs;
use crate::bench::sim::SimBenchArgs;
use crate::bench::skill::SkillBenchArgs;
use crate::bot::BotOptions;
use crate::calibrate::CalibrateArgs;
use crate::fit::FitArgs;
use crate::positions::PositionsArgs;
use crate::tune::TuneArgs;
use crate::view::ViewArgs;

/// A bot for CODE VS Reborn (2019), with a referee, a match runner and benchmarks.
///
/// With no subcommand it plays over stdin/stdout as the contest protocol says: it prints its
/// name, reads the 500 packs, then answers each turn with `x r` or `S`. Pipe an `input.txt`
/// into it to replay a game; `--turn N` explains one turn on stderr.
#[derive(Debug, Parser)]
#[command(name = "codevs-reborn", version, args_conflicts_with_subcommands = true)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,
    #[command(flatten)]
    pub bot: BotOptions,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Referee games between two bot commands and report the match.
    Arena(ArenaArgs),
    /// Play one bot against several named opponents on the same packs, and report each.
    Gauntlet(GauntletArgs),
    /// Tune the bot's flags by SPSA: θ⁺ against θ⁻ (or both against an opponent pool), game
    /// pair after game pair.
    ///
    /// The parameters file names the flags (`NAME start min max c_end r_end` rows, fishtest's
    /// format); every game appends `--NAME VALUE` for each to the --bot command. The state file
    /// is written after every iteration, so a stopped run resumes; at the end (and with
    /// --report at any time) θ is printed as a ready `run.sh` flag line and a page plotting
    /// each parameter over the iterations is written.
    Tune(Box<TuneArgs>),
    /// Compare the race model's probe of an opponent with the chains it really fired.
    ///
    /// For each recorded game (`--replays` folders of the arena or the gauntlet), the first and
    /// second chain of --min-links or more that the bot fired, and each lead k: the probe of its
    /// field k turns before (as the other seat saw it) predicts the largest chain it can fire
    /// within k turns. The report gives, per bot, fire and lead, the mean error in links and how
    /// often the probe saw the fire coming at its size. Then its answers: when the other seat
    /// fired its first chain of --min-links or more, the race's probe of the bot's
    /// field under that garbage against its largest chain within --answer-turns turns.
    Calibrate(Box<CalibrateArgs>),
    /// Take race positions from recorded games into a book, to play games from them
    /// (`gauntlet --book`, `arena --book`).
    ///
    /// From every game under the folders (`--replays` folders of the arena, the gauntlet or
    /// tune): --lead turns before the first chain of --min-links or more by either side, not
    /// before turn --earliest (`race-start`: the race still open), the start of that chain's turn
    /// (`first-chain`), and --after turns after both sides' first such chains (`after-exchange`:
    /// the race to rebuild), each kept as the moves that led to it, checked by the rules.
    Book(BookArgs),
    /// Take the race positions of recorded games, with each game's outcome, for `fit`.
    ///
    /// For every game under the folders and every seat our bot played (both in self-play), each
    /// turn from the first one a chain of --min-links stands on either side's menu to the end:
    /// the bot's `race-features` line of that turn (recomputed at --recompute-nodes for games
    /// recorded without them) and whether that seat won.
    Positions(PositionsArgs),
    /// Fit the win probability of a race position to the outcomes of recorded games.
    ///
    /// Logistic regression on features of the race (the chains each side has ready now and
    /// within 5 and 10 turns, garbage pending and on the fields, heights), held-out games split
    /// by game. Prints the held-out log-loss and accuracy of the base rate, the larger menu
    /// chain, the exchange game's value through one sigmoid and the fitted model, the model's
    /// gain over the exchange value with its bootstrap interval, and the weights.
    Fit(FitArgs),
    /// Run a benchmark.
    #[command(subcommand)]
    Bench(BenchCommand),
    /// Write a game's replay as one self-contained HTML page to watch in a browser.
    ///
    /// Both fields side by side, turn by turn: the pack and each bot's command, every chain
    /// link's vanishing blocks, garbage rows arriving, garbage stocks, skill gauges, scores,
    /// times, and a timeline of both players' chains and stocks. The replay is re-played by the
    /// reference rules first; a state that differs is an error naming the turn. In the page:
    /// ←/→ turn, Home/End first/last, ↑/↓ chain step, Space play, Enter animate the turn's chain.
    View(ViewArgs),
}

#[derive(Debug, Subcommand)]
pub enum BenchCommand {
    /// Simulator speed: the bitboard against the reference engine on fixed workloads.
    Sim(SimBenchArgs),
    /// The turn-0 chain search on real pack files: how fast and how big a chain it plans.
    Opening(Box<OpeningBenchArgs>),
    /// The rebuild search on a book's race positions (after the first exchange by default),
    /// both fields: the second chain each side can build within 4 to 12 turns.
    Rebuild(Box<RebuildBenchArgs>),
    /// The skill builder on a book's race positions, both fields: the most garbage a skill
    /// sends within 4 to 12 turns, the gauge charged by erasing every turn.
    Skill(Box<SkillBenchArgs>),
    /// The whole bot's decision on fixed positions at a node budget (turn 0 of a few pack files,
    /// both sides of the books' race positions): the time a decision takes, and signatures of
    /// the moves and of their explanations that a change keeping the bot's play leaves alike.
    Bot(Box<BotBenchArgs>),
}
