//! The type table over parsed signatures: labels, collection recognition, bounds.

use std::sync::Arc;

use super::*;
use crate::heap::types::{parse_signature, parse_type};

const SIG: &str = "// Version: 1.0.0
type Data__683484641<K, V> =
  {var count : Nat__142896701; kvs : [var ?(K, V)]};
type Internal__879385083<K, V> =
  {children : [var ?Node__984751753<K, V>]; data : Data__683484641<K, V>};
type Leaf__513553565<K, V> = {data : Data__683484641<K, V>};
type Nat__142896701 = Nat__920180692;
type Nat__920180692 = Nat;
type Node__984751753<K, V> =
  {#internal : Internal__879385083<K, V>; #leaf : Leaf__513553565<K, V>};
type Person__1 = {age : Nat; name : Text};
type Loop__2 = ?Loop__2;
type Grow__3<A> = ?(A, Grow__3<(A, A)>);
actor {
  stable var m :
    {var root : Node__984751753<Nat, Text>; var size : Nat__142896701};
  stable var p : {age : Nat; name : Text};
  stable var ps : [Person__1];
  stable var l : Loop__2;
  stable var g : Grow__3<Nat>
};
";

fn var_type(
    sig: &crate::heap::types::StableSignature,
    name: &str,
) -> Arc<crate::heap::types::Type> {
    sig.var(name).unwrap().ty.clone()
}

#[test]
fn labels_name_collections_and_aliases() {
    let sig = parse_signature(SIG).unwrap();
    let mut t = TypeTable::for_signature(&sig);
    let m = t.intern(&var_type(&sig, "m"));
    assert_eq!(
        t.container(m),
        Some(Container::Map {
            key: t.intern(&Arc::new(parse_type("Nat").unwrap())),
            value: t.intern(&Arc::new(parse_type("Text").unwrap())),
        })
    );
    assert_eq!(&*t.label(m), "Map<Nat, Text>");
    let p = t.intern(&var_type(&sig, "p"));
    assert_eq!(&*t.label(p), "Person");
    let ps = t.intern(&var_type(&sig, "ps"));
    assert_eq!(&*t.label(ps), "[Person]");
    // the map's parts keep their alias names without the suffix
    let Shape::Record(fs) = t.shape(m).clone() else {
        panic!("record")
    };
    let root = fs.iter().find(|f| &*f.label == "root").unwrap();
    assert!(root.mutable);
    assert_eq!(&*t.label(root.ty), "Node<Nat, Text>");
    assert_eq!(t.container(root.ty), None);
}

#[test]
fn recursive_aliases_stay_bounded() {
    let sig = parse_signature(SIG).unwrap();
    let mut t = TypeTable::for_signature(&sig);
    // `type Loop = ?Loop`: an option of itself; its shape is found, not looped
    let l = t.intern(&var_type(&sig, "l"));
    let Shape::Opt(inner) = *t.shape(l) else {
        panic!("option")
    };
    assert!(matches!(t.shape(inner), Shape::Opt(_)));
    // a non-regular alias doubles its argument at every level: beyond MAX_TYPE_NODES nodes
    // the type is untyped (hashing it would take exponential time)
    let mut g = t.intern(&var_type(&sig, "g"));
    let mut levels = 0;
    for _ in 0..100 {
        levels += 1;
        let Shape::Opt(pair) = *t.shape(g) else {
            break;
        };
        let Shape::Tuple(ts) = t.shape(pair).clone() else {
            break;
        };
        g = ts[1];
    }
    // (12 doublings pass 4096 nodes; the part beyond is untyped)
    assert!(levels < 20, "{levels} levels");
    assert!(t.len() <= MAX_TYPES);
    assert!(matches!(t.shape(UNTYPED), Shape::Untyped));
    // its label is bounded
    assert!(t.label(g).chars().count() <= MAX_LABEL_CHARS);
}

/// A `mo:core` Map or List written through an alias (of the collection's record) has the
/// collection's structure, and its label names the collection.
#[test]
fn collections_behind_aliases_have_their_structure() {
    let sig = parse_signature(
        "// Version: 1.0.0
type Data__683484641<K, V> =
  {var count : Nat; kvs : [var ?(K, V)]};
type Internal__879385083<K, V> =
  {children : [var ?Node__984751753<K, V>]; data : Data__683484641<K, V>};
type Leaf__513553565<K, V> = {data : Data__683484641<K, V>};
type Node__984751753<K, V> =
  {#internal : Internal__879385083<K, V>; #leaf : Leaf__513553565<K, V>};
type Index__1 = {var root : Node__984751753<Nat, Text>; var size : Nat};
type Queue__2 = {var blockIndex : Nat; var blocks : [var [var ?Nat]]; var elementIndex : Nat};
actor {
  stable var index : Index__1;
  stable var queue : Queue__2;
  stable var other : {var size : Nat; var root : Nat}
};
",
    )
    .unwrap();
    let mut t = TypeTable::for_signature(&sig);
    for (var, label, shape) in [
        ("index", Some("Map<Nat, Text>"), LabelShape::MapOrSet),
        ("queue", Some("List<Nat>"), LabelShape::List),
        ("other", None, LabelShape::Other),
    ] {
        let id = t.intern(&var_type(&sig, var));
        if let Some(label) = label {
            assert_eq!(&*t.label(id), label, "{var}");
        }
        assert_eq!(LabelShape::of(&mut t, id), shape, "{var}");
    }
}
