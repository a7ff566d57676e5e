//! `mo-mem eval SNAPSHOT` and `mo-mem repl SNAPSHOT` through the real binary.

use crate::common;

use std::io::Write;
use std::process::{Command, Stdio};

const BIN: &str = env!("CARGO_BIN_EXE_mo-mem");

fn mo_mem(args: &[&str], stdin: &str) -> (bool, String, String) {
    let mut child = Command::new(BIN)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(stdin.as_bytes())
        .unwrap();
    let o = child.wait_with_output().unwrap();
    (
        o.status.success(),
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

#[test]
fn eval_over_a_snapshot_argument_file_and_stdin() {
    let snap = common::fixture("compound", "eop");
    let s = snap.to_str().unwrap();
    let (ok, out, err) = mo_mem(&["eval", s, "vars.let_nat * 6"], "");
    assert!(ok, "{err}");
    assert_eq!(out, "42\n");
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("q.mo");
    std::fs::write(
        &file,
        "import Debug \"mo:core/Debug\";\nDebug.print(vars.let_text);\nvars.person.name",
    )
    .unwrap();
    let (ok, out, err) = mo_mem(&["eval", s, "-f", file.to_str().unwrap()], "");
    assert!(ok, "{err}");
    assert_eq!(out, "a stable let\n\"Ada\"\n");
    let (ok, out, _) = mo_mem(&["eval", s, "--json", "-"], "vars.let_record");
    assert!(ok);
    let j: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(j["value"]["c"], serde_json::json!([3, 4]));
    // the canister's debug_show of a Float, as `mo-mem vars` prints it
    let (ok, out, _) = mo_mem(&["eval", s, "vars.person.score"], "");
    assert!(ok);
    let (_, vars_out, _) = mo_mem(&["vars", s, "person"], "");
    assert!(
        vars_out.contains(&format!("score = {}", out.trim())),
        "{out} / {vars_out}"
    );
    // a trap exits non-zero with the message
    let (ok, _, err) = mo_mem(&["eval", s, "image.loadNat8(image.size())"], "");
    assert!(!ok);
    assert!(err.contains("image"), "{err}");
}

#[test]
fn repl_keeps_definitions_without_a_tty() {
    let snap = common::fixture("scalars", "eop");
    let (ok, out, err) = mo_mem(
        &["repl", snap.to_str().unwrap()],
        "let n = heap.varNames.size();\nn + 1\nfunc twice(x : Nat) : Nat {\n  2 * x\n};\ntwice(n) == 2 * n\n",
    );
    assert!(ok, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    // a declaration shows its value, as in moc's REPL
    assert_eq!(lines.len(), 3, "{out}");
    let n: u64 = lines[0].parse().unwrap();
    assert_eq!(lines[1], (n + 1).to_string());
    assert_eq!(lines[2], "true");
}

/// `eval --json` and `vars --format json` agree on every stable variable of the compound,
/// scalars and regions fixtures (one JSON format; values scripts have no type for, such as
/// actor references, closures, regions and Float32, carry their heap JSON), except where the
/// two writers cut differently (cycles, deep values).
#[test]
fn eval_json_and_vars_json_agree() {
    let cut_differently = ["\"cycle\"", "\"deep\""];
    let mut compared = 0;
    for (name, mode) in [
        ("compound", "eop"),
        ("compound", "copying"),
        ("scalars", "eop"),
        ("scalars", "incremental"),
    ] {
        let snap = common::fixture(name, mode);
        let s = snap.to_str().unwrap();
        let (ok, out, err) = mo_mem(&["vars", s, "--format", "json"], "");
        assert!(ok, "{err}");
        let vars: serde_json::Map<String, serde_json::Value> = serde_json::from_str(&out).unwrap();
        let mut script = String::from("(");
        let mut names = Vec::new();
        for (var, json) in &vars {
            let text = json.to_string();
            if cut_differently.iter().any(|k| text.contains(k)) || var == "actor" {
                continue;
            }
            if !names.is_empty() {
                script.push_str(", ");
            }
            script.push_str(&format!("vars.{var}"));
            names.push(var.clone());
        }
        script.push(')');
        let (ok, out, err) = mo_mem(&["eval", s, "--json", "-"], &script);
        assert!(ok, "{name}/{mode}: {err}");
        let j: serde_json::Value = serde_json::from_str(&out).unwrap();
        let values = j["value"].as_array().unwrap();
        assert_eq!(values.len(), names.len());
        for (var, got) in names.iter().zip(values) {
            assert_eq!(got, &vars[var], "{name}/{mode}: {var}");
            compared += 1;
        }
    }
    assert!(compared > 200, "{compared}");
}

/// The adversarial scripts of `tests/data/scripts/` through the binary: each answers its value
/// or stops with a limit, within the deadline given on the command line.
#[test]
fn adversarial_scripts_end_within_the_limits_in_the_cli() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/scripts");
    let expected = [
        (
            "adversarial_recursive_type.mo",
            Ok("#c1(#leaf(+1), #c0(#leaf(+2), #leaf(0)))\n"),
        ),
        (
            "adversarial_type_chain.mo",
            Ok("(((+1, +2), (+3, +4)), ?(+5))\n"),
        ),
        ("adversarial_shared_value.mo", Ok("(1, +1)\n")),
        ("adversarial_or_pattern.mo", Ok("1\n")),
        ("adversarial_deep_value.mo", Err("limit exceeded")),
    ];
    for (name, want) in expected {
        let file = dir.join(name);
        let f = file.to_str().unwrap();
        let (ok, out, err) = mo_mem(&["eval", "--no-snapshot", "--timeout", "20", "-f", f], "");
        match want {
            Ok(v) => {
                assert!(ok, "{name}: {err}");
                assert_eq!(out, v, "{name}");
            }
            Err(what) => {
                assert!(!ok, "{name}: ran to completion: {out}");
                assert!(err.contains(what), "{name}: {err}");
            }
        }
    }
}
