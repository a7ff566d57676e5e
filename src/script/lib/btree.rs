//! Reading a `mo:core` B-tree held by the canister (`Map`: slots `data.kvs` of `?(k, v)`,
//! `Set`: slots `data.elements` of `?x`; internal nodes add `children : [var ?Node]`): the
//! in-order walk, and the lookups that descend one path from the root, as mo:core's own
//! `get`, `containsKey`, `contains`, `min` and `max` do. A lookup reads about `log_32(n)`
//! nodes of a map read lazily from the heap, never the whole structure.

use super::args::wrong;
use super::view;
use crate::script::eval::{trap, EResult, Interp};
use crate::script::value::{NativeIter, Value};

/// The most levels a B-tree is read to (mo:core's order is 32: 2^64 entries need 13).
const MAX_LEVELS: u32 = 64;

/// Which B-tree: the slot array's field name and the container's name for errors.
#[derive(Clone, Copy)]
pub(super) struct Shape {
    /// `"kvs"` for a `Map`, `"elements"` for a `Set`.
    pub slots: &'static str,
    /// `"Map"` or `"Set"`.
    pub what: &'static str,
}

/// A `Map`'s B-tree.
pub(super) const MAP: Shape = Shape {
    slots: "kvs",
    what: "Map",
};

/// A `Set`'s B-tree.
pub(super) const SET: Shape = Shape {
    slots: "elements",
    what: "Set",
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

    /// Appends every payload under `root` to `out`, in order (the walk keeps its own stack:
    /// no recursion).
    pub fn walk(self, it: &mut Interp, root: &Value, out: &mut Vec<Value>) -> EResult<()> {
        let mut walk = self.stream(it, root, Yield::Payload)?;
        while let Some(x) = walk.advance(it)? {
            out.push(x);
        }
        Ok(())
    }

    /// The in-order walk of the tree under `root`, one payload at a time (reads the root
    /// node now, every other node when the walk reaches it).
    pub fn stream(self, it: &mut Interp, root: &Value, yields: Yield) -> EResult<Walk> {
        Ok(Walk {
            shape: self,
            stack: vec![(self.node(it, root)?, 0)],
            yields,
        })
    }

    /// The payload whose key (`key_of` the payload) equals `key` by the script's `compare`
    /// (called as `compare(key, k)`, as mo:core's binary search does), descending from
    /// `root`; `None` if there is none.
    pub fn search(
        self,
        it: &mut Interp,
        root: &Value,
        compare: &Value,
        key: &Value,
        key_of: fn(&mut Interp, &Value) -> EResult<Value>,
    ) -> EResult<Option<Value>> {
        let mut node = self.node(it, root)?;
        for _ in 0..MAX_LEVELS {
            let (mut lo, mut hi) = (0, node.slots.len());
            while lo < hi {
                let mid = lo + (hi - lo) / 2;
                let payload = self.payload(it, &node, mid)?;
                let k = key_of(it, &payload)?;
                match self.order(it, compare, key, &k)? {
                    std::cmp::Ordering::Equal => return Ok(Some(payload)),
                    std::cmp::Ordering::Less => hi = mid,
                    std::cmp::Ordering::Greater => lo = mid + 1,
                }
            }
            match self.child(it, &node, lo)? {
                Some(child) => node = self.node(it, &child)?,
                None => return Ok(None),
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

    /// `compare(a, b)` called in the script, as an ordering.
    fn order(
        self,
        it: &mut Interp,
        compare: &Value,
        a: &Value,
        b: &Value,
    ) -> EResult<std::cmp::Ordering> {
        it.tick()?;
        match it.call_value(compare, &[a.clone(), b.clone()])? {
            Value::Variant(tv) if &*tv.0 == "less" => Ok(std::cmp::Ordering::Less),
            Value::Variant(tv) if &*tv.0 == "equal" => Ok(std::cmp::Ordering::Equal),
            Value::Variant(tv) if &*tv.0 == "greater" => Ok(std::cmp::Ordering::Greater),
            other => Err(wrong(self.what, "Order", &other)),
        }
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
    /// The nodes on the path; a frame's step `2i` visits child `i`, step `2i + 1` emits slot `i`.
    stack: Vec<(Node, usize)>,
    yields: Yield,
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
            if child_next && i > node.slots.len() {
                self.stack.pop();
                continue;
            }
            if !child_next {
                if let Some(slot) = node.slots.get(i).cloned() {
                    it.tick()?;
                    if let Some(Some(x)) = view::option(it, &slot)? {
                        return Ok(Some(x));
                    }
                }
                continue;
            }
            let node: &Node = node;
            if let Some(child) = shape.child(it, node, i)? {
                if self.stack.len() as u32 >= MAX_LEVELS {
                    return Err(shape.too_deep());
                }
                let child = shape.node(it, &child)?;
                self.stack.push((child, 0));
            }
        }
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
    match &view::parts(it, kv)?[..] {
        [k, _] => Ok(k.clone()),
        _ => Err(wrong("Map", "(key, value)", kv)),
    }
}

/// A set slot's payload is its own key.
pub(super) fn element_key(_: &mut Interp, x: &Value) -> EResult<Value> {
    Ok(x.clone())
}

/// `(k, v)` of a map entry as a tuple's parts.
pub(super) fn entry_parts(it: &mut Interp, kv: &Value) -> EResult<(Value, Value)> {
    match &view::parts(it, kv)?[..] {
        [k, v] => Ok((k.clone(), v.clone())),
        _ => Err(wrong("Map", "(key, value)", kv)),
    }
}
