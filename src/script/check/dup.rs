//! Names defined twice: moc's M0051 (a block's declarations) and M0017 (one pattern).

use super::env::CheckResult;
use super::error::TypeError;
use crate::script::syntax::ast::{Dec, FuncDef, Pat, PatKind};
use crate::script::syntax::Span;

/// The names a pattern binds, with their spans, in order (an or-pattern's alternatives
/// bind the same names: its first one's).
fn pat_vars(p: &Pat, out: &mut Vec<(String, Span)>) {
    match &p.kind {
        PatKind::Wild | PatKind::Lit(..) => {}
        PatKind::Var(n) => out.push((n.clone(), p.span)),
        PatKind::Tuple(ps) => ps.iter().for_each(|q| pat_vars(q, out)),
        PatKind::Record(fs) => fs.iter().for_each(|(_, q)| pat_vars(q, out)),
        PatKind::Opt(q) | PatKind::Annot(q, _) | PatKind::Or(q, _) => pat_vars(q, out),
        PatKind::Variant(_, q) => q.iter().for_each(|q| pat_vars(q, out)),
    }
}

/// A span `skip` columns after `span`'s start, `len` long (a name after a keyword, as
/// usually written: one space).
fn after(span: Span, skip: usize, len: usize) -> Span {
    let mut at = span;
    at.start.col = span.start.col.saturating_add(skip as u32);
    at.end = at.start;
    at.end.col = at.start.col.saturating_add(len as u32);
    at
}

/// M0051 when a block's declarations define a value name twice (at the second);
/// `is_class` tells a class from a function.
pub(super) fn block_duplicates(
    decs: &[Dec],
    is_class: impl Fn(&FuncDef) -> bool,
) -> CheckResult<()> {
    let mut seen: Vec<String> = Vec::new();
    let mut vars = Vec::new();
    for d in decs {
        vars.clear();
        // (a class also defines a type of its name, which moc reports first)
        let mut kind = "";
        match d {
            Dec::Let(p, _, _) => pat_vars(p, &mut vars),
            Dec::Var(n, _, _, span) => vars.push((n.clone(), after(*span, 4, n.len()))),
            Dec::Func(f) => {
                if let Some(n) = &f.name {
                    let class = is_class(f);
                    kind = if class { "type " } else { "" };
                    let skip = if class { 6 } else { 5 };
                    vars.push((n.clone(), after(f.span, skip, n.len())));
                }
            }
            Dec::Exp(_) | Dec::Type(..) | Dec::Import(..) => {}
        }
        for (n, span) in vars.drain(..) {
            if seen.contains(&n) {
                return Err(TypeError::new(
                    span,
                    "M0051",
                    format!("duplicate definition for {kind}{n} in block"),
                ));
            }
            seen.push(n);
        }
    }
    Ok(())
}

/// M0017 when one pattern binds a name twice (at the innermost tuple or record pattern
/// holding both).
pub(super) fn pattern_duplicates(p: &Pat) -> CheckResult<()> {
    match &p.kind {
        PatKind::Tuple(ps) => {
            ps.iter().try_for_each(pattern_duplicates)?;
            several_duplicates(ps.iter(), p.span)
        }
        PatKind::Record(fs) => {
            fs.iter().try_for_each(|(_, q)| pattern_duplicates(q))?;
            several_duplicates(fs.iter().map(|(_, q)| q), p.span)
        }
        PatKind::Or(a, b) => {
            pattern_duplicates(a)?;
            pattern_duplicates(b)?;
            or_bindings(a, b, p.span)
        }
        PatKind::Opt(q) | PatKind::Annot(q, _) => pattern_duplicates(q),
        PatKind::Variant(_, Some(q)) => pattern_duplicates(q),
        _ => Ok(()),
    }
}

/// M0017 at `span` when the patterns `ps` (each free of duplicates) bind a name twice.
pub(super) fn several_duplicates<'a>(
    ps: impl Iterator<Item = &'a Pat>,
    span: Span,
) -> CheckResult<()> {
    let mut vars = Vec::new();
    ps.for_each(|q| pat_vars(q, &mut vars));
    for (i, (n, _)) in vars.iter().enumerate() {
        if vars[..i].iter().any(|(m, _)| m == n) {
            return Err(TypeError::new(
                span,
                "M0017",
                format!("duplicate binding for {n} in pattern"),
            ));
        }
    }
    Ok(())
}

/// M0044 when a type parameter list names a parameter twice; `at(i)` is where the `i`th
/// parameter is.
pub(super) fn type_param_duplicates(
    params: &[String],
    at: impl Fn(usize) -> Span,
) -> CheckResult<()> {
    let mut seen = std::collections::HashSet::new();
    for (i, p) in params.iter().enumerate() {
        if !seen.insert(p.as_str()) {
            return Err(TypeError::new(
                at(i),
                "M0044",
                format!("duplicate type name {p} in type parameter list"),
            ));
        }
    }
    Ok(())
}

/// M0189 when the alternatives of an or-pattern bind different names.
fn or_bindings(a: &Pat, b: &Pat, span: Span) -> CheckResult<()> {
    let (mut x, mut y) = (Vec::new(), Vec::new());
    pat_vars(a, &mut x);
    pat_vars(b, &mut y);
    let mut x: Vec<String> = x.into_iter().map(|v| v.0).collect();
    let mut y: Vec<String> = y.into_iter().map(|v| v.0).collect();
    x.sort();
    y.sort();
    if x != y {
        return Err(TypeError::new(
            span,
            "M0189",
            "different set of bindings in pattern alternatives",
        ));
    }
    Ok(())
}
