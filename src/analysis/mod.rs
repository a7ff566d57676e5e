//! Analyses over a decoded heap: statistics, reference graph, dominators, diffs.

pub mod stats;
