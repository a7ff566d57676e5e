//! The parsed stable signature: aliases ([`TypeEnv`]) and the actor's stable variables.

use std::collections::HashMap;
use std::sync::{Arc, RwLock};

use super::ast::{Field, FuncType, Tag, Type};
use super::TypeError;

/// Maximum alias expansions in one [`TypeEnv::normalize`] call (stops cyclic aliases).
pub const MAX_EXPANSIONS: u32 = 1_000;
/// Maximum nesting depth of a type produced by substitution.
pub const MAX_SUBST_DEPTH: u32 = 1_000;

/// Whether a stable variable is declared `var` or is a `let` constant.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum VarKind {
    /// `stable var x : T`.
    Var,
    /// `stable x : T` (a stable `let`).
    Let,
}

/// One stable variable of the actor signature.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StableVar {
    /// The variable name.
    pub name: Arc<str>,
    /// `var` or `let`.
    pub kind: VarKind,
    /// `in` field of a migration signature's input record (consumed, not kept).
    pub in_only: bool,
    /// The declared type.
    pub ty: Arc<Type>,
}

/// A type alias `type Name<P1, …> = Body`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Alias {
    /// Parameter names.
    pub params: Vec<Arc<str>>,
    /// The body, in which the parameters appear as [`Type::Var`].
    pub body: Arc<Type>,
}

/// The type aliases of a signature, used to expand [`Type::Con`] on demand.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TypeEnv {
    aliases: HashMap<Arc<str>, Alias>,
    memo: ExpansionMemo,
}

/// Most generic alias applications [`TypeEnv::normalize`] remembers (then it substitutes anew).
pub const MAX_MEMO_ENTRIES: usize = 1 << 16;
/// Most type nodes the remembered expansions may hold in all (each expansion's nodes counted
/// as a tree, shared parts once per occurrence), so that a signature whose aliases expand to
/// large types cannot make the memo large.
pub const MAX_MEMO_NODES: usize = 1 << 20;

/// The expansions of generic alias applications already made, keyed by the address of the
/// application (which the entry keeps alive, so the address is not reused). A decoder
/// normalizes the same field types millions of times; remembering the expansion also makes the
/// expansion's own parts the same `Arc`s each time, so they are found here in turn.
#[derive(Default)]
struct ExpansionMemo(RwLock<MemoTable>);

/// The remembered expansions and the nodes they hold.
#[derive(Default)]
struct MemoTable {
    entries: HashMap<usize, Expansion>,
    nodes: usize,
}

/// An alias application (kept alive) and its expansion.
type Expansion = (Arc<Type>, Arc<Type>);

impl ExpansionMemo {
    fn get(&self, ty: &Arc<Type>) -> Option<Arc<Type>> {
        let table = self.0.read().unwrap_or_else(|e| e.into_inner());
        table
            .entries
            .get(&(Arc::as_ptr(ty) as usize))
            .map(|(_, t)| t.clone())
    }

    fn put(&self, ty: &Arc<Type>, expanded: &Arc<Type>) {
        let mut table = self.0.write().unwrap_or_else(|e| e.into_inner());
        if table.entries.len() >= MAX_MEMO_ENTRIES {
            return;
        }
        let room = MAX_MEMO_NODES.saturating_sub(table.nodes);
        let nodes = nodes_up_to(expanded, room);
        if nodes > room {
            return;
        }
        table.nodes += nodes;
        table
            .entries
            .insert(Arc::as_ptr(ty) as usize, (ty.clone(), expanded.clone()));
    }
}

/// The nodes of `ty` counted as a tree (a function type counts as one), stopping once the
/// count passes `cap`.
fn nodes_up_to(ty: &Type, cap: usize) -> usize {
    let mut stack: Vec<&Type> = vec![ty];
    let mut n = 0usize;
    while let Some(t) = stack.pop() {
        n += 1;
        if n > cap {
            break;
        }
        match t {
            Type::Prim(_) | Type::Var(_) | Type::Func(_) => {}
            Type::Opt(x) | Type::Async(x) | Type::Weak(x) => stack.push(x),
            Type::Array { elem, .. } => stack.push(elem),
            Type::Tuple(xs) | Type::Con { args: xs, .. } => stack.extend(xs.iter().map(|x| &**x)),
            Type::Object { fields, .. } => stack.extend(fields.iter().map(|f| &*f.ty)),
            Type::Variant(tags) => stack.extend(tags.iter().map(|t| &*t.ty)),
        }
    }
    n
}

impl Clone for ExpansionMemo {
    /// A clone starts empty: the memo is a cache, not part of the value.
    fn clone(&self) -> Self {
        Self::default()
    }
}

impl PartialEq for ExpansionMemo {
    /// Caches never make two environments differ.
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl Eq for ExpansionMemo {}

impl std::fmt::Debug for ExpansionMemo {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("ExpansionMemo")
    }
}

/// A parsed `motoko:stable-types` signature.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StableSignature {
    /// The `// Version: x.y.z` of the signature format, if present.
    pub version: Option<String>,
    /// The type aliases.
    pub env: TypeEnv,
    /// The actor's stable variables (the post-migration record for `actor (pre, post)`),
    /// in signature order (sorted by name).
    pub vars: Vec<StableVar>,
    /// For a migration signature `actor (pre, post)`: the input record.
    pub pre: Option<Vec<StableVar>>,
}

impl StableSignature {
    /// The stable variable named `name`.
    pub fn var(&self, name: &str) -> Option<&StableVar> {
        self.vars.iter().find(|v| &*v.name == name)
    }
}

impl TypeEnv {
    /// An environment holding `aliases`.
    pub fn new(aliases: HashMap<Arc<str>, Alias>) -> TypeEnv {
        TypeEnv {
            aliases,
            memo: ExpansionMemo::default(),
        }
    }

    /// The alias named `name`.
    pub fn alias(&self, name: &str) -> Option<&Alias> {
        self.aliases.get(name)
    }

    /// The alias names (in no particular order).
    pub fn names(&self) -> impl Iterator<Item = &Arc<str>> {
        self.aliases.keys()
    }

    /// The number of aliases.
    pub fn len(&self) -> usize {
        self.aliases.len()
    }

    /// Whether there are no aliases.
    pub fn is_empty(&self) -> bool {
        self.aliases.is_empty()
    }

    /// Expands alias applications at the head of `ty` until it is not a [`Type::Con`].
    /// Expansions of generic aliases are remembered (see [`MAX_MEMO_ENTRIES`]).
    pub fn normalize(&self, ty: &Arc<Type>) -> Result<Arc<Type>, TypeError> {
        let generic = matches!(&**ty, Type::Con { args, .. } if !args.is_empty());
        if !generic {
            return self.expand(ty);
        }
        if let Some(done) = self.memo.get(ty) {
            return Ok(done);
        }
        let expanded = self.expand(ty)?;
        self.memo.put(ty, &expanded);
        Ok(expanded)
    }

    /// [`TypeEnv::normalize`] without the memo.
    fn expand(&self, ty: &Arc<Type>) -> Result<Arc<Type>, TypeError> {
        let mut cur = ty.clone();
        let mut steps = 0u32;
        while let Type::Con { name, args } = &*cur {
            if steps >= MAX_EXPANSIONS {
                return Err(TypeError::Cyclic {
                    name: name.to_string(),
                    max: MAX_EXPANSIONS,
                });
            }
            steps += 1;
            let alias = self
                .aliases
                .get(name)
                .ok_or_else(|| TypeError::UnknownAlias(name.to_string()))?;
            if alias.params.len() != args.len() {
                return Err(TypeError::Arity {
                    name: name.to_string(),
                    expected: alias.params.len(),
                    got: args.len(),
                    line: 0,
                    col: 0,
                });
            }
            let next = if args.is_empty() {
                alias.body.clone()
            } else {
                let map: Vec<(Arc<str>, Arc<Type>)> = alias
                    .params
                    .iter()
                    .cloned()
                    .zip(args.iter().cloned())
                    .collect();
                substitute(&alias.body, &map, 0).map_err(|_| TypeError::Cyclic {
                    name: name.to_string(),
                    max: MAX_SUBST_DEPTH,
                })?
            };
            cur = next;
        }
        Ok(cur)
    }
}

/// Replaces type variables by their arguments in `ty`. Errs (with `()`) when too deep.
fn substitute(ty: &Arc<Type>, map: &[(Arc<str>, Arc<Type>)], depth: u32) -> Result<Arc<Type>, ()> {
    if depth > MAX_SUBST_DEPTH {
        return Err(());
    }
    let d = depth + 1;
    let sub = |t: &Arc<Type>| substitute(t, map, d);
    Ok(match &**ty {
        Type::Prim(_) => ty.clone(),
        Type::Var(n) => match map.iter().find(|(p, _)| p == n) {
            Some((_, t)) => t.clone(),
            None => ty.clone(),
        },
        Type::Opt(t) => Arc::new(Type::Opt(sub(t)?)),
        Type::Weak(t) => Arc::new(Type::Weak(sub(t)?)),
        Type::Async(t) => Arc::new(Type::Async(sub(t)?)),
        Type::Tuple(ts) => Arc::new(Type::Tuple(
            ts.iter().map(sub).collect::<Result<Vec<_>, ()>>()?,
        )),
        Type::Array { mutable, elem } => Arc::new(Type::Array {
            mutable: *mutable,
            elem: sub(elem)?,
        }),
        Type::Object { sort, fields } => {
            let fields = fields
                .iter()
                .map(|f| {
                    Ok(Field {
                        ty: sub(&f.ty)?,
                        ..f.clone()
                    })
                })
                .collect::<Result<Vec<_>, ()>>()?;
            Arc::new(Type::Object {
                sort: *sort,
                fields: fields.into(),
            })
        }
        Type::Variant(tags) => {
            let tags = tags
                .iter()
                .map(|t| {
                    Ok(Tag {
                        ty: sub(&t.ty)?,
                        ..t.clone()
                    })
                })
                .collect::<Result<Vec<_>, ()>>()?;
            Arc::new(Type::Variant(tags.into()))
        }
        Type::Con { name, args } => Arc::new(Type::Con {
            name: name.clone(),
            args: args.iter().map(sub).collect::<Result<Vec<_>, ()>>()?,
        }),
        Type::Func(f) => {
            // Parameters of the function shadow the substituted names.
            let inner: Vec<(Arc<str>, Arc<Type>)> = map
                .iter()
                .filter(|(p, _)| !f.type_params.contains(p))
                .cloned()
                .collect();
            Arc::new(Type::Func(Box::new(FuncType {
                sort: f.sort,
                type_params: f.type_params.clone(),
                arg: substitute(&f.arg, &inner, d)?,
                result: substitute(&f.result, &inner, d)?,
            })))
        }
    })
}

/// Appends every field and tag label in `ty` to `out` (aliases are not expanded).
pub fn collect_labels(ty: &Type, out: &mut Vec<Arc<str>>) {
    let mut stack: Vec<&Type> = vec![ty];
    while let Some(t) = stack.pop() {
        match t {
            Type::Prim(_) | Type::Var(_) => {}
            Type::Opt(t) | Type::Weak(t) | Type::Async(t) => stack.push(t),
            Type::Array { elem, .. } => stack.push(elem),
            Type::Tuple(ts) => stack.extend(ts.iter().map(|t| &**t)),
            Type::Con { args, .. } => stack.extend(args.iter().map(|t| &**t)),
            Type::Object { fields, .. } => {
                for f in fields.iter() {
                    out.push(f.label.clone());
                    stack.push(&f.ty);
                }
            }
            Type::Variant(tags) => {
                for tg in tags.iter() {
                    out.push(tg.label.clone());
                    stack.push(&tg.ty);
                }
            }
            Type::Func(f) => {
                stack.push(&f.arg);
                stack.push(&f.result);
            }
        }
    }
}

impl StableSignature {
    /// Every field and tag label used in the signature (aliases and variables).
    pub fn labels(&self) -> Vec<Arc<str>> {
        let mut out = Vec::new();
        for a in self.env.aliases.values() {
            collect_labels(&a.body, &mut out);
        }
        for v in &self.vars {
            out.push(v.name.clone());
            collect_labels(&v.ty, &mut out);
        }
        out.sort();
        out.dedup();
        out
    }
}
