//! `mo-mem report SNAPSHOT`: a one-screen memory report (where main memory goes, the
//! largest variables, types and objects by retained size, the suspects with their paths).

use std::io::Write;

use anyhow::Context;
use clap::Args;
use mo_mem::analysis::doctor::DoctorReport;
use mo_mem::analysis::flame::{retained_svg, RETAINED_TITLE};
use mo_mem::analysis::html::report_page;
use mo_mem::analysis::json::pretty;
use mo_mem::analysis::report::MemoryReport;
use mo_mem::image::ReaderLimits;

use super::progress::analyse;
use super::snapshot_args::SnapshotArgs;
use mo_mem::store::fsutil::atomic_write_shared;

/// Arguments of `mo-mem report`.
#[derive(Args, Debug)]
pub struct ReportArgs {
    #[command(flatten)]
    snapshot: SnapshotArgs,
    /// Print the report as JSON (schema: docs/schemas/report.schema.json).
    #[arg(long)]
    json: bool,
    /// Also write the report as one self-contained HTML page to FILE (sortable tables with
    /// paths, the retained flame graph; what the mount's `analysis/report.html` holds).
    #[arg(long, value_name = "FILE")]
    html: Option<std::path::PathBuf>,
    /// Threads of the analysis: the steps after the dominators run two at a time (0: every
    /// core; 1: one after the other; the results are the same).
    #[arg(long, default_value_t = 0)]
    threads: usize,
}

/// Runs `mo-mem report`.
pub fn run(args: ReportArgs, limits: ReaderLimits) -> anyhow::Result<()> {
    let opened = args.snapshot.open_heap(limits)?;
    opened.set_walk_threads(args.threads);
    let a = analyse(&opened, true)?;
    let a = &*a;
    // the doctor runs once, for the report's savings and the page's findings
    let doctor = DoctorReport::new(&opened, a);
    let report = MemoryReport::with_doctor(&opened, a, &doctor);
    if let Some(file) = &args.html {
        let svg = retained_svg(&opened, a, RETAINED_TITLE)?;
        let page = report_page(&opened, a, &report, &doctor, &svg)?;
        atomic_write_shared(file, &page)
            .with_context(|| format!("cannot write {}", file.display()))?;
    }
    let bytes = match args.json {
        true => pretty(&report)?,
        false => report.text().into_bytes(),
    };
    std::io::stdout().write_all(&bytes)?;
    Ok(())
}
