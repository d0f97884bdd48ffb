//! The referee and match runner. Work in progress.

/// `codevs-reborn arena` flags.
#[derive(Clone, Debug, clap::Args)]
pub struct ArenaArgs {}

/// Runs a match; an error is a one-line message for the user.
pub fn run(_args: &ArenaArgs) -> Result<(), String> {
    Err("arena: not built yet".into())
}
