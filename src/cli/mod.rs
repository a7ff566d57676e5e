//! Command-line front-end: one file per subcommand, each a thin layer over the library.

mod fixture;
mod info;
mod object;
mod snapshot_args;
mod stats;

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
    /// Show a snapshot's layout, compiler version, GC, sizes and object count.
    Info(info::InfoArgs),
    /// Show objects and bytes per tag, free and unused space, per partition.
    Stats(stats::StatsArgs),
    /// Decode one heap object and list its outgoing references.
    Object(object::ObjectArgs),
    /// Fixture generation (for scripts/gen-fixtures).
    #[command(subcommand, hide = true)]
    Fixture(fixture::FixtureCommand),
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
        Command::Info(args) => info::run(args),
        Command::Stats(args) => stats::run(args),
        Command::Object(args) => object::run(args),
        Command::Version => {
            println!(
                "mo-mem {} (Motoko heaps: enhanced orthogonal persistence; classical with the copying, compacting, generational and incremental GCs; moc >= 0.13)",
                env!("CARGO_PKG_VERSION")
            );
            Ok(())
        }
        Command::Fixture(cmd) => fixture::run(cmd),
    }
}
