//! One step of a path to a root: how an object refers to the next ([`Step`]), read from the
//! heap alone ([`step`]). Below both the paths ([`super::path`]) and the type table's
//! naming of steps ([`super::types`]), which use it.

use std::collections::HashMap;
use std::sync::Arc;

use crate::heap::{Body, Heap};

/// How one step of a path is taken from its parent object.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Step {
    /// A record field, by label (`#HASH` when the label is not known).
    Field(String),
    /// An array element (or, without a type, a tuple component).
    Index(u64),
    /// A tuple component (known from the type).
    Component(u64),
    /// The value stored under a key of a mo:core `Map` or `pure/Map` (the key as
    /// `debug_show` prints it, shortened), or the element at an index of a `List`.
    Get(String),
    /// The `(key, value)` entry of a mo:core `Map` holding the key.
    Entry(String),
    /// The key object of a `Map` or `pure/Map` entry, or an element of a `Set` or `pure/Set`.
    Key(String),
    /// The value of an option.
    Some,
    /// The payload of a variant, by tag.
    Variant(String),
    /// The contents of a mutable box (a `var` field or variable).
    Var,
    /// A value captured by a closure.
    Captured(u64),
    /// A part of a text's rope (a `Concat` node's left or right text).
    Rope,
    /// A reference of another kind (a hash blob, a big number's digits, a ...).
    Other,
}

/// How the object at `from` refers to the object at `to`, from the heap alone.
pub(crate) fn step(heap: &Heap, labels: &HashMap<u32, Arc<str>>, from: u64, to: u64) -> Step {
    let points_to = |word: u64| {
        heap.pointer(word)
            .and_then(|a| heap.resolve(a).ok())
            .is_some_and(|a| a == to)
    };
    let label = |hash: u32| {
        labels
            .get(&hash)
            .map(|l| l.to_string())
            .unwrap_or_else(|| format!("#{hash}"))
    };
    let Ok(obj) = heap.object(from) else {
        return Step::Other;
    };
    match obj.body {
        Body::Object { hashes, fields, .. } => {
            for (i, w) in fields.iter().enumerate() {
                if points_to(w) {
                    return match hashes.get(i) {
                        Some(h) => Step::Field(label(h)),
                        None => Step::Other,
                    };
                }
            }
            Step::Other
        }
        Body::Array { elems, .. } => elems
            .iter()
            .position(points_to)
            .map_or(Step::Other, |i| Step::Index(i as u64)),
        Body::Some { value } if points_to(value) => Step::Some,
        Body::Variant { hash, payload } if points_to(payload) => Step::Variant(label(hash)),
        Body::MutBox { value } if points_to(value) => Step::Var,
        Body::Closure { captured, .. } => captured
            .iter()
            .position(points_to)
            .map_or(Step::Other, |i| Step::Captured(i as u64)),
        _ => Step::Other,
    }
}
