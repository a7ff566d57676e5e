//! The `big` canister (motoko/fixtures/big/main.mo): a heap over several incremental-GC
//! partitions (EOP 64 MiB, classical 32 MiB each), live chunks between garbage, a large object
//! bigger than a partition, snapshotted with a GC mid-flight. Modes `eop`, `incremental` and
//! both `-forcegc`.
//!
//! Every run checks `big-small` (the same canister on a shorter scenario: 72 chunks, an
//! 8.5-million-element large object; 378 MiB EOP images, 189 MiB classical), which the test
//! generates itself with the pinned compiler and this build's `mo-mem` when its stamp is not up
//! to date (`common::generated_fixture`; 20-70 s, see docs/fixtures.md). Without the compiler
//! the test fails under `MO_MEM_STRICT=1` (a skip elsewhere). The full `big` (608 MiB EOP
//! images, 15 minutes to generate) is a benchmark heap; the same checks run on it when
//! `MOMEM_BIG_FIXTURE` names its directory (every mode must be there):
//!
//! ```sh
//! MO_MEM_BIN=target/debug/mo-mem scripts/gen-fixtures --on-demand big
//! MOMEM_BIG_FIXTURE=target/fixture-snapshots/big cargo test --test it big_fixture:: -- --nocapture
//! ```
//!
//! What it checks, per mode: the walk proves every partition/range ends exactly; the heap spans
//! more than three partitions; the large object has a range of its own, bigger than a
//! partition; the chunks the scenario allocated are there (every kept one, and garbage ones the
//! GC has not reclaimed); every stable variable decodes to the canister's own text in
//! `expected.json`, where the `<large: N arrays, M elements, sum S>` markers of the huge
//! variables are checked by recomputing N, M and S from the decoder's values of the elements
//! (each distinct element word decoded once: a Nat's value is a function of its word, and the
//! chunks repeat one word); and `mo-mem info --json` reports the mid-GC state (GC phase 4,
//! Update: an evacuated partition, partitions to update, stale forwarded copies; the
//! partition table; the large-object range) the heap has.

use crate::common;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use num_bigint::BigUint;

use mo_mem::analysis::stats::heap_stats;
use mo_mem::heap::render::debug_show;
use mo_mem::heap::types::Type;
use mo_mem::heap::value::{heap_signature, signature_decoder, stable_variables, Decoder};
use mo_mem::heap::value::{LazyValue, Value};
use mo_mem::heap::{BlockKind, Body, Heap, Tag};
use mo_mem::image::ReaderLimits;
use mo_mem::snapshot::Snapshot;

const MODES: [&str; 4] = ["eop", "eop-forcegc", "incremental", "incremental-forcegc"];
/// Elements per chunk (`chunk_len` in main.mo).
const CHUNK: u64 = 262_144;
/// The incremental GC's Update phase (`Heap::gc_phase`).
const PHASE_UPDATE: u32 = 4;

fn expected_vars(dir: &Path) -> BTreeMap<String, String> {
    let text = std::fs::read_to_string(dir.join("expected.json")).expect("expected.json");
    let json: serde_json::Value = serde_json::from_str(&text).expect("JSON");
    json["vars"]
        .as_object()
        .expect("vars")
        .iter()
        .map(|(k, v)| (k.clone(), v.as_str().expect("text").to_string()))
        .collect()
}

/// `(arrays, elements)` of a `<large: N arrays, M elements, sum S>` marker.
fn marker_counts(text: &str) -> (u64, u64) {
    let words: Vec<&str> = text.split([' ', ',']).filter(|w| !w.is_empty()).collect();
    match words[..] {
        ["<large:", n, "arrays", m, "elements", "sum", _] => {
            (n.parse().expect("N arrays"), m.parse().expect("M elements"))
        }
        _ => panic!("not a <large: ...> marker: {text}"),
    }
}

/// A Nat as `debug_show` writes it (`1_000`), parsed.
fn nat_var(vars: &BTreeMap<String, String>, name: &str) -> u64 {
    vars[name].replace('_', "").parse().expect(name)
}

/// `(arrays, elements, sum)` of a `[var Nat]` or `[[var Nat]]` value: every element's word is
/// read from its array, and each run of equal words decoded once by `d` as the static type
/// (Nat) and counted for the whole run.
fn summary(d: &mut Decoder<'_>, heap: &Heap, v: &LazyValue) -> (u64, u64, BigUint) {
    let ty = d.type_of(v).expect("type").expect("typed");
    let arrays: Vec<LazyValue> = match &*ty {
        Type::Array { elem, .. } if matches!(&**elem, Type::Array { .. }) => {
            let n = d.len(v).expect("outer length");
            (0..n).map(|i| d.element(v, i).expect("element")).collect()
        }
        _ => vec![v.clone()],
    };
    let (mut count, mut sum) = (0u64, BigUint::default());
    for a in &arrays {
        let elem_ty = match d.type_of(a).expect("type").as_deref() {
            Some(Type::Array { elem, .. }) => elem.clone(),
            other => panic!("not an array type: {other:?}"),
        };
        let addr = heap.pointer(a.word).expect("array pointer");
        let obj = heap
            .object(heap.resolve(addr).expect("resolve"))
            .expect("array");
        let Body::Array { elems, .. } = obj.body else {
            panic!("{addr:#x} is a {}", obj.tag.name());
        };
        // The current run: its word, its value, its length.
        let mut run: Option<(u64, BigUint, u64)> = None;
        for i in 0..elems.len() {
            let word = elems.get(i).expect("element word");
            match &mut run {
                Some((w, _, n)) if *w == word => *n += 1,
                _ => {
                    if let Some((_, value, n)) = run.take() {
                        sum += value * n;
                    }
                    let value = match d
                        .shallow(&LazyValue::typed(word, elem_ty.clone()))
                        .expect("Nat")
                    {
                        Value::Nat(ref n) => n.clone(),
                        other => panic!("element {i} of {addr:#x}: {other:?}"),
                    };
                    run = Some((word, value, 1));
                }
            }
            count += 1;
        }
        if let Some((_, value, n)) = run {
            sum += value * n;
        }
    }
    (arrays.len() as u64, count, sum)
}

fn info_json(dir: &Path) -> serde_json::Value {
    let out = Command::new(env!("CARGO_BIN_EXE_mo-mem"))
        .args(["info", &dir.to_string_lossy(), "--json"])
        .output()
        .expect("run mo-mem info");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("info --json is JSON")
}

fn check(label: &str, dir: &Path) {
    let snapshot = Snapshot::open(dir).unwrap_or_else(|e| panic!("{label}: {e}"));
    let heap = Heap::open(snapshot, ReaderLimits::default()).unwrap_or_else(|e| panic!("{e}"));
    let expected = expected_vars(dir);
    // What the scenario allocated, as the canister reports it.
    let allocated = nat_var(&expected, "allocated_arrays");
    let (kept, kept_elems) = marker_counts(&expected["kept"]);
    assert_eq!(kept_elems, kept * CHUNK, "{label}: kept chunks");
    assert!(
        kept >= 2 && allocated > kept,
        "{label}: {kept} of {allocated}"
    );
    let (one, large_len) = marker_counts(&expected["large"]);
    assert_eq!(one, 1, "{label}");

    // The walk: every partition/range ends exactly, nothing unparsed.
    let stats = heap_stats(&heap);
    assert!(stats.errors.is_empty(), "{label}: {:?}", stats.errors);
    assert!(stats.complete(), "{label}: a range did not end exactly");
    let ranges = heap.ranges();
    // Data over several partitions (EOP 64 MiB, classical 32 MiB each) ...
    let partition = heap.layout().partition_size;
    assert!(
        stats.heap_bytes > 3 * partition,
        "{label}: heap {} bytes, not over 3 partitions of {partition}",
        stats.heap_bytes
    );
    assert!(ranges.len() >= 4, "{label}: {} ranges", ranges.len());
    // ... and the large object in a range of its own, bigger than a partition.
    let large: Vec<_> = ranges.iter().filter(|r| r.large_object).collect();
    assert_eq!(large.len(), 1, "{label}: large-object ranges {large:?}");
    assert!(large[0].end - large[0].start > partition, "{label}");
    assert!(
        large_len * heap.layout().word.bytes() > partition,
        "{label}: the large array ({large_len} elements) fits a partition"
    );

    // Object counts per tag: the scenario's chunks, the large array, the records.
    let mut chunks = 0u64;
    let mut large_arrays = 0u64;
    let mut large_in_range = false;
    let mut forwarded = 0u64;
    for b in heap.walk() {
        let b = b.unwrap_or_else(|e| panic!("{label}: {e}"));
        if b.forwarded_to.is_some() {
            forwarded += 1;
            continue;
        }
        if let BlockKind::Object(Tag::Array(_)) = b.kind {
            if let Ok(o) = heap.object(b.addr) {
                if let Body::Array { elems, .. } = o.body {
                    chunks += u64::from(elems.len() == CHUNK);
                    if elems.len() == large_len {
                        large_arrays += 1;
                        large_in_range |= b.addr >= large[0].start && b.addr < large[0].end;
                    }
                }
            }
        }
    }
    // Every kept chunk, and garbage ones between them the GC has not reclaimed yet.
    assert!(
        (kept + 1..=allocated).contains(&chunks),
        "{label}: {chunks} chunks, want every one of the {kept} kept and some of the other {} \
         (garbage not yet reclaimed)",
        allocated - kept
    );
    assert_eq!(large_arrays, 1, "{label}: the {large_len}-element array");
    assert!(
        large_in_range,
        "{label}: the large array is not in the large range"
    );
    let objects: u64 = stats.by_tag.get("Object").map_or(0, |c| c.objects);
    assert!(
        objects >= kept,
        "{label}: {objects} Objects ({kept} records)"
    );

    // The GC is mid-flight, updating pointers after an evacuation; mo-mem info says so.
    let phase = heap.gc_phase().expect("incremental GC phase");
    assert_eq!(phase, PHASE_UPDATE, "{label}: GC phase");
    assert!(forwarded > 0, "{label}: no forwarded (evacuated) objects");
    let info = info_json(dir);
    assert_eq!(info["gc_phase"].as_u64(), Some(u64::from(phase)), "{label}");
    assert_eq!(
        info["ranges"].as_array().map(Vec::len),
        Some(ranges.len()),
        "{label}"
    );
    assert_eq!(info["walk_complete"], serde_json::json!(true), "{label}");
    assert_eq!(info["large_object_ranges"].as_u64(), Some(1), "{label}");
    let parts = info["partitions"].as_array().expect("partitions");
    let want: Vec<_> = ranges.iter().filter_map(|r| r.partition).collect();
    assert_eq!(parts.len(), want.len(), "{label}");
    assert!(want.len() >= 4, "{label}: {} partitions", want.len());
    assert_eq!(
        parts,
        &want
            .iter()
            .map(|p| serde_json::to_value(p).unwrap())
            .collect::<Vec<_>>()
    );
    assert!(
        want.iter().any(|p| p.large_content),
        "{label}: no partition holds the large object"
    );
    assert!(
        want.iter().any(|p| p.evacuate) && want.iter().any(|p| p.update),
        "{label}: Update phase without an evacuated partition and partitions to update: {want:?}"
    );

    // The variables: exact text, or the large summaries recomputed from decoded values.
    let sig = heap_signature(&heap).expect("signature");
    let vars = stable_variables(&heap, &sig).expect("vars");
    assert_eq!(vars.len(), expected.len(), "{label}");
    let mut d = signature_decoder(&heap, &sig);
    for v in &vars {
        let want = expected
            .get(&*v.name)
            .unwrap_or_else(|| panic!("{label}: {} not expected", v.name));
        if want.starts_with("<large: ") {
            let (n, m, s) = summary(&mut d, &heap, &v.value);
            let got = format!("<large: {n} arrays, {m} elements, sum {s}>");
            assert_eq!(&got, want, "{label}: {}", v.name);
        } else {
            let value = d.deep(&v.value).unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(&debug_show(&value), want, "{label}: {}", v.name);
        }
    }
    println!(
        "{label}: phase {phase}, {} ranges ({} partitions), {} MiB heap, {} objects, {chunks} \
         chunks ({kept} kept of {allocated}), {forwarded} forwarded",
        ranges.len(),
        want.len(),
        stats.heap_bytes >> 20,
        stats.objects.objects
    );
}

/// Every mode's snapshot directory under `root`, which must all be there.
fn modes(root: &Path) -> Vec<(&'static str, PathBuf)> {
    MODES
        .iter()
        .map(|m| {
            let dir = root.join(m);
            assert!(
                dir.join("metadata.json").is_file() && dir.join("expected.json").is_file(),
                "{}: no snapshot (metadata.json and expected.json)",
                dir.display()
            );
            (*m, dir)
        })
        .collect()
}

/// `big-small`, generated if need be; and the full `big` too when `MOMEM_BIG_FIXTURE` names it.
#[test]
fn big_heap_walks_decodes_and_reports_mid_gc_state() {
    let Some(root) = common::generated_fixture("big-small") else {
        return;
    };
    let mut roots = vec![("big-small", root)];
    if let Some(full) = std::env::var_os("MOMEM_BIG_FIXTURE") {
        roots.push(("big", PathBuf::from(full)));
    }
    for (name, root) in &roots {
        for (mode, dir) in modes(root) {
            check(&format!("{name}/{mode}"), &dir);
        }
    }
}
