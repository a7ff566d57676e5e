//! Which types moc's operators are defined on, beyond the primitive arithmetic of
//! [`super::expr::op_defined`]: ordering, equality, unary operators.

use super::sub::normalize;
use super::types::{Prim, Ty};
use crate::script::syntax::ast::UnOp;

/// How deep [`eq_undefined`] looks into a type (declarations may recurse).
const EQ_DEPTH: usize = 16;

/// Whether `<`, `<=`, `>`, `>=` are certainly not defined on `t` (moc: numbers, `Char`,
/// `Text`, `Blob` and `Principal` only). `false` where the checker cannot tell (a type
/// parameter, which moc promotes to its bound; an abstract type; `Unknown`).
pub(super) fn order_undefined(t: &Ty) -> bool {
    match normalize(t) {
        Ty::Prim(p) => !p.is_ordered(),
        Ty::Any | Ty::Opt(_) | Ty::Tuple(_) | Ty::Array(..) | Ty::Obj(..) | Ty::Variant(_) => true,
        Ty::Func(_) => true,
        Ty::Unknown | Ty::Non | Ty::Var(..) | Ty::Con(..) => false,
    }
}

/// Whether the checker knows `t`'s shape: not `Unknown`, a type parameter or an abstract
/// type.
pub(super) fn concrete(t: &Ty) -> bool {
    !matches!(normalize(t), Ty::Unknown | Ty::Var(..) | Ty::Con(..))
}

/// Whether the checker knows the shape of `n` (normalized) well enough to say a value of
/// it is not a tuple, option, array, record or variant: not `Unknown`, `None`, `Any`, a type
/// parameter or an abstract type.
pub(super) fn shaped(n: &Ty) -> bool {
    !matches!(
        n,
        Ty::Unknown | Ty::Non | Ty::Any | Ty::Var(..) | Ty::Con(..)
    )
}

/// Whether `debug_show` is certainly not defined on `t`: moc shows no function.
pub(super) fn show_undefined(t: &Ty) -> bool {
    show_undefined_d(t, EQ_DEPTH)
}

fn show_undefined_d(t: &Ty, depth: usize) -> bool {
    if depth == 0 || !super::sub::spend() {
        return false;
    }
    let d = depth - 1;
    match normalize(t) {
        Ty::Func(_) => true,
        Ty::Opt(x) | Ty::Array(_, x) => show_undefined_d(&x, d),
        Ty::Tuple(ts) => ts.iter().any(|x| show_undefined_d(x, d)),
        Ty::Obj(_, fs) => fs.iter().any(|f| show_undefined_d(&f.ty, d)),
        Ty::Variant(ts) => ts.iter().any(|(_, x)| show_undefined_d(x, d)),
        Ty::Prim(_) | Ty::Any | Ty::Non | Ty::Unknown | Ty::Var(..) | Ty::Con(..) => false,
    }
}

/// Whether `==` and `!=` are certainly not defined on `t`: moc compares structurally, but
/// not through a function, a mutable array or field, or an `Error`.
pub(super) fn eq_undefined(t: &Ty) -> bool {
    eq_undefined_d(t, EQ_DEPTH)
}

fn eq_undefined_d(t: &Ty, depth: usize) -> bool {
    if depth == 0 || !super::sub::spend() {
        return false;
    }
    let d = depth - 1;
    match normalize(t) {
        Ty::Func(_) | Ty::Array(true, _) | Ty::Prim(Prim::Error) => true,
        Ty::Opt(x) | Ty::Array(false, x) => eq_undefined_d(&x, d),
        Ty::Tuple(ts) => ts.iter().any(|x| eq_undefined_d(x, d)),
        Ty::Obj(_, fs) => fs.iter().any(|f| f.mutable || eq_undefined_d(&f.ty, d)),
        Ty::Variant(ts) => ts.iter().any(|(_, x)| eq_undefined_d(x, d)),
        Ty::Prim(_) | Ty::Any | Ty::Non | Ty::Unknown | Ty::Var(..) | Ty::Con(..) => false,
    }
}

/// Whether unary `op` applies to an operand of type `p` (`-`, `+`: signed numbers and
/// `Nat`, which moc widens to `Int`; `^`: fixed-width integers).
pub(super) fn unary_defined(op: UnOp, p: Prim) -> bool {
    match op {
        UnOp::Neg | UnOp::Pos => {
            matches!(
                p,
                Prim::Nat | Prim::Int | Prim::Int8 | Prim::Int16 | Prim::Int32 | Prim::Int64
            ) || p == Prim::Float
        }
        UnOp::BitNot => p.is_fixed(),
    }
}
