//! `mo:core/Map` and `mo:core/List`: native containers for scripts, and read access to
//! the real core data structures (decoded from a heap) through the same functions.
//!
//! Maps made by a script are ordered by the keys' natural order (numbers, text, chars,
//! tuples...): the `compare` argument is accepted but not called. A core `Map` record
//! (`{ var root; var size }`, a B-tree) is read in its stored order.

use super::args::{arg, usize_arg, wrong};
use super::iters::{iter_value, VecIter};
use super::{btree, core_list, view, Module};
use crate::script::eval::{host_trap, trap, EResult, Interp};
use crate::script::host::{HostError, HostObject};
use crate::script::value::{ord, Value};
use std::cell::RefCell;
use std::cmp::Ordering;
use std::collections::BTreeMap;
use std::rc::Rc;

type R = EResult;

/// A value ordered by [`ord::total_order`], usable as a map key.
#[derive(Clone)]
pub struct Key(pub Value);

impl PartialEq for Key {
    fn eq(&self, other: &Self) -> bool {
        ord::total_order(&self.0, &other.0) == Ordering::Equal
    }
}
impl Eq for Key {}
impl PartialOrd for Key {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Key {
    fn cmp(&self, other: &Self) -> Ordering {
        ord::total_order(&self.0, &other.0)
    }
}

/// A map created by a script (`Map.empty()`).
#[derive(Default)]
pub struct NativeMap {
    entries: RefCell<BTreeMap<Key, Value>>,
}

impl HostObject for NativeMap {
    fn describe(&self) -> String {
        format!("Map({} entries)", self.entries.borrow().len())
    }
    fn field(&self, _: &str) -> Result<Option<Value>, HostError> {
        Ok(None)
    }
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}

/// A growable list created by a script (`List.empty()`).
#[derive(Default)]
pub struct NativeList {
    items: Rc<RefCell<Vec<Value>>>,
}

impl HostObject for NativeList {
    fn describe(&self) -> String {
        format!("List({} elements)", self.items.borrow().len())
    }
    fn field(&self, _: &str) -> Result<Option<Value>, HostError> {
        Ok(None)
    }
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}

/// A script map holding `entries` (`(key, value)` tuples; a later key replaces an earlier).
pub(super) fn native_map_of(it: &mut Interp, entries: Vec<Value>) -> R {
    let m = NativeMap::default();
    for kv in entries {
        match kv {
            Value::Tuple(t) if t.len() == 2 => {
                it.alloc(48)?;
                m.entries
                    .borrow_mut()
                    .insert(Key(t[0].clone()), t[1].clone());
            }
            other => return Err(wrong("Map", "(key, value)", &other)),
        }
    }
    Ok(Value::Host(Rc::new(m)))
}

/// A script list holding `items`.
pub(super) fn native_list_of(items: Vec<Value>) -> Value {
    Value::Host(Rc::new(NativeList {
        items: Rc::new(RefCell::new(items)),
    }))
}

fn native_map(v: &Value) -> Option<&NativeMap> {
    match v {
        Value::Host(h) => h.as_any().downcast_ref::<NativeMap>(),
        _ => None,
    }
}

fn native_list(v: &Value) -> Option<&NativeList> {
    match v {
        Value::Host(h) => h.as_any().downcast_ref::<NativeList>(),
        _ => None,
    }
}

/// All entries of a map value (native or a core `Map` record), in key order.
fn entries_of(it: &mut Interp, m: &Value) -> EResult<Vec<(Value, Value)>> {
    if let Some(n) = native_map(m) {
        let e = n.entries.borrow();
        it.ticks(e.len() as u64)?;
        return Ok(e.iter().map(|(k, v)| (k.0.clone(), v.clone())).collect());
    }
    let mut slots = Vec::new();
    let root = map_root(it, m)?;
    btree::MAP.walk(it, &root, &mut slots)?;
    let mut out = Vec::with_capacity(slots.len());
    for kv in slots {
        if let [k, v] = &view::parts(it, &kv)?[..] {
            out.push((k.clone(), v.clone()));
        }
    }
    Ok(out)
}

/// The root node of a core `Map` record.
fn map_root(it: &mut Interp, m: &Value) -> EResult<Value> {
    view::field(it, m, "root")?.ok_or_else(|| wrong("Map", "Map", m))
}

fn map_arg<'a>(args: &'a [Value], who: &str) -> EResult<&'a Value> {
    arg(args, 0, who)
}

fn map_empty(_: &mut Interp, _: Option<&Value>, _: &[Value]) -> R {
    Ok(Value::Host(Rc::new(NativeMap::default())))
}

fn map_add(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let m = native_map(map_arg(a, "Map.add")?)
        .ok_or_else(|| trap("Map.add: only maps created by the script can change"))?;
    let k = arg(a, 2, "Map.add")?.clone();
    let v = arg(a, 3, "Map.add")?.clone();
    it.alloc(48)?;
    m.entries.borrow_mut().insert(Key(k), v);
    Ok(Value::Unit)
}

fn map_remove(_: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let m = native_map(map_arg(a, "Map.remove")?)
        .ok_or_else(|| trap("Map.remove: only maps created by the script can change"))?;
    let k = arg(a, 2, "Map.remove")?.clone();
    m.entries.borrow_mut().remove(&Key(k));
    Ok(Value::Unit)
}

fn map_get(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let m = map_arg(a, "Map.get")?;
    let k = arg(a, 2, "Map.get")?;
    if let Some(n) = native_map(m) {
        return Ok(match n.entries.borrow().get(&Key(k.clone())) {
            Some(v) => Value::some(v.clone()),
            None => Value::Null,
        });
    }
    let compare = arg(a, 1, "Map.get")?;
    if let Some(found) = ordered_get(it, m, compare, k)? {
        return Ok(found.map_or(Value::Null, Value::some));
    }
    let root = map_root(it, m)?;
    match btree::MAP.search(it, &root, compare, k, btree::entry_key)? {
        Some(kv) => Ok(Value::some(btree::entry_parts(it, &kv)?.1)),
        None => Ok(Value::Null),
    }
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
    if b.this.is_some() || b.f.name != "compare" {
        return Ok(None);
    }
    let found = h.ordered_get(k).map_err(host_trap);
    it.charge_host(&**h)?;
    found
}

fn map_contains(it: &mut Interp, t: Option<&Value>, a: &[Value]) -> R {
    Ok(Value::Bool(!matches!(map_get(it, t, a)?, Value::Null)))
}

fn map_size(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let m = map_arg(a, "Map.size")?;
    if let Some(n) = native_map(m) {
        return Ok(Value::Nat(n.entries.borrow().len() as u64));
    }
    match view::field(it, m, "size")? {
        Some(v @ Value::Nat(_)) => Ok(v),
        _ => Ok(Value::Nat(entries_of(it, m)?.len() as u64)),
    }
}

fn map_is_empty(it: &mut Interp, t: Option<&Value>, a: &[Value]) -> R {
    Ok(Value::Bool(matches!(map_size(it, t, a)?, Value::Nat(0))))
}

pub(super) fn items_iter(v: Vec<Value>) -> Value {
    iter_value(VecIter {
        items: Rc::from(v),
        pos: 0,
    })
}

/// An iterator over a map's entries projected by `yields`: a script map's are copied, a
/// canister-held `Map` is walked one B-tree node at a time ([`btree::Walk`]).
fn map_iter(it: &mut Interp, a: &[Value], who: &str, yields: btree::Yield) -> R {
    let m = map_arg(a, who)?;
    if native_map(m).is_none() {
        let root = map_root(it, m)?;
        return Ok(iter_value(btree::MAP.stream(it, &root, yields)?));
    }
    let e = entries_of(it, m)?;
    it.alloc(32 * e.len() as u64)?;
    Ok(items_iter(
        e.into_iter()
            .map(|(k, v)| match yields {
                btree::Yield::Key => k,
                btree::Yield::Value => v,
                btree::Yield::Entry | btree::Yield::Payload => Value::Tuple(Rc::from(vec![k, v])),
            })
            .collect(),
    ))
}

fn map_entries(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    map_iter(it, a, "Map.entries", btree::Yield::Entry)
}

fn map_keys(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    map_iter(it, a, "Map.keys", btree::Yield::Key)
}

fn map_values(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    map_iter(it, a, "Map.values", btree::Yield::Value)
}

fn map_to_array(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let e = entries_of(it, map_arg(a, "Map.toArray")?)?;
    it.alloc(32 * e.len() as u64)?;
    Ok(Value::Array(Rc::from(
        e.into_iter()
            .map(|(k, v)| Value::Tuple(Rc::from(vec![k, v])))
            .collect::<Vec<_>>(),
    )))
}

fn map_from_iter(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let items = super::iters::collect(it, arg(a, 0, "Map.fromIter")?)?;
    let m = NativeMap::default();
    for kv in items {
        match kv {
            Value::Tuple(t) if t.len() == 2 => {
                m.entries
                    .borrow_mut()
                    .insert(Key(t[0].clone()), t[1].clone());
            }
            other => return Err(wrong("Map.fromIter", "(key, value)", &other)),
        }
    }
    Ok(Value::Host(Rc::new(m)))
}

/// Elements of a list value (native, or a core `List` record `{ var blocks; ... }`).
pub(super) fn list_items(it: &mut Interp, v: &Value) -> EResult<Vec<Value>> {
    if let Some(l) = native_list(v) {
        return Ok(l.items.borrow().clone());
    }
    let blocks = view::field(it, v, "blocks")?.ok_or_else(|| wrong("List", "List", v))?;
    let mut out = Vec::new();
    for block in view::parts(it, &blocks)? {
        for slot in view::parts(it, &block)? {
            if let Some(Some(x)) = view::option(it, &slot)? {
                out.push(x);
            }
        }
    }
    Ok(out)
}

fn list_empty(_: &mut Interp, _: Option<&Value>, _: &[Value]) -> R {
    Ok(Value::Host(Rc::new(NativeList::default())))
}

fn list_add(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let l = native_list(arg(a, 0, "List.add")?)
        .ok_or_else(|| trap("List.add: only lists created by the script can change"))?;
    it.alloc(16)?;
    l.items.borrow_mut().push(arg(a, 1, "List.add")?.clone());
    Ok(Value::Unit)
}

/// Element `i` of a list: a core `List`'s slot found through its block sizes, else (a
/// script's list, or a record without the indices) by reading every element.
fn list_element(it: &mut Interp, l: &Value, i: usize) -> EResult<Option<Value>> {
    if native_list(l).is_none() {
        if let Some(found) = core_list::element(it, l, i as u64)? {
            return Ok(found);
        }
    }
    Ok(list_items(it, l)?.get(i).cloned())
}

fn list_get(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let i = usize_arg(a, 1, "List.get")?;
    let x = list_element(it, arg(a, 0, "List.get")?, i)?;
    Ok(x.map(Value::some).unwrap_or(Value::Null))
}

fn list_at(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let i = usize_arg(a, 1, "List.at")?;
    list_element(it, arg(a, 0, "List.at")?, i)?.ok_or_else(|| trap("index out of bounds"))
}

fn list_put(_: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let l = native_list(arg(a, 0, "List.put")?)
        .ok_or_else(|| trap("List.put: only lists created by the script can change"))?;
    let i = usize_arg(a, 1, "List.put")?;
    let v = arg(a, 2, "List.put")?.clone();
    match l.items.borrow_mut().get_mut(i) {
        Some(s) => *s = v,
        None => return Err(trap("index out of bounds")),
    }
    Ok(Value::Unit)
}

fn list_remove_last(_: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let l = native_list(arg(a, 0, "List.removeLast")?)
        .ok_or_else(|| trap("List.removeLast: only lists created by the script can change"))?;
    Ok(match l.items.borrow_mut().pop() {
        Some(v) => Value::some(v),
        None => Value::Null,
    })
}

/// The number of elements of a list: a core `List`'s from its block sizes, else counted.
fn list_len(it: &mut Interp, l: &Value) -> EResult<u64> {
    if native_list(l).is_none() {
        if let Some(n) = core_list::size(it, l)? {
            return Ok(n);
        }
    }
    Ok(list_items(it, l)?.len() as u64)
}

fn list_size(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    Ok(Value::Nat(list_len(it, arg(a, 0, "List.size")?)?))
}

fn list_is_empty(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    Ok(Value::Bool(list_len(it, arg(a, 0, "List.isEmpty")?)? == 0))
}

fn list_values(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let l = arg(a, 0, "List.values")?;
    if let Some(n) = native_list(l) {
        return Ok(iter_value(super::iters::VarIter {
            items: n.items.clone(),
            pos: 0,
        }));
    }
    match core_list::stream(it, l)? {
        Some(elements) => Ok(iter_value(elements)),
        None => Err(wrong("List", "List", l)),
    }
}

fn list_to_array(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let v = list_items(it, arg(a, 0, "List.toArray")?)?;
    it.alloc(16 * v.len() as u64)?;
    Ok(Value::Array(Rc::from(v)))
}

fn list_from_array(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let xs = super::args::elems(arg(a, 0, "List.fromArray")?, "List.fromArray")?;
    it.alloc(16 * xs.len() as u64)?;
    Ok(Value::Host(Rc::new(NativeList {
        items: Rc::new(RefCell::new(xs.to_vec())),
    })))
}

/// `mo:core/Map`.
pub static MAP_MOD: Module = Module {
    name: "Map",
    members: &[
        func!("empty", map_empty),
        func!("add", map_add),
        func!("remove", map_remove),
        func!("get", map_get),
        func!("containsKey", map_contains),
        func!("size", map_size),
        func!("isEmpty", map_is_empty),
        func!("entries", map_entries),
        func!("keys", map_keys),
        func!("values", map_values),
        func!("toArray", map_to_array),
        func!("fromIter", map_from_iter),
    ],
};

/// `mo:core/List`.
pub static LIST_MOD: Module = Module {
    name: "List",
    members: &[
        func!("empty", list_empty),
        func!("add", list_add),
        func!("get", list_get),
        func!("at", list_at),
        func!("put", list_put),
        func!("removeLast", list_remove_last),
        func!("size", list_size),
        func!("isEmpty", list_is_empty),
        func!("values", list_values),
        func!("toArray", list_to_array),
        func!("fromArray", list_from_array),
    ],
};
