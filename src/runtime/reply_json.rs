//! Candid values as JSON, for `mo-mem call --json`: records as objects (field names, or the
//! label number), variants as `{"tag": value}`, options as the value or `null`, vectors as
//! arrays, blobs as lowercase hex, principals as their text, numbers as JSON numbers when
//! they fit 64 bits and as decimal strings otherwise.

use candid::types::Label;
use candid::{IDLArgs, IDLValue};
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

fn number(text: String) -> Value {
    if let Ok(n) = text.parse::<u64>() {
        Value::Number(n.into())
    } else if let Ok(n) = text.parse::<i64>() {
        Value::Number(n.into())
    } else {
        Value::String(text)
    }
}

fn float(x: f64) -> Value {
    Number::from_f64(x).map_or_else(|| Value::String(x.to_string()), Value::Number)
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
        IDLValue::Number(n) => number(n.clone()),
        IDLValue::Float64(x) => float(*x),
        IDLValue::Float32(x) => float(f64::from(*x)),
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
        IDLValue::Int(n) => number(n.to_string()),
        IDLValue::Nat(n) => number(n.to_string()),
        IDLValue::Nat8(n) => Value::Number((*n).into()),
        IDLValue::Nat16(n) => Value::Number((*n).into()),
        IDLValue::Nat32(n) => Value::Number((*n).into()),
        IDLValue::Nat64(n) => Value::Number((*n).into()),
        IDLValue::Int8(n) => Value::Number((*n).into()),
        IDLValue::Int16(n) => Value::Number((*n).into()),
        IDLValue::Int32(n) => Value::Number((*n).into()),
        IDLValue::Int64(n) => Value::Number((*n).into()),
    })
}
