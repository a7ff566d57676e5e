//! `mo-mem info`: layout, compiler version, GC, sizes and object count of a snapshot.

use clap::Args;
use mo_mem::image::ReaderLimits;
use serde::Serialize;

use mo_mem::analysis::OpenedHeap;

use super::snapshot_args::SnapshotArgs;

/// Arguments of `mo-mem info`.
#[derive(Args, Debug)]
pub struct InfoArgs {
    #[command(flatten)]
    snapshot: SnapshotArgs,
    /// Print JSON instead of text.
    #[arg(long)]
    pub json: bool,
}

/// What `info` reports.
#[derive(Serialize)]
struct Info {
    persistence: &'static str,
    gc: &'static str,
    rtti: bool,
    compiler: Option<String>,
    heap_base: u64,
    gc_phase: Option<u32>,
    lifecycle: Option<u64>,
    main_memory_bytes: u64,
    stable_memory_bytes: Option<u64>,
    module_bytes: Option<u64>,
    heap_bytes: u64,
    ranges: usize,
    /// Incremental GC: the partition of each range (free, large, temporary, evacuating...).
    partitions: Vec<mo_mem::heap::PartitionInfo>,
    /// Ranges holding exactly one large object (spanning several partitions).
    large_object_ranges: usize,
    objects: u64,
    object_bytes: u64,
    free_bytes: u64,
    stable_variables: Option<usize>,
    walk_complete: bool,
    errors: Vec<String>,
}

fn info(opened: &OpenedHeap) -> Info {
    let heap = opened.heap();
    let stats = opened.stats();
    let layout = heap.layout();
    let snap = heap.snapshot();
    Info {
        persistence: match layout.persistence {
            mo_mem::module::Persistence::Enhanced => "enhanced orthogonal persistence (64-bit)",
            mo_mem::module::Persistence::Classical => "classical (32-bit)",
        },
        gc: layout.gc.name(),
        rtti: layout.rtti,
        compiler: heap.module().and_then(|m| m.compiler.clone()),
        heap_base: layout.heap_base,
        gc_phase: heap.gc_phase(),
        lifecycle: heap.lifecycle(),
        main_memory_bytes: snap.memory().len(),
        stable_memory_bytes: snap.stable_memory().map(|s| s.len()),
        module_bytes: snap.module().map(|m| m.len() as u64),
        heap_bytes: stats.heap_bytes,
        ranges: stats.ranges.len(),
        partitions: heap.ranges().iter().filter_map(|r| r.partition).collect(),
        large_object_ranges: heap.ranges().iter().filter(|r| r.large_object).count(),
        objects: stats.objects.objects,
        object_bytes: stats.objects.bytes,
        free_bytes: stats.free.bytes,
        stable_variables: heap.stable_vars().ok().map(|v| v.len()),
        walk_complete: stats.complete(),
        errors: stats.errors.clone(),
    }
}

/// Runs `mo-mem info`.
pub fn run(args: InfoArgs, limits: ReaderLimits) -> anyhow::Result<()> {
    let opened = args.snapshot.open_heap(limits)?;
    let heap = opened.heap();
    let i = info(&opened);
    if args.json {
        println!("{}", serde_json::to_string_pretty(&i)?);
        return Ok(());
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
        i.heap_bytes, i.ranges
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
    println!("objects:         {} ({} bytes)", i.objects, i.object_bytes);
    println!("free:            {} bytes", i.free_bytes);
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
