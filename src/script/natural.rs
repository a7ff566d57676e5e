//! The collections a script builds, shown as their natural views in its JSON (docs/formats.md
//! "Collections"), as those the canister holds are: a `Map` as `[[key, value], …]` in key
//! order, a `Set`, `List`, `Queue`, `Stack` or `pure/` one as the array of its elements in
//! its own iteration's order.
//!
//! Where the collections are is told by the script value's static type (the checker's, so a
//! record of the same shape is never taken for one), and their items are what the library's
//! own iteration gives (`Map.entries`, `List.values`…), run in the session's interpreter under
//! its budgets. A `PriorityQueue` keeps no order of its own and stays its structure.

use super::check::types::Ty;
use super::eval::{EResult, Interp};
use super::value::Value;
use std::rc::Rc;

/// How deep a type is looked into for collections (a recursive type's deeper parts are
/// shown as their structure).
const MAX_DEPTH: usize = 16;

/// Where a value of some static type holds the library's collections.
#[derive(Debug)]
pub enum View {
    /// No collection inside: the value as it is.
    Plain,
    /// A collection: its items (`module.iterate(value)`), each seen as `items`.
    Collection {
        /// The library module whose function iterates it (`pure/Map`).
        module: &'static str,
        /// That function (`entries`, `values`).
        iterate: &'static str,
        /// What each item is.
        items: Box<View>,
    },
    /// `?T`.
    Opt(Box<View>),
    /// `[T]` or `[var T]`.
    Array(Box<View>),
    /// A tuple's parts.
    Tuple(Vec<View>),
    /// A record's fields that hold collections.
    Record(Vec<(Rc<str>, View)>),
    /// A variant's cases that hold collections.
    Variant(Vec<(Rc<str>, View)>),
}

/// The view of values of the checked type `t`; `None` when they hold no collection.
pub fn view_of(t: &Ty) -> Option<View> {
    let mut w = Viewer {
        budget: MAX_PARTS,
        within: Vec::new(),
    };
    match w.view(t, MAX_DEPTH) {
        View::Plain => None,
        v => Some(v),
    }
}

/// Most parts of a type looked at (a type with many cases of itself costs no more).
const MAX_PARTS: u32 = 4_096;

/// The walk of a type for its collections: bounded in parts, and a declared type met again
/// inside itself (a recursive type) is not unfolded again (its deeper values are shown as
/// their structure).
struct Viewer {
    budget: u32,
    /// The declared types being unfolded, outermost first.
    within: Vec<Ty>,
}

impl Viewer {
    fn view(&mut self, t: &Ty, depth: usize) -> View {
        let Some(d) = depth.checked_sub(1) else {
            return View::Plain;
        };
        let Some(left) = self.budget.checked_sub(1) else {
            return View::Plain;
        };
        self.budget = left;
        let v = match t {
            Ty::Con(c, args) => match c.library.and_then(iteration) {
                Some((module, iterate, pairs)) => {
                    let mut part = |i: usize| args.get(i).map_or(View::Plain, |a| self.view(a, d));
                    let items = if pairs {
                        View::Tuple(vec![part(0), part(1)])
                    } else {
                        part(0)
                    };
                    return View::Collection {
                        module,
                        iterate,
                        items: Box::new(items),
                    };
                }
                None if c.library.is_some() || self.within.contains(t) => View::Plain,
                None => match crate::script::check::sub::unfold(t) {
                    Some(u) => {
                        self.within.push(t.clone());
                        let v = self.view(&u, d);
                        self.within.pop();
                        v
                    }
                    None => View::Plain,
                },
            },
            Ty::Opt(x) => View::Opt(Box::new(self.view(x, d))),
            Ty::Array(_, x) => View::Array(Box::new(self.view(x, d))),
            Ty::Tuple(ts) => View::Tuple(ts.iter().map(|x| self.view(x, d)).collect()),
            Ty::Obj(_, fs) => View::Record(self.parts(fs.iter().map(|f| (&f.name, &f.ty)), d)),
            Ty::Variant(cs) => View::Variant(self.parts(cs.iter().map(|(n, x)| (n, x)), d)),
            _ => View::Plain,
        };
        if holds_collection(&v) {
            v
        } else {
            View::Plain
        }
    }

    /// The named parts (fields, cases) that hold collections.
    fn parts<'t>(
        &mut self,
        parts: impl Iterator<Item = (&'t Rc<str>, &'t Ty)>,
        d: usize,
    ) -> Vec<(Rc<str>, View)> {
        parts
            .map(|(n, x)| (n.clone(), self.view(x, d)))
            .filter(|(_, v)| !matches!(v, View::Plain))
            .collect()
    }
}

fn holds_collection(v: &View) -> bool {
    match v {
        View::Plain => false,
        View::Collection { .. } => true,
        View::Opt(x) | View::Array(x) => holds_collection(x),
        View::Tuple(xs) => xs.iter().any(holds_collection),
        View::Record(fs) | View::Variant(fs) => !fs.is_empty(),
    }
}

/// How the library type `key` is iterated: the module, its function and whether the items
/// are `(key, value)` pairs; `None` for the types that are parts of collections (and for a
/// `PriorityQueue`, which keeps no order).
fn iteration(key: &str) -> Option<(&'static str, &'static str, bool)> {
    Some(match key {
        "Map" => ("Map", "entries", true),
        "Set" => ("Set", "values", false),
        "List" => ("List", "values", false),
        "Queue" => ("Queue", "values", false),
        "Stack" => ("Stack", "values", false),
        "PureList" => ("pure/List", "values", false),
        "PureMap" => ("pure/Map", "entries", true),
        "PureSet" => ("pure/Set", "values", false),
        "PureQueue" => ("pure/Queue", "values", false),
        _ => return None,
    })
}

/// `v` with each collection `view` places in it replaced by the array of its items (a
/// `(key, value)` item as a pair); a part whose value is not of the view's shape (a value
/// read from the snapshot, which the checker does not type) is left as it is.
pub fn natural_value(it: &mut Interp, v: &Value, view: &View) -> EResult<Value> {
    Ok(match (view, v) {
        (View::Plain, _) => v.clone(),
        (
            View::Collection {
                module,
                iterate,
                items,
            },
            _,
        ) => {
            let Some(parts) = crate::script::lib::iterate(it, module, iterate, v)? else {
                return Ok(v.clone());
            };
            let mut out = Vec::with_capacity(parts.len());
            for p in &parts {
                it.tick()?;
                out.push(natural_value(it, p, items)?);
            }
            Value::Array(Rc::from(out))
        }
        (View::Opt(x), Value::Opt(inner)) => Value::some(natural_value(it, inner, x)?),
        (View::Array(x), Value::Array(xs)) => Value::Array(parts(it, xs, x)?),
        (View::Array(x), Value::VarArray(xs)) => {
            let xs: Vec<Value> = xs.borrow().clone();
            Value::Array(parts(it, &xs, x)?)
        }
        (View::Tuple(ts), Value::Tuple(xs)) if ts.len() == xs.len() => {
            let mut out = Vec::with_capacity(xs.len());
            for (x, t) in xs.iter().zip(ts) {
                out.push(natural_value(it, x, t)?);
            }
            Value::Tuple(Rc::from(out))
        }
        (View::Record(fs), Value::Record(r)) if !r.module => {
            let mut out = Vec::with_capacity(r.fields.len());
            for f in &r.fields {
                let x = f.get();
                let x = match fs.iter().find(|(n, _)| *n == f.name) {
                    Some((_, fv)) => natural_value(it, &x, fv)?,
                    None => x,
                };
                out.push((f.name.clone(), f.mutable, x));
            }
            Value::record(out)
        }
        (View::Variant(cs), Value::Variant(tv)) => match cs.iter().find(|(n, _)| *n == tv.0) {
            Some((_, x)) => Value::variant(&tv.0, natural_value(it, &tv.1, x)?),
            None => v.clone(),
        },
        _ => v.clone(),
    })
}

fn parts(it: &mut Interp, xs: &[Value], view: &View) -> EResult<Rc<[Value]>> {
    let mut out = Vec::with_capacity(xs.len());
    for x in xs {
        it.tick()?;
        out.push(natural_value(it, x, view)?);
    }
    Ok(Rc::from(out))
}
