//! Pull faults against the in-process emulator: the `mo-mem pull` child SIGKILLed at seeded
//! random points (after a slice read, or after a random delay, which also lands in the
//! checks and the manifest write) and run again; and a full disk (a small tmpfs) during a
//! pull. Never a complete-looking snapshot with wrong bytes; a later pull resumes.

use crate::common::skip;
use crate::emulator;

use crate::emulator_harness::cli::{controller, output_text as text, same_bytes, CliEnv};
use candid::Principal;
use emulator::{Data, Emulator};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// The seed of the kill points (printed, so a failure can be replayed).
const SEED: u64 = 0x6d6f2d6d656d;

/// The served emulator and the child's home, with this test's pull arguments.
struct Env {
    cli: CliEnv,
}

impl Env {
    /// `mo-mem ARGS`, its output captured.
    fn cmd(&self, args: &[&str]) -> Command {
        let mut c = self.cli.cmd(args);
        c.stdout(Stdio::piped()).stderr(Stdio::piped());
        c
    }

    fn pull_args(&self, cid: &str, store: &Path) -> Vec<String> {
        [
            "pull",
            "--network",
            &self.cli.url,
            "--canister",
            cid,
            "--store",
            store.to_str().unwrap(),
            "--identity",
            self.cli.pem.to_str().unwrap(),
            "--slice-size",
            "200000",
            "--concurrency",
            "2",
            "--json",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect()
    }

    async fn run(&self, args: &[String]) -> Output {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let mut c = self.cmd(&args);
        tokio::task::spawn_blocking(move || c.output().unwrap())
            .await
            .unwrap()
    }
}

/// A canister with 40 pages of main memory, 4 of stable memory and one chunk.
fn canister(emu: &Emulator) -> Principal {
    let mut module = b"\0asm\x01\0\0\0".to_vec();
    module.extend(std::iter::repeat_n(0x42, 5000));
    let mut c = Emulator::simple_canister(
        controller(),
        module,
        Data::Pattern {
            seed: 11,
            len: 65_536 * 40,
        },
        Data::Pattern {
            seed: 12,
            len: 65_536 * 4,
        },
    );
    c.chunks = vec![vec![7, 8, 9]];
    let cid = emu.install(c);
    emu.take_direct(cid, None);
    cid
}

async fn start(emu: &Emulator) -> (Env, tokio::task::JoinHandle<()>) {
    let (cli, server) = CliEnv::serve(emu).await;
    (Env { cli }, server)
}

/// The one snapshot directory (complete or not) of `cid` in `store`, if any.
fn snapshot_dir(store: &Path, cid: &str) -> Option<PathBuf> {
    let dirs: Vec<PathBuf> = std::fs::read_dir(store.join(cid))
        .ok()?
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_dir())
        .collect();
    assert!(dirs.len() <= 1, "one snapshot, one directory: {dirs:?}");
    dirs.into_iter().next()
}

/// The invariant after any interruption: a snapshot that looks complete (a manifest, no
/// pull state) has exactly the emulator's bytes.
fn check_never_wrong_and_complete(emu: &Emulator, cid: Principal, store: &Path) -> bool {
    let Some(dir) = snapshot_dir(store, &cid.to_text()) else {
        return false;
    };
    let complete = dir.join("manifest.json").exists() && !dir.join(".pull_state.json").exists();
    if complete {
        if let Err(e) = same_bytes(emu, cid, &dir) {
            panic!("complete-looking snapshot with wrong bytes: {e}");
        }
    } else if let Ok(snapshot) = mo_mem::snapshot::Snapshot::open(&dir) {
        // Named by path, outside the default store: only the download check stands between
        // an interrupted pull and a reader.
        panic!(
            "an interrupted pull opens as a finished snapshot: {}",
            snapshot.path().display()
        );
    }
    complete
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pull_killed_at_random_points_resumes_and_is_never_wrong() {
    let emu = Emulator::new();
    let cid = canister(&emu);
    let (env, server) = start(&emu).await;
    let store = env.cli.tmp.path().join("store");
    let args = env.pull_args(&cid.to_text(), &store);
    let mut rng = fastrand::Rng::with_seed(SEED);
    eprintln!("seed {SEED:#x}");
    let mut kills = 0;
    for round in 0..6 {
        let pid = Arc::new(AtomicU32::new(0));
        let by_slice = round % 2 == 0;
        if by_slice {
            // Kill once some (random) number of further slices were served.
            let at = emu.stats.slice_reads.load(Ordering::Relaxed) + rng.u64(1..8);
            let p = pid.clone();
            emu.set_slice_hook(Some(Arc::new(move |n, _| {
                if n >= at {
                    let child = p.swap(0, Ordering::SeqCst);
                    if child != 0 {
                        // SAFETY: sending a signal to the child this test started.
                        unsafe { libc::kill(child as i32, libc::SIGKILL) };
                    }
                }
            })));
        }
        let str_args: Vec<&str> = args.iter().map(String::as_str).collect();
        let mut child = env.cmd(&str_args).spawn().unwrap();
        pid.store(child.id(), Ordering::SeqCst);
        if !by_slice {
            let delay = Duration::from_millis(rng.u64(50..1500));
            let p = pid.clone();
            std::thread::spawn(move || {
                std::thread::sleep(delay);
                let child = p.swap(0, Ordering::SeqCst);
                if child != 0 {
                    // SAFETY: sending a signal to the child this test started.
                    unsafe { libc::kill(child as i32, libc::SIGKILL) };
                }
            });
        }
        let status = tokio::task::spawn_blocking(move || child.wait().unwrap())
            .await
            .unwrap();
        pid.store(0, Ordering::SeqCst);
        emu.set_slice_hook(None);
        if !status.success() {
            kills += 1;
        }
        let complete = check_never_wrong_and_complete(&emu, cid, &store);
        eprintln!("round {round}: exit {status:?}, complete {complete}");
        if complete {
            break;
        }
    }
    assert!(kills > 0, "at least one pull was killed");

    // Run again without interruption: it completes (or finds the snapshot complete).
    let out = env.run(&args).await;
    assert!(out.status.success(), "{}", text(&out));
    let dir = snapshot_dir(&store, &cid.to_text()).unwrap();
    same_bytes(&emu, cid, &dir).unwrap();
    assert!(dir.join("manifest.json").exists());
    assert!(!dir.join(".pull_state.json").exists());
    let str_args = ["verify", "--store", store.to_str().unwrap()];
    let out = env.run(&str_args.map(String::from)).await;
    assert!(out.status.success(), "{}", text(&out));
    server.abort();
}

/// Mounts a tmpfs of `size` at `dir` (root only).
fn mount_tmpfs(dir: &Path, size: &str, remount: bool) -> bool {
    let mut options = format!("size={size},mode=0700");
    if remount {
        options = format!("remount,{options}");
    }
    Command::new("mount")
        .args(["-t", "tmpfs", "-o", &options, "tmpfs"])
        .arg(dir)
        .status()
        .is_ok_and(|s| s.success())
}

struct Tmpfs(PathBuf);

impl Drop for Tmpfs {
    fn drop(&mut self) {
        let _ = Command::new("umount").arg(&self.0).status();
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn full_disk_during_pull_is_a_clear_error_and_resumes_later() {
    // SAFETY: geteuid has no preconditions.
    if unsafe { libc::geteuid() } != 0 {
        skip::skipped("full_disk_during_pull: mounting a small tmpfs needs root (CI runs as root)");
        return;
    }
    let emu = Emulator::new();
    let cid = canister(&emu);
    let (env, server) = start(&emu).await;
    let disk = env.cli.tmp.path().join("disk");
    std::fs::create_dir(&disk).unwrap();
    if !mount_tmpfs(&disk, "1m", false) {
        skip::skipped(
            "full_disk_during_pull: `mount -t tmpfs` failed (no privilege to mount here)",
        );
        return;
    }
    let _tmpfs = Tmpfs(disk.clone());
    let store = disk.join("store");
    let args = env.pull_args(&cid.to_text(), &store);

    // 1 MiB cannot hold 2.9 MB of snapshot.
    let out = env.run(&args).await;
    assert!(!out.status.success(), "{}", text(&out));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("No space left on device") && stderr.contains("resume"),
        "a clear error: {stderr}"
    );
    let dir = snapshot_dir(&store, &cid.to_text()).expect("the partial pull is kept");
    assert!(
        !dir.join("manifest.json").exists(),
        "nothing marked complete"
    );
    assert!(!check_never_wrong_and_complete(&emu, cid, &store));

    // With space, the same command resumes and completes.
    assert!(mount_tmpfs(&disk, "16m", true), "remount bigger");
    let out = env.run(&args).await;
    assert!(out.status.success(), "{}", text(&out));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["resumed"], true, "{}", text(&out));
    same_bytes(&emu, cid, &dir).unwrap();
    assert!(dir.join("manifest.json").exists());
    server.abort();
}
