//! Candid values as JSON, for `mo-mem call --json`: records as objects (field names, or the
//! label number), variants as `{"tag": value}`, options as the value or `null`, vectors as
//! arrays, blobs as lowercase hex, principals as their text. Numbers follow mo-mem's one
//! number rule (`docs/formats.md`, "Numbers in JSON"): a JSON number when |x| ≤ 2^53, a plain
//! decimal string beyond (never `debug_show`'s `_` separators); floats as JSON numbers, NaN
//! and the infinities as the strings `"NaN"`, `"inf"`, `"-inf"`.

use crate::heap::render::MAX_SAFE_INTEGER;
use candid::types::Label;
use candid::{IDLArgs, IDLValue};
use num_bigint::{BigInt, BigUint};
use serde_json::{Map, Number, Value};

/// Deepest value converted (Candid's decoder bounds nesting well below this).
const MAX_DEPTH: usize = 512;

/// Why a value cannot be shown as JSON.
#[derive(Debug, thiserror::Error)]
#[error("the reply nests deeper than {MAX_DEPTH} levels")]
pub struct TooDeep;

/// The arguments of a reply as a JSON array, one element per result.
pub fn args_json(args: &IDLArgs) -> Result<Value, TooDeep> {
    args.args
        .iter()
        .map(|v| value_json(v, 0))
        .collect::<Result<Vec<_>, _>>()
        .map(Value::Array)
}

fn label(id: &Label) -> String {
    match id {
        Label::Named(name) => name.clone(),
        Label::Id(n) | Label::Unnamed(n) => n.to_string(),
    }
}

/// An integer of magnitude `magnitude` (negative when `negative`) by the number rule.
fn integer(negative: bool, magnitude: u64) -> Value {
    if magnitude > MAX_SAFE_INTEGER {
        Value::String(format!("{}{magnitude}", if negative { "-" } else { "" }))
    } else if negative {
        // Within 2^53, so the negation fits an i64.
        Value::Number((-(magnitude as i64)).into())
    } else {
        Value::Number(magnitude.into())
    }
}

fn unsigned(n: u64) -> Value {
    integer(false, n)
}

fn signed(n: i64) -> Value {
    integer(n < 0, n.unsigned_abs())
}

fn big_nat(n: &BigUint) -> Value {
    match u64::try_from(n) {
        Ok(small) => unsigned(small),
        Err(_) => Value::String(n.to_string()),
    }
}

fn big_int(n: &BigInt) -> Value {
    match u64::try_from(n.magnitude()) {
        Ok(small) => integer(n.sign() == num_bigint::Sign::Minus, small),
        Err(_) => Value::String(n.to_string()),
    }
}

/// An untyped Candid number (`IDLValue::Number`, kept as its text, which may carry `_`).
fn untyped_number(text: &str) -> Value {
    let digits: String = text.chars().filter(|c| *c != '_').collect();
    match digits.parse::<BigInt>() {
        Ok(n) => big_int(&n),
        Err(_) => Value::String(digits),
    }
}

/// A float: a JSON number, or `"NaN"`, `"inf"`, `"-inf"`.
fn float(x: f64) -> Value {
    if x.is_nan() {
        Value::String("NaN".into())
    } else if x.is_infinite() {
        Value::String(if x > 0.0 { "inf" } else { "-inf" }.into())
    } else {
        Number::from_f64(x).map_or(Value::Null, Value::Number)
    }
}

/// A `float32`: the shortest decimal that reads back as the same `f32` (as Candid text shows
/// it: `0.1`, not the `f64` widening `0.10000000149011612`).
fn float32(x: f32) -> Value {
    if !x.is_finite() {
        return float(f64::from(x));
    }
    x.to_string()
        .parse::<f64>()
        .ok()
        .and_then(Number::from_f64)
        .map_or(Value::Null, Value::Number)
}

/// One value as JSON (`depth`: its nesting so far).
fn value_json(v: &IDLValue, depth: usize) -> Result<Value, TooDeep> {
    if depth > MAX_DEPTH {
        return Err(TooDeep);
    }
    let inner = |x: &IDLValue| value_json(x, depth + 1);
    Ok(match v {
        IDLValue::Bool(b) => Value::Bool(*b),
        IDLValue::Null | IDLValue::None | IDLValue::Reserved => Value::Null,
        IDLValue::Text(t) => Value::String(t.clone()),
        IDLValue::Number(n) => untyped_number(n),
        IDLValue::Float64(x) => float(*x),
        IDLValue::Float32(x) => float32(*x),
        IDLValue::Opt(x) => inner(x)?,
        IDLValue::Vec(xs) => Value::Array(xs.iter().map(inner).collect::<Result<_, _>>()?),
        IDLValue::Record(fields) => {
            let mut out = Map::new();
            for f in fields {
                out.insert(label(&f.id), inner(&f.val)?);
            }
            Value::Object(out)
        }
        IDLValue::Variant(v) => {
            let mut out = Map::new();
            out.insert(label(&v.0.id), inner(&v.0.val)?);
            Value::Object(out)
        }
        IDLValue::Blob(bytes) => Value::String(hex::encode(bytes)),
        IDLValue::Principal(p) | IDLValue::Service(p) => Value::String(p.to_text()),
        IDLValue::Func(p, m) => Value::String(format!("{}.{m}", p.to_text())),
        IDLValue::Int(n) => big_int(&n.0),
        IDLValue::Nat(n) => big_nat(&n.0),
        IDLValue::Nat8(n) => Value::Number((*n).into()),
        IDLValue::Nat16(n) => Value::Number((*n).into()),
        IDLValue::Nat32(n) => Value::Number((*n).into()),
        IDLValue::Nat64(n) => unsigned(*n),
        IDLValue::Int8(n) => Value::Number((*n).into()),
        IDLValue::Int16(n) => Value::Number((*n).into()),
        IDLValue::Int32(n) => Value::Number((*n).into()),
        IDLValue::Int64(n) => signed(*n),
    })
}
