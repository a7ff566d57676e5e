//! Decoded heap values ([`crate::heap::value::Value`]) as script values, remembering the
//! heap address of every compound so `heap.objectOf(v)` can find its object.

use super::{HostError, HostObject};
use crate::heap::render::debug_show;
use crate::heap::value::Value as HeapValue;
use crate::script::value::Value;
use std::borrow::Cow;
use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::{Rc, Weak};

/// Entries below which the book is never swept of dead values.
const SWEEP_FLOOR: usize = 1 << 12;

/// Script aggregates made from heap objects, by the address of their shared allocation.
/// Each entry holds a weak reference to its aggregate: the allocation cannot be reused for
/// another value while the entry exists (a value the script builds can never be taken for
/// a heap object), and entries whose value is gone are swept as the book grows.
#[derive(Default)]
pub struct AddressBook {
    by_ptr: RefCell<Remembered>,
    /// The collections among those objects (by address), to show their natural views.
    collections: RefCell<HashMap<u64, crate::heap::value::LazyValue>>,
    /// Record labels as script strings, made once per label (not once per record).
    labels: RefCell<HashMap<std::sync::Arc<str>, Rc<str>>>,
}

impl AddressBook {
    /// The heap address recorded for script value `v`, if it was converted from an object.
    pub fn address_of(&self, v: &Value) -> Option<u64> {
        let key = WeakAggregate::of(v)?.key();
        // `v` is alive, so an entry at its allocation is for `v` itself (see the book).
        self.by_ptr
            .borrow()
            .entries
            .get(&key)
            .map(|(_, addr)| *addr)
    }

    /// Forgets the aggregates no script value holds any more (and gives their allocations
    /// back).
    pub fn sweep(&self) {
        self.by_ptr.borrow_mut().sweep();
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

    /// The script string of record label `label` (shared by every record using it).
    pub(super) fn label(&self, label: &std::sync::Arc<str>) -> Rc<str> {
        if let Some(l) = self.labels.borrow().get(label) {
            return l.clone();
        }
        let l: Rc<str> = Rc::from(&**label);
        self.labels.borrow_mut().insert(label.clone(), l.clone());
        l
    }

    fn remember(&self, v: &Value, addr: Option<u64>) {
        if let (Some(weak), Some(addr)) = (WeakAggregate::of(v), addr) {
            self.by_ptr.borrow_mut().insert(weak.key(), weak, addr);
        }
    }
}

/// The book's entries, swept of dead values whenever they have doubled since the last sweep.
#[derive(Default)]
struct Remembered {
    entries: HashMap<usize, (WeakAggregate, u64)>,
    sweep_at: usize,
}

impl Remembered {
    fn insert(&mut self, key: usize, weak: WeakAggregate, addr: u64) {
        if self.entries.len() >= self.sweep_at.max(SWEEP_FLOOR) {
            self.sweep();
        }
        self.entries.insert(key, (weak, addr));
    }

    fn sweep(&mut self) {
        self.entries.retain(|_, (w, _)| w.is_alive());
        self.entries.shrink_to_fit();
        self.sweep_at = 2 * self.entries.len();
    }
}

/// A weak reference to a script aggregate: keeps its allocation (not its value) until the
/// book lets go of it.
enum WeakAggregate {
    Values(Weak<[Value]>),
    VarArray(Weak<RefCell<Vec<Value>>>),
    Opt(Weak<Value>),
    Variant(Weak<(Rc<str>, Value)>),
    Record(Weak<crate::script::value::Record>),
    Host(Weak<dyn HostObject>),
}

impl WeakAggregate {
    fn of(v: &Value) -> Option<WeakAggregate> {
        Some(match v {
            Value::Tuple(t) | Value::Array(t) => WeakAggregate::Values(Rc::downgrade(t)),
            Value::VarArray(a) => WeakAggregate::VarArray(Rc::downgrade(a)),
            Value::Opt(o) => WeakAggregate::Opt(Rc::downgrade(o)),
            Value::Variant(v) => WeakAggregate::Variant(Rc::downgrade(v)),
            Value::Record(r) => WeakAggregate::Record(Rc::downgrade(r)),
            Value::Host(h) => WeakAggregate::Host(Rc::downgrade(h)),
            _ => return None,
        })
    }

    /// The aggregate's identity: the address of its allocation.
    fn key(&self) -> usize {
        match self {
            WeakAggregate::Values(w) => w.as_ptr() as *const () as usize,
            WeakAggregate::VarArray(w) => w.as_ptr() as *const () as usize,
            WeakAggregate::Opt(w) => w.as_ptr() as *const () as usize,
            WeakAggregate::Variant(w) => w.as_ptr() as *const () as usize,
            WeakAggregate::Record(w) => w.as_ptr() as *const () as usize,
            WeakAggregate::Host(w) => w.as_ptr() as *const () as usize,
        }
    }

    fn is_alive(&self) -> bool {
        match self {
            WeakAggregate::Values(w) => w.strong_count() > 0,
            WeakAggregate::VarArray(w) => w.strong_count() > 0,
            WeakAggregate::Opt(w) => w.strong_count() > 0,
            WeakAggregate::Variant(w) => w.strong_count() > 0,
            WeakAggregate::Record(w) => w.strong_count() > 0,
            WeakAggregate::Host(w) => w.strong_count() > 0,
        }
    }
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

/// Which compounds of a converted value [`to_script`] records in the [`AddressBook`].
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Recording {
    /// Every compound (for `heap.objectOf` on any part): a stable variable's value.
    Every,
    /// The value itself and the collections in it (their natural views), nothing else: a
    /// part of a huge value, read one element at a time (recording each of millions of
    /// records would grow the book without bound).
    RootAndCollections,
}

/// Converts a completely decoded heap value; compounds are recorded in `book`.
pub fn to_script(v: &HeapValue, book: &AddressBook) -> Value {
    to_script_recording(v, book, Recording::Every)
}

/// [`to_script`], recording compounds as `recording` says.
pub fn to_script_recording(v: &HeapValue, book: &AddressBook, recording: Recording) -> Value {
    let out = convert(v, book, recording);
    book.remember(&out, v.addr());
    out
}

fn convert(v: &HeapValue, book: &AddressBook, recording: Recording) -> Value {
    let part = |x: &HeapValue| {
        let out = convert(x, book, recording);
        let addr = x.addr();
        let wanted = match recording {
            Recording::Every => true,
            Recording::RootAndCollections => {
                addr.is_some_and(|a| book.collections.borrow().contains_key(&a))
            }
        };
        if wanted {
            book.remember(&out, addr);
        }
        out
    };
    if let Some(scalar) = scalar_to_script(v) {
        return scalar;
    }
    match v {
        HeapValue::Opt { value, .. } => Value::some(part(value)),
        HeapValue::Variant { tag, payload, .. } => Value::variant(tag, part(payload)),
        HeapValue::Record { fields, .. } => Value::record(
            fields
                .iter()
                .map(|f| (book.label(&f.label), false, part(&f.value)))
                .collect(),
        ),
        HeapValue::Tuple { items, .. } if items.len() == 1 => part(&items[0]),
        HeapValue::Tuple { items, .. } => Value::Tuple(items.iter().map(part).collect()),
        HeapValue::Array {
            mutable: false,
            items,
            ..
        } => Value::Array(items.iter().map(part).collect()),
        HeapValue::Array {
            mutable: true,
            items,
            ..
        } => Value::VarArray(Rc::new(RefCell::new(items.iter().map(part).collect()))),
        other => Value::Host(Rc::new(OpaqueValue {
            value: other.clone(),
        })),
    }
}

/// A scalar heap value (a number, text, blob, principal, `null`, `()`…) as a script value;
/// `None` for a compound or opaque one.
pub fn scalar_to_script(v: &HeapValue) -> Option<Value> {
    Some(match v {
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
        _ => return None,
    })
}

/// A script key as a heap value, for the scalar types whose script order (`Nat.compare`,
/// `Text.compare`, …) is the heap's [`crate::heap::collections::compare_keys`]; `None` for
/// any other value (tuples, records, …: the script's own `compare` must run).
pub fn to_heap_key(v: &Value) -> Option<HeapValue> {
    Some(match v {
        Value::Bool(b) => HeapValue::Bool(*b),
        Value::Nat(n) => HeapValue::Nat((*n).into()),
        Value::BigNat(n) => HeapValue::Nat((**n).clone()),
        Value::Int(n) => HeapValue::Int((*n).into()),
        Value::BigInt(n) => HeapValue::Int((**n).clone()),
        Value::Nat8(n) => HeapValue::Nat8(*n),
        Value::Nat16(n) => HeapValue::Nat16(*n),
        Value::Nat32(n) => HeapValue::Nat32(*n),
        Value::Nat64(n) => HeapValue::Nat64(*n),
        Value::Int8(n) => HeapValue::Int8(*n),
        Value::Int16(n) => HeapValue::Int16(*n),
        Value::Int32(n) => HeapValue::Int32(*n),
        Value::Int64(n) => HeapValue::Int64(*n),
        Value::Char(c) => HeapValue::Char(*c),
        Value::Text(t) => HeapValue::Text(t.to_string()),
        Value::Blob(b) => HeapValue::Blob(b.to_vec()),
        Value::Principal(p) => HeapValue::Principal(p.to_vec()),
        _ => return None,
    })
}
