//! On every fixture snapshot: the walk ends exactly at each range end, `stats` agrees with the
//! walk, and everything reachable from the roots is a walked object (an independent count).

use crate::heap_support;

use std::collections::{HashMap, HashSet};

use mo_mem::analysis::stats::heap_stats;
use mo_mem::heap::{BlockKind, Heap, Tag};
use mo_mem::image::ReaderLimits;
use mo_mem::snapshot::Snapshot;

fn open(dir: &std::path::Path) -> Heap {
    let snap = Snapshot::open(dir).unwrap_or_else(|e| panic!("{dir:?}: {e}"));
    Heap::open(snap, ReaderLimits::default()).unwrap_or_else(|e| panic!("{dir:?}: {e}"))
}

/// Objects reachable from the roots and the stable variables, following forwarding.
fn reachable(heap: &Heap) -> HashSet<u64> {
    let mut seen = HashSet::new();
    let mut stack: Vec<u64> = Vec::new();
    for root in heap.roots().expect("roots") {
        stack.push(root.word);
    }
    for var in heap.stable_vars().expect("stable vars") {
        match var.slot {
            mo_mem::heap::StableVarSlot::MutBox(a) => stack.push(a.wrapping_sub(1)),
            mo_mem::heap::StableVarSlot::Value(w) => stack.push(w),
        }
    }
    while let Some(word) = stack.pop() {
        let Some(addr) = heap.pointer(word) else {
            continue;
        };
        let addr = heap
            .resolve(addr)
            .unwrap_or_else(|e| panic!("resolve {addr:#x}: {e}"));
        if !seen.insert(addr) {
            continue;
        }
        let obj = heap
            .object(addr)
            .unwrap_or_else(|e| panic!("object {addr:#x}: {e}"));
        // Weak references are not traced by the GC's marking.
        if obj.tag == Tag::WeakRef {
            continue;
        }
        stack.extend(obj.references());
    }
    seen
}

#[test]
fn walks_end_exactly_and_reachable_objects_are_walked() {
    let snaps = heap_support::snapshots();
    for (label, dir) in &snaps {
        let heap = open(dir);
        let stats = heap_stats(&heap);
        assert!(
            stats.errors.is_empty(),
            "{label}: walk errors {:?}",
            stats.errors
        );
        assert!(stats.complete(), "{label}: a range did not end exactly");
        assert!(!heap.ranges().is_empty(), "{label}: no heap ranges");

        // The walk, counted independently of `stats`.
        let mut blocks: HashMap<u64, (BlockKind, Option<u64>)> = HashMap::new();
        let mut object_bytes = 0;
        for b in heap.walk() {
            let b = b.unwrap_or_else(|e| panic!("{label}: {e}"));
            if let BlockKind::Object(t) = b.kind {
                if t.is_object() {
                    object_bytes += b.size;
                }
            }
            blocks.insert(b.addr, (b.kind, b.forwarded_to));
        }
        let walked_objects = blocks
            .values()
            .filter(|(k, _)| matches!(k, BlockKind::Object(t) if t.is_object()))
            .count() as u64;
        assert_eq!(stats.objects.objects, walked_objects, "{label}");
        assert_eq!(stats.objects.bytes, object_bytes, "{label}");
        let by_tag_total: u64 = stats.by_tag.values().map(|c| c.objects).sum();
        assert_eq!(by_tag_total, blocks.len() as u64, "{label}");

        // Reachability: every reachable object inside the heap ranges is a walked, current object.
        let live = reachable(&heap);
        let mut in_heap = 0u64;
        for addr in &live {
            if !heap.in_heap(*addr) {
                continue;
            }
            in_heap += 1;
            match blocks.get(addr) {
                Some((BlockKind::Object(t), None)) if t.is_object() => {}
                other => panic!("{label}: reachable {addr:#x} is walked as {other:?}"),
            }
        }
        assert!(in_heap <= walked_objects, "{label}");
        assert!(
            in_heap > 0,
            "{label}: nothing reachable in the dynamic heap"
        );
        println!(
            "{label}: {} ranges, {} blocks, {} objects ({} bytes), {} reachable in heap, {} stale copies",
            heap.ranges().len(),
            blocks.len(),
            walked_objects,
            object_bytes,
            in_heap,
            stats.forwarded.objects
        );
    }
}
