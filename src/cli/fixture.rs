//! `mo-mem fixture` (hidden): the Rust side of fixture generation.

use std::path::PathBuf;

use anyhow::Context;
use clap::{Args, Subcommand};
use mo_mem::runtime::scenario::{run_scenario, write_snapshot_dir, Scenario};
use mo_mem::runtime::RuntimeConfig;

/// Fixture generation commands.
#[derive(Subcommand, Debug)]
pub enum FixtureCommand {
    /// Run a scenario on a compiled fixture and write its snapshot directory.
    Run(RunArgs),
}

/// Arguments of `mo-mem fixture run`.
#[derive(Args, Debug)]
pub struct RunArgs {
    /// The compiled fixture module (wasm, optionally gzip'ed).
    #[arg(long)]
    wasm: PathBuf,
    /// The fixture's scenario.json.
    #[arg(long)]
    scenario: PathBuf,
    /// The mode name recorded in expected.json (eop, copying, ..., M-forcegc).
    #[arg(long)]
    mode: String,
    /// The snapshot directory to write (replaced atomically).
    #[arg(long)]
    out: PathBuf,
    /// Write the raw files gzip'ed (`*.bin.gz`), the committed form.
    #[arg(long)]
    gzip: bool,
    /// The fixture name for expected.json (default: the scenario's folder name).
    #[arg(long)]
    name: Option<String>,
    /// The compiler version for expected.json (default: the module's motoko:compiler section).
    #[arg(long)]
    compiler: Option<String>,
}

/// Runs a `fixture` subcommand.
pub fn run(cmd: FixtureCommand) -> anyhow::Result<()> {
    match cmd {
        FixtureCommand::Run(args) => run_one(args),
    }
}

fn run_one(args: RunArgs) -> anyhow::Result<()> {
    let wasm = std::fs::read(&args.wasm).with_context(|| format!("{}", args.wasm.display()))?;
    let scenario = Scenario::read(&args.scenario)?;
    let name = match args.name {
        Some(n) => n,
        None => args
            .scenario
            .canonicalize()
            .ok()
            .and_then(|p| p.parent()?.file_name()?.to_str().map(str::to_string))
            .context("cannot derive the fixture name from the scenario path; pass --name")?,
    };
    let files = run_scenario(
        &wasm,
        &scenario,
        &name,
        &args.mode,
        args.compiler.as_deref(),
        RuntimeConfig::default(),
    )
    .with_context(|| format!("fixture {name} ({})", args.mode))?;
    write_snapshot_dir(&args.out, &files, args.gzip)?;
    eprintln!(
        "{name}/{}: {} vars, {} collection views, memory {} bytes, stable {} bytes -> {}",
        args.mode,
        files.vars.len(),
        files.views.len(),
        files.wasm_memory.len(),
        files.stable_memory.len(),
        args.out.display()
    );
    Ok(())
}
