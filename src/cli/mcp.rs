//! `mo-mem mcp [SOURCES...]`: the analyses as a Model Context Protocol server on stdin and
//! stdout (`docs/agents.md`), serving the snapshots `mount` would serve.

use super::mount::source_choice;
use anyhow::Context;
use mo_mem::image::ReaderLimits;
use mo_mem::mcp::{serve_stdio, Served};
use mo_mem::serve::front::Front;
use std::path::PathBuf;

/// Arguments of `mo-mem mcp`.
#[derive(clap::Args, Debug)]
pub struct McpArgs {
    /// Snapshot directories (or directories holding them) to serve. With none, the store is
    /// served.
    #[arg(value_name = "SOURCES")]
    pub paths: Vec<PathBuf>,
    /// Serve this store directory instead of the default one.
    #[arg(long, conflicts_with = "examples")]
    pub store: Option<PathBuf>,
    /// Serve the bundled example snapshots.
    #[arg(long)]
    pub examples: bool,
    /// Serve snapshots whose manifest or files do not verify.
    #[arg(long)]
    pub no_verify: bool,
}

/// Runs `mo-mem mcp` until the client closes stdin.
pub fn run(args: McpArgs, limits: ReaderLimits) -> anyhow::Result<()> {
    super::mount::init_logging();
    // a long-running server, like the mount: freed large blocks go back to the system
    mo_mem::vfs::spill::return_large_blocks();
    let choice = source_choice(args.paths, args.store, args.examples)?;
    let front = Front::choose(choice, limits, args.no_verify)?;
    let served = Served::new(front.sources, front.catalog)?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("cannot start the async runtime")?;
    runtime.block_on(serve_stdio(served))?;
    Ok(())
}
