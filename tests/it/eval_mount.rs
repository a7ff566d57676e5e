//! The `eval` control file over a real mount of a fixture: answers, rewrites, EINVAL with
//! the error as the answer, per-session answers, and a runaway script that other requests
//! are answered beside (by the daemon's log, not the clock) and that ends at its deadline.

use crate::common;
use crate::mount_support;

use mount_support::{
    fuse_available, in_new_session, log_count, wait_with_deadline, Mounted, BIN, HANG,
};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output};
use std::time::{Duration, Instant};

/// Mounts `snapshot` with an eval deadline of `timeout_secs`.
fn eval_mount(snapshot: &Path, timeout_secs: &str) -> Mounted {
    let mut command = Command::new(BIN);
    command
        .env("MO_MEM_LOG", "warn")
        .env("MO_MEM_EVAL_TIMEOUT", timeout_secs);
    Mounted::start_command(command, &[snapshot])
}

/// The `eval` file of the mount's only snapshot.
fn eval_path(mount: &Mounted) -> PathBuf {
    mount.only_snapshot().join("eval")
}

fn finish(child: Child) -> Output {
    child.wait_with_output().unwrap()
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

#[test]
fn eval_file_semantics() {
    if !fuse_available() {
        return;
    }
    let snap = common::fixture("compound", "eop");
    let mount = eval_mount(&snap, "3");
    let eval = eval_path(&mount);

    // the answer, then a rewrite with a shorter script (no stale bytes)
    let o = finish(in_new_session(
        r#"echo 'vars.let_nat + 1000' > "$1"; cat "$1"; echo 'vars.let_nat' > "$1"; cat "$1""#,
        &eval,
    ));
    assert_eq!(
        stdout(&o),
        "1_007\n7\n",
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );

    // a handle that writes, seeks to 0 and reads gets its own answer; definitions persist
    let o = finish(in_new_session(
        r#"echo 'let k = vars.let_text.size(); k' > "$1"; cat "$1"; echo 'k * 2' > "$1"; cat "$1""#,
        &eval,
    ));
    assert_eq!(stdout(&o), "12\n24\n");

    // a script that does not parse: the write fails with EINVAL, the error is the answer
    let o = finish(in_new_session(
        r#"if /bin/echo 'let = ;' > "$1"; then echo WROTE; else echo FAILED; fi; cat "$1""#,
        &eval,
    ));
    let out = stdout(&o);
    assert!(out.starts_with("FAILED\n"), "{out}");
    assert!(out.contains("syntax error"), "{out}");
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("Invalid argument"),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );

    // JSON on request
    let o = finish(in_new_session(
        "printf '// @json\\nvars.let_record' > \"$1\"; cat \"$1\"",
        &eval,
    ));
    let j: serde_json::Value = serde_json::from_str(&stdout(&o)).expect("json answer");
    assert_eq!(j["value"]["b"], "two");
}

#[test]
fn two_sessions_never_see_each_others_answers() {
    if !fuse_available() {
        return;
    }
    let snap = common::fixture("compound", "copying");
    let mount = eval_mount(&snap, "3");
    let eval = eval_path(&mount);
    let script = |text: &str| {
        format!(r#"for i in 1 2 3 4 5; do echo '"{text}-'$i'"' > "$1"; sleep 0.05; cat "$1"; done"#)
    };
    let a = in_new_session(&script("a"), &eval);
    let b = in_new_session(&script("b"), &eval);
    let (a, b) = (finish(a), finish(b));
    let want = |t: &str| {
        (1..=5)
            .map(|i| format!("\"{t}-{i}\"\n"))
            .collect::<String>()
    };
    assert_eq!(stdout(&a), want("a"));
    assert_eq!(stdout(&b), want("b"));
}

#[test]
fn a_runaway_script_blocks_nothing_while_it_runs() {
    if !fuse_available() {
        return;
    }
    let snap = common::fixture("scalars", "eop");
    // The runaway's deadline is a ceiling only a hang reaches: the test waits for the daemon
    // to log that the script runs, and checks by the log's order that it still ran while
    // the other requests were answered (no clock).
    let mut command = Command::new(BIN);
    command
        .env("MO_MEM_LOG", "warn,mo_mem::vfs::control=debug")
        .env("MO_MEM_EVAL_TIMEOUT", HANG.as_secs().to_string());
    let mut mount = Mounted::start_command(command, &[&snap]);
    let eval = eval_path(&mount);
    let runaway = in_new_session(
        r#"echo 'var i = 0; loop { i += 1 }' > "$1"; cat "$1""#,
        &eval,
    );
    mount.wait_for_log("the runaway running", |log| log_count(log, STARTED) == 1);
    // meanwhile other sessions and other files are served
    let readme = eval.with_file_name("README");
    for _ in 0..3 {
        let o = finish(in_new_session(r#"echo '1 + 1' > "$1"; cat "$1""#, &eval));
        assert_eq!(stdout(&o), "2\n");
        assert!(std::fs::read(&readme).is_ok());
    }
    // Each probe took a slot and gave it back; the runaway's is still held: the probes were
    // answered while it ran, not after it.
    let log = mount.log_text();
    assert_eq!(log_count(&log, STARTED), 4, "{log}");
    assert_eq!(log_count(&log, ENDED), 3, "{log}");
    assert!(mount.alive());
    // Stopped with the runaway still running: the daemon exits cleanly, its reader fails.
    let status = mount.stop();
    assert!(status.success(), "{status}: {}", mount.log_text());
    assert_eq!(stdout(&finish(runaway)), "");
}

#[test]
fn a_runaway_script_ends_at_its_deadline() {
    if !fuse_available() {
        return;
    }
    let snap = common::fixture("scalars", "eop");
    // A deadline cannot fire early, however loaded the machine: the answer comes no sooner.
    let deadline = Duration::from_secs(2);
    let mount = eval_mount(&snap, &deadline.as_secs().to_string());
    let eval = eval_path(&mount);
    let started = Instant::now();
    let mut runaway = in_new_session(
        r#"echo 'var i = 0; loop { i += 1 }' > "$1"; cat "$1""#,
        &eval,
    );
    wait_with_deadline(&mut runaway, HANG);
    let text = stdout(&finish(runaway));
    assert!(
        text.starts_with("eval:") && text.contains("deadline exceeded (2s"),
        "{text}"
    );
    assert!(started.elapsed() >= deadline);
    // the mount answers the next script of the same file
    let o = finish(in_new_session(r#"echo '1 + 1' > "$1"; cat "$1""#, &eval));
    assert_eq!(stdout(&o), "2\n");
}

const STARTED: &str = "eval: request started";
const ENDED: &str = "eval: request ended";

/// The `eval` file of the snapshot directory whose name contains `part`.
fn eval_of(mount: &Mounted, part: &str) -> PathBuf {
    std::fs::read_dir(&mount.mountpoint)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .find(|p| p.file_name().unwrap().to_string_lossy().contains(part))
        .unwrap_or_else(|| panic!("no snapshot directory named like {part}"))
        .join("eval")
}

#[test]
fn adversarial_scripts_end_within_the_limits_and_the_mount_keeps_serving() {
    if !fuse_available() {
        return;
    }
    let compound = common::fixture("compound", "eop");
    let scalars = common::fixture("scalars", "eop");
    let mut command = Command::new(BIN);
    command
        .env("MO_MEM_LOG", "warn")
        .env("MO_MEM_EVAL_TIMEOUT", "5");
    let mut mount = Mounted::start_command(command, &[&compound, &scalars]);
    let eval = eval_of(&mount, "compound");
    let dir = std::env::temp_dir().join(format!("mo-mem-adversarial-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let write_script = |name: &str, text: String| {
        let p = dir.join(name);
        std::fs::write(&p, text).unwrap();
        p
    };
    let run = |script: &Path| {
        let o = finish(in_new_session(
            &format!("cat '{}' > \"$1\"; cat \"$1\"", script.display()),
            &eval,
        ));
        stdout(&o)
    };
    // a recursive variant through five tuples: grew the daemon to 24 GB before
    let cases: String = (0..5).map(|i| format!("; #c{i} : (T, T)")).collect();
    let typed = write_script(
        "typed.mo",
        format!("type T = {{ #leaf : Int{cases} }}; let t : T = #c2(#leaf 1, #leaf 2); t\n"),
    );
    assert_eq!(run(&typed), "#c2(#leaf(+1), #leaf(+2))\n");
    // an or-pattern of 100,000 alternatives overflowed the evaluation thread's stack
    let alts = (0..100_000)
        .map(|i| i.to_string())
        .collect::<Vec<_>>()
        .join(" or ");
    let wide = write_script(
        "wide.mo",
        format!("switch (5) {{ case ({alts}) 1; case _ 0 }}\n"),
    );
    let answer = run(&wide);
    assert!(
        answer.contains("more than 4096 alternatives in one pattern"),
        "{answer}"
    );
    // a deep value converted at an annotation stops at a limit, it does not crash the daemon
    let deep = write_script(
        "deep.mo",
        "type L = ?(Int, L); type N = ?(Nat, N); var l : N = null; var i = 0;
         while (i < 2_000_000) { l := ?(i, l); i += 1 };
         let m : L = l; 0\n"
            .to_string(),
    );
    let answer = run(&deep);
    assert!(answer.contains("limit exceeded"), "{answer}");
    // the daemon is alive, serves the other snapshot and answers the same eval file
    assert!(mount.alive(), "the daemon died");
    let other = eval_of(&mount, "scalars").with_file_name("info.json");
    let info: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&other).expect("info.json")).expect("json");
    assert!(
        info["objects"]["objects"].as_u64().is_some_and(|n| n > 0),
        "{info}"
    );
    let o = finish(in_new_session(r#"echo '1 + 1' > "$1"; cat "$1""#, &eval));
    assert_eq!(stdout(&o), "2\n");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Overwrites the header of the object stable variable `var` of the snapshot in `dir`
/// points to with a tag no object has.
fn corrupt_object_of(dir: &Path, var: &str) {
    let opened = mo_mem::analysis::OpenedHeap::open(dir).expect("fixture opens");
    let sig = opened.signature().expect("signature");
    let vars = mo_mem::heap::value::stable_variables(opened.heap(), sig).expect("variables");
    let word = vars
        .iter()
        .find(|v| &*v.name == var)
        .expect("variable")
        .value
        .word;
    let addr = opened.heap().pointer(word).expect("a pointer") as usize;
    drop(opened);
    let memory = dir.join("wasm_memory.bin");
    let mut bytes = std::fs::read(&memory).unwrap();
    bytes[addr..addr + 8].fill(0xff);
    std::fs::write(&memory, bytes).unwrap();
}

/// Writes `script` into `eval` and reads the answer: the text, or the read's errno.
fn ask(eval: &Path, script: &str) -> Result<String, i32> {
    std::fs::write(eval, script).unwrap();
    match std::fs::read(eval) {
        Ok(answer) => Ok(String::from_utf8_lossy(&answer).into_owned()),
        Err(e) => Err(e.raw_os_error().unwrap_or(0)),
    }
}

/// The reason `mo-mem eval` gives for `script` over `snapshot` (after the location).
fn cli_reason(snapshot: &Path, script: &str) -> String {
    let out = Command::new(BIN)
        .args(["eval", "--max-value-size", "32"])
        .arg(snapshot)
        .arg(script)
        .output()
        .unwrap();
    assert!(!out.status.success(), "{script} succeeded");
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    let (_, reason) = err
        .split_once("execution error, ")
        .unwrap_or_else(|| panic!("{err}"));
    reason.trim_end().to_string()
}

#[test]
fn a_script_stopped_by_a_limit_or_by_corrupt_data_fails_its_read_with_that_errno() {
    if !fuse_available() {
        return;
    }
    let root = tempfile::tempdir().unwrap();
    let (fine, corrupt) = (root.path().join("fine"), root.path().join("corrupt"));
    common::copy_snapshot(&common::fixture("compound", "eop"), &fine);
    common::copy_snapshot(&fine, &corrupt);
    corrupt_object_of(&corrupt, "let_text");
    let mut command = Command::new(BIN);
    command.env("MO_MEM_LOG", "warn");
    let args = [
        "--max-value-size".as_ref(),
        "32".as_ref(),
        fine.as_os_str(),
        corrupt.as_os_str(),
    ];
    let mount = Mounted::start_command(command, &args);
    let (fine_eval, corrupt_eval) = (mount.path("fine/eval"), mount.path("corrupt/eval"));
    // what the snapshot holds, within the limits, is answered
    assert_eq!(
        ask(&fine_eval, "vars.let_text"),
        Ok("\"a stable let\"\n".into())
    );
    // a value over the reader's limit (a blob over --max-value-size): EFBIG
    let limit = "vars.blob_bytes";
    assert_eq!(ask(&fine_eval, limit), Err(libc::EFBIG));
    let reason = cli_reason(&fine, limit);
    assert!(
        reason.contains("maximum text/blob bytes exceeded (32)"),
        "{reason}"
    );
    // corrupt data where the value lives: EUCLEAN
    let corrupted = "vars.let_text";
    assert_eq!(ask(&corrupt_eval, corrupted), Err(libc::EUCLEAN));
    let corrupt_reason = cli_reason(&corrupt, corrupted);
    assert!(
        corrupt_reason.starts_with("stable variable `let_text`: "),
        "{corrupt_reason}"
    );
    // after the failed read, the session reads why, as `mo-mem eval` says it and the mount logs it
    for (eval, reason) in [(&fine_eval, &reason), (&corrupt_eval, &corrupt_reason)] {
        let answer = String::from_utf8(std::fs::read(eval).unwrap()).unwrap();
        assert!(answer.starts_with("eval:1.1-"), "{answer}");
        assert!(
            answer.ends_with(&format!("execution error, {reason}\n")),
            "{answer}"
        );
        assert!(
            mount.log_text().contains(reason.as_str()),
            "{}",
            mount.log_text()
        );
    }
    // the script's own misuse of a host value (an address outside the image) is its answer
    let misuse = ask(&corrupt_eval, "image.loadNat8(1_000_000_000_000)").expect("an answer");
    assert!(
        misuse.contains(
            "execution error, image: read of 1 bytes at 0xe8d4a51000 is outside the image"
        ),
        "{misuse}"
    );
    // the rest of the corrupt snapshot is still read
    assert_eq!(ask(&corrupt_eval, "vars.let_nat"), Ok("7\n".into()));
}
