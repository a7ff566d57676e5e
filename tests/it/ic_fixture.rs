//! End to end on real Motoko canisters: each committed fixture's canister runs on mo-mem's
//! canister runner behind the IC emulator; `create` takes a snapshot through the management
//! canister, `pull` downloads it through an unmodified ic-agent into the store, and the pulled
//! snapshot decodes to the fixture's expected values (the canister's own `debug_show`).

use crate::common;
use crate::emulator;
use crate::heap_support;

use candid::Principal;
use emulator::{Data, Emulator, Live};
use ic_agent::identity::BasicIdentity;
use ic_agent::Identity;
use mo_mem::heap::render::debug_show;
use mo_mem::heap::value::{heap_signature, signature_decoder, stable_variables};
use mo_mem::heap::Heap;
use mo_mem::ic::{self, ConnectOptions, Network, PullOptions, ResolvedIdentity, TakeOptions};
use mo_mem::image::ReaderLimits;
use mo_mem::runtime::scenario::{encode_args, Scenario};
use mo_mem::runtime::{Canister as RtCanister, RuntimeConfig};
use mo_mem::store::{Manifest, Store, StoreKey, Trust};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

fn expected_vars(dir: &Path) -> BTreeMap<String, String> {
    let json: serde_json::Value =
        serde_json::from_slice(&std::fs::read(dir.join("expected.json")).unwrap()).unwrap();
    json["vars"]
        .as_object()
        .unwrap()
        .iter()
        .map(|(k, v)| (k.clone(), v.as_str().unwrap().to_string()))
        .collect()
}

fn decoded_vars(dir: &Path) -> BTreeMap<String, String> {
    let snapshot = mo_mem::snapshot::Snapshot::open(dir).unwrap();
    let heap = Heap::open(snapshot, ReaderLimits::default()).unwrap();
    let sig = heap_signature(&heap).unwrap();
    let vars = stable_variables(&heap, &sig).unwrap();
    let mut d = signature_decoder(&heap, &sig);
    vars.iter()
        .map(|v| {
            let text = match d.deep(&v.value) {
                Ok(value) => debug_show(&value),
                Err(e) => format!("<decode error: {e}>"),
            };
            (v.name.to_string(), text)
        })
        .collect()
}

/// Runs the fixture's scenario on a fresh canister (init, then every update call).
fn run_live(wasm: &[u8], scenario: &Scenario) -> RtCanister {
    let mut c = RtCanister::new(wasm, RuntimeConfig::default()).unwrap();
    c.init(&encode_args(&scenario.init_args).unwrap()).unwrap();
    for call in &scenario.calls {
        c.update(&call.method, &encode_args(&call.args).unwrap())
            .unwrap();
    }
    c
}

/// Takes and pulls one fixture canister's snapshot through a fresh emulator into a fresh store
/// under `tmp`, and returns the pulled snapshot's directory. Everything the canister held is
/// dropped on return, so the fixtures' memories are never all alive at once.
async fn pull_fixture(label: &str, fixture_dir: &Path, tmp: &Path) -> PathBuf {
    let name = label.split('/').next().unwrap();
    let scenario_path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("motoko/fixtures")
        .join(name)
        .join("scenario.json");
    let scenario = Scenario::read(&scenario_path)
        .unwrap_or_else(|e| panic!("{label}: no scenario at {}: {e}", scenario_path.display()));
    let wasm = std::fs::read(fixture_dir.join("wasm_module.bin"))
        .unwrap_or_else(|e| panic!("{label}: wasm_module.bin: {e}"));
    let key_id = BasicIdentity::from_raw_key(&[1; 32]);
    let controller = key_id.sender().unwrap();
    let emu = Emulator::new();
    let mut o = ConnectOptions::new(
        Network::Url("http://emulator.invalid".into()),
        ResolvedIdentity {
            principal: controller.to_text(),
            identity: Arc::new(key_id),
            description: "controller".into(),
        },
    );
    o.transport = Some(emu.transport());
    let conn = ic::connect(o).await.unwrap();
    let store = Store::new(tmp.join("store"));
    let key = StoreKey::from_bytes([5; 32]);
    let live = run_live(&wasm, &scenario);
    let mut c =
        Emulator::simple_canister(controller, wasm, Data::bytes(vec![]), Data::bytes(vec![]));
    c.live = Some(Live(Arc::new(Mutex::new(live))));
    let cid: Principal = emu.install(c);
    let client = conn.canister(cid);
    let taken = ic::ops::take(&client, TakeOptions::default())
        .await
        .unwrap_or_else(|e| panic!("{label}: take: {e}"));
    let out = ic::pull(&client, "emulator", &store, &key, &PullOptions::default())
        .await
        .unwrap_or_else(|e| panic!("{label}: pull: {e}"));
    assert_eq!(out.snapshot.id, taken.snapshot.id, "{label}");
    assert!(matches!(
        mo_mem::store::check_trust(&out.dir, &store, &key, false).unwrap(),
        Trust::Verified(_)
    ));
    Manifest::verify(&out.dir, &key).unwrap();
    out.dir
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pulled_real_canisters_decode_to_the_fixture_values() {
    // The committed fixtures, every mode: the older compilers' fixtures are re-run and
    // decoded to their values by `compiler_fixtures` (a pull moves bytes alike whatever
    // compiler wrote them), and on-demand ones are left out (a generated 4 GiB heap would be
    // pulled whole).
    let fixtures: Vec<_> = common::all_fixtures()
        .into_iter()
        .map(|(name, mode, dir)| (format!("{name}/{mode}"), dir))
        .filter(|(_, dir)| dir.join("expected.json").exists())
        .collect();
    assert!(!fixtures.is_empty(), "no committed fixtures");
    let mut checked = 0;
    for (label, fixture_dir) in &fixtures {
        // One store per fixture, removed after its check: the pulled images of every fixture
        // together are over 1.5 GB.
        let tmp = tempfile::tempdir().unwrap();
        let pulled = pull_fixture(label, fixture_dir, tmp.path()).await;
        let want = expected_vars(fixture_dir);
        let got = decoded_vars(&pulled);
        assert_eq!(
            got.keys().collect::<Vec<_>>(),
            want.keys().collect::<Vec<_>>(),
            "{label}: the pulled snapshot's variable names"
        );
        for (name, want) in &want {
            let got = &got[name];
            assert!(
                heap_support::common::debug_show_matches(want, got),
                "{label}: {name} of the pulled snapshot: want {want:?}, decoded {got:?}"
            );
        }
        checked += 1;
    }
    assert!(checked > 0);
    eprintln!("{checked} fixture canisters pulled and decoded");
}

#[test]
fn cli_reads_verified_store_snapshots_and_refuses_tampered_ones() {
    let (label, fixture) = heap_support::snapshots()
        .into_iter()
        .find(|(l, d)| l.starts_with("scalars/") && d.join("expected.json").exists())
        .expect("scalars fixture");
    let tmp = tempfile::tempdir().unwrap();
    let run = |args: &[&str]| {
        std::process::Command::new(env!("CARGO_BIN_EXE_mo-mem"))
            .args(args)
            .env("MO_MEM_STORE", tmp.path().join("store"))
            .env("MO_MEM_CONFIG_DIR", tmp.path().join("config"))
            .output()
            .unwrap()
    };
    let err = |o: &std::process::Output| String::from_utf8_lossy(&o.stderr).into_owned();
    // A fixture named by path, without a manifest: read, with a note.
    let out = run(&["info", fixture.to_str().unwrap()]);
    assert!(out.status.success(), "{label}: {}", err(&out));
    assert!(err(&out).contains("not authenticated"), "{}", err(&out));
    // Imported into the store: verified, no note.
    let out = run(&[
        "import",
        fixture.to_str().unwrap(),
        "--canister",
        "aaaaa-aa",
        "--snapshot",
        "0102030405060708090a",
        "--trust",
    ]);
    assert!(out.status.success(), "{}", err(&out));
    let snap = tmp.path().join("store/aaaaa-aa/0102030405060708090a");
    let out = run(&["info", snap.to_str().unwrap()]);
    assert!(out.status.success(), "{}", err(&out));
    assert!(!err(&out).contains("not authenticated"), "{}", err(&out));
    // Tampered: refused, naming the file; --no-verify reads it with a warning.
    let mem = snap.join("wasm_memory.bin");
    let mut bytes = std::fs::read(&mem).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 1;
    std::fs::write(&mem, &bytes).unwrap();
    let out = run(&["info", snap.to_str().unwrap()]);
    assert!(!out.status.success());
    assert!(
        err(&out).contains("wasm_memory.bin") && err(&out).contains("--no-verify"),
        "{}",
        err(&out)
    );
    let out = run(&["info", snap.to_str().unwrap(), "--no-verify"]);
    assert!(out.status.success(), "{}", err(&out));
    assert!(err(&out).contains("does not verify"), "{}", err(&out));
    // `eval` and `repl` apply the same rule, with the same flag
    let (fixture, snap) = (fixture.to_str().unwrap(), snap.to_str().unwrap());
    for command in [("eval", &["1 + 1"][..]), ("repl", &[])] {
        let with = |path: &str, more: &[&str]| run(&[&[command.0, path], more, command.1].concat());
        let out = with(fixture, &[]);
        assert!(out.status.success(), "{command:?}: {}", err(&out));
        assert!(err(&out).contains("not authenticated"), "{}", err(&out));
        let out = with(snap, &[]);
        assert!(
            !out.status.success(),
            "{command:?} read a tampered snapshot"
        );
        assert!(
            err(&out).contains("wasm_memory.bin") && err(&out).contains("--no-verify"),
            "{command:?}: {}",
            err(&out)
        );
        let out = with(snap, &["--no-verify"]);
        assert!(out.status.success(), "{command:?}: {}", err(&out));
        assert!(err(&out).contains("does not verify"), "{}", err(&out));
    }
    let out = run(&["eval", snap, "vars.bool_true", "--no-verify"]);
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "true\n",
        "{}",
        err(&out)
    );
}
