//! Read access to the immutable core structures a canister holds: `mo:core/pure/Map` and
//! `mo:core/pure/Set` (red-black trees), `mo:core/pure/List` (`?(head, tail)` cells). Scripts
//! read them (sizes, lookups, iteration in the structure's order); they cannot build them.

use super::args::{arg, usize_arg, wrong};
use super::containers::items_iter;
use super::{view, Module};
use crate::script::eval::{trap, EResult, Interp};
use crate::script::value::{ord, Value};
use std::rc::Rc;

type R = EResult;

/// Red-black trees deeper than this are refused (a valid one of 2^64 entries is 128 deep).
const MAX_TREE_DEPTH: u32 = 128;

/// In-order payloads of a red-black tree node: `(key, value)` tuples when `entries` (a
/// `pure/Map`), elements otherwise (a `pure/Set`).
fn tree_items(
    it: &mut Interp,
    node: &Value,
    entries: bool,
    what: &str,
    out: &mut Vec<Value>,
    depth: u32,
) -> EResult<()> {
    if depth > MAX_TREE_DEPTH {
        return Err(trap(format!(
            "{what}: tree deeper than {MAX_TREE_DEPTH} levels"
        )));
    }
    let Some((tag, body)) = view::variant(it, node)? else {
        return Err(wrong(what, "tree node", node));
    };
    if &*tag == "leaf" {
        return Ok(());
    }
    let parts = view::parts(it, &body)?;
    let (left, item, right) = match (&parts[..], entries) {
        ([l, k, v, r], true) => (l, Value::Tuple(Rc::from(vec![k.clone(), v.clone()])), r),
        ([l, x, r], false) => (l, x.clone(), r),
        _ => return Err(wrong(what, "tree node", node)),
    };
    tree_items(it, left, entries, what, out, depth + 1)?;
    it.alloc(32)?;
    out.push(item);
    tree_items(it, right, entries, what, out, depth + 1)
}

/// Every entry (`pure/Map`) or element (`pure/Set`) of `v = { size; root }`, in order.
fn tree_of(it: &mut Interp, v: &Value, entries: bool, what: &str) -> EResult<Vec<Value>> {
    let root = view::field(it, v, "root")?.ok_or_else(|| wrong(what, what, v))?;
    let mut out = Vec::new();
    tree_items(it, &root, entries, what, &mut out, 0)?;
    Ok(out)
}

/// The `size` field of a `pure/Map` (`entries`) or `pure/Set`, else its counted items.
fn tree_size(it: &mut Interp, v: &Value, entries: bool, what: &str) -> R {
    match view::field(it, v, "size")? {
        Some(n @ Value::Nat(_)) => Ok(n),
        _ => Ok(Value::Nat(tree_of(it, v, entries, what)?.len() as u64)),
    }
}

/// The elements of a pure list `?(x, rest)`, head first.
pub(super) fn list_of(it: &mut Interp, v: &Value, what: &str) -> EResult<Vec<Value>> {
    list_prefix(it, v, usize::MAX, what)
}

/// Element `i` of a pure list (head first), reading only the cells before it.
pub(super) fn list_nth(it: &mut Interp, v: &Value, i: usize, what: &str) -> R {
    let prefix = list_prefix(it, v, i.saturating_add(1), what)?;
    Ok(prefix.get(i).cloned().map_or(Value::Null, Value::some))
}

/// The first `n` elements of a pure list (fewer if it is shorter).
fn list_prefix(it: &mut Interp, v: &Value, n: usize, what: &str) -> EResult<Vec<Value>> {
    let mut out = Vec::new();
    let mut cell = v.clone();
    while out.len() < n {
        it.tick()?;
        match view::option(it, &cell)? {
            Some(None) => return Ok(out),
            Some(Some(pair)) => match &view::parts(it, &pair)?[..] {
                [x, rest] => {
                    it.alloc(16)?;
                    out.push(x.clone());
                    cell = rest.clone();
                }
                _ => return Err(wrong(what, "list cell", &pair)),
            },
            None => return Err(wrong(what, "list", &cell)),
        }
    }
    Ok(out)
}

fn key_value(item: &Value) -> Option<(&Value, &Value)> {
    match item {
        Value::Tuple(kv) if kv.len() == 2 => Some((&kv[0], &kv[1])),
        _ => None,
    }
}

fn map_get(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let key = arg(a, 2, "pure/Map.get")?;
    for item in tree_of(it, arg(a, 0, "pure/Map.get")?, true, "pure/Map")? {
        if let Some((k, v)) = key_value(&item) {
            if ord::equal(k, key) {
                return Ok(Value::some(v.clone()));
            }
        }
    }
    Ok(Value::Null)
}

fn map_contains_key(it: &mut Interp, t: Option<&Value>, a: &[Value]) -> R {
    Ok(Value::Bool(!matches!(map_get(it, t, a)?, Value::Null)))
}

fn map_size(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    tree_size(it, arg(a, 0, "pure/Map.size")?, true, "pure/Map")
}

fn map_is_empty(it: &mut Interp, t: Option<&Value>, a: &[Value]) -> R {
    Ok(Value::Bool(matches!(map_size(it, t, a)?, Value::Nat(0))))
}

/// The map's entries, each mapped by `part` (the entry, its key or its value).
fn map_iter(it: &mut Interp, a: &[Value], who: &str, part: fn(&Value) -> Value) -> R {
    let items = tree_of(it, arg(a, 0, who)?, true, "pure/Map")?;
    Ok(items_iter(items.iter().map(part).collect()))
}

fn map_entries(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    map_iter(it, a, "pure/Map.entries", Value::clone)
}

fn map_keys(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    map_iter(it, a, "pure/Map.keys", |kv| {
        key_value(kv).map_or(Value::Unit, |(k, _)| k.clone())
    })
}

fn map_values(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    map_iter(it, a, "pure/Map.values", |kv| {
        key_value(kv).map_or(Value::Unit, |(_, v)| v.clone())
    })
}

fn set_contains(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let x = arg(a, 2, "pure/Set.contains")?;
    let items = tree_of(it, arg(a, 0, "pure/Set.contains")?, false, "pure/Set")?;
    Ok(Value::Bool(items.iter().any(|e| ord::equal(e, x))))
}

fn set_size(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    tree_size(it, arg(a, 0, "pure/Set.size")?, false, "pure/Set")
}

fn set_is_empty(it: &mut Interp, t: Option<&Value>, a: &[Value]) -> R {
    Ok(Value::Bool(matches!(set_size(it, t, a)?, Value::Nat(0))))
}

fn set_values(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let items = tree_of(it, arg(a, 0, "pure/Set.values")?, false, "pure/Set")?;
    Ok(items_iter(items))
}

fn set_min(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let items = tree_of(it, arg(a, 0, "pure/Set.min")?, false, "pure/Set")?;
    Ok(items.into_iter().next().map_or(Value::Null, Value::some))
}

fn set_max(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let items = tree_of(it, arg(a, 0, "pure/Set.max")?, false, "pure/Set")?;
    Ok(items
        .into_iter()
        .next_back()
        .map_or(Value::Null, Value::some))
}

fn list_size(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let items = list_of(it, arg(a, 0, "pure/List.size")?, "pure/List")?;
    Ok(Value::Nat(items.len() as u64))
}

fn list_is_empty(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let l = arg(a, 0, "pure/List.isEmpty")?;
    Ok(Value::Bool(matches!(view::option(it, l)?, Some(None))))
}

fn list_get(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let i = usize_arg(a, 1, "pure/List.get")?;
    list_nth(it, arg(a, 0, "pure/List.get")?, i, "pure/List")
}

fn list_values(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    Ok(items_iter(list_of(
        it,
        arg(a, 0, "pure/List.values")?,
        "pure/List",
    )?))
}

fn list_to_array(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let items = list_of(it, arg(a, 0, "pure/List.toArray")?, "pure/List")?;
    Ok(Value::Array(Rc::from(items)))
}

/// `mo:core/pure/Map` (reading).
pub static PURE_MAP_MOD: Module = Module {
    name: "pure/Map",
    members: &[
        func!("isEmpty", map_is_empty),
        func!("size", map_size),
        func!("containsKey", map_contains_key),
        func!("get", map_get),
        func!("entries", map_entries),
        func!("keys", map_keys),
        func!("values", map_values),
    ],
};

/// `mo:core/pure/Set` (reading).
pub static PURE_SET_MOD: Module = Module {
    name: "pure/Set",
    members: &[
        func!("isEmpty", set_is_empty),
        func!("size", set_size),
        func!("contains", set_contains),
        func!("values", set_values),
        func!("min", set_min),
        func!("max", set_max),
    ],
};

/// `mo:core/pure/List` (reading).
pub static PURE_LIST_MOD: Module = Module {
    name: "pure/List",
    members: &[
        func!("isEmpty", list_is_empty),
        func!("size", list_size),
        func!("get", list_get),
        func!("values", list_values),
        func!("toArray", list_to_array),
    ],
};
