//! The diff as JSON, one shape for every front-end: `mo-mem diff --json` prints
//! [`DiffJson`]; the mount's `diff/OLD..NEW/` holds its parts (`summary.json` is
//! [`SummaryJson`], `vars.json` and `types.json` its lists).

use serde::Serialize;

use super::collections::CollectionDiff;
use super::figures::Space;
use super::inner::InnerCollection;
use super::row::delta;
pub use super::row::JsonSide;
use super::suspects::Suspect;
use super::types::TypeDiff;
use super::values::ValueChange;
use super::vars::VarDiff;
use super::waste::{grown_waste, WasteGrowth};
use super::SnapshotDiff;

/// One variable's diff.
#[derive(Debug, Clone, Serialize)]
pub struct JsonVarDiff {
    name: String,
    old: Option<JsonSide>,
    new: Option<JsonSide>,
    reachable_bytes_delta: i64,
    retained_bytes_delta: i64,
    /// `true`, `false`, or `null` when not compared.
    changed: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    changed_at: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    not_compared: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    collection: Option<CollectionDiff>,
    #[serde(skip_serializing_if = "Option::is_none")]
    collection_error: Option<String>,
    /// The collections inside a record or tuple that changed, by path.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    inner_collections: Vec<InnerCollection>,
}

impl From<&VarDiff> for JsonVarDiff {
    fn from(v: &VarDiff) -> Self {
        let row = v.row();
        let (changed_at, not_compared) = match &v.value {
            Some(ValueChange::Changed { at }) => (Some(at.clone()), None),
            Some(ValueChange::Unknown(e)) => (None, Some(e.to_string())),
            _ => (None, None),
        };
        let (collection, collection_error) = match &v.collection {
            Some(Ok(c)) => (Some(c.clone()), None),
            Some(Err(e)) => (None, Some(e.to_string())),
            None => (None, None),
        };
        JsonVarDiff {
            name: v.name.clone(),
            old: row.old,
            new: row.new,
            reachable_bytes_delta: row.bytes_delta(),
            retained_bytes_delta: row.retained_delta(),
            changed: v.value.as_ref().and_then(ValueChange::changed),
            changed_at,
            not_compared,
            collection,
            collection_error,
            inner_collections: v.inner.clone(),
        }
    }
}

/// One type's diff.
#[derive(Debug, Clone, Serialize)]
pub struct JsonTypeDiff {
    #[serde(rename = "type")]
    name: String,
    typed: bool,
    old: Option<JsonSide>,
    new: Option<JsonSide>,
    objects_delta: i64,
    bytes_delta: i64,
    retained_bytes_delta: i64,
}

impl From<&TypeDiff> for JsonTypeDiff {
    fn from(t: &TypeDiff) -> Self {
        let row = t.row();
        JsonTypeDiff {
            name: t.name.clone(),
            typed: t.typed,
            old: row.old,
            new: row.new,
            objects_delta: row.objects_delta(),
            bytes_delta: row.bytes_delta(),
            retained_bytes_delta: row.retained_delta(),
        }
    }
}

/// Bytes after minus before, per kind of space.
#[derive(Debug, Clone, Serialize)]
pub struct JsonSpaceDelta {
    live_bytes: i64,
    garbage_bytes: i64,
    free_bytes: i64,
    unused_bytes: i64,
    heap_bytes: i64,
}

/// The counts of variables by how their values compare.
#[derive(Debug, Clone, Default, Serialize)]
pub struct JsonValueCounts {
    changed: u64,
    same: u64,
    not_compared: u64,
    only_old: u64,
    only_new: u64,
}

/// `summary.json`: the space before and after, the growth suspects, the variables' counts,
/// the `mo-mem doctor` findings whose saving grew.
#[derive(Debug, Clone, Serialize)]
pub struct SummaryJson {
    old: Space,
    new: Space,
    delta: JsonSpaceDelta,
    suspects: Vec<Suspect>,
    values: JsonValueCounts,
    waste_grew: Vec<WasteGrowth>,
}

/// The whole answer of `mo-mem diff --json`.
#[derive(Debug, Clone, Serialize)]
pub struct DiffJson {
    #[serde(flatten)]
    summary: SummaryJson,
    vars: Vec<JsonVarDiff>,
    types: Vec<JsonTypeDiff>,
}

impl SummaryJson {
    /// The summary of `d`.
    pub fn new(d: &SnapshotDiff) -> SummaryJson {
        let (o, n) = (&d.old.space, &d.new.space);
        let dl = |a: u64, b: u64| delta(Some(a), Some(b));
        let mut values = JsonValueCounts::default();
        for v in &d.vars {
            match (&v.old, &v.new, v.value.as_ref().map(ValueChange::changed)) {
                (None, _, _) => values.only_new += 1,
                (_, None, _) => values.only_old += 1,
                (_, _, Some(Some(true))) => values.changed += 1,
                (_, _, Some(Some(false))) => values.same += 1,
                _ => values.not_compared += 1,
            }
        }
        SummaryJson {
            old: *o,
            new: *n,
            delta: JsonSpaceDelta {
                live_bytes: dl(o.live.bytes, n.live.bytes),
                garbage_bytes: dl(o.garbage.bytes, n.garbage.bytes),
                free_bytes: dl(o.free.bytes, n.free.bytes),
                unused_bytes: dl(o.unused_bytes, n.unused_bytes),
                heap_bytes: dl(o.heap_bytes, n.heap_bytes),
            },
            suspects: d.suspects.clone(),
            values,
            waste_grew: grown_waste(&d.old, &d.new),
        }
    }
}

/// `vars.json`: every variable's diff, in name order.
pub fn vars_json(d: &SnapshotDiff) -> Vec<JsonVarDiff> {
    d.vars.iter().map(JsonVarDiff::from).collect()
}

/// `types.json`: every type's diff, most grown first.
pub fn types_json(d: &SnapshotDiff) -> Vec<JsonTypeDiff> {
    d.types.iter().map(JsonTypeDiff::from).collect()
}

impl DiffJson {
    /// The whole diff `d`.
    pub fn new(d: &SnapshotDiff) -> DiffJson {
        DiffJson {
            summary: SummaryJson::new(d),
            vars: vars_json(d),
            types: types_json(d),
        }
    }
}
