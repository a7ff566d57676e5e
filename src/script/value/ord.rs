//! Structural equality and ordering of values (`==`, `<`, ...).

use super::num::{to_bigint, NumKind};
use super::Value;
use std::cmp::Ordering;

/// Compares two values of the same type; `None` when they are not ordered
/// (NaN, or kinds without an order).
pub fn compare(a: &Value, b: &Value) -> Option<Ordering> {
    match (a, b) {
        (Value::Nat(x), Value::Nat(y)) => Some(x.cmp(y)),
        (Value::Int(x), Value::Int(y)) => Some(x.cmp(y)),
        (Value::Float(x), Value::Float(y)) => x.partial_cmp(y),
        (Value::Text(x), Value::Text(y)) => Some(x.cmp(y)),
        (Value::Char(x), Value::Char(y)) => Some(x.cmp(y)),
        (Value::Bool(x), Value::Bool(y)) => Some(x.cmp(y)),
        (Value::Blob(x), Value::Blob(y)) | (Value::Principal(x), Value::Principal(y)) => {
            Some(x.cmp(y))
        }
        (Value::Unit, Value::Unit) | (Value::Null, Value::Null) => Some(Ordering::Equal),
        _ => {
            let ka = NumKind::of(a)?;
            let kb = NumKind::of(b)?;
            if ka == NumKind::Float || kb == NumKind::Float {
                let x = super::num::to_f64(a)?;
                let y = super::num::to_f64(b)?;
                return x.partial_cmp(&y);
            }
            Some(to_bigint(a)?.cmp(&to_bigint(b)?))
        }
    }
}

/// Structural equality (`==`).
pub fn equal(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Unit, Value::Unit) | (Value::Null, Value::Null) => true,
        (Value::Bool(x), Value::Bool(y)) => x == y,
        (Value::Nat(x), Value::Nat(y)) => x == y,
        (Value::Int(x), Value::Int(y)) => x == y,
        (Value::Float(x), Value::Float(y)) => x == y,
        (Value::Char(x), Value::Char(y)) => x == y,
        (Value::Text(x), Value::Text(y)) => x == y,
        (Value::Blob(x), Value::Blob(y)) | (Value::Principal(x), Value::Principal(y)) => x == y,
        (Value::Tuple(x), Value::Tuple(y)) | (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y.iter()).all(|(p, q)| equal(p, q))
        }
        (Value::VarArray(x), Value::VarArray(y)) => {
            if std::rc::Rc::ptr_eq(x, y) {
                return true;
            }
            let (x, y) = (x.borrow(), y.borrow());
            x.len() == y.len() && x.iter().zip(y.iter()).all(|(p, q)| equal(p, q))
        }
        (Value::Opt(x), Value::Opt(y)) => equal(x, y),
        (Value::Variant(x), Value::Variant(y)) => x.0 == y.0 && equal(&x.1, &y.1),
        (Value::Record(x), Value::Record(y)) => {
            x.fields.len() == y.fields.len()
                && x.fields
                    .iter()
                    .zip(y.fields.iter())
                    .all(|(p, q)| p.name == q.name && equal(&p.get(), &q.get()))
        }
        _ => matches!(compare(a, b), Some(Ordering::Equal)),
    }
}

/// A total order for map keys and sorting: numbers, text, chars, tuples, ...
pub fn total_order(a: &Value, b: &Value) -> Ordering {
    if let Some(o) = compare(a, b) {
        return o;
    }
    match (a, b) {
        (Value::Tuple(x), Value::Tuple(y)) | (Value::Array(x), Value::Array(y)) => {
            for (p, q) in x.iter().zip(y.iter()) {
                let o = total_order(p, q);
                if o != Ordering::Equal {
                    return o;
                }
            }
            x.len().cmp(&y.len())
        }
        (Value::Null, Value::Opt(_)) => Ordering::Less,
        (Value::Opt(_), Value::Null) => Ordering::Greater,
        (Value::Opt(x), Value::Opt(y)) => total_order(x, y),
        (Value::Variant(x), Value::Variant(y)) => {
            x.0.cmp(&y.0).then_with(|| total_order(&x.1, &y.1))
        }
        _ => Ordering::Equal,
    }
}
