//! `debug_show` of script values: the heap's writer ([`crate::heap::render`]) over script
//! values, `Float`s printed as moc's interpreter prints them (snapshot sessions print them as
//! a compiled canister does: [`crate::script::show`]).

use super::Value;
use crate::heap::render::{write_debug_show_as, FloatStyle, Integer, Natural, Shape, Shown};
use std::borrow::Cow;

/// Renders a value the way moc's interpreter renders `debug_show v`.
pub fn debug_show(v: &Value) -> String {
    debug_show_as(v, FloatStyle::Interpreted)
}

/// Renders `debug_show v` with `Float`s in `floats` style.
pub fn debug_show_as(v: &Value, floats: FloatStyle) -> String {
    let mut out = String::new();
    write_debug_show_as(v.clone(), floats, &mut out);
    out
}

/// Most captured cells unwrapped in a row before a value is shown as `...`.
const MAX_CELLS: usize = 64;

/// Formats a float like C's `%.17g`, with moc's digit grouping (the heap renderer's).
pub use crate::heap::render::show_float_interpreted as show_float;

/// The textual form of a principal (`aaaaa-aa`): the heap renderer's, one function for both.
pub use crate::heap::render::principal_text;

impl Shown for Value {
    fn shape(&self) -> Shape<'_, Self> {
        match self {
            Value::Unit => Shape::Unit,
            Value::Bool(b) => Shape::Bool(*b),
            Value::Null => Shape::Null,
            Value::Nat(n) => Shape::Nat(Natural::Small(*n)),
            Value::BigNat(n) => Shape::Nat(Natural::Big(n)),
            Value::Nat8(n) => Shape::Nat(Natural::Small(u64::from(*n))),
            Value::Nat16(n) => Shape::Nat(Natural::Small(u64::from(*n))),
            Value::Nat32(n) => Shape::Nat(Natural::Small(u64::from(*n))),
            Value::Nat64(n) => Shape::Nat(Natural::Small(*n)),
            Value::Int(n) => Shape::Int(Integer::Small(*n)),
            Value::BigInt(n) => Shape::Int(Integer::Big(n)),
            Value::Int8(n) => Shape::Int(Integer::Small(i64::from(*n))),
            Value::Int16(n) => Shape::Int(Integer::Small(i64::from(*n))),
            Value::Int32(n) => Shape::Int(Integer::Small(i64::from(*n))),
            Value::Int64(n) => Shape::Int(Integer::Small(*n)),
            Value::Float(f) => Shape::Float(*f),
            Value::Char(c) => Shape::Char(*c),
            Value::Text(t) => Shape::Text(t),
            Value::Blob(b) => Shape::Blob(b),
            Value::Principal(p) => Shape::Principal(p),
            Value::Tuple(xs) => Shape::Tuple(xs.to_vec()),
            Value::Array(xs) => Shape::Array {
                mutable: false,
                items: xs.to_vec(),
            },
            Value::VarArray(xs) => Shape::Array {
                mutable: true,
                items: xs.borrow().clone(),
            },
            Value::Opt(x) => Shape::Opt((**x).clone()),
            Value::Variant(tv) => {
                Shape::Variant(&tv.0, (!matches!(tv.1, Value::Unit)).then(|| tv.1.clone()))
            }
            Value::Record(r) => {
                let fields = r.fields.iter().map(|f| (&*f.name, f.get())).collect();
                if r.module {
                    Shape::Module(fields)
                } else {
                    Shape::Record(fields)
                }
            }
            Value::Func(_) | Value::Builtin(_) => Shape::Described(Cow::Borrowed("<func>")),
            Value::Module(m) => Shape::Described(Cow::Owned(format!("module {}", m.name))),
            Value::Iter(_) => Shape::Described(Cow::Borrowed("{next = <func>}")),
            Value::Host(h) => match h.heap_value() {
                Some(v) => Shape::Heap(v),
                None => Shape::Described(Cow::Owned(h.describe())),
            },
            Value::Cell(c) => {
                // Shown as what the cells hold, resolved here so the writer sees one `Same`.
                let mut v = c.borrow().clone();
                for _ in 0..MAX_CELLS {
                    let inner = match &v {
                        Value::Cell(c) => c.borrow().clone(),
                        _ => return Shape::Same(v),
                    };
                    v = inner;
                }
                Shape::Described(Cow::Borrowed("..."))
            }
        }
    }
}

/// The approximate length of `debug_show v` in bytes, or `None` as soon as it exceeds `cap`.
///
/// Values share their parts (`let a1 = (a0, a0)`), so a small value can render to an
/// exponentially long text, and an untyped script can make a mutable array hold itself; this
/// walk (explicit stack, shared parts counted each time they print) stops after about `cap`
/// bytes' worth of nodes, so callers can refuse a rendering before building it.
pub fn show_size_within(v: &Value, cap: u64) -> Option<u64> {
    let mut total: u64 = 0;
    let mut stack: Vec<Value> = vec![v.clone()];
    while let Some(v) = stack.pop() {
        let own = own_size(&v);
        total = total.saturating_add(own);
        if total > cap {
            return None;
        }
        // Children are pushed only once their separators fit: at most `cap` of them.
        match &v {
            Value::Tuple(xs) | Value::Array(xs) => stack.extend(xs.iter().cloned()),
            Value::VarArray(xs) => stack.extend(xs.borrow().iter().cloned()),
            Value::Opt(x) => stack.push((**x).clone()),
            Value::Variant(tv) => stack.push(tv.1.clone()),
            Value::Record(r) => stack.extend(r.fields.iter().map(|f| f.get())),
            Value::Cell(c) => stack.push(c.borrow().clone()),
            _ => {}
        }
    }
    Some(total)
}

/// The bytes node `v` itself adds to [`show_size_within`] (its parts not included).
pub fn own_size(v: &Value) -> u64 {
    let seq = |n: usize| 2 + 2 * n as u64;
    match v {
        Value::Nat(x) => digits(*x),
        Value::Int(x) => 1 + digits(x.unsigned_abs()),
        Value::BigNat(x) => 2 + x.bits() * 2 / 5,
        Value::BigInt(x) => 3 + x.bits() * 2 / 5,
        Value::Float(_) => 32,
        Value::Text(t) => 2 + t.len() as u64,
        Value::Blob(b) => 2 + 3 * b.len() as u64,
        Value::Principal(p) => 8 + 2 * p.len() as u64,
        Value::Tuple(xs) | Value::Array(xs) => seq(xs.len()),
        Value::VarArray(xs) => 4 + seq(xs.borrow().len()),
        Value::Opt(_) => 3,
        Value::Variant(tv) => 3 + tv.0.len() as u64,
        Value::Record(r) => {
            2 + if r.module { 7 } else { 0 }
                + r.fields
                    .iter()
                    .map(|f| 5 + f.name.len() as u64)
                    .sum::<u64>()
        }
        Value::Cell(_) => 1,
        Value::Module(m) => 7 + m.name.len() as u64,
        Value::Iter(_) => 14,
        Value::Host(_) => 32,
        _ => 8,
    }
}

/// [`own_size`] of `Value::Nat(n)`.
#[inline]
pub fn nat_size(n: u64) -> u64 {
    digits(n)
}

/// Decimal digits of `x` plus its `_` separators.
fn digits(x: u64) -> u64 {
    let n = u64::from(x.checked_ilog10().unwrap_or(0)) + 1;
    n + (n - 1) / 3
}
