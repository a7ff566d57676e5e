//! What the heap statistics count: objects and bytes per tag, free and unused space,
//! per-partition figures.

use std::collections::BTreeMap;

use crate::heap::{BlockKind, Tag};

/// Objects and bytes of one kind.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Count {
    /// Number of blocks.
    pub objects: u64,
    /// Total bytes.
    pub bytes: u64,
}

impl Count {
    /// Counts one more block of `bytes`.
    pub(crate) fn add(&mut self, bytes: u64) {
        self.objects += 1;
        self.bytes += bytes;
    }
}

/// Figures for one walked range.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize)]
pub struct RangeStats {
    /// Range start.
    pub start: u64,
    /// Range end.
    pub end: u64,
    /// Partition index, if partitioned.
    pub partition: Option<u64>,
    /// Whether the range holds one large object.
    pub large_object: bool,
    /// Whether the partition is being evacuated.
    pub evacuating: bool,
    /// Object blocks and bytes (excluding fillers, free space, slack, garbage).
    pub objects: Count,
    /// Free space, fillers, slack and RTS garbage blocks.
    pub free: Count,
    /// Whether the walk ended exactly at `end`.
    pub complete: bool,
}

/// Statistics of a whole heap walk.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize)]
pub struct HeapStats {
    /// Per block kind name (`Object`, `Array M`, ..., `slack`, `registry garbage`).
    pub by_tag: BTreeMap<&'static str, Count>,
    /// All object blocks (real objects, including stale forwarded copies).
    pub objects: Count,
    /// Stale copies left by evacuation (included in `objects`).
    pub forwarded: Count,
    /// Free space, fillers, slack words, RTS garbage.
    pub free: Count,
    /// Bytes of the walked ranges.
    pub heap_bytes: u64,
    /// Bytes of the image (main memory).
    pub image_bytes: u64,
    /// Bytes of the image beyond the heap base not covered by any walked range (unformatted
    /// partition tails, free partitions, mark bitmaps).
    pub unused_bytes: u64,
    /// Per range.
    pub ranges: Vec<RangeStats>,
    /// Walk errors, rendered (address and reason).
    pub errors: Vec<String>,
}

impl HeapStats {
    /// Whether every range was walked to exactly its end without errors.
    pub fn complete(&self) -> bool {
        self.errors.is_empty() && self.ranges.iter().all(|r| r.complete)
    }
}

/// The name a block is counted under.
pub fn block_name(kind: BlockKind) -> &'static str {
    match kind {
        BlockKind::Object(tag) => tag.name(),
        BlockKind::Slack => "slack",
        BlockKind::RegistryGarbage => "registry garbage",
    }
}

/// Whether a block is free space rather than an object.
pub(crate) fn is_free(kind: BlockKind) -> bool {
    matches!(
        kind,
        BlockKind::Slack
            | BlockKind::RegistryGarbage
            | BlockKind::Object(Tag::OneWordFiller | Tag::FreeSpace | Tag::FwdPtr)
    )
}
