//! Concurrent jobs of one shell writing and reading `eval` files of a real mount (issue 32):
//! background subshells (the script written by an external `cat` or by the shell's `echo`),
//! `xargs -P 8`, `sh -c` per job, and handles that write then read, in random order over one
//! and two snapshots. Every job reads its own answer, never another's; two equally near
//! requests and a replaced request are clear errors (docs/mount.md, "Whose answer a read gets").

use crate::common;
use crate::mount_support::{fuse_available, Mounted, BIN};

use std::io::{Seek, SeekFrom, Write};
use std::os::unix::fs::FileExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// Mounts the `compound` and `scalars` fixtures (EOP) with room for every job's script to
/// run at once (no "busy" answers); their two `eval` files.
fn mount_two() -> (Mounted, [PathBuf; 2]) {
    let snaps = [
        common::fixture("compound", "eop"),
        common::fixture("scalars", "eop"),
    ];
    let mut command = Command::new(BIN);
    command.env("MO_MEM_LOG", "warn");
    let args = [
        snaps[0].to_str().unwrap(),
        snaps[1].to_str().unwrap(),
        "--max-evals",
        "32",
    ];
    let mount = Mounted::start_command(command, &args);
    let mut evals: Vec<PathBuf> = std::fs::read_dir(&mount.mountpoint)
        .unwrap()
        .map(|e| e.unwrap().path().join("eval"))
        .collect();
    evals.sort();
    assert_eq!(evals.len(), 2, "{evals:?}");
    let evals = [evals[0].clone(), evals[1].clone()];
    (mount, evals)
}

/// Job `i`'s script: a loop of a job-dependent length (so jobs overlap in varied ways), then
/// a text that names the job.
fn script(i: usize, spin: u32) -> String {
    format!("var i = 0; while (i < {spin}) {{ i += 1 }}; \"job-{i}\"")
}

/// What job `i` must read.
fn answer(i: usize) -> String {
    format!("\"job-{i}\"\n")
}

/// The ways a shell runs concurrent jobs; each reads `$W/jobs` (lines `i EVAL`) and leaves
/// job i's output in `$W/o$i`, its errors in `$W/err$i` and the reader's status in `$W/rc$i`.
const SHAPES: [(&str, &str); 4] = [
    (
        "background subshells, script written by cat",
        r#"while read -r i e; do
  ( cat "$W/s$i.mo" > "$e"; cat "$e" > "$W/o$i" 2> "$W/err$i"; echo $? > "$W/rc$i" ) &
done < "$W/jobs"; wait"#,
    ),
    (
        "background subshells, script written by the shell's echo",
        r#"while read -r i e; do
  ( IFS= read -r l < "$W/s$i.mo"; echo "$l" > "$e"; cat "$e" > "$W/o$i" 2> "$W/err$i"; echo $? > "$W/rc$i" ) &
done < "$W/jobs"; wait"#,
    ),
    (
        "xargs -P 8, sh -c per job",
        r#"xargs -P 8 -L 1 sh -c 'cat "$W/s$0.mo" > "$1"; cat "$1" > "$W/o$0" 2> "$W/err$0"; echo $? > "$W/rc$0"' < "$W/jobs""#,
    ),
    (
        "sh -c per job in the background, echo then exec cat",
        r#"while read -r i e; do
  sh -c 'IFS= read -r l < "$W/s$0.mo"; echo "$l" > "$1"; exec cat "$1" > "$W/o$0" 2> "$W/err$0"' "$i" "$e" &
  echo "$! $i" >> "$W/pids"
done < "$W/jobs"
while read -r p i; do wait "$p"; echo $? > "$W/rc$i"; done < "$W/pids""#,
    ),
];

/// Runs `shape` over the jobs in `order`, job i writing `scripts[i]` to `files[i %
/// files.len()]`; each job's output and the reader's exit status.
fn run_shape(
    shape: &str,
    files: &[PathBuf],
    order: &[usize],
    scripts: &[String],
) -> Vec<(String, i32)> {
    let work = tempfile::tempdir().unwrap();
    let w = work.path();
    let mut jobs = String::new();
    for &i in order {
        std::fs::write(w.join(format!("s{i}.mo")), &scripts[i]).unwrap();
        let file = &files[i % files.len()];
        jobs.push_str(&format!("{i} {}\n", file.display()));
    }
    std::fs::write(w.join("jobs"), jobs).unwrap();
    let out = Command::new("sh")
        .args(["-c", shape])
        .env("W", w)
        .output()
        .unwrap();
    assert!(out.status.success(), "{shape}: {out:?}");
    (0..order.len())
        .map(|i| {
            let read = |name: String| std::fs::read_to_string(w.join(name)).unwrap_or_default();
            let rc = read(format!("rc{i}")).trim().parse().unwrap_or(-1);
            (read(format!("o{i}")) + &read(format!("err{i}")), rc)
        })
        .collect()
}

#[test]
fn concurrent_jobs_of_one_shell_each_read_their_own_answer() {
    if !fuse_available() {
        return;
    }
    let (mount, evals) = mount_two();
    let jobs = 12;
    let mut rng = fastrand::Rng::with_seed(32);
    for (name, shape) in SHAPES {
        for round in 0..4 {
            let mut order: Vec<usize> = (0..jobs).collect();
            rng.shuffle(&mut order);
            let scripts: Vec<String> = (0..jobs).map(|i| script(i, rng.u32(0..20_000))).collect();
            let targets = if round % 2 == 0 {
                &evals[..]
            } else {
                &evals[..1]
            };
            for (i, (output, rc)) in run_shape(shape, targets, &order, &scripts)
                .into_iter()
                .enumerate()
            {
                assert_eq!(
                    (output.as_str(), rc),
                    (answer(i).as_str(), 0),
                    "{name}, round {round}, job {i} (order {order:?}); log: {}",
                    mount.log_text()
                );
            }
        }
    }
}

#[test]
fn handles_that_write_then_read_get_their_own_answer_from_many_threads() {
    if !fuse_available() {
        return;
    }
    let (_mount, evals) = mount_two();
    let threads: Vec<_> = (0..16)
        .map(|i| {
            let eval = evals[i % 2].clone();
            std::thread::spawn(move || {
                let mut file = std::fs::OpenOptions::new()
                    .read(true)
                    .write(true)
                    .open(&eval)
                    .unwrap();
                file.write_all(script(i, (i as u32) * 1000).as_bytes())
                    .unwrap();
                file.flush().unwrap();
                file.seek(SeekFrom::Start(0)).unwrap();
                let mut buf = vec![0u8; 4096];
                let n = file.read_at(&mut buf, 0).unwrap();
                String::from_utf8_lossy(&buf[..n]).into_owned()
            })
        })
        .collect();
    for (i, t) in threads.into_iter().enumerate() {
        assert_eq!(t.join().unwrap(), answer(i), "thread {i}");
    }
}

/// Runs `sh -c script` with `$E` the eval file and `$W` a scratch directory; its output.
fn sh(script: &str, eval: &Path, w: &Path) -> Output {
    Command::new("sh")
        .args(["-c", script])
        .env("E", eval)
        .env("W", w)
        .output()
        .unwrap()
}

/// Two writers still running, then waiting for `$W/release`: `$W/a` and `$W/b` say they
/// wrote.
const TWO_LIVE_WRITERS: &str = r#"
for x in a b; do
  sh -c 'echo "\"$0\"" > "$E"; touch "$W/$0"; while [ ! -e "$W/release" ]; do sleep 0.05; done' "$x" &
done
while [ ! -e "$W/a" ] || [ ! -e "$W/b" ]; do sleep 0.05; done
touch "$W/release"; wait
cat "$E"; echo "rc=$?"
"#;

#[test]
fn two_equally_near_scripts_are_an_error_naming_both_never_a_guess() {
    if !fuse_available() {
        return;
    }
    let (mount, evals) = mount_two();
    let work = tempfile::tempdir().unwrap();
    let o = sh(TWO_LIVE_WRITERS, &evals[0], work.path());
    let out = String::from_utf8_lossy(&o.stdout);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        out.starts_with("eval: ambiguous: 2 scripts of this terminal session"),
        "{out}{err}"
    );
    assert!(
        out.contains("wrote `\"a\"`") && out.contains("wrote `\"b\"`"),
        "{out}"
    );
    assert!(out.contains("setsid"), "{out}");
    assert!(out.trim_end().ends_with("rc=1"), "{out}");
    assert!(err.contains("Name not unique on network"), "{err}");
    // the shell idiom still works once the shell writes again
    let o = sh(r#"echo '"again"' > "$E"; cat "$E""#, &evals[0], work.path());
    assert_eq!(String::from_utf8_lossy(&o.stdout), "\"again\"\n");
    drop(mount);
}

#[test]
fn a_script_replaced_by_a_live_job_before_it_was_read_is_an_error() {
    if !fuse_available() {
        return;
    }
    let (_mount, evals) = mount_two();
    let work = tempfile::tempdir().unwrap();
    let script = r#"
echo '"mine"' > "$E"
sh -c 'echo "\"theirs\"" > "$E"; touch "$W/wrote"; while [ ! -e "$W/release" ]; do sleep 0.05; done' &
while [ ! -e "$W/wrote" ]; do sleep 0.05; done
cat "$E"; echo "rc=$?"
touch "$W/release"; wait
"#;
    let o = sh(script, &evals[1], work.path());
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(
        out.starts_with("eval: replaced: the script this read belongs with (`\"mine\"`"),
        "{out}"
    );
    assert!(out.contains("by `\"theirs\"`"), "{out}");
    assert!(out.trim_end().ends_with("rc=1"), "{out}");
}

#[test]
fn concurrent_jobs_on_a_methods_file_each_read_their_own_reply() {
    if !fuse_available() {
        return;
    }
    let mut command = Command::new(BIN);
    command.env("MO_MEM_LOG", "warn");
    let snap = common::fixture("weak", "eop");
    let args = [snap.to_str().unwrap(), "--max-evals", "32"];
    let mount = Mounted::start_command(command, &args);
    let checked = mount.only_snapshot().join("methods/checked");
    let mut rng = fastrand::Rng::with_seed(3);
    // `checked(n)` answers `(2n : nat)`: each job's reply names its argument
    let args: Vec<String> = (0..10).map(|i| format!("({i})")).collect();
    for (name, shape) in &SHAPES[..2] {
        for round in 0..2 {
            let mut order: Vec<usize> = (0..args.len()).collect();
            rng.shuffle(&mut order);
            let replies = run_shape(shape, std::slice::from_ref(&checked), &order, &args);
            for (i, reply) in replies.into_iter().enumerate() {
                let want = (format!("({} : nat)\n", 2 * i), 0);
                assert_eq!(
                    reply, want,
                    "{name}, round {round}, job {i} (order {order:?})"
                );
            }
        }
    }
}
