//! The static type of an `==` comparison, where the script says it: moc compares at the
//! least upper bound of the operands' types (see [`crate::script::value::equality`]).

use super::ir::Hint;
use super::{Compiler, Var};
use crate::script::syntax::ast::{BinOp, Expr, ExprKind};
use std::rc::Rc;

/// How deep [`lub`] follows two types (declared types may recurse).
const LUB_DEPTH: usize = 32;
/// How many parts [`lub`] builds at most (two recursive declarations with several
/// recursive parts would otherwise take time exponential in the depth).
const LUB_NODES: u32 = 4_096;

impl Compiler<'_> {
    /// For a comparison `a op b`: the static type `==`/`!=` compare at (see
    /// [`Self::equality_type`]), and whether an operand is declared a `Blob` (a text
    /// literal on the other side is then a blob literal).
    pub(super) fn comparison_type(
        &mut self,
        op: BinOp,
        a: &Expr,
        b: &Expr,
    ) -> (Option<Rc<Hint>>, bool) {
        let is_blob = |t: Option<Rc<Hint>>| t.is_some_and(|t| matches!(&*t.resolve(), Hint::Blob));
        let blob = is_blob(self.declared_type(a)) || is_blob(self.declared_type(b));
        let ty = match op {
            BinOp::Eq | BinOp::Ne => self.equality_type(a, b),
            _ => None,
        };
        (ty, blob)
    }

    /// The type `a == b` compares at: the least upper bound of the operands' declared
    /// types when both are known, the one known otherwise, `None` when neither is.
    fn equality_type(&mut self, a: &Expr, b: &Expr) -> Option<Rc<Hint>> {
        let ty = match (self.declared_type(a), self.declared_type(b)) {
            (Some(x), Some(y)) => Rc::new(lub(&x, &y, LUB_DEPTH, &mut { LUB_NODES })),
            (Some(x), None) | (None, Some(x)) => x,
            (None, None) => return None,
        };
        // only the structural types and `Any` change the answer: the others compare
        // by value (and keep the evaluator's fast path for numbers)
        ty.resolve().is_structural().then_some(ty)
    }

    /// The type an expression is declared with: an annotation `e : T`, or a variable
    /// declared with a type (`let x : T`, a parameter `x : T`).
    fn declared_type(&mut self, e: &Expr) -> Option<Rc<Hint>> {
        match &e.kind {
            ExprKind::Annot(_, t) => Some(Rc::new(self.hint(t))),
            ExprKind::Var(n) => match self.resolve(n) {
                Some(Var::Slot { ty, .. }) => ty,
                _ => None,
            },
            ExprKind::Index(a, _) => match &*self.declared_type(a)?.resolve() {
                Hint::Array(h) => Some(Rc::new((**h).clone())),
                _ => None,
            },
            ExprKind::Dot(r, f) => match &*self.declared_type(r)?.resolve() {
                Hint::Record(fs) => fs
                    .iter()
                    .find(|(n, _)| **n == **f)
                    .map(|(_, h)| Rc::new(h.clone())),
                _ => None,
            },
            ExprKind::Proj(t, i) => match &*self.declared_type(t)?.resolve() {
                Hint::Tuple(hs) => hs.get(*i).map(|h| Rc::new(h.clone())),
                _ => None,
            },
            ExprKind::Bang(a) => match &*self.declared_type(a)?.resolve() {
                Hint::Opt(h) => Some(Rc::new((**h).clone())),
                _ => None,
            },
            // constructed values: the parts' types where they are known (`Any`, compared
            // by value, where not), none at all when no part is known
            ExprKind::Tuple(es) => {
                let parts = self.part_types(es)?;
                Some(Rc::new(Hint::Tuple(parts)))
            }
            ExprKind::Array(false, es) => {
                let parts = self.part_types(es)?;
                let elem = parts
                    .into_iter()
                    .filter(|h| !matches!(h, Hint::Any))
                    .reduce(|a, b| lub(&a, &b, LUB_DEPTH, &mut { LUB_NODES }))?;
                Some(Rc::new(Hint::Array(Box::new(elem))))
            }
            ExprKind::Opt(a) => {
                let h = self.declared_type(a)?;
                Some(Rc::new(Hint::Opt(Box::new((*h).clone()))))
            }
            ExprKind::Variant(tag, Some(a)) => {
                let h = self.declared_type(a)?;
                Some(Rc::new(Hint::Variant(vec![(
                    Rc::from(tag.as_str()),
                    (*h).clone(),
                )])))
            }
            ExprKind::Record(bases, fields) if bases.is_empty() => {
                let values: Vec<Expr> = fields.iter().map(|f| f.value.clone()).collect();
                let parts = self.part_types(&values)?;
                Some(Rc::new(Hint::Record(
                    fields
                        .iter()
                        .zip(parts)
                        .map(|(f, h)| (Rc::from(f.name.as_str()), h))
                        .collect(),
                )))
            }
            _ => None,
        }
    }
}

impl Compiler<'_> {
    /// The declared types of `es` (`Any` for those not known); `None` when none is known.
    fn part_types(&mut self, es: &[Expr]) -> Option<Vec<Hint>> {
        let parts: Vec<Option<Rc<Hint>>> = es.iter().map(|e| self.declared_type(e)).collect();
        if parts.iter().all(Option::is_none) {
            return None;
        }
        Some(
            parts
                .into_iter()
                .map(|h| h.map_or(Hint::Any, |h| (*h).clone()))
                .collect(),
        )
    }
}

/// The least upper bound of two types, as far as `==` needs it (`Any`: not known).
fn lub(a: &Hint, b: &Hint, depth: usize, budget: &mut u32) -> Hint {
    if depth == 0 || *budget == 0 {
        return Hint::Any;
    }
    *budget -= 1;
    let (ra, rb) = (a.resolve(), b.resolve());
    let (a, b): (&Hint, &Hint) = (&ra, &rb);
    if a == b {
        return a.clone();
    }
    let d = depth - 1;
    match (a, b) {
        (Hint::Top, _) | (_, Hint::Top) => Hint::Top,
        (Hint::Record(x), Hint::Record(y)) => Hint::Record(
            x.iter()
                .filter_map(|(n, h)| {
                    let (_, g) = y.iter().find(|(m, _)| m == n)?;
                    Some((n.clone(), lub(h, g, d, budget)))
                })
                .collect(),
        ),
        (Hint::Variant(x), Hint::Variant(y)) => {
            let mut fs: Vec<(Rc<str>, Hint)> = x
                .iter()
                .map(|(n, h)| match y.iter().find(|(m, _)| m == n) {
                    Some((_, g)) => (n.clone(), lub(h, g, d, budget)),
                    None => (n.clone(), h.clone()),
                })
                .collect();
            for (n, g) in y {
                if !x.iter().any(|(m, _)| m == n) {
                    fs.push((n.clone(), g.clone()));
                }
            }
            Hint::Variant(fs)
        }
        (Hint::Opt(x), Hint::Opt(y)) => Hint::Opt(Box::new(lub(x, y, d, budget))),
        (Hint::Array(x), Hint::Array(y)) => Hint::Array(Box::new(lub(x, y, d, budget))),
        (Hint::Tuple(x), Hint::Tuple(y)) if x.len() == y.len() => {
            Hint::Tuple(x.iter().zip(y).map(|(p, q)| lub(p, q, d, budget)).collect())
        }
        _ => Hint::Any,
    }
}
