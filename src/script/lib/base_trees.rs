//! Read access to the `mo:base` stable structures a canister holds: `Trie` (a binary trie on
//! the bits of each key's 32-bit hash, leaves holding association lists of
//! `({hash; key}, value)`), `RBTree`'s stable tree (`#node(color, l, (k, ?v), r)` / `#leaf`,
//! what `RBTree.share()` returns) and `AssocList` (a list of `(key, value)`). Lookups descend
//! one path (`Trie.get`/`find` by the key's hash bits, as mo:base does; `RBTree.get` by the
//! script's `compare`), iteration streams in the structure's own order, holding only the
//! path from the root.

use super::args::{arg, wrong};
use super::iters::iter_value;
use super::{view, Module};
use crate::script::eval::{trap, EResult, Interp};
use crate::script::value::{NativeIter, Value};
use std::rc::Rc;

type R = EResult;

/// Tries and trees deeper than this are refused (a trie branches on 32 hash bits; a valid
/// red-black tree of 2^64 entries is 128 deep).
const MAX_DEPTH: usize = 128;

fn too_deep(what: &str) -> crate::script::eval::Ctrl {
    trap(format!("{what}: deeper than {MAX_DEPTH} levels"))
}

fn tuple(parts: Vec<Value>) -> Value {
    Value::Tuple(Rc::from(parts))
}

/// `eq(a, b)` called in the script.
fn equal(it: &mut Interp, what: &str, eq: &Value, a: &Value, b: &Value) -> EResult<bool> {
    it.tick()?;
    match it.call_value(eq, &[a.clone(), b.clone()])? {
        Value::Bool(x) => Ok(x),
        other => Err(wrong(what, "Bool", &other)),
    }
}

/// One cell of a `?(x, rest)` list: `None` at the end.
fn cell(it: &mut Interp, list: &Value, what: &str) -> EResult<Option<(Value, Value)>> {
    it.tick()?;
    match view::option(it, list)? {
        Some(None) => Ok(None),
        Some(Some(pair)) => match &view::parts(it, &pair)?[..] {
            [x, rest] => Ok(Some((x.clone(), rest.clone()))),
            _ => Err(wrong(what, "list cell", &pair)),
        },
        None => Err(wrong(what, "list", list)),
    }
}

/// The two parts of a pair.
fn pair(it: &mut Interp, v: &Value, what: &str) -> EResult<(Value, Value)> {
    match &view::parts(it, v)?[..] {
        [a, b] => Ok((a.clone(), b.clone())),
        _ => Err(wrong(what, "pair", v)),
    }
}

// ------------------------------------------------------------------ Trie

/// `Text.hash(t)` (mo:base): the djb2 hash tries are keyed by (`x = 5381`, then
/// `x = x * 33 + c` per character, wrapping at 32 bits).
pub fn text_hash(_: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let Value::Text(t) = arg(a, 0, "Text.hash")? else {
        return Err(wrong("Text.hash", "Text", arg(a, 0, "Text.hash")?));
    };
    let h = t.chars().fold(5381u32, |x, c| {
        (x << 5).wrapping_add(x).wrapping_add(c as u32)
    });
    Ok(Value::Nat32(h))
}

/// The hash of a trie key record `{hash : Nat32; key : K}`.
fn key_hash(it: &mut Interp, k: &Value) -> EResult<u32> {
    match view::field(it, k, "hash")? {
        Some(Value::Nat32(h)) => Ok(h),
        _ => Err(wrong("Trie", "key {hash; key}", k)),
    }
}

fn key_key(it: &mut Interp, k: &Value) -> EResult<Value> {
    view::field(it, k, "key")?.ok_or_else(|| wrong("Trie", "key {hash; key}", k))
}

/// `Trie.get(t, k, eq)` (and `find`): descends by the bits of `k.hash` (bit `i` at depth `i`,
/// clear: left), then searches the leaf's list for an equal hash and `eq(key, k.key)`.
fn trie_get(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let (mut node, k, eq) = (
        arg(a, 0, "Trie.get")?.clone(),
        arg(a, 1, "Trie.get")?,
        arg(a, 2, "Trie.get")?,
    );
    let hash = key_hash(it, k)?;
    let key = key_key(it, k)?;
    for bit in 0..MAX_DEPTH {
        let Some((tag, body)) = view::variant(it, &node)? else {
            return Err(wrong("Trie", "trie node", &node));
        };
        match &*tag {
            "empty" => return Ok(Value::Null),
            "branch" => {
                let right = bit < 32 && hash & (1 << bit) != 0;
                let side = if right { "right" } else { "left" };
                node =
                    view::field(it, &body, side)?.ok_or_else(|| wrong("Trie", "branch", &body))?;
            }
            "leaf" => {
                let mut list = view::field(it, &body, "keyvals")?
                    .ok_or_else(|| wrong("Trie", "leaf", &body))?;
                while let Some((kv, rest)) = cell(it, &list, "Trie")? {
                    let (k2, v) = pair(it, &kv, "Trie")?;
                    if key_hash(it, &k2)? == hash {
                        let key2 = key_key(it, &k2)?;
                        if equal(it, "Trie.get", eq, &key2, &key)? {
                            return Ok(Value::some(v));
                        }
                    }
                    list = rest;
                }
                return Ok(Value::Null);
            }
            _ => return Err(wrong("Trie", "trie node", &node)),
        }
    }
    Err(too_deep("Trie"))
}

/// `Trie.iter(t)`: `(key, value)` pairs, left before right, each leaf's list in order (as
/// mo:base's `iter`); holds the pending right subtrees and the current list cell only.
struct TrieIter {
    pending: Vec<Value>,
    list: Option<Value>,
}

impl NativeIter for TrieIter {
    fn next(&mut self, it: &mut Interp) -> EResult<Option<Value>> {
        loop {
            if let Some(list) = self.list.take() {
                if let Some((kv, rest)) = cell(it, &list, "Trie")? {
                    self.list = Some(rest);
                    let (k, v) = pair(it, &kv, "Trie")?;
                    it.alloc(32)?;
                    return Ok(Some(tuple(vec![key_key(it, &k)?, v])));
                }
            }
            let Some(node) = self.pending.pop() else {
                return Ok(None);
            };
            let Some((tag, body)) = view::variant(it, &node)? else {
                return Err(wrong("Trie", "trie node", &node));
            };
            match &*tag {
                "empty" => {}
                "leaf" => self.list = view::field(it, &body, "keyvals")?,
                "branch" => {
                    if self.pending.len() >= MAX_DEPTH {
                        return Err(too_deep("Trie"));
                    }
                    for side in ["right", "left"] {
                        if let Some(child) = view::field(it, &body, side)? {
                            self.pending.push(child);
                        }
                    }
                }
                _ => return Err(wrong("Trie", "trie node", &node)),
            }
        }
    }
}

fn trie_iter(_: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let t = arg(a, 0, "Trie.iter")?.clone();
    Ok(iter_value(TrieIter {
        pending: vec![t],
        list: None,
    }))
}

/// `Trie.size(t)`: the root's `size` field (`#empty`: 0).
fn trie_size(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let t = arg(a, 0, "Trie.size")?;
    let Some((tag, body)) = view::variant(it, t)? else {
        return Err(wrong("Trie", "trie node", t));
    };
    match (&*tag, view::field(it, &body, "size")?) {
        ("empty", _) => Ok(Value::Nat(0)),
        (_, Some(n @ Value::Nat(_))) => Ok(n),
        _ => Err(wrong("Trie", "trie node", t)),
    }
}

// ------------------------------------------------------------------ RBTree

/// A node `#node(color, l, (k, ?v), r)` as `(l, k, ?v, r)`; `None` for `#leaf`.
fn rb_node(it: &mut Interp, t: &Value) -> EResult<Option<(Value, Value, Value, Value)>> {
    let Some((tag, body)) = view::variant(it, t)? else {
        return Err(wrong("RBTree", "tree node", t));
    };
    if &*tag == "leaf" {
        return Ok(None);
    }
    match &view::parts(it, &body)?[..] {
        [_, l, kv, r] => {
            let (k, v) = pair(it, kv, "RBTree")?;
            Ok(Some((l.clone(), k, v, r.clone())))
        }
        _ => Err(wrong("RBTree", "tree node", t)),
    }
}

/// `RBTree.get(tree, compare, k)` on the stable tree (what the class's `get` does): descends
/// by `compare(k, key)`; an entry whose value is `null` is absent.
fn rb_get(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let (mut t, compare, k) = (
        arg(a, 0, "RBTree.get")?.clone(),
        arg(a, 1, "RBTree.get")?,
        arg(a, 2, "RBTree.get")?,
    );
    for _ in 0..MAX_DEPTH {
        let Some((l, key, v, r)) = rb_node(it, &t)? else {
            return Ok(Value::Null);
        };
        it.tick()?;
        t = match it.call_value(compare, &[k.clone(), key])? {
            Value::Variant(o) if &*o.0 == "less" => l,
            Value::Variant(o) if &*o.0 == "greater" => r,
            Value::Variant(o) if &*o.0 == "equal" => {
                return Ok(match view::option(it, &v)? {
                    Some(Some(v)) => Value::some(v),
                    _ => Value::Null,
                })
            }
            other => return Err(wrong("RBTree.get", "Order", &other)),
        };
    }
    Err(too_deep("RBTree"))
}

/// `RBTree.iter(tree, #fwd | #bwd)`: `(key, value)` in key order (or reversed), skipping
/// `null` values, as mo:base's `iter`; holds the path from the root only.
struct RbIter {
    /// `(key, ?value, far subtree)` of nodes whose near subtree is being walked.
    stack: Vec<(Value, Value, Value)>,
    pending: Option<Value>,
    forward: bool,
}

impl NativeIter for RbIter {
    fn next(&mut self, it: &mut Interp) -> EResult<Option<Value>> {
        loop {
            if let Some(mut t) = self.pending.take() {
                while let Some((l, k, v, r)) = rb_node(it, &t)? {
                    if self.stack.len() >= MAX_DEPTH {
                        return Err(too_deep("RBTree"));
                    }
                    let (near, far) = if self.forward { (l, r) } else { (r, l) };
                    self.stack.push((k, v, far));
                    t = near;
                }
            }
            let Some((k, v, far)) = self.stack.pop() else {
                return Ok(None);
            };
            self.pending = Some(far);
            if let Some(Some(v)) = view::option(it, &v)? {
                it.alloc(32)?;
                return Ok(Some(tuple(vec![k, v])));
            }
        }
    }
}

fn rb_iter(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let t = arg(a, 0, "RBTree.iter")?.clone();
    let forward = match a.get(1) {
        None => true,
        Some(d) => match view::variant(it, d)? {
            Some((tag, _)) if &*tag == "fwd" => true,
            Some((tag, _)) if &*tag == "bwd" => false,
            _ => return Err(wrong("RBTree.iter", "#fwd or #bwd", d)),
        },
    };
    Ok(iter_value(RbIter {
        stack: Vec::new(),
        pending: Some(t),
        forward,
    }))
}

/// `RBTree.size(tree)`: the number of entries with a value (walks the tree).
fn rb_size(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let mut walk = RbIter {
        stack: Vec::new(),
        pending: Some(arg(a, 0, "RBTree.size")?.clone()),
        forward: true,
    };
    let mut n = 0u64;
    while walk.next(it)?.is_some() {
        n += 1;
    }
    Ok(Value::Nat(n))
}

// ------------------------------------------------------------------ AssocList

/// `AssocList.find(al, k, eq)`: the value of the first pair whose key is `eq` to `k`.
fn assoc_find(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let (mut list, k, eq) = (
        arg(a, 0, "AssocList.find")?.clone(),
        arg(a, 1, "AssocList.find")?,
        arg(a, 2, "AssocList.find")?,
    );
    while let Some((kv, rest)) = cell(it, &list, "AssocList")? {
        let (key, v) = pair(it, &kv, "AssocList")?;
        if equal(it, "AssocList.find", eq, &key, k)? {
            return Ok(Value::some(v));
        }
        list = rest;
    }
    Ok(Value::Null)
}

/// `mo:base/Trie` (reading).
pub static TRIE_MOD: Module = Module {
    name: "Trie",
    members: &[
        func!("get", trie_get),
        func!("find", trie_get),
        func!("iter", trie_iter),
        func!("size", trie_size),
    ],
};

/// `mo:base/RBTree`'s stable tree (reading).
pub static RBTREE_MOD: Module = Module {
    name: "RBTree",
    members: &[
        func!("get", rb_get),
        func!("iter", rb_iter),
        func!("size", rb_size),
    ],
};

/// `mo:base/AssocList` (reading).
pub static ASSOC_LIST_MOD: Module = Module {
    name: "AssocList",
    members: &[func!("find", assoc_find)],
};
