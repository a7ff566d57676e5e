//! Calls: `f(args)` with its omitted implicit arguments filled in, method calls `x.f(..)`,
//! and the contextual dot calls the checker resolved by static type.

use super::ir::{Code, Hint, Slot};
use super::{err, CResult, Compiler, Var};
use crate::script::check::env::{ArgFrom, Resolved, Typing};
use crate::script::lib::{self, dot::ArgSource, Module};
use crate::script::syntax::ast::{Expr, ExprKind};
use crate::script::syntax::Span;
use crate::script::value::{NumKind, Value};
use std::rc::Rc;

/// Where an argument of a compiled call comes from.
enum Src {
    /// The next given argument.
    Given,
    /// An implicit argument found by this name when the call runs (see
    /// [`Compiler::implicit_arg`]).
    Named(&'static str),
    /// An implicit argument the checker found.
    Found(Resolved),
}

/// A given argument: written at the call, or the receiver of a contextual dot (compiled).
enum Given<'e> {
    Expr(&'e Expr),
    Code(Code),
}

impl Compiler<'_> {
    /// `f(args)` (the call expression `e`).
    pub(super) fn call(&mut self, e: &Expr, f: &Expr, args: &[Expr]) -> CResult<Code> {
        if let ExprKind::Dot(recv, name) = &f.kind {
            let is_module = matches!(&recv.kind, ExprKind::Var(n) if matches!(self.resolve(n), Some(Var::Module(_))));
            if !is_module {
                return self.method_call(e, recv, name, args);
            }
        }
        let callee = self.expr(f, None)?;
        let sources = match self.checked_layout(e) {
            Some(l) => l,
            // `Map.get(m, k)`: omitted implicit arguments filled in from the scope
            None => match self.implicit_layout(f, args.len()) {
                Some(l) => l
                    .into_iter()
                    .map(|s| match s {
                        ArgSource::Given => Src::Given,
                        ArgSource::Implicit(n) => Src::Named(n),
                    })
                    .collect(),
                None => args.iter().map(|_| Src::Given).collect(),
            },
        };
        let given = args.iter().map(Given::Expr).collect();
        self.call_with(e, callee, given, sources)
    }

    /// `x.name(args)` where `x` is not a module: a field or built-in method of `x`, or a
    /// contextual dot call (chosen by the checker, or at run time among the modules).
    fn method_call(&mut self, e: &Expr, recv: &Expr, name: &str, args: &[Expr]) -> CResult<Code> {
        let span = e.span;
        let r = self.expr(recv, None)?;
        let Some(res) = self.typing.dot_calls.get(&Typing::key(e)).cloned() else {
            // a field whose implicit arguments the checker found (`Assoc.add(m, k, v)` of a
            // module of the script)
            if let Some(sources) = self.checked_layout(e) {
                let callee = Code::Dot(Box::new(r), Rc::from(name), span);
                let given = args.iter().map(Given::Expr).collect();
                return self.call_with(e, callee, given, sources);
            }
            let a = self.exprs(args)?;
            let site = self.dot_scope(name, e);
            return Ok(Code::Method(Box::new(r), a, span, site));
        };
        if let Resolved::Field(m, _) = &res {
            if let Some(Var::Module(module)) = self.resolve(m) {
                return self.builtin_dot_call(e, r, name, args, module);
            }
        }
        let callee = self.resolved_code(&res, span)?;
        let mut given = vec![Given::Code(r)];
        given.extend(args.iter().map(Given::Expr));
        let sources = match self.checked_layout(e) {
            Some(l) => l,
            None => given.iter().map(|_| Src::Given).collect(),
        };
        self.call_with(e, callee, given, sources)
    }

    /// `x.name(args)` the checker resolved to a built-in module's function: resolved when
    /// it runs among this module only (which converts the receiver as the function takes
    /// it), with the implicit arguments the checker found.
    fn builtin_dot_call(
        &mut self,
        e: &Expr,
        r: Code,
        name: &str,
        args: &[Expr],
        module: &'static Module,
    ) -> CResult<Code> {
        let a = self.exprs(args)?;
        let mut site = (*self.dot_scope(name, e)).clone();
        site.modules = vec![module];
        if let Some(layout) = self.checked_layout(e) {
            for src in layout {
                if let Src::Found(res) = src {
                    let c = self.resolved_code(&res, e.span)?;
                    site.found.push(c);
                }
            }
        }
        Ok(Code::Method(Box::new(r), a, e.span, Rc::new(site)))
    }

    /// The argument layout the checker resolved for the call `e`, if it did.
    fn checked_layout(&self, e: &Expr) -> Option<Vec<Src>> {
        let l = self.typing.call_args.get(&Typing::key(e))?;
        Some(
            l.iter()
                .map(|a| match a {
                    ArgFrom::Given => Src::Given,
                    ArgFrom::Found(r) => Src::Found(r.clone()),
                })
                .collect(),
        )
    }

    /// The code of a function the checker found: a variable, or a module's field.
    fn resolved_code(&mut self, r: &Resolved, span: Span) -> CResult<Code> {
        match r {
            Resolved::Var(n) => match self.resolve(n) {
                Some(Var::Slot { slot, .. }) => Ok(Code::Var(slot)),
                _ => Err(err(span, format!("`{n}` is not a function in scope"))),
            },
            Resolved::Field(m, f) => match self.resolve(m) {
                Some(Var::Module(module)) => match module.get(f) {
                    Some(b) => Ok(Code::Const(lib::member_value(b))),
                    None => Err(err(
                        span,
                        format!("{}.{f} is not in mo-mem's built-in library", module.name),
                    )),
                },
                Some(Var::Slot { slot, .. }) => {
                    Ok(Code::Dot(Box::new(Code::Var(slot)), f.clone(), span))
                }
                None => Err(err(span, format!("`{m}` is not a module in scope"))),
            },
        }
    }

    /// Compiles a call of `callee` with the `given` arguments placed by `sources`.
    fn call_with(
        &mut self,
        e: &Expr,
        callee: Code,
        given: Vec<Given>,
        sources: Vec<Src>,
    ) -> CResult<Code> {
        let span = e.span;
        let hints: Option<&'static [Option<NumKind>]> = match &callee {
            Code::Const(Value::Builtin(b)) => Some(b.f.arg_hints),
            _ => None,
        };
        let blobs = matches!(&callee, Code::Const(Value::Builtin(b)) if b.f.blob_args);
        let user: Option<Rc<Vec<Option<Hint>>>> = match &callee {
            Code::Var(Slot::Global(i)) => self.globals.func_params.get(i).cloned(),
            Code::Var(Slot::Local(i) | Slot::LocalCell(i)) => {
                self.cur().func_params.get(i).cloned()
            }
            _ => None,
        };
        let nsources = sources.len();
        let mut given = given.into_iter();
        let mut a = Vec::new();
        for (i, src) in sources.into_iter().enumerate() {
            let x = match src {
                Src::Named(n) => {
                    a.push(self.implicit_arg(n, span, e)?);
                    continue;
                }
                Src::Found(r) => {
                    a.push(self.resolved_code(&r, span)?);
                    continue;
                }
                Src::Given => match given.next() {
                    Some(Given::Expr(x)) => x,
                    Some(Given::Code(c)) => {
                        a.push(c);
                        continue;
                    }
                    None => break,
                },
            };
            if let Some(ps) = user.as_ref().filter(|ps| ps.len() == nsources) {
                a.push(self.expr(x, ps[i].as_ref())?);
                continue;
            }
            let h = match hints.and_then(|hs| hs.get(i).copied().flatten()) {
                Some(k) => Some(Hint::Num(k)),
                None if blobs => Some(Hint::Blob),
                None => None,
            };
            let mut c = self.expr(x, h.as_ref())?;
            if h == Some(Hint::Num(NumKind::Int)) {
                c = Code::Coerce(Box::new(c), Rc::new(Hint::Num(NumKind::Int)));
            }
            a.push(c);
        }
        Ok(Code::Call(Box::new(callee), a, span))
    }
}
