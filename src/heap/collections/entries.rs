//! [`Entries`]: a collection's entries or elements in its own order, read from the heap as
//! the iteration goes (one node at a time, with an explicit stack of pending work: no
//! recursion whose depth comes from the heap, nothing decoded but the structure's nodes).

use super::read::ReadParts;
use super::CollectionKind;
use crate::heap::object::{eop_pair, prefetch_pointee_and_before};
use crate::heap::types::Type;
use crate::heap::value::{DecodeError, Decoder, LazyValue, Value};
use crate::heap::{ArraySort, Body};
use std::sync::Arc;

/// One entry of a map or one element of a set, list, queue or stack (not decoded).
#[derive(Debug, Clone, PartialEq)]
pub enum Item {
    /// An element.
    Element(LazyValue),
    /// A map's entry.
    Entry {
        /// The object holding the pair (the `(K, V)` tuple or the tree node).
        addr: u64,
        /// The key.
        key: LazyValue,
        /// The value.
        value: LazyValue,
    },
}

impl Item {
    /// The item as a value with lazy parts: an element as itself, an entry as the tuple
    /// `(key, value)`.
    pub fn into_value(self) -> Value {
        match self {
            Item::Element(x) => Value::Lazy(x),
            Item::Entry { addr, key, value } => Value::Tuple {
                addr,
                items: vec![Value::Lazy(key), Value::Lazy(value)],
            },
        }
    }
}

/// Pending work of the walk; popped from the end.
#[derive(Clone)]
enum Task {
    /// Yield this item.
    Yield(Item),
    /// A `mo:core` B-tree node (`#leaf`/`#internal`).
    BTree(LazyValue),
    /// A B-tree child slot `?Node`.
    BTreeChild(LazyValue),
    /// A B-tree slot `?(K, V)` or `?T`.
    Slot(LazyValue),
    /// Block `b` of a `mo:core` List's `blocks` (and the blocks after it).
    Blocks {
        blocks: LazyValue,
        b: u64,
        block_index: u64,
        element_index: u64,
    },
    /// A pure list cell `?(x, rest)`; `pairs`: its elements are a Trie's `(Key<K>, V)`.
    Cell { cell: LazyValue, trie: bool },
    /// A pure list whose elements are yielded last to first.
    Reversed(LazyValue),
    /// A `mo:core` Queue node `?{value; next; previous}`.
    QueueNode(LazyValue),
    /// A red-black tree (`mo:core/pure`, or `mo:base` RBTree).
    Tree(LazyValue),
    /// A `mo:base` Trie.
    Trie(LazyValue),
}

/// The entries or elements of one collection, in its order (see [`Item`]). Reads through a
/// [`Decoder`], spending from its work budget: a hostile structure (a cyclic `next` chain, a
/// deep tree) ends in a limit error, never a hang or an exhausted stack.
pub struct Entries<'d, 'h> {
    decoder: &'d mut Decoder<'h>,
    walk: EntryWalk,
}

impl<'d, 'h> Entries<'d, 'h> {
    /// The entries of `collection`, a value of the collection type `kind` was recognized in.
    pub fn new(
        decoder: &'d mut Decoder<'h>,
        collection: LazyValue,
        kind: CollectionKind,
    ) -> Entries<'d, 'h> {
        Entries {
            decoder,
            walk: EntryWalk::new(collection, kind),
        }
    }
}

/// The walk behind [`Entries`], holding no decoder: the caller passes one to each
/// [`EntryWalk::next_item`] (a streaming renderer decodes each entry with the same decoder
/// between two steps of the walk). A clone resumes from the same point (a listing of a
/// range of entries starts from a walk saved there).
#[derive(Clone)]
pub struct EntryWalk {
    kind: CollectionKind,
    /// The collection, until its top is read (on the first call to `next_item`).
    unopened: Option<LazyValue>,
    stack: Vec<Task>,
    failed: bool,
    /// The types met, expanded once (see [`ExpandedTypes`]).
    types: ExpandedTypes,
}

/// Types expanded by [`Decoder::type_of`] once per walk: a B-tree's node, data and slot
/// types are generic aliases (`Node<K, V>`), which every read would otherwise substitute
/// again, for every node. Keyed by the type's address; the key is kept alive with its
/// expansion, so an address is never reused for another type while it is here.
#[derive(Clone, Default)]
struct ExpandedTypes {
    known: Vec<(Arc<Type>, Arc<Type>)>,
}

/// The most types [`ExpandedTypes`] keeps (a collection's structure has a handful).
const MAX_EXPANDED_TYPES: usize = 32;

impl ExpandedTypes {
    /// `v` with its type expanded (as it was; unchanged when it has none or does not expand:
    /// the reads that follow report that).
    fn expand(&mut self, decoder: &Decoder<'_>, mut v: LazyValue) -> LazyValue {
        let Some(ty) = &v.ty else {
            return v;
        };
        if !matches!(&**ty, Type::Con { .. }) {
            return v;
        }
        if let Some((_, expanded)) = self.known.iter().find(|(k, _)| Arc::ptr_eq(k, ty)) {
            v.ty = Some(expanded.clone());
            return v;
        }
        if let Ok(Some(expanded)) = decoder.type_of(&v) {
            if self.known.len() < MAX_EXPANDED_TYPES {
                self.known.push((ty.clone(), expanded.clone()));
            }
            v.ty = Some(expanded);
        }
        v
    }
}

impl EntryWalk {
    /// The walk over `collection`, a value of the collection type `kind` was recognized in.
    pub fn new(collection: LazyValue, kind: CollectionKind) -> EntryWalk {
        EntryWalk {
            kind,
            unopened: Some(collection),
            stack: Vec::new(),
            failed: false,
            types: ExpandedTypes::default(),
        }
    }

    /// Runs one task: pushes the tasks it expands to (last first).
    fn step(&mut self, decoder: &mut Decoder<'_>, task: Task) -> Result<Option<Item>, DecodeError> {
        match task {
            Task::Yield(item) => return Ok(Some(item)),
            Task::BTree(node) => self.btree_node(decoder, node)?,
            Task::BTreeChild(child) => {
                // The next child is visited after this one's subtree: its node is fetched
                // meanwhile (an internal node's tasks alternate slot, child, slot, …).
                if let Some(Task::BTreeChild(next)) = self.stack.iter().rev().nth(1) {
                    prefetch_pointee_and_before(decoder.heap().image(), next.word, 512);
                }
                if let Some(node) = decoder.opt(&child)? {
                    let node = self.types.expand(decoder, node);
                    self.stack.push(Task::BTree(node));
                }
            }
            Task::Slot(slot) => {
                if self.kind == CollectionKind::Map {
                    if let Some(entry) = map_slot(decoder, &slot)? {
                        return Ok(entry);
                    }
                }
                if let Some(x) = decoder.opt(&slot)? {
                    if self.kind == CollectionKind::Map {
                        return self.pair(decoder, &x).map(Some);
                    }
                    return Ok(Some(Item::Element(x)));
                }
            }
            Task::Blocks {
                blocks,
                b,
                block_index,
                element_index,
            } => {
                let block = decoder.element(&blocks, b)?;
                let mut slots = decoder.array(&block)?;
                if b == block_index {
                    slots.truncate(usize::try_from(element_index).unwrap_or(usize::MAX));
                } else {
                    self.stack.push(Task::Blocks {
                        blocks,
                        b: b + 1,
                        block_index,
                        element_index,
                    });
                }
                self.stack.extend(slots.into_iter().rev().map(Task::Slot));
            }
            Task::Cell { cell, trie } => {
                if let Some(c) = decoder.opt(&cell)? {
                    let (_, parts) = decoder.tuple(&c)?;
                    let [x, rest] = <[LazyValue; 2]>::try_from(parts)
                        .map_err(|_| decoder.mismatch(c.word, "a list cell"))?;
                    self.stack.push(Task::Cell { cell: rest, trie });
                    if trie {
                        let (addr, kv) = decoder.tuple(&x)?;
                        let [k, value] = <[LazyValue; 2]>::try_from(kv)
                            .map_err(|_| decoder.mismatch(x.word, "a (key, value) pair"))?;
                        let key = decoder.field(&k, "key")?;
                        return Ok(Some(Item::Entry { addr, key, value }));
                    }
                    return Ok(Some(Item::Element(x)));
                }
            }
            Task::Reversed(list) => {
                // The whole list's elements, then yielded from the last (bounded by the budget).
                let mut cell = list;
                let mut items = Vec::new();
                while let Some(c) = decoder.opt(&cell)? {
                    let (_, parts) = decoder.tuple(&c)?;
                    let [x, rest] = <[LazyValue; 2]>::try_from(parts)
                        .map_err(|_| decoder.mismatch(c.word, "a list cell"))?;
                    items.push(Task::Yield(Item::Element(x)));
                    cell = rest;
                }
                self.stack.extend(items);
            }
            Task::QueueNode(node) => {
                if let Some(n) = decoder.opt(&node)? {
                    let next = decoder.field(&n, "next")?;
                    let value = decoder.field(&n, "value")?;
                    self.stack.push(Task::QueueNode(next));
                    return Ok(Some(Item::Element(value)));
                }
            }
            Task::Tree(tree) => self.tree_node(decoder, tree)?,
            Task::Trie(trie) => {
                let (tag, body) = decoder.variant(&trie)?;
                match &*tag {
                    "leaf" => {
                        let keyvals = decoder.field(&body, "keyvals")?;
                        self.stack.push(Task::Cell {
                            cell: keyvals,
                            trie: true,
                        });
                    }
                    "branch" => {
                        let (left, right) = (
                            decoder.field(&body, "left")?,
                            decoder.field(&body, "right")?,
                        );
                        self.stack.push(Task::Trie(right));
                        self.stack.push(Task::Trie(left));
                    }
                    _ => {}
                }
            }
        }
        Ok(None)
    }

    /// Pushes a B-tree node's slots and children, in key order (child 0, slot 0, child 1, …).
    fn btree_node(
        &mut self,
        decoder: &mut Decoder<'_>,
        node: LazyValue,
    ) -> Result<(), DecodeError> {
        let node = self.types.expand(decoder, node);
        let (tag, body) = decoder.variant(&node)?;
        let body = self.types.expand(decoder, body);
        let data = decoder.field(&body, "data")?;
        let data = self.types.expand(decoder, data);
        let slots = match self.kind {
            CollectionKind::Map => "kvs",
            _ => "elements",
        };
        let slots_v = decoder.field(&data, slots)?;
        let slots_v = self.types.expand(decoder, slots_v);
        let mut slots = array_parts(decoder, &slots_v, &mut self.types)?;
        let count = decoder.field(&data, "count")?;
        let count = usize::try_from(decoder.nat(&count)?).unwrap_or(usize::MAX);
        slots.truncate(count);
        let mut children = if &*tag == "internal" {
            let children = decoder.field(&body, "children")?;
            let children = self.types.expand(decoder, children);
            array_parts(decoder, &children, &mut self.types)?
        } else {
            Vec::new()
        };
        children.truncate(slots.len() + 1);
        if self.kind == CollectionKind::Map {
            // The entries' `(K, V)` tuples are read one after the other next: their
            // memory is fetched meanwhile.
            let image = decoder.heap().image();
            for slot in &slots {
                prefetch_pointee_and_before(image, slot.word, 64);
            }
        }
        // child 0, slot 0, child 1, …, slot n-1, child n: pushed in reverse.
        let mut children = children.into_iter().rev();
        if children.len() > slots.len() {
            if let Some(c) = children.next() {
                self.stack.push(Task::BTreeChild(c));
            }
        }
        for slot in slots.into_iter().rev() {
            self.stack.push(Task::Slot(slot));
            if let Some(c) = children.next() {
                self.stack.push(Task::BTreeChild(c));
            }
        }
        Ok(())
    }

    /// Pushes a binary tree node's right subtree, its entry and its left subtree (a leaf
    /// pushes nothing).
    fn tree_node(&mut self, decoder: &mut Decoder<'_>, tree: LazyValue) -> Result<(), DecodeError> {
        let (tag, body) = decoder.variant(&tree)?;
        if &*tag == "leaf" {
            return Ok(());
        }
        let (addr, parts) = decoder.tuple(&body)?;
        match (self.kind, &parts[..]) {
            (CollectionKind::PureMap, [l, k, v, r]) => {
                self.stack.push(Task::Tree(r.clone()));
                self.stack.push(Task::Yield(Item::Entry {
                    addr,
                    key: k.clone(),
                    value: v.clone(),
                }));
                self.stack.push(Task::Tree(l.clone()));
            }
            (CollectionKind::PureSet, [l, x, r]) => {
                self.stack.push(Task::Tree(r.clone()));
                self.stack.push(Task::Yield(Item::Element(x.clone())));
                self.stack.push(Task::Tree(l.clone()));
            }
            (CollectionKind::BaseRBTree, [_, l, kv, r]) => {
                self.stack.push(Task::Tree(r.clone()));
                let (addr, kv_parts) = decoder.tuple(kv)?;
                if let [k, ov] = &kv_parts[..] {
                    if let Some(v) = decoder.opt(ov)? {
                        self.stack.push(Task::Yield(Item::Entry {
                            addr,
                            key: k.clone(),
                            value: v,
                        }));
                    }
                }
                self.stack.push(Task::Tree(l.clone()));
            }
            _ => return Err(decoder.mismatch(body.word, "a tree node")),
        }
        Ok(())
    }

    /// A map's `(K, V)` slot payload as an entry.
    fn pair(&mut self, decoder: &mut Decoder<'_>, kv: &LazyValue) -> Result<Item, DecodeError> {
        let (addr, parts) = decoder.tuple(kv)?;
        let [key, value] = <[LazyValue; 2]>::try_from(parts)
            .map_err(|_| decoder.mismatch(kv.word, "a (key, value) pair"))?;
        Ok(Item::Entry { addr, key, value })
    }

    /// The first tasks of a collection whose top is a record (read here, lazily).
    fn open(
        &mut self,
        decoder: &mut Decoder<'_>,
        collection: &LazyValue,
    ) -> Result<(), DecodeError> {
        match self.kind {
            CollectionKind::Map | CollectionKind::Set => {
                let root = decoder.field(collection, "root")?;
                self.stack.push(Task::BTree(root));
            }
            CollectionKind::PriorityQueue => {
                let heap = decoder.field(collection, "heap")?;
                let elements = Entries::new(&mut *decoder, heap, CollectionKind::List)
                    .map(|item| match item? {
                        Item::Element(x) => Ok(x),
                        Item::Entry { value, .. } => Ok(value),
                    })
                    .collect::<Result<Vec<_>, DecodeError>>()?;
                let order = super::pop_order::pop_order(&mut *decoder, &elements)?;
                self.stack.extend(
                    order
                        .into_iter()
                        .rev()
                        .filter_map(|i| elements.get(i).cloned())
                        .map(|x| Task::Yield(Item::Element(x))),
                );
            }
            CollectionKind::List => {
                let list = collection.clone();
                let blocks = decoder.field(&list, "blocks")?;
                let block_index = decoder.field(&list, "blockIndex")?;
                let element_index = decoder.field(&list, "elementIndex")?;
                let (block_index, element_index) =
                    (decoder.nat(&block_index)?, decoder.nat(&element_index)?);
                let len = decoder.len(&blocks)?;
                // blocks[blockIndex] holds the last `elementIndex` elements; while that is 0
                // the block need not exist yet (an empty List is `blocks = [var [var]]`,
                // blockIndex 1), and the elements end with the full block before it
                let (block_index, element_index) = match (block_index, element_index) {
                    (b, _) if b < len => (b, element_index),
                    (b, 0) if b == len && b > 0 => (b - 1, u64::MAX),
                    _ => return Err(decoder.mismatch(blocks.word, "a List's blocks")),
                };
                self.stack.push(Task::Blocks {
                    blocks,
                    b: 0,
                    block_index,
                    element_index,
                });
            }
            CollectionKind::Queue => {
                let front = decoder.field(collection, "front")?;
                self.stack.push(Task::QueueNode(front));
            }
            CollectionKind::Stack => {
                let top = decoder.field(collection, "top")?;
                self.stack.push(Task::Cell {
                    cell: top,
                    trie: false,
                });
            }
            CollectionKind::PureMap | CollectionKind::PureSet => {
                let root = decoder.field(collection, "root")?;
                self.stack.push(Task::Tree(root));
            }
            CollectionKind::PureQueue => {
                let (_, parts) = decoder.tuple(collection)?;
                let [front, _, back] = <[LazyValue; 3]>::try_from(parts)
                    .map_err(|_| decoder.mismatch(collection.word, "a pure Queue"))?;
                self.stack.push(Task::Reversed(back));
                self.stack.push(Task::Cell {
                    cell: front,
                    trie: false,
                });
            }
            CollectionKind::RealTimeQueue => {
                let elements = super::realtime_queue::front_to_back(&mut *decoder, collection)?;
                self.stack.extend(
                    elements
                        .into_iter()
                        .rev()
                        .map(|x| Task::Yield(Item::Element(x))),
                );
            }
            CollectionKind::PureList => self.stack.push(Task::Cell {
                cell: collection.clone(),
                trie: false,
            }),
            CollectionKind::BaseRBTree => self.stack.push(Task::Tree(collection.clone())),
            CollectionKind::BaseTrie => self.stack.push(Task::Trie(collection.clone())),
        }
        Ok(())
    }
}

/// The elements of an array (its type expanded) read from its object's words, spending and
/// checking what `array` would, with no value built; another value goes through `array`.
/// The elements share one type, expanded once here (by `types`), not once per element.
fn array_parts(
    decoder: &mut Decoder<'_>,
    v: &LazyValue,
    types: &mut ExpandedTypes,
) -> Result<Vec<LazyValue>, DecodeError> {
    if let Some(Type::Array { elem, .. }) = v.ty.as_deref() {
        let heap = decoder.heap();
        if decoder.collections.is_none() && heap.is_pointer(v.word) {
            if let Ok(o) = heap.object_of(v.word) {
                if let Some(elems) = o.body.array_elems(ArraySort::may_be_array) {
                    // `shallow`'s step, the object, and its elements.
                    decoder.budget.spend(1, v.word)?;
                    decoder.budget.object(o.addr)?;
                    decoder.budget.spend(elems.len(), o.addr)?;
                    if elems.is_empty() {
                        return Ok(Vec::new());
                    }
                    let ty = types.expand(decoder, LazyValue::typed(0, elem.clone())).ty;
                    return Ok(elems
                        .iter()
                        .map(|w| LazyValue {
                            word: w,
                            ty: ty.clone(),
                        })
                        .collect());
                }
            }
        }
    }
    let mut parts = decoder.array(v)?;
    if let Some(first) = parts.first() {
        let ty = types.expand(decoder, first.clone()).ty;
        for part in &mut parts {
            part.ty.clone_from(&ty);
        }
    }
    Ok(parts)
}

/// A `mo:core` Map's slot `?(K, V)` (its type expanded) read straight from its words when
/// it has the usual shape (`null`, or a `(K, V)` tuple object), spending and checking what
/// `opt` then `tuple` would: the same entry, with no value built. `None`: another shape (a
/// `Some` box, an unexpanded type, a malformed word), nothing spent; the general reads
/// handle it.
fn map_slot(
    decoder: &mut Decoder<'_>,
    slot: &LazyValue,
) -> Result<Option<Option<Item>>, DecodeError> {
    let Some(ty) = &slot.ty else {
        return Ok(None);
    };
    let Type::Opt(inner) = &**ty else {
        return Ok(None);
    };
    let Type::Tuple(parts) = &**inner else {
        return Ok(None);
    };
    let [key_ty, value_ty] = &parts[..] else {
        return Ok(None);
    };
    Ok(map_slot_words(decoder, slot.word)?.map(|entry| {
        entry.map(|e| Item::Entry {
            addr: e.addr,
            key: LazyValue::typed(e.key, key_ty.clone()),
            value: LazyValue::typed(e.value, value_ty.clone()),
        })
    }))
}

/// The key and value types of a `mo:core` Map's slot type `?(K, V)` (expanded), if it is one.
pub(crate) fn map_slot_parts(slot_ty: &Type) -> Option<(&Arc<Type>, &Arc<Type>)> {
    let Type::Opt(inner) = slot_ty else {
        return None;
    };
    let Type::Tuple(parts) = &**inner else {
        return None;
    };
    match &parts[..] {
        [key, value] => Some((key, value)),
        _ => None,
    }
}

/// [`map_slot`]'s reads of the slot `word` (its type checked by the caller): `null` as
/// `Some(None)`, a `(K, V)` tuple object as its words, another shape as `None` (nothing
/// spent).
fn map_slot_words(
    decoder: &mut Decoder<'_>,
    word: u64,
) -> Result<Option<Option<RawEntry>>, DecodeError> {
    if decoder.collections.is_some() {
        // The decoder notes collections it meets: let it see these values.
        return Ok(None);
    }
    let heap = decoder.heap();
    match heap.is_null(word) {
        Ok(true) => {
            decoder.budget.spend(1, word)?;
            return Ok(Some(None));
        }
        Ok(false) if heap.is_pointer(word) => {}
        _ => return Ok(None),
    }
    let (addr, key, value) = match eop_pair(heap.image(), heap.layout(), word) {
        Some(pair) => pair,
        None => {
            let Ok(o) = heap.object_of(word) else {
                return Ok(None);
            };
            let Body::Array { sort, elems, .. } = o.body else {
                return Ok(None);
            };
            if !sort.may_be_tuple() {
                return Ok(None);
            }
            let (2, Some(key), Some(value)) = (elems.len(), elems.get(0), elems.get(1)) else {
                return Ok(None);
            };
            (o.addr, key, value)
        }
    };
    // `opt`'s step, then `tuple`'s: its step, its object and its two elements.
    decoder.budget.spend(1, word)?;
    decoder.budget.spend(1, word)?;
    decoder.budget.object(addr)?;
    decoder.budget.spend(2, addr)?;
    Ok(Some(Some(RawEntry { addr, key, value })))
}

/// A map's entry read from its slot as words: the `(K, V)` tuple's address, the key word and
/// the value word (their types are those of the slot type, see [`map_slot_parts`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RawEntry {
    /// The tuple object's address (an [`Item::Entry`]'s `addr`).
    pub addr: u64,
    /// The key's word.
    pub key: u64,
    /// The value's word.
    pub value: u64,
}

/// What [`EntryWalk::next_raw_entry`] found next.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RawNext {
    /// The next item: a map entry, as its words.
    Entry(RawEntry),
    /// The next item (or the end) needs [`EntryWalk::next_item`].
    Other,
}

impl EntryWalk {
    /// The type of the slot queued next when the walk is a `mo:core` Map's and its next task
    /// is one of a B-tree node's slots (the type a caller of [`EntryWalk::next_raw_entry`]
    /// reads `K` and `V` from).
    pub fn queued_slot_type(&self) -> Option<&Arc<Type>> {
        if self.failed || self.unopened.is_some() || self.kind != CollectionKind::Map {
            return None;
        }
        match self.stack.last() {
            Some(Task::Slot(slot)) => slot.ty.as_ref(),
            _ => None,
        }
    }

    /// The next item as [`EntryWalk::next_item`] reads it (the same reads, checks, spending
    /// and errors), as the words of a map entry when it is one held in a queued B-tree slot
    /// of type `slot_ty` (`?(K, V)`) with the usual shape; [`RawNext::Other`] (nothing done)
    /// when the next item is anything else. A map's entries are read this way without a
    /// value built or a type shared per entry.
    pub fn next_raw_entry(
        &mut self,
        decoder: &mut Decoder<'_>,
        slot_ty: &Arc<Type>,
    ) -> Result<RawNext, DecodeError> {
        if self.failed || self.unopened.is_some() || self.kind != CollectionKind::Map {
            return Ok(RawNext::Other);
        }
        if map_slot_parts(slot_ty).is_none() {
            return Ok(RawNext::Other);
        }
        while let Some(Task::Slot(slot)) = self.stack.last() {
            if !slot.ty.as_ref().is_some_and(|t| Arc::ptr_eq(t, slot_ty)) {
                break;
            }
            let word = slot.word;
            match map_slot_words(decoder, word) {
                Ok(Some(found)) => {
                    self.stack.pop();
                    if let Some(entry) = found {
                        return Ok(RawNext::Entry(entry));
                    }
                }
                Ok(None) => break,
                Err(e) => {
                    self.stack.pop();
                    self.failed = true;
                    return Err(e);
                }
            }
        }
        Ok(RawNext::Other)
    }

    /// Passes over up to `max` items without reading them, when they are slots already
    /// queued (a B-tree node's entries, a List block's elements: a non-null `?T` slot is one
    /// item), and returns how many were passed; 0 when the next item needs a read
    /// ([`EntryWalk::next_item`]). A listing counts a large collection this way: only its
    /// nodes are read. A slot whose payload is malformed is counted here; reading that item
    /// later reports the error.
    pub fn skip_queued(&mut self, decoder: &Decoder<'_>, max: usize) -> usize {
        if self.failed || self.unopened.is_some() {
            return 0;
        }
        let heap = decoder.heap();
        let mut passed = 0;
        while passed < max {
            let Some(Task::Slot(slot)) = self.stack.last() else {
                break;
            };
            if !matches!(slot.ty.as_deref(), Some(Type::Opt(_))) {
                break;
            }
            match heap.is_null(slot.word) {
                Ok(true) => {}
                Ok(false) => passed += 1,
                Err(_) => break,
            }
            self.stack.pop();
        }
        passed
    }

    /// The next entry or element, read with `decoder` (always the same heap's); `None` at the
    /// end and after an error.
    pub fn next_item(&mut self, decoder: &mut Decoder<'_>) -> Option<Result<Item, DecodeError>> {
        if self.failed {
            return None;
        }
        if let Some(c) = self.unopened.take() {
            if let Err(e) = self.open(decoder, &c) {
                self.failed = true;
                return Some(Err(e));
            }
        }
        while let Some(task) = self.stack.pop() {
            let result = self.step(decoder, task);
            match result {
                Ok(Some(item)) => return Some(Ok(item)),
                Ok(None) => {}
                Err(e) => {
                    self.failed = true;
                    return Some(Err(e));
                }
            }
        }
        None
    }
}

impl Iterator for Entries<'_, '_> {
    type Item = Result<Item, DecodeError>;

    fn next(&mut self) -> Option<Self::Item> {
        self.walk.next_item(self.decoder)
    }
}
