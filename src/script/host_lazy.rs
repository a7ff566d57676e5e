//! Stable-variable values too large to decode at once: host objects that decode one level
//! at a time, so touching one field of a huge structure stays cheap.
//!
//! A value of at most `eager_nodes` nodes becomes an ordinary script value; a larger one a
//! [`LazyNode`]: `r.field` reads a record field, `a.size()`, `a.get(i)`, `a.vals()` read an
//! array or tuple, `v.tag()`/`v.payload()` a variant, `o.value()` an option (as `?T`),
//! and `debug_show` decodes it all (exactly as `mo-mem vars` prints it).

use super::eval::{host_trap, Ctrl, Interp};
use super::host::{value_bytes, HostError, HostObject};
use super::host_args::{arg_u64, check_arity};
use super::host_convert::{to_heap_key, to_script_recording, AddressBook, Recording};
use super::host_direct::{self, Plans};
use super::host_snapshot::{decoder, SnapshotContext};
use super::value::{NativeIter, Value};
use crate::heap::collections::{lookup, CollectionKind};
use crate::heap::render::debug_show;
use crate::heap::types::Type;
use crate::heap::value::{DecodeError, Decoder, LazyValue, Value as HeapValue};
use crate::image::{ImageError, LimitKind};
use std::cell::{Cell, RefCell};
use std::rc::Rc;
use std::sync::Arc;

/// Values with more nodes than this are read lazily by default.
pub const EAGER_NODES: u64 = 100_000;

/// What lazily read values share: the snapshot, the address book, the eager threshold.
#[derive(Clone)]
pub struct LazyReader {
    /// The snapshot.
    pub ctx: Arc<SnapshotContext>,
    /// Where compounds' heap addresses are recorded.
    pub book: Rc<AddressBook>,
    /// Values up to this many nodes are decoded completely.
    pub eager_nodes: u64,
    /// Bytes of the values decoded so far and not yet charged ([`HostObject::take_bytes`]).
    pub bytes: Rc<Cell<u64>>,
    /// How plain parts are read straight into script values ([`super::host_direct`]).
    pub plans: Rc<Plans>,
}

impl LazyReader {
    /// The script value of `lazy`: decoded completely if small, else a [`LazyNode`].
    pub fn materialize(&self, lazy: &LazyValue) -> Result<Value, HostError> {
        self.materialize_recording(lazy, Recording::Every)
    }

    /// [`LazyReader::materialize`] for a part of a huge value: only the part itself and the
    /// collections in it are recorded in the address book (see [`Recording`]).
    pub fn materialize_part(&self, lazy: &LazyValue) -> Result<Value, HostError> {
        self.materialize_recording(lazy, Recording::RootAndCollections)
    }

    fn materialize_recording(
        &self,
        lazy: &LazyValue,
        recording: Recording,
    ) -> Result<Value, HostError> {
        let mut d = decoder(&self.ctx)?;
        d.set_max_nodes(self.eager_nodes);
        let larger = surely_larger(&mut d, lazy, self.eager_nodes);
        if recording == Recording::RootAndCollections && !larger {
            if let Some(v) = self.read_direct(&mut d, lazy) {
                return Ok(v);
            }
            // Decoded the ordinary way, from the start (which says why the read stopped).
            d = decoder(&self.ctx)?;
            d.set_max_nodes(self.eager_nodes);
            surely_larger(&mut d, lazy, self.eager_nodes);
        }
        d.record_collections();
        let decoded = if larger {
            // Known too large without trying: no decoding of `eager_nodes` nodes in vain.
            Err(DecodeError::Image(ImageError::Limit {
                kind: LimitKind::Objects,
                max: self.eager_nodes,
                addr: lazy_addr(&self.ctx, lazy).unwrap_or(0),
            }))
        } else {
            d.deep(lazy)
        };
        for (addr, c) in d.take_collections() {
            self.book.remember_collection(addr, c);
        }
        match decoded {
            Ok(v) => {
                let v = to_script_recording(&v, &self.book, recording);
                self.charge(value_bytes(&v));
                Ok(v)
            }
            Err(DecodeError::Image(ImageError::Limit {
                kind: LimitKind::Objects,
                ..
            })) => {
                let shallow = d.shallow(lazy).map_err(|e| HostError::data("", e))?;
                // One level: a word per part (the parts are charged when they are read).
                let parts = match &shallow {
                    HeapValue::Array { items, .. } | HeapValue::Tuple { items, .. } => items.len(),
                    HeapValue::Record { fields, .. } => fields.len(),
                    _ => 1,
                };
                self.charge(16 * parts as u64 + 64);
                let node = Value::Host(Rc::new(LazyNode {
                    reader: self.clone(),
                    lazy: lazy.clone(),
                    shallow,
                }));
                self.book.remember_host(&node, lazy_addr(&self.ctx, lazy));
                Ok(node)
            }
            Err(e) => Err(HostError::data("", e)),
        }
    }

    /// A part of plain data read straight into a script value ([`host_direct`]), as the
    /// ordinary decoding would give it; `None` when it cannot be (not plain data, larger
    /// than `eager_nodes`, or any error).
    fn read_direct(&self, d: &mut Decoder<'_>, lazy: &LazyValue) -> Option<Value> {
        let plan = self.plans.plan(d.env, lazy.ty.as_ref()?)?;
        let read = host_direct::read(d, &plan, lazy)?;
        self.book.remember_host(&read.value, read.addr);
        self.charge(read.bytes);
        Some(read.value)
    }

    /// The part in heap word `word` read straight by `plan` (the element plan of an array
    /// being iterated), as [`LazyReader::materialize_part`] would give it; `None` when it
    /// cannot be (then `materialize_part` decides).
    pub fn read_planned(&self, plan: &host_direct::Plan, word: u64) -> Option<Value> {
        let mut d = decoder(&self.ctx).ok()?;
        d.set_max_nodes(self.eager_nodes);
        let read = host_direct::read_word(&mut d, plan, word)?;
        self.book.remember_host(&read.value, read.addr);
        self.charge(read.bytes);
        Some(read.value)
    }

    fn child(&self, v: &HeapValue) -> Result<Value, HostError> {
        match v {
            HeapValue::Lazy(l) => self.materialize_part(l),
            other => {
                let v = to_script_recording(other, &self.book, Recording::RootAndCollections);
                self.charge(value_bytes(&v));
                Ok(v)
            }
        }
    }

    /// Adds `bytes` to what is charged to the evaluation next.
    pub fn charge(&self, bytes: u64) {
        self.bytes.set(self.bytes.get().saturating_add(bytes));
    }
}

/// Whether `lazy` certainly has more than `nodes` value nodes, read from one header or
/// field: an array of more elements, or a collection whose `size` field counts more
/// entries (each entry is at least one node). A wrong `size` only makes the value lazy.
fn surely_larger(d: &mut Decoder<'_>, lazy: &LazyValue, nodes: u64) -> bool {
    let ty = d.type_of(lazy).ok().flatten();
    match ty.as_deref() {
        Some(Type::Array { .. }) => d.len(lazy).is_ok_and(|n| n > nodes),
        Some(Type::Object { fields, .. })
            if d.collection_kind(lazy).is_some() && fields.iter().any(|f| &*f.label == "size") =>
        {
            let size = d.field(lazy, "size").and_then(|s| d.shallow_raw(&s));
            matches!(&size, Ok(HeapValue::Nat(n)) if u64::try_from(n).is_ok_and(|n| n > nodes))
        }
        _ => false,
    }
}

fn lazy_addr(ctx: &SnapshotContext, lazy: &LazyValue) -> Option<u64> {
    ctx.heap().pointer(lazy.word)
}

/// Whether `h` is a value read one level at a time (a [`LazyNode`]).
pub fn is_lazy(h: &dyn HostObject) -> bool {
    h.as_any().is::<LazyNode>()
}

/// Whether `h` is a tuple read one level at a time (its `get(i)` is the projection `.i`).
pub fn is_lazy_tuple(h: &dyn HostObject) -> bool {
    h.as_any()
        .downcast_ref::<LazyNode>()
        .is_some_and(|n| matches!(n.shallow, HeapValue::Tuple { .. }))
}

/// A compound value read one level at a time.
pub struct LazyNode {
    reader: LazyReader,
    lazy: LazyValue,
    /// The value decoded one level deep (its parts are [`HeapValue::Lazy`]).
    shallow: HeapValue,
}

impl LazyNode {
    fn items(&self) -> Option<&[HeapValue]> {
        match &self.shallow {
            HeapValue::Array { items, .. } | HeapValue::Tuple { items, .. } => Some(items),
            _ => None,
        }
    }
}

impl HostObject for LazyNode {
    fn describe(&self) -> String {
        let Ok(mut d) = self.reader.ctx.decoder() else {
            return "<no signature>".into();
        };
        match d.deep(&self.lazy) {
            Ok(v) => debug_show(&v),
            Err(e) => format!("<{e}>"),
        }
    }

    fn heap_value(&self) -> Option<std::borrow::Cow<'_, HeapValue>> {
        let mut d = self.reader.ctx.decoder().ok()?;
        d.deep(&self.lazy).ok().map(std::borrow::Cow::Owned)
    }

    fn field(&self, name: &str) -> Result<Option<Value>, HostError> {
        let HeapValue::Record { fields, .. } = &self.shallow else {
            return Ok(None);
        };
        match fields.iter().find(|f| &*f.label == name) {
            Some(f) => self.reader.child(&f.value).map(Some),
            None => Ok(None),
        }
    }

    fn call(&self, name: &str, args: &[Value]) -> Result<Option<Value>, HostError> {
        let v = match (name, &self.shallow) {
            ("size", _) => {
                let Some(items) = self.items() else {
                    return Ok(None);
                };
                check_arity(name, args, 0)?;
                Value::Nat(items.len() as u64)
            }
            ("get", _) => {
                // not an array: no `get` here (a contextual `Map.get` may apply)
                let Some(items) = self.items() else {
                    return Ok(None);
                };
                check_arity(name, args, 1)?;
                let i = arg_u64(name, args, 0)?;
                let item = usize::try_from(i)
                    .ok()
                    .and_then(|i| items.get(i))
                    .ok_or_else(|| HostError::Misuse(format!("index {i} out of bounds")))?;
                self.reader.child(item)?
            }
            ("vals" | "values", _) => {
                let Some(items) = self.items() else {
                    return Ok(None);
                };
                check_arity(name, args, 0)?;
                Value::Iter(Rc::new(RefCell::new(LazyItems {
                    reader: self.reader.clone(),
                    items: items.to_vec(),
                    next: 0,
                    shared: None,
                })))
            }
            ("tag", HeapValue::Variant { tag, .. }) => Value::text(tag),
            ("payload", HeapValue::Variant { payload, .. }) => self.reader.child(payload)?,
            ("value", HeapValue::Opt { value, .. }) => Value::some(self.reader.child(value)?),
            ("value", HeapValue::Null) => Value::Null,
            _ => return Ok(None),
        };
        Ok(Some(v))
    }

    fn take_bytes(&self) -> u64 {
        self.reader.bytes.replace(0)
    }

    fn ordered_get(&self, key: &Value) -> Result<Option<Option<Value>>, HostError> {
        let Some(key) = to_heap_key(key) else {
            return Ok(None);
        };
        let mut d = decoder(&self.reader.ctx)?;
        let kind = match d.collection_kind(&self.lazy) {
            Some(
                k @ (CollectionKind::Map | CollectionKind::PureMap | CollectionKind::BaseRBTree),
            ) => k,
            _ => return Ok(None),
        };
        match lookup(&mut d, &self.lazy, kind, &key) {
            Ok(Some(v)) => Ok(Some(Some(self.reader.materialize_part(&v)?))),
            Ok(None) => Ok(Some(None)),
            // Keys of another type than the script's: its own `compare` decides.
            Err(DecodeError::Mismatch { .. }) => Ok(None),
            Err(e) => Err(HostError::data("", e)),
        }
    }

    fn field_names(&self) -> Vec<String> {
        match &self.shallow {
            HeapValue::Record { fields, .. } => {
                fields.iter().map(|f| f.label.to_string()).collect()
            }
            _ => Vec::new(),
        }
    }

    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}

/// `a.vals()` of a lazily read array: each element decoded when reached.
struct LazyItems {
    reader: LazyReader,
    items: Vec<HeapValue>,
    next: usize,
    /// The reader the references given by [`NativeIter::next_view`] share.
    shared: Option<Rc<LazyReader>>,
}

impl NativeIter for LazyItems {
    fn next(&mut self, it: &mut Interp) -> Result<Option<Value>, Ctrl> {
        let Some(item) = self.items.get(self.next) else {
            return Ok(None);
        };
        self.next += 1;
        it.tick()?;
        let v = self.reader.child(item).map_err(host_trap)?;
        it.alloc(self.reader.bytes.replace(0))?;
        Ok(Some(v))
    }

    fn next_view(&mut self, it: &mut Interp) -> Result<Option<Value>, Ctrl> {
        let Some(item) = self.items.get(self.next) else {
            return Ok(None);
        };
        let shared = self
            .shared
            .get_or_insert_with(|| Rc::new(self.reader.clone()));
        let Some(r) = super::host_view::part_ref(shared, item) else {
            return self.next(it);
        };
        self.next += 1;
        it.tick()?;
        it.alloc(32)?;
        Ok(Some(r))
    }
}
