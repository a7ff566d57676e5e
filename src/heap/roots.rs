//! The GC roots of a heap (spec 3.5).

use crate::module::Persistence;

use super::{eop, Heap, HeapError};

/// Which root a word comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum RootKind {
    /// EOP: the static-variables (pool) array.
    StaticVariables,
    /// Classical: the static-roots array.
    StaticRoots,
    /// The continuation table.
    ContinuationTable,
    /// EOP metadata: the stable actor during an upgrade.
    StableActor,
    /// EOP metadata: the stable type descriptor's candid data.
    CandidData,
    /// EOP metadata: the stable type descriptor's type offsets.
    TypeOffsets,
    /// The region-0 object.
    Region0,
    /// EOP metadata: the dedup table.
    DedupTable,
}

/// One root: where it comes from and its word (a pointer, or a scalar meaning "none").
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct Root {
    /// Which root.
    pub kind: RootKind,
    /// The stored word.
    pub word: u64,
}

/// Reads all roots that are known for this heap.
pub(crate) fn roots(heap: &Heap) -> Result<Vec<Root>, HeapError> {
    let image = heap.image();
    let mut out = Vec::new();
    let statics = heap.module().map(|m| m.statics.clone()).unwrap_or_default();
    let mut push_static = |kind, addr: Option<u64>| -> Result<(), HeapError> {
        if let Some(a) = addr {
            out.push(Root {
                kind,
                word: image.read_word(a)?,
            });
        }
        Ok(())
    };
    match heap.layout().persistence {
        Persistence::Enhanced => {
            push_static(RootKind::StaticVariables, statics.static_variables)?;
            push_static(RootKind::ContinuationTable, statics.continuation_table)?;
            push_static(RootKind::Region0, statics.region0)?;
            push_static(RootKind::StableActor, Some(eop::STABLE_ACTOR))?;
            push_static(RootKind::CandidData, Some(eop::CANDID_DATA))?;
            push_static(RootKind::TypeOffsets, Some(eop::TYPE_OFFSETS))?;
            push_static(RootKind::DedupTable, Some(eop::DEDUP_TABLE))?;
        }
        Persistence::Classical => {
            push_static(RootKind::ContinuationTable, statics.continuation_table)?;
            push_static(RootKind::Region0, statics.region0)?;
            if let Some(w) = statics.static_roots {
                out.push(Root {
                    kind: RootKind::StaticRoots,
                    word: w,
                });
            }
        }
    }
    Ok(out)
}
