//! Structural views of a value that may be a host object read lazily from the heap (a
//! stable variable too large to decode at once): the library functions that read core
//! data structures (`Map`, `Set`, `List`) see records, variants, arrays, tuples and
//! options the same way, eager or lazy, and the host's decoding is charged to the budgets.

use crate::script::eval::{host_trap, EResult, Interp};
use crate::script::host::HostObject;
use crate::script::value::Value;
use std::rc::Rc;

/// Calls the host method `name` and charges what it decoded.
pub(super) fn host_call(
    it: &mut Interp,
    h: &Rc<dyn HostObject>,
    name: &str,
    args: &[Value],
) -> EResult<Option<Value>> {
    let v = h.call(name, args).map_err(host_trap);
    it.charge_host(&**h)?;
    v
}

/// Field `name` of a record, if `v` is a record that has it.
pub fn field(it: &mut Interp, v: &Value, name: &str) -> EResult<Option<Value>> {
    match v {
        Value::Record(r) => Ok(r.get(name).map(|f| f.get())),
        Value::Host(h) => {
            let f = h.field(name).map_err(host_trap);
            it.charge_host(&**h)?;
            f
        }
        _ => Ok(None),
    }
}

/// The tag and payload of a variant, if `v` is one.
pub fn variant(it: &mut Interp, v: &Value) -> EResult<Option<(Rc<str>, Value)>> {
    match v {
        Value::Variant(tv) => Ok(Some((tv.0.clone(), tv.1.clone()))),
        Value::Host(h) => {
            let Some(Value::Text(tag)) = host_call(it, h, "tag", &[])? else {
                return Ok(None);
            };
            let payload = host_call(it, h, "payload", &[])?.unwrap_or(Value::Unit);
            Ok(Some((tag, payload)))
        }
        _ => Ok(None),
    }
}

/// The parts of an array, mutable array or tuple (empty for anything else), charging a
/// step per part.
pub fn parts(it: &mut Interp, v: &Value) -> EResult<Vec<Value>> {
    let out = match v {
        Value::Array(xs) | Value::Tuple(xs) => xs.to_vec(),
        Value::VarArray(xs) => xs.borrow().clone(),
        Value::Host(h) => {
            let Some(n) = len(it, v)? else {
                return Ok(Vec::new());
            };
            let mut out = Vec::new();
            for i in 0..n {
                it.tick()?;
                if let Some(x) = host_call(it, h, "get", &[Value::Nat(i)])? {
                    out.push(x);
                }
            }
            return Ok(out);
        }
        _ => Vec::new(),
    };
    it.ticks(out.len() as u64)?;
    Ok(out)
}

/// An option's content: `Some(Some(x))` for `?x`, `Some(None)` for `null`, `None` if `v`
/// is not an option.
pub fn option(it: &mut Interp, v: &Value) -> EResult<Option<Option<Value>>> {
    match v {
        Value::Opt(x) => Ok(Some(Some((**x).clone()))),
        Value::Null => Ok(Some(None)),
        Value::Host(h) => match host_call(it, h, "value", &[])? {
            Some(Value::Opt(x)) => Ok(Some(Some((*x).clone()))),
            Some(Value::Null) => Ok(Some(None)),
            _ => Ok(None),
        },
        _ => Ok(None),
    }
}

/// The number of parts of an array, mutable array or tuple (`None` for anything else),
/// without reading them.
pub fn len(it: &mut Interp, v: &Value) -> EResult<Option<u64>> {
    match v {
        Value::Array(xs) | Value::Tuple(xs) => Ok(Some(xs.len() as u64)),
        Value::VarArray(xs) => Ok(Some(xs.borrow().len() as u64)),
        Value::Host(h) => match host_call(it, h, "size", &[])? {
            Some(Value::Nat(n)) => Ok(Some(n)),
            _ => Ok(None),
        },
        _ => Ok(None),
    }
}

/// Part `i` of an array, mutable array or tuple, reading only that part.
pub fn part(it: &mut Interp, v: &Value, i: u64) -> EResult<Option<Value>> {
    it.tick()?;
    let at = usize::try_from(i).ok();
    match v {
        Value::Array(xs) | Value::Tuple(xs) => Ok(at.and_then(|i| xs.get(i).cloned())),
        Value::VarArray(xs) => Ok(at.and_then(|i| xs.borrow().get(i).cloned())),
        Value::Host(h) => host_call(it, h, "get", &[Value::Nat(i)]),
        _ => Ok(None),
    }
}
