//! Run-time conversions at annotations: `Nat` values become `Int` (or a fixed-width type)
//! where the expected type says so, as moc's subtyping makes visible in `debug_show`.
//!
//! The walk follows the value, never the type: a recursive declared type costs what the value
//! costs. Each visited node is charged one step; a node shared by several parents (a DAG built
//! with `let t = ...; (t, t)`) is converted once per expected type; records and mutable arrays
//! (converted in place, and the only values that can form cycles) are marked before their
//! parts are visited; the native stack is checked at every level.

use super::{limit, trap, EResult, Interp};
use crate::script::compile::ir::Hint;
use crate::script::value::{num, NumKind, Value};
use std::collections::HashMap;
use std::rc::Rc;

/// Converted shared nodes of one coercion: (node, expected type) to the converted value.
type Memo = HashMap<(usize, usize), Value>;

impl Interp {
    /// Converts `v` to the type `h` expects (`Nat` to `Int`, literals to fixed widths).
    pub(super) fn coerce(&mut self, v: Value, h: &Hint) -> EResult {
        let mut memo = Memo::new();
        self.coerce_in(v, h, &mut memo)
    }

    fn coerce_in(&mut self, v: Value, h: &Hint, memo: &mut Memo) -> EResult {
        let resolved = h.resolve();
        let h: &Hint = &resolved;
        if !h.has_int() {
            return Ok(v);
        }
        self.tick()?;
        self.check_native_stack()?;
        let key = shared_node(&v).map(|p| (p, h as *const Hint as usize));
        if let Some(k) = key {
            if let Some(done) = memo.get(&k) {
                return Ok(done.clone());
            }
            if matches!(v, Value::Record(_) | Value::VarArray(_)) {
                // converted in place: mark first, so that a cycle ends here
                memo.insert(k, v.clone());
            }
        }
        let out = self.coerce_node(v, h, memo)?;
        if let Some(k) = key {
            memo.insert(k, out.clone());
        }
        Ok(out)
    }

    fn coerce_node(&mut self, v: Value, h: &Hint, memo: &mut Memo) -> EResult {
        Ok(match (h, v) {
            (Hint::Num(k), v @ (Value::Nat(_) | Value::BigNat(_))) if *k != NumKind::Nat => {
                num::convert(v, *k).map_err(trap)?
            }
            (Hint::Num(k), v @ (Value::Int(_) | Value::BigInt(_)))
                if !matches!(k, NumKind::Int | NumKind::Nat) =>
            {
                num::convert(v, *k).map_err(trap)?
            }
            (Hint::Opt(h), Value::Opt(x)) if h.has_int() => {
                Value::Opt(Rc::new(self.coerce_in((*x).clone(), h, memo)?))
            }
            (Hint::Array(h), Value::Array(xs)) if h.has_int() => {
                let mut v = Vec::with_capacity(xs.len());
                for x in xs.iter() {
                    v.push(self.coerce_in(x.clone(), h, memo)?);
                }
                Value::Array(Rc::from(v))
            }
            (Hint::Array(h), Value::VarArray(xs)) if h.has_int() => {
                let n = xs.borrow().len();
                for i in 0..n {
                    let Some(x) = xs.borrow().get(i).cloned() else {
                        break;
                    };
                    let x = self.coerce_in(x, h, memo)?;
                    if let Some(slot) = xs.borrow_mut().get_mut(i) {
                        *slot = x;
                    }
                }
                Value::VarArray(xs)
            }
            (Hint::Tuple(hs), Value::Tuple(xs)) if hs.len() == xs.len() => {
                let mut v = Vec::with_capacity(xs.len());
                for (x, h) in xs.iter().zip(hs) {
                    v.push(self.coerce_in(x.clone(), h, memo)?);
                }
                Value::Tuple(Rc::from(v))
            }
            (Hint::Record(hs), Value::Record(r)) => {
                for f in &r.fields {
                    if let Some((_, h)) = hs.iter().find(|(n, _)| *n == f.name) {
                        if h.has_int() {
                            let v = f.get();
                            let v = self.coerce_in(v, h, memo)?;
                            f.set(v);
                        }
                    }
                }
                Value::Record(r)
            }
            (Hint::Variant(hs), Value::Variant(tv)) => match hs.iter().find(|(n, _)| *n == tv.0) {
                Some((_, h)) if h.has_int() => {
                    let payload = self.coerce_in(tv.1.clone(), h, memo)?;
                    Value::Variant(Rc::new((tv.0.clone(), payload)))
                }
                _ => Value::Variant(tv),
            },
            (_, v) => v,
        })
    }

    /// Stops with a limit error when the native stack used by this evaluation exceeds its
    /// budget (deep values and deep calls alike).
    pub(super) fn check_native_stack(&self) -> EResult<()> {
        let here = 0u8;
        let used = self.stack_base.abs_diff(std::ptr::addr_of!(here) as usize);
        if self.stack_base != 0 && used > self.limits.max_native_stack {
            return Err(limit(format!(
                "native stack budget exhausted ({used} bytes at call depth {})",
                self.depth
            )));
        }
        Ok(())
    }
}

/// The identity of a node that several parents may share, if `v` is one.
fn shared_node(v: &Value) -> Option<usize> {
    let p = match v {
        Value::Opt(x) if Rc::strong_count(x) > 1 => Rc::as_ptr(x) as *const u8 as usize,
        Value::Array(x) | Value::Tuple(x) if Rc::strong_count(x) > 1 => {
            Rc::as_ptr(x) as *const u8 as usize
        }
        Value::Variant(x) if Rc::strong_count(x) > 1 => Rc::as_ptr(x) as *const u8 as usize,
        Value::Record(x) => Rc::as_ptr(x) as *const u8 as usize,
        Value::VarArray(x) => Rc::as_ptr(x) as *const u8 as usize,
        _ => return None,
    };
    Some(p)
}
