//! Stable-variable values too large to decode at once: host objects that decode one level
//! at a time, so touching one field of a huge structure stays cheap.
//!
//! A value of at most `eager_nodes` nodes becomes an ordinary script value; a larger one a
//! [`LazyNode`]: `r.field` reads a record field, `a.size()`, `a.get(i)`, `a.vals()` read an
//! array or tuple, `v.tag()`/`v.payload()` a variant, `o.value()` an option (as `?T`),
//! and `debug_show` decodes it all (exactly as `mo-mem vars` prints it); those reads are in
//! [`super::lazy_node`].

use super::context::{decoder, SnapshotContext};
use super::convert::{to_script_recording, AddressBook, Recording};
use super::direct::{self, Plans};
use super::{value_bytes, HostError, HostObject};
use crate::heap::types::Type;
use crate::heap::value::{DecodeError, Decoder, LazyValue, Value as HeapValue};
use crate::image::{ImageError, LimitKind};
use crate::script::value::Value;
use std::cell::Cell;
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
    /// How plain parts are read straight into script values ([`super::direct`]).
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
                let level = match array_level(&mut d, lazy) {
                    Some(level) => level,
                    None => d.shallow(lazy).map(Level::Decoded),
                }
                .map_err(|e| HostError::data("", e))?;
                // One level: a word per part decoded (the parts are charged when they are
                // read); an array's elements are not even listed.
                let parts = match &level {
                    Level::Array { .. } => 0,
                    Level::Decoded(HeapValue::Tuple { items, .. }) => items.len(),
                    Level::Decoded(HeapValue::Record { fields, .. }) => fields.len(),
                    Level::Decoded(_) => 1,
                };
                self.charge(16 * parts as u64 + 64);
                let node = Value::Host(Rc::new(LazyNode {
                    reader: self.clone(),
                    lazy: lazy.clone(),
                    level,
                }));
                self.book.remember_host(&node, lazy_addr(&self.ctx, lazy));
                Ok(node)
            }
            Err(e) => Err(HostError::data("", e)),
        }
    }

    /// A part of plain data read straight into a script value ([`direct`]), as the
    /// ordinary decoding would give it; `None` when it cannot be (not plain data, larger
    /// than `eager_nodes`, or any error).
    fn read_direct(&self, d: &mut Decoder<'_>, lazy: &LazyValue) -> Option<Value> {
        let plan = self.plans.plan(d.env, lazy.ty.as_ref()?)?;
        let read = direct::read(d, &plan, lazy)?;
        self.book.remember_host(&read.value, read.addr);
        self.charge(read.bytes);
        Some(read.value)
    }

    /// The part in heap word `word` read straight by `plan` (the element plan of an array
    /// being iterated), as [`LazyReader::materialize_part`] would give it; `None` when it
    /// cannot be (then `materialize_part` decides).
    pub fn read_planned(&self, plan: &direct::Plan, word: u64) -> Option<Value> {
        let mut d = decoder(&self.ctx).ok()?;
        d.set_max_nodes(self.eager_nodes);
        let read = direct::read_word(&mut d, plan, word)?;
        self.book.remember_host(&read.value, read.addr);
        self.charge(read.bytes);
        Some(read.value)
    }

    /// The script value of part `v` of a lazily read value.
    pub(super) fn child(&self, v: &HeapValue) -> Result<Value, HostError> {
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

/// The [`Level`] of a value whose static type is an array: its length, read from the
/// header (`None`: the type is no array).
fn array_level(d: &mut Decoder<'_>, lazy: &LazyValue) -> Option<Result<Level, DecodeError>> {
    let ty = d.type_of(lazy).ok().flatten()?;
    let Type::Array { mutable, .. } = &*ty else {
        return None;
    };
    let mutable = *mutable;
    Some(d.len(lazy).map(|len| Level::Array { mutable, len }))
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
        .is_some_and(|n| matches!(n.level, Level::Decoded(HeapValue::Tuple { .. })))
}

/// Whether `h` is an array read one level at a time (`a[i]` reads element `i` alone).
pub fn is_lazy_array(h: &dyn HostObject) -> bool {
    h.as_any()
        .downcast_ref::<LazyNode>()
        .is_some_and(|n| matches!(n.level, Level::Array { .. }))
}

/// A compound value read one level at a time.
///
/// What a script reads from it (its fields, `size`, `get`, `vals`, a map's `get`) is in
/// [`super::lazy_node`].
pub struct LazyNode {
    /// What it shares with the other values read from the snapshot.
    pub(super) reader: LazyReader,
    /// Where it is.
    pub(super) lazy: LazyValue,
    /// What it holds of the value.
    pub(super) level: Level,
}

/// What a [`LazyNode`] holds of its value.
pub(super) enum Level {
    /// An array: its kind and length; each element is read from the heap when asked for,
    /// so an array of a hundred million elements costs nothing until it is read.
    Array {
        /// Whether it is `[var T]`.
        mutable: bool,
        /// Its number of elements.
        len: u64,
    },
    /// Anything else, decoded one level deep (its parts are [`HeapValue::Lazy`]).
    Decoded(HeapValue),
}
