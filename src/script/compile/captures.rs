//! Finds the names used inside nested functions (and the `public var` fields of objects):
//! variables with those names live in cells.

use crate::script::syntax::ast::{Dec, Expr, ExprKind, FuncDef};
use std::collections::HashSet;

/// Names referenced inside any function nested in `decs` (an over-approximation of the
/// variables closures capture).
pub fn captured_in_decs(decs: &[Dec]) -> HashSet<String> {
    let mut out = HashSet::new();
    for d in decs {
        dec(d, false, &mut out);
    }
    out
}

/// Names referenced inside functions nested in the body of `f` (not `f`'s own body).
pub fn captured_in_func(f: &FuncDef) -> HashSet<String> {
    let mut out = HashSet::new();
    expr(&f.body, false, &mut out);
    out
}

fn dec(d: &Dec, inside: bool, out: &mut HashSet<String>) {
    match d {
        Dec::Exp(e) => expr(e, inside, out),
        Dec::Let(_, e, f) => {
            expr(e, inside, out);
            if let Some(f) = f {
                expr(f, inside, out);
            }
        }
        Dec::Var(_, _, e, _) => expr(e, inside, out),
        Dec::Func(f) => expr(&f.body, true, out),
        Dec::Type(..) | Dec::Import(..) => {}
    }
}

fn expr(e: &Expr, inside: bool, out: &mut HashSet<String>) {
    use ExprKind::*;
    match &e.kind {
        Var(n) => {
            if inside {
                out.insert(n.clone());
            }
        }
        Lit(_) | Continue(_) => {}
        Unary(_, a)
        | Not(a)
        | Opt(a)
        | Dot(a, _)
        | Proj(a, _)
        | Bang(a)
        | DebugShow(a)
        | Ignore(a)
        | Assert(a)
        | Debug(a)
        | Annot(a, _)
        | Label(_, a)
        | Do(a)
        | DoOpt(a)
        | Module(a) => expr(a, inside, out),
        Binary(_, a, b)
        | And(a, b)
        | Or(a, b)
        | Assign(a, b)
        | OpAssign(_, a, b)
        | Index(a, b)
        | While(a, b) => {
            expr(a, inside, out);
            expr(b, inside, out);
        }
        Tuple(es) | Array(_, es) => es.iter().for_each(|x| expr(x, inside, out)),
        Record(bs, fs) => {
            bs.iter().for_each(|x| expr(x, inside, out));
            for f in fs {
                // an object's `public var` field shares its variable's cell
                if let (true, Var(n)) = (f.alias, &f.value.kind) {
                    out.insert(n.clone());
                }
                expr(&f.value, inside, out);
            }
        }
        Variant(_, a) | Break(_, a) | Return(a) => {
            if let Some(a) = a {
                expr(a, inside, out)
            }
        }
        Call(f, args) => {
            expr(f, inside, out);
            args.iter().for_each(|x| expr(x, inside, out));
        }
        Block(ds) => ds.iter().for_each(|d| dec(d, inside, out)),
        If(c, t, f) => {
            expr(c, inside, out);
            expr(t, inside, out);
            if let Some(f) = f {
                expr(f, inside, out);
            }
        }
        Switch(s, cases) => {
            expr(s, inside, out);
            cases.iter().for_each(|c| expr(&c.body, inside, out));
        }
        Loop(b, c) => {
            expr(b, inside, out);
            if let Some(c) = c {
                expr(c, inside, out);
            }
        }
        For(_, a, b) => {
            expr(a, inside, out);
            expr(b, inside, out);
        }
        Func(f) => expr(&f.body, true, out),
    }
}
