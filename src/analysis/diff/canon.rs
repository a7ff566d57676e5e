//! A value's canonical form, read lazily from the heap: the heads of its parts in pre-order
//! (kind, labels, lengths and leaf values, never addresses), so two values of two snapshots
//! are equal exactly when their streams are. One explicit stack (no recursion whose depth
//! comes from the heap); a back-reference to an enclosing object ends that branch (cycles);
//! every part costs one unit of a caller-set budget.

use std::collections::HashMap;
use std::sync::Arc;

use crate::heap::render::debug_show;
use crate::heap::value::{DecodeError, Decoder, LazyValue, Value};

/// The head of one part of a value: what it is without its children.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Head {
    /// A value without parts (number, Text, Blob, Principal, …) as `debug_show` prints it.
    Leaf(String),
    /// `?v` (one part follows).
    Opt,
    /// `#tag v` (one part follows).
    Variant(Arc<str>),
    /// A record: its labels (one part per field follows).
    Record(Vec<Arc<str>>),
    /// A tuple of `n` parts.
    Tuple(usize),
    /// An array of `n` elements.
    Array {
        /// `[var T]`.
        mutable: bool,
        /// Its length.
        len: usize,
    },
    /// A closure (its captures follow).
    Closure(Option<String>, usize),
    /// A weak reference (its target follows if it is alive).
    Weak(bool),
    /// A reference back to the enclosing object `n` levels up (a cycle).
    Back(usize),
}

/// Why a walk stopped before the end of the value.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum WalkStop {
    /// The budget of parts ran out (the value is larger than the caller allows).
    #[error("more than {0} parts")]
    Budget(u64),
    /// A part could not be decoded.
    #[error(transparent)]
    Decode(#[from] DecodeError),
}

struct Frame {
    value: Value,
    next: usize,
    addr: Option<u64>,
}

/// The parts of one value in pre-order, one [`Head`] per call to [`CanonWalk::next`].
pub struct CanonWalk<'d, 'h> {
    dec: &'d mut Decoder<'h>,
    stack: Vec<Frame>,
    start: Option<LazyValue>,
    open: HashMap<u64, usize>,
    left: u64,
    budget: u64,
}

impl<'d, 'h> CanonWalk<'d, 'h> {
    /// A walk over `v` that reads at most `budget` parts.
    pub fn new(dec: &'d mut Decoder<'h>, v: LazyValue, budget: u64) -> CanonWalk<'d, 'h> {
        CanonWalk {
            dec,
            stack: Vec::new(),
            start: Some(v),
            open: HashMap::new(),
            left: budget,
            budget,
        }
    }

    /// The next part's head, `None` at the end of the value.
    #[allow(clippy::should_implement_trait)]
    pub fn next(&mut self) -> Result<Option<Head>, WalkStop> {
        let value = match self.start.take() {
            Some(v) => self.dec.shallow(&v)?,
            None => loop {
                let Some(top) = self.stack.last_mut() else {
                    return Ok(None);
                };
                if top.next < top.value.child_count() {
                    let i = top.next;
                    top.next += 1;
                    let child = match top.value.child(i) {
                        Some(Value::Lazy(lazy)) => {
                            let lazy = lazy.clone();
                            self.dec.shallow(&lazy)?
                        }
                        Some(other) => other.clone(),
                        None => continue,
                    };
                    break child;
                }
                if let Some(frame) = self.stack.pop() {
                    self.leave(frame.addr);
                }
            },
        };
        if self.left == 0 {
            return Err(WalkStop::Budget(self.budget));
        }
        self.left -= 1;
        if let Some(addr) = value.addr().filter(|_| value.child_count() > 0) {
            if let Some(&depth) = self.open.get(&addr) {
                return Ok(Some(Head::Back(self.stack.len() - depth)));
            }
        }
        let head = head_of(&value);
        if value.child_count() > 0 {
            let addr = value.addr();
            if let Some(a) = addr {
                self.open.insert(a, self.stack.len());
            }
            self.stack.push(Frame {
                value,
                next: 0,
                addr,
            });
        }
        Ok(Some(head))
    }

    /// The parts read so far.
    pub fn parts(&self) -> u64 {
        self.budget - self.left
    }

    fn leave(&mut self, addr: Option<u64>) {
        if let Some(a) = addr {
            self.open.remove(&a);
        }
    }

    /// Where the walk is: the path from the value to the part last returned
    /// (`.name`, `[3]`, `?`, `#tag`), as the difference of two values is reported.
    pub fn path(&self) -> String {
        let mut out = String::new();
        for f in &self.stack {
            let Some(i) = f.next.checked_sub(1) else {
                continue;
            };
            match &f.value {
                Value::Record { fields, .. } => {
                    if let Some(field) = fields.get(i) {
                        out.push('.');
                        out.push_str(&field.label);
                    }
                }
                Value::Tuple { .. } | Value::Array { .. } | Value::Closure { .. } => {
                    out.push_str(&format!("[{i}]"));
                }
                Value::Opt { .. } => out.push('?'),
                Value::Variant { tag, .. } => {
                    out.push('#');
                    out.push_str(tag);
                }
                Value::Weak { .. } => out.push_str(".target"),
                _ => {}
            }
        }
        out
    }
}

/// `value`'s head: its kind, labels and length, or its whole text for a value without parts.
fn head_of(value: &Value) -> Head {
    match value {
        Value::Opt { .. } => Head::Opt,
        Value::Variant { tag, .. } => Head::Variant(tag.clone()),
        Value::Record { fields, .. } => {
            Head::Record(fields.iter().map(|f| f.label.clone()).collect())
        }
        Value::Tuple { items, .. } => Head::Tuple(items.len()),
        Value::Array { mutable, items, .. } => Head::Array {
            mutable: *mutable,
            len: items.len(),
        },
        Value::Closure { name, captures, .. } => Head::Closure(name.clone(), captures.len()),
        Value::Weak { target, .. } => Head::Weak(target.is_some()),
        Value::Region { id, page_count, .. } => Head::Leaf(format!("region {id} {page_count}")),
        Value::Opaque { what, .. } => Head::Leaf(format!("<{what}>")),
        Value::Cycle { .. } => Head::Back(0),
        leaf => Head::Leaf(debug_show(leaf)),
    }
}
