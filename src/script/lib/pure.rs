//! `mo:core/pure/Map` and `mo:core/pure/Set`: immutable ordered maps and sets, core's
//! red-black trees in a `{ root; size }` record ([`super::rbtree`]), read from the
//! canister's heap or made by the script. Every function takes either: a lookup reads one
//! path of a tree held by the canister, an update rebuilds the path it changes and keeps the
//! rest of the tree as it is. A script's trees have the shape, colours and `size` core's
//! would have, and `compare` and the callbacks see the same arguments in the same order.
//! `mo:core/pure/List` is [`super::pure_list`], `mo:core/pure/Queue` [`super::pure_queue`].

use super::args::{arg, bool_of, wrong};
use super::btree::Yield;
use super::iters::{collect, iter_value};
use super::pure_list::order_value;
use super::rbtree::{self as rb, Kind, Node, MAP, SET};
use super::{view, Module};
use crate::script::eval::{EResult, Interp};
use crate::script::value::Value;
use std::cmp::Ordering;
use std::rc::Rc;

pub(super) use super::pure_list::{list_nth, list_of, PURE_LIST_MOD};
pub(super) use super::pure_queue::PURE_QUEUE_MOD;

type R = EResult;

fn tuple(parts: Vec<Value>) -> Value {
    Value::Tuple(Rc::from(parts))
}

/// `n + 1` as a `Nat` (beyond 64 bits for a record that says it holds 2^64 - 1 entries).
fn plus_one(n: u64) -> Value {
    match n.checked_add(1) {
        Some(m) => Value::Nat(m),
        None => Value::nat_big(num_bigint::BigUint::from(n) + 1u32),
    }
}

fn opt(v: Option<Value>) -> Value {
    v.map_or(Value::Null, Value::some)
}

/// The `size` field of a map or set, else (a record without one) its counted items.
fn size_or_count(it: &mut Interp, kind: Kind, v: &Value) -> EResult<u64> {
    match view::field(it, v, "size")? {
        Some(Value::Nat(n)) => Ok(n),
        _ => {
            let root = rb::root(it, kind, v)?;
            Ok(rb::items(it, kind, &root)?.len() as u64)
        }
    }
}

fn size_fn(it: &mut Interp, a: &[Value], kind: Kind, who: &str) -> R {
    Ok(Value::Nat(size_or_count(it, kind, arg(a, 0, who)?)?))
}

/// The walk of a map or set's tree, yielding `yields` of each node.
fn walk(it: &mut Interp, a: &[Value], kind: Kind, who: &str, yields: Yield, rev: bool) -> R {
    let root = rb::root(it, kind, arg(a, 0, who)?)?;
    Ok(iter_value(rb::Walk::of(root, kind, yields, rev)))
}

/// Core's `all` (`want` false) and `any` (`want` true) over a tree: each node's payload
/// before its subtrees, stopping at the first answer that is `want`.
fn pre_order_find(
    it: &mut Interp,
    kind: Kind,
    t: &Value,
    pred: &Value,
    want: bool,
    depth: u32,
) -> EResult<bool> {
    if depth > rb::MAX_TREE_DEPTH {
        return Err(rb::too_deep(kind.what));
    }
    it.tick()?;
    let Some(n) = rb::read(it, kind, t)? else {
        return Ok(false);
    };
    let args = if kind.set {
        vec![n.k.clone()]
    } else {
        vec![n.k.clone(), n.v.clone()]
    };
    if bool_of(&it.call_value(pred, &args)?, kind.what)? == want {
        return Ok(true);
    }
    Ok(pre_order_find(it, kind, &n.l, pred, want, depth + 1)?
        || pre_order_find(it, kind, &n.r, pred, want, depth + 1)?)
}

fn all_any(it: &mut Interp, a: &[Value], kind: Kind, want: bool, who: &str) -> R {
    let root = rb::root(it, kind, arg(a, 0, who)?)?;
    let pred = arg(a, 1, who)?;
    let found = pre_order_find(it, kind, &root, pred, want, 0)?;
    Ok(Value::Bool(found == want))
}

fn assert_valid(it: &mut Interp, a: &[Value], kind: Kind, who: &str) -> R {
    let root = rb::root(it, kind, arg(a, 0, who)?)?;
    rb::black_depth(it, kind, &root, arg(a, 1, who)?, 0)?;
    Ok(Value::Unit)
}

/// The leftmost (`last` false) or rightmost node of a map or set.
fn extreme(
    it: &mut Interp,
    a: &[Value],
    kind: Kind,
    last: bool,
    who: &str,
) -> EResult<Option<Node>> {
    let root = rb::root(it, kind, arg(a, 0, who)?)?;
    rb::extreme(it, kind, &root, last)
}

/// Compares two maps or sets entry by entry in order: `step` answers for a pair of
/// payloads (or goes on), then the shorter one is less.
fn lexicographic(
    it: &mut Interp,
    kind: Kind,
    a: &[Value],
    who: &str,
    mut step: impl FnMut(&mut Interp, Value, Value) -> EResult<Option<Value>>,
    ends: [Value; 3],
) -> R {
    let r1 = rb::root(it, kind, arg(a, 0, who)?)?;
    let r2 = rb::root(it, kind, arg(a, 1, who)?)?;
    let mut w1 = rb::Walk::of(r1, kind, Yield::Payload, false);
    let mut w2 = rb::Walk::of(r2, kind, Yield::Payload, false);
    let [both, first, second] = ends;
    loop {
        match (w1.advance(it)?, w2.advance(it)?) {
            (Some(x), Some(y)) => {
                if let Some(answer) = step(it, x, y)? {
                    return Ok(answer);
                }
            }
            (None, None) => return Ok(both),
            (None, Some(_)) => return Ok(first),
            (Some(_), None) => return Ok(second),
        }
    }
}

fn orders() -> [Value; 3] {
    [
        order_value(Ordering::Equal),
        order_value(Ordering::Less),
        order_value(Ordering::Greater),
    ]
}

fn entry(v: &Value) -> (Value, Value) {
    match v {
        Value::Tuple(kv) if kv.len() == 2 => (kv[0].clone(), kv[1].clone()),
        other => (other.clone(), Value::Unit),
    }
}

// ------------------------------------------------------------------ pure/Map

fn map_empty(_: &mut Interp, _: Option<&Value>, _: &[Value]) -> R {
    Ok(rb::empty())
}

fn map_singleton(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let k = arg(a, 0, "pure/Map.singleton")?.clone();
    let v = arg(a, 1, "pure/Map.singleton")?.clone();
    let root = rb::mk(it, MAP, true, rb::leaf(), k, v, rb::leaf())?;
    Ok(rb::record(root, Value::Nat(1)))
}

fn map_get(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let who = "pure/Map.get";
    let root = rb::root(it, MAP, arg(a, 0, who)?)?;
    let found = rb::find(it, MAP, &root, arg(a, 1, who)?, arg(a, 2, who)?)?;
    Ok(opt(found.map(|n| n.v)))
}

fn map_contains_key(it: &mut Interp, t: Option<&Value>, a: &[Value]) -> R {
    Ok(Value::Bool(!matches!(map_get(it, t, a)?, Value::Null)))
}

fn map_size(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    size_fn(it, a, MAP, "pure/Map.size")
}

fn map_is_empty(it: &mut Interp, t: Option<&Value>, a: &[Value]) -> R {
    Ok(Value::Bool(matches!(map_size(it, t, a)?, Value::Nat(0))))
}

fn map_entries(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    walk(it, a, MAP, "pure/Map.entries", Yield::Entry, false)
}

fn map_reverse_entries(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    walk(it, a, MAP, "pure/Map.reverseEntries", Yield::Entry, true)
}

fn map_keys(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    walk(it, a, MAP, "pure/Map.keys", Yield::Key, false)
}

fn map_values(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    walk(it, a, MAP, "pure/Map.values", Yield::Value, false)
}

/// Core's `swap`: the map with `key` set to `value`, and the value it replaced.
fn swap(it: &mut Interp, a: &[Value], who: &str) -> EResult<(Value, Option<Value>)> {
    let m = arg(a, 0, who)?;
    let (compare, key, value) = (arg(a, 1, who)?, arg(a, 2, who)?, arg(a, 3, who)?);
    let root = rb::root(it, MAP, m)?;
    let size = rb::size(it, MAP, m)?;
    let (t, done) = rb::insert(it, MAP, &root, compare, key, value)?;
    let size = if done.old.is_none() {
        plus_one(size)
    } else {
        Value::Nat(size)
    };
    Ok((rb::record(t, size), done.old))
}

fn map_swap(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let (m, old) = swap(it, a, "pure/Map.swap")?;
    Ok(tuple(vec![m, opt(old)]))
}

fn map_add(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    Ok(swap(it, a, "pure/Map.add")?.0)
}

fn map_insert(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let (m, old) = swap(it, a, "pure/Map.insert")?;
    Ok(tuple(vec![m, Value::Bool(old.is_none())]))
}

fn map_replace(it: &mut Interp, t: Option<&Value>, a: &[Value]) -> R {
    if matches!(map_contains_key(it, t, a)?, Value::Bool(true)) {
        map_swap(it, t, a)
    } else {
        Ok(tuple(vec![
            arg(a, 0, "pure/Map.replace")?.clone(),
            Value::Null,
        ]))
    }
}

/// Core's removal: the rebuilt tree, the size it had, and the removed value if any.
fn remove(it: &mut Interp, a: &[Value], who: &str) -> EResult<(Value, u64, Option<Value>)> {
    let m = arg(a, 0, who)?;
    let root = rb::root(it, MAP, m)?;
    let (t, found) = rb::remove(it, MAP, &root, arg(a, 1, who)?, arg(a, 2, who)?)?;
    let size = if found.is_some() {
        rb::size(it, MAP, m)?
    } else {
        0
    };
    Ok((t, size, found))
}

fn map_remove(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    match remove(it, a, "pure/Map.remove")? {
        (t, size, Some(_)) => Ok(rb::record(t, Value::Nat(size.saturating_sub(1)))),
        (_, _, None) => Ok(arg(a, 0, "pure/Map.remove")?.clone()),
    }
}

fn map_delete(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    Ok(match remove(it, a, "pure/Map.delete")? {
        (t, size, Some(_)) => tuple(vec![
            rb::record(t, Value::Nat(size.saturating_sub(1))),
            Value::Bool(true),
        ]),
        (_, _, None) => tuple(vec![
            arg(a, 0, "pure/Map.delete")?.clone(),
            Value::Bool(false),
        ]),
    })
}

fn map_take(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    // core keeps the rebuilt tree even when the key is not there
    let (t, _, found) = remove(it, a, "pure/Map.take")?;
    let size = rb::size(it, MAP, arg(a, 0, "pure/Map.take")?)?;
    let size = if found.is_some() {
        size.saturating_sub(1)
    } else {
        size
    };
    Ok(tuple(vec![rb::record(t, Value::Nat(size)), opt(found)]))
}

fn map_max_entry(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let n = extreme(it, a, MAP, true, "pure/Map.maxEntry")?;
    Ok(opt(n.map(|n| n.item(MAP))))
}

fn map_min_entry(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let n = extreme(it, a, MAP, false, "pure/Map.minEntry")?;
    Ok(opt(n.map(|n| n.item(MAP))))
}

/// The `(key, value)` pairs an iterator yields.
fn pairs_of(it: &mut Interp, iter: &Value, who: &str) -> EResult<Vec<(Value, Value)>> {
    let mut out = Vec::new();
    for kv in collect(it, iter)? {
        match &view::parts(it, &kv)?[..] {
            [k, v] => out.push((k.clone(), v.clone())),
            _ => return Err(wrong(who, "(key, value) pair", &kv)),
        }
    }
    Ok(out)
}

/// Core's map `fromIter`: each pair added in turn, the size counting every pair (a key
/// given twice counts twice, as in core).
fn map_from_iter(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let who = "pure/Map.fromIter";
    let pairs = pairs_of(it, arg(a, 0, who)?, who)?;
    let compare = arg(a, 1, who)?;
    let mut t = rb::leaf();
    let n = pairs.len() as u64;
    for (k, v) in pairs {
        t = rb::insert(it, MAP, &t, compare, &k, &v)?.0;
    }
    Ok(rb::record(t, Value::Nat(n)))
}

/// Core's map `map`: the same tree with each value replaced by `f(key, value)`, called in
/// order.
fn map_tree(it: &mut Interp, t: &Value, f: &Value, depth: u32) -> R {
    if depth > rb::MAX_TREE_DEPTH {
        return Err(rb::too_deep(MAP.what));
    }
    it.tick()?;
    let Some(n) = rb::read(it, MAP, t)? else {
        return Ok(t.clone());
    };
    let l = map_tree(it, &n.l, f, depth + 1)?;
    let v = it.call_value(f, &[n.k.clone(), n.v])?;
    let r = map_tree(it, &n.r, f, depth + 1)?;
    rb::mk(it, MAP, n.red, l, n.k, v, r)
}

fn map_map(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let m = arg(a, 0, "pure/Map.map")?;
    let root = rb::root(it, MAP, m)?;
    let size = view::field(it, m, "size")?.unwrap_or(Value::Nat(0));
    let t = map_tree(it, &root, arg(a, 1, "pure/Map.map")?, 0)?;
    Ok(rb::record(t, size))
}

/// Core's map `filter` (`map` false) and `filterMap`: the kept entries added, in order, to
/// a new tree.
fn map_filter_with(it: &mut Interp, a: &[Value], map: bool, who: &str) -> R {
    let root = rb::root(it, MAP, arg(a, 0, who)?)?;
    let (compare, f) = (arg(a, 1, who)?, arg(a, 2, who)?);
    let mut walk = rb::Walk::of(root, MAP, Yield::Payload, false);
    let (mut t, mut n) = (rb::leaf(), 0u64);
    while let Some(kv) = walk.advance(it)? {
        let (k, v) = entry(&kv);
        let r = it.call_value(f, &[k.clone(), v.clone()])?;
        let kept = if map {
            match view::option(it, &r)? {
                Some(x) => x,
                None => return Err(wrong(who, "option", &r)),
            }
        } else {
            bool_of(&r, who)?.then_some(v)
        };
        if let Some(v) = kept {
            n = n.saturating_add(1);
            t = rb::insert(it, MAP, &t, compare, &k, &v)?.0;
        }
    }
    Ok(rb::record(t, Value::Nat(n)))
}

fn map_filter(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    map_filter_with(it, a, false, "pure/Map.filter")
}

fn map_filter_map(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    map_filter_with(it, a, true, "pure/Map.filterMap")
}

fn map_all(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    all_any(it, a, MAP, false, "pure/Map.all")
}

fn map_any(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    all_any(it, a, MAP, true, "pure/Map.any")
}

fn map_assert_valid(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    assert_valid(it, a, MAP, "pure/Map.assertValid")
}

fn map_equal(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let who = "pure/Map.equal";
    let s1 = rb::size(it, MAP, arg(a, 0, who)?)?;
    let s2 = rb::size(it, MAP, arg(a, 1, who)?)?;
    if s1 != s2 {
        return Ok(Value::Bool(false));
    }
    let (compare, equal) = (arg(a, 2, who)?.clone(), arg(a, 3, who)?.clone());
    lexicographic(
        it,
        MAP,
        a,
        who,
        |it, x, y| {
            let ((k1, v1), (k2, v2)) = (entry(&x), entry(&y));
            let same = rb::order(it, who, &compare, &k1, &k2)? == Ordering::Equal
                && bool_of(&it.call_value(&equal, &[v1, v2])?, who)?;
            Ok((!same).then_some(Value::Bool(false)))
        },
        [Value::Bool(true), Value::Bool(false), Value::Bool(false)],
    )
}

fn map_compare(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let who = "pure/Map.compare";
    let (ck, cv) = (arg(a, 2, who)?.clone(), arg(a, 3, who)?.clone());
    lexicographic(
        it,
        MAP,
        a,
        who,
        |it, x, y| {
            let ((k1, v1), (k2, v2)) = (entry(&x), entry(&y));
            let o = match rb::order(it, who, &ck, &k1, &k2)? {
                Ordering::Equal => rb::order(it, who, &cv, &v1, &v2)?,
                o => o,
            };
            Ok((o != Ordering::Equal).then(|| order_value(o)))
        },
        orders(),
    )
}

/// `mo:core/pure/Map`.
pub static PURE_MAP_MOD: Module = Module {
    name: "pure/Map",
    members: &[
        func!("empty", map_empty),
        func!("singleton", map_singleton),
        func!("isEmpty", map_is_empty),
        func!("size", map_size),
        func!("containsKey", map_contains_key),
        func!("get", map_get),
        func!("insert", map_insert),
        func!("add", map_add),
        func!("swap", map_swap),
        func!("replace", map_replace),
        func!("remove", map_remove),
        func!("delete", map_delete),
        func!("take", map_take),
        func!("maxEntry", map_max_entry),
        func!("minEntry", map_min_entry),
        func!("entries", map_entries),
        func!("reverseEntries", map_reverse_entries),
        func!("keys", map_keys),
        func!("values", map_values),
        func!("fromIter", map_from_iter),
        func!("toMap", map_from_iter),
        func!("map", map_map),
        func!("all", map_all),
        func!("any", map_any),
        func!("filter", map_filter),
        func!("filterMap", map_filter_map),
        func!("assertValid", map_assert_valid),
        func!("equal", map_equal),
        func!("compare", map_compare),
    ],
};

// ------------------------------------------------------------------ pure/Set

fn set_empty(_: &mut Interp, _: Option<&Value>, _: &[Value]) -> R {
    Ok(rb::empty())
}

fn set_singleton(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let x = arg(a, 0, "pure/Set.singleton")?.clone();
    let root = rb::mk(it, SET, true, rb::leaf(), x, Value::Unit, rb::leaf())?;
    Ok(rb::record(root, Value::Nat(1)))
}

/// Core's set `insert`: the set with `x` and whether it was added (else the set itself).
fn set_insert_value(
    it: &mut Interp,
    s: &Value,
    compare: &Value,
    x: &Value,
) -> EResult<(Value, bool)> {
    let root = rb::root(it, SET, s)?;
    let (t, done) = rb::insert(it, SET, &root, compare, x, &Value::Unit)?;
    if !done.created {
        return Ok((s.clone(), false));
    }
    let size = rb::size(it, SET, s)?;
    Ok((rb::record(t, plus_one(size)), true))
}

/// Core's set `delete`: the set without `x` and whether it was there (else the set itself).
fn set_delete_value(
    it: &mut Interp,
    s: &Value,
    compare: &Value,
    x: &Value,
) -> EResult<(Value, bool)> {
    let root = rb::root(it, SET, s)?;
    let (t, found) = rb::remove(it, SET, &root, compare, x)?;
    if found.is_none() {
        return Ok((s.clone(), false));
    }
    let size = rb::size(it, SET, s)?;
    Ok((rb::record(t, Value::Nat(size.saturating_sub(1))), true))
}

fn set_args<'a>(a: &'a [Value], who: &str) -> EResult<(&'a Value, &'a Value, &'a Value)> {
    Ok((arg(a, 0, who)?, arg(a, 1, who)?, arg(a, 2, who)?))
}

fn set_add(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let (s, c, x) = set_args(a, "pure/Set.add")?;
    Ok(set_insert_value(it, s, c, x)?.0)
}

fn set_insert(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let (s, c, x) = set_args(a, "pure/Set.insert")?;
    let (s, added) = set_insert_value(it, s, c, x)?;
    Ok(tuple(vec![s, Value::Bool(added)]))
}

fn set_remove(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let (s, c, x) = set_args(a, "pure/Set.remove")?;
    Ok(set_delete_value(it, s, c, x)?.0)
}

fn set_delete(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let (s, c, x) = set_args(a, "pure/Set.delete")?;
    let (s, removed) = set_delete_value(it, s, c, x)?;
    Ok(tuple(vec![s, Value::Bool(removed)]))
}

fn set_contains(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let (s, c, x) = set_args(a, "pure/Set.contains")?;
    let root = rb::root(it, SET, s)?;
    Ok(Value::Bool(rb::find(it, SET, &root, c, x)?.is_some()))
}

fn set_size(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    size_fn(it, a, SET, "pure/Set.size")
}

fn set_is_empty(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let root = rb::root(it, SET, arg(a, 0, "pure/Set.isEmpty")?)?;
    Ok(Value::Bool(rb::read(it, SET, &root)?.is_none()))
}

fn set_values(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    walk(it, a, SET, "pure/Set.values", Yield::Payload, false)
}

fn set_reverse_values(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    walk(it, a, SET, "pure/Set.reverseValues", Yield::Payload, true)
}

fn set_min(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    Ok(opt(extreme(it, a, SET, false, "pure/Set.min")?.map(|n| n.k)))
}

fn set_max(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    Ok(opt(extreme(it, a, SET, true, "pure/Set.max")?.map(|n| n.k)))
}

/// `acc` with each element of `from` added in order (core's `union` folds the smaller set
/// into the other).
fn add_all(it: &mut Interp, mut acc: Value, from: &Value, compare: &Value) -> R {
    let root = rb::root(it, SET, from)?;
    let mut walk = rb::Walk::of(root, SET, Yield::Payload, false);
    while let Some(x) = walk.advance(it)? {
        acc = set_insert_value(it, &acc, compare, &x)?.0;
    }
    Ok(acc)
}

fn union(it: &mut Interp, s1: &Value, s2: &Value, compare: &Value) -> R {
    if rb::size(it, SET, s1)? < rb::size(it, SET, s2)? {
        add_all(it, s2.clone(), s1, compare)
    } else {
        add_all(it, s1.clone(), s2, compare)
    }
}

fn set_union(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let (s1, s2, c) = set_args(a, "pure/Set.union")?;
    union(it, s1, s2, c)
}

/// The elements of `from`, in order, that `other` does (`keep` true) or does not contain,
/// as a set built from them (core's `buildFromSorted`).
fn sorted_subset(it: &mut Interp, from: &Value, other: &Value, compare: &Value, keep: bool) -> R {
    let other = rb::root(it, SET, other)?;
    let mut kept = Vec::new();
    let from = rb::root(it, SET, from)?;
    for x in rb::items(it, SET, &from)? {
        if rb::find(it, SET, &other, compare, &x)?.is_some() == keep {
            it.alloc(16)?;
            kept.push(x);
        }
    }
    let n = kept.len() as u64;
    Ok(rb::record(rb::build_from_sorted(it, &kept)?, Value::Nat(n)))
}

fn set_intersection(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let (s1, s2, c) = set_args(a, "pure/Set.intersection")?;
    if rb::size(it, SET, s1)? < rb::size(it, SET, s2)? {
        sorted_subset(it, s1, s2, c, true)
    } else {
        sorted_subset(it, s2, s1, c, true)
    }
}

fn set_difference(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let (s1, s2, c) = set_args(a, "pure/Set.difference")?;
    if rb::size(it, SET, s1)? < rb::size(it, SET, s2)? {
        return sorted_subset(it, s1, s2, c, false);
    }
    let mut acc = s1.clone();
    let t2 = rb::root(it, SET, s2)?;
    for x in rb::items(it, SET, &t2)? {
        let root = rb::root(it, SET, &acc)?;
        if rb::find(it, SET, &root, c, &x)?.is_some() {
            acc = set_delete_value(it, &acc, c, &x)?.0;
        }
    }
    Ok(acc)
}

/// Core's set `map` (`Some(Op)`...): each element, in order, through `f`, the results
/// added to a new set.
fn set_transform(it: &mut Interp, a: &[Value], op: SetOp, who: &str) -> R {
    let root = rb::root(it, SET, arg(a, 0, who)?)?;
    let (compare, f) = (arg(a, 1, who)?, arg(a, 2, who)?);
    let mut walk = rb::Walk::of(root, SET, Yield::Payload, false);
    let mut acc = rb::empty();
    while let Some(x) = walk.advance(it)? {
        let r = it.call_value(f, std::slice::from_ref(&x))?;
        let kept = match op {
            SetOp::Map => Some(r),
            SetOp::Filter => bool_of(&r, who)?.then_some(x),
            SetOp::FilterMap => match view::option(it, &r)? {
                Some(v) => v,
                None => return Err(wrong(who, "option", &r)),
            },
        };
        if let Some(y) = kept {
            acc = set_insert_value(it, &acc, compare, &y)?.0;
        }
    }
    Ok(acc)
}

#[derive(Clone, Copy)]
enum SetOp {
    Map,
    Filter,
    FilterMap,
}

fn set_map(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    set_transform(it, a, SetOp::Map, "pure/Set.map")
}

fn set_filter(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    set_transform(it, a, SetOp::Filter, "pure/Set.filter")
}

fn set_filter_map(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    set_transform(it, a, SetOp::FilterMap, "pure/Set.filterMap")
}

/// Core's `isSubsetHelper`: whether every element of the tree `t1` is in `t2`, recursing
/// over `t1` and looking elements up in the matching side of `t2`.
fn subset(it: &mut Interp, t1: &Value, t2: &Value, compare: &Value, depth: u32) -> EResult<bool> {
    if depth > rb::MAX_TREE_DEPTH {
        return Err(rb::too_deep(SET.what));
    }
    it.tick()?;
    let Some(n1) = rb::read(it, SET, t1)? else {
        return Ok(true);
    };
    let Some(n2) = rb::read(it, SET, t2)? else {
        return Ok(false);
    };
    Ok(match rb::order(it, SET.what, compare, &n1.k, &n2.k)? {
        Ordering::Equal => {
            subset(it, &n1.l, &n2.l, compare, depth + 1)?
                && subset(it, &n1.r, &n2.r, compare, depth + 1)?
        }
        Ordering::Less => {
            rb::find(it, SET, &n2.l, compare, &n1.k)?.is_some()
                && subset(it, &n1.l, &n2.l, compare, depth + 1)?
                && subset(it, &n1.r, t2, compare, depth + 1)?
        }
        Ordering::Greater => {
            rb::find(it, SET, &n2.r, compare, &n1.k)?.is_some()
                && subset(it, &n1.l, t2, compare, depth + 1)?
                && subset(it, &n1.r, &n2.r, compare, depth + 1)?
        }
    })
}

/// `isSubset` (`same_size` false) and `equal`: the sizes first, then [`subset`].
fn subset_fn(it: &mut Interp, a: &[Value], same_size: bool, who: &str) -> R {
    let (s1, s2, c) = set_args(a, who)?;
    let (n1, n2) = (rb::size(it, SET, s1)?, rb::size(it, SET, s2)?);
    if (same_size && n1 != n2) || n1 > n2 {
        return Ok(Value::Bool(false));
    }
    let (t1, t2) = (rb::root(it, SET, s1)?, rb::root(it, SET, s2)?);
    Ok(Value::Bool(subset(it, &t1, &t2, c, 0)?))
}

fn set_is_subset(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    subset_fn(it, a, false, "pure/Set.isSubset")
}

fn set_equal(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    subset_fn(it, a, true, "pure/Set.equal")
}

fn set_compare(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let who = "pure/Set.compare";
    let c = arg(a, 2, who)?.clone();
    lexicographic(
        it,
        SET,
        a,
        who,
        |it, x, y| {
            let o = rb::order(it, who, &c, &x, &y)?;
            Ok((o != Ordering::Equal).then(|| order_value(o)))
        },
        orders(),
    )
}

fn set_from_iter(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let who = "pure/Set.fromIter";
    let xs = collect(it, arg(a, 0, who)?)?;
    let compare = arg(a, 1, who)?;
    let mut s = rb::empty();
    for x in xs {
        s = set_insert_value(it, &s, compare, &x)?.0;
    }
    Ok(s)
}

/// The union of each set `next` yields, in turn, into an empty set (`flatten`, `join`).
fn unions(
    it: &mut Interp,
    compare: &Value,
    mut next: impl FnMut(&mut Interp) -> EResult<Option<Value>>,
) -> R {
    let mut acc = rb::empty();
    while let Some(s) = next(it)? {
        acc = union(it, &acc, &s, compare)?;
    }
    Ok(acc)
}

fn set_flatten(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let root = rb::root(it, SET, arg(a, 0, "pure/Set.flatten")?)?;
    let mut walk = rb::Walk::of(root, SET, Yield::Payload, false);
    unions(it, arg(a, 1, "pure/Set.flatten")?, |it| walk.advance(it))
}

fn set_join(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let iter = arg(a, 0, "pure/Set.join")?;
    unions(it, arg(a, 1, "pure/Set.join")?, |it| it.iter_next(iter))
}

fn set_all(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    all_any(it, a, SET, false, "pure/Set.all")
}

fn set_any(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    all_any(it, a, SET, true, "pure/Set.any")
}

fn set_assert_valid(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    assert_valid(it, a, SET, "pure/Set.assertValid")
}

/// `mo:core/pure/Set`.
pub static PURE_SET_MOD: Module = Module {
    name: "pure/Set",
    members: &[
        func!("empty", set_empty),
        func!("singleton", set_singleton),
        func!("isEmpty", set_is_empty),
        func!("size", set_size),
        func!("contains", set_contains),
        func!("add", set_add),
        func!("insert", set_insert),
        func!("remove", set_remove),
        func!("delete", set_delete),
        func!("min", set_min),
        func!("max", set_max),
        func!("union", set_union),
        func!("intersection", set_intersection),
        func!("difference", set_difference),
        func!("map", set_map),
        func!("filter", set_filter),
        func!("filterMap", set_filter_map),
        func!("isSubset", set_is_subset),
        func!("equal", set_equal),
        func!("compare", set_compare),
        func!("values", set_values),
        func!("reverseValues", set_reverse_values),
        func!("all", set_all),
        func!("any", set_any),
        func!("assertValid", set_assert_valid),
        func!("flatten", set_flatten),
        func!("join", set_join),
        func!("fromIter", set_from_iter),
        func!("toSet", set_from_iter),
    ],
};
