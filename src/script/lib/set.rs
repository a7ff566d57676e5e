//! `mo:core/Set`: a native set for scripts, and read access to a core `Set` decoded from a
//! heap (`{ var root; var size }`, a B-tree of `data.elements`) through the same functions.
//!
//! Sets made by a script are ordered by the elements' natural order: the `compare`
//! argument is accepted but not called (as for `Map`).

use super::args::{arg, elems, wrong};
use super::btree;
use super::containers::{items_iter, Key};
use super::{view, Module};
use crate::script::eval::{trap, EResult, Interp};
use crate::script::host::{HostError, HostObject};
use crate::script::value::Value;
use std::cell::RefCell;
use std::collections::BTreeSet;
use std::rc::Rc;

type R = EResult;

/// A set created by a script (`Set.empty()`).
#[derive(Default)]
pub struct NativeSet {
    elements: RefCell<BTreeSet<Key>>,
}

impl HostObject for NativeSet {
    fn describe(&self) -> String {
        format!("Set({} elements)", self.elements.borrow().len())
    }
    fn field(&self, _: &str) -> Result<Option<Value>, HostError> {
        Ok(None)
    }
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}

fn native_set(v: &Value) -> Option<&NativeSet> {
    match v {
        Value::Host(h) => h.as_any().downcast_ref::<NativeSet>(),
        _ => None,
    }
}

/// The set a changing function `who` may change: one the script made.
fn changeable<'a>(a: &'a [Value], who: &str) -> EResult<&'a NativeSet> {
    native_set(arg(a, 0, who)?)
        .ok_or_else(|| trap(format!("{who}: only sets created by the script can change")))
}

/// All elements of a set value (native or a core `Set` record), in order.
fn elements_of(it: &mut Interp, s: &Value) -> EResult<Vec<Value>> {
    if let Some(n) = native_set(s) {
        let e = n.elements.borrow();
        it.ticks(e.len() as u64)?;
        return Ok(e.iter().map(|k| k.0.clone()).collect());
    }
    let mut out = Vec::new();
    let root = set_root(it, s)?;
    btree::SET.walk(it, &root, &mut out)?;
    Ok(out)
}

/// The root node of a core `Set` record.
fn set_root(it: &mut Interp, s: &Value) -> EResult<Value> {
    view::field(it, s, "root")?.ok_or_else(|| wrong("Set", "Set", s))
}

/// A script set holding `items`.
pub(super) fn set_of(it: &mut Interp, items: impl IntoIterator<Item = Value>) -> R {
    let set = NativeSet::default();
    for x in items {
        it.alloc(32)?;
        set.elements.borrow_mut().insert(Key(x));
    }
    Ok(Value::Host(Rc::new(set)))
}

fn set_empty(_: &mut Interp, _: Option<&Value>, _: &[Value]) -> R {
    Ok(Value::Host(Rc::new(NativeSet::default())))
}

fn set_singleton(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    set_of(it, [arg(a, 0, "Set.singleton")?.clone()])
}

/// `(s, compare, x)`: adds `x` to the script's set `s`; whether it was new.
fn insert(it: &mut Interp, a: &[Value], who: &str) -> EResult<bool> {
    let s = changeable(a, who)?;
    let x = arg(a, 2, who)?.clone();
    it.alloc(32)?;
    Ok(s.elements.borrow_mut().insert(Key(x)))
}

/// `(s, compare, x)`: removes `x` from the script's set `s`; whether it was there.
fn delete(a: &[Value], who: &str) -> EResult<bool> {
    let s = changeable(a, who)?;
    let x = arg(a, 2, who)?.clone();
    Ok(s.elements.borrow_mut().remove(&Key(x)))
}

fn set_insert(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    insert(it, a, "Set.insert").map(Value::Bool)
}

fn set_add(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    insert(it, a, "Set.add").map(|_| Value::Unit)
}

fn set_delete(_: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    delete(a, "Set.delete").map(Value::Bool)
}

fn set_remove(_: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    delete(a, "Set.remove").map(|_| Value::Unit)
}

fn set_contains(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let s = arg(a, 0, "Set.contains")?;
    let x = arg(a, 2, "Set.contains")?;
    if let Some(n) = native_set(s) {
        return Ok(Value::Bool(n.elements.borrow().contains(&Key(x.clone()))));
    }
    let compare = arg(a, 1, "Set.contains")?;
    let root = set_root(it, s)?;
    let found = btree::SET.search(it, &root, compare, x, btree::element_key)?;
    Ok(Value::Bool(found.is_some()))
}

fn set_size(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let s = arg(a, 0, "Set.size")?;
    if let Some(n) = native_set(s) {
        return Ok(Value::Nat(n.elements.borrow().len() as u64));
    }
    match view::field(it, s, "size")? {
        Some(v @ Value::Nat(_)) => Ok(v),
        _ => Ok(Value::Nat(elements_of(it, s)?.len() as u64)),
    }
}

fn set_is_empty(it: &mut Interp, t: Option<&Value>, a: &[Value]) -> R {
    Ok(Value::Bool(matches!(set_size(it, t, a)?, Value::Nat(0))))
}

/// A script set's elements (copied), or a canister-held `Set` walked one B-tree node at a
/// time ([`btree::Walk`]).
fn set_values(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let s = arg(a, 0, "Set.values")?;
    if native_set(s).is_none() {
        let root = set_root(it, s)?;
        let walk = btree::SET.stream(it, &root, btree::Yield::Payload)?;
        return Ok(super::iters::iter_value(walk));
    }
    let e = elements_of(it, s)?;
    it.alloc(16 * e.len() as u64)?;
    Ok(items_iter(e))
}

fn set_to_array(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let e = elements_of(it, arg(a, 0, "Set.toArray")?)?;
    it.alloc(16 * e.len() as u64)?;
    Ok(Value::Array(Rc::from(e)))
}

fn set_min(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    set_extreme(it, arg(a, 0, "Set.min")?, false)
}

fn set_max(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    set_extreme(it, arg(a, 0, "Set.max")?, true)
}

/// The least (or greatest) element: a script set's first (last), a core `Set`'s leftmost
/// (rightmost) slot, reading one path of its B-tree.
fn set_extreme(it: &mut Interp, s: &Value, last: bool) -> R {
    let found = match native_set(s) {
        Some(n) => {
            let e = n.elements.borrow();
            let k = if last {
                e.iter().next_back()
            } else {
                e.iter().next()
            };
            k.map(|k| k.0.clone())
        }
        None => {
            let root = set_root(it, s)?;
            btree::SET.extreme(it, &root, last)?
        }
    };
    Ok(found.map_or(Value::Null, Value::some))
}

fn set_from_iter(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let items = super::iters::collect(it, arg(a, 0, "Set.fromIter")?)?;
    set_of(it, items)
}

fn set_from_array(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let xs = elems(arg(a, 0, "Set.fromArray")?, "Set.fromArray")?;
    set_of(it, xs.to_vec())
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
        func!("values", set_values),
        func!("toArray", set_to_array),
        func!("min", set_min),
        func!("max", set_max),
        func!("fromIter", set_from_iter),
        func!("fromArray", set_from_array),
    ],
};
