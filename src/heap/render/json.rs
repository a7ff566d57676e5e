//! JSON for `jq`: one JSON value per Motoko value (shapes in docs/formats.md).
//!
//! Numbers beyond ±2^53 are strings; Text and Char are strings; Blob, Principal, actors,
//! functions and regions are small tagged objects; `?v` is `v` unless `v` is itself `null`
//! or an option (then `{"some": v}`); variants are `{"#tag": payload}` (payload `null` when
//! the tag has none); records are objects in field order; tuples and arrays are arrays.
//! Written with an explicit stack, so deep values do not exhaust the call stack; nesting is
//! capped at [`MAX_JSON_DEPTH`] so every document parses in common JSON readers (jq 1.6 stops
//! at 256 levels, serde_json at 128): a deeper value is written as `{"deep": "0x…"}`, the
//! address of its heap object (shown whole under `objects/`).

use std::fmt::Write as _;

use num_bigint::{BigInt, BigUint};

use super::principal::principal_text;
use crate::heap::value::Value;

/// Largest integer magnitude written as a JSON number (2^53).
pub const MAX_SAFE_INTEGER: u64 = 1 << 53;

/// Deepest nesting of JSON arrays and objects a rendering opens; a value that would open one
/// more is written as `{"deep": "0x…"}` (its heap address) instead.
pub const MAX_JSON_DEPTH: usize = 100;

enum Item<'a> {
    Str(&'static str),
    Owned(String),
    Val(&'a Value),
    /// Closes as many levels of nesting as the text has characters (writes the text).
    Close(&'static str),
}

/// The heap address that stands for `v` where its nesting is cut: its own object, else that
/// of the first value inside it that has one.
fn deep_addr(mut v: &Value) -> Option<u64> {
    loop {
        if let Some(a) = v.addr() {
            return Some(a);
        }
        match v {
            Value::Opt { value, .. } => v = value,
            Value::Variant { payload, .. } => v = payload,
            Value::Weak {
                target: Some(t), ..
            } => v = t,
            _ => return None,
        }
    }
}

/// Whether the JSON of `v` opens an array or object (everything but bare scalars and strings).
fn opens_level(v: &Value) -> bool {
    match v {
        Value::Opt { value, .. } => {
            matches!(**value, Value::Null | Value::Opt { .. }) || opens_level(value)
        }
        v if v.is_scalar() => false,
        Value::Text(_) => false,
        _ => true,
    }
}

/// The JSON text of `v` (compact, one line).
pub fn to_json(v: &Value) -> String {
    let mut out = String::new();
    write_json(v, &mut out);
    out
}

/// Appends the JSON text of `v` to `out`.
pub fn write_json(v: &Value, out: &mut String) {
    let mut stack: Vec<Item<'_>> = vec![Item::Val(v)];
    let mut depth = 0usize;
    while let Some(item) = stack.pop() {
        match item {
            Item::Str(s) => out.push_str(s),
            Item::Owned(s) => out.push_str(&s),
            Item::Close(s) => {
                out.push_str(s);
                depth = depth.saturating_sub(s.len());
            }
            Item::Val(v) if depth >= MAX_JSON_DEPTH && opens_level(v) => match deep_addr(v) {
                Some(a) => {
                    let _ = write!(out, "{{\"deep\":\"{a:#x}\"}}");
                }
                None => out.push_str("{\"deep\":null}"),
            },
            Item::Val(v) => {
                let before = stack.len();
                json_one(v, out, &mut stack);
                // A container pushed its closing item first (at the bottom of what it pushed).
                if let Some(Item::Close(s)) = stack.get(before) {
                    depth += s.len();
                }
            }
        }
    }
}

/// A JSON string literal for `s`.
pub fn json_string(s: &str) -> String {
    serde_json::Value::String(s.to_string()).to_string()
}

fn int_json(n: impl Into<BigInt>) -> String {
    let n: BigInt = n.into();
    if n.magnitude() <= &BigUint::from(MAX_SAFE_INTEGER) {
        n.to_string()
    } else {
        format!("\"{n}\"")
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

fn json_one<'a>(v: &'a Value, out: &mut String, stack: &mut Vec<Item<'a>>) {
    match v {
        Value::Null => out.push_str("null"),
        Value::Unit => out.push_str("[]"),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Nat(n) => out.push_str(&int_json(BigInt::from(n.clone()))),
        Value::Int(n) => out.push_str(&int_json(n.clone())),
        Value::Nat8(n) => out.push_str(&n.to_string()),
        Value::Nat16(n) => out.push_str(&n.to_string()),
        Value::Nat32(n) => out.push_str(&n.to_string()),
        Value::Nat64(n) => out.push_str(&int_json(*n)),
        Value::Int8(n) => out.push_str(&n.to_string()),
        Value::Int16(n) => out.push_str(&n.to_string()),
        Value::Int32(n) => out.push_str(&n.to_string()),
        Value::Int64(n) => out.push_str(&int_json(*n)),
        Value::Float(f) => out.push_str(&float_json(*f)),
        Value::Float32(f) => out.push_str(&float_json(f64::from(*f))),
        Value::Char(c) => out.push_str(&json_string(&c.to_string())),
        Value::Text(t) => out.push_str(&json_string(t)),
        Value::Blob(b) => {
            let _ = write!(out, "{{\"blob\":\"{}\"}}", hex::encode(b));
        }
        Value::Principal(p) => {
            let _ = write!(out, "{{\"principal\":\"{}\"}}", principal_text(p));
        }
        Value::Actor(p) => {
            let _ = write!(out, "{{\"actor\":\"{}\"}}", principal_text(p));
        }
        Value::SharedFunc { actor, method, .. } => {
            let _ = write!(
                out,
                "{{\"shared_func\":{{\"actor\":\"{}\",\"method\":{}}}}}",
                principal_text(actor),
                json_string(method)
            );
        }
        Value::Opt { value, .. } => {
            if matches!(**value, Value::Null | Value::Opt { .. }) {
                out.push_str("{\"some\":");
                stack.push(Item::Close("}"));
            }
            stack.push(Item::Val(value));
        }
        Value::Weak { target, .. } => match target {
            None => out.push_str("{\"weak\":null}"),
            Some(t) => {
                out.push_str("{\"weak\":");
                stack.push(Item::Close("}"));
                stack.push(Item::Val(t));
            }
        },
        Value::Variant { tag, payload, .. } => {
            let _ = write!(out, "{{{}:", json_string(&format!("#{tag}")));
            stack.push(Item::Close("}"));
            if matches!(**payload, Value::Unit) {
                out.push_str("null");
            } else {
                stack.push(Item::Val(payload));
            }
        }
        Value::Record { fields, .. } => {
            out.push('{');
            stack.push(Item::Close("}"));
            for (i, f) in fields.iter().enumerate().rev() {
                stack.push(Item::Val(&f.value));
                let sep = if i > 0 { "," } else { "" };
                stack.push(Item::Owned(format!("{sep}{}:", json_string(&f.label))));
            }
        }
        Value::Tuple { items, .. } | Value::Array { items, .. } => {
            out.push('[');
            stack.push(Item::Close("]"));
            for (i, item) in items.iter().enumerate().rev() {
                stack.push(Item::Val(item));
                if i > 0 {
                    stack.push(Item::Str(","));
                }
            }
        }
        Value::Region {
            id,
            page_count,
            blocks,
            ..
        } => {
            let blocks: Vec<String> = blocks.iter().map(u16::to_string).collect();
            let _ = write!(
                out,
                "{{\"region\":{{\"id\":{},\"page_count\":{},\"blocks\":[{}]}}}}",
                int_json(*id),
                int_json(*page_count),
                blocks.join(",")
            );
        }
        Value::Closure {
            funid,
            name,
            captures,
            ..
        } => {
            let name = name.as_deref().map_or("null".to_string(), json_string);
            let _ = write!(
                out,
                "{{\"closure\":{{\"function\":{name},\"funid\":{},\"captures\":[",
                int_json(*funid)
            );
            stack.push(Item::Close("]}}"));
            for (i, item) in captures.iter().enumerate().rev() {
                stack.push(Item::Val(item));
                if i > 0 {
                    stack.push(Item::Str(","));
                }
            }
        }
        Value::Opaque { word, addr, what } => {
            let addr = addr.map_or("null".to_string(), |a| format!("\"{a:#x}\""));
            let _ = write!(
                out,
                "{{\"opaque\":{{\"word\":\"{word:#x}\",\"addr\":{addr},\"what\":{}}}}}",
                json_string(what)
            );
        }
        Value::Cycle { addr } => {
            let _ = write!(out, "{{\"cycle\":\"{addr:#x}\"}}");
        }
        Value::Lazy(l) => {
            let _ = write!(out, "{{\"not_decoded\":\"{:#x}\"}}", l.word);
        }
    }
}
