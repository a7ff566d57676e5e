//! A stable variable that is itself an empty collection whose raw value is `null` (an empty
//! `pure/List`): scripts see `null` (as the canister's `debug_show` prints it), and
//! `mo-mem eval --json` shows it as its natural view `[]`, as `mo-mem vars --format json`
//! does.
//!
//! No fixture ends with an empty list in a variable, so the test empties one: a copy of
//! the `structures` EOP snapshot with `pure_list`'s MutBox pointing to `null`.

use crate::common;

use mo_mem::heap::StableVarSlot;
use mo_mem::script::host::context::SnapshotContext;
use std::path::Path;

/// A copy of `structures/eop` in `dir` where variable `pure_list` is the empty list.
fn with_empty_list(dir: &Path) {
    let from = common::fixture("structures", "eop");
    common::copy_snapshot(&from, dir);
    let ctx = SnapshotContext::open(dir).expect("context");
    let heap = ctx.heap();
    let root = heap
        .stable_vars()
        .expect("stable variables")
        .into_iter()
        .find(|r| r.name == "pure_list")
        .expect("pure_list");
    let StableVarSlot::MutBox(mutbox) = root.slot else {
        panic!("pure_list is not in a MutBox");
    };
    let value = heap.stable_var_value(&root).expect("value");
    assert_ne!(
        value,
        mo_mem::heap::EOP_NULL,
        "the fixture's list is not empty"
    );
    // The MutBox's content follows its two header words (tag, forwarding pointer).
    let at = usize::try_from(mutbox + 16).expect("offset");
    let path = dir.join("wasm_memory.bin");
    let mut memory = std::fs::read(&path).expect("memory");
    assert_eq!(
        memory[at..at + 8],
        value.to_le_bytes(),
        "the MutBox's content"
    );
    memory[at..at + 8].copy_from_slice(&mo_mem::heap::EOP_NULL.to_le_bytes());
    std::fs::write(&path, memory).expect("write memory");
}

fn json(args: &[&str]) -> serde_json::Value {
    serde_json::from_slice(&common::mo_mem_ok(args)).expect("JSON")
}

#[test]
fn an_empty_pure_list_variable_is_null_to_scripts_and_an_empty_array_in_json() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let dir = tmp.path().join("snap");
    with_empty_list(&dir);
    let s = dir.to_str().expect("utf-8 path");

    let ev = json(&["eval", s, "--json", "vars.pure_list"]);
    assert_eq!(ev["show"], "null");
    assert_eq!(ev["value"], serde_json::json!([]));
    // Annotated, the same; a script computing `null` otherwise stays `null`.
    let ev = json(&["eval", s, "--json", "(vars.pure_list : ?(Nat, Nat))"]);
    assert_eq!(ev["value"], serde_json::json!([]));
    // `--raw` shows the structure: `null`.
    let ev = json(&["eval", s, "--json", "--raw", "vars.pure_list"]);
    assert_eq!(ev["value"], serde_json::Value::Null);
    let ev = json(&["eval", s, "--json", "vars.pure_list == null"]);
    assert_eq!(ev["value"], serde_json::json!(true));
    let ev = json(&["eval", s, "--json", "let l = vars.pure_list; null"]);
    assert_eq!(ev["value"], serde_json::Value::Null);

    // The same as `mo-mem vars --format json`.
    let vars = json(&["vars", s, "--format", "json"]);
    assert_eq!(vars["pure_list"], serde_json::json!([]));

    // A variable holding a non-empty collection or plain `null` is unchanged.
    let ev = json(&["eval", s, "--json", "vars.pure_set"]);
    assert!(ev["value"].is_array(), "{ev}");
}
