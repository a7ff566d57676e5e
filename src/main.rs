//! The `mo-mem` command line: parses flags, calls into the library, prints, sets the exit code.

mod cli;

use std::process::ExitCode;

fn main() -> ExitCode {
    cli::main()
}
