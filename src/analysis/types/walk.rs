//! [`TypeLabels`]: every object a type-directed walk from the stable variables reaches,
//! labelled with its Motoko type.
//!
//! The walk is breadth-first over (object, type) pairs from every stable variable at once
//! (in signature order), with a queue, no recursion. Each object is labelled **once**: the
//! first type that reaches it wins, i.e. the type on its shortest typed path from a
//! variable, ties going to the earlier variable, then to the earlier field or element (the
//! order of the object's references). A reach that says nothing (`Any`, a type variable, a
//! closure's captures) labels nothing, and an object whose tag does not fit the type (a
//! corrupt heap) is left unlabelled and not followed. Each object is expanded once, so the
//! work is bounded by the objects and references of the graph (plus the interning of types,
//! at most [`MAX_TYPES`](super::MAX_TYPES)). Memory: 2 bytes per object for the labels, and
//! 8 per object in the queue at most while the walk runs.
//!
//! What follows what (as [`Decoder`](crate::heap::value::Decoder) decodes it): a record's
//! fields by label hash, a `var` field through its MutBox (labelled `var T`); array and tuple
//! elements; an option's `Some` box (`?T` without a box is its value itself); a variant's
//! payload by tag; a text's rope parts (`Text`); a shared function's actor and method name.
//! Weak references are not followed (the GC does not trace them); a closure's captures and
//! a region's page table are untyped. Classical static objects (outside the walked heap) are
//! followed but not labelled.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::sync::Arc;

use crate::heap::types::{Prim, StableSignature, TypeEnv};
use crate::heap::{Body, Heap, Object, Tag};

use super::super::fifo::Fifo;
use super::super::graph::HeapGraph;
use super::label_shape::LabelShape;
use super::table::{Shape, TypeId, TypeTable, MAX_UNWRAP, UNTYPED};

/// No label: no type reached the object.
pub const NO_LABEL: u32 = u32::MAX;

/// No label, in [`TypeLabels::node_label`].
const NONE: u16 = u16::MAX;

/// A label index too large for two bytes, in [`TypeLabels::node_label`]: see its `wide`.
const WIDE: u16 = u16::MAX - 1;

/// The most static objects the walk follows.
const MAX_STATICS: usize = 1 << 16;

/// The Motoko type label of each object of a [`HeapGraph`].
#[derive(Debug, Clone, Default, serde::Serialize, serde::Deserialize)]
pub struct TypeLabels {
    /// Per node: an index into `names` below [`WIDE`], [`NONE`], or [`WIDE`] for an index
    /// in `wide` (two bytes per object; only a heap with more than 65 534 distinct labels
    /// needs the side table).
    #[serde(with = "crate::analysis::pod")]
    node_label: Vec<u16>,
    /// The labels of the nodes marked [`WIDE`].
    wide: BTreeMap<u32, u32>,
    /// The distinct labels.
    names: Vec<Arc<str>>,
    /// Per distinct label: the structure of its type (aliases expanded).
    shapes: Vec<LabelShape>,
    /// Per distinct label: whether its objects' tags are never a number box, a `Concat` or a
    /// `WeakRef` (what every type it names lets [`fits`] accept).
    plain: Vec<bool>,
    /// Objects labelled.
    labelled: u64,
    /// Objects whose tag did not fit the type reaching them.
    mismatched: u64,
}

impl TypeLabels {
    /// Labels the objects of `graph` by a walk from the stable variables typed by `sig`
    /// (without a signature, nothing is labelled).
    pub fn compute(heap: &Heap, graph: &HeapGraph, sig: Option<&StableSignature>) -> TypeLabels {
        let mut out = TypeLabels {
            node_label: vec![NONE; graph.nodes()],
            ..TypeLabels::default()
        };
        let Some(sig) = sig else {
            return out;
        };
        let mut w = Walk {
            heap,
            graph,
            table: TypeTable::for_signature(sig),
            out: &mut out,
            name_ids: HashMap::new(),
            tid_names: Vec::new(),
            box_names: HashMap::new(),
            queue: Fifo::new(),
            statics: HashSet::new(),
            static_queue: Vec::new(),
        };
        for var in graph.vars() {
            let (Some(word), Some(sv)) = (var.word, sig.var(&var.name)) else {
                continue;
            };
            let tid = w.table.intern(&sv.ty);
            w.visit(word, tid);
            w.drain_statics();
        }
        while let Some((n, tid)) = w.queue.pop_front() {
            w.expand(graph.address(n), tid);
            w.drain_statics();
        }
        out
    }

    /// The label of node `n`, if a type reached it.
    #[inline]
    pub fn label(&self, n: u32) -> Option<&Arc<str>> {
        match self.label_index(n) {
            NO_LABEL => None,
            i => self.names.get(i as usize),
        }
    }

    /// The label index of node `n` ([`NO_LABEL`] if none).
    #[inline]
    pub fn label_index(&self, n: u32) -> u32 {
        match self.node_label.get(n as usize) {
            None | Some(&NONE) => NO_LABEL,
            Some(&WIDE) => self.wide.get(&n).copied().unwrap_or(NO_LABEL),
            Some(&i) => i as u32,
        }
    }

    /// The distinct labels (indexed by [`TypeLabels::label_index`]).
    pub fn names(&self) -> &[Arc<str>] {
        &self.names
    }

    /// Per distinct label (indexed as [`TypeLabels::names`]): the structure of the type
    /// behind it, aliases expanded ([`LabelShape::Other`] when types of different structure
    /// print alike).
    pub fn shapes(&self) -> &[LabelShape] {
        &self.shapes
    }

    /// Per distinct label (indexed as [`TypeLabels::names`]): whether the objects it labels
    /// are never a number box (`BigInt`, `Bits64`, `Bits32`), a `Concat` or a `WeakRef`:
    /// their types are records, variants, tuples, options, arrays, functions, mutable boxes,
    /// blobs, principals or regions, so their tags are known without reading them.
    pub fn plain(&self) -> &[bool] {
        &self.plain
    }

    /// How many objects are labelled.
    pub fn labelled(&self) -> u64 {
        self.labelled
    }

    /// How many objects a type reached whose tag did not fit it (left unlabelled).
    pub fn mismatched(&self) -> u64 {
        self.mismatched
    }

    /// Whether node `n` has a label.
    #[inline]
    fn is_labelled(&self, n: u32) -> bool {
        self.node_label.get(n as usize).is_some_and(|&i| i != NONE)
    }

    /// Labels node `n` with label index `l`.
    #[inline]
    fn set(&mut self, n: u32, l: u32) {
        let Some(slot) = self.node_label.get_mut(n as usize) else {
            return;
        };
        match u16::try_from(l) {
            Ok(short) if short < WIDE => *slot = short,
            _ => {
                *slot = WIDE;
                self.wide.insert(n, l);
            }
        }
    }

    /// Whether the labels are consistent, for a graph of `nodes` nodes (labels read back
    /// from a file, [`crate::analysis::persist`]): one per node, each a distinct label's.
    pub fn check(&self, nodes: usize) -> Result<(), String> {
        let names = self.names.len();
        if self.node_label.len() != nodes || self.shapes.len() != names || self.plain.len() != names
        {
            return Err(format!(
                "{} labels for {nodes} nodes",
                self.node_label.len()
            ));
        }
        let short = |&l: &u16| l == NONE || l == WIDE || (l as usize) < names;
        let wide = |(&n, &l): (&u32, &u32)| (n as usize) < nodes && (l as usize) < names;
        if !self.node_label.iter().all(short) || !self.wide.iter().all(wide) {
            return Err(format!("a label beyond the {names} distinct labels"));
        }
        Ok(())
    }

    /// Bytes the labels take.
    pub fn heap_bytes(&self) -> usize {
        self.node_label.capacity() * 2
            + self.wide.len() * 40
            + self.names.iter().map(|n| n.len() + 16).sum::<usize>()
            + self.shapes.capacity() * std::mem::size_of::<LabelShape>()
            + self.plain.capacity()
    }
}

struct Walk<'a, 'h> {
    heap: &'h Heap,
    graph: &'a HeapGraph,
    table: TypeTable<'a>,
    out: &'a mut TypeLabels,
    name_ids: HashMap<Arc<str>, u32>,
    /// Label index per type id (NO_LABEL: not computed yet).
    tid_names: Vec<u32>,
    box_names: HashMap<TypeId, u32>,
    queue: Fifo<(u32, TypeId)>,
    statics: HashSet<(u64, TypeId)>,
    static_queue: Vec<(u64, TypeId)>,
}

impl Walk<'_, '_> {
    fn name_id(&mut self, name: Arc<str>, shape: LabelShape, plain: bool) -> u32 {
        if let Some(&i) = self.name_ids.get(&name) {
            if let Some(s) = self.out.shapes.get_mut(i as usize) {
                *s = s.join(shape);
            }
            if let Some(p) = self.out.plain.get_mut(i as usize) {
                *p &= plain;
            }
            return i;
        }
        let i = self.out.names.len() as u32;
        self.out.names.push(name.clone());
        self.out.shapes.push(shape);
        self.out.plain.push(plain);
        self.name_ids.insert(name, i);
        i
    }

    fn label_of(&mut self, tid: TypeId) -> u32 {
        let t = tid as usize;
        if t >= self.tid_names.len() {
            self.tid_names.resize(t + 1, NO_LABEL);
        }
        if self.tid_names[t] == NO_LABEL {
            let name = self.table.label(tid);
            let shape = LabelShape::of(&mut self.table, tid);
            let plain = has_plain_tags(self.table.shape(tid));
            self.tid_names[t] = self.name_id(name, shape, plain);
        }
        self.tid_names[t]
    }

    fn box_label_of(&mut self, tid: TypeId) -> u32 {
        if let Some(&i) = self.box_names.get(&tid) {
            return i;
        }
        let name: Arc<str> = Arc::from(format!("var {}", self.table.label(tid)));
        // A mutable box's tag is `MutBox`.
        let i = self.name_id(name, LabelShape::Other, true);
        self.box_names.insert(tid, i);
        i
    }

    /// Reaches `word` at type `tid`: labels and queues its object (first reach only).
    fn visit(&mut self, word: u64, tid: TypeId) {
        let Some(tid) = object_type(self.heap, &mut self.table, word, tid) else {
            return;
        };
        let Some(addr) = self.heap.pointer(word) else {
            return;
        };
        let Ok((addr, node)) = self.graph.resolve_node(self.heap, addr) else {
            return;
        };
        match node {
            Some(n) => {
                if self.out.is_labelled(n) {
                    return;
                }
                let Some((ok, tag)) = fits_at(self.heap, self.table.shape(tid), addr) else {
                    return;
                };
                if !ok {
                    self.out.mismatched += 1;
                    return;
                }
                let l = self.label_of(tid);
                self.out.set(n, l);
                self.out.labelled += 1;
                // A leaf (a blob, a number) has nothing to expand: it is not queued.
                if has_parts(self.table.shape(tid), tag) {
                    self.queue.push_back((n, tid));
                }
            }
            None => {
                if self.statics.len() < MAX_STATICS && self.statics.insert((addr, tid)) {
                    self.static_queue.push((addr, tid));
                }
            }
        }
    }

    fn drain_statics(&mut self) {
        while let Some((addr, tid)) = self.static_queue.pop() {
            if let Ok(obj) = self.heap.object(addr) {
                if fits(self.table.shape(tid), &obj) {
                    self.expand(addr, tid);
                }
            }
        }
    }

    /// Reaches the parts of the object at `addr`, of type `tid`.
    fn expand(&mut self, addr: u64, tid: TypeId) {
        let Ok(obj) = self.heap.object(addr) else {
            return;
        };
        let shape = self.table.shape_arc(tid);
        match (&*shape, obj.body) {
            (&Shape::Opt(inner), Body::Some { value }) => self.visit(value, inner),
            (Shape::Tuple(ts), Body::Array { elems, .. }) => {
                for (w, &t) in elems.iter().zip(ts) {
                    self.visit(w, t);
                }
            }
            (&Shape::Array { elem, .. }, Body::Array { elems, .. }) => {
                for w in elems.iter() {
                    self.visit(w, elem);
                }
            }
            (Shape::Record(fs), Body::Object { hashes, fields, .. }) => {
                for (h, w) in hashes.iter().zip(fields.iter()) {
                    let Ok(i) = fs.binary_search_by_key(&h, |f| f.hash) else {
                        continue;
                    };
                    let f = &fs[i];
                    if f.mutable {
                        self.visit_box(w, f.ty);
                    } else {
                        self.visit(w, f.ty);
                    }
                }
            }
            (Shape::Variant(ts), Body::Variant { hash, payload }) => {
                if let Ok(i) = ts.binary_search_by_key(&hash, |t| t.hash) {
                    self.visit(payload, ts[i].ty);
                }
            }
            (Shape::Prim(Prim::Text), Body::Concat { left, right, .. }) => {
                self.visit(left, tid);
                self.visit(right, tid);
            }
            (Shape::SharedFunc, Body::Array { elems, .. }) => {
                if let (Some(actor), Some(method)) = (elems.get(0), elems.get(1)) {
                    let p = self.table.prim(Prim::Principal);
                    self.visit(actor, p);
                    let t = self.table.prim(Prim::Text);
                    self.visit(method, t);
                }
            }
            _ => {}
        }
    }

    /// Reaches a `var` field's MutBox (labelled `var T`) and its content at type `tid`.
    fn visit_box(&mut self, word: u64, tid: TypeId) {
        let Some(addr) = self.heap.pointer(word) else {
            return;
        };
        let Ok(addr) = self.heap.resolve(addr) else {
            return;
        };
        let Ok(obj) = self.heap.object(addr) else {
            return;
        };
        let Body::MutBox { value } = obj.body else {
            self.out.mismatched += 1;
            return;
        };
        if let Some(n) = self.graph.node_at(addr) {
            if self.out.is_labelled(n) {
                return;
            }
            let l = self.box_label_of(tid);
            self.out.set(n, l);
            self.out.labelled += 1;
        } else if self.statics.len() >= MAX_STATICS || !self.statics.insert((addr, UNTYPED)) {
            return;
        }
        self.visit(value, tid);
    }
}

/// The type of the object `word` points to when it holds a value of type `tid`: options
/// without a `Some` box are their value; `None` when nothing is known or there is no object
/// (a scalar, `null`, an untyped part).
pub fn object_type(
    heap: &Heap,
    table: &mut TypeTable<'_>,
    word: u64,
    tid: TypeId,
) -> Option<TypeId> {
    let mut tid = tid;
    for _ in 0..MAX_UNWRAP {
        match table.shape(tid) {
            Shape::Untyped | Shape::Async => return None,
            &Shape::Opt(inner) => {
                if heap.is_null(word).unwrap_or(true) {
                    return None;
                }
                match heap.object_of(word) {
                    Ok(o) if o.tag == Tag::Some => return Some(tid),
                    _ => tid = inner,
                }
            }
            _ => return heap.is_pointer(word).then_some(tid),
        }
    }
    None
}

/// [`fits`] for the walked object at `addr` from its header alone (and a tuple's length),
/// with the object's tag: `None` if the header does not decode.
fn fits_at(heap: &Heap, shape: &Shape, addr: u64) -> Option<(bool, Tag)> {
    let (tag, _) = heap.tag_at(addr).ok()?;
    let fits = match shape {
        Shape::Tuple(ts) => {
            if !matches!(tag, Tag::Array(s) if s.may_be_tuple()) {
                return Some((false, tag));
            }
            let layout = heap.layout();
            let len = heap.image().read_word(addr + layout.header).ok()?;
            len == ts.len() as u64
        }
        _ => fits_tag(shape, tag),
    };
    Some((fits, tag))
}

/// Whether [`Walk::expand`] follows anything out of an object of shape `shape` and tag `tag`
/// (one that fits the shape): false for the leaves (blobs, numbers, a text that is not a
/// concatenation), which are labelled but not queued.
fn has_parts(shape: &Shape, tag: Tag) -> bool {
    match shape {
        Shape::Opt(_)
        | Shape::Tuple(_)
        | Shape::Array { .. }
        | Shape::Record(_)
        | Shape::Variant(_)
        | Shape::SharedFunc => true,
        Shape::Prim(Prim::Text) => tag == Tag::Concat,
        _ => false,
    }
}

/// Whether no tag [`fits_tag`] accepts for `shape` is a number box (`BigInt`, `Bits64`,
/// `Bits32`), a `Concat` or a `WeakRef` (false where any may be, and for the shapes nothing
/// fits).
fn has_plain_tags(shape: &Shape) -> bool {
    match shape {
        Shape::Opt(_)
        | Shape::Tuple(_)
        | Shape::Array { .. }
        | Shape::Record(_)
        | Shape::Variant(_)
        | Shape::Actor
        | Shape::Closure
        | Shape::SharedFunc => true,
        Shape::Prim(p) => matches!(p, Prim::Blob | Prim::Principal | Prim::Region),
        Shape::Weak(_) | Shape::Untyped | Shape::Async => false,
    }
}

/// [`fits`] for every shape but a tuple's, which also needs the length.
fn fits_tag(shape: &Shape, tag: Tag) -> bool {
    match shape {
        Shape::Opt(_) => tag == Tag::Some,
        Shape::Tuple(_) => matches!(tag, Tag::Array(s) if s.may_be_tuple()),
        Shape::Array { .. } => matches!(tag, Tag::Array(s) if s.may_be_array()),
        Shape::Record(_) => tag == Tag::Object,
        Shape::Variant(_) => tag == Tag::Variant,
        Shape::Prim(p) => match p {
            Prim::Nat | Prim::Int => tag == Tag::BigInt,
            Prim::Nat64 | Prim::Int64 | Prim::Float => matches!(tag, Tag::Bits64(_)),
            Prim::Nat32 | Prim::Int32 | Prim::Float32 => {
                matches!(tag, Tag::Bits32(_) | Tag::Bits64(_))
            }
            Prim::Text => matches!(tag, Tag::Blob(_) | Tag::Concat),
            Prim::Blob | Prim::Principal => matches!(tag, Tag::Blob(_)),
            Prim::Region => tag == Tag::Region,
            _ => false,
        },
        Shape::Actor => matches!(tag, Tag::Blob(_)),
        Shape::Closure => tag == Tag::Closure,
        Shape::SharedFunc => matches!(tag, Tag::Array(s) if s.may_be_shared()),
        Shape::Weak(_) => tag == Tag::WeakRef,
        Shape::Untyped | Shape::Async => false,
    }
}

/// Whether `obj` can hold a value of shape `shape`.
pub fn fits(shape: &Shape, obj: &Object<'_>) -> bool {
    match (shape, obj.body) {
        (Shape::Tuple(ts), Body::Array { elems, .. }) => {
            matches!(obj.tag, Tag::Array(s) if s.may_be_tuple()) && elems.len() == ts.len() as u64
        }
        _ => fits_tag(shape, obj.tag),
    }
}

/// An empty environment, for callers without a signature.
pub fn empty_env() -> &'static TypeEnv {
    static EMPTY: std::sync::OnceLock<TypeEnv> = std::sync::OnceLock::new();
    EMPTY.get_or_init(TypeEnv::default)
}

#[cfg(test)]
mod plain_tests {
    use super::*;
    use crate::heap::{ArraySort, BitsSort, BlobSort};

    /// Every tag a header can decode to.
    fn all_tags() -> Vec<Tag> {
        let mut tags = vec![
            Tag::Object,
            Tag::MutBox,
            Tag::ObjInd,
            Tag::Closure,
            Tag::Some,
            Tag::Variant,
            Tag::FwdPtr,
            Tag::BigInt,
            Tag::Concat,
            Tag::Region,
            Tag::WeakRef,
            Tag::Null,
            Tag::OneWordFiller,
            Tag::FreeSpace,
        ];
        for s in [
            ArraySort::Immutable,
            ArraySort::Mutable,
            ArraySort::Tuple,
            ArraySort::Shared,
            ArraySort::Unknown,
        ] {
            tags.push(Tag::Array(s));
        }
        for s in [
            BitsSort::Unsigned,
            BitsSort::Signed,
            BitsSort::Float,
            BitsSort::Unknown,
        ] {
            tags.push(Tag::Bits64(s));
            tags.push(Tag::Bits32(s));
        }
        for s in [
            BlobSort::Bytes,
            BlobSort::Text,
            BlobSort::Principal,
            BlobSort::Actor,
            BlobSort::Unknown,
        ] {
            tags.push(Tag::Blob(s));
        }
        tags
    }

    /// The second computation: a shape called plain admits no tag the doctor must read, by
    /// trying every tag against [`fits_tag`]; and the shapes that admit one are not plain.
    #[test]
    fn plain_shapes_admit_no_box_concat_or_weak_tag() {
        let mut shapes = vec![
            Shape::Untyped,
            Shape::Opt(0),
            Shape::Tuple(vec![0, 0]),
            Shape::Array {
                mutable: false,
                elem: 0,
            },
            Shape::Array {
                mutable: true,
                elem: 0,
            },
            Shape::Record(Vec::new()),
            Shape::Variant(Vec::new()),
            Shape::Actor,
            Shape::Closure,
            Shape::SharedFunc,
            Shape::Weak(0),
            Shape::Async,
        ];
        for p in [
            Prim::Nat,
            Prim::Int,
            Prim::Nat8,
            Prim::Nat16,
            Prim::Nat32,
            Prim::Nat64,
            Prim::Int8,
            Prim::Int16,
            Prim::Int32,
            Prim::Int64,
            Prim::Float,
            Prim::Float32,
            Prim::Bool,
            Prim::Char,
            Prim::Text,
            Prim::Blob,
            Prim::Principal,
            Prim::Region,
        ] {
            shapes.push(Shape::Prim(p));
        }
        let read = |t: Tag| {
            matches!(
                t,
                Tag::BigInt | Tag::Bits64(_) | Tag::Bits32(_) | Tag::Concat | Tag::WeakRef
            )
        };
        let mut plain = 0;
        for shape in &shapes {
            let admits_read = all_tags()
                .into_iter()
                .any(|t| fits_tag(shape, t) && read(t));
            if has_plain_tags(shape) {
                plain += 1;
                assert!(!admits_read, "{shape:?} is plain but admits a tag to read");
            } else if !matches!(shape, Shape::Untyped | Shape::Async | Shape::Prim(_)) {
                assert!(admits_read, "{shape:?} could be plain");
            }
        }
        assert_eq!(plain, 12);
    }
}
