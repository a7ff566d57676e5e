//! Node addresses for a pass in node order ([`AddressWindow`]): the addresses of the nodes
//! around the pass's position, read in order from the graph's index, so the objects the fold
//! meets near it (an object, its dominator a few nodes on) need no select in the index.

use super::super::graph::HeapGraph;

/// Nodes whose addresses are kept ahead of the pass (and as many behind it).
const HALF: usize = 4096;

/// The addresses of the nodes `lo..lo + buf.len()`, refilled as the pass moves on.
pub(super) struct AddressWindow<'g, I> {
    graph: &'g HeapGraph,
    /// The graph's addresses after the window.
    rest: I,
    lo: u32,
    buf: Vec<u64>,
}

impl<'g> AddressWindow<'g, ()> {
    /// A window at node 0 of `graph`.
    pub(super) fn new(graph: &'g HeapGraph) -> AddressWindow<'g, impl Iterator<Item = u64> + 'g> {
        let mut rest = graph.addresses();
        let buf = rest.by_ref().take(2 * HALF).collect();
        AddressWindow {
            graph,
            rest,
            lo: 0,
            buf,
        }
    }
}

impl<I: Iterator<Item = u64>> AddressWindow<'_, I> {
    /// Moves the window so that it holds node `pos` and the nodes up to [`HALF`] after it
    /// (call with a position that never decreases).
    #[inline]
    pub(super) fn advance(&mut self, pos: u32) {
        if (pos as usize) < self.lo as usize + HALF || self.buf.len() < 2 * HALF {
            return;
        }
        self.buf.drain(..HALF);
        self.lo += HALF as u32;
        self.buf.extend(self.rest.by_ref().take(HALF));
    }

    /// The address of node `n`.
    #[inline]
    pub(super) fn get(&self, n: u32) -> u64 {
        match self.buf.get(n.wrapping_sub(self.lo) as usize) {
            Some(&a) => a,
            None => self.graph.address(n),
        }
    }
}
