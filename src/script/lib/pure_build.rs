//! Building the immutable `mo:core/pure/Map` and `pure/Set` values the mutable modules
//! convert to (`Map.toPure`, `Set.toPure`): red-black trees grown by pure/Map's and
//! pure/Set's own insertion ([`super::rbtree::insert`]), so the tree is the one moc builds;
//! and reading a pure structure's items through the `pure/` modules.

use super::rbtree;
use crate::script::eval::{trap, EResult, Interp};
use crate::script::value::Value;

/// `pure/Map.fromIter(entries, compare)`: each entry added in turn (the size counts every
/// entry given, as pure/Map's `fromIter` does).
pub(super) fn map_of_entries(
    it: &mut Interp,
    compare: &Value,
    entries: Vec<(Value, Value)>,
) -> EResult<Value> {
    let mut root = rbtree::leaf();
    let mut size = 0;
    for (k, v) in entries {
        it.tick()?;
        root = rbtree::insert(it, rbtree::MAP, &root, compare, &k, &v)?.0;
        size += 1;
    }
    Ok(rbtree::record(root, Value::Nat(size)))
}

/// `pure/Set.fromIter(elements, compare)`: each element inserted in turn.
pub(super) fn set_of_elements(
    it: &mut Interp,
    compare: &Value,
    elements: Vec<Value>,
) -> EResult<Value> {
    let mut root = rbtree::leaf();
    let mut size = 0;
    for x in elements {
        it.tick()?;
        let (t, done) = rbtree::insert(it, rbtree::SET, &root, compare, &x, &Value::Unit)?;
        if done.created {
            root = t;
            size += 1;
        }
    }
    Ok(rbtree::record(root, Value::Nat(size)))
}

/// An iterator over a pure structure's items by its module's own function (`entries` of a
/// `pure/Map`, `values` of a `pure/Set`).
pub(super) fn items_of(it: &mut Interp, module: &str, f: &str, v: &Value) -> EResult<Value> {
    let b = super::module_by_name(module)
        .and_then(|m| m.get(f))
        .ok_or_else(|| trap(format!("{module}.{f} is not in mo-mem's built-in library")))?;
    (b.f)(it, None, std::slice::from_ref(v))
}
