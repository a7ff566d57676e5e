//! [`Layout`]: the parameters of one heap's layout, and its walkable [`HeapRange`]s.

use crate::image::WordSize;
use crate::module::{GcKind, Persistence};

use super::ScalarCoding;

/// Which tag numbering the heap uses (spec 2.2 and 8).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize)]
pub enum TagScheme {
    /// EOP, moc >= 0.16: WeakRef 45, slice tags from 46.
    Eop016,
    /// EOP, moc 0.13-0.15: no WeakRef, slice tags from 44.
    Eop013,
    /// Classical, moc >= 0.13: Bits32 41-45, Null 47, filler 49, free 51, slices from 52.
    Classical,
    /// Classical, moc 0.11.3-0.12.1: one tag per kind (no sorts), Region 25, Null 27,
    /// slices from 32.
    Classical0113,
    /// Classical, moc 0.10.0-0.11.2: as 0.11.3 with OBJ_IND 3 (the others shifted by two),
    /// slices from 34.
    Classical0100,
    /// Classical, moc 0.6.10-0.9.8: as 0.10.0 without Region (Null 27), slices from 32.
    Classical0610,
}

impl TagScheme {
    /// The smallest slice tag.
    #[inline]
    pub fn slice_min(self) -> u64 {
        match self {
            TagScheme::Eop016 => 46,
            TagScheme::Eop013 => 44,
            TagScheme::Classical => 52,
            TagScheme::Classical0113 | TagScheme::Classical0610 => 32,
            TagScheme::Classical0100 => 34,
        }
    }

    /// The dense tag table of a classical layout before moc 0.13 (`table[raw / 2]`).
    #[inline(always)]
    pub(super) fn legacy_table(self) -> Option<&'static [super::Tag]> {
        match self {
            TagScheme::Classical0113 => Some(&super::tag::TAGS_0_11_3),
            TagScheme::Classical0100 => Some(&super::tag::TAGS_0_10_0),
            TagScheme::Classical0610 => Some(&super::tag::TAGS_0_6_10),
            _ => None,
        }
    }

    /// Whether every array, Bits and blob sort shares one tag (classical moc < 0.13): the
    /// sort of such an object is known only from the value's type.
    #[inline]
    pub fn sorts_untagged(self) -> bool {
        self.legacy_table().is_some()
    }

    /// The word size in bits.
    #[inline]
    pub fn word_bits(self) -> u32 {
        match self {
            TagScheme::Eop016 | TagScheme::Eop013 => 64,
            _ => 32,
        }
    }
}

/// The parameters of a heap's layout.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct Layout {
    /// EOP or classical.
    pub persistence: Persistence,
    /// The GC.
    pub gc: GcKind,
    /// Word size.
    #[serde(skip)]
    pub word: WordSize,
    /// Object header size in bytes (16, 8 or 4).
    pub header: u64,
    /// Tag numbering.
    pub tags: TagScheme,
    /// Whether scalars carry type tags.
    pub rtti: bool,
    /// Dynamic heap start.
    pub heap_base: u64,
    /// Partition size (EOP 64 MiB; classical incremental 32 MiB; 0 if not partitioned).
    pub partition_size: u64,
}

impl Layout {
    /// Whether objects have a forwarding word (incremental GC).
    #[inline]
    pub fn has_forwarding(&self) -> bool {
        self.header == 2 * self.word.bytes()
    }

    /// How scalars are encoded in this layout: the tag numbering of moc 0.6.10-0.9.8 is
    /// always before `ubits` and rtti (0.11.0; a module of it that looks tagged is refused);
    /// the 0.10.x releases sharing the next numbering are refused by the module
    /// ([`crate::module::Compiler::refusal`]).
    pub fn scalars(&self) -> ScalarCoding {
        match (self.persistence, self.rtti, self.tags) {
            (Persistence::Enhanced, _, _) => ScalarCoding::Eop,
            (Persistence::Classical, _, TagScheme::Classical0610) => {
                ScalarCoding::ClassicalPreUbits
            }
            (Persistence::Classical, true, _) => ScalarCoding::ClassicalRtti,
            (Persistence::Classical, false, _) => ScalarCoding::Classical,
        }
    }
}

/// One partition-table entry of the incremental GC.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct PartitionInfo {
    /// Partition index.
    pub index: u64,
    /// Free partition (may hold stale data).
    pub free: bool,
    /// Holds (the start or a continuation of) a large object.
    pub large_content: bool,
    /// Bytes marked by the GC.
    pub marked_size: u64,
    /// Bytes of static space at the partition start.
    pub static_size: u64,
    /// Bytes of objects after the static space.
    pub dynamic_size: u64,
    /// Holds mark bitmaps, not objects.
    pub temporary: bool,
    /// Being evacuated by a running GC.
    pub evacuate: bool,
    /// Being updated by a running GC.
    pub update: bool,
}

/// A range of the heap that is walked linearly and must end exactly at `end`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct HeapRange {
    /// First block address.
    pub start: u64,
    /// End address (exclusive); the walk must end exactly here.
    pub end: u64,
    /// The partition this range belongs to (incremental GC).
    pub partition: Option<PartitionInfo>,
    /// The range holds exactly one large object (spanning several partitions).
    pub large_object: bool,
}
