//! `mo-mem diff OLD NEW`: what changed between two snapshots of one canister, by meaning:
//! growth suspects, per variable (retained bytes, whether the value changed, a collection's
//! keys), per type, and the heap's space; `--json` for the whole diff, `--html FILE` a page.

use std::io::Write;

use anyhow::Context;
use clap::Args;
use mo_mem::analysis::diff::json::DiffJson;
use mo_mem::analysis::diff::summary::summary_text;
use mo_mem::analysis::diff::{Figures, SnapshotDiff};
use mo_mem::analysis::html::diff_html;
use mo_mem::analysis::json::pretty;
use mo_mem::image::ReaderLimits;
use mo_mem::store::fsutil::atomic_write_shared;

use super::progress::TerminalProgress;
use super::snapshot_args::{admit_noted, admitted_heap};
use super::times::timed;
use mo_mem::serve::one_canister;

/// Arguments of `mo-mem diff`.
#[derive(Args, Debug)]
pub struct DiffArgs {
    /// The older snapshot (a snapshot directory, e.g. in the store).
    old: std::path::PathBuf,
    /// The newer snapshot.
    new: std::path::PathBuf,
    /// Print JSON instead of text (schema: docs/schemas/diff.schema.json).
    #[arg(long)]
    json: bool,
    /// Read snapshots even if their manifests or files do not verify.
    #[arg(long)]
    no_verify: bool,
    /// Hold one analysis in memory at a time (about half the peak memory, about twice the
    /// wall time on two or more cores): OLD's is computed and reduced to its figures before
    /// NEW's starts.
    #[arg(long)]
    low_memory: bool,
    /// Also write the differential flame graph (grown red, shrunk blue) to FILE (an SVG).
    #[arg(long, value_name = "FILE")]
    svg: Option<std::path::PathBuf>,
    /// Also write the diff as one self-contained HTML page to FILE (growth suspects,
    /// variables, types and space as sortable tables, the differential flame graph).
    #[arg(long, value_name = "FILE")]
    html: Option<std::path::PathBuf>,
}

/// Runs `mo-mem diff`.
pub fn run(args: DiffArgs, limits: ReaderLimits) -> anyhow::Result<()> {
    let progress = TerminalProgress::new();
    let admitted = [
        admit_noted(&args.old, args.no_verify, limits)?,
        admit_noted(&args.new, args.no_verify, limits)?,
    ];
    one_canister("diff", &admitted)?;
    let old = admitted_heap(&admitted[0])?;
    let new = admitted_heap(&admitted[1])?;
    drop(admitted);
    let pictures = args.svg.is_some() || args.html.is_some();
    let d = match pictures {
        // The pictures need both analyses: both computed at once (two threads) and kept,
        // then the values compared.
        true => {
            let (old_figures, new_figures) =
                timed("analyses", || Figures::of_both(&old, &new, &progress))?;
            let d = timed("compare", || {
                SnapshotDiff::from_figures(old_figures, &old, new_figures, &new, &progress)
            });
            // both analyses are cached: only the folding and drawing are left
            if let Some(file) = &args.svg {
                let svg = timed("flame", || mo_mem::analysis::flame::diff_svg(&old, &new))?;
                atomic_write_shared(file, &svg)
                    .with_context(|| format!("cannot write {}", file.display()))?;
            }
            if let Some(file) = &args.html {
                let page = timed("html", || diff_html(&old, &new, &d))?;
                atomic_write_shared(file, &page)
                    .with_context(|| format!("cannot write {}", file.display()))?;
            }
            d
        }
        // One analysis in memory at a time, then the values compared.
        false if args.low_memory || !two_cores() => timed("analyses-and-compare", || {
            SnapshotDiff::compute_lean(&old, &new, &progress)
        })?,
        // Both analyses at once on two threads (OLD's dropped once reduced to its figures),
        // then the values compared.
        false => timed("analyses-and-compare", || {
            SnapshotDiff::compute_old_transient(&old, &new, &progress)
        })?,
    };
    drop(progress);
    let mut out = std::io::stdout().lock();
    if args.json {
        out.write_all(&pretty(&DiffJson::new(&d))?)?;
    } else {
        out.write_all(summary_text(&d).as_bytes())?;
    }
    Ok(())
}

/// Whether this machine runs two threads at once (else the analyses run one after the other).
fn two_cores() -> bool {
    std::thread::available_parallelism().is_ok_and(|n| n.get() >= 2)
}
