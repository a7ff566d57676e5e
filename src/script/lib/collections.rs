//! Arrays, mutable arrays, iterators, blobs and options: methods and module functions.

use super::args::{arg, array_len, bool_of, elems, this_or_first, usize_arg, wrong};
use super::iters::{
    collect, iter_value, BytesIter, ConcatIter, EnumerateIter, FilterIter, MapIter, RangeIter,
    TakeIter, VarIter, VecIter,
};
use super::Builtin;
use crate::script::eval::{trap, EResult, Interp};
use crate::script::value::{ord, Value};
use std::cell::RefCell;
use std::cmp::Ordering;
use std::rc::Rc;

type R = EResult;

fn arr(v: Vec<Value>) -> Value {
    Value::Array(Rc::from(v))
}

fn var_arr(v: Vec<Value>) -> Value {
    Value::VarArray(Rc::new(RefCell::new(v)))
}

fn size(it: &mut Interp, this: Option<&Value>, args: &[Value]) -> R {
    let (a, _) = this_or_first(this, args, "size")?;
    Ok(Value::Nat(match a {
        Value::Blob(b) => b.len() as u64,
        Value::Text(t) => t.chars().count() as u64,
        other => array_len(it, other, "size")? as u64,
    }))
}

/// An iterator over the elements of an array, mutable array or blob.
pub fn values(it: &mut Interp, this: Option<&Value>, args: &[Value]) -> R {
    let (a, _) = this_or_first(this, args, "values")?;
    Ok(match a {
        // an array read lazily from the heap: each element decoded when reached
        Value::Host(h) if crate::script::host::lazy::is_lazy_array(&**h) => {
            super::view::host_call(it, h, "vals", &[])?
                .ok_or_else(|| wrong("values", "array", a))?
        }
        Value::Array(xs) => iter_value(VecIter {
            items: xs.clone(),
            pos: 0,
        }),
        Value::VarArray(xs) => iter_value(VarIter {
            items: xs.clone(),
            pos: 0,
        }),
        Value::Blob(b) => iter_value(BytesIter {
            bytes: b.clone(),
            pos: 0,
        }),
        other => return Err(wrong("values", "array", other)),
    })
}

fn keys(it: &mut Interp, this: Option<&Value>, args: &[Value]) -> R {
    let (a, _) = this_or_first(this, args, "keys")?;
    Ok(index_iter(array_len(it, a, "keys")?))
}

/// An iterator over `0..n`.
pub(super) fn index_iter(n: usize) -> Value {
    iter_value(RangeIter {
        cur: 0,
        end: n as i128,
        step: 1,
        int: false,
    })
}

fn get(_: &mut Interp, this: Option<&Value>, args: &[Value]) -> R {
    let (a, rest) = this_or_first(this, args, "get")?;
    let i = usize_arg(rest, 0, "get")?;
    let r = match a {
        Value::Array(xs) => xs.get(i).cloned(),
        Value::VarArray(xs) => xs.borrow().get(i).cloned(),
        Value::Blob(b) => b.get(i).map(|x| Value::Nat8(*x)),
        other => return Err(wrong("get", "array", other)),
    };
    r.ok_or_else(|| trap("index out of bounds"))
}

fn put(_: &mut Interp, this: Option<&Value>, args: &[Value]) -> R {
    let (a, rest) = this_or_first(this, args, "put")?;
    let i = usize_arg(rest, 0, "put")?;
    let v = arg(rest, 1, "put")?.clone();
    match a {
        Value::VarArray(xs) => match xs.borrow_mut().get_mut(i) {
            Some(s) => {
                // the element type does not change: a `Nat` put where an `Int` was is one
                *s = crate::script::eval::adopt_int(s, v);
                Ok(Value::Unit)
            }
            None => Err(trap("index out of bounds")),
        },
        other => Err(wrong("put", "mutable array", other)),
    }
}

/// Methods of immutable arrays.
pub static ARRAY_METHODS: &[Builtin] = &[
    func!("size", size),
    func!("vals", values),
    func!("values", values),
    func!("keys", keys),
    func!("get", get),
];

/// Methods of mutable arrays.
pub static VAR_ARRAY_METHODS: &[Builtin] = &[
    func!("size", size),
    func!("vals", values),
    func!("values", values),
    func!("keys", keys),
    func!("get", get),
    func!("put", put),
];

/// Methods of blobs.
pub static BLOB_METHODS: &[Builtin] = &[
    func!("size", size),
    func!("vals", values),
    func!("values", values),
    func!("get", get),
];

// ------------------------------------------------------------------ Array module

fn tabulate_vec(it: &mut Interp, args: &[Value], who: &str) -> EResult<Vec<Value>> {
    let n = usize_arg(args, 0, who)?;
    let f = arg(args, 1, who)?.clone();
    it.check_size(16 * n as u64)?;
    it.alloc(16 * n as u64)?;
    let mut v = Vec::with_capacity(n);
    for i in 0..n {
        it.tick()?;
        v.push(it.call_value(&f, &[Value::Nat(i as u64)])?);
    }
    Ok(v)
}

/// `Array.tabulate(n, f)`.
pub fn tabulate(it: &mut Interp, _: Option<&Value>, args: &[Value]) -> R {
    Ok(arr(tabulate_vec(it, args, "Array.tabulate")?))
}

/// `VarArray.tabulate(n, f)`.
pub fn tabulate_var(it: &mut Interp, _: Option<&Value>, args: &[Value]) -> R {
    Ok(var_arr(tabulate_vec(it, args, "VarArray.tabulate")?))
}

fn repeat_vec(it: &mut Interp, args: &[Value], who: &str) -> EResult<Vec<Value>> {
    let x = arg(args, 0, who)?.clone();
    let n = usize_arg(args, 1, who)?;
    it.check_size(16 * n as u64)?;
    it.alloc(16 * n as u64)?;
    it.ticks(n as u64)?;
    Ok(vec![x; n])
}

/// `Array.repeat(x, n)`.
pub fn repeat(it: &mut Interp, _: Option<&Value>, args: &[Value]) -> R {
    Ok(arr(repeat_vec(it, args, "Array.repeat")?))
}

/// `VarArray.repeat(x, n)`.
pub fn repeat_var(it: &mut Interp, _: Option<&Value>, args: &[Value]) -> R {
    Ok(var_arr(repeat_vec(it, args, "VarArray.repeat")?))
}

fn map_vec(it: &mut Interp, args: &[Value], who: &str) -> EResult<Vec<Value>> {
    let xs = elems(it, arg(args, 0, who)?, who)?;
    let f = arg(args, 1, who)?.clone();
    it.alloc(16 * xs.len() as u64)?;
    let mut v = Vec::with_capacity(xs.len());
    for x in xs.iter() {
        it.tick()?;
        v.push(it.call_value(&f, std::slice::from_ref(x))?);
    }
    Ok(v)
}

/// `Array.map(xs, f)`.
pub fn map(it: &mut Interp, _: Option<&Value>, args: &[Value]) -> R {
    Ok(arr(map_vec(it, args, "Array.map")?))
}

/// `VarArray.map(xs, f)`.
pub fn map_var(it: &mut Interp, _: Option<&Value>, args: &[Value]) -> R {
    Ok(var_arr(map_vec(it, args, "VarArray.map")?))
}

/// `Array.filter(xs, p)`.
pub fn filter(it: &mut Interp, _: Option<&Value>, args: &[Value]) -> R {
    let xs = elems(it, arg(args, 0, "Array.filter")?, "Array.filter")?;
    let f = arg(args, 1, "Array.filter")?.clone();
    let mut v = Vec::new();
    for x in xs.iter() {
        it.tick()?;
        if bool_of(&it.call_value(&f, std::slice::from_ref(x))?, "Array.filter")? {
            v.push(x.clone());
        }
    }
    it.alloc(16 * v.len() as u64)?;
    Ok(arr(v))
}

/// `Array.filterMap(xs, f)`.
pub fn filter_map(it: &mut Interp, _: Option<&Value>, args: &[Value]) -> R {
    let xs = elems(it, arg(args, 0, "Array.filterMap")?, "Array.filterMap")?;
    let f = arg(args, 1, "Array.filterMap")?.clone();
    let mut v = Vec::new();
    for x in xs.iter() {
        it.tick()?;
        if let Value::Opt(y) = it.call_value(&f, std::slice::from_ref(x))? {
            v.push((*y).clone());
        }
    }
    it.alloc(16 * v.len() as u64)?;
    Ok(arr(v))
}

/// `Array.foldLeft(xs, init, f)`.
pub fn fold_left(it: &mut Interp, _: Option<&Value>, args: &[Value]) -> R {
    let xs = elems(it, arg(args, 0, "Array.foldLeft")?, "Array.foldLeft")?;
    let mut acc = arg(args, 1, "Array.foldLeft")?.clone();
    let f = arg(args, 2, "Array.foldLeft")?.clone();
    for x in xs.iter() {
        it.tick()?;
        acc = it.call_value(&f, &[acc, x.clone()])?;
    }
    Ok(acc)
}

/// `Array.foldRight(xs, init, f)`.
pub fn fold_right(it: &mut Interp, _: Option<&Value>, args: &[Value]) -> R {
    let xs = elems(it, arg(args, 0, "Array.foldRight")?, "Array.foldRight")?;
    let mut acc = arg(args, 1, "Array.foldRight")?.clone();
    let f = arg(args, 2, "Array.foldRight")?.clone();
    for x in xs.iter().rev() {
        it.tick()?;
        acc = it.call_value(&f, &[x.clone(), acc])?;
    }
    Ok(acc)
}

/// `Array.find(xs, p)`.
pub fn find(it: &mut Interp, _: Option<&Value>, args: &[Value]) -> R {
    let xs = elems(it, arg(args, 0, "Array.find")?, "Array.find")?;
    let f = arg(args, 1, "Array.find")?.clone();
    for x in xs.iter() {
        it.tick()?;
        if bool_of(&it.call_value(&f, std::slice::from_ref(x))?, "Array.find")? {
            return Ok(Value::some(x.clone()));
        }
    }
    Ok(Value::Null)
}

/// `Array.findIndex(xs, p)`.
pub fn find_index(it: &mut Interp, _: Option<&Value>, args: &[Value]) -> R {
    let xs = elems(it, arg(args, 0, "Array.findIndex")?, "Array.findIndex")?;
    let f = arg(args, 1, "Array.findIndex")?.clone();
    for (i, x) in xs.iter().enumerate() {
        it.tick()?;
        if bool_of(
            &it.call_value(&f, std::slice::from_ref(x))?,
            "Array.findIndex",
        )? {
            return Ok(Value::some(Value::Nat(i as u64)));
        }
    }
    Ok(Value::Null)
}

/// `Array.any(xs, p)`.
pub fn any(it: &mut Interp, _: Option<&Value>, args: &[Value]) -> R {
    Ok(Value::Bool(!matches!(find(it, None, args)?, Value::Null)))
}

/// `Array.all(xs, p)`.
pub fn all(it: &mut Interp, _: Option<&Value>, args: &[Value]) -> R {
    let xs = elems(it, arg(args, 0, "Array.all")?, "Array.all")?;
    let f = arg(args, 1, "Array.all")?.clone();
    for x in xs.iter() {
        it.tick()?;
        if !bool_of(&it.call_value(&f, std::slice::from_ref(x))?, "Array.all")? {
            return Ok(Value::Bool(false));
        }
    }
    Ok(Value::Bool(true))
}

/// `Array.forEach(xs, f)`.
pub fn for_each(it: &mut Interp, _: Option<&Value>, args: &[Value]) -> R {
    let xs = elems(it, arg(args, 0, "Array.forEach")?, "Array.forEach")?;
    let f = arg(args, 1, "Array.forEach")?.clone();
    for x in xs.iter() {
        it.tick()?;
        it.call_value(&f, std::slice::from_ref(x))?;
    }
    Ok(Value::Unit)
}

/// `Array.contains(xs, equal, x)`.
pub fn contains(it: &mut Interp, _: Option<&Value>, args: &[Value]) -> R {
    let xs = elems(it, arg(args, 0, "Array.contains")?, "Array.contains")?;
    let eq = arg(args, 1, "Array.contains")?.clone();
    let y = arg(args, 2, "Array.contains")?.clone();
    for x in xs.iter() {
        it.tick()?;
        if bool_of(
            &it.call_value(&eq, &[x.clone(), y.clone()])?,
            "Array.contains",
        )? {
            return Ok(Value::Bool(true));
        }
    }
    Ok(Value::Bool(false))
}

/// `Array.indexOf(xs, equal, x)`.
pub fn index_of(it: &mut Interp, _: Option<&Value>, args: &[Value]) -> R {
    let xs = elems(it, arg(args, 0, "Array.indexOf")?, "Array.indexOf")?;
    let eq = arg(args, 1, "Array.indexOf")?.clone();
    let y = arg(args, 2, "Array.indexOf")?.clone();
    for (i, x) in xs.iter().enumerate() {
        it.tick()?;
        if bool_of(
            &it.call_value(&eq, &[x.clone(), y.clone()])?,
            "Array.indexOf",
        )? {
            return Ok(Value::some(Value::Nat(i as u64)));
        }
    }
    Ok(Value::Null)
}

/// `Array.reverse(xs)`.
pub fn reverse(it: &mut Interp, _: Option<&Value>, args: &[Value]) -> R {
    let a = arg(args, 0, "Array.reverse")?;
    let xs = elems(it, a, "Array.reverse")?;
    it.alloc(16 * xs.len() as u64)?;
    let v: Vec<Value> = xs.iter().rev().cloned().collect();
    Ok(match a {
        Value::VarArray(_) => var_arr(v),
        _ => arr(v),
    })
}

/// `Array.concat(xs, ys)`.
pub fn concat(it: &mut Interp, _: Option<&Value>, args: &[Value]) -> R {
    let a = elems(it, arg(args, 0, "Array.concat")?, "Array.concat")?;
    let b = elems(it, arg(args, 1, "Array.concat")?, "Array.concat")?;
    it.alloc(16 * (a.len() + b.len()) as u64)?;
    let mut v = a.to_vec();
    v.extend(b.iter().cloned());
    Ok(match arg(args, 0, "Array.concat")? {
        Value::VarArray(_) => var_arr(v),
        _ => arr(v),
    })
}

/// `Array.flatten(xss)`.
pub fn flatten(it: &mut Interp, _: Option<&Value>, args: &[Value]) -> R {
    let xss = elems(it, arg(args, 0, "Array.flatten")?, "Array.flatten")?;
    let mut v = Vec::new();
    for xs in xss.iter() {
        let xs = elems(it, xs, "Array.flatten")?;
        it.alloc(16 * xs.len() as u64)?;
        it.ticks(xs.len() as u64)?;
        v.extend(xs.iter().cloned());
    }
    Ok(arr(v))
}

fn sort_vec(it: &mut Interp, args: &[Value], who: &str) -> EResult<Vec<Value>> {
    let v = elems(it, arg(args, 0, who)?, who)?.to_vec();
    let cmp = arg(args, 1, who)?.clone();
    it.alloc(16 * v.len() as u64)?;
    sort_by_compare(it, v, &cmp, who)
}

/// `v` sorted (stably) by the script's `compare` function, with the calls of `compare`
/// core's sort makes ([`super::sort`]); `who` names the caller in errors.
pub fn sort_by_compare(
    it: &mut Interp,
    mut v: Vec<Value>,
    cmp: &Value,
    who: &str,
) -> EResult<Vec<Value>> {
    super::sort::sort_in_place(it, &mut v, cmp, who)?;
    Ok(v)
}

/// `Array.sort(xs, compare)` (stable).
pub fn sort(it: &mut Interp, _: Option<&Value>, args: &[Value]) -> R {
    Ok(arr(sort_vec(it, args, "Array.sort")?))
}

/// `VarArray.sortInPlace(xs, compare)`.
pub fn sort_in_place(it: &mut Interp, _: Option<&Value>, args: &[Value]) -> R {
    let v = sort_vec(it, args, "VarArray.sortInPlace")?;
    match arg(args, 0, "VarArray.sortInPlace")? {
        Value::VarArray(xs) => {
            *xs.borrow_mut() = v;
            Ok(Value::Unit)
        }
        other => Err(wrong("VarArray.sortInPlace", "mutable array", other)),
    }
}

/// `Array.fromIter(it)`.
pub fn from_iter(it: &mut Interp, _: Option<&Value>, args: &[Value]) -> R {
    let v = collect(it, arg(args, 0, "Array.fromIter")?)?;
    Ok(arr(v))
}

/// `VarArray.fromIter(it)`.
pub fn from_iter_var(it: &mut Interp, _: Option<&Value>, args: &[Value]) -> R {
    let v = collect(it, arg(args, 0, "VarArray.fromIter")?)?;
    Ok(var_arr(v))
}

/// `Array.toVarArray(xs)` / `VarArray.fromArray(xs)`.
pub fn to_var_array(it: &mut Interp, _: Option<&Value>, args: &[Value]) -> R {
    let xs = elems(it, arg(args, 0, "Array.toVarArray")?, "Array.toVarArray")?;
    it.alloc(16 * xs.len() as u64)?;
    Ok(var_arr(xs.to_vec()))
}

/// `Array.fromVarArray(xs)` / `VarArray.toArray(xs)`.
pub fn from_var_array(it: &mut Interp, _: Option<&Value>, args: &[Value]) -> R {
    let xs = elems(
        it,
        arg(args, 0, "Array.fromVarArray")?,
        "Array.fromVarArray",
    )?;
    it.alloc(16 * xs.len() as u64)?;
    Ok(Value::Array(xs))
}

/// `Array.isEmpty(xs)`.
pub fn is_empty(it: &mut Interp, _: Option<&Value>, args: &[Value]) -> R {
    let who = "Array.isEmpty";
    Ok(Value::Bool(array_len(it, arg(args, 0, who)?, who)? == 0))
}

/// `Array.empty()`.
pub fn empty(_: &mut Interp, _: Option<&Value>, _: &[Value]) -> R {
    Ok(arr(Vec::new()))
}

/// `VarArray.empty()`.
pub fn empty_var(_: &mut Interp, _: Option<&Value>, _: &[Value]) -> R {
    Ok(var_arr(Vec::new()))
}

/// `Array.singleton(x)`.
pub fn singleton(_: &mut Interp, _: Option<&Value>, args: &[Value]) -> R {
    Ok(arr(vec![arg(args, 0, "Array.singleton")?.clone()]))
}

/// `Array.enumerate(xs)`.
pub fn enumerate(it: &mut Interp, this: Option<&Value>, args: &[Value]) -> R {
    let inner = values(it, this, args)?;
    Ok(iter_value(EnumerateIter { inner, i: 0 }))
}

/// `Array.flatMap(xs, f)`.
pub fn flat_map(it: &mut Interp, _: Option<&Value>, args: &[Value]) -> R {
    let xs = elems(it, arg(args, 0, "Array.flatMap")?, "Array.flatMap")?;
    let f = arg(args, 1, "Array.flatMap")?.clone();
    let mut v = Vec::new();
    for x in xs.iter() {
        let r = it.call_value(&f, std::slice::from_ref(x))?;
        v.extend(collect(it, &r)?);
    }
    Ok(arr(v))
}

// ------------------------------------------------------------------ Iter module

/// `Iter.toArray(it)`.
pub fn iter_to_array(it: &mut Interp, _: Option<&Value>, args: &[Value]) -> R {
    from_iter(it, None, args)
}

/// `Iter.map(it, f)`.
pub fn iter_map(_: &mut Interp, _: Option<&Value>, args: &[Value]) -> R {
    Ok(iter_value(MapIter {
        inner: arg(args, 0, "Iter.map")?.clone(),
        f: arg(args, 1, "Iter.map")?.clone(),
    }))
}

/// `Iter.filter(it, p)`.
pub fn iter_filter(_: &mut Interp, _: Option<&Value>, args: &[Value]) -> R {
    Ok(iter_value(FilterIter {
        inner: arg(args, 0, "Iter.filter")?.clone(),
        f: arg(args, 1, "Iter.filter")?.clone(),
    }))
}

/// `Iter.take(it, n)`.
pub fn iter_take(_: &mut Interp, _: Option<&Value>, args: &[Value]) -> R {
    Ok(iter_value(TakeIter {
        inner: arg(args, 0, "Iter.take")?.clone(),
        left: usize_arg(args, 1, "Iter.take")?,
    }))
}

/// `Iter.enumerate(it)`.
pub fn iter_enumerate(_: &mut Interp, _: Option<&Value>, args: &[Value]) -> R {
    Ok(iter_value(EnumerateIter {
        inner: arg(args, 0, "Iter.enumerate")?.clone(),
        i: 0,
    }))
}

/// `Iter.concat(a, b)`.
pub fn iter_concat(_: &mut Interp, _: Option<&Value>, args: &[Value]) -> R {
    Ok(iter_value(ConcatIter {
        a: arg(args, 0, "Iter.concat")?.clone(),
        b: arg(args, 1, "Iter.concat")?.clone(),
        first_done: false,
    }))
}

/// `Iter.size(it)`.
pub fn iter_size(it: &mut Interp, _: Option<&Value>, args: &[Value]) -> R {
    let inner = arg(args, 0, "Iter.size")?.clone();
    let mut n = 0u64;
    while it.iter_next(&inner)?.is_some() {
        it.tick()?;
        n += 1;
    }
    Ok(Value::Nat(n))
}

/// `Iter.forEach(it, f)`.
pub fn iter_for_each(it: &mut Interp, _: Option<&Value>, args: &[Value]) -> R {
    let inner = arg(args, 0, "Iter.forEach")?.clone();
    let f = arg(args, 1, "Iter.forEach")?.clone();
    while let Some(x) = it.iter_next(&inner)? {
        it.tick()?;
        it.call_value(&f, &[x])?;
    }
    Ok(Value::Unit)
}

/// `Iter.foldLeft(it, init, f)`.
pub fn iter_fold_left(it: &mut Interp, _: Option<&Value>, args: &[Value]) -> R {
    let inner = arg(args, 0, "Iter.foldLeft")?.clone();
    let mut acc = arg(args, 1, "Iter.foldLeft")?.clone();
    let f = arg(args, 2, "Iter.foldLeft")?.clone();
    while let Some(x) = it.iter_next(&inner)? {
        it.tick()?;
        acc = it.call_value(&f, &[acc, x])?;
    }
    Ok(acc)
}

/// `Iter.find(it, p)`.
pub fn iter_find(it: &mut Interp, _: Option<&Value>, args: &[Value]) -> R {
    let inner = arg(args, 0, "Iter.find")?.clone();
    let f = arg(args, 1, "Iter.find")?.clone();
    while let Some(x) = it.iter_next(&inner)? {
        it.tick()?;
        if bool_of(&it.call_value(&f, std::slice::from_ref(&x))?, "Iter.find")? {
            return Ok(Value::some(x));
        }
    }
    Ok(Value::Null)
}

/// `Iter.fromArray(xs)`.
pub fn iter_from_array(it: &mut Interp, _: Option<&Value>, args: &[Value]) -> R {
    values(it, None, args)
}

/// `Iter.empty()`.
pub fn iter_empty(_: &mut Interp, _: Option<&Value>, _: &[Value]) -> R {
    Ok(iter_value(VecIter {
        items: Rc::from(Vec::new()),
        pos: 0,
    }))
}

/// `Iter.singleton(x)`.
pub fn iter_singleton(_: &mut Interp, _: Option<&Value>, args: &[Value]) -> R {
    Ok(iter_value(VecIter {
        items: Rc::from(vec![arg(args, 0, "Iter.singleton")?.clone()]),
        pos: 0,
    }))
}

/// `Iter.reverse(it)`.
pub fn iter_reverse(it: &mut Interp, _: Option<&Value>, args: &[Value]) -> R {
    let mut v = collect(it, arg(args, 0, "Iter.reverse")?)?;
    v.reverse();
    Ok(iter_value(VecIter {
        items: Rc::from(v),
        pos: 0,
    }))
}

// ------------------------------------------------------------------ Option

/// `Option.get(o, default)`.
pub fn opt_get(_: &mut Interp, _: Option<&Value>, args: &[Value]) -> R {
    match arg(args, 0, "Option.get")? {
        Value::Opt(x) => Ok((**x).clone()),
        _ => Ok(arg(args, 1, "Option.get")?.clone()),
    }
}

/// `Option.isSome(o)`.
pub fn opt_is_some(_: &mut Interp, _: Option<&Value>, args: &[Value]) -> R {
    Ok(Value::Bool(matches!(
        arg(args, 0, "Option.isSome")?,
        Value::Opt(_)
    )))
}

/// `Option.isNull(o)`.
pub fn opt_is_null(_: &mut Interp, _: Option<&Value>, args: &[Value]) -> R {
    Ok(Value::Bool(matches!(
        arg(args, 0, "Option.isNull")?,
        Value::Null
    )))
}

/// `Option.map(o, f)`.
pub fn opt_map(it: &mut Interp, _: Option<&Value>, args: &[Value]) -> R {
    match arg(args, 0, "Option.map")? {
        Value::Opt(x) => {
            let f = arg(args, 1, "Option.map")?.clone();
            Ok(Value::some(it.call_value(&f, &[(**x).clone()])?))
        }
        _ => Ok(Value::Null),
    }
}

/// `Option.chain(o, f)`.
pub fn opt_chain(it: &mut Interp, _: Option<&Value>, args: &[Value]) -> R {
    match arg(args, 0, "Option.chain")? {
        Value::Opt(x) => {
            let f = arg(args, 1, "Option.chain")?.clone();
            it.call_value(&f, &[(**x).clone()])
        }
        _ => Ok(Value::Null),
    }
}

/// `Option.unwrap(o)`.
pub fn opt_unwrap(_: &mut Interp, _: Option<&Value>, args: &[Value]) -> R {
    match arg(args, 0, "Option.unwrap")? {
        Value::Opt(x) => Ok((**x).clone()),
        _ => Err(crate::script::eval::trap_in_prim(
            "prim:63.31-63.42",
            "explicit trap: Option.unwrap()",
        )),
    }
}

/// `Option.some(x)`.
pub fn opt_some(_: &mut Interp, _: Option<&Value>, args: &[Value]) -> R {
    Ok(Value::some(arg(args, 0, "Option.some")?.clone()))
}

/// `Option.equal(a, b, eq)`.
pub fn opt_equal(it: &mut Interp, _: Option<&Value>, args: &[Value]) -> R {
    match (arg(args, 0, "Option.equal")?, arg(args, 1, "Option.equal")?) {
        (Value::Null, Value::Null) => Ok(Value::Bool(true)),
        (Value::Opt(a), Value::Opt(b)) => {
            let f = arg(args, 2, "Option.equal")?.clone();
            it.call_value(&f, &[(**a).clone(), (**b).clone()])
        }
        _ => Ok(Value::Bool(false)),
    }
}

// ------------------------------------------------------------------ Blob

/// `Blob.fromArray(bytes)`.
pub fn blob_from_array(it: &mut Interp, _: Option<&Value>, args: &[Value]) -> R {
    let xs = elems(it, arg(args, 0, "Blob.fromArray")?, "Blob.fromArray")?;
    it.alloc(xs.len() as u64)?;
    let mut v = Vec::with_capacity(xs.len());
    for x in xs.iter() {
        match x {
            Value::Nat8(b) => v.push(*b),
            Value::Nat(n) if *n < 256 => v.push(*n as u8),
            other => return Err(wrong("Blob.fromArray", "Nat8", other)),
        }
    }
    Ok(Value::Blob(Rc::from(v)))
}

/// `Blob.toArray(b)`.
pub fn blob_to_array(it: &mut Interp, _: Option<&Value>, args: &[Value]) -> R {
    let a = match arg(args, 0, "Blob.toArray")? {
        Value::Text(t) => Value::Blob(crate::script::compile::text_to_blob(t)),
        other => other.clone(),
    };
    match &a {
        Value::Blob(b) => {
            it.alloc(16 * b.len() as u64)?;
            Ok(arr(b.iter().map(|x| Value::Nat8(*x)).collect()))
        }
        other => Err(wrong("Blob.toArray", "Blob", other)),
    }
}

/// `X.compare(a, b)` for any ordered type: `#less`, `#equal`, `#greater`.
pub fn compare(_: &mut Interp, _: Option<&Value>, args: &[Value]) -> R {
    let a = arg(args, 0, "compare")?;
    let b = arg(args, 1, "compare")?;
    match ord::compare(a, b) {
        Some(o) => Ok(order_value(o)),
        None => Err(trap("compare: values are not ordered")),
    }
}

/// An ordering as Motoko's `Order`: `#less`, `#equal` or `#greater`.
pub fn order_value(o: Ordering) -> Value {
    let tag = match o {
        Ordering::Less => "less",
        Ordering::Greater => "greater",
        Ordering::Equal => "equal",
    };
    Value::variant(tag, Value::Unit)
}

/// `X.equal(a, b)`.
pub fn equal(_: &mut Interp, _: Option<&Value>, args: &[Value]) -> R {
    Ok(Value::Bool(ord::equal(
        arg(args, 0, "equal")?,
        arg(args, 1, "equal")?,
    )))
}

/// `Array.size(xs)` as a module function.
pub fn values_size(it: &mut Interp, _: Option<&Value>, args: &[Value]) -> R {
    size(it, None, args)
}

/// `Array.keys(xs)` as a module function.
pub fn values_keys(it: &mut Interp, _: Option<&Value>, args: &[Value]) -> R {
    keys(it, None, args)
}
