//! Evaluation of compiled expressions.

use super::cond::{loop_exit, truthy};
use super::{host_trap, host_trap_at, trap, trap_at, with_span, Ctrl, EResult, Interp};
use crate::script::compile::ir::{Capture, Code, FuncProto, Hint, Pat, Place, Slot, Stmt};
use crate::script::lib;
use crate::script::syntax::ast::BinOp;
use crate::script::syntax::Span;
use crate::script::value::{discard, dup, num, show, BoundBuiltin, Closure, Value};
use std::cell::RefCell;
use std::rc::Rc;

/// Converts an index value to usize.
fn index_of(v: &Value) -> Option<usize> {
    match v {
        Value::Nat(n) => usize::try_from(*n).ok(),
        Value::Int(n) => usize::try_from(*n).ok(),
        _ => None,
    }
}

impl Interp {
    /// Evaluates one compiled expression. The common forms are handled here with a small
    /// stack frame (recursion depth is bounded by the native stack); the rest go to
    /// [`Interp::eval_other`].
    pub fn eval(&mut self, code: &Code) -> EResult {
        match code {
            Code::Const(v) => Ok(dup(v)),
            Code::Var(s) => Ok(self.read(*s)),
            Code::Binary(op, ab, hint, span) => self.eval_binary(*op, ab, *hint, *span),
            Code::Compare(op, ab, span) => self.compare(*op, ab, *span).map(Value::Bool),
            Code::If(b) => {
                if self.cond(&b.0)? {
                    self.eval(&b.1)
                } else {
                    self.eval(&b.2)
                }
            }
            Code::Block(stmts) => match stmts.as_slice() {
                [Stmt::Expr(c)] => self.eval(c),
                _ => self.block(stmts),
            },
            Code::OpAssign(op, place, value, hint, span) => match &**place {
                Place::Var(slot) => self
                    .op_assign_var(*op, *slot, value, *hint, *span)
                    .map(|()| Value::Unit),
                _ => self.op_assign(*op, place, value, *hint, *span),
            },
            Code::Call(f, args, span) => {
                let fv = self.eval(f)?;
                self.call_code(&fv, args, *span)
            }
            Code::Switch(s, cases, span) => self.eval_switch(s, cases, *span),
            Code::Return(v) => {
                let v = self.eval(v)?;
                Err(Ctrl::Return(v))
            }
            _ => self.eval_other(code),
        }
    }

    /// Evaluates an operand: constants and variables inline, the rest through [`Interp::eval`].
    #[inline(always)]
    fn operand(&mut self, code: &Code) -> EResult {
        match code {
            Code::Const(v) => Ok(dup(v)),
            Code::Var(s) => Ok(self.read(*s)),
            _ => self.eval(code),
        }
    }

    #[inline(never)]
    fn eval_binary(
        &mut self,
        op: BinOp,
        ab: &(Code, Code),
        hint: Option<crate::script::value::NumKind>,
        span: Span,
    ) -> EResult {
        let a = self.operand(&ab.0)?;
        let b = self.operand(&ab.1)?;
        if let (Value::Nat(x), Value::Nat(y), None) = (&a, &b, hint) {
            let r = match op {
                BinOp::Add => x.checked_add(*y),
                BinOp::Sub if y <= x => Some(x - y),
                BinOp::Mul => x.checked_mul(*y),
                _ => None,
            };
            if let Some(r) = r {
                std::mem::forget(a); // scalars: nothing to drop
                std::mem::forget(b);
                return Ok(Value::Nat(r));
            }
        }
        if op == BinOp::Cat {
            if let (Value::Text(x), Value::Text(y)) = (&a, &b) {
                self.alloc((x.len() + y.len()) as u64)?;
            }
        }
        let r = num::binary(op, &a, &b, hint).map_err(|m| trap_at(span, m));
        discard(a);
        discard(b);
        r
    }

    #[inline(never)]
    fn eval_switch(
        &mut self,
        s: &Code,
        cases: &[(crate::script::compile::ir::Pat, Code)],
        span: Span,
    ) -> EResult {
        let v = self.eval(s)?;
        for (p, body) in cases {
            if self.bind(p, v.clone())? {
                return self.eval(body);
            }
        }
        Err(trap_at(span, "switch fell through"))
    }

    /// The less common forms of [`Interp::eval`].
    #[inline(never)]
    fn eval_other(&mut self, code: &Code) -> EResult {
        match code {
            Code::Const(_)
            | Code::Var(_)
            | Code::Binary(..)
            | Code::Compare(..)
            | Code::If(_)
            | Code::Block(_)
            | Code::Call(..)
            | Code::Switch(..)
            | Code::Return(_)
            | Code::OpAssign(..) => self.eval(code),
            Code::While(b, id) => self.while_loop(&b.0, &b.1, *id),
            Code::Assign(place, value) => self.assign(place, value).map(|()| Value::Unit),
            Code::Unary(op, a, hint, span) => {
                let v = self.eval(a)?;
                num::unary(*op, &v, *hint).map_err(|m| trap_at(*span, m))
            }
            Code::And(ab) => {
                let a = self.eval(&ab.0)?;
                if !truthy(&a, None)? {
                    return Ok(Value::Bool(false));
                }
                self.eval(&ab.1)
            }
            Code::Or(ab) => {
                let a = self.eval(&ab.0)?;
                if truthy(&a, None)? {
                    return Ok(Value::Bool(true));
                }
                self.eval(&ab.1)
            }
            Code::Not(a) => {
                let v = self.eval(a)?;
                Ok(Value::Bool(!truthy(&v, None)?))
            }
            Code::Tuple(es) => Ok(Value::Tuple(Rc::from(self.elements(es)?))),
            Code::Array(m, es, _) => {
                let v = self.elements(es)?;
                Ok(if *m {
                    Value::VarArray(Rc::new(RefCell::new(v)))
                } else {
                    Value::Array(Rc::from(v))
                })
            }
            Code::Record(bases, fields, span) => self.record(bases, fields, *span),
            Code::CellOf(i) => self.cell_of(*i),
            Code::Module(a) => Ok(self.eval(a)?.as_module()),
            Code::Variant(tag, a) => {
                let v = self.eval(a)?;
                self.alloc(32)?;
                Ok(Value::Variant(Rc::new((tag.clone(), v))))
            }
            Code::Opt(a) => {
                let v = self.eval(a)?;
                self.alloc(16)?;
                Ok(Value::Opt(Rc::new(v)))
            }
            Code::Dot(a, name, span) => {
                let v = self.eval(a)?;
                self.dot(&v, name).map_err(|e| with_span(e, *span))
            }
            Code::Proj(a, i, span) => self.proj(a, *i, *span),
            Code::Index(ai, span) => self.index(&ai.0, &ai.1, *span),
            Code::Method(recv, args, span, site) => {
                let r = self.eval(recv)?;
                self.method(r, &site.name, args, *span, site)
            }
            Code::Bang(a, id) => match self.eval(a)? {
                Value::Opt(v) => Ok((*v).clone()),
                Value::Null => Err(Ctrl::Break(*id, Value::Null)),
                // an option read lazily from the heap
                Value::Host(h) => match lib::view::option(self, &Value::Host(h.clone()))? {
                    Some(Some(x)) => Ok(x),
                    Some(None) => Err(Ctrl::Break(*id, Value::Null)),
                    None => Err(trap(format!("`!` on {}", h.describe()))),
                },
                other => Err(trap(format!("`!` on a {}", other.kind_name()))),
            },
            Code::DoOpt(body, id) => match self.eval(body) {
                Ok(v) => Ok(Value::Opt(Rc::new(v))),
                Err(Ctrl::Break(l, v)) if l == *id => Ok(v),
                Err(e) => Err(e),
            },
            Code::Show(a, ty) => self.show(a, ty.as_ref()),
            Code::Ignore(a) => {
                let v = self.eval(a)?;
                crate::script::value::dispose(v);
                Ok(Value::Unit)
            }
            Code::Assert(a, span) => {
                let v = self.eval(a)?;
                if truthy(&v, Some(*span))? {
                    Ok(Value::Unit)
                } else {
                    Err(trap_at(*span, "assertion failure"))
                }
            }
            Code::Coerce(a, h) => {
                let v = self.eval(a)?;
                self.coerce(v, h)
            }
            Code::Loop(body, cond, id) => self.loop_while(body, cond.as_deref(), *id),
            Code::For(b, id, span) => self.for_loop(&b.0, &b.1, &b.2, b.3, *id, *span),
            Code::Label(id, body) => match self.eval(body) {
                Err(Ctrl::Break(l, v)) if l == *id => Ok(v),
                other => other,
            },
            Code::Break(id, v) => {
                let v = self.eval(v)?;
                Err(Ctrl::Break(*id, v))
            }
            Code::Continue(id) => Err(Ctrl::Continue(*id)),
            Code::Closure(proto, caps) => Ok(self.closure(proto, caps)),
        }
    }

    /// `while c body` with label `id`.
    fn while_loop(&mut self, cond: &Code, body: &Code, id: u32) -> EResult {
        loop {
            self.tick()?;
            if !self.cond(cond)? {
                return Ok(Value::Unit);
            }
            if let Err(e) = self.exec(body) {
                if let Some(v) = loop_exit(e, id)? {
                    return Ok(v);
                }
            }
        }
    }

    /// `loop body` (`cond` `None`) or `loop body while cond` with label `id`.
    fn loop_while(&mut self, body: &Code, cond: Option<&Code>, id: u32) -> EResult {
        loop {
            self.tick()?;
            if let Err(e) = self.exec(body) {
                if let Some(v) = loop_exit(e, id)? {
                    return Ok(v);
                }
            }
            if let Some(c) = cond {
                if !self.cond(c)? {
                    return Ok(Value::Unit);
                }
            }
        }
    }

    /// The values of a tuple's or an array's elements, charged.
    fn elements(&mut self, es: &[Code]) -> EResult<Vec<Value>> {
        let mut v = Vec::with_capacity(es.len());
        for e in es {
            v.push(self.eval(e)?);
        }
        self.alloc(16 * v.len() as u64)?;
        Ok(v)
    }

    /// `a.i`: part `i` of a tuple.
    fn proj(&mut self, a: &Code, i: usize, span: Span) -> EResult {
        match self.eval(a)? {
            Value::Tuple(t) => t
                .get(i)
                .cloned()
                .ok_or_else(|| trap_at(span, "tuple index out of range")),
            // a tuple read lazily from the heap: only the projected part is decoded
            Value::Host(h) if crate::script::host::lazy::is_lazy_tuple(&*h) => {
                let part = h
                    .call("get", &[Value::Nat(i as u64)])
                    .map_err(|e| host_trap_at(span, e));
                self.charge_host(&*h)?;
                part?.ok_or_else(|| trap_at(span, "tuple index out of range"))
            }
            v if i == 0 => Ok(v),
            v => Err(trap_at(
                span,
                format!("cannot project from a {}", v.kind_name()),
            )),
        }
    }

    /// `a[i]`.
    fn index(&mut self, a: &Code, i: &Code, span: Span) -> EResult {
        let a = self.eval(a)?;
        let i = self.eval(i)?;
        let idx = index_of(&i);
        let r = match &a {
            Value::Array(xs) => idx.and_then(|i| xs.get(i).cloned()),
            Value::VarArray(xs) => idx.and_then(|i| xs.borrow().get(i).cloned()),
            // an array read lazily from the heap: only element `i` is decoded
            Value::Host(h) if crate::script::host::lazy::is_lazy_array(&**h) => {
                let size = lib::view::len(self, &a).map_err(|e| with_span(e, span))?;
                match idx.map(|i| i as u64) {
                    Some(i) if size.is_some_and(|n| i < n) => {
                        lib::view::part(self, &a, i).map_err(|e| with_span(e, span))?
                    }
                    _ => None,
                }
            }
            other => {
                return Err(trap_at(
                    span,
                    format!("cannot index a {}", other.kind_name()),
                ))
            }
        };
        r.ok_or_else(|| trap_at(span, "index out of bounds"))
    }

    /// `debug_show a` (of static type `ty` if known), charged.
    fn show(&mut self, a: &Code, ty: Option<&Rc<Hint>>) -> EResult {
        let v = self.eval(a)?;
        self.check_show(&v)?;
        let s = match ty {
            Some(ty) => super::show_at::debug_show_at(&v, ty, self.floats),
            None => show::debug_show_as(&v, self.floats),
        };
        self.alloc(s.len() as u64)?;
        Ok(Value::Text(Rc::from(s)))
    }

    /// A function value: `proto` with its captured variables `caps` read now.
    fn closure(&self, proto: &Rc<FuncProto>, caps: &[Capture]) -> Value {
        let mut env = Vec::with_capacity(caps.len());
        for c in caps {
            env.push(match c {
                Capture::Local(i) => self
                    .stack
                    .get(self.bp + *i as usize)
                    .cloned()
                    .unwrap_or_default(),
                Capture::Env(i) => self
                    .env
                    .as_ref()
                    .and_then(|e| e.env.get(*i as usize).cloned())
                    .unwrap_or_default(),
            });
        }
        Value::Func(Rc::new(Closure {
            proto: proto.clone(),
            env: env.into_boxed_slice(),
        }))
    }

    pub(super) fn block(&mut self, stmts: &[Stmt]) -> EResult {
        let mut last = Value::Unit;
        let n = stmts.len();
        for (i, s) in stmts.iter().enumerate() {
            match s {
                Stmt::Expr(c) if i + 1 < n => {
                    self.exec(c)?;
                    discard(std::mem::take(&mut last));
                }
                Stmt::Expr(c) => {
                    let v = self.eval(c)?;
                    discard(std::mem::replace(&mut last, v));
                }
                Stmt::Store(slot, c) => {
                    let v = self.eval(c)?;
                    self.write(*slot, v);
                    last = Value::Unit;
                }
                Stmt::Let(p, c, fail, span) => {
                    let v = self.eval(c)?;
                    // a block ending in `let` has the bound value as its value
                    if i + 1 == n {
                        discard(std::mem::replace(&mut last, v.clone()));
                    }
                    // kept for moc's message when the pattern can fail
                    let shown = (fail.is_none() && !matches!(p, Pat::Bind(..) | Pat::Wild))
                        .then(|| v.clone());
                    if !self.bind(p, v)? {
                        match fail {
                            Some(f) => {
                                self.eval(f)?;
                                return Err(trap_at(
                                    *span,
                                    "let-else body did not leave the block",
                                ));
                            }
                            None => return Err(trap_at(*span, no_match(shown.as_ref()))),
                        }
                    }
                }
                Stmt::NewCells(cells) => {
                    for &i in cells {
                        if let Some(s) = self.stack.get_mut(self.bp + i as usize) {
                            *s = Value::Cell(Rc::new(RefCell::new(Value::Unit)));
                        }
                    }
                }
            }
        }
        Ok(last)
    }

    fn call_code(&mut self, fv: &Value, args: &[Code], span: Span) -> EResult {
        match fv {
            Value::Func(clo) => {
                let base = self.stack.len();
                for a in args {
                    match self.eval(a) {
                        Ok(v) => self.stack.push(v),
                        Err(e) => {
                            self.stack.truncate(base);
                            return Err(e);
                        }
                    }
                }
                let clo = clo.clone();
                self.enter(&clo, base, args.len())
                    .map_err(|e| with_span(e, span))
            }
            Value::Builtin(b) => {
                let mut vs = Vec::with_capacity(args.len());
                for a in args {
                    vs.push(self.eval(a)?);
                }
                (b.f.f)(self, b.this.as_ref(), &vs).map_err(|e| with_span(e, span))
            }
            other => Err(trap_at(
                span,
                format!("cannot call a {}", other.kind_name()),
            )),
        }
    }

    /// `v.name` for a value that is not a statically known module.
    pub fn dot(&mut self, v: &Value, name: &str) -> EResult {
        match v {
            Value::Record(r) => r
                .get(name)
                .map(|f| f.get())
                .ok_or_else(|| trap(format!("record has no field {name}"))),
            Value::Module(m) => m
                .get(name)
                .map(lib::member_value)
                .ok_or_else(|| trap(format!("module {} has no member {name}", m.name))),
            Value::Host(h) => match h.field(name) {
                Ok(Some(v)) => {
                    self.charge_host(&**h)?;
                    Ok(v)
                }
                Ok(None) => Err(trap(format!("{} has no field {name}", h.describe()))),
                Err(e) => Err(host_trap(e)),
            },
            _ => match lib::method(v, name) {
                Some(b) => Ok(Value::Builtin(Rc::new(BoundBuiltin {
                    f: b,
                    this: Some(v.clone()),
                }))),
                None => Err(trap(format!("a {} has no field {name}", v.kind_name()))),
            },
        }
    }

    fn record(&mut self, bases: &[Code], fields: &[(Rc<str>, bool, Code)], _span: Span) -> EResult {
        let mut out: Vec<(Rc<str>, bool, Value)> = Vec::new();
        for b in bases {
            match self.eval(b)? {
                Value::Record(r) => {
                    for f in &r.fields {
                        out.retain(|(n, _, _)| *n != f.name);
                        out.push((f.name.clone(), f.mutable, f.get()));
                    }
                }
                other => return Err(trap(format!("`with` on a {}", other.kind_name()))),
            }
        }
        for (name, m, c) in fields {
            let v = self.eval(c)?;
            out.retain(|(n, _, _)| n != name);
            out.push((name.clone(), *m, v));
        }
        self.alloc(24 * out.len() as u64)?;
        Ok(Value::record(out))
    }

    fn for_loop(
        &mut self,
        pat: &crate::script::compile::ir::Pat,
        iter: &Code,
        body: &Code,
        viewed: bool,
        id: u32,
        span: Span,
    ) -> EResult {
        let it = self.eval(iter)?;
        // an unshared counting iterator: count here instead of calling `next`
        if let Value::Iter(rc) = &it {
            if Rc::strong_count(rc) == 1 {
                let bounds = rc.try_borrow().ok().and_then(|b| b.range_bounds());
                if let Some((mut cur, end, step, int)) = bounds {
                    let in_range = |c: i128| c >= i64::MIN as i128 && c <= u64::MAX as i128;
                    while (step > 0 && cur < end || step < 0 && cur > end) && in_range(cur) {
                        self.tick()?;
                        let v = if int {
                            Value::Int(cur as i64)
                        } else {
                            Value::Nat(cur as u64)
                        };
                        cur += step;
                        // (a fresh binding only matters for a captured variable's cell)
                        if let Pat::Bind(slot @ (Slot::Local(_) | Slot::Global(_)), _) = pat {
                            // the loop variable usually still holds the previous number
                            match (self.slot_mut(*slot), v) {
                                (Some(Value::Nat(x)), Value::Nat(n)) => *x = n,
                                (Some(Value::Int(x)), Value::Int(n)) => *x = n,
                                (_, v) => self.write(*slot, v),
                            }
                        } else if !self.bind(pat, v)? {
                            return Err(trap_at(span, "pattern failed"));
                        }
                        if let Err(e) = self.exec(body) {
                            if let Some(v) = loop_exit(e, id)? {
                                return Ok(v);
                            }
                        }
                    }
                    return Ok(Value::Unit);
                }
            }
        }
        loop {
            self.tick()?;
            let next = if viewed {
                self.iter_next_view(&it)
            } else {
                self.iter_next(&it)
            };
            let next = next.map_err(|e| with_span(e, span))?;
            let Some(v) = next else {
                return Ok(Value::Unit);
            };
            // moc shows the option `next` returned
            let shown = (!matches!(pat, Pat::Bind(..) | Pat::Wild)).then(|| Value::some(v.clone()));
            if !self.bind(pat, v)? {
                return Err(trap_at(span, no_match(shown.as_ref())));
            }
            if let Err(e) = self.exec(body) {
                if let Some(v) = loop_exit(e, id)? {
                    return Ok(v);
                }
            }
        }
    }

    /// [`Interp::iter_next`] for a loop whose variable is only looked into: a native
    /// iterator may give a light reference
    /// ([`crate::script::value::NativeIter::next_view`]).
    fn iter_next_view(&mut self, it: &Value) -> EResult<Option<Value>> {
        match it {
            Value::Iter(rc) => {
                let rc = rc.clone();
                let mut b = rc
                    .try_borrow_mut()
                    .map_err(|_| trap("iterator used inside its own loop"))?;
                b.next_view(self)
            }
            _ => self.iter_next(it),
        }
    }

    /// Advances any iterator value: native iterators or records with a `next` function.
    pub fn iter_next(&mut self, it: &Value) -> EResult<Option<Value>> {
        match it {
            Value::Iter(rc) => {
                let rc = rc.clone();
                let mut b = rc
                    .try_borrow_mut()
                    .map_err(|_| trap("iterator used inside its own loop"))?;
                b.next(self)
            }
            Value::Record(r) => {
                let f = r
                    .get("next")
                    .map(|f| f.get())
                    .ok_or_else(|| trap("for loop over a record without `next`"))?;
                match self.call_value(&f, &[])? {
                    Value::Null => Ok(None),
                    Value::Opt(v) => Ok(Some((*v).clone())),
                    other => Err(trap(format!("`next` returned a {}", other.kind_name()))),
                }
            }
            Value::Host(h) => {
                let f = h
                    .field("next")
                    .map_err(host_trap)?
                    .ok_or_else(|| trap(format!("cannot iterate over {}", h.describe())))?;
                match self.call_value(&f, &[])? {
                    Value::Null => Ok(None),
                    Value::Opt(v) => Ok(Some((*v).clone())),
                    other => Err(trap(format!("`next` returned a {}", other.kind_name()))),
                }
            }
            other => Err(trap(format!("cannot iterate over a {}", other.kind_name()))),
        }
    }
}

/// moc's message for a value its pattern does not match.
fn no_match(v: Option<&Value>) -> String {
    match v {
        Some(v) => format!(
            "value {} does not match pattern",
            crate::script::value::show::debug_show(v)
        ),
        None => "pattern failed".to_string(),
    }
}
