//! The bot: the protocol loop that turns input into state, asks a strategy, and answers.

mod state;

use std::io::{BufRead, Write};

pub use state::{Position, TurnState};

use crate::protocol::{write_action, Next, ProtocolError, Reader, TurnInput};
use crate::rules::{Action, Packs};
use crate::search::greedy::{self, GreedyParams};
use crate::Engine;

/// The name the bot announces (no `\/:*?"<>|`).
pub const DEFAULT_NAME: &str = "codevs-reborn";

/// Always legal: what the bot answers if a searcher fails.
const FALLBACK: Action = Action::Drop { x: 4, rotation: 0 };

/// Which searcher decides.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum Strategy {
    /// One ply: the best immediate action by a simple evaluation (the baseline).
    #[default]
    Greedy,
}

/// Everything the bot's behaviour depends on; one flag each (see `codevs-reborn --help`).
#[derive(Clone, Debug, clap::Args)]
pub struct BotOptions {
    /// The searcher that decides.
    #[arg(long, value_enum, default_value_t = Strategy::Greedy)]
    pub strategy: Strategy,
    /// The name printed at the start.
    #[arg(long, default_value = DEFAULT_NAME)]
    pub name: String,
    /// Debugging: think on this turn only (other turns are read and skipped) and explain the
    /// decision on stderr.
    #[arg(long)]
    pub turn: Option<usize>,
    /// Debugging: play only the K-th game (1 = first) of an input file holding several.
    #[arg(long, value_name = "K")]
    pub game: Option<usize>,
    #[command(flatten)]
    pub greedy: GreedyParams,
}

impl Default for BotOptions {
    fn default() -> Self {
        BotOptions { strategy: Strategy::Greedy, name: DEFAULT_NAME.into(), turn: None, game: None, greedy: Default::default() }
    }
}

/// A bot for one game at a time.
pub struct Bot {
    options: BotOptions,
    packs: Option<Packs>,
}

impl Bot {
    pub fn new(options: BotOptions) -> Self {
        Bot { options, packs: None }
    }

    /// Starts a game with its packs.
    pub fn new_game(&mut self, packs: Packs) {
        self.packs = Some(packs);
    }

    /// Decides this turn's action, and an explanation of it.
    pub fn think(&mut self, input: &TurnInput) -> (Action, String) {
        let packs = self.packs.as_ref().expect("a game has started");
        let state = TurnState::<Engine>::new(input, packs);
        match self.options.strategy {
            Strategy::Greedy => greedy::choose(&state, &self.options.greedy),
        }
    }
}

/// Plays every game in `input` (or only those selected by the options): prints the name, then
/// answers every turn. End of input between turns ends cleanly.
pub fn play(input: impl BufRead, output: &mut impl Write, diagnostics: &mut impl Write, options: BotOptions) -> Result<(), ProtocolError> {
    writeln!(output, "{}", options.name)?;
    output.flush()?;
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
                if !selected {
                    continue;
                }
                // A bug in a searcher must not lose the game by a crash: answer a legal drop.
                let (action, why) = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| bot.think(&turn)))
                    .unwrap_or_else(|_| (FALLBACK, "  the search failed; fallback action\n".into()));
                if options.turn.is_some() {
                    writeln!(diagnostics, "game {game}, turn {}: {action}\n{why}", turn.turn)?;
                }
                write_action(output, action)?;
            }
        }
    }
}
