//! `mo:base/Deque`: base's double-ended queue, a pair of base lists `(front, back)` (the
//! back reversed) that base rebalances when one side runs empty. Every function keeps base's
//! exact shapes, so `debug_show` of a deque the script builds is base's, and reads a deque a
//! canister holds.

use super::args::arg;
use super::base_list::{build, pair, prefix, uncons};
use super::view;
use super::Module;
use crate::script::eval::{EResult, Interp};
use crate::script::value::Value;

type R = EResult;

/// The two lists of a deque.
fn sides(it: &mut Interp, a: &[Value], who: &str) -> EResult<(Value, Value)> {
    let d = arg(a, 0, who)?;
    match &view::parts(it, d)?[..] {
        [front, back] => Ok((front.clone(), back.clone())),
        _ => Err(super::args::wrong(who, "Deque", d)),
    }
}

/// All elements of a list, head first.
fn all(it: &mut Interp, l: &Value, who: &str) -> EResult<Vec<Value>> {
    Ok(prefix(it, l, usize::MAX, who)?.0)
}

/// Base's rebalancing: when one side is empty, the other's back half (by `size / 2`) moves
/// over, reversed.
fn check(it: &mut Interp, front: Value, back: Value, who: &str) -> R {
    let front_empty = uncons(it, &front, who)?.is_none();
    let back_empty = uncons(it, &back, who)?.is_none();
    if front_empty {
        let xs = all(it, &back, who)?;
        let (a, b) = split_at_half(it, xs)?;
        let mut b = b;
        b.reverse();
        return Ok(pair(build(it, b, Value::Null)?, a));
    }
    if back_empty {
        let xs = all(it, &front, who)?;
        let (a, b) = split_at_half(it, xs)?;
        let mut b = b;
        b.reverse();
        return Ok(pair(a, build(it, b, Value::Null)?));
    }
    Ok(pair(front, back))
}

/// `List.split(size / 2, xs)` of base: the first half as a list, the rest as elements.
fn split_at_half(it: &mut Interp, mut xs: Vec<Value>) -> EResult<(Value, Vec<Value>)> {
    let rest = xs.split_off(xs.len() / 2);
    Ok((build(it, xs, Value::Null)?, rest))
}

fn empty(_: &mut Interp, _: Option<&Value>, _: &[Value]) -> R {
    Ok(pair(Value::Null, Value::Null))
}

fn is_empty(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let (f, b) = sides(it, a, "Deque.isEmpty")?;
    let empty =
        uncons(it, &f, "Deque.isEmpty")?.is_none() && uncons(it, &b, "Deque.isEmpty")?.is_none();
    Ok(Value::Bool(empty))
}

fn push_front(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let (f, b) = sides(it, a, "Deque.pushFront")?;
    let x = arg(a, 1, "Deque.pushFront")?.clone();
    let f = build(it, vec![x], f)?;
    check(it, f, b, "Deque.pushFront")
}

fn push_back(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let (f, b) = sides(it, a, "Deque.pushBack")?;
    let x = arg(a, 1, "Deque.pushBack")?.clone();
    let b = build(it, vec![x], b)?;
    check(it, f, b, "Deque.pushBack")
}

/// The first element of `l`, else the first of `other` (a one-sided deque).
fn peek(it: &mut Interp, l: &Value, other: &Value, who: &str) -> R {
    let first = match uncons(it, l, who)? {
        Some((x, _)) => Some(x),
        None => uncons(it, other, who)?.map(|(x, _)| x),
    };
    Ok(first.map_or(Value::Null, Value::some))
}

fn peek_front(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let (f, b) = sides(it, a, "Deque.peekFront")?;
    peek(it, &f, &b, "Deque.peekFront")
}

fn peek_back(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let (f, b) = sides(it, a, "Deque.peekBack")?;
    peek(it, &b, &f, "Deque.peekBack")
}

fn pop_front(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let who = "Deque.popFront";
    let (f, b) = sides(it, a, who)?;
    if let Some((x, rest)) = uncons(it, &f, who)? {
        return Ok(Value::some(pair(x, check(it, rest, b, who)?)));
    }
    Ok(match uncons(it, &b, who)? {
        Some((x, rest)) => Value::some(pair(x, check(it, Value::Null, rest, who)?)),
        None => Value::Null,
    })
}

fn pop_back(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let who = "Deque.popBack";
    let (f, b) = sides(it, a, who)?;
    if let Some((x, rest)) = uncons(it, &b, who)? {
        return Ok(Value::some(pair(check(it, f, rest, who)?, x)));
    }
    Ok(match uncons(it, &f, who)? {
        Some((x, rest)) => Value::some(pair(check(it, rest, Value::Null, who)?, x)),
        None => Value::Null,
    })
}

/// `mo:base/Deque`.
pub static BASE_DEQUE_MOD: Module = Module {
    name: "base/Deque",
    members: &[
        func!("empty", empty),
        func!("isEmpty", is_empty),
        func!("pushFront", push_front),
        func!("peekFront", peek_front),
        func!("popFront", pop_front),
        func!("pushBack", push_back),
        func!("peekBack", peek_back),
        func!("popBack", pop_back),
    ],
};
