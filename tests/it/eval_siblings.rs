//! The host value `snapshots` (the other snapshots of the session's canister) is bound alike
//! in `mo-mem eval`, `mo-mem repl` and a real mount's `eval` file: over three snapshots of the
//! `growth` canister side by side (as in a store), each front-end gives the same names and
//! the same values, which are each snapshot's own (its expected.json).

use crate::common;
use crate::mount_support;

use mount_support::{fuse_available, in_new_session, Mounted};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// The script every front-end runs: the siblings' names and a variable of each snapshot.
const SCRIPT: &str = "(snapshots.names, snapshots.open(\"s1\").vars.counter, \
                      snapshots.open(\"s2\").vars.counter, vars.counter)";

/// A canister directory holding copies of `growth1..3` (eop) as `s1`, `s2`, `s3`.
fn canister() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for n in 1..=3 {
        let stage = common::fixture(&format!("growth{n}"), "eop");
        common::copy_snapshot(&stage, &dir.path().join(format!("s{n}")));
    }
    dir
}

/// `var` of the growth stage `n` as the canister's own `debug_show` printed it.
fn expected(n: u32, var: &str) -> String {
    let dir: PathBuf = common::fixture(&format!("growth{n}"), "eop");
    let text = std::fs::read_to_string(dir.join("expected.json")).unwrap();
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    v["vars"][var].as_str().unwrap().to_string()
}

/// What `SCRIPT` answers over `s3`, from the fixtures' own records.
fn expected_answer() -> String {
    format!(
        "([\"s1\", \"s2\"], {}, {}, {})\n",
        expected(1, "counter"),
        expected(2, "counter"),
        expected(3, "counter")
    )
}

fn eval(snapshot: &Path, script: &str) -> String {
    String::from_utf8(common::mo_mem_ok(&[
        "eval",
        snapshot.to_str().unwrap(),
        script,
    ]))
    .unwrap()
}

/// `mo-mem repl SNAPSHOT` with `input` on its standard input: (success, stdout, stderr).
fn repl(snapshot: &Path, input: &str) -> (bool, String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_mo-mem"))
        .args(["repl", snapshot.to_str().unwrap()])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let o = child.wait_with_output().unwrap();
    (
        o.status.success(),
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

#[test]
fn repl_binds_the_other_snapshots_as_eval_does() {
    let canister = canister();
    let s3 = canister.path().join("s3");
    let answer = eval(&s3, SCRIPT);
    assert_eq!(answer, expected_answer());
    // a definition over an older snapshot persists to the next input, as any other
    let (ok, out, err) = repl(
        &s3,
        &format!("{SCRIPT}\nlet old = snapshots.open(\"s1\");\nold.vars.counter == vars.counter\n"),
    );
    assert!(ok, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], answer.trim_end(), "{out}");
    assert_eq!(
        lines[2],
        (expected(1, "counter") == expected(3, "counter")).to_string(),
        "{out}"
    );
    // a path is not a name: refused as in eval
    let (_, out, err) = repl(&s3, "snapshots.open(\"../s1\")\n");
    assert!(
        format!("{out}{err}").contains("no snapshot \"../s1\""),
        "{out}{err}"
    );
}

#[test]
fn the_mount_eval_file_binds_the_other_snapshots_as_eval_does() {
    if !fuse_available() {
        return;
    }
    let canister = canister();
    let s3 = canister.path().join("s3");
    let answer = eval(&s3, SCRIPT);
    assert_eq!(answer, expected_answer());
    let mount = Mounted::start(&[&s3]);
    let eval_file = mount.only_snapshot().join("eval");
    let o = in_new_session(
        &format!(
            "echo '{SCRIPT}' > \"$1\"; cat \"$1\"; \
             echo 'snapshots.open(\"../s1\")' > \"$1\"; cat \"$1\""
        ),
        &eval_file,
    )
    .wait_with_output()
    .unwrap();
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(
        out.starts_with(&answer),
        "{out}{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(out.contains("no snapshot \"../s1\""), "{out}");
}
