//! `mo-mem retained`: what holds the memory: per stable variable, tag or object, the objects and
//! bytes reachable from it and retained by it, per root kind, and the garbage.

use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::Context;

use clap::{Args, ValueEnum};
use mo_mem::analysis::flame::{retained_svg, RETAINED_TITLE};
use mo_mem::analysis::retained_json::{pretty, RetainedJson, DEFAULT_TOP};
use mo_mem::analysis::types::shorten_to;
use mo_mem::image::ReaderLimits;

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
}

/// Runs `mo-mem retained`.
pub fn run(args: RetainedArgs, limits: ReaderLimits) -> anyhow::Result<()> {
    let opened = args.snapshot.open_heap(limits)?;
    let heap = opened.heap();
    let a = timed("analysis", || {
        analyse(
            &opened,
            args.json || args.by == By::Type || args.svg.is_some(),
        )
    })?;
    if let Some(file) = &args.svg {
        let svg = timed("flame", || retained_svg(&opened, a, RETAINED_TITLE))?;
        write_atomically(file, &svg).with_context(|| format!("cannot write {}", file.display()))?;
    }
    if args.json {
        let json = RetainedJson::new(&opened, a, args.top);
        std::io::stdout().write_all(&pretty(&json)?)?;
        return Ok(());
    }
    let vars = a.vars();
    let roots = a.roots();
    let live = a.live();
    let garbage = a.garbage();
    let g = a.graph();
    let share = |bytes: u64| match live.bytes {
        0 => "-".to_string(),
        l => format!("{:.1}%", bytes as f64 * 100.0 / l as f64),
    };
    match args.by {
        By::Var => {
            println!(
                "{:<24} {:>10} {:>12} {:>10} {:>12} {:>7}",
                "variable", "reachable", "bytes", "retained", "bytes", "share"
            );
            for v in vars.iter().take(args.top) {
                println!(
                    "{:<24} {:>10} {:>12} {:>10} {:>12} {:>7}",
                    v.name,
                    v.reachable.objects,
                    v.reachable.bytes,
                    v.retained.objects,
                    v.retained.bytes,
                    share(v.retained.bytes)
                );
            }
            if vars.len() > args.top {
                println!("({} more variables)", vars.len() - args.top);
            }
        }
        By::Type => {
            let types = a.types(&opened);
            println!(
                "{:<32} {:>8} {:>10} {:>8} {:>10} {:>7}",
                "type", "objects", "bytes", "retained", "bytes", "share"
            );
            for t in types.iter().take(args.top) {
                let name = if t.typed {
                    t.name.to_string()
                } else {
                    format!("<{}>", t.name)
                };
                let name = shorten_to(name, 32);
                println!(
                    "{:<32} {:>8} {:>10} {:>8} {:>10} {:>7}",
                    name,
                    t.shallow.objects,
                    t.shallow.bytes,
                    t.retained.objects,
                    t.retained.bytes,
                    share(t.retained.bytes)
                );
            }
            if types.len() > args.top {
                println!("({} more types)", types.len() - args.top);
            }
        }
        By::Object => {
            println!(
                "{:<14} {:<10} {:>10} {:>10} {:>12} {:>7}",
                "address", "tag", "size", "retained", "bytes", "share"
            );
            for r in a.top(heap, args.top) {
                println!(
                    "{:<14} {:<10} {:>10} {:>10} {:>12} {:>7}",
                    format!("{:#x}", r.address),
                    r.tag,
                    r.size,
                    r.retained.objects,
                    r.retained.bytes,
                    share(r.retained.bytes)
                );
            }
        }
    }
    println!();
    println!(
        "{:<24} {:>10} {:>10} {:>12}",
        "root kind", "roots", "retained", "bytes"
    );
    for r in roots.iter().filter(|r| r.roots > 0) {
        println!(
            "{:<24} {:>10} {:>10} {:>12}",
            r.kind, r.roots, r.retained.objects, r.retained.bytes
        );
    }
    println!();
    println!("{:<24} {:>10} {:>12}", "live", live.objects, live.bytes);
    println!(
        "{:<24} {:>10} {:>12}",
        "garbage", garbage.objects, garbage.bytes
    );
    if g.stale().objects > 0 {
        println!(
            "{:<24} {:>10} {:>12}",
            "stale copies",
            g.stale().objects,
            g.stale().bytes
        );
    }
    if let Some(e) = g.vars_error() {
        println!("stable variables: {e}");
    }
    for e in g.errors() {
        println!("error: {e}");
    }
    Ok(())
}

/// Writes `bytes` to `file` through a temporary file beside it and a rename.
pub fn write_atomically(file: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let name = file.file_name().unwrap_or_default().to_string_lossy();
    let tmp = file.with_file_name(format!(".{name}.tmp{}", std::process::id()));
    std::fs::write(&tmp, bytes)?;
    std::fs::rename(&tmp, file).inspect_err(|_| {
        let _ = std::fs::remove_file(&tmp);
    })
}
