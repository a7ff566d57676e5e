//! `heap-growth`: why main memory is larger than the live heap, in one table whose rows add
//! up to main memory exactly (static data, live objects, garbage, stale copies, free space
//! inside the heap, space never used, and what a walk error left unwalked), with the
//! partitions of the incremental GC (EOP: 64 MiB each, allocated and evacuated whole; Wasm
//! memory never shrinks). It saves nothing by itself: its saving is 0 and its bytes are main
//! memory minus the live bytes.

use super::context::Context;
use super::{Finding, TableRow};
use crate::analysis::report::{human, plural, space_report, Space};

/// The `heap-growth` finding of `ctx`'s heap.
pub fn finding(ctx: &Context<'_>) -> Finding {
    let s = space_report(ctx.opened, ctx.a);
    let row = |part: &str, space: &Space| TableRow {
        part: part.to_string(),
        objects: space.objects,
        bytes: space.bytes,
    };
    let table = vec![
        row("static data", &s.static_data),
        row("live objects", &s.live),
        row("garbage (not yet collected)", &s.garbage),
        row("stale copies (evacuated)", &s.stale_copies),
        row("free inside the heap", &s.free),
        row("never used", &s.never_used),
        row("unwalked (walk errors)", &s.unwalked),
    ];
    let mut f = Finding::new(
        "heap-growth",
        0,
        s.main_memory.saturating_sub(s.live.bytes),
        0,
    );
    let layout = ctx.heap().layout();
    let ranges = ctx.heap().ranges();
    let mut partitions: Vec<u64> = ranges
        .iter()
        .filter_map(|r| r.partition.map(|p| p.index))
        .collect();
    partitions.sort_unstable();
    partitions.dedup();
    f.detail = match layout.partition_size {
        0 => format!(
            "main memory is {} ({} bytes), the live heap {} bytes; the heap is one range",
            human(s.main_memory),
            s.main_memory,
            s.live.bytes
        ),
        p => format!(
            "main memory is {} ({} bytes), the live heap {} bytes; the heap spans {} \
             of {} (the incremental GC allocates and evacuates whole partitions)",
            human(s.main_memory),
            s.main_memory,
            s.live.bytes,
            plural(partitions.len() as u64, "partition"),
            human(p)
        ),
    };
    f.advice = "Main memory only grows: what is not live is reused by later allocations, \
                so a canister's memory is its peak, not its live heap."
        .to_string();
    f.table = table;
    f
}
