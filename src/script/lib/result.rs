//! `mo:core/Result`: the `#ok`/`#err` variants and the functions over them.

use super::args::{arg, wrong};
use super::Module;
use crate::script::eval::{trap, EResult, Interp};
use crate::script::value::Value;
use std::cmp::Ordering;

type R = EResult;

/// `(true, x)` for `#ok x`, `(false, e)` for `#err e`.
fn split<'a>(a: &'a [Value], who: &str) -> EResult<(bool, &'a Value)> {
    match arg(a, 0, who)? {
        Value::Variant(tv) if &*tv.0 == "ok" => Ok((true, &tv.1)),
        Value::Variant(tv) if &*tv.0 == "err" => Ok((false, &tv.1)),
        other => Err(wrong(who, "Result", other)),
    }
}

fn is_ok(_: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    Ok(Value::Bool(split(a, "Result.isOk")?.0))
}

fn is_err(_: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    Ok(Value::Bool(!split(a, "Result.isErr")?.0))
}

/// Applies `f` (argument 1) to the payload of the `ok_side` variant, re-wrapping it.
fn map_side(it: &mut Interp, a: &[Value], who: &str, ok_side: bool) -> R {
    let (ok, x) = split(a, who)?;
    if ok != ok_side {
        return Ok(a[0].clone());
    }
    let f = arg(a, 1, who)?.clone();
    let y = it.call_value(&f, std::slice::from_ref(x))?;
    Ok(Value::variant(if ok { "ok" } else { "err" }, y))
}

fn map_ok(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    map_side(it, a, "Result.mapOk", true)
}

fn map_err(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    map_side(it, a, "Result.mapErr", false)
}

/// `Result.chain(r, f)`: `f x` for `#ok x`, the error unchanged.
fn chain(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    match split(a, "Result.chain")? {
        (true, x) => {
            let f = arg(a, 1, "Result.chain")?.clone();
            it.call_value(&f, std::slice::from_ref(x))
        }
        (false, _) => Ok(a[0].clone()),
    }
}

/// `Result.flatten(r)`: `#ok (#ok x)` to `#ok x`.
fn flatten(_: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    match split(a, "Result.flatten")? {
        (true, inner) => Ok(inner.clone()),
        (false, _) => Ok(a[0].clone()),
    }
}

/// `Result.toOption(r)`: `?x` for `#ok x`, `null` for an error.
fn to_option(_: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    Ok(match split(a, "Result.toOption")? {
        (true, x) => Value::some(x.clone()),
        (false, _) => Value::Null,
    })
}

/// `Result.fromOption(o, e)`: `#ok x` for `?x`, `#err e` for `null`.
fn from_option(_: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    match arg(a, 0, "Result.fromOption")? {
        Value::Opt(x) => Ok(Value::variant("ok", (**x).clone())),
        Value::Null => Ok(Value::variant(
            "err",
            arg(a, 1, "Result.fromOption")?.clone(),
        )),
        other => Err(wrong("Result.fromOption", "option", other)),
    }
}

/// Calls `f` (argument 1) on the payload of the `ok_side` variant, for its effect.
fn for_side(it: &mut Interp, a: &[Value], who: &str, ok_side: bool) -> R {
    let (ok, x) = split(a, who)?;
    if ok == ok_side {
        let f = arg(a, 1, who)?.clone();
        it.call_value(&f, std::slice::from_ref(x))?;
    }
    Ok(Value::Unit)
}

fn for_ok(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    for_side(it, a, "Result.forOk", true)
}

fn for_err(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    for_side(it, a, "Result.forErr", false)
}

fn assert_ok(_: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    match split(a, "Result.assertOk")? {
        (true, _) => Ok(Value::Unit),
        (false, _) => Err(trap("assertion failure")),
    }
}

fn assert_err(_: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    match split(a, "Result.assertErr")? {
        (false, _) => Ok(Value::Unit),
        (true, _) => Err(trap("assertion failure")),
    }
}

/// `Result.compare(r, s, compareOk, compareErr)`: two `#ok`s by `compareOk`, two `#err`s by
/// `compareErr`, else `#ok` above `#err`.
fn compare(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let who = "Result.compare";
    let (x_ok, x) = split(a, who)?;
    let (y_ok, y) = split(&a[1..], who)?;
    if x_ok != y_ok {
        let o = if x_ok {
            Ordering::Greater
        } else {
            Ordering::Less
        };
        return Ok(super::collections::order_value(o));
    }
    let f = arg(a, if x_ok { 2 } else { 3 }, who)?.clone();
    it.call_value(&f, &[x.clone(), y.clone()])
}

/// `Result.equal(r, s, equalOk, equalErr)`: two `#ok`s by `equalOk`, two `#err`s by
/// `equalErr`, else `false`.
fn equal(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let who = "Result.equal";
    let (x_ok, x) = split(a, who)?;
    let (y_ok, y) = split(&a[1..], who)?;
    if x_ok != y_ok {
        return Ok(Value::Bool(false));
    }
    let f = arg(a, if x_ok { 2 } else { 3 }, who)?.clone();
    it.call_value(&f, &[x.clone(), y.clone()])
}

/// `Result.fromUpper(r)`: `#Ok x` to `#ok x`, `#Err e` to `#err e`.
fn from_upper(_: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    match arg(a, 0, "Result.fromUpper")? {
        Value::Variant(tv) if &*tv.0 == "Ok" => Ok(Value::variant("ok", tv.1.clone())),
        Value::Variant(tv) if &*tv.0 == "Err" => Ok(Value::variant("err", tv.1.clone())),
        other => Err(wrong("Result.fromUpper", "{#Ok; #Err}", other)),
    }
}

/// `Result.toUpper(r)`: `#ok x` to `#Ok x`, `#err e` to `#Err e`.
fn to_upper(_: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let (ok, x) = split(a, "Result.toUpper")?;
    Ok(Value::variant(if ok { "Ok" } else { "Err" }, x.clone()))
}

/// `mo:core/Result`.
pub static RESULT_MOD: Module = Module {
    name: "Result",
    members: &[
        func!("isOk", is_ok),
        func!("isErr", is_err),
        func!("mapOk", map_ok),
        func!("mapErr", map_err),
        func!("chain", chain),
        func!("flatten", flatten),
        func!("toOption", to_option),
        func!("fromOption", from_option),
        func!("forOk", for_ok),
        func!("forErr", for_err),
        func!("assertOk", assert_ok),
        func!("assertErr", assert_err),
        func!("compare", compare),
        func!("equal", equal),
        func!("fromUpper", from_upper),
        func!("toUpper", to_upper),
    ],
};
