//! Expected types from type expressions, without unfolding declared types.
//!
//! A type expression becomes a [`Hint`] whose references to declared types are
//! [`Hint::Named`]: a weak pointer to the declaration's one [`NamedHint`]. Each declaration is
//! resolved once, iteratively (a worklist, no recursion across declarations), alias chains are
//! collapsed with a visited set, and [`NamedHint::has_int`] is computed for a whole round by
//! propagation along reverse references. So the work is linear in the size of the type
//! declarations, however they recurse (`type T = { #pair : (T, T); #two : (T, T) }` costs
//! what its text costs).

use super::ir::{Hint, NamedHint};
use crate::script::syntax::ast::Type;
use crate::script::value::NumKind;
use std::cell::RefCell;
use std::collections::{HashMap, HashSet};
use std::rc::Rc;

/// A type declaration known to the session (`type T<A> = ...`).
#[derive(Clone, Debug)]
pub struct TypeDef {
    /// Type parameters (a generic declaration's hint is `Any`).
    pub params: Vec<String>,
    /// The declaration's hint (owned here; hints point at it weakly).
    pub hint: Rc<NamedHint>,
    /// A generic declaration's applications met so far (`List<Int>`), each with the hints of
    /// its arguments: one hint per application, owned here, so that a recursive generic type
    /// is a graph like a plain one (`?(Int, List<Int>)` all the way down).
    pub instances: Rc<RefCell<Vec<Instance>>>,
}

/// One application of a generic declaration: its argument hints and its own hint.
pub type Instance = (Vec<Hint>, Rc<NamedHint>);

impl TypeDef {
    /// A declaration of `name` with `params` and body `ty`.
    pub fn new(name: &str, params: &[String], ty: &Type) -> TypeDef {
        TypeDef {
            params: params.to_vec(),
            hint: Rc::new(NamedHint::new(name, ty.clone())),
            instances: Rc::default(),
        }
    }

    /// The hint of this declaration applied to `args`, if made already.
    fn instance(&self, args: &[Hint]) -> Option<Rc<NamedHint>> {
        let instances = self.instances.borrow();
        let found = instances.iter().find(|(a, _)| a.as_slice() == args);
        found.map(|(_, n)| n.clone())
    }
}

/// Most applications of one generic declaration given their own hint (beyond, an
/// application is expanded in place, [`MAX_GENERIC_EXPANSION`] levels deep).
const MAX_INSTANCES: usize = 256;

/// Turns type expressions into hints against the session's type declarations.
pub struct HintBuilder<'t> {
    types: &'t HashMap<String, TypeDef>,
    /// The type parameters in scope (their hint is [`Hint::Top`]).
    params: Vec<String>,
    /// Declarations referenced but not resolved yet.
    pending: Vec<Rc<NamedHint>>,
    queued: HashSet<*const NamedHint>,
    /// The arguments of the generic declaration being expanded (`Box<Int>`), innermost last.
    args: Vec<Vec<(String, Hint)>>,
    /// The applications of generic declarations given their own hint by this builder.
    instances: Vec<Rc<NamedHint>>,
}

/// Most generic declarations expanded inside each other (`type List<T> = ?(T, List<T>)`
/// unfolds this many times; deeper, its values get no conversion).
const MAX_GENERIC_EXPANSION: usize = 4;

impl<'t> HintBuilder<'t> {
    /// A builder over `types`.
    pub fn new(types: &'t HashMap<String, TypeDef>) -> Self {
        HintBuilder {
            types,
            params: Vec::new(),
            pending: Vec::new(),
            queued: HashSet::new(),
            args: Vec::new(),
            instances: Vec::new(),
        }
    }

    /// The same builder, with the type parameters in scope.
    pub fn with_params(mut self, params: Vec<String>) -> Self {
        self.params = params;
        self
    }

    /// The hint of `t`, with every declaration it reaches resolved.
    pub fn hint(mut self, t: &Type) -> Hint {
        let h = self.structure(t);
        self.resolve_pending();
        h
    }

    /// The hint of one type expression; declared types become [`Hint::Named`] (queued for
    /// resolution). Recursion is bounded by the expression's nesting (the parser's limit).
    fn structure(&mut self, t: &Type) -> Hint {
        match t {
            Type::Path(p, args) if p.len() == 1 => {
                if let Some(k) = NumKind::from_name(&p[0]) {
                    return Hint::Num(k);
                }
                if let Some((_, h)) = self
                    .args
                    .last()
                    .and_then(|a| a.iter().find(|(n, _)| *n == p[0]))
                {
                    return h.clone();
                }
                if p[0] == "Any" || self.params.contains(&p[0]) {
                    return Hint::Top;
                }
                match self.types.get(&p[0]) {
                    Some(def) if def.params.is_empty() => self.named(&def.hint),
                    // a generic declaration applied (`Box<Int>`): its body with the arguments
                    Some(def)
                        if def.params.len() == args.len()
                            && self.args.len() < MAX_GENERIC_EXPANSION =>
                    {
                        let def = def.clone();
                        let hs: Vec<Hint> = args.iter().map(|t| self.structure(t)).collect();
                        self.applied(&def, hs)
                    }
                    Some(_) => Hint::Any,
                    None if p[0] == "Blob" => Hint::Blob,
                    None => Hint::Any,
                }
            }
            // a script module's type (`Geometry.Point`): its declaration is in the session's
            // table under its own name
            Type::Path(p, args) if args.is_empty() => {
                let by_path = self.types.get(&p.join("."));
                match by_path.or_else(|| p.last().and_then(|n| self.types.get(n))) {
                    Some(def) if def.params.is_empty() => self.named(&def.hint),
                    _ => Hint::Any,
                }
            }
            Type::Path(..) | Type::Func(..) | Type::Combined(..) => Hint::Any,
            Type::Implicit(_, t) => self.structure(t),
            Type::Tuple(ts) => Hint::Tuple(ts.iter().map(|t| self.structure(t)).collect()),
            Type::Opt(t) => Hint::Opt(Box::new(self.structure(t))),
            Type::Array(_, t) => Hint::Array(Box::new(self.structure(t))),
            Type::Record(fs) => Hint::Record(
                fs.iter()
                    .map(|(n, _, t)| (Rc::from(n.as_str()), self.structure(t)))
                    .collect(),
            ),
            Type::Variant(fs) => Hint::Variant(
                fs.iter()
                    .map(|(n, t)| (Rc::from(n.as_str()), self.structure(t)))
                    .collect(),
            ),
        }
    }

    /// The generic declaration `def` applied to the argument hints `hs`: the application's
    /// own hint (made once per session, its body resolved here), or, past
    /// [`MAX_INSTANCES`], the body expanded in place.
    fn applied(&mut self, def: &TypeDef, hs: Vec<Hint>) -> Hint {
        if let Some(n) = def.instance(&hs) {
            return Hint::Named(Rc::downgrade(&n));
        }
        let bound: Vec<(String, Hint)> = def.params.iter().cloned().zip(hs.clone()).collect();
        let body = def.hint.ty.clone();
        if def.instances.borrow().len() >= MAX_INSTANCES {
            self.args.push(bound);
            let h = self.structure(&body);
            self.args.pop();
            return h;
        }
        let n = Rc::new(NamedHint::new(&def.hint.name, body.clone()));
        def.instances.borrow_mut().push((hs, n.clone()));
        // the body, with the arguments bound, outside any other expansion: its references
        // to this application find it above
        let outer = std::mem::replace(&mut self.args, vec![bound]);
        let h = self.structure(&body);
        self.args = outer;
        let r = match &h {
            Hint::Named(_) => alias_target(&h, &HashMap::new()),
            _ => Rc::new(h),
        };
        let _ = n.body.set(r);
        self.instances.push(n.clone());
        Hint::Named(Rc::downgrade(&n))
    }

    fn named(&mut self, n: &Rc<NamedHint>) -> Hint {
        if n.body.get().is_none() && self.queued.insert(Rc::as_ptr(n)) {
            self.pending.push(n.clone());
        }
        Hint::Named(Rc::downgrade(n))
    }

    /// Resolves every queued declaration (and those they reach), then their `has_int`.
    fn resolve_pending(&mut self) {
        let mut round: Vec<Rc<NamedHint>> = Vec::new();
        let mut bodies: Vec<(Rc<NamedHint>, Hint)> = Vec::new();
        while let Some(n) = self.pending.pop() {
            let body = self.structure(&n.ty);
            round.push(n.clone());
            bodies.push((n, body));
        }
        // the applications made meanwhile (their bodies are set) count in the round
        round.append(&mut self.instances);
        // alias bodies (`type A = B`) point at another declaration: collapse the chains
        let this_round: HashMap<*const NamedHint, &Hint> =
            bodies.iter().map(|(n, b)| (Rc::as_ptr(n), b)).collect();
        for (n, b) in &bodies {
            if n.body.get().is_none() {
                let r = match b {
                    Hint::Named(_) => alias_target(b, &this_round),
                    _ => Rc::new(b.clone()),
                };
                let _ = n.body.set(r);
            }
        }
        propagate_has_int(&round);
    }
}

/// The structure an alias chain ends at (`Any` for a cycle of aliases), set as the body of
/// every alias on the way, so that each declaration is followed once in a round.
fn alias_target(start: &Hint, this_round: &HashMap<*const NamedHint, &Hint>) -> Rc<Hint> {
    let mut chain: Vec<Rc<NamedHint>> = Vec::new();
    let mut seen: HashSet<*const NamedHint> = HashSet::new();
    let mut cur = start;
    let target = loop {
        let Hint::Named(w) = cur else {
            break Rc::new(cur.clone());
        };
        let Some(n) = w.upgrade() else {
            break Rc::new(Hint::Any);
        };
        if !seen.insert(Rc::as_ptr(&n)) {
            break Rc::new(Hint::Any);
        }
        if let Some(b) = n.body.get() {
            break b.clone();
        }
        match this_round.get(&Rc::as_ptr(&n)) {
            Some(next) => cur = next,
            None => break Rc::new(Hint::Any),
        }
        chain.push(n);
    };
    // every alias on the way ends at the same place: later chains stop at them
    for n in chain {
        let _ = n.body.set(target.clone());
    }
    target
}

/// Sets `has_int` for the declarations of one resolution round: true when the body reaches
/// a converting numeric type, directly or through other declarations (a least fixpoint,
/// computed by propagating along reverse references: linear in the round's size).
pub(super) fn propagate_has_int(round: &[Rc<NamedHint>]) {
    let index: HashMap<*const NamedHint, usize> = round
        .iter()
        .enumerate()
        .map(|(i, n)| (Rc::as_ptr(n), i))
        .collect();
    let mut users: Vec<Vec<usize>> = vec![Vec::new(); round.len()];
    let mut work: Vec<usize> = Vec::new();
    for (i, n) in round.iter().enumerate() {
        let Some(body) = n.body.get() else { continue };
        let mut refs = Vec::new();
        // declarations of earlier rounds are final; this round's count as false for now
        if direct_has_int(body, &mut refs) {
            n.has_int.set(true);
            work.push(i);
        }
        for r in refs {
            if let Some(&j) = index.get(&r) {
                users[j].push(i);
            }
        }
    }
    while let Some(j) = work.pop() {
        for &i in &users[j] {
            if !round[i].has_int.get() {
                round[i].has_int.set(true);
                work.push(i);
            }
        }
    }
}

/// [`Hint::has_int`] of a body, collecting the declarations it references.
fn direct_has_int(h: &Hint, refs: &mut Vec<*const NamedHint>) -> bool {
    match h {
        Hint::Num(k) => *k != NumKind::Nat,
        Hint::Opt(h) | Hint::Array(h) => direct_has_int(h, refs),
        Hint::Tuple(hs) => hs.iter().fold(false, |a, h| direct_has_int(h, refs) | a),
        Hint::Record(fs) | Hint::Variant(fs) => fs
            .iter()
            .fold(false, |a, (_, h)| direct_has_int(h, refs) | a),
        Hint::Named(w) => match w.upgrade() {
            Some(n) => {
                refs.push(Rc::as_ptr(&n));
                n.has_int.get()
            }
            None => false,
        },
        Hint::Any | Hint::Top | Hint::Blob => false,
    }
}
