//! `mo:core/pure/Map`, `Set`, `List` and `Queue` on the structures a canister holds (the
//! `structures` fixture, EOP and a classical GC, every variable decoded at once and read one
//! level at a time): a script that replays the canister's own calls builds structures equal,
//! node for node, to those the compiled canister left (core's red-black tree shapes and
//! queue lists, as `debug_show` prints them), and every function gives the same answer on the
//! canister's structure as on the script's copy (lookups, updates that rebuild a path of a
//! tree held by the canister, set algebra between the two, transformations, iteration).

use crate::common;

use mo_mem::script::show::canister_show;
use mo_mem::script::{self, Limits, Session, Value};
use std::path::{Path, PathBuf};
use std::sync::Arc;

const MODES: [&str; 2] = ["eop", "copying"];

/// The script's copy of the canister's pure structures: `motoko/fixtures/structures/main.mo`'s
/// `fill` and `churn` restricted to them, called as `scenario.json` calls them.
const REPLAY: &str = r#"
import PureList "mo:core/pure/List";
import PureMap "mo:core/pure/Map";
import PureQueue "mo:core/pure/Queue";
import PureSet "mo:core/pure/Set";
import Iter "mo:core/Iter";
import Nat "mo:core/Nat";
import Int "mo:core/Int";
import Text "mo:core/Text";
import Order "mo:core/Order";
type User = { name : Text; balance : Nat; tags : [Text] };
type Point = { x : Int; y : Int };
type Pair = (Nat, Text);
func scramble(i : Nat, modulus : Nat) : Nat = (i * 7_919 + 13) % modulus;
func user(i : Nat) : User = {
  name = "user-" # Nat.toText(i);
  balance = i * 1_000;
  tags = if (i % 3 == 0) ["gold", "early"] else if (i % 3 == 1) ["new"] else [];
};
func point(i : Nat) : Point = { x = (i : Int) - 150; y = (i * i % 97 : Nat) };
func pairCompare(a : Pair, b : Pair) : Order.Order = switch (Nat.compare(a.0, b.0)) {
  case (#equal) Text.compare(a.1, b.1);
  case other other;
};
func pointCompare(a : Point, b : Point) : Order.Order = switch (Int.compare(a.x, b.x)) {
  case (#equal) Int.compare(a.y, b.y);
  case other other;
};
func pointEqual(a : Point, b : Point) : Bool = a.x == b.x and a.y == b.y;
var pure_map : PureMap.Map<Text, User> = PureMap.empty();
var pure_set : PureSet.Set<Pair> = PureSet.empty();
var pure_list : PureList.List<Point> = PureList.empty();
var pure_queue : PureQueue.Queue<Text> = PureQueue.empty();
var filled = 0;
var churned = 0;
func fill(n : Nat) {
  for (i in Nat.range(filled, filled + n)) {
    let k = scramble(i, 1_009);
    let name = "k" # Nat.toText(k);
    if (i % 2 == 1) pure_map := PureMap.add(pure_map, Text.compare, name, user(i));
    if (i % 3 == 1) pure_set := PureSet.add(pure_set, pairCompare, (k % 30, "s" # Nat.toText(i)));
    if (i % 6 == 0) pure_list := PureList.pushFront(pure_list, point(i));
    if (i % 6 == 1) pure_queue := PureQueue.pushBack(pure_queue, name);
  };
  filled += n;
};
func churn() {
  churned += 1;
  for (i in Nat.range(0, filled)) {
    let k = scramble(i, 1_009);
    let name = "k" # Nat.toText(k);
    if (i % 3 == churned % 3) pure_map := PureMap.remove(pure_map, Text.compare, name);
    if (i % 10 == 1) pure_set := PureSet.remove(pure_set, pairCompare, (k % 30, "s" # Nat.toText(i)));
  };
  for (_ in Nat.range(0, 5)) {
    pure_list := PureList.popFront(pure_list).1;
    switch (PureQueue.popFront(pure_queue)) { case (?(_, q)) pure_queue := q; case null {} };
  };
};
fill(200); churn(); fill(100); churn();
"#;

/// Expressions over a map `$M` (`PureMap.Map<Text, User>`), a set `$S` (of `Pair`), a list
/// `$L` (of `Point`) and a queue `$Q` (of `Text`), each evaluated on the canister's
/// structures and on the script's copies.
const OPS: &[&str] = &[
    // pure/Map: lookups and iteration
    "(PureMap.size($M), PureMap.isEmpty($M), PureMap.get($M, Text.compare, \"k13\"), PureMap.containsKey($M, Text.compare, \"k0\"))",
    "(PureMap.maxEntry($M), PureMap.minEntry($M), Iter.toArray(PureMap.keys($M)), Iter.toArray(PureMap.values($M)).size())",
    "(Iter.toArray(PureMap.entries($M)), Iter.toArray(PureMap.reverseEntries($M)))",
    // pure/Map: updates rebuild the path they change
    "PureMap.add($M, Text.compare, \"k500\", user(1))",
    "PureMap.add($M, Text.compare, Iter.toArray(PureMap.keys($M))[7], user(2))",
    "PureMap.remove($M, Text.compare, Iter.toArray(PureMap.keys($M))[20])",
    "PureMap.remove($M, Text.compare, \"absent\")",
    "PureMap.take($M, Text.compare, \"absent\")",
    "PureMap.take($M, Text.compare, Iter.toArray(PureMap.keys($M))[0])",
    "(PureMap.insert($M, Text.compare, \"k1\", user(3)).1, PureMap.swap($M, Text.compare, Iter.toArray(PureMap.keys($M))[3], user(4)))",
    "(PureMap.replace($M, Text.compare, \"absent\", user(5)), PureMap.delete($M, Text.compare, Iter.toArray(PureMap.keys($M))[30]))",
    "do { var m = $M; for (k in Iter.toArray(PureMap.keys($M)).vals()) { m := PureMap.remove(m, Text.compare, k); PureMap.assertValid(m, Text.compare) }; m }",
    "do { var m = $M; for (i in Nat.range(0, 40)) { m := PureMap.add(m, Text.compare, \"n\" # Nat.toText(i * 37 % 41), user(i)) }; m }",
    // pure/Map: transformations and folds
    "PureMap.map<Text, User, Nat>($M, func(k, u) = u.balance)",
    "(PureMap.filter<Text, User>($M, Text.compare, func(k, u) = u.balance % 3000 == 0), PureMap.filterMap<Text, User, Text>($M, Text.compare, func(k, u) = if (u.balance % 2000 == 0) ?u.name else null))",
    "(PureMap.foldLeft<Text, User, Nat>($M, 0, func(a, k, u) = a + u.balance), PureMap.foldRight<Text, User, Text>($M, \"\", func(k, u, a) = a # k))",
    "(PureMap.all<Text, User>($M, func(k, u) = u.balance > 0), PureMap.any<Text, User>($M, func(k, u) = k == \"k13\"))",
    "(PureMap.toText<Text, User>($M, func k = k, func u = u.name), PureMap.assertValid($M, Text.compare))",
    "(PureMap.equal($M, pure_map, Text.compare, func(a : User, b : User) : Bool = a.name == b.name and a.balance == b.balance), PureMap.compare($M, PureMap.remove(pure_map, Text.compare, \"k13\"), Text.compare, func(a : User, b : User) : Order.Order = Nat.compare(a.balance, b.balance)))",
    "($M.get(\"k13\"), $M.size(), $M.containsKey(\"k1\"))",
    // pure/Set
    "(PureSet.size($S), PureSet.isEmpty($S), PureSet.contains($S, pairCompare, (25, \"s4\")), PureSet.min($S), PureSet.max($S))",
    "(Iter.toArray(PureSet.values($S)), Iter.toArray(PureSet.reverseValues($S)))",
    "(PureSet.add($S, pairCompare, (0, \"new\")), PureSet.insert($S, pairCompare, Iter.toArray(PureSet.values($S))[5]))",
    "(PureSet.remove($S, pairCompare, Iter.toArray(PureSet.values($S))[40]), PureSet.delete($S, pairCompare, (99, \"absent\")))",
    "do { var s = $S; for (x in Iter.toArray(PureSet.values($S)).vals()) { s := PureSet.remove(s, pairCompare, x); PureSet.assertValid(s, pairCompare) }; s }",
    "(PureSet.union($S, PureSet.fromIter<Pair>([(1, \"a\"), (40, \"b\")].vals(), pairCompare), pairCompare), PureSet.union(PureSet.singleton<Pair>((2, \"x\")), $S, pairCompare))",
    "(PureSet.intersection($S, PureSet.filter<Pair>(pure_set, pairCompare, func p = p.0 % 2 == 0), pairCompare), PureSet.difference($S, PureSet.filter<Pair>(pure_set, pairCompare, func p = p.0 < 10), pairCompare))",
    "(PureSet.difference(PureSet.filter<Pair>(pure_set, pairCompare, func p = p.0 < 10), $S, pairCompare), PureSet.isSubset(PureSet.filter<Pair>(pure_set, pairCompare, func p = p.0 < 10), $S, pairCompare))",
    "(PureSet.equal($S, pure_set, pairCompare), PureSet.compare($S, PureSet.add(pure_set, pairCompare, (0, \"\")), pairCompare), PureSet.isSubset($S, pure_set, pairCompare))",
    "(PureSet.map<Pair, Nat>($S, Nat.compare, func p = p.0), PureSet.filterMap<Pair, Text>($S, Text.compare, func p = if (p.0 > 20) ?p.1 else null))",
    "(PureSet.foldLeft<Pair, Nat>($S, 0, func(a, p) = a + p.0), PureSet.all<Pair>($S, func p = p.0 < 30), PureSet.any<Pair>($S, func p = p.1 == \"s4\"))",
    "(PureSet.toText<Pair>($S, func p = p.1), PureSet.assertValid($S, pairCompare), PureSet.flatten<Pair>(PureSet.singleton($S), pairCompare))",
    // pure/List
    "(PureList.size($L), PureList.isEmpty($L), PureList.get($L, 3), PureList.toArray($L), PureList.toVarArray<Point>($L).size())",
    "(PureList.pushFront($L, point(1)), PureList.popFront($L), PureList.reverse($L))",
    "(PureList.take($L, 4), PureList.drop($L, 40), PureList.split($L, 3), PureList.chunks($L, 7))",
    "(PureList.concat($L, $L), PureList.flatten<Point>(?($L, ?($L, null))), PureList.join<Point>([$L, null, $L].vals()))",
    "(PureList.partition<Point>($L, func p = p.x > 0), PureList.zip<Point, Point>($L, PureList.reverse($L)), PureList.zipWith<Point, Point, Int>($L, $L, func(a, b) = a.x * b.y))",
    "(PureList.merge($L, PureList.fromArray<Point>([point(0), point(200)]), pointCompare), PureList.mapResult<Point, Int, Text>($L, func p = if (p.y < 90) #ok(p.y) else #err \"big\"))",
    "(PureList.compare($L, pure_list, pointCompare), PureList.equal($L, pure_list, pointEqual), PureList.compare($L, PureList.take(pure_list, 3), pointCompare))",
    "(PureList.map<Point, Int>($L, func p = p.x), PureList.filter<Point>($L, func p = p.y % 2 == 0), PureList.foldLeft<Point, Int>($L, 0, func(a, p) = a + p.x))",
    "(PureList.contains($L, pointEqual, point(12)), PureList.last($L), PureList.find<Point>($L, func p = p.y > 50), PureList.toText<Point>($L, func p = Int.toText(p.x)))",
    "(Iter.toArray(PureList.values($L)), Iter.toArray(PureList.enumerate($L)).size(), $L.size(), $L.take(2))",
    // pure/Queue
    "(PureQueue.size($Q), PureQueue.isEmpty($Q), PureQueue.peekFront($Q), PureQueue.peekBack($Q), PureQueue.contains($Q, Text.equal, \"k25\"))",
    "(PureQueue.toArray($Q), Iter.toArray(PureQueue.values($Q)), PureQueue.reverse($Q))",
    "(PureQueue.pushBack($Q, \"x\"), PureQueue.pushFront($Q, \"y\"), PureQueue.popFront($Q), PureQueue.popBack($Q))",
    "do { var q = $Q; var out : [Text] = []; label l loop { switch (PureQueue.popBack(q)) { case null break l; case (?(r, x)) { out := [x]; q := r } } }; (q, out) }",
    "do { var q = $Q; for (i in Nat.range(0, 20)) { q := if (i % 3 == 0) PureQueue.pushFront(q, Nat.toText i) else switch (PureQueue.popFront(q)) { case (?(_, r)) r; case null q } }; q }",
    "(PureQueue.map<Text, Nat>($Q, Text.size), PureQueue.filter<Text>($Q, func t = t.size() > 3), PureQueue.filterMap<Text, Text>($Q, func t = if (t.size() == 3) ?t else null))",
    "(PureQueue.all<Text>($Q, func t = t.size() > 1), PureQueue.any<Text>($Q, func t = t == \"k25\"), PureQueue.toText<Text>($Q, func t = t))",
    "(PureQueue.equal($Q, pure_queue, Text.equal), PureQueue.compare($Q, PureQueue.pushBack(pure_queue, \"z\"), Text.compare))",
    "($Q.size(), $Q.peekFront(), $Q.pushBack(\"w\"), $Q.values().toArray())",
];

/// `src`'s value in canister style, with compounds of more than `eager_nodes` nodes read
/// lazily.
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
            Err(e) => panic!("{e}"),
        }
    })
    .expect("eval thread")
}

fn on(op: &str, map: &str, set: &str, list: &str, queue: &str) -> String {
    op.replace("$M", map)
        .replace("$S", set)
        .replace("$L", list)
        .replace("$Q", queue)
}

/// The replayed structures equal the canister's, `debug_show` for `debug_show`.
#[test]
fn a_script_builds_the_canisters_pure_structures_node_for_node() {
    let src = format!(
        "{REPLAY}
(debug_show pure_map == debug_show vars.pure_map, debug_show pure_set == debug_show vars.pure_set,
 debug_show pure_list == debug_show vars.pure_list, debug_show pure_queue == debug_show vars.pure_queue,
 PureMap.size(pure_map), PureSet.size(pure_set), PureList.size(pure_list), PureQueue.size(pure_queue))"
    );
    for mode in MODES {
        let dir = common::fixture("structures", mode);
        for eager_nodes in [mo_mem::script::host::lazy::EAGER_NODES, 1] {
            assert_eq!(
                eval(&dir, &src, eager_nodes),
                "(true, true, true, true, 66, 90, 40, 40)",
                "structures/{mode} (eager up to {eager_nodes} nodes)"
            );
        }
    }
}

/// Every operation answers the same on the canister's structures as on the script's.
#[test]
fn every_pure_function_answers_alike_on_canister_and_script_structures() {
    let mut src = format!("{REPLAY}\nvar differ = \"\";\n");
    for (i, op) in OPS.iter().enumerate() {
        let host = on(
            op,
            "vars.pure_map",
            "vars.pure_set",
            "vars.pure_list",
            "vars.pure_queue",
        );
        let own = on(op, "pure_map", "pure_set", "pure_list", "pure_queue");
        src.push_str(&format!(
            "do {{ let (a, b) = (debug_show ({host}), debug_show ({own})); \
             if (a != b) differ #= \"op {i}:\\n  canister: \" # a # \"\\n  script:   \" # b # \"\\n\" }};\n"
        ));
    }
    src.push_str("if (differ == \"\") \"same\" else differ");
    for mode in MODES {
        let dir = common::fixture("structures", mode);
        for eager_nodes in [mo_mem::script::host::lazy::EAGER_NODES, 1] {
            assert_eq!(
                eval(&dir, &src, eager_nodes),
                "same",
                "structures/{mode} (eager up to {eager_nodes} nodes); the ops are OPS[i]"
            );
        }
    }
}
