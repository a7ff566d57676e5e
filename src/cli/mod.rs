//! Command-line front-end: one file per subcommand, each a thin layer over the library.

mod browse;
mod call;
mod diff;
mod doctor;
mod eval;
mod export;
mod fixture;
mod ic_common;
mod ic_info;
mod ic_pull;
mod ic_take;
mod info;
mod mcp;
mod mount;
mod object;
mod path;
mod progress;
mod repl;
mod report;
mod retained;
mod snapshot_args;
mod stats;
mod store_cmds;
mod times;
mod trend;
mod upgrade;
mod vars;
mod version;

use clap::{Parser, Subcommand};
use mo_mem::image::ReaderLimits;
use std::process::ExitCode;

/// mo-mem: see inside Motoko canisters' memory.
#[derive(Parser, Debug)]
#[command(name = "mo-mem", version, about, long_about = None)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
    #[command(flatten)]
    limits: snapshot_args::ValueLimitArgs,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Print the version and the Motoko layouts this build reads.
    Version,
    /// Show a snapshot's layout, compiler version, GC, sizes and object count; with --canister,
    /// the canister's snapshots on the IC.
    Info {
        #[command(flatten)]
        local: info::InfoArgs,
        #[command(flatten)]
        ic: ic_info::IcInfoFlags,
    },
    /// Show objects and bytes per tag, free and unused space, per partition.
    Stats(stats::StatsArgs),
    /// Decode one heap object and list its outgoing references.
    Object(object::ObjectArgs),
    /// What holds the memory: objects and bytes each stable variable reaches and retains.
    Retained(retained::RetainedArgs),
    /// The shortest path from a root to an object, as a Motoko access path.
    Path(path::PathArgs),
    /// A one-screen memory report: live, garbage and free space, the largest retainers, suspects.
    Report(report::ReportArgs),
    /// The canister's own Candid methods (from its module), to `call` on a snapshot.
    Methods(call::MethodsArgs),
    /// Run one of the canister's query methods offline on a snapshot.
    Call(call::CallArgs),
    /// Mount snapshots as a read-only file tree (FUSE).
    Mount(mount::MountArgs),
    /// List a directory of a snapshot's tree, as the mount shows it.
    Ls(browse::LsArgs),
    /// Print a file of a snapshot's tree, as the mount shows it.
    Cat(browse::CatArgs),
    /// Draw a snapshot's tree, as the mount shows it.
    Tree(browse::TreeArgs),
    /// Print the actor's stable variables by name (`name = <debug_show>`, or JSON).
    Vars(vars::VarsArgs),
    /// Write Parquet tables (objects, edges, variables, types) of snapshots' analyses.
    Export(export::ExportArgs),
    /// Fixture generation (for scripts/gen-fixtures).
    #[command(subcommand, hide = true)]
    Fixture(fixture::FixtureCommand),
    /// What changed between two snapshots of one canister: growth suspects, variables, types.
    Diff(diff::DiffArgs),
    /// Retained bytes per variable and per type over many snapshots (table, JSON, SVG chart).
    Trend(trend::TrendArgs),
    /// Run a Motoko script (over a snapshot, or with --no-snapshot over nothing).
    Eval(eval::EvalArgs),
    /// Take a snapshot of a canister (refused while it runs, unless --stop).
    Create(ic_take::TakeArgs),
    /// Take a snapshot replacing the canister's latest one (atomic on the IC; new ID).
    Update(ic_take::TakeArgs),
    /// Download a snapshot into the local store (resumable, verified).
    Pull(ic_pull::PullArgs),
    /// Check snapshots in the store against their authenticated manifests.
    Verify(store_cmds::VerifyArgs),
    /// Adopt a snapshot directory downloaded by icp-cli or dfx into the store.
    Import(store_cmds::ImportArgs),
    /// An interactive Motoko session (over a snapshot, or with --no-snapshot).
    Repl(repl::ReplArgs),
    /// Dry-run an upgrade to a new module on a snapshot: would it work, what would it lose.
    Upgrade(upgrade::UpgradeArgs),
    /// Serve the analyses to coding agents: a Model Context Protocol server on stdio.
    Mcp(mcp::McpArgs),
    /// What can be changed: reclaimable waste with exact savings, where it sits, advice.
    Doctor(doctor::DoctorArgs),
}

/// Runs the command line and returns the process exit code.
pub fn main() -> ExitCode {
    exit_quietly_when_stdout_closes();
    let cli = Cli::parse();
    if let Command::Upgrade(args) = cli.command {
        return upgrade::main(args, cli.limits.reader_limits());
    }
    match run(cli.command, cli.limits.reader_limits()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) if is_broken_pipe(&err) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("mo-mem: {err:#}");
            ExitCode::FAILURE
        }
    }
}

/// Whether `err` is a write to a standard output whose reader has gone (`mo-mem … | head`).
fn is_broken_pipe(err: &anyhow::Error) -> bool {
    err.chain().any(|cause| {
        cause
            .downcast_ref::<std::io::Error>()
            .is_some_and(|e| e.kind() == std::io::ErrorKind::BrokenPipe)
    })
}

/// A command's output read by a reader that stopped early (`mo-mem stats X | head -1`) ends
/// the command with exit 0 and no message, as it does for `cat`: `print!` panics on that
/// broken pipe, and this hook turns that one panic into the exit. Every other panic keeps the
/// default report.
fn exit_quietly_when_stdout_closes() {
    let default = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let message = info
            .payload()
            .downcast_ref::<String>()
            .map(String::as_str)
            .unwrap_or_default();
        if message.starts_with("failed printing to stdout") && message.contains("Broken pipe") {
            std::process::exit(0);
        }
        default(info);
    }));
}

/// Dispatches one parsed subcommand to its implementation; snapshots are read under `limits`.
fn run(command: Command, limits: ReaderLimits) -> anyhow::Result<()> {
    match command {
        Command::Info { local, ic } => match ic.canister.is_some() {
            true => ic_info::ic_info(&ic, local.json),
            false => info::run(local, limits),
        },
        Command::Stats(args) => stats::run(args, limits),
        Command::Object(args) => object::run(args, limits),
        Command::Retained(args) => retained::run(args, limits),
        Command::Path(args) => path::run(args, limits),
        Command::Methods(args) => call::run_methods(args, limits),
        Command::Call(args) => call::run_call(args, limits),
        Command::Vars(args) => vars::run(args, limits),
        Command::Report(args) => report::run(args, limits),
        Command::Diff(args) => diff::run(args, limits),
        Command::Trend(args) => trend::run(args, limits),
        Command::Export(args) => export::run(args, limits),
        Command::Version => {
            print!("{}", version::text());
            Ok(())
        }
        Command::Mount(args) => mount::run(args, limits),
        Command::Ls(args) => browse::ls(args, limits),
        Command::Cat(args) => browse::cat(args, limits),
        Command::Tree(args) => browse::tree(args, limits),
        Command::Fixture(cmd) => fixture::run(cmd),
        Command::Eval(args) => eval::run(args, limits),
        Command::Create(a) => ic_take::run(&a, false),
        Command::Update(a) => ic_take::run(&a, true),
        Command::Pull(a) => ic_pull::run(&a),
        Command::Verify(a) => store_cmds::verify(&a),
        Command::Import(a) => store_cmds::import(&a),
        Command::Repl(args) => repl::run(args, limits),
        Command::Upgrade(_) => anyhow::bail!("upgrade is run by main"),
        Command::Mcp(args) => mcp::run(args, limits),
        Command::Doctor(args) => doctor::run(args, limits),
    }
}
