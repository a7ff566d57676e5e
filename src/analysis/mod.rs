//! Analyses over a decoded heap: the opened heap, statistics, the info report, the reference
//! graph, dominators and retained sizes, Motoko types of objects, paths to roots, the memory
//! report.

pub mod cached;
pub mod child_ranges;
pub mod concurrent;
pub mod diff;
pub mod doctor;
pub mod dominators;
pub mod export;
pub mod fifo;
pub mod flame;
pub mod graph;
pub mod html;
pub mod info;
pub mod json;
pub mod narrow;
pub mod node_index;
pub mod offsets;
pub mod opened;
pub mod path;
pub mod persist;
pub mod pod;
pub mod progress;
pub mod rank_bits;
pub mod report;
pub mod retained;
pub mod retained_json;
pub mod retained_text;
pub mod spill;
pub mod stable_compat;
pub mod stats;
pub mod step;
pub mod type_changes;
pub mod types;
pub mod upgrade;
pub mod upgrade_unchanged;

#[cfg(test)]
mod chain_tests;
#[cfg(test)]
mod dominators_tests;

pub use crate::heap::types::LabelMap;
pub use cached::HeapAnalysis;
pub use opened::{AnalysisStore, OpenError, OpenedHeap};
