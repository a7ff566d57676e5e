//! For every committed fixture snapshot (every fixture, every mode: EOP and the four
//! classical GCs), the stable variables decoded by mo-mem equal the canister's own
//! `debug_show` output (`expected.json`), variable by variable; and `mo-mem vars` prints
//! exactly `name = <debug_show>` for all of them, sorted by name.
//!
//! A cyclic value (e.g. a `mo:core/Queue`, doubly linked) has no `debug_show` text (the
//! canister's own would never end); fixtures expect the marker `<cyclic>` for it, and mo-mem's
//! rendering must then contain a `<cycle 0x…>` back-reference (docs/formats.md).

use crate::common;

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

use mo_mem::heap::render::write_debug_show_as;
use mo_mem::heap::value::{heap_signature, signature_decoder, stable_variables};
use mo_mem::heap::Heap;
use mo_mem::image::ReaderLimits;
use mo_mem::snapshot::Snapshot;

pub(crate) fn expected_vars(dir: &Path) -> BTreeMap<String, String> {
    let text = std::fs::read_to_string(dir.join("expected.json")).expect("expected.json");
    let json: serde_json::Value = serde_json::from_str(&text).expect("expected.json is JSON");
    json["vars"]
        .as_object()
        .expect("expected.json has vars")
        .iter()
        .map(|(k, v)| (k.clone(), v.as_str().expect("string value").to_string()))
        .collect()
}

/// Decodes every stable variable through the library; returns name -> debug_show text.
pub(crate) fn decoded_vars(dir: &Path) -> Result<BTreeMap<String, String>, String> {
    let snapshot = Snapshot::open(dir).map_err(|e| e.to_string())?;
    let heap = Heap::open(snapshot, ReaderLimits::default()).map_err(|e| e.to_string())?;
    let sig = heap_signature(&heap).map_err(|e| e.to_string())?;
    let vars = stable_variables(&heap, &sig).map_err(|e| e.to_string())?;
    let mut d = signature_decoder(&heap, &sig);
    let mut out = BTreeMap::new();
    let floats = heap.float_style();
    for v in vars {
        let text = match d.deep(&v.value) {
            Ok(value) => {
                let mut text = String::new();
                write_debug_show_as(&value, floats, &mut text);
                text
            }
            Err(e) => format!("<decode error: {e}>"),
        };
        out.insert(v.name.to_string(), text);
    }
    Ok(out)
}

#[test]
fn every_fixture_decodes_to_its_expected_values() {
    let fixtures = common::all_fixtures();
    assert!(!fixtures.is_empty(), "no committed fixture snapshots");
    let mut failures = Vec::new();
    for (name, mode, dir) in &fixtures {
        let want = expected_vars(dir);
        let got = match decoded_vars(dir) {
            Ok(g) => g,
            Err(e) => {
                failures.push(format!("{name}/{mode}: {e}"));
                continue;
            }
        };
        for (var, text) in &want {
            match got.get(var) {
                Some(t) if common::debug_show_matches(text, t) => {}
                Some(t) => failures.push(format!(
                    "{name}/{mode}: `{var}`\n  expected: {text}\n  decoded:  {t}"
                )),
                None => failures.push(format!("{name}/{mode}: `{var}` not decoded")),
            }
        }
        for var in got.keys().filter(|k| !want.contains_key(*k)) {
            failures.push(format!("{name}/{mode}: `{var}` decoded but not expected"));
        }
    }
    assert!(
        failures.is_empty(),
        "{} mismatches:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn cli_vars_prints_every_variable_exactly() {
    for (name, mode, dir) in common::all_fixtures() {
        // The library's texts (checked against expected.json above), as the CLI must print them.
        let want: String = decoded_vars(&dir)
            .expect("decodes")
            .iter()
            .map(|(k, v)| format!("{k} = {v}\n"))
            .collect();
        let out = Command::new(env!("CARGO_BIN_EXE_mo-mem"))
            .args(["vars", &dir.to_string_lossy(), "--format", "motoko"])
            .output()
            .expect("run mo-mem");
        assert!(
            out.status.success(),
            "{name}/{mode}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert_eq!(String::from_utf8_lossy(&out.stdout), want, "{name}/{mode}");
    }
}

#[test]
fn cli_vars_json_is_valid_and_single_var_matches() {
    let Some((name, mode, dir)) = common::all_fixtures().into_iter().next() else {
        panic!("no committed fixtures");
    };
    let out = Command::new(env!("CARGO_BIN_EXE_mo-mem"))
        .args(["vars", &dir.to_string_lossy(), "--format", "json"])
        .output()
        .expect("run mo-mem");
    assert!(out.status.success(), "{name}/{mode}");
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("valid JSON");
    let want = expected_vars(&dir);
    let obj = json.as_object().expect("an object");
    assert_eq!(
        obj.keys().collect::<Vec<_>>(),
        want.keys().collect::<Vec<_>>()
    );
    let (var, text) = want.iter().next().expect("a variable");
    let out = Command::new(env!("CARGO_BIN_EXE_mo-mem"))
        .args(["vars", &dir.to_string_lossy(), var, "--format", "motoko"])
        .output()
        .expect("run mo-mem");
    assert_eq!(String::from_utf8_lossy(&out.stdout), format!("{text}\n"));
    let out = Command::new(env!("CARGO_BIN_EXE_mo-mem"))
        .args(["vars", &dir.to_string_lossy(), "no_such_variable_here"])
        .output()
        .expect("run mo-mem");
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    // One error line (besides the store's one-line note that a bare path is not authenticated).
    let lines = err.lines().filter(|l| !l.starts_with("note: ")).count();
    assert_eq!(lines, 1, "{err}");
}
