//! `bench sim`. Work in progress.

/// `codevs-reborn bench sim` flags.
#[derive(Clone, Debug, clap::Args)]
pub struct SimBenchArgs {}

/// Runs the simulator benchmark; an error is a one-line message for the user.
pub fn run(_args: &SimBenchArgs) -> Result<(), String> {
    Err("bench sim: not built yet".into())
}
