//! Subtyping (three-valued: a question the checker cannot answer is `Maybe`, never a
//! rejection), substitution of type parameters, unfolding of declared types, and the
//! least upper bound.

#[cfg(test)]
use super::types::Con;
use super::types::{Field, FuncTy, ObjSort, Prim, Ty};
use std::collections::HashMap;
use std::rc::Rc;

/// How many declared types subtyping unfolds on one path before answering `Maybe`.
pub const DEPTH: usize = 48;

thread_local! {
    /// The checker's work budget, shared by the checker and the type operations here
    /// (unfolding recursive types branches: without a budget a hostile declaration could
    /// make one comparison exponential). Exhausted, subtyping answers `Maybe`, the least
    /// upper bound is `Unknown`, and the checker stops with an error at its next step.
    static FUEL: std::cell::Cell<u64> = const { std::cell::Cell::new(u64::MAX) };
}

thread_local! {
    /// The pairs of types subtyping is comparing on the current path, with a declared type
    /// on one side: met again, they are taken as related (subtyping of recursive types is
    /// co-inductive), so that a recursive type is compared in time linear in its size.
    static ASSUMED: std::cell::RefCell<Vec<(Ty, Ty)>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// Sets the work budget (see [`spend`]).
pub fn set_fuel(n: u64) {
    FUEL.with(|f| f.set(n));
}

/// Spends one unit of the work budget; false when it is gone.
pub fn spend() -> bool {
    FUEL.with(|f| {
        let v = f.get();
        if v == 0 {
            false
        } else {
            f.set(v - 1);
            true
        }
    })
}

/// A subtyping answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tri {
    /// Certainly a subtype.
    Yes,
    /// Not known (an `Unknown` part, or too deep).
    Maybe,
    /// Certainly not.
    No,
}

impl Tri {
    fn and(self, other: impl FnOnce() -> Tri) -> Tri {
        match self {
            Tri::No => Tri::No,
            s => match other() {
                Tri::No => Tri::No,
                Tri::Maybe => Tri::Maybe,
                Tri::Yes => s,
            },
        }
    }

    fn all(it: impl IntoIterator<Item = Tri>) -> Tri {
        let mut r = Tri::Yes;
        for t in it {
            match t {
                Tri::No => return Tri::No,
                Tri::Maybe => r = Tri::Maybe,
                Tri::Yes => {}
            }
        }
        r
    }

    fn of(b: bool) -> Tri {
        if b {
            Tri::Yes
        } else {
            Tri::No
        }
    }
}

/// Replaces type parameters by the types `s` maps them to.
pub fn subst(t: &Ty, s: &HashMap<u32, Ty>) -> Ty {
    if s.is_empty() {
        return t.clone();
    }
    match t {
        Ty::Var(id, _) => s.get(id).cloned().unwrap_or_else(|| t.clone()),
        Ty::Unknown | Ty::Any | Ty::Non | Ty::Prim(_) => t.clone(),
        Ty::Opt(a) => Ty::Opt(Rc::new(subst(a, s))),
        Ty::Array(m, a) => Ty::Array(*m, Rc::new(subst(a, s))),
        Ty::Tuple(ts) => Ty::Tuple(ts.iter().map(|x| subst(x, s)).collect()),
        Ty::Obj(sort, fs) => Ty::Obj(
            *sort,
            fs.iter()
                .map(|f| Field {
                    name: f.name.clone(),
                    mutable: f.mutable,
                    ty: subst(&f.ty, s),
                })
                .collect(),
        ),
        Ty::Variant(ts) => Ty::Variant(ts.iter().map(|(n, x)| (n.clone(), subst(x, s))).collect()),
        Ty::Func(f) => Ty::Func(Rc::new(FuncTy {
            tparams: f.tparams.clone(),
            params: f.params.iter().map(|x| subst(x, s)).collect(),
            implicits: f.implicits.clone(),
            self_param: f.self_param,
            ret: subst(&f.ret, s),
        })),
        Ty::Con(c, args) => Ty::Con(c.clone(), args.iter().map(|x| subst(x, s)).collect()),
    }
}

/// A declared type's body with its arguments in place (one level); `None` for anything
/// else (and for abstract library types).
pub fn unfold(t: &Ty) -> Option<Ty> {
    let Ty::Con(c, args) = t else { return None };
    let body = c.body()?;
    let s: HashMap<u32, Ty> = c.params.iter().copied().zip(args.iter().cloned()).collect();
    Some(subst(&body, &s))
}

/// `t` with declared types unfolded at the top until it is not one (bounded).
pub fn normalize(t: &Ty) -> Ty {
    let mut t = t.clone();
    for _ in 0..DEPTH {
        match unfold(&t) {
            Some(u) => t = u,
            None => return t,
        }
    }
    Ty::Unknown
}

/// Is `a` a subtype of `b`?
pub fn sub(a: &Ty, b: &Ty) -> Tri {
    sub_d(a, b, DEPTH)
}

fn sub_d(a: &Ty, b: &Ty, depth: usize) -> Tri {
    if depth == 0 || !spend() {
        return Tri::Maybe;
    }
    let d = depth - 1;
    match (a, b) {
        (Ty::Unknown, _) | (_, Ty::Unknown) => Tri::Maybe,
        (_, Ty::Any) | (Ty::Non, _) => Tri::Yes,
        (Ty::Con(c, x), Ty::Con(e, y)) if c.id == e.id && c.name == e.name && x == y => Tri::Yes,
        (Ty::Con(..), _) | (_, Ty::Con(..)) => {
            let assumed = ASSUMED.with(|s| s.borrow().iter().any(|(x, y)| x == a && y == b));
            if assumed {
                return Tri::Yes;
            }
            ASSUMED.with(|s| s.borrow_mut().push((a.clone(), b.clone())));
            let r = match (unfold(a), matches!(a, Ty::Con(..))) {
                (Some(u), _) => sub_d(&u, b, d),
                // a declaration whose body is not known (yet): undecided
                (None, _) => match unfold(b) {
                    Some(v) => sub_d(a, &v, d),
                    None => Tri::Maybe,
                },
            };
            ASSUMED.with(|s| s.borrow_mut().pop());
            r
        }
        (Ty::Prim(p), Ty::Prim(q)) => Tri::of(p == q || (*p == Prim::Nat && *q == Prim::Int)),
        (Ty::Prim(Prim::Null), Ty::Opt(_)) => Tri::Yes,
        (Ty::Opt(x), Ty::Opt(y)) => sub_d(x, y, d),
        (Ty::Tuple(xs), Ty::Tuple(ys)) => {
            if xs.len() != ys.len() {
                return Tri::No;
            }
            Tri::all(xs.iter().zip(ys.iter()).map(|(x, y)| sub_d(x, y, d)))
        }
        (Ty::Array(m, x), Ty::Array(n, y)) => {
            if m != n {
                Tri::No
            } else if *m {
                sub_d(x, y, d).and(|| sub_d(y, x, d))
            } else {
                sub_d(x, y, d)
            }
        }
        (Ty::Obj(s, xs), Ty::Obj(t, ys)) => {
            if s != t && (*s == ObjSort::Module || *t == ObjSort::Module) {
                // modules are built in: their types are not fully modelled
                return Tri::Maybe;
            }
            Tri::all(
                ys.iter()
                    .map(|g| match xs.iter().find(|f| f.name == g.name) {
                        None => Tri::No,
                        Some(f) if f.mutable != g.mutable => Tri::No,
                        Some(f) if f.mutable => {
                            sub_d(&f.ty, &g.ty, d).and(|| sub_d(&g.ty, &f.ty, d))
                        }
                        Some(f) => sub_d(&f.ty, &g.ty, d),
                    }),
            )
        }
        (Ty::Variant(xs), Ty::Variant(ys)) => {
            Tri::all(
                xs.iter()
                    .map(|(n, x)| match ys.iter().find(|(m, _)| m == n) {
                        None => Tri::No,
                        Some((_, y)) => sub_d(x, y, d),
                    }),
            )
        }
        (Ty::Func(f), Ty::Func(g)) => sub_func(f, g, d),
        (Ty::Var(x, _), Ty::Var(y, _)) => Tri::of(x == y),
        _ => Tri::No,
    }
}

fn sub_func(f: &FuncTy, g: &FuncTy, d: usize) -> Tri {
    if f.tparams.len() != g.tparams.len() {
        return Tri::No;
    }
    // rename g's parameters to f's
    let s: HashMap<u32, Ty> = g
        .tparams
        .iter()
        .zip(&f.tparams)
        .map(|((gi, _), (fi, fname))| (*gi, Ty::Var(*fi, fname.clone())))
        .collect();
    let gp: Vec<Ty> = g.params.iter().map(|t| subst(t, &s)).collect();
    let gr = subst(&g.ret, &s);
    let params = if f.params.len() == gp.len() {
        Tri::all(gp.iter().zip(&f.params).map(|(x, y)| sub_d(x, y, d)))
    } else {
        // `(A, B) -> C` and `((A, B)) -> C` differ in moc, but not reliably here
        Tri::Maybe
    };
    params.and(|| sub_d(&f.ret, &gr, d))
}

/// The least upper bound of two types (`Unknown` where the checker cannot tell).
pub fn lub(a: &Ty, b: &Ty) -> Ty {
    lub_d(a, b, DEPTH)
}

fn lub_d(a: &Ty, b: &Ty, depth: usize) -> Ty {
    if depth == 0 || !spend() {
        return Ty::Unknown;
    }
    let d = depth - 1;
    match (a, b) {
        (Ty::Unknown, _) | (_, Ty::Unknown) => Ty::Unknown,
        _ if sub_d(a, b, d) == Tri::Yes => b.clone(),
        _ if sub_d(b, a, d) == Tri::Yes => a.clone(),
        (Ty::Con(..), _) | (_, Ty::Con(..)) => {
            let (x, y) = (normalize(a), normalize(b));
            if matches!(x, Ty::Con(..)) || matches!(y, Ty::Con(..)) {
                return if sub_d(a, b, d) == Tri::Maybe || sub_d(b, a, d) == Tri::Maybe {
                    Ty::Unknown
                } else {
                    Ty::Any
                };
            }
            lub_d(&x, &y, d)
        }
        (Ty::Prim(Prim::Null), Ty::Opt(_)) => b.clone(),
        (Ty::Opt(_), Ty::Prim(Prim::Null)) => a.clone(),
        (Ty::Opt(x), Ty::Opt(y)) => Ty::Opt(Rc::new(lub_d(x, y, d))),
        (Ty::Tuple(xs), Ty::Tuple(ys)) if xs.len() == ys.len() => Ty::Tuple(
            xs.iter()
                .zip(ys.iter())
                .map(|(x, y)| lub_d(x, y, d))
                .collect(),
        ),
        (Ty::Array(false, x), Ty::Array(false, y)) => Ty::Array(false, Rc::new(lub_d(x, y, d))),
        (Ty::Obj(s, xs), Ty::Obj(t, ys)) if s == t => {
            let mut fs = Vec::new();
            for f in xs.iter() {
                if let Some(g) = ys.iter().find(|g| g.name == f.name) {
                    if f.mutable || g.mutable {
                        if f.mutable && g.mutable && f.ty == g.ty {
                            fs.push(f.clone());
                        } else if f.ty.has_unknown() || g.ty.has_unknown() {
                            return Ty::Unknown;
                        }
                        continue;
                    }
                    fs.push(Field {
                        name: f.name.clone(),
                        mutable: false,
                        ty: lub_d(&f.ty, &g.ty, d),
                    });
                }
            }
            Ty::Obj(*s, Rc::from(fs))
        }
        (Ty::Variant(xs), Ty::Variant(ys)) => {
            let mut tags: Vec<(Rc<str>, Ty)> = Vec::new();
            for (n, x) in xs.iter() {
                match ys.iter().find(|(m, _)| m == n) {
                    Some((_, y)) => tags.push((n.clone(), lub_d(x, y, d))),
                    None => tags.push((n.clone(), x.clone())),
                }
            }
            for (n, y) in ys.iter() {
                if !xs.iter().any(|(m, _)| m == n) {
                    tags.push((n.clone(), y.clone()));
                }
            }
            Ty::variant(tags)
        }
        (Ty::Func(_), _) | (_, Ty::Func(_)) | (Ty::Obj(..), Ty::Obj(..)) => Ty::Unknown,
        _ => Ty::Any,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rec(fields: &[(&str, bool, Ty)]) -> Ty {
        Ty::record(
            fields
                .iter()
                .map(|(n, m, t)| Field {
                    name: Rc::from(*n),
                    mutable: *m,
                    ty: t.clone(),
                })
                .collect(),
        )
    }

    fn func(params: Vec<Ty>, ret: Ty) -> Ty {
        Ty::Func(Rc::new(FuncTy {
            tparams: Vec::new(),
            params,
            implicits: Vec::new(),
            self_param: false,
            ret,
        }))
    }

    #[test]
    fn moc_subtyping_rules() {
        let (nat, int, text) = (Ty::nat(), Ty::Prim(Prim::Int), Ty::text());
        assert_eq!(sub(&nat, &int), Tri::Yes);
        assert_eq!(sub(&int, &nat), Tri::No);
        // records: width and depth
        let wide = rec(&[("x", false, nat.clone()), ("y", false, text.clone())]);
        let narrow = rec(&[("x", false, int.clone())]);
        assert_eq!(sub(&wide, &narrow), Tri::Yes);
        assert_eq!(sub(&narrow, &wide), Tri::No);
        // mutable fields and arrays are invariant
        let mx = rec(&[("x", true, nat.clone())]);
        assert_eq!(sub(&mx, &rec(&[("x", true, int.clone())])), Tri::No);
        let arr = |m, t: &Ty| Ty::Array(m, Rc::new(t.clone()));
        assert_eq!(sub(&arr(false, &nat), &arr(false, &int)), Tri::Yes);
        assert_eq!(sub(&arr(true, &nat), &arr(true, &int)), Tri::No);
        // options, null, variants
        let opt = Ty::Opt(Rc::new(nat.clone()));
        assert_eq!(sub(&Ty::Prim(Prim::Null), &opt), Tri::Yes);
        let a = Ty::variant(vec![(Rc::from("a"), Ty::unit())]);
        let ab = Ty::variant(vec![
            (Rc::from("a"), Ty::unit()),
            (Rc::from("b"), nat.clone()),
        ]);
        assert_eq!(sub(&a, &ab), Tri::Yes);
        assert_eq!(sub(&ab, &a), Tri::No);
        // functions: parameters contravariant, results covariant
        assert_eq!(
            sub(
                &func(vec![int.clone()], nat.clone()),
                &func(vec![nat.clone()], int.clone())
            ),
            Tri::Yes
        );
        assert_eq!(
            sub(
                &func(vec![nat.clone()], nat.clone()),
                &func(vec![int.clone()], nat.clone())
            ),
            Tri::No
        );
        // unknown parts are never a reason to reject
        assert_eq!(sub(&Ty::Unknown, &nat), Tri::Maybe);
        assert_eq!(sub(&rec(&[("x", false, Ty::Unknown)]), &narrow), Tri::Maybe);
        // least upper bounds
        assert_eq!(lub(&nat, &int), int);
        assert_eq!(
            lub(
                &wide,
                &rec(&[("x", false, nat.clone()), ("z", false, nat.clone())])
            ),
            rec(&[("x", false, nat.clone())])
        );
        assert_eq!(lub(&Ty::Prim(Prim::Null), &opt), opt);
    }

    #[test]
    fn recursive_declarations_compare_in_linear_time() {
        // type T = {#leaf; #node : (T, T, T)} and a copy U: T <: U without unfolding 3^48
        let mk = |id: u32, name: &str| {
            let c = Rc::new(Con {
                name: Rc::from(name),
                params: Vec::new(),
                body: std::cell::RefCell::new(None),
                library: None,
                id,
            });
            let t = Ty::Con(c.clone(), Rc::from(Vec::new()));
            let node = Ty::Tuple(Rc::from(vec![t.clone(), t.clone(), t.clone()]));
            *c.body.borrow_mut() = Some(Ty::variant(vec![
                (Rc::from("leaf"), Ty::unit()),
                (Rc::from("node"), node),
            ]));
            (c, t)
        };
        let (ct, t) = mk(1, "T");
        let (cu, u) = mk(2, "U");
        set_fuel(100_000);
        assert_eq!(sub(&t, &u), Tri::Yes);
        assert!(FUEL.with(|f| f.get()) > 99_000, "linear, not exponential");
        set_fuel(u64::MAX);
        ct.release();
        cu.release();
    }
}
