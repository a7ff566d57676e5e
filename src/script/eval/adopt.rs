//! Assignments keep the representation of the value they replace: a `Nat` stored where an
//! `Int` was is an `Int` (moc's `debug_show` prints `+5`, not `5`).
//!
//! A place's static type does not change between assignments, and the engine keeps `Nat` and
//! `Int` apart only where a type says so (annotations, see `coerce`). An unannotated place
//! (`var x = a` with `a : Int`, a class's `public var x = x0`, `r.f := 5` for a field
//! declared `var f : Int`) still tells its type by the value it holds: where the old value has
//! an `Int` (in the same option, tuple component, field, variant case or array element), the
//! type there is `Int` (a wider type such as `Any` could not show the difference). The walk
//! looks at most [`MAX_DEPTH`] levels deep and stops at parts the two values share.

use crate::script::value::{num, NumKind, Value};
use std::rc::Rc;

/// Deepest level of the old value looked at.
const MAX_DEPTH: u32 = 8;

/// `new` with every `Nat` converted to `Int` where `old` holds an `Int` at the same place.
pub fn adopt_int(old: &Value, new: Value) -> Value {
    adopt_in(old, new, MAX_DEPTH)
}

fn adopt_in(old: &Value, new: Value, depth: u32) -> Value {
    if !has_int(old, depth) {
        return new;
    }
    let d = depth - 1;
    match (old, new) {
        (Value::Int(_) | Value::BigInt(_), n @ (Value::Nat(_) | Value::BigNat(_))) => {
            match num::convert(n.clone(), NumKind::Int) {
                Ok(v) => v,
                Err(_) => n,
            }
        }
        (Value::Opt(o), Value::Opt(n)) if !Rc::ptr_eq(o, &n) => {
            let inner = adopt_in(o, (*n).clone(), d);
            Value::Opt(Rc::new(inner))
        }
        (Value::Tuple(os), Value::Tuple(ns)) if os.len() == ns.len() && !Rc::ptr_eq(os, &ns) => {
            let parts: Vec<Value> = os
                .iter()
                .zip(ns.iter())
                .map(|(o, n)| adopt_in(o, n.clone(), d))
                .collect();
            Value::Tuple(Rc::from(parts))
        }
        (Value::Variant(o), Value::Variant(n)) if o.0 == n.0 && !Rc::ptr_eq(o, &n) => {
            let payload = adopt_in(&o.1, n.1.clone(), d);
            Value::Variant(Rc::new((n.0.clone(), payload)))
        }
        (Value::Record(o), Value::Record(n)) if !Rc::ptr_eq(o, &n) => {
            // a record's fields have one type whoever holds it: converted in place
            for f in &n.fields {
                if let Some(of) = o.get(&f.name) {
                    let old_field = of.get();
                    if has_int(&old_field, d) {
                        f.set(adopt_in(&old_field, f.get(), d));
                    }
                }
            }
            Value::Record(n)
        }
        (Value::Array(o), Value::Array(n)) if !Rc::ptr_eq(o, &n) => match o.first() {
            Some(rep) => {
                let xs: Vec<Value> = n.iter().map(|x| adopt_in(rep, x.clone(), d)).collect();
                Value::Array(Rc::from(xs))
            }
            None => Value::Array(n),
        },
        (_, n) => n,
    }
}

/// Whether `v` holds an `Int` within `depth` levels (an array: in its first element).
fn has_int(v: &Value, depth: u32) -> bool {
    if depth == 0 {
        return false;
    }
    let d = depth - 1;
    match v {
        Value::Int(_) | Value::BigInt(_) => true,
        Value::Opt(x) => has_int(x, d),
        Value::Tuple(xs) => xs.iter().any(|x| has_int(x, d)),
        Value::Variant(tv) => has_int(&tv.1, d),
        Value::Record(r) => r.fields.iter().any(|f| has_int(&f.get(), d)),
        Value::Array(xs) => xs.first().is_some_and(|x| has_int(x, d)),
        _ => false,
    }
}
