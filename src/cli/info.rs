//! `mo-mem info`: layout, compiler version, GC, sizes and object count of a snapshot.

use clap::Args;
use mo_mem::image::ReaderLimits;

use mo_mem::analysis::info::snapshot_info;

use super::snapshot_args::SnapshotArgs;

/// Arguments of `mo-mem info`.
#[derive(Args, Debug)]
pub struct InfoArgs {
    #[command(flatten)]
    snapshot: SnapshotArgs,
    /// Print JSON instead of text (schema: docs/schemas/info.schema.json).
    #[arg(long)]
    pub json: bool,
}

/// Runs `mo-mem info`.
pub fn run(args: InfoArgs, limits: ReaderLimits) -> anyhow::Result<()> {
    let opened = args.snapshot.open_heap(limits)?;
    let heap = opened.heap();
    let i = snapshot_info(&opened);
    if args.json {
        println!("{}", serde_json::to_string_pretty(&i)?);
        return Ok(());
    }
    if let Some(u) = heap.snapshot().unfinished() {
        println!("{}", u.summary());
        println!("  {u}");
    }
    println!("snapshot:        {}", heap.snapshot().path().display());
    println!("persistence:     {}", i.persistence);
    println!(
        "gc:              {}{}",
        i.gc,
        if i.rtti { " (rtti)" } else { "" }
    );
    println!(
        "compiler:        {}",
        i.compiler.as_deref().unwrap_or("unknown")
    );
    if let Some(summary) = &i.compiler_summary {
        println!("built by:        {summary}");
    }
    if let Some(p) = i.gc_phase {
        println!("gc phase:        {p}");
    }
    if let Some(l) = i.lifecycle {
        println!("lifecycle:       {l}");
    }
    println!("main memory:     {} bytes", i.main_memory_bytes);
    if let Some(s) = i.stable_memory_bytes {
        println!("stable memory:   {s} bytes");
    }
    if let Some(m) = i.module_bytes {
        println!("module:          {m} bytes");
    }
    println!("heap base:       {:#x}", i.heap_base);
    println!(
        "heap:            {} bytes in {} ranges",
        i.heap_bytes,
        i.ranges.len()
    );
    if !i.partitions.is_empty() {
        let list = |f: fn(&mo_mem::heap::PartitionInfo) -> bool| {
            let v: Vec<String> = i
                .partitions
                .iter()
                .filter(|p| f(p))
                .map(|p| p.index.to_string())
                .collect();
            if v.is_empty() {
                "none".to_string()
            } else {
                v.join(", ")
            }
        };
        println!(
            "partitions:      {} with objects (evacuating: {}; large objects: {} in {} ranges)",
            i.partitions.len(),
            list(|p| p.evacuate),
            list(|p| p.large_content),
            i.large_object_ranges
        );
    }
    println!(
        "objects:         {} ({} bytes)",
        i.objects.objects, i.objects.bytes
    );
    println!("free:            {} bytes", i.free.bytes);
    if let Some(n) = i.stable_variables {
        println!("stable vars:     {n}");
    }
    println!(
        "walk:            {}",
        if i.walk_complete {
            "complete (every range ends exactly)".to_string()
        } else {
            format!("{} errors", i.errors.len())
        }
    );
    for e in &i.errors {
        println!("  error: {e}");
    }
    Ok(())
}
