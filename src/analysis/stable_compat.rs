//! Motoko's upgrade compatibility of stable types: whether a stable variable's value of the old
//! declared type is kept by an upgrade to a program declaring the new type. The rules are
//! moc's stable subtyping (`stable_sub`, the check `--stable-compatible` makes and the one the
//! runtime of enhanced orthogonal persistence makes on its type descriptors before it accepts
//! the new program): `Nat` to `Int`; `Null` to an option; `None` to anything; options, weak
//! references, immutable arrays and tuples covariantly; a record or object keeps exactly its
//! fields (none dropped, none added); a variant may gain tags, never lose one; a `var` field
//! or a mutable array's element must stay the same type (invariant); nothing but `Any` becomes
//! `Any` (information would be lost); functions contravariant in their argument, covariant in
//! their result, of the same sort. The walk is iterative (an explicit stack), assumes a pair it
//! already met holds (recursive types, as moc's relation does) and is bounded in steps.

use std::collections::HashSet;
use std::sync::Arc;

use crate::heap::types::{Prim, Type, TypeEnv};

/// Most pairs of types compared for one question (the answer is `None` beyond).
pub const MAX_COMPAT_STEPS: usize = 10_000;
/// Deepest pair followed from the question's two types (the answer is `None` below it, as
/// moc's relation gives up at its depth bound): a type that grows as its aliases expand ends.
pub const MAX_COMPAT_DEPTH: usize = 128;

/// How two types must relate.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Variance {
    /// The old type a stable subtype of the new one.
    Sub,
    /// Both the same type (inside a `var` field or a mutable array).
    Same,
}

/// Which signature a type is read in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Side {
    Old,
    New,
}

/// One question still open: `left` must relate to `right` by `variance`.
struct Goal {
    left: Arc<Type>,
    left_side: Side,
    right: Arc<Type>,
    right_side: Side,
    variance: Variance,
    depth: usize,
}

/// Whether a value of type `old` (read in `old_env`) upgrades to type `new` (read in
/// `new_env`) under `variance`: `Some(true)` compatible, `Some(false)` refused, `None`
/// undecided (an alias that does not expand, a generic function whose text differs, or more
/// than [`MAX_COMPAT_STEPS`] pairs).
pub fn compatible(
    old: &Arc<Type>,
    old_env: &TypeEnv,
    new: &Arc<Type>,
    new_env: &TypeEnv,
    variance: Variance,
) -> Option<bool> {
    let env = |s: Side| if s == Side::Old { old_env } else { new_env };
    let mut stack = vec![Goal {
        left: old.clone(),
        left_side: Side::Old,
        right: new.clone(),
        right_side: Side::New,
        variance,
        depth: 0,
    }];
    // pairs met before are assumed to hold (the relation's greatest fixed point)
    let mut seen: HashSet<(String, Side, String, Side, Variance)> = HashSet::new();
    let mut steps = 0usize;
    while let Some(g) = stack.pop() {
        steps += 1;
        if steps > MAX_COMPAT_STEPS || g.depth > MAX_COMPAT_DEPTH {
            return None;
        }
        let is_con = |t: &Type| matches!(t, Type::Con { .. });
        if (is_con(&g.left) || is_con(&g.right))
            && !seen.insert((
                g.left.to_string(),
                g.left_side,
                g.right.to_string(),
                g.right_side,
                g.variance,
            ))
        {
            continue;
        }
        let a = env(g.left_side).normalize(&g.left).ok()?;
        let b = env(g.right_side).normalize(&g.right).ok()?;
        let sub = g.variance == Variance::Sub;
        let goal = |left: &Arc<Type>, right: &Arc<Type>, variance: Variance| Goal {
            left: left.clone(),
            left_side: g.left_side,
            right: right.clone(),
            right_side: g.right_side,
            variance,
            depth: g.depth + 1,
        };
        let ok = match (&*a, &*b) {
            (Type::Prim(p), Type::Prim(q)) if p == q => true,
            (Type::Prim(Prim::Nat), Type::Prim(Prim::Int)) => sub,
            (Type::Prim(Prim::None), _) => sub,
            // information lost: refused by the stable relation
            (_, Type::Prim(Prim::Any)) => false,
            (Type::Prim(Prim::Null), Type::Opt(_)) => sub,
            (Type::Opt(x), Type::Opt(y)) | (Type::Weak(x), Type::Weak(y)) => {
                stack.push(goal(x, y, g.variance));
                true
            }
            (Type::Async(x), Type::Async(y)) => {
                stack.push(goal(x, y, g.variance));
                true
            }
            (
                Type::Array {
                    mutable: m,
                    elem: x,
                },
                Type::Array {
                    mutable: n,
                    elem: y,
                },
            ) if m == n => {
                stack.push(goal(x, y, if *m { Variance::Same } else { g.variance }));
                true
            }
            (Type::Tuple(xs), Type::Tuple(ys)) if xs.len() == ys.len() => {
                for (x, y) in xs.iter().zip(ys.iter()) {
                    stack.push(goal(x, y, g.variance));
                }
                true
            }
            (
                Type::Object {
                    sort: s,
                    fields: fs,
                },
                Type::Object {
                    sort: t,
                    fields: gs,
                },
            ) if s == t => {
                // the same labels on both sides, each with the same mutability
                fs.len() == gs.len()
                    && fs.iter().all(|f| {
                        let Some(h) = gs.iter().find(|h| h.label == f.label) else {
                            return false;
                        };
                        if h.mutable != f.mutable {
                            return false;
                        }
                        let v = if f.mutable {
                            Variance::Same
                        } else {
                            g.variance
                        };
                        stack.push(goal(&f.ty, &h.ty, v));
                        true
                    })
            }
            (Type::Variant(ts), Type::Variant(us)) => {
                (sub || ts.len() == us.len())
                    && ts.iter().all(|t| {
                        let Some(u) = us.iter().find(|u| u.label == t.label) else {
                            return false;
                        };
                        stack.push(goal(&t.ty, &u.ty, g.variance));
                        true
                    })
            }
            (Type::Func(f), Type::Func(h)) if f.sort == h.sort => {
                if f.type_params.is_empty() && h.type_params.is_empty() {
                    // contravariant in the argument: the new one's read first
                    stack.push(Goal {
                        left: h.arg.clone(),
                        left_side: g.right_side,
                        right: f.arg.clone(),
                        right_side: g.left_side,
                        variance: g.variance,
                        depth: g.depth + 1,
                    });
                    stack.push(goal(&f.result, &h.result, g.variance));
                    true
                } else if a.to_string() == b.to_string()
                    && f.type_params.len() == h.type_params.len()
                {
                    // a generic function: its text, aliases aside, is all that is compared
                    true
                } else {
                    return None;
                }
            }
            (Type::Var(x), Type::Var(y)) => x == y,
            _ => false,
        };
        if !ok {
            return Some(false);
        }
    }
    Some(true)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::heap::types::parse_signature;

    /// Whether `v` of signature `old` upgrades to `v` of `new`.
    fn compat(old: &str, new: &str) -> Option<bool> {
        let sig = |t: &str| parse_signature(&format!("actor {{\n  stable var v : {t}\n}};\n"));
        let (o, n) = (sig(old).unwrap(), sig(new).unwrap());
        let (a, b) = (o.var("v").unwrap(), n.var("v").unwrap());
        compatible(&a.ty, &o.env, &b.ty, &n.env, Variance::Sub)
    }

    #[test]
    fn moc_stable_subtyping_rules() {
        let yes = [
            ("Nat", "Nat"),
            ("Nat", "Int"),
            ("Null", "?Text"),
            ("None", "Text"),
            ("?Nat", "?Int"),
            ("[Nat]", "[Int]"),
            ("(Nat, Text)", "(Int, Text)"),
            ("{a : Nat; b : Text}", "{a : Int; b : Text}"),
            ("{#a; #b : Nat}", "{#a; #b : Int; #c : Text}"),
            ("Any", "Any"),
            ("shared Int -> async Nat", "shared Nat -> async Int"),
        ];
        for (o, n) in yes {
            assert_eq!(compat(o, n), Some(true), "{o} -> {n}");
        }
        let no = [
            ("Int", "Nat"),
            ("Nat", "Text"),
            ("Nat", "Any"),
            ("?Text", "Null"),
            ("Text", "?Text"),
            ("[var Nat]", "[var Int]"),
            ("[Nat]", "[var Nat]"),
            ("{a : Nat; b : Text}", "{a : Nat}"),
            ("{a : Nat}", "{a : Nat; b : Text}"),
            ("{var a : Nat}", "{var a : Int}"),
            ("{var a : Nat}", "{a : Nat}"),
            ("{var a : {#x}}", "{var a : {#x; #y}}"),
            ("{#a; #b : Nat}", "{#a}"),
            ("(Nat, Text)", "(Nat, Text, Nat)"),
            ("shared Nat -> async Nat", "shared Int -> async Nat"),
            ("shared Nat -> async Nat", "shared query Nat -> async Nat"),
        ];
        for (o, n) in no {
            assert_eq!(compat(o, n), Some(false), "{o} -> {n}");
        }
    }

    #[test]
    fn aliases_are_read_in_their_own_signature_and_recursion_ends() {
        let (o, n) = (
            parse_signature("type L = ?(Nat, L);\nactor {\n  stable var v : L\n};\n").unwrap(),
            parse_signature("type L = ?(Int, L);\nactor {\n  stable var v : L\n};\n").unwrap(),
        );
        let (a, b) = (o.var("v").unwrap(), n.var("v").unwrap());
        assert_eq!(
            compatible(&a.ty, &o.env, &b.ty, &n.env, Variance::Sub),
            Some(true)
        );
        assert_eq!(
            compatible(&b.ty, &n.env, &a.ty, &o.env, Variance::Sub),
            Some(false)
        );
        assert_eq!(
            compatible(&a.ty, &o.env, &b.ty, &n.env, Variance::Same),
            Some(false)
        );
    }
}
