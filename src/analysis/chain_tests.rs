//! A heap-shaped worst case for the analysis's stack use: a 10-million-long linked list of
//! MutBoxes in a synthetic EOP image (a real walk, real decoding), analysed on a thread with a
//! small stack. Every pass (the graph, the depth-first numbering, the dominator tree, the
//! retained sums, the paths) must work without recursion: a recursive one overflows here.

use crate::analysis::path::Paths;
use crate::analysis::retained::Analysis;
use crate::heap::{eop, Heap, EOP_NULL};
use crate::image::ReaderLimits;
use crate::snapshot::Snapshot;

/// The list's length: `MO_MEM_CHAIN_LEN`, default 10 million in an optimized build and 1 million
/// in a debug build (10 million there takes two minutes; passed on 2026-12-01 in 118 s). Either
/// is far beyond what a recursion on a 256 KiB stack survives.
fn chain_len() -> u64 {
    std::env::var("MO_MEM_CHAIN_LEN")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(if cfg!(debug_assertions) {
            1_000_000
        } else {
            10_000_000
        })
}

const P: u64 = eop::PARTITION_SIZE;
const BOX: u64 = 24;

fn w(bytes: &mut [u8], addr: u64, v: u64) {
    bytes[addr as usize..addr as usize + 8].copy_from_slice(&v.to_le_bytes());
}

/// An EOP image whose stable-actor root points to the first of `len` MutBoxes, each holding
/// a pointer to the next (the last holds a scalar), packed partition after partition.
fn chain_image(len: u64) -> Vec<u8> {
    let per_partition = |i: u64| {
        let start = if i == 0 { eop::HEAP_START } else { i * P };
        ((i + 1) * P - start) / BOX
    };
    let mut parts = 0;
    let mut left = len;
    while left > 0 {
        left = left.saturating_sub(per_partition(parts));
        parts += 1;
    }
    let mut bytes = vec![0u8; (parts.max(1) * P) as usize];
    for (i, c) in "MOTOKO ORTHOGONAL PERSISTENCE 64".bytes().enumerate() {
        bytes[eop::METADATA as usize + 4 * i] = c;
    }
    w(&mut bytes, eop::VERSION, 1);
    w(&mut bytes, eop::HEAP_BASE, eop::HEAP_START);
    w(&mut bytes, eop::PARTITION_TABLE + 128 * 56 + 8, 128);
    w(&mut bytes, eop::WEAK_REF_REGISTRY, EOP_NULL);
    // Box k's address, partition by partition.
    let addr = |k: u64| {
        let (mut k, mut i) = (k, 0);
        while k >= per_partition(i) {
            k -= per_partition(i);
            i += 1;
        }
        let start = if i == 0 { eop::HEAP_START } else { i * P };
        start + k * BOX
    };
    for i in 0..128u64 {
        let at = eop::PARTITION_TABLE + i * 56;
        w(&mut bytes, at, i);
        let used = if i < parts {
            per_partition(i).min(len - (0..i).map(per_partition).sum::<u64>()) * BOX
        } else {
            0
        };
        bytes[at as usize + 8] = (i >= parts) as u8;
        w(
            &mut bytes,
            at + 24,
            if i == 0 { eop::HEAP_START } else { 0 },
        );
        w(&mut bytes, at + 32, used);
    }
    let mut a = addr(0);
    w(&mut bytes, eop::STABLE_ACTOR, a - 1);
    for k in 0..len {
        let next = if k + 1 < len { addr(k + 1) } else { 0 };
        w(&mut bytes, a, 17); // MutBox
        w(&mut bytes, a + 8, a - 1);
        w(
            &mut bytes,
            a + 16,
            if k + 1 < len { next - 1 } else { 0xAA },
        );
        a = next;
    }
    bytes
}

#[test]
fn a_ten_million_long_list_needs_no_deep_stack() {
    let len = chain_len();
    let snapshot = Snapshot::from_parts(None, None, chain_image(len), None).expect("snapshot");
    let heap = Heap::open(snapshot, ReaderLimits::default()).expect("heap");
    // 256 KiB of stack: a recursion one frame per list node would need gigabytes.
    let checked = std::thread::Builder::new()
        .stack_size(256 << 10)
        .spawn(move || {
            let a = Analysis::new(&heap).expect("analysis");
            let g = a.graph();
            assert_eq!(g.nodes() as u64, len);
            assert_eq!(g.edges().edges() as u64, len - 1);
            assert_eq!(a.live().objects, len);
            assert_eq!(a.garbage().objects, 0);
            // Each box dominates (and retains) the rest of the list.
            let d = a.dominators();
            for k in [0, 1, len / 2, len - 1] {
                let r = d.retained(k as u32);
                assert_eq!((r.objects, r.bytes), (len - k, (len - k) * BOX), "box {k}");
            }
            assert_eq!(super::dominators_tests::tree_depth(d), len);
            let paths = Paths::new(g);
            let chain = paths.nodes_to(len as u32 - 1).expect("a path");
            assert_eq!(chain.len() as u64, len);
            assert_eq!(a.by_tag(&heap)["MutBox"].retained.objects, len);
        })
        .expect("thread")
        .join();
    assert!(checked.is_ok(), "the analysis failed on a long list");
}
