//! Values built from parts: tuples, arrays, records, variants, and module members.

use super::ir::{Code, Hint};
use super::{err, CResult, Compiler, Var};
use crate::script::lib;
use crate::script::syntax::ast::{Expr, ExprKind, FieldExp};
use crate::script::syntax::Span;
use crate::script::value::Value;
use std::rc::Rc;

impl Compiler<'_> {
    /// `(a, b, ..)`.
    pub(super) fn tuple(&mut self, es: &[Expr], hint: Option<&Hint>) -> CResult<Code> {
        let hs: Vec<Option<&Hint>> = match hint {
            Some(Hint::Tuple(hs)) if hs.len() == es.len() => hs.iter().map(Some).collect(),
            _ => vec![None; es.len()],
        };
        let mut v = Vec::new();
        for (x, h) in es.iter().zip(hs) {
            v.push(self.expr(x, h)?);
        }
        Ok(Code::Tuple(v))
    }

    /// `[a, b, ..]` or `[var a, ..]`.
    pub(super) fn array(
        &mut self,
        mutable: bool,
        es: &[Expr],
        hint: Option<&Hint>,
        span: Span,
    ) -> CResult<Code> {
        let h = match hint {
            Some(Hint::Array(h)) => Some(&**h),
            _ => None,
        };
        let mut v = Vec::new();
        for x in es {
            v.push(self.expr(x, h)?);
        }
        Ok(Code::Array(mutable, v, span))
    }

    /// `{ bases with a = x; var b = y }`.
    pub(super) fn record(
        &mut self,
        bases: &[Expr],
        fields: &[FieldExp],
        hint: Option<&Hint>,
        span: Span,
    ) -> CResult<Code> {
        let bs = self.exprs(bases)?;
        let mut fs = Vec::new();
        for f in fields {
            let fh = match (&f.ty, hint) {
                (Some(t), _) => Some(self.hint(t)),
                (None, Some(Hint::Record(hs))) => hs
                    .iter()
                    .find(|(n, _)| **n == *f.name)
                    .map(|(_, h)| h.clone()),
                _ => None,
            };
            if f.alias {
                fs.push((Rc::from(f.name.as_str()), true, self.cell_of(&f.value)?));
                continue;
            }
            let mut c = self.expr(&f.value, fh.as_ref())?;
            if let Some(h) = fh.filter(Hint::has_int) {
                c = Code::Coerce(Box::new(c), Rc::new(h));
            }
            fs.push((Rc::from(f.name.as_str()), f.mutable, c));
        }
        // the fields run in source order (as in moc); the record sorts them
        let mut names: Vec<&str> = fields.iter().map(|f| f.name.as_str()).collect();
        names.sort_unstable();
        if let Some(w) = names.windows(2).find(|w| w[0] == w[1]) {
            return Err(err(span, format!("duplicate field {} in record", w[0])));
        }
        Ok(Code::Record(bs, fs, span))
    }

    /// `#tag` or `#tag a`.
    pub(super) fn variant(
        &mut self,
        tag: &str,
        a: Option<&Expr>,
        hint: Option<&Hint>,
    ) -> CResult<Code> {
        let h = match hint {
            Some(Hint::Variant(hs)) => hs.iter().find(|(n, _)| **n == *tag).map(|(_, h)| h.clone()),
            _ => None,
        };
        let arg = match a {
            Some(a) => self.expr(a, h.as_ref())?,
            None => Code::Const(Value::Unit),
        };
        Ok(Code::Variant(Rc::from(tag), Box::new(arg)))
    }

    /// `a.name`: a built-in module's member is resolved here (`Debug.print`).
    pub(super) fn member(&mut self, a: &Expr, name: &str, span: Span) -> CResult<Code> {
        if let ExprKind::Var(n) = &a.kind {
            if let Some(Var::Module(m)) = self.resolve(n) {
                let member = m.get(name).ok_or_else(|| {
                    err(
                        span,
                        format!(
                            "module {} has no member `{name}` in mo-mem's built-in library",
                            m.name
                        ),
                    )
                })?;
                return Ok(Code::Const(lib::member_value(member)));
            }
        }
        Ok(Code::Dot(
            Box::new(self.expr(a, None)?),
            Rc::from(name),
            span,
        ))
    }
}
