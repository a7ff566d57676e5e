//! JSON for `jq`: one JSON value per Motoko value (shapes in docs/formats.md), for every
//! value model ([`Shown`]): heap values and script values of one Motoko value are the same
//! bytes.
//!
//! Numbers beyond ±2^53 are strings; Text and Char are strings; Blob, Principal, actors,
//! functions and regions are small tagged objects; `?v` is `v` unless `v` is itself `null`
//! or an option (then `{"some": v}`); variants are `{"#tag": payload}` (payload `null` when
//! the tag has none); records are objects in field order; tuples and arrays are arrays.
//! Written with an explicit stack, so deep values do not exhaust the call stack. Two cuts
//! keep every document readable: nesting is capped at [`MAX_JSON_DEPTH`] so it parses in
//! common JSON readers (jq 1.6 stops at 256 levels, serde_json at 128), a deeper value being
//! written `{"deep":null}`; and at most [`MAX_JSON_NODES`] values are written (a script's
//! shared values count once per reference), every further one being `{"cut":null}`.

use std::fmt::Write as _;

use num_bigint::BigUint;

use super::principal::principal_text;
use super::shape::{Integer, Natural, Shape, Shown};
use crate::heap::value::Value;

/// Largest integer magnitude written as a JSON number (2^53).
pub const MAX_SAFE_INTEGER: u64 = 1 << 53;

/// Deepest nesting of JSON arrays and objects a rendering opens; a value that would open one
/// more is written as `{"deep":null}` instead.
pub const MAX_JSON_DEPTH: usize = 100;

/// Most JSON values one rendering writes; past it every value is `{"cut":null}`.
pub const MAX_JSON_NODES: usize = 1 << 20;

/// What a value too deep to nest is written as.
pub const DEEP_JSON: &str = "{\"deep\":null}";

/// What a value past the [`MAX_JSON_NODES`] budget is written as.
pub const CUT_JSON: &str = "{\"cut\":null}";

enum Item<H> {
    Str(&'static str),
    Owned(String),
    Val(H),
    /// Closes as many levels of nesting as the text has characters (writes the text).
    Close(&'static str),
}

/// The JSON text of heap value `v` (compact, one line).
pub fn to_json(v: &Value) -> String {
    let mut out = String::new();
    write_json(v, &mut out);
    out
}

/// Appends the JSON text of heap value `v` to `out`.
pub fn write_json(v: &Value, out: &mut String) {
    write_json_as(v, out);
}

/// Appends the JSON text of `v` to `out`.
pub fn write_json_as<H: Shown>(v: H, out: &mut String) {
    JsonWriter {
        out,
        depth: 0,
        budget: MAX_JSON_NODES,
    }
    .value(v);
}

/// One rendering's output and what it has left: nesting and values.
struct JsonWriter<'o> {
    out: &'o mut String,
    depth: usize,
    budget: usize,
}

impl JsonWriter<'_> {
    /// Writes `v` whole (or cut) at the current depth.
    fn value<H: Shown>(&mut self, v: H) {
        let mut stack: Vec<Item<H>> = vec![Item::Val(v)];
        while let Some(item) = stack.pop() {
            match item {
                Item::Str(s) => self.out.push_str(s),
                Item::Owned(s) => self.out.push_str(&s),
                Item::Close(s) => {
                    self.out.push_str(s);
                    self.depth = self.depth.saturating_sub(s.len());
                }
                Item::Val(_) if self.budget == 0 => self.out.push_str(CUT_JSON),
                Item::Val(v) => {
                    self.budget -= 1;
                    let shape = v.shape();
                    if self.depth >= MAX_JSON_DEPTH && opens_level(&shape) {
                        self.out.push_str(DEEP_JSON);
                        continue;
                    }
                    let before = stack.len();
                    self.one(shape, &mut stack);
                    // A container pushed its closing item first (at the bottom of what it pushed).
                    if let Some(Item::Close(s)) = stack.get(before) {
                        self.depth += s.len();
                    }
                }
            }
        }
    }

    fn one<H: Shown>(&mut self, shape: Shape<'_, H>, stack: &mut Vec<Item<H>>) {
        let out = &mut *self.out;
        match shape {
            Shape::Null => out.push_str("null"),
            Shape::Unit => out.push_str("[]"),
            Shape::Bool(b) => out.push_str(if b { "true" } else { "false" }),
            Shape::Nat(n) => out.push_str(&nat_json(n)),
            Shape::Int(n) => out.push_str(&int_json(n)),
            Shape::Float(f) => out.push_str(&float_json(f)),
            Shape::Float32(f) => out.push_str(&float_json(f64::from(f))),
            Shape::Char(c) => out.push_str(&json_string(c.encode_utf8(&mut [0; 4]))),
            Shape::Text(t) => out.push_str(&json_string(t)),
            Shape::Blob(b) => {
                let _ = write!(out, "{{\"blob\":\"{}\"}}", hex::encode(b));
            }
            Shape::Principal(p) => {
                let _ = write!(out, "{{\"principal\":\"{}\"}}", principal_text(p));
            }
            Shape::Actor(p) => {
                let _ = write!(out, "{{\"actor\":\"{}\"}}", principal_text(p));
            }
            Shape::SharedFunc { actor, method } => {
                let _ = write!(
                    out,
                    "{{\"shared_func\":{{\"actor\":\"{}\",\"method\":{}}}}}",
                    principal_text(actor),
                    json_string(method)
                );
            }
            Shape::Opt(value) => {
                if some_wrapped(&value) {
                    out.push_str("{\"some\":");
                    stack.push(Item::Close("}"));
                }
                stack.push(Item::Val(value));
            }
            Shape::Weak(None) => out.push_str("{\"weak\":null}"),
            Shape::Weak(Some(t)) => {
                out.push_str("{\"weak\":");
                stack.push(Item::Close("}"));
                stack.push(Item::Val(t));
            }
            Shape::Variant(tag, payload) => {
                let _ = write!(out, "{{{}:", json_string(&format!("#{tag}")));
                stack.push(Item::Close("}"));
                match payload {
                    None => out.push_str("null"),
                    Some(p) => stack.push(Item::Val(p)),
                }
            }
            Shape::Record(fields) | Shape::Module(fields) => {
                out.push('{');
                stack.push(Item::Close("}"));
                for (i, (label, value)) in fields.into_iter().enumerate().rev() {
                    stack.push(Item::Val(value));
                    let sep = if i > 0 { "," } else { "" };
                    stack.push(Item::Owned(format!("{sep}{}:", json_string(label))));
                }
            }
            Shape::Tuple(items) | Shape::Array { items, .. } => {
                out.push('[');
                push_items(items, stack, "]");
            }
            Shape::Region {
                id,
                page_count,
                blocks,
            } => {
                let blocks: Vec<String> = blocks.iter().map(u16::to_string).collect();
                let _ = write!(
                    out,
                    "{{\"region\":{{\"id\":{},\"page_count\":{},\"blocks\":[{}]}}}}",
                    nat_json(Natural::Small(id)),
                    nat_json(Natural::Small(page_count)),
                    blocks.join(",")
                );
            }
            Shape::Closure {
                name,
                funid,
                captures,
            } => {
                let name = name.map_or("null".to_string(), json_string);
                let _ = write!(
                    out,
                    "{{\"closure\":{{\"function\":{name},\"funid\":{},\"captures\":[",
                    nat_json(Natural::Small(funid))
                );
                push_items(captures, stack, "]}}");
            }
            Shape::Opaque { word, addr, what } => {
                let addr = addr.map_or("null".to_string(), |a| format!("\"{a:#x}\""));
                let _ = write!(
                    out,
                    "{{\"opaque\":{{\"word\":\"{word:#x}\",\"addr\":{addr},\"what\":{}}}}}",
                    json_string(what)
                );
            }
            Shape::Cycle(addr) => {
                let _ = write!(out, "{{\"cycle\":\"{addr:#x}\"}}");
            }
            Shape::NotDecoded(word) => {
                let _ = write!(out, "{{\"not_decoded\":\"{word:#x}\"}}");
            }
            Shape::Described(text) => out.push_str(&json_string(&text)),
            Shape::Same(inner) => stack.push(Item::Val(inner)),
            Shape::Heap(v) => {
                // Given back: `value` charges it (and its parts) again.
                self.budget += 1;
                self.value(&*v);
            }
        }
    }
}

/// Pushes `items`, comma-separated, then `close` (which closes `close.len()` levels).
fn push_items<H>(items: Vec<H>, stack: &mut Vec<Item<H>>, close: &'static str) {
    stack.push(Item::Close(close));
    for (i, item) in items.into_iter().enumerate().rev() {
        stack.push(Item::Val(item));
        if i > 0 {
            stack.push(Item::Str(","));
        }
    }
}

/// Whether `?x` is written `{"some": x}`: when `x` is `null` or itself an option.
pub(super) fn some_wrapped<H: Shown>(x: &H) -> bool {
    match x.shape() {
        Shape::Null | Shape::Opt(_) => true,
        Shape::Same(inner) => matches!(inner.shape(), Shape::Null | Shape::Opt(_)),
        Shape::Heap(h) => matches!(&*h, Value::Null | Value::Opt { .. }),
        _ => false,
    }
}

/// Whether a node's JSON opens an array or object (everything but numbers, booleans,
/// `null` and strings).
pub(super) fn opens_level<H: Shown>(shape: &Shape<'_, H>) -> bool {
    match shape {
        Shape::Null
        | Shape::Bool(_)
        | Shape::Nat(_)
        | Shape::Int(_)
        | Shape::Float(_)
        | Shape::Float32(_)
        | Shape::Char(_)
        | Shape::Text(_)
        | Shape::Described(_) => false,
        Shape::Opt(x) => some_wrapped(x) || opens_level(&x.shape()),
        Shape::Same(x) => match x.shape() {
            Shape::Same(_) => false,
            s => opens_level(&s),
        },
        Shape::Heap(h) => opens_level(&(&**h).shape()),
        _ => true,
    }
}

/// A JSON string literal for `s`.
pub fn json_string(s: &str) -> String {
    serde_json::Value::String(s.to_string()).to_string()
}

fn nat_json(n: Natural<'_>) -> String {
    match n {
        Natural::Small(n) if n <= MAX_SAFE_INTEGER => n.to_string(),
        Natural::Small(n) => format!("\"{n}\""),
        Natural::Big(n) if n <= &BigUint::from(MAX_SAFE_INTEGER) => n.to_string(),
        Natural::Big(n) => format!("\"{n}\""),
    }
}

fn int_json(n: Integer<'_>) -> String {
    match n {
        Integer::Small(n) if n.unsigned_abs() <= MAX_SAFE_INTEGER => n.to_string(),
        Integer::Small(n) => format!("\"{n}\""),
        Integer::Big(n) if n.magnitude() <= &BigUint::from(MAX_SAFE_INTEGER) => n.to_string(),
        Integer::Big(n) => format!("\"{n}\""),
    }
}

fn float_json(f: f64) -> String {
    if f.is_nan() {
        "\"NaN\"".into()
    } else if f.is_infinite() {
        if f > 0.0 { "\"inf\"" } else { "\"-inf\"" }.into()
    } else {
        serde_json::Number::from_f64(f)
            .map(|n| n.to_string())
            .unwrap_or_else(|| "null".into())
    }
}

/// `value` with every integer beyond ±2^53 made a string of its decimal digits (the number
/// rule, `docs/formats.md`, "Numbers in JSON"), for documents serialized by serde from types
/// that hold `u64`/`i64` (the IC's snapshot metadata: timestamps in nanoseconds, globals).
pub fn number_rule(value: serde_json::Value) -> serde_json::Value {
    use serde_json::Value;
    match value {
        Value::Number(n) => {
            let beyond = match (n.as_u64(), n.as_i64()) {
                (Some(u), _) => u > MAX_SAFE_INTEGER,
                (None, Some(i)) => i.unsigned_abs() > MAX_SAFE_INTEGER,
                // A float (serde_json without arbitrary precision has no wider integers).
                (None, None) => false,
            };
            if beyond {
                Value::String(n.to_string())
            } else {
                Value::Number(n)
            }
        }
        Value::Array(xs) => Value::Array(xs.into_iter().map(number_rule).collect()),
        Value::Object(m) => {
            Value::Object(m.into_iter().map(|(k, v)| (k, number_rule(v))).collect())
        }
        other => other,
    }
}

#[cfg(test)]
mod number_rule_tests {
    use super::number_rule;
    use serde_json::json;

    #[test]
    fn integers_beyond_2_53_become_strings_at_any_depth() {
        let doc = json!({
            "taken_at_timestamp": 1_764_680_000_000_000_000u64,
            "globals": [{"I64": -9_007_199_254_740_993i64}, {"I64": -9_007_199_254_740_992i64}],
            "size": 9_007_199_254_740_992u64,
            "max": u64::MAX,
            "f": 1e300,
            "s": "12",
        });
        assert_eq!(
            number_rule(doc).to_string(),
            r#"{"f":1e+300,"globals":[{"I64":"-9007199254740993"},{"I64":-9007199254740992}],"max":"18446744073709551615","s":"12","size":9007199254740992,"taken_at_timestamp":"1764680000000000000"}"#
        );
    }
}
