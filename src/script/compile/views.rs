//! Loop variables that are only looked into: `for (r in xs.vals()) { sum += r.id }`.
//!
//! When a `for` loop's variable is used only to read its fields (`r.f`) or to iterate or
//! measure it (`r.vals()`, `r.values()`, `r.size()`), nothing can tell a record or array
//! from a light reference to it that reads those parts when asked: the loop may then bind
//! such references ([`crate::script::value::NativeIter::next_view`]), so a script visiting
//! millions of records held by a canister reads only the fields it uses.

use crate::script::syntax::ast::{Dec, Expr, ExprKind, Pat, PatKind};

/// The methods a viewed variable may be called with (no arguments): their results are
/// ordinary values, the same for a reference as for the value.
const VIEW_METHODS: [&str; 3] = ["vals", "values", "size"];

/// Whether the `for` loop `for (pat in _) body` may bind light references: `pat` is one
/// variable and `body` only reads its fields or calls [`VIEW_METHODS`] on it.
pub fn viewed_loop(pat: &Pat, body: &Expr) -> bool {
    let PatKind::Var(name) = &pat.kind else {
        return false;
    };
    only_looked_into(body, name)
}

/// Whether every use of variable `x` in `e` is a field read or a [`VIEW_METHODS`] call (a
/// shadowing binding of the same name is held to the same rule: conservative).
fn only_looked_into(e: &Expr, x: &str) -> bool {
    let is_x = |e: &Expr| matches!(&e.kind, ExprKind::Var(n) if n == x);
    let all = |es: &[Expr]| es.iter().all(|e| only_looked_into(e, x));
    use ExprKind::*;
    match &e.kind {
        Var(n) => n != x,
        Lit(_) | Continue(_) => true,
        // A field read.
        Dot(a, _) if is_x(a) => true,
        Call(f, args) => match &f.kind {
            Dot(a, m) if is_x(a) => args.is_empty() && VIEW_METHODS.contains(&m.as_str()),
            _ => only_looked_into(f, x) && all(args),
        },
        // A field of the variable is never assigned to.
        Assign(a, b) | OpAssign(_, a, b) => {
            !matches!(&a.kind, Dot(r, _) if is_x(r))
                && only_looked_into(a, x)
                && only_looked_into(b, x)
        }
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
        | Module(a) => only_looked_into(a, x),
        Binary(_, a, b) | And(a, b) | Or(a, b) | Index(a, b) | While(a, b) => {
            only_looked_into(a, x) && only_looked_into(b, x)
        }
        Tuple(es) | Array(_, es) => all(es),
        Record(bs, fs) => all(bs) && fs.iter().all(|f| only_looked_into(&f.value, x)),
        Variant(_, a) | Break(_, a) | Return(a) => {
            a.as_ref().is_none_or(|a| only_looked_into(a, x))
        }
        Block(ds) => ds.iter().all(|d| dec(d, x)),
        If(c, t, f) => {
            only_looked_into(c, x)
                && only_looked_into(t, x)
                && f.as_ref().is_none_or(|f| only_looked_into(f, x))
        }
        Switch(s, cases) => {
            only_looked_into(s, x) && cases.iter().all(|c| only_looked_into(&c.body, x))
        }
        Loop(b, c) => only_looked_into(b, x) && c.as_ref().is_none_or(|c| only_looked_into(c, x)),
        For(_, a, b) => only_looked_into(a, x) && only_looked_into(b, x),
        Func(f) => only_looked_into(&f.body, x),
    }
}

fn dec(d: &Dec, x: &str) -> bool {
    match d {
        Dec::Exp(e) | Dec::Var(_, _, e, _) => only_looked_into(e, x),
        Dec::Let(_, e, f) => {
            only_looked_into(e, x) && f.as_ref().is_none_or(|f| only_looked_into(f, x))
        }
        Dec::Func(f) => only_looked_into(&f.body, x),
        Dec::Type(..) | Dec::Import(..) => true,
    }
}

#[cfg(test)]
mod tests {
    use super::viewed_loop;
    use crate::script::syntax::ast::{Dec, ExprKind};

    /// Whether the first `for` loop of `src` may bind references.
    fn viewed(src: &str) -> bool {
        let prog = crate::script::syntax::parse_program(src).expect("parses");
        let mut stack: Vec<&crate::script::syntax::ast::Expr> = prog
            .decs
            .iter()
            .filter_map(|d| match d {
                Dec::Exp(e) => Some(e),
                _ => None,
            })
            .collect();
        while let Some(e) = stack.pop() {
            match &e.kind {
                ExprKind::For(p, _, b) => return viewed_loop(p, b),
                ExprKind::Block(ds) => stack.extend(ds.iter().filter_map(|d| match d {
                    Dec::Exp(e) => Some(e),
                    _ => None,
                })),
                _ => {}
            }
        }
        panic!("no for loop in {src}")
    }

    #[test]
    fn field_reads_and_iteration_only() {
        assert!(viewed("for (r in xs.vals()) { n += r.id }"));
        assert!(viewed(
            "for (c in xs.vals()) { for (r in c.vals()) { n += c.size() + r.a.b } }"
        ));
        assert!(viewed("for (r in xs.vals()) { let r = 1; n += 1 }"));
        assert!(!viewed("for (r in xs.vals()) { n += 1; ys.add(r) }"));
        assert!(!viewed("for (r in xs.vals()) { if (r == y) n += 1 }"));
        assert!(!viewed("for (r in xs.vals()) { t #= debug_show r }"));
        assert!(!viewed("for (r in xs.vals()) { r.id := 1 }"));
        assert!(!viewed("for (r in xs.vals()) { n += r.get(0) }"));
        assert!(!viewed("for (r in xs.vals()) { n += r.0 }"));
        assert!(!viewed("for ((a, b) in xs.vals()) { n += a }"));
        assert!(!viewed(
            "for (r in xs.vals()) { let f = func () : Nat { r.size() + g(r) } }"
        ));
    }
}
