//! Fixture generation is deterministic: re-running each committed fixture's scenario on its
//! committed module reproduces every committed file byte for byte; and (when the pinned compiler
//! is installed) recompiling a fixture reproduces its committed module.

use crate::common;

use std::path::Path;

use mo_mem::runtime::scenario::{run_scenario, write_snapshot_dir, Scenario};
use mo_mem::runtime::RuntimeConfig;
use mo_mem::snapshot::metadata::SnapshotMetadata;

fn gunzip(path: &Path) -> Vec<u8> {
    use std::io::Read;
    let mut out = Vec::new();
    flate2::read::GzDecoder::new(std::fs::File::open(path).unwrap())
        .read_to_end(&mut out)
        .unwrap();
    out
}

#[test]
fn committed_fixtures_exist_for_every_mode() {
    let all = common::committed_fixtures();
    assert!(!all.is_empty(), "no committed fixtures");
    for mode in [
        "eop",
        "copying",
        "compacting",
        "generational",
        "incremental",
    ] {
        assert!(
            all.iter().any(|(_, m)| m == mode),
            "no committed fixture in mode {mode}"
        );
    }
}

/// Reruns one committed fixture's scenario on its committed module and compares every file
/// with the committed one, decompressed (the content is what must be deterministic; gzip-ing
/// tens of megabytes again in a debug build would only measure the compressor).
fn rerun_matches_committed(name: &str, mode: &str, tmp: &Path) {
    let committed = common::committed_fixture(name, mode);
    let scenario_path = common::repo_root()
        .join("motoko/fixtures")
        .join(name)
        .join("scenario.json");
    let scenario = Scenario::read(&scenario_path).unwrap();
    let wasm = std::fs::read(committed.join("wasm_module.bin.gz")).unwrap();
    let expected: serde_json::Value =
        serde_json::from_slice(&std::fs::read(committed.join("expected.json")).unwrap()).unwrap();
    let compiler = expected["compiler"].as_str();
    let files = run_scenario(
        &wasm,
        &scenario,
        name,
        mode,
        compiler,
        RuntimeConfig::default(),
    )
    .unwrap_or_else(|e| panic!("{name}/{mode}: {e}"));
    let out = tmp.join(name).join(mode);
    write_snapshot_dir(&out, &files, false).unwrap();
    let mut committed_names: Vec<String> = std::fs::read_dir(&committed)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    committed_names.sort();
    let mut new_names: Vec<String> = std::fs::read_dir(&out)
        .unwrap()
        .map(|e| {
            let n = e.unwrap().file_name().to_string_lossy().into_owned();
            if n.ends_with(".bin") {
                format!("{n}.gz")
            } else {
                n
            }
        })
        .collect();
    new_names.sort();
    assert_eq!(committed_names, new_names, "{name}/{mode}: file set");
    for f in &committed_names {
        let (a, b) = match f.strip_suffix(".gz") {
            Some(raw) => (
                gunzip(&committed.join(f)),
                std::fs::read(out.join(raw)).unwrap(),
            ),
            None => (
                std::fs::read(committed.join(f)).unwrap(),
                std::fs::read(out.join(f)).unwrap(),
            ),
        };
        assert!(a == b, "{name}/{mode}: {f} differs from a fresh run");
    }
    // The metadata is self-consistent with the raw files.
    let meta = SnapshotMetadata::read(&committed.join("metadata.json")).unwrap();
    assert_eq!(
        meta.wasm_memory_size(),
        gunzip(&committed.join("wasm_memory.bin.gz")).len() as u64
    );
    assert_eq!(
        meta.wasm_module_size(),
        gunzip(&committed.join("wasm_module.bin.gz")).len() as u64
    );
    assert_eq!(
        meta.stable_memory_size(),
        gunzip(&committed.join("stable_memory.bin.gz")).len() as u64
    );
    assert_eq!(meta.taken_at_timestamp(), 1_700_000_000_000_000_000);
    assert!(!meta.globals().is_empty());
    std::fs::remove_dir_all(&out).unwrap();
}

#[test]
fn rerunning_scenarios_reproduces_committed_fixtures() {
    let tmp = tempfile::tempdir().unwrap();
    let all = common::committed_fixtures();
    let next = std::sync::atomic::AtomicUsize::new(0);
    let workers = std::thread::available_parallelism().map_or(2, |n| n.get().clamp(2, 4));
    std::thread::scope(|s| {
        for _ in 0..workers {
            s.spawn(|| loop {
                let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                let Some((name, mode)) = all.get(i) else {
                    break;
                };
                rerun_matches_committed(name, mode, tmp.path());
            });
        }
    });
}

#[test]
fn materialized_fixtures_are_plain_snapshot_dirs() {
    for (name, mode, dir) in common::all_fixtures() {
        for f in [
            "metadata.json",
            "expected.json",
            "wasm_module.bin",
            "wasm_memory.bin",
            "stable_memory.bin",
        ] {
            assert!(dir.join(f).is_file(), "{name}/{mode}: {f} missing");
        }
        let meta = SnapshotMetadata::read(&dir.join("metadata.json")).unwrap();
        let mem = std::fs::metadata(dir.join("wasm_memory.bin"))
            .unwrap()
            .len();
        assert_eq!(mem, meta.wasm_memory_size(), "{name}/{mode}");
        assert_eq!(mem % 65536, 0);
    }
}

/// Recompiles the cheapest committed fixture with the pinned compiler, if it is installed.
#[test]
fn recompiling_a_fixture_reproduces_its_module() {
    let root = common::repo_root();
    let script = root.join("scripts/compile-fixture.js");
    if !root.join("scripts/node_modules/motoko").is_dir() || !script.is_file() {
        common::skip::skipped(
            "scripts/node_modules/motoko or scripts/compile-fixture.js missing (npm ci in scripts/)",
        );
        return;
    }
    let Some((name, mode)) = common::committed_fixtures()
        .into_iter()
        .find(|(_, m)| m == "copying")
    else {
        panic!("no copying fixture committed");
    };
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("m.wasm");
    let status = std::process::Command::new("node")
        .arg(&script)
        .args([&name, &mode])
        .arg(&out)
        .current_dir(&root)
        .status();
    match status {
        Ok(s) if s.success() => {}
        Ok(s) => panic!("compile-fixture.js {name} {mode} failed: {s}"),
        Err(e) => {
            common::skip::skipped(&format!("cannot run node: {e}"));
            return;
        }
    }
    let fresh = std::fs::read(&out).unwrap();
    let committed = gunzip(&common::committed_fixture(&name, &mode).join("wasm_module.bin.gz"));
    assert!(
        fresh == committed,
        "{name}/{mode}: recompiled module differs"
    );
}
