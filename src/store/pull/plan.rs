//! What a pull still has to read: the blobs it writes slice by slice, and the work items (a
//! slice of a blob, or a whole chunk-store entry) not yet recorded as done.

use super::super::files;
use std::collections::BTreeSet;

/// A file written slice by slice.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Blob {
    /// `wasm_module.bin`.
    Module,
    /// `wasm_memory.bin`.
    Memory,
    /// `stable_memory.bin`.
    Stable,
    /// `main_memory.bin`, the canister-hosted protocol's bare image.
    Bare,
}

impl Blob {
    /// The three blobs of a management-canister snapshot.
    pub const SNAPSHOT: [Blob; 3] = [Blob::Module, Blob::Memory, Blob::Stable];

    /// The file name.
    pub fn file(self) -> &'static str {
        match self {
            Blob::Module => files::WASM_MODULE,
            Blob::Memory => files::WASM_MEMORY,
            Blob::Stable => files::STABLE_MEMORY,
            Blob::Bare => files::BARE_IMAGE,
        }
    }
}

/// One read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Item {
    /// `len` bytes at `offset` of a blob, slice number `index`.
    Slice {
        /// The blob.
        blob: Blob,
        /// Slice number (offset / slice size).
        index: u64,
        /// Byte offset.
        offset: u64,
        /// Byte length.
        len: u64,
    },
    /// A whole chunk-store entry.
    Chunk {
        /// Its SHA-256.
        hash: Vec<u8>,
    },
}

/// The work for one blob of `size` bytes in slices of `slice` (not 0), skipping slices in
/// `done` (which is pruned to valid indices); returns the items and the bytes already done.
pub fn slice_items(
    blob: Blob,
    size: u64,
    slice: u64,
    done: &mut BTreeSet<u64>,
) -> (Vec<Item>, u64) {
    let n = size.div_ceil(slice.max(1));
    done.retain(|i| *i < n);
    let mut items = Vec::new();
    let mut done_bytes = 0;
    for index in 0..n {
        let offset = index * slice;
        let len = slice.min(size - offset);
        if done.contains(&index) {
            done_bytes += len;
        } else {
            items.push(Item::Slice {
                blob,
                index,
                offset,
                len,
            });
        }
    }
    (items, done_bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slices_cover_the_blob_once_and_skip_what_is_done() {
        let mut done = BTreeSet::from([1, 7]);
        let (items, already) = slice_items(Blob::Memory, 25, 10, &mut done);
        // 3 slices (10, 10, 5); slice 1 done, index 7 out of range and pruned
        assert_eq!(done, BTreeSet::from([1]));
        assert_eq!(already, 10);
        let spans: Vec<(u64, u64)> = items
            .iter()
            .map(|i| match i {
                Item::Slice { offset, len, .. } => (*offset, *len),
                Item::Chunk { .. } => unreachable!(),
            })
            .collect();
        assert_eq!(spans, vec![(0, 10), (20, 5)]);
        let (none, zero) = slice_items(Blob::Bare, 0, 10, &mut BTreeSet::new());
        assert!(none.is_empty());
        assert_eq!(zero, 0);
    }
}
