//! What the type checker found, as the compiler uses it: literal types, the static type of
//! `==`, implicit arguments whose value in scope has the wrong type.

use super::ir::Hint;
use super::Compiler;
use crate::script::check::env::{LitType, Typing};
use crate::script::check::sub::unfold;
use crate::script::check::types::{Prim, Ty};
use crate::script::syntax::ast::Expr;
use crate::script::value::NumKind;
use std::rc::Rc;

/// How deep a checked type is turned into a hint (recursive types stop there: their
/// deeper parts compare by value).
const HINT_DEPTH: usize = 24;
/// How many parts a checked type's hint has at most (a recursive type with several
/// recursive parts would otherwise grow exponentially with the depth).
const HINT_NODES: u32 = 4_096;

impl Compiler<'_> {
    /// The numeric type the checker gave the literal `e` (`-5` included), if not its
    /// default.
    pub(super) fn literal_kind(&self, e: &Expr) -> Option<NumKind> {
        match self.typing.literals.get(&Typing::key(e))? {
            LitType::Num(k) => Some(*k),
            LitType::Float => Some(NumKind::Float),
            LitType::Blob => None,
        }
    }

    /// Whether the checker typed the text literal `e` as a `Blob`.
    pub(super) fn literal_is_blob(&self, e: &Expr) -> bool {
        self.typing.literals.get(&Typing::key(e)) == Some(&LitType::Blob)
    }

    /// The static type the comparison `e` (`a == b`) is at, as the checker found it;
    /// `None` where it is not known or too deep to write out (the compiler's own guess, which
    /// follows declared types, then stands).
    pub(super) fn checked_equality_type(&self, e: &Expr) -> Option<Option<Rc<Hint>>> {
        let t = self.typing.equality.get(&Typing::key(e))?;
        if matches!(t, Ty::Unknown) {
            return None;
        }
        let mut budget = HINT_NODES;
        let h = hint_of(t, HINT_DEPTH, &mut budget);
        if budget == 0 {
            // a recursive type: the compiler's own hint of the declaration is exact
            return None;
        }
        // only the structural types and `Any` change the answer
        Some(h.is_structural().then(|| Rc::new(h)))
    }

    /// The static type of the argument of `debug_show` (the expression `e`), as the checker
    /// found it, where it has a `Nat`, `Int` or record part (a `Nat` value at an `Int` shows
    /// as one: `+5`; an `Int` value made at an annotation shows as the `Nat` it is elsewhere;
    /// a record shows the fields its type lists); `None` where the value alone tells how it
    /// shows. A recursive type is written out to a
    /// bounded depth; below it, values show by themselves.
    pub(super) fn checked_show_type(&self, e: &Expr) -> Option<Rc<Hint>> {
        let t = self.typing.shows.get(&Typing::key(e))?;
        let mut budget = HINT_NODES;
        let h = hint_of(t, HINT_DEPTH, &mut budget);
        shown_by_type(&h).then(|| Rc::new(h))
    }

    /// Whether the checker typed the arithmetic `e` (`a - b`, `x -= y`) `Int`.
    pub(super) fn checked_int_arith(&self, e: &Expr) -> bool {
        self.typing.int_arith.contains(&Typing::key(e))
    }

    /// Whether the checker found that the value named `name` in scope does not fit the
    /// implicit parameter of that name at the call `call` (moc takes a module's then).
    pub(super) fn skips_implicit(&self, call: &Expr, name: &str) -> bool {
        self.typing
            .skip_implicits
            .get(&Typing::key(call))
            .is_some_and(|ns| ns.iter().any(|n| &**n == name))
    }
}

/// Whether a value of type `h` may show otherwise than by itself: `h` has a `Nat`, an `Int`
/// or a record (whose value may have more fields) anywhere (checked hints have no
/// [`Hint::Named`] parts).
fn shown_by_type(h: &Hint) -> bool {
    match h {
        Hint::Num(k) => matches!(k, NumKind::Int | NumKind::Nat),
        Hint::Record(_) => true,
        Hint::Opt(x) | Hint::Array(x) => shown_by_type(x),
        Hint::Tuple(xs) => xs.iter().any(shown_by_type),
        Hint::Variant(fs) => fs.iter().any(|(_, x)| shown_by_type(x)),
        Hint::Named(_) | Hint::Blob | Hint::Top | Hint::Any => false,
    }
}

/// A checked type as the evaluator's hint (`Any`: compare by value).
fn hint_of(t: &Ty, depth: usize, budget: &mut u32) -> Hint {
    if depth == 0 || *budget == 0 {
        // cut: the caller prefers the compiler's own hint then (it follows declarations)
        *budget = 0;
        return Hint::Any;
    }
    *budget -= 1;
    let d = depth - 1;
    match t {
        Ty::Any => Hint::Top,
        Ty::Prim(Prim::Blob) => Hint::Blob,
        Ty::Prim(p) => match crate::script::check::num_kind(*p) {
            Some(k) => Hint::Num(k),
            None if *p == Prim::Float => Hint::Num(NumKind::Float),
            None => Hint::Any,
        },
        Ty::Opt(x) => Hint::Opt(Box::new(hint_of(x, d, budget))),
        Ty::Array(_, x) => Hint::Array(Box::new(hint_of(x, d, budget))),
        Ty::Tuple(ts) => Hint::Tuple(ts.iter().map(|x| hint_of(x, d, budget)).collect()),
        Ty::Obj(_, fs) => Hint::Record(
            fs.iter()
                .map(|f| (f.name.clone(), hint_of(&f.ty, d, budget)))
                .collect(),
        ),
        Ty::Variant(ts) => Hint::Variant(
            ts.iter()
                .map(|(n, x)| (n.clone(), hint_of(x, d, budget)))
                .collect(),
        ),
        Ty::Con(..) => match unfold(t) {
            Some(u) => hint_of(&u, d, budget),
            None => Hint::Any,
        },
        Ty::Var(..) => Hint::Top,
        Ty::Unknown | Ty::Non | Ty::Func(_) => Hint::Any,
    }
}
