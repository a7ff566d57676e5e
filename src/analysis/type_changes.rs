//! What changed inside a stable variable's declared type between two stable signatures: the
//! record fields and variant tags added, removed or retyped, each named by its path
//! (`user.age`, `user.status#banned`, `items[].name`). The two types are walked side by side,
//! each alias expanded in its own signature; the walk is iterative (an explicit stack, no
//! recursion with the types' depth) and bounded in steps, depth and changes listed. Each change
//! carries its verdict under Motoko's upgrade rules (`super::stable_compat`): a tag added to a
//! variant is compatible, a field added to or dropped from a record is not, a part retyped is
//! when its old type is a stable subtype of the new one (the same type below a `var`).

use std::collections::HashSet;
use std::sync::Arc;

use crate::heap::types::{Type, TypeEnv};

use super::stable_compat::{compatible, Variance};

/// Most changes listed for one variable (`complete` is `false` beyond).
pub const MAX_TYPE_CHANGES: usize = 64;
/// Most pairs of types compared for one variable (`complete` is `false` beyond).
pub const MAX_TYPE_STEPS: usize = 10_000;
/// Deepest path followed: below it, two types that differ are one `retyped` change.
pub const MAX_PATH_DEPTH: usize = 64;

/// How a part of a type changed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TypeChangeKind {
    /// A record field or variant tag only in the new type.
    Added,
    /// A record field or variant tag only in the old type.
    Removed,
    /// In both, with another type (or another mutability).
    Retyped,
}

impl TypeChangeKind {
    /// `added`, `removed` or `retyped`.
    pub fn name(self) -> &'static str {
        match self {
            TypeChangeKind::Added => "added",
            TypeChangeKind::Removed => "removed",
            TypeChangeKind::Retyped => "retyped",
        }
    }
}

/// One change inside a type.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TypeChange {
    /// Where: the variable's name, then `.field`, `#tag`, `?` (an option's payload), `[]` (an
    /// array's element), `.N` (a tuple's component).
    pub path: String,
    /// How it changed.
    pub change: TypeChangeKind,
    /// The old type there (`None` for an added field or tag).
    pub before: Option<String>,
    /// The new type there (`None` for a removed field or tag).
    pub after: Option<String>,
    /// Whether the upgrade keeps the value there under Motoko's rules
    /// (`super::stable_compat`): `Some(true)` compatible, `Some(false)` a break, `None`
    /// undecided.
    pub compatible: Option<bool>,
}

/// The changes inside one variable's type.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TypeChanges {
    /// The changes, sorted by path.
    pub changes: Vec<TypeChange>,
    /// Whether the walk ended: `false` when a bound ([`MAX_TYPE_CHANGES`],
    /// [`MAX_TYPE_STEPS`]) stopped it first, so more may have changed.
    pub complete: bool,
}

impl Default for TypeChanges {
    /// No change, and nothing left unseen.
    fn default() -> Self {
        TypeChanges {
            changes: Vec::new(),
            complete: true,
        }
    }
}

/// One pair of types still to compare.
struct Pending {
    path: String,
    old: Arc<Type>,
    new: Arc<Type>,
    depth: usize,
    /// `Same` below a `var` field or a mutable array's element.
    variance: Variance,
    /// Inside a function's argument an odd number of times (contravariant): the new type
    /// there must be a stable subtype of the old one.
    flipped: bool,
}

/// The changes inside the type of variable `name`: `old` read in `old_env` (the old
/// signature's aliases), `new` in `new_env`. A variable whose whole type changed kind (`Nat`
/// to `Text`) has none: only parts inside a record, variant, option, array or tuple are
/// listed.
pub fn type_changes(
    name: &str,
    old: &Arc<Type>,
    old_env: &TypeEnv,
    new: &Arc<Type>,
    new_env: &TypeEnv,
) -> TypeChanges {
    let mut out = TypeChanges {
        changes: Vec::new(),
        complete: true,
    };
    let mut stack = vec![Pending {
        path: name.to_string(),
        old: old.clone(),
        new: new.clone(),
        depth: 0,
        variance: Variance::Sub,
        flipped: false,
    }];
    // pairs of alias applications already compared: a recursive type is walked once
    let mut seen: HashSet<(String, String)> = HashSet::new();
    let mut steps = 0usize;
    while let Some(p) = stack.pop() {
        steps += 1;
        if steps > MAX_TYPE_STEPS || out.changes.len() >= MAX_TYPE_CHANGES {
            out.complete = false;
            break;
        }
        let is_con = |t: &Type| matches!(t, Type::Con { .. });
        if (is_con(&p.old) || is_con(&p.new))
            && !seen.insert((p.old.to_string(), p.new.to_string()))
        {
            continue;
        }
        let (o, n) = match (old_env.normalize(&p.old), new_env.normalize(&p.new)) {
            (Ok(o), Ok(n)) => (o, n),
            // an alias that does not expand: its text is all there is to compare
            _ => (p.old.clone(), p.new.clone()),
        };
        let envs = (old_env, new_env);
        let here = Position {
            variance: p.variance,
            flipped: p.flipped,
        };
        if p.depth >= MAX_PATH_DEPTH {
            retyped_if_differs(&mut out.changes, p.path, (&o, &n), envs, here);
            continue;
        }
        let mut children: Vec<Pending> = Vec::new();
        let child = |path: String, old: &Arc<Type>, new: &Arc<Type>, variance| Pending {
            path,
            old: old.clone(),
            new: new.clone(),
            depth: p.depth + 1,
            variance,
            flipped: p.flipped,
        };
        // a tag only in the old type is kept (the new type a subtype of the old) only in a
        // function's argument; a tag only in the new type only elsewhere (and never below a
        // `var`)
        let sub = p.variance == Variance::Sub;
        let var_below = |mutable: bool| {
            if mutable {
                Variance::Same
            } else {
                p.variance
            }
        };
        match (&*o, &*n) {
            (
                Type::Object {
                    sort: a,
                    fields: fa,
                },
                Type::Object {
                    sort: b,
                    fields: fb,
                },
            ) if a == b => {
                for f in fa.iter() {
                    let path = format!("{}.{}", p.path, f.label);
                    match fb.iter().find(|g| g.label == f.label) {
                        None => out
                            .changes
                            .push(removed(path, field_text(f.mutable, &f.ty))),
                        Some(g) if g.mutable != f.mutable => out.changes.push(TypeChange {
                            path,
                            change: TypeChangeKind::Retyped,
                            before: Some(field_text(f.mutable, &f.ty)),
                            after: Some(field_text(g.mutable, &g.ty)),
                            compatible: Some(false),
                        }),
                        Some(g) => children.push(child(path, &f.ty, &g.ty, var_below(f.mutable))),
                    }
                }
                for g in fb.iter().filter(|g| !fa.iter().any(|f| f.label == g.label)) {
                    let path = format!("{}.{}", p.path, g.label);
                    // a record keeps exactly its fields
                    out.changes
                        .push(added(path, field_text(g.mutable, &g.ty), Some(false)));
                }
            }
            (Type::Variant(ta), Type::Variant(tb)) => {
                for t in ta.iter() {
                    let path = format!("{}#{}", p.path, t.label);
                    match tb.iter().find(|u| u.label == t.label) {
                        None => {
                            let mut change = removed(path, t.ty.to_string());
                            change.compatible = Some(sub && p.flipped);
                            out.changes.push(change)
                        }
                        Some(u) => children.push(child(path, &t.ty, &u.ty, p.variance)),
                    }
                }
                for u in tb.iter().filter(|u| !ta.iter().any(|t| t.label == u.label)) {
                    let path = format!("{}#{}", p.path, u.label);
                    // a variant may gain tags, unless below a `var`
                    out.changes
                        .push(added(path, u.ty.to_string(), Some(sub && !p.flipped)));
                }
            }
            (Type::Opt(a), Type::Opt(b)) => {
                children.push(child(format!("{}?", p.path), a, b, p.variance))
            }
            (Type::Weak(a), Type::Weak(b)) => {
                children.push(child(format!("{}.weak", p.path), a, b, p.variance))
            }
            (
                Type::Array {
                    mutable: ma,
                    elem: a,
                },
                Type::Array {
                    mutable: mb,
                    elem: b,
                },
            ) if ma == mb => children.push(child(format!("{}[]", p.path), a, b, var_below(*ma))),
            (Type::Tuple(a), Type::Tuple(b)) if a.len() == b.len() => {
                for (i, (x, y)) in a.iter().zip(b.iter()).enumerate() {
                    children.push(child(format!("{}.{i}", p.path), x, y, p.variance));
                }
            }
            (Type::Async(a), Type::Async(b)) => {
                children.push(child(p.path.clone(), a, b, p.variance))
            }
            // a function of the same sort: its argument (contravariant) and its result
            (Type::Func(f), Type::Func(g))
                if f.sort == g.sort && f.type_params.is_empty() && g.type_params.is_empty() =>
            {
                let mut arg = child(format!("{}(arg)", p.path), &f.arg, &g.arg, p.variance);
                arg.flipped = !p.flipped;
                children.push(arg);
                children.push(child(
                    format!("{}(result)", p.path),
                    &f.result,
                    &g.result,
                    p.variance,
                ));
            }
            // the variable's own type: its `type_before`/`type_after` say it already
            _ if p.depth == 0 => {}
            _ => retyped_if_differs(&mut out.changes, p.path, (&o, &n), envs, here),
        }
        // popped in label order
        stack.extend(children.into_iter().rev());
    }
    if out.changes.len() > MAX_TYPE_CHANGES {
        out.complete = false;
        out.changes.truncate(MAX_TYPE_CHANGES);
    }
    out.changes.sort_by(|a, b| a.path.cmp(&b.path));
    out
}

/// A field's type as declared (`var T` for a mutable one).
fn field_text(mutable: bool, ty: &Type) -> String {
    if mutable {
        format!("var {ty}")
    } else {
        ty.to_string()
    }
}

fn added(path: String, ty: String, compatible: Option<bool>) -> TypeChange {
    TypeChange {
        path,
        change: TypeChangeKind::Added,
        before: None,
        after: Some(ty),
        compatible,
    }
}

/// A field or tag dropped: never compatible (the value there would be lost).
fn removed(path: String, ty: String) -> TypeChange {
    TypeChange {
        path,
        change: TypeChangeKind::Removed,
        before: Some(ty),
        after: None,
        compatible: Some(false),
    }
}

/// How a part of the type relates to the variable's: below a `var` or not, inside a
/// function's argument or not.
#[derive(Clone, Copy)]
struct Position {
    variance: Variance,
    flipped: bool,
}

/// A `retyped` change at `path` when the two types read differently, with its verdict (in a
/// function's argument, the new type must be a stable subtype of the old).
fn retyped_if_differs(
    out: &mut Vec<TypeChange>,
    path: String,
    (old, new): (&Arc<Type>, &Arc<Type>),
    (old_env, new_env): (&TypeEnv, &TypeEnv),
    at: Position,
) {
    let (before, after) = (old.to_string(), new.to_string());
    if before != after {
        let compatible = if at.flipped {
            compatible(new, new_env, old, old_env, at.variance)
        } else {
            compatible(old, old_env, new, new_env, at.variance)
        };
        out.push(TypeChange {
            path,
            change: TypeChangeKind::Retyped,
            before: Some(before),
            after: Some(after),
            compatible,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::heap::types::parse_signature;

    /// The changes of variable `v` from signature `old` to `new`.
    fn changes(old: &str, new: &str) -> TypeChanges {
        let (o, n) = (parse_signature(old).unwrap(), parse_signature(new).unwrap());
        let (a, b) = (o.var("v").unwrap(), n.var("v").unwrap());
        type_changes("v", &a.ty, &o.env, &b.ty, &n.env)
    }

    fn listed(c: &TypeChanges) -> Vec<String> {
        c.changes
            .iter()
            .map(|c| {
                format!(
                    "{} {} {} -> {}",
                    c.change.name(),
                    c.path,
                    c.before.as_deref().unwrap_or("-"),
                    c.after.as_deref().unwrap_or("-")
                )
            })
            .collect()
    }

    #[test]
    fn fields_and_tags_inside_aliases_options_and_arrays() {
        let c = changes(
            "type S = {#a; #b : Text};\nactor {\n  stable var v : [?{x : Nat; var y : S; z : (Nat, Text)}]\n};\n",
            "type S = {#a : Nat; #c};\nactor {\n  stable var v : [?{w : Text; x : Nat; y : S; z : (Nat, Nat)}]\n};\n",
        );
        assert!(c.complete);
        assert_eq!(
            listed(&c),
            [
                "added v[]?.w - -> Text",
                "retyped v[]?.y var S -> S",
                "retyped v[]?.z.1 Text -> Nat",
            ]
        );
        let c = changes(
            "type S = {#a; #b : Text};\nactor {\n  stable var v : {y : S}\n};\n",
            "type S = {#a : Nat; #c};\nactor {\n  stable var v : {y : S}\n};\n",
        );
        assert_eq!(
            listed(&c),
            [
                "retyped v.y#a () -> Nat",
                "removed v.y#b Text -> -",
                "added v.y#c - -> ()",
            ]
        );
    }

    #[test]
    fn a_recursive_alias_is_walked_once_and_a_same_type_has_no_change() {
        let c = changes(
            "type L = ?(Nat, L);\nactor {\n  stable var v : L\n};\n",
            "type L = ?(Text, L);\nactor {\n  stable var v : L\n};\n",
        );
        assert!(c.complete);
        assert_eq!(listed(&c), ["retyped v?.0 Nat -> Text"]);
        let whole = changes(
            "actor {\n  stable var v : Nat\n};\n",
            "actor {\n  stable var v : Text\n};\n",
        );
        assert_eq!(whole.changes, []);
        let same = "type L = ?(Nat, L);\nactor {\n  stable var v : {a : L; b : [var Nat]}\n};\n";
        assert_eq!(changes(same, same).changes, []);
    }

    #[test]
    fn a_type_that_grows_as_it_expands_ends_at_the_depth_bound() {
        // each expansion makes a new alias application: no pair is seen twice
        let c = changes(
            "type T<A> = ?(A, T<[A]>);\nactor {\n  stable var v : T<Nat>\n};\n",
            "type T<A> = ?(A, T<[A]>);\nactor {\n  stable var v : T<Text>\n};\n",
        );
        assert!(c.complete);
        assert_eq!(c.changes[0].path, "v?.0");
        assert_eq!(c.changes[0].before.as_deref(), Some("Nat"));
        let deepest = c.changes.iter().map(|c| c.path.len()).max().unwrap();
        assert!(deepest < 4 * MAX_PATH_DEPTH, "{deepest}");
        assert!(c.changes.len() <= MAX_PATH_DEPTH, "{}", c.changes.len());
    }

    #[test]
    fn a_wide_change_is_bounded() {
        let fields = |ty: &str| {
            (0..200)
                .map(|i| format!("f{i:03} : {ty}"))
                .collect::<Vec<_>>()
                .join("; ")
        };
        let c = changes(
            &format!("actor {{\n  stable var v : {{{}}}\n}};\n", fields("Nat")),
            &format!("actor {{\n  stable var v : {{{}}}\n}};\n", fields("Text")),
        );
        assert!(!c.complete);
        assert_eq!(c.changes.len(), MAX_TYPE_CHANGES);
    }
}

#[cfg(test)]
mod verdict_tests {
    use super::*;
    use crate::heap::types::parse_signature;

    /// `path compatible` of each change of `v` from `old` to `new` (the variable's type).
    fn verdicts(old: &str, new: &str) -> Vec<(String, Option<bool>)> {
        let sig = |t: &str| parse_signature(&format!("actor {{\n  stable var v : {t}\n}};\n"));
        let (o, n) = (sig(old).unwrap(), sig(new).unwrap());
        let (a, b) = (o.var("v").unwrap(), n.var("v").unwrap());
        type_changes("v", &a.ty, &o.env, &b.ty, &n.env)
            .changes
            .into_iter()
            .map(|c| (c.path, c.compatible))
            .collect()
    }

    #[test]
    fn each_change_carries_motokos_verdict() {
        let v = |p: &str, c| (p.to_string(), Some(c));
        assert_eq!(
            verdicts(
                "{n : Nat; s : {#a; #b : Text}; t : Text; var m : {#a}; d : Nat}",
                "{n : Int; s : {#a; #b : Text; #c}; t : Nat; var m : {#a; #b}; e : Nat}"
            ),
            [
                v("v.d", false),
                v("v.e", false),
                v("v.m#b", false),
                v("v.n", true),
                v("v.s#c", true),
                v("v.t", false),
            ]
        );
        assert_eq!(verdicts("[var ?Nat]", "[var ?Int]"), [v("v[]?", false)]);
        assert_eq!(verdicts("[?Nat]", "[?Int]"), [v("v[]?", true)]);
    }

    #[test]
    fn changes_inside_a_function_type_are_listed_with_the_functions_variance() {
        let v = |p: &str, c| (p.to_string(), Some(c));
        // the result covariant, the argument contravariant (moc's `stable_sub`)
        assert_eq!(
            verdicts(
                "{f : shared query () -> async Nat}",
                "{f : shared query () -> async Int}"
            ),
            [v("v.f(result)", true)]
        );
        assert_eq!(
            verdicts(
                "{f : shared query () -> async Int}",
                "{f : shared query () -> async Nat}"
            ),
            [v("v.f(result)", false)]
        );
        assert_eq!(
            verdicts("{f : shared Int -> ()}", "{f : shared Nat -> ()}"),
            [v("v.f(arg)", true)]
        );
        assert_eq!(
            verdicts("{f : shared Nat -> ()}", "{f : shared Int -> ()}"),
            [v("v.f(arg)", false)]
        );
        // a tag may go from an argument's variant, not come; a record's fields stay
        assert_eq!(
            verdicts(
                "shared {#a; #b} -> async {x : Nat}",
                "shared {#a; #c} -> async {x : Nat; y : Nat}"
            ),
            [
                v("v(arg)#b", true),
                v("v(arg)#c", false),
                v("v(result).y", false),
            ]
        );
        // two arguments: each contravariant; a function's argument inside an argument: covariant
        assert_eq!(
            verdicts(
                "shared (Int, shared Nat -> ()) -> ()",
                "shared (Nat, shared Int -> ()) -> ()"
            ),
            [v("v(arg).0", true), v("v(arg).1(arg)", true)]
        );
        // another sort, or a one-way function made to return: the function as a whole
        assert_eq!(
            verdicts(
                "{f : shared query () -> async Nat}",
                "{f : shared () -> async Nat}"
            ),
            [v("v.f", false)]
        );
        assert_eq!(
            verdicts("{f : shared Nat -> ()}", "{f : shared Nat -> async ()}"),
            [v("v.f(result)", false)]
        );
        // each verdict agrees with the variable's own (`stable_compat::compatible`)
        for (old, new) in [
            ("{f : shared Int -> ()}", "{f : shared Nat -> ()}"),
            ("{f : shared Nat -> ()}", "{f : shared Int -> ()}"),
            ("shared {#a; #b} -> ()", "shared {#a} -> ()"),
            ("shared {#a} -> ()", "shared {#a; #b} -> ()"),
        ] {
            let sig = |t: &str| parse_signature(&format!("actor {{\n  stable var v : {t}\n}};\n"));
            let (o, n) = (sig(old).unwrap(), sig(new).unwrap());
            let (a, b) = (o.var("v").unwrap(), n.var("v").unwrap());
            let whole = compatible(&a.ty, &o.env, &b.ty, &n.env, Variance::Sub);
            let parts = verdicts(old, new);
            assert!(!parts.is_empty(), "{old} -> {new}");
            let all = parts.iter().all(|(_, c)| *c == Some(true));
            assert_eq!(whole, Some(all), "{old} -> {new}: {parts:?}");
        }
    }
}
