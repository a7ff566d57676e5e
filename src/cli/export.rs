//! `mo-mem export SNAPSHOT... --out DIR`: Parquet tables of the analyses of many snapshots
//! (objects, edges, variables, per-type figures), for DuckDB, Spark or pandas.

use std::path::PathBuf;

use anyhow::Context;
use clap::Args;
use mo_mem::analysis::export::Exporter;
use mo_mem::image::ReaderLimits;

use super::progress::analyse;
use super::snapshot_args::open_admitted;
use super::times::timed;

/// Arguments of `mo-mem export`.
#[derive(Args, Debug)]
pub struct ExportArgs {
    /// Snapshot directories; each row names its snapshot as given here.
    #[arg(required = true)]
    snapshots: Vec<PathBuf>,
    /// The directory to write `objects.parquet`, `edges.parquet`, `variables.parquet` and
    /// `types.parquet` into (created if missing; each file replaced when it is complete).
    #[arg(long, value_name = "DIR")]
    out: PathBuf,
    /// Read snapshots even if their manifests or files do not verify.
    #[arg(long)]
    no_verify: bool,
}

/// Runs `mo-mem export`.
pub fn run(args: ExportArgs, limits: ReaderLimits) -> anyhow::Result<()> {
    let mut exporter = Exporter::create(&args.out)?;
    for path in &args.snapshots {
        let opened = open_admitted(path, args.no_verify, limits)
            .with_context(|| format!("cannot open {}", path.display()))?;
        let a = timed("analysis", || analyse(&opened, true))?;
        let a = &*a;
        timed("export", || {
            exporter.add(&path.to_string_lossy(), &opened, a)
        })
        .with_context(|| format!("cannot export {}", path.display()))?;
    }
    let counts = timed("export-finish", || exporter.finish())?;
    println!(
        "{}: {} objects, {} edges, {} variables, {} type rows from {} snapshots",
        args.out.display(),
        counts.objects,
        counts.edges,
        counts.variables,
        counts.types,
        args.snapshots.len()
    );
    Ok(())
}
