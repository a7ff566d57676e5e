//! `mo-mem eval` and `mo-mem repl` without a snapshot, through the real binary.

use std::io::Write;
use std::process::{Command, Stdio};

fn mo_mem(args: &[&str], stdin: &str) -> (bool, String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_mo-mem"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run mo-mem");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(stdin.as_bytes())
        .expect("write stdin");
    let out = child.wait_with_output().expect("wait");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn eval_prints_output_then_value() {
    let (ok, out, _) = mo_mem(
        &[
            "eval",
            "--no-snapshot",
            "import Debug \"mo:core/Debug\"; Debug.print(\"a\"); [1, 2].size()",
        ],
        "",
    );
    assert!(ok);
    assert_eq!(out, "a\n2\n");
}

#[test]
fn eval_json_and_stdin() {
    let (ok, out, _) = mo_mem(
        &["eval", "--no-snapshot", "--json", "-"],
        "(\"x\", 2 ** 60)",
    );
    assert!(ok);
    let j: serde_json::Value = serde_json::from_str(&out).expect("json");
    assert_eq!(j["value"], serde_json::json!(["x", "1152921504606846976"]));
    assert_eq!(j["show"], "(\"x\", 1_152_921_504_606_846_976)");
}

#[test]
fn json_pragma_selects_json() {
    let (ok, out, _) = mo_mem(&["eval", "--no-snapshot", "-"], "// @json\n[1, 2]");
    assert!(ok);
    assert_eq!(out, "{\"output\":[],\"show\":\"[1, 2]\",\"value\":[1,2]}\n");
}

#[test]
fn eval_trap_and_limit_fail_with_message() {
    let (ok, out, err) = mo_mem(
        &[
            "eval",
            "--no-snapshot",
            "import Debug \"mo:core/Debug\"; Debug.print(\"before\"); assert false",
        ],
        "",
    );
    assert!(!ok);
    assert_eq!(out, "before\n");
    assert!(
        err.contains("script:1.54-1.66: execution error, assertion failure"),
        "{err}"
    );
    let (ok, _, err) = mo_mem(
        &["eval", "--no-snapshot", "--max-steps", "5000", "loop {}"],
        "",
    );
    assert!(!ok);
    assert!(err.contains("step budget exhausted (5000 steps"), "{err}");
}

#[test]
fn repl_keeps_definitions() {
    let (ok, out, _) = mo_mem(
        &["repl", "--no-snapshot"],
        "var n = 20;\nfunc twice(x : Nat) : Nat {\n  2 * x\n};\ntwice(n + 1)\n:quit\n",
    );
    assert!(ok);
    assert!(out.contains("42\n"), "{out}");
}
