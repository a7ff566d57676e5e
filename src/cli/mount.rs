//! `mo-mem mount [SOURCES...] MOUNTPOINT`: serve snapshots as a read-only file tree.

use anyhow::Context;
use mo_mem::fuse::{serve, MountConfig};
use mo_mem::image::ReaderLimits;
use mo_mem::runtime::offline::{CallOptions, QUERY_INSTRUCTIONS};
use mo_mem::serve::front::{Front, SourceChoice};
use mo_mem::vfs::{Entry, EvalSlots, Tree, TreeConfig};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

/// Arguments of `mo-mem mount`.
#[derive(clap::Args, Debug)]
pub struct MountArgs {
    /// Snapshot directories (or directories holding them) to serve, then the mount point.
    /// With no sources, the store is served.
    #[arg(required = true, num_args = 1.., value_name = "SOURCES... MOUNTPOINT")]
    pub paths: Vec<PathBuf>,
    /// Serve this store directory instead of the default one.
    #[arg(long, conflicts_with = "examples")]
    pub store: Option<PathBuf>,
    /// Serve the bundled example snapshots.
    #[arg(long)]
    pub examples: bool,
    /// Let other users read the mount.
    #[arg(long)]
    pub allow_other: bool,
    /// Worker threads serving requests.
    #[arg(long, default_value_t = 16)]
    pub threads: usize,
    /// MiB of generated file content kept cached; a heap analysis a script computed is kept
    /// between `eval` requests only if it takes at most as much.
    #[arg(long, default_value_t = 64)]
    pub cache_mib: usize,
    /// Read raw files through the kernel's page cache (cached between reads, and `mmap`
    /// works) instead of with direct I/O (the default: about 3 times the throughput).
    #[arg(long)]
    pub raw_page_cache: bool,
    /// Never let the kernel read raw files from their source files itself (FUSE
    /// passthrough, used where the kernel and privileges allow: native read speed); the
    /// daemon reads them (`--raw-page-cache` says how).
    #[arg(long)]
    pub no_passthrough: bool,
    /// Serve snapshots whose manifest or files do not verify (with a warning each).
    #[arg(long)]
    pub no_verify: bool,
    /// Most `eval` scripts running at once in the whole mount (default: half the worker
    /// threads); more get a "busy" answer. Always below `--threads`.
    #[arg(long)]
    pub max_evals: Option<usize>,
    /// Instruction limit of each `methods/` call (as `mo-mem call --instructions`).
    #[arg(long, default_value_t = QUERY_INSTRUCTIONS)]
    pub instructions: u64,
    /// Wall-clock limit of each `methods/` call, in seconds (as `mo-mem call --timeout`).
    #[arg(long, default_value_t = 30)]
    pub timeout: u64,
}

/// Sets up logging to stderr (`MO_MEM_LOG` filters, default `info`).
pub fn init_logging() {
    let filter = tracing_subscriber::EnvFilter::try_from_env("MO_MEM_LOG")
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info"));
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .try_init();
}

/// The snapshots a command serves from its arguments: `--examples`, a `--store` (the
/// default one with neither), or snapshot paths (with neither flag).
pub fn source_choice(
    paths: Vec<PathBuf>,
    store: Option<PathBuf>,
    examples: bool,
) -> anyhow::Result<SourceChoice> {
    Ok(if examples {
        anyhow::ensure!(paths.is_empty(), "--examples takes no sources");
        SourceChoice::Examples
    } else if paths.is_empty() {
        SourceChoice::Store(store)
    } else {
        anyhow::ensure!(store.is_none(), "--store takes no sources");
        SourceChoice::Paths(paths)
    })
}

/// The deadline of the mount's `eval` scripts from `$MO_MEM_EVAL_TIMEOUT` (seconds), if set.
pub fn eval_deadline() -> Option<Duration> {
    std::env::var("MO_MEM_EVAL_TIMEOUT")
        .ok()
        .and_then(|s| s.parse::<f64>().ok())
        .filter(|s| s.is_finite() && *s > 0.0)
        .map(Duration::from_secs_f64)
}

/// Runs `mo-mem mount`.
pub fn run(args: MountArgs, limits: ReaderLimits) -> anyhow::Result<()> {
    init_logging();
    mo_mem::vfs::spill::return_large_blocks();
    let mut paths = args.paths;
    let mountpoint = paths.pop().context("missing the mount point")?;
    let threads = args.threads.max(2);
    let eval_slots = Arc::new(EvalSlots::for_workers(threads, args.max_evals));
    let calls = CallOptions {
        instructions: args.instructions,
        timeout: Duration::from_secs(args.timeout),
        ..CallOptions::default()
    };
    let choice = source_choice(paths, args.store, args.examples)?;
    let front = Front::choose(choice, limits, args.no_verify)?;
    let cache_budget = args.cache_mib.saturating_mul(1 << 20);
    // a script's heap analysis counts in the same budget as the generated files
    front.catalog.set_analysis_keep(cache_budget);
    let mut services = front.services(calls, eval_deadline());
    services.eval_slots = eval_slots;
    let root = front.mount_root(services)?;
    let config = TreeConfig {
        cache_budget,
        raw_direct_io: !args.raw_page_cache,
        raw_passthrough: !args.no_passthrough,
        ..TreeConfig::default()
    };
    let tree = Arc::new(Tree::new(Entry::Dir(root), config)?);
    let mount = MountConfig {
        allow_other: args.allow_other,
        threads,
        passthrough: !args.no_passthrough,
    };
    let shown = mountpoint.display().to_string();
    serve(tree, &mountpoint, &mount, || {
        eprintln!("mo-mem: mounted at {shown}; Ctrl-C or `fusermount3 -u {shown}` unmounts");
    })?;
    Ok(())
}
