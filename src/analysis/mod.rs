//! Analyses over a decoded heap: the opened heap, statistics, the info report, the reference
//! graph, dominators and retained sizes.

pub mod dominators;
pub mod graph;
pub mod info;
pub mod node_index;
pub mod opened;
pub mod path;
pub mod retained;
pub mod stats;

#[cfg(test)]
mod chain_tests;
#[cfg(test)]
mod dominators_tests;

pub use opened::{LabelMap, OpenError, OpenedHeap};
