//! `mo:base` functions that `mo:core` renamed or dropped, so older analysis scripts run as
//! written: `Iter.range`/`revRange` (inclusive bounds), `Array.init`/`subArray` (base's
//! argument orders). The plain renames (`append`, `freeze`, `thaw`, `tabulateVar`) point at
//! the `mo:core` functions in the module tables.

use super::args::{arg, usize_arg};
use super::collections;
use super::ranges::{count, int_arg};
use crate::script::eval::{trap, EResult, Interp};
use crate::script::value::{NumKind, Value};
use num_bigint::BigInt;
use num_traits::One;
use std::rc::Rc;

/// `Iter.range(from, to)` (mo:base): `from` up to `to`, inclusive, as Nat.
pub fn iter_range(_: &mut Interp, _: Option<&Value>, a: &[Value]) -> EResult {
    let from = int_arg(a, 0, "Iter.range")?;
    let to = int_arg(a, 1, "Iter.range")?;
    Ok(count(NumKind::Nat, from, to, BigInt::one()))
}

/// `Iter.revRange(from, to)` (mo:base): `from` down to `to`, inclusive, as Int.
pub fn iter_rev_range(_: &mut Interp, _: Option<&Value>, a: &[Value]) -> EResult {
    let from = int_arg(a, 0, "Iter.revRange")?;
    let to = int_arg(a, 1, "Iter.revRange")?;
    Ok(count(NumKind::Int, from, to, -BigInt::one()))
}

/// `Array.init(size, x)` (mo:base): a `[var T]` of `size` copies of `x`.
pub fn array_init(it: &mut Interp, this: Option<&Value>, a: &[Value]) -> EResult {
    let size = arg(a, 0, "Array.init")?.clone();
    let x = arg(a, 1, "Array.init")?.clone();
    collections::repeat_var(it, this, &[x, size])
}

/// `Array.subArray(xs, start, length)` (mo:base): `length` elements from `start`.
pub fn sub_array(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> EResult {
    let xs = super::args::elems(it, arg(a, 0, "Array.subArray")?, "Array.subArray")?;
    let start = usize_arg(a, 1, "Array.subArray")?;
    let len = usize_arg(a, 2, "Array.subArray")?;
    let end = start
        .checked_add(len)
        .filter(|&e| e <= xs.len())
        .ok_or_else(|| trap("Array.subArray: out of bounds"))?;
    it.alloc(16 * len as u64)?;
    Ok(Value::Array(Rc::from(&xs[start..end])))
}
