//! Analyses over a decoded heap: the opened heap, statistics, the info report, the reference
//! graph, dominators and retained sizes, Motoko types of objects, paths to roots.

pub mod dominators;
pub mod graph;
pub mod info;
pub mod opened;
pub mod path;
pub mod retained;
pub mod stats;
pub mod types;

#[cfg(test)]
mod dominators_tests;

pub use opened::{LabelMap, OpenError, OpenedHeap};
