//! `heap.typeOf(addr)`: the Motoko type of an object, from a type-directed walk of the
//! stable variables ([`TypeLabels`]) made on the session's first call and kept.

use std::cell::OnceCell;

use super::host::HostError;
use crate::analysis::graph::HeapGraph;
use crate::analysis::types::TypeLabels;
use crate::analysis::OpenedHeap;

/// The graph and type labels of one heap, computed on first use.
#[derive(Default)]
pub struct TypeCache {
    labels: OnceCell<(HeapGraph, TypeLabels)>,
}

impl TypeCache {
    /// The type label of the object at `addr` (forwarding followed): its Motoko type if the
    /// walk from the stable variables reached it, else its heap tag (`"Blob B"`); `None` if
    /// no object starts there. The second value is the work done (objects walked on the
    /// first call, else 1).
    pub fn type_of(&self, ctx: &OpenedHeap, addr: u64) -> Result<(Option<String>, u64), HostError> {
        let heap = ctx.heap();
        let mut work = 1;
        if self.labels.get().is_none() {
            let graph =
                HeapGraph::build(heap).map_err(|e| HostError(format!("heap.typeOf: {e}")))?;
            let labels = TypeLabels::compute(heap, &graph, ctx.signature().ok());
            work = graph.nodes() as u64 + graph.edges().edges() as u64;
            let _ = self.labels.set((graph, labels));
        }
        let Some((graph, labels)) = self.labels.get() else {
            return Ok((None, work));
        };
        let addr = heap.resolve(addr).unwrap_or(addr);
        if let Some(label) = graph.node_at(addr).and_then(|n| labels.label(n)) {
            return Ok((Some(label.to_string()), work));
        }
        match heap.object(addr) {
            Ok(o) if o.tag.is_object() => Ok((Some(o.tag.name().to_string()), work)),
            _ => Ok((None, work)),
        }
    }
}
