//! Motoko's `==` and `!=`: structural equality at the operands' static type.
//!
//! moc's interpreter compares two values at the least upper bound of the operands' types:
//! a record compares only the fields of that type (`{x = 1; y = 2} == {x = 1; y = 3}` is
//! true at type `{x : Nat}`), `Any` and a type parameter compare equal whatever the
//! values, and functions, mutable arrays and `var` fields are rejected by its type checker.
//! The script engine has no static types, so it compares at the type it knows (an
//! annotation or a declared variable type, as a [`Hint`]) and otherwise by the values'
//! shapes, refusing (never guessing) where the shapes leave the answer open: records with
//! different fields, values of different kinds, and the kinds moc rejects.
//!
//! The walk keeps its own stack, so the depth of a value never deepens the Rust stack. A
//! value read lazily from the heap (a stable variable too large to decode at once) is taken
//! apart one level at a time as the walk reaches it.

use super::num::to_bigint;
use super::{NumKind, Value};
use crate::script::compile::ir::Hint;
use std::rc::Rc;

/// Why `==` cannot answer.
pub type Refusal = String;

/// `a == b` at the static type `ty` (`None`: unknown).
pub fn equal_at(a: &Value, b: &Value, ty: Option<&Rc<Hint>>) -> Result<bool, Refusal> {
    let mut stack: Vec<(Value, Value, Option<Rc<Hint>>)> =
        vec![(a.clone(), b.clone(), ty.cloned())];
    while let Some((a, b, ty)) = stack.pop() {
        let (a, b) = (unfold(a)?, unfold(b)?);
        let resolved = ty.as_deref().map(Hint::resolve);
        let step = match resolved.as_deref() {
            Some(Hint::Top) => Step::Equal,
            Some(
                h @ (Hint::Record(_)
                | Hint::Variant(_)
                | Hint::Opt(_)
                | Hint::Array(_)
                | Hint::Tuple(_)),
            ) => typed_step(&a, &b, h)?,
            _ => shape_step(&a, &b)?,
        };
        match step {
            Step::Equal => {}
            Step::Differ => return Ok(false),
            Step::Parts(parts) => stack.extend(parts),
        }
    }
    Ok(true)
}

/// A value read lazily from the heap taken apart one level (its parts stay lazy where
/// large); any other value as it is. The host charges what it decoded to the evaluation.
fn unfold(v: Value) -> Result<Value, Refusal> {
    match &v {
        Value::Host(h) => match h.unfold() {
            Ok(Some(parts)) => Ok(parts),
            Ok(None) => Ok(v),
            Err(e) => Err(e.to_string()),
        },
        _ => Ok(v),
    }
}

/// One comparison step: decided, or the pairs of parts still to compare.
enum Step {
    Equal,
    Differ,
    Parts(Vec<(Value, Value, Option<Rc<Hint>>)>),
}

fn sub(h: &Hint) -> Option<Rc<Hint>> {
    Some(Rc::new(h.clone()))
}

/// A step guided by a structural type.
fn typed_step(a: &Value, b: &Value, h: &Hint) -> Result<Step, Refusal> {
    refuse_kind(a)?;
    refuse_kind(b)?;
    Ok(match (h, a, b) {
        (Hint::Record(fs), Value::Record(x), Value::Record(y)) => {
            let mut parts = Vec::with_capacity(fs.len());
            for (name, fh) in fs {
                let (Some(p), Some(q)) = (x.get(name), y.get(name)) else {
                    return Err(format!(
                        "`==` compares field `{name}`, which a record does not have"
                    ));
                };
                if p.mutable || q.mutable {
                    return Err(var_field(name));
                }
                parts.push((p.get(), q.get(), sub(fh)));
            }
            Step::Parts(parts)
        }
        (Hint::Variant(fs), Value::Variant(x), Value::Variant(y)) => {
            if x.0 != y.0 {
                Step::Differ
            } else {
                let fh = fs.iter().find(|(n, _)| *n == x.0).and_then(|(_, h)| sub(h));
                Step::Parts(vec![(x.1.clone(), y.1.clone(), fh)])
            }
        }
        (Hint::Opt(h), Value::Opt(x), Value::Opt(y)) => {
            Step::Parts(vec![((**x).clone(), (**y).clone(), sub(h))])
        }
        (Hint::Opt(_), Value::Null, Value::Null) => Step::Equal,
        (Hint::Opt(_), Value::Null, Value::Opt(_)) | (Hint::Opt(_), Value::Opt(_), Value::Null) => {
            Step::Differ
        }
        (Hint::Array(h), Value::Array(x), Value::Array(y)) => {
            if x.len() != y.len() {
                Step::Differ
            } else {
                let h = sub(h);
                Step::Parts(
                    x.iter()
                        .zip(y.iter())
                        .map(|(p, q)| (p.clone(), q.clone(), h.clone()))
                        .collect(),
                )
            }
        }
        (Hint::Tuple(hs), Value::Tuple(x), Value::Tuple(y))
            if hs.len() == x.len() && hs.len() == y.len() =>
        {
            Step::Parts(
                x.iter()
                    .zip(y.iter())
                    .zip(hs.iter())
                    .map(|((p, q), h)| (p.clone(), q.clone(), sub(h)))
                    .collect(),
            )
        }
        _ => shape_step(a, b)?,
    })
}

fn var_field(name: &str) -> Refusal {
    format!(
        "`==` is not defined on a record with a `var` field (`{name}`): moc rejects the comparison"
    )
}

/// The kinds moc's type checker rejects for `==`, and those a script cannot compare.
fn refuse_kind(v: &Value) -> Result<(), Refusal> {
    let what = match v {
        Value::Func(_) | Value::Builtin(_) => "functions",
        Value::VarArray(_) => "mutable arrays",
        Value::Iter(_) => "iterators (objects with a function)",
        Value::Module(_) => "modules",
        Value::Host(_) => "host objects",
        Value::Cell(_) => "cells",
        _ => return Ok(()),
    };
    Err(format!(
        "`==` is not defined on {what}: moc rejects the comparison"
    ))
}

/// A step by the values' shapes alone (no static type known).
fn shape_step(a: &Value, b: &Value) -> Result<Step, Refusal> {
    refuse_kind(a)?;
    refuse_kind(b)?;
    let same = |x: bool| if x { Step::Equal } else { Step::Differ };
    Ok(match (a, b) {
        (Value::Unit, Value::Unit) | (Value::Null, Value::Null) => Step::Equal,
        (Value::Null, Value::Opt(_)) | (Value::Opt(_), Value::Null) => Step::Differ,
        (Value::Bool(x), Value::Bool(y)) => same(x == y),
        (Value::Float(x), Value::Float(y)) => same(x == y),
        (Value::Char(x), Value::Char(y)) => same(x == y),
        (Value::Text(x), Value::Text(y)) => same(x == y),
        (Value::Blob(x), Value::Blob(y)) | (Value::Principal(x), Value::Principal(y)) => {
            same(x == y)
        }
        // a text literal compared with a blob is a blob literal
        (Value::Text(x), Value::Blob(y)) | (Value::Blob(y), Value::Text(x)) => {
            same(x.as_bytes() == &y[..])
        }
        (Value::Tuple(x), Value::Tuple(y)) | (Value::Array(x), Value::Array(y)) => {
            if x.len() != y.len() {
                Step::Differ
            } else {
                Step::Parts(
                    x.iter()
                        .zip(y.iter())
                        .map(|(p, q)| (p.clone(), q.clone(), None))
                        .collect(),
                )
            }
        }
        (Value::Opt(x), Value::Opt(y)) => Step::Parts(vec![((**x).clone(), (**y).clone(), None)]),
        (Value::Variant(x), Value::Variant(y)) => {
            if x.0 != y.0 {
                Step::Differ
            } else {
                Step::Parts(vec![(x.1.clone(), y.1.clone(), None)])
            }
        }
        (Value::Record(x), Value::Record(y)) => {
            let names_match = x.fields.len() == y.fields.len()
                && x.fields
                    .iter()
                    .zip(y.fields.iter())
                    .all(|(p, q)| p.name == q.name);
            if !names_match {
                return Err(
                    "`==` on records with different fields: the operands' static type decides \
                     which fields count, and mo-mem has no static types (annotate an operand, \
                     `(a : { x : Nat }) == b`)"
                        .to_string(),
                );
            }
            let mut parts = Vec::with_capacity(x.fields.len());
            for (p, q) in x.fields.iter().zip(y.fields.iter()) {
                if p.mutable || q.mutable {
                    return Err(var_field(&p.name));
                }
                parts.push((p.get(), q.get(), None));
            }
            Step::Parts(parts)
        }
        _ => numeric_step(a, b)?,
    })
}

/// Numbers of possibly different kinds (a `Nat` is an `Int`; an untyped literal meets a
/// fixed-width value); anything else is two kinds no one static type but `Any` holds.
fn numeric_step(a: &Value, b: &Value) -> Result<Step, Refusal> {
    let (Some(ka), Some(kb)) = (NumKind::of(a), NumKind::of(b)) else {
        return Err(kinds(a, b));
    };
    if ka == NumKind::Float || kb == NumKind::Float {
        let (Some(x), Some(y)) = (super::num::to_f64(a), super::num::to_f64(b)) else {
            return Err(kinds(a, b));
        };
        return Ok(if x == y { Step::Equal } else { Step::Differ });
    }
    match (to_bigint(a), to_bigint(b)) {
        (Some(x), Some(y)) => Ok(if x == y { Step::Equal } else { Step::Differ }),
        _ => Err(kinds(a, b)),
    }
}

fn kinds(a: &Value, b: &Value) -> Refusal {
    format!(
        "`==` between a {} and a {}: only a static type `Any` holds both (moc then answers \
         `true`), and mo-mem has no static types (annotate an operand)",
        a.kind_name(),
        b.kind_name()
    )
}
