//! Building the immutable `mo:core/pure/Map` and `pure/Set` values the mutable modules
//! convert to (`Map.toPure`, `Set.toPure`): red-black trees (`#red(l, k, v, r)`,
//! `#black(..)`, `#leaf`; a set's nodes hold `(l, x, r)`) grown by pure/Map's and pure/Set's
//! own insertion (`insertWith`/`insert` with `lbalance`/`rbalance`), so the tree is the one
//! moc builds; and reading a pure structure's items through the `pure/` modules.

use super::btree::order;
use crate::script::eval::{trap, EResult, Interp};
use crate::script::value::Value;
use std::cmp::Ordering;
use std::rc::Rc;

/// Red-black trees deeper than this are not built (a valid one of 2^64 entries is 128 deep).
const MAX_DEPTH: u32 = 160;

fn leaf() -> Value {
    Value::variant("leaf", Value::Unit)
}

fn node(color: &str, parts: Vec<Value>) -> Value {
    Value::variant(color, Value::Tuple(Rc::from(parts)))
}

/// A node's color and parts (`None` for `#leaf`).
fn parts(t: &Value) -> Option<(&str, &[Value])> {
    match t {
        Value::Variant(tv) => match &tv.1 {
            Value::Tuple(p) if &*tv.0 == "red" || &*tv.0 == "black" => Some((&*tv.0, &p[..])),
            _ => None,
        },
        _ => None,
    }
}

/// `#red(..)` parts of `t`, if it is red.
fn red(t: &Value) -> Option<&[Value]> {
    match parts(t) {
        Some(("red", p)) => Some(p),
        _ => None,
    }
}

/// pure/Map's and pure/Set's `lbalance` over nodes of `w` parts (4 for a map: the key and
/// value in the middle; 3 for a set).
fn lbalance(left: Value, mid: &[Value], right: Value) -> Value {
    let w = mid.len() + 2;
    if let Some(l) = red(&left) {
        if let Some(ll) = red(&l[0]) {
            // #red(#red(l1, x1, r1), x2, r2), r
            let black1 = node("black", ll.to_vec());
            let mut b2 = vec![l[w - 1].clone()];
            b2.extend_from_slice(mid);
            b2.push(right);
            let mut out = vec![black1];
            out.extend_from_slice(&l[1..w - 1]);
            out.push(node("black", b2));
            return node("red", out);
        }
        if let Some(lr) = red(&l[w - 1]) {
            // #red(l1, x1, #red(l2, x2, r2)), r
            let mut b1 = l[..w - 1].to_vec();
            b1.push(lr[0].clone());
            let mut b2 = vec![lr[w - 1].clone()];
            b2.extend_from_slice(mid);
            b2.push(right);
            let mut out = vec![node("black", b1)];
            out.extend_from_slice(&lr[1..w - 1]);
            out.push(node("black", b2));
            return node("red", out);
        }
    }
    let mut out = vec![left];
    out.extend_from_slice(mid);
    out.push(right);
    node("black", out)
}

/// pure/Map's and pure/Set's `rbalance`.
fn rbalance(left: Value, mid: &[Value], right: Value) -> Value {
    let w = mid.len() + 2;
    if let Some(r) = red(&right) {
        if let Some(rr) = red(&r[w - 1]) {
            // l, #red(l1, x1, #red(l2, x2, r2))
            let mut b1 = vec![left];
            b1.extend_from_slice(mid);
            b1.push(r[0].clone());
            let mut out = vec![node("black", b1)];
            out.extend_from_slice(&r[1..w - 1]);
            out.push(node("black", rr.to_vec()));
            return node("red", out);
        }
        if let Some(rl) = red(&r[0]) {
            // l, #red(#red(l1, x1, r1), x2, r2)
            let mut b1 = vec![left];
            b1.extend_from_slice(mid);
            b1.push(rl[0].clone());
            let mut b2 = vec![rl[w - 1].clone()];
            b2.extend_from_slice(&r[1..]);
            let mut out = vec![node("black", b1)];
            out.extend_from_slice(&rl[1..w - 1]);
            out.push(node("black", b2));
            return node("red", out);
        }
    }
    let mut out = vec![left];
    out.extend_from_slice(mid);
    out.push(right);
    node("black", out)
}

/// One insertion (`ins`): `mid` is the new node's middle (`[k, v]` or `[x]`); an equal key
/// takes the new middle in a map (`replace`), keeps the old in a set. Whether a node was
/// created.
fn ins(
    it: &mut Interp,
    who: &str,
    compare: &Value,
    t: &Value,
    mid: &[Value],
    replace: bool,
    depth: u32,
) -> EResult<(Value, bool)> {
    if depth > MAX_DEPTH {
        return Err(trap(format!("{who}: tree too deep")));
    }
    let Some((color, p)) = parts(t) else {
        let mut out = vec![leaf()];
        out.extend_from_slice(mid);
        out.push(leaf());
        it.alloc(64)?;
        return Ok((node("red", out), true));
    };
    let w = p.len();
    if w != mid.len() + 2 {
        return Err(trap(format!("{who}: not a tree node")));
    }
    let (l, m, r) = (&p[0], &p[1..w - 1], &p[w - 1]);
    let black = color == "black";
    match order(it, who, compare, &mid[0], &m[0])? {
        Ordering::Less => {
            let (nl, created) = ins(it, who, compare, l, mid, replace, depth + 1)?;
            let t = if black {
                lbalance(nl, m, r.clone())
            } else {
                let mut out = vec![nl];
                out.extend_from_slice(m);
                out.push(r.clone());
                node("red", out)
            };
            Ok((t, created))
        }
        Ordering::Greater => {
            let (nr, created) = ins(it, who, compare, r, mid, replace, depth + 1)?;
            let t = if black {
                rbalance(l.clone(), m, nr)
            } else {
                let mut out = vec![l.clone()];
                out.extend_from_slice(m);
                out.push(nr);
                node("red", out)
            };
            Ok((t, created))
        }
        Ordering::Equal => {
            let mut out = vec![l.clone()];
            out.extend_from_slice(if replace { mid } else { m });
            out.push(r.clone());
            Ok((node(color, out), false))
        }
    }
}

/// The root after an insertion: a red root turns black.
fn blacken(t: Value) -> Value {
    match parts(&t) {
        Some(("red", p)) => node("black", p.to_vec()),
        _ => t,
    }
}

fn pure_record(root: Value, size: u64) -> Value {
    Value::record(vec![
        (Rc::from("root"), false, root),
        (Rc::from("size"), false, Value::Nat(size)),
    ])
}

/// `pure/Map.fromIter(entries, compare)`: each entry added in turn (the size counts every
/// entry given, as pure/Map's `fromIter` does).
pub(super) fn map_of_entries(
    it: &mut Interp,
    compare: &Value,
    entries: Vec<(Value, Value)>,
) -> EResult<Value> {
    let mut root = leaf();
    let mut size = 0;
    for (k, v) in entries {
        it.tick()?;
        root = blacken(ins(it, "pure/Map", compare, &root, &[k, v], true, 0)?.0);
        size += 1;
    }
    Ok(pure_record(root, size))
}

/// `pure/Set.fromIter(elements, compare)`: each element inserted in turn.
pub(super) fn set_of_elements(
    it: &mut Interp,
    compare: &Value,
    elements: Vec<Value>,
) -> EResult<Value> {
    let mut root = leaf();
    let mut size = 0;
    for x in elements {
        it.tick()?;
        let (t, created) = ins(it, "pure/Set", compare, &root, &[x], false, 0)?;
        if created {
            root = blacken(t);
            size += 1;
        }
    }
    Ok(pure_record(root, size))
}

/// An iterator over a pure structure's items by its module's own function (`entries` of a
/// `pure/Map`, `values` of a `pure/Set`).
pub(super) fn items_of(it: &mut Interp, module: &str, f: &str, v: &Value) -> EResult<Value> {
    let b = super::module_by_name(module)
        .and_then(|m| m.get(f))
        .ok_or_else(|| trap(format!("{module}.{f} is not in mo-mem's built-in library")))?;
    (b.f)(it, None, std::slice::from_ref(v))
}
