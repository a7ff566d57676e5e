//! Runaway scripts cannot stall the mount: at most `--max-evals` scripts run at once (each
//! holding a worker thread until its deadline), more get a "busy" answer at once, and `ls`,
//! `cat` and other files keep being served while the scripts run.

use crate::common;
use crate::faults_support;

use faults_support::{fuse_available, in_new_session, Mount, BIN};
use std::process::{Child, Command, Output};
use std::time::{Duration, Instant};

fn text(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

const RUNAWAY: &str = r#"echo 'var i = 0; loop { i += 1 }' > "$1"; cat "$1""#;

#[test]
fn runaway_scripts_are_bounded_and_block_nothing_else() {
    if !fuse_available() {
        return;
    }
    let snap = common::fixture("scalars", "eop");
    let mut command = Command::new(BIN);
    command
        .env("MO_MEM_LOG", "warn")
        .env("MO_MEM_EVAL_TIMEOUT", "5");
    let mut mount = Mount::start_command(
        command,
        &[snap.to_str().unwrap(), "--threads", "4", "--max-evals", "2"],
    );
    let name = std::fs::read_dir(&mount.mountpoint)
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .file_name();
    let dir = mount.mountpoint.join(name);
    let eval = dir.join("eval");

    // Ten runaway scripts in ten sessions: two run to the 5 s deadline, eight are busy.
    let started = Instant::now();
    let runaways: Vec<Child> = (0..10).map(|_| in_new_session(RUNAWAY, &eval)).collect();
    std::thread::sleep(Duration::from_millis(500));
    // A "busy" answer is given only while both slots hold a runaway, so every request made
    // before it (the listings and reads of its round and of the rounds before) was served
    // while the scripts ran: an order, not a wall-clock bound that a loaded machine breaks.
    let mut busy_rounds = 0;
    for _ in 0..5 {
        assert!(std::fs::read_dir(&mount.mountpoint).unwrap().count() == 1);
        assert!(std::fs::read(dir.join("metadata.json")).is_ok());
        assert!(std::fs::read(dir.join("info.json")).is_ok());
        assert!(std::fs::read_dir(dir.join("vars")).is_ok());
        let o = in_new_session(r#"echo '1 + 1' > "$1"; cat "$1""#, &eval)
            .wait_with_output()
            .unwrap();
        let answer = text(&o);
        assert!(
            answer.contains("eval: busy") || answer == "2\n",
            "busy while the slots are full: {answer}"
        );
        busy_rounds += usize::from(answer.contains("eval: busy"));
    }
    assert!(
        busy_rounds > 0,
        "the mount was stalled by running scripts: no request was answered while they ran"
    );
    let outputs: Vec<String> = runaways
        .into_iter()
        .map(|c| text(&c.wait_with_output().unwrap()))
        .collect();
    assert!(started.elapsed() >= Duration::from_secs(5));
    let ran = outputs.iter().filter(|o| o.contains("limit")).count();
    let busy = outputs.iter().filter(|o| o.contains("eval: busy")).count();
    assert_eq!((ran, busy), (2, 8), "{outputs:#?}");

    // The slots are free again; a second reader of a script that runs is told it still runs
    // (the shell wrote it; its first reader, in the background, runs it).
    let o = in_new_session(r#"echo '1 + 1' > "$1"; cat "$1""#, &eval)
        .wait_with_output()
        .unwrap();
    assert_eq!(text(&o), "2\n");
    let o = in_new_session(
        r#"echo 'var i = 0; loop { i += 1 }' > "$1"; cat "$1" > /dev/null & sleep 0.5; cat "$1"; wait"#,
        &eval,
    )
    .wait_with_output()
    .unwrap();
    assert!(
        text(&o).contains("previous script is still running"),
        "{}",
        text(&o)
    );
    assert!(mount.alive());
}
