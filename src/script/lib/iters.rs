//! Native iterators: over arrays, ranges, texts, and lazily mapped or filtered iterators.

use super::args::bool_of;
use super::Builtin;
use crate::script::eval::{trap, EResult, Interp};
use crate::script::value::{NativeIter, Value};
use std::cell::RefCell;
use std::rc::Rc;

/// Wraps a native iterator as a script value.
pub fn iter_value(it: impl NativeIter + 'static) -> Value {
    Value::Iter(Rc::new(RefCell::new(it)))
}

/// Iterates over a shared slice of values.
pub struct VecIter {
    /// The items.
    pub items: Rc<[Value]>,
    /// The next position.
    pub pos: usize,
}

impl NativeIter for VecIter {
    fn next(&mut self, _: &mut Interp) -> EResult<Option<Value>> {
        let v = self.items.get(self.pos).cloned();
        self.pos += 1;
        Ok(v)
    }
}

/// Iterates over a mutable array, seeing updates made during iteration.
pub struct VarIter {
    pub(super) items: Rc<RefCell<Vec<Value>>>,
    pub(super) pos: usize,
}

impl NativeIter for VarIter {
    fn next(&mut self, _: &mut Interp) -> EResult<Option<Value>> {
        let v = self.items.borrow().get(self.pos).cloned();
        self.pos += 1;
        Ok(v)
    }
}

/// Counts `from, from+step, ...` while below (or, for negative steps, above) `to`.
pub struct RangeIter {
    pub(super) cur: i128,
    pub(super) end: i128,
    pub(super) step: i128,
    pub(super) int: bool,
}

impl NativeIter for RangeIter {
    fn next(&mut self, _: &mut Interp) -> EResult<Option<Value>> {
        let more = if self.step > 0 {
            self.cur < self.end
        } else {
            self.cur > self.end
        };
        if !more {
            return Ok(None);
        }
        let v = self.cur;
        self.cur += self.step;
        Ok(Some(if self.int {
            Value::Int(v as i64)
        } else {
            Value::Nat(v as u64)
        }))
    }

    fn range_bounds(&self) -> Option<(i128, i128, i128, bool)> {
        Some((self.cur, self.end, self.step, self.int))
    }
}

/// Iterates over the characters of a text.
pub struct CharsIter {
    pub(super) text: Rc<str>,
    pub(super) pos: usize,
}

impl NativeIter for CharsIter {
    fn next(&mut self, _: &mut Interp) -> EResult<Option<Value>> {
        match self.text.get(self.pos..).and_then(|s| s.chars().next()) {
            Some(c) => {
                self.pos += c.len_utf8();
                Ok(Some(Value::Char(c)))
            }
            None => Ok(None),
        }
    }
}

/// Iterates over the bytes of a blob as `Nat8`.
pub struct BytesIter {
    pub(super) bytes: Rc<[u8]>,
    pub(super) pos: usize,
}

impl NativeIter for BytesIter {
    fn next(&mut self, _: &mut Interp) -> EResult<Option<Value>> {
        let v = self.bytes.get(self.pos).map(|b| Value::Nat8(*b));
        self.pos += 1;
        Ok(v)
    }
}

/// Applies a function to each element of another iterator.
pub struct MapIter {
    pub(super) inner: Value,
    pub(super) f: Value,
}

impl NativeIter for MapIter {
    fn next(&mut self, it: &mut Interp) -> EResult<Option<Value>> {
        match it.iter_next(&self.inner)? {
            Some(v) => Ok(Some(it.call_value(&self.f, &[v])?)),
            None => Ok(None),
        }
    }
}

/// Keeps the elements of another iterator for which a predicate holds.
pub struct FilterIter {
    pub(super) inner: Value,
    pub(super) f: Value,
}

impl NativeIter for FilterIter {
    fn next(&mut self, it: &mut Interp) -> EResult<Option<Value>> {
        loop {
            it.tick()?;
            match it.iter_next(&self.inner)? {
                Some(v) => {
                    let keep = it.call_value(&self.f, std::slice::from_ref(&v))?;
                    if bool_of(&keep, "Iter.filter")? {
                        return Ok(Some(v));
                    }
                }
                None => return Ok(None),
            }
        }
    }
}

/// Keeps at most `n` elements of another iterator.
pub struct TakeIter {
    pub(super) inner: Value,
    pub(super) left: usize,
}

impl NativeIter for TakeIter {
    fn next(&mut self, it: &mut Interp) -> EResult<Option<Value>> {
        if self.left == 0 {
            return Ok(None);
        }
        self.left -= 1;
        it.iter_next(&self.inner)
    }
}

/// Pairs each element with its index.
pub struct EnumerateIter {
    pub(super) inner: Value,
    pub(super) i: u64,
}

impl NativeIter for EnumerateIter {
    fn next(&mut self, it: &mut Interp) -> EResult<Option<Value>> {
        match it.iter_next(&self.inner)? {
            Some(v) => {
                let i = self.i;
                self.i += 1;
                Ok(Some(Value::Tuple(Rc::from(vec![Value::Nat(i), v]))))
            }
            None => Ok(None),
        }
    }
}

/// One iterator after another.
pub struct ConcatIter {
    pub(super) a: Value,
    pub(super) b: Value,
    pub(super) first_done: bool,
}

impl NativeIter for ConcatIter {
    fn next(&mut self, it: &mut Interp) -> EResult<Option<Value>> {
        if !self.first_done {
            if let Some(v) = it.iter_next(&self.a)? {
                return Ok(Some(v));
            }
            self.first_done = true;
        }
        it.iter_next(&self.b)
    }
}

/// Drains an iterator into a vector, charging one step per element.
pub fn collect(it: &mut Interp, v: &Value) -> EResult<Vec<Value>> {
    let mut out = Vec::new();
    while let Some(x) = it.iter_next(v)? {
        it.tick()?;
        it.alloc(16)?;
        out.push(x);
    }
    Ok(out)
}

fn iter_next_method(it: &mut Interp, this: Option<&Value>, _: &[Value]) -> EResult {
    let v = this.ok_or_else(|| trap("next: no iterator"))?;
    Ok(match it.iter_next(v)? {
        Some(x) => Value::some(x),
        None => Value::Null,
    })
}

/// Methods of native iterators.
pub static ITER_METHODS: &[Builtin] = &[Builtin {
    name: "next",
    f: iter_next_method,
    arg_hints: &[],
    blob_args: false,
    value: None,
}];
