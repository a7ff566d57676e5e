//! Recognition by structure: every collection under made-up alias names (and none of the
//! look-alikes), as a signature can spell them.

use super::{recognize, CollectionKind};
use crate::heap::types::parse_signature;

const SIG: &str = "// Version: 1.0.0
type Node<K, V> = {#internal : {children : [var ?Node<K, V>]; data : Data<K, V>}; #leaf : {data : Data<K, V>}};
type Data<K, V> = {var count : Nat; kvs : [var ?(K, V)]};
type SNode<T> = {#internal : {children : [var ?SNode<T>]; data : {var count : Nat; elements : [var ?T]}}; #leaf : {data : {var count : Nat; elements : [var ?T]}}};
type Cells<T> = ?(T, Cells<T>);
type QNode<T> = {var next : ?QNode<T>; var previous : ?QNode<T>; value : T};
type Rb<K, V> = {#black : (Rb<K, V>, K, V, Rb<K, V>); #leaf; #red : (Rb<K, V>, K, V, Rb<K, V>)};
type RbSet<T> = {#black : (RbSet<T>, T, RbSet<T>); #leaf; #red : (RbSet<T>, T, RbSet<T>)};
type Old<K, V> = {#leaf; #node : ({#B; #R}, Old<K, V>, (K, ?V), Old<K, V>)};
type Hashed<K> = {hash : Nat32; key : K};
type Trie<K, V> = {#branch : {left : Trie<K, V>; right : Trie<K, V>; size : Nat}; #empty; #leaf : {keyvals : Cells<(Hashed<K>, V)>; size : Nat}};
type Blocks<T> = {var blockIndex : Nat; var blocks : [var [var ?T]]; var elementIndex : Nat};
type Stk<T> = (Cells<T>, Cells<T>);
type Cur<T> = (Cells<T>, Nat, Stk<T>, Nat);
type Idle<T> = (Stk<T>, Nat);
type Common<T> = {#copy : (Cur<T>, Cells<T>, Cells<T>, Nat); #idle : (Cur<T>, Idle<T>)};
type Rtq<T> = {#empty; #idles : (Idle<T>, Idle<T>); #one : T; #rebal : ({#left; #right}, {#big1 : (Cur<T>, Stk<T>, Cells<T>, Nat); #big2 : Common<T>}, {#small1 : (Cur<T>, Stk<T>, Cells<T>); #small2 : (Cur<T>, Cells<T>, Stk<T>, Cells<T>, Nat); #small3 : Common<T>}); #three : (T, T, T); #two : (T, T)};
actor {
  stable var map : {var root : Node<Text, Nat>; var size : Nat};
  stable var set : {var root : SNode<Principal>; var size : Nat};
  stable var list : Blocks<Nat>;
  stable var pq : {heap : Blocks<Int>};
  stable var queue : {var back : ?QNode<Text>; var front : ?QNode<Text>; var size : Nat};
  stable var stack : {var size : Nat; var top : Cells<Nat>};
  stable var pmap : {root : Rb<(Nat, Text), {a : Nat}>; size : Nat};
  stable var pset : {root : RbSet<Int>; size : Nat};
  stable var plist : Cells<Text>;
  stable var assoc : Cells<(Text, Nat)>;
  stable var pqueue : (Cells<Nat>, Nat, Cells<Nat>);
  stable var rb : Old<Nat, Text>;
  stable var rtq : Rtq<(Principal, Nat)>;
  stable var not_rtq : {#empty; #idles : Nat; #one : Nat; #rebal : Nat; #three : Nat; #two : Nat};
  stable var trie : Trie<Principal, Nat>;
  stable var not_list : ?(Nat, ?(Nat, Null));
  stable var not_map : {root : Nat; size : Nat};
  stable var not_queue : (Cells<Nat>, Text, Cells<Nat>);
  stable var pair : ?(Nat, Text)
};
";

#[test]
fn collections_are_recognized_by_structure_under_any_alias() {
    let sig = parse_signature(SIG).expect("signature");
    let kind = |name: &str| {
        let ty = sig
            .env
            .normalize(&sig.var(name).expect(name).ty)
            .expect("normalizes");
        recognize(&sig.env, &ty)
    };
    use CollectionKind as K;
    let want = [
        ("map", Some(K::Map)),
        ("set", Some(K::Set)),
        ("list", Some(K::List)),
        ("pq", Some(K::PriorityQueue)),
        ("queue", Some(K::Queue)),
        ("stack", Some(K::Stack)),
        ("pmap", Some(K::PureMap)),
        ("pset", Some(K::PureSet)),
        ("plist", Some(K::PureList)),
        ("assoc", Some(K::PureList)),
        ("pqueue", Some(K::PureQueue)),
        ("rb", Some(K::BaseRBTree)),
        ("rtq", Some(K::RealTimeQueue)),
        ("not_rtq", None),
        ("trie", Some(K::BaseTrie)),
        ("not_list", None),
        ("not_map", None),
        ("not_queue", None),
        ("pair", None),
    ];
    for (name, k) in want {
        assert_eq!(kind(name), k, "{name}");
    }
    let maps: Vec<&str> = want
        .iter()
        .filter(|(_, k)| k.is_some_and(CollectionKind::is_map))
        .map(|(n, _)| *n)
        .collect();
    assert_eq!(maps, ["map", "pmap", "rb", "trie"]);
}
