//! Every node's address by node number for the export, which asks for one per object, per
//! dominator and per edge end: a table of each node's word offset from the first node (4
//! bytes per node, filled in one pass over the graph's index) instead of a select in the
//! index per look-up. A heap whose nodes span more than 2^32 words keeps the select.

use super::super::graph::HeapGraph;

/// The nodes' addresses of one graph.
pub struct Addresses<'g> {
    graph: &'g HeapGraph,
    first: u64,
    /// Word offsets from `first`, by node (empty: ask the graph).
    words: Vec<u32>,
}

impl<'g> Addresses<'g> {
    /// The table of `graph`'s nodes.
    pub fn new(graph: &'g HeapGraph) -> Addresses<'g> {
        let shift = graph.word_shift();
        let first = graph.addresses().next().unwrap_or(0) >> shift;
        let mut words = Vec::with_capacity(graph.nodes());
        for addr in graph.addresses() {
            match u32::try_from((addr >> shift) - first) {
                Ok(w) => words.push(w),
                Err(_) => {
                    words = Vec::new();
                    break;
                }
            }
        }
        Addresses {
            graph,
            first,
            words,
        }
    }

    /// The address of node `n` (a node of the graph).
    #[inline]
    pub fn get(&self, n: u32) -> u64 {
        match self.words.get(n as usize) {
            Some(&w) => (self.first + w as u64) << self.graph.word_shift(),
            None => self.graph.address(n),
        }
    }
}
