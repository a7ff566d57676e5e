//! `mo-mem eval --json` shows the collections a script builds as their natural views, as it
//! shows those the canister holds (docs/formats.md "Collections"): each equals the JSON of the
//! array the collection's own iteration gives, which the same script computes as a second
//! answer; `--raw` shows their structure; a record shaped like a collection is not one.

use crate::common;
use std::process::Command;

const BIN: &str = env!("CARGO_BIN_EXE_mo-mem");

/// The `value` of `mo-mem eval ARGS --json SCRIPT`.
fn value(args: &[&str], script: &str) -> serde_json::Value {
    let out = Command::new(BIN)
        .arg("eval")
        .args(args)
        .args(["--json", script])
        .output()
        .expect("mo-mem runs");
    assert!(
        out.status.success(),
        "{script}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    doc["value"].clone()
}

const BUILD: &str = "import Map \"mo:core/Map\"; import Set \"mo:core/Set\"; \
    import List \"mo:core/List\"; import Queue \"mo:core/Queue\"; import Stack \"mo:core/Stack\"; \
    import PureList \"mo:core/pure/List\"; import PureMap \"mo:core/pure/Map\"; \
    import PureSet \"mo:core/pure/Set\"; import PureQueue \"mo:core/pure/Queue\"; \
    import Iter \"mo:core/Iter\"; import Nat \"mo:core/Nat\"; import Text \"mo:core/Text\"; \
    let m = Map.empty<Text, Nat>(); \
    for (i in Nat.range(0, 300)) { Map.add(m, Text.compare, \"k\" # Nat.toText(i * 7 % 300), i) }; \
    let s = Set.fromIter<Nat>(Nat.range(0, 100), Nat.compare); \
    let l = List.fromArray<Nat>([3, 1, 2]); \
    let q = Queue.fromIter<Nat>([5, 6, 7].vals()); \
    let st = Stack.empty<Nat>(); Stack.push(st, 1); Stack.push(st, 2); \
    let pl = PureList.fromArray<Int>([1, -2]); \
    let pm = PureMap.fromIter<Nat, Text>([(2, \"b\"), (1, \"a\")].vals(), Nat.compare); \
    let ps = PureSet.fromIter<Nat>([9, 8].vals(), Nat.compare); \
    let pq = PureQueue.pushBack(PureQueue.pushBack(PureQueue.empty<Nat>(), 1), 2); \
    let nested = Map.empty<Text, List.List<Nat>>(); Map.add(nested, Text.compare, \"x\", l); ";

#[test]
fn a_scripts_collections_are_their_natural_views() {
    let shown = value(
        &["--no-snapshot"],
        &format!("{BUILD} (m, s, l, q, st, pl, pm, ps, pq, {{ inner = ?nested; n = 1 }})"),
    );
    let iterated = value(
        &["--no-snapshot"],
        &format!(
            "{BUILD} (Iter.toArray(Map.entries(m)), Iter.toArray(Set.values(s)), \
             List.toArray(l), Iter.toArray(Queue.values(q)), Iter.toArray(Stack.values(st)), \
             PureList.toArray(pl), Iter.toArray(PureMap.entries(pm)), \
             Iter.toArray(PureSet.values(ps)), Iter.toArray(PureQueue.values(pq)), \
             {{ inner = ?[(\"x\", List.toArray(l))]; n = 1 }})"
        ),
    );
    assert_eq!(shown, iterated);
    assert_eq!(shown[0].as_array().map(Vec::len), Some(300));
    assert_eq!(shown[0][0], serde_json::json!(["k0", 0]));
    assert_eq!(shown[2], serde_json::json!([3, 1, 2]));
    assert_eq!(shown[4], serde_json::json!([2, 1]));
    assert_eq!(shown[9]["inner"], serde_json::json!([["x", [3, 1, 2]]]));
    // --raw: the structure
    let raw = value(&["--no-snapshot", "--raw"], &format!("{BUILD} l"));
    assert!(
        raw["blocks"].is_array() && raw["blockIndex"].is_u64(),
        "{raw}"
    );
    // a record of a Map's shape the script declares is a record
    let own = value(
        &["--no-snapshot"],
        "type M = { var root : Nat; var size : Nat }; let r : M = { var root = 1; var size = 2 }; r",
    );
    assert_eq!(own, serde_json::json!({"root": 1, "size": 2}));
}

#[test]
fn a_scripts_collections_of_canister_values_are_natural_views_too() {
    let dir = common::fixture("structures", "eop");
    let dir = dir.to_str().expect("path");
    // tags counted from the canister's users into a script's Map
    let script = "import Map \"mo:core/Map\"; import Text \"mo:core/Text\"; \
        let c = Map.empty<Text, Nat>(); \
        for (u in vars.users.vals()) { for (t in u.tags.vals()) { \
          switch (Map.get(c, Text.compare, t)) { \
            case (?n) Map.add(c, Text.compare, t, n + 1); case null Map.add(c, Text.compare, t, 1) } } }; ";
    let shown = value(&[dir], &format!("{script} c"));
    let iterated = value(
        &[dir],
        &format!("{script} import Iter \"mo:core/Iter\"; Iter.toArray(Map.entries(c))"),
    );
    assert_eq!(shown, iterated);
    let counts: u64 = shown
        .as_array()
        .expect("pairs")
        .iter()
        .map(|p| p[1].as_u64().expect("count"))
        .sum();
    let tags = value(
        &[dir],
        "var n = 0; for (u in vars.users.vals()) { n += u.tags.size() }; n",
    );
    assert_eq!(Some(counts), tags.as_u64());
}
