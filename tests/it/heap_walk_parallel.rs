//! The parallel heap walk behind `mo-mem stats` (`heap_stats_threads`: the heap split at its
//! ranges, GC partitions walked on several threads, counts merged) gives exactly the
//! one-thread walk's statistics (`heap_stats`): on every committed fixture, on the generated
//! `big-small` heap (EOP and classical incremental, several partitions and a large-object
//! range, mid-GC with stale copies), on copies of it with corrupted blocks in several
//! partitions, and when the object budget runs out part-way (the parallel walk then walks
//! again on one thread, so the limit is reported where the one-thread walk reports it).

use crate::common;

use mo_mem::analysis::stats::{heap_stats, heap_stats_threads};
use mo_mem::analysis::OpenedHeap;
use mo_mem::heap::Heap;
use mo_mem::image::ReaderLimits;
use mo_mem::snapshot::Snapshot;

use crate::heap_support::files::SnapshotFiles;
use mo_mem::module::ModuleFacts;

fn open(dir: &std::path::Path, limits: ReaderLimits) -> Heap {
    let snap = Snapshot::open(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    Heap::open(snap, limits).unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
}

/// The one-thread statistics, and the same from 2 and 3 threads.
fn check_same(heap: &Heap, label: &str) -> mo_mem::analysis::stats::HeapStats {
    check_same_on(heap, label, &[2, 3])
}

/// The one-thread statistics, and the same from each of `threads`.
fn check_same_on(
    heap: &Heap,
    label: &str,
    threads: &[usize],
) -> mo_mem::analysis::stats::HeapStats {
    let one = heap_stats(heap);
    for &threads in threads {
        assert_eq!(
            heap_stats_threads(heap, threads),
            one,
            "{label}: {threads} threads"
        );
    }
    one
}

#[test]
fn parallel_walk_equals_one_thread_on_every_committed_fixture() {
    for (name, mode, dir) in common::all_fixtures() {
        let heap = open(&dir, ReaderLimits::default());
        check_same(&heap, &format!("{name}/{mode}"));
    }
}

/// The `big-small` snapshots (every mode), or none without the compiler.
fn big_small() -> Vec<(String, std::path::PathBuf)> {
    let Some(root) = common::generated_fixture("big-small") else {
        return Vec::new();
    };
    let mut out: Vec<_> = std::fs::read_dir(&root)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.join("wasm_memory.bin").is_file())
        .map(|p| {
            (
                format!("big-small/{}", p.file_name().unwrap().to_string_lossy()),
                p,
            )
        })
        .collect();
    out.sort();
    out
}

#[test]
fn parallel_walk_equals_one_thread_over_several_partitions() {
    for (label, dir) in big_small() {
        let heap = open(&dir, ReaderLimits::default());
        assert!(
            heap.ranges().len() >= 4,
            "{label}: {} ranges",
            heap.ranges().len()
        );
        let one = check_same(&heap, &label);
        assert!(one.complete(), "{label}: {:?}", one.errors);
        // The opened heap's walk (stats and the object-block index) on 1 and 2 threads.
        let walked = |threads| {
            let opened = OpenedHeap::new(open(&dir, ReaderLimits::default()));
            opened.set_walk_threads(threads);
            (opened.stats().clone(), opened.object_blocks().to_vec())
        };
        let (stats1, blocks1) = walked(1);
        let (stats2, blocks2) = walked(2);
        assert_eq!(stats1, one, "{label}");
        assert_eq!(stats2, one, "{label}");
        assert_eq!(blocks1, blocks2, "{label}: object blocks");
        // The object budget running out in a later partition: the same error, the same
        // counts up to it.
        for max_objects in [
            one.objects.objects / 2,
            one.objects.objects + one.free.objects - 1,
        ] {
            let limits = ReaderLimits {
                max_objects,
                ..ReaderLimits::default()
            };
            let heap = open(&dir, limits);
            let limited = check_same(&heap, &format!("{label}: max_objects {max_objects}"));
            assert!(!limited.errors.is_empty(), "{label}: {max_objects}");
        }
    }
}

/// The generated `wide` heap: two partitions of millions of small objects, which the
/// parallel walk also cuts into pieces at likely block boundaries.
fn wide() -> Option<(String, std::path::PathBuf)> {
    let root = common::generated_fixture("wide")?;
    Some(("wide/eop".to_string(), root.join("eop")))
}

#[test]
fn parallel_walk_equals_one_thread_on_partitions_cut_into_pieces() {
    let Some((label, dir)) = wide() else {
        return;
    };
    let heap = open(&dir, ReaderLimits::default());
    let one = check_same_on(&heap, &label, &[2]);
    assert!(one.complete(), "{label}: {:?}", one.errors);
    assert!(
        one.objects.objects > 1_000_000,
        "{label}: {}",
        one.objects.objects
    );
    let max_objects = one.objects.objects / 3;
    let limits = ReaderLimits {
        max_objects,
        ..ReaderLimits::default()
    };
    let limited = check_same(
        &open(&dir, limits),
        &format!("{label}: max_objects {max_objects}"),
    );
    assert!(!limited.errors.is_empty(), "{label}");
}

#[test]
fn parallel_walk_equals_one_thread_on_corrupted_partitions() {
    if let Some((label, dir)) = big_small().into_iter().find(|(l, _)| l.ends_with("/eop")) {
        corrupted_cases(&label, &dir, 3);
    }
    if let Some((label, dir)) = wide() {
        corrupted_cases(&label, &dir, 2);
    }
}

/// `cases` copies of the snapshot `dir`, each with a corrupted block in most ranges: the
/// parallel walk's statistics equal the one-thread walk's.
fn corrupted_cases(label: &str, dir: &std::path::Path, cases: usize) {
    let files = SnapshotFiles::read(dir, label);
    let facts = ModuleFacts::parse(&files.module).expect("module");
    let heap = files
        .open(files.memory.clone(), &facts, ReaderLimits::default())
        .expect("big-small opens");
    // Blocks to corrupt, per range (a corrupted header stops the walk of its range there).
    let mut headers: Vec<Vec<u64>> = vec![Vec::new(); heap.ranges().len()];
    for b in heap.walk().flatten() {
        if b.size >= 16 {
            headers[b.range].push(b.addr);
        }
    }
    drop(heap);
    let mut rng = fastrand::Rng::with_seed(0x7061_7274);
    let mut memory = files.memory.clone();
    for case in 0..cases {
        // A corrupted header in every range at once.
        let mut changed = Vec::new();
        for blocks in headers.iter().filter(|b| !b.is_empty()) {
            let at = blocks[rng.usize(0..blocks.len())] as usize;
            let old: [u8; 8] = memory[at..at + 8].try_into().unwrap();
            let new = match rng.u8(0..3) {
                0 => [0xff; 8],
                1 => 2u64.to_le_bytes(),
                _ => rng.u64(..).to_le_bytes(),
            };
            memory[at..at + 8].copy_from_slice(&new);
            changed.push((at, old));
        }
        let heap = files
            .open(memory, &facts, ReaderLimits::default())
            .expect("a corrupted heap still opens");
        let stats = check_same_on(&heap, &format!("{label}: case {case}, {changed:x?}"), &[2]);
        assert!(
            !stats.errors.is_empty(),
            "{label}: case {case} corrupts nothing"
        );
        println!("{label}: case {case}: {} errors", stats.errors.len());
        memory = files.reuse(crate::heap_support::files::give_back(heap));
        for (at, old) in changed {
            memory[at..at + 8].copy_from_slice(&old);
        }
    }
}
