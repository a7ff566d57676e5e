//! `mo:core/Map`: maps built by scripts, and read access to the core maps a canister holds,
//! through the same functions.
//!
//! A script's map is core's own structure (`{ var root; var size }`, a B-tree of order 32:
//! [`super::btree_mut`]) changed by core's algorithms with the script's `compare`: its
//! iteration order, `debug_show` and `toText` are those of the same program under moc, and
//! `let b = a; Map.add(a, ...)` is seen through `b`. A map the canister holds is read where
//! it lies (one B-tree node at a time, [`super::btree`]) and cannot change.

use super::args::{arg, bool_of, elems, wrong};
use super::btree::{self, order, order_variant, Yield, MAP};
use super::btree_mut::{self, Tree};
use super::iters::{iter_value, VecIter};
use super::{view, Builtin, Module};
use crate::script::eval::{host_trap, trap, EResult, Interp};
use crate::script::value::{ord, BoundBuiltin, Value};
use std::cell::RefCell;
use std::cmp::Ordering;
use std::rc::Rc;

pub(super) use super::list::{native_list_of, LIST_MOD};

type R = EResult;

fn natural_compare(_: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let (x, y) = (arg(a, 0, "compare")?, arg(a, 1, "compare")?);
    Ok(order_variant(ord::total_order(x, y)))
}

static NATURAL: Builtin = func!("compare", natural_compare);

/// A `compare` of the values' natural order (numbers, texts, tuples...), for the maps and
/// sets built without one ([`native_map_of`]).
pub(super) fn natural() -> Value {
    Value::Builtin(Rc::new(BoundBuiltin {
        f: &NATURAL,
        this: None,
    }))
}

/// A script map holding `entries` (`(key, value)` tuples, added in order by their natural
/// order: a later key replaces an earlier).
pub(super) fn native_map_of(it: &mut Interp, entries: Vec<Value>) -> R {
    let m = btree_mut::empty(MAP);
    let compare = natural();
    let t = Tree {
        shape: MAP,
        compare: &compare,
        who: "Map",
    };
    for kv in entries {
        let kv = entry(it, kv, "Map")?;
        t.insert(it, &m, kv)?;
    }
    Ok(m)
}

/// A `(key, value)` entry from a tuple (eager or read from the heap).
fn entry(it: &mut Interp, kv: Value, who: &str) -> R {
    match &kv {
        Value::Tuple(t) if t.len() == 2 => Ok(kv),
        _ => {
            let (k, v) =
                btree::entry_parts(it, &kv).map_err(|_| wrong(who, "(key, value)", &kv))?;
            Ok(Value::Tuple(Rc::from(vec![k, v])))
        }
    }
}

/// The script's tree, ordered by argument 1 (`compare`).
fn tree<'a>(a: &'a [Value], who: &'a str) -> EResult<Tree<'a>> {
    Ok(Tree {
        shape: MAP,
        compare: arg(a, 1, who)?,
        who,
    })
}

/// The root node of a map record (a script's or the canister's).
fn map_root(it: &mut Interp, m: &Value) -> EResult<Value> {
    view::field(it, m, "root")?.ok_or_else(|| wrong("Map", "Map", m))
}

/// All entries of a map value (a script's or the canister's), in order, as `(k, v)`.
pub(super) fn entries_of(it: &mut Interp, m: &Value) -> EResult<Vec<(Value, Value)>> {
    let root = map_root(it, m)?;
    let mut walk = MAP.stream(it, &root, Yield::Payload)?;
    let mut out = Vec::new();
    while let Some(kv) = walk.next_payload(it)? {
        it.alloc(32)?;
        out.push(btree::entry_parts(it, &kv)?);
    }
    Ok(out)
}

fn map_empty(_: &mut Interp, _: Option<&Value>, _: &[Value]) -> R {
    Ok(btree_mut::empty(MAP))
}

fn map_singleton(_: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let k = arg(a, 0, "Map.singleton")?.clone();
    let v = arg(a, 1, "Map.singleton")?.clone();
    Ok(btree_mut::singleton(
        MAP,
        Value::Tuple(Rc::from(vec![k, v])),
    ))
}

/// `Map.swap`: `(m, compare, k, v)`; the value `k` had.
fn swap(it: &mut Interp, a: &[Value], who: &str) -> EResult<Option<Value>> {
    let t = tree(a, who)?;
    let k = arg(a, 2, who)?.clone();
    let v = arg(a, 3, who)?.clone();
    let old = t.insert(it, arg(a, 0, who)?, Value::Tuple(Rc::from(vec![k, v])))?;
    match old {
        Some(kv) => Ok(Some(btree::entry_parts(it, &kv)?.1)),
        None => Ok(None),
    }
}

fn opt(v: Option<Value>) -> Value {
    v.map_or(Value::Null, Value::some)
}

fn map_add(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    swap(it, a, "Map.add").map(|_| Value::Unit)
}

fn map_insert(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    swap(it, a, "Map.insert").map(|old| Value::Bool(old.is_none()))
}

fn map_swap(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    swap(it, a, "Map.swap").map(opt)
}

fn map_replace(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let who = "Map.replace";
    if lookup(it, arg(a, 0, who)?, arg(a, 1, who)?, arg(a, 2, who)?)?.is_none() {
        // mo:core checks first, so a map the canister holds only fails if `k` is there
        return Ok(Value::Null);
    }
    swap(it, a, who).map(opt)
}

/// `Map.take`: `(m, compare, k)`; the value `k` had.
fn take(it: &mut Interp, a: &[Value], who: &str) -> EResult<Option<Value>> {
    let t = tree(a, who)?;
    let k = arg(a, 2, who)?;
    match t.take(it, arg(a, 0, who)?, k)? {
        Some(kv) => Ok(Some(btree::entry_parts(it, &kv)?.1)),
        None => Ok(None),
    }
}

fn map_remove(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    take(it, a, "Map.remove").map(|_| Value::Unit)
}

fn map_delete(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    take(it, a, "Map.delete").map(|old| Value::Bool(old.is_some()))
}

fn map_take(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    take(it, a, "Map.take").map(opt)
}

fn map_clear(_: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let natural = natural();
    let t = Tree {
        shape: MAP,
        compare: &natural,
        who: "Map.clear",
    };
    btree_mut::clear(&t, arg(a, 0, "Map.clear")?)?;
    Ok(Value::Unit)
}

fn map_clone(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    btree_mut::copy_tree(it, MAP, arg(a, 0, "Map.clone")?, None)
}

/// `Map.map(m, f)`: the same tree, each value `f(key, value)` (mo:core's `mapNode`: node by
/// node, each node's entries before its children).
fn map_map(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let f = arg(a, 1, "Map.map")?.clone();
    btree_mut::copy_tree(it, MAP, arg(a, 0, "Map.map")?, Some(&f))
}

/// The value under `k` by `compare` (`get`'s one path down).
fn lookup(it: &mut Interp, m: &Value, compare: &Value, k: &Value) -> EResult<Option<Value>> {
    if let Some(found) = ordered_get(it, m, compare, k)? {
        return Ok(found);
    }
    let root = map_root(it, m)?;
    match MAP.search(it, &root, compare, k)? {
        Some(kv) => Ok(Some(btree::entry_parts(it, &kv)?.1)),
        None => Ok(None),
    }
}

fn map_get(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let who = "Map.get";
    Ok(opt(lookup(
        it,
        arg(a, 0, who)?,
        arg(a, 1, who)?,
        arg(a, 2, who)?,
    )?))
}

/// `Map.get(m, X.compare, k)` on a canister-held map with a library `compare` (the scalar
/// keys' own order): the host descends one path of the structure without calling back into
/// the script ([`crate::script::host::HostObject::ordered_get`]); `None` when it cannot.
fn ordered_get(
    it: &mut Interp,
    m: &Value,
    compare: &Value,
    k: &Value,
) -> EResult<Option<Option<Value>>> {
    let (Value::Host(h), Value::Builtin(b)) = (m, compare) else {
        return Ok(None);
    };
    if b.this.is_some() || b.f.name != "compare" || std::ptr::eq(b.f, &NATURAL) {
        return Ok(None);
    }
    let found = h.ordered_get(k).map_err(host_trap);
    it.charge_host(&**h)?;
    found
}

fn map_contains(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let who = "Map.containsKey";
    let found = lookup(it, arg(a, 0, who)?, arg(a, 1, who)?, arg(a, 2, who)?)?;
    Ok(Value::Bool(found.is_some()))
}

/// The number of entries of a map: its `size` field, else counted.
fn size_of(it: &mut Interp, m: &Value) -> EResult<u64> {
    match view::field(it, m, "size")? {
        Some(Value::Nat(n)) => Ok(n),
        _ => Ok(entries_of(it, m)?.len() as u64),
    }
}

fn map_size(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    Ok(Value::Nat(size_of(it, arg(a, 0, "Map.size")?)?))
}

fn map_is_empty(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    Ok(Value::Bool(size_of(it, arg(a, 0, "Map.isEmpty")?)? == 0))
}

/// An iterator over a map's entries projected by `yields`, walked one B-tree node at a
/// time ([`btree::Walk`]), forward or in `reverse`.
fn map_iter(it: &mut Interp, a: &[Value], who: &str, yields: Yield, reverse: bool) -> R {
    let root = map_root(it, arg(a, 0, who)?)?;
    Ok(iter_value(MAP.stream_dir(it, &root, reverse, yields)?))
}

fn map_entries(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    map_iter(it, a, "Map.entries", Yield::Entry, false)
}

fn map_reverse_entries(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    map_iter(it, a, "Map.reverseEntries", Yield::Entry, true)
}

fn map_keys(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    map_iter(it, a, "Map.keys", Yield::Key, false)
}

fn map_values(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    map_iter(it, a, "Map.values", Yield::Value, false)
}

/// `entriesFrom(m, compare, k)` (`reverse`: `reverseEntriesFrom`).
fn entries_from(it: &mut Interp, a: &[Value], who: &str, reverse: bool) -> R {
    let root = map_root(it, arg(a, 0, who)?)?;
    let (compare, k) = (arg(a, 1, who)?, arg(a, 2, who)?);
    let walk = MAP.stream_from(it, &root, compare, k, reverse, Yield::Entry)?;
    Ok(iter_value(walk))
}

fn map_entries_from(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    entries_from(it, a, "Map.entriesFrom", false)
}

fn map_reverse_entries_from(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    entries_from(it, a, "Map.reverseEntriesFrom", true)
}

/// `minEntry`/`maxEntry`: the first or last entry, one path down.
fn extreme_entry(it: &mut Interp, m: &Value, last: bool) -> R {
    let root = map_root(it, m)?;
    match MAP.extreme(it, &root, last)? {
        Some(kv) => {
            let (k, v) = btree::entry_parts(it, &kv)?;
            Ok(Value::some(Value::Tuple(Rc::from(vec![k, v]))))
        }
        None => Ok(Value::Null),
    }
}

fn map_min_entry(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    extreme_entry(it, arg(a, 0, "Map.minEntry")?, false)
}

fn map_max_entry(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    extreme_entry(it, arg(a, 0, "Map.maxEntry")?, true)
}

fn pairs(e: Vec<(Value, Value)>) -> Vec<Value> {
    e.into_iter()
        .map(|(k, v)| Value::Tuple(Rc::from(vec![k, v])))
        .collect()
}

fn map_to_array(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let e = entries_of(it, arg(a, 0, "Map.toArray")?)?;
    Ok(Value::Array(Rc::from(pairs(e))))
}

fn map_to_var_array(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let e = entries_of(it, arg(a, 0, "Map.toVarArray")?)?;
    Ok(Value::VarArray(Rc::new(RefCell::new(pairs(e)))))
}

/// A new map of the entries `next` yields, added in order by `compare` (`fromIter`).
fn map_from(
    it: &mut Interp,
    compare: &Value,
    who: &str,
    mut next: impl FnMut(&mut Interp) -> EResult<Option<Value>>,
) -> R {
    let m = btree_mut::empty(MAP);
    let t = Tree {
        shape: MAP,
        compare,
        who,
    };
    while let Some(kv) = next(it)? {
        it.tick()?;
        let kv = entry(it, kv, who)?;
        t.insert(it, &m, kv)?;
    }
    Ok(m)
}

fn from_iter(it: &mut Interp, a: &[Value], who: &str) -> R {
    let iter = arg(a, 0, who)?.clone();
    map_from(it, arg(a, 1, who)?, who, |it| it.iter_next(&iter))
}

fn map_from_iter(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    from_iter(it, a, "Map.fromIter")
}

fn map_to_map(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    from_iter(it, a, "Map.toMap")
}

fn from_array(it: &mut Interp, a: &[Value], who: &str) -> R {
    let xs = match arg(a, 0, who)? {
        Value::VarArray(xs) => xs.borrow().clone(),
        other => elems(it, other, who)?.to_vec(),
    };
    let mut items = xs.into_iter();
    map_from(it, arg(a, 1, who)?, who, |_| Ok(items.next()))
}

fn map_from_array(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    from_array(it, a, "Map.fromArray")
}

fn map_from_var_array(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    from_array(it, a, "Map.fromVarArray")
}

/// `filter(m, compare, criterion)` (`keep`) or `filterMap(m, compare, project)`: a new map
/// of the entries kept, added in order.
fn filter_entries(it: &mut Interp, a: &[Value], who: &str, keep: bool) -> R {
    let root = map_root(it, arg(a, 0, who)?)?;
    let f = arg(a, 2, who)?.clone();
    let mut walk = MAP.stream(it, &root, Yield::Payload)?;
    map_from(it, arg(a, 1, who)?, who, |it| {
        while let Some(kv) = walk.next_payload(it)? {
            let (k, v) = btree::entry_parts(it, &kv)?;
            let r = it.call_value(&f, &[k.clone(), v.clone()])?;
            if keep {
                if bool_of(&r, who)? {
                    return Ok(Some(Value::Tuple(Rc::from(vec![k, v]))));
                }
            } else if let Some(Some(v2)) = view::option(it, &r)? {
                return Ok(Some(Value::Tuple(Rc::from(vec![k, v2]))));
            }
        }
        Ok(None)
    })
}

fn map_filter(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    filter_entries(it, a, "Map.filter", true)
}

fn map_filter_map(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    filter_entries(it, a, "Map.filterMap", false)
}

/// Walks two maps' entries side by side (`compare`, `equal`): `step` sees each pair of
/// entries and answers `Some(result)` to stop; at the end `ends(first ended, second ended)`.
fn side_by_side(
    it: &mut Interp,
    m1: &Value,
    m2: &Value,
    mut step: impl FnMut(&mut Interp, (Value, Value), (Value, Value)) -> EResult<Option<Value>>,
    ends: impl Fn(bool, bool) -> Value,
) -> R {
    let (r1, r2) = (map_root(it, m1)?, map_root(it, m2)?);
    let mut w1 = MAP.stream(it, &r1, Yield::Payload)?;
    let mut w2 = MAP.stream(it, &r2, Yield::Payload)?;
    loop {
        let (x, y) = (w1.next_payload(it)?, w2.next_payload(it)?);
        match (x, y) {
            (Some(x), Some(y)) => {
                let (x, y) = (btree::entry_parts(it, &x)?, btree::entry_parts(it, &y)?);
                if let Some(r) = step(it, x, y)? {
                    return Ok(r);
                }
            }
            (x, y) => return Ok(ends(x.is_none(), y.is_none())),
        }
    }
}

/// `Map.compare(m1, m2, compareKey, compareValue)`: entry by entry, then by length.
fn map_compare(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let who = "Map.compare";
    let (ck, cv) = (arg(a, 2, who)?.clone(), arg(a, 3, who)?.clone());
    side_by_side(
        it,
        arg(a, 0, who)?,
        arg(a, 1, who)?,
        |it, (k1, v1), (k2, v2)| {
            let o = order(it, who, &ck, &k1, &k2)?;
            if o != Ordering::Equal {
                return Ok(Some(order_variant(o)));
            }
            let o = order(it, who, &cv, &v1, &v2)?;
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

/// `Map.equal(m1, m2, compare, equal)`: the same size, and entry by entry equal keys (by
/// `compare`) and values (by `equal`).
fn map_equal(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let who = "Map.equal";
    let (m1, m2) = (arg(a, 0, who)?, arg(a, 1, who)?);
    if size_of(it, m1)? != size_of(it, m2)? {
        return Ok(Value::Bool(false));
    }
    let (ck, eq) = (arg(a, 2, who)?.clone(), arg(a, 3, who)?.clone());
    side_by_side(
        it,
        m1,
        m2,
        |it, (k1, v1), (k2, v2)| {
            if order(it, who, &ck, &k1, &k2)? != Ordering::Equal
                || !bool_of(&it.call_value(&eq, &[v1, v2])?, who)?
            {
                return Ok(Some(Value::Bool(false)));
            }
            Ok(None)
        },
        |end1, end2| Value::Bool(end1 && end2),
    )
}

/// `Map.assertValid(m, compare)`: traps unless the keys ascend by `compare`, forward and
/// backward.
fn map_assert_valid(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    assert_valid(
        it,
        MAP,
        arg(a, 0, "Map.assertValid")?,
        arg(a, 1, "Map.assertValid")?,
    )
}

/// mo:core's `assertValid` for a map or set: each key against the next, by `compare`,
/// ascending in order and descending in reverse.
pub(super) fn assert_valid(it: &mut Interp, shape: btree::Shape, t: &Value, compare: &Value) -> R {
    let root = view::field(it, t, "root")?.ok_or_else(|| wrong(shape.what, shape.what, t))?;
    for (reverse, want) in [(false, Ordering::Less), (true, Ordering::Greater)] {
        let mut walk = shape.stream_dir(it, &root, reverse, Yield::Payload)?;
        let Some(first) = walk.next_payload(it)? else {
            continue;
        };
        let mut previous = shape.key_of(it, &first)?;
        while let Some(next) = walk.next_payload(it)? {
            let k = shape.key_of(it, &next)?;
            if order(it, shape.what, compare, &previous, &k)? != want {
                return Err(trap("Invalid order"));
            }
            previous = k;
        }
    }
    Ok(Value::Unit)
}

/// `Map.fromPure(pure, compare)`: a script map of a `pure/Map`'s entries.
fn map_from_pure(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let who = "Map.fromPure";
    let entries = super::pure_build::items_of(it, "pure/Map", "entries", arg(a, 0, who)?)?;
    map_from(it, arg(a, 1, who)?, who, |it| it.iter_next(&entries))
}

/// `Map.toPure(m, compare)`: a `pure/Map` of the entries, added in order.
fn map_to_pure(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let who = "Map.toPure";
    let e = entries_of(it, arg(a, 0, who)?)?;
    super::pure_build::map_of_entries(it, arg(a, 1, who)?, e)
}

pub(super) fn items_iter(v: Vec<Value>) -> Value {
    iter_value(VecIter {
        items: Rc::from(v),
        pos: 0,
    })
}

/// `mo:core/Map`.
pub static MAP_MOD: Module = Module {
    name: "Map",
    members: &[
        func!("empty", map_empty),
        func!("singleton", map_singleton),
        func!("add", map_add),
        func!("insert", map_insert),
        func!("swap", map_swap),
        func!("replace", map_replace),
        func!("remove", map_remove),
        func!("delete", map_delete),
        func!("take", map_take),
        func!("clear", map_clear),
        func!("clone", map_clone),
        func!("map", map_map),
        func!("get", map_get),
        func!("containsKey", map_contains),
        func!("size", map_size),
        func!("isEmpty", map_is_empty),
        func!("entries", map_entries),
        func!("reverseEntries", map_reverse_entries),
        func!("entriesFrom", map_entries_from),
        func!("reverseEntriesFrom", map_reverse_entries_from),
        func!("keys", map_keys),
        func!("values", map_values),
        func!("minEntry", map_min_entry),
        func!("maxEntry", map_max_entry),
        func!("toArray", map_to_array),
        func!("toVarArray", map_to_var_array),
        func!("fromIter", map_from_iter),
        func!("toMap", map_to_map),
        func!("fromArray", map_from_array),
        func!("fromVarArray", map_from_var_array),
        func!("filter", map_filter),
        func!("filterMap", map_filter_map),
        func!("compare", map_compare),
        func!("equal", map_equal),
        func!("assertValid", map_assert_valid),
        func!("fromPure", map_from_pure),
        func!("toPure", map_to_pure),
    ],
};
