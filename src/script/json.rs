//! Script values as JSON (for `--json` and `jq`).
//!
//! Numbers within ±2^53 are JSON numbers, larger ones strings; Text is a string; Blob
//! and Principal are strings (hex, textual form); options are `null` or the value;
//! variants are `{"#tag": value}`; records are objects; tuples and arrays are arrays.

use super::value::{show, Value};
use serde_json::{json, Value as Json};

const SAFE: u64 = 1 << 53;

/// Converts a script value to JSON.
pub fn to_json(v: &Value) -> Json {
    match v {
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
        Value::Float(f) => {
            if f.is_finite() {
                json!(f)
            } else {
                json!(show::show_float(*f))
            }
        }
        Value::Char(c) => json!(c.to_string()),
        Value::Text(t) => json!(&**t),
        Value::Blob(b) => json!(hex::encode(&**b)),
        Value::Principal(p) => json!(show::principal_text(p)),
        Value::Tuple(xs) | Value::Array(xs) => Json::Array(xs.iter().map(to_json).collect()),
        Value::VarArray(xs) => Json::Array(xs.borrow().iter().map(to_json).collect()),
        Value::Opt(x) => to_json(x),
        Value::Variant(tv) => {
            let mut m = serde_json::Map::new();
            m.insert(format!("#{}", tv.0), to_json(&tv.1));
            Json::Object(m)
        }
        Value::Record(r) => {
            let mut m = serde_json::Map::new();
            for f in &r.fields {
                m.insert(f.name.to_string(), to_json(&f.value.borrow()));
            }
            Json::Object(m)
        }
        Value::Cell(c) => to_json(&c.borrow()),
        other => json!(show::debug_show(other)),
    }
}
