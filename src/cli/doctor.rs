//! `mo-mem doctor SNAPSHOT`: reclaimable waste in the heap, each finding with the bytes a
//! fix would save (exactly, from the heap), where it sits and one sentence of advice; and
//! why main memory is larger than the live heap (docs/doctor.md).

use std::io::Write;

use clap::Args;
use mo_mem::analysis::doctor::DoctorReport;
use mo_mem::image::ReaderLimits;

use super::progress::analyse;
use super::snapshot_args::SnapshotArgs;
use super::times::timed;

/// Arguments of `mo-mem doctor`.
#[derive(Args, Debug)]
pub struct DoctorArgs {
    #[command(flatten)]
    snapshot: SnapshotArgs,
    /// Print the findings as JSON (schema: docs/schemas/doctor.schema.json).
    #[arg(long)]
    json: bool,
    /// Threads walking the heap and running the checks' pass over the objects (0: every
    /// core).
    #[arg(long, default_value_t = 0)]
    threads: usize,
}

/// Runs `mo-mem doctor`.
pub fn run(args: DoctorArgs, limits: ReaderLimits) -> anyhow::Result<()> {
    let opened = args.snapshot.open_heap(limits)?;
    opened.set_walk_threads(args.threads);
    // With MO_MEM_TIMES=1: the heap walk, the analysis and the checks, each timed (the
    // benchmark of docs/doctor.md compares the checks with the walk).
    timed("walk", || opened.stats());
    let a = timed("analysis", || analyse(&opened, true))?;
    let a = &*a;
    let report = timed("doctor", || DoctorReport::new(&opened, a));
    let bytes = match args.json {
        true => report.json()?,
        false => report.text().into_bytes(),
    };
    std::io::stdout().write_all(&bytes)?;
    Ok(())
}
