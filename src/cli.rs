//! The command line: with no subcommand the bot plays over stdin/stdout.

use clap::{Parser, Subcommand};

use crate::arena::gauntlet::GauntletArgs;
use crate::arena::ArenaArgs;
use crate::bench::opening::OpeningBenchArgs;
use crate::bench::sim::SimBenchArgs;
use crate::bot::BotOptions;

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
    /// Run a benchmark.
    #[command(subcommand)]
    Bench(BenchCommand),
}

#[derive(Debug, Subcommand)]
pub enum BenchCommand {
    /// Simulator speed: the bitboard against the reference engine on fixed workloads.
    Sim(SimBenchArgs),
    /// The turn-0 chain search on real pack files: how fast and how big a chain it plans.
    Opening(OpeningBenchArgs),
}
