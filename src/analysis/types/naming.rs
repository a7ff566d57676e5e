//! Type-directed names for the steps of a path from a stable variable: record fields by
//! label, tuple components `.1`, array elements `[3]`, `?` for a `Some` box, ` #tag` for a
//! variant's payload, and inside mo:core collections the entry by its key:
//!
//! - `m.get(k)`: the value stored under key `k` of a `Map` or `pure/Map`, or the element at
//!   index `k` of a `List`;
//! - `m.entry(k)`: the `(k, v)` tuple of a `Map` entry;
//! - `m.key(k)`: the key object of a `Map` or `pure/Map` entry, or an element of a `Set` or
//!   `pure/Set`.
//!
//! The B-tree (or red-black tree, or block) steps between the collection and the entry are
//! dropped; a path that ends inside the tree keeps them. A collection is recognised from its
//! type ([`TypeTable::container`]) and the entry from the path's own objects: only the key
//! of the entry on the path is decoded (rendered with `debug_show`, at most
//! [`MAX_KEY_CHARS`] characters), never the collection. Where the type says nothing (an
//! `Any`, a closure's captures, a corrupt object), the rest of the path is named from the
//! heap alone.

use std::sync::Arc;

use crate::heap::render::debug_show;
use crate::heap::types::{Prim, Type};
use crate::heap::value::{Decoder, LazyValue};
use crate::heap::{Body, Heap};

use super::super::graph::HeapGraph;
use super::super::step::{step, Step};
use super::label::{shorten_to, MAX_LABEL_CHARS};
use super::table::{Container, Shape, TypeId, TypeTable};
use super::walk::{fits, object_type};
use crate::heap::types::LabelMap;

/// The longest key shown in a path, in characters.
pub const MAX_KEY_CHARS: usize = 40;

/// The most value nodes decoded to show one key.
const MAX_KEY_NODES: u64 = 256;

/// What the path knows about the object it has reached.
#[derive(Clone, Copy)]
enum Cur {
    /// An object of this type.
    Typed(TypeId),
    /// The MutBox of a `var` field or element holding this type.
    Boxed(TypeId),
    /// Nothing.
    Untyped,
}

/// Where the path is relative to a collection.
#[derive(Clone)]
enum Inside {
    /// Not in a collection's internals.
    No,
    /// Inside collection `c`, whose steps start at `from` (they are dropped at the entry).
    Tree(Container, usize),
    /// At a `Map` entry tuple with this key (its next step picks the key or the value).
    Entry(String),
}

/// Names the steps along `chain` (nodes from the variable's object to the target), the
/// variable's value being `word` of type `ty`.
pub fn name_steps(
    heap: &Heap,
    graph: &HeapGraph,
    table: &mut TypeTable<'_>,
    labels: &LabelMap,
    word: u64,
    ty: &Arc<Type>,
    chain: &[u32],
) -> Vec<(Step, u64)> {
    let mut steps: Vec<(Step, u64)> = Vec::with_capacity(chain.len());
    let tid = table.intern(ty);
    let mut cur = match object_type(heap, table, word, tid) {
        Some(t) => Cur::Typed(t),
        None => Cur::Untyped,
    };
    let mut inside = match cur {
        Cur::Typed(t) => tree(table, t, 0),
        _ => Inside::No,
    };
    for (pos, w) in chain.windows(2).enumerate() {
        let (from, to) = (graph.address(w[0]), graph.address(w[1]));
        let (s, next) = typed_step(heap, table, cur, from, to);
        let s = s.unwrap_or_else(|| step(heap, labels, from, to));
        let from_shape = match cur {
            Cur::Typed(t) => Some(table.shape_arc(t)),
            _ => None,
        };
        cur = next;
        match std::mem::replace(&mut inside, Inside::No) {
            Inside::Entry(key) => {
                match s {
                    Step::Component(0) => replace_last(&mut steps, Step::Key(key), to),
                    Step::Component(1) => replace_last(&mut steps, Step::Get(key), to),
                    other => steps.push((other, to)),
                }
                continue;
            }
            Inside::Tree(c, start) => {
                let at = |shape: &Option<Arc<Shape>>| {
                    matches!(shape.as_deref(), Some(Shape::Array { .. }))
                };
                let entry = match (c, cur, &s) {
                    (Container::Map { key, value }, Cur::Typed(t), _) if at(&from_shape) => {
                        match table.shape(t) {
                            Shape::Tuple(ts) if ts[..] == [key, value] => {
                                let k = tuple_part(heap, to, 0)
                                    .map(|kw| show_key(heap, table, labels, kw, key))
                                    .unwrap_or_else(|| "?".into());
                                Some((Step::Entry(k.clone()), Some(k)))
                            }
                            _ => None,
                        }
                    }
                    (Container::Set { elem }, Cur::Typed(t), _) if at(&from_shape) && t == elem => {
                        Some((Step::Key(show_key(heap, table, labels, to - 1, elem)), None))
                    }
                    (Container::List { elem }, Cur::Typed(t), Step::Index(j))
                        if at(&from_shape) && t == elem =>
                    {
                        list_index(heap, graph, chain, &steps, pos, *j)
                            .map(|i| (Step::Get(i.to_string()), None))
                    }
                    (
                        Container::PureMap { key, .. } | Container::PureSet { elem: key },
                        _,
                        Step::Component(i @ (1 | 2)),
                    ) => match (from_shape.as_deref(), c) {
                        (Some(Shape::Tuple(ts)), _) if ts.len() >= 3 && ts[1] == key => {
                            let k = tuple_part(heap, from, 1)
                                .map(|kw| show_key(heap, table, labels, kw, key))
                                .unwrap_or_else(|| "?".into());
                            match (c, i) {
                                (Container::PureMap { .. }, 2) => Some((Step::Get(k), None)),
                                (_, 1) => Some((Step::Key(k), None)),
                                _ => None,
                            }
                        }
                        _ => None,
                    },
                    _ => None,
                };
                match entry {
                    Some((named, entry_key)) => {
                        steps.truncate(start);
                        steps.push((named, to));
                        if let Some(k) = entry_key {
                            inside = Inside::Entry(k);
                        }
                        continue;
                    }
                    None => {
                        steps.push((s, to));
                        inside = Inside::Tree(c, start);
                        continue;
                    }
                }
            }
            Inside::No => steps.push((s, to)),
        }
        if let Cur::Typed(t) = cur {
            inside = tree(table, t, steps.len());
        }
    }
    steps
}

/// Inside the collection type `t` is, if its entries are named by key or index.
fn tree(table: &mut TypeTable<'_>, t: TypeId, start: usize) -> Inside {
    match table.container(t) {
        Some(Container::Queue { .. } | Container::Stack { .. }) | None => Inside::No,
        Some(c) => Inside::Tree(c, start),
    }
}

fn replace_last(steps: &mut Vec<(Step, u64)>, s: Step, to: u64) {
    steps.pop();
    steps.push((s, to));
}

/// Word `i` of the tuple at `addr`.
fn tuple_part(heap: &Heap, addr: u64, i: u64) -> Option<u64> {
    match heap.object(addr).ok()?.body {
        Body::Array { elems, .. } => elems.get(i),
        _ => None,
    }
}

/// The index in a core `List` of slot `j` of the block the path reached at step `pos`: the
/// lengths of the blocks before it (`blocks[0..b]`), plus `j`.
fn list_index(
    heap: &Heap,
    graph: &HeapGraph,
    chain: &[u32],
    steps: &[(Step, u64)],
    pos: usize,
    j: u64,
) -> Option<u64> {
    let Some((Step::Index(b), _)) = steps.last() else {
        return None;
    };
    let blocks = graph.address(*chain.get(pos.checked_sub(1)?)?);
    let Body::Array { elems, .. } = heap.object(blocks).ok()?.body else {
        return None;
    };
    let mut index = 0u64;
    for w in elems.iter().take(*b as usize) {
        match heap.object_of(w).ok()?.body {
            Body::Array { elems, .. } => index = index.checked_add(elems.len())?,
            _ => return None,
        }
    }
    index.checked_add(j)
}

/// `debug_show` of the key `word` of type `key`, shortened.
fn show_key(
    heap: &Heap,
    table: &mut TypeTable<'_>,
    labels: &LabelMap,
    word: u64,
    key: TypeId,
) -> String {
    let mut d = Decoder::new(heap, table.env());
    d.set_label_map(labels.clone());
    d.set_max_nodes(MAX_KEY_NODES);
    let lazy = LazyValue {
        word,
        ty: Some(table.written(key).clone()),
    };
    match d.deep(&lazy) {
        Ok(v) => shorten_to(debug_show(&v), MAX_KEY_CHARS.min(MAX_LABEL_CHARS)),
        Err(_) => "?".into(),
    }
}

/// The step from the object at `from` (what `cur` says it is) to the object at `to`, and
/// what `to` is; `None` for the step when the type does not say.
fn typed_step(
    heap: &Heap,
    table: &mut TypeTable<'_>,
    cur: Cur,
    from: u64,
    to: u64,
) -> (Option<Step>, Cur) {
    let points_to = |word: u64| {
        heap.pointer(word)
            .and_then(|a| heap.resolve(a).ok())
            .is_some_and(|a| a == to)
    };
    let Ok(obj) = heap.object(from) else {
        return (None, Cur::Untyped);
    };
    let (s, word, child) = match (cur, obj.body) {
        (Cur::Untyped, _) => return (None, Cur::Untyped),
        (Cur::Boxed(t), Body::MutBox { value }) if points_to(value) => (Step::Var, value, t),
        (Cur::Boxed(_), _) => return (None, Cur::Untyped),
        (Cur::Typed(t), body) => match (&*table.shape_arc(t), body) {
            (Shape::Record(_), Body::Object { hashes, fields, .. }) => {
                let Some((h, w)) = hashes
                    .iter()
                    .zip(fields.iter())
                    .find(|&(_, w)| points_to(w))
                else {
                    return (None, Cur::Untyped);
                };
                let Some(f) = table.field(t, h) else {
                    return (None, Cur::Untyped);
                };
                if f.mutable {
                    let fits_box = heap
                        .object_of(w)
                        .is_ok_and(|o| matches!(o.body, Body::MutBox { .. }));
                    let next = if fits_box {
                        Cur::Boxed(f.ty)
                    } else {
                        Cur::Untyped
                    };
                    return (Some(Step::Field(f.label.to_string())), next);
                }
                (Step::Field(f.label.to_string()), w, f.ty)
            }
            (Shape::Tuple(ts), Body::Array { elems, .. }) => {
                let Some(i) = elems.iter().position(points_to) else {
                    return (None, Cur::Untyped);
                };
                let Some(&ct) = ts.get(i) else {
                    return (None, Cur::Untyped);
                };
                (
                    Step::Component(i as u64),
                    elems.get(i as u64).unwrap_or(0),
                    ct,
                )
            }
            (&Shape::Array { elem, .. }, Body::Array { elems, .. }) => {
                let Some(i) = elems.iter().position(points_to) else {
                    return (None, Cur::Untyped);
                };
                (
                    Step::Index(i as u64),
                    elems.get(i as u64).unwrap_or(0),
                    elem,
                )
            }
            (&Shape::Opt(inner), Body::Some { value }) if points_to(value) => {
                (Step::Some, value, inner)
            }
            (Shape::Variant(_), Body::Variant { hash, payload }) if points_to(payload) => {
                let Some(tag) = table.tag(t, hash) else {
                    return (None, Cur::Untyped);
                };
                (Step::Variant(tag.label.to_string()), payload, tag.ty)
            }
            (Shape::Prim(Prim::Text), Body::Concat { left, right, .. }) => {
                let w = if points_to(left) { left } else { right };
                (Step::Rope, w, t)
            }
            _ => return (None, Cur::Untyped),
        },
    };
    let next = match object_type(heap, table, word, child) {
        Some(ct) => match heap.object(to) {
            Ok(o) if fits(table.shape(ct), &o) => Cur::Typed(ct),
            _ => Cur::Untyped,
        },
        None => Cur::Untyped,
    };
    (Some(s), next)
}
