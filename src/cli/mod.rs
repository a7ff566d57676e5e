//! Command-line front-end: one file per subcommand, each a thin layer over the library.

mod eval;
mod repl;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

/// mo-mem: see inside Motoko canisters' memory.
#[derive(Parser, Debug)]
#[command(name = "mo-mem", version, about, long_about = None)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Print the version and the Motoko layouts this build reads.
    Version,
    /// Run a Motoko script (over a snapshot, or with --no-snapshot over nothing).
    Eval(eval::EvalArgs),
    /// An interactive Motoko session (over a snapshot, or with --no-snapshot).
    Repl(repl::ReplArgs),
}

/// Runs the command line and returns the process exit code.
pub fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli.command) {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("mo-mem: {err:#}");
            ExitCode::FAILURE
        }
    }
}

/// Dispatches one parsed subcommand to its implementation.
fn run(command: Command) -> anyhow::Result<()> {
    match command {
        Command::Version => {
            println!(
                "mo-mem {} (Motoko heaps: enhanced orthogonal persistence; classical with the copying, compacting, generational and incremental GCs; moc >= 0.13)",
                env!("CARGO_PKG_VERSION")
            );
            Ok(())
        }
        Command::Eval(args) => eval::run(args),
        Command::Repl(args) => repl::run(args),
    }
}
