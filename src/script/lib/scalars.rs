//! Functions of the small scalar modules: `Bool`'s logic and `allValues`, `Order.allValues`,
//! `Debug.todo`, and `Option`'s `apply`, `compare`, `flatten` and `getMapped` (which read an
//! option held by the canister too, through [`super::view`]).

use super::args::{arg, bool_of, wrong};
use super::iters::{iter_value, VecIter};
use super::view;
use crate::script::eval::{trap_in_prim, EResult, Interp};
use crate::script::value::Value;
use std::rc::Rc;

type R = EResult;

/// Arguments 0 and 1, Bools.
fn bools(a: &[Value], who: &str) -> EResult<(bool, bool)> {
    Ok((
        bool_of(arg(a, 0, who)?, who)?,
        bool_of(arg(a, 1, who)?, who)?,
    ))
}

/// `Bool.logicalAnd(a, b)`.
pub fn logical_and(_: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let (x, y) = bools(a, "Bool.logicalAnd")?;
    Ok(Value::Bool(x && y))
}

/// `Bool.logicalOr(a, b)`.
pub fn logical_or(_: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let (x, y) = bools(a, "Bool.logicalOr")?;
    Ok(Value::Bool(x || y))
}

/// `Bool.logicalXor(a, b)`.
pub fn logical_xor(_: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let (x, y) = bools(a, "Bool.logicalXor")?;
    Ok(Value::Bool(x != y))
}

/// `Bool.logicalNot(a)`.
pub fn logical_not(_: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let who = "Bool.logicalNot";
    Ok(Value::Bool(!bool_of(arg(a, 0, who)?, who)?))
}

/// An iterator over `items`.
fn values_of(items: Vec<Value>) -> Value {
    iter_value(VecIter {
        items: Rc::from(items),
        pos: 0,
    })
}

/// `Bool.allValues()`: `true`, then `false`.
pub fn bool_all_values(_: &mut Interp, _: Option<&Value>, _: &[Value]) -> R {
    Ok(values_of(vec![Value::Bool(true), Value::Bool(false)]))
}

/// `Order.allValues()`: `#less`, `#equal`, `#greater`.
pub fn order_all_values(_: &mut Interp, _: Option<&Value>, _: &[Value]) -> R {
    Ok(values_of(
        ["less", "equal", "greater"]
            .iter()
            .map(|t| Value::variant(t, Value::Unit))
            .collect(),
    ))
}

/// `Debug.todo()`: core's `Runtime.trap("Debug.todo()")`.
pub fn debug_todo(_: &mut Interp, _: Option<&Value>, _: &[Value]) -> R {
    Err(trap_in_prim(
        "prim:63.31-63.42",
        "explicit trap: Debug.todo()",
    ))
}

/// Argument `i`, an option: `Some(x)` for `?x`, `None` for `null`.
fn option_arg(it: &mut Interp, a: &[Value], i: usize, who: &str) -> EResult<Option<Value>> {
    let v = arg(a, i, who)?;
    view::option(it, v)?.ok_or_else(|| wrong(who, "option", v))
}

/// `Option.apply(x, f)`: `?f(x)` when both are there, else `null`.
pub fn option_apply(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let x = option_arg(it, a, 0, "Option.apply")?;
    let f = option_arg(it, a, 1, "Option.apply")?;
    match (f, x) {
        (Some(f), Some(x)) => Ok(Value::some(it.call_value(&f, &[x])?)),
        _ => Ok(Value::Null),
    }
}

/// `Option.compare(x, y, compare)`: `null` first, then by `compare`.
pub fn option_compare(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let who = "Option.compare";
    let x = option_arg(it, a, 0, who)?;
    let y = option_arg(it, a, 1, who)?;
    let order = |o: std::cmp::Ordering| Ok(super::collections::order_value(o));
    match (x, y) {
        (None, None) => order(std::cmp::Ordering::Equal),
        (None, Some(_)) => order(std::cmp::Ordering::Less),
        (Some(_), None) => order(std::cmp::Ordering::Greater),
        (Some(x), Some(y)) => {
            let compare = arg(a, 2, who)?.clone();
            it.call_value(&compare, &[x, y])
        }
    }
}

/// `Option.flatten(x)`: `?y` for `??y`, else `null`.
pub fn option_flatten(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    Ok(option_arg(it, a, 0, "Option.flatten")?.unwrap_or(Value::Null))
}

/// `Option.getMapped(x, f, default)`: `f(y)` for `?y`, else `default`.
pub fn option_get_mapped(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let who = "Option.getMapped";
    match option_arg(it, a, 0, who)? {
        Some(x) => {
            let f = arg(a, 1, who)?.clone();
            it.call_value(&f, &[x])
        }
        None => Ok(arg(a, 2, who)?.clone()),
    }
}
