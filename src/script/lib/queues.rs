//! Read access to the mutable core `Queue` (a doubly linked list `{ var front; var back;
//! var size }`), `Stack` (`{ var top : pure List; var size }`) and `PriorityQueue` (`{ heap :
//! List }`, a binary heap) a canister holds. Scripts read them in the structure's order (a
//! queue front to back, a stack top to bottom, a priority queue highest priority first);
//! they cannot build them.

use super::args::{arg, usize_arg, wrong};
use super::collections::sort_by_compare;
use super::containers::{items_iter, list_items};
use super::pure::{list_nth, list_of};
use super::{view, Module};
use crate::script::eval::{EResult, Interp};
use crate::script::value::Value;
use std::rc::Rc;

type R = EResult;

/// The `size` field of a queue or stack.
fn size_of(it: &mut Interp, v: &Value, what: &str) -> EResult<u64> {
    match view::field(it, v, "size")? {
        Some(Value::Nat(n)) => Ok(n),
        _ => Err(wrong(what, what, v)),
    }
}

/// The values of a queue, front to back: at most `size` nodes along `next` (a damaged
/// image cannot make the walk run in a cycle).
fn queue_items(it: &mut Interp, q: &Value) -> EResult<Vec<Value>> {
    let size = size_of(it, q, "Queue")?;
    let mut node = view::field(it, q, "front")?.ok_or_else(|| wrong("Queue", "Queue", q))?;
    let mut out = Vec::new();
    while (out.len() as u64) < size {
        it.tick()?;
        let Some(Some(n)) = view::option(it, &node)? else {
            break;
        };
        let value = view::field(it, &n, "value")?.ok_or_else(|| wrong("Queue", "node", &n))?;
        it.alloc(16)?;
        out.push(value);
        node = view::field(it, &n, "next")?.unwrap_or(Value::Null);
    }
    Ok(out)
}

/// The stack's `top` list.
fn stack_top(it: &mut Interp, s: &Value) -> R {
    view::field(it, s, "top")?.ok_or_else(|| wrong("Stack", "Stack", s))
}

/// The values of a stack, top to bottom.
fn stack_items(it: &mut Interp, s: &Value) -> EResult<Vec<Value>> {
    let top = stack_top(it, s)?;
    list_of(it, &top, "Stack")
}

fn queue_size(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    Ok(Value::Nat(size_of(it, arg(a, 0, "Queue.size")?, "Queue")?))
}

fn queue_is_empty(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    Ok(Value::Bool(
        size_of(it, arg(a, 0, "Queue.isEmpty")?, "Queue")? == 0,
    ))
}

/// The value of the node at the queue's `end` (`front` or `back`), reading that node only.
fn queue_end(it: &mut Interp, a: &[Value], end: &str, who: &str) -> R {
    let q = arg(a, 0, who)?;
    let node = view::field(it, q, end)?.ok_or_else(|| wrong(who, "Queue", q))?;
    let Some(Some(n)) = view::option(it, &node)? else {
        return Ok(Value::Null);
    };
    let value = view::field(it, &n, "value")?.ok_or_else(|| wrong(who, "node", &n))?;
    Ok(Value::some(value))
}

fn queue_peek_front(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    queue_end(it, a, "front", "Queue.peekFront")
}

fn queue_peek_back(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    queue_end(it, a, "back", "Queue.peekBack")
}

fn queue_values(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    Ok(items_iter(queue_items(it, arg(a, 0, "Queue.values")?)?))
}

fn queue_to_array(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let items = queue_items(it, arg(a, 0, "Queue.toArray")?)?;
    Ok(Value::Array(Rc::from(items)))
}

fn stack_size(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    Ok(Value::Nat(size_of(it, arg(a, 0, "Stack.size")?, "Stack")?))
}

fn stack_is_empty(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    Ok(Value::Bool(
        size_of(it, arg(a, 0, "Stack.isEmpty")?, "Stack")? == 0,
    ))
}

fn stack_peek(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let top = stack_top(it, arg(a, 0, "Stack.peek")?)?;
    list_nth(it, &top, 0, "Stack")
}

fn stack_get(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let top = stack_top(it, arg(a, 0, "Stack.get")?)?;
    let i = usize_arg(a, 1, "Stack.get")?;
    list_nth(it, &top, i, "Stack")
}

fn stack_values(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    Ok(items_iter(stack_items(it, arg(a, 0, "Stack.values")?)?))
}

fn stack_to_array(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let items = stack_items(it, arg(a, 0, "Stack.toArray")?)?;
    Ok(Value::Array(Rc::from(items)))
}

/// The elements of a priority queue, in its heap's order (the first is the highest).
fn heap_items(it: &mut Interp, pq: &Value, who: &str) -> EResult<Vec<Value>> {
    let heap = view::field(it, pq, "heap")?.ok_or_else(|| wrong(who, "PriorityQueue", pq))?;
    list_items(it, &heap)
}

fn pq_size(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let items = heap_items(it, arg(a, 0, "PriorityQueue.size")?, "PriorityQueue.size")?;
    Ok(Value::Nat(items.len() as u64))
}

fn pq_is_empty(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let items = heap_items(
        it,
        arg(a, 0, "PriorityQueue.isEmpty")?,
        "PriorityQueue.isEmpty",
    )?;
    Ok(Value::Bool(items.is_empty()))
}

fn pq_peek(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let items = heap_items(it, arg(a, 0, "PriorityQueue.peek")?, "PriorityQueue.peek")?;
    Ok(items.into_iter().next().map_or(Value::Null, Value::some))
}

/// `PriorityQueue.values(pq, compare)`: highest priority first, as `pop` would give them.
fn pq_values(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let who = "PriorityQueue.values";
    let items = heap_items(it, arg(a, 0, who)?, who)?;
    let mut sorted = sort_by_compare(it, items, arg(a, 1, who)?, who)?;
    sorted.reverse();
    Ok(items_iter(sorted))
}

/// `mo:core/Queue` (reading).
pub static QUEUE_MOD: Module = Module {
    name: "Queue",
    members: &[
        func!("isEmpty", queue_is_empty),
        func!("size", queue_size),
        func!("peekFront", queue_peek_front),
        func!("peekBack", queue_peek_back),
        func!("values", queue_values),
        func!("toArray", queue_to_array),
    ],
};

/// `mo:core/Stack` (reading).
pub static STACK_MOD: Module = Module {
    name: "Stack",
    members: &[
        func!("isEmpty", stack_is_empty),
        func!("size", stack_size),
        func!("peek", stack_peek),
        func!("get", stack_get),
        func!("values", stack_values),
        func!("toArray", stack_to_array),
    ],
};

/// `mo:core/PriorityQueue` (reading).
pub static PRIORITY_QUEUE_MOD: Module = Module {
    name: "PriorityQueue",
    members: &[
        func!("isEmpty", pq_is_empty),
        func!("size", pq_size),
        func!("peek", pq_peek),
        func!("values", pq_values),
    ],
};
