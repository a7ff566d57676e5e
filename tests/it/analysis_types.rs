//! Motoko types of heap objects (`analysis::types`) on every committed fixture: labels match
//! the canister's declared types, per-type objects add up to the live heap, and each type's
//! retained bytes (what some object of the type retains) equal a simple computation (the
//! live objects with an object of the type on their dominator chain), and are at most what
//! removing every object of the type makes unreachable.

use crate::common;

use std::collections::HashMap;

use mo_mem::analysis::dominators::{Dominator, Retained};
use mo_mem::analysis::graph::HeapGraph;
use mo_mem::analysis::path::{Paths, Step};
use mo_mem::analysis::retained::Analysis;
use mo_mem::analysis::types::{by_type, TypeLabels, MAX_KEY_CHARS};
use mo_mem::analysis::OpenedHeap;
use mo_mem::heap::render::debug_show;
use mo_mem::heap::value::{Decoder, LazyValue, Value};
use mo_mem::heap::Heap;

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
                // objects held by two objects of the type (a doubly linked list's nodes,
                // through two boxes) are retained by the type's objects together, by none
                // alone
                println!(
                    "{label}: {} retains {:?} alone, {removed:?} together",
                    t.name, t.retained
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

/// The lazy value one level down: unboxed options are their value.
fn unwrap(d: &mut Decoder<'_>, v: &LazyValue) -> Option<(Value, LazyValue)> {
    let mut cur = v.clone();
    for _ in 0..64 {
        match d.shallow(&cur).ok()? {
            Value::Opt {
                addr: None,
                ref value,
            } => match &**value {
                Value::Lazy(l) => cur = l.clone(),
                _ => return None,
            },
            other => return Some((other, cur)),
        }
    }
    None
}

fn lazy(v: &Value) -> Option<LazyValue> {
    match v {
        Value::Lazy(l) => Some(l.clone()),
        _ => None,
    }
}

fn field(v: &Value, name: &str) -> Option<LazyValue> {
    match v {
        Value::Record { fields, .. } => fields
            .iter()
            .find(|f| &*f.label == name)
            .and_then(|f| lazy(&f.value)),
        _ => None,
    }
}

fn items(v: &Value) -> Vec<LazyValue> {
    match v {
        Value::Array { items, .. } | Value::Tuple { items, .. } => {
            items.iter().filter_map(lazy).collect()
        }
        _ => Vec::new(),
    }
}

fn show(d: &mut Decoder<'_>, v: &LazyValue) -> String {
    let s = debug_show(&d.deep(v).expect("key decodes"));
    if s.chars().count() > MAX_KEY_CHARS {
        let mut short: String = s.chars().take(MAX_KEY_CHARS - 1).collect();
        short.push('…');
        short
    } else {
        s
    }
}

/// The (key, entry, value) lazies of a mo:core collection value, found by decoding it
/// level by level (test only: the whole collection).
fn entries(d: &mut Decoder<'_>, c: &Value) -> Vec<(LazyValue, LazyValue, Option<LazyValue>)> {
    let mut out = Vec::new();
    if let (Some(blocks), Some(_)) = (field(c, "blocks"), field(c, "elementIndex")) {
        let (blocks, _) = unwrap(d, &blocks).unwrap();
        for b in items(&blocks) {
            let (block, _) = unwrap(d, &b).unwrap();
            for slot in items(&block) {
                out.push((slot.clone(), slot.clone(), Some(slot)));
            }
        }
        return out;
    }
    let Some(root) = field(c, "root") else {
        return out;
    };
    let mut stack = vec![root];
    while let Some(node) = stack.pop() {
        let Some((v, _)) = unwrap(d, &node) else {
            continue;
        };
        let Value::Variant {
            ref tag,
            ref payload,
            ..
        } = v
        else {
            continue;
        };
        let tag = tag.clone();
        let Some(payload) = lazy(payload) else {
            continue;
        };
        let Some((body, _)) = unwrap(d, &payload) else {
            continue;
        };
        match &*tag {
            "red" | "black" => {
                let parts = items(&body);
                stack.push(parts[0].clone());
                stack.push(parts[parts.len() - 1].clone());
                let value = (parts.len() == 4).then(|| parts[2].clone());
                out.push((parts[1].clone(), parts[1].clone(), value));
            }
            "internal" | "leaf" => {
                if let Some(children) = field(&body, "children") {
                    let (children, _) = unwrap(d, &children).unwrap();
                    stack.extend(items(&children));
                }
                let Some(data) = field(&body, "data") else {
                    continue;
                };
                let (data, _) = unwrap(d, &data).unwrap();
                if let Some(kvs) = field(&data, "kvs") {
                    let (kvs, _) = unwrap(d, &kvs).unwrap();
                    for slot in items(&kvs) {
                        if let Some((kv, kv_lazy)) = unwrap(d, &slot) {
                            let parts = items(&kv);
                            if parts.len() == 2 {
                                out.push((parts[0].clone(), kv_lazy, Some(parts[1].clone())));
                            }
                        }
                    }
                } else if let Some(elems) = field(&data, "elements") {
                    let (elems, _) = unwrap(d, &elems).unwrap();
                    for slot in items(&elems) {
                        // a slot is `?x`: the element is its content (e.g. a Text key)
                        if let Some((x, x_lazy)) = unwrap(d, &slot) {
                            if !matches!(x, Value::Null) {
                                out.push((x_lazy.clone(), x_lazy, None));
                            }
                        }
                    }
                }
            }
            _ => {}
        }
    }
    out
}

/// Follows `steps` from `start` through the decoder; the address of each step's object is
/// checked; `None` when a step cannot be followed by value (rope parts, captures).
fn follow(d: &mut Decoder<'_>, heap: &Heap, start: LazyValue, steps: &[(Step, u64)]) -> Option<()> {
    let mut cur = start;
    for (i, (step, addr)) in steps.iter().enumerate() {
        let (v, here) = unwrap(d, &cur)?;
        let mut boxed = false;
        cur = match step {
            Step::Field(l) => {
                // a var field's step reaches its box; the decoder gives the box's content
                boxed = matches!(&v, Value::Record { fields, .. }
                    if fields.iter().any(|f| &*f.label == l && f.mutable));
                field(&v, l)?
            }
            Step::Var => cur,
            Step::Index(k) | Step::Component(k) => items(&v).get(*k as usize)?.clone(),
            Step::Some => match v {
                Value::Opt {
                    addr: Some(_),
                    ref value,
                } => lazy(value)?,
                _ => panic!("not a Some box at {:#x}", here.word + 1),
            },
            Step::Variant(t) => match v {
                Value::Variant {
                    ref tag,
                    ref payload,
                    ..
                } => {
                    assert_eq!(&**tag, t);
                    lazy(payload)?
                }
                _ => panic!("not a variant"),
            },
            Step::Get(k) | Step::Key(k) | Step::Entry(k) => {
                let all = entries(d, &v);
                let list = field(&v, "blocks").is_some();
                let found = if list {
                    let i: usize = k.parse().expect("index");
                    all.get(i).cloned()
                } else {
                    let mut hit = None;
                    for e in all {
                        if show(d, &e.0) == *k {
                            hit = Some(e);
                            break;
                        }
                    }
                    hit
                };
                let (key, entry, value) = found.unwrap_or_else(|| panic!("no entry {k}"));
                match step {
                    Step::Get(_) => value?,
                    Step::Key(_) => key,
                    _ => entry,
                }
            }
            _ => return None,
        };
        if !boxed {
            let (_, at) = unwrap(d, &cur)?;
            let got = heap.pointer(at.word).map(|a| heap.resolve(a).unwrap());
            assert_eq!(got, Some(*addr), "step {i} ({step:?})");
        }
    }
    Some(())
}

#[test]
fn typed_paths_resolve_back_through_the_decoder() {
    let mut named = HashMap::new();
    for (name, mode, dir) in common::all_fixtures() {
        let label = format!("{name}/{mode}");
        let opened = OpenedHeap::open(&dir).expect("opens");
        let heap = opened.heap();
        let g = HeapGraph::build(heap).expect("graph");
        let sig = opened.signature().ok();
        let paths = Paths::new(&g);
        let mut rng = fastrand::Rng::with_seed(16);
        let mut sample: Vec<u32> = (0..300).map(|_| rng.u32(0..g.nodes() as u32)).collect();
        sample.extend(g.vars().iter().filter_map(|v| v.node));
        let (mut followed, mut unfollowed) = (0, 0);
        for n in sample {
            let Some(p) = paths.typed_path(heap, &g, sig, opened.labels(), n) else {
                continue;
            };
            let Some(var) = p.root.strip_prefix("vars.") else {
                continue;
            };
            let v = g.vars().iter().find(|v| v.name == var).unwrap();
            if v.node != paths.nodes_to(n).and_then(|c| c.first().copied()) {
                continue;
            }
            let ty = sig.unwrap().var(var).unwrap().ty.clone();
            let mut d = opened.decoder().unwrap();
            let start = LazyValue {
                word: v.word.unwrap(),
                ty: Some(ty),
            };
            assert_eq!(p.steps.last().map_or(p.start, |s| s.1), g.address(n));
            let text = p.text();
            if follow(&mut d, heap, start, &p.steps).is_some() {
                followed += 1;
                for s in &p.steps {
                    let kind = match s.0 {
                        Step::Get(_) => "get",
                        Step::Key(_) => "key",
                        Step::Entry(_) => "entry",
                        Step::Component(_) => "component",
                        _ => continue,
                    };
                    *named.entry(kind).or_insert(0) += 1;
                }
            } else {
                if text.starts_with("vars.txt_rope.<rope") {
                    *named.entry("rope").or_insert(0) += 1;
                }
                unfollowed += 1;
                if unfollowed <= 3 {
                    println!("{label}: not followed by value: {text}");
                }
            }
        }
        println!("{label}: {followed} paths followed, {unfollowed} not by value");
        assert!(followed > 0 || name == "scalars", "{label}");
    }
    println!("{named:?}");
    for kind in ["get", "key", "entry", "component", "rope"] {
        assert!(
            named.get(kind).copied().unwrap_or(0) > 0,
            "no {kind} step in {named:?}"
        );
    }
}

#[test]
fn map_entries_are_named_by_key() {
    let dir = common::fixture("collections", "eop");
    let opened = OpenedHeap::open(&dir).expect("opens");
    let heap = opened.heap();
    let g = HeapGraph::build(heap).expect("graph");
    let paths = Paths::new(&g);
    let d = mo_mem::analysis::retained::Analysis::new(heap).expect("analysis");
    // the objects of the variables' retained sets (not the churn's garbage)
    let texts: Vec<String> = (0..g.nodes() as u32)
        .filter(|&n| d.dominators().is_reachable(n))
        .filter_map(|n| paths.typed_path(heap, &g, opened.signature().ok(), opened.labels(), n))
        .map(|p| p.text())
        .collect();
    let has = |s: &str| texts.iter().any(|t| t == s);
    // map_nat_text holds 1_000_000_007 -> "after churn 2"
    assert!(has("vars.map_nat_text.get(1_000_000_007)"));
    assert!(has("vars.map_nat_text.entry(1_000_000_007)"));
    assert!(texts
        .iter()
        .any(|t| t.starts_with("vars.map_text_item.get(\"item-") && t.ends_with(").hits")));
    assert!(texts
        .iter()
        .any(|t| t.starts_with("vars.map_text_item.key(\"item-")));
    assert!(texts.iter().any(|t| t.starts_with("vars.pure_map.key(\"")));
    assert!(texts.iter().any(|t| t.starts_with("vars.list_nat.blocks[")));
    assert!(texts
        .iter()
        .any(|t| t.starts_with("vars.map_nat_text.root #internal.children[")));
}

#[test]
fn mutated_heaps_give_types_and_paths_without_panics() {
    use crate::heap_support::files::SnapshotFiles;
    use mo_mem::image::ReaderLimits;
    use mo_mem::module::ModuleFacts;
    use std::panic::{catch_unwind, AssertUnwindSafe};

    let limits = ReaderLimits {
        max_objects: 2_000_000,
        max_work: 20_000_000,
        ..ReaderLimits::default()
    };
    for (name, mode) in [
        ("compound", "eop"),
        ("compound", "copying"),
        ("collections", "incremental"),
    ] {
        let dir = common::fixture(name, mode);
        let files = SnapshotFiles::read(&dir, &format!("{name}/{mode}"));
        let facts = ModuleFacts::parse(&files.module).expect("module");
        let (base, len) = (
            facts.heap_base.min(files.memory.len() as u64),
            files.memory.len() as u64,
        );
        let mut rng = fastrand::Rng::with_seed(0x7970_6573);
        let mut analysed = 0;
        for case in 0..40 * crate::heap_support::files::fuzz_scale() {
            let edits: Vec<(usize, u8)> = (0..8)
                .map(|_| (rng.u64(base..len) as usize, rng.u8(..)))
                .collect();
            let mut memory = files.memory.clone();
            for &(at, b) in &edits {
                memory[at] = b;
            }
            let seed = rng.u64(..);
            let Some(heap) = files.open(memory, &facts, limits) else {
                continue;
            };
            let result = catch_unwind(AssertUnwindSafe(|| {
                let opened = OpenedHeap::new(heap);
                let heap = opened.heap();
                let Ok(a) = Analysis::new(heap) else {
                    return false;
                };
                let g = a.graph();
                let labels = TypeLabels::compute(heap, g, opened.signature().ok());
                let types = by_type(heap, &a, &labels);
                let objects: u64 = types.iter().map(|t| t.shallow.objects).sum();
                assert_eq!(objects, a.live().objects, "per-type objects add up");
                let paths = Paths::new(g);
                let mut r = fastrand::Rng::with_seed(seed);
                for _ in 0..20 {
                    if g.nodes() == 0 {
                        break;
                    }
                    let n = r.u32(0..g.nodes() as u32);
                    if let Some(p) =
                        paths.typed_path(heap, g, opened.signature().ok(), opened.labels(), n)
                    {
                        assert!(!p.text().is_empty());
                    }
                }
                true
            }));
            match result {
                Ok(done) => analysed += done as usize,
                Err(_) => panic!("{name}/{mode}: case {case}: panicked after {edits:?}"),
            }
        }
        assert!(
            analysed > 10,
            "{name}/{mode}: only {analysed} mutated heaps analysed"
        );
        println!("{name}/{mode}: {analysed} mutated heaps analysed");
    }
}
