//! Retained-size analysis: speed (objects/s) and peak memory (bytes per object beyond the
//! mapped image) of the heap graph, the dominators and the per-variable reachability.
//!
//! Plain timing, no harness: `cargo bench --bench retained` (`scripts/bench-analysis` runs it on
//! the on-demand `dense` fixture). Two workloads:
//! * the largest committed fixture (by main memory; or `MOMEM_BENCH_SNAPSHOT`): the whole
//!   analysis as `mo-mem retained` runs it (graph, dominators, every stable variable's
//!   reachable set), its peak memory on every core, its time on one thread and on two;
//! * a synthetic heap-like graph of `MOMEM_BENCH_NODES` nodes (default 20 million; 0 skips it): a
//!   binary tree plus one random cross edge per four nodes (about 1.25 edges per node), sizes
//!   of 2-6 words: the dominators alone, the graph's arrays counted as the graph's share.
//!
//! Memory is measured by a counting global allocator (the peak of live heap allocations during
//! the phase minus those before it); the image is memory-mapped, so it is not counted. Time is
//! the best of the runs by the thread's CPU time (per-core speed on a shared machine) and by wall
//! time. Figures: docs/analysis.md.

#[path = "support/snapshots.rs"]
mod snapshots;
mod support;
use snapshots::snapshot_dirs;

use std::alloc::{GlobalAlloc, Layout, System};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use mo_mem::analysis::dominators::Dominators;
use mo_mem::analysis::graph::{Csr, HeapGraph, ImageEdges};
use mo_mem::analysis::progress::{NoProgress, Phase, Progress};
use mo_mem::analysis::{HeapAnalysis, OpenedHeap};
use mo_mem::heap::Heap;
use mo_mem::image::ReaderLimits;
use mo_mem::snapshot::Snapshot;

/// The system allocator, counting live bytes and their peak.
struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

// SAFETY: every call is forwarded to the system allocator unchanged; only counters are added.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: forwarded with the caller's layout.
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            grow(layout.size());
        }
        p
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: forwarded with the caller's layout.
        let p = unsafe { System.alloc_zeroed(layout) };
        if !p.is_null() {
            grow(layout.size());
        }
        p
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: forwarded with the caller's pointer and layout.
        unsafe { System.dealloc(ptr, layout) };
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: forwarded with the caller's pointer, layout and size.
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if !p.is_null() {
            // Counted as both blocks live at once (a moving realloc holds both).
            grow(new_size);
            LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
        }
        p
    }
}

fn grow(bytes: usize) {
    let now = LIVE.fetch_add(bytes, Ordering::Relaxed) + bytes;
    PEAK.fetch_max(now, Ordering::Relaxed);
}

#[global_allocator]
static ALLOC: Counting = Counting;

/// Runs `f`, returning its result and the peak bytes allocated above those live before.
fn measured<T>(f: impl FnOnce() -> T) -> (T, usize) {
    let base = LIVE.load(Ordering::Relaxed);
    PEAK.store(base, Ordering::Relaxed);
    let out = f();
    (out, PEAK.load(Ordering::Relaxed).saturating_sub(base))
}

fn thread_cpu() -> Duration {
    support::thread_cpu().unwrap_or(Duration::ZERO)
}

/// Best wall and CPU time of at least `min_runs` runs (more while under 3 s, up to 20).
fn timed(min_runs: usize, mut f: impl FnMut()) -> (Duration, Duration, usize) {
    let (mut wall, mut cpu, mut runs) = (Duration::MAX, Duration::MAX, 0);
    let start = Instant::now();
    while runs < min_runs || (start.elapsed() < Duration::from_secs(3) && runs < 20) {
        let (t, c) = (Instant::now(), thread_cpu());
        f();
        wall = wall.min(t.elapsed());
        cpu = cpu.min(thread_cpu().saturating_sub(c));
        runs += 1;
    }
    (wall, cpu, runs)
}

/// The largest committed fixture, materialized under the target directory.
fn pick() -> Option<PathBuf> {
    if let Ok(p) = std::env::var("MOMEM_BENCH_SNAPSHOT") {
        return Some(PathBuf::from(p));
    }
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let committed = root.join("fixtures/snapshots");
    let size = |d: &Path| std::fs::metadata(d.join("wasm_memory.bin.gz")).map_or(0, |m| m.len());
    let src = snapshot_dirs(&committed)
        .into_iter()
        .max_by_key(|d| size(d))?;
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| root.join("target"));
    let dst = target
        .join("bench-snapshots")
        .join(src.strip_prefix(&committed).ok()?);
    if !dst.join("metadata.json").exists() {
        std::fs::create_dir_all(dst.parent()?).ok()?;
        mo_mem::snapshot::fixture::materialize(&src, &dst).ok()?;
    }
    Some(dst)
}

fn report(what: &str, objects: u64, wall: Duration, cpu: Duration, runs: usize) {
    for (clock, t) in [("cpu", cpu), ("wall", wall)] {
        let secs = t.as_secs_f64().max(1e-9);
        println!(
            "retained: {what}: best {clock} of {runs}: {:.3} ms = {:.2} M objects/s",
            secs * 1e3,
            objects as f64 / secs / 1e6
        );
    }
}

fn fixture() {
    let Some(dir) = pick() else {
        eprintln!("retained: no snapshot found (set MOMEM_BENCH_SNAPSHOT)");
        return;
    };
    let heap = match Snapshot::open(&dir).map(|s| Heap::open(s, ReaderLimits::default())) {
        Ok(Ok(h)) => h,
        Ok(Err(e)) => return eprintln!("retained: {}: {e}", dir.display()),
        Err(e) => return eprintln!("retained: {}: {e}", dir.display()),
    };
    let opened = OpenedHeap::new(heap);
    let heap = opened.heap();
    let (analysis, peak) = measured(|| {
        let a = HeapAnalysis::compute(&opened, &NoProgress).expect("analysis");
        std::hint::black_box(a.vars());
        std::hint::black_box(a.types(&opened));
        a
    });
    let (labelled, rows) = (
        analysis.labels(&opened).labelled(),
        analysis.types(&opened).to_vec(),
    );
    let g = analysis.graph();
    let m = g.edge_count().unwrap_or(0);
    let (n, live) = (g.nodes() as u64, analysis.live());
    println!(
        "retained: {} ({:?}): {n} objects, {m} references, {} live ({} B), {} variables",
        dir.display(),
        heap.layout().persistence,
        live.objects,
        live.bytes,
        g.vars().len()
    );
    println!(
        "retained: peak {peak} B above the mapped image = {:.1} B per object; kept: graph {} B, dominators {} B, type labels {} B",
        peak as f64 / n.max(1) as f64,
        g.heap_bytes(),
        analysis.dominators().heap_bytes(),
        analysis.labels(&opened).heap_bytes()
    );
    println!(
        "retained: checksum of every node's immediate dominator and retained size: {:016x}",
        checksum(&analysis)
    );
    let mut h = std::collections::hash_map::DefaultHasher::new();
    for r in &rows {
        std::hash::Hash::hash(
            &(&*r.name, r.typed, r.shallow.objects, r.shallow.bytes),
            &mut h,
        );
        std::hash::Hash::hash(&(r.retained.objects, r.retained.bytes), &mut h);
    }
    println!(
        "retained: {labelled} objects typed, {} type rows, checksum {:016x}; largest: {:?}",
        rows.len(),
        std::hash::Hasher::finish(&h),
        rows.iter()
            .take(3)
            .map(|r| (&*r.name, r.retained.bytes))
            .collect::<Vec<_>>()
    );
    // The paths to roots (`mo-mem path`, the report's suspects, `top` with `--json`): one
    // search on first use, kept with the analysis.
    let kept = LIVE.load(Ordering::Relaxed);
    let ((), paths_peak) = measured(|| {
        std::hint::black_box(analysis.paths(heap));
    });
    let with_paths = LIVE.load(Ordering::Relaxed);
    println!(
        "retained: paths to roots: peak {paths_peak} B more = {:.1} B per object, kept {:.1} B per object more",
        paths_peak as f64 / n.max(1) as f64,
        with_paths.saturating_sub(kept) as f64 / n.max(1) as f64,
    );
    drop(analysis);
    // On one thread (its CPU time is the whole analysis'), then on two (the steps after the
    // dominators two at a time: the wall time is the figure, the CPU time this thread's).
    for threads in [1, 2] {
        let (wall, cpu, runs) = timed(3, || {
            let a = HeapAnalysis::compute_on(&opened, &NoProgress, threads).expect("analysis");
            std::hint::black_box(a.vars());
            std::hint::black_box(a.types(&opened));
        });
        report(
            &format!(
                "whole analysis (graph, dominators, variables, Motoko types), {threads} thread(s)"
            ),
            n,
            wall,
            cpu,
            runs,
        );
    }
    let timer = PhaseTimer::default();
    let a = HeapAnalysis::compute(&opened, &timer).expect("analysis");
    std::hint::black_box(a.vars());
    println!("retained: whole analysis by phase (CPU): {}", timer.text());
    drop(a);
    phases(heap, n);
}

/// A hash of every node's immediate dominator and retained objects and bytes, and of every
/// root group's retained size (FNV-1a): equal before and after a change that must not change
/// the results.
fn checksum(a: &HeapAnalysis) -> u64 {
    use mo_mem::analysis::dominators::Dominator;
    let doms = a.dominators();
    let mut h = 0xcbf2_9ce4_8422_2325u64;
    let mut mix = |x: u64| {
        for b in x.to_le_bytes() {
            h = (h ^ b as u64).wrapping_mul(0x100_0000_01b3);
        }
    };
    for n in 0..a.graph().nodes() as u32 {
        let d = match doms.idom(n) {
            None => u64::MAX,
            Some(Dominator::Root) => u64::MAX - 1,
            Some(Dominator::Group(g)) => u64::MAX - 2 - g as u64,
            Some(Dominator::Node(m)) => m as u64,
        };
        let r = doms.retained(n);
        mix(d);
        mix(r.objects);
        mix(r.bytes);
    }
    for g in 0..a.graph().roots().len() {
        let r = doms.group_retained(g);
        mix(r.objects);
        mix(r.bytes);
    }
    h
}

/// One run of the analysis's steps, each timed (CPU) and measured (peak above what the
/// steps before it keep).
fn phases(heap: &Heap, n: u64) {
    let step = |what: &str, cpu: Duration, peak: usize| {
        println!(
            "retained: step {what}: {:.3} s CPU = {:.2} M objects/s, peak +{:.1} B per object",
            cpu.as_secs_f64(),
            n as f64 / cpu.as_secs_f64().max(1e-9) / 1e6,
            peak as f64 / n.max(1) as f64
        );
    };
    let c = thread_cpu();
    let (mut graph, peak) = measured(|| HeapGraph::build_without_edges(heap).expect("nodes"));
    step("walk, nodes and roots", thread_cpu() - c, peak);
    let c = thread_cpu();
    let (doms, peak) = measured(|| {
        let groups: Vec<&[u32]> = graph.roots().iter().map(|r| &r.nodes[..]).collect();
        Dominators::compute_over(
            &ImageEdges::new(&graph, heap),
            &groups,
            graph.word_shift(),
            |v| graph.size_words(v),
        )
        .expect("dominators")
    });
    step(
        "dominators and retained sizes (edges read from the image)",
        thread_cpu() - c,
        peak,
    );
    let c = thread_cpu();
    let ((), peak) = measured(|| graph.attach_edges(heap).expect("edges"));
    step("edge arrays", thread_cpu() - c, peak);
    println!(
        "retained: kept: nodes {:.1} B per object, edges {:.1}, dominators {:.1}",
        (graph.heap_bytes() - graph.edges().heap_bytes()) as f64 / n.max(1) as f64,
        graph.edges().heap_bytes() as f64 / n.max(1) as f64,
        doms.heap_bytes() as f64 / n.max(1) as f64
    );
    let c = thread_cpu();
    let (csr_doms, peak) = measured(|| {
        let groups: Vec<&[u32]> = graph.roots().iter().map(|r| &r.nodes[..]).collect();
        Dominators::compute(graph.edges(), &groups, graph.word_shift(), |v| {
            graph.size_words(v)
        })
        .expect("dominators")
    });
    step(
        "dominators from the edge arrays (for comparison)",
        thread_cpu() - c,
        peak,
    );
    assert_eq!(csr_doms.live(), doms.live());
}

/// A heap-like graph: a binary tree (node i points to 2i+1 and 2i+2) plus one random cross
/// edge per four nodes.
fn synthetic_graph(n: u32, rng: &mut fastrand::Rng) -> Csr {
    let mut b = Csr::builder(n as usize);
    for i in 0..n {
        for c in [2 * i as u64 + 1, 2 * i as u64 + 2] {
            if c < n as u64 {
                b.push(c as u32).expect("edge");
            }
        }
        if rng.u32(0..4) == 0 {
            b.push(rng.u32(0..n)).expect("edge");
        }
        b.end_node();
    }
    b.finish()
}

fn synthetic() {
    let n: u32 = std::env::var("MOMEM_BENCH_NODES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(20_000_000);
    let mut rng = fastrand::Rng::with_seed(16);
    let (csr, graph_peak) = measured(|| synthetic_graph(n, &mut rng));
    let sizes: Vec<u8> = (0..n).map(|_| rng.u8(2..7)).collect();
    let size = |v: u32| sizes[v as usize] as u32;
    let roots = [0u32];
    let (doms, peak) = measured(|| Dominators::compute(&csr, &[&roots], 3, size).expect("doms"));
    println!(
        "retained: synthetic: {n} nodes, {} edges, {} reachable; CSR {} B = {:.1} B per node (build peak {:.1}); dominators peak {peak} B = {:.1} B per node, kept {:.1} B per node; CSR + dominators peak {:.1} B per node",
        csr.edges(),
        doms.reachable_nodes(),
        csr.heap_bytes(),
        csr.heap_bytes() as f64 / n as f64,
        graph_peak as f64 / n as f64,
        peak as f64 / n as f64,
        doms.heap_bytes() as f64 / n as f64,
        (csr.heap_bytes() + peak) as f64 / n as f64,
    );
    drop(doms);
    let (wall, cpu, runs) = timed(2, || {
        std::hint::black_box(Dominators::compute(&csr, &[&roots], 3, size).expect("doms"));
    });
    report("synthetic dominators", n as u64, wall, cpu, runs);
}

fn main() {
    let load = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    println!(
        "retained: load {}",
        load.split_whitespace()
            .take(3)
            .collect::<Vec<_>>()
            .join(" ")
    );
    fixture();
    if std::env::var("MOMEM_BENCH_NODES").as_deref() != Ok("0") {
        synthetic();
    }
}

/// A [`Progress`] that notes the thread's CPU time of each phase of one analysis.
#[derive(Default)]
struct PhaseTimer {
    started: std::sync::Mutex<Option<Duration>>,
    spent: std::sync::Mutex<Vec<(&'static str, Duration)>>,
}

impl PhaseTimer {
    fn text(&self) -> String {
        let spent = self.spent.lock().expect("timer");
        spent
            .iter()
            .map(|(name, t)| format!("{name} {:.2} s", t.as_secs_f64()))
            .collect::<Vec<_>>()
            .join(", ")
    }
}

impl Progress for PhaseTimer {
    fn start(&self, _phase: Phase, _total: Option<u64>) {
        *self.started.lock().expect("timer") = Some(thread_cpu());
    }
    fn at(&self, _done: u64) {}
    fn finish(&self, phase: Phase) {
        if let Some(t) = self.started.lock().expect("timer").take() {
            let spent = thread_cpu().saturating_sub(t);
            self.spent
                .lock()
                .expect("timer")
                .push((phase.name(), spent));
        }
    }
}
