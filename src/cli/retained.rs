//! `mo-mem retained`: what holds the memory: per stable variable, tag or object, the objects and
//! bytes reachable from it and retained by it, per root kind, and the garbage.

use std::io::Write;
use std::path::PathBuf;

use anyhow::Context;

use clap::{Args, ValueEnum};
use mo_mem::analysis::flame::{retained_svg, RETAINED_TITLE};
use mo_mem::analysis::json::pretty;
use mo_mem::analysis::retained_json::{RetainedJson, DEFAULT_TOP};
use mo_mem::analysis::retained_text::{retained_tables, RetainedBy};
use mo_mem::image::ReaderLimits;
use mo_mem::store::fsutil::atomic_write_shared;

use super::progress::analyse;
use super::snapshot_args::SnapshotArgs;
use super::times::timed;

/// How `retained` groups the heap.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum By {
    /// Per stable variable.
    Var,
    /// Per heap tag (`Object`, `Array M`, `Blob T`, ...; Motoko types come later).
    Type,
    /// The largest retainers, object by object.
    Object,
}

/// Arguments of `mo-mem retained`.
#[derive(Args, Debug)]
pub struct RetainedArgs {
    #[command(flatten)]
    snapshot: SnapshotArgs,
    /// What to list: stable variables, heap tags, or single objects.
    #[arg(long, value_enum, default_value = "var")]
    by: By,
    /// How many rows (and `top` retainers in JSON).
    #[arg(long, default_value_t = DEFAULT_TOP)]
    top: usize,
    /// Print JSON instead of a table (every view at once; schema:
    /// docs/schemas/retained.schema.json).
    #[arg(long)]
    json: bool,
    /// Also write the flame graph (icicle) of retained memory by path to FILE (an SVG).
    #[arg(long, value_name = "FILE")]
    svg: Option<PathBuf>,
    /// Threads of the analysis: the steps after the dominators run two at a time (0: every
    /// core; 1: one after the other; the results are the same).
    #[arg(long, default_value_t = 0)]
    threads: usize,
}

/// Runs `mo-mem retained`.
pub fn run(args: RetainedArgs, limits: ReaderLimits) -> anyhow::Result<()> {
    let opened = args.snapshot.open_heap(limits)?;
    opened.set_walk_threads(args.threads);
    let a = timed("analysis", || {
        analyse(
            &opened,
            args.json || args.by == By::Type || args.svg.is_some(),
        )
    })?;
    let a = &*a;
    if let Some(file) = &args.svg {
        let svg = timed("flame", || retained_svg(&opened, a, RETAINED_TITLE))?;
        atomic_write_shared(file, &svg)
            .with_context(|| format!("cannot write {}", file.display()))?;
    }
    if args.json {
        let json = RetainedJson::new(&opened, a, args.top);
        std::io::stdout().write_all(&pretty(&json)?)?;
        return Ok(());
    }
    let by = match args.by {
        By::Var => RetainedBy::Var,
        By::Type => RetainedBy::Type,
        By::Object => RetainedBy::Object,
    };
    print!("{}", retained_tables(&opened, a, by, args.top));
    Ok(())
}
