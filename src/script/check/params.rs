//! What a script function's parameters declare for call resolution: the implicit ones (by
//! name) and a `self` receiver (for contextual dot). A leaf: it reads only the syntax.

use crate::script::syntax::ast::{FuncDef, PatKind, Type};
use std::rc::Rc;

/// The implicit parameters of a script function (`compare : (implicit : T)`, or
/// `c : (implicit : (compare : T))` found by `compare`), by position.
pub fn param_implicits(f: &FuncDef) -> Vec<Option<Rc<str>>> {
    let found: Vec<Option<Rc<str>>> = f
        .params
        .iter()
        .map(|p| match &p.kind {
            PatKind::Annot(inner, Type::Implicit(over, _)) => match (&inner.kind, over) {
                (PatKind::Var(_), Some(n)) => Some(Rc::from(n.as_str())),
                (PatKind::Var(n), None) => Some(Rc::from(n.as_str())),
                _ => None,
            },
            _ => None,
        })
        .collect();
    if found.iter().all(Option::is_none) {
        Vec::new()
    } else {
        found
    }
}

/// Whether a script function's first parameter is named `self`.
pub fn has_self_param(f: &FuncDef) -> bool {
    let Some(p) = f.params.first() else {
        return false;
    };
    match &p.kind {
        PatKind::Var(n) => n == "self",
        PatKind::Annot(inner, _) => matches!(&inner.kind, PatKind::Var(n) if n == "self"),
        _ => false,
    }
}
