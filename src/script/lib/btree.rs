//! Reading a `mo:core` B-tree (`Map`: slots `data.kvs` of `?(k, v)`, `Set`: slots
//! `data.elements` of `?x`; internal nodes add `children : [var ?Node]`), one a canister
//! holds or one a script built ([`super::btree_mut`]): the in-order walks (forward, in
//! reverse, from a key), and the lookups that descend one path from the root with mo:core's
//! own binary search (`get`, `containsKey`, `contains`, `min`, `max`). A lookup reads
//! about `log_32(n)` nodes of a map read lazily from the heap, never the whole structure.

use super::args::wrong;
use super::view;
use crate::script::eval::{trap, EResult, Interp};
use crate::script::value::{NativeIter, Value};
use std::cmp::Ordering;

/// The most levels a B-tree is read to (mo:core's order is 32: 2^64 entries need 13).
const MAX_LEVELS: u32 = 64;

/// Which B-tree: the slot array's field name and the container's name for errors.
#[derive(Clone, Copy)]
pub(super) struct Shape {
    /// `"kvs"` for a `Map`, `"elements"` for a `Set`.
    pub slots: &'static str,
    /// `"Map"` or `"Set"`.
    pub what: &'static str,
    /// Slots hold `(key, value)` entries (a `Map`), else the elements themselves.
    pub keyed: bool,
}

/// A `Map`'s B-tree.
pub(super) const MAP: Shape = Shape {
    slots: "kvs",
    what: "Map",
    keyed: true,
};

/// A `Set`'s B-tree.
pub(super) const SET: Shape = Shape {
    slots: "elements",
    what: "Set",
    keyed: false,
};

/// One node as read: its filled slots (the first `data.count`) and, for an internal node,
/// its array of child slots (each child read only when the walk or search reaches it: a
/// lazily read node's siblings are never decoded).
struct Node {
    slots: Vec<Value>,
    children: Option<Value>,
}

impl Shape {
    /// Reads the node `v` (`#leaf { data }` or `#internal { data; children }`).
    fn node(self, it: &mut Interp, v: &Value) -> EResult<Node> {
        let what = self.what;
        let Some((tag, body)) = view::variant(it, v)? else {
            return Err(wrong(what, "B-tree node", v));
        };
        let data = view::field(it, &body, "data")?
            .ok_or_else(|| trap(format!("{what}: node without data")))?;
        let mut slots = match view::field(it, &data, self.slots)? {
            Some(items) => view::parts(it, &items)?,
            None => Vec::new(),
        };
        if let Some(Value::Nat(n)) = view::field(it, &data, "count")? {
            slots.truncate(usize::try_from(n).unwrap_or(usize::MAX));
        }
        let children = match view::field(it, &body, "children")? {
            Some(children) if &*tag == "internal" => Some(children),
            _ => None,
        };
        Ok(Node { slots, children })
    }

    /// The payload of slot `i` (`?x` → `x`); an empty slot among the filled ones is an error.
    fn payload(self, it: &mut Interp, node: &Node, i: usize) -> EResult<Value> {
        match node.slots.get(i) {
            Some(slot) => match view::option(it, slot)? {
                Some(Some(x)) => Ok(x),
                _ => Err(trap(format!("{}: empty slot in a B-tree node", self.what))),
            },
            None => Err(trap(format!("{}: slot {i} out of the node", self.what))),
        }
    }

    /// Child `i` of an internal node (`None` for a leaf or an empty child slot).
    fn child(self, it: &mut Interp, node: &Node, i: usize) -> EResult<Option<Value>> {
        let Some(children) = &node.children else {
            return Ok(None);
        };
        match view::part(it, children, i as u64)? {
            Some(child) => Ok(view::option(it, &child)?.flatten()),
            None => Ok(None),
        }
    }

    /// The in-order walk of the tree under `root`, one payload at a time (reads the root
    /// node now, every other node when the walk reaches it).
    pub fn stream(self, it: &mut Interp, root: &Value, yields: Yield) -> EResult<Walk> {
        self.stream_dir(it, root, false, yields)
    }

    /// The in-order walk of the tree under `root`, descending in `reverse`.
    pub fn stream_dir(
        self,
        it: &mut Interp,
        root: &Value,
        reverse: bool,
        yields: Yield,
    ) -> EResult<Walk> {
        Ok(Walk {
            shape: self,
            stack: vec![(self.node(it, root)?, 0)],
            yields,
            reverse,
        })
    }

    /// The payload whose key equals `key` by the script's `compare`, descending from `root`
    /// as mo:core's own `get`, `containsKey` and `contains` do ([`binary_search`] in each
    /// node); `None` if there is none.
    pub fn search(
        self,
        it: &mut Interp,
        root: &Value,
        compare: &Value,
        key: &Value,
    ) -> EResult<Option<Value>> {
        let mut node = self.node(it, root)?;
        for _ in 0..MAX_LEVELS {
            let i = match self.find(it, &node, compare, key)? {
                Search::Found(i) => return self.payload(it, &node, i).map(Some),
                Search::NotFound(i) => i,
            };
            match self.child(it, &node, i)? {
                Some(child) => node = self.node(it, &child)?,
                None => return Ok(None),
            }
        }
        Err(self.too_deep())
    }

    /// mo:core's binary search for `key` among the filled slots of `node`.
    fn find(self, it: &mut Interp, node: &Node, compare: &Value, key: &Value) -> EResult<Search> {
        binary_search(
            it,
            self,
            node.slots.len(),
            compare,
            key,
            |it, i| match node.slots.get(i) {
                Some(slot) => Ok(view::option(it, slot)?.flatten()),
                None => Ok(None),
            },
        )
    }

    /// The key of a slot's payload: a map entry's key, a set's element itself.
    pub fn key_of(self, it: &mut Interp, payload: &Value) -> EResult<Value> {
        if self.keyed {
            entry_key(it, payload)
        } else {
            Ok(payload.clone())
        }
    }

    /// The walk over the payloads from `key` on: forward, those not less than `key`
    /// (mo:core's `entriesFrom`, `valuesFrom`); in `reverse`, those not greater, descending
    /// (`reverseEntriesFrom`, `reverseValuesFrom`). It descends one path to `key`, as
    /// mo:core's cursor stack does, then walks on one node at a time.
    pub fn stream_from(
        self,
        it: &mut Interp,
        root: &Value,
        compare: &Value,
        key: &Value,
        reverse: bool,
        yields: Yield,
    ) -> EResult<Walk> {
        let mut stack = Vec::new();
        let mut node = self.node(it, root)?;
        for _ in 0..MAX_LEVELS {
            let n = node.slots.len();
            let (found, i) = match self.find(it, &node, compare, key)? {
                Search::Found(i) => (true, i),
                Search::NotFound(i) => (false, i),
            };
            // the step that emits the first slot to yield here (after the child below)
            let step = match (reverse, found) {
                (false, _) => Some(2 * i + 1),
                (true, true) => Some(2 * (n - 1 - i) + 1),
                (true, false) => (i > 0).then(|| 2 * (n - i) + 1),
            };
            let child = if found {
                None
            } else {
                self.child(it, &node, i)?
            };
            if let Some(step) = step {
                stack.push((node, step));
            }
            match child {
                Some(c) => node = self.node(it, &c)?,
                None => {
                    return Ok(Walk {
                        shape: self,
                        stack,
                        yields,
                        reverse,
                    })
                }
            }
        }
        Err(self.too_deep())
    }

    /// The first (`last == false`) or last payload under `root`, descending the leftmost
    /// or rightmost path; `None` for an empty tree.
    pub fn extreme(self, it: &mut Interp, root: &Value, last: bool) -> EResult<Option<Value>> {
        let mut node = self.node(it, root)?;
        for _ in 0..MAX_LEVELS {
            let edge = if last { node.slots.len() } else { 0 };
            match self.child(it, &node, edge)? {
                Some(child) => node = self.node(it, &child)?,
                None if node.slots.is_empty() => return Ok(None),
                None => {
                    let i = if last { node.slots.len() - 1 } else { 0 };
                    return self.payload(it, &node, i).map(Some);
                }
            }
        }
        Err(self.too_deep())
    }

    fn too_deep(self) -> crate::script::eval::Ctrl {
        trap(format!(
            "{}: B-tree deeper than {MAX_LEVELS} levels",
            self.what
        ))
    }
}

/// Where [`binary_search`] found a key: at slot `i`, or not (`i` is where it would go).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Search {
    Found(usize),
    NotFound(usize),
}

/// mo:core's `BinarySearch.binarySearchNode` for `key` among the first `count` slots of a
/// node (`payload_at(i)`: slot `i`'s payload, `None` for an empty slot), calling
/// `compare(key, k)` in the order mo:core calls it (a script's `compare` may count or print).
pub(super) fn binary_search(
    it: &mut Interp,
    shape: Shape,
    count: usize,
    compare: &Value,
    key: &Value,
    mut payload_at: impl FnMut(&mut Interp, usize) -> EResult<Option<Value>>,
) -> EResult<Search> {
    if count == 0 {
        return Ok(Search::NotFound(0));
    }
    let (mut left, mut right) = (0usize, count);
    while left < right {
        let middle = (left + right) / 2;
        let Some(p) = payload_at(it, middle)? else {
            return Err(trap(format!("{}: empty slot in a B-tree node", shape.what)));
        };
        let k = shape.key_of(it, &p)?;
        match order(it, shape.what, compare, key, &k)? {
            Ordering::Equal => return Ok(Search::Found(middle)),
            Ordering::Greater => left = middle + 1,
            Ordering::Less => right = middle.saturating_sub(1),
        }
    }
    // `left == count`: past the filled slots (core reads the empty slot there, or stops at
    // the end of a full node)
    let p = if left < count {
        payload_at(it, left)?
    } else {
        None
    };
    let Some(p) = p else {
        return Ok(Search::NotFound(left));
    };
    let k = shape.key_of(it, &p)?;
    Ok(match order(it, shape.what, compare, key, &k)? {
        Ordering::Equal => Search::Found(left),
        Ordering::Greater => Search::NotFound(left + 1),
        Ordering::Less => Search::NotFound(left),
    })
}

/// `compare(a, b)` called in the script, as an ordering (`what` names the caller in the
/// trap when the answer is no `Order`).
pub(super) fn order(
    it: &mut Interp,
    what: &str,
    compare: &Value,
    a: &Value,
    b: &Value,
) -> EResult<Ordering> {
    it.tick()?;
    order_value(what, &it.call_value(compare, &[a.clone(), b.clone()])?)
}

/// An ordering as an `Order` value (the library's one conversion).
pub(super) use super::collections::order_value as order_variant;

/// An `Order` value as an ordering.
pub(super) fn order_value(what: &str, v: &Value) -> EResult<Ordering> {
    match v {
        Value::Variant(tv) if &*tv.0 == "less" => Ok(Ordering::Less),
        Value::Variant(tv) if &*tv.0 == "equal" => Ok(Ordering::Equal),
        Value::Variant(tv) if &*tv.0 == "greater" => Ok(Ordering::Greater),
        other => Err(wrong(what, "Order", other)),
    }
}

/// What a [`Walk`] yields of each payload.
#[derive(Clone, Copy)]
pub(super) enum Yield {
    /// The payload as stored: a set's element, a map's `(k, v)`.
    Payload,
    /// A map entry as a fresh `(k, v)` tuple.
    Entry,
    /// A map entry's key.
    Key,
    /// A map entry's value.
    Value,
}

/// The in-order walk of a B-tree, one payload at a time: it holds only the nodes on the path
/// from the root to the current one (at most [`MAX_LEVELS`]), so iterating a map of any size
/// read lazily from the heap decodes one node at a time and keeps memory bounded.
pub(super) struct Walk {
    shape: Shape,
    /// The nodes on the path; a frame's step `2i` visits child `i`, step `2i + 1` emits slot `i`
    /// (in `reverse`, child `n - i` and slot `n - 1 - i` of a node of `n` slots).
    stack: Vec<(Node, usize)>,
    yields: Yield,
    reverse: bool,
}

impl Walk {
    /// The next payload in order, `None` at the end.
    fn advance(&mut self, it: &mut Interp) -> EResult<Option<Value>> {
        let shape = self.shape;
        loop {
            let Some((node, step)) = self.stack.last_mut() else {
                return Ok(None);
            };
            let (i, child_next) = (*step / 2, *step % 2 == 0);
            *step += 1;
            let n = node.slots.len();
            if child_next && i > n {
                self.stack.pop();
                continue;
            }
            if !child_next {
                let slot = if self.reverse {
                    n.checked_sub(1 + i)
                } else {
                    Some(i)
                };
                if let Some(slot) = slot.and_then(|j| node.slots.get(j)).cloned() {
                    it.tick()?;
                    if let Some(Some(x)) = view::option(it, &slot)? {
                        return Ok(Some(x));
                    }
                }
                continue;
            }
            let node: &Node = node;
            let c = if self.reverse { n - i } else { i };
            if let Some(child) = shape.child(it, node, c)? {
                if self.stack.len() as u32 >= MAX_LEVELS {
                    return Err(shape.too_deep());
                }
                let child = shape.node(it, &child)?;
                self.stack.push((child, 0));
            }
        }
    }

    /// The next payload, `None` at the end (for callers that read the payloads themselves).
    pub fn next_payload(&mut self, it: &mut Interp) -> EResult<Option<Value>> {
        self.advance(it)
    }
}

impl NativeIter for Walk {
    fn next(&mut self, it: &mut Interp) -> EResult<Option<Value>> {
        let Some(x) = self.advance(it)? else {
            return Ok(None);
        };
        it.alloc(32)?;
        Ok(Some(match self.yields {
            Yield::Payload => x,
            Yield::Entry => {
                let (k, v) = entry_parts(it, &x)?;
                Value::Tuple(std::rc::Rc::from(vec![k, v]))
            }
            Yield::Key => entry_key(it, &x)?,
            Yield::Value => entry_parts(it, &x)?.1,
        }))
    }
}

/// The key of a map slot's payload `(k, v)`.
pub(super) fn entry_key(it: &mut Interp, kv: &Value) -> EResult<Value> {
    if let Value::Tuple(t) = kv {
        if let [k, _] = &t[..] {
            it.tick()?;
            return Ok(k.clone());
        }
    }
    match &view::parts(it, kv)?[..] {
        [k, _] => Ok(k.clone()),
        _ => Err(wrong("Map", "(key, value)", kv)),
    }
}

/// `(k, v)` of a map entry as a tuple's parts.
pub(super) fn entry_parts(it: &mut Interp, kv: &Value) -> EResult<(Value, Value)> {
    if let Value::Tuple(t) = kv {
        if let [k, v] = &t[..] {
            it.tick()?;
            return Ok((k.clone(), v.clone()));
        }
    }
    match &view::parts(it, kv)?[..] {
        [k, v] => Ok((k.clone(), v.clone())),
        _ => Err(wrong("Map", "(key, value)", kv)),
    }
}
