//! `mo:core/Queue`, `mo:core/Stack` and `mo:core/PriorityQueue`: built by scripts, and read
//! where a canister holds them (a queue front to back, a stack top to bottom, a priority
//! queue highest priority first), through the same functions.
//!
//! A script's stack is core's record (`{ var top : pure List; var size }`) and its priority
//! queue core's (`{ heap : List }`, a binary heap in a [`super::list`] list, sifted by
//! core's `push` and `pop`), so `debug_show` prints what moc prints. A script's queue is a
//! host object ([`NativeQueue`]): core's is a doubly linked list whose nodes point at each
//! other, a cycle (moc's own `debug_show` of a queue of two elements does not end); it
//! shows as core's record while it has at most one element.

use super::args::{arg, bool_of, elems, usize_arg, wrong};
use super::btree::{order, order_variant};
use super::btree_mut::var_field;
use super::containers::items_iter;
use super::native_queue::NativeQueue;
use super::pure::{list_nth, list_of};
use super::{list, view, Module};
use crate::script::eval::{trap, EResult, Interp};
use crate::script::value::Value;
use std::cell::RefCell;
use std::cmp::Ordering;
use std::rc::Rc;

type R = EResult;

/// The `size` field of a queue or stack.
fn size_of(it: &mut Interp, v: &Value, what: &str) -> EResult<u64> {
    if let Some(q) = NativeQueue::of(v) {
        return Ok(q.len() as u64);
    }
    match view::field(it, v, "size")? {
        Some(Value::Nat(n)) => Ok(n),
        _ => Err(wrong(what, what, v)),
    }
}

/// The values of a queue, front to back: a script's, or at most `size` nodes along `next`
/// of the canister's (a damaged image cannot make the walk run in a cycle).
fn queue_items(it: &mut Interp, q: &Value) -> EResult<Vec<Value>> {
    if let Some(n) = NativeQueue::of(q) {
        let items = n.items();
        it.ticks(items.len() as u64)?;
        return Ok(items);
    }
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

/// The script's queue argument `i`, which a changing function may change.
fn changeable_queue<'a>(a: &'a [Value], who: &str) -> EResult<&'a NativeQueue> {
    NativeQueue::of(arg(a, 0, who)?).ok_or_else(|| {
        trap(format!(
            "{who}: only queues created by the script can change"
        ))
    })
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
    if let Some(n) = NativeQueue::of(q) {
        let x = if end == "front" { n.front() } else { n.back() };
        return Ok(x.map_or(Value::Null, Value::some));
    }
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

fn queue_to_var_array(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let items = queue_items(it, arg(a, 0, "Queue.toVarArray")?)?;
    Ok(Value::VarArray(Rc::new(RefCell::new(items))))
}

fn queue_empty(_: &mut Interp, _: Option<&Value>, _: &[Value]) -> R {
    Ok(NativeQueue::value_of(Vec::new()))
}

fn queue_singleton(_: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    Ok(NativeQueue::value_of(vec![
        arg(a, 0, "Queue.singleton")?.clone()
    ]))
}

fn queue_push_front(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let q = changeable_queue(a, "Queue.pushFront")?;
    it.alloc(48)?;
    q.push(arg(a, 1, "Queue.pushFront")?.clone(), true);
    Ok(Value::Unit)
}

fn queue_push_back(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let q = changeable_queue(a, "Queue.pushBack")?;
    it.alloc(48)?;
    q.push(arg(a, 1, "Queue.pushBack")?.clone(), false);
    Ok(Value::Unit)
}

fn queue_pop_front(_: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let q = changeable_queue(a, "Queue.popFront")?;
    Ok(q.pop(true).map_or(Value::Null, Value::some))
}

fn queue_pop_back(_: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let q = changeable_queue(a, "Queue.popBack")?;
    Ok(q.pop(false).map_or(Value::Null, Value::some))
}

fn queue_clear(_: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    changeable_queue(a, "Queue.clear")?.clear();
    Ok(Value::Unit)
}

fn queue_clone(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let items = queue_items(it, arg(a, 0, "Queue.clone")?)?;
    it.alloc(48 * items.len() as u64)?;
    Ok(NativeQueue::value_of(items))
}

/// A new queue of what `next` yields, pushed at the back in order.
fn queue_from(it: &mut Interp, mut next: impl FnMut(&mut Interp) -> EResult<Option<Value>>) -> R {
    let mut items = Vec::new();
    while let Some(x) = next(it)? {
        it.tick()?;
        it.alloc(48)?;
        items.push(x);
    }
    Ok(NativeQueue::value_of(items))
}

fn queue_from_iter(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let iter = arg(a, 0, "Queue.fromIter")?.clone();
    queue_from(it, |it| it.iter_next(&iter))
}

fn queue_to_queue(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let iter = arg(a, 0, "Queue.toQueue")?.clone();
    queue_from(it, |it| it.iter_next(&iter))
}

fn queue_from_array(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let xs = elems(it, arg(a, 0, "Queue.fromArray")?, "Queue.fromArray")?;
    let mut next = xs.iter().cloned();
    queue_from(it, |_| Ok(next.next()))
}

fn queue_from_var_array(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let xs = elems(it, arg(a, 0, "Queue.fromVarArray")?, "Queue.fromVarArray")?;
    let mut next = xs.iter().cloned();
    queue_from(it, |_| Ok(next.next()))
}

/// `map` / `filter` / `filterMap` of a queue or stack's `items` (in order): what to keep.
fn transform(
    it: &mut Interp,
    items: Vec<Value>,
    f: &Value,
    op: Op,
    who: &str,
) -> EResult<Vec<Value>> {
    let mut out = Vec::new();
    for x in items {
        let r = it.call_value(f, std::slice::from_ref(&x))?;
        let kept = match op {
            Op::Map => Some(r),
            Op::Filter => bool_of(&r, who)?.then_some(x),
            Op::FilterMap => view::option(it, &r)?.flatten(),
        };
        if let Some(y) = kept {
            it.alloc(48)?;
            out.push(y);
        }
    }
    Ok(out)
}

#[derive(Clone, Copy)]
enum Op {
    Map,
    Filter,
    FilterMap,
}

fn queue_transform(it: &mut Interp, a: &[Value], who: &str, op: Op) -> R {
    let items = queue_items(it, arg(a, 0, who)?)?;
    let out = transform(it, items, arg(a, 1, who)?, op, who)?;
    Ok(NativeQueue::value_of(out))
}

fn queue_map(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    queue_transform(it, a, "Queue.map", Op::Map)
}

fn queue_filter(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    queue_transform(it, a, "Queue.filter", Op::Filter)
}

fn queue_filter_map(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    queue_transform(it, a, "Queue.filterMap", Op::FilterMap)
}

/// `equal(a, b, equal)` of two sequences (`None`: sizes differ, `false`).
fn seq_equal(it: &mut Interp, x: Vec<Value>, y: Vec<Value>, eq: &Value, who: &str) -> R {
    if x.len() != y.len() {
        return Ok(Value::Bool(false));
    }
    for (x, y) in x.into_iter().zip(y) {
        if !bool_of(&it.call_value(eq, &[x, y])?, who)? {
            return Ok(Value::Bool(false));
        }
    }
    Ok(Value::Bool(true))
}

/// `compare(a, b, compare)` of two sequences: element by element, then the shorter first.
fn seq_compare(it: &mut Interp, x: Vec<Value>, y: Vec<Value>, cmp: &Value, who: &str) -> R {
    let (n1, n2) = (x.len(), y.len());
    for (x, y) in x.into_iter().zip(y) {
        let o = order(it, who, cmp, &x, &y)?;
        if o != Ordering::Equal {
            return Ok(order_variant(o));
        }
    }
    Ok(order_variant(n1.cmp(&n2)))
}

fn queue_equal(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let who = "Queue.equal";
    let x = queue_items(it, arg(a, 0, who)?)?;
    let y = queue_items(it, arg(a, 1, who)?)?;
    seq_equal(it, x, y, arg(a, 2, who)?, who)
}

fn queue_compare(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let who = "Queue.compare";
    let x = queue_items(it, arg(a, 0, who)?)?;
    let y = queue_items(it, arg(a, 1, who)?)?;
    seq_compare(it, x, y, arg(a, 2, who)?, who)
}

/// A pure list `?(x, rest)` of `items`, head first.
fn pure_list(items: impl DoubleEndedIterator<Item = Value>) -> Value {
    items.rev().fold(Value::Null, |rest, x| {
        Value::some(Value::Tuple(Rc::from(vec![x, rest])))
    })
}

/// `Queue.toPure(q)`: a `pure/Queue` (`(front, size, back)`) built as pure/Queue's
/// `pushBack` builds it from empty, one element at a time (its `check` splitting the back
/// list in two when the front runs empty).
fn queue_to_pure(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let items = queue_items(it, arg(a, 0, "Queue.toPure")?)?;
    it.alloc(48 * items.len() as u64)?;
    // `front` head first; `back` oldest first (the pure list holds it newest first)
    let (mut front, mut back): (Vec<Value>, Vec<Value>) = (Vec::new(), Vec::new());
    let mut n = 0usize;
    for x in items {
        back.push(x);
        n += 1;
        if front.is_empty() {
            let m = n / 2;
            let keep = back.len().saturating_sub(m);
            let rest = back.split_off(keep);
            front = std::mem::replace(&mut back, rest);
        }
    }
    Ok(Value::Tuple(Rc::from(vec![
        pure_list(front.into_iter()),
        Value::Nat(n as u64),
        pure_list(back.into_iter().rev()),
    ])))
}

/// `Queue.fromPure(pure)`: a script queue of a `pure/Queue`'s values (its front list, then
/// its back list reversed).
fn queue_from_pure(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let who = "Queue.fromPure";
    let p = arg(a, 0, who)?;
    let parts = view::parts(it, p)?;
    let [f, _, b] = &parts[..] else {
        return Err(wrong(who, "pure/Queue", p));
    };
    let mut items = list_of(it, f, who)?;
    let mut back = list_of(it, b, who)?;
    back.reverse();
    items.extend(back);
    it.alloc(48 * items.len() as u64)?;
    Ok(NativeQueue::value_of(items))
}

// ---- Stack ----

/// The stack's `top` list.
fn stack_top(it: &mut Interp, s: &Value) -> R {
    view::field(it, s, "top")?.ok_or_else(|| wrong("Stack", "Stack", s))
}

/// The values of a stack, top to bottom.
fn stack_items(it: &mut Interp, s: &Value) -> EResult<Vec<Value>> {
    let top = stack_top(it, s)?;
    list_of(it, &top, "Stack")
}

/// A stack record of `top` and `size`.
fn stack_record(top: Value, size: usize) -> Value {
    Value::record(vec![
        (Rc::from("top"), true, top),
        (Rc::from("size"), true, Value::Nat(size as u64)),
    ])
}

/// A stack whose values, top to bottom, are `items`.
fn stack_of(it: &mut Interp, items: Vec<Value>) -> R {
    it.alloc(32 * items.len() as u64)?;
    let n = items.len();
    Ok(stack_record(pure_list(items.into_iter()), n))
}

/// The script's stack record argument 0, which a changing function may change.
fn changeable_stack<'a>(a: &'a [Value], who: &str) -> EResult<&'a crate::script::value::Record> {
    match arg(a, 0, who)? {
        Value::Record(r) if var_field(r, "top") && var_field(r, "size") => Ok(r),
        _ => Err(trap(format!(
            "{who}: only stacks created by the script can change"
        ))),
    }
}

fn field_of(r: &crate::script::value::Record, name: &str) -> Value {
    r.get(name).map(|f| f.get()).unwrap_or_default()
}

fn set_field(r: &crate::script::value::Record, name: &str, v: Value) {
    if let Some(f) = r.get(name) {
        f.set(v);
    }
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

fn stack_to_var_array(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let items = stack_items(it, arg(a, 0, "Stack.toVarArray")?)?;
    Ok(Value::VarArray(Rc::new(RefCell::new(items))))
}

fn stack_empty(_: &mut Interp, _: Option<&Value>, _: &[Value]) -> R {
    Ok(stack_record(Value::Null, 0))
}

fn stack_singleton(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    stack_of(it, vec![arg(a, 0, "Stack.singleton")?.clone()])
}

fn stack_push(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let s = changeable_stack(a, "Stack.push")?;
    let x = arg(a, 1, "Stack.push")?.clone();
    it.alloc(32)?;
    let top = field_of(s, "top");
    set_field(s, "top", Value::some(Value::Tuple(Rc::from(vec![x, top]))));
    let n = match field_of(s, "size") {
        Value::Nat(n) => n,
        _ => 0,
    };
    set_field(s, "size", Value::Nat(n + 1));
    Ok(Value::Unit)
}

fn stack_pop(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let s = changeable_stack(a, "Stack.pop")?;
    let top = field_of(s, "top");
    let Some(Some(cell)) = view::option(it, &top)? else {
        return Ok(Value::Null);
    };
    let [x, rest] = &view::parts(it, &cell)?[..] else {
        return Err(wrong("Stack.pop", "list cell", &cell));
    };
    set_field(s, "top", rest.clone());
    let n = match field_of(s, "size") {
        Value::Nat(n) => n,
        _ => 0,
    };
    set_field(s, "size", Value::Nat(n.saturating_sub(1)));
    Ok(Value::some(x.clone()))
}

fn stack_clear(_: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let s = changeable_stack(a, "Stack.clear")?;
    set_field(s, "top", Value::Null);
    set_field(s, "size", Value::Nat(0));
    Ok(Value::Unit)
}

fn stack_clone(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let items = stack_items(it, arg(a, 0, "Stack.clone")?)?;
    stack_of(it, items)
}

/// `Stack.reverse(s)`: the values in the other order (the size kept).
fn stack_reverse(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let s = changeable_stack(a, "Stack.reverse")?;
    let items = stack_items(it, arg(a, 0, "Stack.reverse")?)?;
    it.alloc(32 * items.len() as u64)?;
    set_field(s, "top", pure_list(items.into_iter().rev()));
    Ok(Value::Unit)
}

/// A stack of what `next` yields, each pushed in turn (the last on top).
fn stack_from(it: &mut Interp, mut next: impl FnMut(&mut Interp) -> EResult<Option<Value>>) -> R {
    let mut items = Vec::new();
    while let Some(x) = next(it)? {
        it.tick()?;
        it.alloc(32)?;
        items.push(x);
    }
    items.reverse();
    let n = items.len();
    Ok(stack_record(pure_list(items.into_iter()), n))
}

fn stack_from_iter(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let iter = arg(a, 0, "Stack.fromIter")?.clone();
    stack_from(it, |it| it.iter_next(&iter))
}

fn stack_to_stack(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let iter = arg(a, 0, "Stack.toStack")?.clone();
    stack_from(it, |it| it.iter_next(&iter))
}

fn stack_from_array(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let xs = elems(it, arg(a, 0, "Stack.fromArray")?, "Stack.fromArray")?;
    let mut next = xs.iter().cloned();
    stack_from(it, |_| Ok(next.next()))
}

fn stack_from_var_array(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let xs = elems(it, arg(a, 0, "Stack.fromVarArray")?, "Stack.fromVarArray")?;
    let mut next = xs.iter().cloned();
    stack_from(it, |_| Ok(next.next()))
}

/// `Stack.tabulate(n, generator)`: `generator(0)` pushed first (at the bottom).
fn stack_tabulate(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let n = usize_arg(a, 0, "Stack.tabulate")?;
    let gen = arg(a, 1, "Stack.tabulate")?;
    let mut i = 0;
    stack_from(it, |it| {
        if i >= n {
            return Ok(None);
        }
        let x = it.call_value(gen, &[Value::Nat(i as u64)])?;
        i += 1;
        Ok(Some(x))
    })
}

fn stack_transform(it: &mut Interp, a: &[Value], who: &str, op: Op) -> R {
    let items = stack_items(it, arg(a, 0, who)?)?;
    let out = transform(it, items, arg(a, 1, who)?, op, who)?;
    stack_of(it, out)
}

fn stack_map(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    stack_transform(it, a, "Stack.map", Op::Map)
}

fn stack_filter(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    stack_transform(it, a, "Stack.filter", Op::Filter)
}

fn stack_filter_map(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    stack_transform(it, a, "Stack.filterMap", Op::FilterMap)
}

fn stack_equal(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let who = "Stack.equal";
    let (s1, s2) = (arg(a, 0, who)?, arg(a, 1, who)?);
    if size_of(it, s1, "Stack")? != size_of(it, s2, "Stack")? {
        return Ok(Value::Bool(false));
    }
    let x = stack_items(it, s1)?;
    let y = stack_items(it, s2)?;
    seq_equal(it, x, y, arg(a, 2, who)?, who)
}

fn stack_compare(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let who = "Stack.compare";
    let x = stack_items(it, arg(a, 0, who)?)?;
    let y = stack_items(it, arg(a, 1, who)?)?;
    seq_compare(it, x, y, arg(a, 2, who)?, who)
}

/// `Stack.toPure(s)`: its `top` list itself.
fn stack_to_pure(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    stack_top(it, arg(a, 0, "Stack.toPure")?)
}

/// `Stack.fromPure(list)`: a stack whose `top` is the list itself.
fn stack_from_pure(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let l = arg(a, 0, "Stack.fromPure")?;
    let n = list_of(it, l, "Stack.fromPure")?.len();
    Ok(stack_record(l.clone(), n))
}

// ---- PriorityQueue ----

/// The priority queue's `heap` list.
fn heap_of(it: &mut Interp, pq: &Value, who: &str) -> R {
    view::field(it, pq, "heap")?.ok_or_else(|| wrong(who, "PriorityQueue", pq))
}

fn pq_record(heap: Value) -> Value {
    Value::record(vec![(Rc::from("heap"), false, heap)])
}

fn pq_size(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let who = "PriorityQueue.size";
    let heap = heap_of(it, arg(a, 0, who)?, who)?;
    Ok(Value::Nat(list::size(it, &heap)? as u64))
}

fn pq_is_empty(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let who = "PriorityQueue.isEmpty";
    let heap = heap_of(it, arg(a, 0, who)?, who)?;
    Ok(Value::Bool(list::size(it, &heap)? == 0))
}

fn pq_peek(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let who = "PriorityQueue.peek";
    let heap = heap_of(it, arg(a, 0, who)?, who)?;
    Ok(list::element(it, &heap, 0)?.map_or(Value::Null, Value::some))
}

fn pq_empty(_: &mut Interp, _: Option<&Value>, _: &[Value]) -> R {
    Ok(pq_record(list::empty()))
}

fn pq_singleton(_: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let x = arg(a, 0, "PriorityQueue.singleton")?.clone();
    Ok(pq_record(list::singleton(x)))
}

fn pq_clear(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let who = "PriorityQueue.clear";
    let heap = heap_of(it, arg(a, 0, who)?, who)?;
    list::clear(&heap, who)?;
    Ok(Value::Unit)
}

fn pq_clone(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let who = "PriorityQueue.clone";
    let heap = heap_of(it, arg(a, 0, who)?, who)?;
    Ok(pq_record(list::clone(it, &heap)?))
}

/// `PriorityQueue.push(pq, compare, x)`: core's sift-up in the heap list.
fn push(it: &mut Interp, heap: &Value, compare: &Value, x: Value, who: &str) -> EResult<()> {
    list::add(it, heap, x.clone(), who)?;
    let mut index = list::size(it, heap)? - 1;
    while index > 0 {
        it.tick()?;
        let parent = (index - 1) / 2;
        let pv = list::element_at(it, heap, parent)?;
        if order(it, who, compare, &x, &pv)? == Ordering::Greater {
            list::put_at(heap, index, pv, who)?;
            index = parent;
        } else {
            return list::put_at(heap, index, x, who);
        }
    }
    list::put_at(heap, 0, x, who)
}

/// `PriorityQueue.pop(pq, compare)`: core's sift-down of the last element from the top.
fn pop(it: &mut Interp, heap: &Value, compare: &Value, who: &str) -> EResult<Option<Value>> {
    let n = list::size(it, heap)?;
    if n == 0 {
        return Ok(None);
    }
    let top = list::element(it, heap, 0)?;
    let last_index = n - 1;
    let last = list::element_at(it, heap, last_index)?;
    let mut index = 0;
    loop {
        it.tick()?;
        let (mut best, mut best_elem) = (last_index, last.clone());
        let left = 2 * index + 1;
        if left < last_index {
            let le = list::element_at(it, heap, left)?;
            if order(it, who, compare, &le, &last)? == Ordering::Greater {
                best = left;
                best_elem = le;
            }
        }
        let right = left + 1;
        if right < last_index {
            let re = list::element_at(it, heap, right)?;
            if order(it, who, compare, &re, &best_elem)? == Ordering::Greater {
                best = right;
                best_elem = re;
            }
        }
        if best == last_index {
            list::put_at(heap, index, last, who)?;
            list::remove_last(heap, who)?;
            return Ok(top);
        }
        list::put_at(heap, index, best_elem, who)?;
        index = best;
    }
}

fn pq_push(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let who = "PriorityQueue.push";
    let heap = heap_of(it, arg(a, 0, who)?, who)?;
    push(it, &heap, arg(a, 1, who)?, arg(a, 2, who)?.clone(), who)?;
    Ok(Value::Unit)
}

fn pq_pop(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let who = "PriorityQueue.pop";
    let heap = heap_of(it, arg(a, 0, who)?, who)?;
    Ok(pop(it, &heap, arg(a, 1, who)?, who)?.map_or(Value::Null, Value::some))
}

fn pq_from_iter(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let who = "PriorityQueue.fromIter";
    let iter = arg(a, 0, who)?;
    let compare = arg(a, 1, who)?;
    let heap = list::empty();
    while let Some(x) = it.iter_next(iter)? {
        push(it, &heap, compare, x, who)?;
    }
    Ok(pq_record(heap))
}

/// `PriorityQueue.values(pq, compare)`: a copy popped one element per `next` (highest
/// priority first, equal elements in the order the heap gives them, as in mo:core).
fn pq_values(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let who = "PriorityQueue.values";
    let heap = heap_of(it, arg(a, 0, who)?, who)?;
    let copy = list::clone(it, &heap)?;
    let compare = arg(a, 1, who)?;
    let mut out = Vec::new();
    while let Some(x) = pop(it, &copy, compare, who)? {
        out.push(x);
    }
    Ok(items_iter(out))
}

/// `mo:core/Queue`.
pub static QUEUE_MOD: Module = Module {
    name: "Queue",
    members: &[
        func!("empty", queue_empty),
        func!("singleton", queue_singleton),
        func!("isEmpty", queue_is_empty),
        func!("size", queue_size),
        func!("peekFront", queue_peek_front),
        func!("peekBack", queue_peek_back),
        func!("pushFront", queue_push_front),
        func!("pushBack", queue_push_back),
        func!("popFront", queue_pop_front),
        func!("popBack", queue_pop_back),
        func!("clear", queue_clear),
        func!("clone", queue_clone),
        func!("values", queue_values),
        func!("toArray", queue_to_array),
        func!("toVarArray", queue_to_var_array),
        func!("fromIter", queue_from_iter),
        func!("toQueue", queue_to_queue),
        func!("fromArray", queue_from_array),
        func!("fromVarArray", queue_from_var_array),
        func!("map", queue_map),
        func!("filter", queue_filter),
        func!("filterMap", queue_filter_map),
        func!("equal", queue_equal),
        func!("compare", queue_compare),
        func!("toPure", queue_to_pure),
        func!("fromPure", queue_from_pure),
    ],
};

/// `mo:core/Stack`.
pub static STACK_MOD: Module = Module {
    name: "Stack",
    members: &[
        func!("empty", stack_empty),
        func!("singleton", stack_singleton),
        func!("isEmpty", stack_is_empty),
        func!("size", stack_size),
        func!("push", stack_push),
        func!("pop", stack_pop),
        func!("peek", stack_peek),
        func!("get", stack_get),
        func!("clear", stack_clear),
        func!("clone", stack_clone),
        func!("reverse", stack_reverse),
        func!("values", stack_values),
        func!("toArray", stack_to_array),
        func!("toVarArray", stack_to_var_array),
        func!("fromIter", stack_from_iter),
        func!("toStack", stack_to_stack),
        func!("fromArray", stack_from_array),
        func!("fromVarArray", stack_from_var_array),
        func!("tabulate", stack_tabulate),
        func!("map", stack_map),
        func!("filter", stack_filter),
        func!("filterMap", stack_filter_map),
        func!("equal", stack_equal),
        func!("compare", stack_compare),
        func!("toPure", stack_to_pure),
        func!("fromPure", stack_from_pure),
    ],
};

/// `mo:core/PriorityQueue`.
pub static PRIORITY_QUEUE_MOD: Module = Module {
    name: "PriorityQueue",
    members: &[
        func!("empty", pq_empty),
        func!("singleton", pq_singleton),
        func!("isEmpty", pq_is_empty),
        func!("size", pq_size),
        func!("peek", pq_peek),
        func!("push", pq_push),
        func!("pop", pq_pop),
        func!("clear", pq_clear),
        func!("clone", pq_clone),
        func!("fromIter", pq_from_iter),
        func!("values", pq_values),
    ],
};
