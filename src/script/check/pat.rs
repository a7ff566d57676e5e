//! Patterns: the names they bind and their types.

use super::env::{Binding, CheckResult};
use super::error::TypeError;
use super::expr::{lit_type, num_literal_type, Sign};
use super::sub::{normalize, sub, Tri};
use super::types::{Prim, Ty};
use super::Checker;
use crate::script::syntax::ast::{Lit, Pat, PatKind};
use crate::script::syntax::Span;

/// Whether the checker knows the shape of `n` (normalized) well enough to say a pattern of
/// another shape cannot match it: moc rejects a tuple, option, variant or record pattern
/// against any other shape (`Any` too), but not against `None` or what it cannot see.
fn shaped(n: &Ty) -> bool {
    !matches!(n, Ty::Unknown | Ty::Non | Ty::Var(..) | Ty::Con(..))
}

/// A pattern of kind `what` that cannot match a value of type `t` (moc's `code`).
fn cannot_consume(span: Span, code: &'static str, what: &str, t: &Ty) -> TypeError {
    TypeError::new(
        span,
        code,
        format!("{what} pattern cannot consume expected type\n  {t}"),
    )
}

impl Checker<'_> {
    /// Binds the names of `p`, matched against a value of type `t`, in the current scope.
    pub(super) fn bind_pat(&mut self, p: &Pat, t: &Ty) -> CheckResult<()> {
        self.tick(p.span)?;
        let n = normalize(t);
        match &p.kind {
            PatKind::Wild => Ok(()),
            PatKind::Lit(l, neg) => self.lit_pat(p.span, l, *neg, t, &n),
            PatKind::Var(name) => {
                self.bind(name, Binding::Val(t.clone(), false));
                Ok(())
            }
            PatKind::Tuple(ps) => {
                match &n {
                    Ty::Tuple(ts) if ts.len() != ps.len() => {
                        return Err(TypeError::new(
                            p.span,
                            "M0118",
                            format!(
                                "tuple pattern has {} components but expected type has {}",
                                ps.len(),
                                ts.len()
                            ),
                        ))
                    }
                    Ty::Tuple(_) => {}
                    _ if shaped(&n) => return Err(cannot_consume(p.span, "M0112", "tuple", t)),
                    _ => {}
                }
                for (i, q) in ps.iter().enumerate() {
                    let qt = match &n {
                        Ty::Tuple(ts) if ts.len() == ps.len() => ts[i].clone(),
                        _ => Ty::Unknown,
                    };
                    self.bind_pat(q, &qt)?;
                }
                Ok(())
            }
            PatKind::Opt(q) => {
                let qt = match &n {
                    Ty::Opt(x) => (**x).clone(),
                    Ty::Prim(Prim::Null) => Ty::Non,
                    _ if shaped(&n) => return Err(cannot_consume(p.span, "M0115", "option", t)),
                    _ => Ty::Unknown,
                };
                self.bind_pat(q, &qt)
            }
            PatKind::Variant(tag, q) => {
                let qt = match &n {
                    Ty::Variant(tags) => tags
                        .iter()
                        .find(|(m, _)| **m == **tag)
                        .map(|(_, x)| x.clone())
                        .unwrap_or(Ty::Unknown),
                    _ if shaped(&n) => return Err(cannot_consume(p.span, "M0116", "variant", t)),
                    _ => Ty::Unknown,
                };
                match q {
                    Some(q) => self.bind_pat(q, &qt),
                    None => Ok(()),
                }
            }
            PatKind::Record(fs) => self.bind_record_pat(p, fs, t, &n),
            PatKind::Annot(q, ty) => {
                let at = self.ty(ty, p.span)?;
                if sub(t, &at) == Tri::No {
                    return Err(TypeError::new(
                        p.span,
                        "M0117",
                        format!("pattern of type\n  {at}\ncannot consume expected type\n  {t}"),
                    ));
                }
                self.bind_pat(q, &at)
            }
            PatKind::Or(a, b) => {
                self.bind_pat(a, t)?;
                self.bind_pat(b, t)
            }
        }
    }

    /// A literal pattern (negated when `neg`) matched against a value of type `t`
    /// (normalized `n`): moc checks the literal as an expression of that type (`Nat`
    /// widened to `Int`), and refuses a literal pattern on a type it cannot look into.
    fn lit_pat(&mut self, span: Span, l: &Lit, neg: bool, t: &Ty, n: &Ty) -> CheckResult<()> {
        let (w, want) = match n {
            Ty::Prim(Prim::Nat) => (Ty::Prim(Prim::Int), Ty::Prim(Prim::Int)),
            // a type parameter without a bound is promoted to `Any` (with one: not checked)
            Ty::Var(id, _) if !self.bounds.contains_key(id) => {
                return Err(TypeError::new(
                    span,
                    "M0110",
                    "literal pattern cannot consume expected type\n  Any",
                ))
            }
            Ty::Any => {
                return Err(TypeError::new(
                    span,
                    "M0110",
                    format!("literal pattern cannot consume expected type\n  {t}"),
                ))
            }
            Ty::Unknown | Ty::Non | Ty::Con(..) | Ty::Var(..) => return Ok(()),
            _ => (n.clone(), t.clone()),
        };
        match l {
            Lit::Nat(digits) => {
                let sign = if neg { Sign::Minus } else { Sign::Unsigned };
                num_literal_type(span, digits, sign, &w, &want).map(|_| ())
            }
            Lit::Text(_) if w == Ty::Prim(Prim::Blob) => Ok(()),
            _ => {
                let lt = match l {
                    Lit::Float(_) => Ty::Prim(Prim::Float),
                    _ if neg => Ty::Prim(Prim::Int),
                    _ => lit_type(l),
                };
                if sub(&lt, &w) == Tri::No {
                    return Err(TypeError::literal(span, &lt, &want));
                }
                Ok(())
            }
        }
    }

    /// The type a pattern declares (its annotation), `Unknown` where it declares none.
    pub(super) fn pat_type(&mut self, p: &Pat) -> CheckResult<Ty> {
        Ok(match &p.kind {
            PatKind::Annot(_, ty) => self.ty(ty, p.span)?,
            PatKind::Tuple(ps) => {
                let mut ts = Vec::with_capacity(ps.len());
                for q in ps {
                    ts.push(self.pat_type(q)?);
                }
                Ty::Tuple(ts.into())
            }
            _ => Ty::Unknown,
        })
    }
}

impl Checker<'_> {
    /// Binds the record pattern `p` (fields `fs`) against type `t` (normalized `n`).
    fn bind_record_pat(
        &mut self,
        p: &Pat,
        fs: &[(String, Pat)],
        t: &Ty,
        n: &Ty,
    ) -> CheckResult<()> {
        if !matches!(n, Ty::Obj(..)) && shaped(n) {
            return Err(cannot_consume(p.span, "M0113", "object", t));
        }
        for (i, (name, q)) in fs.iter().enumerate() {
            if fs[..i].iter().any(|(m, _)| m == name) {
                let punned = matches!(&q.kind, PatKind::Var(v) if v == name);
                return Err(TypeError::new(
                    if punned {
                        q.span
                    } else {
                        super::expr::field_span(name, false, q.span)
                    },
                    "M0121",
                    format!("duplicate field {name} in object pattern"),
                ));
            }
            let qt = match &n {
                Ty::Obj(_, flds) => match flds.iter().find(|f| *f.name == **name) {
                    Some(f) if f.mutable => {
                        return Err(TypeError::new(
                            q.span,
                            "M0120",
                            format!("cannot pattern match mutable field {name}"),
                        ))
                    }
                    Some(f) => f.ty.clone(),
                    None if !t.has_unknown() => {
                        return Err(TypeError::new(
                            q.span,
                            "M0119",
                            format!("object field {name} is not contained in expected type\n  {t}"),
                        ))
                    }
                    None => Ty::Unknown,
                },
                _ => Ty::Unknown,
            };
            self.bind_pat(q, &qt)?;
        }
        Ok(())
    }
}
