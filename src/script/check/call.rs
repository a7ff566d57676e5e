//! Calls: module functions, methods of objects, contextual dot (`x.f(..)` resolved among
//! the imported modules by the receiver's type), implicit arguments (chosen by type, as
//! moc chooses them), and the inference of type arguments from the arguments.

use super::env::{Binding, CheckResult, Typing};
use super::error::TypeError;
use super::expr::{builtin_method, wants_expected};
use super::sub::{lub, normalize, sub, subst, unfold, Tri};
use super::types::{Field, FuncTy, Ty};
use super::{span_key, Checker};
use crate::script::syntax::ast::{Expr, ExprKind};
use std::collections::HashMap;
use std::rc::Rc;

/// How deep [`match_ty`] follows two types.
const MATCH_DEPTH: usize = 32;

/// An argument of a call: written, or the receiver of a contextual dot (already typed).
enum Arg<'e> {
    Expr(&'e Expr),
    Receiver(Ty),
}

impl Checker<'_> {
    /// `f(args)`.
    pub(super) fn call(
        &mut self,
        e: &Expr,
        f: &Expr,
        args: &[Expr],
        want: Option<&Ty>,
    ) -> CheckResult<Ty> {
        let mut receiver: Option<Ty> = None;
        let callee = self.callee(e, f, &mut receiver)?;
        let ft = match normalize(&callee) {
            Ty::Func(ft) => ft,
            Ty::Unknown | Ty::Con(..) | Ty::Var(..) | Ty::Any | Ty::Non => {
                for a in args {
                    self.infer(a)?;
                }
                return Ok(Ty::Unknown);
            }
            other => {
                return Err(TypeError::new(
                    f.span,
                    "M0097",
                    format!("expected function type, but expression produces type\n  {other}"),
                ))
            }
        };
        let (ft, vars) = self.instantiate_fresh(&ft);
        let var_ids: Vec<u32> = vars
            .iter()
            .filter_map(|v| match v {
                Ty::Var(id, _) => Some(*id),
                _ => None,
            })
            .collect();
        let mut given: Vec<Arg> = Vec::new();
        let receiver_given = receiver.is_some();
        if let Some(rt) = receiver {
            given.push(Arg::Receiver(rt));
        }
        given.extend(args.iter().map(Arg::Expr));
        // which parameters the given arguments fill (implicit ones may be omitted)
        let Some(slots) = slots(&ft, given.len()) else {
            if !var_ids.is_empty() {
                return self.generic_arity(e, f, args, &ft, receiver_given);
            }
            return self.call_arity(f, args, &ft, true);
        };
        let mut s: HashMap<u32, Ty> = HashMap::new();
        self.explicit_type_args(e, &var_ids, &mut s)?;
        let generic = !var_ids.is_empty() && s.is_empty();
        // arguments typed on their own first; those that take the expected type after
        let mut inferred: Vec<Option<Ty>> = vec![None; given.len()];
        for (k, a) in given.iter().enumerate() {
            let p = &ft.params[slots[k]];
            match a {
                Arg::Receiver(t) => {
                    match_ty(p, t, &var_ids, &mut s, MATCH_DEPTH);
                    inferred[k] = Some(t.clone());
                }
                Arg::Expr(x) if !generic || !wants_expected(x) => {
                    if !generic {
                        continue;
                    }
                    let t = self.infer(x)?;
                    match_ty(p, &t, &var_ids, &mut s, MATCH_DEPTH);
                    inferred[k] = Some(t);
                }
                Arg::Expr(_) => {}
            }
        }
        // the rest, against their parameter types as far as known
        for (k, a) in given.iter().enumerate() {
            let Arg::Expr(x) = a else { continue };
            if inferred[k].is_some() {
                continue;
            }
            let p = &ft.params[slots[k]];
            let known = subst_known(p, &s, &var_ids);
            if !known.has_unknown() || !generic {
                self.check(x, &known)?;
                continue;
            }
            let t = match (&x.kind, normalize(&known)) {
                (ExprKind::Func(fd), Ty::Func(kf)) => self.func_def(fd, Some(&kf))?,
                _ => self.infer(x)?,
            };
            match_ty(p, &t, &var_ids, &mut s, MATCH_DEPTH);
            inferred[k] = Some(t);
        }
        if let Some(w) = want {
            if var_ids.iter().any(|v| !s.contains_key(v)) {
                match_ty(&ft.ret, w, &var_ids, &mut s, MATCH_DEPTH);
            }
        }
        self.inferred_within_bounds(e, &ft, &var_ids, &s)?;
        // the arguments typed on their own must fit
        for (k, a) in given.iter().enumerate() {
            let Some(t) = &inferred[k] else { continue };
            let p = subst_known(&ft.params[slots[k]], &s, &var_ids);
            if sub(t, &p) == Tri::No {
                let span = match a {
                    Arg::Expr(x) => x.span,
                    Arg::Receiver(_) => f.span,
                };
                return Err(TypeError::new(
                    span,
                    "M0098",
                    format!(
                        "cannot apply function of type\n  {}\nto argument of type\n  {t}",
                        Ty::Func(Rc::new(ft.clone()))
                    ),
                ));
            }
        }
        // omitted implicit arguments: a script value of that name fits or is skipped
        if slots.len() < ft.params.len() {
            let need = |i: usize| subst_known(&ft.params[i], &s, &var_ids);
            let found = self.resolve_implicits(e, &ft, &slots, &need)?;
            self.omitted_implicits(e, &ft, &slots, &s, &var_ids, &found)?;
        }
        Ok(subst_known(&ft.ret, &s, &var_ids))
    }

    /// The type of the function `f` calls; a contextual dot's receiver type goes to
    /// `receiver`.
    fn callee(&mut self, e: &Expr, f: &Expr, receiver: &mut Option<Ty>) -> CheckResult<Ty> {
        Ok(match &f.kind {
            ExprKind::Dot(r, name) => match self.module_of(r) {
                Some(m) => self.lib_member(m, name).unwrap_or(Ty::Unknown),
                None => {
                    let rt = self.infer(r)?;
                    // a field that is no function is read, not called: `m.size()` of a
                    // `Map` (a record with a `size` field) is moc's contextual `Map.size(m)`
                    let field = |g: &&Field| *g.name == **name && may_be_function(&g.ty);
                    match normalize(&rt) {
                        Ty::Obj(_, fs) if fs.iter().any(|g| field(&g)) => fs
                            .iter()
                            .find(field)
                            .map(|g| g.ty.clone())
                            .unwrap_or(Ty::Unknown),
                        n => match builtin_method(&n, name) {
                            Some(t) => t,
                            None => {
                                let t = self.contextual_dot(e, &rt, name, f.span)?;
                                if !matches!(t, Ty::Unknown) {
                                    *receiver = Some(rt);
                                } else if let Some(err) = self.no_member(f, r, &rt, name) {
                                    return Err(err);
                                }
                                t
                            }
                        },
                    }
                }
            },
            _ => self.infer(f)?,
        })
    }

    /// The implicit parameters of `ft` a call `e` omits (the given arguments fill `slots`,
    /// `s` the inferred type arguments `vars`): a script value of that name fits, or is
    /// skipped for a module's (M0230 when none may fit and `found`, the implicits resolved
    /// by type, has none of that name).
    fn omitted_implicits(
        &mut self,
        e: &Expr,
        ft: &FuncTy,
        slots: &[usize],
        s: &HashMap<u32, Ty>,
        var_ids: &[u32],
        found: &[Rc<str>],
    ) -> CheckResult<()> {
        for (i, imp) in ft.implicits.iter().enumerate() {
            let Some(name) = imp else { continue };
            if slots.contains(&i) {
                continue;
            }
            let need = subst_known(&ft.params[i], s, var_ids);
            let own = match self.lookup(name) {
                Some(Binding::Val(t, _)) => sub(&t, &need),
                _ => Tri::No,
            };
            if own == Tri::No {
                self.typing
                    .skip_implicits
                    .entry(Typing::key(e))
                    .or_default()
                    .push(name.clone());
                if !found.contains(name)
                    && !need.has_unknown()
                    && !self.module_implicit_may_fit(name, &need)
                {
                    return Err(TypeError::new(
                        e.span,
                        "M0230",
                        format!("Cannot determine implicit argument `{name}` of type\n  {need}"),
                    ));
                }
            }
        }
        Ok(())
    }

    /// The explicit type arguments of the call `e` (if written) for the parameters
    /// `var_ids`, into `s`: M0045 for the wrong number, M0046 for one outside its bound.
    fn explicit_type_args(
        &mut self,
        e: &Expr,
        var_ids: &[u32],
        s: &mut HashMap<u32, Ty>,
    ) -> CheckResult<()> {
        let Some(targs) = self.type_args.get(&span_key(e.span)).copied() else {
            return Ok(());
        };
        if targs.len() != var_ids.len() {
            return Err(TypeError::type_argument_count(
                e.span,
                var_ids.len(),
                targs.len(),
            ));
        }
        for (id, t) in var_ids.iter().zip(targs) {
            let t = self.ty(t, e.span)?;
            s.insert(*id, t);
        }
        // each argument within its parameter's bound
        for id in var_ids {
            if let Some(err) = self.outside_bound(*id, s) {
                return Err(TypeError::new(
                    e.span,
                    "M0046",
                    format!(
                        "type argument\n  {}\ndoes not match parameter bound\n  {}",
                        err.0, err.1
                    ),
                ));
            }
        }
        Ok(())
    }

    /// M0098 when an inferred type argument of the call `e` of `ft` is outside its bound.
    fn inferred_within_bounds(
        &self,
        e: &Expr,
        ft: &FuncTy,
        var_ids: &[u32],
        s: &HashMap<u32, Ty>,
    ) -> CheckResult<()> {
        for id in var_ids {
            if self.outside_bound(*id, s).is_some() {
                return Err(TypeError::new(
                    e.span,
                    "M0098",
                    format!(
                        "cannot apply function of type\n  {}\nbecause a type argument does not \
                         satisfy its parameter's bound",
                        Ty::Func(Rc::new(ft.clone()))
                    ),
                ));
            }
        }
        Ok(())
    }

    /// The type argument of parameter `id` (as `s` fixes it) and the parameter's bound,
    /// when the argument is certainly not within the bound (both fully known).
    fn outside_bound(&self, id: u32, s: &HashMap<u32, Ty>) -> Option<(Ty, Ty)> {
        let bound = self.bounds.get(&id)?;
        let t = s.get(&id)?;
        if t.has_unknown() || bound.has_unknown() || mentions_var(t) || mentions_var(bound) {
            return None;
        }
        (sub(t, bound) == Tri::No).then(|| (t.clone(), bound.clone()))
    }

    /// Whether an imported module's function `name` may be the implicit argument of type
    /// `need` (a generic one taking as many parameters, or one whose type is not modelled,
    /// may; `Array.compare`, of three parameters, is never a `compare` of two).
    fn module_implicit_may_fit(&mut self, name: &str, need: &Ty) -> bool {
        if self.base_in_scope() {
            return true;
        }
        let arity = match need {
            Ty::Func(f) => Some(f.params.len()),
            _ => None,
        };
        for m in self.modules_in_scope() {
            if m.get(name).is_none() {
                continue;
            }
            match self.lib_member(m.name, name) {
                Some(Ty::Func(ft)) if ft.tparams.is_empty() => {
                    if sub(&Ty::Func(ft), need) != Tri::No {
                        return true;
                    }
                }
                Some(Ty::Func(ft)) if arity.is_some_and(|n| n != ft.params.len()) => {}
                _ => return true,
            }
        }
        false
    }

    /// The built-in module `r` names, if it names one.
    fn module_of(&self, r: &Expr) -> Option<&'static str> {
        match &r.kind {
            ExprKind::Var(n) => match self.lookup(n) {
                Some(Binding::Module(m)) => Some(m.name),
                // a `mo:base` module with base's own functions (`base/List`)
                Some(Binding::BaseModule(m)) if m.name.starts_with("base/") => Some(m.name),
                _ => None,
            },
            _ => None,
        }
    }

    /// A call of a generic function (`e`, of `f`) whose argument count fits no form of its
    /// parameters: moc's M0098 (M0233 for a contextual dot, `receiver`), unless the one
    /// argument may be a tuple of them.
    fn generic_arity(
        &mut self,
        e: &Expr,
        f: &Expr,
        args: &[Expr],
        ft: &FuncTy,
        receiver: bool,
    ) -> CheckResult<Ty> {
        let mut ts = Vec::with_capacity(args.len());
        for a in args {
            ts.push(self.infer(a)?);
        }
        let n = ft.params.len().saturating_sub(usize::from(receiver));
        let maybe_tuple = match ts.as_slice() {
            [t] => match normalize(t) {
                Ty::Tuple(xs) => xs.len() == n,
                Ty::Unknown | Ty::Con(..) | Ty::Var(..) | Ty::Non => true,
                _ => false,
            },
            _ => false,
        };
        let implicit = ft.implicits.iter().filter(|i| i.is_some()).count();
        // one (explicit) parameter takes any number of arguments as a tuple (`id ()`,
        // `id(1, 2)`)
        if (n == 1 && implicit == 0) || maybe_tuple || ts.iter().any(Ty::has_unknown) {
            return Ok(Ty::Unknown);
        }
        let got = Ty::tuple_or_single(ts);
        if receiver {
            return Err(TypeError::new(
                e.span,
                "M0233",
                format!(
                    "wrong number of arguments: expected {} but got {}",
                    n.saturating_sub(implicit),
                    args.len()
                ),
            ));
        }
        let _ = f;
        Err(TypeError::new(
            e.span,
            "M0098",
            format!(
                "cannot apply function of type\n  {}\nto argument of type\n  {got}",
                Ty::Func(Rc::new(ft.clone()))
            ),
        ))
    }

    /// A call whose argument count fits no form of the function's parameters.
    fn call_arity(
        &mut self,
        f: &Expr,
        args: &[Expr],
        ft: &FuncTy,
        concrete: bool,
    ) -> CheckResult<Ty> {
        let want = Ty::tuple_or_single(ft.params.clone());
        if concrete && args.len() == 1 {
            self.check(&args[0], &want)?;
            return Ok(ft.ret.clone());
        }
        if concrete {
            if let Ty::Tuple(ts) = normalize(&want) {
                if ts.len() == args.len() {
                    for (a, t) in args.iter().zip(ts.iter()) {
                        self.check(a, t)?;
                    }
                    return Ok(ft.ret.clone());
                }
            }
        }
        let mut ts = Vec::new();
        for a in args {
            ts.push(self.infer(a)?);
        }
        if concrete && !want.has_unknown() {
            let got = Ty::Tuple(Rc::from(ts));
            let _ = f;
            if sub(&got, &want) == Tri::No {
                let span = match (args.first(), args.last()) {
                    (Some(a), Some(b)) => a.span.to(b.span),
                    _ => f.span,
                };
                return Err(TypeError::cannot_produce(span, &got, &want));
            }
        }
        Ok(if concrete {
            ft.ret.clone()
        } else {
            Ty::Unknown
        })
    }
}

/// Which parameters of `ft` the `n` given arguments fill: all in order, or all but the
/// implicit ones (which may be omitted); `None` when neither fits.
fn slots(ft: &FuncTy, n: usize) -> Option<Vec<usize>> {
    let n_implicit = ft.implicits.iter().filter(|i| i.is_some()).count();
    if n == ft.params.len() {
        Some((0..n).collect())
    } else if n_implicit > 0 && n + n_implicit == ft.params.len() {
        Some(
            (0..ft.params.len())
                .filter(|i| ft.implicits.get(*i).is_none_or(Option::is_none))
                .collect(),
        )
    } else {
        None
    }
}

/// Whether a type parameter occurs in `t` (not looking into declarations).
/// Whether a value of type `t` may be a function (not certainly data).
fn may_be_function(t: &Ty) -> bool {
    !matches!(
        normalize(t),
        Ty::Prim(_) | Ty::Opt(_) | Ty::Tuple(_) | Ty::Array(..) | Ty::Obj(..) | Ty::Variant(_)
    )
}

fn mentions_var(t: &Ty) -> bool {
    let mut found = false;
    super::typedecs::vars(t, &mut Vec::new(), &mut |_, _| found = true, MATCH_DEPTH);
    found
}

/// Infers the type parameters `vars` from `actual` fitting `pattern` (see [`match_ty`]).
pub(super) fn match_top(pattern: &Ty, actual: &Ty, vars: &[u32], s: &mut HashMap<u32, Ty>) {
    match_ty(pattern, actual, vars, s, MATCH_DEPTH)
}

/// `t` with the call's type parameters replaced as inferred (`Unknown` where not).
pub(super) fn subst_known(t: &Ty, s: &HashMap<u32, Ty>, vars: &[u32]) -> Ty {
    let mut full = s.clone();
    for v in vars {
        full.entry(*v).or_insert(Ty::Unknown);
    }
    subst(t, &full)
}

/// Infers the call's type parameters `vars` from `actual` fitting `pattern`.
fn match_ty(pattern: &Ty, actual: &Ty, vars: &[u32], s: &mut HashMap<u32, Ty>, depth: usize) {
    if depth == 0 || !super::sub::spend() {
        return;
    }
    let d = depth - 1;
    match (pattern, actual) {
        // a part the checker does not know: so are the parameters it would have fixed
        (_, Ty::Unknown) => poison(pattern, vars, s, d),
        (Ty::Var(id, _), _) if vars.contains(id) => {
            let t = match s.get(id) {
                Some(old) => lub(old, actual),
                None => actual.clone(),
            };
            s.insert(*id, t);
        }
        (Ty::Con(c, xs), Ty::Con(e, ys)) if c.id == e.id && xs.len() == ys.len() => {
            for (x, y) in xs.iter().zip(ys.iter()) {
                match_ty(x, y, vars, s, d);
            }
        }
        (_, Ty::Con(..)) => {
            if let Some(u) = unfold(actual) {
                match_ty(pattern, &u, vars, s, d);
            }
        }
        (Ty::Con(..), _) => {
            if let Some(u) = unfold(pattern) {
                match_ty(&u, actual, vars, s, d);
            }
        }
        (Ty::Opt(x), Ty::Opt(y)) | (Ty::Array(_, x), Ty::Array(_, y)) => match_ty(x, y, vars, s, d),
        (Ty::Tuple(xs), Ty::Tuple(ys)) if xs.len() == ys.len() => {
            for (x, y) in xs.iter().zip(ys.iter()) {
                match_ty(x, y, vars, s, d);
            }
        }
        (Ty::Obj(_, xs), Ty::Obj(_, ys)) => {
            for f in xs.iter() {
                if let Some(g) = ys.iter().find(|g| g.name == f.name) {
                    match_ty(&f.ty, &g.ty, vars, s, d);
                }
            }
        }
        (Ty::Variant(xs), Ty::Variant(ys)) => {
            for (n, x) in xs.iter() {
                if let Some((_, y)) = ys.iter().find(|(m, _)| m == n) {
                    match_ty(x, y, vars, s, d);
                }
            }
        }
        (Ty::Func(f), Ty::Func(g)) if f.params.len() == g.params.len() => {
            // a parameter's type bounds a type parameter from above only: not a solution
            // (unless nothing else fixes it, see `call`)
            for (x, y) in f.params.iter().zip(&g.params) {
                if matches!(y, Ty::Unknown) {
                    poison(x, vars, s, d);
                }
            }
            match_ty(&f.ret, &g.ret, vars, s, d);
        }
        _ => {}
    }
}

/// Marks the type parameters that occur in `pattern` as not known.
fn poison(pattern: &Ty, vars: &[u32], s: &mut HashMap<u32, Ty>, depth: usize) {
    if depth == 0 || !super::sub::spend() {
        return;
    }
    let d = depth - 1;
    match pattern {
        Ty::Var(id, _) if vars.contains(id) => {
            s.insert(*id, Ty::Unknown);
        }
        Ty::Opt(x) | Ty::Array(_, x) => poison(x, vars, s, d),
        Ty::Tuple(xs) | Ty::Con(_, xs) => xs.iter().for_each(|x| poison(x, vars, s, d)),
        Ty::Obj(_, fs) => fs.iter().for_each(|f| poison(&f.ty, vars, s, d)),
        Ty::Variant(ts) => ts.iter().for_each(|(_, x)| poison(x, vars, s, d)),
        Ty::Func(f) => {
            f.params.iter().for_each(|x| poison(x, vars, s, d));
            poison(&f.ret, vars, s, d);
        }
        _ => {}
    }
}
