//! Read access to the immutable core structures a canister holds: `mo:core/pure/Map` and
//! `mo:core/pure/Set` (red-black trees), `mo:core/pure/List` (`?(head, tail)` cells). Scripts
//! read them (sizes, lookups, iteration in the structure's order); they cannot build them.

use super::args::{arg, usize_arg, wrong};
use super::btree::Yield;
use super::iters::iter_value;
use super::{view, Module};
use crate::script::eval::{trap, EResult, Interp};
use crate::script::value::{NativeIter, Value};
use std::cmp::Ordering;
use std::rc::Rc;

type R = EResult;

/// Red-black trees deeper than this are refused (a valid one of 2^64 entries is 128 deep).
const MAX_TREE_DEPTH: u32 = 128;

/// One node of a red-black tree (`#red(l, k, v, r)`/`#black(..)` in a `pure/Map`,
/// `#red(l, x, r)`/`#black(..)` in a `pure/Set`); `None` for `#leaf`.
struct RbNode {
    left: Value,
    key: Value,
    /// The value of a map entry (`None` in a set).
    value: Option<Value>,
    right: Value,
}

impl RbNode {
    /// The payload: a map's `(key, value)` tuple or a set's element.
    fn item(&self) -> Value {
        match &self.value {
            Some(v) => Value::Tuple(Rc::from(vec![self.key.clone(), v.clone()])),
            None => self.key.clone(),
        }
    }
}

fn rb_node(it: &mut Interp, node: &Value, entries: bool, what: &str) -> EResult<Option<RbNode>> {
    let Some((tag, body)) = view::variant(it, node)? else {
        return Err(wrong(what, "tree node", node));
    };
    if &*tag == "leaf" {
        return Ok(None);
    }
    let parts = view::parts(it, &body)?;
    let (left, key, value, right) = match (&parts[..], entries) {
        ([l, k, v, r], true) => (l, k, Some(v.clone()), r),
        ([l, x, r], false) => (l, x, None, r),
        _ => return Err(wrong(what, "tree node", node)),
    };
    Ok(Some(RbNode {
        left: left.clone(),
        key: key.clone(),
        value,
        right: right.clone(),
    }))
}

fn too_deep(what: &str) -> crate::script::eval::Ctrl {
    trap(format!("{what}: tree deeper than {MAX_TREE_DEPTH} levels"))
}

/// `compare(a, b)` called in the script, as an ordering.
fn order(it: &mut Interp, what: &str, compare: &Value, a: &Value, b: &Value) -> EResult<Ordering> {
    it.tick()?;
    match it.call_value(compare, &[a.clone(), b.clone()])? {
        Value::Variant(tv) if &*tv.0 == "less" => Ok(Ordering::Less),
        Value::Variant(tv) if &*tv.0 == "equal" => Ok(Ordering::Equal),
        Value::Variant(tv) if &*tv.0 == "greater" => Ok(Ordering::Greater),
        other => Err(wrong(what, "Order", &other)),
    }
}

/// The node whose key equals `key` by the script's `compare` (called as `compare(key, k)`,
/// as mo:core's own lookup does), descending one path from the root of `v = { size; root }`.
fn rb_find(
    it: &mut Interp,
    v: &Value,
    compare: &Value,
    key: &Value,
    entries: bool,
    what: &str,
) -> EResult<Option<RbNode>> {
    let mut node = view::field(it, v, "root")?.ok_or_else(|| wrong(what, what, v))?;
    for _ in 0..=MAX_TREE_DEPTH {
        let Some(n) = rb_node(it, &node, entries, what)? else {
            return Ok(None);
        };
        node = match order(it, what, compare, key, &n.key)? {
            Ordering::Equal => return Ok(Some(n)),
            Ordering::Less => n.left,
            Ordering::Greater => n.right,
        };
    }
    Err(too_deep(what))
}

/// The in-order walk of a red-black tree one payload at a time: it holds the path from the
/// root (at most [`MAX_TREE_DEPTH`] nodes' payloads and right subtrees), never the tree.
struct RbWalk {
    /// `(payload, right subtree)` of the nodes whose left subtree is being walked.
    stack: Vec<(Value, Value)>,
    /// A subtree to descend into (its left spine) before the next payload.
    pending: Option<Value>,
    entries: bool,
    what: &'static str,
    yields: Yield,
}

impl RbWalk {
    fn of(
        it: &mut Interp,
        v: &Value,
        entries: bool,
        what: &'static str,
        yields: Yield,
    ) -> EResult<Self> {
        let root = view::field(it, v, "root")?.ok_or_else(|| wrong(what, what, v))?;
        Ok(RbWalk {
            stack: Vec::new(),
            pending: Some(root),
            entries,
            what,
            yields,
        })
    }

    fn advance(&mut self, it: &mut Interp) -> EResult<Option<Value>> {
        if let Some(mut node) = self.pending.take() {
            while let Some(n) = rb_node(it, &node, self.entries, self.what)? {
                if self.stack.len() as u32 >= MAX_TREE_DEPTH {
                    return Err(too_deep(self.what));
                }
                it.alloc(32)?;
                self.stack.push((n.item(), n.right));
                node = n.left;
            }
        }
        let Some((item, right)) = self.stack.pop() else {
            return Ok(None);
        };
        self.pending = Some(right);
        Ok(Some(item))
    }
}

impl NativeIter for RbWalk {
    fn next(&mut self, it: &mut Interp) -> EResult<Option<Value>> {
        let Some(item) = self.advance(it)? else {
            return Ok(None);
        };
        Ok(Some(match (self.yields, key_value(&item)) {
            (Yield::Key, Some((k, _))) => k.clone(),
            (Yield::Value, Some((_, v))) => v.clone(),
            _ => item,
        }))
    }
}

/// Every entry (`pure/Map`) or element (`pure/Set`) of `v = { size; root }`, in order.
fn tree_of(it: &mut Interp, v: &Value, entries: bool, what: &'static str) -> EResult<Vec<Value>> {
    let mut walk = RbWalk::of(it, v, entries, what, Yield::Payload)?;
    let mut out = Vec::new();
    while let Some(x) = walk.advance(it)? {
        out.push(x);
    }
    Ok(out)
}

/// The `size` field of a `pure/Map` (`entries`) or `pure/Set`, else its counted items.
fn tree_size(it: &mut Interp, v: &Value, entries: bool, what: &'static str) -> R {
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
    let (m, compare, key) = (
        arg(a, 0, "pure/Map.get")?,
        arg(a, 1, "pure/Map.get")?,
        arg(a, 2, "pure/Map.get")?,
    );
    let found = rb_find(it, m, compare, key, true, "pure/Map")?;
    Ok(match found.and_then(|n| n.value) {
        Some(v) => Value::some(v),
        None => Value::Null,
    })
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

/// The map's entries projected by `yields`, streamed one node at a time ([`RbWalk`]).
fn map_iter(it: &mut Interp, a: &[Value], who: &str, yields: Yield) -> R {
    let walk = RbWalk::of(it, arg(a, 0, who)?, true, "pure/Map", yields)?;
    Ok(iter_value(walk))
}

fn map_entries(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    map_iter(it, a, "pure/Map.entries", Yield::Entry)
}

fn map_keys(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    map_iter(it, a, "pure/Map.keys", Yield::Key)
}

fn map_values(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    map_iter(it, a, "pure/Map.values", Yield::Value)
}

fn set_contains(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let (s, compare, x) = (
        arg(a, 0, "pure/Set.contains")?,
        arg(a, 1, "pure/Set.contains")?,
        arg(a, 2, "pure/Set.contains")?,
    );
    Ok(Value::Bool(
        rb_find(it, s, compare, x, false, "pure/Set")?.is_some(),
    ))
}

fn set_size(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    tree_size(it, arg(a, 0, "pure/Set.size")?, false, "pure/Set")
}

fn set_is_empty(it: &mut Interp, t: Option<&Value>, a: &[Value]) -> R {
    Ok(Value::Bool(matches!(set_size(it, t, a)?, Value::Nat(0))))
}

fn set_values(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let walk = RbWalk::of(
        it,
        arg(a, 0, "pure/Set.values")?,
        false,
        "pure/Set",
        Yield::Payload,
    )?;
    Ok(iter_value(walk))
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

/// The cells of a pure list `?(x, rest)` read one at a time, head first.
struct ListCells {
    /// The next cell (`None` once the end was reached).
    cell: Option<Value>,
}

impl NativeIter for ListCells {
    fn next(&mut self, it: &mut Interp) -> EResult<Option<Value>> {
        let Some(cell) = self.cell.take() else {
            return Ok(None);
        };
        it.tick()?;
        match view::option(it, &cell)? {
            Some(None) => Ok(None),
            Some(Some(pair)) => match &view::parts(it, &pair)?[..] {
                [x, rest] => {
                    it.alloc(16)?;
                    self.cell = Some(rest.clone());
                    Ok(Some(x.clone()))
                }
                _ => Err(wrong("pure/List", "list cell", &pair)),
            },
            None => Err(wrong("pure/List", "list", &cell)),
        }
    }
}

fn list_values(_: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let cell = arg(a, 0, "pure/List.values")?.clone();
    Ok(iter_value(ListCells { cell: Some(cell) }))
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
