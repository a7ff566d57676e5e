//! `mo-mem path` and `analysis::path`: shortest paths from the roots, named as Motoko access
//! paths, checked on every committed fixture.

use crate::common;

use std::collections::VecDeque;

use mo_mem::analysis::path::Paths;
use mo_mem::analysis::retained::Analysis;
use mo_mem::analysis::OpenedHeap;

#[test]
fn paths_are_shortest_chains_of_edges_from_a_root() {
    let mut checked = 0;
    for (name, mode, dir) in common::all_fixtures() {
        let opened = OpenedHeap::open(&dir).expect("opens");
        let heap = opened.heap();
        let analysis = Analysis::new(heap).expect("analysis");
        let graph = analysis.graph();
        let paths = Paths::new(graph);
        // distances by a plain queue from every root node (stable variables' entries too)
        let n = graph.nodes();
        let mut dist = vec![u32::MAX; n];
        let mut queue = VecDeque::new();
        let starts = graph
            .vars()
            .iter()
            .flat_map(|v| v.entries.iter().copied())
            .chain(graph.roots().iter().flat_map(|r| r.nodes.iter().copied()));
        for s in starts {
            if dist[s as usize] == u32::MAX {
                dist[s as usize] = 0;
                queue.push_back(s);
            }
        }
        while let Some(v) = queue.pop_front() {
            for &w in graph.edges().successors(v) {
                if dist[w as usize] == u32::MAX {
                    dist[w as usize] = dist[v as usize] + 1;
                    queue.push_back(w);
                }
            }
        }
        for v in 0..n as u32 {
            let reachable = analysis.dominators().is_reachable(v);
            match paths.nodes_to(v) {
                None => assert!(!reachable, "{name}/{mode}: live node {v} has no path"),
                Some(chain) => {
                    assert!(reachable, "{name}/{mode}: garbage node {v} has a path");
                    assert_eq!(
                        chain.len() as u32 - 1,
                        dist[v as usize],
                        "{name}/{mode}: {v}"
                    );
                    for w in chain.windows(2) {
                        assert!(graph.edges().successors(w[0]).contains(&w[1]));
                    }
                    assert_eq!(dist[chain[0] as usize], 0, "starts at a root");
                    checked += 1;
                }
            }
        }
    }
    assert!(checked > 10_000, "only {checked} paths checked");
}

#[test]
fn paths_name_fields_elements_and_boxes() {
    let dir = common::fixture("compound", "eop");
    let opened = OpenedHeap::open(&dir).expect("opens");
    let heap = opened.heap();
    let analysis = Analysis::new(heap).expect("analysis");
    let graph = analysis.graph();
    let paths = Paths::new(graph);
    let var = |v: &str| {
        graph
            .vars()
            .iter()
            .find(|r| r.name == v)
            .and_then(|r| r.node)
            .unwrap_or_else(|| panic!("variable {v}"))
    };
    // person = {age (var) = 39; name = "Ada"; score = ?9.5; tags = ["math", "engines"]}
    let person = var("person");
    let text = |n: u32| paths.path(heap, graph, opened.labels(), n).unwrap().text();
    assert_eq!(text(person), "vars.person");
    let mut seen = Vec::new();
    for &child in graph.edges().successors(person) {
        seen.push(text(child));
        if text(child) == "vars.person.tags" {
            let elems: Vec<String> = graph
                .edges()
                .successors(child)
                .iter()
                .map(|&e| text(e))
                .collect();
            // literal texts are also entries of the static-variables pool, one step from a
            // root: the shortest path goes there
            assert_eq!(elems.len(), 2);
            for e in elems {
                assert!(
                    e.starts_with("vars.person.tags[") || e.starts_with("<static variables>["),
                    "{e}"
                );
            }
        }
    }
    seen.sort();
    // `score`'s Float is boxed only where the layout boxes it
    let want = ["vars.person.age", "vars.person.name", "vars.person.tags"];
    for w in want {
        assert!(seen.iter().any(|s| s == w), "{w} in {seen:?}");
    }
}

#[test]
fn the_cli_prints_a_path_or_why_there_is_none() {
    let dir = common::fixture("compound", "eop");
    let opened = OpenedHeap::open(&dir).expect("opens");
    let analysis = Analysis::new(opened.heap()).expect("analysis");
    let graph = analysis.graph();
    let person = graph.vars().iter().find(|v| v.name == "person").unwrap();
    let addr = format!("{:#x}", person.address.unwrap());
    let garbage = (0..graph.nodes() as u32)
        .find(|&n| !analysis.dominators().is_reachable(n))
        .map(|n| format!("{:#x}", graph.address(n)))
        .expect("the fixture holds garbage");
    let run = |args: &[&str]| {
        std::process::Command::new(env!("CARGO_BIN_EXE_mo-mem"))
            .args(args)
            .output()
            .unwrap()
    };
    let d = dir.to_str().unwrap();
    let o = run(&["path", d, &addr]);
    assert!(o.status.success());
    assert_eq!(String::from_utf8_lossy(&o.stdout), "vars.person\n");
    let o = run(&["path", "--json", d, &addr]);
    let j: serde_json::Value = serde_json::from_slice(&o.stdout).expect("JSON");
    assert_eq!(j["path"], "vars.person");
    assert_eq!(j["root"], "vars.person");
    let o = run(&["path", d, &garbage]);
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("is garbage"));
    let o = run(&["path", d, "0x3"]);
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("not the start of a heap object"));
}
