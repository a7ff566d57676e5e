//! `mo:core/pure/List`: the immutable list `?(head, tail)` (`null` when empty), read from
//! the canister's heap or made by the script. A list read from the heap is read one cell at
//! a time, and a function that keeps a suffix (`drop`, `split`, the tail of `pushFront` or
//! `concat`) keeps it as it is: only the cells a function changes are made anew. Callbacks
//! are called on the same elements in the same order as core's.

use super::args::{arg, bool_of, usize_arg, wrong};
use super::iters::{collect, iter_value};
use super::rbtree::order;
use super::{view, Module};
use crate::script::eval::{trap_in_prim, EResult, Interp};
use crate::script::value::{NativeIter, Value};
use std::cell::RefCell;
use std::cmp::Ordering;
use std::rc::Rc;

type R = EResult;

/// The bytes charged for one cell a script builds.
const CELL_BYTES: u64 = 32;

/// The first cell of the list `l`: `None` at the end.
pub(super) fn cell(it: &mut Interp, l: &Value, what: &str) -> EResult<Option<(Value, Value)>> {
    it.tick()?;
    match view::option(it, l)? {
        Some(None) => Ok(None),
        Some(Some(pair)) => match &view::parts(it, &pair)?[..] {
            [x, rest] => Ok(Some((x.clone(), rest.clone()))),
            _ => Err(wrong(what, "list cell", &pair)),
        },
        None => Err(wrong(what, "list", l)),
    }
}

/// The elements of a pure list `?(x, rest)`, head first.
pub(super) fn list_of(it: &mut Interp, v: &Value, what: &str) -> EResult<Vec<Value>> {
    Ok(split_at(it, v, usize::MAX, what)?.0)
}

/// Element `i` of a pure list (head first), reading only the cells before it.
pub(super) fn list_nth(it: &mut Interp, v: &Value, i: usize, what: &str) -> R {
    let (prefix, _) = split_at(it, v, i.saturating_add(1), what)?;
    Ok(prefix.get(i).cloned().map_or(Value::Null, Value::some))
}

/// The first `n` elements of a list (fewer if it is shorter) and the rest of it, as is.
pub(super) fn split_at(
    it: &mut Interp,
    v: &Value,
    n: usize,
    what: &str,
) -> EResult<(Vec<Value>, Value)> {
    let mut out = Vec::new();
    let mut l = v.clone();
    while out.len() < n {
        let Some((x, rest)) = cell(it, &l, what)? else {
            break;
        };
        it.alloc(16)?;
        out.push(x);
        l = rest;
    }
    Ok((out, l))
}

/// The list of `xs` in order, followed by `tail`.
pub(super) fn build_onto(it: &mut Interp, xs: Vec<Value>, tail: Value) -> R {
    it.alloc(CELL_BYTES.saturating_mul(xs.len() as u64))?;
    Ok(xs
        .into_iter()
        .rev()
        .fold(tail, |t, x| Value::some(Value::Tuple(Rc::from(vec![x, t])))))
}

/// The list of `xs` in order.
pub(super) fn build(it: &mut Interp, xs: Vec<Value>) -> R {
    build_onto(it, xs, Value::Null)
}

/// The elements of an array or mutable array, also one read from the heap.
pub(super) fn array_items(it: &mut Interp, v: &Value, who: &str) -> EResult<Vec<Value>> {
    Ok(super::args::elems(it, v, who)?.to_vec())
}

fn pair(a: Value, b: Value) -> Value {
    Value::Tuple(Rc::from(vec![a, b]))
}

fn list_size(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let items = list_of(it, arg(a, 0, "pure/List.size")?, "pure/List")?;
    Ok(Value::Nat(items.len() as u64))
}

fn list_is_empty(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let l = arg(a, 0, "pure/List.isEmpty")?;
    match view::option(it, l)? {
        Some(x) => Ok(Value::Bool(x.is_none())),
        None => Err(wrong("pure/List.isEmpty", "list", l)),
    }
}

fn list_get(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let i = usize_arg(a, 1, "pure/List.get")?;
    list_nth(it, arg(a, 0, "pure/List.get")?, i, "pure/List")
}

/// The cells of a pure list `?(x, rest)` read one at a time, head first.
pub(super) struct ListCells {
    /// The next cell (`None` once the end was reached).
    pub cell: Option<Value>,
}

impl NativeIter for ListCells {
    fn next(&mut self, it: &mut Interp) -> EResult<Option<Value>> {
        let Some(l) = self.cell.take() else {
            return Ok(None);
        };
        match cell(it, &l, "pure/List")? {
            Some((x, rest)) => {
                self.cell = Some(rest);
                Ok(Some(x))
            }
            None => Ok(None),
        }
    }
}

fn list_values(_: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let l = arg(a, 0, "pure/List.values")?.clone();
    Ok(iter_value(ListCells { cell: Some(l) }))
}

fn list_to_array(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let items = list_of(it, arg(a, 0, "pure/List.toArray")?, "pure/List")?;
    Ok(Value::Array(Rc::from(items)))
}

fn list_to_var_array(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let items = list_of(it, arg(a, 0, "pure/List.toVarArray")?, "pure/List")?;
    Ok(Value::VarArray(Rc::new(RefCell::new(items))))
}

fn list_empty(_: &mut Interp, _: Option<&Value>, _: &[Value]) -> R {
    Ok(Value::Null)
}

fn list_singleton(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let x = arg(a, 0, "pure/List.singleton")?.clone();
    build(it, vec![x])
}

fn list_push_front(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let l = arg(a, 0, "pure/List.pushFront")?.clone();
    let x = arg(a, 1, "pure/List.pushFront")?.clone();
    build_onto(it, vec![x], l)
}

fn list_pop_front(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    Ok(
        match cell(it, arg(a, 0, "pure/List.popFront")?, "pure/List")? {
            Some((x, rest)) => pair(Value::some(x), rest),
            None => pair(Value::Null, Value::Null),
        },
    )
}

fn list_from_array(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let xs = array_items(it, arg(a, 0, "pure/List.fromArray")?, "pure/List.fromArray")?;
    build(it, xs)
}

fn list_from_iter(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let xs = collect(it, arg(a, 0, "pure/List.fromIter")?)?;
    build(it, xs)
}

fn list_tabulate(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let n = usize_arg(a, 0, "pure/List.tabulate")?;
    let f = arg(a, 1, "pure/List.tabulate")?;
    let mut xs = Vec::new();
    for i in 0..n {
        it.tick()?;
        it.alloc(16)?;
        xs.push(it.call_value(f, &[Value::Nat(i as u64)])?);
    }
    build(it, xs)
}

fn list_repeat(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let x = arg(a, 0, "pure/List.repeat")?;
    let n = usize_arg(a, 1, "pure/List.repeat")?;
    it.check_size(CELL_BYTES.saturating_mul(n as u64))?;
    it.alloc(CELL_BYTES.saturating_mul(n as u64))?;
    let mut l = Value::Null;
    for _ in 0..n {
        it.tick()?;
        l = Value::some(pair(x.clone(), l));
    }
    Ok(l)
}

fn list_concat(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let xs = list_of(it, arg(a, 0, "pure/List.concat")?, "pure/List")?;
    build_onto(it, xs, arg(a, 1, "pure/List.concat")?.clone())
}

/// The elements of each list `lists` yields, in order.
fn joined(
    it: &mut Interp,
    mut next: impl FnMut(&mut Interp) -> EResult<Option<Value>>,
) -> EResult<Vec<Value>> {
    let mut out = Vec::new();
    while let Some(l) = next(it)? {
        out.extend(list_of(it, &l, "pure/List")?);
    }
    Ok(out)
}

fn list_flatten(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let mut cells = ListCells {
        cell: Some(arg(a, 0, "pure/List.flatten")?.clone()),
    };
    let xs = joined(it, |it| cells.next(it))?;
    build(it, xs)
}

fn list_join(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let iter = arg(a, 0, "pure/List.join")?;
    let xs = joined(it, |it| it.iter_next(iter))?;
    build(it, xs)
}

fn list_reverse(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let mut xs = list_of(it, arg(a, 0, "pure/List.reverse")?, "pure/List")?;
    xs.reverse();
    build(it, xs)
}

fn list_take(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let n = usize_arg(a, 1, "pure/List.take")?;
    let (xs, _) = split_at(it, arg(a, 0, "pure/List.take")?, n, "pure/List")?;
    build(it, xs)
}

fn list_drop(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let n = usize_arg(a, 1, "pure/List.drop")?;
    let mut l = arg(a, 0, "pure/List.drop")?.clone();
    for _ in 0..n {
        match cell(it, &l, "pure/List")? {
            Some((_, rest)) => l = rest,
            None => return Ok(Value::Null),
        }
    }
    Ok(l)
}

fn list_split(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let n = usize_arg(a, 1, "pure/List.split")?;
    let (xs, rest) = split_at(it, arg(a, 0, "pure/List.split")?, n, "pure/List")?;
    Ok(pair(build(it, xs)?, rest))
}

fn list_chunks(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let n = usize_arg(a, 1, "pure/List.chunks")?;
    if n == 0 {
        return Err(trap_in_prim(
            "prim:63.31-63.42",
            "explicit trap: pure/List.chunks()",
        ));
    }
    let xs = list_of(it, arg(a, 0, "pure/List.chunks")?, "pure/List")?;
    let mut chunks = Vec::new();
    for c in xs.chunks(n) {
        chunks.push(build(it, c.to_vec())?);
    }
    build(it, chunks)
}

fn list_partition(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let xs = list_of(it, arg(a, 0, "pure/List.partition")?, "pure/List")?;
    let f = arg(a, 1, "pure/List.partition")?;
    let (mut yes, mut no) = (Vec::new(), Vec::new());
    for x in xs {
        it.tick()?;
        let keep = it.call_value(f, std::slice::from_ref(&x))?;
        if bool_of(&keep, "pure/List.partition")? {
            yes.push(x);
        } else {
            no.push(x);
        }
    }
    Ok(pair(build(it, yes)?, build(it, no)?))
}

fn list_merge(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let compare = arg(a, 2, "pure/List.merge")?;
    let mut c1 = cell(it, arg(a, 0, "pure/List.merge")?, "pure/List")?;
    let mut c2 = cell(it, arg(a, 1, "pure/List.merge")?, "pure/List")?;
    let mut out = Vec::new();
    loop {
        let (h1, t1, h2, t2) = match (&c1, &c2) {
            (Some((h1, t1)), Some((h2, t2))) => (h1, t1, h2, t2),
            (Some((h, t)), None) | (None, Some((h, t))) => {
                out.push(h.clone());
                out.extend(list_of(it, t, "pure/List")?);
                break;
            }
            (None, None) => break,
        };
        it.alloc(16)?;
        if order(it, "pure/List.merge", compare, h1, h2)? == Ordering::Greater {
            out.push(h2.clone());
            c2 = cell(it, t2, "pure/List")?;
        } else {
            out.push(h1.clone());
            c1 = cell(it, t1, "pure/List")?;
        }
    }
    build(it, out)
}

/// `f(x, y)` for each pair of elements at the same position, until either list ends.
fn zip_with(it: &mut Interp, a: &[Value], f: Option<&Value>, who: &str) -> R {
    let mut l1 = arg(a, 0, who)?.clone();
    let mut l2 = arg(a, 1, who)?.clone();
    let mut out = Vec::new();
    loop {
        let Some((x, r1)) = cell(it, &l1, "pure/List")? else {
            break;
        };
        let Some((y, r2)) = cell(it, &l2, "pure/List")? else {
            break;
        };
        it.alloc(16)?;
        out.push(match f {
            Some(f) => it.call_value(f, &[x, y])?,
            None => pair(x, y),
        });
        (l1, l2) = (r1, r2);
    }
    build(it, out)
}

fn list_zip(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    zip_with(it, a, None, "pure/List.zip")
}

fn list_zip_with(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let f = arg(a, 2, "pure/List.zipWith")?.clone();
    zip_with(it, a, Some(&f), "pure/List.zipWith")
}

fn list_map_result(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let mut l = arg(a, 0, "pure/List.mapResult")?.clone();
    let f = arg(a, 1, "pure/List.mapResult")?;
    let mut out = Vec::new();
    while let Some((x, rest)) = cell(it, &l, "pure/List")? {
        let r = it.call_value(f, &[x])?;
        match view::variant(it, &r)? {
            Some((tag, v)) if &*tag == "ok" => {
                it.alloc(16)?;
                out.push(v);
            }
            Some((tag, _)) if &*tag == "err" => return Ok(r),
            _ => return Err(wrong("pure/List.mapResult", "Result", &r)),
        }
        l = rest;
    }
    Ok(Value::variant("ok", build(it, out)?))
}

/// Walks two lists side by side: `step(x, y)` on each pair until it answers, then the
/// answer for the lists' ends (`both`, only the first ended, only the second ended).
fn side_by_side(
    it: &mut Interp,
    a: &[Value],
    who: &str,
    mut step: impl FnMut(&mut Interp, Value, Value) -> EResult<Option<Value>>,
    ends: [Value; 3],
) -> R {
    let mut l1 = arg(a, 0, who)?.clone();
    let mut l2 = arg(a, 1, who)?.clone();
    let [both, first, second] = ends;
    loop {
        match (cell(it, &l1, "pure/List")?, cell(it, &l2, "pure/List")?) {
            (Some((x, r1)), Some((y, r2))) => {
                if let Some(answer) = step(it, x, y)? {
                    return Ok(answer);
                }
                (l1, l2) = (r1, r2);
            }
            (None, None) => return Ok(both),
            (None, Some(_)) => return Ok(first),
            (Some(_), None) => return Ok(second),
        }
    }
}

fn list_equal(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    equal_lists(it, a, "pure/List.equal")
}

/// `equal(l1, l2, eq)` of two lists (`pure/List`'s and `mo:base/List`'s): element by element
/// while `eq` holds, and of one length.
pub(super) fn equal_lists(it: &mut Interp, a: &[Value], who: &str) -> R {
    let eq = arg(a, 2, who)?.clone();
    side_by_side(
        it,
        a,
        who,
        |it, x, y| {
            let same = bool_of(&it.call_value(&eq, &[x, y])?, who)?;
            Ok((!same).then_some(Value::Bool(false)))
        },
        [Value::Bool(true), Value::Bool(false), Value::Bool(false)],
    )
}

pub(super) use super::collections::order_value;

fn list_compare(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    compare_lists(it, a, "pure/List.compare")
}

/// `compare(l1, l2, cmp)` of two lists (`pure/List`'s and `mo:base/List`'s): the first
/// unequal pair decides, else the shorter list is less.
pub(super) fn compare_lists(it: &mut Interp, a: &[Value], who: &str) -> R {
    let cmp = arg(a, 2, who)?.clone();
    side_by_side(
        it,
        a,
        who,
        |it, x, y| {
            let o = order(it, who, &cmp, &x, &y)?;
            Ok((o != Ordering::Equal).then(|| order_value(o)))
        },
        [
            order_value(Ordering::Equal),
            order_value(Ordering::Less),
            order_value(Ordering::Greater),
        ],
    )
}

/// `mo:core/pure/List`.
pub static PURE_LIST_MOD: Module = Module {
    name: "pure/List",
    members: &[
        func!("empty", list_empty),
        func!("singleton", list_singleton),
        func!("isEmpty", list_is_empty),
        func!("size", list_size),
        func!("get", list_get),
        func!("pushFront", list_push_front),
        func!("popFront", list_pop_front),
        func!("reverse", list_reverse),
        func!("concat", list_concat),
        func!("flatten", list_flatten),
        func!("join", list_join),
        func!("take", list_take),
        func!("drop", list_drop),
        func!("split", list_split),
        func!("chunks", list_chunks),
        func!("partition", list_partition),
        func!("merge", list_merge),
        func!("zip", list_zip),
        func!("zipWith", list_zip_with),
        func!("mapResult", list_map_result),
        func!("tabulate", list_tabulate),
        func!("repeat", list_repeat),
        func!("compare", list_compare),
        func!("equal", list_equal),
        func!("values", list_values),
        func!("fromArray", list_from_array),
        func!("fromVarArray", list_from_array),
        func!("toArray", list_to_array),
        func!("toVarArray", list_to_var_array),
        func!("fromIter", list_from_iter),
        func!("toList", list_from_iter),
    ],
};
