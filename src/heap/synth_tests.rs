//! Walk hazards on synthetic EOP images: slice tags, stale forwarded copies in an evacuated
//! partition, a large object over two partitions, free and temporary partitions, the Bits64
//! slack word, the corrupted registry blob, and unparseable blocks (reported, walk continues).

use crate::heap::{eop, ArraySort, BlockKind, Body, Heap, Tag, WalkError};
use crate::image::ReaderLimits;
use crate::snapshot::Snapshot;

const P: u64 = eop::PARTITION_SIZE;

/// A sparse EOP image under construction.
struct Img {
    bytes: Vec<u8>,
}

impl Img {
    fn new(len: u64) -> Img {
        let mut bytes = vec![0u8; len as usize];
        for (i, c) in "MOTOKO ORTHOGONAL PERSISTENCE 64".bytes().enumerate() {
            bytes[eop::METADATA as usize + 4 * i] = c;
        }
        let mut img = Img { bytes };
        img.w(eop::VERSION, 1);
        img.w(eop::HEAP_BASE, eop::HEAP_START);
        img.w(eop::PARTITION_TABLE + 128 * 56 + 8, 128);
        img.w(eop::WEAK_REF_REGISTRY, crate::heap::EOP_NULL);
        for i in 0..128 {
            img.partition(i, 0, 0, (true, false, false, false));
        }
        img
    }
    fn w(&mut self, addr: u64, v: u64) {
        self.bytes[addr as usize..addr as usize + 8].copy_from_slice(&v.to_le_bytes());
    }
    /// Partition `i` with (static, dynamic) sizes and flags (free, large, temporary, evacuate).
    fn partition(&mut self, i: u64, st: u64, dy: u64, flags: (bool, bool, bool, bool)) {
        let at = eop::PARTITION_TABLE + i * 56;
        self.w(at, i);
        self.bytes[(at + 8) as usize] = flags.0 as u8;
        self.bytes[(at + 9) as usize] = flags.1 as u8;
        self.w(at + 24, st);
        self.w(at + 32, dy);
        self.bytes[(at + 48) as usize] = flags.2 as u8;
        self.bytes[(at + 49) as usize] = flags.3 as u8;
    }
    /// An object header at `a` (tag, forwarding to itself unless `fwd` given).
    fn header(&mut self, a: u64, tag: u64, fwd: Option<u64>) {
        self.w(a, tag);
        self.w(a + 8, fwd.unwrap_or(a) - 1);
    }
    /// An array of `len` scalar words.
    fn array(&mut self, a: u64, tag: u64, len: u64, fwd: Option<u64>) -> u64 {
        self.header(a, tag, fwd);
        self.w(a + 16, len);
        for i in 0..len {
            self.w(a + 24 + 8 * i, (i << 2) | 2);
        }
        24 + 8 * len
    }
    fn heap(self) -> Heap {
        let snap = Snapshot::from_parts(None, None, self.bytes, None).expect("snapshot");
        Heap::open(snap, ReaderLimits::default()).expect("heap")
    }
}

fn blocks(heap: &Heap) -> Vec<Result<crate::heap::Block, WalkError>> {
    heap.walk().collect()
}

#[test]
fn hazards_are_walked_exactly() {
    let mut img = Img::new(3 * P + 0x10_0000);
    let h = eop::HEAP_START;
    // Partition 0: array, Bits64 with a slack word, slice-tagged array, registry garbage, MutBox.
    let mut a = h;
    a += img.array(a, 5, 3, None);
    img.header(a, 11, None);
    img.w(a + 16, u64::MAX);
    a += 32; // 24 bytes + slack word (0)
    let slice = a;
    a += img.array(a, (1u64 << 62) | 2, 4, None); // sort M, resume index 2
    let garbage = a;
    img.w(a, a + 40); // an 8-aligned address
    img.w(a + 8, 3);
    img.w(a + 16, 16);
    a += 40;
    img.header(a, 17, None);
    img.w(a + 16, 0xAA);
    a += 24;
    img.partition(0, h, a - h, (false, false, false, false));
    // Partition 1: evacuating, a stale copy forwarded to partition 0's first array.
    let p1 = P;
    let mut b = p1;
    b += img.array(b, 5, 3, Some(h));
    img.partition(1, 0, b - p1, (false, false, false, true));
    // Partition 2: temporary (bitmaps): skipped even though it has a dynamic size.
    img.partition(2, 0, 4096, (false, false, true, false));
    // Partition 3: free.
    img.partition(3, 0, 0, (true, false, false, false));
    let heap = img.heap();
    assert_eq!(heap.ranges().len(), 2);
    let bl: Vec<_> = blocks(&heap)
        .into_iter()
        .map(|b| b.expect("block"))
        .collect();
    let kinds: Vec<BlockKind> = bl.iter().map(|b| b.kind).collect();
    assert_eq!(
        kinds,
        vec![
            BlockKind::Object(Tag::Array(ArraySort::Mutable)),
            BlockKind::Object(Tag::Bits64(crate::heap::BitsSort::Unsigned)),
            BlockKind::Slack,
            BlockKind::Object(Tag::Array(ArraySort::Mutable)),
            BlockKind::RegistryGarbage,
            BlockKind::Object(Tag::MutBox),
            BlockKind::Object(Tag::Array(ArraySort::Mutable)),
        ]
    );
    assert_eq!(bl[4].addr, garbage);
    assert_eq!(bl[6].forwarded_to, Some(h));
    assert_eq!(heap.resolve(p1).expect("resolve"), h);
    match heap.object(slice).expect("slice").body {
        Body::Array {
            slice_index, elems, ..
        } => {
            assert_eq!(slice_index, Some(2));
            assert_eq!(elems.len(), 4);
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn large_object_spans_partitions_and_bad_blocks_skip_to_next_range() {
    let mut img = Img::new(4 * P + 0x10_0000);
    let h = eop::HEAP_START;
    // Partition 0: a good array, then a block with tag 0 (unparseable).
    let mut a = h;
    a += img.array(a, 3, 1, None);
    a += 64; // zeros: tag 0
    img.partition(0, h, a - h, (false, false, false, false));
    // Partitions 1-2: one large array of (P + 8 MiB) bytes.
    let len = (P + (8 << 20) - 24) / 8;
    img.header(P, 3, None);
    img.w(P + 16, len);
    img.partition(1, 0, P, (false, true, false, false));
    img.partition(2, 0, 8 << 20, (false, true, false, false));
    // Partition 3: a MutBox.
    img.header(3 * P, 17, None);
    img.w(3 * P + 16, 0xAA);
    img.partition(3, 0, 24, (false, false, false, false));
    let heap = img.heap();
    assert_eq!(heap.ranges().len(), 3);
    assert!(heap.ranges()[1].large_object);
    assert_eq!(heap.ranges()[1].end, P + P + (8 << 20));
    let bl = blocks(&heap);
    assert_eq!(bl.len(), 4);
    assert!(bl[0].is_ok());
    assert!(matches!(bl[1], Err(WalkError::Block { range: 0, .. })));
    assert_eq!(bl[2].as_ref().map(|b| b.size).ok(), Some(P + (8 << 20)));
    assert_eq!(
        bl[3].as_ref().map(|b| b.kind).ok(),
        Some(BlockKind::Object(Tag::MutBox))
    );
}

#[test]
fn overrun_and_budget_are_reported() {
    let mut img = Img::new(P + 0x10_0000);
    let h = eop::HEAP_START;
    let n = img.array(h, 3, 10, None);
    // The range claims fewer bytes than the array has.
    img.partition(0, h, n - 8, (false, false, false, false));
    let heap = img.heap();
    let bl = blocks(&heap);
    assert!(matches!(bl[..], [Err(WalkError::Overrun { .. })]));

    let mut img = Img::new(P + 0x10_0000);
    let mut a = h;
    for _ in 0..100 {
        a += img.array(a, 3, 0, None);
    }
    img.partition(0, h, a - h, (false, false, false, false));
    let snap = Snapshot::from_parts(None, None, img.bytes, None).expect("snapshot");
    let limits = ReaderLimits {
        max_objects: 10,
        ..ReaderLimits::default()
    };
    let heap = Heap::open(snap, limits).expect("heap");
    let bl = blocks(&heap);
    assert_eq!(bl.len(), 11);
    assert!(matches!(bl[10], Err(WalkError::Limit(_))));
}

#[test]
fn bad_partition_tables_are_refused() {
    let mut img = Img::new(P);
    img.partition(0, eop::HEAP_START, P, (false, false, false, false));
    let snap = Snapshot::from_parts(None, None, img.bytes, None).expect("snapshot");
    assert!(Heap::open(snap, ReaderLimits::default()).is_err());
    let mut img = Img::new(P);
    img.w(eop::PARTITION_TABLE + 56, 7); // index of partition 1 is 7
    let snap = Snapshot::from_parts(None, None, img.bytes, None).expect("snapshot");
    assert!(Heap::open(snap, ReaderLimits::default()).is_err());
}
