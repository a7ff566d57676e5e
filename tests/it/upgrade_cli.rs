//! `mo-mem upgrade`: upgrade dry runs of a small canister (tests/data/upgrade/counter.mo,
//! snapshotted after its scenario) to new versions built by the pinned compiler
//! (scripts/build-upgrade-test-wasm), in EOP and classical (copying) persistence. Each verdict,
//! phase and message is checked, and the upgraded variables against what the new canister's
//! own `dump` answers after an upgrade run on the runner (not against mo-mem's decoder).

use crate::common;
use candid::{Decode, Encode};
use mo_mem::runtime::scenario::{run_scenario, write_snapshot_dir, Scenario};
use mo_mem::runtime::{Canister, RuntimeConfig};
use mo_mem::snapshot::Snapshot;
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

/// `tests/data/upgrade/NAME`.
fn data(name: &str) -> PathBuf {
    common::repo_root().join("tests/data/upgrade").join(name)
}

/// The module of `version` (`counter`, `counter-add`, ...) in `mode`.
fn module(version: &str, mode: &str) -> PathBuf {
    data(&format!("{version}-{mode}.wasm.gz"))
}

/// A directory living as long as the test process, holding the old snapshots.
fn scratch() -> &'static Path {
    static DIR: OnceLock<tempfile::TempDir> = OnceLock::new();
    DIR.get_or_init(|| tempfile::tempdir().expect("a temp dir"))
        .path()
}

/// The old version's snapshot in `mode`, after its scenario (made once per process).
fn old_snapshot(mode: &str) -> PathBuf {
    old_snapshot_of("counter", mode)
}

/// The snapshot of the old version `name` (`counter`: counter.mo after scenario.json;
/// `profile`: profile.mo after profile-scenario.json) in `mode` (made once per process).
fn old_snapshot_of(name: &str, mode: &str) -> PathBuf {
    static MADE: OnceLock<std::sync::Mutex<()>> = OnceLock::new();
    let _guard = MADE.get_or_init(Default::default).lock().unwrap();
    let dir = scratch().join(format!("{name}-{mode}"));
    if !dir.exists() {
        let wasm = std::fs::read(module(name, mode)).unwrap();
        let scenario = match name {
            "counter" => "scenario.json".to_string(),
            _ => format!("{name}-scenario.json"),
        };
        let scenario = Scenario::read(&data(&scenario)).unwrap();
        let files = run_scenario(
            &wasm,
            &scenario,
            "upgrade",
            mode,
            None,
            RuntimeConfig::default(),
        )
        .unwrap();
        write_snapshot_dir(&dir, &files, false).unwrap();
    }
    dir
}

/// `mo-mem ARGS`: exit code, stdout, stderr.
fn mo_mem(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_mo-mem"))
        .args(args)
        .output()
        .expect("run mo-mem");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// `mo-mem upgrade OLD NEW --json EXTRA...`: exit code and the report.
fn upgrade(mode: &str, version: &str, extra: &[&str]) -> (i32, Value) {
    let old = old_snapshot(mode);
    let new = module(version, mode);
    let mut args = vec![
        "upgrade",
        old.to_str().unwrap(),
        new.to_str().unwrap(),
        "--json",
    ];
    args.extend_from_slice(extra);
    let (code, out, err) = mo_mem(&args);
    let report = serde_json::from_str(&out)
        .unwrap_or_else(|e| panic!("{mode} {version}: not JSON ({e}): {out}\n{err}"));
    common::schemas::assert_follows("upgrade", &report, &format!("upgrade {mode} {version}"));
    (code, report)
}

/// What the new canister's own `dump` answers after the old snapshot is upgraded to
/// `version` on the runner (with `Canister::upgrade`, not through the command).
fn dump_after_runner_upgrade(mode: &str, version: &str) -> BTreeMap<String, String> {
    dump_after_runner_upgrade_to(mode, &module(version, mode))
}

/// What the new canister's own `dump` answers after the old snapshot in `mode` is upgraded to
/// the module `new` on the runner.
fn dump_after_runner_upgrade_to(mode: &str, new: &Path) -> BTreeMap<String, String> {
    let snapshot = Snapshot::open(&old_snapshot(mode)).unwrap();
    let stable = snapshot
        .stable_memory()
        .map(|i| i.as_slice())
        .unwrap_or(&[]);
    let mut canister = Canister::from_snapshot_state(
        &std::fs::read(module("counter", mode)).unwrap(),
        snapshot.memory().as_slice(),
        stable,
        snapshot.globals().unwrap(),
        RuntimeConfig::default(),
    )
    .unwrap();
    let new = std::fs::read(new).unwrap();
    canister.upgrade(&new, &Encode!().unwrap()).unwrap();
    let reply = canister.query("dump", &Encode!().unwrap()).unwrap();
    Decode!(&reply, Vec<(String, String)>)
        .unwrap()
        .into_iter()
        .collect()
}

/// The report's `name -> after` texts.
fn after_values(report: &Value) -> BTreeMap<String, String> {
    report["vars"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|v| {
            Some((
                v["name"].as_str()?.to_string(),
                v["after"].as_str()?.to_string(),
            ))
        })
        .collect()
}

/// The report's `name -> change`.
fn changes(report: &Value) -> BTreeMap<String, String> {
    report["vars"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| {
            (
                v["name"].as_str().unwrap().to_string(),
                v["change"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

fn map(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
    pairs
        .iter()
        .map(|(a, b)| (a.to_string(), b.to_string()))
        .collect()
}

#[test]
fn a_compatible_upgrade_keeps_every_value_and_adds_the_new_variable() {
    for mode in ["eop", "copying"] {
        let (code, report) = upgrade(mode, "counter-add", &[]);
        assert_eq!(code, 0, "{mode}: {report:#}");
        assert_eq!(report["upgraded"], true, "{mode}");
        assert_eq!(report["phase"], Value::Null, "{mode}");
        assert_eq!(report["reason"], Value::Null, "{mode}");
        assert_eq!(report["warnings"], serde_json::json!([]), "{mode}");
        assert_eq!(
            changes(&report),
            map(&[
                ("added", "added"),
                ("counter", "same"),
                ("names", "same"),
                ("note", "same")
            ]),
            "{mode}"
        );
        let own = dump_after_runner_upgrade(mode, "counter-add");
        assert_eq!(
            after_values(&report),
            own,
            "{mode}: the canister's own dump"
        );
        assert_eq!(own["counter"], "5_000", "{mode}");
        assert_eq!(own["added"], "7", "{mode}");
        let i = &report["instructions"];
        let sum = ["pre_upgrade", "start", "post_upgrade"]
            .iter()
            .map(|k| i[k].as_u64().unwrap())
            .sum::<u64>();
        assert_eq!(i["total"].as_u64(), Some(sum), "{mode}");
        assert!(i["post_upgrade"].as_u64().unwrap() > 0, "{mode}");
        assert_eq!(report["limit"].as_u64(), Some(300_000_000_000), "{mode}");
        let persistence = if mode == "eop" {
            "enhanced"
        } else {
            "classical"
        };
        assert_eq!(report["persistence"]["after"], persistence, "{mode}");
        let before = &report["memory"]["before"];
        let snapshot = Snapshot::open(&old_snapshot(mode)).unwrap();
        assert_eq!(
            before["main"].as_u64(),
            Some(snapshot.memory().as_slice().len() as u64)
        );
    }
}

#[test]
fn an_incompatible_retype_fails_in_eop_and_loses_the_value_in_classical() {
    let (code, report) = upgrade("eop", "counter-retype", &[]);
    assert_eq!(code, 1, "{report:#}");
    assert_eq!(report["upgraded"], false);
    assert_eq!(report["phase"], "post_upgrade");
    let reason = report["reason"].as_str().unwrap();
    assert!(
        reason.contains("RTS error: Memory-incompatible program upgrade"),
        "{reason}"
    );
    let counter = &report["vars"][0];
    assert_eq!(counter["name"], "counter");
    assert_eq!(
        counter["change"], "changed",
        "the static comparison names it"
    );
    assert_eq!(
        (
            counter["type_before"].as_str(),
            counter["type_after"].as_str()
        ),
        (Some("Nat"), Some("Text"))
    );
    assert_eq!(counter["after"], Value::Null);

    let (code, report) = upgrade("copying", "counter-retype", &[]);
    assert_eq!(code, 3, "{report:#}");
    assert_eq!(report["upgraded"], true);
    let own = dump_after_runner_upgrade("copying", "counter-retype");
    assert_eq!(after_values(&report), own, "the canister's own dump");
    assert_eq!(own["counter"], "\"0\"");
    let counter = report["vars"]
        .as_array()
        .unwrap()
        .iter()
        .find(|v| v["name"] == "counter")
        .unwrap();
    assert_eq!(counter["change"], "changed");
    assert_eq!(counter["before"], "5_000");
    assert_eq!(
        (
            counter["type_before"].as_str(),
            counter["type_after"].as_str()
        ),
        (Some("Nat"), Some("Text"))
    );
    let warnings = report["warnings"].as_array().unwrap();
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    let w = warnings[0].as_str().unwrap();
    assert!(
        w.contains("`counter`") && w.contains("5_000") && w.contains("re-initialised"),
        "{w}"
    );
}

#[test]
fn a_removed_variable_fails_in_eop_and_is_lost_in_classical() {
    let (code, report) = upgrade("eop", "counter-drop", &[]);
    assert_eq!(code, 1, "{report:#}");
    assert_eq!(report["phase"], "post_upgrade");
    assert!(report["reason"]
        .as_str()
        .unwrap()
        .contains("Memory-incompatible program upgrade"));
    assert_eq!(changes(&report)["note"], "removed", "the static comparison");

    let (code, report) = upgrade("copying", "counter-drop", &[]);
    assert_eq!(code, 3, "{report:#}");
    assert_eq!(
        changes(&report),
        map(&[("counter", "same"), ("names", "same"), ("note", "removed")])
    );
    let own = dump_after_runner_upgrade("copying", "counter-drop");
    assert_eq!(after_values(&report), own, "the canister's own dump");
    let warnings = report["warnings"].as_array().unwrap();
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    let w = warnings[0].as_str().unwrap();
    assert!(
        w.contains("`note`") && w.contains("\"first version\""),
        "{w}"
    );
}

/// `(with migration = ...)` retyping `counter : Nat` to `Text`: the migration's value, and no
/// data-loss warning (the new program consumed the old value on purpose).
#[test]
fn an_explicit_migration_is_not_data_loss() {
    for mode in ["eop", "copying"] {
        let (code, report) = upgrade(mode, "counter-migrate", &[]);
        assert_eq!(code, 0, "{mode}: {report:#}");
        assert_eq!(report["warnings"], serde_json::json!([]), "{mode}");
        let own = dump_after_runner_upgrade(mode, "counter-migrate");
        assert_eq!(own["counter"], "\"was 5000\"", "{mode}");
        assert_eq!(
            after_values(&report),
            own,
            "{mode}: the canister's own dump"
        );
        let counter = &report["vars"][0];
        assert_eq!(counter["name"], "counter");
        assert_eq!(counter["change"], "changed", "{mode}");
        assert_eq!(counter["migrated"], true, "{mode}");
        assert_eq!(report["vars"][1]["migrated"], false, "{mode}");
    }
}

#[test]
fn a_trapping_postupgrade_fails_with_its_message() {
    for mode in ["eop", "copying"] {
        let (code, report) = upgrade(mode, "counter-trap", &[]);
        assert_eq!(code, 1, "{mode}: {report:#}");
        assert_eq!(report["phase"], "post_upgrade", "{mode}");
        let reason = report["reason"].as_str().unwrap();
        assert!(
            reason.contains("postupgrade refuses: counter is 5_000"),
            "{mode}: {reason}"
        );
        // the failed upgrade's static comparison: the declared types, the old values
        assert_eq!(
            changes(&report),
            map(&[("counter", "same"), ("names", "same"), ("note", "same")]),
            "{mode}"
        );
        assert_eq!(report["vars"][0]["before"], "5_000", "{mode}");
        assert_eq!(report["vars"][0]["after"], Value::Null, "{mode}");
    }
}

#[test]
fn a_classical_canister_upgraded_to_a_default_eop_build_is_refused_with_the_runtime_message() {
    let (code, report) = upgrade("copying", "counter-add", &[]);
    assert_eq!(code, 0);
    let (code, report_eop) = {
        let old = old_snapshot("copying");
        let new = module("counter-add", "eop");
        let (code, out, err) = mo_mem(&[
            "upgrade",
            old.to_str().unwrap(),
            new.to_str().unwrap(),
            "--json",
        ]);
        (
            code,
            serde_json::from_str::<Value>(&out).unwrap_or_else(|e| panic!("{e}: {err}")),
        )
    };
    assert_eq!(code, 1, "{report_eop:#}");
    assert_eq!(report_eop["phase"], "post_upgrade");
    assert_eq!(report_eop["persistence"]["before"], "classical");
    assert_eq!(report_eop["persistence"]["after"], "enhanced");
    let reason = report_eop["reason"].as_str().unwrap();
    assert!(
        reason.contains("Detected implicit upgrade")
            && reason.contains("--enhanced-orthogonal-persistence"),
        "{reason}"
    );
    // the classical pre_upgrade ran the same serialization either way
    assert_eq!(
        report_eop["instructions"]["pre_upgrade"],
        report["instructions"]["pre_upgrade"]
    );
}

/// The migration every classical canister faces (Motoko 2.0 removed classical persistence):
/// a classical snapshot of each GC upgraded to an EOP build of the same program. The pinned
/// JS compiler (moc >= 0.15) cannot build the explicit-flag module the migration needs
/// (docs/upgrade.md), so the new module is moc 0.14's EOP build (`counter-eop014`, npm
/// `motoko-0-14`), the last release that migrates without the flag: a real compiler's module
/// running the real Candid destabilization into the 64-bit heap. Exit 0, every variable
/// carried over as the new canister's own `dump` says, the serialization's count reported.
#[test]
fn a_classical_canister_migrates_to_an_eop_build_of_moc_0_14() {
    let new = data("counter-eop014.wasm.gz");
    let want = map(&[
        ("counter", "5_000"),
        ("names", "[\"grace\", \"x\"]"),
        ("note", "\"first version\""),
    ]);
    for mode in ["copying", "compacting", "generational", "incremental"] {
        let old = old_snapshot(mode);
        let (code, out, err) = mo_mem(&[
            "upgrade",
            old.to_str().unwrap(),
            new.to_str().unwrap(),
            "--json",
        ]);
        let report: Value =
            serde_json::from_str(&out).unwrap_or_else(|e| panic!("{mode}: {e}: {out}{err}"));
        assert_eq!(code, 0, "{mode}: {report:#}");
        assert_eq!(report["persistence"]["before"], "classical", "{mode}");
        assert_eq!(report["persistence"]["after"], "enhanced", "{mode}");
        assert_eq!(report["warnings"], serde_json::json!([]), "{mode}");
        assert_eq!(
            changes(&report),
            map(&[("counter", "same"), ("names", "same"), ("note", "same")]),
            "{mode}"
        );
        let own = dump_after_runner_upgrade_to(mode, &new);
        assert_eq!(own, want, "{mode}: the new canister's own dump");
        assert_eq!(after_values(&report), own, "{mode}");
        // the classical serialization into stable memory, and the EOP deserialization of it
        let i = &report["instructions"];
        assert!(i["pre_upgrade"].as_u64() > Some(10_000), "{mode}: {i}");
        assert!(i["post_upgrade"].as_u64() > Some(10_000), "{mode}: {i}");
        assert!(
            report["memory"]["after"]["stable"].as_u64() > Some(0),
            "{mode}"
        );
    }
}

/// The same classical snapshots upgraded to the pinned compiler's default EOP build: refused
/// in `post_upgrade` by the new runtime's guard, whatever the GC (exit 1, its message).
#[test]
fn every_classical_gc_is_refused_by_a_default_eop_build() {
    for mode in ["compacting", "generational", "incremental"] {
        let old = old_snapshot(mode);
        let new = module("counter-add", "eop");
        let (code, out, err) = mo_mem(&[
            "upgrade",
            old.to_str().unwrap(),
            new.to_str().unwrap(),
            "--json",
        ]);
        let report: Value =
            serde_json::from_str(&out).unwrap_or_else(|e| panic!("{mode}: {e}: {out}{err}"));
        assert_eq!(code, 1, "{mode}: {report:#}");
        assert_eq!(report["phase"], "post_upgrade", "{mode}");
        let reason = report["reason"].as_str().unwrap();
        assert!(
            reason.contains("Detected implicit upgrade from classical orthogonal persistence"),
            "{mode}: {reason}"
        );
    }
}

#[test]
fn the_instruction_limit_stops_a_classical_preupgrade() {
    let (code, report) = upgrade("copying", "counter-add", &[]);
    assert_eq!(code, 0);
    let needed = report["instructions"]["pre_upgrade"].as_u64().unwrap();
    assert!(needed > 10_000, "the serialization takes {needed}");
    let (code, report) = upgrade("copying", "counter-add", &["--instructions", "10000"]);
    assert_eq!(code, 1, "{report:#}");
    assert_eq!(report["phase"], "pre_upgrade");
    assert_eq!(report["limit"], 10_000);
    assert_eq!(report["instructions"]["pre_upgrade"], 10_000);
    let reason = report["reason"].as_str().unwrap();
    assert!(
        reason.contains("instruction limit of 10000") && reason.contains("--instructions"),
        "{reason}"
    );
    // exactly enough for every phase: it succeeds
    let total = {
        let (_, r) = upgrade("copying", "counter-add", &[]);
        r["instructions"]["total"].as_u64().unwrap()
    };
    let (code, _) = upgrade(
        "copying",
        "counter-add",
        &["--instructions", &total.to_string()],
    );
    assert_eq!(code, 0, "the limit {total} is what the upgrade used");
    let (code, report) = upgrade(
        "copying",
        "counter-add",
        &["--instructions", &(total - 1).to_string()],
    );
    assert_eq!(code, 1, "one less than it used: {report:#}");
}

#[test]
fn out_writes_the_upgraded_state_as_a_snapshot_other_commands_read() {
    for mode in ["eop", "copying"] {
        let out = scratch().join(format!("upgraded-add-{mode}"));
        let (code, report) = upgrade(mode, "counter-add", &["--out", out.to_str().unwrap()]);
        assert_eq!(code, 0, "{mode}: {report:#}");
        // the upgraded snapshot's own canister answers its dump as the runner's upgrade does
        let reply = common::mo_mem_ok(&["call", out.to_str().unwrap(), "dump", "--json"]);
        let reply: Value = serde_json::from_slice(&reply).unwrap();
        let got: BTreeMap<String, String> = reply[0]
            .as_array()
            .unwrap()
            .iter()
            .map(|pair| {
                (
                    pair["0"].as_str().unwrap().to_string(),
                    pair["1"].as_str().unwrap().to_string(),
                )
            })
            .collect();
        assert_eq!(
            got,
            dump_after_runner_upgrade(mode, "counter-add"),
            "{mode}"
        );
        let vars = String::from_utf8(common::mo_mem_ok(&["vars", out.to_str().unwrap()])).unwrap();
        let want: String = after_values(&report)
            .iter()
            .map(|(k, v)| format!("{k} = {v}\n"))
            .collect();
        assert_eq!(vars, want, "{mode}");
        let meta = Snapshot::open(&out).unwrap();
        let old = Snapshot::open(&old_snapshot(mode)).unwrap();
        assert_eq!(
            meta.metadata().unwrap().canister_version(),
            old.metadata().unwrap().canister_version() + 1,
            "{mode}: the upgrade advances the canister version"
        );
    }
}

#[test]
fn usage_and_io_errors_exit_2_and_a_garbage_module_is_refused() {
    let old = old_snapshot("eop");
    let old = old.to_str().unwrap();
    let (code, _, err) = mo_mem(&["upgrade", old, "/nonexistent/new.wasm"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("/nonexistent/new.wasm"), "{err}");
    let garbage = scratch().join("garbage.wasm");
    std::fs::write(&garbage, b"\0asm\x01\0\0\0\x05\xff\xff\xff\xff\x0f").unwrap();
    let (code, _, err) = mo_mem(&["upgrade", old, garbage.to_str().unwrap()]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("mo-mem: ") && !err.contains("panicked"),
        "{err}"
    );
    let (code, _, err) = mo_mem(&["upgrade", old]);
    assert_eq!(code, 2, "{err}");
    // --out never replaces a directory (not even the snapshot itself)
    let new = module("counter-add", "eop");
    let (code, _, err) = mo_mem(&["upgrade", old, new.to_str().unwrap(), "--out", old]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("exists"), "{err}");
    assert!(
        Snapshot::open(Path::new(old)).is_ok(),
        "the snapshot is intact"
    );
    let (code, _, err) = mo_mem(&["upgrade", old, new.to_str().unwrap(), "--arg", "(42"]);
    assert_eq!(code, 2, "an argument that does not parse: {err}");
    assert!(err.contains("init arguments"), "{err}");
}

/// Runs the ```console session of docs/upgrade.md: `counter/MODE` and `profile/MODE` are the
/// old snapshots, a
/// `*.wasm.gz` a module of tests/data/upgrade, `upgraded` a scratch directory.
#[test]
fn the_docs_session_is_what_the_command_prints() {
    let doc = std::fs::read_to_string(common::repo_root().join("docs/upgrade.md")).unwrap();
    let out = tempfile::tempdir().unwrap();
    let mut ran = 0;
    for (command, expected) in common::doc_examples::console_examples(&doc) {
        let args: Vec<String> = command
            .strip_prefix("mo-mem ")
            .expect("a mo-mem command")
            .split_whitespace()
            .map(|arg| match arg.split_once('/') {
                Some((name @ ("counter" | "profile"), mode)) => {
                    old_snapshot_of(name, mode).to_string_lossy().into_owned()
                }
                _ if arg.ends_with(".wasm.gz") => data(arg).to_string_lossy().into_owned(),
                None if arg == "upgraded" => {
                    out.path().join("upgraded").to_string_lossy().into_owned()
                }
                _ => arg.to_string(),
            })
            .collect();
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let (_, stdout, stderr) = mo_mem(&args);
        let stdout = stdout.replace(&format!("{}/", out.path().display()), "");
        assert_eq!(stdout, expected, "docs/upgrade.md: $ {command}\n{stderr}");
        ran += 1;
    }
    assert!(ran >= 4, "the session has {ran} commands");
}

/// A hostile new module that never ends (in `canister_post_upgrade`, or in its start
/// function) is stopped by the instruction limit (exit 1 naming it) or by `--timeout`
/// (exit 2), never hangs.
#[test]
fn a_new_module_that_never_ends_is_bounded() {
    let old = old_snapshot("eop");
    let old = old.to_str().unwrap();
    let endless = |name: &str, wat: &str| {
        let path = scratch().join(name);
        std::fs::write(&path, wat::parse_str(wat).unwrap()).unwrap();
        path
    };
    let post = endless(
        "endless-post.wasm",
        r#"(module (memory 1) (func $loop (loop (br 0)))
             (export "canister_post_upgrade" (func $loop)))"#,
    );
    let start = endless(
        "endless-start.wasm",
        r#"(module (memory 1) (func $loop (loop (br 0))) (start $loop))"#,
    );
    for (path, phase) in [(&post, "post_upgrade"), (&start, "start")] {
        let (code, out, err) = mo_mem(&[
            "upgrade",
            old,
            path.to_str().unwrap(),
            "--json",
            "--instructions",
            "2000000",
        ]);
        assert_eq!(code, 1, "{phase}: {out}{err}");
        let report: Value = serde_json::from_str(&out).unwrap();
        assert_eq!(report["phase"], phase);
        let reason = report["reason"].as_str().unwrap();
        assert!(reason.contains("instruction limit of 2000000"), "{reason}");
        assert_eq!(report["instructions"]["total"], 2_000_000, "{phase}");
        // the default limit would take minutes: the wall clock stops it
        let (code, _, err) = mo_mem(&["upgrade", old, path.to_str().unwrap(), "--timeout", "1"]);
        assert_eq!(code, 2, "{phase}: {err}");
        assert!(err.contains("did not finish within 1 s"), "{phase}: {err}");
    }
}

/// Committed fixtures (every mode and GC) upgraded to their own module: exit 0, and each
/// variable's value after the upgrade what the canister's own `dump` answers after the same
/// upgrade on the runner.
#[test]
fn every_fixture_upgraded_to_its_own_module_shows_what_the_canister_says() {
    let mut checked = 0;
    let mut kinds: BTreeMap<&str, usize> = BTreeMap::new();
    // compound (every mode and GC, forced GC too) and regions (stable memory in use): the
    // others add time (a 14 MiB cyclic text in `collections`), not cases
    let fixtures = common::committed_fixtures();
    for (name, mode) in fixtures
        .into_iter()
        .filter(|(name, _)| ["compound", "regions"].contains(&name.as_str()))
    {
        let dir = common::fixture(&name, &mode);
        let label = format!("{name}/{mode}");
        let module = dir.join("wasm_module.bin");
        let (code, out, err) = mo_mem(&[
            "upgrade",
            dir.to_str().unwrap(),
            module.to_str().unwrap(),
            "--json",
        ]);
        assert_eq!(code, 0, "{label}: {out}{err}");
        let report: Value = serde_json::from_str(&out).unwrap();
        let snapshot = Snapshot::open(&dir).unwrap();
        let wasm = std::fs::read(&module).unwrap();
        let mut canister = Canister::from_snapshot_state(
            &wasm,
            snapshot.memory().as_slice(),
            snapshot
                .stable_memory()
                .map(|i| i.as_slice())
                .unwrap_or(&[]),
            snapshot.globals().unwrap(),
            RuntimeConfig::default(),
        )
        .unwrap();
        let own_before = own_dump(&mut canister);
        canister.upgrade(&wasm, &Encode!().unwrap()).unwrap();
        let own = own_dump(&mut canister);
        // `same`/`changed` (compared by meaning, analysis::diff::values) against a second,
        // simple computation: the canister's own `debug_show` before and after the upgrade,
        // equal texts or not. The actor body runs again on an upgrade (`txt_rope #= ...` in
        // `compound`), so both kinds occur; a classical upgrade moves every object.
        for v in report["vars"].as_array().unwrap() {
            let name = v["name"].as_str().unwrap();
            let (Some(b), Some(a)) = (own_before.get(name), own.get(name)) else {
                continue;
            };
            if b == "<cyclic>" || a == "<cyclic>" {
                continue;
            }
            let want = if a == b { "same" } else { "changed" };
            assert_eq!(v["change"], want, "{label}: {name}: {b:.200} -> {a:.200}");
            *kinds.entry(want).or_insert(0) += 1;
        }
        let after = after_values(&report);
        assert_eq!(
            after.keys().collect::<Vec<_>>(),
            own.keys().collect::<Vec<_>>(),
            "{label}"
        );
        for (var, want) in &own
            .iter()
            .filter(|(_, w)| *w != "<cyclic>")
            .collect::<Vec<_>>()
        {
            let got = &after[*var];
            let short = |t: &str| t.chars().take(300).collect::<String>();
            assert!(
                common::debug_show_matches(want, got),
                "{label}: {var}: the canister says {:?}, the report {:?}",
                short(want),
                short(got)
            );
        }
        checked += 1;
    }
    assert!(checked >= 13, "only {checked} fixtures");
    assert!(
        kinds.get("same") > Some(&100) && kinds.get("changed") >= Some(&13),
        "both kinds judged: {kinds:?}"
    );
}

/// The canister's own `dump` (its stable variables' `debug_show`, the `NAME.view` entries
/// left out).
fn own_dump(canister: &mut Canister) -> BTreeMap<String, String> {
    let reply = canister.query("dump", &Encode!().unwrap()).unwrap();
    Decode!(&reply, Vec<(String, String)>)
        .unwrap()
        .into_iter()
        .filter(|(name, _)| !name.contains('.'))
        .collect()
}

/// A hostile new module that grows main memory past the runner's 8 GiB limit
/// (docs/call.md) in `canister_post_upgrade`: `memory.grow` fails as on the IC (-1), nothing
/// is allocated, and the module's own trap is the verdict (exit 1), never a crash.
#[test]
fn a_new_module_growing_memory_past_the_limit_is_refused() {
    let old = old_snapshot("eop");
    let path = scratch().join("grow-past-limit.wasm");
    let wat = r#"(module (memory i64 1)
        (func $post
          (if (i64.eq (memory.grow (i64.const 0x20000)) (i64.const -1)) (then unreachable)))
        (export "canister_post_upgrade" (func $post)))"#;
    std::fs::write(&path, wat::parse_str(wat).unwrap()).unwrap();
    let (code, out, err) = mo_mem(&[
        "upgrade",
        old.to_str().unwrap(),
        path.to_str().unwrap(),
        "--json",
    ]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(!err.contains("panicked"), "{err}");
    let report: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(report["phase"], "post_upgrade", "{report:#}");
    assert!(
        report["instructions"]["post_upgrade"].as_u64() < Some(1_000),
        "{report:#}"
    );
}

/// The upgraded state decoded in place (`UpgradeRun::take_snapshot`: the decoder reads the
/// runner's memories, no copy) is the state decoded from a copy (`UpgradeRun::snapshot`, what
/// the command decoded before): the same bytes, globals and metadata, and the same report
/// (every variable's change and texts), on the counter's upgrades that succeed (EOP and
/// classical) and the committed `compound` and `regions` fixtures upgraded to their own module.
#[test]
fn the_upgraded_state_decoded_in_place_is_the_copy_decoded() {
    use mo_mem::analysis::upgrade::compare_vars;
    use mo_mem::analysis::OpenedHeap;
    use mo_mem::image::ReaderLimits;
    use mo_mem::runtime::upgrade::{dry_run, UpgradeOptions};
    use std::sync::Arc;
    let mut cases: Vec<(String, PathBuf, PathBuf)> = Vec::new();
    for mode in ["eop", "copying"] {
        for version in [
            "counter",
            "counter-add",
            "counter-retype",
            "counter-migrate",
        ] {
            cases.push((
                format!("counter/{mode} -> {version}"),
                old_snapshot(mode),
                module(version, mode),
            ));
        }
    }
    for (name, mode) in common::committed_fixtures()
        .into_iter()
        .filter(|(name, _)| ["compound", "regions"].contains(&name.as_str()))
    {
        let dir = common::fixture(&name, &mode);
        let module = dir.join("wasm_module.bin");
        cases.push((format!("{name}/{mode}"), dir, module));
    }
    let limits = ReaderLimits::default();
    let mut compared = 0;
    for (label, dir, new) in &cases {
        let old = Arc::new(Snapshot::open(dir).unwrap());
        let new = std::fs::read(new).unwrap();
        let mut run = dry_run(old.clone(), &new, "", &UpgradeOptions::default()).unwrap();
        if run.failure.is_some() {
            continue;
        }
        let copy = run.snapshot(&old).unwrap();
        let held = run.take_snapshot(&old).unwrap();
        assert!(run.canister.is_none(), "{label}: the canister moved");
        assert!(format!("{:?}", held.memory()).contains("held"), "{label}");
        assert!(
            copy.memory().as_slice() == held.memory().as_slice(),
            "{label}"
        );
        assert_eq!(
            copy.stable_memory().map(|i| i.as_slice()),
            held.stable_memory().map(|i| i.as_slice()),
            "{label}"
        );
        assert_eq!(copy.module(), held.module(), "{label}");
        assert_eq!(copy.globals(), held.globals(), "{label}");
        let meta = |s: &Snapshot| s.metadata().map(|m| m.to_json_pretty().unwrap());
        assert_eq!(meta(&copy), meta(&held), "{label}");
        let before = OpenedHeap::from_snapshot(Snapshot::open(dir).unwrap(), limits).unwrap();
        let from_copy = OpenedHeap::from_snapshot(copy, limits).unwrap();
        let in_place = OpenedHeap::from_snapshot(held, limits).unwrap();
        let want = compare_vars(&before, &from_copy).unwrap();
        assert!(!want.is_empty(), "{label}");
        assert_eq!(compare_vars(&before, &in_place).unwrap(), want, "{label}");
        compared += 1;
    }
    assert!(compared >= 16, "only {compared} upgrades compared");
}

/// A record whose field is retyped and gains a field, inside it a variant (an alias of the
/// same name in both versions, its body changed) that loses a tag and gains one
/// (tests/data/upgrade/profile.mo to profile-fields.mo): the report names each field and tag
/// by its path, in EOP (refused: the static comparison) and classical persistence (the
/// upgrade succeeds and re-initialises `user`: the same list beside the values).
#[test]
fn a_changed_record_names_its_fields_and_tags() {
    let want = serde_json::json!([
        {"path": "user.age", "change": "retyped", "before": "Nat", "after": "Text", "compatible": false},
        {"path": "user.email", "change": "added", "before": null, "after": "Text", "compatible": false},
        {"path": "user.status#banned", "change": "removed", "before": "Text", "after": null, "compatible": false},
        {"path": "user.status#suspended", "change": "added", "before": null, "after": "Nat", "compatible": true},
    ]);
    for (mode, exit) in [("eop", 1), ("copying", 3)] {
        let old = old_snapshot_of("profile", mode);
        let new = module("profile-fields", mode);
        let (code, out, err) = mo_mem(&[
            "upgrade",
            old.to_str().unwrap(),
            new.to_str().unwrap(),
            "--json",
        ]);
        assert_eq!(code, exit, "{mode}: {out}{err}");
        let report: Value = serde_json::from_str(&out).unwrap();
        common::schemas::assert_follows("upgrade", &report, &format!("profile {mode}"));
        let vars = report["vars"].as_array().unwrap();
        let user = vars.iter().find(|v| v["name"] == "user").unwrap();
        assert_eq!(user["change"], "changed", "{mode}: {user:#}");
        assert_eq!(user["type_changes"], want, "{mode}: {user:#}");
        assert_eq!(user["type_changes_complete"], true, "{mode}");
        assert_eq!(user["compatible"], false, "{mode}");
        let visits = vars.iter().find(|v| v["name"] == "visits").unwrap();
        assert_eq!(visits["compatible"], true, "{mode}");
        assert_eq!(visits["change"], "same", "{mode}: {visits:#}");
        assert_eq!(visits["type_changes"], serde_json::json!([]), "{mode}");
        let (_, text, _) = mo_mem(&["upgrade", old.to_str().unwrap(), new.to_str().unwrap()]);
        for line in [
            "  retyped  user.age : Nat -> Text (incompatible)\n",
            "  added    user.email : Text (incompatible)\n",
            "  removed  user.status#banned : Text (incompatible)\n",
            "  added    user.status#suspended : Nat (compatible)\n",
        ] {
            assert!(text.contains(line), "{mode}: {line:?} in\n{text}");
        }
    }
    // the canister's own word on the classical upgrade: `user` re-initialised
    let dump = profile_dump_after("copying", "profile-fields").unwrap();
    assert_eq!(
        dump["user"],
        "{age = \"36\"; email = \"ada@example.org\"; name = \"ada\"; status = #active}"
    );
    assert_eq!(dump["visits"], "2");
}

/// What the new canister's own `dump` answers after the `profile` snapshot in `mode` is
/// upgraded to `version` on the runner (its error when the upgrade fails).
fn profile_dump_after(mode: &str, version: &str) -> Result<BTreeMap<String, String>, String> {
    let snapshot = Snapshot::open(&old_snapshot_of("profile", mode)).unwrap();
    let stable = snapshot
        .stable_memory()
        .map(|i| i.as_slice())
        .unwrap_or(&[]);
    let mut canister = Canister::from_snapshot_state(
        &std::fs::read(module("profile", mode)).unwrap(),
        snapshot.memory().as_slice(),
        stable,
        snapshot.globals().unwrap(),
        RuntimeConfig::default(),
    )
    .unwrap();
    let new = std::fs::read(module(version, mode)).unwrap();
    canister
        .upgrade(&new, &Encode!().unwrap())
        .map_err(|e| e.to_string())?;
    Ok(own_dump(&mut canister))
}

/// `mo-mem upgrade` of the `profile` snapshot in `mode` to `version`: exit code and report.
fn profile_upgrade(mode: &str, version: &str) -> (i32, Value) {
    let old = old_snapshot_of("profile", mode);
    let new = module(version, mode);
    let args = [
        "upgrade",
        old.to_str().unwrap(),
        new.to_str().unwrap(),
        "--json",
    ];
    let (code, out, err) = mo_mem(&args);
    let report: Value = serde_json::from_str(&out)
        .unwrap_or_else(|e| panic!("{mode} {version}: not JSON ({e}): {out}\n{err}"));
    common::schemas::assert_follows("upgrade", &report, &format!("{mode} {version}"));
    (code, report)
}

/// The report's variable `name`.
fn var<'r>(report: &'r Value, name: &str) -> &'r Value {
    report["vars"]
        .as_array()
        .unwrap()
        .iter()
        .find(|v| v["name"] == name)
        .unwrap_or_else(|| panic!("no {name} in {report:#}"))
}

#[test]
fn motokos_upgrade_rules_mark_each_change_as_the_runtime_decides() {
    // `visits` Nat to Int, a tag added to `Status`, a variable added: compatible, and the real
    // upgrade on the runner keeps every value in both persistences
    for mode in ["eop", "copying"] {
        let (code, report) = profile_upgrade(mode, "profile-compat");
        assert_eq!(code, 0, "{mode}: {report:#}");
        assert_eq!(report["warnings"], serde_json::json!([]), "{mode}");
        let (user, visits, since) = (
            var(&report, "user"),
            var(&report, "visits"),
            var(&report, "since"),
        );
        assert_eq!(
            user["type_changes"],
            serde_json::json!([{"path": "user.status#vip", "change": "added",
                "before": null, "after": "Nat", "compatible": true}]),
            "{mode}"
        );
        for v in [user, visits, since] {
            assert_eq!(v["compatible"], true, "{mode}: {v:#}");
        }
        assert_eq!(visits["change"], "changed", "{mode}");
        assert_eq!(visits["type_after"], "Int", "{mode}");
        let dump = profile_dump_after(mode, "profile-compat").unwrap();
        assert_eq!(after_values(&report), dump, "{mode}");
        assert_eq!(dump["visits"], "+2", "{mode}");
    }
    // a field dropped from `user`'s record: incompatible; the EOP runtime refuses it, the
    // classical one keeps the rest of the record (Candid's record subtyping), not the initializer
    let (code, report) = profile_upgrade("eop", "profile-dropfield");
    assert_eq!(code, 1, "{report:#}");
    assert!(profile_dump_after("eop", "profile-dropfield")
        .unwrap_err()
        .contains("Memory-incompatible program upgrade"));
    let user = var(&report, "user");
    assert_eq!(user["compatible"], false);
    assert_eq!(
        user["type_changes"],
        serde_json::json!([{"path": "user.age", "change": "removed",
            "before": "Nat", "after": null, "compatible": false}])
    );
    assert_eq!(var(&report, "visits")["compatible"], true);
    let (code, report) = profile_upgrade("copying", "profile-dropfield");
    assert_eq!(code, 3, "{report:#}");
    let dump = profile_dump_after("copying", "profile-dropfield").unwrap();
    assert_eq!(dump["user"], "{name = \"ada\"; status = #active}");
    assert_eq!(after_values(&report), dump);
    let warnings = report["warnings"].as_array().unwrap();
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    let w = warnings[0].as_str().unwrap();
    assert!(w.contains("(user.age) are lost"), "{w}");
}

/// Why the migration to a module built with `--enhanced-orthogonal-persistence` is not tested
/// with the pinned compiler (docs/upgrade.md): its EOP build has no Candid destabilization at
/// all (the shared function `__stablemem_read_and_clear_word32` is not in its names), only
/// the trap, while moc 0.14's EOP build of the same program has the function.
#[test]
fn the_pinned_eop_build_has_no_candid_destabilization_but_moc_0_14_has() {
    let wasm = |path: PathBuf| {
        let raw = std::fs::read(path).unwrap();
        mo_mem::module::decompress_module(&raw)
            .unwrap()
            .into_owned()
    };
    let has = |wasm: &[u8], what: &[u8]| wasm.windows(what.len()).any(|w| w == what);
    let pinned = wasm(module("counter-add", "eop"));
    assert!(has(&pinned, b"Detected implicit upgrade"));
    assert!(!has(&pinned, b"__stablemem_read_and_clear_word32"));
    assert!(!has(
        &wasm(module("counter", "eop")),
        b"__stablemem_read_and_clear_word32"
    ));
    let moc014 = wasm(data("counter-eop014.wasm.gz"));
    assert!(has(&moc014, b"__stablemem_read_and_clear_word32"));
}

/// A type alias renamed (`Status` to `State`, profile-rename.mo) changes the stable types'
/// text, not the types: the variable is reported the same, after a real upgrade (the values
/// compared) and when the upgrade fails (the types compared: a classical snapshot and an EOP
/// module, which refuses the implicit migration).
#[test]
fn a_renamed_type_alias_is_no_change() {
    for mode in ["eop", "copying"] {
        let (code, report) = profile_upgrade(mode, "profile-rename");
        assert_eq!(code, 0, "{mode}: {report:#}");
        let user = var(&report, "user");
        assert_eq!(user["change"], "same", "{mode}: {user:#}");
        assert_eq!(user["compatible"], true, "{mode}");
        let (before, after) = (user["type_before"].as_str(), user["type_after"].as_str());
        assert!(
            before.unwrap().contains("Status") && after.unwrap().contains("State"),
            "{mode}: the texts differ: {before:?} {after:?}"
        );
    }
    let old = old_snapshot_of("profile", "copying");
    let new = module("profile-rename", "eop");
    let (code, out, err) = mo_mem(&["upgrade", old.to_str().unwrap(), new.to_str().unwrap()]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(out.starts_with("upgrade: FAILS"), "{out}");
    let user = out.lines().find(|l| l.contains(" user ")).unwrap();
    assert!(user.starts_with("same     user : "), "{out}");
}
