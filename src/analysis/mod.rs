//! Analyses over a decoded heap: statistics, reference graph, dominators, diffs.

pub mod dominators;
pub mod graph;
pub mod retained;
pub mod stats;

#[cfg(test)]
mod dominators_tests;
