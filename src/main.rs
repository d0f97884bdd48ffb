//! `codevs-reborn`: plays a game over stdin/stdout, or runs a subcommand.

use std::io::{self, Write};
use std::process::ExitCode;

use clap::Parser;

use codevs_reborn::cli::{BenchCommand, Cli, Command};
use codevs_reborn::{arena, bench, bot, calibrate, fit, positions, tune, view};

fn main() -> ExitCode {
    // A panic must never reach the user as a backtrace: one line, exit code 2.
    std::panic::set_hook(Box::new(|info| {
        let msg = info
            .payload()
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| info.payload().downcast_ref::<String>().cloned());
        let at = info.location().map(|l| format!(" at {}:{}", l.file(), l.line())).unwrap_or_default();
        eprintln!("codevs-reborn: internal error{at}: {}", msg.unwrap_or_else(|| "panic".into()));
    }));
    let cli = Cli::parse();
    let result = match cli.command {
        None => {
            let stdin = io::stdin();
            let stdout = io::stdout();
            bot::play(stdin.lock(), &mut stdout.lock(), &mut io::stderr(), cli.bot).map_err(|e| format!("input {e}"))
        }
        Some(Command::Arena(args)) => arena::run(&args),
        Some(Command::Gauntlet(args)) => arena::gauntlet::run(&args),
        Some(Command::Tune(args)) => tune::run(&args),
        Some(Command::Calibrate(args)) => calibrate::run(&args),
        Some(Command::Book(args)) => arena::book::run(&args),
        Some(Command::Positions(args)) => positions::run(&args),
        Some(Command::Fit(args)) => fit::run(&args),
        Some(Command::Bench(BenchCommand::Sim(args))) => bench::sim::run(&args),
        Some(Command::Bench(BenchCommand::Opening(args))) => bench::opening::run(&args),
        Some(Command::Bench(BenchCommand::Rebuild(args))) => bench::rebuild::run(&args),
        Some(Command::Bench(BenchCommand::Skill(args))) => bench::skill::run(&args),
        Some(Command::Bench(BenchCommand::Bot(args))) => bench::bot::run(&args),
        Some(Command::View(args)) => view::run(&args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            let _ = io::stdout().flush();
            eprintln!("codevs-reborn: {message}");
            ExitCode::from(2)
        }
    }
}
