//! `mo-mem mcp [SOURCES...]`: the analyses as a Model Context Protocol server on stdin and
//! stdout (`docs/agents.md`), serving the snapshots `mount` would serve.

use super::served::{committed_examples, default_store, materialize_examples};
use anyhow::Context;
use mo_mem::image::ReaderLimits;
use mo_mem::mcp::{serve_stdio, Served, Sources};
use mo_mem::serve::{Snapshots, TrustPolicy};
use mo_mem::store::{Store, StoreKey, TrustRule};
use std::path::PathBuf;
use std::sync::Arc;

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
    let (sources, rule) = if args.examples {
        anyhow::ensure!(args.paths.is_empty(), "--examples takes no sources");
        let examples = materialize_examples(&committed_examples())?;
        let rule = TrustRule::new(Store::at(None)?, StoreKey::default_path()?);
        (Sources::Paths(examples), rule)
    } else if args.paths.is_empty() {
        let store = match args.store {
            Some(store) => store,
            None => default_store()?,
        };
        anyhow::ensure!(
            store.is_dir(),
            "store {} is not a directory",
            store.display()
        );
        let rule = TrustRule::new(Store::new(&store), StoreKey::default_path()?);
        (Sources::Store(store), rule)
    } else {
        anyhow::ensure!(args.store.is_none(), "--store takes no sources");
        let rule = TrustRule::new(Store::at(None)?, StoreKey::default_path()?);
        (Sources::Paths(args.paths), rule)
    };
    let policy = TrustPolicy {
        rule,
        allow_unverified: args.no_verify,
    };
    let catalog = Arc::new(Snapshots::with_trust(limits, policy));
    let served = Served::new(sources, catalog)?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("cannot start the async runtime")?;
    runtime.block_on(serve_stdio(served))?;
    Ok(())
}
