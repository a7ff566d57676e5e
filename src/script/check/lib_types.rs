//! The types of the built-in library: `mo:core` functions from the generated signatures
//! (`scripts/gen-core-signatures`), parsed with the script's type parser; the library's
//! named types (`Order`, `Iter<T>`, `Result<T, E>` structurally, collections abstractly).

use super::sub::subst;
use super::types::{Con, Field, FuncTy, ObjSort, Prim, Ty};
use super::Checker;
use crate::script::lib::dot;
use crate::script::lib::signature_types::{BASE_TYPES, CORE_TYPES, CORE_TYPE_NAMES};
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
            library: None,
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

/// The library's collection types, by qualifier-free name (`pure/` ones have their own).
const COLLECTIONS: &[&str] = &["Map", "Set", "List", "Queue", "Stack", "PriorityQueue"];

/// The collection types of `mo:core` and the types they are made of, as core's `Types.mo`
/// declares them (core v2.5.0): the name they are referred to by in these bodies, the name
/// moc prints, the type parameters and the body. They are structural, as in moc: a value
/// of one can be taken apart by a pattern and shows at its type (a `Nat` put where the type
/// says `Int` shows as `+5`).
const LIBRARY_TYPES: &[(&str, &str, &[&str], &str)] = &[
    ("Map", "Map", &["K", "V"], "{ var root : MapNode<K, V>; var size : Nat }"),
    ("MapNode", "Map.Node", &["K", "V"], "{ #leaf : MapLeaf<K, V>; #internal : MapInternal<K, V> }"),
    ("MapData", "Map.Data", &["K", "V"], "{ kvs : [var ?(K, V)]; var count : Nat }"),
    ("MapInternal", "Map.Internal", &["K", "V"], "{ data : MapData<K, V>; children : [var ?MapNode<K, V>] }"),
    ("MapLeaf", "Map.Leaf", &["K", "V"], "{ data : MapData<K, V> }"),
    ("Set", "Set", &["T"], "{ var root : SetNode<T>; var size : Nat }"),
    ("SetNode", "Set.Node", &["T"], "{ #leaf : SetLeaf<T>; #internal : SetInternal<T> }"),
    ("SetData", "Set.Data", &["T"], "{ elements : [var ?T]; var count : Nat }"),
    ("SetInternal", "Set.Internal", &["T"], "{ data : SetData<T>; children : [var ?SetNode<T>] }"),
    ("SetLeaf", "Set.Leaf", &["T"], "{ data : SetData<T> }"),
    ("List", "List", &["T"], "{ var blocks : [var [var ?T]]; var blockIndex : Nat; var elementIndex : Nat }"),
    ("Queue", "Queue", &["T"], "{ var front : ?QueueNode<T>; var back : ?QueueNode<T>; var size : Nat }"),
    ("QueueNode", "Queue.Node", &["T"], "{ value : T; var next : ?QueueNode<T>; var previous : ?QueueNode<T> }"),
    ("PriorityQueue", "PriorityQueue", &["T"], "{ heap : List<T> }"),
    ("Stack", "Stack", &["T"], "{ var top : PureList<T>; var size : Nat }"),
    ("PureList", "Pure.List", &["T"], "?(T, PureList<T>)"),
    ("PureMap", "Pure.Map", &["K", "V"], "{ size : Nat; root : PureMapTree<K, V> }"),
    ("PureMapTree", "Pure.Map.Tree", &["K", "V"], "{ #red : (PureMapTree<K, V>, K, V, PureMapTree<K, V>); #black : (PureMapTree<K, V>, K, V, PureMapTree<K, V>); #leaf }"),
    ("PureQueue", "Pure.Queue", &["T"], "(PureList<T>, Nat, PureList<T>)"),
    ("PureSet", "Pure.Set", &["T"], "{ size : Nat; root : PureSetTree<T> }"),
    ("PureSetTree", "Pure.Set.Tree", &["T"], "{ #red : (PureSetTree<T>, T, PureSetTree<T>); #black : (PureSetTree<T>, T, PureSetTree<T>); #leaf }"),
];

/// The key in [`LIBRARY_TYPES`] of the collection `name` (`pure/` ones when `pure`).
fn collection_key(name: &str, pure: bool) -> Option<&'static str> {
    if !COLLECTIONS.contains(&name) {
        return None;
    }
    let key = if pure {
        format!("Pure{name}")
    } else {
        name.to_string()
    };
    library_key(&key)
}

/// `name` as a key of [`LIBRARY_TYPES`], if it is one.
fn library_key(name: &str) -> Option<&'static str> {
    LIBRARY_TYPES.iter().map(|(k, ..)| *k).find(|k| *k == name)
}

/// Whether the core module `module` declares a type `name` (`None`: not known).
pub fn declares_type(module: &str, name: &str) -> Option<bool> {
    let (_, names) = CORE_TYPE_NAMES.iter().find(|(m, _)| *m == module)?;
    Some(names.contains(&name))
}

/// Where a library type text comes from, which tells what its collection names mean.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Texts {
    /// A `mo:core` module's (or a library type's body): `List` is the imperative one.
    Core,
    /// A `mo:core` `pure/` module's: `List` is `pure/List`.
    Pure,
    /// A `mo:base` module's: `List` is base's, core's `pure/List`.
    Base,
}

impl Texts {
    fn of(module: &str) -> Texts {
        if module.starts_with("base/") {
            Texts::Base
        } else if module.starts_with("pure/") {
            Texts::Pure
        } else {
            Texts::Core
        }
    }
}

/// Cache of parsed library function types, per checker.
#[derive(Default)]
pub struct LibCache {
    funcs: HashMap<(&'static str, String), Option<Ty>>,
}

impl Checker<'_> {
    /// A type named `module.name` with arguments (`Map.Map<K, V>`, `Order.Order`);
    /// `None` when not modelled. Of a `mo:base` module, base's meaning of the name
    /// ([`Checker::base_named`]).
    pub(super) fn lib_type_named(&mut self, module: &str, name: &str, args: Vec<Ty>) -> Option<Ty> {
        match Texts::of(module) {
            Texts::Base => self.base_named(name, args),
            texts => self.lib_named(name, texts == Texts::Pure, args),
        }
    }

    /// A `mo:base` type named `name` with arguments: its `List` (core's `pure/List`), `Deque`,
    /// `AssocList`, `Hash`, and the types base shares with core; none of core's other
    /// collections.
    fn base_named(&mut self, name: &str, mut args: Vec<Ty>) -> Option<Ty> {
        match (name, args.len()) {
            ("List", 1) => self.lib_named(name, true, args),
            ("Deque", 1) => {
                let list = self.lib_named("List", true, args)?;
                Some(Ty::Tuple(Rc::from(vec![list.clone(), list])))
            }
            ("AssocList", 2) => {
                let pair = Ty::Tuple(Rc::from(std::mem::take(&mut args)));
                self.lib_named("List", true, vec![pair])
            }
            ("Hash", 0) => Some(Ty::Prim(super::types::Prim::Nat32)),
            (n, _) if COLLECTIONS.contains(&n) => None,
            _ => self.lib_named(name, false, args),
        }
    }

    /// A `mo:core` type named `name` (a `pure/` collection when `pure`) with arguments.
    fn lib_named(&mut self, name: &str, pure: bool, mut args: Vec<Ty>) -> Option<Ty> {
        Some(match (name, args.len()) {
            ("Order", 0) => order(),
            ("Iter", 1) => iter(args.remove(0)),
            ("Result", 2) => {
                let e = args.remove(1);
                let t = args.remove(0);
                Ty::variant(vec![(Rc::from("ok"), t), (Rc::from("err"), e)])
            }
            (n, _) => return self.library_applied(collection_key(n, pure)?, args),
        })
    }

    /// The library type `key` of [`LIBRARY_TYPES`] applied to `args` (`None`: another
    /// number of arguments).
    fn library_applied(&mut self, key: &'static str, args: Vec<Ty>) -> Option<Ty> {
        let con = self.library_con(key)?;
        (con.params.len() == args.len()).then(|| Ty::Con(con, Rc::from(args)))
    }

    /// The constructor of the library type `key`, made once per session: declared like a
    /// script's `type` (released with the session's), its body read from its text, the
    /// other library types it names made as they are met.
    fn library_con(&mut self, key: &'static str) -> Option<Rc<Con>> {
        if let Some(c) = self.globals.library.get(key) {
            return Some(c.clone());
        }
        let &(_, shown, params, text) = LIBRARY_TYPES.iter().find(|(k, ..)| *k == key)?;
        let body = parse_type(text).ok()?;
        let tps: Vec<(u32, Rc<str>)> = params
            .iter()
            .map(|n| (self.fresh(), Rc::from(*n)))
            .collect();
        let con = Rc::new(Con {
            name: Rc::from(shown),
            params: tps.iter().map(|(id, _)| *id).collect(),
            body: std::cell::RefCell::new(None),
            library: Some(key),
            id: self.fresh(),
        });
        self.globals.library.insert(key, con.clone());
        self.globals.declared.push(con.clone());
        let body = self.lib_ty(&body, &tps, Texts::Core, 0);
        *con.body.borrow_mut() = Some(body);
        Some(con)
    }

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
        let texts = Texts::of(module);
        let table = if texts == Texts::Base {
            BASE_TYPES
        } else {
            CORE_TYPES
        };
        let (_, rows) = table.iter().find(|(m, _)| *m == module)?;
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
        let params: Vec<Ty> = match &*a {
            Type::Tuple(ts) => ts.iter().map(|t| self.lib_ty(t, &tps, texts, 0)).collect(),
            t => vec![self.lib_ty(t, &tps, texts, 0)],
        };
        let ret = self.lib_ty(&r, &tps, texts, 0);
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

impl Checker<'_> {
    /// A library type text's type; names not modelled are `Unknown`.
    fn lib_ty(&mut self, t: &Type, tps: &[(u32, Rc<str>)], texts: Texts, depth: usize) -> Ty {
        if depth > LIB_DEPTH {
            return Ty::Unknown;
        }
        let d = depth + 1;
        let mut go = |t: &Type| self.lib_ty(t, tps, texts, d);
        match t {
            Type::Path(path, args) => {
                let targs: Vec<Ty> = args.iter().map(&mut go).collect();
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
                // a library type's body naming another (`MapNode<K, V>`)
                let part =
                    library_key(last).filter(|k| path.len() == 1 && !COLLECTIONS.contains(k));
                if let Some(k) = part {
                    return self.library_applied(k, targs).unwrap_or(Ty::Unknown);
                }
                let named = match texts {
                    Texts::Base => self.base_named(last, targs),
                    _ => {
                        let pure =
                            qual.starts_with("Pure") || (path.len() == 1 && texts == Texts::Pure);
                        self.lib_named(last, pure, targs)
                    }
                };
                named.unwrap_or(Ty::Unknown)
            }
            Type::Tuple(ts) => Ty::Tuple(ts.iter().map(&mut go).collect()),
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
                    Type::Tuple(ts) => ts.iter().map(&mut go).collect(),
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
}
