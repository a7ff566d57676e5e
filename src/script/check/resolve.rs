//! Contextual dot and implicit arguments resolved by static type, as moc resolves them:
//! `x.f(..)` finds the function `f` whose first parameter is named `self` and accepts `x`'s
//! type (a function `f` in scope first, then the modules in scope, imported or declared by
//! the script; among several, the one whose `self` type is the most specific), and an
//! omitted implicit argument `name` is the value `name` in scope if its type fits, else the
//! field `name` of a module in scope whose type fits (among several, the one of the most
//! general type). The compiler reads the choices from [`super::env::Typing`].

use super::env::{ArgFrom, Binding, CheckResult, Resolved, Typing};
use super::error::TypeError;
use super::sub::{normalize, sub, Tri};
use super::types::{FuncTy, ObjSort, Ty};
use super::Checker;
use crate::script::syntax::ast::Expr;
use crate::script::syntax::Span;
use std::collections::HashMap;
use std::rc::Rc;

/// A candidate function: where it is found, its type, and the type it is chosen by.
struct Candidate {
    at: Resolved,
    func: Ty,
    by: Ty,
    /// How moc names it in a message (`M.f`, or the module name).
    desc: String,
}

/// The outcome of a search.
enum Found {
    /// One candidate.
    One(Candidate),
    /// None fits.
    Nothing,
    /// Several fit and none is the best (moc rejects the program).
    Ambiguous(Vec<Candidate>),
    /// A type is not known well enough to decide (left to evaluation).
    Unsure,
}

impl Checker<'_> {
    /// The modules in scope (imported, or values of a module type), each name once (the
    /// innermost binding), sorted by name (the order moc lists them in).
    fn modules_by_name(&self) -> Vec<(String, Binding)> {
        let mut all: HashMap<&String, &Binding> = HashMap::new();
        for (n, b) in &self.globals.scope.vals {
            all.insert(n, b);
        }
        for s in &self.scopes {
            for (n, b) in &s.vals {
                all.insert(n, b);
            }
        }
        let mut v: Vec<(String, Binding)> = all
            .into_iter()
            .filter(|(_, b)| match b {
                Binding::Module(_) | Binding::BaseModule(_) => true,
                Binding::Val(t, _) => may_be_module(t),
            })
            .map(|(n, b)| (n.clone(), b.clone()))
            .collect();
        v.sort_by(|a, b| a.0.cmp(&b.0));
        v
    }

    /// The type of field `name` of each module in scope that has one: `(module name, type)`;
    /// `None` (unsure) when a module whose types are not modelled has a member `name`.
    fn module_fields(&mut self, name: &str) -> Option<Vec<(String, Ty)>> {
        let mut out = Vec::new();
        for (n, b) in self.modules_by_name() {
            match b {
                Binding::Module(m) => {
                    if let Some(t) = self.lib_member(m.name, name) {
                        out.push((n, t));
                    } else if m.get(name).is_some() {
                        return None;
                    }
                }
                Binding::BaseModule(m) => {
                    if m.get(name).is_some() {
                        return None;
                    }
                }
                Binding::Val(t, _) => {
                    if let Ty::Obj(ObjSort::Module, fs) = normalize(&t) {
                        if let Some(f) = fs.iter().find(|f| &*f.name == name) {
                            out.push((n, f.ty.clone()));
                        }
                    }
                }
            }
        }
        Some(out)
    }

    /// The `self` type `f` takes a receiver of type `rt` at: `Yes` with the instantiated
    /// type when it accepts it.
    fn self_fit(&mut self, f: &Ty, rt: &Ty) -> (Tri, Ty) {
        let Ty::Func(ft) = normalize(f) else {
            return (Tri::No, Ty::Unknown);
        };
        if !ft.self_param {
            return (Tri::No, Ty::Unknown);
        }
        let Some(p0) = ft.params.first() else {
            return (Tri::No, Ty::Unknown);
        };
        let ids: Vec<u32> = ft.tparams.iter().map(|(i, _)| *i).collect();
        let mut s = HashMap::new();
        super::call::match_top(p0, rt, &ids, &mut s);
        let p = super::call::subst_known(p0, &s, &ids);
        let fit = sub(rt, &p);
        if fit == Tri::Yes && p.has_unknown() {
            return (Tri::Maybe, p);
        }
        (fit, p)
    }

    /// `x.name(..)` where `x` (of type `rt`) has no field `name`: moc's contextual dot.
    /// Records the choice for the compiler and returns the function's type (`Unknown`
    /// where the choice is left to evaluation).
    pub(super) fn contextual_dot(
        &mut self,
        call: &Expr,
        rt: &Ty,
        name: &str,
        at: Span,
    ) -> CheckResult<Ty> {
        if rt.has_unknown() {
            return Ok(Ty::Unknown);
        }
        match self.dot_candidates(rt, name) {
            Found::One(c) => {
                self.typing.dot_calls.insert(Typing::key(call), c.at);
                Ok(c.func)
            }
            Found::Ambiguous(cs) => {
                let names: Vec<String> = cs.into_iter().map(|c| c.desc).collect();
                // moc points at the name after the dot
                let mut at = at;
                at.start = at.end;
                at.start.col = at.end.col.saturating_sub(name.len() as u32);
                Err(TypeError::new(
                    at,
                    "M0224",
                    format!(
                        "overlapping resolution for `{name}` in scope from these modules: {}",
                        names.join(", ")
                    ),
                ))
            }
            Found::Nothing | Found::Unsure => Ok(Ty::Unknown),
        }
    }

    fn dot_candidates(&mut self, rt: &Ty, name: &str) -> Found {
        if let Some(Binding::Val(t, _)) = self.lookup(name) {
            match self.self_fit(&t, rt) {
                (Tri::Yes, _) => {
                    return Found::One(Candidate {
                        at: Resolved::Var(Rc::from(name)),
                        func: t,
                        by: Ty::Unknown,
                        desc: name.to_string(),
                    })
                }
                (Tri::Maybe, _) => return Found::Unsure,
                (Tri::No, _) => {}
            }
        }
        let Some(fields) = self.module_fields(name) else {
            return Found::Unsure;
        };
        let mut cs = Vec::new();
        for (m, t) in fields {
            match self.self_fit(&t, rt) {
                (Tri::Yes, by) => cs.push(Candidate {
                    at: Resolved::Field(Rc::from(m.as_str()), Rc::from(name)),
                    func: t,
                    by,
                    desc: m,
                }),
                (Tri::Maybe, _) => return Found::Unsure,
                (Tri::No, _) => {}
            }
        }
        // the most specific `self` type wins
        best(cs, |a, b| sub(&a.by, &b.by))
    }

    /// An omitted implicit argument `name` of type `need`.
    fn implicit_candidates(&mut self, name: &str, need: &Ty) -> Found {
        if need.has_unknown() {
            return Found::Unsure;
        }
        if let Some(Binding::Val(t, _)) = self.lookup(name) {
            match sub(&t, need) {
                Tri::Yes => {
                    return Found::One(Candidate {
                        at: Resolved::Var(Rc::from(name)),
                        func: t,
                        by: Ty::Unknown,
                        desc: format!("`{name}`"),
                    })
                }
                Tri::Maybe => return Found::Unsure,
                Tri::No => {}
            }
        }
        let Some(fields) = self.module_fields(name) else {
            return Found::Unsure;
        };
        let mut cs = Vec::new();
        for (m, t) in fields {
            match sub(&t, need) {
                Tri::Yes => cs.push(Candidate {
                    at: Resolved::Field(Rc::from(m.as_str()), Rc::from(name)),
                    func: t.clone(),
                    by: t,
                    desc: format!("`{m}.{name}`"),
                }),
                Tri::Maybe => return Found::Unsure,
                Tri::No => {}
            }
        }
        // the most general type wins
        best(cs, |a, b| sub(&b.by, &a.by))
    }

    /// Resolves the omitted implicit arguments of the call `call` of `ft` (`slots`: the
    /// parameters the given arguments fill; `need`: a parameter's type as instantiated)
    /// and records where each argument comes from when all are found. Returns the names
    /// found (an implicit found in a module needs no script value of its name).
    pub(super) fn resolve_implicits(
        &mut self,
        call: &Expr,
        ft: &FuncTy,
        slots: &[usize],
        need: &dyn Fn(usize) -> Ty,
    ) -> CheckResult<Vec<Rc<str>>> {
        let mut layout = Vec::with_capacity(ft.params.len());
        let mut found = Vec::new();
        let mut complete = true;
        for i in 0..ft.params.len() {
            if slots.contains(&i) {
                layout.push(ArgFrom::Given);
                continue;
            }
            let Some(Some(name)) = ft.implicits.get(i) else {
                complete = false;
                continue;
            };
            let t = need(i);
            match self.implicit_candidates(name, &t) {
                Found::One(c) => {
                    found.push(name.clone());
                    layout.push(ArgFrom::Found(c.at));
                }
                Found::Ambiguous(cs) => {
                    let names: Vec<String> = cs.into_iter().map(|c| c.desc).collect();
                    return Err(TypeError::new(
                        call.span,
                        "M0231",
                        format!(
                            "ambiguous implicit argument named `{name}` of type\n  {t}.\nThe \
                             ambiguous implicit candidates are: {}.",
                            names.join(", ")
                        ),
                    ));
                }
                Found::Nothing | Found::Unsure => complete = false,
            }
        }
        if complete {
            self.typing.call_args.insert(Typing::key(call), layout);
        }
        Ok(found)
    }
}

/// Whether a value of type `t` may be a module (a cheap test before normalizing).
fn may_be_module(t: &Ty) -> bool {
    matches!(t, Ty::Obj(ObjSort::Module, _) | Ty::Con(..))
}

/// moc's choice among candidates (its `disambiguate_resolutions`): `above(a, b)` says `a`
/// is at least as good as `b`; a candidate better than another removes it. One left: it;
/// several: ambiguous.
fn best(cs: Vec<Candidate>, above: impl Fn(&Candidate, &Candidate) -> Tri) -> Found {
    let mut frontier: Vec<Candidate> = Vec::new();
    for c in cs {
        let mut next = Vec::with_capacity(frontier.len() + 1);
        let mut rest = frontier.into_iter();
        let mut keep_c = true;
        while let Some(f) = rest.next() {
            let f_wins = above(&f, &c);
            let c_wins = above(&c, &f);
            if f_wins == Tri::Maybe || c_wins == Tri::Maybe {
                return Found::Unsure;
            }
            match (f_wins == Tri::Yes, c_wins == Tri::Yes) {
                // `f` absorbs `c`: the rest stays as it is
                (true, false) => {
                    next.push(f);
                    next.extend(rest.by_ref());
                    keep_c = false;
                }
                // `c` absorbs `f`
                (false, true) => {}
                _ => next.push(f),
            }
        }
        if keep_c {
            next.push(c);
        }
        frontier = next;
    }
    match frontier.len() {
        0 => Found::Nothing,
        1 => Found::One(frontier.remove(0)),
        _ => Found::Ambiguous(frontier),
    }
}
