//! Collections inside a variable's value: a record or tuple holding collections (`let state =
//! {users : Map<...>; log : List<...>}`) is compared collection by collection, as a collection
//! variable is. The paths come from the variable's static type (through records and tuples
//! only, whose shape the type fixes), so both snapshots are read at the same places and
//! nothing is searched.

use std::sync::Arc;

use serde::Serialize;

use crate::heap::collections::recognize;
use crate::heap::types::{ObjSort, Type};
use crate::heap::value::{Decoder, LazyValue};

use super::collections::{compare_collections, CollectionDiff, CollectionError, CollectionLimits};

/// The most collections compared inside one variable.
pub const MAX_INNER: usize = 64;

/// The deepest a collection is looked for (records and tuples nested this deep).
pub const MAX_DEPTH: usize = 16;

/// One step of a path inside a value.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Step {
    /// A record field, by label.
    Field(Arc<str>),
    /// A tuple's component.
    Index(u64),
}

/// A collection inside a variable's value, compared.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct InnerCollection {
    /// Where it is in the value: `.index`, `.0`, `.config.users`.
    pub path: String,
    /// Its keys added, removed and changed, or why they were not compared.
    #[serde(flatten, serialize_with = "serialize_outcome")]
    pub diff: Result<CollectionDiff, CollectionError>,
}

fn serialize_outcome<S: serde::Serializer>(
    diff: &Result<CollectionDiff, CollectionError>,
    s: S,
) -> Result<S::Ok, S::Error> {
    #[derive(Serialize)]
    struct Failed {
        error: String,
    }
    match diff {
        Ok(d) => d.serialize(s),
        Err(e) => Failed {
            error: e.to_string(),
        }
        .serialize(s),
    }
}

/// The collections inside `old` and `new` (two versions of one variable whose value is not
/// itself a collection) that differ, the shallowest first and in the type's field order: at
/// most [`MAX_INNER`], found from `new`'s type through records and tuples to [`MAX_DEPTH`].
pub fn compare_inner(
    old_dec: &mut Decoder<'_>,
    old: &LazyValue,
    new_dec: &mut Decoder<'_>,
    new: &LazyValue,
    limits: CollectionLimits,
) -> Vec<InnerCollection> {
    let Ok(Some(ty)) = new_dec.type_of(new) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for path in collection_paths(new_dec, &ty) {
        let (Some(a), Some(b)) = (follow(old_dec, old, &path), follow(new_dec, new, &path)) else {
            continue;
        };
        let Some(diff) = compare_collections(old_dec, &a, new_dec, &b, limits) else {
            continue;
        };
        if diff.as_ref().is_ok_and(unchanged) {
            continue;
        }
        out.push(InnerCollection {
            path: path_text(&path),
            diff,
        });
    }
    out
}

/// Whether a comparison found nothing changed.
fn unchanged(d: &CollectionDiff) -> bool {
    d.old_entries == d.new_entries && d.keys.added + d.keys.removed + d.keys.changed == 0
}

/// The paths (below the top) to the collections a value of type `ty` holds through records
/// and tuples, in field order, at most [`MAX_INNER`] (breadth first: the shallowest first).
fn collection_paths(dec: &Decoder<'_>, ty: &Arc<Type>) -> Vec<Vec<Step>> {
    let mut out = Vec::new();
    let mut queue: std::collections::VecDeque<(Vec<Step>, Arc<Type>)> =
        std::collections::VecDeque::from([(Vec::new(), ty.clone())]);
    // bounds the types visited as well as the paths found (a wide record of records)
    let mut visited = 0usize;
    while let Some((path, ty)) = queue.pop_front() {
        visited += 1;
        if out.len() >= MAX_INNER || visited > 16 * MAX_INNER {
            break;
        }
        let Ok(ty) = dec.env.normalize(&ty) else {
            continue;
        };
        if !path.is_empty() && recognize(dec.env, &ty).is_some() {
            out.push(path);
            continue;
        }
        if path.len() >= MAX_DEPTH {
            continue;
        }
        let step = |s: Step| {
            let mut p = path.clone();
            p.push(s);
            p
        };
        match &*ty {
            Type::Object {
                sort: ObjSort::Object,
                fields,
            } => {
                for f in fields.iter() {
                    queue.push_back((step(Step::Field(f.label.clone())), f.ty.clone()));
                }
            }
            Type::Tuple(items) => {
                for (i, t) in items.iter().enumerate() {
                    queue.push_back((step(Step::Index(i as u64)), t.clone()));
                }
            }
            _ => {}
        }
    }
    out
}

/// The part of `v` at `path` (`None` if the value does not have that shape).
fn follow(dec: &mut Decoder<'_>, v: &LazyValue, path: &[Step]) -> Option<LazyValue> {
    let mut cur = v.clone();
    for s in path {
        cur = match s {
            Step::Field(label) => dec.field(&cur, label).ok()?,
            Step::Index(i) => dec.element(&cur, *i).ok()?,
        };
    }
    Some(cur)
}

/// A path as the diff shows it: `.index`, `.0`.
fn path_text(path: &[Step]) -> String {
    let mut s = String::new();
    for step in path {
        s.push('.');
        match step {
            Step::Field(l) => s.push_str(l),
            Step::Index(i) => s.push_str(&i.to_string()),
        }
    }
    s
}
