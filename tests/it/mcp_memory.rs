//! The MCP server's memory over many snapshots: a call keeps the heap analyses of the
//! snapshots it used and releases the others', so a server an agent drives over many
//! snapshots holds the analyses of one call, not one per snapshot it ever read.

use crate::common;

use std::path::PathBuf;
use std::sync::Arc;

use mo_mem::image::ReaderLimits;
use mo_mem::mcp::answers::answer;
use mo_mem::mcp::{Served, Sources};
use mo_mem::serve::Snapshots;
use serde_json::{json, Map, Value};

fn args(v: Value) -> Map<String, Value> {
    v.as_object().expect("an object").clone()
}

#[test]
fn a_call_keeps_only_the_analyses_of_the_snapshots_it_used() {
    let dirs: Vec<PathBuf> = [
        ("collections", "eop"),
        ("compound", "eop"),
        ("growth2", "eop"),
    ]
    .iter()
    .map(|(n, m)| common::fixture(n, m))
    .collect();
    let catalog = Arc::new(Snapshots::new(ReaderLimits::default()));
    let served = Served::new(Sources::Paths(dirs.clone()), catalog.clone()).expect("served");
    let list = served.list().expect("list");
    assert_eq!(list.len(), 3, "{list:?}");
    let name_of = |dir: &PathBuf| {
        let key = dir.canonicalize().unwrap();
        list.iter()
            .find(|(_, d)| d.canonicalize().unwrap() == key)
            .map(|(n, _)| n.clone())
            .expect("served")
    };
    let names: Vec<String> = dirs.iter().map(name_of).collect();
    let analysed = |i: usize| catalog.get(&dirs[i]).heap().expect("heap").has_analysis();
    // Each call's snapshot keeps its analysis; the one before lets go of its own.
    let first = answer(&served, "retained", &args(json!({"snapshot": names[0]}))).expect("answer");
    assert!(analysed(0));
    answer(&served, "doctor", &args(json!({"snapshot": names[1]}))).expect("answer");
    assert!(!analysed(0) && analysed(1));
    // A diff keeps both of its snapshots'.
    let diff = json!({"old": names[1], "new": names[2]});
    answer(&served, "diff", &args(diff)).expect("answer");
    assert!(!analysed(0) && analysed(1) && analysed(2));
    // A call without a snapshot releases nothing.
    answer(&served, "snapshots", &Map::new()).expect("answer");
    assert!(analysed(1) && analysed(2));
    // A released analysis is computed again when asked for, the same answer.
    let again = answer(&served, "retained", &args(json!({"snapshot": names[0]}))).expect("answer");
    assert_eq!(first.text, again.text);
    assert!(analysed(0) && !analysed(1) && !analysed(2));
    // Each snapshot was opened once: only the analyses were released.
    assert_eq!(catalog.opens(), 3);
}
