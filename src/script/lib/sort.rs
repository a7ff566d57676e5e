//! Sorting by a script's `compare`, as mo:core's `VarArray.sortInPlace` sorts (which
//! `Array.sort`, `VarArray.sort`, `Iter.sort` and `List.sort` call): insertion sort for up to
//! 8 elements, else its merge sort with a buffer of half the size. Stable; the same calls of
//! `compare`, in the same order, as core makes (a `compare` that prints or counts sees them).

use super::args::wrong;
use crate::script::eval::{EResult, Interp};
use crate::script::value::Value;

/// Sorts `v` in place by the script function `cmp`; `who` names the caller in errors.
pub fn sort_in_place(it: &mut Interp, v: &mut [Value], cmp: &Value, who: &str) -> EResult<()> {
    let size = v.len();
    if size <= 1 {
        return Ok(());
    }
    let mut s = Sorter { it, cmp, who };
    if size <= 8 {
        let run = v.to_vec();
        return s.insertion(&run, v);
    }
    let mut buffer = vec![v[0].clone(); size / 2];
    s.it.alloc(16 * buffer.len() as u64)?;
    s.merge_sort(v, &mut buffer, 0, size, true, 0)
}

struct Sorter<'a> {
    it: &'a mut Interp,
    cmp: &'a Value,
    who: &'a str,
}

impl Sorter<'_> {
    /// `compare(a, b) == #less`.
    fn less(&mut self, a: &Value, b: &Value) -> EResult<bool> {
        self.it.tick()?;
        match self.it.call_value(self.cmp, &[a.clone(), b.clone()])? {
            Value::Variant(tv) => Ok(&*tv.0 == "less"),
            other => Err(wrong(self.who, "Order", &other)),
        }
    }

    /// Insertion sort of `src` (at most 8 elements) into the start of `dest`, comparing as
    /// core's `insertionSortSmall` does.
    fn insertion(&mut self, src: &[Value], dest: &mut [Value]) -> EResult<()> {
        let mut t = src.to_vec();
        for k in 1..t.len() {
            let tv = t[k].clone();
            let mut j = k;
            while j > 0 && self.less(&tv, &t[j - 1])? {
                t[j] = t[j - 1].clone();
                j -= 1;
            }
            t[j] = tv;
        }
        for (d, x) in dest.iter_mut().zip(t) {
            *d = x;
        }
        Ok(())
    }

    /// core's `mergeSortRec`: sorts `array[from..to]` into `array` itself (`even`) or into
    /// `buffer` from `offset`.
    fn merge_sort(
        &mut self,
        array: &mut [Value],
        buffer: &mut [Value],
        from: usize,
        to: usize,
        even: bool,
        offset: usize,
    ) -> EResult<()> {
        let size = to - from;
        if size <= 8 {
            let run = array[from..to].to_vec();
            return if even {
                self.insertion(&run, &mut array[from..to])
            } else {
                self.insertion(&run, &mut buffer[offset..offset + size])
            };
        }
        let len1 = size / 2;
        let mid = from + len1;
        if even {
            self.merge_sort(array, buffer, mid, to, true, 0)?;
            self.merge_sort(array, buffer, from, mid, false, 0)?;
            self.merge_into_array(array, buffer, from, mid, to)
        } else {
            self.merge_sort(array, buffer, from, mid, true, 0)?;
            self.merge_sort(array, buffer, mid, to, false, offset + len1)?;
            self.merge_into_buffer(array, buffer, from, mid, size, offset)
        }
    }

    /// core's `merge1`: `buffer[0..mid - from]` and `array[mid..to]` into `array[from..to]`.
    fn merge_into_array(
        &mut self,
        array: &mut [Value],
        buffer: &[Value],
        from: usize,
        mid: usize,
        to: usize,
    ) -> EResult<()> {
        let len = mid - from;
        let (mut pos, mut i, mut j) = (from, 0, mid);
        let mut i_elem = buffer[i].clone();
        let mut j_elem = array[j].clone();
        loop {
            if self.less(&j_elem, &i_elem)? {
                array[pos] = j_elem;
                j += 1;
                pos += 1;
                if j == to {
                    while i < len {
                        array[pos] = buffer[i].clone();
                        i += 1;
                        pos += 1;
                    }
                    return Ok(());
                }
                j_elem = array[j].clone();
            } else {
                array[pos] = i_elem;
                i += 1;
                pos += 1;
                if i == len {
                    return Ok(());
                }
                i_elem = buffer[i].clone();
            }
        }
    }

    /// core's `merge2`: `array[from..mid]` and `buffer[offset + len..offset + size]` into
    /// `buffer[offset..offset + size]`.
    fn merge_into_buffer(
        &mut self,
        array: &[Value],
        buffer: &mut [Value],
        from: usize,
        mid: usize,
        size: usize,
        offset: usize,
    ) -> EResult<()> {
        let len = mid - from;
        let (mut pos, mut i, mut j) = (offset, from, offset + len);
        let j_max = offset + size;
        let mut i_elem = array[i].clone();
        let mut j_elem = buffer[j].clone();
        loop {
            if self.less(&j_elem, &i_elem)? {
                buffer[pos] = j_elem;
                j += 1;
                pos += 1;
                if j == j_max {
                    while i < mid {
                        buffer[pos] = array[i].clone();
                        i += 1;
                        pos += 1;
                    }
                    return Ok(());
                }
                j_elem = buffer[j].clone();
            } else {
                buffer[pos] = i_elem;
                i += 1;
                pos += 1;
                if i == mid {
                    return Ok(());
                }
                i_elem = array[i].clone();
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::sort_in_place;
    use crate::script::eval::{EResult, Interp};
    use crate::script::lib::Builtin;
    use crate::script::value::{BoundBuiltin, Value};
    use crate::script::Limits;
    use std::rc::Rc;

    /// Compares `(key, index)` pairs by key only: a stable sort keeps the indices of equal
    /// keys rising.
    fn by_key(_: &mut Interp, _: Option<&Value>, a: &[Value]) -> EResult {
        let key = |v: &Value| match v {
            Value::Tuple(t) => match t[0] {
                Value::Nat(k) => k,
                _ => 0,
            },
            _ => 0,
        };
        let o = key(&a[0]).cmp(&key(&a[1]));
        Ok(crate::script::lib::collections::order_value(o))
    }

    static CMP: Builtin = func!("byKey", by_key);

    #[test]
    fn sorts_every_size_stably_as_a_stable_sort_does() {
        let mut it = Interp::new(Limits::default());
        let cmp = Value::Builtin(Rc::new(BoundBuiltin {
            f: &CMP,
            this: None,
        }));
        let mut seed = 12345u64;
        for n in 0..300 {
            let keys: Vec<u64> = (0..n)
                .map(|_| {
                    seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1);
                    (seed >> 33) % (n as u64 / 3 + 1)
                })
                .collect();
            let pair = |(i, k): (usize, &u64)| {
                Value::Tuple(Rc::from(vec![Value::Nat(*k), Value::Nat(i as u64)]))
            };
            let mut v: Vec<Value> = keys.iter().enumerate().map(pair).collect();
            assert!(sort_in_place(&mut it, &mut v, &cmp, "test").is_ok());
            let mut want: Vec<(usize, &u64)> = keys.iter().enumerate().collect();
            want.sort_by_key(|(_, k)| **k);
            let want: Vec<Value> = want.into_iter().map(pair).collect();
            let show =
                |xs: &[Value]| crate::script::value::show::debug_show(&Value::Array(Rc::from(xs)));
            assert_eq!(show(&v), show(&want), "size {n}");
        }
    }
}
