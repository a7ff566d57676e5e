//! The index `objects/` is listed from (`OpenedHeap::object_blocks`, built by the walk that
//! counts the statistics): for every committed fixture, the same blocks and first objects
//! as a plain walk of the heap finds, and the statistics unchanged by building it.

use crate::common;

use mo_mem::analysis::opened::OBJECT_BLOCK_BITS;
use mo_mem::analysis::stats::heap_stats;
use mo_mem::analysis::OpenedHeap;
use mo_mem::heap::BlockKind;
use std::collections::BTreeMap;

#[test]
fn object_blocks_match_a_plain_walk_on_every_fixture() {
    for (name, mode) in common::committed_fixtures() {
        let dir = common::fixture(&name, &mode);
        let opened = OpenedHeap::open(&dir).unwrap();
        // the plain computation: every object block, the lowest address per 64 KiB
        let mut first: BTreeMap<u64, u64> = BTreeMap::new();
        for block in opened.heap().walk().flatten() {
            if let BlockKind::Object(tag) = block.kind {
                if tag.is_object() {
                    let entry = first.entry(block.addr >> 16).or_insert(block.addr);
                    *entry = (*entry).min(block.addr);
                }
            }
        }
        let want: Vec<u64> = first.into_values().collect();
        assert_eq!(OBJECT_BLOCK_BITS, 16);
        assert!(!want.is_empty(), "{name}/{mode}: no objects");
        assert_eq!(&opened.object_blocks()[..], &want[..], "{name}/{mode}");
        assert_eq!(opened.stats(), &heap_stats(opened.heap()), "{name}/{mode}");
    }
}
