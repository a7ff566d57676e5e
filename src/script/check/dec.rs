//! Declarations and blocks: type declarations (recursive, never unfolded here), functions
//! (signatures first, so that a block's functions may call each other), `let`, `var`,
//! imports.

use super::env::{Binding, CheckResult, Scope, TypeBinding};
use super::error::TypeError;
use super::types::{Con, FuncTy, Ty};
use super::Checker;
use crate::script::compile::pat_names;
use crate::script::lib;
use crate::script::syntax::ast::{Dec, Expr, ExprKind, FuncDef, Pat, PatKind};
use crate::script::syntax::Span;
use std::collections::HashMap;
use std::rc::Rc;

/// The signatures of a block's functions, by definition.
type Sigs = HashMap<*const FuncDef, (FuncTy, Scope)>;

impl Checker<'_> {
    /// The script's top level (the whole script at `span`): declarations go to the
    /// session's globals.
    pub(super) fn top_block(&mut self, decs: &[Dec], span: Span) -> CheckResult<Ty> {
        self.decs(decs, None, true, span)
    }

    /// A block `{ decs }` at `span`; its type is its last declaration's.
    pub(super) fn block(&mut self, decs: &[Dec], want: Option<&Ty>, span: Span) -> CheckResult<Ty> {
        self.push_scope();
        let r = self.decs(decs, want, false, span);
        self.pop_scope();
        r
    }

    /// The declarations `decs` of the block at `span`.
    pub(super) fn decs(
        &mut self,
        decs: &[Dec],
        want: Option<&Ty>,
        top: bool,
        span: Span,
    ) -> CheckResult<Ty> {
        self.block_spans.push(span);
        let r = self.decs_at(decs, want, top, span);
        self.block_spans.pop();
        r
    }

    fn decs_at(
        &mut self,
        decs: &[Dec],
        want: Option<&Ty>,
        top: bool,
        span: Span,
    ) -> CheckResult<Ty> {
        super::dup::block_duplicates(decs, is_class_body)?;
        let depth = if top { 0 } else { self.scopes.len() };
        // imports first: the block's types and signatures may name the modules
        for d in decs {
            if let Dec::Import(p, path, span) = d {
                self.import(p, path, *span)?;
            }
        }
        let declared = self.declare_names(decs, top);
        self.type_decs(decs, span)?;
        // functions' signatures next, so that a block's functions may call each other
        let mut sigs: Sigs = HashMap::new();
        for d in decs {
            if let Dec::Func(f) = d {
                if f.name.is_some() {
                    f.params.iter().try_for_each(inferable)?;
                }
                let (ft, scope) = self.func_sig(f, None)?;
                if let Some(n) = &f.name {
                    self.bind(n, Binding::Val(Ty::Func(Rc::new(ft.clone())), false));
                }
                sigs.insert(Rc::as_ptr(f), (ft, scope));
            }
        }
        let mut last_ty = Ty::unit();
        let n = decs.len();
        for (i, d) in decs.iter().enumerate() {
            let last = i + 1 == n;
            last_ty = Ty::unit();
            let r = self.dec(d, last, top, want, depth, &mut sigs);
            for name in &declared[i] {
                self.scope_mut().pending.remove(name);
            }
            if let Some(t) = r? {
                last_ty = t;
            }
        }
        Ok(last_ty)
    }

    /// One declaration of a block (at scope `depth`); the type it gives the block when
    /// last (`None`: `()`).
    fn dec(
        &mut self,
        d: &Dec,
        last: bool,
        top: bool,
        want: Option<&Ty>,
        depth: usize,
        sigs: &mut Sigs,
    ) -> CheckResult<Option<Ty>> {
        let mut last_ty = None;
        {
            match d {
                Dec::Exp(e) => {
                    if last {
                        last_ty = Some(match want {
                            Some(w) => {
                                self.check(e, w)?;
                                w.clone()
                            }
                            None => self.infer(e)?,
                        });
                    } else {
                        self.check(e, &Ty::unit())?;
                    }
                }
                Dec::Let(p, e, fail) => {
                    let t = match &p.kind {
                        PatKind::Annot(_, ty) => {
                            let t = self.ty(ty, p.span)?;
                            self.check(e, &t)?;
                            t
                        }
                        _ => {
                            if let ExprKind::Func(f) = &e.kind {
                                // nothing gives its parameters a type
                                f.params.iter().try_for_each(inferable)?;
                            }
                            self.infer_pre(e, depth)?
                        }
                    };
                    // the `else` of `let p = e else f` must not end normally
                    if let Some(f) = fail {
                        self.check(f, &Ty::Non)?;
                    }
                    self.bind_pat(p, &t)?;
                    if let (PatKind::Var(n), ExprKind::Module(_)) = (&p.kind, &e.kind) {
                        if let Some(m) = self.last_module.take() {
                            self.scope_mut().modules.insert(n.clone(), m);
                        }
                    }
                    last_ty = Some(t);
                }
                Dec::Var(name, ty, e, span) => {
                    let t = match ty {
                        Some(ty) => {
                            let t = self.ty(ty, *span)?;
                            self.check(e, &t)?;
                            t
                        }
                        None => self.infer_pre(e, depth)?,
                    };
                    self.bind(name, Binding::Val(t, true));
                }
                Dec::Type(..) => {}
                Dec::Func(f) => {
                    let Some((ft, scope)) = sigs.remove(&Rc::as_ptr(f)) else {
                        return Ok(None);
                    };
                    self.scopes.push(scope);
                    let r = self.func_body(f, &ft);
                    self.pop_scope();
                    let ret = r?;
                    let ft = FuncTy { ret, ..ft };
                    let t = Ty::Func(Rc::new(ft));
                    if let Some(n) = &f.name {
                        self.bind(n, Binding::Val(t.clone(), false));
                    }
                    if last && !top {
                        last_ty = Some(t);
                    }
                }
                // bound before the block's other declarations
                Dec::Import(..) => {}
            }
        }
        Ok(last_ty)
    }

    /// Binds every value name of a block (visible in the whole block: functions may use
    /// later declarations; a value's type is known once its declaration is checked), marks
    /// them not checked yet (`pending`) and notes the computed ones (`lets`); the names of
    /// each declaration.
    fn declare_names(&mut self, decs: &[Dec], top: bool) -> Vec<Vec<String>> {
        let mut declared: Vec<Vec<String>> = Vec::with_capacity(decs.len());
        for d in decs {
            let names = dec_names(d);
            // at a session's top level a name defined by an earlier evaluation keeps its
            // old binding until its new declaration runs: not a forward reference
            let fresh: Vec<String> = names
                .iter()
                .filter(|n| !top || self.lookup(n).is_none())
                .cloned()
                .collect();
            let mutable = matches!(d, Dec::Var(..));
            for n in &fresh {
                self.bind(n, Binding::Val(Ty::Unknown, mutable));
            }
            let computed = match d {
                Dec::Let(_, e, _) => !matches!(e.kind, ExprKind::Module(_) | ExprKind::Block(_)),
                Dec::Var(..) => true,
                _ => false,
            };
            if computed {
                self.scope_mut().lets.extend(fresh.iter().cloned());
            }
            self.scope_mut().pending.extend(fresh);
            declared.push(names);
        }
        declared
    }

    /// Infers the initializer `e` of an unannotated declaration of the block at `depth`
    /// (moc infers it before the block's later declarations have types: M0055).
    fn infer_pre(&mut self, e: &Expr, depth: usize) -> CheckResult<Ty> {
        self.pre.push(Some(depth));
        let r = self.infer(e);
        self.pre.pop();
        r
    }

    /// Binds a block's type declarations (all first: they may refer to each other), then
    /// resolves their bodies; `block` is where the block is (moc's position of its errors
    /// about the declarations together).
    fn type_decs(&mut self, decs: &[Dec], block: Span) -> CheckResult<()> {
        let mut made = Vec::new();
        for d in decs {
            if let Dec::Type(td) = d {
                super::dup::type_param_duplicates(&td.params, |i| {
                    td.param_spans.get(i).copied().unwrap_or(td.span)
                })?;
                let ids: Vec<u32> = td.params.iter().map(|_| self.fresh()).collect();
                let id = self.fresh();
                let con = Rc::new(Con {
                    name: Rc::from(td.name.as_str()),
                    params: ids,
                    body: std::cell::RefCell::new(None),
                    library: None,
                    id,
                });
                self.bind_type(&td.name, TypeBinding::Con(con.clone()));
                self.made.push(con.clone());
                made.push((con, td.span));
            }
        }
        let mut k = 0;
        for d in decs {
            if let Dec::Type(td) = d {
                let con = made[k].0.clone();
                k += 1;
                self.push_scope();
                for (n, id) in td.params.iter().zip(&con.params) {
                    self.bind_type(n, TypeBinding::Param(Ty::Var(*id, Rc::from(n.as_str()))));
                }
                // the body's errors are at the declaration (types keep no positions)
                let r = self.ty(&td.body, td.span);
                self.pop_scope();
                *con.body.borrow_mut() = Some(r?);
            }
        }
        super::typedecs::check_block(&made, block)
    }

    fn import(
        &mut self,
        p: &crate::script::syntax::ast::Pat,
        path: &str,
        span: Span,
    ) -> CheckResult<()> {
        let Some(m) = lib::module_by_path(path) else {
            // the compiler reports it
            return Ok(());
        };
        match &p.kind {
            PatKind::Var(n) if path.starts_with("mo:base/") => self.bind(n, Binding::BaseModule(m)),
            PatKind::Var(n) => self.bind(n, Binding::Module(m)),
            PatKind::Record(fields) => {
                for (fname, fp) in fields {
                    let bind = match &fp.kind {
                        PatKind::Var(b) => b.clone(),
                        _ => fname.clone(),
                    };
                    // of `mo:base`, only the modules with base's own functions are typed
                    let t = if path.starts_with("mo:base/") && !m.name.starts_with("base/") {
                        Ty::Unknown
                    } else {
                        self.lib_member(m.name, fname).unwrap_or(Ty::Unknown)
                    };
                    self.bind(&bind, Binding::Val(t, false));
                }
            }
            _ => {
                let _ = span;
            }
        }
        Ok(())
    }

    /// A function's type from what it declares (type parameters, parameter annotations,
    /// result), and the scope binding its type parameters. `expected`: the function type
    /// an anonymous function is checked against.
    pub(super) fn func_sig(
        &mut self,
        f: &FuncDef,
        expected: Option<&FuncTy>,
    ) -> CheckResult<(FuncTy, Scope)> {
        self.push_scope();
        let r = self.func_sig_in(f, expected);
        let scope = self.scopes.pop().unwrap_or_default();
        Ok((r?, scope))
    }

    fn func_sig_in(&mut self, f: &FuncDef, expected: Option<&FuncTy>) -> CheckResult<FuncTy> {
        f.params
            .iter()
            .try_for_each(super::dup::pattern_duplicates)?;
        if let (Some(first), Some(last)) = (f.params.first(), f.params.last()) {
            // several parameters are one tuple pattern, its parentheses included
            let mut span = first.span.to(last.span);
            span.start.col = span.start.col.saturating_sub(1);
            span.end.col = span.end.col.saturating_add(1);
            super::dup::several_duplicates(f.params.iter(), span)?;
        }
        super::dup::type_param_duplicates(&f.type_params, |i| {
            f.type_param_spans.get(i).copied().unwrap_or(f.span)
        })?;
        let mut tparams = Vec::new();
        for n in &f.type_params {
            let id = self.fresh();
            let name: Rc<str> = Rc::from(n.as_str());
            self.bind_type(n, TypeBinding::Param(Ty::Var(id, name.clone())));
            tparams.push((id, name));
        }
        // the bounds may name any of the parameters
        for ((id, _), b) in tparams.iter().zip(&f.type_bounds) {
            if let Some(b) = b {
                let t = self.ty(b, f.span)?;
                self.bounds.insert(*id, t);
            }
        }
        let exp = expected.filter(|e| e.params.len() == f.params.len() && e.tparams.is_empty());
        // moc matches the parameter pattern against the expected parameters (a tuple when
        // there are several). Only where the function declares its result: one without
        // (an argument of a generic call) moc may type on its own first (then M0096).
        let expected = expected.filter(|_| f.result.is_some());
        if let (Some(e), [p]) = (expected, f.params.as_slice()) {
            if e.tparams.is_empty() && e.params.len() != 1 && matches!(p.kind, PatKind::Annot(..)) {
                let t = self.pat_type(p)?;
                let want = Ty::Tuple(e.params.clone().into());
                pat_consumes(p, &t, &want)?;
            }
        }
        let mut params = Vec::with_capacity(f.params.len());
        for (i, p) in f.params.iter().enumerate() {
            let t = match (&p.kind, exp) {
                (PatKind::Annot(..), Some(e)) if f.result.is_some() => {
                    let t = self.pat_type(p)?;
                    pat_consumes(p, &t, &e.params[i])?;
                    t
                }
                (PatKind::Annot(..), _) => self.pat_type(p)?,
                (_, Some(e)) => e.params[i].clone(),
                _ => self.pat_type(p)?,
            };
            params.push(t);
        }
        let ret = match (&f.result, exp) {
            (Some(t), _) => self.ty(t, f.span)?,
            (None, _) if is_class_body(f) => Ty::Unknown,
            (None, Some(e)) => e.ret.clone(),
            // an anonymous function where no function type is known (an argument of a
            // function the checker does not model): its result is not known either
            (None, None) if f.name.is_none() => Ty::Unknown,
            (None, None) => Ty::unit(),
        };
        if let (Some(_), Some(e)) = (&f.result, exp) {
            if super::sub::sub(&ret, &e.ret) == super::sub::Tri::No {
                return Err(super::error::TypeError::new(
                    f.body.span,
                    "M0095",
                    format!(
                        "function return type\n  {ret}\ndoes not match expected return type\n  {}",
                        e.ret
                    ),
                ));
            }
        }
        Ok(FuncTy {
            tparams,
            params,
            implicits: super::params::param_implicits(f),
            self_param: super::params::has_self_param(f),
            ret,
        })
    }

    /// Checks a function's body in its scope (pushed by the caller); its result type (the
    /// declared one, or the body's own for a class).
    pub(super) fn func_body(&mut self, f: &FuncDef, ft: &FuncTy) -> CheckResult<Ty> {
        for (p, t) in f.params.iter().zip(&ft.params) {
            self.bind_pat(p, t)?;
        }
        let known = !matches!(ft.ret, Ty::Unknown);
        self.returns.push(known.then(|| ft.ret.clone()));
        let saved = std::mem::take(&mut self.labels);
        self.pre.push(None);
        // a class's body (an object body) is a block of its own to moc, at the class
        self.class_body = Some(f.body.span);
        let r = if known {
            self.check(&f.body, &ft.ret).map(|_| ft.ret.clone())
        } else {
            self.infer(&f.body)
        };
        self.pre.pop();
        self.labels = saved;
        self.returns.pop();
        r
    }
}

/// M0117 when a parameter pattern declaring type `t` cannot take a value of the expected
/// type `want`.
fn pat_consumes(p: &crate::script::syntax::ast::Pat, t: &Ty, want: &Ty) -> CheckResult<()> {
    if super::sub::sub(want, t) == super::sub::Tri::No {
        return Err(super::error::TypeError::new(
            p.span,
            "M0117",
            format!("pattern of type\n  {t}\ncannot consume expected type\n  {want}"),
        ));
    }
    Ok(())
}

/// A class (the parser makes it a function whose body ends in the record of its public
/// fields) has the type of its object, not `()`.
fn is_class_body(f: &FuncDef) -> bool {
    let ExprKind::Block(decs) = &f.body.kind else {
        return false;
    };
    // `class C() = self { .. }`: `let self = { .. }; self`
    let last = match decs.as_slice() {
        [.., Dec::Let(p, r, None), Dec::Exp(e)] if matches!((&p.kind, &e.kind), (PatKind::Var(a), ExprKind::Var(b)) if a == b) => {
            Some(r)
        }
        [.., Dec::Exp(e)] => Some(e),
        _ => None,
    };
    match last {
        Some(e) => match &e.kind {
            ExprKind::Record(bases, fields) => {
                bases.is_empty()
                    && fields
                        .iter()
                        .all(|fl| matches!(&fl.value.kind, ExprKind::Var(v) if *v == fl.name))
            }
            _ => false,
        },
        _ => false,
    }
}

/// The value names a declaration defines.
fn dec_names(d: &Dec) -> Vec<String> {
    let mut names = Vec::new();
    match d {
        Dec::Let(p, _, _) => pat_names(p, &mut names),
        Dec::Var(n, ..) => names.push(n.clone()),
        Dec::Func(f) => names.extend(f.name.clone()),
        Dec::Exp(_) | Dec::Type(..) | Dec::Import(..) => {}
    }
    names
}

/// Whether moc can infer the type of the parameter pattern `p` on its own (nothing gives
/// it a type): M0103 for a variable, M0102 for a wildcard, M0184 for an or-pattern not
/// under an annotation. Patterns nest no deeper than the parser allows.
fn inferable(p: &Pat) -> CheckResult<()> {
    match &p.kind {
        PatKind::Var(_) => Err(TypeError::new(
            p.span,
            "M0103",
            "cannot infer type of variable",
        )),
        PatKind::Wild => Err(TypeError::new(
            p.span,
            "M0102",
            "cannot infer type of wildcard",
        )),
        PatKind::Or(..) => Err(TypeError::new(
            p.span,
            "M0184",
            "cannot infer the type of this or-pattern, please add a type annotation",
        )),
        PatKind::Annot(..) | PatKind::Lit(..) => Ok(()),
        PatKind::Tuple(ps) => ps.iter().try_for_each(inferable),
        PatKind::Record(fs) => fs.iter().try_for_each(|(_, q)| inferable(q)),
        PatKind::Opt(q) => inferable(q),
        PatKind::Variant(_, q) => q.iter().try_for_each(|q| inferable(q)),
    }
}

/// M0014 when a module's body declares a `var` or computes a field (a call, an operator, a
/// conditional, ...): moc allows only static declarations in a module.
pub(super) fn module_static(decs: &[Dec]) -> CheckResult<()> {
    for d in decs {
        let at = match d {
            Dec::Var(_, _, _, span) => Some(*span),
            Dec::Let(_, e, _) | Dec::Exp(e) => non_static(e),
            _ => None,
        };
        if let Some(span) = at {
            return Err(TypeError::new(
                span,
                "M0014",
                "non-static expression in library, module or migration expression",
            ));
        }
    }
    Ok(())
}

/// Where `e` (a module's field) computes at run time: the expression moc calls
/// non-static.
fn non_static(e: &Expr) -> Option<Span> {
    match &e.kind {
        ExprKind::Annot(a, _) => non_static(a),
        ExprKind::Call(..)
        | ExprKind::Index(..)
        | ExprKind::Binary(..)
        | ExprKind::If(..)
        | ExprKind::Switch(..)
        | ExprKind::Assign(..)
        | ExprKind::OpAssign(..)
        | ExprKind::While(..)
        | ExprKind::Loop(..)
        | ExprKind::For(..) => Some(e.span),
        _ => None,
    }
}
