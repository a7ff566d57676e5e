//! The heap's decoded values as the renderers see them.

use super::shape::{Integer, Natural, Shape, Shown};
use crate::heap::value::Value;

impl<'v> Shown for &'v Value {
    fn shape(&self) -> Shape<'_, Self> {
        let v: &'v Value = self;
        match v {
            Value::Null => Shape::Null,
            Value::Unit => Shape::Unit,
            Value::Bool(b) => Shape::Bool(*b),
            Value::Nat(n) => Shape::Nat(Natural::Big(n)),
            Value::Int(n) => Shape::Int(Integer::Big(n)),
            Value::Nat8(n) => Shape::Nat(Natural::Small(u64::from(*n))),
            Value::Nat16(n) => Shape::Nat(Natural::Small(u64::from(*n))),
            Value::Nat32(n) => Shape::Nat(Natural::Small(u64::from(*n))),
            Value::Nat64(n) => Shape::Nat(Natural::Small(*n)),
            Value::Int8(n) => Shape::Int(Integer::Small(i64::from(*n))),
            Value::Int16(n) => Shape::Int(Integer::Small(i64::from(*n))),
            Value::Int32(n) => Shape::Int(Integer::Small(i64::from(*n))),
            Value::Int64(n) => Shape::Int(Integer::Small(*n)),
            Value::Float(f) => Shape::Float(*f),
            Value::Float32(f) => Shape::Float32(*f),
            Value::Char(c) => Shape::Char(*c),
            Value::Text(t) => Shape::Text(t),
            Value::Blob(b) => Shape::Blob(b),
            Value::Principal(p) => Shape::Principal(p),
            Value::Actor(p) => Shape::Actor(p),
            Value::SharedFunc { actor, method, .. } => Shape::SharedFunc { actor, method },
            Value::Opt { value, .. } => Shape::Opt(value),
            Value::Weak { target, .. } => Shape::Weak(target.as_deref()),
            Value::Variant { tag, payload, .. } => Shape::Variant(
                tag,
                (!matches!(**payload, Value::Unit)).then_some(&**payload),
            ),
            Value::Record { fields, .. } => {
                Shape::Record(fields.iter().map(|f| (&*f.label, &f.value)).collect())
            }
            Value::Tuple { items, .. } => Shape::Tuple(items.iter().collect()),
            Value::Array { mutable, items, .. } => Shape::Array {
                mutable: *mutable,
                items: items.iter().collect(),
            },
            Value::Region {
                id,
                page_count,
                blocks,
                ..
            } => Shape::Region {
                id: *id,
                page_count: *page_count,
                blocks,
            },
            Value::Closure {
                funid,
                name,
                captures,
                ..
            } => Shape::Closure {
                name: name.as_deref(),
                funid: *funid,
                captures: captures.iter().collect(),
            },
            Value::Opaque { word, addr, what } => Shape::Opaque {
                word: *word,
                addr: *addr,
                what,
            },
            Value::Cycle { addr } => Shape::Cycle(*addr),
            Value::Lazy(l) => Shape::NotDecoded(l.word),
        }
    }
}
