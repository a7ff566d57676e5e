//! Decoded heap values ([`crate::heap::value::Value`]) as script values, remembering the
//! heap address of every compound so `heap.objectOf(v)` can find its object.

use super::host::{HostError, HostObject};
use super::value::Value;
use crate::heap::render::debug_show;
use crate::heap::value::Value as HeapValue;
use std::borrow::Cow;
use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

/// Script aggregates made from heap objects, by the address of their shared allocation.
#[derive(Default)]
pub struct AddressBook {
    by_ptr: RefCell<HashMap<usize, u64>>,
    /// The collections among those objects (by address), to show their natural views.
    collections: RefCell<HashMap<u64, crate::heap::value::LazyValue>>,
}

impl AddressBook {
    /// The heap address recorded for script value `v`, if it was converted from an object.
    pub fn address_of(&self, v: &Value) -> Option<u64> {
        let key = identity(v)?;
        self.by_ptr.borrow().get(&key).copied()
    }

    /// Records that script value `v` (a shared aggregate or host object) stands for the
    /// heap object at `addr`.
    pub fn remember_host(&self, v: &Value, addr: Option<u64>) {
        self.remember(v, addr);
    }

    /// Records that the object at `addr` is a collection, `value` (with its type).
    pub fn remember_collection(&self, addr: u64, value: crate::heap::value::LazyValue) {
        self.collections.borrow_mut().insert(addr, value);
    }

    /// The collection at `addr`, if one was recorded there.
    pub fn collection_at(&self, addr: u64) -> Option<crate::heap::value::LazyValue> {
        self.collections.borrow().get(&addr).cloned()
    }

    fn remember(&self, v: &Value, addr: Option<u64>) {
        if let (Some(key), Some(addr)) = (identity(v), addr) {
            self.by_ptr.borrow_mut().insert(key, addr);
        }
    }
}

/// The identity of a shared script aggregate: its allocation's address.
fn identity(v: &Value) -> Option<usize> {
    Some(match v {
        Value::Record(r) => Rc::as_ptr(r) as *const () as usize,
        Value::Tuple(t) | Value::Array(t) => Rc::as_ptr(t) as *const () as usize,
        Value::VarArray(a) => Rc::as_ptr(a) as *const () as usize,
        Value::Opt(o) => Rc::as_ptr(o) as *const () as usize,
        Value::Variant(v) => Rc::as_ptr(v) as *const () as usize,
        Value::Host(h) => Rc::as_ptr(h) as *const () as usize,
        _ => return None,
    })
}

/// A heap value the script language has no type for (actor references, shared functions,
/// closures, regions, weak references, `Float32`, undecodable words): `debug_show` and JSON
/// render it exactly as `mo-mem vars` does; `show()` returns its `debug_show` text.
pub struct OpaqueValue {
    value: HeapValue,
}

impl HostObject for OpaqueValue {
    fn describe(&self) -> String {
        debug_show(&self.value)
    }

    fn field(&self, _name: &str) -> Result<Option<Value>, HostError> {
        Ok(None)
    }

    fn call(&self, name: &str, _args: &[Value]) -> Result<Option<Value>, HostError> {
        Ok((name == "show").then(|| Value::text(&self.describe())))
    }

    fn heap_value(&self) -> Option<Cow<'_, HeapValue>> {
        Some(Cow::Borrowed(&self.value))
    }

    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}

/// Converts a completely decoded heap value; compounds are recorded in `book`.
pub fn to_script(v: &HeapValue, book: &AddressBook) -> Value {
    let out = match v {
        HeapValue::Null => Value::Null,
        HeapValue::Unit => Value::Unit,
        HeapValue::Bool(b) => Value::Bool(*b),
        HeapValue::Nat(n) => Value::nat_big(n.clone()),
        HeapValue::Int(n) => Value::int_big(n.clone()),
        HeapValue::Nat8(n) => Value::Nat8(*n),
        HeapValue::Nat16(n) => Value::Nat16(*n),
        HeapValue::Nat32(n) => Value::Nat32(*n),
        HeapValue::Nat64(n) => Value::Nat64(*n),
        HeapValue::Int8(n) => Value::Int8(*n),
        HeapValue::Int16(n) => Value::Int16(*n),
        HeapValue::Int32(n) => Value::Int32(*n),
        HeapValue::Int64(n) => Value::Int64(*n),
        HeapValue::Float(f) => Value::Float(*f),
        HeapValue::Char(c) => Value::Char(*c),
        HeapValue::Text(t) => Value::text(t),
        HeapValue::Blob(b) => Value::Blob(Rc::from(b.as_slice())),
        HeapValue::Principal(p) => Value::Principal(Rc::from(p.as_slice())),
        HeapValue::Opt { value, .. } => Value::some(to_script(value, book)),
        HeapValue::Variant { tag, payload, .. } => Value::variant(tag, to_script(payload, book)),
        HeapValue::Record { fields, .. } => Value::record(
            fields
                .iter()
                .map(|f| (Rc::from(&*f.label), false, to_script(&f.value, book)))
                .collect(),
        ),
        HeapValue::Tuple { items, .. } if items.len() == 1 => to_script(&items[0], book),
        HeapValue::Tuple { items, .. } => {
            Value::Tuple(items.iter().map(|x| to_script(x, book)).collect())
        }
        HeapValue::Array {
            mutable: false,
            items,
            ..
        } => Value::Array(items.iter().map(|x| to_script(x, book)).collect()),
        HeapValue::Array {
            mutable: true,
            items,
            ..
        } => Value::VarArray(Rc::new(RefCell::new(
            items.iter().map(|x| to_script(x, book)).collect(),
        ))),
        other => Value::Host(Rc::new(OpaqueValue {
            value: other.clone(),
        })),
    };
    book.remember(&out, v.addr());
    out
}
