//! Control flow: conditionals, `switch`, `for`, labels with `break`/`continue`, `return`,
//! and `do ? {}` with `!`.

use super::ir::{Code, Hint, Pat};
use super::views;
use super::{err, retag_loop, CResult, Compiler, LabelKind};
use crate::script::syntax::ast::{self, Case, Expr, ExprKind};
use crate::script::syntax::Span;
use crate::script::value::Value;
use std::collections::HashMap;

impl Compiler<'_> {
    /// `if c t else f`.
    pub(super) fn if_(
        &mut self,
        c: &Expr,
        t: &Expr,
        f: Option<&Expr>,
        hint: Option<&Hint>,
    ) -> CResult<Code> {
        let cc = self.expr(c, None)?;
        let ct = self.expr(t, hint)?;
        let cf = match f {
            Some(f) => self.expr(f, hint)?,
            None => Code::Const(Value::Unit),
        };
        Ok(Code::If(Box::new((cc, ct, cf))))
    }

    /// `switch s { cases }`: each case in its own scope.
    pub(super) fn switch(
        &mut self,
        s: &Expr,
        cases: &[Case],
        hint: Option<&Hint>,
        span: Span,
    ) -> CResult<Code> {
        let cs = self.expr(s, None)?;
        let mut v = Vec::new();
        for case in cases {
            self.cur().scopes.push(HashMap::new());
            let r = (|| -> CResult<(Pat, Code)> {
                let p = self.case_pat(&case.pat)?;
                let b = self.expr(&case.body, hint)?;
                Ok((p, b))
            })();
            self.cur().scopes.pop();
            v.push(r?);
        }
        Ok(Code::Switch(Box::new(cs), v, span))
    }

    /// `for (p in it) b`.
    pub(super) fn for_(&mut self, p: &ast::Pat, it: &Expr, b: &Expr, span: Span) -> CResult<Code> {
        let cit = self.expr(it, None)?;
        self.looped(String::new(), |this, id| {
            this.cur().scopes.push(HashMap::new());
            let r = (|| -> CResult<Code> {
                let cp = this.pat(p, &mut HashMap::new(), &mut HashMap::new(), true)?;
                let cb = this.expr(b, None)?;
                let viewed = views::viewed_loop(p, b);
                Ok(Code::For(Box::new((cp, cit.clone(), cb, viewed)), id, span))
            })();
            this.cur().scopes.pop();
            r
        })
    }

    /// `label name body`: a labeled loop (`continue name` continues it) or block.
    pub(super) fn labeled(
        &mut self,
        name: &str,
        body: &Expr,
        hint: Option<&Hint>,
    ) -> CResult<Code> {
        let is_loop = matches!(
            body.kind,
            ExprKind::While(..) | ExprKind::Loop(..) | ExprKind::For(..)
        );
        if is_loop {
            let id = self.label();
            self.cur()
                .labels
                .push((name.to_string(), id, LabelKind::Loop));
            let r = self.expr(body, hint);
            self.cur().labels.pop();
            let code = r?;
            // re-tag the loop with the label's id as an outer label too
            return Ok(Code::Label(id, Box::new(retag_loop(code, id))));
        }
        let id = self.label();
        if let Some(h) = hint {
            self.label_hints.insert(id, h.clone());
        }
        self.cur()
            .labels
            .push((name.to_string(), id, LabelKind::Block));
        let r = self.expr(body, hint);
        self.cur().labels.pop();
        Ok(Code::Label(id, Box::new(r?)))
    }

    /// `break name v` (typed by the label's expected type).
    pub(super) fn break_(&mut self, name: &str, v: Option<&Expr>, span: Span) -> CResult<Code> {
        let id = self.find_label(name, false, span)?;
        let h = self.label_hints.get(&id).cloned();
        let val = match v {
            Some(v) => self.expr(v, h.as_ref())?,
            None => Code::Const(Value::Unit),
        };
        Ok(Code::Break(id, Box::new(val)))
    }

    /// `return v` (typed by the function's result type).
    pub(super) fn return_(&mut self, v: Option<&Expr>, span: Span) -> CResult<Code> {
        if self.fns.len() == 1 {
            return Err(err(span, "misplaced 'return' (not inside a function)"));
        }
        let rh = self.cur().ret_hint.clone();
        let val = match v {
            Some(v) => self.expr(v, rh.as_deref())?,
            None => Code::Const(Value::Unit),
        };
        Ok(Code::Return(Box::new(val)))
    }

    /// `do ? { b }`.
    pub(super) fn do_opt(&mut self, b: &Expr, hint: Option<&Hint>) -> CResult<Code> {
        let id = self.label();
        self.cur()
            .labels
            .push((String::new(), id, LabelKind::DoOpt));
        let inner = match hint {
            Some(Hint::Opt(h)) => Some((**h).clone()),
            _ => None,
        };
        let r = self.expr(b, inner.as_ref());
        self.cur().labels.pop();
        Ok(Code::DoOpt(Box::new(r?), id))
    }

    /// `a!` inside the innermost `do ? {}`.
    pub(super) fn bang(&mut self, a: &Expr, span: Span) -> CResult<Code> {
        let id = self
            .cur()
            .labels
            .iter()
            .rev()
            .find(|l| l.2 == LabelKind::DoOpt)
            .map(|l| l.1);
        let id = id.ok_or_else(|| {
            err(
                span,
                "misplaced '!' (no enclosing 'do ? { ... }' expression)",
            )
        })?;
        Ok(Code::Bang(Box::new(self.expr(a, None)?), id))
    }
}
