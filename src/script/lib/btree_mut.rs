//! Building and changing a `mo:core` B-tree (`Map`, `Set`) in a script: the structure is
//! core's own (`{ var root; var size }`, `#leaf`/`#internal` nodes of 31 slots and 32
//! children, `data = { kvs; var count }`), changed by mo:core's insertion and deletion step
//! by step (`Map.swap`, `Map.take`, `Set.insert`, `Set.delete` and their helpers in
//! `internal/BTreeHelper.mo`), so a script's map has the nodes, slots and counts the same
//! program's map has under moc: `debug_show` prints what moc prints, and iteration, `compare`
//! calls and splits happen in the same order. Only trees a script built change: a map the
//! canister holds is read-only ([`Tree::changeable`]).

use super::btree::{binary_search, Search, Shape};
use super::view;
use crate::script::eval::{trap, Ctrl, EResult, Interp};
use crate::script::value::{Record, Value};
use std::cell::RefCell;
use std::rc::Rc;

/// mo:core's `btreeOrder`: children per internal node (slots per node: one less).
pub(super) const ORDER: usize = 32;

/// mo:core's `minKeysFromOrder(32)`: fewer slots than this and a node is merged.
const MIN_KEYS: usize = ORDER / 2 - 1;

/// The most levels a tree is built or copied to (as [`super::btree`] reads them).
const MAX_LEVELS: u32 = 64;

/// Bytes charged for one node built (its slot and child arrays).
const NODE_BYTES: u64 = 16 * (2 * ORDER as u64) + 64;

type Arr = Rc<RefCell<Vec<Value>>>;

/// A node's `data`: its count field's record and its slot array.
struct Data {
    rec: Rc<Record>,
    slots: Arr,
}

/// A node of a tree the script built: its body record (`{ data }` or `{ data; children }`),
/// data and, for an internal node, children.
struct Node {
    body: Rc<Record>,
    data: Data,
    children: Option<Arr>,
}

/// What an insertion below left for the level above (mo:core's `IntermediateInsertResult`).
enum Ins {
    /// Inserted (the replaced payload, if the key was there).
    Done(Option<Value>),
    /// The child split: `payload` goes up between the two halves.
    Promote {
        payload: Value,
        left: Value,
        right: Value,
    },
}

/// What a deletion below left for the level above (`IntermediateInternalDeleteResult`).
enum Del {
    /// Deleted (the payload) or not found.
    Done(Option<Value>),
    /// Deleted, but `child` fell below the minimum and must be rebalanced a level up.
    Merge { child: Node, deleted: Option<Value> },
}

/// What a deletion in a leaf left (`IntermediateLeafDeleteResult`).
enum LeafDel {
    Done(Option<Value>),
    /// The leaf holds the minimum: the payload at this index must go by a merge or borrow.
    Merge(usize),
}

/// The side a borrow takes from (`InorderBorrowType`, `SiblingSide`, `DeletionSide`).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Side {
    Left,
    Right,
}

/// An internal sibling's answer to a borrow (`InternalBorrowResult`).
enum Borrow {
    Borrowed { slot: Value, child: Value },
    NotEnough(Node),
}

fn get(a: &Arr, i: usize) -> EResult<Value> {
    a.borrow()
        .get(i)
        .cloned()
        .ok_or_else(|| trap("index out of bounds"))
}

fn set(a: &Arr, i: usize, v: Value) -> EResult<()> {
    match a.borrow_mut().get_mut(i) {
        Some(s) => {
            *s = v;
            Ok(())
        }
        None => Err(trap("index out of bounds")),
    }
}

fn len(a: &Arr) -> usize {
    a.borrow().len()
}

/// The payload of a slot (`?x`), `None` for `null`.
fn payload(slot: &Value) -> Option<Value> {
    match slot {
        Value::Opt(x) => Some((**x).clone()),
        _ => None,
    }
}

fn nat_field(r: &Record, name: &str) -> EResult<usize> {
    match r.get(name).map(|f| f.get()) {
        Some(Value::Nat(n)) => usize::try_from(n).map_err(|_| trap("B-tree count too large")),
        _ => Err(trap(format!("B-tree record without {name}"))),
    }
}

fn set_nat_field(r: &Record, name: &str, n: usize) -> EResult<()> {
    match r.get(name) {
        Some(f) => {
            f.set(Value::Nat(n as u64));
            Ok(())
        }
        None => Err(trap(format!("B-tree record without {name}"))),
    }
}

/// Whether `r` has a `var` field `name` (a record the script built, not one decoded from
/// the snapshot, whose `var` fields read as plain fields).
pub(super) fn var_field(r: &Record, name: &str) -> bool {
    r.get(name).is_some_and(|f| f.mutable)
}

fn var_array(v: Vec<Value>) -> Value {
    Value::VarArray(Rc::new(RefCell::new(v)))
}

fn nulls(n: usize) -> Vec<Value> {
    vec![Value::Null; n]
}

/// A script-built B-tree being read or changed: which kind (`Map` or `Set`), the `compare`
/// it is ordered by, and the built-in's name for traps.
pub(super) struct Tree<'a> {
    pub shape: Shape,
    pub compare: &'a Value,
    pub who: &'a str,
}

/// A new empty tree record of `shape`: `{ var root = #leaf(...); var size = 0 }`.
pub(super) fn empty(shape: Shape) -> Value {
    tree_record(leaf(data_value(shape, nulls(ORDER - 1), 0)), 0)
}

/// A tree record holding one payload (mo:core's `singleton`).
pub(super) fn singleton(shape: Shape, x: Value) -> Value {
    let mut slots = nulls(ORDER - 1);
    slots[0] = Value::some(x);
    tree_record(leaf(data_value(shape, slots, 1)), 1)
}

fn tree_record(root: Value, size: u64) -> Value {
    Value::record(vec![
        (Rc::from("root"), true, root),
        (Rc::from("size"), true, Value::Nat(size)),
    ])
}

fn data_value(shape: Shape, slots: Vec<Value>, count: usize) -> Value {
    Value::record(vec![
        (Rc::from(shape.slots), false, var_array(slots)),
        (Rc::from("count"), true, Value::Nat(count as u64)),
    ])
}

fn leaf(data: Value) -> Value {
    Value::variant("leaf", Value::record(vec![(Rc::from("data"), false, data)]))
}

fn internal(data: Value, children: Value) -> Value {
    Value::variant(
        "internal",
        Value::record(vec![
            (Rc::from("data"), false, data),
            (Rc::from("children"), false, children),
        ]),
    )
}

/// The `#internal` node value of `n` (its body record itself, not a copy).
fn internal_of(n: &Node) -> Value {
    Value::Variant(Rc::new((
        Rc::from("internal"),
        Value::Record(n.body.clone()),
    )))
}

impl Tree<'_> {
    /// The trap for a tree this built-in may not change (one the canister holds, or a value
    /// of another shape).
    pub fn changeable(&self) -> Ctrl {
        trap(format!(
            "{}: only {}s created by the script can change",
            self.who,
            self.shape.what.to_lowercase()
        ))
    }

    /// The record of a tree the script built.
    fn record<'v>(&self, tree: &'v Value) -> EResult<&'v Rc<Record>> {
        match tree {
            // the canister's maps, decoded, have no `var` fields: a snapshot is read-only
            Value::Record(r) if var_field(r, "root") && var_field(r, "size") => Ok(r),
            _ => Err(self.changeable()),
        }
    }

    fn data(&self, v: &Value) -> EResult<Data> {
        let Value::Record(rec) = v else {
            return Err(self.changeable());
        };
        let slots = match rec.get(self.shape.slots).map(|f| f.get()) {
            Some(Value::VarArray(a)) => a,
            _ => return Err(self.changeable()),
        };
        Ok(Data {
            rec: rec.clone(),
            slots,
        })
    }

    /// The node `v` (`#leaf { data }` or `#internal { data; children }`).
    fn node(&self, v: &Value) -> EResult<Node> {
        let Value::Variant(tv) = v else {
            return Err(self.changeable());
        };
        let Value::Record(body) = &tv.1 else {
            return Err(self.changeable());
        };
        let data = self.data(&body.get("data").map(|f| f.get()).unwrap_or_default())?;
        let children = match (&*tv.0, body.get("children").map(|f| f.get())) {
            ("internal", Some(Value::VarArray(a))) => Some(a),
            ("leaf", _) => None,
            _ => return Err(self.changeable()),
        };
        Ok(Node {
            body: body.clone(),
            data,
            children,
        })
    }

    /// The child node in slot `i` of `children` (a trap where mo:core finds none).
    fn child(&self, children: &Arr, i: usize) -> EResult<Node> {
        match payload(&get(children, i)?) {
            Some(c) => self.node(&c),
            None => Err(trap(format!(
                "{}: missing child in a B-tree node",
                self.who
            ))),
        }
    }

    fn count(&self, d: &Data) -> EResult<usize> {
        nat_field(&d.rec, "count")
    }

    fn set_count(&self, d: &Data, n: usize) -> EResult<()> {
        set_nat_field(&d.rec, "count", n)
    }

    /// mo:core's `getKeyIndex`: the binary search over the filled slots.
    fn find(&self, it: &mut Interp, d: &Data, key: &Value) -> EResult<Search> {
        let count = self.count(d)?;
        let slots = d.slots.clone();
        binary_search(it, self.shape, count, self.compare, key, |_, i| {
            Ok(payload(&get(&slots, i)?))
        })
    }

    /// `Map.swap` / `Set.insert`: adds `x` (a map's `(key, value)` entry or a set's
    /// element) to the tree, replacing the payload of an equal key; the replaced payload.
    pub fn insert(&self, it: &mut Interp, tree: &Value, x: Value) -> EResult<Option<Value>> {
        let rec = self.record(tree)?;
        let key = self.shape.key_of(it, &x)?;
        let root = self.node(&rec.get("root").map(|f| f.get()).unwrap_or_default())?;
        let r = self.insert_in(it, &root, &key, x, 0)?;
        let size = nat_field(rec, "size")?;
        match r {
            Ins::Done(old) => {
                if old.is_none() {
                    set_nat_field(rec, "size", size + 1)?;
                }
                Ok(old)
            }
            Ins::Promote {
                payload,
                left,
                right,
            } => {
                it.alloc(NODE_BYTES)?;
                let mut slots = nulls(ORDER - 1);
                slots[0] = Value::some(payload);
                let mut children = nulls(ORDER);
                children[0] = Value::some(left);
                children[1] = Value::some(right);
                let root = internal(data_value(self.shape, slots, 1), var_array(children));
                if let Some(f) = rec.get("root") {
                    f.set(root);
                }
                set_nat_field(rec, "size", size + 1)?;
                Ok(None)
            }
        }
    }

    /// `leafInsertHelper` and `internalInsertHelper`.
    fn insert_in(
        &self,
        it: &mut Interp,
        node: &Node,
        key: &Value,
        x: Value,
        depth: u32,
    ) -> EResult<Ins> {
        if depth > MAX_LEVELS {
            return Err(trap(format!("{}: B-tree too deep", self.who)));
        }
        let count = self.count(&node.data)?;
        let i = match self.find(it, &node.data, key)? {
            Search::Found(i) => {
                let prev = get(&node.data.slots, i)?;
                set(&node.data.slots, i, Value::some(x))?;
                return Ok(Ins::Done(payload(&prev)));
            }
            Search::NotFound(i) => i,
        };
        let Some(children) = &node.children else {
            // a leaf
            if count >= ORDER - 1 {
                let (l, mid, r) = insert_one_and_split(&node.data.slots, x, i)?;
                it.alloc(2 * NODE_BYTES)?;
                return Ok(Ins::Promote {
                    payload: mid,
                    left: leaf(data_value(self.shape, l, ORDER / 2)),
                    right: leaf(data_value(self.shape, r, ORDER / 2 - 1)),
                });
            }
            self.insert_non_full(&node.data, Value::some(x), i)?;
            return Ok(Ins::Done(None));
        };
        let child = self.child(children, i)?;
        let (promoted, left, right) = match self.insert_in(it, &child, key, x, depth + 1)? {
            Ins::Done(old) => return Ok(Ins::Done(old)),
            Ins::Promote {
                payload,
                left,
                right,
            } => (payload, left, right),
        };
        if count >= ORDER - 1 {
            let (lk, mid, rk) = insert_one_and_split(&node.data.slots, promoted, i)?;
            let (lc, rc) = split_children_and_insert_two(children, i, left, right)?;
            it.alloc(2 * NODE_BYTES)?;
            return Ok(Ins::Promote {
                payload: mid,
                left: internal(data_value(self.shape, lk, ORDER / 2), var_array(lc)),
                right: internal(data_value(self.shape, rk, ORDER / 2 - 1), var_array(rc)),
            });
        }
        self.insert_non_full(&node.data, Value::some(promoted), i)?;
        insert_rebalanced_child(children, i, left, right)?;
        Ok(Ins::Done(None))
    }

    /// `NodeUtil.insertAtIndexOfNonFullNodeData`.
    fn insert_non_full(&self, d: &Data, slot: Value, i: usize) -> EResult<()> {
        let count = self.count(d)?;
        insert_at_position(&d.slots, slot, i, count.saturating_sub(1))?;
        self.set_count(d, count + 1)
    }

    /// `Map.take` / `Set.delete`: removes the payload whose key equals `key`; it, if there
    /// was one.
    pub fn take(&self, it: &mut Interp, tree: &Value, key: &Value) -> EResult<Option<Value>> {
        let rec = self.record(tree)?;
        let root = self.node(&rec.get("root").map(|f| f.get()).unwrap_or_default())?;
        let size = nat_field(rec, "size")?;
        if root.children.is_none() {
            return match self.find(it, &root.data, key)? {
                Search::Found(i) => {
                    let count = self.count(&root.data)?;
                    self.set_count(&root.data, count.saturating_sub(1))?;
                    let deleted = delete_and_shift(&root.data.slots, i)?;
                    set_nat_field(rec, "size", size.saturating_sub(1))?;
                    Ok(Some(deleted))
                }
                Search::NotFound(_) => Ok(None),
            };
        }
        let deleted = match self.delete_in(it, &root, key, false, 0)? {
            Del::Done(v) => v,
            Del::Merge { child, deleted } => {
                let new_root = if self.count(&child.data)? > 0 {
                    internal_of(&child)
                } else {
                    let children = child.children.as_ref().ok_or_else(|| self.changeable())?;
                    payload(&get(children, 0)?).ok_or_else(|| {
                        trap(format!("{}: deletion left no replacement node", self.who))
                    })?
                };
                if let Some(f) = rec.get("root") {
                    f.set(new_root);
                }
                deleted
            }
        };
        if deleted.is_some() {
            set_nat_field(rec, "size", size.saturating_sub(1))?;
        }
        Ok(deleted)
    }

    /// `leafDeleteHelper`.
    fn delete_in_leaf(&self, it: &mut Interp, leaf: &Node, key: &Value) -> EResult<LeafDel> {
        match self.find(it, &leaf.data, key)? {
            Search::Found(i) => {
                let count = self.count(&leaf.data)?;
                if count > MIN_KEYS {
                    self.set_count(&leaf.data, count - 1)?;
                    Ok(LeafDel::Done(Some(delete_and_shift(&leaf.data.slots, i)?)))
                } else {
                    Ok(LeafDel::Merge(i))
                }
            }
            Search::NotFound(_) => Ok(LeafDel::Done(None)),
        }
    }

    /// `internalDeleteHelper`: deletes `key` under `node` (`skip`: the key at this level was
    /// just replaced by its in-order predecessor, which is deleted below instead).
    fn delete_in(
        &self,
        it: &mut Interp,
        node: &Node,
        key: &Value,
        skip: bool,
        depth: u32,
    ) -> EResult<Del> {
        if depth > MAX_LEVELS {
            return Err(trap(format!("{}: B-tree too deep", self.who)));
        }
        let children = node.children.as_ref().ok_or_else(|| self.changeable())?;
        let ci = match (self.find(it, &node.data, key)?, skip) {
            (Search::Found(di), false) => {
                let deleted = payload(&get(&node.data.slots, di)?);
                let replace = self.max_payload(&get(children, di)?)?;
                set(&node.data.slots, di, Value::some(replace.clone()))?;
                let rkey = self.shape.key_of(it, &replace)?;
                return Ok(match self.delete_in(it, node, &rkey, true, depth)? {
                    Del::Done(_) => Del::Done(deleted),
                    Del::Merge { child, .. } => Del::Merge { child, deleted },
                });
            }
            (Search::Found(ci), true) | (Search::NotFound(ci), _) => ci,
        };
        let child = self.child(children, ci)?;
        if child.children.is_some() {
            let (ichild, deleted) = match self.delete_in(it, &child, key, false, depth + 1)? {
                Del::Done(v) => return Ok(Del::Done(v)),
                Del::Merge { child, deleted } => (child, deleted),
            };
            if ci == 0 {
                match self.borrow_internal(children, 1, Side::Right)? {
                    Borrow::Borrowed { slot, child } => {
                        self.rotate(node, 0, slot, child, &ichild, Side::Right)?;
                        return Ok(Del::Done(deleted));
                    }
                    Borrow::NotEnough(sibling) => {
                        let pushed = Value::some(delete_and_shift(&node.data.slots, 0)?);
                        let count = self.count(&node.data)?;
                        self.set_count(&node.data, count - 1)?;
                        let merged = self.merge_internal(it, &ichild, pushed, &sibling)?;
                        set(children, 0, Value::some(merged))?;
                        delete_and_shift(children, 1)?;
                        return self.after_merge(node, deleted);
                    }
                }
            }
            let left_sibling = match self.borrow_internal(children, ci - 1, Side::Left)? {
                Borrow::Borrowed { slot, child } => {
                    self.rotate(node, ci - 1, slot, child, &ichild, Side::Left)?;
                    return Ok(Del::Done(deleted));
                }
                Borrow::NotEnough(sibling) => sibling,
            };
            if ci < self.count(&node.data)? {
                // mo:core asks the child itself here (`borrowFromInternalSibling(children,
                // childIndex, #successor)`), which never has a key to spare
                if let Borrow::Borrowed { slot, child } =
                    self.borrow_internal(children, ci, Side::Right)?
                {
                    self.rotate(node, ci, slot, child, &ichild, Side::Right)?;
                    return Ok(Del::Done(deleted));
                }
            }
            let pushed = Value::some(delete_and_shift(&node.data.slots, ci - 1)?);
            let count = self.count(&node.data)?;
            self.set_count(&node.data, count - 1)?;
            let merged = self.merge_internal(it, &left_sibling, pushed, &ichild)?;
            set(children, ci - 1, Value::some(merged))?;
            delete_and_shift(children, ci)?;
            return self.after_merge(node, deleted);
        }
        let di = match self.delete_in_leaf(it, &child, key)? {
            LeafDel::Done(v) => return Ok(Del::Done(v)),
            LeafDel::Merge(di) => di,
        };
        let child_count = self.count(&child.data)?;
        if ci == 0 {
            if let Some(b) = self.borrow_leaf(children, 1, Side::Right)? {
                let pushed = get(&node.data.slots, 0)?;
                set(&node.data.slots, 0, b)?;
                let deleted = insert_and_delete_at(&child.data.slots, pushed, child_count - 1, di)?;
                return Ok(Del::Done(Some(deleted)));
            }
            let right = self.child(children, 1)?;
            if right.children.is_some() {
                return Err(self.changeable());
            }
            let parent = get(&node.data.slots, 0)?;
            let (merged, deleted) =
                self.merge_leaves(it, parent, &child, &right, di, Side::Left)?;
            delete_and_shift(&node.data.slots, 0)?;
            replace_two_and_shift(children, merged, 0)?;
            let count = self.count(&node.data)?;
            self.set_count(&node.data, count - 1)?;
            return self.after_merge(node, Some(deleted));
        }
        if let Some(b) = self.borrow_leaf(children, ci - 1, Side::Left)? {
            let pushed = get(&node.data.slots, ci - 1)?;
            set(&node.data.slots, ci - 1, b)?;
            let deleted = insert_and_delete_at(&child.data.slots, pushed, 0, di)?;
            return Ok(Del::Done(Some(deleted)));
        }
        if ci < self.count(&node.data)? {
            if let Some(b) = self.borrow_leaf(children, ci + 1, Side::Right)? {
                let pushed = get(&node.data.slots, ci)?;
                set(&node.data.slots, ci, b)?;
                let deleted = insert_and_delete_at(&child.data.slots, pushed, child_count - 1, di)?;
                return Ok(Del::Done(Some(deleted)));
            }
        }
        let left = self.child(children, ci - 1)?;
        if left.children.is_some() {
            return Err(self.changeable());
        }
        let parent = get(&node.data.slots, ci - 1)?;
        let (merged, deleted) = self.merge_leaves(it, parent, &left, &child, di, Side::Right)?;
        delete_and_shift(&node.data.slots, ci - 1)?;
        replace_two_and_shift(children, merged, ci - 1)?;
        let count = self.count(&node.data)?;
        self.set_count(&node.data, count - 1)?;
        self.after_merge(node, Some(deleted))
    }

    /// After a merge took one of `node`'s keys: done, or `node` itself needs rebalancing.
    fn after_merge(&self, node: &Node, deleted: Option<Value>) -> EResult<Del> {
        if self.count(&node.data)? < MIN_KEYS {
            Ok(Del::Merge {
                child: Node {
                    body: node.body.clone(),
                    data: Data {
                        rec: node.data.rec.clone(),
                        slots: node.data.slots.clone(),
                    },
                    children: node.children.clone(),
                },
                deleted,
            })
        } else {
            Ok(Del::Done(deleted))
        }
    }

    /// `NodeUtil.getMaxKeyValue`: the rightmost payload under the node in slot `v`.
    fn max_payload(&self, v: &Value) -> EResult<Value> {
        let mut node = match payload(v) {
            Some(n) => self.node(&n)?,
            None => return Err(trap(format!("{}: missing node", self.who))),
        };
        for _ in 0..MAX_LEVELS {
            let count = self.count(&node.data)?;
            match &node.children {
                None => {
                    return count
                        .checked_sub(1)
                        .map(|i| get(&node.data.slots, i))
                        .transpose()?
                        .as_ref()
                        .and_then(payload)
                        .ok_or_else(|| trap(format!("{}: empty B-tree node", self.who)));
                }
                Some(children) => {
                    let c = self.child(children, count)?;
                    node = c;
                }
            }
        }
        Err(trap(format!("{}: B-tree too deep", self.who)))
    }

    /// `NodeUtil.borrowFromLeafChild`: the slot a leaf sibling in `children[i]` can spare
    /// (its last for `Left`, its first for `Right`), if it has more than the minimum.
    fn borrow_leaf(&self, children: &Arr, i: usize, side: Side) -> EResult<Option<Value>> {
        let sibling = self.child(children, i)?;
        if sibling.children.is_some() {
            return Err(trap(format!("{}: a leaf's sibling is internal", self.who)));
        }
        let count = self.count(&sibling.data)?;
        if count <= min_keys(len(children)) {
            return Ok(None);
        }
        self.set_count(&sibling.data, count - 1)?;
        Ok(Some(match side {
            Side::Left => {
                let slot = get(&sibling.data.slots, count - 1)?;
                set(&sibling.data.slots, count - 1, Value::Null)?;
                slot
            }
            Side::Right => Value::some(delete_and_shift(&sibling.data.slots, 0)?),
        }))
    }

    /// `NodeUtil.borrowFromInternalSibling`: a slot and child the internal node in
    /// `children[i]` can spare, or that node if it cannot.
    fn borrow_internal(&self, children: &Arr, i: usize, side: Side) -> EResult<Borrow> {
        let sibling = self.child(children, i)?;
        let Some(sc) = &sibling.children else {
            return Err(trap(format!(
                "{}: an internal node's sibling is a leaf",
                self.who
            )));
        };
        let count = self.count(&sibling.data)?;
        if count <= min_keys(len(children)) {
            return Ok(Borrow::NotEnough(sibling));
        }
        self.set_count(&sibling.data, count - 1)?;
        let count = count - 1;
        Ok(match side {
            Side::Left => {
                let slot = get(&sibling.data.slots, count)?;
                set(&sibling.data.slots, count, Value::Null)?;
                let child = get(sc, count + 1)?;
                set(sc, count + 1, Value::Null)?;
                Borrow::Borrowed { slot, child }
            }
            Side::Right => Borrow::Borrowed {
                slot: Value::some(delete_and_shift(&sibling.data.slots, 0)?),
                child: Value::some(delete_and_shift(sc, 0)?),
            },
        })
    }

    /// `NodeUtil.rotateBorrowedKVsAndChildFromSibling`.
    fn rotate(
        &self,
        node: &Node,
        parent_index: usize,
        slot: Value,
        child: Value,
        recipient: &Node,
        side: Side,
    ) -> EResult<()> {
        let rcount = self.count(&recipient.data)?;
        let (slot_index, child_index) = match side {
            Side::Left => (0, 0),
            Side::Right => (rcount, rcount + 1),
        };
        let pushed = get(&node.data.slots, parent_index)?;
        set(&node.data.slots, parent_index, slot)?;
        self.insert_non_full(&recipient.data, pushed, slot_index)?;
        let rchildren = recipient
            .children
            .as_ref()
            .ok_or_else(|| self.changeable())?;
        insert_at_position(rchildren, child, child_index, self.count(&recipient.data)?)
    }

    /// `NodeUtil.mergeChildrenAndPushDownParent`: a new internal node of `left`'s slots,
    /// `parent` and `right`'s slots, and both nodes' children.
    fn merge_internal(
        &self,
        it: &mut Interp,
        left: &Node,
        parent: Value,
        right: &Node,
    ) -> EResult<Value> {
        it.alloc(NODE_BYTES)?;
        let (lc, rc) = (self.count(&left.data)?, self.count(&right.data)?);
        let n = len(&left.data.slots);
        if lc > min_keys(n + 1) || rc > min_keys(len(&right.data.slots) + 1) {
            return Err(trap("assertion failure"));
        }
        let mut slots = nulls(n);
        {
            let l = left.data.slots.borrow();
            let r = right.data.slots.borrow();
            let mut i = 0;
            for x in l.iter().take(lc) {
                *slots
                    .get_mut(i)
                    .ok_or_else(|| trap("index out of bounds"))? = x.clone();
                i += 1;
            }
            *slots
                .get_mut(i)
                .ok_or_else(|| trap("index out of bounds"))? = parent;
            i += 1;
            for x in r.iter().take(rc) {
                *slots
                    .get_mut(i)
                    .ok_or_else(|| trap("index out of bounds"))? = x.clone();
                i += 1;
            }
        }
        let (Some(lch), Some(rch)) = (&left.children, &right.children) else {
            return Err(self.changeable());
        };
        let mut children = nulls(len(lch));
        {
            let l = lch.borrow();
            let r = rch.borrow();
            let mut i = 0;
            let mut out = |x: &Value| -> EResult<()> {
                *children
                    .get_mut(i)
                    .ok_or_else(|| trap("index out of bounds"))? = x.clone();
                i += 1;
                Ok(())
            };
            for x in l.iter().take_while(|x| payload(x).is_some()) {
                out(x)?;
            }
            for x in r.iter().take_while(|x| payload(x).is_some()) {
                out(x)?;
            }
        }
        Ok(internal(
            data_value(self.shape, slots, lc + 1 + rc),
            var_array(children),
        ))
    }

    /// `mergeParentWithLeftRightChildLeafNodesAndDelete`: a new leaf of both leaves' slots
    /// and `parent` between them, less the slot `di` of the `side` leaf; it and the payload
    /// deleted.
    fn merge_leaves(
        &self,
        it: &mut Interp,
        parent: Value,
        left: &Node,
        right: &Node,
        di: usize,
        side: Side,
    ) -> EResult<(Value, Value)> {
        it.alloc(NODE_BYTES)?;
        let cc = self.count(&left.data)?;
        let l = left.data.slots.borrow().clone();
        let r = right.data.slots.borrow().clone();
        let at =
            |a: &[Value], i: usize| a.get(i).cloned().ok_or_else(|| trap("index out of bounds"));
        let mut merged = nulls(l.len());
        let put = |m: &mut Vec<Value>, i: usize, v: Value| -> EResult<()> {
            *m.get_mut(i).ok_or_else(|| trap("index out of bounds"))? = v;
            Ok(())
        };
        let deleted;
        let mut i = 0;
        match side {
            Side::Left => {
                deleted = payload(&at(&l, di)?);
                while i < cc {
                    put(
                        &mut merged,
                        i,
                        if i < di { at(&l, i)? } else { at(&l, i + 1)? },
                    )?;
                    i += 1;
                }
                put(&mut merged, cc.wrapping_sub(1), parent)?;
                while i < cc * 2 {
                    put(&mut merged, i, at(&r, i - cc)?)?;
                    i += 1;
                }
            }
            Side::Right => {
                deleted = payload(&at(&r, di)?);
                while i < cc {
                    put(&mut merged, i, at(&l, i)?)?;
                    i += 1;
                }
                put(&mut merged, cc, parent)?;
                i += 1;
                let mut j = 0;
                while i < cc * 2 {
                    put(
                        &mut merged,
                        i,
                        if j < di { at(&r, j)? } else { at(&r, j + 1)? },
                    )?;
                    i += 1;
                    j += 1;
                }
            }
        }
        let deleted =
            deleted.ok_or_else(|| trap(format!("{}: deleting an empty slot", self.who)))?;
        Ok((leaf(data_value(self.shape, merged, cc * 2)), deleted))
    }
}

/// `NodeUtil.minKeysFromOrder`.
fn min_keys(order: usize) -> usize {
    if order.is_multiple_of(2) {
        (order / 2).saturating_sub(1)
    } else {
        order / 2
    }
}

/// `BTreeHelper.insertAtPosition`: puts `x` at `i`, shifting the slots up to `last` one up.
fn insert_at_position(a: &Arr, x: Value, i: usize, last: usize) -> EResult<()> {
    if i == last + 1 {
        return set(a, i, x);
    }
    let mut j = last;
    loop {
        set(a, j + 1, get(a, j)?)?;
        if j == i {
            return set(a, j, x);
        }
        j = j
            .checked_sub(1)
            .ok_or_else(|| trap("arithmetic overflow"))?;
    }
}

/// `BTreeHelper.insertOneAtIndexAndSplitArray`: the two halves of the full slot array `a`
/// with `x` inserted at `i`, and the middle payload promoted between them.
fn insert_one_and_split(a: &Arr, x: Value, i: usize) -> EResult<(Vec<Value>, Value, Vec<Value>)> {
    let a = a.borrow().clone();
    let n = a.len();
    let split = n.div_ceil(2);
    let at = |k: usize| a.get(k).cloned().ok_or_else(|| trap("index out of bounds"));
    let mut left = Vec::with_capacity(n);
    for k in 0..n {
        left.push(if k >= split {
            Value::Null
        } else if i >= split || k < i {
            at(k)?
        } else if k > i {
            at(k - 1)?
        } else {
            Value::some(x.clone())
        });
    }
    let mut right = Vec::with_capacity(n);
    let middle = if i > split {
        for k in 0..n {
            let adj = k + split + 1;
            right.push(if adj > n {
                Value::Null
            } else if adj < i {
                at(adj)?
            } else if adj > i {
                at(adj - 1)?
            } else {
                Value::some(x.clone())
            });
        }
        at(split)?
    } else {
        for k in 0..n {
            let adj = k + split;
            right.push(if adj < n { at(adj)? } else { Value::Null });
        }
        if i < split {
            at(split - 1)?
        } else {
            Value::some(x)
        }
    };
    match payload(&middle) {
        Some(m) => Ok((left, m, right)),
        None => Err(trap("B-tree split without a middle element")),
    }
}

/// `BTreeHelper.splitArrayAndInsertTwo`: the full children array split in two halves, the
/// child at `i` replaced by `l` and `r`.
fn split_children_and_insert_two(
    children: &Arr,
    i: usize,
    l: Value,
    r: Value,
) -> EResult<(Vec<Value>, Vec<Value>)> {
    let c = children.borrow().clone();
    let n = c.len();
    let split = n / 2;
    let at = |k: usize| c.get(k).cloned().ok_or_else(|| trap("index out of bounds"));
    let mut left = Vec::with_capacity(n);
    for k in 0..n {
        left.push(if k > split {
            Value::Null
        } else if k < i {
            at(k)?
        } else if k == i {
            Value::some(l.clone())
        } else if k == i + 1 {
            Value::some(r.clone())
        } else {
            at(k - 1)?
        });
    }
    let mut right = Vec::with_capacity(n);
    if i < split {
        for k in 0..n {
            let adj = k + split;
            right.push(if adj < n { at(adj)? } else { Value::Null });
        }
    } else if i > split {
        let mut offset = 0;
        for k in 0..n {
            let adj = k + split + 1;
            right.push(if adj == i {
                Value::some(l.clone())
            } else if adj == i + 1 {
                offset = 1;
                Value::some(r.clone())
            } else if adj <= n {
                at(adj - offset)?
            } else {
                Value::Null
            });
        }
    } else {
        for k in 0..n {
            right.push(if k == 0 {
                Value::some(r.clone())
            } else {
                let adj = k + split;
                if adj < n {
                    at(adj)?
                } else {
                    Value::Null
                }
            });
        }
    }
    Ok((left, right))
}

/// `NodeUtil.insertRebalancedChild`: the child at `i` replaced by `l` and `r`, the later
/// ones shifted up.
fn insert_rebalanced_child(children: &Arr, i: usize, l: Value, r: Value) -> EResult<()> {
    let n = len(children);
    let mut j = n
        .checked_sub(2)
        .ok_or_else(|| trap("index out of bounds"))?;
    if payload(&get(children, j + 1)?).is_some() {
        return Err(trap("assertion failure"));
    }
    while j > i {
        set(children, j + 1, get(children, j)?)?;
        j -= 1;
    }
    set(children, j, Value::some(l))?;
    set(children, j + 1, Value::some(r))
}

/// `BTreeHelper.deleteAndShift`: the payload at `i`, removed, the later ones shifted down.
fn delete_and_shift(a: &Arr, i: usize) -> EResult<Value> {
    let deleted = payload(&get(a, i)?).ok_or_else(|| trap("B-tree: deleting an empty slot"))?;
    set(a, i, Value::Null)?;
    let n = len(a);
    let mut k = i + 1;
    while k < n {
        let x = get(a, k)?;
        if payload(&x).is_none() {
            break;
        }
        set(a, k - 1, x)?;
        k += 1;
    }
    set(a, k - 1, Value::Null)?;
    Ok(deleted)
}

/// `BTreeHelper.replaceTwoWithElementAndShift`: slots `i` and `i + 1` replaced by `x`.
fn replace_two_and_shift(a: &Arr, x: Value, i: usize) -> EResult<()> {
    set(a, i, Value::some(x))?;
    let end = len(a).saturating_sub(1);
    let mut k = i + 1;
    while k < end {
        if payload(&get(a, k)?).is_none() {
            return Ok(());
        }
        set(a, k, get(a, k + 1)?)?;
        k += 1;
    }
    set(a, end, Value::Null)
}

/// `BTreeHelper.insertAtPostionAndDeleteAtPosition`: the payload at `di`, removed while
/// the slot `x` goes in at `ii`.
fn insert_and_delete_at(a: &Arr, x: Value, ii: usize, di: usize) -> EResult<Value> {
    let deleted = payload(&get(a, di)?).ok_or_else(|| trap("B-tree: deleting an empty slot"))?;
    if ii < di {
        let mut k = di;
        while k > ii {
            set(a, k, get(a, k - 1)?)?;
            k -= 1;
        }
        set(a, ii, x)?;
    } else if ii > di {
        set(a, di, Value::Null)?;
        let n = len(a);
        let mut k = di + 1;
        loop {
            if k >= n {
                return Err(trap("assertion failure"));
            }
            if k == ii {
                set(a, k - 1, get(a, k)?)?;
                set(a, k, x)?;
                break;
            }
            set(a, k - 1, get(a, k)?)?;
            k += 1;
        }
    } else {
        set(a, di, x)?;
    }
    Ok(deleted)
}

/// A copy of the tree under `node` (read through [`view`]: a tree the canister holds too),
/// each map entry's value replaced by `project(key, value)` when given: mo:core's
/// `mapNode`/`cloneNode`, which visits each node's slots, then its children in order.
pub(super) fn copy_node(
    it: &mut Interp,
    shape: Shape,
    node: &Value,
    project: Option<&Value>,
    depth: u32,
) -> EResult<Value> {
    if depth > MAX_LEVELS {
        return Err(trap(format!(
            "{}: B-tree deeper than {MAX_LEVELS} levels",
            shape.what
        )));
    }
    let Some((tag, body)) = view::variant(it, node)? else {
        return Err(super::args::wrong(shape.what, "B-tree node", node));
    };
    let data = view::field(it, &body, "data")?
        .ok_or_else(|| trap(format!("{}: node without data", shape.what)))?;
    let slots = match view::field(it, &data, shape.slots)? {
        Some(s) => view::parts(it, &s)?,
        None => Vec::new(),
    };
    let count = view::field(it, &data, "count")?.unwrap_or(Value::Nat(0));
    it.alloc(NODE_BYTES)?;
    let mut new_slots = Vec::with_capacity(slots.len());
    for slot in slots {
        new_slots.push(match view::option(it, &slot)? {
            Some(Some(x)) => Value::some(copy_payload(it, shape, &x, project)?),
            _ => Value::Null,
        });
    }
    let data = Value::record(vec![
        (Rc::from(shape.slots), false, var_array(new_slots)),
        (Rc::from("count"), true, count),
    ]);
    if &*tag != "internal" {
        return Ok(leaf(data));
    }
    let children = match view::field(it, &body, "children")? {
        Some(c) => view::parts(it, &c)?,
        None => Vec::new(),
    };
    let mut new_children = Vec::with_capacity(children.len());
    for c in children {
        new_children.push(match view::option(it, &c)? {
            Some(Some(n)) => Value::some(copy_node(it, shape, &n, project, depth + 1)?),
            _ => Value::Null,
        });
    }
    Ok(internal(data, var_array(new_children)))
}

/// One slot's payload copied: a map entry as a fresh `(key, value)` tuple (its value
/// projected), a set element as it is.
fn copy_payload(
    it: &mut Interp,
    shape: Shape,
    x: &Value,
    project: Option<&Value>,
) -> EResult<Value> {
    if !shape.keyed {
        return Ok(x.clone());
    }
    let (k, v) = super::btree::entry_parts(it, x)?;
    let v = match project {
        Some(f) => it.call_value(f, &[k.clone(), v])?,
        None => v,
    };
    Ok(Value::Tuple(Rc::from(vec![k, v])))
}

/// A copy of the tree record `tree` (`Map.clone`, `Map.map`, `Set.clone`).
pub(super) fn copy_tree(
    it: &mut Interp,
    shape: Shape,
    tree: &Value,
    project: Option<&Value>,
) -> EResult<Value> {
    let root = view::field(it, tree, "root")?
        .ok_or_else(|| super::args::wrong(shape.what, shape.what, tree))?;
    let size = match view::field(it, tree, "size")? {
        Some(n @ Value::Nat(_)) => n,
        _ => Value::Nat(0),
    };
    let root = copy_node(it, shape, &root, project, 0)?;
    Ok(Value::record(vec![
        (Rc::from("root"), true, root),
        (Rc::from("size"), true, size),
    ]))
}

/// Empties the script's tree record `tree` (`Map.clear`, `Set.clear`).
pub(super) fn clear(t: &Tree<'_>, tree: &Value) -> EResult<()> {
    let rec = t.record(tree)?;
    let root = match empty(t.shape) {
        Value::Record(r) => r.get("root").map(|f| f.get()).unwrap_or_default(),
        _ => Value::Null,
    };
    if let Some(f) = rec.get("root") {
        f.set(root);
    }
    set_nat_field(rec, "size", 0)
}
