//! The `info` report of a snapshot: layout, compiler, GC, sizes, object counts. One shape for
//! every front-end: `mo-mem info --json` prints it, the mount's `info.json` is it.

use serde::Serialize;

use super::stats::Count;
use super::OpenedHeap;
use crate::heap::{HeapRange, PartitionInfo};
use crate::module::Persistence;

/// What `info` reports about one opened snapshot.
#[derive(Debug, Clone, Serialize)]
pub struct SnapshotInfo {
    /// What an unfinished download read with `--force` is missing (absent when finished).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub incomplete: Option<String>,
    /// The persistence mode, in words.
    pub persistence: &'static str,
    /// The garbage collector the module was compiled with.
    pub gc: &'static str,
    /// Whether the module carries run-time type information.
    pub rtti: bool,
    /// The compiler version, if the module names it.
    pub compiler: Option<String>,
    /// The moc release (`0.8.7`), when the module's compiler text is one or names a known npm
    /// build.
    pub compiler_release: Option<String>,
    /// The npm `motoko` release bundling the build, when known.
    pub compiler_npm: Option<&'static str>,
    /// The compiler and mode in one line: `moc 1.10.1 (npm motoko 4.10.0), classical,
    /// compacting GC`.
    pub compiler_summary: Option<String>,
    /// The heap's first address.
    pub heap_base: u64,
    /// The incremental GC's phase, if any.
    pub gc_phase: Option<u32>,
    /// The RTS lifecycle word (EOP), if any.
    pub lifecycle: Option<u64>,
    /// Bytes of main memory.
    pub main_memory_bytes: u64,
    /// Bytes of stable memory, if the snapshot has it.
    pub stable_memory_bytes: Option<u64>,
    /// Bytes of the module, if the snapshot has it.
    pub module_bytes: Option<u64>,
    /// Bytes of the walked heap ranges.
    pub heap_bytes: u64,
    /// The heap ranges walked linearly.
    pub ranges: Vec<HeapRange>,
    /// Incremental GC: the partition of each partitioned range.
    pub partitions: Vec<PartitionInfo>,
    /// Ranges holding exactly one large object (spanning several partitions).
    pub large_object_ranges: usize,
    /// Object blocks and their bytes (stale forwarded copies included).
    pub objects: Count,
    /// Free space, fillers, slack words and RTS garbage.
    pub free: Count,
    /// Number of stable variables, if the stable signature is readable.
    pub stable_variables: Option<usize>,
    /// Whether the module's stable signature parsed.
    pub stable_signature: bool,
    /// Whether the walk proved every range ends exactly.
    pub walk_complete: bool,
    /// What stopped the walk, per range.
    pub errors: Vec<String>,
}

/// The `info` report of `opened` (its statistics are computed once and cached).
pub fn snapshot_info(opened: &OpenedHeap) -> SnapshotInfo {
    let heap = opened.heap();
    let stats = opened.stats();
    let layout = heap.layout();
    let snap = heap.snapshot();
    SnapshotInfo {
        incomplete: snap.unfinished().map(|u| u.summary()),
        persistence: match layout.persistence {
            Persistence::Enhanced => "enhanced orthogonal persistence (64-bit)",
            Persistence::Classical => "classical (32-bit)",
        },
        gc: layout.gc.name(),
        rtti: layout.rtti,
        compiler: heap.module().and_then(|m| m.compiler.clone()),
        compiler_release: heap.module().and_then(|m| {
            m.moc
                .release
                .map(|v| format!("{v}{}", if m.moc.after_release { "+" } else { "" }))
        }),
        compiler_npm: heap.module().and_then(|m| m.moc.npm),
        compiler_summary: heap.module().map(|m| m.compiler_summary()),
        heap_base: layout.heap_base,
        gc_phase: heap.gc_phase(),
        lifecycle: heap.lifecycle(),
        main_memory_bytes: snap.memory().len(),
        stable_memory_bytes: snap.stable_memory().map(|s| s.len()),
        module_bytes: snap.module().map(|m| m.len() as u64),
        heap_bytes: stats.heap_bytes,
        ranges: heap.ranges().to_vec(),
        partitions: heap.ranges().iter().filter_map(|r| r.partition).collect(),
        large_object_ranges: heap.ranges().iter().filter(|r| r.large_object).count(),
        objects: stats.objects,
        free: stats.free,
        stable_variables: heap.stable_vars().ok().map(|v| v.len()),
        stable_signature: opened.signature().is_ok(),
        walk_complete: stats.complete(),
        errors: stats.errors.clone(),
    }
}
