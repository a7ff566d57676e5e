//! `mo:base/List`: the pure linked list `?(x, rest)` of `mo:base`, with base's names and
//! argument orders (`push(x, l)`, `split(n, l)`, `merge(l1, l2, lessThanOrEqual)`).
//! `mo:core/List` is a different structure (a growable array), so `import List
//! "mo:base/List"` binds this module. Every function reads a list the script made or one a
//! canister holds (a host value read cell by cell); callbacks run in base's order.

use super::args::{arg, bool_of, usize_arg, wrong};
use super::iters::{collect, iter_value};
pub(super) use super::pure_list::{build_onto as build, cell as uncons, split_at as prefix};
use super::view;
use super::Module;
use crate::script::eval::{EResult, Interp};
use crate::script::value::{NativeIter, Value};
use std::rc::Rc;

type R = EResult;

/// All elements of `l`, head first.
fn items(it: &mut Interp, l: &Value, who: &str) -> EResult<Vec<Value>> {
    Ok(prefix(it, l, usize::MAX, who)?.0)
}

/// `(a, b)`.
pub(super) fn pair(a: Value, b: Value) -> Value {
    Value::Tuple(Rc::from([a, b]))
}

/// A list argument's elements.
fn list_arg(it: &mut Interp, a: &[Value], i: usize, who: &str) -> EResult<Vec<Value>> {
    items(it, arg(a, i, who)?, who)
}

fn nil(_: &mut Interp, _: Option<&Value>, _: &[Value]) -> R {
    Ok(Value::Null)
}

fn is_nil(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let l = arg(a, 0, "List.isNil")?;
    Ok(Value::Bool(uncons(it, l, "List.isNil")?.is_none()))
}

fn push(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let x = arg(a, 0, "List.push")?.clone();
    let l = arg(a, 1, "List.push")?.clone();
    it.alloc(48)?;
    Ok(Value::some(pair(x, l)))
}

fn last(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let mut cell = arg(a, 0, "List.last")?.clone();
    let mut last = Value::Null;
    while let Some((x, rest)) = uncons(it, &cell, "List.last")? {
        last = Value::some(x);
        cell = rest;
    }
    Ok(last)
}

fn pop(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    Ok(match uncons(it, arg(a, 0, "List.pop")?, "List.pop")? {
        Some((x, rest)) => pair(Value::some(x), rest),
        None => pair(Value::Null, Value::Null),
    })
}

fn size(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let mut cell = arg(a, 0, "List.size")?.clone();
    let mut n = 0u64;
    while let Some((_, rest)) = uncons(it, &cell, "List.size")? {
        n += 1;
        cell = rest;
    }
    Ok(Value::Nat(n))
}

fn get(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let n = usize_arg(a, 1, "List.get")?;
    let (xs, _) = prefix(it, arg(a, 0, "List.get")?, n.saturating_add(1), "List.get")?;
    Ok(xs.get(n).cloned().map_or(Value::Null, Value::some))
}

fn reverse(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let mut xs = list_arg(it, a, 0, "List.reverse")?;
    xs.reverse();
    build(it, xs, Value::Null)
}

fn iterate(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let mut cell = arg(a, 0, "List.iterate")?.clone();
    let f = arg(a, 1, "List.iterate")?.clone();
    while let Some((x, rest)) = uncons(it, &cell, "List.iterate")? {
        it.call_value(&f, &[x])?;
        cell = rest;
    }
    Ok(Value::Unit)
}

fn map(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let xs = list_arg(it, a, 0, "List.map")?;
    let f = arg(a, 1, "List.map")?.clone();
    let mut out = Vec::with_capacity(xs.len());
    for x in xs {
        out.push(it.call_value(&f, &[x])?);
    }
    build(it, out, Value::Null)
}

/// Splits `xs` by `f`'s verdicts, in order: (kept, dropped).
fn split_by(
    it: &mut Interp,
    xs: Vec<Value>,
    f: &Value,
    who: &str,
) -> EResult<(Vec<Value>, Vec<Value>)> {
    let (mut yes, mut no) = (Vec::new(), Vec::new());
    for x in xs {
        if bool_of(&it.call_value(f, std::slice::from_ref(&x))?, who)? {
            yes.push(x);
        } else {
            no.push(x);
        }
    }
    Ok((yes, no))
}

fn filter(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let xs = list_arg(it, a, 0, "List.filter")?;
    let f = arg(a, 1, "List.filter")?.clone();
    let (yes, _) = split_by(it, xs, &f, "List.filter")?;
    build(it, yes, Value::Null)
}

fn partition(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let xs = list_arg(it, a, 0, "List.partition")?;
    let f = arg(a, 1, "List.partition")?.clone();
    let (yes, no) = split_by(it, xs, &f, "List.partition")?;
    let yes = build(it, yes, Value::Null)?;
    let no = build(it, no, Value::Null)?;
    Ok(pair(yes, no))
}

fn map_filter(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let xs = list_arg(it, a, 0, "List.mapFilter")?;
    let f = arg(a, 1, "List.mapFilter")?.clone();
    let mut out = Vec::new();
    for x in xs {
        let y = it.call_value(&f, &[x])?;
        match view::option(it, &y)? {
            Some(None) => {}
            Some(Some(y)) => out.push(y),
            None => return Err(wrong("List.mapFilter", "option", &y)),
        }
    }
    build(it, out, Value::Null)
}

fn map_result(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let xs = list_arg(it, a, 0, "List.mapResult")?;
    let f = arg(a, 1, "List.mapResult")?.clone();
    let mut out = Vec::with_capacity(xs.len());
    for x in xs {
        let r = it.call_value(&f, &[x])?;
        match view::variant(it, &r)? {
            Some((tag, v)) if &*tag == "ok" => out.push(v),
            Some((tag, _)) if &*tag == "err" => return Ok(r),
            _ => return Err(wrong("List.mapResult", "Result", &r)),
        }
    }
    Ok(Value::variant("ok", build(it, out, Value::Null)?))
}

fn append(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let xs = list_arg(it, a, 0, "List.append")?;
    let m = arg(a, 1, "List.append")?.clone();
    build(it, xs, m)
}

fn flatten(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let lists = list_arg(it, a, 0, "List.flatten")?;
    let mut out = Vec::new();
    for l in &lists {
        out.extend(items(it, l, "List.flatten")?);
    }
    build(it, out, Value::Null)
}

fn take(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let n = usize_arg(a, 1, "List.take")?;
    let (xs, _) = prefix(it, arg(a, 0, "List.take")?, n, "List.take")?;
    build(it, xs, Value::Null)
}

fn drop(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let n = usize_arg(a, 1, "List.drop")?;
    let mut cell = arg(a, 0, "List.drop")?.clone();
    for _ in 0..n {
        match uncons(it, &cell, "List.drop")? {
            Some((_, rest)) => cell = rest,
            None => return Ok(Value::Null),
        }
    }
    Ok(cell)
}

fn fold_left(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let mut cell = arg(a, 0, "List.foldLeft")?.clone();
    let mut acc = arg(a, 1, "List.foldLeft")?.clone();
    let f = arg(a, 2, "List.foldLeft")?.clone();
    while let Some((x, rest)) = uncons(it, &cell, "List.foldLeft")? {
        acc = it.call_value(&f, &[acc, x])?;
        cell = rest;
    }
    Ok(acc)
}

fn fold_right(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let xs = list_arg(it, a, 0, "List.foldRight")?;
    let mut acc = arg(a, 1, "List.foldRight")?.clone();
    let f = arg(a, 2, "List.foldRight")?.clone();
    for x in xs.into_iter().rev() {
        acc = it.call_value(&f, &[x, acc])?;
    }
    Ok(acc)
}

/// The first element `f` holds for (`find`), or whether one exists.
fn first_match(it: &mut Interp, a: &[Value], who: &str, want: bool) -> EResult<Option<Value>> {
    let mut cell = arg(a, 0, who)?.clone();
    let f = arg(a, 1, who)?.clone();
    while let Some((x, rest)) = uncons(it, &cell, who)? {
        if bool_of(&it.call_value(&f, std::slice::from_ref(&x))?, who)? == want {
            return Ok(Some(x));
        }
        cell = rest;
    }
    Ok(None)
}

fn find(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    Ok(first_match(it, a, "List.find", true)?.map_or(Value::Null, Value::some))
}

fn some(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    Ok(Value::Bool(
        first_match(it, a, "List.some", true)?.is_some(),
    ))
}

fn all(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    Ok(Value::Bool(
        first_match(it, a, "List.all", false)?.is_none(),
    ))
}

fn merge(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let mut l1 = arg(a, 0, "List.merge")?.clone();
    let mut l2 = arg(a, 1, "List.merge")?.clone();
    let le = arg(a, 2, "List.merge")?.clone();
    let mut out = Vec::new();
    loop {
        let Some((h1, t1)) = uncons(it, &l1, "List.merge")? else {
            return build(it, out, l2);
        };
        let Some((h2, t2)) = uncons(it, &l2, "List.merge")? else {
            return build(it, out, l1);
        };
        it.alloc(16)?;
        if bool_of(
            &it.call_value(&le, &[h1.clone(), h2.clone()])?,
            "List.merge",
        )? {
            out.push(h1);
            l1 = t1;
        } else {
            out.push(h2);
            l2 = t2;
        }
    }
}

fn compare(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    super::pure_list::compare_lists(it, a, "List.compare")
}

fn equal(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    super::pure_list::equal_lists(it, a, "List.equal")
}

fn tabulate(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let n = usize_arg(a, 0, "List.tabulate")?;
    let f = arg(a, 1, "List.tabulate")?.clone();
    let mut out = Vec::new();
    for i in 0..n {
        it.alloc(16)?;
        out.push(it.call_value(&f, &[Value::Nat(i as u64)])?);
    }
    build(it, out, Value::Null)
}

fn make(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let x = arg(a, 0, "List.make")?.clone();
    build(it, vec![x], Value::Null)
}

fn replicate(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let n = usize_arg(a, 0, "List.replicate")?;
    let x = arg(a, 1, "List.replicate")?.clone();
    it.alloc(48u64.saturating_mul(n as u64))?;
    it.ticks(n as u64)?;
    let mut l = Value::Null;
    for _ in 0..n {
        l = Value::some(pair(x.clone(), l));
    }
    Ok(l)
}

fn zip_with_fn(it: &mut Interp, a: &[Value], f: Option<&Value>, who: &str) -> R {
    let mut xs = arg(a, 0, who)?.clone();
    let mut ys = arg(a, 1, who)?.clone();
    let mut out = Vec::new();
    while let Some((x, xt)) = uncons(it, &xs, who)? {
        let Some((y, yt)) = uncons(it, &ys, who)? else {
            break;
        };
        it.alloc(16)?;
        out.push(match f {
            Some(f) => it.call_value(f, &[x, y])?,
            None => pair(x, y),
        });
        (xs, ys) = (xt, yt);
    }
    build(it, out, Value::Null)
}

fn zip(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    zip_with_fn(it, a, None, "List.zip")
}

fn zip_with(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let f = arg(a, 2, "List.zipWith")?.clone();
    zip_with_fn(it, a, Some(&f), "List.zipWith")
}

fn split(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let n = usize_arg(a, 0, "List.split")?;
    let l = arg(a, 1, "List.split")?;
    let (xs, rest) = prefix(it, l, n, "List.split")?;
    // base's split returns `(front, null)` when the list ends before `n` elements
    let rest = if xs.len() < n { Value::Null } else { rest };
    Ok(pair(build(it, xs, Value::Null)?, rest))
}

fn chunks(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let n = usize_arg(a, 0, "List.chunks")?;
    let mut cell = arg(a, 1, "List.chunks")?.clone();
    let mut out = Vec::new();
    if n > 0 {
        loop {
            let (xs, rest) = prefix(it, &cell, n, "List.chunks")?;
            if xs.is_empty() {
                break;
            }
            out.push(build(it, xs, Value::Null)?);
            cell = rest;
        }
    }
    build(it, out, Value::Null)
}

fn from_array(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let xs = super::pure_list::array_items(it, arg(a, 0, "List.fromArray")?, "List.fromArray")?;
    it.ticks(xs.len() as u64)?;
    build(it, xs, Value::Null)
}

fn to_array(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    Ok(Value::Array(Rc::from(list_arg(it, a, 0, "List.toArray")?)))
}

fn to_var_array(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let xs = list_arg(it, a, 0, "List.toVarArray")?;
    Ok(Value::VarArray(Rc::new(std::cell::RefCell::new(xs))))
}

/// The elements of a list read one cell at a time, head first.
struct Cells {
    /// The next cell (`None` once the end was reached).
    cell: Option<Value>,
}

impl NativeIter for Cells {
    fn next(&mut self, it: &mut Interp) -> EResult<Option<Value>> {
        let Some(cell) = self.cell.take() else {
            return Ok(None);
        };
        Ok(uncons(it, &cell, "List.toIter")?.map(|(x, rest)| {
            self.cell = Some(rest);
            x
        }))
    }
}

/// `List.toIter(l)` (also `Iter.fromList` of mo:base): the list's elements, lazily.
pub fn to_iter(_: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let cell = arg(a, 0, "List.toIter")?.clone();
    Ok(iter_value(Cells { cell: Some(cell) }))
}

/// `Iter.toList(iter)` (mo:base): the iterator's elements as a base list.
pub fn from_iter(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let xs = collect(it, arg(a, 0, "Iter.toList")?)?;
    build(it, xs, Value::Null)
}

/// A base list of `xs` (for other base modules' `toList`).
pub fn of_items(it: &mut Interp, xs: Vec<Value>) -> R {
    build(it, xs, Value::Null)
}

/// The elements of a base list (for other base modules' `fromList`).
pub fn items_of(it: &mut Interp, l: &Value, who: &str) -> EResult<Vec<Value>> {
    items(it, l, who)
}

/// `mo:base/List`.
pub static BASE_LIST_MOD: Module = Module {
    name: "base/List",
    members: &[
        func!("nil", nil),
        func!("isNil", is_nil),
        func!("push", push),
        func!("last", last),
        func!("pop", pop),
        func!("size", size),
        func!("get", get),
        func!("reverse", reverse),
        func!("iterate", iterate),
        func!("map", map),
        func!("filter", filter),
        func!("partition", partition),
        func!("mapFilter", map_filter),
        func!("mapResult", map_result),
        func!("append", append),
        func!("flatten", flatten),
        func!("take", take),
        func!("drop", drop),
        func!("foldLeft", fold_left),
        func!("foldRight", fold_right),
        func!("find", find),
        func!("some", some),
        func!("all", all),
        func!("merge", merge),
        func!("compare", compare),
        func!("equal", equal),
        func!("tabulate", tabulate),
        func!("make", make),
        func!("replicate", replicate),
        func!("zip", zip),
        func!("zipWith", zip_with),
        func!("split", split),
        func!("chunks", chunks),
        func!("fromArray", from_array),
        func!("fromVarArray", from_array),
        func!("toArray", to_array),
        func!("toVarArray", to_var_array),
        func!("toIter", to_iter),
    ],
};
