//! Stable variables by name (spec 3.7).

use super::{Heap, HeapError};

/// Where a stable variable's value is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub enum StableVarSlot {
    /// The address of the variable's MutBox (resolved); the value is its content.
    MutBox(u64),
    /// The value word itself (EOP `stable_actor` during an upgrade).
    Value(u64),
}

/// One stable variable: its name, label hash and where its value is.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct StableVarRoot {
    /// The variable name from the stable signature.
    pub name: String,
    /// Its Motoko label hash.
    pub hash: u32,
    /// Where its value is.
    pub slot: StableVarSlot,
}

/// The stable variables, sorted by hash.
pub(crate) fn stable_vars(_heap: &Heap) -> Result<Vec<StableVarRoot>, HeapError> {
    Err(HeapError::Missing(
        "stable variables: not implemented yet".into(),
    ))
}

/// The value word of a stable variable.
pub(crate) fn value_word(heap: &Heap, var: &StableVarRoot) -> Result<u64, HeapError> {
    match var.slot {
        StableVarSlot::Value(w) => Ok(w),
        StableVarSlot::MutBox(addr) => {
            let obj = heap.object(heap.resolve(addr)?)?;
            match obj.body {
                super::Body::MutBox { value } => Ok(value),
                _ => Err(HeapError::Layout(format!(
                    "stable variable {} at {addr:#x} is a {}, not a MutBox",
                    var.name,
                    obj.tag.name()
                ))),
            }
        }
    }
}
