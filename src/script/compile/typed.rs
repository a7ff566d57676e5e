//! What the type checker found, as the compiler uses it: literal types, the static type of
//! `==`, implicit arguments whose value in scope has the wrong type.

use super::ir::{Hint, NamedHint};
use super::Compiler;
use crate::script::check::env::{LitType, Typing};
use crate::script::check::sub::unfold;
use crate::script::check::types::{Prim, Ty};
use crate::script::syntax::ast::Expr;
use crate::script::value::NumKind;
use std::collections::HashSet;
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
        // a recursive type (cut): the compiler's own hint of the declaration is exact
        let h = hint_of(t)?;
        // only the structural types and `Any` change the answer
        Some(h.is_structural().then(|| Rc::new(h)))
    }

    /// The static type of the argument of `debug_show` (the expression `e`), as the checker
    /// found it, where it has a `Nat`, `Int` or record part (a `Nat` value at an `Int` shows
    /// as one: `+5`; an `Int` value made at an annotation shows as the `Nat` it is elsewhere;
    /// a record shows the fields its type lists); `None` where the value alone tells how it
    /// shows. Each application of a declared or library type is one hint, so a recursive
    /// type describes its values at every depth.
    pub(super) fn checked_show_type(&mut self, e: &Expr) -> Option<Rc<Hint>> {
        let t = self.typing.shows.get(&Typing::key(e))?;
        self.show_hint(t)
    }

    /// The hint a value of the checked type `t` shows at, where it may show otherwise than
    /// by itself (see [`Compiler::checked_show_type`]).
    pub(super) fn show_hint(&mut self, t: &Ty) -> Option<Rc<Hint>> {
        let mut w = HintOf::new(MAX_SESSION_INSTANCES.saturating_sub(self.globals.instances.len()));
        let h = w.hint(t, HINT_DEPTH);
        let made: Vec<Rc<NamedHint>> = w.memo.into_iter().map(|(_, n)| n).collect();
        super::hints::propagate_has_int(&made);
        let shown = shown_by_type(&h, &mut HashSet::new());
        // the applications' hints live as long as the session's code may show with them
        self.globals.instances.extend(made);
        shown.then(|| Rc::new(h))
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
/// or a record (whose value may have more fields) anywhere (each application's hint, `seen`,
/// looked into once).
fn shown_by_type(h: &Hint, seen: &mut HashSet<*const NamedHint>) -> bool {
    match h {
        Hint::Num(k) => matches!(k, NumKind::Int | NumKind::Nat),
        Hint::Record(_) => true,
        Hint::Opt(x) | Hint::Array(x) => shown_by_type(x, seen),
        Hint::Tuple(xs) => xs.iter().any(|x| shown_by_type(x, seen)),
        Hint::Variant(fs) => fs.iter().any(|(_, x)| shown_by_type(x, seen)),
        Hint::Named(w) => match w.upgrade() {
            Some(n) if seen.insert(Rc::as_ptr(&n)) => {
                n.body.get().is_some_and(|b| shown_by_type(b, seen))
            }
            _ => false,
        },
        Hint::Blob | Hint::Top | Hint::Any => false,
    }
}

/// Most hints of type applications one session keeps for `debug_show` (beyond, an
/// application's type is written out [`HINT_DEPTH`] levels deep).
const MAX_SESSION_INSTANCES: usize = 65_536;

/// A checked type as the evaluator's hint (`Any`: compare by value), written out at most
/// `depth` levels deep and in at most `budget` parts.
///
/// With `room` for them, each application of a declared or library type (`List<Int>`) is
/// given one hint of its own (`memo`), so that a recursive type is a graph like a declared
/// one: a list of a thousand `Int`s then shows every one as an `Int`. Without, a recursive
/// type is cut at the depth.
struct HintOf {
    budget: u32,
    /// The applications met, with their hints (bodies set as they are written out).
    memo: Vec<(Ty, Rc<NamedHint>)>,
    /// Applications this writing may still give a hint of their own.
    room: usize,
}

impl HintOf {
    fn new(room: usize) -> HintOf {
        HintOf {
            budget: HINT_NODES,
            memo: Vec::new(),
            room,
        }
    }

    fn hint(&mut self, t: &Ty, depth: usize) -> Hint {
        if depth == 0 || self.budget == 0 {
            // cut: the caller prefers the compiler's own hint then (it follows declarations)
            self.budget = 0;
            return Hint::Any;
        }
        self.budget -= 1;
        let d = depth - 1;
        match t {
            Ty::Any => Hint::Top,
            Ty::Prim(Prim::Blob) => Hint::Blob,
            Ty::Prim(p) => match crate::script::check::num_kind(*p) {
                Some(k) => Hint::Num(k),
                None if *p == Prim::Float => Hint::Num(NumKind::Float),
                None => Hint::Any,
            },
            Ty::Opt(x) => Hint::Opt(Box::new(self.hint(x, d))),
            Ty::Array(_, x) => Hint::Array(Box::new(self.hint(x, d))),
            Ty::Tuple(ts) => Hint::Tuple(ts.iter().map(|x| self.hint(x, d)).collect()),
            Ty::Obj(_, fs) => Hint::Record(
                fs.iter()
                    .map(|f| (f.name.clone(), self.hint(&f.ty, d)))
                    .collect(),
            ),
            Ty::Variant(ts) => Hint::Variant(
                ts.iter()
                    .map(|(n, x)| (n.clone(), self.hint(x, d)))
                    .collect(),
            ),
            Ty::Con(c, _) => match unfold(t) {
                Some(u) if self.memo.len() < self.room => self.application(t, &c.name, &u, d),
                Some(u) => self.hint(&u, d),
                None => Hint::Any,
            },
            Ty::Var(..) => Hint::Top,
            Ty::Unknown | Ty::Non | Ty::Func(_) => Hint::Any,
        }
    }

    /// The hint of the application `t` (named `name`, unfolded `u`): its own, made once.
    fn application(&mut self, t: &Ty, name: &str, u: &Ty, depth: usize) -> Hint {
        if let Some((_, n)) = self.memo.iter().find(|(k, _)| k == t) {
            return Hint::Named(Rc::downgrade(n));
        }
        let n = Rc::new(NamedHint::instance(name));
        self.memo.push((t.clone(), n.clone()));
        let body = match self.hint(u, depth) {
            // an alias of another application: that one's structure
            Hint::Named(w) => w
                .upgrade()
                .and_then(|m| m.body.get().cloned())
                .unwrap_or_else(|| Rc::new(Hint::Any)),
            b => Rc::new(b),
        };
        let _ = n.body.set(body);
        Hint::Named(Rc::downgrade(&n))
    }
}

/// A checked type as the evaluator's hint, cut at [`HINT_DEPTH`] levels (`None` where cut).
fn hint_of(t: &Ty) -> Option<Hint> {
    let mut w = HintOf::new(0);
    let h = w.hint(t, HINT_DEPTH);
    (w.budget > 0).then_some(h)
}
