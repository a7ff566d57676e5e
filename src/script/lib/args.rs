//! Argument helpers for built-ins: typed access with clear traps.

use crate::script::eval::{trap, Ctrl, EResult, Interp};
use crate::script::value::Value;
use std::rc::Rc;

/// Argument `i`, or a trap naming the built-in.
pub fn arg<'a>(args: &'a [Value], i: usize, who: &str) -> EResult<&'a Value> {
    args.get(i)
        .ok_or_else(|| trap(format!("{who}: missing argument {}", i + 1)))
}

/// The receiver of a method, or argument 0 when called as a module function.
pub fn this_or_first<'a>(
    this: Option<&'a Value>,
    args: &'a [Value],
    who: &str,
) -> EResult<(&'a Value, &'a [Value])> {
    match this {
        Some(t) => Ok((t, args)),
        None => Ok((arg(args, 0, who)?, &args[1..])),
    }
}

/// A natural number argument as usize.
pub fn usize_arg(args: &[Value], i: usize, who: &str) -> EResult<usize> {
    match arg(args, i, who)? {
        Value::Nat(n) => usize::try_from(*n).map_err(|_| trap(format!("{who}: number too large"))),
        Value::Int(n) if *n >= 0 => {
            usize::try_from(*n).map_err(|_| trap(format!("{who}: number too large")))
        }
        Value::BigNat(_) => Err(trap(format!("{who}: number too large"))),
        other => Err(wrong(who, "Nat", other)),
    }
}

/// A text argument.
pub fn text_arg(args: &[Value], i: usize, who: &str) -> EResult<Rc<str>> {
    match arg(args, i, who)? {
        Value::Text(t) => Ok(t.clone()),
        other => Err(wrong(who, "Text", other)),
    }
}

/// A char argument.
pub fn char_arg(args: &[Value], i: usize, who: &str) -> EResult<char> {
    match arg(args, i, who)? {
        Value::Char(c) => Ok(*c),
        other => Err(wrong(who, "Char", other)),
    }
}

/// A float argument (integers are accepted and converted).
pub fn float_arg(args: &[Value], i: usize, who: &str) -> EResult<f64> {
    match arg(args, i, who)? {
        Value::Float(f) => Ok(*f),
        other => crate::script::value::num::to_f64(other).ok_or_else(|| wrong(who, "Float", other)),
    }
}

/// A trap for an argument of the wrong kind.
pub fn wrong(who: &str, expected: &str, got: &Value) -> Ctrl {
    trap(format!(
        "{who}: expected a {expected}, got a {}",
        got.kind_name()
    ))
}

/// The elements of an array, of a mutable array (copied) or of an array read lazily from the
/// heap (each element decoded and charged as it is read).
pub fn elems(it: &mut Interp, v: &Value, who: &str) -> EResult<Rc<[Value]>> {
    match v {
        Value::Array(xs) => Ok(xs.clone()),
        Value::VarArray(xs) => Ok(Rc::from(xs.borrow().as_slice())),
        Value::Host(h) if crate::script::host::lazy::is_lazy_array(&**h) => {
            Ok(Rc::from(super::view::parts(it, v)?))
        }
        other => Err(wrong(who, "array", other)),
    }
}

/// The number of elements of an array, a mutable array or an array read lazily from the
/// heap (no element decoded).
pub fn array_len(it: &mut Interp, v: &Value, who: &str) -> EResult<usize> {
    match v {
        Value::Array(xs) => Ok(xs.len()),
        Value::VarArray(xs) => Ok(xs.borrow().len()),
        Value::Host(h) if crate::script::host::lazy::is_lazy_array(&**h) => {
            match super::view::len(it, v)? {
                Some(n) => usize::try_from(n).map_err(|_| trap(format!("{who}: array too large"))),
                None => Err(wrong(who, "array", v)),
            }
        }
        other => Err(wrong(who, "array", other)),
    }
}

/// A Bool result of a callback.
pub fn bool_of(v: &Value, who: &str) -> EResult<bool> {
    match v {
        Value::Bool(b) => Ok(*b),
        other => Err(wrong(who, "Bool", other)),
    }
}
