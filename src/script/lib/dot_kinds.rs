//! Which `self` types a value can stand for: the engine has no static types, so a contextual
//! dot call (`x.f(args)`) is resolved by the receiver's run-time shape. Each test answers
//! how well the value fits (0 exactly, 1 through subtyping or an ambiguous shape) and reads
//! a host value from the heap only as far as the test needs (a field or a root node).

use super::native_queue::NativeQueue;
use super::view;
use crate::script::eval::{EResult, Interp};
use crate::script::value::Value;

/// How well `v` fits the `self` kind `kind` of a core signature (`"Nat"`, `"Array"`,
/// `"Map"`, `"pure/List"`...): `Some(0)` exactly, `Some(1)` less specifically (a `Nat` as
/// an `Int`, an empty tree as either a map or a set), `None` not at all.
pub fn fit(it: &mut Interp, v: &Value, kind: &str) -> EResult<Option<u8>> {
    Ok(match (kind, v) {
        ("Nat", Value::Nat(_) | Value::BigNat(_)) => Some(0),
        ("Int", Value::Int(_) | Value::BigInt(_)) => Some(0),
        ("Int", Value::Nat(_) | Value::BigNat(_)) => Some(1),
        ("Nat8", Value::Nat8(_))
        | ("Nat16", Value::Nat16(_))
        | ("Nat32", Value::Nat32(_))
        | ("Nat64", Value::Nat64(_))
        | ("Int8", Value::Int8(_))
        | ("Int16", Value::Int16(_))
        | ("Int32", Value::Int32(_))
        | ("Int64", Value::Int64(_))
        | ("Float", Value::Float(_))
        | ("Char", Value::Char(_))
        | ("Text", Value::Text(_))
        | ("Bool", Value::Bool(_))
        | ("Blob", Value::Blob(_))
        | ("Principal", Value::Principal(_))
        | ("Array", Value::Array(_))
        | ("VarArray", Value::VarArray(_))
        | ("Iter", Value::Iter(_)) => Some(0),
        ("Array" | "VarArray", Value::Host(h))
            if !crate::script::host::lazy::is_lazy_tuple(&**h) =>
        {
            // a lazily read array (mutable or not: the heap keeps no difference we read; a
            // lazily read tuple answers `size` too, but is no array)
            match h.call("size", &[]) {
                Ok(Some(Value::Nat(_))) => {
                    it.charge_host(&**h)?;
                    Some(u8::from(kind == "VarArray"))
                }
                _ => None,
            }
        }
        ("Iter", Value::Record(_) | Value::Host(_)) => {
            let next = view::field(it, v, "next")?;
            next.filter(|f| matches!(f, Value::Func(_) | Value::Builtin(_)))
                .map(|_| 0)
        }
        ("Option", _) => match view::option(it, v)? {
            Some(Some(x)) if looks_like_cell(it, &x)? => Some(1),
            Some(_) => Some(0),
            None => None,
        },
        ("pure/List", _) => match view::option(it, v)? {
            Some(Some(x)) if looks_like_cell(it, &x)? => Some(0),
            Some(_) => Some(1),
            None => None,
        },
        ("Result", _) => tag_in(it, v, &["ok", "err"])?,
        ("Order", _) => tag_in(it, v, &["less", "equal", "greater"])?,
        ("Queue", Value::Host(h)) if h.as_any().is::<NativeQueue>() => Some(0),
        ("Map" | "Set" | "pure/Map" | "pure/Set", Value::Record(_) | Value::Host(_)) => {
            tree_fit(it, v, kind)?
        }
        ("pure/Queue", Value::Tuple(_) | Value::Host(_)) => queue_fit(it, v)?,
        ("List", Value::Record(_) | Value::Host(_)) => has(it, v, "blocks")?,
        ("Queue", Value::Record(_) | Value::Host(_)) => has(it, v, "front")?,
        ("Stack", Value::Record(_) | Value::Host(_)) => has(it, v, "top")?,
        ("PriorityQueue", Value::Record(_) | Value::Host(_)) => has(it, v, "heap")?,
        _ => None,
    })
}

/// `Some(0)` if `v` is a `pure/Queue` `(front, size, back)`: a triple of a list, a `Nat`
/// and a list.
fn queue_fit(it: &mut Interp, v: &Value) -> EResult<Option<u8>> {
    if view::len(it, v)? != Some(3) {
        return Ok(None);
    }
    if !matches!(view::part(it, v, 1)?, Some(Value::Nat(_))) {
        return Ok(None);
    }
    for i in [0, 2] {
        let Some(l) = view::part(it, v, i)? else {
            return Ok(None);
        };
        if view::option(it, &l)?.is_none() {
            return Ok(None);
        }
    }
    Ok(Some(0))
}

/// `Some(0)` if `v` is a record (eager or read lazily) with field `name`.
fn has(it: &mut Interp, v: &Value, name: &str) -> EResult<Option<u8>> {
    Ok(view::field(it, v, name)?.map(|_| 0))
}

/// `Some(0)` if `v` is a variant whose tag is one of `tags`.
fn tag_in(it: &mut Interp, v: &Value, tags: &[&str]) -> EResult<Option<u8>> {
    Ok(match view::variant(it, v)? {
        Some((tag, _)) if tags.contains(&&*tag) => Some(0),
        _ => None,
    })
}

/// Whether `x` (the content of an option) looks like a `pure/List` cell `(head, tail)`
/// whose tail is an option.
fn looks_like_cell(it: &mut Interp, x: &Value) -> EResult<bool> {
    match x {
        Value::Tuple(parts) => match &parts[..] {
            [_, tail] => Ok(view::option(it, tail)?.is_some()),
            _ => Ok(false),
        },
        // a lazily read tuple: its size, then its tail
        Value::Host(h) => {
            let size = h.call("size", &[]);
            it.charge_host(&**h)?;
            if !matches!(size, Ok(Some(Value::Nat(2)))) {
                return Ok(false);
            }
            let tail = h.call("get", &[Value::Nat(1)]);
            it.charge_host(&**h)?;
            match tail {
                Ok(Some(t)) => Ok(view::option(it, &t)?.is_some()),
                _ => Ok(false),
            }
        }
        _ => Ok(false),
    }
}

/// How a `{ root; size }` record fits `kind`: a core B-tree (`#leaf`/`#internal` nodes
/// holding `data.kvs` for a `Map`, `data.elements` for a `Set`) or a red-black tree
/// (`#red`/`#black` nodes of four parts for a `pure/Map`, three for a `pure/Set`; an empty
/// one, `#leaf`, fits either less specifically).
fn tree_fit(it: &mut Interp, v: &Value, kind: &str) -> EResult<Option<u8>> {
    let Some(root) = view::field(it, v, "root")? else {
        return Ok(None);
    };
    if view::field(it, v, "size")?.is_none() {
        return Ok(None);
    }
    let Some((tag, body)) = view::variant(it, &root)? else {
        return Ok(None);
    };
    let data = match &*tag {
        "leaf" | "internal" => view::field(it, &body, "data")?,
        _ => None,
    };
    Ok(match (kind, data) {
        ("Map", Some(d)) => view::field(it, &d, "kvs")?.map(|_| 0),
        ("Set", Some(d)) => view::field(it, &d, "elements")?.map(|_| 0),
        ("pure/Map" | "pure/Set", None) if &*tag == "leaf" => Some(1),
        ("pure/Map" | "pure/Set", None) if matches!(&*tag, "red" | "black") => {
            let want = if kind == "pure/Map" { 4 } else { 3 };
            let n = match &body {
                Value::Tuple(parts) => parts.len(),
                Value::Host(h) => {
                    let n = h.call("size", &[]);
                    it.charge_host(&**h)?;
                    match n {
                        Ok(Some(Value::Nat(n))) => usize::try_from(n).unwrap_or(0),
                        _ => 0,
                    }
                }
                _ => 0,
            };
            (n == want).then_some(0)
        }
        _ => None,
    })
}
