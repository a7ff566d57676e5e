//! A script's `mo:core/Queue`: a deque of values shared by every binding of it (`let b =
//! a; Queue.pushBack(a, x)` is seen through `b`), shown as core's queue record.
//!
//! Core's queue is a doubly linked list (`{ var front; var back; var size }`, nodes `{
//! value; var next; var previous }`) whose neighbours point at each other: as script values
//! such cycles would never be freed, and moc's own `debug_show` of a queue of two or more
//! elements does not end. The deque holds the same values in the same order; `debug_show`
//! prints core's record as moc does while there is at most one element (the nodes' links
//! elided as `...` beyond).

use crate::script::host::{HostError, HostObject};
use crate::script::value::show::debug_show;
use crate::script::value::Value;
use std::cell::RefCell;
use std::collections::VecDeque;
use std::rc::Rc;

/// A queue created by a script (`Queue.empty()`).
#[derive(Default)]
pub struct NativeQueue {
    items: RefCell<VecDeque<Value>>,
}

impl NativeQueue {
    /// A new queue of `items`, front first, as a script value.
    pub(super) fn value_of(items: Vec<Value>) -> Value {
        Value::Host(Rc::new(NativeQueue {
            items: RefCell::new(items.into()),
        }))
    }

    /// The script's queue `v` is, if it is one.
    pub(super) fn of(v: &Value) -> Option<&NativeQueue> {
        match v {
            Value::Host(h) => h.as_any().downcast_ref::<NativeQueue>(),
            _ => None,
        }
    }

    pub(super) fn len(&self) -> usize {
        self.items.borrow().len()
    }

    /// The values, front first.
    pub(super) fn items(&self) -> Vec<Value> {
        self.items.borrow().iter().cloned().collect()
    }

    pub(super) fn front(&self) -> Option<Value> {
        self.items.borrow().front().cloned()
    }

    pub(super) fn back(&self) -> Option<Value> {
        self.items.borrow().back().cloned()
    }

    /// `pushFront` (`front`) or `pushBack`.
    pub(super) fn push(&self, x: Value, front: bool) {
        let mut q = self.items.borrow_mut();
        if front {
            q.push_front(x);
        } else {
            q.push_back(x);
        }
    }

    /// `popFront` (`front`) or `popBack`.
    pub(super) fn pop(&self, front: bool) -> Option<Value> {
        let mut q = self.items.borrow_mut();
        if front {
            q.pop_front()
        } else {
            q.pop_back()
        }
    }

    pub(super) fn clear(&self) {
        self.items.borrow_mut().clear();
    }
}

/// A node of core's queue record as `debug_show` prints it.
fn node(value: &Value, next: bool, previous: bool) -> String {
    let link = |l: bool| if l { "?{...}" } else { "null" };
    format!(
        "?{{next = {}; previous = {}; value = {}}}",
        link(next),
        link(previous),
        debug_show(value)
    )
}

impl HostObject for NativeQueue {
    fn describe(&self) -> String {
        let q = self.items.borrow();
        let (front, back) = match (q.front(), q.back()) {
            (Some(f), Some(b)) => {
                let many = q.len() > 1;
                (node(f, many, false), node(b, false, many))
            }
            _ => ("null".to_string(), "null".to_string()),
        };
        format!("{{back = {back}; front = {front}; size = {}}}", q.len())
    }

    fn field(&self, name: &str) -> Result<Option<Value>, HostError> {
        Ok(match name {
            "size" => Some(Value::Nat(self.len() as u64)),
            _ => None,
        })
    }

    fn field_names(&self) -> Vec<String> {
        vec!["size".to_string()]
    }

    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}
