//! `debug_show` at a static type: moc's interpreter shows a value at the type the checker
//! gives its argument, so a `Nat` held where that type says `Int` (a generic function's
//! result at `id<Int>(5)`, a `?Int` field that held `null` when `?4` was stored) shows as an
//! `Int` (`+4`), and an `Int` made from a `Nat` at an annotation (`let j : { a : Int } = r`
//! converts `r`'s record in place) shows as a `Nat` where the type says `Nat` (`r.a`). The
//! type changes signs, only of non-negative numbers, and leaves out the fields of a record
//! that its type does not list (as moc); parts it does not describe (type parameters,
//! `Any`, host values, what lies below a recursive type's cut) show as the value says.
//!
//! The renderer walks the value with its own explicit stack; each part carries its part of
//! the type (a declared or library type's application resolved to its one shared body, so a
//! recursive type describes its value at every depth).

use crate::heap::render::{write_debug_show_as, FloatStyle, Shape, Shown};
use crate::script::compile::ir::{Hint, Resolved};
use crate::script::value::{num, NumKind, Value};
use std::rc::Rc;

/// `debug_show v` with `v` at the static type `ty`, `Float`s in `floats` style.
pub fn debug_show_at(v: &Value, ty: &Hint, floats: FloatStyle) -> String {
    let mut out = String::new();
    write_debug_show_as(AtType::new(v.clone(), sub(ty)), floats, &mut out);
    out
}

/// A part of a type, for the part of the value it describes.
fn sub(h: &Hint) -> Option<Rc<Hint>> {
    Some(Rc::new(h.clone()))
}

/// A value and the static type it shows at (`None`: as the value says).
struct AtType {
    value: Value,
    /// Never a [`Hint::Named`]: resolved to the declaration's (or application's) body.
    ty: Option<Rc<Hint>>,
}

impl AtType {
    /// `value` at `ty`: a `Nat` where `ty` is `Int` becomes that `Int`, a non-negative
    /// `Int` where `ty` is `Nat` that `Nat`.
    fn new(value: Value, ty: Option<Rc<Hint>>) -> Self {
        let ty = ty.map(|h| match h.resolve() {
            Resolved::Shared(body) => body,
            Resolved::Borrowed(_) => h.clone(),
        });
        let value = match (ty.as_deref(), value) {
            (Some(Hint::Num(NumKind::Int)), n @ (Value::Nat(_) | Value::BigNat(_))) => {
                num::convert(n.clone(), NumKind::Int).unwrap_or(n)
            }
            (Some(Hint::Num(NumKind::Nat)), i @ (Value::Int(_) | Value::BigInt(_))) => {
                num::convert(i.clone(), NumKind::Nat).unwrap_or(i)
            }
            (_, v) => v,
        };
        AtType { value, ty }
    }
}

/// The type of field or case `name` among `parts` (`None` if the type does not name it).
fn part<'h>(parts: &'h [(std::rc::Rc<str>, Hint)], name: &str) -> Option<&'h Hint> {
    parts.iter().find(|(n, _)| &**n == name).map(|(_, h)| h)
}

impl Shown for AtType {
    fn shape(&self) -> Shape<'_, Self> {
        let shape = self.value.shape();
        let Some(ty) = self.ty.as_deref() else {
            return shape.map(|v| AtType::new(v, None));
        };
        match (ty, shape) {
            (Hint::Opt(x), Shape::Opt(v)) => Shape::Opt(AtType::new(v, sub(x))),
            (Hint::Array(x), Shape::Array { mutable, items }) => {
                let x = sub(x);
                Shape::Array {
                    mutable,
                    items: items
                        .into_iter()
                        .map(|v| AtType::new(v, x.clone()))
                        .collect(),
                }
            }
            (Hint::Tuple(xs), Shape::Tuple(items)) if xs.len() == items.len() => Shape::Tuple(
                items
                    .into_iter()
                    .zip(xs)
                    .map(|(v, x)| AtType::new(v, sub(x)))
                    .collect(),
            ),
            // only the fields the type lists, as moc (`let r : { a : Int } = { a = 1; b = 2 }`
            // shows `{a = +1}`)
            (Hint::Record(fs), Shape::Record(items)) => Shape::Record(
                items
                    .into_iter()
                    .filter_map(|(l, v)| part(fs, l).map(|x| (l, AtType::new(v, sub(x)))))
                    .collect(),
            ),
            (Hint::Record(fs), Shape::Module(items)) => Shape::Module(
                items
                    .into_iter()
                    .filter_map(|(l, v)| part(fs, l).map(|x| (l, AtType::new(v, sub(x)))))
                    .collect(),
            ),
            (Hint::Variant(cs), Shape::Variant(tag, v)) => {
                Shape::Variant(tag, v.map(|v| AtType::new(v, part(cs, tag).and_then(sub))))
            }
            (_, Shape::Same(v)) => Shape::Same(AtType::new(v, self.ty.clone())),
            (_, shape) => shape.map(|v| AtType::new(v, None)),
        }
    }
}
