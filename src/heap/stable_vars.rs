//! Stable variables by name (spec 3.7).

use crate::module::{Persistence, SlotLocation};

use super::names::{label_hash, stable_var_names};
use super::{eop, Body, Heap, HeapError};

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
pub(crate) fn stable_vars(heap: &Heap) -> Result<Vec<StableVarRoot>, HeapError> {
    let module = heap
        .module()
        .ok_or_else(|| HeapError::Missing("stable variable names need the Wasm module".into()))?;
    let sig = module.stable_types.as_deref().ok_or_else(|| {
        HeapError::Missing("the module has no motoko:stable-types section".into())
    })?;
    let names = stable_var_names(sig)
        .ok_or_else(|| HeapError::Layout("no `actor { ... }` in the stable signature".into()))?;
    let mut named: Vec<(u32, String)> = names.into_iter().map(|n| (label_hash(&n), n)).collect();
    named.sort();
    named.dedup();

    if heap.layout().persistence == Persistence::Enhanced {
        let actor = heap.image().read_u64(eop::STABLE_ACTOR)?;
        if heap.is_pointer(actor) {
            return from_stable_actor(heap, actor, named);
        }
    }
    if module.stable_slots.len() != named.len() {
        return Err(HeapError::Layout(format!(
            "the stable signature names {} variables but @get_actor_to_persist stores {}",
            named.len(),
            module.stable_slots.len()
        )));
    }
    let pool = match module.statics.static_variables {
        Some(addr) if heap.layout().persistence == Persistence::Enhanced => {
            let word = heap.image().read_word(addr)?;
            Some(heap.object_of(word)?)
        }
        _ => None,
    };
    let mut out = Vec::with_capacity(named.len());
    for ((hash, name), slot) in named.into_iter().zip(&module.stable_slots) {
        let mutbox = match slot.location {
            SlotLocation::PoolSlot(k) => {
                let elems = match pool.map(|p| p.body) {
                    Some(Body::Array { elems, .. }) => elems,
                    _ => {
                        return Err(HeapError::Layout(
                            "the static-variables array is missing or not an array".into(),
                        ))
                    }
                };
                let word = elems.get(k).ok_or_else(|| {
                    HeapError::Layout(format!(
                        "stable variable {name}: pool slot {k} is beyond the static-variables array ({} slots)",
                        elems.len()
                    ))
                })?;
                let addr = heap.pointer(word).ok_or_else(|| {
                    HeapError::Layout(format!(
                        "stable variable {name}: pool slot {k} holds {word:#x}, not a MutBox pointer"
                    ))
                })?;
                heap.resolve(addr)?
            }
            SlotLocation::StaticMutBox(addr) => heap.resolve(addr)?,
        };
        out.push(StableVarRoot {
            name,
            hash,
            slot: StableVarSlot::MutBox(mutbox),
        });
    }
    Ok(out)
}

/// Stable variables from the EOP `stable_actor` record (between pre_upgrade and post_upgrade).
fn from_stable_actor(
    heap: &Heap,
    actor: u64,
    named: Vec<(u32, String)>,
) -> Result<Vec<StableVarRoot>, HeapError> {
    let obj = heap.object_of(actor)?;
    let Body::Object { hashes, fields, .. } = obj.body else {
        return Err(HeapError::Layout(format!(
            "stable_actor points to a {}, not an Object",
            obj.tag.name()
        )));
    };
    let mut out = Vec::with_capacity(named.len());
    for (hash, name) in named {
        let word = hashes
            .position(hash)
            .and_then(|i| fields.get(i as u64))
            .ok_or_else(|| {
                HeapError::Layout(format!("stable_actor has no field {name} (hash {hash})"))
            })?;
        out.push(StableVarRoot {
            slot: StableVarSlot::Value(unwrap_stable_field(heap, word, &name)?),
            name,
            hash,
        });
    }
    Ok(out)
}

/// The value of one `stable_actor` field. moc builds the upgrade record with every field of
/// type `?T` (a variable may be absent), so a field holds `?v`: `v` itself, except when `v` is
/// `null` or a Some box, which get one more Some box (seen on a real image: `null` became
/// `Some(null)`, `?null` became `Some(Some(null))`). Unwraps that one level.
fn unwrap_stable_field(heap: &Heap, word: u64, name: &str) -> Result<u64, HeapError> {
    if heap.is_null(word)? {
        return Err(HeapError::Layout(format!(
            "stable_actor field {name} is null (the variable is absent from the upgrade record)"
        )));
    }
    if heap.is_pointer(word) {
        let obj = heap.object_of(word)?;
        if let Body::Some { value } = obj.body {
            return Ok(value);
        }
    }
    Ok(word)
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
