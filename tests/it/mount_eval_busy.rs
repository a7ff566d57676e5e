//! Runaway scripts cannot stall the mount: at most `--max-evals` scripts run at once (each
//! holding a worker thread until its deadline), more get a "busy" answer at once, and `ls`,
//! `cat` and other files keep being served while the scripts run.
//!
//! Nothing here is timed: the daemon logs each slot taken, given back and refused while it
//! holds the count (`vfs::control`), and the test waits for those lines and checks their
//! order. The runaways' deadline is a ceiling ([`HANG`]) that only a hang reaches; the mount
//! is stopped with the runaways still running.

use crate::common;
use crate::mount_support;

use mount_support::{fuse_available, in_new_session, log_count, Mounted, BIN, HANG};
use std::process::{Child, Command, Output};

fn text(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

const RUNAWAY: &str = r#"echo 'var i = 0; loop { i += 1 }' > "$1"; cat "$1""#;
const STARTED: &str = "eval: request started";
const ENDED: &str = "eval: request ended";
const BUSY: &str = "eval: busy, request not run";
const SESSION_BUSY: &str = "eval: busy, this session's previous request still runs";

/// Replays the slot lines of `log` in order: never more than `limit` requests running, and
/// every refusal made while `limit` ran. Returns (requests started, requests refused).
fn replay_slots(log: &str, limit: usize) -> (usize, usize) {
    let (mut running, mut started, mut busy) = (0usize, 0, 0);
    for line in log.lines() {
        if line.contains(STARTED) {
            running += 1;
            started += 1;
            assert!(running <= limit, "{running} requests ran at once:\n{log}");
        } else if line.contains(ENDED) {
            running = running.checked_sub(1).expect("an end without a start");
        } else if line.contains(BUSY) {
            busy += 1;
            assert_eq!(running, limit, "refused while a slot was free:\n{log}");
        }
    }
    (started, busy)
}

/// A mount of `scalars/eop` logging its eval slots, with the eval deadline `timeout` (seconds)
/// and `threads` and `max_evals`; its snapshot's directory.
fn slot_mount(timeout: &str, threads: &str, max_evals: &str) -> (Mounted, std::path::PathBuf) {
    let snap = common::fixture("scalars", "eop");
    let mut command = Command::new(BIN);
    command
        .env("MO_MEM_LOG", "warn,mo_mem::vfs::control=debug")
        .env("MO_MEM_EVAL_TIMEOUT", timeout);
    let args = [
        snap.to_str().unwrap(),
        "--threads",
        threads,
        "--max-evals",
        max_evals,
    ];
    let mount = Mounted::start_command(command, &args);
    let dir = mount.only_snapshot();
    (mount, dir)
}

#[test]
fn runaway_scripts_are_bounded_and_block_nothing_else() {
    if !fuse_available() {
        return;
    }
    let (mut mount, dir) = slot_mount(&HANG.as_secs().to_string(), "4", "2");
    let eval = dir.join("eval");
    let go = tempfile::tempdir().unwrap();
    let go = go.path().join("go");

    // Two runaways take both slots. The first session's shell writes its script, a reader in
    // the background runs it; once the test says so, a second reader of the shell reads the
    // same script while it still runs.
    let first = in_new_session(
        &format!(
            r#"echo 'var i = 0; loop {{ i += 1 }}' > "$1"; cat "$1" > /dev/null 2>&1 & while [ ! -e '{}' ]; do sleep 0.05; done; cat "$1""#,
            go.display()
        ),
        &eval,
    );
    let second = in_new_session(RUNAWAY, &eval);
    mount.wait_for_log("both runaways running", |log| log_count(log, STARTED) == 2);

    // Eight more runaways, each answered "busy" at once (not queued behind the two), and
    // the tree is served while both slots are held.
    let refused: Vec<Child> = (0..8).map(|_| in_new_session(RUNAWAY, &eval)).collect();
    for child in refused {
        let answer = text(&child.wait_with_output().unwrap());
        assert!(answer.starts_with("eval: busy: 2 scripts"), "{answer}");
    }
    for _ in 0..3 {
        assert_eq!(std::fs::read_dir(&mount.mountpoint).unwrap().count(), 1);
        assert!(std::fs::read(dir.join("metadata.json")).is_ok());
        assert!(std::fs::read(dir.join("info.json")).is_ok());
        assert!(std::fs::read_dir(dir.join("vars")).unwrap().count() > 0);
        let o = in_new_session(r#"echo '1 + 1' > "$1"; cat "$1""#, &eval)
            .wait_with_output()
            .unwrap();
        assert!(
            text(&o).starts_with("eval: busy: 2 scripts"),
            "{}",
            text(&o)
        );
    }
    // A session whose script still runs is told so (its request is not run twice).
    std::fs::write(&go, b"").unwrap();
    let first = first.wait_with_output().unwrap();
    assert!(
        text(&first).contains("previous script is still running"),
        "{}",
        text(&first)
    );
    let log = mount.log_text();
    assert_eq!(log_count(&log, SESSION_BUSY), 1, "{log}");
    // Everything above was answered while both runaways ran: no slot was given back yet.
    assert_eq!(log_count(&log, ENDED), 0, "a runaway ended early:\n{log}");
    assert_eq!(replay_slots(&log, 2), (2, 11), "{log}");
    assert!(mount.alive());

    // Stopped with the runaways still running: the daemon exits (Drop checks the status),
    // and the runaway's reader gets an error, not an answer.
    let status = mount.stop();
    assert!(status.success(), "{status}: {}", mount.log_text());
    let second = second.wait_with_output().unwrap();
    assert_eq!(text(&second), "", "{second:?}");
}

/// A runaway holds its slot until its deadline, then gives it back: the next request runs.
#[test]
fn a_runaway_gives_its_slot_back_at_its_deadline() {
    if !fuse_available() {
        return;
    }
    let (mount, dir) = slot_mount("1", "2", "1");
    let eval = dir.join("eval");
    let runaway = in_new_session(RUNAWAY, &eval).wait_with_output().unwrap();
    assert!(text(&runaway).contains("limit"), "{}", text(&runaway));
    // Its answer was read, so its slot is free (given back before the answer is returned).
    let o = in_new_session(r#"echo '1 + 1' > "$1"; cat "$1""#, &eval)
        .wait_with_output()
        .unwrap();
    assert_eq!(text(&o), "2\n");
    let log = mount.log_text();
    assert_eq!(replay_slots(&log, 1), (2, 0), "{log}");
    assert_eq!(log_count(&log, ENDED), 2, "{log}");
}
