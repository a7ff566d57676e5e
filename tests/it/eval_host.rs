//! The host values `image`, `heap`, `vars` over the committed fixtures: `debug_show vars.x`
//! equals `mo-mem vars`, and the five analysis questions of issue 5 answered by scripts
//! match values computed independently from the decoder.

use crate::common;

use mo_mem::analysis::stats::heap_stats;
use mo_mem::heap::render::debug_show;
use mo_mem::heap::value::{heap_signature, signature_decoder, stable_variables};
use mo_mem::heap::{BlockKind, Heap, Tag};
use mo_mem::image::ReaderLimits;
use mo_mem::script::host::context::SnapshotContext;
use mo_mem::script::setup::install;
use mo_mem::script::show::canister_show;
use mo_mem::script::{self, Limits, Session, Value};
use mo_mem::snapshot::Snapshot;
use std::collections::{BTreeMap, HashSet, VecDeque};
use std::path::Path;
use std::sync::Arc;

fn open_heap(dir: &Path) -> Heap {
    Heap::open(
        Snapshot::open(dir).expect("snapshot"),
        ReaderLimits::default(),
    )
    .expect("heap")
}

/// Runs each script in one session over `dir`; returns each value in canister style.
fn eval_all(dir: &Path, scripts: Vec<String>) -> Vec<Result<String, String>> {
    eval_all_with(dir, scripts, mo_mem::script::host::lazy::EAGER_NODES)
}

/// [`eval_all`] with values of more than `eager_nodes` nodes read lazily.
fn eval_all_with(
    dir: &Path,
    scripts: Vec<String>,
    eager_nodes: u64,
) -> Vec<Result<String, String>> {
    common::eval_scripts(dir, &scripts, eager_nodes, Limits::default())
}

fn eval1(dir: &Path, src: &str) -> String {
    eval_all(dir, vec![src.to_string()])
        .remove(0)
        .unwrap_or_else(|e| panic!("{src}: {e}"))
}

/// Runs each (script, expected answer) on `collections` in EOP and incremental, eager and lazy.
fn assert_on_collections<S: AsRef<str>>(checks: &[(S, String)]) {
    for mode in ["eop", "incremental"] {
        let dir = common::fixture("collections", mode);
        for (script, want) in checks {
            let script = script.as_ref();
            assert_eq!(
                &eval1_eager_and_lazy(&dir, script),
                want,
                "collections/{mode}: {script}"
            );
        }
    }
}

/// The value of `src`, the same whether the stable variables are decoded at once or read
/// one level at a time (every compound lazy).
fn eval1_eager_and_lazy(dir: &Path, src: &str) -> String {
    let eager = eval1(dir, src);
    let lazy = eval_all_with(dir, vec![src.to_string()], 1)
        .remove(0)
        .unwrap_or_else(|e| panic!("{src} (lazy): {e}"));
    assert_eq!(lazy, eager, "{src}: lazy and eager reads differ");
    eager
}

const KEYWORDS: &[&str] = &[
    "actor",
    "and",
    "assert",
    "async",
    "await",
    "break",
    "case",
    "catch",
    "class",
    "continue",
    "debug",
    "do",
    "else",
    "false",
    "for",
    "func",
    "if",
    "in",
    "import",
    "module",
    "not",
    "null",
    "object",
    "or",
    "label",
    "let",
    "loop",
    "private",
    "public",
    "return",
    "shared",
    "try",
    "throw",
    "true",
    "type",
    "var",
    "while",
    "with",
    "switch",
    "query",
    "flexible",
    "stable",
    "system",
    "persistent",
    "transient",
    "ignore",
    "finally",
];

/// `debug_show vars.X` in a script prints what the canister's own `debug_show` printed
/// (`expected.json`, written by the compiled canister when the fixture was made: a ground
/// truth independent of mo-mem's decoder and renderers).
#[test]
fn debug_show_of_every_variable_equals_the_canisters_own() {
    let mut checked = 0;
    for (name, mode, dir) in common::all_fixtures() {
        let expected: serde_json::Value = serde_json::from_slice(
            &std::fs::read(dir.join("expected.json")).expect("expected.json"),
        )
        .expect("expected.json is JSON");
        let heap = open_heap(&dir);
        let sig = heap_signature(&heap).expect("signature");
        let vars = stable_variables(&heap, &sig).expect("vars");
        let mut want = Vec::new();
        let mut scripts = Vec::new();
        for v in &vars {
            if KEYWORDS.contains(&&*v.name) {
                continue;
            }
            let text = expected["vars"][&*v.name]
                .as_str()
                .unwrap_or_else(|| panic!("{name}/{mode}: expected.json has no {}", v.name));
            want.push((v.name.to_string(), text.to_string()));
            scripts.push(format!("debug_show vars.{}", v.name));
        }
        let got = eval_all(&dir, scripts);
        for ((var, want), got) in want.iter().zip(got) {
            let got = got.unwrap_or_else(|e| panic!("{name}/{mode} {var}: {e}"));
            assert!(
                common::debug_show_matches(want, &got),
                "{name}/{mode}: debug_show vars.{var}\n  canister: {want}\n  script:   {got}"
            );
            checked += 1;
        }
    }
    assert!(checked > 100, "only {checked} variables checked");
}

/// (1) objects and bytes per tag.
#[test]
fn q1_objects_and_bytes_per_tag() {
    for mode in ["eop", "copying", "incremental"] {
        let dir = common::fixture("compound", mode);
        let heap = open_heap(&dir);
        let mut want: BTreeMap<String, (u64, u64)> = BTreeMap::new();
        for b in heap.walk().flatten() {
            if let BlockKind::Object(tag) = b.kind {
                if tag.is_object() {
                    let e = want.entry(tag.name().to_string()).or_default();
                    e.0 += 1;
                    e.1 += b.size;
                }
            }
        }
        let script = r#"
import Map "mo:core/Map";
import Text "mo:core/Text";
let m = Map.empty<Text, (Nat, Nat)>();
for (o in heap.objects()) {
  let (n, b) = switch (Map.get(m, Text.compare, o.tag)) { case null (0, 0); case (?c) c };
  Map.add(m, Text.compare, o.tag, (n + 1, b + o.size));
};
var out = "";
for ((t, (n, b)) in Map.entries(m)) { out #= t # "=" # debug_show n # "/" # debug_show b # ";" };
out
"#;
        let expect: String = want
            .iter()
            .map(|(t, (n, b))| format!("{t}={}/{};", group(*n), group(*b)))
            .collect();
        assert_eq!(eval1(&dir, script), expect, "compound/{mode}");
        // heap.stats() is the analysis module's count, free blocks included
        let stats = heap_stats(&heap);
        let blob = stats.by_tag.get("Blob T").map_or(0, |c| c.objects);
        let got = eval1(
            &dir,
            "var n = 0; for (s in heap.stats().vals()) { if (s.tag == \"Blob T\") n := s.objects }; n",
        );
        assert_eq!(got, group(blob));
    }
}

fn group(n: u64) -> String {
    let s = n.to_string();
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push('_');
        }
        out.push(c);
    }
    out
}

fn resolve_refs(heap: &Heap, addr: u64) -> Vec<u64> {
    heap.object(addr)
        .map(|o| {
            o.references()
                .filter_map(|w| heap.pointer(w))
                .map(|a| heap.resolve(a).unwrap_or(a))
                .collect()
        })
        .unwrap_or_default()
}

/// (2) the ten largest blobs and who holds them.
#[test]
fn q2_ten_largest_blobs_and_holders() {
    let dir = common::fixture("compound", "eop");
    let heap = open_heap(&dir);
    let mut blobs: Vec<(u64, u64)> = Vec::new();
    let mut live = Vec::new();
    for b in heap.walk().flatten() {
        if let BlockKind::Object(tag) = b.kind {
            if tag.is_object() && b.forwarded_to.is_none() {
                live.push(b.addr);
                if matches!(tag, Tag::Blob(_)) {
                    blobs.push((b.size, b.addr));
                }
            }
        }
    }
    blobs.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    blobs.truncate(10);
    let expect: Vec<String> = blobs
        .iter()
        .map(|(size, addr)| {
            let holders: Vec<String> = live
                .iter()
                .filter(|h| resolve_refs(&heap, **h).contains(addr))
                .map(|h| group(*h))
                .collect();
            format!("{}@{}<-[{}]", group(*size), group(*addr), holders.join(","))
        })
        .collect();
    let script = r#"
import Array "mo:core/Array";
import Iter "mo:core/Iter";
import Text "mo:core/Text";
let blobs = Iter.toArray(Iter.filter(heap.objectsWithTag("Blob"), func(o : { forwardedTo : ?Nat }) : Bool = o.forwardedTo == null));
let sorted = Array.sort(blobs, func(a : {size : Nat; address : Nat}, b : {size : Nat; address : Nat}) : { #less; #equal; #greater } =
  if (a.size > b.size) #less else if (a.size < b.size) #greater
  else if (a.address < b.address) #less else if (a.address > b.address) #greater else #equal);
var out : [Text] = [];
var i = 0;
while (i < 10 and i < sorted.size()) {
  let o = sorted[i];
  let holders = Array.map<Nat, Text>(heap.referrers(o.address), func n = debug_show n);
  out := Array.concat(out, [debug_show o.size # "@" # debug_show o.address # "<-[" # Text.join(holders.vals(), ",") # "]"]);
  i += 1;
};
Text.join(out.vals(), "\n")
"#;
    assert_eq!(eval1(&dir, script), expect.join("\n"));
}

/// (3) total bytes under one stable variable.
#[test]
fn q3_bytes_under_one_variable() {
    for mode in ["eop", "compacting"] {
        let dir = common::fixture("compound", mode);
        let heap = open_heap(&dir);
        let sig = heap_signature(&heap).expect("sig");
        let vars = stable_variables(&heap, &sig).expect("vars");
        let var = vars.iter().find(|v| &*v.name == "person").expect("person");
        let start = heap.pointer(var.value.word).expect("pointer");
        let start = heap.resolve(start).expect("resolve");
        let mut seen = HashSet::from([start]);
        let mut queue = VecDeque::from([start]);
        let (mut n, mut bytes) = (0u64, 0u64);
        while let Some(a) = queue.pop_front() {
            n += 1;
            bytes += heap.object(a).expect("object").size;
            for r in resolve_refs(&heap, a) {
                if seen.insert(r) {
                    queue.push_back(r);
                }
            }
        }
        let got = eval1(
            &dir,
            "switch (heap.objectOf(vars.person)) { case (?o) { let r = heap.reachable(o.address); (r.objects, r.bytes) }; case null (0, 0) }",
        );
        assert_eq!(got, format!("({}, {})", group(n), group(bytes)), "{mode}");
    }
}

/// (4) all records with a given field value.
#[test]
fn q4_records_with_a_field_value() {
    let dir = common::fixture("compound", "eop");
    let heap = open_heap(&dir);
    let sig = heap_signature(&heap).expect("sig");
    let vars = stable_variables(&heap, &sig).expect("vars");
    let mut decoder = signature_decoder(&heap, &sig);
    // independently: every record (at any depth) of every variable with `name = "Ada"`
    fn walk(v: &mo_mem::heap::value::Value, out: &mut Vec<String>) {
        use mo_mem::heap::value::Value as V;
        match v {
            V::Record { fields, .. } => {
                if fields
                    .iter()
                    .any(|f| &*f.label == "name" && f.value == V::Text("Ada".into()))
                {
                    out.push(debug_show(v));
                }
                fields.iter().for_each(|f| walk(&f.value, out));
            }
            V::Opt { value, .. } => walk(value, out),
            V::Variant { payload, .. } => walk(payload, out),
            V::Tuple { items, .. } | V::Array { items, .. } => {
                items.iter().for_each(|x| walk(x, out))
            }
            _ => {}
        }
    }
    let mut want = Vec::new();
    for v in &vars {
        walk(&decoder.deep(&v.value).expect("decode"), &mut want);
    }
    assert!(!want.is_empty());
    let script = r#"
// a generic walk needs reflection; the script names the variables whose type has `name`
import Text "mo:core/Text";
let people = [vars.person];
var out : [Text] = [];
for (p in people.vals()) { if (p.name == "Ada") out := [debug_show p] };
Text.join(out.vals(), "\n")
"#;
    assert_eq!(eval1(&dir, script), want.join("\n"));
}

/// `n` as Motoko prints a Nat: digits in groups of three joined by `_`.
fn underscored(n: u64) -> String {
    // written here, not borrowed from the renderer under test
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push('_');
        }
        out.push(c);
    }
    out
}

/// (5) the keys of a `mo:core` Map held in a stable variable.
#[test]
fn q5_keys_of_a_core_map() {
    let want = CollectionsScenario::run().map_keys;
    assert!(want.len() > 1_000, "the scenario leaves thousands of keys");
    let want = format!("[{}]", joined(&want, |k| underscored(*k)));
    for mode in ["eop", "copying", "incremental"] {
        let dir = common::fixture("collections", mode);
        let got = eval1_eager_and_lazy(
            &dir,
            "import Map \"mo:core/Map\"; import Iter \"mo:core/Iter\"; Iter.toArray(Map.keys(vars.map_nat_text))",
        );
        assert_eq!(got, want, "collections/{mode}");
    }
}

/// The elements, size, membership and extremes of a `mo:core` Set held in a stable variable.
#[test]
fn elements_of_a_core_set() {
    let want = CollectionsScenario::run().set_nat;
    assert!(want.len() > 500, "the scenario leaves hundreds of elements");
    let absent = (0..10_007)
        .find(|k| want.binary_search(k).is_err())
        .expect("a gap");
    let want_text = format!(
        "([{}], {}, true, false, ?{}, ?{})",
        joined(&want, |k| underscored(*k)),
        underscored(want.len() as u64),
        underscored(want[0]),
        underscored(want[want.len() - 1])
    );
    let script = format!(
        "import Set \"mo:core/Set\"; import Nat \"mo:core/Nat\"; import Iter \"mo:core/Iter\";
let s = vars.set_nat;
(Iter.toArray(Set.values(s)), Set.size(s), Set.contains(s, Nat.compare, {}),
 Set.contains(s, Nat.compare, {absent}), Set.min(s), Set.max(s))",
        want[want.len() / 2]
    );
    for mode in ["eop", "copying", "incremental"] {
        let dir = common::fixture("collections", mode);
        assert_eq!(
            eval1_eager_and_lazy(&dir, &script),
            want_text,
            "collections/{mode}"
        );
    }
}

/// The elements of a `mo:core` List held in a stable variable, eager and lazy.
#[test]
fn elements_of_a_core_list() {
    let want = CollectionsScenario::run().list_nat;
    let want_text = format!(
        "({}, [{}], ?{}, {}, false)",
        underscored(want.len() as u64),
        joined(&want, |k| underscored(*k)),
        underscored(want[5]),
        underscored(want[7])
    );
    let script = "import List \"mo:core/List\";
let l = vars.list_nat;
(List.size(l), List.toArray(l), List.get(l, 5), List.at(l, 7), List.isEmpty(l))";
    assert_on_collections(&[(script, want_text)]);
}

/// What `collections`' scenario (motoko/fixtures/collections: fill 2000, churn, fill 1000,
/// churn) leaves in its structures, computed from the scenario itself: the map's keys, the
/// set's and list's elements, the pure list (front first), pure map (by key), pure set,
/// queue (front first), stack (top first) and priority queue (highest first).
struct CollectionsScenario {
    /// `map_nat_text`'s keys, in order.
    map_keys: Vec<u64>,
    /// `set_nat`, in order.
    set_nat: Vec<u64>,
    /// `list_nat`, in order.
    list_nat: Vec<u64>,
    pure_list: Vec<u64>,
    pure_map: Vec<(String, u64)>,
    pure_set: Vec<i64>,
    queue: Vec<String>,
    stack: Vec<i64>,
    /// Highest first.
    priority_queue: Vec<u64>,
}

impl CollectionsScenario {
    fn run() -> CollectionsScenario {
        let mut c = CollectionsScenario {
            map_keys: Vec::new(),
            set_nat: Vec::new(),
            list_nat: Vec::new(),
            pure_list: Vec::new(),
            pure_map: Vec::new(),
            pure_set: Vec::new(),
            queue: Vec::new(),
            stack: Vec::new(),
            priority_queue: Vec::new(),
        };
        let key = |i: u64, modulus: u64| (i * 7_919 + 13) % modulus;
        let mut map_keys = std::collections::BTreeSet::new();
        let mut set_nat = std::collections::BTreeSet::new();
        let mut map = std::collections::BTreeMap::new();
        let mut set = std::collections::BTreeSet::new();
        let (mut filled, mut churned) = (0, 0);
        for n in [Some(2000u64), None, Some(1000), None] {
            let Some(n) = n else {
                churned += 1;
                for i in 0..filled {
                    if i % 3 == churned % 3 {
                        map_keys.remove(&key(i, 100_003));
                    }
                    if i % 5 == 0 {
                        set_nat.remove(&key(i, 10_007));
                    }
                }
                map_keys.insert(1_000_000_007);
                c.list_nat.truncate(c.list_nat.len().saturating_sub(10));
                for _ in 0..10 {
                    if !c.queue.is_empty() {
                        c.queue.remove(0);
                    }
                    c.stack.pop();
                    if !c.pure_list.is_empty() {
                        c.pure_list.remove(0);
                    }
                }
                c.priority_queue.sort_unstable_by(|a, b| b.cmp(a));
                c.priority_queue.drain(..10.min(c.priority_queue.len()));
                map.remove("p0");
                set.remove(&-5000i64);
                continue;
            };
            for i in filled..filled + n {
                map_keys.insert(key(i, 100_003));
                if i % 2 == 0 {
                    set_nat.insert(key(i, 10_007));
                }
                if i % 3 == 0 {
                    c.list_nat.push(i);
                }
                if i % 5 == 0 {
                    c.queue.push(format!("q{i}"));
                }
                if i % 4 == 0 {
                    c.stack.push(-(i as i64));
                    c.pure_list.insert(0, i);
                }
                if i % 7 == 0 {
                    map.insert(format!("p{i}"), i);
                }
                if i % 9 == 0 {
                    set.insert(i as i64 - 5000);
                }
                if i % 4 == 1 {
                    c.priority_queue.push(key(i, 1_009));
                }
            }
            filled += n;
        }
        c.map_keys = map_keys.into_iter().collect();
        c.set_nat = set_nat.into_iter().collect();
        c.stack.reverse();
        c.priority_queue.sort_unstable_by(|a, b| b.cmp(a));
        c.pure_map = map.into_iter().collect();
        c.pure_set = set.into_iter().collect();
        c
    }
}

/// `n` as Motoko prints an Int.
fn signed(n: i64) -> String {
    match n {
        0 => "0".to_string(),
        n if n < 0 => format!("-{}", underscored(n.unsigned_abs())),
        n => format!("+{}", underscored(n as u64)),
    }
}

/// `?x` as Motoko prints it: parenthesized when `x` starts with a sign.
fn some(x: String) -> String {
    if x.starts_with(['+', '-']) {
        format!("?({x})")
    } else {
        format!("?{x}")
    }
}

fn joined<T>(xs: &[T], show: impl Fn(&T) -> String) -> String {
    xs.iter().map(show).collect::<Vec<_>>().join(", ")
}

/// The core structures without a native script counterpart (`pure/Map`, `pure/Set`,
/// `pure/List`, `Queue`, `Stack`, `PriorityQueue`) read from stable variables, eager and lazy.
#[test]
fn pure_and_linked_core_structures_read_in_order() {
    let c = CollectionsScenario::run();
    let quoted = |t: &String| format!("\"{t}\"");
    let checks = [
        (
            "import L \"mo:core/pure/List\";
(L.toArray(vars.pure_list), L.size(vars.pure_list), L.get(vars.pure_list, 3), L.isEmpty(vars.pure_list))",
            format!(
                "([{}], {}, ?{}, false)",
                joined(&c.pure_list, |n| underscored(*n)),
                underscored(c.pure_list.len() as u64),
                underscored(c.pure_list[3])
            ),
        ),
        (
            "import M \"mo:core/pure/Map\"; import Iter \"mo:core/Iter\"; import Text \"mo:core/Text\";
let m = vars.pure_map;
(Iter.toArray(M.entries(m)), M.size(m), M.get(m, Text.compare, \"p7\"), M.containsKey(m, Text.compare, \"p0\"),
 Iter.toArray(M.keys(m)).size(), Iter.toArray(M.values(m)).size())",
            format!(
                "([{}], {n}, ?7, false, {n}, {n})",
                joined(&c.pure_map, |(k, v)| format!("(\"{k}\", {})", underscored(*v))),
                n = underscored(c.pure_map.len() as u64)
            ),
        ),
        (
            "import S \"mo:core/pure/Set\"; import Iter \"mo:core/Iter\"; import Int \"mo:core/Int\";
let s = vars.pure_set;
(Iter.toArray(S.values(s)), S.size(s), S.contains(s, Int.compare, -4991), S.contains(s, Int.compare, -5000), S.min(s), S.max(s))",
            format!(
                "([{}], {}, true, false, {}, {})",
                joined(&c.pure_set, |n| signed(*n)),
                underscored(c.pure_set.len() as u64),
                some(signed(c.pure_set[0])),
                some(signed(c.pure_set[c.pure_set.len() - 1]))
            ),
        ),
        (
            "import Q \"mo:core/Queue\"; import Iter \"mo:core/Iter\";
let q = vars.queue_text;
(Q.toArray(q), Q.size(q), Q.peekFront(q), Q.peekBack(q), Iter.toArray(Q.values(q)).size(), Q.isEmpty(q))",
            format!(
                "([{}], {n}, ?{}, ?{}, {n}, false)",
                joined(&c.queue, quoted),
                quoted(&c.queue[0]),
                quoted(&c.queue[c.queue.len() - 1]),
                n = underscored(c.queue.len() as u64)
            ),
        ),
        (
            "import St \"mo:core/Stack\";
let s = vars.stack_int;
(St.toArray(s), St.size(s), St.peek(s), St.get(s, 2), St.isEmpty(s))",
            format!(
                "([{}], {}, {}, {}, false)",
                joined(&c.stack, |n| signed(*n)),
                underscored(c.stack.len() as u64),
                some(signed(c.stack[0])),
                some(signed(c.stack[2]))
            ),
        ),
        (
            "import PQ \"mo:core/PriorityQueue\"; import Nat \"mo:core/Nat\"; import Iter \"mo:core/Iter\";
let q = vars.pq_nat;
(Iter.toArray(PQ.values(q, Nat.compare)), PQ.size(q), PQ.peek(q), PQ.isEmpty(q))",
            format!(
                "([{}], {}, ?{}, false)",
                joined(&c.priority_queue, |n| underscored(*n)),
                underscored(c.priority_queue.len() as u64),
                underscored(c.priority_queue[0])
            ),
        ),
    ];
    assert_on_collections(&checks);
}

/// The same structures read with contextual dot calls and implicit arguments, as current
/// Motoko code reads them (`m.get(k)`, `l.size()`, `q.values()`), eager and lazy: every
/// answer computed from the scenario itself.
#[test]
fn dot_calls_on_core_structures_read_from_a_snapshot() {
    let c = CollectionsScenario::run();
    let present = c.map_keys[c.map_keys.len() / 2];
    let absent = (0..100_003)
        .find(|k| c.map_keys.binary_search(k).is_err())
        .expect("a gap");
    let set_absent = (0..10_007)
        .find(|k| c.set_nat.binary_search(k).is_err())
        .expect("a gap");
    let n = |x: usize| underscored(x as u64);
    let sum = |xs: &[u64]| underscored(xs.iter().sum());
    let checks = [
        (
            format!(
                "import Map \"mo:core/Map\"; import Nat \"mo:core/Nat\"; import Iter \"mo:core/Iter\";
let m = vars.map_nat_text;
(m.size(), m.containsKey({present}), m.get({absent}))"
            ),
            format!("({}, true, null)", n(c.map_keys.len())),
        ),
        (
            "import Map \"mo:core/Map\"; import Nat \"mo:core/Nat\";
let m = vars.map_nat_text;
(m.foldLeft(0, func(acc, k, _) = acc + k),
 switch (m.minEntry()) { case (?(k, _)) k; case null 0 })"
                .to_string(),
            format!("({}, {})", sum(&c.map_keys), underscored(c.map_keys[0])),
        ),
        (
            format!(
                "import Set \"mo:core/Set\"; import Nat \"mo:core/Nat\";
let s = vars.set_nat;
(s.size(), s.contains({}), s.contains({set_absent}), s.min(), s.max(), s.foldLeft(0, func(a, x) = a + x))",
                c.set_nat[3]
            ),
            format!(
                "({}, true, false, ?{}, ?{}, {})",
                n(c.set_nat.len()),
                underscored(c.set_nat[0]),
                underscored(c.set_nat[c.set_nat.len() - 1]),
                sum(&c.set_nat)
            ),
        ),
        (
            "import List \"mo:core/List\"; import Nat \"mo:core/Nat\";
let l = vars.list_nat;
(l.size(), l.get(5), l.at(7), l.last(), l.foldLeft(0, func(a, x) = a + x), l.contains(0),
 l.filter(func x = x % 2 == 0).size(), l.values().next())"
                .to_string(),
            format!(
                "({}, ?{}, {}, ?{}, {}, true, {}, ?{})",
                n(c.list_nat.len()),
                underscored(c.list_nat[5]),
                underscored(c.list_nat[7]),
                underscored(c.list_nat[c.list_nat.len() - 1]),
                sum(&c.list_nat),
                n(c.list_nat.iter().filter(|x| *x % 2 == 0).count()),
                underscored(c.list_nat[0])
            ),
        ),
        (
            "import PL \"mo:core/pure/List\"; import PM \"mo:core/pure/Map\"; import PS \"mo:core/pure/Set\";
import Text \"mo:core/Text\"; import Int \"mo:core/Int\"; import Iter \"mo:core/Iter\";
(vars.pure_list.size(), vars.pure_list.get(3), vars.pure_map.get(\"p7\"), vars.pure_map.containsKey(\"p0\"),
 vars.pure_map.size(), vars.pure_set.contains(-4991), vars.pure_set.max())"
                .to_string(),
            format!(
                "({}, ?{}, ?7, false, {}, true, {})",
                n(c.pure_list.len()),
                underscored(c.pure_list[3]),
                n(c.pure_map.len()),
                some(signed(c.pure_set[c.pure_set.len() - 1]))
            ),
        ),
        (
            "import Q \"mo:core/Queue\"; import St \"mo:core/Stack\"; import PQ \"mo:core/PriorityQueue\";
import Nat \"mo:core/Nat\"; import Iter \"mo:core/Iter\";
(vars.queue_text.size(), vars.queue_text.peekFront(), vars.stack_int.peek(), vars.stack_int.size(),
 vars.pq_nat.values().toArray(), vars.pq_nat.peek())"
                .to_string(),
            format!(
                "({}, ?\"{}\", {}, {}, [{}], ?{})",
                n(c.queue.len()),
                c.queue[0],
                some(signed(c.stack[0])),
                n(c.stack.len()),
                joined(&c.priority_queue, |x| underscored(*x)),
                underscored(c.priority_queue[0])
            ),
        ),
    ];
    assert_on_collections(&checks);
}

#[test]
fn image_loads_match_the_image() {
    let dir = common::fixture("scalars", "eop");
    let heap = open_heap(&dir);
    let base = heap.layout().heap_base;
    let w = heap.image().read_u64(base).expect("read");
    let got = eval1(
        &dir,
        &format!("(image.size(), image.loadNat64({base}), image.loadBlob({base}, 2).size())"),
    );
    assert_eq!(
        got,
        format!("({}, {}, 2)", group(heap.image().len()), group(w))
    );
    let err = eval_all(&dir, vec!["image.loadNat8(image.size())".into()]).remove(0);
    assert!(err.is_err_and(|e| e.contains("image")));
}

/// With a threshold of one node every compound is read lazily: fields, elements and
/// `debug_show` still give the values `mo-mem vars` shows.
#[test]
fn large_values_are_read_one_level_at_a_time() {
    let dir = common::fixture("compound", "eop");
    let heap = open_heap(&dir);
    let sig = heap_signature(&heap).expect("sig");
    let vars = stable_variables(&heap, &sig).expect("vars");
    let mut decoder = signature_decoder(&heap, &sig);
    let person = vars.iter().find(|v| &*v.name == "person").expect("person");
    let want_person = debug_show(&decoder.deep(&person.value).expect("decode"));
    let got = script::on_eval_thread(move || {
        let ctx = Arc::new(SnapshotContext::open(&dir).expect("context"));
        let mut s = Session::new(Limits::default());
        mo_mem::script::setup::install_with(&mut s, ctx, 1);
        [
            "debug_show vars.person",
            "vars.person.name",
            "vars.person.tags.size()",
            "vars.person.tags.get(1)",
            "var n = 0; for (t in vars.person.tags.vals()) { n += t.size() }; n",
            "switch (vars.var_rgb.payload().get(0)) { case (x) x }",
            "vars.var_rgb.tag()",
            "switch (heap.objectOf(vars.person)) { case (?o) o.tag; case null \"none\" }",
        ]
        .iter()
        .map(|src| match s.eval(src) {
            Ok(ev) => match &ev.value {
                Value::Text(t) => t.to_string(),
                v => canister_show(v),
            },
            Err(e) => format!("error: {e}"),
        })
        .collect::<Vec<_>>()
    })
    .expect("eval thread");
    assert_eq!(
        got,
        vec![
            want_person,
            "Ada".to_string(),
            "2".into(),
            "engines".into(),
            "11".into(),
            "255".into(),
            "rgb".into(),
            "Object".into(),
        ]
    );
}

/// Host calls that walk the heap are charged as steps, so a loop of them ends at the budget.
#[test]
fn heap_walking_calls_count_against_the_step_budget() {
    let dir = common::fixture("compound", "eop");
    let limit = script::on_eval_thread(move || {
        let ctx = Arc::new(SnapshotContext::open(&dir).expect("context"));
        let mut s = Session::new(Limits {
            max_steps: 20_000,
            ..Limits::default()
        });
        install(&mut s, ctx);
        let one = s.eval("heap.referrers(heap.heapBase).size()").is_ok();
        let many =
            s.eval("var i = 0; while (i < 100) { ignore heap.referrers(heap.heapBase); i += 1 }");
        (one, many.err().is_some_and(|e| e.is_limit()))
    })
    .expect("eval thread");
    assert_eq!(limit, (true, true));
}

/// `Map.get`/`containsKey`, `Set.contains`/`min`/`max` on the canister's core structures
/// search their B-trees: every 5th key of the map and of the set is found with its value,
/// its successor only when that is itself a key, eager and lazy, counted against the
/// scenario's own keys.
#[test]
fn lookups_on_core_structures_find_exactly_their_keys() {
    let c = CollectionsScenario::run();
    let sampled = |xs: &[u64]| -> (usize, usize) {
        let all: HashSet<u64> = xs.iter().copied().collect();
        let probed: Vec<u64> = xs.iter().copied().step_by(5).collect();
        let hits = probed.len() + probed.iter().filter(|k| all.contains(&(*k + 1))).count();
        (probed.len() * 2, hits)
    };
    let (probes, hits) = sampled(&c.map_keys);
    let (set_probes, set_hits) = sampled(&c.set_nat);
    let script =
        "import Map \"mo:core/Map\"; import Set \"mo:core/Set\"; import Nat \"mo:core/Nat\";
let m = vars.map_nat_text;
var i = 0; var probes = 0; var hits = 0; var wrong = 0;
for (k in Map.keys(m)) {
  if (i % 5 == 0) for (p in [k, k + 1].vals()) {
    probes += 1;
    switch (Map.get(m, Nat.compare, p)) {
      case (?v) { hits += 1; if (v != \"v\" # Nat.toText(p) and p != 1_000_000_007) wrong += 1 };
      case null { if (Map.containsKey(m, Nat.compare, p)) wrong += 1 }
    };
  };
  i += 1
};
let s = vars.set_nat;
i := 0;
var set_probes = 0; var set_hits = 0;
for (x in Set.values(s)) {
  if (i % 5 == 0) for (p in [x, x + 1].vals()) {
    set_probes += 1;
    if (Set.contains(s, Nat.compare, p)) set_hits += 1
  };
  i += 1
};
(probes, hits, wrong, set_probes, set_hits, Set.min(s), Set.max(s))";
    let n = |x: usize| underscored(x as u64);
    let want = format!(
        "({}, {}, 0, {}, {}, ?{}, ?{})",
        n(probes),
        n(hits),
        n(set_probes),
        n(set_hits),
        underscored(c.set_nat[0]),
        underscored(c.set_nat[c.set_nat.len() - 1])
    );
    assert_on_collections(&[(script, want)]);
}

/// `List.get`/`at`/`size` on the canister's core `List` find elements through the block
/// sizes: every index and one past the end, eager and lazy, against the scenario's list.
#[test]
fn indexed_reads_of_a_core_list_are_its_elements() {
    let c = CollectionsScenario::run();
    let l = &c.list_nat;
    let script = format!(
        "import List \"mo:core/List\";
let l = vars.list_nat;
var i = 0; var sum = 0; var last = 0;
while (i < List.size(l)) {{
  switch (List.get(l, i)) {{ case (?x) {{ sum += x * (i + 1); last := List.at(l, i) }}; case null {{}} }};
  i += 1
}};
(List.size(l), List.isEmpty(l), sum, last, List.get(l, {}), l.get(0))",
        l.len()
    );
    let weighted: u64 = l.iter().enumerate().map(|(i, x)| x * (i as u64 + 1)).sum();
    let want = format!(
        "({}, false, {}, {}, null, ?{})",
        underscored(l.len() as u64),
        underscored(weighted),
        underscored(l[l.len() - 1]),
        underscored(l[0])
    );
    assert_on_collections(&[(script, want)]);
}

/// A lookup reads one path of the B-tree, not the map (and an index of a `List` its block
/// sizes, not its elements): with every compound read lazily and a step budget far below
/// the structure's size, `Map.get` and `List.get` answer while listing the entries hits
/// the limit.
#[test]
fn a_lookup_reads_one_path_of_the_b_tree() {
    let dir = common::fixture("collections", "eop");
    let run = |src: &'static str| {
        let dir = dir.clone();
        script::on_eval_thread(move || {
            let ctx = Arc::new(SnapshotContext::open(&dir).expect("context"));
            let mut s = Session::new(Limits {
                max_steps: 600,
                ..Limits::default()
            });
            mo_mem::script::setup::install_with(&mut s, ctx, 1);
            s.eval(src).map(|ev| canister_show(&ev.value))
        })
        .expect("eval thread")
    };
    let one = run("import Map \"mo:core/Map\"; import Nat \"mo:core/Nat\";
Map.get(vars.map_nat_text, Nat.compare, 1_000_000_007)");
    assert_eq!(one.expect("one lookup"), "?\"after churn 2\"");
    let all = run("import Map \"mo:core/Map\"; Map.size(vars.map_nat_text) + Map.toArray(vars.map_nat_text).size()");
    assert!(
        all.is_err_and(|e| e.is_limit()),
        "listing 1,334 entries within 600 steps"
    );
}

/// `Map.get` with a library `compare` on a map read lazily descends the canister's B-tree in
/// the host (no script call per key compared); a script's own `compare` takes the script
/// path: both find the same value for every probe, present or absent, and the host path
/// uses far fewer steps (the second, simple computation of the same answers).
#[test]
fn a_library_compare_and_a_scripts_own_find_the_same_entries() {
    let dir = common::fixture("collections", "eop");
    let src =
        "import Map \"mo:core/Map\"; import Nat \"mo:core/Nat\"; import Order \"mo:core/Order\";
let m = vars.map_nat_text;
func mine(a : Nat, b : Nat) : Order.Order = Nat.compare(a, b);
var same = 0; var found = 0; var n = 0;
for (p in [0, 7, 100, 101, 999, 5_000, 99_959, 1_000_000_007, 1_000_000_008].vals()) {
  n += 1;
  let (x, y) = (Map.get(m, Nat.compare, p), Map.get(m, mine, p));
  if (x == y) same += 1;
  if (x != null) found += 1
};
(n, same, found, Map.get(m, Nat.compare, 1_000_000_007))";
    let out = eval_all_with(&dir, vec![src.to_string()], 1)
        .remove(0)
        .expect("lazy lookups");
    let eager = eval1(&dir, src);
    assert_eq!(out, eager);
    let keys: HashSet<u64> = CollectionsScenario::run().map_keys.into_iter().collect();
    let probes = [
        0,
        7,
        100,
        101,
        999,
        5_000,
        99_959,
        1_000_000_007,
        1_000_000_008,
    ];
    let found = probes.iter().filter(|p| keys.contains(p)).count() as u64;
    assert_eq!(
        out,
        format!("(9, 9, {found}, ?\"after churn 2\")"),
        "every probe agrees, and finds exactly the scenario's keys"
    );
}

/// The functions of the mutable modules that only read, over the structures a canister
/// holds (eager and lazy): ranges from a key, searches, copies (a copy of a map or set is
/// core's own tree: it shows as the canister's does), every answer computed from the
/// scenario; and the changing functions refuse what the canister holds.
#[test]
fn mutable_modules_read_and_copy_what_a_canister_holds() {
    let c = CollectionsScenario::run();
    let n = |x: usize| underscored(x as u64);
    let from = 50_000u64;
    let at_least = c.map_keys.iter().filter(|k| **k >= from).count();
    let at_most = c.map_keys.iter().filter(|k| **k <= from).count();
    let last_key = c.map_keys[c.map_keys.len() - 1];
    let set_from = c.set_nat.iter().filter(|x| **x >= 5000).count();
    let probe = c.list_nat[c.list_nat.len() / 2];
    let found = c.list_nat.binary_search(&probe).expect("sorted");
    let below = c
        .list_nat
        .iter()
        .rposition(|x| *x < 100)
        .expect("small elements");
    let checks = [
        (
            format!(
                "import Map \"mo:core/Map\"; import Nat \"mo:core/Nat\"; import Text \"mo:core/Text\"; import Iter \"mo:core/Iter\";
let m = vars.map_nat_text;
let copy = Map.clone(m);
(debug_show copy == debug_show m, Map.equal(copy, m, Nat.compare, Text.equal),
 Iter.toArray(Map.entriesFrom(m, Nat.compare, {from})).size(), Iter.toArray(Map.reverseEntriesFrom(m, Nat.compare, {from})).size(),
 switch (Map.reverseEntries(m).next()) {{ case (?(k, _)) k; case null 0 }})"
            ),
            format!("(true, true, {}, {}, {})", n(at_least), n(at_most), underscored(last_key)),
        ),
        (
            "import Set \"mo:core/Set\"; import Nat \"mo:core/Nat\"; import Iter \"mo:core/Iter\";
let s = vars.set_nat;
(debug_show Set.clone(s) == debug_show s, Iter.toArray(Set.valuesFrom(s, Nat.compare, 5000)).size(),
 Set.reverseValues(s).next(), Set.isSubset(s, s, Nat.compare), Set.size(Set.union(s, Set.singleton(1_000_000), Nat.compare)))"
                .to_string(),
            format!(
                "(true, {}, ?{}, true, {})",
                n(set_from),
                underscored(c.set_nat[c.set_nat.len() - 1]),
                n(c.set_nat.len() + 1)
            ),
        ),
        (
            format!(
                "import List \"mo:core/List\"; import Nat \"mo:core/Nat\";
let l = vars.list_nat;
(List.binarySearch(l, Nat.compare, {probe}), List.sliceToArray(l, 2, 5), List.equal(List.clone(l), l, Nat.equal),
 List.findLastIndex<Nat>(l, func x = x < 100), List.lastIndexOf(l, Nat.equal, {probe}))"
            ),
            format!(
                "(#found({}), [{}], true, ?{}, ?{})",
                n(found),
                joined(&c.list_nat[2..5], |x| underscored(*x)),
                n(below),
                n(found)
            ),
        ),
        (
            "import Q \"mo:core/Queue\"; import St \"mo:core/Stack\"; import PQ \"mo:core/PriorityQueue\";
import Nat \"mo:core/Nat\"; import Int \"mo:core/Int\"; import Text \"mo:core/Text\";
let q = Q.clone(vars.queue_text);
let p = PQ.clone(vars.pq_nat);
(Q.equal(q, vars.queue_text, Text.equal), Q.popBack(q), Q.size(vars.queue_text) - Q.size(q),
 St.equal(St.clone(vars.stack_int), vars.stack_int, Int.equal), PQ.pop(p, Nat.compare), PQ.size(vars.pq_nat) - PQ.size(p))"
                .to_string(),
            format!(
                "(true, ?\"{}\", 1, true, ?{}, 1)",
                c.queue[c.queue.len() - 1],
                underscored(c.priority_queue[0])
            ),
        ),
    ];
    assert_on_collections(&checks);
    let dir = common::fixture("collections", "eop");
    for script in [
        "import Map \"mo:core/Map\"; import Nat \"mo:core/Nat\"; Map.add(vars.map_nat_text, Nat.compare, 1, \"x\")",
        "import List \"mo:core/List\"; List.add(vars.list_nat, 1)",
        "import Q \"mo:core/Queue\"; Q.pushBack(vars.queue_text, \"x\")",
        "import St \"mo:core/Stack\"; St.push(vars.stack_int, 1)",
        "import PQ \"mo:core/PriorityQueue\"; import Nat \"mo:core/Nat\"; PQ.push(vars.pq_nat, Nat.compare, 1)",
    ] {
        let err = eval_all(&dir, vec![script.to_string()])
            .remove(0)
            .expect_err(script);
        assert!(err.contains("created by the script can change"), "{script}: {err}");
    }
}
