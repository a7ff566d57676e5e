//! A value's canonical form, read lazily from the heap: the heads of its parts in pre-order
//! (kind, labels, lengths and leaf values, never addresses), so two values of two snapshots
//! are equal exactly when their streams are. One explicit stack (no recursion whose depth
//! comes from the heap); a back-reference to an enclosing object ends that branch (cycles);
//! every part costs one unit of a caller-set budget.

use std::collections::HashMap;
use std::hash::Hasher;
use std::sync::Arc;

use crate::heap::render::{debug_show, write_debug_show};
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
        self.next_with(|part| match part {
            Part::Back(n) => Head::Back(n),
            Part::Value(v) => head_of(v),
            Part::Leaf(v) => head_of(&v),
        })
    }

    /// The next part as two walks compare it: a leaf as its value (compared in place by
    /// [`same_part`], no text), anything else as its [`Head`].
    pub fn next_part(&mut self) -> Result<Option<CanonPart>, WalkStop> {
        self.next_with(|part| match part {
            Part::Back(n) => CanonPart::Head(Head::Back(n)),
            Part::Value(v) => CanonPart::Head(head_of(v)),
            Part::Leaf(v) if plain_leaf(&v) => CanonPart::Leaf(v),
            Part::Leaf(v) => CanonPart::Head(head_of(&v)),
        })
    }

    /// Feeds the next part's head to `h` (what hashing [`CanonWalk::next`]'s head would tell
    /// apart, without building it: a leaf's text is written into `buf`, reused); `false` at
    /// the end of the value.
    pub fn hash_next(&mut self, h: &mut impl Hasher, buf: &mut String) -> Result<bool, WalkStop> {
        Ok(self
            .next_with(|part| match part {
                Part::Back(n) => {
                    h.write_u8(9);
                    h.write_usize(n);
                }
                Part::Value(v) => hash_head(v, h, buf),
                Part::Leaf(v) => hash_head(&v, h, buf),
            })?
            .is_some())
    }

    /// Reads the next part and gives it to `f` (before its children are walked).
    fn next_with<R>(&mut self, f: impl FnOnce(Part<'_>) -> R) -> Result<Option<R>, WalkStop> {
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
        let has_children = value.child_count() > 0;
        let addr = value.addr().filter(|_| has_children);
        if let Some(addr) = addr {
            if let Some(&depth) = self.open.get(&addr) {
                return Ok(Some(f(Part::Back(self.stack.len() - depth))));
            }
        }
        if !has_children {
            return Ok(Some(f(Part::Leaf(value))));
        }
        let out = f(Part::Value(&value));
        if let Some(a) = addr {
            self.open.insert(a, self.stack.len());
        }
        self.stack.push(Frame {
            value,
            next: 0,
            addr,
        });
        Ok(Some(out))
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

/// One part as the walk meets it.
enum Part<'v> {
    /// A reference back to the enclosing object this many levels up.
    Back(usize),
    /// A value with parts (its children not yet walked).
    Value(&'v Value),
    /// A value without parts, handed over.
    Leaf(Value),
}

/// One part of a value as two walks compare it ([`CanonWalk::next_part`]).
#[derive(Debug)]
pub enum CanonPart {
    /// A number, text, blob, … (compared in place).
    Leaf(Value),
    /// Anything else, by its head.
    Head(Head),
}

/// Whether two parts are equal, exactly as their [`Head`]s are: leaves of one kind compared
/// in place (numbers, texts, bytes), leaves of two kinds or of another kind by their
/// `debug_show` text.
pub fn same_part(a: &CanonPart, b: &CanonPart) -> bool {
    match (a, b) {
        (CanonPart::Head(x), CanonPart::Head(y)) => x == y,
        (CanonPart::Leaf(x), CanonPart::Leaf(y)) => same_leaf(x, y),
        _ => false,
    }
}

/// Whether two leaves print alike: compared in place when `debug_show` is one-to-one on
/// their kind, by text otherwise (floats, whose `NaN` and `-0` print like others).
pub(super) fn same_leaf(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Nat(x), Value::Nat(y)) => x == y,
        (Value::Int(x), Value::Int(y)) => x == y,
        (Value::Text(x), Value::Text(y)) => x == y,
        (Value::Blob(x), Value::Blob(y)) => x == y,
        (Value::Bool(x), Value::Bool(y)) => x == y,
        (Value::Char(x), Value::Char(y)) => x == y,
        (Value::Nat8(x), Value::Nat8(y)) => x == y,
        (Value::Nat16(x), Value::Nat16(y)) => x == y,
        (Value::Nat32(x), Value::Nat32(y)) => x == y,
        (Value::Nat64(x), Value::Nat64(y)) => x == y,
        (Value::Int8(x), Value::Int8(y)) => x == y,
        (Value::Int16(x), Value::Int16(y)) => x == y,
        (Value::Int32(x), Value::Int32(y)) => x == y,
        (Value::Int64(x), Value::Int64(y)) => x == y,
        (Value::Null, Value::Null) | (Value::Unit, Value::Unit) => true,
        _ => debug_show(a) == debug_show(b),
    }
}

/// Whether [`head_of`] gives `value` a [`Head::Leaf`] of its `debug_show` text.
fn plain_leaf(value: &Value) -> bool {
    !matches!(
        value,
        Value::Opt { .. }
            | Value::Variant { .. }
            | Value::Record { .. }
            | Value::Tuple { .. }
            | Value::Array { .. }
            | Value::Closure { .. }
            | Value::Weak { .. }
            | Value::Region { .. }
            | Value::Opaque { .. }
            | Value::Cycle { .. }
    )
}

/// The sign `debug_show` prints before a whole number's digits.
#[derive(Clone, Copy)]
enum Sign {
    /// None: a natural number, or an integer zero.
    None,
    /// `+`: a positive integer.
    Plus,
    /// `-`: a negative integer.
    Minus,
}

impl Sign {
    /// The sign of an integer that is negative or positive (zero if neither).
    fn of_int(negative: bool, positive: bool) -> Sign {
        match (negative, positive) {
            (true, _) => Sign::Minus,
            (false, true) => Sign::Plus,
            _ => Sign::None,
        }
    }
}

/// Feeds a whole number to `h` as the sign `debug_show` prints and its 64-bit digits (least
/// significant first, none for zero), the same for every integer kind, so two numbers give
/// the same bytes exactly when they print alike (`5` natural, `+5` integer).
fn hash_number(h: &mut impl Hasher, sign: Sign, digits: impl Iterator<Item = u64>) {
    h.write_u8(10);
    h.write_u8(sign as u8);
    let mut count = 0usize;
    for d in digits {
        h.write_u64(d);
        count += 1;
    }
    h.write_usize(count);
}

/// [`hash_number`] of a fixed-width integer.
fn hash_small_int(h: &mut impl Hasher, n: i64) {
    hash_number(
        h,
        Sign::of_int(n < 0, n > 0),
        small_digits(n.unsigned_abs()),
    );
}

/// A fixed-width integer's magnitude as 64-bit digits (none for zero).
fn small_digits(magnitude: u64) -> impl Iterator<Item = u64> {
    (magnitude != 0).then_some(magnitude).into_iter()
}

/// Feeds `value`'s head to `h`: a discriminant, then what [`head_of`] keeps (labels,
/// lengths, a leaf's `debug_show` text written into `buf`), so two values give the same
/// bytes exactly when their heads are equal.
pub(super) fn hash_head(value: &Value, h: &mut impl Hasher, buf: &mut String) {
    let text = |h: &mut dyn Hasher, s: &str| {
        h.write_usize(s.len());
        h.write(s.as_bytes());
    };
    match value {
        Value::Opt { .. } => h.write_u8(1),
        Value::Variant { tag, .. } => {
            h.write_u8(2);
            text(h, tag);
        }
        Value::Record { fields, .. } => {
            h.write_u8(3);
            h.write_usize(fields.len());
            for f in fields {
                text(h, &f.label);
            }
        }
        Value::Tuple { items, .. } => {
            h.write_u8(4);
            h.write_usize(items.len());
        }
        Value::Array { mutable, items, .. } => {
            h.write_u8(5);
            h.write_u8(u8::from(*mutable));
            h.write_usize(items.len());
        }
        Value::Closure { name, captures, .. } => {
            h.write_u8(6);
            match name {
                Some(n) => {
                    h.write_u8(1);
                    text(h, n);
                }
                None => h.write_u8(0),
            }
            h.write_usize(captures.len());
        }
        Value::Weak { target, .. } => {
            h.write_u8(7);
            h.write_u8(u8::from(target.is_some()));
        }
        Value::Cycle { .. } => {
            h.write_u8(9);
            h.write_usize(0);
        }
        Value::Region { .. } | Value::Opaque { .. } => {
            let Head::Leaf(s) = head_of(value) else {
                return;
            };
            h.write_u8(8);
            text(h, &s);
        }
        Value::Nat(n) => hash_number(h, Sign::None, n.iter_u64_digits()),
        Value::Int(i) => hash_number(
            h,
            Sign::of_int(
                i.sign() == num_bigint::Sign::Minus,
                i.sign() == num_bigint::Sign::Plus,
            ),
            i.magnitude().iter_u64_digits(),
        ),
        Value::Nat8(n) => hash_number(h, Sign::None, small_digits(u64::from(*n))),
        Value::Nat16(n) => hash_number(h, Sign::None, small_digits(u64::from(*n))),
        Value::Nat32(n) => hash_number(h, Sign::None, small_digits(u64::from(*n))),
        Value::Nat64(n) => hash_number(h, Sign::None, small_digits(*n)),
        Value::Int8(n) => hash_small_int(h, i64::from(*n)),
        Value::Int16(n) => hash_small_int(h, i64::from(*n)),
        Value::Int32(n) => hash_small_int(h, i64::from(*n)),
        Value::Int64(n) => hash_small_int(h, *n),
        // `debug_show` prints a text between quotes, unescaped: the same bytes, unbuilt
        Value::Text(t) => {
            h.write_u8(8);
            h.write_usize(t.len() + 2);
            h.write(b"\"");
            h.write(t.as_bytes());
            h.write(b"\"");
        }
        leaf => {
            buf.clear();
            write_debug_show(leaf, buf);
            h.write_u8(8);
            text(h, buf);
        }
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
