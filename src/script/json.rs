//! Script values as JSON (for `--json` and `jq`): the heap's JSON writer
//! ([`crate::heap::render::write_json_as`]) over script values, so a value is the same bytes
//! whether it was reached through `mo-mem vars --format json` or a script (docs/formats.md
//! "JSON").
//!
//! Numbers within ±2^53 are JSON numbers, larger ones strings; non-finite Floats are the
//! strings `"NaN"`, `"inf"`, `"-inf"`; Text and Char are strings; Blob is `{"blob": hex}`,
//! Principal `{"principal": text}`; `?x` is `x`, but `{"some": x}` when `x` is `null` or
//! itself an option; variants are `{"#tag": value}` (`{"#tag": null}` without payload);
//! records are objects; tuples and arrays are arrays; functions, modules and iterators are
//! their `debug_show` text as a string; heap values scripts have no type for are their heap
//! JSON. Nesting is capped at [`MAX_JSON_DEPTH`] levels (a deeper value is `{"deep":null}`)
//! and at most [`MAX_JSON_NODES`] values are written (the rest are `{"cut":null}`; shared
//! values count once per reference), so a script's long linked list neither exhausts the
//! native stack nor yields JSON that jq cannot read.

use super::host::context::SnapshotContext;
use super::host::convert::AddressBook;
use super::value::Value;
use crate::heap::render::{Shape, Shown};
pub use crate::heap::render::{MAX_JSON_DEPTH, MAX_JSON_NODES};
use std::borrow::Cow;

/// The JSON text of a script value (compact, one line).
pub fn to_json(v: &Value) -> String {
    let mut out = String::new();
    crate::heap::render::write_json_as(v.clone(), &mut out);
    out
}

/// The JSON text of a script value over a snapshot, with every collection the canister
/// holds (a `mo:core` Map, Set, List, …, read from `vars`; recorded in `book`) shown as its
/// natural view, exactly as `mo-mem vars --format json` shows it (docs/formats.md,
/// "Collections"); everything else as [`to_json`].
pub fn to_natural_json(v: &Value, book: &AddressBook, ctx: &SnapshotContext) -> String {
    let mut out = String::new();
    crate::heap::render::write_json_as(
        NaturalJson {
            value: v.clone(),
            book,
            ctx,
        },
        &mut out,
    );
    out
}

/// A script value shown with its collections' natural views.
struct NaturalJson<'a> {
    value: Value,
    book: &'a AddressBook,
    ctx: &'a SnapshotContext,
}

impl NaturalJson<'_> {
    /// The collection this value stands for, if it is one the canister holds: a record or
    /// host object by its own address, a pure list `?(x, rest)` by its first cell's.
    fn collection(&self) -> Option<crate::heap::value::LazyValue> {
        let addr = match &self.value {
            Value::Opt(inner) => match &**inner {
                cell @ Value::Tuple(_) => self.book.address_of(cell),
                _ => None,
            },
            v => self.book.address_of(v),
        }?;
        self.book.collection_at(addr)
    }
}

impl Shown for NaturalJson<'_> {
    fn shape(&self) -> Shape<'_, Self> {
        if let Some(lazy) = self.collection() {
            if let Ok(mut d) = self.ctx.decoder() {
                d.set_natural(true);
                if let Ok(v) = d.deep(&lazy) {
                    return Shape::Heap(Cow::Owned(v));
                }
            }
        }
        let (book, ctx) = (self.book, self.ctx);
        self.value
            .shape()
            .map(|value| NaturalJson { value, book, ctx })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{json, Value as Json};
    use std::rc::Rc;

    /// How many levels of arrays and objects `j` nests (without recursion).
    fn json_depth(j: &Json) -> usize {
        let mut max = 0;
        let mut stack = vec![(j, 0usize)];
        while let Some((j, d)) = stack.pop() {
            max = max.max(d);
            match j {
                Json::Array(xs) => stack.extend(xs.iter().map(|x| (x, d + 1))),
                Json::Object(m) => stack.extend(m.values().map(|x| (x, d + 1))),
                _ => {}
            }
        }
        max
    }

    fn parsed(v: &Value) -> Json {
        serde_json::from_str(&to_json(v)).expect("serde_json reads it")
    }

    #[test]
    fn long_lists_are_cut_at_the_depth_cap() {
        let mut list = Value::Null;
        for i in 0..300_000u64 {
            list = Value::Opt(Rc::new(Value::Tuple(Rc::from(vec![Value::Nat(i), list]))));
        }
        // serde_json's own reader (recursion limit 128) reads it back.
        let j = parsed(&list);
        assert_eq!(j[0], json!(299_999));
        assert!(json_depth(&j) <= MAX_JSON_DEPTH + 1);
        let mut at = &j;
        for _ in 0..MAX_JSON_DEPTH {
            at = &at[1];
        }
        assert_eq!(at, &json!({ "deep": null }));
        super::super::value::dispose(list);
    }

    #[test]
    fn shapes_follow_the_heap_json() {
        let opt = |v| Value::Opt(Rc::new(v));
        let j = |v: Value| parsed(&v);
        assert_eq!(
            j(Value::Blob(Rc::from(&[0u8, 255][..]))),
            json!({"blob": "00ff"})
        );
        assert_eq!(j(opt(Value::Nat(5))), json!(5));
        assert_eq!(j(opt(Value::Null)), json!({"some": null}));
        assert_eq!(j(opt(opt(Value::Nat(5)))), json!({"some": 5}));
        assert_eq!(j(opt(opt(Value::Null))), json!({"some": {"some": null}}));
        assert_eq!(j(Value::Null), Json::Null);
        assert_eq!(j(Value::Float(f64::NAN)), json!("NaN"));
        assert_eq!(j(Value::Float(f64::NEG_INFINITY)), json!("-inf"));
        assert_eq!(j(Value::Float(0.5)), json!(0.5));
    }

    #[test]
    fn shared_values_cannot_blow_up_the_json() {
        let mut v = Value::Tuple(Rc::from(vec![Value::Nat(1), Value::Nat(1)]));
        for _ in 0..60 {
            v = Value::Tuple(Rc::from(vec![v.clone(), v]));
        }
        let text = to_json(&v);
        assert!(text.contains("{\"cut\":null}"));
        assert!(text.len() < 64 * MAX_JSON_NODES, "{} bytes", text.len());
    }
}
