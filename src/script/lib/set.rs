//! `mo:core/Set`: sets built by scripts, and read access to the core sets a canister holds,
//! through the same functions.
//!
//! A script's set is core's own structure (`{ var root; var size }`, a B-tree of
//! `data.elements`: [`super::btree_mut`]) changed by core's algorithms with the script's
//! `compare`, so its order, `debug_show` and `toText` are moc's; a set the canister holds
//! is read one B-tree node at a time ([`super::btree`]) and cannot change.

use super::args::{arg, bool_of, elems, wrong};
use super::btree::{self, order, order_variant, Yield, SET};
use super::btree_mut::{self, Tree};
use super::containers::{assert_valid, natural};
use super::iters::iter_value;
use super::{view, Module};
use crate::script::eval::{EResult, Interp};
use crate::script::value::Value;
use std::cmp::Ordering;
use std::rc::Rc;

type R = EResult;

/// The script's set ordered by argument 1 (`compare`).
fn tree<'a>(a: &'a [Value], who: &'a str) -> EResult<Tree<'a>> {
    Ok(Tree {
        shape: SET,
        compare: arg(a, 1, who)?,
        who,
    })
}

/// The root node of a set record (a script's or the canister's).
fn set_root(it: &mut Interp, s: &Value) -> EResult<Value> {
    view::field(it, s, "root")?.ok_or_else(|| wrong("Set", "Set", s))
}

/// The in-order walk of a set's elements.
fn walk(it: &mut Interp, s: &Value) -> EResult<btree::Walk> {
    let root = set_root(it, s)?;
    SET.stream(it, &root, Yield::Payload)
}

/// All elements of a set value (a script's or the canister's), in order.
fn elements_of(it: &mut Interp, s: &Value) -> EResult<Vec<Value>> {
    let mut w = walk(it, s)?;
    let mut out = Vec::new();
    while let Some(x) = w.next_payload(it)? {
        it.alloc(16)?;
        out.push(x);
    }
    Ok(out)
}

/// A script set holding `items`, added in order by their natural order.
pub(super) fn set_of(it: &mut Interp, items: impl IntoIterator<Item = Value>) -> R {
    let compare = natural();
    fill(it, &compare, "Set", btree_mut::empty(SET), items)
}

/// Adds each of `items` to the script's set `s` by `compare`; `s`.
fn fill(
    it: &mut Interp,
    compare: &Value,
    who: &str,
    s: Value,
    items: impl IntoIterator<Item = Value>,
) -> R {
    let t = Tree {
        shape: SET,
        compare,
        who,
    };
    for x in items {
        it.tick()?;
        t.insert(it, &s, x)?;
    }
    Ok(s)
}

/// A new set of the elements `next` yields, added in order by `compare`.
fn set_from(
    it: &mut Interp,
    compare: &Value,
    who: &str,
    mut next: impl FnMut(&mut Interp) -> EResult<Option<Value>>,
) -> R {
    let s = btree_mut::empty(SET);
    let t = Tree {
        shape: SET,
        compare,
        who,
    };
    while let Some(x) = next(it)? {
        it.tick()?;
        t.insert(it, &s, x)?;
    }
    Ok(s)
}

fn set_empty(_: &mut Interp, _: Option<&Value>, _: &[Value]) -> R {
    Ok(btree_mut::empty(SET))
}

fn set_singleton(_: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    Ok(btree_mut::singleton(
        SET,
        arg(a, 0, "Set.singleton")?.clone(),
    ))
}

/// `(s, compare, x)`: adds `x` to the script's set `s`; whether it was new.
fn insert(it: &mut Interp, a: &[Value], who: &str) -> EResult<bool> {
    let t = tree(a, who)?;
    let x = arg(a, 2, who)?.clone();
    Ok(t.insert(it, arg(a, 0, who)?, x)?.is_none())
}

/// `(s, compare, x)`: removes `x` from the script's set `s`; whether it was there.
fn delete(it: &mut Interp, a: &[Value], who: &str) -> EResult<bool> {
    let t = tree(a, who)?;
    Ok(t.take(it, arg(a, 0, who)?, arg(a, 2, who)?)?.is_some())
}

fn set_insert(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    insert(it, a, "Set.insert").map(Value::Bool)
}

fn set_add(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    insert(it, a, "Set.add").map(|_| Value::Unit)
}

fn set_delete(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    delete(it, a, "Set.delete").map(Value::Bool)
}

fn set_remove(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    delete(it, a, "Set.remove").map(|_| Value::Unit)
}

/// Whether `x` is in `s` by `compare` (one path down).
fn contains(it: &mut Interp, s: &Value, compare: &Value, x: &Value) -> EResult<bool> {
    let root = set_root(it, s)?;
    Ok(SET.search(it, &root, compare, x)?.is_some())
}

fn set_contains(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let who = "Set.contains";
    let found = contains(it, arg(a, 0, who)?, arg(a, 1, who)?, arg(a, 2, who)?)?;
    Ok(Value::Bool(found))
}

/// The number of elements: the `size` field, else counted.
fn size_of(it: &mut Interp, s: &Value) -> EResult<u64> {
    match view::field(it, s, "size")? {
        Some(Value::Nat(n)) => Ok(n),
        _ => Ok(elements_of(it, s)?.len() as u64),
    }
}

fn set_size(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    Ok(Value::Nat(size_of(it, arg(a, 0, "Set.size")?)?))
}

fn set_is_empty(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    Ok(Value::Bool(size_of(it, arg(a, 0, "Set.isEmpty")?)? == 0))
}

fn set_clear(_: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let natural = natural();
    let t = Tree {
        shape: SET,
        compare: &natural,
        who: "Set.clear",
    };
    btree_mut::clear(&t, arg(a, 0, "Set.clear")?)?;
    Ok(Value::Unit)
}

fn set_clone(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    btree_mut::copy_tree(it, SET, arg(a, 0, "Set.clone")?, None)
}

/// The elements walked one B-tree node at a time, forward or in `reverse`.
fn values_iter(it: &mut Interp, a: &[Value], who: &str, reverse: bool) -> R {
    let root = set_root(it, arg(a, 0, who)?)?;
    Ok(iter_value(SET.stream_dir(
        it,
        &root,
        reverse,
        Yield::Payload,
    )?))
}

fn set_values(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    values_iter(it, a, "Set.values", false)
}

fn set_reverse_values(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    values_iter(it, a, "Set.reverseValues", true)
}

/// `valuesFrom(s, compare, x)` (`reverse`: `reverseValuesFrom`).
fn values_from(it: &mut Interp, a: &[Value], who: &str, reverse: bool) -> R {
    let root = set_root(it, arg(a, 0, who)?)?;
    let (compare, x) = (arg(a, 1, who)?, arg(a, 2, who)?);
    let w = SET.stream_from(it, &root, compare, x, reverse, Yield::Payload)?;
    Ok(iter_value(w))
}

fn set_values_from(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    values_from(it, a, "Set.valuesFrom", false)
}

fn set_reverse_values_from(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    values_from(it, a, "Set.reverseValuesFrom", true)
}

fn set_to_array(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let e = elements_of(it, arg(a, 0, "Set.toArray")?)?;
    Ok(Value::Array(Rc::from(e)))
}

fn set_min(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    set_extreme(it, arg(a, 0, "Set.min")?, false)
}

fn set_max(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    set_extreme(it, arg(a, 0, "Set.max")?, true)
}

/// The first (or last) element in the set's order: its leftmost (rightmost) slot, reading
/// one path of the B-tree.
fn set_extreme(it: &mut Interp, s: &Value, last: bool) -> R {
    let root = set_root(it, s)?;
    Ok(SET
        .extreme(it, &root, last)?
        .map_or(Value::Null, Value::some))
}

fn from_iter(it: &mut Interp, a: &[Value], who: &str) -> R {
    let iter = arg(a, 0, who)?.clone();
    set_from(it, arg(a, 1, who)?, who, |it| it.iter_next(&iter))
}

fn set_from_iter(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    from_iter(it, a, "Set.fromIter")
}

fn set_to_set(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    from_iter(it, a, "Set.toSet")
}

fn set_from_array(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let who = "Set.fromArray";
    let xs = elems(it, arg(a, 0, who)?, who)?;
    fill(it, arg(a, 1, who)?, who, btree_mut::empty(SET), xs.to_vec())
}

/// `Set.isSubset(s, other, compare)`: no larger, and each element in `other`.
fn set_is_subset(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let who = "Set.isSubset";
    let (s, other, compare) = (arg(a, 0, who)?, arg(a, 1, who)?, arg(a, 2, who)?);
    if size_of(it, s)? > size_of(it, other)? {
        return Ok(Value::Bool(false));
    }
    let mut w = walk(it, s)?;
    while let Some(x) = w.next_payload(it)? {
        if !contains(it, other, compare, &x)? {
            return Ok(Value::Bool(false));
        }
    }
    Ok(Value::Bool(true))
}

/// `Set.union(s, other, compare)`: a copy of `s`, then each element of `other` it lacks.
fn set_union(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let who = "Set.union";
    let (s, other, compare) = (arg(a, 0, who)?, arg(a, 1, who)?, arg(a, 2, who)?);
    let result = btree_mut::copy_tree(it, SET, s, None)?;
    let t = Tree {
        shape: SET,
        compare,
        who,
    };
    let mut w = walk(it, other)?;
    while let Some(x) = w.next_payload(it)? {
        if !contains(it, &result, compare, &x)? {
            t.insert(it, &result, x)?;
        }
    }
    Ok(result)
}

/// `intersection` (`keep == true`) or `difference`: the elements of `s` that are (are not)
/// in `other`, added in order to a new set.
fn select(it: &mut Interp, a: &[Value], who: &str, keep: bool) -> R {
    let (s, other, compare) = (arg(a, 0, who)?, arg(a, 1, who)?, arg(a, 2, who)?);
    let mut w = walk(it, s)?;
    set_from(it, compare, who, |it| {
        while let Some(x) = w.next_payload(it)? {
            if contains(it, other, compare, &x)? == keep {
                return Ok(Some(x));
            }
        }
        Ok(None)
    })
}

fn set_intersection(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    select(it, a, "Set.intersection", true)
}

fn set_difference(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    select(it, a, "Set.difference", false)
}

/// `addAll` / `insertAll` (`(s, compare, iter)`): each element added; whether any was new.
fn add_all(it: &mut Interp, a: &[Value], who: &str) -> EResult<bool> {
    let t = tree(a, who)?;
    let (s, iter) = (arg(a, 0, who)?, arg(a, 2, who)?);
    let mut inserted = false;
    while let Some(x) = it.iter_next(iter)? {
        it.tick()?;
        inserted = t.insert(it, s, x)?.is_none() || inserted;
    }
    Ok(inserted)
}

fn set_add_all(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    add_all(it, a, "Set.addAll").map(|_| Value::Unit)
}

fn set_insert_all(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    add_all(it, a, "Set.insertAll").map(Value::Bool)
}

fn set_delete_all(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let who = "Set.deleteAll";
    let t = tree(a, who)?;
    let (s, iter) = (arg(a, 0, who)?, arg(a, 2, who)?);
    let mut deleted = false;
    while let Some(x) = it.iter_next(iter)? {
        it.tick()?;
        deleted = t.take(it, s, &x)?.is_some() || deleted;
    }
    Ok(Value::Bool(deleted))
}

/// `Set.retainAll(s, compare, predicate)`: deletes each element (of those it had) the
/// predicate rejects; whether any went.
fn set_retain_all(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let who = "Set.retainAll";
    let t = tree(a, who)?;
    let (s, pred) = (arg(a, 0, who)?, arg(a, 2, who)?);
    let mut deleted = false;
    for x in elements_of(it, s)? {
        if !bool_of(&it.call_value(pred, std::slice::from_ref(&x))?, who)? {
            deleted = t.take(it, s, &x)?.is_some() || deleted;
        }
    }
    Ok(Value::Bool(deleted))
}

/// `filter(s, compare, criterion)` / `map(s, compare, project)` / `filterMap`: a new set
/// of what each element gives, added in order.
fn transform(it: &mut Interp, a: &[Value], who: &str, op: Op) -> R {
    let mut w = walk(it, arg(a, 0, who)?)?;
    let f = arg(a, 2, who)?.clone();
    set_from(it, arg(a, 1, who)?, who, |it| {
        while let Some(x) = w.next_payload(it)? {
            let r = it.call_value(&f, std::slice::from_ref(&x))?;
            match op {
                Op::Filter => {
                    if bool_of(&r, who)? {
                        return Ok(Some(x));
                    }
                }
                Op::Map => return Ok(Some(r)),
                Op::FilterMap => {
                    if let Some(Some(y)) = view::option(it, &r)? {
                        return Ok(Some(y));
                    }
                }
            }
        }
        Ok(None)
    })
}

#[derive(Clone, Copy)]
enum Op {
    Filter,
    Map,
    FilterMap,
}

fn set_filter(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    transform(it, a, "Set.filter", Op::Filter)
}

fn set_map(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    transform(it, a, "Set.map", Op::Map)
}

fn set_filter_map(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    transform(it, a, "Set.filterMap", Op::FilterMap)
}

/// The elements of each set `next_set` yields, added in order to a new set (`join`,
/// `flatten`).
fn union_of(
    it: &mut Interp,
    compare: &Value,
    who: &str,
    mut next_set: impl FnMut(&mut Interp) -> EResult<Option<Value>>,
) -> R {
    let mut current: Option<btree::Walk> = None;
    set_from(it, compare, who, |it| loop {
        if let Some(w) = &mut current {
            if let Some(x) = w.next_payload(it)? {
                return Ok(Some(x));
            }
        }
        match next_set(it)? {
            Some(s) => current = Some(walk(it, &s)?),
            None => return Ok(None),
        }
    })
}

fn set_join(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let who = "Set.join";
    let iter = arg(a, 0, who)?.clone();
    union_of(it, arg(a, 1, who)?, who, |it| it.iter_next(&iter))
}

fn set_flatten(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let who = "Set.flatten";
    let mut outer = walk(it, arg(a, 0, who)?)?;
    union_of(it, arg(a, 1, who)?, who, |it| outer.next_payload(it))
}

/// Walks two sets side by side: `Some(answer)` from `step` stops; at the end, `ends`.
fn side_by_side(
    it: &mut Interp,
    s1: &Value,
    s2: &Value,
    mut step: impl FnMut(&mut Interp, Value, Value) -> EResult<Option<Value>>,
    ends: impl Fn(bool, bool) -> Value,
) -> R {
    let (mut w1, mut w2) = (walk(it, s1)?, walk(it, s2)?);
    loop {
        match (w1.next_payload(it)?, w2.next_payload(it)?) {
            (Some(x), Some(y)) => {
                if let Some(r) = step(it, x, y)? {
                    return Ok(r);
                }
            }
            (x, y) => return Ok(ends(x.is_none(), y.is_none())),
        }
    }
}

fn set_compare(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let who = "Set.compare";
    let compare = arg(a, 2, who)?.clone();
    side_by_side(
        it,
        arg(a, 0, who)?,
        arg(a, 1, who)?,
        |it, x, y| {
            let o = order(it, who, &compare, &x, &y)?;
            Ok((o != Ordering::Equal).then(|| order_variant(o)))
        },
        |end1, end2| {
            order_variant(match (end1, end2) {
                (true, true) => Ordering::Equal,
                (true, false) => Ordering::Less,
                _ => Ordering::Greater,
            })
        },
    )
}

fn set_equal(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let who = "Set.equal";
    let (s1, s2) = (arg(a, 0, who)?, arg(a, 1, who)?);
    if size_of(it, s1)? != size_of(it, s2)? {
        return Ok(Value::Bool(false));
    }
    let compare = arg(a, 2, who)?.clone();
    side_by_side(
        it,
        s1,
        s2,
        |it, x, y| {
            let same = order(it, who, &compare, &x, &y)? == Ordering::Equal;
            Ok((!same).then_some(Value::Bool(false)))
        },
        |end1, end2| Value::Bool(end1 && end2),
    )
}

fn set_assert_valid(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    assert_valid(
        it,
        SET,
        arg(a, 0, "Set.assertValid")?,
        arg(a, 1, "Set.assertValid")?,
    )
}

/// `Set.fromPure(pure, compare)`: a script set of a `pure/Set`'s elements.
fn set_from_pure(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let who = "Set.fromPure";
    let values = super::pure_build::items_of(it, "pure/Set", "values", arg(a, 0, who)?)?;
    set_from(it, arg(a, 1, who)?, who, |it| it.iter_next(&values))
}

/// `Set.toPure(s, compare)`: a `pure/Set` of the elements, inserted in order.
fn set_to_pure(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let who = "Set.toPure";
    let e = elements_of(it, arg(a, 0, who)?)?;
    super::pure_build::set_of_elements(it, arg(a, 1, who)?, e)
}

/// `mo:core/Set`.
pub static SET_MOD: Module = Module {
    name: "Set",
    members: &[
        func!("empty", set_empty),
        func!("singleton", set_singleton),
        func!("add", set_add),
        func!("insert", set_insert),
        func!("remove", set_remove),
        func!("delete", set_delete),
        func!("contains", set_contains),
        func!("size", set_size),
        func!("isEmpty", set_is_empty),
        func!("clear", set_clear),
        func!("clone", set_clone),
        func!("values", set_values),
        func!("reverseValues", set_reverse_values),
        func!("valuesFrom", set_values_from),
        func!("reverseValuesFrom", set_reverse_values_from),
        func!("toArray", set_to_array),
        func!("min", set_min),
        func!("max", set_max),
        func!("fromIter", set_from_iter),
        func!("toSet", set_to_set),
        func!("fromArray", set_from_array),
        func!("isSubset", set_is_subset),
        func!("union", set_union),
        func!("intersection", set_intersection),
        func!("difference", set_difference),
        func!("addAll", set_add_all),
        func!("insertAll", set_insert_all),
        func!("deleteAll", set_delete_all),
        func!("retainAll", set_retain_all),
        func!("filter", set_filter),
        func!("map", set_map),
        func!("filterMap", set_filter_map),
        func!("join", set_join),
        func!("flatten", set_flatten),
        func!("compare", set_compare),
        func!("equal", set_equal),
        func!("assertValid", set_assert_valid),
        func!("fromPure", set_from_pure),
        func!("toPure", set_to_pure),
    ],
};
