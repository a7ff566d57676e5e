//! `Array` and `VarArray` functions of mo:core beyond the basic ones of `collections`:
//! searching (`binarySearch`, `nextIndexOf`...), slices and ranges (negative indices count
//! from the end), `mapEntries`, `mapResult`, and the `VarArray` ones that build or change a
//! mutable array (`clone`, `mapInPlace`, `reverseInPlace`, `sort`...). Each calls the
//! script's functions on the same elements, in the same order, as core does.

use super::args::{arg, bool_of, elems, wrong};
use super::iters::{collect, iter_value};
use crate::script::eval::{trap, EResult, Interp};
use crate::script::value::{num::to_bigint, NativeIter, Value};
use num_traits::ToPrimitive;
use std::cell::RefCell;
use std::rc::Rc;

type R = EResult;

fn arr(v: Vec<Value>) -> Value {
    Value::Array(Rc::from(v))
}

fn var_arr(v: Vec<Value>) -> Value {
    Value::VarArray(Rc::new(RefCell::new(v)))
}

/// An integer argument, saturated to `i128` (an index that large is past any array).
fn int_arg(a: &[Value], i: usize, who: &str) -> EResult<i128> {
    let v = arg(a, i, who)?;
    let n = to_bigint(v).ok_or_else(|| wrong(who, "Int", v))?;
    Ok(n.to_i128()
        .unwrap_or(if n.sign() == num_bigint::Sign::Minus {
            i128::MIN
        } else {
            i128::MAX
        }))
}

/// core's bounds of a slice or range: a negative index counts from the end, and both are
/// clamped to `0..=size`.
fn bounds(size: usize, from: i128, to: i128) -> (usize, usize) {
    let size = size as i128;
    let clamp = |x: i128| {
        let x = if x < 0 { size.saturating_add(x) } else { x };
        x.clamp(0, size) as usize
    };
    (clamp(from), clamp(to))
}

fn order_tag(v: &Value, who: &str) -> EResult<Rc<str>> {
    match v {
        Value::Variant(tv) if matches!(&*tv.0, "less" | "equal" | "greater") => Ok(tv.0.clone()),
        other => Err(wrong(who, "Order", other)),
    }
}

fn nat(i: usize) -> Value {
    Value::Nat(i as u64)
}

/// `binarySearch(xs, compare, x)`: `#found i` or `#insertionIndex i`.
pub fn binary_search(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let who = "binarySearch";
    let xs = elems(it, arg(a, 0, who)?, who)?;
    let cmp = arg(a, 1, who)?.clone();
    let x = arg(a, 2, who)?.clone();
    let (mut left, mut right) = (0, xs.len());
    while left < right {
        it.tick()?;
        let mid = (left + right) / 2;
        let o = it.call_value(&cmp, &[xs[mid].clone(), x.clone()])?;
        match &*order_tag(&o, who)? {
            "less" => left = mid + 1,
            "greater" => right = mid,
            _ => return Ok(Value::variant("found", nat(mid))),
        }
    }
    Ok(Value::variant("insertionIndex", nat(left)))
}

/// The index of the first element from `from` on that `equal` holds for with `x`.
fn next_index(it: &mut Interp, a: &[Value], from: usize, who: &str) -> R {
    let xs = elems(it, arg(a, 0, who)?, who)?;
    let eq = arg(a, 1, who)?.clone();
    let x = arg(a, 2, who)?.clone();
    for (i, y) in xs.iter().enumerate().skip(from) {
        it.tick()?;
        if bool_of(&it.call_value(&eq, &[y.clone(), x.clone()])?, who)? {
            return Ok(Value::some(nat(i)));
        }
    }
    Ok(Value::Null)
}

/// `nextIndexOf(xs, equal, x, fromInclusive)`.
pub fn next_index_of(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let from = int_arg(a, 3, "nextIndexOf")?;
    next_index(
        it,
        a,
        usize::try_from(from).unwrap_or(usize::MAX),
        "nextIndexOf",
    )
}

/// The index of the last element before `before` that `equal` holds for with `x` (an
/// index past the end traps, as core's `self[i]` does).
fn prev_index(it: &mut Interp, a: &[Value], before: Option<i128>, who: &str) -> R {
    let xs = elems(it, arg(a, 0, who)?, who)?;
    let eq = arg(a, 1, who)?.clone();
    let x = arg(a, 2, who)?.clone();
    let mut i = match before {
        Some(b) => usize::try_from(b).unwrap_or(usize::MAX),
        None => xs.len(),
    };
    while i > 0 {
        it.tick()?;
        i -= 1;
        let y = xs.get(i).ok_or_else(|| trap("index out of bounds"))?;
        if bool_of(&it.call_value(&eq, &[y.clone(), x.clone()])?, who)? {
            return Ok(Value::some(nat(i)));
        }
    }
    Ok(Value::Null)
}

/// `prevIndexOf(xs, equal, x, fromExclusive)`.
pub fn prev_index_of(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let before = int_arg(a, 3, "prevIndexOf")?;
    prev_index(it, a, Some(before), "prevIndexOf")
}

/// `lastIndexOf(xs, equal, x)`.
pub fn last_index_of(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    prev_index(it, a, None, "lastIndexOf")
}

fn map_entries_vec(it: &mut Interp, a: &[Value], who: &str) -> EResult<Vec<Value>> {
    let xs = elems(it, arg(a, 0, who)?, who)?;
    let f = arg(a, 1, who)?.clone();
    it.alloc(16 * xs.len() as u64)?;
    let mut out = Vec::with_capacity(xs.len());
    for (i, x) in xs.iter().enumerate() {
        it.tick()?;
        out.push(it.call_value(&f, &[x.clone(), nat(i)])?);
    }
    Ok(out)
}

/// `Array.mapEntries(xs, f)`: `f(x, i)` for each element.
pub fn map_entries(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    Ok(arr(map_entries_vec(it, a, "Array.mapEntries")?))
}

/// `VarArray.mapEntries(xs, f)`.
pub fn map_entries_var(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    Ok(var_arr(map_entries_vec(it, a, "VarArray.mapEntries")?))
}

/// `mapResult(xs, f)`: `#ok` of the mapped elements, or the first `#err` (core calls `f` on
/// every element even after an error).
fn map_result_with(it: &mut Interp, a: &[Value], who: &str, var: bool) -> R {
    let xs = elems(it, arg(a, 0, who)?, who)?;
    let f = arg(a, 1, who)?.clone();
    it.alloc(16 * xs.len() as u64)?;
    let mut out = Vec::with_capacity(xs.len());
    let mut error = None;
    for x in xs.iter() {
        it.tick()?;
        let r = it.call_value(&f, std::slice::from_ref(x))?;
        match &r {
            Value::Variant(tv) if &*tv.0 == "ok" => out.push(tv.1.clone()),
            Value::Variant(tv) if &*tv.0 == "err" => {
                error.get_or_insert(r.clone());
            }
            other => return Err(wrong(who, "Result", other)),
        }
    }
    Ok(match error {
        Some(e) => e,
        None => Value::variant("ok", if var { var_arr(out) } else { arr(out) }),
    })
}

/// `Array.mapResult(xs, f)`.
pub fn map_result(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    map_result_with(it, a, "Array.mapResult", false)
}

/// `VarArray.mapResult(xs, f)`.
pub fn map_result_var(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    map_result_with(it, a, "VarArray.mapResult", true)
}

/// The elements `from..to` of an array, read when the iterator gets to them (a mutable
/// array's updates are seen).
struct SliceIter {
    items: Value,
    pos: usize,
    end: usize,
}

impl NativeIter for SliceIter {
    fn next(&mut self, _: &mut Interp) -> EResult<Option<Value>> {
        if self.pos >= self.end {
            return Ok(None);
        }
        let v = match &self.items {
            Value::Array(xs) => xs.get(self.pos).cloned(),
            Value::VarArray(xs) => xs.borrow().get(self.pos).cloned(),
            _ => None,
        };
        self.pos += 1;
        v.map(Some).ok_or_else(|| trap("index out of bounds"))
    }
}

/// `range(xs, fromInclusive, toExclusive)`: an iterator over a slice (negative indices
/// count from the end).
pub fn range(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let who = "range";
    let items = match arg(a, 0, who)? {
        v @ (Value::Array(_) | Value::VarArray(_)) => v.clone(),
        v @ Value::Host(_) => arr(super::view::parts(it, v)?),
        other => return Err(wrong(who, "array", other)),
    };
    let size = super::view::len(it, &items)?.unwrap_or(0) as usize;
    let (pos, end) = bounds(size, int_arg(a, 1, who)?, int_arg(a, 2, who)?);
    Ok(iter_value(SliceIter { items, pos, end }))
}

fn slice(it: &mut Interp, a: &[Value], who: &str) -> EResult<Vec<Value>> {
    let xs = elems(it, arg(a, 0, who)?, who)?;
    let (start, end) = bounds(xs.len(), int_arg(a, 1, who)?, int_arg(a, 2, who)?);
    if start >= end {
        return Ok(Vec::new());
    }
    it.alloc(16 * (end - start) as u64)?;
    it.ticks((end - start) as u64)?;
    Ok(xs[start..end].to_vec())
}

/// `sliceToArray(xs, fromInclusive, toExclusive)` (negative indices count from the end).
pub fn slice_to_array(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    Ok(arr(slice(it, a, "sliceToArray")?))
}

/// `sliceToVarArray(xs, fromInclusive, toExclusive)`.
pub fn slice_to_var_array(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    Ok(var_arr(slice(it, a, "sliceToVarArray")?))
}

// ------------------------------------------------------------------ VarArray only

/// `VarArray.clone(xs)`.
pub fn clone(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let xs = elems(it, arg(a, 0, "VarArray.clone")?, "VarArray.clone")?;
    it.alloc(16 * xs.len() as u64)?;
    Ok(var_arr(xs.to_vec()))
}

/// `VarArray.singleton(x)`.
pub fn singleton(_: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    Ok(var_arr(vec![arg(a, 0, "VarArray.singleton")?.clone()]))
}

/// `VarArray.concat(xs, ys)`.
pub fn concat(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let who = "VarArray.concat";
    let xs = elems(it, arg(a, 0, who)?, who)?;
    let ys = elems(it, arg(a, 1, who)?, who)?;
    it.alloc(16 * (xs.len() + ys.len()) as u64)?;
    Ok(var_arr(xs.iter().chain(ys.iter()).cloned().collect()))
}

/// `VarArray.flatten(xss)`.
pub fn flatten(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let who = "VarArray.flatten";
    let xss = elems(it, arg(a, 0, who)?, who)?;
    let mut out = Vec::new();
    for xs in xss.iter() {
        let xs = elems(it, xs, who)?;
        it.alloc(16 * xs.len() as u64)?;
        it.ticks(xs.len() as u64)?;
        out.extend(xs.iter().cloned());
    }
    Ok(var_arr(out))
}

/// `VarArray.flatMap(xs, f)`: the elements of the iterators `f` gives, in order.
pub fn flat_map(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let who = "VarArray.flatMap";
    let xs = elems(it, arg(a, 0, who)?, who)?;
    let f = arg(a, 1, who)?.clone();
    let mut out = Vec::new();
    for x in xs.iter() {
        it.tick()?;
        let inner = it.call_value(&f, std::slice::from_ref(x))?;
        out.extend(collect(it, &inner)?);
    }
    Ok(var_arr(out))
}

fn var_cells<'a>(v: &'a Value, who: &str) -> EResult<&'a Rc<RefCell<Vec<Value>>>> {
    match v {
        Value::VarArray(xs) => Ok(xs),
        other => Err(wrong(who, "mutable array", other)),
    }
}

/// `VarArray.mapInPlace(xs, f)`: `xs[i] := f(xs[i])`, one element after the other.
pub fn map_in_place(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let who = "VarArray.mapInPlace";
    let xs = var_cells(arg(a, 0, who)?, who)?.clone();
    let f = arg(a, 1, who)?.clone();
    let size = xs.borrow().len();
    for i in 0..size {
        it.tick()?;
        let x = xs.borrow().get(i).cloned();
        let x = x.ok_or_else(|| trap("index out of bounds"))?;
        let y = it.call_value(&f, &[x])?;
        if let Some(slot) = xs.borrow_mut().get_mut(i) {
            *slot = y;
        }
    }
    Ok(Value::Unit)
}

/// `VarArray.reverseInPlace(xs)`.
pub fn reverse_in_place(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let who = "VarArray.reverseInPlace";
    let xs = var_cells(arg(a, 0, who)?, who)?;
    it.ticks(xs.borrow().len() as u64 / 2)?;
    xs.borrow_mut().reverse();
    Ok(Value::Unit)
}

/// `VarArray.reverse(xs)`: a new mutable array.
pub fn reverse(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let xs = elems(it, arg(a, 0, "VarArray.reverse")?, "VarArray.reverse")?;
    it.alloc(16 * xs.len() as u64)?;
    Ok(var_arr(xs.iter().rev().cloned().collect()))
}

/// `VarArray.sort(xs, compare)`: a sorted copy.
pub fn sort(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let who = "VarArray.sort";
    let xs = elems(it, arg(a, 0, who)?, who)?;
    let cmp = arg(a, 1, who)?.clone();
    it.alloc(16 * xs.len() as u64)?;
    let mut v = xs.to_vec();
    super::sort::sort_in_place(it, &mut v, &cmp, who)?;
    Ok(var_arr(v))
}

#[cfg(test)]
mod tests {
    use super::bounds;

    #[test]
    fn bounds_count_negative_indices_from_the_end_and_clamp() {
        assert_eq!(bounds(5, 1, 3), (1, 3));
        assert_eq!(bounds(5, -2, 5), (3, 5));
        assert_eq!(bounds(5, -9, -1), (0, 4));
        assert_eq!(bounds(5, 7, 9), (5, 5));
        assert_eq!(bounds(5, 3, 1), (3, 1));
        assert_eq!(bounds(0, i128::MIN, i128::MAX), (0, 0));
    }
}
