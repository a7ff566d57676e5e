//! Expressions: `infer` (synthesis) and `check` (against an expected type).

use super::env::{Binding, CheckResult, LitType, Typing};
use super::error::TypeError;
use super::lib_types;
use super::sub::{lub, normalize, sub, Tri};
use super::types::{Field, FuncTy, ObjSort, Prim, Ty};
use super::Checker;
use crate::script::syntax::ast::{
    BinOp, BodySort, Case, Dec, Expr, ExprKind, FieldExp, FuncDef, Lit, Pat, UnOp,
};
use crate::script::value::NumKind;
use num_bigint::{BigInt, BigUint};
use std::rc::Rc;

/// The default type of a literal.
pub(super) fn lit_type(l: &Lit) -> Ty {
    match l {
        Lit::Unit => Ty::unit(),
        Lit::Bool(_) => Ty::bool(),
        Lit::Null => Ty::Prim(Prim::Null),
        Lit::Nat(_) => Ty::nat(),
        Lit::Float(_) => Ty::Prim(Prim::Float),
        Lit::Char(_) => Ty::Prim(Prim::Char),
        Lit::Text(_) => Ty::text(),
    }
}

/// The numeric kind of an integral primitive.
pub fn num_kind(p: Prim) -> Option<NumKind> {
    Some(match p {
        Prim::Nat => NumKind::Nat,
        Prim::Int => NumKind::Int,
        Prim::Nat8 => NumKind::Nat8,
        Prim::Nat16 => NumKind::Nat16,
        Prim::Nat32 => NumKind::Nat32,
        Prim::Nat64 => NumKind::Nat64,
        Prim::Int8 => NumKind::Int8,
        Prim::Int16 => NumKind::Int16,
        Prim::Int32 => NumKind::Int32,
        Prim::Int64 => NumKind::Int64,
        _ => return None,
    })
}

/// Whether `v` is a value of the integral primitive `p`.
fn in_range(p: Prim, v: &BigInt) -> bool {
    num_kind(p).is_some_and(|k| k.holds(v))
}

/// The sign written before a numeric literal: none, `+` or `-` (a signed literal is an
/// `Int` by default, and no `Nat` type takes it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Sign {
    /// `5`.
    Unsigned,
    /// `+5`.
    Plus,
    /// `-5`.
    Minus,
}

/// A numeric literal, possibly signed: `(digits, sign)`.
pub(super) fn num_literal(e: &Expr) -> Option<(&str, Sign)> {
    match &e.kind {
        ExprKind::Lit(Lit::Nat(s)) => Some((s, Sign::Unsigned)),
        ExprKind::Unary(op @ (UnOp::Neg | UnOp::Pos), a) => match &a.kind {
            ExprKind::Lit(Lit::Nat(s)) if *op == UnOp::Neg => Some((s, Sign::Minus)),
            ExprKind::Lit(Lit::Nat(s)) => Some((s, Sign::Plus)),
            _ => None,
        },
        _ => None,
    }
}

fn parse_digits(s: &str) -> Option<BigUint> {
    match s.strip_prefix("0x") {
        Some(h) => BigUint::parse_bytes(h.replace('_', "").as_bytes(), 16),
        None => BigUint::parse_bytes(s.replace('_', "").as_bytes(), 10),
    }
}

/// Checks a numeric literal (`digits`, after `sign`) against the expected type `w`
/// (normalized; `want` as written, for the message): the representation the engine must
/// give it, `None` for its default one.
pub(super) fn num_literal_type(
    span: crate::script::syntax::Span,
    digits: &str,
    sign: Sign,
    w: &Ty,
    want: &Ty,
) -> CheckResult<Option<LitType>> {
    let signed = sign != Sign::Unsigned;
    let neg = sign == Sign::Minus;
    let default = if signed {
        Ty::Prim(Prim::Int)
    } else {
        Ty::nat()
    };
    match w {
        Ty::Prim(Prim::Float) => Ok(Some(LitType::Float)),
        Ty::Prim(p) if p.is_int_like() => {
            let Some(mag) = parse_digits(digits) else {
                return Ok(None);
            };
            let v = if neg {
                -BigInt::from(mag)
            } else {
                BigInt::from(mag)
            };
            if signed && !in_range(*p, &BigInt::from(-1)) {
                return Err(TypeError::literal(span, &default, want));
            }
            if !in_range(*p, &v) {
                return Err(TypeError::new(
                    span,
                    "M0048",
                    format!("literal out of range for type {}", p.name()),
                ));
            }
            Ok(match num_kind(*p) {
                Some(k) if *p != Prim::Nat && !(signed && *p == Prim::Int) => Some(LitType::Num(k)),
                _ => None,
            })
        }
        _ => {
            if sub(&default, w) == Tri::No {
                return Err(TypeError::literal(span, &default, want));
            }
            Ok(None)
        }
    }
}

/// Whether the type of `e` is decided by its context when checked: arithmetic and literals,
/// and the forms that check their result expressions at the expected type (`if`, `switch`,
/// blocks, `do`, `label`).
fn takes_context_type(e: &Expr) -> bool {
    matches!(
        e.kind,
        ExprKind::Binary(..)
            | ExprKind::Unary(..)
            | ExprKind::Lit(_)
            | ExprKind::If(..)
            | ExprKind::Switch(..)
            | ExprKind::Block(_)
            | ExprKind::Do(_)
            | ExprKind::Label(..)
    )
}

/// Whether an expression takes its type from the expected type (checked after the other
/// arguments of a call have fixed the type parameters).
pub(super) fn wants_expected(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Lit(_) => true,
        ExprKind::Unary(UnOp::Neg | UnOp::Pos, a) => matches!(a.kind, ExprKind::Lit(_)),
        ExprKind::Func(f) => {
            f.params
                .iter()
                .any(|p| !matches!(p.kind, crate::script::syntax::ast::PatKind::Annot(..)))
                || f.result.is_none()
        }
        ExprKind::Tuple(es) | ExprKind::Array(_, es) => es.iter().any(wants_expected),
        ExprKind::Opt(a) => wants_expected(a),
        ExprKind::Variant(_, Some(a)) => wants_expected(a),
        ExprKind::Record(_, fs) => fs.iter().any(|f| wants_expected(&f.value)),
        _ => false,
    }
}

/// Whether the block `e` of `decs` is the body of an object, a module or a class (the
/// parser ends it in the record of the public fields, at the block's own span).
fn is_object_body(e: &Expr, decs: &[Dec]) -> bool {
    matches!(decs.last(), Some(Dec::Exp(r)) if r.span == e.span && matches!(r.kind, ExprKind::Record(..)))
}

impl Checker<'_> {
    /// Where moc places the block `e` of `decs` (its errors about the block's type
    /// declarations together): a `do`'s at the `do`, an object's body at the block around
    /// the object (a class's at the class).
    fn block_at(&mut self, e: &Expr, decs: &[Dec]) -> crate::script::syntax::Span {
        if let Some(at) = self.do_span.take() {
            return at;
        }
        if is_object_body(e, decs) && self.class_body != Some(e.span) {
            return self.block_spans.last().copied().unwrap_or(e.span);
        }
        e.span
    }

    /// Checks `e` against `want`.
    pub(super) fn check(&mut self, e: &Expr, want: &Ty) -> CheckResult<()> {
        self.tick(e.span)?;
        let w = normalize(want);
        if matches!(w, Ty::Unknown) {
            self.infer(e)?;
            return Ok(());
        }
        if let Some((digits, sign)) = num_literal(e) {
            return self.check_num_literal(e, digits, sign, &w, want);
        }
        match (&e.kind, &w) {
            // moc checks a forward reference against the expected type without its type
            (ExprKind::Var(n), _) if self.is_forward(n) => Ok(()),
            (ExprKind::Lit(Lit::Text(_)), Ty::Prim(Prim::Blob)) => {
                self.typing.literals.insert(Typing::key(e), LitType::Blob);
                Ok(())
            }
            (ExprKind::Lit(l), _) => {
                let t = lit_type(l);
                if sub(&t, &w) == Tri::No {
                    return Err(TypeError::literal(e.span, &t, want));
                }
                Ok(())
            }
            (ExprKind::Tuple(es), Ty::Tuple(ts)) if es.len() == ts.len() => {
                for (x, t) in es.iter().zip(ts.iter()) {
                    self.check(x, t)?;
                }
                Ok(())
            }
            (ExprKind::Array(m, es), Ty::Array(n, t)) if m == n => {
                for x in es {
                    self.check(x, t)?;
                }
                Ok(())
            }
            (ExprKind::Array(m, _), Ty::Array(..)) => Err(TypeError::new(
                e.span,
                "M0091",
                format!(
                    "{} array expression cannot produce expected type\n  {want}",
                    if *m { "mutable" } else { "immutable" }
                ),
            )),
            (ExprKind::Opt(a), Ty::Opt(t)) => self.check(a, t),
            (ExprKind::Variant(tag, a), Ty::Variant(tags)) => {
                self.check_variant(e, tag, a.as_deref(), tags, want)
            }
            (ExprKind::Record(bases, fields), Ty::Obj(ObjSort::Object, fs)) if bases.is_empty() => {
                self.check_record(e, fields, fs, &w, want)
            }
            (ExprKind::Block(_), _) if self.body_types.contains_key(&super::span_key(e.span)) => {
                let t = self.infer(e)?;
                self.expect_sub(e.span, &t, want)
            }
            (ExprKind::Block(decs), _) if decs.is_empty() => {
                if sub(&Ty::unit(), &w) == Tri::No {
                    return Err(TypeError::new(
                        e.span,
                        "M0136",
                        format!("empty block cannot produce expected type\n  {want}"),
                    ));
                }
                Ok(())
            }
            (ExprKind::Block(decs), _) => {
                let at = self.block_at(e, decs);
                self.block(decs, Some(want), at)?;
                Ok(())
            }
            (ExprKind::If(c, a, b), _) => {
                self.check(c, &Ty::bool())?;
                self.check(a, want)?;
                match b {
                    Some(b) => self.check(b, want),
                    None => self.expect_sub(e.span, &Ty::unit(), want),
                }
            }
            (ExprKind::Switch(s, cases), _) => self.check_switch(s, cases, want),
            (ExprKind::Do(b), _) => {
                // moc places the block of `do { .. }` at the `do`
                self.do_span = Some(e.span);
                let r = self.check(b, want);
                self.do_span = None;
                r
            }
            (ExprKind::DoOpt(b), Ty::Opt(t)) => {
                let t = (**t).clone();
                self.check(b, &t)
            }
            (ExprKind::Annot(..), _) | (ExprKind::Call(..), _) => {
                let t = self.infer_with(e, Some(want))?;
                self.expect_sub(e.span, &t, want)
            }
            (ExprKind::Func(f), Ty::Func(ft)) => {
                self.func_def(f, Some(ft))?;
                Ok(())
            }
            (ExprKind::Binary(op, a, b), Ty::Prim(p))
                if !op.is_relational() && p.is_num() || *op == BinOp::Cat && *p == Prim::Text =>
            {
                if op_defined(*op, *p) {
                    self.check(a, want)?;
                    self.check(b, want)?;
                    if *p == Prim::Int {
                        // computed at `Int` even where the compiler's hint does not reach
                        self.typing.int_arith.insert(Typing::key(e));
                    }
                    return Ok(());
                }
                let t = self.infer(e)?;
                self.expect_sub(e.span, &t, want)
            }
            // moc checks the operand of `-e`, `+e`, `^e` at the expected type when the operator
            // is defined on it (so `-(1 - n)` at `Int` subtracts at `Int`, and so does
            // `-(if c (n - 1) else 0)`); done here for the operands whose type the context
            // decides (arithmetic, literals, and the forms that pass the expected type on to
            // them): a variable's type is its own, and inferring it gives the same answer (a
            // type parameter's bound is not consulted by `sub`)
            (ExprKind::Unary(op, a), Ty::Prim(p))
                if *p != Prim::Nat
                    && super::ops::unary_defined(*op, *p)
                    && takes_context_type(a) =>
            {
                self.check(a, want)
            }
            (ExprKind::Label(l, body), _) => {
                self.labels_push(l);
                self.label_types.push((l.clone(), Some(want.clone())));
                let r = self.check(body, want);
                self.label_types.pop();
                self.labels_pop();
                r
            }
            _ => {
                let t = self.infer(e)?;
                self.expect_sub(e.span, &t, want)
            }
        }
    }

    fn check_num_literal(
        &mut self,
        e: &Expr,
        digits: &str,
        sign: Sign,
        w: &Ty,
        want: &Ty,
    ) -> CheckResult<()> {
        if let Some(lt) = num_literal_type(e.span, digits, sign, w, want)? {
            self.typing.literals.insert(Typing::key(e), lt);
        }
        Ok(())
    }

    /// Fails with M0096 when `got` is certainly not a subtype of `want`.
    pub(super) fn expect_sub(
        &mut self,
        span: crate::script::syntax::Span,
        got: &Ty,
        want: &Ty,
    ) -> CheckResult<()> {
        if sub(got, want) == Tri::No {
            return Err(TypeError::cannot_produce(span, got, want));
        }
        Ok(())
    }

    /// The type of `e`.
    pub(super) fn infer(&mut self, e: &Expr) -> CheckResult<Ty> {
        self.infer_with(e, None)
    }

    /// The type of `e`; `want` (when known) guides the inference of type arguments.
    pub(super) fn infer_with(&mut self, e: &Expr, want: Option<&Ty>) -> CheckResult<Ty> {
        self.tick(e.span)?;
        let span = e.span;
        Ok(match &e.kind {
            ExprKind::Lit(l) => lit_type(l),
            ExprKind::Var(n) if self.is_forward(n) => {
                return Err(TypeError::new(
                    span,
                    "M0055",
                    format!("cannot infer type of forward variable {n}"),
                ))
            }
            ExprKind::Var(n) => match self.lookup(n) {
                Some(Binding::Val(t, _)) => t,
                Some(Binding::Module(_) | Binding::BaseModule(_)) => Ty::Unknown,
                None => return Err(TypeError::unbound(span, n)),
            },
            ExprKind::Unary(op, a) => self.infer_unary(e, op, a)?,
            ExprKind::Binary(op, a, b) => self.binary(e, *op, a, b)?,
            ExprKind::And(a, b) | ExprKind::Or(a, b) => {
                self.check(a, &Ty::bool())?;
                self.check(b, &Ty::bool())?;
                Ty::bool()
            }
            ExprKind::Not(a) => {
                self.check(a, &Ty::bool())?;
                Ty::bool()
            }
            ExprKind::Assign(p, v) => {
                let t = self.place(p, e)?;
                self.check(v, &t)?;
                Ty::unit()
            }
            ExprKind::OpAssign(op, p, v) => self.op_assign(e, op, p, v)?,
            ExprKind::Tuple(es) => {
                let mut ts = Vec::with_capacity(es.len());
                for x in es {
                    ts.push(self.infer(x)?);
                }
                Ty::Tuple(Rc::from(ts))
            }
            ExprKind::Array(m, es) => self.infer_array(*m, es)?,
            ExprKind::Record(bases, fields) => self.record(bases, fields)?,
            ExprKind::Variant(tag, a) => {
                let t = match a {
                    Some(a) => self.infer(a)?,
                    None => Ty::unit(),
                };
                Ty::variant(vec![(Rc::from(tag.as_str()), t)])
            }
            ExprKind::Opt(a) => Ty::Opt(Rc::new(self.infer(a)?)),
            ExprKind::Dot(r, name) => self.dot(e, r, name)?,
            ExprKind::Proj(a, i) => self.proj(e, a, *i)?,
            ExprKind::Index(a, i) => self.index(a, i)?,
            ExprKind::Call(f, args) => self.call(e, f, args, want)?,
            ExprKind::Bang(a) => self.bang(a)?,
            ExprKind::DebugShow(a) => self.debug_show(e, a)?,
            ExprKind::Ignore(a) => {
                self.infer(a)?;
                Ty::unit()
            }
            ExprKind::Assert(a) => {
                self.check(a, &Ty::bool())?;
                Ty::unit()
            }
            ExprKind::Debug(a) => {
                self.check(a, &Ty::unit())?;
                Ty::unit()
            }
            ExprKind::Annot(a, t) => {
                let t = self.ty(t, span)?;
                self.check(a, &t)?;
                t
            }
            ExprKind::Block(decs) => {
                let at = self.block_at(e, decs);
                let t = self.block(decs, None, at)?;
                self.body_type(span, t)?
            }
            // a module is typed as the record of its public fields its body ends in
            ExprKind::Module(body) => self.module(body)?,
            ExprKind::If(c, a, b) => self.infer_if(c, a, b.as_deref())?,
            ExprKind::Switch(s, cases) => self.infer_switch(s, cases)?,
            ExprKind::While(c, b) => {
                self.check(c, &Ty::bool())?;
                self.loop_body(b)?;
                Ty::unit()
            }
            ExprKind::Loop(b, c) => self.infer_loop(b, c.as_deref())?,
            ExprKind::For(p, it, b) => self.infer_for(p, it, b)?,
            ExprKind::Label(l, body) => {
                self.labels_push(l);
                self.label_types.push((l.clone(), None));
                let r = self.infer(body);
                self.label_types.pop();
                self.labels_pop();
                r?;
                Ty::Unknown
            }
            ExprKind::Break(l, v) => {
                self.label_bound(l, span, "break ")?;
                // `break l v` where `label l : T`: `v` is checked against `T`
                let want = self.label_types.iter().rev().find(|(n, _)| n == l);
                match (v, want.and_then(|(_, t)| t.clone())) {
                    (Some(v), Some(t)) => self.check(v, &t)?,
                    (Some(v), None) => {
                        self.infer(v)?;
                    }
                    (None, _) => {}
                }
                Ty::Non
            }
            ExprKind::Continue(l) => {
                self.label_bound(l, span, "continue ")?;
                Ty::Non
            }
            ExprKind::Return(v) => self.infer_return(e, v.as_deref())?,
            ExprKind::Do(b) => {
                self.do_span = Some(span);
                let r = self.infer(b);
                self.do_span = None;
                r?
            }
            ExprKind::DoOpt(b) => Ty::Opt(Rc::new(self.infer(b)?)),
            ExprKind::Func(f) => self.func_def(f, None)?,
        })
    }

    fn loop_body(&mut self, b: &Expr) -> CheckResult<()> {
        self.check(b, &Ty::unit())
    }

    /// Enters `label l` (the labels of the enclosing function are in scope).
    fn labels_push(&mut self, l: &str) {
        self.labels.push(vec![l.to_string()]);
    }

    fn labels_pop(&mut self) {
        self.labels.pop();
    }

    /// M0083 when `break l` / `continue l` (at `span`, written `keyword` then the label)
    /// names no enclosing label of the same function.
    fn label_bound(
        &self,
        l: &str,
        span: crate::script::syntax::Span,
        keyword: &str,
    ) -> CheckResult<()> {
        if l.is_empty() || self.labels.iter().any(|ls| ls.iter().any(|x| x == l)) {
            return Ok(());
        }
        // moc points at the label: after the keyword and one space, as usually written
        let mut at = span;
        at.start.col = span.start.col.saturating_add(keyword.len() as u32);
        at.end = at.start;
        at.end.col = at.start.col.saturating_add(l.len() as u32);
        Err(TypeError::new(at, "M0083", format!("unbound label {l}")))
    }

    /// The type of an assignable place (M0073 when it is not one).
    fn place(&mut self, p: &Expr, whole: &Expr) -> CheckResult<Ty> {
        let not_mutable =
            || TypeError::new(whole.span, "M0073", "expected mutable assignment target");
        match &p.kind {
            ExprKind::Var(n) => match self.lookup(n) {
                Some(Binding::Val(t, true)) => Ok(t),
                Some(Binding::Val(Ty::Unknown, false)) if self.is_host(n) => Ok(Ty::Unknown),
                Some(_) => Err(not_mutable()),
                None => Err(TypeError::unbound(p.span, n)),
            },
            ExprKind::Dot(r, f) => {
                let t = self.infer(r)?;
                match normalize(&t) {
                    Ty::Obj(_, fs) => match fs.iter().find(|g| *g.name == **f) {
                        Some(g) if g.mutable => Ok(g.ty.clone()),
                        Some(_) => Err(not_mutable()),
                        None => Ok(Ty::Unknown),
                    },
                    _ => Ok(Ty::Unknown),
                }
            }
            ExprKind::Index(a, i) => {
                let t = self.infer(a)?;
                self.check(i, &Ty::nat())?;
                match normalize(&t) {
                    Ty::Array(true, t) => Ok((*t).clone()),
                    Ty::Array(false, _) | Ty::Prim(Prim::Blob) => Err(not_mutable()),
                    n if super::ops::shaped(&n) => Err(not_indexable(a, &t)),
                    _ => Ok(Ty::Unknown),
                }
            }
            // a tuple's components are never mutable
            ExprKind::Proj(..) => Err(not_mutable()),
            _ => {
                self.infer(p)?;
                Ok(Ty::Unknown)
            }
        }
    }

    /// A name bound outside the checker (a host value).
    fn is_host(&self, n: &str) -> bool {
        self.scopes.iter().all(|s| !s.vals.contains_key(n))
            && !self.globals.scope.vals.contains_key(n)
    }

    fn record(
        &mut self,
        bases: &[Expr],
        fields: &[crate::script::syntax::ast::FieldExp],
    ) -> CheckResult<Ty> {
        let mut fs: Vec<Field> = Vec::new();
        let mut unknown = false;
        let overridden = |name: &str| fields.iter().any(|f| f.name == name);
        for b in bases {
            let t = self.infer(b)?;
            match normalize(&t) {
                Ty::Obj(_, bfs) => {
                    for f in bfs.iter() {
                        if overridden(&f.name) {
                            continue;
                        }
                        // moc: a field two bases have must be overridden, and a base's
                        // `var` field cannot be copied
                        if fs.iter().any(|g| g.name == f.name) {
                            return Err(TypeError::new(
                                b.span,
                                "M0177",
                                format!("ambiguous field in base\n  {}", f.name),
                            ));
                        }
                        if f.mutable {
                            return Err(TypeError::new(
                                b.span,
                                "M0179",
                                format!("base has non-aliasable var field\n  {}", f.name),
                            ));
                        }
                        fs.push(f.clone());
                    }
                }
                n if super::ops::shaped(&n) => {
                    return Err(TypeError::new(
                        b.span,
                        "M0093",
                        format!("expected object type, but expression produces type\n  {t}"),
                    ))
                }
                _ => unknown = true,
            }
        }
        for f in fields {
            let ty = match &f.ty {
                Some(t) => {
                    let t = self.ty(t, f.value.span)?;
                    self.check(&f.value, &t)?;
                    t
                }
                None => self.infer(&f.value)?,
            };
            fs.retain(|g| *g.name != *f.name);
            fs.push(Field {
                name: Rc::from(f.name.as_str()),
                mutable: f.mutable,
                ty,
            });
        }
        if unknown {
            return Ok(Ty::Unknown);
        }
        Ok(Ty::record(fs))
    }

    /// `r.name` not called.
    fn dot(&mut self, e: &Expr, r: &Expr, name: &str) -> CheckResult<Ty> {
        if let ExprKind::Var(n) = &r.kind {
            match self.lookup(n) {
                Some(Binding::Module(m)) => {
                    return Ok(self.lib_member(m.name, name).unwrap_or(Ty::Unknown))
                }
                Some(Binding::BaseModule(m)) if m.name.starts_with("base/") => {
                    return Ok(self.lib_member(m.name, name).unwrap_or(Ty::Unknown))
                }
                _ => {}
            }
        }
        let t = self.infer(r)?;
        let n = normalize(&t);
        if let Ty::Obj(_, fs) = &n {
            if let Some(f) = fs.iter().find(|f| &*f.name == name) {
                return Ok(f.ty.clone());
            }
        }
        if let Some(m) = builtin_method(&n, name) {
            return Ok(m);
        }
        match self.no_member(e, r, &t, name) {
            Some(err) => Err(err),
            None => Ok(Ty::Unknown),
        }
    }

    /// The error for `r.name` (`e`) where the receiver's type `t` has no field `name` and
    /// no built-in method of that name: none where a module in scope may offer a
    /// contextual-dot function `name`, or the type is not known. M0072 for an object, a
    /// text, blob or array (which have fields), M0070 for other types.
    pub(super) fn no_member(&self, e: &Expr, r: &Expr, t: &Ty, name: &str) -> Option<TypeError> {
        if self.module_has(name) || self.local_module_has(name) {
            return None;
        }
        match normalize(t) {
            Ty::Obj(..) | Ty::Array(..) | Ty::Prim(Prim::Text | Prim::Blob) => {
                let mut at = e.span;
                // moc points at the field name
                at.start = at.end;
                at.start.col = at.end.col.saturating_sub(name.len() as u32);
                Some(TypeError::new(
                    at,
                    "M0072",
                    format!("field {name} does not exist in type:\n  {t}"),
                ))
            }
            Ty::Prim(_) | Ty::Tuple(_) | Ty::Variant(_) | Ty::Func(_) | Ty::Opt(_) => {
                Some(TypeError::new(
                    r.span,
                    "M0070",
                    format!("expected object type, but expression produces type\n  {t}"),
                ))
            }
            _ => None,
        }
    }

    /// Whether a module value of the script in scope has a member `name` (a contextual dot
    /// may resolve to it).
    pub(super) fn local_module_has(&self, name: &str) -> bool {
        self.scopes
            .iter()
            .chain(std::iter::once(&self.globals.scope))
            .any(|s| s.vals.values().any(|b| module_member(b, name)))
    }

    /// Whether an imported module in scope has a member `name` (a contextual dot may
    /// resolve to it).
    pub(super) fn module_has(&self, name: &str) -> bool {
        self.base_in_scope()
            || self
                .modules_in_scope()
                .iter()
                .any(|m| m.get(name).is_some())
    }

    /// `a op b`.
    fn binary(&mut self, e: &Expr, op: BinOp, a: &Expr, b: &Expr) -> CheckResult<Ty> {
        // a literal operand takes the other operand's type
        let is_lit =
            |x: &Expr| num_literal(x).is_some() || matches!(x.kind, ExprKind::Lit(Lit::Text(_)));
        let (ta, tb) = match (is_lit(a), is_lit(b)) {
            (false, true) => {
                let ta = self.infer(a)?;
                let tb = self.operand_literal(b, &ta)?;
                (ta, tb)
            }
            (true, false) => {
                let tb = self.infer(b)?;
                let ta = self.operand_literal(a, &tb)?;
                (ta, tb)
            }
            _ => (self.infer(a)?, self.infer(b)?),
        };
        let t = lub(&ta, &tb);
        // both operand types are known (neither a type parameter, which moc promotes to its
        // bound, nor an abstract or unmodelled type)
        let known = super::ops::concrete(&ta) && super::ops::concrete(&tb);
        if op.is_relational() {
            if matches!(op, BinOp::Eq | BinOp::Ne) {
                if super::ops::eq_undefined(&t) {
                    return Err(TypeError::operator(e.span, &ta, &tb));
                }
                self.typing.equality.insert(Typing::key(e), t.clone());
                return Ok(Ty::bool());
            }
            if known && super::ops::order_undefined(&t) {
                return Err(TypeError::operator(e.span, &ta, &tb));
            }
            return Ok(Ty::bool());
        }
        match normalize(&t) {
            Ty::Prim(p) if op_defined(op, p) => {
                if p == Prim::Int {
                    self.typing.int_arith.insert(Typing::key(e));
                }
                Ok(Ty::Prim(p))
            }
            Ty::Prim(_) if known => Err(TypeError::operator(e.span, &ta, &tb)),
            // moc: an operator on a type it is not defined on (the operands' least upper
            // bound: `Any` for unrelated ones)
            n if known && super::ops::order_undefined(&n) => {
                Err(TypeError::operator(e.span, &ta, &tb))
            }
            _ => Ok(Ty::Unknown),
        }
    }

    /// A literal operand next to an operand of type `other`.
    fn operand_literal(&mut self, lit: &Expr, other: &Ty) -> CheckResult<Ty> {
        match normalize(other) {
            Ty::Prim(Prim::Blob) if matches!(lit.kind, ExprKind::Lit(Lit::Text(_))) => {
                self.check(lit, &Ty::Prim(Prim::Blob))?;
                Ok(Ty::Prim(Prim::Blob))
            }
            // moc types the other operand on its own and checks a number literal against
            // it (`t ** 2` with `t : Text`, `n == -1` with `n : Nat`: M0050)
            n if num_literal(lit).is_some() && super::ops::concrete(&n) && n != Ty::Non => {
                self.check(lit, other)?;
                Ok(other.clone())
            }
            _ => self.infer(lit),
        }
    }

    /// A function definition's type; its body checked. `expected` gives the types of
    /// parameters written without one (an anonymous function passed where a function type
    /// is expected).
    pub(super) fn func_def(&mut self, f: &FuncDef, expected: Option<&FuncTy>) -> CheckResult<Ty> {
        let (ft, scope) = self.func_sig(f, expected)?;
        self.scopes.push(scope);
        let r = self.func_body(f, &ft);
        self.pop_scope();
        r?;
        Ok(Ty::Func(Rc::new(ft)))
    }
}

/// The span of a field `var? name = value` from its value's (moc points at the field),
/// as usually written: on one line, one space around `=`.
pub(super) fn field_span(
    name: &str,
    mutable: bool,
    value: crate::script::syntax::Span,
) -> crate::script::syntax::Span {
    let mut at = value;
    let lead = name.len() + 3 + if mutable { 4 } else { 0 };
    at.start.col = value.start.col.saturating_sub(lead as u32).max(1);
    at
}

/// Whether the binding is a module value (of the script) with a member `name`.
fn module_member(b: &Binding, name: &str) -> bool {
    match b {
        Binding::Val(t, _) => {
            matches!(normalize(t), Ty::Obj(ObjSort::Module, fs) if fs.iter().any(|f| &*f.name == name))
        }
        _ => false,
    }
}

/// M0075: indexing what is neither an array nor a blob.
fn not_indexable(a: &Expr, t: &Ty) -> TypeError {
    TypeError::new(
        a.span,
        "M0075",
        format!("expected array type or Blob, but expression produces type\n  {t}"),
    )
}

/// Whether binary operator `op` applies to operands of type `p`.
pub(super) fn op_defined(op: BinOp, p: Prim) -> bool {
    use BinOp::*;
    match op {
        Add | Sub | Mul | Div | Pow | Rem => p.is_num(),
        AddWrap | SubWrap | MulWrap | PowWrap => p.is_fixed(),
        And | Or | Xor | Shl | Shr | Rotl | Rotr => p.is_fixed(),
        Cat => p == Prim::Text,
        Eq | Ne | Lt | Le | Gt | Ge => true,
    }
}

/// The type of a built-in method of arrays, text and blobs (`xs.size`, `t.chars`).
pub(super) fn builtin_method(t: &Ty, name: &str) -> Option<Ty> {
    let f = |params: Vec<Ty>, ret: Ty| {
        Ty::Func(Rc::new(FuncTy {
            tparams: Vec::new(),
            params,
            implicits: Vec::new(),
            self_param: false,
            ret,
        }))
    };
    match (t, name) {
        (Ty::Array(_, _), "size") => Some(f(vec![], Ty::nat())),
        (Ty::Array(_, e), "vals" | "values") => Some(f(vec![], lib_types::iter((**e).clone()))),
        (Ty::Array(_, _), "keys") => Some(f(vec![], lib_types::iter(Ty::nat()))),
        (Ty::Array(_, e), "get") => Some(f(vec![Ty::nat()], (**e).clone())),
        (Ty::Array(true, e), "put") => Some(f(vec![Ty::nat(), (**e).clone()], Ty::unit())),
        (Ty::Prim(Prim::Text), "size") => Some(f(vec![], Ty::nat())),
        (Ty::Prim(Prim::Text), "chars") => Some(f(vec![], lib_types::iter(Ty::Prim(Prim::Char)))),
        (Ty::Prim(Prim::Blob), "size") => Some(f(vec![], Ty::nat())),
        (Ty::Prim(Prim::Blob), "vals" | "values") => {
            Some(f(vec![], lib_types::iter(Ty::Prim(Prim::Nat8))))
        }
        _ => None,
    }
}

impl Checker<'_> {
    /// The type of a body block at `span` of type `t`: M0192 (object) or M0134 (class)
    /// when it declares a type `t` does not fit; the declared type then (a class keeps its
    /// body's).
    pub(super) fn body_type(
        &mut self,
        span: crate::script::syntax::Span,
        t: Ty,
    ) -> CheckResult<Ty> {
        let Some(b) = self.body_types.get(&super::span_key(span)).copied() else {
            return Ok(t);
        };
        let want = self.ty(&b.ty, span)?;
        let class = b.sort == BodySort::Class;
        if sub(&t, &want) == Tri::No {
            let (code, what) = if class {
                ("M0134", "class body")
            } else {
                ("M0192", "body")
            };
            return Err(TypeError::new(
                span,
                code,
                format!("{what} of type\n  {t}\ndoes not match expected type\n  {want}"),
            ));
        }
        Ok(if class { t } else { want })
    }
}

impl Checker<'_> {
    /// A module's type (the record of its public fields, as a module); what it declares is
    /// kept for the `let` that names it (type paths `M.T`).
    fn module(&mut self, body: &Expr) -> CheckResult<Ty> {
        let ExprKind::Block(decs) = &body.kind else {
            return self.infer(body);
        };
        self.tick(body.span)?;
        super::dec::module_static(decs)?;
        self.push_scope();
        // moc checks a module's type declarations with the block that declares it
        let at = self.block_spans.last().copied().unwrap_or(body.span);
        let r = self.decs(decs, None, false, at);
        let scope = self.scopes.pop().unwrap_or_default();
        let t = self.body_type(body.span, r?)?;
        let t = match t {
            Ty::Obj(_, fs) => Ty::Obj(ObjSort::Module, fs),
            t => t,
        };
        self.last_module = Some(Rc::new(super::env::ModTypes {
            types: scope.types,
            modules: scope.modules,
            ty: t.clone(),
        }));
        Ok(t)
    }
}

impl Checker<'_> {
    /// The type of `op a` (`e`); a signed number literal is an `Int`.
    fn infer_unary(&mut self, e: &Expr, op: &UnOp, a: &Expr) -> CheckResult<Ty> {
        let span = e.span;
        // a signed number literal (`-1`, `+1`) is an `Int`
        if num_literal(e).is_some() {
            return Ok(Ty::Prim(Prim::Int));
        }
        let t = self.infer(a)?;
        Ok(match normalize(&t) {
            Ty::Prim(p) => {
                if !super::ops::unary_defined(*op, p) {
                    return Err(TypeError::unary_operator(span, &t));
                }
                if matches!(op, UnOp::Neg | UnOp::Pos) && p == Prim::Nat {
                    Ty::Prim(Prim::Int)
                } else {
                    Ty::Prim(p)
                }
            }
            _ => Ty::Unknown,
        })
    }
}

impl Checker<'_> {
    /// `p op= v` (`e`).
    fn op_assign(&mut self, e: &Expr, op: &BinOp, p: &Expr, v: &Expr) -> CheckResult<Ty> {
        let t = self.place(p, e)?;
        match normalize(&t) {
            Ty::Prim(pr) if op_defined(*op, pr) => {
                if pr == Prim::Int {
                    self.typing.int_arith.insert(Typing::key(e));
                }
                self.check(v, &t)?
            }
            Ty::Prim(_) => {
                let vt = self.infer(v)?;
                return Err(TypeError::operator(e.span, &t, &vt));
            }
            _ => {
                self.infer(v)?;
            }
        }
        Ok(Ty::unit())
    }
}

impl Checker<'_> {
    /// An array literal (`[var ...]` when `m`).
    fn infer_array(&mut self, m: bool, es: &[Expr]) -> CheckResult<Ty> {
        let mut t = Ty::Non;
        for x in es {
            let u = self.infer(x)?;
            t = lub(&t, &u);
        }
        // the numeric literals take the element type (moc: `[i, 1]` is `[+5, +1]`)
        if matches!(normalize(&t), Ty::Prim(p) if p.is_num()) {
            for x in es.iter().filter(|x| num_literal(x).is_some()) {
                self.check(x, &t)?;
            }
        }
        Ok(Ty::Array(m, Rc::new(t)))
    }
}

impl Checker<'_> {
    /// `a.i` (`e`).
    fn proj(&mut self, e: &Expr, a: &Expr, i: usize) -> CheckResult<Ty> {
        let span = e.span;
        let t = self.infer(a)?;
        Ok(match normalize(&t) {
            // moc: `None` has no components (`x.0` of an `x : None` is out of bounds)
            Ty::Non => {
                return Err(TypeError::new(
                    span,
                    "M0066",
                    format!("tuple projection {i} is out of bounds for type\n  {t}"),
                ))
            }
            Ty::Tuple(ts) => match ts.get(i) {
                Some(t) => t.clone(),
                None => {
                    return Err(TypeError::new(
                        span,
                        "M0066",
                        format!("tuple projection {i} is out of bounds for type\n  {t}"),
                    ))
                }
            },
            n if super::ops::shaped(&n) => {
                return Err(TypeError::new(
                    a.span,
                    "M0067",
                    format!("expected tuple type, but expression produces type\n  {t}"),
                ))
            }
            _ => Ty::Unknown,
        })
    }
}

impl Checker<'_> {
    /// `a[i]`.
    fn index(&mut self, a: &Expr, i: &Expr) -> CheckResult<Ty> {
        let t = self.infer(a)?;
        self.check(i, &Ty::nat())?;
        Ok(match normalize(&t) {
            Ty::Array(_, t) => (*t).clone(),
            Ty::Prim(Prim::Blob) => Ty::Prim(Prim::Nat8),
            n if super::ops::shaped(&n) => return Err(not_indexable(a, &t)),
            _ => Ty::Unknown,
        })
    }
}

impl Checker<'_> {
    /// `a!`.
    fn bang(&mut self, a: &Expr) -> CheckResult<Ty> {
        let t = self.infer(a)?;
        Ok(match normalize(&t) {
            Ty::Opt(t) => (*t).clone(),
            Ty::Prim(Prim::Null) => Ty::Non,
            n if super::ops::shaped(&n) => {
                return Err(TypeError::new(
                    a.span,
                    "M0065",
                    format!("expected option type before '!', but expression produces type\n  {t}"),
                ))
            }
            _ => Ty::Unknown,
        })
    }
}

impl Checker<'_> {
    /// `debug_show a` (`e`).
    fn debug_show(&mut self, e: &Expr, a: &Expr) -> CheckResult<Ty> {
        let span = e.span;
        let t = self.infer(a)?;
        if super::ops::show_undefined(&t) {
            return Err(TypeError::new(
                span,
                "M0063",
                format!("show is not defined for operand type\n  {t}"),
            ));
        }
        self.typing.shows.insert(Typing::key(e), t);
        Ok(Ty::text())
    }
}

impl Checker<'_> {
    /// `if c a else b`.
    fn infer_if(&mut self, c: &Expr, a: &Expr, b: Option<&Expr>) -> CheckResult<Ty> {
        self.check(c, &Ty::bool())?;
        Ok(match b {
            Some(b) => {
                let x = self.infer(a)?;
                let y = self.infer(b)?;
                lub(&x, &y)
            }
            None => {
                self.check(a, &Ty::unit())?;
                Ty::unit()
            }
        })
    }
}

impl Checker<'_> {
    /// `switch s { cases }`.
    fn infer_switch(&mut self, s: &Expr, cases: &[Case]) -> CheckResult<Ty> {
        let st = self.infer(s)?;
        let mut t = Ty::Non;
        for case in cases {
            super::dup::pattern_duplicates(&case.pat)?;
            self.push_scope();
            let r = self
                .bind_pat(&case.pat, &st)
                .and_then(|_| self.infer(&case.body));
            self.pop_scope();
            t = lub(&t, &r?);
        }
        Ok(t)
    }
}

impl Checker<'_> {
    /// `loop b` or `loop b while c`.
    fn infer_loop(&mut self, b: &Expr, c: Option<&Expr>) -> CheckResult<Ty> {
        self.loop_body(b)?;
        Ok(match c {
            Some(c) => {
                self.check(c, &Ty::bool())?;
                Ty::unit()
            }
            None => Ty::Non,
        })
    }
}

impl Checker<'_> {
    /// `for (p in it) b`.
    fn infer_for(&mut self, p: &Pat, it: &Expr, b: &Expr) -> CheckResult<Ty> {
        let t = self.infer(it)?;
        let elem = match normalize(&t) {
            Ty::Obj(_, fs) if fs.iter().any(|f| &*f.name == "next") => {
                match fs.iter().find(|f| &*f.name == "next") {
                    Some(Field {
                        ty: Ty::Func(ft), ..
                    }) if ft.params.is_empty() => match normalize(&ft.ret) {
                        Ty::Opt(t) => (*t).clone(),
                        _ => Ty::Unknown,
                    },
                    _ => Ty::Unknown,
                }
            }
            Ty::Obj(..)
            | Ty::Array(..)
            | Ty::Prim(_)
            | Ty::Opt(_)
            | Ty::Tuple(_)
            | Ty::Variant(_)
            | Ty::Func(_) => {
                return Err(TypeError::new(
                    it.span,
                    "M0082",
                    format!("expected iterable type, but expression has type\n  {t}"),
                ))
            }
            _ => Ty::Unknown,
        };
        self.push_scope();
        let r = self.bind_pat(p, &elem).and_then(|_| self.loop_body(b));
        self.pop_scope();
        r?;
        Ok(Ty::unit())
    }
}

impl Checker<'_> {
    /// `return v` (`e`).
    fn infer_return(&mut self, e: &Expr, v: Option<&Expr>) -> CheckResult<Ty> {
        let span = e.span;
        if self.returns.is_empty() {
            return Err(TypeError::new(span, "M0085", "misplaced return"));
        }
        let want = self.returns.last().cloned().flatten();
        match (v, want) {
            (Some(v), Some(w)) => self.check(v, &w)?,
            (Some(v), None) => {
                self.infer(v)?;
            }
            (None, Some(w)) => self.expect_sub(span, &Ty::unit(), &w)?,
            (None, None) => {}
        }
        Ok(Ty::Non)
    }
}

impl Checker<'_> {
    /// A record literal `e` against the record type `w` (`want` as written).
    fn check_record(
        &mut self,
        e: &Expr,
        fields: &[FieldExp],
        fs: &[Field],
        w: &Ty,
        want: &Ty,
    ) -> CheckResult<()> {
        if let Some(missing) = fs
            .iter()
            .find(|g| !fields.iter().any(|f| *f.name == *g.name))
        {
            return Err(TypeError::new(
                e.span,
                "M0151",
                format!("missing field '{}' from expected type\n  {w}", missing.name),
            ));
        }
        let mut got = Vec::new();
        for f in fields {
            let ty = match (&f.ty, fs.iter().find(|g| *g.name == *f.name)) {
                (Some(t), _) => {
                    let t = self.ty(t, f.value.span)?;
                    self.check(&f.value, &t)?;
                    t
                }
                (None, Some(g)) if g.mutable == f.mutable => {
                    self.check(&f.value, &g.ty)?;
                    g.ty.clone()
                }
                (None, Some(g)) => {
                    let (code, what) = if g.mutable {
                        (
                            "M0149",
                            "expected mutable 'var' field {} of type\n  {}\nbut found immutable field (insert 'var'?)",
                        )
                    } else {
                        (
                            "M0150",
                            "expected immutable field {} of type\n  {}\nbut found mutable 'var' field (delete 'var'?)",
                        )
                    };
                    let msg = what
                        .replacen("{}", &f.name, 1)
                        .replacen("{}", &g.ty.to_string(), 1);
                    let at = field_span(&f.name, f.mutable, f.value.span);
                    return Err(TypeError::new(at, code, msg));
                }
                _ => self.infer(&f.value)?,
            };
            got.push(Field {
                name: Rc::from(f.name.as_str()),
                mutable: f.mutable,
                ty,
            });
        }
        let t = Ty::record(got);
        self.expect_sub(e.span, &t, want)
    }
}

impl Checker<'_> {
    /// `switch s { cases }` against `want`.
    fn check_switch(&mut self, s: &Expr, cases: &[Case], want: &Ty) -> CheckResult<()> {
        let st = self.infer(s)?;
        for case in cases {
            super::dup::pattern_duplicates(&case.pat)?;
            self.push_scope();
            let r = self
                .bind_pat(&case.pat, &st)
                .and_then(|_| self.check(&case.body, want));
            self.pop_scope();
            r?;
        }
        Ok(())
    }
}

impl Checker<'_> {
    /// The variant `#tag a` (`e`) against a variant type with `tags` (`want` as written).
    fn check_variant(
        &mut self,
        e: &Expr,
        tag: &str,
        a: Option<&Expr>,
        tags: &[(Rc<str>, Ty)],
        want: &Ty,
    ) -> CheckResult<()> {
        match tags.iter().find(|(n, _)| **n == *tag) {
            Some((_, t)) => match a {
                Some(a) => self.check(a, t),
                None => self.expect_sub(e.span, &Ty::unit(), t).map(|_| ()),
            },
            None => {
                let t = self.infer(e)?;
                self.expect_sub(e.span, &t, want)
            }
        }
    }
}
