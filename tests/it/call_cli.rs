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
    assert_eq!(checked, 3, "examples found");
}
