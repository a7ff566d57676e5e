//! Scripts over the collections of the `structures` fixture (EOP and a classical GC, every
//! variable decoded at once and read one level at a time): iterating a collection the
//! canister holds (`Map.entries`, `Set.values`, `PureMap.entries`, …, streamed node by node)
//! gives exactly the entries the canister's own iteration printed (`expected.json`'s
//! `entries`), and the lookups that descend one path (`PureMap.get`, `PureSet.contains`,
//! `Map.get`) find every entry the iteration yields and nothing else.

use crate::common;

use mo_mem::script::show::canister_show;
use mo_mem::script::{self, Limits, Session, Value};
use std::path::{Path, PathBuf};
use std::sync::Arc;

const MODES: [&str; 2] = ["eop", "copying"];

/// The canister's own `debug_show` of a collection's entries, from `expected.json`.
fn expected_entries(dir: &Path, path: &str) -> String {
    let text = std::fs::read_to_string(dir.join("expected.json")).expect("expected.json");
    let json: serde_json::Value = serde_json::from_str(&text).expect("JSON");
    json["views"][format!("{path}.entries")]
        .as_str()
        .unwrap_or_else(|| panic!("no entries for {path}"))
        .to_string()
}

/// The value of `src` in canister style, with compounds of more than `eager_nodes` nodes
/// read lazily.
fn eval(dir: &Path, src: &str, eager_nodes: u64) -> String {
    let dir: PathBuf = dir.to_path_buf();
    let src = src.to_string();
    script::on_eval_thread(move || {
        let ctx =
            Arc::new(mo_mem::script::host::context::SnapshotContext::open(&dir).expect("context"));
        let mut s = Session::new(Limits::default());
        mo_mem::script::setup::install_with(&mut s, ctx, eager_nodes);
        match s.eval(&src) {
            Ok(ev) => match &ev.value {
                Value::Text(t) => t.to_string(),
                v => canister_show(v),
            },
            Err(e) => panic!("{src}: {e}"),
        }
    })
    .expect("eval thread")
}

/// The steps `src` takes on `dir` with every compound read one level at a time.
fn lazy_steps(dir: &Path, src: &str) -> u64 {
    let dir: PathBuf = dir.to_path_buf();
    let src = src.to_string();
    script::on_eval_thread(move || {
        let ctx =
            Arc::new(mo_mem::script::host::context::SnapshotContext::open(&dir).expect("context"));
        let mut s = Session::new(Limits::default());
        mo_mem::script::setup::install_with(&mut s, ctx, 1);
        s.eval(&src).unwrap_or_else(|e| panic!("{src}: {e}")).steps
    })
    .expect("eval thread")
}

/// `src`'s value on every mode, eager and lazy (every compound read one level at a time).
fn check(src: &str, want: impl Fn(&Path) -> String) {
    for mode in MODES {
        let dir = common::fixture("structures", mode);
        let want = want(&dir);
        for eager_nodes in [mo_mem::script::host::lazy::EAGER_NODES, 1] {
            assert_eq!(
                eval(&dir, src, eager_nodes),
                want,
                "structures/{mode} (eager up to {eager_nodes} nodes): {src}"
            );
        }
    }
}

const IMPORTS: &str = "import Map \"mo:core/Map\"; import Set \"mo:core/Set\"; \
import PureMap \"mo:core/pure/Map\"; import PureSet \"mo:core/pure/Set\"; \
import PureList \"mo:core/pure/List\"; import Iter \"mo:core/Iter\"; \
import Text \"mo:core/Text\"; import Nat \"mo:core/Nat\"; import Principal \"mo:core/Principal\"; \
import Array \"mo:core/Array\"; import Trie \"mo:base/Trie\"; import RBTree \"mo:base/RBTree\"; \
import AssocList \"mo:base/AssocList\"; import List \"mo:core/List\";
func pairCompare(a : (Nat, Text), b : (Nat, Text)) : { #less; #equal; #greater } =
  switch (Nat.compare(a.0, b.0)) { case (#equal) Text.compare(a.1, b.1); case other other };
";

#[test]
fn streamed_iteration_is_the_canisters_own() {
    for (path, iteration) in [
        ("map_principal_user", "Map.entries(vars.map_principal_user)"),
        ("map_pair_text", "Map.entries(vars.map_pair_text)"),
        ("set_text", "Set.values(vars.set_text)"),
        ("list_point", "List.values(vars.list_point)"),
        ("pure_map", "PureMap.entries(vars.pure_map)"),
        ("pure_set", "PureSet.values(vars.pure_set)"),
        ("pure_list", "PureList.values(vars.pure_list)"),
        ("nested.index", "Map.entries(vars.nested.index)"),
        ("nested.history", "PureList.values(vars.nested.history)"),
        ("trie_text_user", "Trie.iter(vars.trie_text_user)"),
        (
            "trie_principal_point",
            "Trie.iter(vars.trie_principal_point)",
        ),
        ("rbtree_text_nat", "RBTree.iter(vars.rbtree_text_nat, #fwd)"),
        // a mo:base List (and an AssocList) is a pure list
        ("base_list", "PureList.values(vars.base_list)"),
        ("assoc_text_point", "PureList.values(vars.assoc_text_point)"),
    ] {
        let src = format!("{IMPORTS}debug_show(Iter.toArray({iteration}))");
        check(&src, |dir| expected_entries(dir, path));
    }
}

#[test]
fn keys_and_values_are_the_entries_halves() {
    // A second computation: the halves of the streamed entries, projected by the script.
    for (module, var) in [("Map", "map_pair_text"), ("PureMap", "pure_map")] {
        let src = format!(
            "{IMPORTS}let m = vars.{var};
let es = Iter.toArray({module}.entries(m));
let ks = Iter.toArray(Iter.map(es.values(), func(e : (Any, Any)) : Any = e.0));
let vs = Iter.toArray(Iter.map(es.values(), func(e : (Any, Any)) : Any = e.1));
(debug_show(Iter.toArray({module}.keys(m))) == debug_show(ks),
 debug_show(Iter.toArray({module}.values(m))) == debug_show(vs),
 es.size() == {module}.size(m))"
        );
        check(&src, |_| "(true, true, true)".to_string());
    }
}

#[test]
fn lookups_descend_to_every_entry_and_miss_absent_keys() {
    let maps = [
        (
            "Map",
            "map_principal_user",
            "Principal.compare",
            "Principal.fromText(\"aaaaa-aa\")",
        ),
        ("Map", "map_pair_text", "pairCompare", "(7, \"none\")"),
        ("PureMap", "pure_map", "Text.compare", "\"zzz\""),
    ];
    for (module, var, compare, absent) in maps {
        let src = format!(
            "{IMPORTS}let m = vars.{var};
var hits = 0;
for ((k, v) in {module}.entries(m)) {{
  if (debug_show({module}.get(m, {compare}, k)) == debug_show(?v) and {module}.containsKey(m, {compare}, k)) hits += 1;
}};
(hits == {module}.size(m), {module}.get(m, {compare}, {absent}), {module}.containsKey(m, {compare}, {absent}))"
        );
        check(&src, |_| "(true, null, false)".to_string());
    }
    let sets = [
        ("Set", "set_text", "Text.compare", "\"k\""),
        ("PureSet", "pure_set", "pairCompare", "(0, \"none\")"),
    ];
    for (module, var, compare, absent) in sets {
        let src = format!(
            "{IMPORTS}let s = vars.{var};
var hits = 0;
for (x in {module}.values(s)) {{ if ({module}.contains(s, {compare}, x)) hits += 1 }};
(hits == {module}.size(s), {module}.contains(s, {compare}, {absent}))"
        );
        check(&src, |_| "(true, false)".to_string());
    }
}

#[test]
fn base_lookups_descend_to_every_entry_and_miss_absent_keys() {
    let trie = format!(
        "{IMPORTS}let t = vars.trie_text_user;
func key(k : Text) : {{ hash : Nat32; key : Text }} = {{ hash = Text.hash(k); key = k }};
var hits = 0;
for ((k, v) in Trie.iter(t)) {{
  if (debug_show(Trie.get(t, key(k), Text.equal)) == debug_show(?v) and Trie.find(t, key(k), Text.equal) != null) hits += 1;
}};
(hits == Trie.size(t), Trie.get(t, key(\"zzz\"), Text.equal), Trie.get(t, key(\"k\"), Text.equal))"
    );
    check(&trie, |_| "(true, null, null)".to_string());
    let rbtree = format!(
        "{IMPORTS}let t = vars.rbtree_text_nat;
var hits = 0;
for ((k, v) in RBTree.iter(t, #fwd)) {{ if (RBTree.get(t, Text.compare, k) == ?v) hits += 1 }};
let fwd = Iter.toArray(RBTree.iter(t, #fwd));
(hits == RBTree.size(t), hits == fwd.size(), RBTree.get(t, Text.compare, \"zzz\"),
 debug_show(Iter.toArray(RBTree.iter(t, #bwd))) == debug_show(Array.reverse(fwd)))"
    );
    check(&rbtree, |_| "(true, true, null, true)".to_string());
    let assoc = format!(
        "{IMPORTS}let a = vars.assoc_text_point;
var hits = 0;
var n = 0;
for ((k, v) in PureList.values(a)) {{
  n += 1;
  if (debug_show(AssocList.find(a, k, Text.equal)) == debug_show(?v)) hits += 1;
}};
(hits == n, n > 0, AssocList.find(a, \"zzz\", Text.equal))"
    );
    check(&assoc, |_| "(true, true, null)".to_string());
}

#[test]
fn text_hash_is_mo_base_djb2() {
    // The hashes the canister stored in its trie's keys, against the script's Text.hash.
    let src = format!(
        "{IMPORTS}var same = 0;
var n = 0;
func leaves(t : Any) : Any = t;
for ((k, _) in Trie.iter(vars.trie_text_user)) {{ n += 1 }};
let raw = debug_show(vars.trie_text_user);
for ((k, _) in Trie.iter(vars.trie_text_user)) {{
  if (Text.contains(raw, #text(\"hash = \" # debug_show(Text.hash(k)) # \"; key = \" # debug_show(k)))) same += 1;
}};
same == n and n > 0"
    );
    check(&src, |_| "true".to_string());
}

#[test]
fn a_lookup_reads_one_path_not_the_collection() {
    // (lookup of a present key, a full iteration) on the same collection: read lazily, the
    // lookup reads a few nodes, the iteration all of them (the ratio grows with the size).
    let cases = [
        (
            "Map.get(vars.map_principal_user, Principal.compare, Principal.fromText(\"ug7b4-kabaa-dqc\"))",
            "Iter.size(Map.entries(vars.map_principal_user))",
            2,
        ),
        (
            "PureMap.get(vars.pure_map, Text.compare, \"k1\")",
            "Iter.size(PureMap.entries(vars.pure_map))",
            4,
        ),
        (
            "Trie.get(vars.trie_text_user, { hash = Text.hash(\"k1\"); key = \"k1\" }, Text.equal)",
            "Iter.size(Trie.iter(vars.trie_text_user))",
            4,
        ),
        (
            "RBTree.get(vars.rbtree_text_nat, Text.compare, \"k1\")",
            "Iter.size(RBTree.iter(vars.rbtree_text_nat, #fwd))",
            4,
        ),
    ];
    let dir = common::fixture("structures", "eop");
    let base = lazy_steps(&dir, &format!("{IMPORTS}0"));
    for (lookup, iteration, ratio) in cases {
        let found = eval(&dir, &format!("{IMPORTS}{lookup} != null"), 1);
        assert_eq!(found, "true", "{lookup}");
        let get = lazy_steps(&dir, &format!("{IMPORTS}{lookup}")) - base;
        let all = lazy_steps(&dir, &format!("{IMPORTS}{iteration}")) - base;
        assert!(
            get * ratio < all,
            "{lookup}: {get} steps, a full iteration {all}"
        );
    }
}

/// `heap.objectOf` never takes a value the script built for a heap object: a record read
/// lazily from the heap and dropped gives its allocation back, and a record the script then
/// builds in it (the same shape, so the allocator reuses the address) was found as that
/// heap object (6 times in 6 here, 10 in 10 on the `wide` heap) until the address book held on to the
/// allocations it records. The heap's own records are still found, each at its address.
#[test]
fn object_of_tells_a_scripts_own_values_from_heap_objects() {
    let src = r#"
        var built = 0;
        var found = 0;
        let elements = switch (heap.objectOf(vars.people)) { case (?o) o.references; case null [] };
        for (i in [0, 1].vals()) {
          let p = vars.people.get(i);
          switch (heap.objectOf(p)) { case null {}; case (?o) { if (o.address == elements[i]) found += 1 } };
          let mine = { name = p.name; var age = p.age; tags = p.tags; score = p.score };
          switch (heap.objectOf(mine)) { case null {}; case (?_) { built += 1 } };
          for (_ in [1, 2, 3].vals()) {
            ignore vars.people.get(i);
            let again = { name = "x"; var age = 1; tags = []; score = null };
            switch (heap.objectOf(again)) { case null {}; case (?_) { built += 1 } };
          };
        };
        (found, built)
    "#;
    // `people` (two records of a few nodes each) read one level at a time, each record whole
    const EAGER: u64 = 8;
    for mode in MODES {
        let dir = common::fixture("compound", mode);
        assert_eq!(eval(&dir, src, EAGER), "(2, 0)", "compound/{mode}");
    }
}

/// `mo:base/List`'s functions over the base lists a canister holds (a `List` and an
/// `AssocList`), lazily read: their views equal the canister's own `debug_show` of the whole
/// list (a second computation: the canister's), and the functions agree with each other.
#[test]
fn base_list_functions_read_the_canisters_lists() {
    const IMPORTS: &str = "import BaseList \"mo:base/List\"; import Iter \"mo:base/Iter\";";
    for var in ["base_list", "assoc_text_point"] {
        for view in [
            "BaseList.toArray(l)",
            "Iter.toArray(BaseList.toIter(l))",
            "Iter.toArray(Iter.fromList(l))",
            "BaseList.toArray(BaseList.append(BaseList.take(l, 5), BaseList.drop(l, 5)))",
            "BaseList.toArray(BaseList.reverse(BaseList.reverse(l)))",
        ] {
            let src = format!("{IMPORTS} let l = vars.{var}; debug_show({view})");
            check(&src, |dir| expected_entries(dir, var));
        }
        let src = format!(
            "{IMPORTS} let l = vars.{var}; let xs = BaseList.toArray(l); let n = BaseList.size(l);
(n == xs.size(), n > 10, debug_show(BaseList.get(l, n - 1)) == debug_show(BaseList.last(l)),
 BaseList.foldRight<Any, Nat>(l, 0, func(_, k) = k + 1) == n, BaseList.isNil(BaseList.drop(l, n)))"
        );
        check(&src, |_| "(true, true, true, true, true)".to_string());
    }
}
