//! Method calls: `x.f(args)` calls a field or built-in method of `x` if it has one that is
//! a function, else the contextual dot function `M.f(x, args)` of a module in scope
//! (implicit arguments filled in), as moc resolves it.

use super::{host_trap_at, trap_at, with_span, EResult, Interp};
use crate::script::compile::ir::{Code, DotScope};
use crate::script::lib::{self, dot};
use crate::script::syntax::Span;
use crate::script::value::Value;

impl Interp {
    /// Calls `recv.name(args)` (`args` not yet evaluated).
    pub(super) fn method(
        &mut self,
        recv: Value,
        name: &str,
        args: &[Code],
        span: Span,
        scope: &DotScope,
    ) -> EResult {
        let mut vs = Vec::with_capacity(args.len() + 1);
        for a in args {
            vs.push(self.eval(a)?);
        }
        let what = match &recv {
            Value::Record(r) => match r.get(name).map(|f| f.get()) {
                Some(f) if dot::callable(&f) => {
                    return self.call_value(&f, &vs).map_err(|e| with_span(e, span));
                }
                _ => format!("record has no field {name}"),
            },
            Value::Host(h) => {
                let h = h.clone();
                // a tuple read lazily may be a library structure (a `pure/Queue`): a module
                // in scope whose function takes it comes before the tuple's own `size`/`get`
                if crate::script::host::lazy::is_lazy_tuple(&*h) {
                    let found = self.contextual(recv.clone(), name, vs.clone(), scope);
                    if let Some(v) = found.map_err(|e| with_span(e, span))? {
                        return Ok(v);
                    }
                }
                let called = h.call(name, &vs).map_err(|e| host_trap_at(span, e))?;
                self.charge_host(&*h).map_err(|e| with_span(e, span))?;
                if let Some(v) = called {
                    return Ok(v);
                }
                let field = h.field(name).map_err(|e| host_trap_at(span, e))?;
                self.charge_host(&*h).map_err(|e| with_span(e, span))?;
                match field {
                    Some(f) if dot::callable(&f) => {
                        return self.call_value(&f, &vs).map_err(|e| with_span(e, span));
                    }
                    _ => format!("{} has no method {name}", h.describe()),
                }
            }
            _ => match lib::method(&recv, name) {
                Some(b) => return (b.f)(self, Some(&recv), &vs).map_err(|e| with_span(e, span)),
                None => format!("a {} has no method {name}", recv.kind_name()),
            },
        };
        self.contextual(recv, name, vs, scope)
            .map_err(|e| with_span(e, span))?
            .ok_or_else(|| trap_at(span, what))
    }

    /// `M.f(recv, args)` for the module `M` in scope whose `f` takes `recv` as `self`;
    /// `Ok(None)` when there is none.
    fn contextual(
        &mut self,
        recv: Value,
        name: &str,
        args: Vec<Value>,
        scope: &DotScope,
    ) -> EResult<Option<Value>> {
        let target = match dot::resolve(self, &recv, name, &scope.modules)? {
            Ok(t) => t,
            Err(None) => return Ok(None),
            Err(Some(msg)) => return Err(super::trap(msg)),
        };
        let recv = dot::receiver(self, recv, &target.sig)?;
        let mut full = Vec::with_capacity(target.sig.params.len());
        match dot::layout(&target.sig, args.len() + 1) {
            None => {
                full.push(recv);
                full.extend(args);
            }
            Some(layout) => {
                let mut given = std::iter::once(recv).chain(args);
                let mut found = scope.found.iter();
                for src in layout {
                    full.push(match src {
                        dot::ArgSource::Given => given.next().unwrap_or_default(),
                        // found by the checker, else by name
                        dot::ArgSource::Implicit(n) => match found.next() {
                            Some(c) => self.eval(c)?,
                            None => self.implicit(n, scope)?,
                        },
                    });
                }
            }
        }
        (target.builtin.f)(self, None, &full).map(Some)
    }

    /// The implicit argument named `name`: the script's function of that name in scope,
    /// else the engine's own (natural order, structural equality, text).
    fn implicit(&mut self, name: &str, scope: &DotScope) -> EResult {
        if let Some((_, code)) = scope.implicits.iter().find(|(n, _)| &**n == name) {
            let v = self.eval(code)?;
            if dot::callable(&v) {
                return Ok(v);
            }
        }
        dot::natural_implicit(name).ok_or_else(|| {
            super::trap(format!(
                "cannot determine implicit argument `{name}`: pass it explicitly"
            ))
        })
    }
}
