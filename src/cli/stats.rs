//! `mo-mem stats`: objects and bytes per tag, free and unused space, per-partition figures.

use clap::Args;
use mo_mem::image::ReaderLimits;

use super::snapshot_args::SnapshotArgs;

/// Arguments of `mo-mem stats`.
#[derive(Args, Debug)]
pub struct StatsArgs {
    #[command(flatten)]
    snapshot: SnapshotArgs,
    /// Print JSON instead of a table (schema: docs/schemas/stats.schema.json).
    #[arg(long)]
    json: bool,
    /// Threads walking the heap, one GC partition at a time each (0: every core).
    #[arg(long, default_value_t = 0)]
    threads: usize,
}

/// Runs `mo-mem stats`.
pub fn run(args: StatsArgs, limits: ReaderLimits) -> anyhow::Result<()> {
    let opened = args.snapshot.open_heap(limits)?;
    opened.set_walk_threads(args.threads);
    let stats = opened.stats();
    if args.json {
        println!("{}", serde_json::to_string_pretty(&stats)?);
        return Ok(());
    }
    println!("{:<21} {:>12} {:>14}", "tag", "objects", "bytes");
    let mut rows: Vec<_> = stats.by_tag.iter().collect();
    rows.sort_by(|a, b| b.1.bytes.cmp(&a.1.bytes).then(a.0.cmp(b.0)));
    for (name, c) in rows {
        println!("{:<21} {:>12} {:>14}", name, c.objects, c.bytes);
    }
    println!(
        "{:<21} {:>12} {:>14}",
        "objects", stats.objects.objects, stats.objects.bytes
    );
    if stats.forwarded.objects > 0 {
        println!(
            "{:<21} {:>12} {:>14}",
            "  stale copies", stats.forwarded.objects, stats.forwarded.bytes
        );
    }
    println!(
        "{:<21} {:>12} {:>14}",
        "free", stats.free.objects, stats.free.bytes
    );
    println!("{:<21} {:>12} {:>14}", "unused", "", stats.unused_bytes);
    if stats.ranges.len() > 1 || stats.ranges.iter().any(|r| r.partition.is_some()) {
        println!();
        println!(
            "{:<10} {:>14} {:>14} {:>10} {:>14} {:>14}  notes",
            "partition", "start", "end", "objects", "bytes", "free"
        );
        for r in &stats.ranges {
            let mut notes = Vec::new();
            if r.large_object {
                notes.push("large object");
            }
            if r.evacuating {
                notes.push("evacuating");
            }
            if !r.complete {
                notes.push("INCOMPLETE");
            }
            println!(
                "{:<10} {:>#14x} {:>#14x} {:>10} {:>14} {:>14}  {}",
                r.partition.map_or("-".to_string(), |p| p.to_string()),
                r.start,
                r.end,
                r.objects.objects,
                r.objects.bytes,
                r.free.bytes,
                notes.join(", ")
            );
        }
    }
    for e in &stats.errors {
        println!("error: {e}");
    }
    Ok(())
}
