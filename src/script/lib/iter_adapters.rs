//! mo:core's `Iter` functions that make iterators from iterators (`zip`, `takeWhile`,
//! `flatMap`, `scanLeft`, `step`...) or from nothing (`unfold`, `infinite`, `repeat`), lazy
//! as core's are: each reads its source (and calls the script's functions) only when asked
//! for an element, in core's order, so an endless source is never read to its end. The
//! eager ones (`reduce`, `sort`, `scanRight`'s reversal) read it whole, as core does.

use super::args::{arg, bool_of, wrong};
use super::iters::{collect, iter_value, VecIter};
use crate::script::eval::{EResult, Interp};
use crate::script::value::{NativeIter, Value};
use std::rc::Rc;

type R = EResult;

/// The next element of each source in turn (none once one of them ends, the later ones
/// left unread), as a tuple or passed to `f`.
struct ZipIter {
    sources: Vec<Value>,
    f: Option<Value>,
}

impl NativeIter for ZipIter {
    fn next(&mut self, it: &mut Interp) -> EResult<Option<Value>> {
        let mut xs = Vec::with_capacity(self.sources.len());
        for s in &self.sources {
            match it.iter_next(s)? {
                Some(x) => xs.push(x),
                None => return Ok(None),
            }
        }
        Ok(Some(match &self.f {
            Some(f) => it.call_value(f, &xs)?,
            None => Value::Tuple(Rc::from(xs)),
        }))
    }
}

fn zip_of(a: &[Value], n: usize, with: bool, who: &str) -> R {
    let mut sources = Vec::with_capacity(n);
    for i in 0..n {
        sources.push(arg(a, i, who)?.clone());
    }
    let f = if with {
        Some(arg(a, n, who)?.clone())
    } else {
        None
    };
    Ok(iter_value(ZipIter { sources, f }))
}

/// `Iter.zip(a, b)`.
pub fn zip(_: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    zip_of(a, 2, false, "Iter.zip")
}

/// `Iter.zip3(a, b, c)`.
pub fn zip3(_: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    zip_of(a, 3, false, "Iter.zip3")
}

/// `Iter.zipWith(a, b, f)`.
pub fn zip_with(_: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    zip_of(a, 2, true, "Iter.zipWith")
}

/// `Iter.zipWith3(a, b, c, f)`.
pub fn zip_with3(_: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    zip_of(a, 3, true, "Iter.zipWith3")
}

/// The elements up to the first one the predicate fails for.
struct TakeWhileIter {
    inner: Value,
    f: Value,
    done: bool,
}

impl NativeIter for TakeWhileIter {
    fn next(&mut self, it: &mut Interp) -> EResult<Option<Value>> {
        if self.done {
            return Ok(None);
        }
        let Some(x) = it.iter_next(&self.inner)? else {
            return Ok(None);
        };
        if bool_of(
            &it.call_value(&self.f, std::slice::from_ref(&x))?,
            "Iter.takeWhile",
        )? {
            return Ok(Some(x));
        }
        self.done = true;
        Ok(None)
    }
}

/// `Iter.takeWhile(it, p)`.
pub fn take_while(_: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    Ok(iter_value(TakeWhileIter {
        inner: arg(a, 0, "Iter.takeWhile")?.clone(),
        f: arg(a, 1, "Iter.takeWhile")?.clone(),
        done: false,
    }))
}

/// The elements from the first one the predicate fails for.
struct DropWhileIter {
    inner: Value,
    f: Value,
    dropping: bool,
}

impl NativeIter for DropWhileIter {
    fn next(&mut self, it: &mut Interp) -> EResult<Option<Value>> {
        while self.dropping {
            it.tick()?;
            let Some(x) = it.iter_next(&self.inner)? else {
                return Ok(None);
            };
            let keep = it.call_value(&self.f, std::slice::from_ref(&x))?;
            if !bool_of(&keep, "Iter.dropWhile")? {
                self.dropping = false;
                return Ok(Some(x));
            }
        }
        it.iter_next(&self.inner)
    }
}

/// `Iter.dropWhile(it, p)`.
pub fn drop_while(_: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    Ok(iter_value(DropWhileIter {
        inner: arg(a, 0, "Iter.dropWhile")?.clone(),
        f: arg(a, 1, "Iter.dropWhile")?.clone(),
        dropping: true,
    }))
}

/// The source without its first `n` elements, dropped when the first element is asked
/// for (a source that ends early is asked again next time, as core's `drop` does).
struct DropIter {
    inner: Value,
    left: u64,
}

impl NativeIter for DropIter {
    fn next(&mut self, it: &mut Interp) -> EResult<Option<Value>> {
        while self.left > 0 {
            it.tick()?;
            if it.iter_next(&self.inner)?.is_none() {
                return Ok(None);
            }
            self.left -= 1;
        }
        it.iter_next(&self.inner)
    }
}

/// A count argument, saturated to `u64` (more than any iterator gives in a budget).
fn count_arg(a: &[Value], i: usize, who: &str) -> EResult<u64> {
    match arg(a, i, who)? {
        Value::Nat(n) => Ok(*n),
        Value::BigNat(_) => Ok(u64::MAX),
        Value::Int(n) if *n >= 0 => Ok(*n as u64),
        other => Err(wrong(who, "Nat", other)),
    }
}

/// `Iter.drop(it, n)`.
pub fn drop(_: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    Ok(iter_value(DropIter {
        inner: arg(a, 0, "Iter.drop")?.clone(),
        left: count_arg(a, 1, "Iter.drop")?,
    }))
}

/// The elements `f` keeps (`?y` gives `y`).
struct FilterMapIter {
    inner: Value,
    f: Value,
}

impl NativeIter for FilterMapIter {
    fn next(&mut self, it: &mut Interp) -> EResult<Option<Value>> {
        loop {
            it.tick()?;
            let Some(x) = it.iter_next(&self.inner)? else {
                return Ok(None);
            };
            match it.call_value(&self.f, &[x])? {
                Value::Opt(y) => return Ok(Some((*y).clone())),
                Value::Null => {}
                other => return Err(wrong("Iter.filterMap", "option", &other)),
            }
        }
    }
}

/// `Iter.filterMap(it, f)`.
pub fn filter_map(_: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    Ok(iter_value(FilterMapIter {
        inner: arg(a, 0, "Iter.filterMap")?.clone(),
        f: arg(a, 1, "Iter.filterMap")?.clone(),
    }))
}

/// The elements of each iterator the source gives (or `f` makes of each element), one
/// iterator after the other.
struct FlatIter {
    outer: Value,
    f: Option<Value>,
    current: Option<Value>,
}

impl NativeIter for FlatIter {
    fn next(&mut self, it: &mut Interp) -> EResult<Option<Value>> {
        loop {
            it.tick()?;
            if let Some(cur) = &self.current {
                if let Some(x) = it.iter_next(cur)? {
                    return Ok(Some(x));
                }
            }
            let Some(next) = it.iter_next(&self.outer)? else {
                return Ok(None);
            };
            self.current = Some(match &self.f {
                Some(f) => it.call_value(f, &[next])?,
                None => next,
            });
        }
    }
}

/// `Iter.flatten(its)`.
pub fn flatten(_: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    Ok(iter_value(FlatIter {
        outer: arg(a, 0, "Iter.flatten")?.clone(),
        f: None,
        current: None,
    }))
}

/// `Iter.flatMap(it, f)`.
pub fn flat_map(_: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    Ok(iter_value(FlatIter {
        outer: arg(a, 0, "Iter.flatMap")?.clone(),
        f: Some(arg(a, 1, "Iter.flatMap")?.clone()),
        current: None,
    }))
}

/// `Iter.reduce(it, combine)`: the elements combined from the left, null if none.
pub fn reduce(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let inner = arg(a, 0, "Iter.reduce")?.clone();
    let f = arg(a, 1, "Iter.reduce")?.clone();
    let Some(mut acc) = it.iter_next(&inner)? else {
        return Ok(Value::Null);
    };
    while let Some(x) = it.iter_next(&inner)? {
        it.tick()?;
        acc = it.call_value(&f, &[acc, x])?;
    }
    Ok(Value::some(acc))
}

/// The initial value, then each accumulation in turn (`flip`: `f(x, acc)`, for
/// `scanRight`).
struct ScanIter {
    inner: Value,
    acc: Value,
    f: Value,
    initial: bool,
    flip: bool,
}

impl NativeIter for ScanIter {
    fn next(&mut self, it: &mut Interp) -> EResult<Option<Value>> {
        if self.initial {
            self.initial = false;
            return Ok(Some(self.acc.clone()));
        }
        let Some(x) = it.iter_next(&self.inner)? else {
            return Ok(None);
        };
        let acc = self.acc.clone();
        let args = if self.flip { [x, acc] } else { [acc, x] };
        self.acc = it.call_value(&self.f, &args)?;
        Ok(Some(self.acc.clone()))
    }
}

/// `Iter.scanLeft(it, initial, combine)`.
pub fn scan_left(_: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    Ok(iter_value(ScanIter {
        inner: arg(a, 0, "Iter.scanLeft")?.clone(),
        acc: arg(a, 1, "Iter.scanLeft")?.clone(),
        f: arg(a, 2, "Iter.scanLeft")?.clone(),
        initial: true,
        flip: false,
    }))
}

fn vec_iter(xs: Vec<Value>) -> Value {
    iter_value(VecIter {
        items: Rc::from(xs),
        pos: 0,
    })
}

/// `Iter.scanRight(it, initial, combine)`: reads the source whole (core reverses it), then
/// accumulates from its end as the elements are asked for.
pub fn scan_right(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let mut xs = collect(it, arg(a, 0, "Iter.scanRight")?)?;
    xs.reverse();
    Ok(iter_value(ScanIter {
        inner: vec_iter(xs),
        acc: arg(a, 1, "Iter.scanRight")?.clone(),
        f: arg(a, 2, "Iter.scanRight")?.clone(),
        initial: true,
        flip: true,
    }))
}

/// Every `n`th element: one, then `n - 1` skipped (read even after the source ended).
struct StepIter {
    inner: Value,
    n: u64,
}

impl NativeIter for StepIter {
    fn next(&mut self, it: &mut Interp) -> EResult<Option<Value>> {
        let item = it.iter_next(&self.inner)?;
        for _ in 1..self.n {
            it.tick()?;
            it.iter_next(&self.inner)?;
        }
        Ok(item)
    }
}

/// `Iter.step(it, n)`: `n` 0 gives an empty iterator, 1 the source itself.
pub fn step(_: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let inner = arg(a, 0, "Iter.step")?.clone();
    Ok(match count_arg(a, 1, "Iter.step")? {
        0 => vec_iter(Vec::new()),
        1 => inner,
        n => iter_value(StepIter { inner, n }),
    })
}

/// `Iter.sort(it, compare)`: the elements read whole and sorted (stable, core's calls of
/// `compare`).
pub fn sort(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let who = "Iter.sort";
    let mut xs = collect(it, arg(a, 0, who)?)?;
    let cmp = arg(a, 1, who)?.clone();
    super::sort::sort_in_place(it, &mut xs, &cmp, who)?;
    Ok(vec_iter(xs))
}

/// `step(state)` answers `?(element, next state)`, or null for none (asked again the next
/// time, as core does).
struct UnfoldIter {
    state: Value,
    f: Value,
}

impl NativeIter for UnfoldIter {
    fn next(&mut self, it: &mut Interp) -> EResult<Option<Value>> {
        match it.call_value(&self.f, std::slice::from_ref(&self.state))? {
            Value::Null => Ok(None),
            Value::Opt(p) => match &*p {
                Value::Tuple(ts) if ts.len() == 2 => {
                    self.state = ts[1].clone();
                    Ok(Some(ts[0].clone()))
                }
                other => Err(wrong("Iter.unfold", "pair", other)),
            },
            other => Err(wrong("Iter.unfold", "option", &other)),
        }
    }
}

/// `Iter.unfold(initial, step)`.
pub fn unfold(_: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    Ok(iter_value(UnfoldIter {
        state: arg(a, 0, "Iter.unfold")?.clone(),
        f: arg(a, 1, "Iter.unfold")?.clone(),
    }))
}

/// One value, `left` more times (`None`: without end).
struct RepeatIter {
    item: Value,
    left: Option<u64>,
}

impl NativeIter for RepeatIter {
    fn next(&mut self, _: &mut Interp) -> EResult<Option<Value>> {
        match &mut self.left {
            Some(0) => Ok(None),
            Some(n) => {
                *n -= 1;
                Ok(Some(self.item.clone()))
            }
            None => Ok(Some(self.item.clone())),
        }
    }
}

/// An iterator giving `item` without end.
pub fn endless(item: Value) -> Value {
    iter_value(RepeatIter { item, left: None })
}

/// `Iter.infinite(x)`: `x` without end.
pub fn infinite(_: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    Ok(iter_value(RepeatIter {
        item: arg(a, 0, "Iter.infinite")?.clone(),
        left: None,
    }))
}

/// `Iter.repeat(x, n)`: `x`, `n` times.
pub fn repeat(_: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    Ok(iter_value(RepeatIter {
        item: arg(a, 0, "Iter.repeat")?.clone(),
        left: Some(count_arg(a, 1, "Iter.repeat")?),
    }))
}
