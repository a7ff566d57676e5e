//! The JSON of `mo-mem retained --json`, one shape for every front-end: the command prints
//! it, the mount's `analysis/retained.json` (and `types.json`, `top.json`, `garbage.json`,
//! its parts) is it.

use serde::Serialize;

use super::cached::{HeapAnalysis, TypeRow};
use super::graph::Skipped;
use super::retained::{RootRetention, VarRetention};
use super::OpenedHeap;

/// How many retainers (and types) `mo-mem retained` lists by default.
pub const DEFAULT_TOP: usize = 20;

/// One stable variable.
#[derive(Debug, Clone, Serialize)]
pub struct JsonVar {
    name: String,
    address: Option<String>,
    reachable_objects: u64,
    reachable_bytes: u64,
    retained_objects: u64,
    retained_bytes: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<String>,
}

impl From<&VarRetention> for JsonVar {
    fn from(v: &VarRetention) -> Self {
        JsonVar {
            name: v.name.clone(),
            address: v.address.map(|a| format!("{a:#x}")),
            reachable_objects: v.reachable.objects,
            reachable_bytes: v.reachable.bytes,
            retained_objects: v.retained.objects,
            retained_bytes: v.retained.bytes,
            error: v.error.clone(),
        }
    }
}

/// One large retainer, with its path from a root.
#[derive(Debug, Clone, Serialize)]
pub struct JsonTop {
    address: String,
    tag: &'static str,
    /// Its Motoko type (its tag if no type reaches it).
    #[serde(rename = "type")]
    ty: String,
    size: u64,
    retained_objects: u64,
    retained_bytes: u64,
    path: Option<String>,
}

/// What one root kind retains.
#[derive(Debug, Clone, Serialize)]
pub struct JsonRoot {
    kind: &'static str,
    roots: u64,
    objects: u64,
    bytes: u64,
}

impl From<&RootRetention> for JsonRoot {
    fn from(r: &RootRetention) -> Self {
        JsonRoot {
            kind: r.kind,
            roots: r.roots,
            objects: r.retained.objects,
            bytes: r.retained.bytes,
        }
    }
}

/// One Motoko type (or the heap tag of objects no type reaches: `typed` is false).
#[derive(Debug, Clone, Serialize)]
pub struct JsonType {
    #[serde(rename = "type")]
    name: String,
    typed: bool,
    objects: u64,
    bytes: u64,
    retained_objects: u64,
    retained_bytes: u64,
}

impl From<&TypeRow> for JsonType {
    fn from(t: &TypeRow) -> Self {
        JsonType {
            name: t.name.clone(),
            typed: t.typed,
            objects: t.shallow.objects,
            bytes: t.shallow.bytes,
            retained_objects: t.retained.objects,
            retained_bytes: t.retained.bytes,
        }
    }
}

/// Objects and bytes.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct JsonCount {
    objects: u64,
    bytes: u64,
}

impl From<super::stats::Count> for JsonCount {
    fn from(c: super::stats::Count) -> Self {
        JsonCount {
            objects: c.objects,
            bytes: c.bytes,
        }
    }
}

/// The whole answer of `mo-mem retained --json`.
#[derive(Debug, Clone, Serialize)]
pub struct RetainedJson {
    vars: Vec<JsonVar>,
    top: Vec<JsonTop>,
    roots: Vec<JsonRoot>,
    types: Vec<JsonType>,
    live: JsonCount,
    garbage: JsonCount,
    stale_copies: JsonCount,
    skipped_references: Skipped,
    #[serde(skip_serializing_if = "Option::is_none")]
    vars_error: Option<String>,
    errors: Vec<String>,
}

/// The `top` largest retainers of `a`, each with its path.
pub fn top_json(opened: &OpenedHeap, a: &HeapAnalysis, top: usize) -> Vec<JsonTop> {
    a.top(opened.heap(), top)
        .into_iter()
        .map(|r| JsonTop {
            address: format!("{:#x}", r.address),
            tag: r.tag,
            ty: a.type_of(opened, r.node),
            size: r.size,
            retained_objects: r.retained.objects,
            retained_bytes: r.retained.bytes,
            path: a.path_text(opened, r.node),
        })
        .collect()
}

/// Every type of `a`, largest retained first (at most `top` if given).
pub fn types_json(opened: &OpenedHeap, a: &HeapAnalysis, top: Option<usize>) -> Vec<JsonType> {
    let rows = a.types(opened);
    rows.iter()
        .take(top.unwrap_or(rows.len()))
        .map(JsonType::from)
        .collect()
}

/// The garbage awaiting collection.
pub fn garbage_json(a: &HeapAnalysis) -> JsonCount {
    a.garbage().into()
}

impl RetainedJson {
    /// The answer for `opened`: the `top` largest retainers and types.
    pub fn new(opened: &OpenedHeap, a: &HeapAnalysis, top: usize) -> RetainedJson {
        let g = a.graph();
        RetainedJson {
            vars: a.vars().iter().map(JsonVar::from).collect(),
            top: top_json(opened, a, top),
            roots: a.roots().iter().map(JsonRoot::from).collect(),
            types: types_json(opened, a, Some(top)),
            live: a.live().into(),
            garbage: garbage_json(a),
            stale_copies: g.stale().into(),
            skipped_references: g.skipped(),
            vars_error: g.vars_error().map(str::to_string),
            errors: g.errors().to_vec(),
        }
    }
}
