//! Analyses over a decoded heap: statistics, reference graph, dominators, diffs.

pub mod info;
pub mod opened;
pub mod stats;

pub use opened::{LabelMap, OpenError, OpenedHeap};
