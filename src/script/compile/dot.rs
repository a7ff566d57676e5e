//! What calls need from the scope for contextual dot notation and implicit arguments: the
//! built-in modules in scope (a method call resolves `x.f(..)` among them at run time) and
//! the script's values named like an implicit parameter (`compare`, `equal`, `toText`).

use super::ir::{Code, DotScope};
use super::{err, CResult, Compiler, GlobalVar, Var};
use crate::script::lib::{self, dot, Module};
use crate::script::syntax::ast::{Expr, ExprKind};
use crate::script::syntax::Span;
use crate::script::value::Value;
use std::rc::Rc;

impl Compiler<'_> {
    /// A method call site `x.name(..)`: the modules and implicit-named values in scope.
    pub(super) fn dot_scope(&mut self, name: &str, call: &Expr) -> Rc<DotScope> {
        let mut modules: Vec<&'static Module> = Vec::new();
        let mut add = |m: &'static Module| {
            if !modules.iter().any(|x| std::ptr::eq(*x, m)) {
                modules.push(m);
            }
        };
        for f in &self.fns {
            for scope in &f.scopes {
                for v in scope.values() {
                    if let Var::Module(m) = v {
                        add(m);
                    }
                }
            }
        }
        for v in self.globals.names.values() {
            if let GlobalVar::Module(m) = v {
                add(m);
            }
        }
        // a fixed order (the library's), so that a tie resolves the same way every run
        let order = |m: &&Module| {
            lib::all_modules()
                .iter()
                .position(|x| std::ptr::eq(*x, *m))
                .unwrap_or(usize::MAX)
        };
        modules.sort_by_key(order);
        let mut implicits = Vec::new();
        for &n in dot::IMPLICIT_NAMES {
            if self.skips_implicit(call, n) {
                continue;
            }
            if let Some(Var::Slot { slot, .. }) = self.resolve(n) {
                implicits.push((Rc::from(n), Code::Var(slot)));
            }
        }
        Rc::new(DotScope {
            name: Rc::from(name),
            modules,
            implicits,
            found: Vec::new(),
        })
    }

    /// For a call `M.f(args)` of a module function whose implicit arguments are omitted,
    /// where each argument comes from; `None` for any other call.
    pub(super) fn implicit_layout(
        &mut self,
        f: &Expr,
        nargs: usize,
    ) -> Option<Vec<dot::ArgSource>> {
        let ExprKind::Dot(m, name) = &f.kind else {
            return None;
        };
        let ExprKind::Var(n) = &m.kind else {
            return None;
        };
        let Some(Var::Module(m)) = self.resolve(n) else {
            return None;
        };
        dot::layout(&dot::signature(m.name, name)?, nargs)
    }

    /// The implicit argument named `name` at a call: the script's value of that name in
    /// scope (unless its type does not fit, see [`Self::skips_implicit`]), else the
    /// engine's own.
    pub(super) fn implicit_arg(&mut self, name: &str, span: Span, call: &Expr) -> CResult<Code> {
        if !self.skips_implicit(call, name) {
            if let Some(Var::Slot { slot, .. }) = self.resolve(name) {
                return Ok(Code::Var(slot));
            }
        }
        let v: Option<Value> = dot::natural_implicit(name);
        v.map(Code::Const).ok_or_else(|| {
            err(
                span,
                format!("cannot determine implicit argument `{name}`: pass it explicitly"),
            )
        })
    }
}
