//! The Motoko heap: layouts, the linear walk, objects, stable variables, types and values.
//!
//! [`Heap::open`] takes a [`Snapshot`](crate::snapshot::Snapshot), reads the module's facts,
//! detects and validates the layout (EOP metadata and partition tables, or the classical heap
//! extent), and then offers typed [`Object`] views, forwarding resolution, the linear
//! [`Walk`] over every heap range, the GC roots and the stable variables by name.

mod classical;
pub mod collections;
pub mod eop;
mod error;
mod layout;
pub mod names;
mod object;
mod open;
mod partitions;
mod refs;
pub mod render;
mod roots;
pub mod scalar;
mod stable_vars;
mod tag;
pub mod types;
pub mod value;
mod walk;
mod walk_quick;

#[cfg(test)]
mod synth_tests;

pub use error::{HeapError, ObjectError};
pub use layout::{HeapRange, Layout, PartitionInfo, TagScheme};
pub use object::{Body, Hashes, Object, ReferenceSlots, Words};
pub use open::Heap;
pub use refs::ReferenceRun;
pub use roots::{Root, RootKind};
pub use scalar::ScalarCoding;
pub use stable_vars::{StableVarRoot, StableVarSlot};
pub use tag::{ArraySort, BitsSort, BlobSort, Tag};
pub(crate) use walk::resume_candidate;
pub use walk::{Block, BlockKind, Walk, WalkError};

/// The EOP null sentinel `0xFFFF_FFFF_FFFF_FFFB` (the Motoko value `null`, "no object").
pub const EOP_NULL: u64 = 0xFFFF_FFFF_FFFF_FFFB;
