//! Assignments `p := e` and `p op= e`, in moc's order: the place's array and index (checked
//! against the bounds) or record first, then for `op=` the current value, then the right
//! side, then the store.

use super::adopt;
use super::{trap_at, EResult, Interp};
use crate::script::compile::ir::{Code, Place, Slot};
use crate::script::syntax::ast::BinOp;
use crate::script::syntax::Span;
use crate::script::value::{discard, num, NumKind, Value};
use std::rc::Rc;

/// A place with its parts evaluated: where a value goes.
enum Target {
    /// A variable.
    Var(Slot),
    /// A field of a record value.
    Field(Value, Rc<str>, Span),
    /// An element of an array value.
    Index(Value, Value, Span),
}

/// Converts an index value to usize.
fn index_of(v: &Value) -> Option<usize> {
    match v {
        Value::Nat(n) => usize::try_from(*n).ok(),
        Value::Int(n) => usize::try_from(*n).ok(),
        _ => None,
    }
}

/// Why `a[i] := v` cannot change `a`.
fn cannot_assign_into(a: &Value) -> String {
    match a {
        // a stable variable too large to decode at once is read, not copied
        Value::Host(h) => format!(
            "cannot assign into {}: a script cannot change what it reads lazily (copy it \
             first, for example with `VarArray.clone`)",
            h.describe()
        ),
        other => format!("cannot assign into a {}", other.kind_name()),
    }
}

impl Interp {
    /// `place := value`.
    pub(super) fn assign(&mut self, place: &Place, value: &Code) -> EResult<()> {
        let t = self.target(place)?;
        let v = self.eval(value)?;
        let v = self.adopt_at(&t, v);
        self.store(t, v)
    }

    /// `v` in the representation of the value it replaces at `t` (see [`adopt`]).
    fn adopt_at(&self, t: &Target, v: Value) -> Value {
        if !matches!(
            v,
            Value::Nat(_)
                | Value::BigNat(_)
                | Value::Opt(_)
                | Value::Tuple(_)
                | Value::Variant(_)
                | Value::Record(_)
                | Value::Array(_)
        ) {
            return v;
        }
        let old = match t {
            Target::Var(s) => self.read(*s),
            Target::Field(Value::Record(r), name, _) => match r.get(name) {
                Some(f) => f.get(),
                None => return v,
            },
            Target::Index(Value::VarArray(xs), i, _) => {
                match index_of(i).and_then(|i| xs.borrow().get(i).cloned()) {
                    Some(x) => x,
                    None => return v,
                }
            }
            _ => return v,
        };
        adopt::adopt_int(&old, v)
    }

    /// `place op= value`: the current value is read before the right side runs.
    pub(super) fn op_assign(
        &mut self,
        op: BinOp,
        place: &Place,
        value: &Code,
        hint: Option<NumKind>,
        span: Span,
    ) -> EResult {
        let t = self.target(place)?;
        let cur = self.load(&t)?;
        let rhs = self.eval(value)?;
        self.combine_store(op, t, cur, rhs, hint, span)
    }

    /// `x op= rhs` on a variable whose right side is already evaluated (it could not change
    /// the variable: see `fast::op_assign_var`).
    pub(super) fn op_assign_evaluated(
        &mut self,
        op: BinOp,
        slot: Slot,
        rhs: Value,
        hint: Option<NumKind>,
        span: Span,
    ) -> EResult {
        let t = Target::Var(slot);
        let cur = self.load(&t)?;
        self.combine_store(op, t, cur, rhs, hint, span)
    }

    /// Stores `cur op rhs` at `t`.
    fn combine_store(
        &mut self,
        op: BinOp,
        t: Target,
        cur: Value,
        rhs: Value,
        hint: Option<NumKind>,
        span: Span,
    ) -> EResult {
        let v = match (op, &cur, &rhs) {
            (BinOp::Add, Value::Nat(x), Value::Nat(y))
                if hint.is_none() && x.checked_add(*y).is_some() =>
            {
                Value::Nat(x + y)
            }
            (BinOp::Cat, Value::Text(x), Value::Text(y)) => {
                self.alloc((x.len() + y.len()) as u64)?;
                let mut s = String::with_capacity(x.len() + y.len());
                s.push_str(x);
                s.push_str(y);
                Value::Text(Rc::from(s))
            }
            _ => num::binary(op, &cur, &rhs, hint).map_err(|m| trap_at(span, m))?,
        };
        discard(cur);
        discard(rhs);
        self.store(t, v)?;
        Ok(Value::Unit)
    }

    /// Evaluates the record or the array and index of a place.
    fn target(&mut self, place: &Place) -> EResult<Target> {
        Ok(match place {
            Place::Var(s) => Target::Var(*s),
            Place::Field(r, name, span) => Target::Field(self.eval(r)?, name.clone(), *span),
            Place::Index(a, i, span) => {
                let a = self.eval(a)?;
                let i = self.eval(i)?;
                // the element is found (or the index fails) before the value runs
                let found = match &a {
                    Value::VarArray(xs) => index_of(&i).is_some_and(|k| k < xs.borrow().len()),
                    _ => true, // not an array: `store` says so
                };
                if !found {
                    return Err(trap_at(*span, "index out of bounds"));
                }
                Target::Index(a, i, *span)
            }
        })
    }

    /// The current value at a target.
    fn load(&mut self, t: &Target) -> EResult {
        match t {
            Target::Var(s) => Ok(self.read(*s)),
            Target::Field(r, name, span) => match r {
                Value::Record(rec) => match rec.get(name) {
                    Some(f) if f.mutable => Ok(f.get()),
                    _ => Err(trap_at(*span, format!("field {name} is not mutable"))),
                },
                other => Err(trap_at(
                    *span,
                    format!("cannot assign a field of a {}", other.kind_name()),
                )),
            },
            Target::Index(a, i, span) => match a {
                Value::VarArray(xs) => index_of(i)
                    .and_then(|i| xs.borrow().get(i).cloned())
                    .ok_or_else(|| trap_at(*span, "index out of bounds")),
                other => Err(trap_at(*span, cannot_assign_into(other))),
            },
        }
    }

    /// Stores a value at a target.
    fn store(&mut self, t: Target, v: Value) -> EResult<()> {
        match t {
            Target::Var(s) => {
                self.write(s, v);
                Ok(())
            }
            Target::Field(r, name, span) => match r {
                Value::Record(rec) => match rec.get(&name) {
                    Some(f) if f.mutable => {
                        f.set(v);
                        Ok(())
                    }
                    Some(_) => Err(trap_at(span, format!("field {name} is not mutable"))),
                    None => Err(trap_at(span, format!("record has no field {name}"))),
                },
                other => Err(trap_at(
                    span,
                    format!("cannot assign a field of a {}", other.kind_name()),
                )),
            },
            Target::Index(a, i, span) => match a {
                Value::VarArray(xs) => {
                    let mut xs = xs.borrow_mut();
                    match index_of(&i).and_then(|i| xs.get_mut(i)) {
                        Some(slot) => {
                            *slot = v;
                            Ok(())
                        }
                        None => Err(trap_at(span, "index out of bounds")),
                    }
                }
                other => Err(trap_at(span, cannot_assign_into(&other))),
            },
        }
    }
}
