//! The script host value `canister`: a snapshot's own queries called from a script, the reply
//! as Motoko values. Checked against what the canister recorded when the snapshot was taken
//! (`expected.json`, the `dump` query's reply), on EOP and classical snapshots, from
//! `mo-mem eval` and from the mount's `eval` file.

use crate::common;
use crate::mount_support;

use mount_support::{fuse_available, Mounted, BIN};
use serde_json::Value as Json;
use std::path::Path;
use std::process::Command;

fn eval(dir: &Path, args: &[&str]) -> (bool, String, String) {
    let out = Command::new(BIN)
        .arg("eval")
        .args(&args[..args.len() - 1])
        .arg(dir)
        .arg(args[args.len() - 1])
        .output()
        .expect("run mo-mem");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn eval_ok(dir: &Path, args: &[&str]) -> String {
    let (ok, out, err) = eval(dir, args);
    assert!(ok, "{args:?}: {err}");
    out
}

fn recorded(dir: &Path) -> Vec<(String, String)> {
    let expected: Json =
        serde_json::from_slice(&std::fs::read(dir.join("expected.json")).unwrap()).unwrap();
    let mut vars: Vec<(String, String)> = expected["vars"]
        .as_object()
        .unwrap()
        .iter()
        .map(|(k, v)| (k.clone(), v.as_str().unwrap().to_string()))
        .collect();
    vars.sort();
    vars
}

#[test]
fn a_scripts_dump_call_answers_what_the_canister_recorded() {
    for (name, mode) in [("weak", "eop"), ("compound", "copying"), ("scalars", "eop")] {
        let dir = common::fixture(name, mode);
        let json = eval_ok(&dir, &["--json", "canister.dump()"]);
        let json: Json = serde_json::from_str(&json).unwrap();
        let mut pairs: Vec<(String, String)> = json["value"]
            .as_array()
            .unwrap_or_else(|| panic!("{name}/{mode}: {json}"))
            .iter()
            .map(|p| {
                let p = p.as_array().expect("a (Text, Text) tuple");
                (
                    p[0].as_str().unwrap().to_string(),
                    p[1].as_str().unwrap().to_string(),
                )
            })
            .collect();
        pairs.sort();
        assert_eq!(pairs, recorded(&dir), "{name}/{mode}");
    }
}

#[test]
fn arguments_are_typed_and_replies_are_motoko_values() {
    let dir = common::fixture("weak", "eop");
    assert_eq!(eval_ok(&dir, &["canister.name_of(0)"]), "?\"kept #1\"\n");
    assert_eq!(eval_ok(&dir, &["canister.name_of(1)"]), "null\n");
    assert_eq!(eval_ok(&dir, &["canister.whoami()"]), "2vxsx-fae\n");
    assert_eq!(eval_ok(&dir, &["canister.checked(4) + 1"]), "9\n");
    // the canister's own answer and the heap's value agree, inside one script
    let same =
        "let d = canister.dump(); d[0].0 == \"strong\" and d[0].1 == debug_show(vars.strong)";
    assert_eq!(eval_ok(&dir, &[same]), "true\n");
    assert_eq!(
        eval_ok(
            &dir,
            &["switch (canister.name_of(0)) { case (?n) n == vars.strong[0].name; case null false }"]
        ),
        "true\n"
    );
    let cases = [
        (
            "canister.checked(12)",
            "canister.checked: canister trapped in checked: assertion failed",
        ),
        (
            "canister.name_of(\"x\")",
            "canister.name_of: arguments of name_of",
        ),
        ("canister.churn(1)", "canister has no method churn"),
        (
            "canister.name_of(func () {})",
            "cannot be sent to the canister",
        ),
    ];
    for (script, want) in cases {
        let (ok, _, err) = eval(&dir, &[script]);
        assert!(!ok && err.contains(want), "{script}: {err}");
    }
}

#[test]
fn the_mount_eval_file_has_the_canister_too() {
    if !fuse_available() {
        return;
    }
    let dir = common::fixture("weak", "eop");
    let mount = Mounted::start(&[dir.as_path()]);
    // docs/mount.md "Names": one path is served under its last component, `…/weak/eop`
    // as `eop`.
    let eval = mount.path("eop").join("eval");
    std::fs::write(&eval, "canister.name_of(0)").unwrap();
    assert_eq!(std::fs::read_to_string(&eval).unwrap(), "?\"kept #1\"\n");
}
