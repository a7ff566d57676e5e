//! Types written in a script (`ast::Type`) as checker types.

use super::env::{Binding, CheckResult, TypeBinding};
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
            Type::Combined(..) => Ty::Unknown,
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
                            return Err(TypeError::new(
                                span,
                                "M0045",
                                format!(
                                    "wrong number of type arguments: expected {} but got {}",
                                    c.params.len(),
                                    targs.len()
                                ),
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
            [m, name] => match self.lookup(m) {
                Some(Binding::Module(module) | Binding::BaseModule(module)) => {
                    Ok(lib_types::named(module.name, name, targs).unwrap_or(Ty::Unknown))
                }
                _ => Ok(Ty::Unknown),
            },
            _ => Ok(Ty::Unknown),
        }
    }
}
