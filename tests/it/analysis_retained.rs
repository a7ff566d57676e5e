//! Retained sizes on every committed fixture, checked against simple computations: the live set
//! against an independent traversal of the decoded objects, live + garbage against the walk,
//! and each stable variable's (and a sample of objects' and root kinds') retained set against
//! "remove the edges into it, search from the roots, count what became unreachable". Then
//! `mo-mem retained --json` against the library.

use crate::common;

use std::collections::HashSet;
use std::path::Path;
use std::process::Command;

use mo_mem::analysis::dominators::Retained;
use mo_mem::analysis::graph::HeapGraph;
use mo_mem::analysis::retained::Analysis;
use mo_mem::analysis::stats::heap_stats;
use mo_mem::heap::{Heap, StableVarSlot, Tag};
use mo_mem::image::ReaderLimits;
use mo_mem::snapshot::Snapshot;

fn open(dir: &Path) -> Heap {
    let snap = Snapshot::open(dir).unwrap_or_else(|e| panic!("{dir:?}: {e}"));
    Heap::open(snap, ReaderLimits::default()).unwrap_or_else(|e| panic!("{dir:?}: {e}"))
}

/// Addresses of heap objects reachable from the roots and the stable variables, decoding every
/// object and following forwarding (independent of the graph).
fn reachable_addresses(heap: &Heap) -> HashSet<u64> {
    let mut seen = HashSet::new();
    let mut stack: Vec<u64> = heap
        .roots()
        .expect("roots")
        .iter()
        .map(|r| r.word)
        .collect();
    for var in heap.stable_vars().expect("stable vars") {
        match var.slot {
            StableVarSlot::MutBox(a) => stack.push(a.wrapping_sub(1)),
            StableVarSlot::Value(w) => stack.push(w),
        }
    }
    while let Some(word) = stack.pop() {
        let Some(addr) = heap.pointer(word) else {
            continue;
        };
        let addr = heap.resolve(addr).expect("resolve");
        if !seen.insert(addr) {
            continue;
        }
        let obj = heap.object(addr).expect("object");
        if obj.tag != Tag::WeakRef {
            stack.extend(obj.references());
        }
    }
    seen.retain(|&a| heap.in_heap(a));
    seen
}

/// What becomes unreachable when the edges into `cut` are removed: `cut` is a node, or a root
/// group (`Err(index)`).
fn naive_retained(g: &HeapGraph, cut: Result<u32, usize>) -> Retained {
    let search = |cut: Option<Result<u32, usize>>| {
        let mut seen = vec![false; g.nodes()];
        let mut stack = Vec::new();
        for (i, r) in g.roots().iter().enumerate() {
            if cut == Some(Err(i)) {
                continue;
            }
            stack.extend(r.nodes.iter().copied());
        }
        while let Some(v) = stack.pop() {
            if cut == Some(Ok(v)) || seen[v as usize] {
                continue;
            }
            seen[v as usize] = true;
            stack.extend(g.edges().successors(v).iter().copied());
        }
        seen
    };
    let before = search(None);
    let after = search(Some(cut));
    let mut out = Retained::default();
    for (v, (b, a)) in before.iter().zip(&after).enumerate() {
        if *b && !*a {
            out.objects += 1;
            out.bytes += g.size(v as u32);
        }
    }
    out
}

#[test]
fn retained_sizes_match_a_naive_computation_on_every_fixture() {
    let mut rng = fastrand::Rng::with_seed(16);
    for (name, mode, dir) in common::all_fixtures() {
        let label = format!("{name}/{mode}");
        let heap = open(&dir);
        let stats = heap_stats(&heap);
        let a = Analysis::new(&heap).unwrap_or_else(|e| panic!("{label}: {e}"));
        let g = a.graph();
        assert!(g.errors().is_empty(), "{label}: {:?}", g.errors());
        assert_eq!(g.vars_error(), None, "{label}");
        let sk = g.skipped();
        assert_eq!(sk.dangling, 0, "{label}: dangling references");
        assert_eq!(sk.undecodable, 0, "{label}");
        assert_eq!(sk.statics_over_limit, 0, "{label}");
        if name == "weak" {
            assert!(sk.weak > 0, "{label}: no weak reference seen");
        }

        // Nodes: the walk's objects without stale copies.
        assert_eq!(g.stale(), stats.forwarded, "{label}");
        let total = g.total();
        assert_eq!(
            total.objects,
            stats.objects.objects - stats.forwarded.objects,
            "{label}"
        );
        assert_eq!(
            total.bytes,
            stats.objects.bytes - stats.forwarded.bytes,
            "{label}"
        );
        let (live, garbage) = (a.live(), a.garbage());
        assert_eq!(live.objects + garbage.objects, total.objects, "{label}");
        assert_eq!(live.bytes + garbage.bytes, total.bytes, "{label}");

        // The live set equals an independent traversal of the decoded objects.
        let want = reachable_addresses(&heap);
        let d = a.dominators();
        let got: HashSet<u64> = (0..g.nodes() as u32)
            .filter(|&n| d.is_reachable(n))
            .map(|n| g.address(n))
            .collect();
        assert_eq!(got, want, "{label}: live sets differ");
        assert!(live.objects > 0, "{label}");

        // Every stable variable: retained = what removing it frees; retained <= reachable.
        let vars = a.vars();
        assert_eq!(vars.len(), g.vars().len(), "{label}");
        let mut checked = 0;
        for v in g.vars() {
            let r = vars.iter().find(|x| x.name == v.name).expect("var");
            assert!(r.retained.bytes <= r.reachable.bytes, "{label} {}", v.name);
            assert!(
                r.retained.objects <= r.reachable.objects,
                "{label} {}",
                v.name
            );
            assert!(r.reachable.bytes <= live.bytes, "{label} {}", v.name);
            match v.node {
                Some(n) => {
                    assert_eq!(r.address, Some(g.address(n)), "{label} {}", v.name);
                    assert_eq!(
                        r.retained,
                        naive_retained(g, Ok(n)),
                        "{label}: variable {}",
                        v.name
                    );
                    assert!(r.reachable.objects >= 1, "{label} {}", v.name);
                    checked += 1;
                }
                None => assert_eq!(r.retained, Retained::default(), "{label} {}", v.name),
            }
        }
        if name != "scalars" {
            assert!(checked > 0, "{label}: no variable holds a heap object");
            assert!(
                vars.iter().any(|v| v.retained.objects > 1),
                "{label}: no variable retains more than its own object"
            );
        }

        // A sample of objects, the largest retainers, and every root kind.
        let mut sample: Vec<u32> = (0..40).map(|_| rng.u32(0..g.nodes() as u32)).collect();
        sample.extend(a.top(&heap, 10).iter().map(|t| t.node));
        for n in sample {
            assert_eq!(
                d.retained(n),
                naive_retained(g, Ok(n)),
                "{label}: object {:#x}",
                g.address(n)
            );
        }
        for (i, r) in a.roots().iter().enumerate() {
            assert_eq!(
                r.retained,
                naive_retained(g, Err(i)),
                "{label}: root kind {}",
                r.kind
            );
        }

        // Per tag: the shallow sizes add up to the live heap, each tag retains at least its own.
        let tags = a.by_tag(&heap);
        let shallow: u64 = tags.values().map(|t| t.shallow.bytes).sum();
        assert_eq!(shallow, live.bytes, "{label}");
        for (t, r) in &tags {
            assert!(r.retained.bytes >= r.shallow.bytes, "{label} {t}");
            assert!(r.retained.bytes <= live.bytes, "{label} {t}");
        }
        println!(
            "{label}: {} nodes, {} edges, live {} / {} B, garbage {} / {} B, {checked} variables checked",
            g.nodes(),
            g.edges().edges(),
            live.objects,
            live.bytes,
            garbage.objects,
            garbage.bytes
        );
    }
}

#[test]
fn the_cli_json_matches_the_library() {
    for (name, mode) in [("collections", "eop"), ("compound", "incremental-forcegc")] {
        let dir = common::fixture(name, mode);
        let out = Command::new(env!("CARGO_BIN_EXE_mo-mem"))
            .args(["retained", dir.to_str().unwrap(), "--json", "--top", "5"])
            .output()
            .expect("run mo-mem");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
        let heap = open(&dir);
        let a = Analysis::new(&heap).unwrap();
        let vars = a.vars();
        let jv = json["vars"].as_array().expect("vars");
        assert_eq!(jv.len(), vars.len());
        for (j, v) in jv.iter().zip(&vars) {
            assert_eq!(j["name"], v.name.as_str());
            match v.address {
                Some(addr) => assert_eq!(j["address"], format!("{addr:#x}").as_str()),
                None => assert!(j["address"].is_null()),
            }
            assert_eq!(j["reachable_objects"], v.reachable.objects);
            assert_eq!(j["reachable_bytes"], v.reachable.bytes);
            assert_eq!(j["retained_objects"], v.retained.objects);
            assert_eq!(j["retained_bytes"], v.retained.bytes);
        }
        // Largest retained first.
        let retained: Vec<u64> = jv
            .iter()
            .map(|v| v["retained_bytes"].as_u64().unwrap())
            .collect();
        assert!(retained.windows(2).all(|w| w[0] >= w[1]), "{retained:?}");
        let top = a.top(&heap, 5);
        let jt = json["top"].as_array().expect("top");
        assert_eq!(jt.len(), top.len());
        for (j, t) in jt.iter().zip(&top) {
            assert_eq!(j["address"], format!("{:#x}", t.address).as_str());
            assert_eq!(j["tag"], t.tag);
            assert_eq!(j["size"], t.size);
            assert_eq!(j["retained_bytes"], t.retained.bytes);
            assert!(j["type"].is_string(), "{j}");
            assert!(j["path"].is_string(), "{j}");
        }
        // types: Motoko types (or heap tags), largest retained first
        let jtypes = json["types"].as_array().expect("types");
        assert!(!jtypes.is_empty());
        assert!(jtypes.iter().any(|t| t["typed"] == true), "{jtypes:?}");
        for t in jtypes {
            assert!(t["type"].is_string() && t["objects"].is_u64() && t["bytes"].is_u64());
            assert!(t["retained_bytes"].as_u64() >= t["bytes"].as_u64());
        }
        let roots = a.roots();
        let jr = json["roots"].as_array().expect("roots");
        assert_eq!(jr.len(), roots.len());
        for (j, r) in jr.iter().zip(&roots) {
            assert_eq!(j["kind"], r.kind);
            assert_eq!(j["objects"], r.retained.objects);
            assert_eq!(j["bytes"], r.retained.bytes);
        }
        assert_eq!(json["garbage"]["objects"], a.garbage().objects);
        assert_eq!(json["garbage"]["bytes"], a.garbage().bytes);
        assert_eq!(json["live"]["bytes"], a.live().bytes);
    }
}

#[test]
fn the_cli_tables_name_every_view() {
    let dir = common::fixture("collections", "eop");
    let run = |by: &str| {
        let out = Command::new(env!("CARGO_BIN_EXE_mo-mem"))
            .args(["retained", dir.to_str().unwrap(), "--by", by, "--top", "3"])
            .output()
            .expect("run mo-mem");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).unwrap()
    };
    let heap = open(&dir);
    let a = Analysis::new(&heap).unwrap();
    let vars = run("var");
    let first = &a.vars()[0];
    assert!(vars.starts_with("variable"), "{vars}");
    let row = vars.lines().nth(1).unwrap();
    assert!(row.starts_with(&first.name), "{row}");
    assert!(row.contains(&first.retained.bytes.to_string()), "{row}");
    assert!(vars.contains("stable variables"), "{vars}");
    assert!(vars.contains("garbage"), "{vars}");
    let objects = run("object");
    let top = &a.top(&heap, 1)[0];
    assert!(
        objects.contains(&format!("{:#x}", top.address)),
        "{objects}"
    );
    let types = run("type");
    assert!(types.starts_with("type"), "{types}");
    assert!(types.contains("Map<Text, Item>"), "{types}");
}

#[test]
fn analysis_md_examples_are_true() {
    let checked = common::doc_examples::check_console_examples("docs/analysis.md");
    assert_eq!(checked, 10, "examples found");
}

/// The analysis reads the edges from the image while it computes the dominators; computed from
/// the graph's edge arrays instead, every node has the same immediate dominator and retained
/// set, and both graphs have the same edges.
#[test]
fn dominators_from_the_image_equal_those_from_the_edge_arrays() {
    for (name, mode, dir) in common::all_fixtures() {
        let label = format!("{name}/{mode}");
        let heap = open(&dir);
        let lean = Analysis::new(&heap).unwrap_or_else(|e| panic!("{label}: {e}"));
        let arrays = Analysis::from_graph(HeapGraph::build(&heap).expect("graph"))
            .unwrap_or_else(|e| panic!("{label}: {e}"));
        let (g, h) = (lean.graph(), arrays.graph());
        assert_eq!(g.nodes(), h.nodes(), "{label}");
        assert_eq!(g.edges(), h.edges(), "{label}");
        assert_eq!(g.skipped(), h.skipped(), "{label}");
        assert_eq!(g.total(), h.total(), "{label}");
        let (d, e) = (lean.dominators(), arrays.dominators());
        for n in 0..g.nodes() as u32 {
            assert_eq!(g.address(n), h.address(n), "{label}");
            assert_eq!(d.idom(n), e.idom(n), "{label}: node {n}");
            assert_eq!(d.retained(n), e.retained(n), "{label}: node {n}");
        }
        assert_eq!(lean.vars(), arrays.vars(), "{label}");
    }
}

/// The analysis every command shares (`HeapAnalysis`) keeps no edge arrays: it reads the
/// edges from the image for the variables' reachable sets, the paths to roots and the
/// export. Against the edge arrays (the graph built with them, a second computation): the
/// same successors of every node in the same order, the same edge count and skipped
/// references, the same variables' figures, and the same path to every node.
#[test]
fn the_analysis_without_edge_arrays_reads_the_same_edges_from_the_image() {
    use mo_mem::analysis::graph::ImageEdges;
    use mo_mem::analysis::path::Paths;
    use mo_mem::analysis::{HeapAnalysis, OpenedHeap};
    let mut checked = 0usize;
    for (name, mode, dir) in common::all_fixtures() {
        let label = format!("{name}/{mode}");
        let opened = OpenedHeap::new(open(&dir));
        let heap = opened.heap();
        let lean = HeapAnalysis::compute(&opened, &mo_mem::analysis::progress::NoProgress)
            .unwrap_or_else(|e| panic!("{label}: {e}"));
        let arrays = Analysis::from_graph(HeapGraph::build(heap).expect("graph"))
            .unwrap_or_else(|e| panic!("{label}: {e}"));
        let (g, h) = (lean.graph(), arrays.graph());
        assert!(!g.has_edge_arrays() || g.nodes() == 0, "{label}");
        assert_eq!(g.edge_count(), Some(h.edges().edges() as u64), "{label}");
        assert_eq!(g.skipped(), h.skipped(), "{label}");
        let image = ImageEdges::new(g, heap);
        for n in 0..g.nodes() as u32 {
            let mut read = Vec::new();
            image.scan_from(n, 0, |w| {
                read.push(w);
                false
            });
            assert_eq!(read, h.edges().successors(n), "{label}: node {n}");
        }
        assert_eq!(lean.vars(), &arrays.vars()[..], "{label}");
        let (p, q) = (lean.paths(heap), Paths::new(h));
        for n in 0..g.nodes() as u32 {
            assert_eq!(p.nodes_to(n), q.nodes_to(n), "{label}: node {n}");
        }
        checked += 1;
    }
    assert!(checked > 10, "only {checked} fixtures");
}

/// The lean decoder of reference fields (the header word and the walk's size) finds exactly
/// the pointer words the full decoder finds, in the same order, with the same tag, for every
/// walked object of every fixture.
#[test]
fn reference_runs_equal_the_full_decoders_references() {
    for (name, mode, dir) in common::all_fixtures() {
        let label = format!("{name}/{mode}");
        let heap = open(&dir);
        let mut checked = 0u64;
        for block in heap.walk() {
            let Ok(b) = block else { continue };
            let Ok(obj) = heap.object(b.addr) else {
                continue;
            };
            if !obj.tag.is_object() || b.forwarded_to.is_some() {
                continue;
            }
            let run = heap
                .reference_run(b.addr, b.size)
                .unwrap_or_else(|e| panic!("{label}: {:#x}: {e}", b.addr));
            assert_eq!(run.tag, obj.tag, "{label}: {:#x}", b.addr);
            assert_eq!(
                heap.tag_at(b.addr).map(|t| t.0).ok(),
                Some(obj.tag),
                "{label}"
            );
            let lean: Vec<u64> = run.pointers().collect();
            let full: Vec<u64> = obj.references().collect();
            assert_eq!(lean, full, "{label}: {} at {:#x}", obj.tag.name(), b.addr);
            checked += 1;
        }
        assert!(checked > 0, "{label}");
    }
}
