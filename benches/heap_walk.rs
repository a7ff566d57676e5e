//! Heap-walk throughput (objects/s and bytes/s) on the largest generated heap.
//!
//! Plain timing, no harness: `cargo bench --bench heap_walk`. The snapshot is the one given in
//! `MOMEM_BENCH_SNAPSHOT`, else the largest (by main memory) under `target/fixture-snapshots`
//! (on-demand fixtures such as `big`: `scripts/gen-fixtures --on-demand big`), else the largest
//! committed fixture. Goal: at least 1 GiB/s of heap scanned per core. It prints the best of
//! at least 3 walks (up to 50 in 3 s) by wall time and by the thread's CPU time (per-core speed
//! on a shared machine), and the load average.
//!
//! Figures (2026-11-30, 2 vCPU AMD EPYC VM, otherwise idle, release build; the slower of two
//! runs; see docs/formats.md, "Speed"):
//!
//! | snapshot | heap | objects | best CPU time | objects/s | GiB/s |
//! |---|---:|---:|---:|---:|---:|
//! | `collections/eop` | 4.6 MiB | 126 104 | 1.59 ms | 79.5 M | 2.83 |
//! | `collections/incremental` | 2.3 MiB | 125 728 | 1.18 ms | 106.2 M | 1.92 |
//! | `collections/generational` | 1.9 MiB | 125 729 | 1.40 ms | 90.1 M | 1.30 |
//! | `collections/compacting` | 0.9 MiB | 60 817 | 0.69 ms | 87.8 M | 1.28 |
//! | `collections/copying` | 0.9 MiB | 60 817 | 0.73 ms | 83.0 M | 1.21 |
//!
//! The object-dense `collections` heaps (8-38 bytes per object) are the honest measure (the
//! on-demand `big` heaps are a few hundred large arrays: the walk reads only their headers).

#[path = "support/snapshots.rs"]
mod snapshots;
mod support;
use snapshots::snapshot_dirs;

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use mo_mem::heap::Heap;
use mo_mem::image::ReaderLimits;
use mo_mem::snapshot::Snapshot;

fn memory_size(dir: &Path) -> u64 {
    std::fs::metadata(dir.join("wasm_memory.bin")).map_or(0, |m| m.len())
}

fn pick() -> Option<PathBuf> {
    if let Ok(p) = std::env::var("MOMEM_BENCH_SNAPSHOT") {
        return Some(PathBuf::from(p));
    }
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let mut dirs = snapshot_dirs(&root.join("target/fixture-snapshots"));
    if dirs.is_empty() {
        // Materialize the committed fixtures.
        for src in snapshot_dirs(&root.join("fixtures/snapshots")) {
            let rel = src.strip_prefix(root.join("fixtures/snapshots")).ok()?;
            let dst = root.join("target/fixture-snapshots").join(rel);
            if !dst.join("metadata.json").exists() {
                std::fs::create_dir_all(dst.parent()?).ok()?;
                mo_mem::snapshot::fixture::materialize(&src, &dst).ok()?;
            }
            dirs.push(dst);
        }
    }
    dirs.into_iter().max_by_key(|d| memory_size(d))
}

/// The CPU time this thread has used (zero if the clock cannot be read).
fn thread_cpu() -> Duration {
    support::thread_cpu().unwrap_or(Duration::ZERO)
}

fn main() {
    let Some(dir) = pick() else {
        eprintln!("heap_walk: no snapshot found (set MOMEM_BENCH_SNAPSHOT)");
        return;
    };
    let snapshot = match Snapshot::open(&dir) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("heap_walk: {}: {e}", dir.display());
            return;
        }
    };
    let heap = match Heap::open(snapshot, ReaderLimits::default()) {
        Ok(h) => h,
        Err(e) => {
            eprintln!("heap_walk: {}: {e}", dir.display());
            return;
        }
    };
    let heap_bytes: u64 = heap.ranges().iter().map(|r| r.end - r.start).sum();
    println!(
        "heap_walk: {} ({:?}, {}), {} ranges, {:.1} MiB of heap",
        dir.display(),
        heap.layout().persistence,
        heap.layout().gc.name(),
        heap.ranges().len(),
        heap_bytes as f64 / (1 << 20) as f64
    );
    let mut best = Duration::MAX;
    let mut best_cpu = Duration::MAX;
    let mut blocks = 0u64;
    let mut errors = 0u64;
    let start = Instant::now();
    let mut runs = 0;
    while runs < 3 || (start.elapsed() < Duration::from_secs(3) && runs < 50) {
        let t = Instant::now();
        let c = thread_cpu();
        let (mut n, mut bytes, mut errs) = (0u64, 0u64, 0u64);
        for b in heap.walk() {
            match b {
                Ok(b) => {
                    n += 1;
                    bytes += b.size;
                }
                Err(_) => errs += 1,
            }
        }
        let elapsed = t.elapsed();
        let cpu = thread_cpu().saturating_sub(c);
        std::hint::black_box(bytes);
        best = best.min(elapsed);
        best_cpu = best_cpu.min(cpu);
        blocks = n;
        errors = errs;
        runs += 1;
    }
    let load = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    let load = load
        .split_whitespace()
        .take(3)
        .collect::<Vec<_>>()
        .join(" ");
    for (what, t) in [("wall", best), ("cpu", best_cpu)] {
        let secs = t.as_secs_f64().max(1e-9);
        println!(
            "heap_walk: {blocks} blocks, {errors} errors; best {what} of {runs}: {:.3} ms = {:.1} M objects/s, {:.0} MiB/s, {:.2} GiB/s (load {load})",
            secs * 1e3,
            blocks as f64 / secs / 1e6,
            heap_bytes as f64 / secs / (1u64 << 20) as f64,
            heap_bytes as f64 / secs / (1u64 << 30) as f64
        );
    }
}
