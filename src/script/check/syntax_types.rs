//! Types written in a script (`ast::Type`) as checker types.

use super::env::{Binding, CheckResult, ModTypes, TypeBinding};
use super::error::TypeError;
use super::types::{Field, FuncTy, Prim, Ty};
use super::{lib_types, Checker};
use crate::script::syntax::ast::Type;
use crate::script::syntax::Span;
use std::rc::Rc;

impl Checker<'_> {
    /// The type a script writes; `span` is where the written type is (for messages).
    pub(super) fn ty(&mut self, t: &Type, span: Span) -> CheckResult<Ty> {
        self.ty_in(t, span, false)
    }

    /// `in_func`: inside a function type, whose type parameters the parser drops (a name
    /// not bound is then `Unknown`, not an error).
    fn ty_in(&mut self, t: &Type, span: Span, in_func: bool) -> CheckResult<Ty> {
        self.tick(span)?;
        Ok(match t {
            Type::Path(path, args) => self.named(path, args, span, in_func)?,
            Type::Tuple(ts) => {
                let mut v = Vec::with_capacity(ts.len());
                for x in ts {
                    v.push(self.ty_in(x, span, in_func)?);
                }
                Ty::Tuple(Rc::from(v))
            }
            Type::Opt(x) => Ty::Opt(Rc::new(self.ty_in(x, span, in_func)?)),
            Type::Array(m, x) => Ty::Array(*m, Rc::new(self.ty_in(x, span, in_func)?)),
            Type::Record(fs) => {
                duplicate(fs.iter().map(|f| &f.0), span, "field", "object")?;
                let mut v = Vec::with_capacity(fs.len());
                for (n, m, x) in fs {
                    v.push(Field {
                        name: Rc::from(n.as_str()),
                        mutable: *m,
                        ty: self.ty_in(x, span, in_func)?,
                    });
                }
                Ty::record(v)
            }
            Type::Variant(tags) => {
                duplicate(tags.iter().map(|t| &t.0), span, "tag", "variant")?;
                let mut v = Vec::with_capacity(tags.len());
                for (n, x) in tags {
                    v.push((Rc::from(n.as_str()), self.ty_in(x, span, in_func)?));
                }
                Ty::variant(v)
            }
            Type::Func(a, r) => {
                let params = match &**a {
                    Type::Tuple(ts) => {
                        let mut v = Vec::with_capacity(ts.len());
                        for x in ts {
                            v.push(self.ty_in(x, span, true)?);
                        }
                        v
                    }
                    other => vec![self.ty_in(other, span, true)?],
                };
                let ret = self.ty_in(r, span, true)?;
                if params.iter().any(Ty::has_unknown) || ret.has_unknown() {
                    // a generic function type (its parameters are not kept by the parser)
                    return Ok(Ty::Unknown);
                }
                Ty::Func(Rc::new(FuncTy {
                    tparams: Vec::new(),
                    params,
                    implicits: Vec::new(),
                    self_param: false,
                    ret,
                }))
            }
            Type::Combined(a, b) => {
                // moc computes `A and B` / `A or B` right away: neither may mention a type
                // declared later in its block, or the one being declared
                for x in [a, b] {
                    let t = self.ty_in(x, span, in_func)?;
                    if unresolved(&t, COMBINED_DEPTH) {
                        return Err(TypeError::new(
                            span,
                            "M0168",
                            "cannot compute intersection of types containing recursive or \
                             forward references to other type definitions",
                        ));
                    }
                }
                Ty::Unknown
            }
            Type::Implicit(_, t) => self.ty_in(t, span, in_func)?,
        })
    }

    fn named(
        &mut self,
        path: &[String],
        args: &[Type],
        span: Span,
        in_func: bool,
    ) -> CheckResult<Ty> {
        let mut targs = Vec::with_capacity(args.len());
        for a in args {
            targs.push(self.ty_in(a, span, in_func)?);
        }
        match path {
            [name] => {
                match self.lookup_type(name) {
                    Some(TypeBinding::Param(t)) => return Ok(t),
                    Some(TypeBinding::Con(c)) => {
                        if c.params.len() != targs.len() {
                            return Err(TypeError::type_argument_count(
                                span,
                                c.params.len(),
                                targs.len(),
                            ));
                        }
                        return Ok(Ty::Con(c, Rc::from(targs)));
                    }
                    None => {}
                }
                if args.is_empty() {
                    match name.as_str() {
                        "Any" => return Ok(Ty::Any),
                        "None" => return Ok(Ty::Non),
                        n => {
                            if let Some(p) = Prim::by_name(n) {
                                return Ok(Ty::Prim(p));
                            }
                        }
                    }
                }
                // a class declares a type of its name; the parser keeps no mark of a class
                if in_func || self.lookup(name).is_some() {
                    return Ok(Ty::Unknown);
                }
                Err(TypeError::new(
                    span,
                    "M0029",
                    format!("unbound type {name}"),
                ))
            }
            [m, rest @ ..] => self.type_path(m, rest, targs, span),
            [] => Ok(Ty::Unknown),
        }
    }

    /// A type path `m.a.b.T` (`rest`: `a`, `b`, `T`).
    fn type_path(
        &mut self,
        m: &str,
        rest: &[String],
        targs: Vec<Ty>,
        span: Span,
    ) -> CheckResult<Ty> {
        let Some((last, mids)) = rest.split_last() else {
            return Ok(Ty::Unknown);
        };
        match self.lookup(m) {
            None => Err(TypeError::new(
                span,
                "M0026",
                format!("unbound variable {m}"),
            )),
            Some(Binding::BaseModule(module)) if mids.is_empty() => Ok(self
                .lib_type_named(module.name, last, targs)
                .unwrap_or(Ty::Unknown)),
            Some(Binding::Module(module)) if mids.is_empty() => {
                if let Some(t) = self.lib_type_named(module.name, last, targs) {
                    return Ok(t);
                }
                if lib_types::declares_type(module.name, last) == Some(false) {
                    return Err(TypeError::new(
                        span,
                        "M0030",
                        format!("type field {last} does not exist in module."),
                    ));
                }
                Ok(Ty::Unknown)
            }
            Some(Binding::Module(_) | Binding::BaseModule(_)) => Ok(Ty::Unknown),
            Some(Binding::Val(t, _)) => {
                let depth = self.scope_depth(m);
                let scope = depth.and_then(|d| self.scope_at(d));
                if let Some(info) = scope.and_then(|s| s.modules.get(m)).cloned() {
                    return self.module_type_path(&info, mids, last, targs, span);
                }
                // moc resolves the types of a block before it types the block's values
                if depth == Some(self.scopes.len()) && scope.is_some_and(|s| s.lets.contains(m)) {
                    return Err(TypeError::new(
                        span,
                        "M0024",
                        format!("cannot infer type of forward variable reference {m}"),
                    ));
                }
                match super::sub::normalize(&t) {
                    Ty::Prim(_)
                    | Ty::Opt(_)
                    | Ty::Tuple(_)
                    | Ty::Array(..)
                    | Ty::Variant(_)
                    | Ty::Func(_) => Err(TypeError::new(
                        span,
                        "M0023",
                        format!(
                            "expected module, object, or actor type, but path expression produces type\n  {t}"
                        ),
                    )),
                    _ => Ok(Ty::Unknown),
                }
            }
        }
    }

    /// `M.a.b.T` through the modules the script declares (`mids`: `a`, `b`).
    fn module_type_path(
        &mut self,
        info: &Rc<ModTypes>,
        mids: &[String],
        last: &str,
        targs: Vec<Ty>,
        span: Span,
    ) -> CheckResult<Ty> {
        let has_field = |m: &ModTypes, n: &str| match &m.ty {
            Ty::Obj(_, fs) => fs.iter().any(|f| &*f.name == n),
            _ => true,
        };
        let mut cur = info.clone();
        for mid in mids {
            self.tick(span)?;
            match cur.modules.get(mid).cloned() {
                Some(m) => cur = m,
                None if has_field(&cur, mid) => return Ok(Ty::Unknown),
                None => {
                    return Err(TypeError::new(
                        span,
                        "M0028",
                        format!("field {mid} does not exist in type:\n  {}", cur.ty),
                    ))
                }
            }
        }
        match cur.types.get(last).cloned() {
            Some(TypeBinding::Con(c)) if c.params.len() == targs.len() => {
                Ok(Ty::Con(c, Rc::from(targs)))
            }
            Some(TypeBinding::Con(c)) => Err(TypeError::type_argument_count(
                span,
                c.params.len(),
                targs.len(),
            )),
            Some(TypeBinding::Param(t)) => Ok(t),
            // a class declares a type of its name (the parser keeps no mark of a class)
            None if has_field(&cur, last) => Ok(Ty::Unknown),
            None => Err(TypeError::new(
                span,
                "M0030",
                format!("type field {last} does not exist in type:\n  {}", cur.ty),
            )),
        }
    }
}

/// M0018 when a record or variant type names a field or tag twice (`what`: `field` or
/// `tag`; `sort`: `object` or `variant`).
fn duplicate<'a>(
    names: impl Iterator<Item = &'a String>,
    span: Span,
    what: &str,
    sort: &str,
) -> CheckResult<()> {
    let mut seen = std::collections::HashSet::new();
    for n in names {
        if !seen.insert(n.as_str()) {
            return Err(TypeError::new(
                span,
                "M0018",
                format!("duplicate {what} name {n} in {sort} type"),
            ));
        }
    }
    Ok(())
}

/// How deep [`unresolved`] looks into a type.
const COMBINED_DEPTH: usize = 32;

/// Whether `t` mentions a declared type whose body is not resolved yet (not looking into
/// declarations).
fn unresolved(t: &Ty, depth: usize) -> bool {
    if depth == 0 || !super::sub::spend() {
        return false;
    }
    let d = depth - 1;
    match t {
        Ty::Con(c, args) => c.body.borrow().is_none() || args.iter().any(|x| unresolved(x, d)),
        Ty::Opt(x) | Ty::Array(_, x) => unresolved(x, d),
        Ty::Tuple(xs) => xs.iter().any(|x| unresolved(x, d)),
        Ty::Obj(_, fs) => fs.iter().any(|f| unresolved(&f.ty, d)),
        Ty::Variant(ts) => ts.iter().any(|(_, x)| unresolved(x, d)),
        Ty::Func(f) => f.params.iter().any(|x| unresolved(x, d)) || unresolved(&f.ret, d),
        Ty::Unknown | Ty::Any | Ty::Non | Ty::Prim(_) | Ty::Var(..) => false,
    }
}
