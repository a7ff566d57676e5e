//! [`Decoder`]: type-directed decoding of heap words into [`Value`]s, one level at a time
//! ([`Decoder::shallow`]) or completely ([`Decoder::deep`], with an explicit stack), bounded
//! by the heap's [`ReaderLimits`].

use std::sync::Arc;

use super::{DecodeError, LazyValue, RecordField, Value};
use crate::heap::types::{Field, FuncSort, ObjSort, Prim, Type, TypeEnv};
use crate::heap::{ArraySort, Body, Heap, Tag};
use crate::image::{Budget, ImageError, LimitKind, ReaderLimits};

/// Decodes values of one heap, with the type aliases of its stable signature and one work
/// budget (all decoding through one decoder spends from it).
pub struct Decoder<'h> {
    pub(crate) heap: &'h Heap,
    pub(crate) env: &'h TypeEnv,
    pub(crate) limits: ReaderLimits,
    pub(crate) budget: Budget,
    pub(crate) labels: Option<Arc<std::collections::HashMap<u32, Arc<str>>>>,
    pub(crate) max_nodes: u64,
    /// Whether recognized collections decode as their natural view (see [`Decoder::set_natural`]).
    pub(crate) natural: bool,
    /// The collections met while decoding (see [`Decoder::record_collections`]).
    pub(crate) collections: Option<Vec<(u64, LazyValue)>>,
}

/// Default maximum number of value nodes one [`Decoder::deep`] call builds (bounds memory on
/// heaps whose sharing or cycles would unfold into huge trees).
pub const DEFAULT_MAX_NODES: u64 = 1 << 24;

impl std::fmt::Debug for Decoder<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Decoder")
            .field("limits", &self.limits)
            .field("work_used", &self.budget.work_used())
            .finish()
    }
}

/// One frame of the deep decoder: a value with lazy children being filled in.
struct Frame {
    value: Value,
    next: usize,
    depth: u32,
}

impl<'h> Decoder<'h> {
    /// A decoder for `heap` with the aliases `env`, limits and budget from the heap's limits.
    pub fn new(heap: &'h Heap, env: &'h TypeEnv) -> Decoder<'h> {
        Decoder::with_limits(heap, env, *heap.limits())
    }

    /// A decoder with explicit limits.
    pub fn with_limits(heap: &'h Heap, env: &'h TypeEnv, limits: ReaderLimits) -> Decoder<'h> {
        Decoder {
            heap,
            env,
            limits,
            budget: Budget::new(&limits),
            labels: None,
            max_nodes: DEFAULT_MAX_NODES,
            natural: false,
            collections: None,
        }
    }

    /// Sets the maximum number of value nodes one [`Decoder::deep`] call builds.
    pub fn set_max_nodes(&mut self, max: u64) {
        self.max_nodes = max;
    }

    /// Whether a collection the stable signature's types name (a `mo:core` Map, Set, List, …,
    /// see [`crate::heap::collections`]) decodes as its natural view: the array of its
    /// entries as `(key, value)` tuples, or of its elements, in the collection's order, as
    /// `Iter.toArray(Map.entries(m))` (or `Set.values`, `List.toArray`, …) would give. Off by
    /// default: the raw structure, as `debug_show` prints it.
    pub fn set_natural(&mut self, on: bool) {
        self.natural = on;
    }

    /// The collection `v`'s static type makes it, if any (whether or not natural views are on).
    pub fn collection_kind(
        &self,
        v: &LazyValue,
    ) -> Option<crate::heap::collections::CollectionKind> {
        let ty = self.type_of(v).ok().flatten()?;
        crate::heap::collections::recognize(self.env, &ty)
    }

    /// Starts noting every collection this decoder meets (by its object's address, with its
    /// value and type), so a caller that hands the structure on (a script) can show each one's
    /// natural view later; [`Decoder::take_collections`] returns them.
    pub fn record_collections(&mut self) {
        self.collections.get_or_insert_with(Vec::new);
    }

    /// The collections noted since [`Decoder::record_collections`] (and forgets them).
    pub fn take_collections(&mut self) -> Vec<(u64, LazyValue)> {
        self.collections
            .as_mut()
            .map(std::mem::take)
            .unwrap_or_default()
    }

    /// Whether collections decode as their natural view.
    pub fn natural(&self) -> bool {
        self.natural
    }

    /// The heap being decoded.
    pub fn heap(&self) -> &'h Heap {
        self.heap
    }

    /// Work steps spent so far.
    pub fn work_used(&self) -> u64 {
        self.budget.work_used()
    }

    /// Decodes `v` completely (every part), with an explicit stack: nesting beyond
    /// `max_depth`, or work beyond the budget, is an error naming the address.
    pub fn deep(&mut self, v: &LazyValue) -> Result<Value, DecodeError> {
        let root = self.shallow(v)?;
        let mut nodes: u64 = 1;
        // Addresses of the compound objects on the path from the root (cycle detection).
        let mut path: std::collections::HashSet<u64> = root.addr().into_iter().collect();
        let mut stack = vec![Frame {
            value: root,
            next: 0,
            depth: 0,
        }];
        loop {
            let Some(top) = stack.last_mut() else {
                return Ok(Value::Unit);
            };
            let mut found = None;
            let mut pushed = None;
            while top.next < top.value.child_count() {
                let i = top.next;
                top.next += 1;
                match top.value.child(i) {
                    Some(Value::Lazy(l)) => {
                        found = Some((i, l.clone()));
                        break;
                    }
                    // A part built with lazy parts of its own (a natural view's entry tuple).
                    Some(part) if part.child_count() > 0 => {
                        let depth = top.depth + 1;
                        self.limits.check_depth(depth, part.addr().unwrap_or(0))?;
                        if let Some(slot) = top.value.child_mut(i) {
                            pushed = Some(Frame {
                                value: std::mem::replace(slot, Value::Unit),
                                next: 0,
                                depth,
                            });
                        }
                        break;
                    }
                    _ => {}
                }
            }
            if let Some(frame) = pushed {
                // Fill that part in first; it goes back into its slot when done.
                stack.push(frame);
                continue;
            }
            let Some(top) = stack.last_mut() else {
                return Ok(Value::Unit);
            };
            match found {
                Some((i, lazy)) => {
                    let depth = top.depth + 1;
                    let addr = top.value.addr().unwrap_or(lazy.word);
                    self.limits.check_depth(depth, addr)?;
                    nodes += 1;
                    if nodes > self.max_nodes {
                        return Err(ImageError::Limit {
                            kind: LimitKind::Objects,
                            max: self.max_nodes,
                            addr,
                        }
                        .into());
                    }
                    let mut child = self.shallow(&lazy)?;
                    if let Some(a) = child.addr().filter(|_| child.child_count() > 0) {
                        if path.contains(&a) {
                            child = Value::Cycle { addr: a };
                        } else {
                            path.insert(a);
                        }
                    }
                    if child.child_count() > 0 {
                        // Remember where it goes: the parent's `next` is i + 1.
                        stack.push(Frame {
                            value: child,
                            next: 0,
                            depth,
                        });
                    } else if let Some(slot) = top.value.child_mut(i) {
                        *slot = child;
                    }
                }
                None => {
                    let Some(done) = stack.pop() else {
                        return Ok(Value::Unit);
                    };
                    if let Some(a) = done.value.addr() {
                        path.remove(&a);
                    }
                    match stack.last_mut() {
                        None => return Ok(done.value),
                        Some(parent) => {
                            if let Some(slot) = parent.value.child_mut(parent.next - 1) {
                                *slot = done.value;
                            }
                        }
                    }
                }
            }
        }
    }

    /// Decodes one level of `v`: scalars completely, compounds with [`Value::Lazy`] parts
    /// (a recognized collection as its natural view when [`Decoder::set_natural`] is on).
    pub fn shallow(&mut self, v: &LazyValue) -> Result<Value, DecodeError> {
        self.shallow_as(v, self.natural)
    }

    /// Decodes one level of `v` as its own structure (never a natural view).
    pub fn shallow_raw(&mut self, v: &LazyValue) -> Result<Value, DecodeError> {
        self.shallow_as(v, false)
    }

    fn shallow_as(&mut self, v: &LazyValue, natural: bool) -> Result<Value, DecodeError> {
        let word = v.word;
        self.budget.spend(1, word)?;
        let Some(ty) = &v.ty else {
            return self.untyped_shallow(word);
        };
        let ty = self.env.normalize(ty)?;
        if natural {
            if let Some(kind) = crate::heap::collections::recognize(self.env, &ty) {
                return self.natural_view(LazyValue::typed(word, ty), kind);
            }
        } else if self.collections.is_some() {
            if let Some(addr) = self.heap.pointer(word) {
                if crate::heap::collections::recognize(self.env, &ty).is_some() {
                    let seen = LazyValue::typed(word, ty.clone());
                    if let Some(c) = self.collections.as_mut() {
                        c.push((addr, seen));
                    }
                }
            }
        }
        match &*ty {
            Type::Prim(p) => self.prim(*p, word),
            Type::Tuple(ts) if ts.is_empty() => Ok(Value::Unit),
            Type::Opt(inner) => self.shallow_opt(word, inner),
            Type::Tuple(ts) => {
                let (addr, elems) = self.array(word, &ty, ArraySort::may_be_tuple)?;
                if elems.len() != ts.len() {
                    return Err(self.mismatch(word, &ty.to_string()));
                }
                let items = elems.iter().zip(ts).map(|(w, t)| lazy(*w, t)).collect();
                Ok(Value::Tuple { addr, items })
            }
            Type::Array { mutable, elem } => {
                let (addr, elems) = self.array(word, &ty, ArraySort::may_be_array)?;
                let items = elems.iter().map(|w| lazy(*w, elem)).collect();
                Ok(Value::Array {
                    addr,
                    mutable: *mutable,
                    items,
                })
            }
            Type::Object {
                sort: ObjSort::Actor,
                ..
            } => Ok(Value::Actor(self.blob_bytes(word, Prim::Principal)?)),
            Type::Object { fields, .. } => self.shallow_record(word, &ty, fields),
            Type::Variant(tags) => self.shallow_variant(word, &ty, tags),
            Type::Func(f) if matches!(f.sort, FuncSort::Local | FuncSort::Stable) => {
                self.closure(word)
            }
            Type::Func(_) => self.shared_func(word, &ty),
            Type::Weak(inner) => {
                if !self.heap.is_pointer(word) {
                    return Err(self.mismatch(word, &ty.to_string()));
                }
                let o = self.obj(word)?;
                let Body::WeakRef { target } = o.body else {
                    return Err(self.mismatch(word, &ty.to_string()));
                };
                let alive = self.heap.is_pointer(target) && !self.heap.is_null(target)?;
                Ok(Value::Weak {
                    addr: o.addr,
                    target: alive.then(|| Box::new(lazy(target, inner))),
                })
            }
            Type::Async(_) => Ok(Value::Opaque {
                word,
                addr: self.heap.pointer(word),
                what: "async".into(),
            }),
            Type::Var(_) | Type::Con { .. } => self.untyped_shallow(word),
        }
    }

    /// One level of option `word` of type `?inner`: `null`, or the option's value (in a
    /// `Some` box, or unboxed) not decoded yet.
    fn shallow_opt(&mut self, word: u64, inner: &Arc<Type>) -> Result<Value, DecodeError> {
        if self.heap.is_null(word)? {
            return Ok(Value::Null);
        }
        if self.points_to(word, Tag::Some)? {
            let o = self.obj(word)?;
            if let Body::Some { value } = o.body {
                return Ok(Value::Opt {
                    addr: Some(o.addr),
                    value: Box::new(lazy(value, inner)),
                });
            }
        }
        Ok(Value::Opt {
            addr: None,
            value: Box::new(lazy(word, inner)),
        })
    }

    /// One level of record `word` of type `ty` (with `fields`): each field not decoded yet,
    /// found by its label's hash (a `var` field through its MutBox).
    fn shallow_record(
        &mut self,
        word: u64,
        ty: &Arc<Type>,
        fields: &[Field],
    ) -> Result<Value, DecodeError> {
        if !self.heap.is_pointer(word) {
            return Err(self.mismatch(word, &ty.to_string()));
        }
        let o = self.obj(word)?;
        let Body::Object {
            hashes,
            fields: words,
            ..
        } = o.body
        else {
            return Err(self.mismatch(word, &ty.to_string()));
        };
        self.budget.spend(words.len(), o.addr)?;
        let mut out = Vec::with_capacity(fields.len());
        for f in fields.iter() {
            let w = hashes
                .position(f.hash)
                .and_then(|i| words.get(i as u64))
                .ok_or_else(|| DecodeError::Mismatch {
                    word,
                    addr: Some(o.addr),
                    expected: ty.to_string(),
                    found: format!("an object without field `{}`", f.label),
                })?;
            let w = if f.mutable { self.mutbox(w)? } else { w };
            out.push(RecordField {
                label: f.label.clone(),
                mutable: f.mutable,
                value: lazy(w, &f.ty),
            });
        }
        Ok(Value::Record {
            addr: o.addr,
            fields: out,
        })
    }

    /// One level of variant `word` of type `ty` (with `tags`): its tag, its payload not
    /// decoded yet.
    fn shallow_variant(
        &mut self,
        word: u64,
        ty: &Arc<Type>,
        tags: &[crate::heap::types::Tag],
    ) -> Result<Value, DecodeError> {
        if !self.heap.is_pointer(word) {
            return Err(self.mismatch(word, &ty.to_string()));
        }
        let o = self.obj(word)?;
        let Body::Variant { hash, payload } = o.body else {
            return Err(self.mismatch(word, &ty.to_string()));
        };
        let tag = tags
            .iter()
            .find(|t| t.hash == hash)
            .ok_or_else(|| DecodeError::Mismatch {
                word,
                addr: Some(o.addr),
                expected: ty.to_string(),
                found: format!("a variant with tag hash {hash}"),
            })?;
        Ok(Value::Variant {
            addr: o.addr,
            tag: tag.label.clone(),
            payload: Box::new(lazy(payload, &tag.ty)),
        })
    }

    /// The natural view of a collection: an immutable array of its entries (as `(key, value)`
    /// tuples) or elements, each not decoded yet. Its address is the collection's own object
    /// (0 for an empty list, which is `null`).
    fn natural_view(
        &mut self,
        collection: LazyValue,
        kind: crate::heap::collections::CollectionKind,
    ) -> Result<Value, DecodeError> {
        let addr = self.heap.pointer(collection.word).unwrap_or(0);
        let mut items = Vec::new();
        for item in crate::heap::collections::Entries::new(self, collection, kind) {
            items.push(item?.into_value());
        }
        Ok(Value::Array {
            addr,
            mutable: false,
            items,
        })
    }

    /// The address and element words of an array whose sort satisfies `ok`.
    fn array(
        &mut self,
        word: u64,
        ty: &Type,
        ok: impl Fn(ArraySort) -> bool,
    ) -> Result<(u64, Vec<u64>), DecodeError> {
        if !self.heap.is_pointer(word) {
            return Err(self.mismatch(word, &ty.to_string()));
        }
        let o = self.obj(word)?;
        match o.body {
            Body::Array { sort, elems, .. } if ok(sort) => {
                self.budget.spend(elems.len(), o.addr)?;
                Ok((o.addr, elems.iter().collect()))
            }
            _ => Err(self.mismatch(word, &ty.to_string())),
        }
    }

    /// The content of the MutBox `word` points to.
    pub(crate) fn mutbox(&mut self, word: u64) -> Result<u64, DecodeError> {
        if !self.heap.is_pointer(word) {
            return Err(self.mismatch(word, "a var field (MutBox)"));
        }
        match self.obj(word)?.body {
            Body::MutBox { value } => Ok(value),
            _ => Err(self.mismatch(word, "a var field (MutBox)")),
        }
    }

    /// A closure: its function name and untyped captures.
    pub(crate) fn closure(&mut self, word: u64) -> Result<Value, DecodeError> {
        if !self.heap.is_pointer(word) {
            return Err(self.mismatch(word, "a function"));
        }
        let o = self.obj(word)?;
        let Body::Closure { funid, captured } = o.body else {
            return Err(self.mismatch(word, "a function"));
        };
        self.budget.spend(captured.len(), o.addr)?;
        Ok(Value::Closure {
            addr: o.addr,
            funid,
            name: self.heap.function_name(funid).map(str::to_string),
            captures: captured
                .iter()
                .map(|w| Value::Lazy(LazyValue { word: w, ty: None }))
                .collect(),
        })
    }

    /// A shared function reference: Array S `[actor, method name]`.
    fn shared_func(&mut self, word: u64, ty: &Type) -> Result<Value, DecodeError> {
        let (addr, elems) = self.array(word, ty, ArraySort::may_be_shared)?;
        let [actor, method] = elems[..] else {
            return Err(self.mismatch(word, &ty.to_string()));
        };
        Ok(Value::SharedFunc {
            addr,
            actor: self.blob_bytes(actor, Prim::Principal)?,
            method: self.text(method)?,
        })
    }
}

/// A part of type `ty` in `word`, not decoded yet.
fn lazy(word: u64, ty: &Arc<Type>) -> Value {
    Value::Lazy(LazyValue {
        word,
        ty: Some(ty.clone()),
    })
}
