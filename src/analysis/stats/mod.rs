//! Heap statistics: what is counted ([`counts`]) and the walk that counts it, on one thread
//! or several ([`walk`]).

mod counts;
mod walk;

pub(crate) use counts::is_free;
pub use counts::{block_name, Count, HeapStats, RangeStats};
pub(crate) use walk::resolve_threads;
pub use walk::{heap_stats, heap_stats_threads, heap_stats_with, BlockVisitor, NoVisitor};
