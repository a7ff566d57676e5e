//! `mo:core/pure/Queue`: the immutable double-ended queue `(front, size, back)` of two pure
//! lists, the back one reversed, read from the canister's heap or made by the script. As in
//! core, an operation that leaves one list empty while the other has two or more elements
//! rebalances them (`check`: the full list split at half the size, the far half reversed
//! into the empty one), so a queue a script builds has the lists core's would have.

use super::args::{arg, bool_of, wrong};
use super::iters::{iter_value, VecIter};
use super::pure_list::{array_items, build, build_onto, cell, list_of, order_value, split_at};
use super::rbtree::order;
use super::{view, Module};
use crate::script::eval::{trap, EResult, Interp};
use crate::script::value::Value;
use std::cmp::Ordering;
use std::rc::Rc;

type R = EResult;

const WHAT: &str = "pure/Queue";

/// A queue's parts: `(front, size, back)`.
struct Parts {
    front: Value,
    n: u64,
    back: Value,
}

fn parts(it: &mut Interp, q: &Value) -> EResult<Parts> {
    match &view::parts(it, q)?[..] {
        [front, Value::Nat(n), back] => Ok(Parts {
            front: front.clone(),
            n: *n,
            back: back.clone(),
        }),
        _ => Err(wrong(WHAT, "queue (front, size, back)", q)),
    }
}

fn queue(p: Parts) -> Value {
    Value::Tuple(Rc::from(vec![p.front, Value::Nat(p.n), p.back]))
}

fn empty_queue() -> Value {
    queue(Parts {
        front: Value::Null,
        n: 0,
        back: Value::Null,
    })
}

fn is_null(it: &mut Interp, l: &Value) -> EResult<bool> {
    match view::option(it, l)? {
        Some(x) => Ok(x.is_none()),
        None => Err(wrong(WHAT, "list", l)),
    }
}

/// Core's `check`: a queue with an empty front (else an empty back) gets the other list
/// split at `size / 2`, the far part reversed into the empty side.
fn check(it: &mut Interp, p: Parts) -> EResult<Parts> {
    let half = usize::try_from(p.n / 2).unwrap_or(usize::MAX);
    if is_null(it, &p.front)? {
        let (a, b) = split_at(it, &p.back, half, WHAT)?;
        let mut b = list_of(it, &b, WHAT)?;
        b.reverse();
        return Ok(Parts {
            front: build(it, b)?,
            n: p.n,
            back: build(it, a)?,
        });
    }
    if is_null(it, &p.back)? {
        let (a, b) = split_at(it, &p.front, half, WHAT)?;
        let mut b = list_of(it, &b, WHAT)?;
        b.reverse();
        return Ok(Parts {
            front: build(it, a)?,
            n: p.n,
            back: build(it, b)?,
        });
    }
    Ok(p)
}

/// The elements front to back: the front list, then the back list reversed.
fn items(it: &mut Interp, p: &Parts) -> EResult<Vec<Value>> {
    let mut xs = list_of(it, &p.front, WHAT)?;
    let mut back = list_of(it, &p.back, WHAT)?;
    back.reverse();
    xs.extend(back);
    Ok(xs)
}

fn q_arg(it: &mut Interp, a: &[Value], who: &str) -> EResult<Parts> {
    let q = arg(a, 0, who)?.clone();
    parts(it, &q)
}

fn q_empty(_: &mut Interp, _: Option<&Value>, _: &[Value]) -> R {
    Ok(empty_queue())
}

fn q_singleton(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let x = arg(a, 0, "pure/Queue.singleton")?.clone();
    Ok(queue(Parts {
        front: Value::Null,
        n: 1,
        back: build(it, vec![x])?,
    }))
}

fn q_is_empty(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    Ok(Value::Bool(q_arg(it, a, "pure/Queue.isEmpty")?.n == 0))
}

fn q_size(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    Ok(Value::Nat(q_arg(it, a, "pure/Queue.size")?.n))
}

/// Whether `equal(x, item)` holds for an element `x` of the list `l`, head first.
fn list_contains(it: &mut Interp, l: &Value, eq: &Value, item: &Value) -> EResult<bool> {
    let mut l = l.clone();
    while let Some((x, rest)) = cell(it, &l, WHAT)? {
        if bool_of(&it.call_value(eq, &[x, item.clone()])?, "equal")? {
            return Ok(true);
        }
        l = rest;
    }
    Ok(false)
}

fn q_contains(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let p = q_arg(it, a, "pure/Queue.contains")?;
    let eq = arg(a, 1, "pure/Queue.contains")?;
    let item = arg(a, 2, "pure/Queue.contains")?;
    Ok(Value::Bool(
        list_contains(it, &p.front, eq, item)? || list_contains(it, &p.back, eq, item)?,
    ))
}

/// The head of `near`, else the only element of `far` (core's `peekFront`/`peekBack`).
fn peek(it: &mut Interp, near: &Value, far: &Value) -> R {
    if let Some((x, _)) = cell(it, near, WHAT)? {
        return Ok(Value::some(x));
    }
    match cell(it, far, WHAT)? {
        Some((x, rest)) if is_null(it, &rest)? => Ok(Value::some(x)),
        _ => Ok(Value::Null),
    }
}

fn q_peek_front(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let p = q_arg(it, a, "pure/Queue.peekFront")?;
    peek(it, &p.front, &p.back)
}

fn q_peek_back(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let p = q_arg(it, a, "pure/Queue.peekBack")?;
    peek(it, &p.back, &p.front)
}

fn q_push_front(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let p = q_arg(it, a, "pure/Queue.pushFront")?;
    let x = arg(a, 1, "pure/Queue.pushFront")?.clone();
    let front = build_onto(it, vec![x], p.front)?;
    let p = check(
        it,
        Parts {
            front,
            n: p.n.saturating_add(1),
            back: p.back,
        },
    )?;
    Ok(queue(p))
}

fn q_push_back(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let p = q_arg(it, a, "pure/Queue.pushBack")?;
    let x = arg(a, 1, "pure/Queue.pushBack")?.clone();
    let back = build_onto(it, vec![x], p.back)?;
    let p = check(
        it,
        Parts {
            front: p.front,
            n: p.n.saturating_add(1),
            back,
        },
    )?;
    Ok(queue(p))
}

/// Core's `popFront` (`back` false) or `popBack`: the element at that end and the rest, once
/// `check` has rebalanced a queue whose near list is empty (a queue whose size disagrees
/// with its lists, read from a canister, traps where core would loop).
fn pop(it: &mut Interp, mut p: Parts, back: bool) -> EResult<Option<(Value, Parts)>> {
    if p.n == 0 {
        return Ok(None);
    }
    for _ in 0..2 {
        let (near, far) = if back {
            (&p.back, &p.front)
        } else {
            (&p.front, &p.back)
        };
        if let Some((x, rest)) = cell(it, near, WHAT)? {
            let (near, far) = (rest, far.clone());
            let (front, back) = if back { (far, near) } else { (near, far) };
            return Ok(Some((
                x,
                Parts {
                    front,
                    n: p.n - 1,
                    back,
                },
            )));
        }
        if let Some((x, rest)) = cell(it, far, WHAT)? {
            if is_null(it, &rest)? {
                return Ok(Some((x, parts_of_empty())));
            }
        }
        p = check(it, p)?;
    }
    Err(trap(format!(
        "{WHAT}: the queue's size ({}) does not match its lists",
        p.n
    )))
}

fn parts_of_empty() -> Parts {
    Parts {
        front: Value::Null,
        n: 0,
        back: Value::Null,
    }
}

fn q_pop_front(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let p = q_arg(it, a, "pure/Queue.popFront")?;
    Ok(match pop(it, p, false)? {
        Some((x, rest)) => Value::some(Value::Tuple(Rc::from(vec![x, queue(rest)]))),
        None => Value::Null,
    })
}

fn q_pop_back(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let p = q_arg(it, a, "pure/Queue.popBack")?;
    Ok(match pop(it, p, true)? {
        Some((x, rest)) => Value::some(Value::Tuple(Rc::from(vec![queue(rest), x]))),
        None => Value::Null,
    })
}

fn q_reverse(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let p = q_arg(it, a, "pure/Queue.reverse")?;
    Ok(queue(Parts {
        front: p.back,
        n: p.n,
        back: p.front,
    }))
}

/// A queue of `xs` front to back, as core's `fromIter` and `fromArray` make it.
fn of_items(it: &mut Interp, xs: Vec<Value>) -> R {
    let n = xs.len() as u64;
    let front = build(it, xs)?;
    let p = check(
        it,
        Parts {
            front,
            n,
            back: Value::Null,
        },
    )?;
    Ok(queue(p))
}

fn q_from_array(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let xs = array_items(
        it,
        arg(a, 0, "pure/Queue.fromArray")?,
        "pure/Queue.fromArray",
    )?;
    of_items(it, xs)
}

fn q_from_iter(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let xs = super::iters::collect(it, arg(a, 0, "pure/Queue.fromIter")?)?;
    of_items(it, xs)
}

fn q_to_array(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let p = q_arg(it, a, "pure/Queue.toArray")?;
    let mut xs = items(it, &p)?;
    if (xs.len() as u64) < p.n {
        return Err(trap("pure/Queue.toArray: unexpected end of iterator"));
    }
    xs.truncate(p.n as usize);
    Ok(Value::Array(Rc::from(xs)))
}

fn q_values(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let p = q_arg(it, a, "pure/Queue.values")?;
    let xs = items(it, &p)?;
    Ok(iter_value(VecIter {
        items: Rc::from(xs),
        pos: 0,
    }))
}

/// The first element, front to back, for which `pred` answers `want`.
fn first_where(it: &mut Interp, a: &[Value], want: bool, who: &str) -> EResult<bool> {
    let p = q_arg(it, a, who)?;
    let pred = arg(a, 1, who)?;
    for x in items(it, &p)? {
        it.tick()?;
        if bool_of(&it.call_value(pred, &[x])?, who)? == want {
            return Ok(true);
        }
    }
    Ok(false)
}

fn q_all(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    Ok(Value::Bool(!first_where(it, a, false, "pure/Queue.all")?))
}

fn q_any(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    Ok(Value::Bool(first_where(it, a, true, "pure/Queue.any")?))
}

fn q_for_each(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let p = q_arg(it, a, "pure/Queue.forEach")?;
    let f = arg(a, 1, "pure/Queue.forEach")?;
    for x in items(it, &p)? {
        it.tick()?;
        it.call_value(f, &[x])?;
    }
    Ok(Value::Unit)
}

/// What `map`, `filter` and `filterMap` keep of an element.
#[derive(Clone, Copy)]
enum Op {
    Map,
    Filter,
    FilterMap,
}

/// The list `l` transformed by `op` with `f`, head first.
fn transform_list(it: &mut Interp, l: &Value, f: &Value, op: Op) -> EResult<Vec<Value>> {
    let mut out = Vec::new();
    for x in list_of(it, l, WHAT)? {
        it.tick()?;
        let r = it.call_value(f, std::slice::from_ref(&x))?;
        let kept = match op {
            Op::Map => Some(r),
            Op::Filter => bool_of(&r, "pure/Queue.filter")?.then_some(x),
            Op::FilterMap => match view::option(it, &r)? {
                Some(v) => v,
                None => return Err(wrong("pure/Queue.filterMap", "option", &r)),
            },
        };
        out.extend(kept);
    }
    Ok(out)
}

/// Core's `map` (the lists as they are, the front one first), `filter` and `filterMap` (then
/// `check`ed).
fn transform(it: &mut Interp, a: &[Value], op: Op, who: &str) -> R {
    let p = q_arg(it, a, who)?;
    let f = arg(a, 1, who)?;
    let front = transform_list(it, &p.front, f, op)?;
    let back = transform_list(it, &p.back, f, op)?;
    let n = (front.len() + back.len()) as u64;
    let p = Parts {
        n: if matches!(op, Op::Map) { p.n } else { n },
        front: build(it, front)?,
        back: build(it, back)?,
    };
    Ok(queue(if matches!(op, Op::Map) {
        p
    } else {
        check(it, p)?
    }))
}

fn q_map(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    transform(it, a, Op::Map, "pure/Queue.map")
}

fn q_filter(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    transform(it, a, Op::Filter, "pure/Queue.filter")
}

fn q_filter_map(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    transform(it, a, Op::FilterMap, "pure/Queue.filterMap")
}

fn q_to_text(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let p = q_arg(it, a, "pure/Queue.toText")?;
    let f = arg(a, 1, "pure/Queue.toText")?;
    let mut text = String::from("PureQueue[");
    let mut chars = 10usize;
    for x in items(it, &p)? {
        // core adds the separator once the text is longer than its opening
        if chars > 10 {
            text.push_str(", ");
            chars += 2;
        }
        let s = match it.call_value(f, &[x])? {
            Value::Text(t) => t,
            other => return Err(wrong("pure/Queue.toText", "Text", &other)),
        };
        it.alloc(s.len() as u64 + 2)?;
        chars += s.chars().count();
        text.push_str(&s);
    }
    text.push(']');
    Ok(Value::text(&text))
}

fn q_equal(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let p1 = q_arg(it, a, "pure/Queue.equal")?;
    let other = arg(a, 1, "pure/Queue.equal")?.clone();
    let p2 = parts(it, &other)?;
    let eq = arg(a, 2, "pure/Queue.equal")?;
    if p1.n != p2.n {
        return Ok(Value::Bool(false));
    }
    let (xs, ys) = (items(it, &p1)?, items(it, &p2)?);
    for (x, y) in xs.iter().zip(&ys) {
        it.tick()?;
        if !bool_of(
            &it.call_value(eq, &[x.clone(), y.clone()])?,
            "pure/Queue.equal",
        )? {
            return Ok(Value::Bool(false));
        }
    }
    // lists longer or shorter than the size says (only a damaged queue) are not equal
    Ok(Value::Bool(xs.len() == ys.len()))
}

fn q_compare(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let p1 = q_arg(it, a, "pure/Queue.compare")?;
    let other = arg(a, 1, "pure/Queue.compare")?.clone();
    let p2 = parts(it, &other)?;
    let cmp = arg(a, 2, "pure/Queue.compare")?;
    let (xs, ys) = (items(it, &p1)?, items(it, &p2)?);
    let (nx, ny) = (xs.len(), ys.len());
    for (x, y) in xs.into_iter().zip(ys) {
        let o = order(it, "pure/Queue.compare", cmp, &x, &y)?;
        if o != Ordering::Equal {
            return Ok(order_value(o));
        }
    }
    Ok(order_value(nx.cmp(&ny)))
}

/// `mo:core/pure/Queue`.
pub static PURE_QUEUE_MOD: Module = Module {
    name: "pure/Queue",
    members: &[
        func!("empty", q_empty),
        func!("singleton", q_singleton),
        func!("isEmpty", q_is_empty),
        func!("size", q_size),
        func!("contains", q_contains),
        func!("peekFront", q_peek_front),
        func!("peekBack", q_peek_back),
        func!("pushFront", q_push_front),
        func!("pushBack", q_push_back),
        func!("popFront", q_pop_front),
        func!("popBack", q_pop_back),
        func!("reverse", q_reverse),
        func!("fromArray", q_from_array),
        func!("fromIter", q_from_iter),
        func!("toQueue", q_from_iter),
        func!("toArray", q_to_array),
        func!("values", q_values),
        func!("all", q_all),
        func!("any", q_any),
        func!("forEach", q_for_each),
        func!("map", q_map),
        func!("filter", q_filter),
        func!("filterMap", q_filter_map),
        func!("toText", q_to_text),
        func!("compare", q_compare),
        func!("equal", q_equal),
    ],
};
