//! `mo:base` functions that `mo:core` renamed or dropped, so older analysis scripts run as
//! written: `Iter.range`/`revRange` (inclusive bounds), `Array.init`/`subArray` (base's
//! argument orders). The plain renames (`append`, `freeze`, `thaw`, `tabulateVar`) point at
//! the `mo:core` functions in the module tables.

use super::args::{arg, usize_arg};
use super::collections;
use super::iters::{iter_value, RangeIter};
use super::numbers::small;
use crate::script::eval::{trap, EResult, Interp};
use crate::script::value::Value;
use std::rc::Rc;

/// `Iter.range(from, to)` (mo:base): `from` up to `to`, inclusive, as Nat.
pub fn iter_range(_: &mut Interp, _: Option<&Value>, a: &[Value]) -> EResult {
    let from = small(arg(a, 0, "Iter.range")?, "Iter.range")?;
    let to = small(arg(a, 1, "Iter.range")?, "Iter.range")?;
    Ok(iter_value(RangeIter {
        cur: from,
        end: to + 1,
        step: 1,
        int: false,
    }))
}

/// `Iter.revRange(from, to)` (mo:base): `from` down to `to`, inclusive, as Int.
pub fn iter_rev_range(_: &mut Interp, _: Option<&Value>, a: &[Value]) -> EResult {
    let from = small(arg(a, 0, "Iter.revRange")?, "Iter.revRange")?;
    let to = small(arg(a, 1, "Iter.revRange")?, "Iter.revRange")?;
    Ok(iter_value(RangeIter {
        cur: from,
        end: to - 1,
        step: -1,
        int: true,
    }))
}

/// `Array.init(size, x)` (mo:base): a `[var T]` of `size` copies of `x`.
pub fn array_init(it: &mut Interp, this: Option<&Value>, a: &[Value]) -> EResult {
    let size = arg(a, 0, "Array.init")?.clone();
    let x = arg(a, 1, "Array.init")?.clone();
    collections::repeat_var(it, this, &[x, size])
}

/// `Array.subArray(xs, start, length)` (mo:base): `length` elements from `start`.
pub fn sub_array(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> EResult {
    let xs = super::args::elems(arg(a, 0, "Array.subArray")?, "Array.subArray")?;
    let start = usize_arg(a, 1, "Array.subArray")?;
    let len = usize_arg(a, 2, "Array.subArray")?;
    let end = start
        .checked_add(len)
        .filter(|&e| e <= xs.len())
        .ok_or_else(|| trap("Array.subArray: out of bounds"))?;
    it.alloc(16 * len as u64)?;
    Ok(Value::Array(Rc::from(&xs[start..end])))
}
