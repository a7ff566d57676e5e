//! The EOP `stable_actor` root (spec 3.7, metadata offset 136): scalar 0 in normal operation;
//! between `pre_upgrade` and the completed post-upgrade it points to an Object with one field
//! per stable variable, holding the values themselves. A real image in that state (the
//! `compound` EOP fixture's canister, run on the runner, then `canister_pre_upgrade`) must
//! give the same variables through `stable_actor` as through the MutBoxes of the static pool.

use crate::common;

use std::collections::BTreeMap;
use std::path::Path;

use candid::{Decode, Encode};
use mo_mem::heap::render::debug_show;
use mo_mem::heap::value::{heap_signature, signature_decoder, stable_variables};
use mo_mem::heap::{Body, Heap, RootKind, StableVarSlot, Tag};
use mo_mem::image::ReaderLimits;
use mo_mem::module::{decompress_module, SlotLocation};
use mo_mem::runtime::scenario::{encode_args, Scenario};
use mo_mem::runtime::{Canister, RuntimeConfig};
use mo_mem::snapshot::metadata::SnapshotMetadata;
use mo_mem::snapshot::Snapshot;

fn open(dir: &Path) -> Heap {
    Heap::open(
        Snapshot::open(dir).expect("snapshot"),
        ReaderLimits::default(),
    )
    .expect("heap")
}

/// The stable variables' value words read through the static pool's MutBoxes (the path used
/// when `stable_actor` is 0), by name.
fn pool_words(heap: &Heap) -> BTreeMap<String, u64> {
    let module = heap.module().expect("module");
    let pool_addr = module.statics.static_variables.expect("EOP static pool");
    let pool = heap
        .object_of(heap.image().read_word(pool_addr).expect("pool word"))
        .expect("pool object");
    let Body::Array { elems, .. } = pool.body else {
        panic!("the static pool is a {}", pool.tag.name());
    };
    // `@get_actor_to_persist` slots are in hash order, as are the variables.
    let mut names: Vec<(u32, String)> = heap
        .stable_vars()
        .expect("stable vars")
        .into_iter()
        .map(|v| (v.hash, v.name))
        .collect();
    names.sort();
    assert_eq!(names.len(), module.stable_slots.len());
    let mut out = BTreeMap::new();
    for ((_, name), slot) in names.into_iter().zip(&module.stable_slots) {
        let SlotLocation::PoolSlot(k) = slot.location else {
            panic!("{name}: EOP slot is not a pool slot: {:?}", slot.location);
        };
        let mutbox = heap
            .pointer(elems.get(k).expect("pool slot"))
            .expect("MutBox pointer");
        let obj = heap
            .object(heap.resolve(mutbox).expect("resolve"))
            .expect("MutBox");
        let Body::MutBox { value } = obj.body else {
            panic!("{name}: pool slot {k} holds a {}", obj.tag.name());
        };
        out.insert(name, value);
    }
    out
}

fn decoded(heap: &Heap) -> BTreeMap<String, String> {
    let sig = heap_signature(heap).expect("signature");
    let vars = stable_variables(heap, &sig).expect("vars");
    let mut d = signature_decoder(heap, &sig);
    vars.iter()
        .map(|v| {
            let text = d
                .deep(&v.value)
                .map(|x| debug_show(&x))
                .unwrap_or_else(|e| format!("<decode error: {e}>"));
            (v.name.to_string(), text)
        })
        .collect()
}

#[test]
fn stable_actor_after_pre_upgrade_holds_the_variables() {
    let fixture = common::fixture("compound", "eop");
    let raw = std::fs::read(fixture.join("wasm_module.bin")).expect("module");
    let wasm = decompress_module(&raw).expect("module").into_owned();
    let root = common::repo_root();
    let scenario =
        Scenario::read(&root.join("motoko/fixtures/compound/scenario.json")).expect("scenario");

    // Normal operation: stable_actor is scalar 0 and the variables come from the pool.
    let normal = open(&fixture);
    let root_word = |h: &Heap| {
        h.roots()
            .expect("roots")
            .into_iter()
            .find(|r| r.kind == RootKind::StableActor)
            .expect("EOP has a stable_actor root")
            .word
    };
    assert_eq!(root_word(&normal), 0, "stable_actor is 0 when idle");
    assert!(normal
        .stable_vars()
        .expect("vars")
        .iter()
        .all(|v| matches!(v.slot, StableVarSlot::MutBox(_))));

    // Run the fixture's scenario, then canister_pre_upgrade, and snapshot that state.
    let mut c = Canister::new(&wasm, RuntimeConfig::default()).expect("load");
    c.init(&encode_args(&scenario.init_args).expect("args"))
        .expect("init");
    for call in &scenario.calls {
        c.update(&call.method, &encode_args(&call.args).expect("args"))
            .unwrap_or_else(|e| panic!("{}: {e}", call.method));
    }
    let reply = c
        .query("dump", &Encode!().expect("empty args"))
        .expect("dump");
    let dump: BTreeMap<String, String> = Decode!(&reply, Vec<(String, String)>)
        .expect("dump reply")
        .into_iter()
        .collect();
    c.pre_upgrade().expect("pre_upgrade");
    let tmp = tempfile::tempdir().expect("tempdir");
    let dir = tmp.path().join("pre-upgrade");
    std::fs::create_dir(&dir).unwrap();
    let meta = SnapshotMetadata::taken_from_canister(
        0,
        c.wasm_module().len() as u64,
        &c.mutable_globals(),
        c.main_memory().len() as u64,
        c.stable_memory().len() as u64,
        c.messages_executed(),
    );
    std::fs::write(dir.join("metadata.json"), meta.to_json_pretty().unwrap()).unwrap();
    std::fs::write(dir.join("wasm_module.bin"), c.wasm_module()).unwrap();
    std::fs::write(dir.join("wasm_memory.bin"), c.main_memory()).unwrap();
    std::fs::write(dir.join("stable_memory.bin"), c.stable_memory()).unwrap();

    let heap = open(&dir);
    // The stable_actor root found via the EOP metadata points to an Object ...
    let word = root_word(&heap);
    let addr = heap
        .pointer(word)
        .expect("stable_actor points to an object after pre_upgrade");
    let obj = heap.object(heap.resolve(addr).unwrap()).expect("object");
    assert_eq!(obj.tag, Tag::Object, "stable_actor is an Object");
    let Body::Object { hashes, fields, .. } = obj.body else {
        panic!("stable_actor body");
    };
    // ... with one field per stable variable, hash-sorted ...
    let vars = heap.stable_vars().expect("vars");
    assert_eq!(fields.len(), vars.len() as u64);
    let mut last = None;
    for (i, v) in vars.iter().enumerate() {
        assert_eq!(hashes.position(v.hash), Some(i), "{}", v.name);
        assert!(last < Some(v.hash), "fields sorted by hash");
        last = Some(v.hash);
        // ... which the decoder uses: values, not MutBoxes (each field is `?v`: see below).
        assert!(matches!(v.slot, StableVarSlot::Value(_)), "{}", v.name);
    }
    // Mostly the very words the pool's MutBoxes hold: the same objects, not copies (the
    // RTS may rebox a few, e.g. a `??null`; those are checked by value below).
    let pool = pool_words(&heap);
    assert_eq!(pool.len(), vars.len());

    let same = vars
        .iter()
        .filter(|v| matches!(v.slot, StableVarSlot::Value(w) if pool.get(&v.name) == Some(&w)))
        .count();
    assert!(
        same * 10 >= vars.len() * 9,
        "only {same} of {} stable_actor fields are the pool's values",
        vars.len()
    );
    // And the values are the canister's own debug_show, as for the idle fixture.
    let want = decoded(&normal);
    let got = decoded(&heap);
    let diff: Vec<String> = want
        .iter()
        .filter(|(k, v)| got.get(*k) != Some(v))
        .map(|(k, v)| format!("{k}: idle {v} / pre-upgrade {:?}", got.get(k)))
        .collect();
    assert!(diff.is_empty(), "{}", diff.join("\n"));
    for (name, text) in &dump {
        if text != "<cyclic>" {
            assert_eq!(got.get(name), Some(text), "{name}");
        }
    }
}
