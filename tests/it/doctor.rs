//! `mo-mem doctor` on the `doctor` fixture (motoko/fixtures/doctor: each waste beside its
//! control) in EOP and classical copying: every finding's figures equal a second computation
//! made here from the objects themselves (the stable variables' objects read from the heap,
//! exact bytes by content, breadth-first reachability with nodes blocked for what they
//! retain), and no control's objects are in any finding. The CLI prints the library's
//! report, as text and JSON.

use crate::common;

use std::collections::{HashMap, HashSet, VecDeque};

use mo_mem::analysis::doctor::{
    blob_bytes, BoxedRow, BoxedType, Context, DoctorReport, Finding, LabelKind,
};
use mo_mem::analysis::{HeapAnalysis, OpenedHeap};
use mo_mem::heap::{BlobSort, Body, Heap, Object, Tag, EOP_NULL};
use mo_mem::module::Persistence;

const MODES: [&str; 2] = ["eop", "copying"];

/// The controls: their objects must be in no finding.
const CONTROLS: [&str; 8] = [
    "distinct_texts",
    "distinct_ropes",
    "bytes_blob",
    "raw_alias",
    "full_maps",
    "dense_slots",
    "flat_text",
    "small_nats",
];

fn open(mode: &str) -> OpenedHeap {
    let dir = common::fixture("doctor", mode);
    OpenedHeap::open(&dir).unwrap_or_else(|e| panic!("doctor/{mode}: {e}"))
}

/// The value word of stable variable `name`.
fn var_word(heap: &Heap, name: &str) -> u64 {
    let vars = heap.stable_vars().expect("stable vars");
    let var = vars
        .iter()
        .find(|v| v.name == name)
        .unwrap_or_else(|| panic!("no variable {name}"));
    heap.stable_var_value(var).expect("value")
}

/// The object of stable variable `name`.
fn var_object<'h>(heap: &'h Heap, name: &str) -> Object<'h> {
    heap.object_of(var_word(heap, name))
        .unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// The elements of the array held by stable variable `name`.
fn elements(heap: &Heap, name: &str) -> Vec<u64> {
    match var_object(heap, name).body {
        Body::Array { elems, .. } => elems.iter().collect(),
        other => panic!("{name} is not an array: {other:?}"),
    }
}

/// The address a pointer word refers to, after forwarding.
fn address(heap: &Heap, word: u64) -> u64 {
    heap.resolve(heap.pointer(word).expect("a pointer"))
        .expect("resolves")
}

/// Every heap object reachable from stable variable `name`, by address (a breadth-first
/// search over the objects' references).
fn reachable_from_var(heap: &Heap, name: &str) -> HashSet<u64> {
    let mut seen = HashSet::new();
    let mut queue = VecDeque::new();
    if heap.pointer(var_word(heap, name)).is_some() {
        queue.push_back(address(heap, var_word(heap, name)));
    }
    while let Some(addr) = queue.pop_front() {
        if !seen.insert(addr) {
            continue;
        }
        let obj = heap.object(addr).expect("object");
        for w in obj.references() {
            if let Some(p) = heap.pointer(w) {
                if let Ok(a) = heap.resolve(p) {
                    queue.push_back(a);
                }
            }
        }
    }
    seen.retain(|&a| heap.in_heap(a));
    seen
}

/// The bytes of the nodes every root reaches when `blocked` nodes are taken out (a
/// breadth-first search over the edges, read from `heap`'s image as the analysis, which keeps
/// no edge arrays, reads them; `analysis_retained` checks them against the arrays), and which
/// nodes it reached.
fn reached_without(heap: &Heap, a: &HeapAnalysis, blocked: &HashSet<u32>) -> (u64, Vec<bool>) {
    let graph = a.graph();
    let edges = mo_mem::analysis::graph::ImageEdges::new(graph, heap);
    let mut seen = vec![false; graph.nodes()];
    let mut queue: VecDeque<u32> = VecDeque::new();
    for var in graph.vars() {
        queue.extend(var.entries.iter().copied());
    }
    for roots in graph.roots() {
        queue.extend(roots.nodes.iter().copied());
    }
    let mut bytes = 0;
    while let Some(n) = queue.pop_front() {
        if seen[n as usize] || blocked.contains(&n) {
            continue;
        }
        seen[n as usize] = true;
        bytes += graph.size(n);
        edges.for_each(n, |w| queue.push_back(w));
    }
    (bytes, seen)
}

/// What the `nodes` retain together: the live bytes no root reaches without them.
fn retained_by_search(heap: &Heap, a: &HeapAnalysis, nodes: &[u32]) -> u64 {
    let (live, _) = reached_without(heap, a, &HashSet::new());
    let (rest, _) = reached_without(heap, a, &nodes.iter().copied().collect());
    live - rest
}

fn finding<'r>(report: &'r DoctorReport, check: &str, mode: &str) -> &'r Finding {
    report
        .finding(check)
        .unwrap_or_else(|| panic!("doctor/{mode}: no {check} finding:\n{}", report.text()))
}

fn addresses(a: &HeapAnalysis, nodes: &[u32]) -> HashSet<u64> {
    nodes.iter().map(|&n| a.graph().address(n)).collect()
}

/// Every live array of `len` elements among the objects reachable from stable variable
/// `name`, by address.
fn arrays_of_len(heap: &Heap, name: &str, len: u64) -> Vec<u64> {
    let mut out: Vec<u64> = reachable_from_var(heap, name)
        .into_iter()
        .filter(|&a| {
            matches!(heap.object(a).unwrap().body, Body::Array { elems, .. } if elems.len() == len)
        })
        .collect();
    out.sort();
    out
}

#[test]
fn byte_arrays_save_the_words_a_blob_does_not_need() {
    for mode in MODES {
        let opened = open(mode);
        let a = opened.analysis().expect("analysis");
        let a = &*a;
        let report = DoctorReport::new(&opened, a);
        let heap = opened.heap();
        let labels = a.labels(&opened);
        let (h, w) = (heap.layout().header, heap.layout().word.bytes());
        let mut expected = HashSet::new();
        let mut saving = 0;
        // Written `[Nat8]` and `[var Nat8]`, and through `type Bytes = [Nat8]` and
        // `type Byte = Nat8`, alone and in a record's fields (`data : ?Bytes`, `raw : [var Byte]`).
        for (name, len) in [
            ("bytes_array", 1000),
            ("bytes_var", 1000),
            ("bytes_alias", 600),
            ("bytes_record", 300),
            ("bytes_record", 200),
        ] {
            let found = arrays_of_len(heap, name, len);
            assert_eq!(found.len(), 1, "{mode} {name}: one array of {len}");
            let obj = heap.object(found[0]).unwrap();
            assert_eq!(obj.size, h + w + len * w, "{mode} {name}");
            saving += obj.size - (h + w + len.div_ceil(w) * w);
            expected.insert(obj.addr);
        }
        // The labels name the alias, not `[Nat8]`: the check reads the type behind them.
        let alias = a
            .graph()
            .node_at(arrays_of_len(heap, "bytes_alias", 600)[0])
            .unwrap();
        assert_eq!(labels.label(alias).map(|l| &**l), Some("Bytes"), "{mode}");
        assert_eq!(LabelKind::of("Bytes"), LabelKind::Other);
        let f = finding(&report, "byte-arrays", mode);
        assert_eq!(addresses(a, &f.nodes.to_vec()), expected, "{mode}");
        assert_eq!((f.objects, f.saving_bytes), (5, saving), "{mode}");
        assert_eq!(
            f.saving_bytes,
            2 * (1000 * w - blob_bytes(h, w, 1000) + h + w)
                + [600, 300, 200]
                    .iter()
                    .map(|&l| l * w - blob_bytes(h, w, l) + h + w)
                    .sum::<u64>()
        );
        assert_eq!(f.where_.len(), 5, "{mode}: {:?}", f.where_);
        for p in [
            "vars.bytes_var",
            "vars.bytes_alias",
            "vars.bytes_record.raw",
        ] {
            assert!(
                f.where_.iter().any(|x| x == p),
                "{mode} {p}: {:?}",
                f.where_
            );
        }
    }
}

/// The text of the rope at `addr`, its leaves read left to right with a stack.
fn rope_text(heap: &Heap, addr: u64) -> Vec<u8> {
    let mut out = Vec::new();
    let mut stack = vec![addr];
    while let Some(x) = stack.pop() {
        match heap.object(x).unwrap().body {
            Body::Blob { bytes, .. } => out.extend_from_slice(bytes),
            Body::Concat { left, right, .. } => {
                stack.push(address(heap, right));
                stack.push(address(heap, left));
            }
            other => panic!("a rope part {other:?}"),
        }
    }
    out
}

/// The duplicates a second computation finds: texts and blobs compared by content, ropes
/// as whole texts: every live flat object typed `Text` or `Blob`, and every live rope root
/// (a `Concat` no live `Concat` points to) by its text read here; a flat copy costs its
/// bytes, a rope what a search frees without its root; each value keeps its cheapest copy,
/// and the saving is what a search frees without all the others at once.
struct ExpectedDuplicates {
    /// The copies of the values held more than once, each value's sorted by (cost, node).
    values: Vec<Vec<(u64, u32)>>,
    objects: u64,
    bytes: u64,
    saving: u64,
    /// Every copy but each value's kept one.
    all_others: HashSet<u32>,
    /// The copies the saving drops.
    dropped: Vec<u32>,
    /// Whether a rope is among the copies.
    ropes: bool,
}

fn expected_duplicates(opened: &OpenedHeap, a: &HeapAnalysis) -> ExpectedDuplicates {
    let heap = opened.heap();
    let graph = a.graph();
    let ctx = Context::new(opened, a);
    let (_, reached) = reached_without(heap, a, &HashSet::new());
    let mut in_rope = HashSet::new();
    for n in 0..graph.nodes() as u32 {
        if let Body::Concat { left, right, .. } = heap.object(graph.address(n)).unwrap().body {
            if reached[n as usize] {
                in_rope.insert(address(heap, left));
                in_rope.insert(address(heap, right));
            }
        }
    }
    let mut by_value: HashMap<Vec<u8>, Vec<(u64, u32)>> = HashMap::new();
    let mut ropes = HashSet::new();
    for n in 0..graph.nodes() as u32 {
        let obj = heap.object(graph.address(n)).expect("object");
        if !reached[n as usize] || !matches!(ctx.kind(n), LabelKind::Text | LabelKind::Blob) {
            continue;
        }
        let (value, cost) = match obj.body {
            Body::Blob {
                sort: BlobSort::Text | BlobSort::Bytes,
                bytes,
            } => (bytes.to_vec(), obj.size),
            Body::Concat { .. } if !in_rope.contains(&obj.addr) => {
                ropes.insert(n);
                (rope_text(heap, obj.addr), retained_by_search(heap, a, &[n]))
            }
            _ => continue,
        };
        by_value.entry(value).or_default().push((cost, n));
    }
    let mut values: Vec<Vec<(u64, u32)>> = by_value.into_values().filter(|v| v.len() > 1).collect();
    for d in &mut values {
        d.sort();
    }
    let objects: u64 = values.iter().map(|v| v.len() as u64).sum();
    let bytes: u64 = values.iter().flatten().map(|c| c.0).sum();
    // A value whose kept copy no search reaches once every other copy is blocked (the
    // kept copy sits inside one of them) drops none of its copies.
    let all_others: HashSet<u32> = values
        .iter()
        .flat_map(|v| v[1..].iter().map(|c| c.1))
        .collect();
    let (_, reached_blocked) = reached_without(heap, a, &all_others);
    let dropped: Vec<u32> = values
        .iter()
        .filter(|v| reached_blocked[v[0].1 as usize])
        .flat_map(|v| v[1..].iter().map(|c| c.1))
        .collect();
    let saving = retained_by_search(heap, a, &dropped);
    let ropes = values.iter().flatten().any(|c| ropes.contains(&c.1));
    ExpectedDuplicates {
        values,
        objects,
        bytes,
        saving,
        all_others,
        dropped,
        ropes,
    }
}

/// The `duplicate-texts` finding of `report` equals the second computation: its figures,
/// the copies it drops, and where: each value's kept copy, then its other copies by cost
/// and node, the costliest values first (by what their other copies cost).
fn assert_duplicates(report: &DoctorReport, want: &ExpectedDuplicates, label: &str) {
    let Some(f) = report.finding("duplicate-texts") else {
        assert!(want.values.is_empty(), "{label}: no finding");
        return;
    };
    assert_eq!(
        (f.objects, f.bytes, f.saving_bytes),
        (want.objects, want.bytes, want.saving),
        "{label}"
    );
    let got: HashSet<u32> = f.nodes.iter().collect();
    assert_eq!(got, want.dropped.iter().copied().collect(), "{label}");
    assert!(
        f.nodes.to_vec().windows(2).all(|w| w[0] < w[1]),
        "{label}: node order"
    );
    let mut values: Vec<&Vec<(u64, u32)>> = want.values.iter().collect();
    let extra = |v: &Vec<(u64, u32)>| v[1..].iter().map(|c| c.0).sum::<u64>();
    values.sort_by(|x, y| (extra(y), x[0].1).cmp(&(extra(x), y[0].1)));
    let shown: Vec<u32> = values
        .iter()
        .flat_map(|v| v.iter().map(|c| c.1))
        .take(mo_mem::analysis::doctor::MAX_WHERE)
        .collect();
    assert_eq!(f.where_nodes, shown, "{label}: the copies where shows");
    assert_eq!(f.where_.len(), shown.len(), "{label}: {:?}", f.where_);
}

/// On the `doctor` fixture: its own duplicates, beside their controls, and a rope whose own
/// part is its value's kept copy.
#[test]
fn duplicate_texts_are_grouped_by_their_exact_bytes() {
    for mode in MODES {
        let opened = open(mode);
        let a = opened.analysis().expect("analysis");
        let a = &*a;
        let report = DoctorReport::new(&opened, a);
        let heap = opened.heap();
        let graph = a.graph();
        let want = expected_duplicates(&opened, a);
        assert!(want.ropes, "{mode}: ropes among the copies");
        assert_duplicates(&report, &want, mode);
        let (dropped, all_others) = (&want.dropped, &want.all_others);
        let saving = want.saving;
        let node_of = |w: u64| graph.node_at(address(heap, w)).expect("a node");
        let part_text = node_of(var_word(heap, "part_text"));
        let own_rope = node_of(elements(heap, "part_ropes")[0]);
        assert!(
            dropped.contains(&own_rope),
            "{mode}: the dearer rope is dropped"
        );
        if mode == "eop" {
            // The case itself: the first rope's own part is its value's kept copy, so
            // `part_text` stays; dropping every other copy would count it too.
            assert!(!dropped.contains(&part_text), "{mode}");
            let all: Vec<u32> = all_others.iter().copied().collect();
            assert_eq!(
                retained_by_search(heap, a, &all),
                saving + graph.size(part_text),
                "{mode}"
            );
        }
        let f = finding(&report, "duplicate-texts", mode);
        // The fixture's own duplicates: 40 copies of one text, 30 of one blob, 6 ropes of
        // one text (3 Concat nodes each).
        for (name, copies) in [("dup_texts", 40), ("dup_blobs", 30), ("dup_ropes", 6)] {
            let elems: HashSet<u64> = elements(heap, name)
                .into_iter()
                .map(|w| address(heap, w))
                .collect();
            assert_eq!(elems.len(), copies, "{mode} {name}: separate objects");
            let flagged = addresses(a, &f.nodes.to_vec());
            assert_eq!(
                elems.intersection(&flagged).count(),
                copies - 1,
                "{mode} {name}"
            );
        }
        let rope = address(heap, elements(heap, "dup_ropes")[0]);
        assert_eq!(heap.object(rope).unwrap().tag, Tag::Concat, "{mode}");
        let concat = heap.object(rope).unwrap().size;
        assert_eq!(
            retained_by_search(heap, a, &[graph.node_at(rope).unwrap()]),
            3 * concat,
            "{mode}: a rope's own objects are its 3 Concat nodes"
        );
        assert!(
            f.detail.contains("\"CUSTOMER REGION #4242\" x40"),
            "{}",
            f.detail
        );
        assert!(
            f.detail
                .contains("\"CUSTOMER REGION #777;CUSTOMER REGION #… x6"),
            "{}",
            f.detail
        );
        assert!(
            f.where_.iter().all(|p| p.starts_with("vars.dup_")),
            "{:?}",
            f.where_
        );
    }
}

/// On every fixture that holds duplicates, in several modes: the same figures as the
/// second computation, with and without ropes among the copies (a flat text or blob holds
/// nothing, so without ropes no copy is inside another).
#[test]
fn duplicate_texts_match_a_second_computation_on_every_fixture() {
    let mut flat_only = 0;
    for (name, mode) in [
        ("compound", "eop"),
        ("compound", "incremental"),
        ("growth2", "eop"),
        ("growth2", "copying"),
        ("scalars", "eop"),
        ("structures", "eop"),
        ("structures", "generational"),
        ("structures0", "copying"),
    ] {
        let dir = common::fixture(name, mode);
        let opened = OpenedHeap::open(&dir).unwrap_or_else(|e| panic!("{name}/{mode}: {e}"));
        let a = opened.analysis().expect("analysis");
        let want = expected_duplicates(&opened, &a);
        assert!(!want.values.is_empty(), "{name}/{mode}: duplicates");
        flat_only += usize::from(!want.ropes);
        for threads in [1, 2] {
            let report = DoctorReport::with_threads(&opened, &a, threads);
            assert_duplicates(&report, &want, &format!("{name}/{mode}, {threads} threads"));
        }
    }
    assert!(flat_only > 0, "a fixture whose duplicates are all flat");
}

#[test]
fn empty_collections_save_what_they_retain() {
    for mode in MODES {
        let opened = open(mode);
        let a = opened.analysis().expect("analysis");
        let a = &*a;
        let report = DoctorReport::new(&opened, a);
        let heap = opened.heap();
        // 12 Maps, and through aliases 8 Maps (`Index`) and 8 Lists (`Queue`).
        let maps: Vec<u32> = ["empty_maps", "aliased_maps", "aliased_lists"]
            .into_iter()
            .flat_map(|v| elements(heap, v))
            .map(|w| a.graph().node_at(address(heap, w)).expect("a node"))
            .collect();
        assert_eq!(maps.len(), 28);
        // Their labels name the collection (the alias expanded); the kind is its structure's.
        let labels = a.labels(&opened);
        for (name, label, kind) in [
            ("aliased_maps", "Map<Nat, Text>", LabelKind::MapOrSet),
            ("aliased_lists", "List<Nat>", LabelKind::List),
        ] {
            let n = a
                .graph()
                .node_at(address(heap, elements(heap, name)[0]))
                .unwrap();
            assert_eq!(
                labels.label(n).map(|l| l.to_string()).as_deref(),
                Some(label)
            );
            let i = labels.label_index(n) as usize;
            assert_eq!(LabelKind::of_shape("", labels.shapes()[i]), kind, "{name}");
        }
        let f = finding(&report, "empty-collections", mode);
        let got: HashSet<u32> = f.nodes.iter().collect();
        assert_eq!(got, maps.iter().copied().collect(), "{mode}");
        let retained = retained_by_search(heap, a, &maps);
        assert_eq!((f.bytes, f.saving_bytes), (retained, retained), "{mode}");
        assert!(f.detail.contains("Map<Nat, Text>"), "{}", f.detail);
    }
}

#[test]
fn sparse_slots_and_ropes_and_boxes_match_their_objects() {
    for mode in MODES {
        let opened = open(mode);
        let a = opened.analysis().expect("analysis");
        let a = &*a;
        let report = DoctorReport::new(&opened, a);
        let heap = opened.heap();
        let w = heap.layout().word.bytes();
        let eop = heap.layout().persistence == Persistence::Enhanced;
        let is_null = |word: u64| match eop {
            true => word == EOP_NULL,
            false => heap.object_of(word).is_ok_and(|o| o.tag == Tag::Null),
        };
        // sparse-collections: the one sparse array.
        let slots = elements(heap, "sparse_slots");
        let nulls = slots.iter().filter(|&&x| is_null(x)).count() as u64;
        assert_eq!((slots.len(), nulls), (400, 390));
        let f = finding(&report, "sparse-collections", mode);
        let sparse = var_object(heap, "sparse_slots");
        assert_eq!(
            addresses(a, &f.nodes.to_vec()),
            HashSet::from([sparse.addr]),
            "{mode}"
        );
        assert_eq!((f.objects, f.saving_bytes), (1, 390 * w), "{mode}");
        assert_eq!(f.where_, ["vars.sparse_slots"]);
        // ropes: the rope's Concat nodes counted here, its saving from a search.
        let root = var_object(heap, "rope_text");
        let (mut concats, mut concat_bytes) = (0u64, 0u64);
        let mut seen = HashSet::new();
        let mut stack = vec![root.addr];
        while let Some(addr) = stack.pop() {
            let obj = heap.object(addr).unwrap();
            if let Body::Concat { left, right, .. } = obj.body {
                if seen.insert(addr) {
                    concats += 1;
                    concat_bytes += obj.size;
                    stack.extend([left, right].map(|x| address(heap, x)));
                }
            }
        }
        let Body::Concat { n_bytes, .. } = root.body else {
            panic!("rope_text is not a rope")
        };
        assert_eq!(n_bytes, 900);
        let root_node = a.graph().node_at(root.addr).unwrap();
        let saving =
            retained_by_search(heap, a, &[root_node]) - blob_bytes(heap.layout().header, w, 900);
        let f = finding(&report, "ropes", mode);
        assert_eq!(f.nodes.to_vec(), [root_node], "{mode}");
        assert_eq!(
            (f.objects, f.bytes, f.saving_bytes),
            (concats, concat_bytes, saving)
        );
        assert!(concats >= 290, "{mode}: {concats}");
        // boxed-numbers: the 600 Float boxes.
        let boxes: HashSet<u64> = elements(heap, "floats")
            .into_iter()
            .map(|x| address(heap, x))
            .collect();
        assert_eq!(boxes.len(), 600);
        let bytes: u64 = boxes
            .iter()
            .map(|&b| a.graph().size(a.graph().node_at(b).unwrap()))
            .sum();
        let f = finding(&report, "boxed-numbers", mode);
        assert_eq!(addresses(a, &f.nodes.to_vec()), boxes, "{mode}");
        assert_eq!((f.objects, f.saving_bytes), (600, bytes), "{mode}");
        assert!(
            f.detail.starts_with("vars.floats: 600 Float boxes"),
            "{}",
            f.detail
        );
        for x in elements(heap, "small_nats") {
            assert!(heap.pointer(x).is_none(), "{mode}: a small Nat is boxed");
        }
    }
}

#[test]
fn garbage_and_heap_growth_add_up() {
    for mode in MODES {
        let opened = open(mode);
        let a = opened.analysis().expect("analysis");
        let a = &*a;
        let report = DoctorReport::new(&opened, a);
        let (live, reached) = reached_without(opened.heap(), a, &HashSet::new());
        let graph = a.graph();
        let (mut objects, mut bytes) = (graph.stale().objects, graph.stale().bytes);
        for n in 0..graph.nodes() as u32 {
            if !reached[n as usize] {
                objects += 1;
                bytes += graph.size(n);
            }
        }
        assert!(objects > 0, "{mode}: churn leaves garbage");
        let f = finding(&report, "garbage", mode);
        assert_eq!(
            (f.objects, f.bytes, f.saving_bytes),
            (objects, bytes, bytes),
            "{mode}"
        );
        assert!(f.where_.is_empty());
        let g = finding(&report, "heap-growth", mode);
        let total: u64 = g.table.iter().map(|r| r.bytes).sum();
        let memory = opened.heap().image().len();
        assert_eq!(total, memory, "{mode}: the table adds up to main memory");
        assert_eq!(report.main_memory, memory);
        assert_eq!(g.table[1].bytes, live, "{mode}: live");
        assert_eq!((g.saving_bytes, g.bytes), (0, memory - live));
        // Largest saving first.
        let savings: Vec<u64> = report.findings.iter().map(|f| f.saving_bytes).collect();
        assert!(savings.windows(2).all(|s| s[0] >= s[1]), "{savings:?}");
    }
}

#[test]
fn controls_give_no_finding() {
    for mode in MODES {
        let opened = open(mode);
        let a = opened.analysis().expect("analysis");
        let a = &*a;
        let report = DoctorReport::new(&opened, a);
        let heap = opened.heap();
        for control in CONTROLS {
            let objects = reachable_from_var(heap, control);
            assert!(!objects.is_empty() || control == "small_nats", "{control}");
            for f in &report.findings {
                let hit = addresses(a, &f.nodes.to_vec());
                assert!(
                    hit.is_disjoint(&objects),
                    "{mode}: {} flags objects of the control {control}",
                    f.check
                );
                assert!(
                    f.where_
                        .iter()
                        .all(|p| !p.starts_with(&format!("vars.{control}"))),
                    "{mode}: {} points at {control}: {:?}",
                    f.check,
                    f.where_
                );
            }
        }
        // Each waste is found, and nothing else is skipped than what the layout lacks.
        let checks: HashSet<&str> = report.findings.iter().map(|f| f.check).collect();
        for check in [
            "duplicate-texts",
            "byte-arrays",
            "sparse-collections",
            "ropes",
            "boxed-numbers",
            "empty-collections",
            "garbage",
            "heap-growth",
        ] {
            assert!(checks.contains(check), "{mode}: no {check}");
        }
        assert!(
            !checks.contains("weak-and-dedup"),
            "{mode}: no weak references here"
        );
        assert!(report
            .skipped
            .iter()
            .all(|s| s.check.starts_with("weak-and-dedup")));
        assert_eq!(report.undecoded, 0);
    }
}

#[test]
fn dead_weak_references_are_found_in_eop() {
    let dir = common::fixture("weak", "eop-forcegc");
    let opened = OpenedHeap::open(&dir).expect("open");
    let a = opened.analysis().expect("analysis");
    let a = &*a;
    let report = DoctorReport::new(&opened, a);
    let heap = opened.heap();
    let (mut dead, mut bytes) = (0u64, 0u64);
    for n in 0..a.graph().nodes() as u32 {
        let obj = heap.object(a.graph().address(n)).unwrap();
        if let Body::WeakRef { target } = obj.body {
            if a.dominators().is_reachable(n) && target == EOP_NULL {
                dead += 1;
                bytes += obj.size;
            }
        }
    }
    match report.finding("weak-and-dedup") {
        Some(f) => assert_eq!((f.objects, f.saving_bytes), (dead, bytes)),
        None => assert_eq!(dead, 0),
    }
    assert!(report
        .skipped
        .iter()
        .any(|s| s.check == "weak-and-dedup: dedup table"));
}

#[test]
fn cli_prints_the_library_report() {
    for mode in MODES {
        let dir = common::fixture("doctor", mode);
        let opened = open(mode);
        let report = DoctorReport::new(&opened, &opened.analysis().unwrap());
        let path = dir.to_str().unwrap();
        let text = common::mo_mem_ok(&["doctor", path]);
        assert_eq!(String::from_utf8(text).unwrap(), report.text());
        assert!(report.text().lines().all(|l| l.len() <= 80 && l.is_ascii()));
        let json = common::mo_mem_ok(&["doctor", path, "--json"]);
        assert_eq!(json, report.json().unwrap());
        let v: serde_json::Value = serde_json::from_slice(&json).unwrap();
        let first = &v["findings"][0];
        for key in [
            "check",
            "objects",
            "bytes",
            "saving_bytes",
            "where",
            "detail",
            "advice",
        ] {
            assert!(first.get(key).is_some(), "{key}");
        }
    }
}

#[test]
fn doctor_md_examples_are_true() {
    let checked = common::doc_examples::check_console_examples("docs/doctor.md");
    assert_eq!(checked, 3, "examples found");
}

#[test]
fn scripts_get_the_findings_as_records() {
    let dir = common::fixture("doctor", "eop");
    let opened = open("eop");
    let report = DoctorReport::new(&opened, &opened.analysis().unwrap());
    let path = dir.to_str().unwrap();
    let script = "let d = heap.doctor(); (d.size(), d[0].check, d[0].saving, d[1].where)";
    let out = String::from_utf8(common::mo_mem_ok(&["eval", path, script])).unwrap();
    let f = &report.findings;
    let paths: Vec<String> = f[1].where_.iter().map(|p| format!("{p:?}")).collect();
    let want = format!(
        "({}, {:?}, {}, [{}])",
        f.len(),
        f[0].check,
        f[0].saving_bytes,
        paths.join(", ")
    );
    let digits = |s: &str| s.replace('_', "");
    assert_eq!(digits(out.trim()), digits(&want));
    // The per-variable rows of boxed-numbers and the table of heap-growth, as the JSON has
    // them.
    let at = |check: &str| f.iter().position(|x| x.check == check).unwrap();
    let (b, g) = (at("boxed-numbers"), at("heap-growth"));
    let script = format!(
        "let d = heap.doctor(); let v = d[{b}].variables[0]; let t = d[{g}].table; \
         (d[{b}].variables.size(), v.variable, v.objects, v.bytes, v.retained, v.types[0].name, \
         v.types[0].objects, t.size(), t[1].part, t[1].objects, t[1].bytes, \
         d[{g}].variables.size(), d[{b}].table.size())"
    );
    let out = String::from_utf8(common::mo_mem_ok(&["eval", path, &script])).unwrap();
    let row = &f[b].boxed[0];
    let table = &f[g].table;
    assert_eq!(row.variable.as_deref(), Some("floats"));
    let want = format!(
        "({}, ?{:?}, {}, {}, ?{}, {:?}, {}, {}, {:?}, ?{}, {}, 0, 0)",
        f[b].boxed.len(),
        "floats",
        row.objects,
        row.bytes,
        row.retained_bytes.unwrap(),
        row.types[0].name,
        row.types[0].objects,
        table.len(),
        table[1].part,
        table[1].objects.unwrap(),
        table[1].bytes
    );
    assert_eq!(digits(out.trim()), digits(&want));
}

/// `mo-mem diff --json`'s `waste_grew` is each side's doctor report compared here: every
/// finding whose saving is larger in the new snapshot, with both sides' objects, bytes and
/// saving (`null` before when the old snapshot had no such finding), most grown first; the
/// text diff's last section lists the same checks in the same order.
#[test]
fn diff_json_lists_the_waste_that_grew() {
    let (g1, g2) = (
        common::fixture("growth1", "eop"),
        common::fixture("growth2", "eop"),
    );
    let reports: Vec<DoctorReport> = [&g1, &g2]
        .iter()
        .map(|d| {
            let opened = OpenedHeap::open(d).expect("open");
            let a = opened.analysis().unwrap();
            DoctorReport::new(&opened, &a)
        })
        .collect();
    let side = |f: &Finding| serde_json::json!({"objects": f.objects, "bytes": f.bytes, "saving_bytes": f.saving_bytes});
    let mut want: Vec<(i64, &str, serde_json::Value)> = Vec::new();
    for f in reports[1].findings.iter().filter(|f| f.saving_bytes > 0) {
        let old = reports[0]
            .findings
            .iter()
            .find(|o| o.check == f.check && o.saving_bytes > 0);
        let before = old.map_or(0, |o| o.saving_bytes);
        if f.saving_bytes <= before {
            continue;
        }
        let grew = f.saving_bytes as i64 - before as i64;
        want.push((
            -grew,
            f.check,
            serde_json::json!({
                "check": f.check,
                "old": old.map(side),
                "new": side(f),
                "saving_bytes_delta": grew,
            }),
        ));
    }
    want.sort_by(|x, y| (x.0, x.1).cmp(&(y.0, y.1)));
    assert!(
        want.len() >= 2,
        "growth1 -> growth2: garbage and duplicates grow"
    );
    let (p1, p2) = (g1.to_str().unwrap(), g2.to_str().unwrap());
    let json: serde_json::Value =
        serde_json::from_slice(&common::mo_mem_ok(&["diff", p1, p2, "--json"])).unwrap();
    let got = json["waste_grew"].as_array().expect("waste_grew");
    let want_json: Vec<serde_json::Value> = want.iter().map(|w| w.2.clone()).collect();
    assert_eq!(got, &want_json);
    let text = String::from_utf8(common::mo_mem_ok(&["diff", p1, p2])).unwrap();
    let section = text.split("waste that grew").nth(1).expect("the section");
    let checks: Vec<&str> = section
        .lines()
        .skip(1)
        .filter_map(|l| l.split_whitespace().next())
        .collect();
    let want_checks: Vec<&str> = want.iter().map(|w| w.1).collect();
    assert_eq!(checks, want_checks);
}

/// `boxed-numbers` per variable: a box is a variable's when no root reaches it once the
/// variable's value is taken out (a breadth-first search per variable, not the dominator
/// tree); a variable's boxes are listed from 64 boxes and 1/64 of the live heap on, with what
/// the variable retains (its value blocked, the bytes no root reaches any more).
#[test]
fn boxed_numbers_are_the_variables_that_alone_reach_them() {
    for mode in MODES {
        let opened = open(mode);
        let a = opened.analysis().expect("analysis");
        let a = &*a;
        let report = DoctorReport::new(&opened, a);
        let heap = opened.heap();
        let graph = a.graph();
        let labels = a.labels(&opened);
        let (live, reached) = reached_without(heap, a, &HashSet::new());
        let boxes: Vec<u32> = (0..graph.nodes() as u32)
            .filter(|&n| reached[n as usize])
            .filter(|&n| labels.label(n).map(|l| LabelKind::of(l)) == Some(LabelKind::Number))
            .filter(|&n| {
                let tag = heap.object(graph.address(n)).unwrap().tag;
                matches!(tag, Tag::Bits64(_) | Tag::Bits32(_) | Tag::BigInt)
            })
            .collect();
        let mut owner: HashMap<u32, usize> = HashMap::new();
        let mut rows: Vec<BoxedRow> = Vec::new();
        for (i, var) in graph.vars().iter().enumerate() {
            let blocked: HashSet<u32> = var.entries.iter().copied().collect();
            let (rest, seen) = reached_without(heap, a, &blocked);
            let mine: Vec<u32> = boxes
                .iter()
                .copied()
                .filter(|&b| !seen[b as usize])
                .collect();
            for &b in &mine {
                assert!(
                    owner.insert(b, i).is_none(),
                    "{mode}: two variables own a box"
                );
            }
            let bytes: u64 = mine.iter().map(|&b| graph.size(b)).sum();
            if mine.len() >= 64 && bytes * 64 >= live {
                let mut types: HashMap<String, (u64, u64)> = HashMap::new();
                for &b in &mine {
                    let t = types
                        .entry(labels.label(b).unwrap().to_string())
                        .or_default();
                    t.0 += 1;
                    t.1 += graph.size(b);
                }
                let mut types: Vec<BoxedType> = types
                    .into_iter()
                    .map(|(name, (objects, bytes))| BoxedType {
                        name,
                        objects,
                        bytes,
                    })
                    .collect();
                types.sort_by(|x, y| (y.bytes, &x.name).cmp(&(x.bytes, &y.name)));
                rows.push(BoxedRow {
                    variable: Some(var.name.clone()),
                    objects: mine.len() as u64,
                    bytes,
                    retained_bytes: (var.entries.len() == 1).then_some(live - rest),
                    types,
                });
            }
        }
        let shared = boxes.iter().filter(|b| !owner.contains_key(b)).count();
        assert!(shared < 64, "{mode}: {shared} shared boxes");
        rows.sort_by(|x, y| (y.bytes, &x.variable).cmp(&(x.bytes, &y.variable)));
        let f = finding(&report, "boxed-numbers", mode);
        assert_eq!(f.boxed, rows, "{mode}");
        assert_eq!(rows.len(), 1, "{mode}: only floats");
        assert_eq!(rows[0].variable.as_deref(), Some("floats"));
        assert_eq!(
            (rows[0].objects, rows[0].bytes),
            (600, 600 * (heap.layout().header + 8))
        );
        let json: serde_json::Value = serde_json::from_slice(&report.json().unwrap()).unwrap();
        let found = json["findings"]
            .as_array()
            .unwrap()
            .iter()
            .find(|f| f["check"] == "boxed-numbers")
            .unwrap();
        assert_eq!(found["variables"][0]["variable"], "floats");
        assert_eq!(found["variables"][0]["objects"], 600);
    }
}
