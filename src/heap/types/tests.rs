//! Parser tests against signatures emitted by the pinned moc (npm `motoko` 4.10.0).

use std::sync::Arc;

use super::*;

/// From a `persistent actor` with a core `Map`, variants, records, options, shared funcs.
const SIG_MAP: &str = "// Version: 1.0.0
type Data__683484641<K, V> =
  {var count : Nat__142896701; kvs : [var ?(K, V)]};
type Internal__879385083<K, V> =
  {children : [var ?Node__984751753<K, V>]; data : Data__683484641<K, V>};
type Leaf__513553565<K, V> = {data : Data__683484641<K, V>};
type Nat__142896701 = Nat__920180692;
type Nat__920180692 = Nat;
type Node__984751753<K, V> =
  {#internal : Internal__879385083<K, V>; #leaf : Leaf__513553565<K, V>};
actor {
  stable var act : actor {foo : shared () -> async ()};
  stable var arr : [var Nat64];
  stable var c : {#blue : (Nat, Text); #green : Nat; #red};
  stable var f : shared () -> async ();
  stable k : Nat;
  stable var m :
    {var root : Node__984751753<Nat, Text>; var size : Nat__142896701};
  stable var o : ??Nat;
  stable var q : shared query Nat -> async Text;
  stable var r : {age : Nat8; name : Text; var score : Nat};
  stable var reg : ?Region;
  stable t : (Int, Float, Char, Blob, Principal);
  stable var w : Int32
};
";

/// Bounded generics, named function arguments, composite queries, weak, unit.
const SIG_MISC: &str = "// Version: 1.0.0
type T__579675867<X <: {a : Nat}> = {x : X; y : ?T__579675867<X>};
actor {
  stable var a :
    {x : {a : Nat; b : Text}; y : ?T__579675867<{a : Nat; b : Text}>};
  stable var anyv : Any;
  stable var cqv : shared composite query () -> async ();
  stable var e : {};
  stable var fn1 : shared (n : Nat, t : Text) -> async (Nat, Text);
  stable var nul : Null;
  stable var owv : shared Nat -> ();
  stable var u : ();
  stable var w : {ref : weak [Nat]}
};
";

/// A migration signature (`with migration`): Version 3.0.0, `actor (pre, post)`.
const SIG_MIGRATION: &str = "// Version: 3.0.0
actor ({
  stable var fl : [Float];
  in var x : Nat;
  stable var z : Text
}, {
  stable var fl : [Float];
  stable var y : Nat;
  stable var z : Text
});
";

#[test]
fn parses_map_signature() {
    let sig = parse_signature(SIG_MAP).unwrap();
    assert_eq!(sig.version.as_deref(), Some("1.0.0"));
    let names: Vec<&str> = sig.vars.iter().map(|v| &*v.name).collect();
    assert_eq!(
        names,
        ["act", "arr", "c", "f", "k", "m", "o", "q", "r", "reg", "t", "w"]
    );
    assert_eq!(sig.var("k").unwrap().kind, VarKind::Let);
    assert_eq!(sig.var("m").unwrap().kind, VarKind::Var);
    assert_eq!(
        sig.var("c").unwrap().ty.to_string(),
        "{#blue : (Nat, Text); #green : Nat; #red}"
    );
    assert_eq!(sig.var("o").unwrap().ty.to_string(), "??Nat");
    assert_eq!(
        sig.var("q").unwrap().ty.to_string(),
        "shared query Nat -> async Text"
    );
    assert_eq!(
        sig.var("act").unwrap().ty.to_string(),
        "actor {foo : shared () -> async ()}"
    );
    // Expanding the Map's root through generic aliases.
    let m = sig.env.normalize(&sig.var("m").unwrap().ty).unwrap();
    // The expansion of a generic application is remembered: the same `Arc` again, equal to
    // a fresh substitution by a clone of the environment (a clone starts with no memo).
    let again = sig.env.normalize(&sig.var("m").unwrap().ty).unwrap();
    assert!(
        std::sync::Arc::ptr_eq(&m, &again)
            || !matches!(&*sig.var("m").unwrap().ty, Type::Con { args, .. } if !args.is_empty())
    );
    let fresh = sig
        .env
        .clone()
        .normalize(&sig.var("m").unwrap().ty)
        .unwrap();
    assert_eq!(fresh, m);
    let Type::Object { fields, .. } = &*m else {
        panic!("not an object: {m}")
    };
    assert!(fields[0].mutable);
    let root = sig.env.normalize(&fields[0].ty).unwrap();
    assert_eq!(
        root.to_string(),
        "{#internal : Internal__879385083<Nat, Text>; #leaf : Leaf__513553565<Nat, Text>}"
    );
    let Type::Variant(tags) = &*root else {
        panic!()
    };
    let leaf = sig.env.normalize(&tags[1].ty).unwrap();
    assert_eq!(leaf.to_string(), "{data : Data__683484641<Nat, Text>}");
    let size = sig.env.normalize(&fields[1].ty).unwrap();
    assert_eq!(*size, Type::Prim(Prim::Nat));
}

#[test]
fn parses_misc_signature() {
    let sig = parse_signature(SIG_MISC).unwrap();
    let a = sig.env.normalize(&sig.var("a").unwrap().ty).unwrap();
    assert_eq!(
        a.to_string(),
        "{x : {a : Nat; b : Text}; y : ?T__579675867<{a : Nat; b : Text}>}"
    );
    let Type::Object { fields, .. } = &*a else {
        panic!()
    };
    let Type::Opt(inner) = &*fields[1].ty else {
        panic!()
    };
    assert_eq!(
        sig.env.normalize(inner).unwrap().to_string(),
        "{x : {a : Nat; b : Text}; y : ?T__579675867<{a : Nat; b : Text}>}"
    );
    assert_eq!(
        sig.var("fn1").unwrap().ty.to_string(),
        "shared (Nat, Text) -> async (Nat, Text)"
    );
    assert_eq!(
        sig.var("cqv").unwrap().ty.to_string(),
        "shared composite query () -> async ()"
    );
    assert_eq!(sig.var("w").unwrap().ty.to_string(), "{ref : weak [Nat]}");
    assert!(sig.var("u").unwrap().ty.is_unit());
    assert_eq!(sig.var("e").unwrap().ty.to_string(), "{}");
    assert_eq!(*sig.var("anyv").unwrap().ty, Type::Prim(Prim::Any));
}

#[test]
fn parses_migration_signature() {
    let sig = parse_signature(SIG_MIGRATION).unwrap();
    assert_eq!(sig.version.as_deref(), Some("3.0.0"));
    let names: Vec<&str> = sig.vars.iter().map(|v| &*v.name).collect();
    assert_eq!(names, ["fl", "y", "z"]);
    let pre = sig.pre.as_ref().unwrap();
    assert!(pre[1].in_only);
    assert_eq!(&*pre[1].name, "x");
}

#[test]
fn labels_are_hashed() {
    let t = parse_type("{#red; #green : Nat}").unwrap();
    let Type::Variant(tags) = t else { panic!() };
    assert_eq!(tags[0].hash, label_hash("red"));
    assert!(tags[0].ty.is_unit());
    assert_eq!(parse_type("{#}").unwrap(), Type::Variant(Arc::from(vec![])));
    assert_eq!(parse_type("(Nat,)").unwrap().to_string(), "(Nat,)");
    assert_eq!(parse_type("(Nat)").unwrap(), Type::Prim(Prim::Nat));
    assert_eq!(parse_type("() -> ()").unwrap().to_string(), "() -> ()");
    assert_eq!(
        parse_type("<T>(T, [T]) -> ?T").unwrap().to_string(),
        "<T>(T, [T]) -> ?T"
    );
}

#[test]
fn errors_name_line_and_column() {
    let e =
        parse_signature("// Version: 1.0.0\nactor {\n  stable var x : Nat Text\n};\n").unwrap_err();
    assert_eq!(
        e.to_string(),
        "stable signature, line 3, column 22: expected `;` or `}`, found `Text`"
    );
    let e = parse_signature("actor {\n  stable var x : Foo__1<Nat>\n}").unwrap_err();
    assert!(
        matches!(
            e,
            TypeError::UnknownType {
                line: 2,
                col: 18,
                ..
            }
        ),
        "{e}"
    );
    let e = parse_signature("type A<T> = ?T;\nactor { stable var x : A }").unwrap_err();
    assert!(
        matches!(
            e,
            TypeError::Arity {
                expected: 1,
                got: 0,
                ..
            }
        ),
        "{e}"
    );
    let e = parse_signature("actor { stable var x : Nat $ }").unwrap_err();
    assert!(e.to_string().contains("unexpected character '$'"), "{e}");
}

#[test]
fn cyclic_aliases_and_deep_nesting_are_refused() {
    let sig = parse_signature("type A = B;\ntype B = A;\nactor { stable var x : A }").unwrap();
    let e = sig.env.normalize(&sig.vars[0].ty).unwrap_err();
    assert!(matches!(e, TypeError::Cyclic { .. }), "{e}");
    let deep = format!("actor {{ stable var x : {}Nat }}", "?".repeat(10_000));
    let e = parse_signature(&deep).unwrap_err();
    assert!(matches!(e, TypeError::TooDeep { .. }), "{e}");
    let deep = format!(
        "actor {{ stable var x : {}Nat{} }}",
        "[".repeat(5_000),
        "]".repeat(5_000)
    );
    assert!(matches!(
        parse_signature(&deep).unwrap_err(),
        TypeError::TooDeep { .. }
    ));
}

#[test]
fn every_truncation_is_an_error_not_a_panic() {
    for sig in [SIG_MAP, SIG_MISC, SIG_MIGRATION] {
        let whole = parse_signature(sig).expect("the whole signature");
        // The signature without its optional final `;` and trailing whitespace.
        let body = |s: &str| {
            let s = s.trim_end();
            s.strip_suffix(';').unwrap_or(s).trim_end().len()
        };
        for (i, _) in sig.char_indices() {
            let cut = &sig[..i];
            match parse_signature(cut) {
                // Only the final `;` or whitespace cut off: the same signature.
                Ok(s) if body(cut) == body(sig) => assert_eq!(s, whole),
                Ok(s) => panic!("the truncation to {i} bytes parsed: {s:?}\n{cut}"),
                Err(e) => assert!(!e.to_string().is_empty(), "truncation to {i} bytes"),
            }
        }
    }
}
