//! The `mo:core` functions every collection module has in some form (`forEach`, `foldLeft`,
//! `any`, `find`, `contains`, `toText`, `map`, `filter`, `compare`, `equal`, `isSorted`,
//! `join`...), written once over a module's
//! elements (its own `values`, or `entries` for maps) and offered by each module whose core
//! signature has the function ([`member`]). A module's own implementation comes first.

use super::args::{arg, bool_of, elems, wrong};
use super::iters::{collect, iter_value, VecIter};
use super::{dot, Builtin};
use crate::script::eval::{trap, EResult, Interp};
use crate::script::value::{ord, Value};
use std::cell::RefCell;
use std::cmp::Ordering;
use std::rc::Rc;

type R = EResult;

/// The kind of collection a function works on: how to read its elements, how to show it,
/// what `map`/`filter` build.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Family {
    /// `[T]`.
    Array,
    /// `[var T]`.
    VarArray,
    /// `Iter<T>`.
    Iter,
    /// `List<T>` (growable).
    List,
    /// `Set<T>` (B-tree).
    Set,
    /// `Map<K, V>` (B-tree): elements are `(key, value)`, callbacks take both.
    Map,
    /// `Queue<T>` (mutable).
    Queue,
    /// `Stack<T>`.
    Stack,
    /// `pure/List<T>`.
    PureList,
    /// `pure/Set<T>`.
    PureSet,
    /// `pure/Map<K, V>`.
    PureMap,
}

impl Family {
    fn module(self) -> &'static str {
        match self {
            Family::Array => "Array",
            Family::VarArray => "VarArray",
            Family::Iter => "Iter",
            Family::List => "List",
            Family::Set => "Set",
            Family::Map => "Map",
            Family::Queue => "Queue",
            Family::Stack => "Stack",
            Family::PureList => "pure/List",
            Family::PureSet => "pure/Set",
            Family::PureMap => "pure/Map",
        }
    }

    fn is_map(self) -> bool {
        matches!(self, Family::Map | Family::PureMap)
    }
}

/// The elements of `v`, a value of `fam` (entries as `(key, value)` tuples for maps).
fn items(it: &mut Interp, fam: Family, v: &Value) -> EResult<Vec<Value>> {
    match fam {
        Family::Array | Family::VarArray => match v {
            Value::Host(_) => super::view::parts(it, v),
            _ => Ok(elems(it, v, fam.module())?.to_vec()),
        },
        Family::Iter => collect(it, v),
        _ => {
            let name = if fam.is_map() { "entries" } else { "values" };
            let f = super::module_by_name(fam.module())
                .and_then(|m| m.members.iter().find(|b| b.name == name))
                .ok_or_else(|| trap(format!("{}: cannot read its elements", fam.module())))?;
            let iter = (f.f)(it, None, std::slice::from_ref(v))?;
            collect(it, &iter)
        }
    }
}

/// Feeds the elements of `v` to `f` in order until it answers `false`: an iterator is
/// read one element at a time (so `any` on an endless one stops at the first match).
fn each(
    it: &mut Interp,
    fam: Family,
    v: &Value,
    mut f: impl FnMut(&mut Interp, Value) -> EResult<bool>,
) -> EResult<()> {
    if fam == Family::Iter {
        while let Some(x) = it.iter_next(v)? {
            it.tick()?;
            if !f(it, x)? {
                break;
            }
        }
        return Ok(());
    }
    for x in items(it, fam, v)? {
        if !f(it, x)? {
            break;
        }
    }
    Ok(())
}

/// Calls `f` on one element: a map's entry as two arguments (`key`, `value`), after `pre`
/// and before `post`.
fn call_on(it: &mut Interp, fam: Family, f: &Value, pre: &[Value], x: &Value, post: &[Value]) -> R {
    let mut args: Vec<Value> = pre.to_vec();
    match (fam.is_map(), x) {
        (true, Value::Tuple(kv)) => args.extend(kv.iter().cloned()),
        _ => args.push(x.clone()),
    }
    args.extend_from_slice(post);
    it.call_value(f, &args)
}

fn last_arg<'a>(a: &'a [Value], who: &str) -> EResult<&'a Value> {
    a.last()
        .filter(|_| a.len() > 1)
        .ok_or_else(|| trap(format!("{who}: missing argument")))
}

fn for_each(it: &mut Interp, fam: Family, a: &[Value]) -> R {
    let f = last_arg(a, "forEach")?.clone();
    each(it, fam, arg(a, 0, "forEach")?, |it, x| {
        call_on(it, fam, &f, &[], &x, &[])?;
        Ok(true)
    })?;
    Ok(Value::Unit)
}

fn fold(it: &mut Interp, fam: Family, a: &[Value], left: bool) -> R {
    let mut acc = arg(a, 1, "fold")?.clone();
    let f = arg(a, 2, "fold")?.clone();
    let mut xs = items(it, fam, arg(a, 0, "fold")?)?;
    if !left {
        xs.reverse();
    }
    for x in xs {
        acc = if left {
            call_on(it, fam, &f, &[acc], &x, &[])?
        } else {
            call_on(it, fam, &f, &[], &x, &[acc])?
        };
    }
    Ok(acc)
}

fn fold_left(it: &mut Interp, fam: Family, a: &[Value]) -> R {
    fold(it, fam, a, true)
}

fn fold_right(it: &mut Interp, fam: Family, a: &[Value]) -> R {
    fold(it, fam, a, false)
}

/// The index and element of the first element `pred` holds for.
fn first_where(
    it: &mut Interp,
    fam: Family,
    a: &[Value],
    want: bool,
) -> EResult<Option<(usize, Value)>> {
    let f = last_arg(a, "predicate")?.clone();
    let (mut i, mut found) = (0, None);
    each(it, fam, arg(a, 0, "predicate")?, |it, x| {
        if bool_of(&call_on(it, fam, &f, &[], &x, &[])?, "predicate")? == want {
            found = Some((i, x));
            return Ok(false);
        }
        i += 1;
        Ok(true)
    })?;
    Ok(found)
}

fn any(it: &mut Interp, fam: Family, a: &[Value]) -> R {
    Ok(Value::Bool(first_where(it, fam, a, true)?.is_some()))
}

fn all(it: &mut Interp, fam: Family, a: &[Value]) -> R {
    Ok(Value::Bool(first_where(it, fam, a, false)?.is_none()))
}

fn find(it: &mut Interp, fam: Family, a: &[Value]) -> R {
    Ok(opt(first_where(it, fam, a, true)?.map(|(_, x)| x)))
}

fn find_index(it: &mut Interp, fam: Family, a: &[Value]) -> R {
    Ok(opt(
        first_where(it, fam, a, true)?.map(|(i, _)| Value::Nat(i as u64))
    ))
}

fn opt(v: Option<Value>) -> Value {
    v.map(Value::some).unwrap_or(Value::Null)
}

/// The index of the first element equal (by the `equal` argument) to the last argument.
fn position(it: &mut Interp, fam: Family, a: &[Value]) -> EResult<Option<usize>> {
    let eq = arg(a, 1, "contains")?.clone();
    let y = last_arg(a, "contains")?.clone();
    let (mut i, mut found) = (0, None);
    each(it, fam, arg(a, 0, "contains")?, |it, x| {
        if bool_of(&it.call_value(&eq, &[x, y.clone()])?, "equal")? {
            found = Some(i);
            return Ok(false);
        }
        i += 1;
        Ok(true)
    })?;
    Ok(found)
}

fn contains(it: &mut Interp, fam: Family, a: &[Value]) -> R {
    Ok(Value::Bool(position(it, fam, a)?.is_some()))
}

fn index_of(it: &mut Interp, fam: Family, a: &[Value]) -> R {
    Ok(opt(position(it, fam, a)?.map(|i| Value::Nat(i as u64))))
}

fn first(it: &mut Interp, fam: Family, a: &[Value]) -> R {
    Ok(opt(items(it, fam, arg(a, 0, "first")?)?.into_iter().next()))
}

fn last(it: &mut Interp, fam: Family, a: &[Value]) -> R {
    Ok(opt(items(it, fam, arg(a, 0, "last")?)?.pop()))
}

/// `max`/`min`: by the `compare` argument if given, else (ordered sets) the natural order.
fn extreme(it: &mut Interp, fam: Family, a: &[Value], want: Ordering) -> R {
    let cmp = a.get(1).cloned();
    let mut best: Option<Value> = None;
    for x in items(it, fam, arg(a, 0, "max")?)? {
        let better = match &best {
            None => true,
            Some(b) => {
                let o = match &cmp {
                    Some(c) => order_of(&it.call_value(c, &[x.clone(), b.clone()])?)?,
                    None => ord::total_order(&x, b),
                };
                o == want
            }
        };
        if better {
            best = Some(x);
        }
    }
    Ok(opt(best))
}

fn order_of(v: &Value) -> EResult<Ordering> {
    match v {
        Value::Variant(tv) => match &*tv.0 {
            "less" => Ok(Ordering::Less),
            "equal" => Ok(Ordering::Equal),
            "greater" => Ok(Ordering::Greater),
            _ => Err(wrong("compare", "Order", v)),
        },
        other => Err(wrong("compare", "Order", other)),
    }
}

fn max(it: &mut Interp, fam: Family, a: &[Value]) -> R {
    extreme(it, fam, a, Ordering::Greater)
}

fn min(it: &mut Interp, fam: Family, a: &[Value]) -> R {
    extreme(it, fam, a, Ordering::Less)
}

fn reverse_values(it: &mut Interp, fam: Family, a: &[Value]) -> R {
    let mut xs = items(it, fam, arg(a, 0, "reverseValues")?)?;
    xs.reverse();
    Ok(iter_of(xs))
}

fn iter_of(xs: Vec<Value>) -> Value {
    iter_value(VecIter {
        items: Rc::from(xs),
        pos: 0,
    })
}

fn enumerate(it: &mut Interp, fam: Family, a: &[Value]) -> R {
    let xs = items(it, fam, arg(a, 0, "enumerate")?)?;
    it.alloc(32 * xs.len() as u64)?;
    Ok(iter_of(
        xs.into_iter()
            .enumerate()
            .map(|(i, x)| Value::Tuple(Rc::from(vec![Value::Nat(i as u64), x])))
            .collect(),
    ))
}

fn keys(it: &mut Interp, fam: Family, a: &[Value]) -> R {
    let xs = items(it, fam, arg(a, 0, "keys")?)?;
    Ok(iter_of((0..xs.len() as u64).map(Value::Nat).collect()))
}

/// `toText`, in core's format for the module (`List[1, 2]`, `Map{(1, "a")}`...).
fn to_text(it: &mut Interp, fam: Family, a: &[Value]) -> R {
    let (open, close) = match fam {
        Family::Array => ("[", "]"),
        Family::VarArray => ("[var ", "]"),
        Family::List => ("List[", "]"),
        Family::Set => ("Set{", "}"),
        Family::Map => ("Map{", "}"),
        Family::Queue => ("Queue[", "]"),
        Family::Stack => ("Stack[", "]"),
        Family::PureList => ("PureList[", "]"),
        Family::PureSet => ("PureSet{", "}"),
        Family::PureMap => ("PureMap{", "}"),
        Family::Iter => return Err(trap("Iter has no toText")),
    };
    let xs = items(it, fam, arg(a, 0, "toText")?)?;
    if xs.is_empty() && fam == Family::VarArray {
        return Ok(Value::text("[var]"));
    }
    let mut s = String::from(open);
    for (i, x) in xs.iter().enumerate() {
        let before = s.len();
        if i > 0 {
            s.push_str(", ");
        }
        match (fam.is_map(), x) {
            (true, Value::Tuple(kv)) if kv.len() == 2 => {
                let k = text_of(it, arg(a, 1, "toText")?, &kv[0])?;
                let v = text_of(it, arg(a, 2, "toText")?, &kv[1])?;
                s.push_str(&format!("({k}, {v})"));
            }
            _ => s.push_str(&text_of(it, arg(a, 1, "toText")?, x)?),
        }
        it.alloc((s.len() - before) as u64)?;
    }
    s.push_str(close);
    Ok(Value::text(&s))
}

fn text_of(it: &mut Interp, f: &Value, x: &Value) -> EResult<String> {
    match it.call_value(f, std::slice::from_ref(x))? {
        Value::Text(t) => Ok(t.to_string()),
        other => Err(wrong("toText", "Text", &other)),
    }
}

/// `map`/`filter`/`filterMap`: the elements kept (and changed), built as the family's own
/// kind of value (maps keep their keys: `f(key, value)` gives the new value).
fn transform(it: &mut Interp, fam: Family, a: &[Value], op: Op) -> R {
    let f = last_arg(a, "map")?.clone();
    let mut out = Vec::new();
    for x in items(it, fam, arg(a, 0, "map")?)? {
        let r = call_on(it, fam, &f, &[], &x, &[])?;
        let kept = match op {
            Op::Map => Some(r),
            Op::Filter => bool_of(&r, "filter")?.then_some(x.clone()),
            Op::FilterMap => match r {
                Value::Opt(v) => Some((*v).clone()),
                Value::Null => None,
                other => return Err(wrong("filterMap", "option", &other)),
            },
        };
        if let Some(y) = kept {
            it.alloc(16)?;
            out.push(match (fam.is_map(), op, &x) {
                (true, Op::Map | Op::FilterMap, Value::Tuple(kv)) if kv.len() == 2 => {
                    Value::Tuple(Rc::from(vec![kv[0].clone(), y]))
                }
                _ => y,
            });
        }
    }
    build(it, fam, out)
}

#[derive(Clone, Copy)]
enum Op {
    Map,
    Filter,
    FilterMap,
}

/// A value of `fam` holding `xs`.
fn build(it: &mut Interp, fam: Family, xs: Vec<Value>) -> R {
    Ok(match fam {
        Family::Array => Value::Array(Rc::from(xs)),
        Family::VarArray => Value::VarArray(Rc::new(RefCell::new(xs))),
        Family::Iter => iter_of(xs),
        Family::List => super::containers::native_list_of(xs),
        Family::Set => super::set::set_of(it, xs)?,
        Family::Map => super::containers::native_map_of(it, xs)?,
        Family::PureList => xs.into_iter().rev().fold(Value::Null, |tail, x| {
            Value::some(Value::Tuple(Rc::from(vec![x, tail])))
        }),
        _ => {
            return Err(trap(format!(
                "{}: mo-mem cannot build this kind of value",
                fam.module()
            )))
        }
    })
}

fn map(it: &mut Interp, fam: Family, a: &[Value]) -> R {
    transform(it, fam, a, Op::Map)
}

fn filter(it: &mut Interp, fam: Family, a: &[Value]) -> R {
    transform(it, fam, a, Op::Filter)
}

fn filter_map(it: &mut Interp, fam: Family, a: &[Value]) -> R {
    transform(it, fam, a, Op::FilterMap)
}

/// `compare(self, other, compare)`: element by element with `compare` (its first answer
/// other than `#equal`), then the shorter first.
fn compare(it: &mut Interp, fam: Family, a: &[Value]) -> R {
    let xs = items(it, fam, arg(a, 0, "compare")?)?;
    let ys = items(it, fam, arg(a, 1, "compare")?)?;
    let cmp = arg(a, 2, "compare")?.clone();
    for (x, y) in xs.iter().zip(ys.iter()) {
        it.tick()?;
        let o = it.call_value(&cmp, &[x.clone(), y.clone()])?;
        if order_of(&o)? != Ordering::Equal {
            return Ok(o);
        }
    }
    Ok(super::collections::order_value(xs.len().cmp(&ys.len())))
}

/// `equal(self, other, equal)`: the same size (`pure/List` does not look at it first) and
/// `equal` holding for each pair of elements, read in order until it fails.
fn equal(it: &mut Interp, fam: Family, a: &[Value]) -> R {
    let xs = items(it, fam, arg(a, 0, "equal")?)?;
    let ys = items(it, fam, arg(a, 1, "equal")?)?;
    let eq = arg(a, 2, "equal")?.clone();
    if xs.len() != ys.len() && fam != Family::PureList {
        return Ok(Value::Bool(false));
    }
    for (x, y) in xs.iter().zip(ys.iter()) {
        it.tick()?;
        if !bool_of(&it.call_value(&eq, &[x.clone(), y.clone()])?, "equal")? {
            return Ok(Value::Bool(false));
        }
    }
    Ok(Value::Bool(xs.len() == ys.len()))
}

/// `isSorted(self, compare)`: no element greater than the next (`List` asks
/// `compare(next, previous)`, the others `compare(previous, next)`, as core does).
fn is_sorted(it: &mut Interp, fam: Family, a: &[Value]) -> R {
    let xs = items(it, fam, arg(a, 0, "isSorted")?)?;
    let cmp = arg(a, 1, "isSorted")?.clone();
    for w in xs.windows(2) {
        it.tick()?;
        let sorted = if fam == Family::List {
            order_of(&it.call_value(&cmp, &[w[1].clone(), w[0].clone()])?)? != Ordering::Less
        } else {
            order_of(&it.call_value(&cmp, &[w[0].clone(), w[1].clone()])?)? != Ordering::Greater
        };
        if !sorted {
            return Ok(Value::Bool(false));
        }
    }
    Ok(Value::Bool(true))
}

/// `join(iter)`: the elements of each collection an iterator gives, in one new collection.
fn join(it: &mut Interp, fam: Family, a: &[Value]) -> R {
    let parts = arg(a, 0, "join")?.clone();
    let mut out = Vec::new();
    while let Some(part) = it.iter_next(&parts)? {
        it.tick()?;
        let xs = items(it, fam, &part)?;
        it.alloc(16 * xs.len() as u64)?;
        out.extend(xs);
    }
    build(it, fam, out)
}

/// Declares, for one family, a module of wrappers (one per function) and their table.
macro_rules! family {
    ($m:ident, $fam:expr) => {
        mod $m {
            use super::*;
            fn f_for_each(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
                for_each(it, $fam, a)
            }
            fn f_fold_left(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
                fold_left(it, $fam, a)
            }
            fn f_fold_right(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
                fold_right(it, $fam, a)
            }
            fn f_any(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
                any(it, $fam, a)
            }
            fn f_all(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
                all(it, $fam, a)
            }
            fn f_find(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
                find(it, $fam, a)
            }
            fn f_find_index(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
                find_index(it, $fam, a)
            }
            fn f_contains(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
                contains(it, $fam, a)
            }
            fn f_index_of(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
                index_of(it, $fam, a)
            }
            fn f_first(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
                first(it, $fam, a)
            }
            fn f_last(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
                last(it, $fam, a)
            }
            fn f_max(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
                max(it, $fam, a)
            }
            fn f_min(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
                min(it, $fam, a)
            }
            fn f_reverse_values(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
                reverse_values(it, $fam, a)
            }
            fn f_enumerate(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
                enumerate(it, $fam, a)
            }
            fn f_keys(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
                keys(it, $fam, a)
            }
            fn f_to_text(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
                to_text(it, $fam, a)
            }
            fn f_map(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
                map(it, $fam, a)
            }
            fn f_filter(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
                filter(it, $fam, a)
            }
            fn f_filter_map(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
                filter_map(it, $fam, a)
            }
            fn f_compare(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
                compare(it, $fam, a)
            }
            fn f_equal(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
                equal(it, $fam, a)
            }
            fn f_is_sorted(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
                is_sorted(it, $fam, a)
            }
            fn f_join(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
                join(it, $fam, a)
            }

            /// The functions, by core name.
            pub static MEMBERS: &[Builtin] = &[
                func!("forEach", f_for_each),
                func!("foldLeft", f_fold_left),
                func!("foldRight", f_fold_right),
                func!("any", f_any),
                func!("all", f_all),
                func!("find", f_find),
                func!("findIndex", f_find_index),
                func!("contains", f_contains),
                func!("indexOf", f_index_of),
                func!("first", f_first),
                func!("last", f_last),
                func!("max", f_max),
                func!("min", f_min),
                func!("maxEntry", f_max),
                func!("minEntry", f_min),
                func!("reverseValues", f_reverse_values),
                func!("reverseEntries", f_reverse_values),
                func!("enumerate", f_enumerate),
                func!("keys", f_keys),
                func!("toText", f_to_text),
                func!("map", f_map),
                func!("filter", f_filter),
                func!("filterMap", f_filter_map),
                func!("compare", f_compare),
                func!("equal", f_equal),
                func!("isSorted", f_is_sorted),
                func!("join", f_join),
            ];
        }
    };
}

family!(array, Family::Array);
family!(var_array, Family::VarArray);
family!(iter, Family::Iter);
family!(list, Family::List);
family!(set, Family::Set);
family!(map_, Family::Map);
family!(queue, Family::Queue);
family!(stack, Family::Stack);
family!(pure_list, Family::PureList);
family!(pure_set, Family::PureSet);
family!(pure_map, Family::PureMap);

static FAMILIES: &[(&str, &[Builtin])] = &[
    ("Array", array::MEMBERS),
    ("VarArray", var_array::MEMBERS),
    ("Iter", iter::MEMBERS),
    ("List", list::MEMBERS),
    ("Set", set::MEMBERS),
    ("Map", map_::MEMBERS),
    ("Queue", queue::MEMBERS),
    ("Stack", stack::MEMBERS),
    ("pure/List", pure_list::MEMBERS),
    ("pure/Set", pure_set::MEMBERS),
    ("pure/Map", pure_map::MEMBERS),
];

fn text_to_text(_: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    match arg(a, 0, "Text.toText")? {
        t @ Value::Text(_) => Ok(t.clone()),
        other => Err(wrong("Text.toText", "Text", other)),
    }
}

fn option_to_text(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    match super::view::option(it, arg(a, 0, "Option.toText")?)? {
        Some(Some(x)) => {
            let s = text_of(it, arg(a, 1, "Option.toText")?, &x)?;
            Ok(Value::text(&format!("?{s}")))
        }
        Some(None) => Ok(Value::text("null")),
        None => Err(wrong("Option.toText", "option", &a[0])),
    }
}

fn option_for_each(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    if let Some(Some(x)) = super::view::option(it, arg(a, 0, "Option.forEach")?)? {
        it.call_value(arg(a, 1, "Option.forEach")?, &[x])?;
    }
    Ok(Value::Unit)
}

/// Functions of scalar modules with the same shape in core.
static SCALARS: &[(&str, &[Builtin])] = &[
    ("Text", &[func!("toText", text_to_text)]),
    (
        "Option",
        &[
            func!("toText", option_to_text),
            func!("forEach", option_for_each),
        ],
    ),
    ("Nat", &[func!("toFloat", super::numbers::float_from_int)]),
    ("Int", &[func!("toFloat", super::numbers::float_from_int)]),
];

/// The shared implementation of `module.name`, if core's `module` has that function with a
/// `self` parameter (so no module gains a function core does not have). For `Set`,
/// `Map`, and the ordered `pure` modules, `map`/`filter`/`filterMap` are left to the
/// module (their core signatures take an implicit `compare` first).
pub fn member(module: &str, name: &str) -> Option<&'static Builtin> {
    let sig = dot::signature(module, name)?;
    if !sig.params.starts_with('s') {
        return None;
    }
    // the parameter shapes assumed above: callbacks last, `equal`/`compare` second
    let shape_ok = match name {
        "map" | "filter" | "filterMap" => sig.params.ends_with('p'),
        "contains" | "indexOf" => sig.params == "sip",
        "max" | "min" => sig.params == "si" || sig.params == "s",
        "toText" => sig.params.bytes().skip(1).all(|p| p == b'i'),
        "compare" => sig.params == "spi" && sig.implicits == ["compare"],
        "equal" => sig.params == "spi" && sig.implicits == ["equal"],
        "isSorted" => sig.params == "si" && sig.implicits == ["compare"],
        "join" => sig.params == "s" && sig.self_kind == "Iter",
        _ => !sig.params.contains('i'),
    };
    if !shape_ok {
        return None;
    }
    let (_, members) = FAMILIES.iter().chain(SCALARS).find(|(m, _)| *m == module)?;
    members.iter().find(|b| b.name == name)
}
