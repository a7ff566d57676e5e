//! The red-black trees of `mo:core/pure/Map` (`#red(l, k, v, r)`/`#black(..)`/`#leaf`) and
//! `mo:core/pure/Set` (`#red(l, x, r)`/...), read from the canister's heap or made by the
//! script: lookups, the in-order walk, and insertion, deletion and validation exactly as
//! core computes them (Kahrs' functional red-black trees as core adapts them), so that a tree
//! a script builds has the shape, colours and `size` core's would have (`debug_show` shows
//! them), and `compare` is called on the same pairs in the same order.
//!
//! The algorithm, as core's `pure/Map` and `pure/Set` implement it:
//! - insertion descends from the root comparing `compare(key, node key)`; a `#leaf` becomes
//!   a red node; on the way back a black node rebalances its changed side (`lbalance`/
//!   `rbalance`: a red child with a red child of its own becomes a red node over two black
//!   ones), a red node is rebuilt as it was; an equal key replaces the map entry (the key
//!   given, its new value) and keeps a set's element; a red root is blackened at the end;
//! - deletion descends comparing `compare(key, node key)`: every node on the path is rebuilt
//!   red, except that when the side descended into was a black node the parent is rebuilt by
//!   `balLeft`/`balRight`; the node found is replaced by `append` of its subtrees; a red root
//!   is blackened at the end (a key not found still rebuilds the path);
//! - validation checks each node's children against its key, that a red node has no red
//!   child, and that both sides of every node have as many black nodes.

use super::args::wrong;
use super::btree::Yield;
use super::view;
use crate::script::eval::{trap, trap_in_prim, EResult, Interp};
use crate::script::value::{NativeIter, Value};
use std::cmp::Ordering;
use std::rc::Rc;

/// Trees deeper than this are refused (a valid one of 2^64 entries is 128 deep).
pub(super) const MAX_TREE_DEPTH: u32 = 128;

/// The bytes charged for one node a script builds.
const NODE_BYTES: u64 = 64;

/// `Runtime.trap`'s position in moc's prelude, where core's own traps report.
const RUNTIME_TRAP_AT: &str = "prim:63.31-63.42";

/// Which tree: a map's nodes of four parts or a set's of three.
#[derive(Clone, Copy)]
pub(super) struct Kind {
    /// A `pure/Set` (nodes `(l, x, r)`); else a `pure/Map` (`(l, k, v, r)`).
    pub set: bool,
    /// `"pure/Map"` or `"pure/Set"`, for messages.
    pub what: &'static str,
}

/// `pure/Map`'s trees.
pub(super) const MAP: Kind = Kind {
    set: false,
    what: "pure/Map",
};

/// `pure/Set`'s trees.
pub(super) const SET: Kind = Kind {
    set: true,
    what: "pure/Set",
};

/// One node: its colour, subtrees, key (a set's element) and value (`()` in a set).
#[derive(Clone)]
pub(super) struct Node {
    /// `#red` (else `#black`).
    pub red: bool,
    /// The left subtree (smaller keys).
    pub l: Value,
    /// The key (a set's element).
    pub k: Value,
    /// The value (`()` in a set).
    pub v: Value,
    /// The right subtree (greater keys).
    pub r: Value,
}

impl Node {
    /// The payload: a map's `(key, value)` tuple or a set's element.
    pub fn item(&self, kind: Kind) -> Value {
        if kind.set {
            self.k.clone()
        } else {
            Value::Tuple(Rc::from(vec![self.k.clone(), self.v.clone()]))
        }
    }
}

/// `#leaf`.
pub(super) fn leaf() -> Value {
    Value::variant("leaf", Value::Unit)
}

/// A `{ root; size }` record.
pub(super) fn record(root: Value, size: Value) -> Value {
    Value::record(vec![
        (Rc::from("root"), false, root),
        (Rc::from("size"), false, size),
    ])
}

/// An empty map or set.
pub(super) fn empty() -> Value {
    record(leaf(), Value::Nat(0))
}

pub(super) fn too_deep(what: &str) -> crate::script::eval::Ctrl {
    trap(format!("{what}: tree deeper than {MAX_TREE_DEPTH} levels"))
}

fn guard(kind: Kind, depth: u32) -> EResult<()> {
    if depth > MAX_TREE_DEPTH {
        return Err(too_deep(kind.what));
    }
    Ok(())
}

/// Core's `Runtime.trap` for a tree that breaks the invariants (`pure/Map.balLeft()
/// impossible`): only a malformed tree read from a canister reaches it.
fn impossible(kind: Kind, f: &str) -> crate::script::eval::Ctrl {
    trap_in_prim(
        RUNTIME_TRAP_AT,
        format!("explicit trap: {}.{f}() impossible", kind.what),
    )
}

/// The `root` of a `{ root; size }` record.
pub(super) fn root(it: &mut Interp, kind: Kind, v: &Value) -> EResult<Value> {
    view::field(it, v, "root")?.ok_or_else(|| wrong(kind.what, kind.what, v))
}

/// The `size` of a `{ root; size }` record (as stored).
pub(super) fn size(it: &mut Interp, kind: Kind, v: &Value) -> EResult<u64> {
    match view::field(it, v, "size")? {
        Some(Value::Nat(n)) => Ok(n),
        Some(other) => Err(wrong(kind.what, "Nat size", &other)),
        None => Err(wrong(kind.what, kind.what, v)),
    }
}

/// The node `t`, or `None` for `#leaf`.
pub(super) fn read(it: &mut Interp, kind: Kind, t: &Value) -> EResult<Option<Node>> {
    let Some((tag, body)) = view::variant(it, t)? else {
        return Err(wrong(kind.what, "tree node", t));
    };
    let red = match &*tag {
        "leaf" => return Ok(None),
        "red" => true,
        "black" => false,
        _ => return Err(wrong(kind.what, "tree node", t)),
    };
    let parts = view::parts(it, &body)?;
    let node = match (&parts[..], kind.set) {
        ([l, x, r], true) => Node {
            red,
            l: l.clone(),
            k: x.clone(),
            v: Value::Unit,
            r: r.clone(),
        },
        ([l, k, v, r], false) => Node {
            red,
            l: l.clone(),
            k: k.clone(),
            v: v.clone(),
            r: r.clone(),
        },
        _ => return Err(wrong(kind.what, "tree node", t)),
    };
    Ok(Some(node))
}

/// The colour tag of `t` (`"red"`, `"black"`, `"leaf"`).
fn tag(it: &mut Interp, kind: Kind, t: &Value) -> EResult<Rc<str>> {
    match view::variant(it, t)? {
        Some((tag, _)) => Ok(tag),
        None => Err(wrong(kind.what, "tree node", t)),
    }
}

fn is_red(it: &mut Interp, kind: Kind, t: &Value) -> EResult<bool> {
    Ok(&*tag(it, kind, t)? == "red")
}

fn is_black(it: &mut Interp, kind: Kind, t: &Value) -> EResult<bool> {
    Ok(&*tag(it, kind, t)? == "black")
}

/// The node `t` if it is red.
fn red_node(it: &mut Interp, kind: Kind, t: &Value) -> EResult<Option<Node>> {
    Ok(read(it, kind, t)?.filter(|n| n.red))
}

/// The node `t` if it is black.
fn black_node(it: &mut Interp, kind: Kind, t: &Value) -> EResult<Option<Node>> {
    Ok(read(it, kind, t)?.filter(|n| !n.red))
}

/// A new node.
pub(super) fn mk(
    it: &mut Interp,
    kind: Kind,
    red: bool,
    l: Value,
    k: Value,
    v: Value,
    r: Value,
) -> EResult<Value> {
    it.alloc(NODE_BYTES)?;
    let parts = if kind.set {
        vec![l, k, r]
    } else {
        vec![l, k, v, r]
    };
    Ok(Value::variant(
        if red { "red" } else { "black" },
        Value::Tuple(Rc::from(parts)),
    ))
}

fn node(it: &mut Interp, kind: Kind, red: bool, n: Node) -> EResult<Value> {
    mk(it, kind, red, n.l, n.k, n.v, n.r)
}

pub(super) use super::btree::order;

/// The node whose key equals `key` by `compare` (called as `compare(key, k)`), descending
/// one path from the tree `t`.
pub(super) fn find(
    it: &mut Interp,
    kind: Kind,
    t: &Value,
    compare: &Value,
    key: &Value,
) -> EResult<Option<Node>> {
    let mut t = t.clone();
    for _ in 0..=MAX_TREE_DEPTH {
        let Some(n) = read(it, kind, &t)? else {
            return Ok(None);
        };
        t = match order(it, kind.what, compare, key, &n.k)? {
            Ordering::Equal => return Ok(Some(n)),
            Ordering::Less => n.l,
            Ordering::Greater => n.r,
        };
    }
    Err(too_deep(kind.what))
}

/// The leftmost (`last` false) or rightmost node of the tree `t`.
pub(super) fn extreme(it: &mut Interp, kind: Kind, t: &Value, last: bool) -> EResult<Option<Node>> {
    let Some(mut n) = read(it, kind, t)? else {
        return Ok(None);
    };
    for _ in 0..=MAX_TREE_DEPTH {
        it.tick()?;
        let next = if last { &n.r } else { &n.l };
        match read(it, kind, next)? {
            Some(m) => n = m,
            None => return Ok(Some(n)),
        }
    }
    Err(too_deep(kind.what))
}

// ------------------------------------------------------------------ insertion

fn lbalance(it: &mut Interp, kind: Kind, left: Value, x: Value, y: Value, right: Value) -> R {
    if let Some(ln) = red_node(it, kind, &left)? {
        if let Some(ll) = red_node(it, kind, &ln.l)? {
            let a = node(it, kind, false, ll)?;
            let b = mk(it, kind, false, ln.r, x, y, right)?;
            return mk(it, kind, true, a, ln.k, ln.v, b);
        }
        if let Some(lr) = red_node(it, kind, &ln.r)? {
            let a = mk(it, kind, false, ln.l, ln.k, ln.v, lr.l)?;
            let b = mk(it, kind, false, lr.r, x, y, right)?;
            return mk(it, kind, true, a, lr.k, lr.v, b);
        }
    }
    mk(it, kind, false, left, x, y, right)
}

fn rbalance(it: &mut Interp, kind: Kind, left: Value, x: Value, y: Value, right: Value) -> R {
    if let Some(rn) = red_node(it, kind, &right)? {
        if let Some(rr) = red_node(it, kind, &rn.r)? {
            let a = mk(it, kind, false, left, x, y, rn.l)?;
            let b = node(it, kind, false, rr)?;
            return mk(it, kind, true, a, rn.k, rn.v, b);
        }
        if let Some(rl) = red_node(it, kind, &rn.l)? {
            let a = mk(it, kind, false, left, x, y, rl.l)?;
            let b = mk(it, kind, false, rl.r, rn.k, rn.v, rn.r)?;
            return mk(it, kind, true, a, rl.k, rl.v, b);
        }
    }
    mk(it, kind, false, left, x, y, right)
}

type R = EResult<Value>;

/// What an insertion did: the replaced value of a map entry, or that a node was created.
#[derive(Default)]
pub(super) struct Inserted {
    /// The old value of the entry replaced (maps).
    pub old: Option<Value>,
    /// A new node was made (the key was not there).
    pub created: bool,
}

struct Ins<'a> {
    kind: Kind,
    compare: &'a Value,
    key: &'a Value,
    val: &'a Value,
    done: Inserted,
}

impl Ins<'_> {
    fn ins(&mut self, it: &mut Interp, t: &Value, depth: u32) -> R {
        let kind = self.kind;
        guard(kind, depth)?;
        it.tick()?;
        let Some(n) = read(it, kind, t)? else {
            self.done.created = true;
            return mk(
                it,
                kind,
                true,
                leaf(),
                self.key.clone(),
                self.val.clone(),
                leaf(),
            );
        };
        match order(it, kind.what, self.compare, self.key, &n.k)? {
            Ordering::Less => {
                let l = self.ins(it, &n.l, depth + 1)?;
                if n.red {
                    mk(it, kind, true, l, n.k, n.v, n.r)
                } else {
                    lbalance(it, kind, l, n.k, n.v, n.r)
                }
            }
            Ordering::Greater => {
                let r = self.ins(it, &n.r, depth + 1)?;
                if n.red {
                    mk(it, kind, true, n.l, n.k, n.v, r)
                } else {
                    rbalance(it, kind, n.l, n.k, n.v, r)
                }
            }
            Ordering::Equal if kind.set => node(it, kind, n.red, n),
            Ordering::Equal => {
                self.done.old = Some(n.v);
                mk(
                    it,
                    kind,
                    n.red,
                    n.l,
                    self.key.clone(),
                    self.val.clone(),
                    n.r,
                )
            }
        }
    }
}

/// A red root made black.
fn blacken(it: &mut Interp, kind: Kind, t: Value) -> R {
    match red_node(it, kind, &t)? {
        Some(n) => node(it, kind, false, n),
        None => Ok(t),
    }
}

/// The tree `t` with `key` (and, in a map, `val`) inserted: core's `insertWith` (maps:
/// the entry's key and value replaced) and `Set`'s `insert`.
pub(super) fn insert(
    it: &mut Interp,
    kind: Kind,
    t: &Value,
    compare: &Value,
    key: &Value,
    val: &Value,
) -> EResult<(Value, Inserted)> {
    let mut ins = Ins {
        kind,
        compare,
        key,
        val,
        done: Inserted::default(),
    };
    let t = ins.ins(it, t, 0)?;
    let t = blacken(it, kind, t)?;
    Ok((t, ins.done))
}

// ------------------------------------------------------------------ deletion

fn redden(it: &mut Interp, kind: Kind, t: Value) -> R {
    match black_node(it, kind, &t)? {
        Some(n) => node(it, kind, true, n),
        None => Err(impossible(kind, "redden")),
    }
}

fn bal_left(it: &mut Interp, kind: Kind, left: Value, x: Value, y: Value, right: Value) -> R {
    if let Some(ln) = red_node(it, kind, &left)? {
        let a = node(it, kind, false, ln)?;
        return mk(it, kind, true, a, x, y, right);
    }
    match read(it, kind, &right)? {
        Some(rn) if !rn.red => {
            let r = node(it, kind, true, rn)?;
            rbalance(it, kind, left, x, y, r)
        }
        Some(rn) => match black_node(it, kind, &rn.l)? {
            Some(rl) => {
                let a = mk(it, kind, false, left, x, y, rl.l)?;
                let r3 = redden(it, kind, rn.r)?;
                let b = rbalance(it, kind, rl.r, rn.k, rn.v, r3)?;
                mk(it, kind, true, a, rl.k, rl.v, b)
            }
            None => Err(impossible(kind, "balLeft")),
        },
        None => Err(impossible(kind, "balLeft")),
    }
}

fn bal_right(it: &mut Interp, kind: Kind, left: Value, x: Value, y: Value, right: Value) -> R {
    if let Some(rn) = red_node(it, kind, &right)? {
        let b = node(it, kind, false, rn)?;
        return mk(it, kind, true, left, x, y, b);
    }
    match read(it, kind, &left)? {
        Some(ln) if !ln.red => {
            let l = node(it, kind, true, ln)?;
            lbalance(it, kind, l, x, y, right)
        }
        Some(ln) => match black_node(it, kind, &ln.r)? {
            Some(lr) => {
                let l1 = redden(it, kind, ln.l)?;
                let a = lbalance(it, kind, l1, ln.k, ln.v, lr.l)?;
                let b = mk(it, kind, false, lr.r, x, y, right)?;
                mk(it, kind, true, a, lr.k, lr.v, b)
            }
            None => Err(impossible(kind, "balRight")),
        },
        None => Err(impossible(kind, "balRight")),
    }
}

/// The subtrees of a removed node joined.
fn append(it: &mut Interp, kind: Kind, left: Value, right: Value, depth: u32) -> R {
    guard(kind, depth)?;
    it.tick()?;
    let Some(ln) = read(it, kind, &left)? else {
        return Ok(right);
    };
    let Some(rn) = read(it, kind, &right)? else {
        return Ok(left);
    };
    match (ln.red, rn.red) {
        (true, true) => {
            let mid = append(it, kind, ln.r, rn.l, depth + 1)?;
            match red_node(it, kind, &mid)? {
                Some(m) => {
                    let a = mk(it, kind, true, ln.l, ln.k, ln.v, m.l)?;
                    let b = mk(it, kind, true, m.r, rn.k, rn.v, rn.r)?;
                    mk(it, kind, true, a, m.k, m.v, b)
                }
                None => {
                    let b = mk(it, kind, true, mid, rn.k, rn.v, rn.r)?;
                    mk(it, kind, true, ln.l, ln.k, ln.v, b)
                }
            }
        }
        (false, true) => {
            let a = append(it, kind, left, rn.l, depth + 1)?;
            mk(it, kind, true, a, rn.k, rn.v, rn.r)
        }
        (true, false) => {
            let b = append(it, kind, ln.r, right, depth + 1)?;
            mk(it, kind, true, ln.l, ln.k, ln.v, b)
        }
        (false, false) => {
            let mid = append(it, kind, ln.r, rn.l, depth + 1)?;
            match red_node(it, kind, &mid)? {
                Some(m) => {
                    let a = mk(it, kind, false, ln.l, ln.k, ln.v, m.l)?;
                    let b = mk(it, kind, false, m.r, rn.k, rn.v, rn.r)?;
                    mk(it, kind, true, a, m.k, m.v, b)
                }
                None => {
                    let b = mk(it, kind, false, mid, rn.k, rn.v, rn.r)?;
                    bal_left(it, kind, ln.l, ln.k, ln.v, b)
                }
            }
        }
    }
}

struct Del<'a> {
    kind: Kind,
    compare: &'a Value,
    key: &'a Value,
    /// The removed node's value (`()` in a set), once found.
    found: Option<Value>,
}

impl Del<'_> {
    fn del(&mut self, it: &mut Interp, t: &Value, depth: u32) -> R {
        let kind = self.kind;
        guard(kind, depth)?;
        it.tick()?;
        let Some(n) = read(it, kind, t)? else {
            return Ok(t.clone());
        };
        match order(it, kind.what, self.compare, self.key, &n.k)? {
            Ordering::Less => {
                let l = self.del(it, &n.l, depth + 1)?;
                if is_black(it, kind, &n.l)? {
                    bal_left(it, kind, l, n.k, n.v, n.r)
                } else {
                    mk(it, kind, true, l, n.k, n.v, n.r)
                }
            }
            Ordering::Greater => {
                let r = self.del(it, &n.r, depth + 1)?;
                if is_black(it, kind, &n.r)? {
                    bal_right(it, kind, n.l, n.k, n.v, r)
                } else {
                    mk(it, kind, true, n.l, n.k, n.v, r)
                }
            }
            Ordering::Equal => {
                self.found = Some(n.v);
                append(it, kind, n.l, n.r, depth + 1)
            }
        }
    }
}

/// The tree `t` without `key`, and the removed node's value (`()` in a set) if it was there.
/// A key not found still gives a rebuilt tree (as core's), which callers may drop.
pub(super) fn remove(
    it: &mut Interp,
    kind: Kind,
    t: &Value,
    compare: &Value,
    key: &Value,
) -> EResult<(Value, Option<Value>)> {
    let mut del = Del {
        kind,
        compare,
        key,
        found: None,
    };
    let t = del.del(it, t, 0)?;
    let t = blacken(it, kind, t)?;
    Ok((t, del.found))
}

// ------------------------------------------------------------------ validation

/// Core's `assertValid`: the number of black nodes on each path below `t`, trapping
/// (`assertion failure`) where the order or the colours are wrong.
pub(super) fn black_depth(
    it: &mut Interp,
    kind: Kind,
    t: &Value,
    compare: &Value,
    depth: u32,
) -> EResult<u64> {
    guard(kind, depth)?;
    it.tick()?;
    let Some(n) = read(it, kind, t)? else {
        return Ok(0);
    };
    let fail = || trap("assertion failure");
    // a set checks a red node's children's colours before its keys, a map after
    if n.red && kind.set && (is_red(it, kind, &n.l)? || is_red(it, kind, &n.r)?) {
        return Err(fail());
    }
    for (side, want) in [(&n.l, Ordering::Less), (&n.r, Ordering::Greater)] {
        if let Some(c) = read(it, kind, side)? {
            if order(it, kind.what, compare, &c.k, &n.k)? != want {
                return Err(fail());
            }
        }
    }
    let lb = black_depth(it, kind, &n.l, compare, depth + 1)?;
    let rb = black_depth(it, kind, &n.r, compare, depth + 1)?;
    if lb != rb {
        return Err(fail());
    }
    if n.red && !kind.set && (is_red(it, kind, &n.l)? || is_red(it, kind, &n.r)?) {
        return Err(fail());
    }
    Ok(if n.red { lb } else { lb + 1 })
}

// ------------------------------------------------------------------ traversal

/// The in-order walk (or the reverse) of a red-black tree, one node at a time: it holds the
/// path from the root (at most [`MAX_TREE_DEPTH`] nodes), never the tree.
pub(super) struct Walk {
    /// `(payload, other subtree)` of the nodes whose first subtree is being walked.
    stack: Vec<(Value, Value)>,
    /// A subtree to descend into before the next payload.
    pending: Option<Value>,
    kind: Kind,
    yields: Yield,
    /// Backwards (right to left).
    rev: bool,
}

impl Walk {
    /// The walk of the tree `t`.
    pub fn of(t: Value, kind: Kind, yields: Yield, rev: bool) -> Self {
        Walk {
            stack: Vec::new(),
            pending: Some(t),
            kind,
            yields,
            rev,
        }
    }

    /// The next payload (a map's `(k, v)`, a set's element).
    pub fn advance(&mut self, it: &mut Interp) -> EResult<Option<Value>> {
        if let Some(mut t) = self.pending.take() {
            while let Some(n) = read(it, self.kind, &t)? {
                if self.stack.len() as u32 >= MAX_TREE_DEPTH {
                    return Err(too_deep(self.kind.what));
                }
                it.tick()?;
                it.alloc(32)?;
                let item = n.item(self.kind);
                let (first, second) = if self.rev { (n.r, n.l) } else { (n.l, n.r) };
                self.stack.push((item, second));
                t = first;
            }
        }
        let Some((item, other)) = self.stack.pop() else {
            return Ok(None);
        };
        self.pending = Some(other);
        Ok(Some(item))
    }
}

impl NativeIter for Walk {
    fn next(&mut self, it: &mut Interp) -> EResult<Option<Value>> {
        let Some(item) = self.advance(it)? else {
            return Ok(None);
        };
        Ok(Some(match (self.yields, &item) {
            (Yield::Key, Value::Tuple(kv)) if kv.len() == 2 => kv[0].clone(),
            (Yield::Value, Value::Tuple(kv)) if kv.len() == 2 => kv[1].clone(),
            _ => item,
        }))
    }
}

/// Every payload of the tree `t`, in order.
pub(super) fn items(it: &mut Interp, kind: Kind, t: &Value) -> EResult<Vec<Value>> {
    let mut walk = Walk::of(t.clone(), kind, Yield::Payload, false);
    let mut out = Vec::new();
    while let Some(x) = walk.advance(it)? {
        out.push(x);
    }
    Ok(out)
}

/// Core's set `buildFromSorted`: a tree of sorted, distinct elements, black but for the
/// deepest level of a tree that is not full (red).
pub(super) fn build_from_sorted(it: &mut Interp, xs: &[Value]) -> R {
    let (mut max_depth, mut max_size) = (0u32, 1usize);
    while max_size < xs.len() {
        max_depth += 1;
        max_size = max_size.saturating_mul(2).saturating_add(1);
    }
    let max_depth = max_depth.max(1);
    fn go(it: &mut Interp, xs: &[Value], l: usize, r: usize, depth: u32, max: u32) -> R {
        if l + 1 == r {
            return mk(
                it,
                SET,
                depth == max,
                leaf(),
                xs[l].clone(),
                Value::Unit,
                leaf(),
            );
        }
        if l >= r {
            return Ok(leaf());
        }
        let m = (l + r) / 2;
        let a = go(it, xs, l, m, depth + 1, max)?;
        let b = go(it, xs, m + 1, r, depth + 1, max)?;
        mk(it, SET, false, a, xs[m].clone(), Value::Unit, b)
    }
    go(it, xs, 0, xs.len(), 0, max_depth)
}
