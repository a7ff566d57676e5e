//! The types of the built-in library: `mo:core` functions from the generated signatures
//! (`scripts/gen-core-signatures`), parsed with the script's type parser; the library's
//! named types (`Order`, `Iter<T>`, `Result<T, E>` structurally, collections abstractly).

use super::sub::subst;
use super::types::{Con, Field, FuncTy, ObjSort, Prim, Ty};
use super::Checker;
use crate::script::lib::dot;
use crate::script::lib::signature_types::{CORE_TYPES, CORE_TYPE_NAMES};
use crate::script::syntax::ast::Type;
use crate::script::syntax::parse_type;
use std::collections::HashMap;
use std::rc::Rc;

/// The id of `Order` (declared types count up from 1).
const ORDER_ID: u32 = u32::MAX;

/// `Order`: `{#less; #equal; #greater}`, named as moc names it in messages.
pub fn order() -> Ty {
    let body = Ty::variant(vec![
        (Rc::from("less"), Ty::unit()),
        (Rc::from("equal"), Ty::unit()),
        (Rc::from("greater"), Ty::unit()),
    ]);
    Ty::Con(
        Rc::new(Con {
            name: Rc::from("Order"),
            params: Vec::new(),
            body: std::cell::RefCell::new(Some(body)),
            opaque: false,
            id: ORDER_ID,
        }),
        Rc::from(Vec::new()),
    )
}

/// `Iter<T>`: `{next : () -> ?T}`.
pub fn iter(t: Ty) -> Ty {
    Ty::Obj(
        ObjSort::Object,
        Rc::from(vec![Field {
            name: Rc::from("next"),
            mutable: false,
            ty: Ty::Func(Rc::new(FuncTy {
                tparams: Vec::new(),
                params: Vec::new(),
                implicits: Vec::new(),
                self_param: false,
                ret: Ty::Opt(Rc::new(t)),
            })),
        }]),
    )
}

/// The library's abstract collection types, by qualifier-free name and the module they
/// belong to (`pure/` ones have their own).
const ABSTRACT: &[&str] = &["Map", "Set", "List", "Queue", "Stack", "PriorityQueue"];

/// A type named `module.name` with arguments (`Map.Map<K, V>`, `Order.Order`);
/// `None` when not modelled.
pub fn named(module: &str, name: &str, mut args: Vec<Ty>) -> Option<Ty> {
    let pure = module.starts_with("pure/");
    lib_named(name, pure, &mut args)
}

/// Whether the core module `module` declares a type `name` (`None`: not known).
pub fn declares_type(module: &str, name: &str) -> Option<bool> {
    let (_, names) = CORE_TYPE_NAMES.iter().find(|(m, _)| *m == module)?;
    Some(names.contains(&name))
}

fn lib_named(name: &str, pure: bool, args: &mut Vec<Ty>) -> Option<Ty> {
    Some(match (name, args.len()) {
        ("Order", 0) => order(),
        ("Iter", 1) => iter(args.remove(0)),
        ("Result", 2) => {
            let e = args.remove(1);
            let t = args.remove(0);
            Ty::variant(vec![(Rc::from("ok"), t), (Rc::from("err"), e)])
        }
        (n, _) if ABSTRACT.contains(&n) => {
            let full = if pure {
                format!("pure/{n}")
            } else {
                n.to_string()
            };
            abstract_con(&full, std::mem::take(args))
        }
        _ => return None,
    })
}

/// An abstract library type (compared by name, its arguments invariant); `pure/` ones are
/// named `Pure.X`, apart from the imperative `X`.
fn abstract_con(name: &str, args: Vec<Ty>) -> Ty {
    let shown = match name.strip_prefix("pure/") {
        Some(n) => format!("Pure.{n}"),
        None => name.to_string(),
    };
    Ty::Con(
        Rc::new(Con {
            name: Rc::from(shown),
            params: Vec::new(),
            body: std::cell::RefCell::new(None),
            opaque: true,
            id: 0,
        }),
        Rc::from(args),
    )
}

/// Cache of parsed library function types, per checker.
#[derive(Default)]
pub struct LibCache {
    funcs: HashMap<(&'static str, String), Option<Ty>>,
}

impl Checker<'_> {
    /// The type of `module.name` (a function of core), fresh type parameters each checker;
    /// `None` when not modelled.
    pub(super) fn lib_member(&mut self, module: &'static str, name: &str) -> Option<Ty> {
        let key = (module, name.to_string());
        if let Some(t) = self.lib.funcs.get(&key) {
            return t.clone();
        }
        let t = self.lib_member_new(module, name);
        self.lib.funcs.insert(key, t.clone());
        t
    }

    fn lib_member_new(&mut self, module: &'static str, name: &str) -> Option<Ty> {
        let (_, rows) = CORE_TYPES.iter().find(|(m, _)| *m == module)?;
        let i = rows.binary_search_by(|r| r.0.cmp(name)).ok()?;
        let (_, tparams, text) = rows[i];
        let parsed = parse_type(text).ok()?;
        let Type::Func(a, r) = parsed else {
            return None;
        };
        let tps: Vec<(u32, Rc<str>)> = tparams
            .split(',')
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(|n| (self.fresh(), Rc::from(n)))
            .collect();
        let pure = module.starts_with("pure/");
        let conv = |t: &Type| lib_ty(t, &tps, pure, 0);
        let params: Vec<Ty> = match &*a {
            Type::Tuple(ts) => ts.iter().map(conv).collect(),
            t => vec![conv(t)],
        };
        let ret = conv(&r);
        let implicits = match dot::signature(module, name) {
            Some(sig) if sig.params.len() == params.len() => {
                let mut looks = sig.implicits.iter();
                sig.params
                    .bytes()
                    .map(|k| {
                        if k == b'i' {
                            looks.next().map(|l| Rc::from(*l))
                        } else {
                            None
                        }
                    })
                    .collect()
            }
            Some(_) => return None,
            None => Vec::new(),
        };
        Some(Ty::Func(Rc::new(FuncTy {
            tparams: tps,
            params,
            implicits,
            self_param: dot::signature(module, name).is_some_and(|s| s.params.starts_with('s')),
            ret,
        })))
    }

    /// The type of a library function `f` with fresh type parameters for one use.
    pub(super) fn instantiate_fresh(&mut self, f: &FuncTy) -> (FuncTy, Vec<Ty>) {
        let mut s = HashMap::new();
        let mut vars = Vec::new();
        let mut tparams = Vec::new();
        for (id, n) in &f.tparams {
            let fresh = self.fresh();
            let v = Ty::Var(fresh, n.clone());
            s.insert(*id, v.clone());
            vars.push(v);
            tparams.push((fresh, n.clone()));
        }
        // the bounds of the fresh parameters (script functions' parameters have them)
        for ((old, _), (fresh, _)) in f.tparams.iter().zip(&tparams) {
            if let Some(b) = self.bounds.get(old).cloned() {
                let b = subst(&b, &s);
                self.bounds.insert(*fresh, b);
            }
        }
        let ft = FuncTy {
            tparams,
            params: f.params.iter().map(|t| subst(t, &s)).collect(),
            implicits: f.implicits.clone(),
            self_param: f.self_param,
            ret: subst(&f.ret, &s),
        };
        (ft, vars)
    }
}

/// How deep a library type nests before it is `Unknown` (the texts are short).
const LIB_DEPTH: usize = 32;

/// A library type text's type; names not modelled are `Unknown`.
fn lib_ty(t: &Type, tps: &[(u32, Rc<str>)], pure: bool, depth: usize) -> Ty {
    if depth > LIB_DEPTH {
        return Ty::Unknown;
    }
    let d = depth + 1;
    let go = |t: &Type| lib_ty(t, tps, pure, d);
    match t {
        Type::Path(path, args) => {
            let mut targs: Vec<Ty> = args.iter().map(go).collect();
            let last = path.last().map(String::as_str).unwrap_or("");
            if path.len() == 1 && targs.is_empty() {
                if let Some((id, n)) = tps.iter().find(|(_, n)| **n == *last) {
                    return Ty::Var(*id, n.clone());
                }
                if let Some(p) = Prim::by_name(last) {
                    return Ty::Prim(p);
                }
                match last {
                    "Any" => return Ty::Any,
                    "None" => return Ty::Non,
                    _ => {}
                }
            }
            let qual = if path.len() > 1 {
                path[path.len() - 2].as_str()
            } else {
                ""
            };
            let is_pure = qual.starts_with("Pure") || qual == "Pure" || (path.len() == 1 && pure);
            lib_named(last, is_pure, &mut targs).unwrap_or(Ty::Unknown)
        }
        Type::Tuple(ts) => Ty::Tuple(ts.iter().map(go).collect()),
        Type::Opt(x) => Ty::Opt(Rc::new(go(x))),
        Type::Array(m, x) => Ty::Array(*m, Rc::new(go(x))),
        Type::Record(fs) => Ty::record(
            fs.iter()
                .map(|(n, m, x)| Field {
                    name: Rc::from(n.as_str()),
                    mutable: *m,
                    ty: go(x),
                })
                .collect(),
        ),
        Type::Variant(tags) => Ty::variant(
            tags.iter()
                .map(|(n, x)| (Rc::from(n.as_str()), go(x)))
                .collect(),
        ),
        Type::Func(a, r) => {
            let params = match &**a {
                Type::Tuple(ts) => ts.iter().map(go).collect(),
                t => vec![go(t)],
            };
            Ty::Func(Rc::new(FuncTy {
                tparams: Vec::new(),
                params,
                implicits: Vec::new(),
                self_param: false,
                ret: go(r),
            }))
        }
        Type::Combined(..) => Ty::Unknown,
        Type::Implicit(_, t) => go(t),
    }
}
