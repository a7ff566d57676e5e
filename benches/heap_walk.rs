//! Heap-walk throughput (objects/s and bytes/s) on the largest generated heap.
//!
//! Plain timing, no harness: `cargo bench --bench heap_walk`. The snapshot is the one given in
//! `MOMEM_BENCH_SNAPSHOT`, else the largest (by main memory) under `target/fixture-snapshots`
//! (on-demand fixtures such as `big`: `scripts/gen-fixtures --on-demand big`), else the largest
//! committed fixture. Goal: at least 1 GiB/s of heap scanned per core.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use mo_mem::heap::Heap;
use mo_mem::image::ReaderLimits;
use mo_mem::snapshot::Snapshot;

fn memory_size(dir: &Path) -> u64 {
    std::fs::metadata(dir.join("wasm_memory.bin")).map_or(0, |m| m.len())
}

fn snapshot_dirs(root: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for name in std::fs::read_dir(root).into_iter().flatten().flatten() {
        for mode in std::fs::read_dir(name.path())
            .into_iter()
            .flatten()
            .flatten()
        {
            if mode.path().join("metadata.json").exists() {
                out.push(mode.path());
            }
        }
    }
    out
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
    let mut blocks = 0u64;
    let mut errors = 0u64;
    let start = Instant::now();
    let mut runs = 0;
    while runs < 3 || (start.elapsed() < Duration::from_secs(3) && runs < 50) {
        let t = Instant::now();
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
        std::hint::black_box(bytes);
        best = best.min(elapsed);
        blocks = n;
        errors = errs;
        runs += 1;
    }
    let secs = best.as_secs_f64().max(1e-9);
    println!(
        "heap_walk: {blocks} blocks, {errors} errors; best of {runs}: {:.3} ms = {:.1} M objects/s, {:.2} GiB/s",
        secs * 1e3,
        blocks as f64 / secs / 1e6,
        heap_bytes as f64 / secs / (1u64 << 30) as f64
    );
}
