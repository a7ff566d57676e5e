//! [`lookup`]: the value under one key of an ordered collection (a `mo:core` Map's B-tree, a
//! `pure/Map`'s or `mo:base` RBTree's red-black tree), descending one path from the root as
//! the collection's own `get` does: about `log(n)` nodes read, never the whole structure.

use std::cmp::Ordering;

use super::read::ReadParts;
use super::CollectionKind;
use crate::heap::value::{DecodeError, Decoder, LazyValue, Value};

/// The most levels a descent goes down (a B-tree of order 32 holding 2^64 entries has 13, a
/// red-black tree at most 2·64).
const MAX_LEVELS: u32 = 256;

/// The most value nodes one key is decoded to (to compare it).
const MAX_KEY_NODES: u64 = 4096;

/// The order of two keys as their type's own `compare` gives it (`Nat.compare`,
/// `Text.compare`, `Principal.compare`, …, tuples component by component); `None` for keys
/// with no such order (records, variants, floats' NaN, …).
pub fn compare_keys(a: &Value, b: &Value) -> Option<Ordering> {
    use Value as V;
    // Explicit stack over tuple components: no recursion on nested tuples.
    let mut pending = vec![(a, b)];
    while let Some((a, b)) = pending.pop() {
        let o = match (a, b) {
            (V::Nat(x), V::Nat(y)) => x.cmp(y),
            (V::Int(x), V::Int(y)) => x.cmp(y),
            (V::Nat8(x), V::Nat8(y)) => x.cmp(y),
            (V::Nat16(x), V::Nat16(y)) => x.cmp(y),
            (V::Nat32(x), V::Nat32(y)) => x.cmp(y),
            (V::Nat64(x), V::Nat64(y)) => x.cmp(y),
            (V::Int8(x), V::Int8(y)) => x.cmp(y),
            (V::Int16(x), V::Int16(y)) => x.cmp(y),
            (V::Int32(x), V::Int32(y)) => x.cmp(y),
            (V::Int64(x), V::Int64(y)) => x.cmp(y),
            (V::Bool(x), V::Bool(y)) => x.cmp(y),
            (V::Char(x), V::Char(y)) => x.cmp(y),
            (V::Float(x), V::Float(y)) => x.partial_cmp(y)?,
            // Text: by code points, which is UTF-8's byte order.
            (V::Text(x), V::Text(y)) => x.as_bytes().cmp(y.as_bytes()),
            (V::Blob(x), V::Blob(y)) | (V::Principal(x), V::Principal(y)) => x.cmp(y),
            (V::Unit, V::Unit) | (V::Null, V::Null) => Ordering::Equal,
            (V::Tuple { items: xs, .. }, V::Tuple { items: ys, .. }) if xs.len() == ys.len() => {
                // Pushed last first: the first component is compared first.
                pending.extend(xs.iter().zip(ys).rev());
                continue;
            }
            _ => return None,
        };
        if o != Ordering::Equal {
            return Some(o);
        }
    }
    Some(Ordering::Equal)
}

/// The value stored under `key` in `map` (a collection of kind `kind`), or `None` when there
/// is no such entry. Only ordered maps can be searched: for another kind (or a key type
/// without an order, see [`compare_keys`]) the answer is a mismatch error. The descent
/// assumes the map was built with its key type's own `compare` (as `Map.add(m,
/// Nat.compare, …)` does).
pub fn lookup(
    decoder: &mut Decoder<'_>,
    map: &LazyValue,
    kind: CollectionKind,
    key: &Value,
) -> Result<Option<LazyValue>, DecodeError> {
    match kind {
        CollectionKind::Map => {
            let root = decoder.field(map, "root")?;
            btree(decoder, root, key)
        }
        CollectionKind::PureMap => {
            let root = decoder.field(map, "root")?;
            rb_tree(decoder, root, key, false)
        }
        CollectionKind::BaseRBTree => rb_tree(decoder, map.clone(), key, true),
        _ => Err(decoder.mismatch(map.word, "an ordered map")),
    }
}

/// `key` compared with the heap key `k` (decoded, bounded).
fn order(decoder: &mut Decoder<'_>, key: &Value, k: &LazyValue) -> Result<Ordering, DecodeError> {
    let max = decoder.max_nodes;
    decoder.set_max_nodes(MAX_KEY_NODES);
    let natural = decoder.natural();
    decoder.set_natural(false);
    let k_value = decoder.deep(k);
    decoder.set_max_nodes(max);
    decoder.set_natural(natural);
    compare_keys(key, &k_value?).ok_or_else(|| decoder.mismatch(k.word, "a key with an order"))
}

/// The descent of a `mo:core` B-tree: binary search in a node's keys, then its child.
fn btree(
    decoder: &mut Decoder<'_>,
    root: LazyValue,
    key: &Value,
) -> Result<Option<LazyValue>, DecodeError> {
    let mut node = root;
    for _ in 0..MAX_LEVELS {
        let (tag, body) = decoder.variant(&node)?;
        let data = decoder.field(&body, "data")?;
        let kvs = decoder.field(&data, "kvs")?;
        let mut slots = decoder.array(&kvs)?;
        let count = decoder.field(&data, "count")?;
        slots.truncate(usize::try_from(decoder.nat(&count)?).unwrap_or(usize::MAX));
        let (mut lo, mut hi) = (0, slots.len());
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            let kv = decoder
                .opt(&slots[mid])?
                .ok_or_else(|| decoder.mismatch(slots[mid].word, "a filled B-tree slot"))?;
            let (_, parts) = decoder.tuple(&kv)?;
            let [k, v] = &parts[..] else {
                return Err(decoder.mismatch(kv.word, "a (key, value) pair"));
            };
            match order(decoder, key, k)? {
                Ordering::Equal => return Ok(Some(v.clone())),
                Ordering::Less => hi = mid,
                Ordering::Greater => lo = mid + 1,
            }
        }
        if &*tag != "internal" {
            return Ok(None);
        }
        let children = decoder.field(&body, "children")?;
        let child = decoder.element(&children, lo as u64)?;
        match decoder.opt(&child)? {
            Some(next) => node = next,
            None => return Ok(None),
        }
    }
    Err(decoder.mismatch(node.word, "a B-tree of at most 256 levels"))
}

/// The descent of a red-black tree: `pure/Map`'s `#red/#black (l, k, v, r)` or (`base`)
/// `mo:base` RBTree's `#node (color, l, (k, ?v), r)`.
fn rb_tree(
    decoder: &mut Decoder<'_>,
    root: LazyValue,
    key: &Value,
    base: bool,
) -> Result<Option<LazyValue>, DecodeError> {
    let mut tree = root;
    for _ in 0..MAX_LEVELS {
        let (tag, body) = decoder.variant(&tree)?;
        if &*tag == "leaf" {
            return Ok(None);
        }
        let (_, parts) = decoder.tuple(&body)?;
        let (l, k, v, r) = match (&parts[..], base) {
            ([l, k, v, r], false) => (l.clone(), k.clone(), Some(v.clone()), r.clone()),
            ([_, l, kv, r], true) => {
                let (_, kv) = decoder.tuple(kv)?;
                let [k, ov] = &kv[..] else {
                    return Err(decoder.mismatch(body.word, "a (key, ?value) pair"));
                };
                (l.clone(), k.clone(), decoder.opt(ov)?, r.clone())
            }
            _ => return Err(decoder.mismatch(body.word, "a tree node")),
        };
        match order(decoder, key, &k)? {
            Ordering::Equal => return Ok(v),
            Ordering::Less => tree = l,
            Ordering::Greater => tree = r,
        }
    }
    Err(decoder.mismatch(tree.word, "a tree of at most 256 levels"))
}
