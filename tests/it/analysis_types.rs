//! Motoko types of heap objects (`analysis::types`) on every committed fixture: labels match
//! the canister's declared types, per-type objects add up to the live heap, and each type's
//! retained bytes (what some object of the type retains) equal a simple computation (the
//! live objects with an object of the type on their dominator chain), and are at most what
//! removing every object of the type makes unreachable.

use crate::common;

use std::collections::HashMap;

use mo_mem::analysis::dominators::{Dominator, Retained};
use mo_mem::analysis::graph::HeapGraph;
use mo_mem::analysis::retained::Analysis;
use mo_mem::analysis::types::{by_type, TypeLabels};
use mo_mem::analysis::OpenedHeap;

/// What becomes unreachable from the roots when the nodes in `cut` are removed (the removed
/// live nodes included).
fn naive_retained(g: &HeapGraph, live: &[bool], cut: &[bool]) -> Retained {
    let mut seen = vec![false; g.nodes()];
    let mut stack: Vec<u32> = g
        .roots()
        .iter()
        .flat_map(|r| r.nodes.iter().copied())
        .collect();
    while let Some(v) = stack.pop() {
        if cut[v as usize] || seen[v as usize] {
            continue;
        }
        seen[v as usize] = true;
        stack.extend(g.edges().successors(v).iter().copied());
    }
    let mut out = Retained::default();
    for v in 0..g.nodes() {
        if live[v] && !seen[v] {
            out.objects += 1;
            out.bytes += g.size(v as u32);
        }
    }
    out
}

#[test]
fn type_retained_sizes_match_removing_the_type_on_every_fixture() {
    for (name, mode, dir) in common::all_fixtures() {
        let label = format!("{name}/{mode}");
        let opened = OpenedHeap::open(&dir).expect("opens");
        let heap = opened.heap();
        let a = Analysis::new(heap).expect("analysis");
        let g = a.graph();
        let labels = TypeLabels::compute(heap, g, opened.signature().ok());
        assert_eq!(labels.mismatched(), 0, "{label}");
        let types = by_type(heap, &a, &labels);
        let d = a.dominators();
        let live: Vec<bool> = (0..g.nodes() as u32).map(|n| d.is_reachable(n)).collect();

        // Every labelled object is live (the walk follows only traced references).
        for n in 0..g.nodes() as u32 {
            if labels.label(n).is_some() {
                assert!(live[n as usize], "{label}: labelled garbage {n}");
            }
        }
        // Objects and bytes add up to the live heap.
        let objects: u64 = types.iter().map(|t| t.shallow.objects).sum();
        let bytes: u64 = types.iter().map(|t| t.shallow.bytes).sum();
        assert_eq!(objects, a.live().objects, "{label}");
        assert_eq!(bytes, a.live().bytes, "{label}");
        let typed: u64 = types
            .iter()
            .filter(|t| t.typed)
            .map(|t| t.shallow.objects)
            .sum();
        assert_eq!(typed, labels.labelled(), "{label}");
        if name != "scalars" {
            assert!(typed > 0, "{label}: nothing typed");
        }
        // Names are distinct per kind; sorted by retained bytes.
        let mut seen = HashMap::new();
        for t in &types {
            assert!(
                seen.insert((t.name.clone(), t.typed), ()).is_none(),
                "{label}: {} twice",
                t.name
            );
        }
        assert!(types
            .windows(2)
            .all(|w| w[0].retained.bytes >= w[1].retained.bytes));

        // Each type's retained set against its definition, and removing all its objects.
        let mut differ = 0;
        for t in &types {
            let cut: Vec<bool> = (0..g.nodes() as u32)
                .map(|n| {
                    live[n as usize]
                        && match labels.label(n) {
                            Some(l) => t.typed && *l == t.name,
                            None => {
                                !t.typed
                                    && heap.object(g.address(n)).map_or("?", |o| o.tag.name())
                                        == &*t.name
                            }
                        }
                })
                .collect();
            assert_eq!(
                cut.iter().filter(|&&c| c).count() as u64,
                t.shallow.objects,
                "{label}: {}",
                t.name
            );
            // dominated by an object of the type: walk up each live object's dominators
            let mut dominated = Retained::default();
            for n in 0..g.nodes() as u32 {
                if !live[n as usize] {
                    continue;
                }
                let mut v = n;
                loop {
                    if cut[v as usize] {
                        dominated.objects += 1;
                        dominated.bytes += g.size(n);
                        break;
                    }
                    match d.idom(v) {
                        Some(Dominator::Node(p)) => v = p,
                        _ => break,
                    }
                }
            }
            assert_eq!(t.retained, dominated, "{label}: type {}", t.name);
            let removed = naive_retained(g, &live, &cut);
            assert!(
                t.retained.bytes <= removed.bytes && t.retained.objects <= removed.objects,
                "{label}: type {}: {:?} > {removed:?}",
                t.name,
                t.retained
            );
            if t.retained != removed {
                // a doubly linked list's nodes hold each other through two boxes
                assert!(
                    ["Node<Text>", "var ?Node<Text>"].contains(&&*t.name),
                    "{label}: type {}: {:?} != {removed:?}",
                    t.name,
                    t.retained
                );
                differ += 1;
            }
            assert!(t.retained.bytes >= t.shallow.bytes, "{label}: {}", t.name);
        }
        println!(
            "{label}: {} types, {} labelled, {differ} types retain less alone than together",
            types.len(),
            labels.labelled()
        );
    }
}

/// The label of stable variable `var`'s object.
fn var_label(opened: &OpenedHeap, labels: &TypeLabels, g: &HeapGraph, var: &str) -> String {
    let _ = opened;
    let node = g
        .vars()
        .iter()
        .find(|v| v.name == var)
        .and_then(|v| v.node)
        .unwrap_or_else(|| panic!("variable {var}"));
    labels
        .label(node)
        .map(|l| l.to_string())
        .unwrap_or_else(|| panic!("{var} unlabelled"))
}

#[test]
fn labels_follow_the_declared_types() {
    for mode in ["eop", "incremental", "copying"] {
        let dir = common::fixture("compound", mode);
        let opened = OpenedHeap::open(&dir).expect("opens");
        let heap = opened.heap();
        let g = HeapGraph::build(heap).expect("graph");
        let labels = TypeLabels::compute(heap, &g, opened.signature().ok());
        let l = |v: &str| var_label(&opened, &labels, &g, v);
        // `person`'s record type is the body of the alias `Person__124666696`.
        assert_eq!(l("person"), "Person", "{mode}");
        assert_eq!(l("people"), "[Person]", "{mode}");
        assert_eq!(l("greeted"), "Text", "{mode}");
        assert_eq!(l("arr_tuples"), "[(Nat, Text)]", "{mode}");
        assert_eq!(l("arr_var"), "[var Int]", "{mode}");
        assert_eq!(l("tree"), "Tree", "{mode}");
        assert_eq!(l("var_maybe_some"), "Color", "{mode}");
        assert_eq!(l("result_ok"), "{#err : Text; #ok : Nat}", "{mode}");
        assert_eq!(l("fn_opt"), "shared () -> async ()", "{mode}");
        assert_eq!(l("let_var_array"), "[var Nat]", "{mode}");
        if mode == "eop" {
            // literal constants are static objects in the classical layouts
            assert_eq!(
                l("nested_record"),
                "{flag : Bool; outer : {inner : {deep : Text; n : Nat}; list : [Nat]}}"
            );
            assert_eq!(l("opt_opt_some"), "??Nat");
            assert_eq!(l("opt_some_text"), "Text");
        }
        if mode != "eop" {
            // classically, `person`'s parts are static objects (not labelled)
            continue;
        }
        // The parts of `person`: its var field's box, the tags.
        let person = g.vars().iter().find(|v| v.name == "person").unwrap();
        let mut parts: Vec<String> = g
            .edges()
            .successors(person.node.unwrap())
            .iter()
            .filter_map(|&n| labels.label(n).map(|l| l.to_string()))
            .collect();
        parts.sort();
        for want in ["var Nat", "[Text]"] {
            assert!(
                parts.iter().any(|p| p == want),
                "{mode}: {want} in {parts:?}"
            );
        }
    }
    let dir = common::fixture("collections", "eop");
    let opened = OpenedHeap::open(&dir).expect("opens");
    let heap = opened.heap();
    let g = HeapGraph::build(heap).expect("graph");
    let labels = TypeLabels::compute(heap, &g, opened.signature().ok());
    let l = |v: &str| var_label(&opened, &labels, &g, v);
    assert_eq!(l("map_nat_text"), "Map<Nat, Text>");
    assert_eq!(l("map_text_item"), "Map<Text, Item>");
    assert_eq!(l("set_nat"), "Set<Nat>");
    assert_eq!(l("list_nat"), "List<Nat>");
    assert_eq!(l("pure_map"), "pure/Map<Text, Nat>");
    assert_eq!(l("pure_set"), "pure/Set<Int>");
    assert_eq!(l("queue_text"), "Queue<Text>");
    assert_eq!(l("stack_int"), "Stack<Int>");
    assert_eq!(l("queue_text_items"), "[Text]");
    // Every object labelled `Text` decodes as a text, every `Item` as a record.
    let mut decoder = opened.decoder().expect("signature");
    let text = std::sync::Arc::new(mo_mem::heap::types::Type::Prim(
        mo_mem::heap::types::Prim::Text,
    ));
    let mut texts = 0;
    for n in 0..g.nodes() as u32 {
        match labels.label(n).map(|l| &**l) {
            Some("Text") => {
                let obj = heap.object(g.address(n)).unwrap();
                // rope parts are texts too; a whole text decodes
                let word = g.address(n) - 1;
                let v = decoder
                    .shallow(&mo_mem::heap::value::LazyValue {
                        word,
                        ty: Some(text.clone()),
                    })
                    .unwrap_or_else(|e| {
                        panic!("{:#x} ({}) as Text: {e}", g.address(n), obj.tag.name())
                    });
                assert!(matches!(v, mo_mem::heap::value::Value::Text(_)));
                texts += 1;
            }
            Some("Item") => {
                assert_eq!(heap.object(g.address(n)).unwrap().tag.name(), "Object");
            }
            _ => {}
        }
    }
    assert!(texts > 1000, "{texts} texts");
}
