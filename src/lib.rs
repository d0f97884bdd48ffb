//! codevs-reborn: a bot, a referee and a match runner for CODE VS Reborn (2019).
//!
//! Data flows one way: the protocol reads the input into a state, the search thinks on it, and
//! the bot answers with a command.
//!
//! - [`rules`]: the rules and the reference engine (the oracle).
//! - [`board`]: the bitboard simulator (the fast engine the bot and the arena use).
//! - [`protocol`]: reading the game's input and writing commands.
//! - [`book`]: the book format: race positions from recorded games, and their checked reader.
//! - [`data`]: the real pack files, simulator workloads and books the project ships, built in.
//! - [`state`]: a turn's input as the searchers see it (fields after this turn's garbage).
//! - [`search`]: the searchers (beam, builder, exhaustive midgame, skill) and their evaluation.
//! - [`bot`]: the protocol loop, the players and the time manager.
//! - [`arena`]: the referee and match runner.
//! - [`calibrate`]: the race model's reading of an opponent against the chains it fired.
//! - [`positions`]: the race positions of recorded games with their outcomes.
//! - [`fit`]: the win probability of a race position, fitted to those outcomes.
//! - [`replay`]: the replay format the arena writes and the viewer reads.
//! - [`view`]: a replay as a self-contained HTML page.
//! - [`tune`]: SPSA over the bot's flags, games played through the arena.
//! - [`bench`](mod@bench): the benchmarks (`codevs-reborn bench ...`), deterministic at a node budget.
//! - [`memory`]: the process's peak memory, for the 1 GiB contest limit.
//! - [`cli`]: the command line.

pub mod arena;
pub mod bench;
pub mod board;
pub mod book;
pub mod bot;
pub mod calibrate;
pub mod cli;
pub mod data;
pub mod fit;
pub mod memory;
pub mod positions;
pub mod protocol;
pub mod replay;
pub mod rules;
pub mod search;
pub mod state;
pub mod tune;
pub mod view;

/// The field simulator the bot and the arena use.
pub type Engine = board::BitField;

/// A group of flags as clap fills it from an empty command line: the defaults each flag
/// documents, so a parameter struct's `Default` and its `--help` can never disagree.
pub fn flag_defaults<T: clap::Args + clap::FromArgMatches>() -> T {
    let matches = T::augment_args(clap::Command::new("defaults")).get_matches_from(["defaults"]);
    T::from_arg_matches(&matches).expect("every flag of a parameter group has a default")
}
