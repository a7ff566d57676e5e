//! Patterns: the names they bind and their types.

use super::env::{Binding, CheckResult};
use super::sub::normalize;
use super::types::Ty;
use super::Checker;
use crate::script::syntax::ast::{Pat, PatKind};

impl Checker<'_> {
    /// Binds the names of `p`, matched against a value of type `t`, in the current scope.
    pub(super) fn bind_pat(&mut self, p: &Pat, t: &Ty) -> CheckResult<()> {
        self.tick(p.span)?;
        let n = normalize(t);
        match &p.kind {
            PatKind::Wild | PatKind::Lit(..) => Ok(()),
            PatKind::Var(name) => {
                self.bind(name, Binding::Val(t.clone(), false));
                Ok(())
            }
            PatKind::Tuple(ps) => {
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
                    _ => Ty::Unknown,
                };
                match q {
                    Some(q) => self.bind_pat(q, &qt),
                    None => Ok(()),
                }
            }
            PatKind::Record(fs) => {
                for (name, q) in fs {
                    let qt = match &n {
                        Ty::Obj(_, flds) => flds
                            .iter()
                            .find(|f| *f.name == **name)
                            .map(|f| f.ty.clone())
                            .unwrap_or(Ty::Unknown),
                        _ => Ty::Unknown,
                    };
                    self.bind_pat(q, &qt)?;
                }
                Ok(())
            }
            PatKind::Annot(q, ty) => {
                let at = self.ty(ty, p.span)?;
                self.bind_pat(q, &at)
            }
            PatKind::Or(a, b) => {
                self.bind_pat(a, t)?;
                self.bind_pat(b, t)
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
