//! The tests conditions and loops make, shared by the general evaluator ([`super::exec`])
//! and the unboxed fast paths ([`super::fast`]): a value's truth, a comparison's outcome,
//! and whether a loop's `break` or `continue` ends it.

use super::{trap, trap_at, Ctrl, EResult};
use crate::script::compile::ir::Hint;
use crate::script::syntax::ast::BinOp;
use crate::script::syntax::Span;
use crate::script::value::{equality, ord, Value};
use std::cmp::Ordering;
use std::rc::Rc;

/// The Bool `v` is, or a trap (at `span` if given) when it is not a Bool.
pub(super) fn truthy(v: &Value, span: Option<Span>) -> EResult<bool> {
    match v {
        Value::Bool(b) => Ok(*b),
        other => {
            let m = format!("expected a Bool, got {}", other.kind_name());
            Err(match span {
                Some(s) => trap_at(s, m),
                None => trap(m),
            })
        }
    }
}

/// The truth of `op` for an ordering.
#[inline(always)]
pub(super) fn compare_ord(op: BinOp, o: Ordering) -> bool {
    match op {
        BinOp::Lt => o == Ordering::Less,
        BinOp::Le => o != Ordering::Greater,
        BinOp::Gt => o == Ordering::Greater,
        BinOp::Ge => o != Ordering::Less,
        BinOp::Eq => o == Ordering::Equal,
        _ => o != Ordering::Equal,
    }
}

/// The outcome of comparison `op` of `a` with `b` (of type `ty` if known): a trap at `span`
/// when they cannot be compared.
pub(super) fn compare_value(
    op: BinOp,
    a: &Value,
    b: &Value,
    ty: Option<&Rc<Hint>>,
    span: Span,
) -> EResult<bool> {
    if let (Value::Nat(x), Value::Nat(y), None) = (a, b, ty) {
        return Ok(match op {
            BinOp::Lt => x < y,
            BinOp::Le => x <= y,
            BinOp::Gt => x > y,
            BinOp::Ge => x >= y,
            BinOp::Eq => x == y,
            _ => x != y,
        });
    }
    match op {
        BinOp::Eq | BinOp::Ne => match equality::equal_at(a, b, ty) {
            Ok(eq) => Ok(eq == (op == BinOp::Eq)),
            Err(why) => Err(trap_at(span, why)),
        },
        _ => {
            let o = ord::compare(a, b);
            if o.is_none() && !matches!((a, b), (Value::Float(_), _) | (_, Value::Float(_))) {
                return Err(trap_at(
                    span,
                    format!(
                        "cannot compare a {} with a {}",
                        a.kind_name(),
                        b.kind_name()
                    ),
                ));
            }
            Ok(match (op, o) {
                (_, None) => false,
                (BinOp::Lt, Some(o)) => o == Ordering::Less,
                (BinOp::Le, Some(o)) => o != Ordering::Greater,
                (BinOp::Gt, Some(o)) => o == Ordering::Greater,
                _ => o != Some(Ordering::Less),
            })
        }
    }
}

/// What a loop does when its body stopped with `e` (the cold path of a loop step, kept out
/// of line so the step itself only tests `Ok(())`): `Ok(None)` to go on (a `continue` of
/// this loop), `Ok(Some(v))` to end the loop with `v` (its `break`), or `e` passed on.
#[cold]
#[inline(never)]
pub(super) fn loop_exit(e: Ctrl, id: u32) -> EResult<Option<Value>> {
    match e {
        Ctrl::Continue(l) if l == id => Ok(None),
        Ctrl::Break(l, v) if l == id => Ok(Some(v)),
        e => Err(e),
    }
}
