//! The stable-variable slot map from `@get_actor_to_persist` (moc >= 0.13) or `pre_exp`
//! (classical moc < 0.13) (spec 3.7).
//!
//! The function reads each stable variable's MutBox (EOP: `i64.const K; call
//! get_static_variable`; classical: `i32.const <skewed MutBox>; i32.load`), keeps the value in
//! a local, allocates the stable record and stores each local into field `i` at offset
//! `base + i·W`. Following the locals from the slot to the store gives field `i` -> slot.

use std::collections::HashMap;

use wasmparser::{FunctionBody, Operator};

use super::code::ops;
use super::raw::RawModule;
use super::{GcKind, ModuleError, Persistence, SlotLocation, StableSlot};

/// Most stable variables accepted.
const MAX_SLOTS: usize = 1 << 16;

/// The classical tag of a record (`TAG_OBJECT`, 1 in every release).
const TAG_OBJECT: u64 = 1;

/// Reads field position -> pool slot / static MutBox from `@get_actor_to_persist` (or, with
/// `last_record`, from moc < 0.13's `pre_exp`: there the user's `preupgrade` runs first and
/// may build records of its own, so only the stores into the last record allocated count:
/// a classical record's header store, `i32.const 1; i32.store offset=1`, starts over).
pub(crate) fn stable_slots(
    raw: &RawModule<'_>,
    body: &FunctionBody<'_>,
    persistence: Persistence,
    gc: GcKind,
    last_record: bool,
) -> Result<Vec<StableSlot>, ModuleError> {
    let get_static_variable = raw.func_named("get_static_variable");
    let (base, word) = match (persistence, gc) {
        (Persistence::Enhanced, _) => (25u64, 8u64),
        (Persistence::Classical, GcKind::Incremental) => (17, 4),
        (Persistence::Classical, _) => (13, 4),
    };
    let mut pending: Option<SlotLocation> = None;
    let mut last_const: Option<u64> = None;
    let mut local_slot: HashMap<u32, SlotLocation> = HashMap::new();
    let mut last_get: Option<u32> = None;
    let mut prev_get: Option<u32> = None;
    let mut fields: HashMap<u32, SlotLocation> = HashMap::new();
    for op in ops(body) {
        let mut this_get = None;
        match op {
            Operator::I64Const { value } => last_const = Some(value as u64),
            Operator::I32Const { value } => last_const = Some(u64::from(value as u32)),
            Operator::Call { function_index }
                if Some(function_index) == get_static_variable
                    && persistence == Persistence::Enhanced =>
            {
                if let Some(k) = last_const {
                    pending = Some(SlotLocation::PoolSlot(k));
                }
            }
            Operator::I32Load { .. } if persistence == Persistence::Classical => {
                if let Some(k) = last_const {
                    pending = Some(SlotLocation::StaticMutBox(k.wrapping_add(1)));
                }
            }
            Operator::LocalSet { local_index } | Operator::LocalTee { local_index } => {
                if let Some(p) = pending {
                    local_slot.insert(local_index, p);
                }
                if matches!(op, Operator::LocalTee { .. }) {
                    this_get = Some(local_index);
                }
            }
            Operator::LocalGet { local_index } => this_get = Some(local_index),
            Operator::I32Store { memarg }
                if last_record && memarg.offset == 1 && last_const == Some(TAG_OBJECT) =>
            {
                fields.clear();
            }
            Operator::I64Store { memarg } | Operator::I32Store { memarg } => {
                let off = memarg.offset;
                if off >= base && (off - base) % word == 0 {
                    // Stack: [record, value]: the value is the last `local.get`.
                    if let (Some(src), Some(_)) = (last_get, prev_get) {
                        if let Some(&slot) = local_slot.get(&src) {
                            let i = u32::try_from((off - base) / word).unwrap_or(u32::MAX);
                            fields.insert(i, slot);
                        }
                    }
                }
            }
            _ => {}
        }
        if !matches!(op, Operator::I64Const { .. } | Operator::I32Const { .. }) {
            last_const = None;
        }
        if let Some(g) = this_get {
            prev_get = last_get;
            last_get = Some(g);
        } else if !matches!(op, Operator::LocalGet { .. }) {
            prev_get = None;
            last_get = None;
        }
        if fields.len() > MAX_SLOTS {
            return Err(ModuleError::NotMotoko {
                missing: "too many stable variables in @get_actor_to_persist".into(),
            });
        }
    }
    let mut out: Vec<StableSlot> = fields
        .into_iter()
        .map(|(field, location)| StableSlot { field, location })
        .collect();
    out.sort_by_key(|s| s.field);
    if out.iter().enumerate().any(|(i, s)| s.field as usize != i) {
        return Err(ModuleError::NotMotoko {
            missing: format!(
                "{}: stable record field positions are not contiguous ({:?})",
                if last_record {
                    "pre_exp"
                } else {
                    "@get_actor_to_persist"
                },
                out.iter().map(|s| s.field).collect::<Vec<_>>()
            ),
        });
    }
    Ok(out)
}
