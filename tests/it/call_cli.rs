//! `mo-mem methods` and `mo-mem call`: the canister's own query methods run offline on its
//! snapshots. Every committed fixture (EOP and the classical GCs) answers its `dump` query
//! exactly as the live canister answered it when the snapshot was taken (`expected.json`,
//! recorded by the generator); updates only run on a scratch copy; state that does not fit
//! the module is refused; arguments are typed against the module's Candid service.

use crate::common;

use serde_json::Value as Json;
use std::collections::BTreeMap;
use std::path::Path;
use std::process::{Command, Output};

fn mo_mem(args: &[&str], dir: &Path) -> Output {
    let (before, after) = args.split_at(1);
    Command::new(env!("CARGO_BIN_EXE_mo-mem"))
        .args(before)
        .arg(dir)
        .args(after)
        .output()
        .expect("run mo-mem")
}

fn stdout(out: &Output) -> String {
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// `dump`'s reply (`vec record { text; text }`) as a map, from `--json`.
fn dump(dir: &Path) -> BTreeMap<String, String> {
    let json: Json = serde_json::from_str(&stdout(&mo_mem(&["call", "dump", "--json"], dir)))
        .expect("JSON reply");
    let entries = json[0].as_array().expect("one vector result");
    entries
        .iter()
        .map(|e| {
            (
                e["0"].as_str().expect("name").to_string(),
                e["1"].as_str().expect("text").to_string(),
            )
        })
        .collect()
}

/// What `dump` answered when the snapshot was taken: `vars`, and `entries` (a collection's
/// entries, answered as `PATH.entries`; only fixtures that list them have the key).
fn recorded(dir: &Path) -> BTreeMap<String, String> {
    let expected: Json =
        serde_json::from_slice(&std::fs::read(dir.join("expected.json")).unwrap()).unwrap();
    // The dump's pairs: the variables and (`NAME.entries`, …) the collections' iterations.
    let views = expected.get("views").and_then(Json::as_object);
    expected["vars"]
        .as_object()
        .expect("vars")
        .iter()
        .chain(views.into_iter().flatten())
        .map(|(k, v)| (k.clone(), v.as_str().expect("text").to_string()))
        .collect()
}

#[test]
fn every_fixture_answers_its_dump_query_as_recorded() {
    let fixtures = common::all_fixtures();
    assert!(fixtures.len() >= 20, "{} fixtures", fixtures.len());
    for (name, mode, dir) in fixtures {
        let methods = stdout(&mo_mem(&["methods"], &dir));
        assert!(
            methods
                .lines()
                .any(|l| l == "dump: () -> (vec record { text; text }) query"),
            "{name}/{mode}: {methods}"
        );
        assert_eq!(dump(&dir), recorded(&dir), "{name}/{mode}");
    }
}

#[test]
fn updates_run_only_when_allowed_and_never_change_the_snapshot() {
    let dir = common::fixture("weak", "eop");
    let before = std::fs::read(dir.join("wasm_memory.bin")).unwrap();
    let refused = mo_mem(&["call", "churn", "(5)"], &dir);
    assert!(!refused.status.success());
    assert!(
        String::from_utf8_lossy(&refused.stderr).contains("--allow-update"),
        "{}",
        String::from_utf8_lossy(&refused.stderr)
    );
    let ran = mo_mem(&["call", "churn", "(5)", "--allow-update"], &dir);
    assert_eq!(stdout(&ran), "()\n");
    assert!(String::from_utf8_lossy(&ran.stderr).contains("scratch copy"));
    assert_eq!(std::fs::read(dir.join("wasm_memory.bin")).unwrap(), before);
    assert_eq!(dump(&dir), recorded(&dir));
}

#[test]
fn bad_calls_and_misfitting_state_are_refused_with_the_reason() {
    let dir = common::fixture("compound", "eop");
    let cases: [(&[&str], &str); 4] = [
        (&["call", "nope"], "no method \"nope\""),
        (
            &["call", "grow", "(\"x\")", "--allow-update"],
            "arguments of grow",
        ),
        (
            &["call", "grow", "(1", "--allow-update"],
            "arguments of grow",
        ),
        (
            &["call", "dump", "--caller", "not-a-principal"],
            "not a principal",
        ),
    ];
    for (args, want) in cases {
        let out = mo_mem(args, &dir);
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            !out.status.success() && err.contains(want),
            "{args:?}: {err}"
        );
    }
    // The image with its module and a globals list that does not fit the module.
    let work = tempfile::tempdir().unwrap();
    let globals = work.path().join("globals.json");
    std::fs::write(&globals, "[{\"i32\": 7}]").unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_mo-mem"))
        .args(["call"])
        .arg(dir.join("wasm_memory.bin"))
        .arg("--wasm")
        .arg(dir.join("wasm_module.bin"))
        .arg("--globals")
        .arg(&globals)
        .arg("dump")
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        !out.status.success()
            && err.contains("cannot restore the snapshot")
            && err.contains("mutable globals"),
        "{err}"
    );
}

#[test]
fn call_md_examples_are_true() {
    let checked = common::doc_examples::check_console_examples("docs/call.md");
    assert_eq!(checked, 7, "examples found");
}

#[test]
fn queries_with_arguments_see_the_caller_and_report_the_canisters_trap() {
    let dir = common::fixture("weak", "eop");
    assert_eq!(
        stdout(&mo_mem(&["call", "name_of", "(0)"], &dir)),
        "(opt \"kept #1\")\n"
    );
    // after the second round, `strong` holds one object
    assert_eq!(
        stdout(&mo_mem(&["call", "name_of", "(1)"], &dir)),
        "(null)\n"
    );
    assert_eq!(
        stdout(&mo_mem(&["call", "whoami"], &dir)),
        "(principal \"2vxsx-fae\")\n"
    );
    assert_eq!(
        stdout(&mo_mem(&["call", "whoami", "--caller", "aaaaa-aa"], &dir)),
        "(principal \"aaaaa-aa\")\n"
    );
    let trap = mo_mem(&["call", "checked", "(10)"], &dir);
    let err = String::from_utf8_lossy(&trap.stderr);
    assert!(
        !trap.status.success() && err.contains("canister trapped in checked: assertion failed"),
        "{err}"
    );
    // a runaway query ends at the instruction limit
    let limited = mo_mem(&["call", "dump", "--instructions", "1000"], &dir);
    let err = String::from_utf8_lossy(&limited.stderr);
    assert!(
        !limited.status.success() && err.contains("exceeded the instruction limit of 1000"),
        "{err}"
    );
}

#[test]
fn one_restored_instance_answers_repeated_calls_each_from_the_snapshots_state() {
    use mo_mem::runtime::offline::{CallOptions, OfflineCanister};
    use mo_mem::snapshot::Snapshot;
    let dir = common::fixture("weak", "eop");
    let snapshot = Snapshot::open(&dir).unwrap();
    let canister = OfflineCanister::open(std::sync::Arc::new(snapshot)).unwrap();
    let ask = |method: &str, args: &str, options: &CallOptions| {
        canister
            .call(method, args, options)
            .map(|r| r.values.to_string())
    };
    let options = CallOptions::default();
    let first = ask("dump", "", &options).unwrap();
    assert_eq!(
        ask("name_of", "(0)", &options).unwrap(),
        "(opt \"kept #1\")"
    );
    // an update runs on the scratch state only with allow_update; the next call does not see it
    assert!(ask("churn", "(5)", &options).is_err());
    let updates = CallOptions {
        allow_update: true,
        ..CallOptions::default()
    };
    assert_eq!(ask("churn", "(5)", &updates).unwrap(), "()");
    assert_eq!(ask("dump", "", &options).unwrap(), first);
    // a trap leaves the next call unaffected too
    assert!(ask("checked", "(11)", &options).is_err());
    assert_eq!(ask("checked", "(3)", &options).unwrap(), "(6 : nat)");
    assert_eq!(ask("dump", "", &options).unwrap(), first);
}

#[test]
fn every_recorded_query_answers_offline_as_the_live_canister_did() {
    let mut checked = 0;
    for (name, mode, dir) in common::all_fixtures() {
        let expected: Json =
            serde_json::from_slice(&std::fs::read(dir.join("expected.json")).unwrap()).unwrap();
        let Some(replies) = expected["replies"].as_array() else {
            continue;
        };
        for r in replies {
            let (method, args, caller) = (
                r["method"].as_str().unwrap(),
                r["args"].as_str().unwrap(),
                r["caller"].as_str().unwrap(),
            );
            let mut argv = vec!["call", method, "--caller", caller];
            if !args.is_empty() {
                argv.push(args);
            }
            let out = mo_mem(&argv, &dir);
            let what = format!("{name}/{mode}: {method}{args}");
            match (r["reply"].as_str(), r["error"].as_str()) {
                (Some(reply), None) => assert_eq!(stdout(&out), format!("{reply}\n"), "{what}"),
                (None, Some(error)) => {
                    let err = String::from_utf8_lossy(&out.stderr);
                    assert!(
                        !out.status.success() && err.contains(error),
                        "{what}: {err}"
                    );
                }
                _ => panic!("{what}: a reply or an error"),
            }
            checked += 1;
        }
    }
    assert!(checked >= 10, "{checked} recorded replies");
}
