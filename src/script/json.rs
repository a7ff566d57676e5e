//! Script values as JSON (for `--json` and `jq`), in the shapes `mo-mem vars --format json`
//! uses for heap values (docs/formats.md "JSON"), so a value reads the same whichever way it
//! was reached.
//!
//! Numbers within ±2^53 are JSON numbers, larger ones strings; non-finite Floats are the
//! strings `"NaN"`, `"inf"`, `"-inf"`; Text and Char are strings; Blob is `{"blob": hex}`,
//! Principal `{"principal": text}`; `?x` is `x`, but `{"some": x}` when `x` is `null` or
//! itself an option; variants are `{"#tag": value}` (`{"#tag": null}` without payload); records are objects; tuples and arrays
//! are arrays. Nesting is capped at [`MAX_JSON_DEPTH`] (as for heap values): a deeper value
//! is written as `{"deep": null}` (its whole text is in the evaluation's `show`), so a
//! script's long linked list neither exhausts the native stack nor yields JSON that jq
//! cannot read.

use super::host_convert::OpaqueValue;
use super::value::{show, Value};
use crate::heap::render::MAX_JSON_DEPTH;
use serde_json::{json, Value as Json};

const SAFE: u64 = 1 << 53;

/// Most JSON values (scalars, arrays, objects) one conversion writes; past it every value is
/// `{"cut": null}`. Shared values are written once per reference, so a small script value
/// can stand for an exponentially large JSON tree.
pub const MAX_JSON_NODES: usize = 1 << 20;

/// Most options and cells unwrapped in a row (they add no JSON level).
const MAX_UNWRAP: usize = 10_000_000;

/// Converts a script value to JSON.
pub fn to_json(v: &Value) -> Json {
    let mut budget = MAX_JSON_NODES;
    json_at(v, 0, &mut budget)
}

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

/// Whether the JSON of `v` (options and cells unwrapped) is an array or object.
fn nests(v: &Value) -> bool {
    matches!(
        v,
        Value::Tuple(_)
            | Value::Array(_)
            | Value::VarArray(_)
            | Value::Variant(_)
            | Value::Record(_)
            | Value::Unit
            | Value::Opt(_)
    )
}

/// `v` without the cells and options JSON does not show (an option stays when it holds
/// `null` or another option: it becomes `{"some": …}`), without recursion.
fn unwrapped(v: &Value) -> Option<Value> {
    let mut v = v.clone();
    for _ in 0..MAX_UNWRAP {
        let inner = match &v {
            Value::Opt(x) if matches!(**x, Value::Null | Value::Opt(_)) => return Some(v),
            Value::Opt(x) => (**x).clone(),
            Value::Cell(c) => c.borrow().clone(),
            _ => return Some(v),
        };
        v = inner;
    }
    None
}

/// The JSON of `v` sitting `depth` levels deep, spending one of `budget` per value.
fn json_at(v: &Value, depth: usize, budget: &mut usize) -> Json {
    if *budget == 0 {
        return json!({ "cut": null });
    }
    *budget -= 1;
    let Some(v) = unwrapped(v) else {
        return json!({ "deep": null });
    };
    if depth >= MAX_JSON_DEPTH && nests(&v) {
        return json!({ "deep": null });
    }
    let mut to_json = |x: &Value| json_at(x, depth + 1, budget);
    match &v {
        Value::Unit => json!([]),
        Value::Bool(b) => json!(b),
        Value::Null => Json::Null,
        Value::Nat(n) | Value::Nat64(n) => {
            if *n <= SAFE {
                json!(n)
            } else {
                json!(n.to_string())
            }
        }
        Value::Int(n) | Value::Int64(n) => {
            if n.unsigned_abs() <= SAFE {
                json!(n)
            } else {
                json!(n.to_string())
            }
        }
        Value::BigNat(n) => json!(n.to_string()),
        Value::BigInt(n) => json!(n.to_string()),
        Value::Nat8(n) => json!(n),
        Value::Nat16(n) => json!(n),
        Value::Nat32(n) => json!(n),
        Value::Int8(n) => json!(n),
        Value::Int16(n) => json!(n),
        Value::Int32(n) => json!(n),
        Value::Float(f) if f.is_nan() => json!("NaN"),
        Value::Float(f) if f.is_infinite() => json!(if *f > 0.0 { "inf" } else { "-inf" }),
        Value::Float(f) => json!(f),
        Value::Char(c) => json!(c.to_string()),
        Value::Text(t) => json!(&**t),
        Value::Blob(b) => json!({ "blob": hex::encode(&**b) }),
        Value::Principal(p) => json!({ "principal": show::principal_text(p) }),
        Value::Opt(x) => json!({ "some": to_json(x) }),
        Value::Tuple(xs) | Value::Array(xs) => Json::Array(xs.iter().map(to_json).collect()),
        Value::VarArray(xs) => Json::Array(xs.borrow().iter().map(to_json).collect()),
        Value::Variant(tv) => {
            let mut m = serde_json::Map::new();
            // `#tag` carries `()`: `{"#tag": null}`, as in the heap JSON.
            let payload = match &tv.1 {
                Value::Unit => Json::Null,
                p => to_json(p),
            };
            m.insert(format!("#{}", tv.0), payload);
            Json::Object(m)
        }
        Value::Record(r) => {
            let mut m = serde_json::Map::new();
            for f in &r.fields {
                m.insert(f.name.to_string(), to_json(&f.value.borrow()));
            }
            Json::Object(m)
        }
        Value::Host(h) => match h.as_any().downcast_ref::<OpaqueValue>() {
            // A heap value scripts have no type for: its heap JSON, unless that would nest
            // past the cap here.
            Some(o) => match o.json().and_then(|t| serde_json::from_str::<Json>(t).ok()) {
                Some(j) if depth + json_depth(&j) <= MAX_JSON_DEPTH => j,
                Some(_) => json!({ "deep": null }),
                None => json!(show::debug_show(&v)),
            },
            None => json!(show::debug_show(&v)),
        },
        other => json!(show::debug_show(other)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::rc::Rc;

    #[test]
    fn long_lists_are_cut_at_the_depth_cap() {
        let mut list = Value::Null;
        for i in 0..300_000u64 {
            list = Value::Opt(Rc::new(Value::Tuple(Rc::from(vec![Value::Nat(i), list]))));
        }
        let j = to_json(&list);
        assert_eq!(j[0], json!(299_999));
        assert!(json_depth(&j) <= MAX_JSON_DEPTH + 1);
        let mut at = &j;
        for _ in 0..MAX_JSON_DEPTH {
            at = &at[1];
        }
        assert_eq!(at, &json!({ "deep": null }));
        // serde_json's own reader (recursion limit 128) reads it back.
        let text = j.to_string();
        assert!(serde_json::from_str::<Json>(&text).is_ok());
        super::super::value::dispose(list);
    }

    #[test]
    fn shapes_follow_the_heap_json() {
        let opt = |v| Value::Opt(Rc::new(v));
        let j = |v: Value| to_json(&v);
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
        let text = to_json(&v).to_string();
        assert!(text.contains("{\"cut\":null}"));
        assert!(text.len() < 64 * MAX_JSON_NODES, "{} bytes", text.len());
    }
}
