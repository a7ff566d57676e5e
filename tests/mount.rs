//! The mount, for real: every file's stat size equals the bytes read, JSON parses,
//! `mo-mem ls/cat` match the mount, writes fail with the documented errno, concurrent
//! readers, `grep -r`, and clean unmounts on SIGTERM and `fusermount3 -u`.

use std::io::{Read, Write};
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_mo-mem");

/// Whether this machine can mount FUSE file systems (CI installs fuse3).
fn fuse_available() -> bool {
    let ok =
        Path::new("/dev/fuse").exists() && Command::new("fusermount3").arg("-V").output().is_ok();
    if !ok {
        eprintln!("SKIPPED: no /dev/fuse or fusermount3 on this machine");
    }
    ok
}

fn is_mounted(mountpoint: &Path) -> bool {
    let mounts = std::fs::read_to_string("/proc/self/mountinfo").unwrap_or_default();
    let target = mountpoint.to_string_lossy();
    mounts
        .lines()
        .any(|l| l.split(' ').nth(4) == Some(&*target))
}

/// A running `mo-mem mount`, unmounted (and checked) on drop.
struct Mounted {
    child: Option<Child>,
    mountpoint: PathBuf,
    _dir: tempfile::TempDir,
}

impl Mounted {
    fn start(sources: &[&Path]) -> Mounted {
        let dir = tempfile::tempdir().unwrap();
        let mountpoint = dir.path().join("mnt").canonicalize().unwrap_or_else(|_| {
            std::fs::create_dir(dir.path().join("mnt")).unwrap();
            dir.path().join("mnt").canonicalize().unwrap()
        });
        let child = Command::new(BIN)
            .arg("mount")
            .args(sources)
            .arg(&mountpoint)
            .env("MO_MEM_LOG", "warn")
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let deadline = Instant::now() + Duration::from_secs(20);
        while !is_mounted(&mountpoint) {
            assert!(Instant::now() < deadline, "mount did not appear");
            std::thread::sleep(Duration::from_millis(20));
        }
        Mounted {
            child: Some(child),
            mountpoint,
            _dir: dir,
        }
    }

    fn path(&self, rel: &str) -> PathBuf {
        self.mountpoint.join(rel)
    }

    /// Sends SIGTERM and waits for the exit; returns how the daemon exited.
    fn stop(&mut self) -> std::process::ExitStatus {
        let mut child = self.child.take().unwrap();
        // SAFETY: kill(2) on our own child's pid.
        unsafe { libc::kill(child.id() as i32, libc::SIGTERM) };
        wait_with_deadline(&mut child, Duration::from_secs(10))
    }
}

fn wait_with_deadline(child: &mut Child, limit: Duration) -> std::process::ExitStatus {
    let deadline = Instant::now() + limit;
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return status;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("mo-mem mount did not exit in {limit:?}");
        }
        std::thread::sleep(Duration::from_millis(10));
    }
}

impl Drop for Mounted {
    fn drop(&mut self) {
        if self.child.is_some() {
            let status = self.stop();
            if !std::thread::panicking() {
                assert!(status.success(), "daemon exit status {status}");
            }
        }
        if is_mounted(&self.mountpoint) {
            let _ = Command::new("fusermount3")
                .args(["-u", "-z"])
                .arg(&self.mountpoint)
                .status();
            if !std::thread::panicking() {
                panic!("stale mount left at {}", self.mountpoint.display());
            }
        }
    }
}

/// A snapshot directory with raw files only (a deterministic byte pattern).
fn raw_snapshot(root: &Path, name: &str, memory: usize) -> PathBuf {
    let dir = root.join(name);
    std::fs::create_dir_all(&dir).unwrap();
    let bytes: Vec<u8> = (0..memory).map(|i| (i * 7 + i / 4096) as u8).collect();
    std::fs::write(dir.join("wasm_memory.bin"), bytes).unwrap();
    std::fs::write(dir.join("stable_memory.bin"), b"stable bytes").unwrap();
    std::fs::write(dir.join("wasm_module.bin"), b"\0asm\x01\0\0\0").unwrap();
    std::fs::write(
        dir.join("metadata.json"),
        b"{\"taken_at_timestamp\": 1700000000000000000}\n",
    )
    .unwrap();
    dir
}

/// Every file under `dir` (not following symlinks), skipping control files.
fn files_under(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for path in entries {
        let meta = std::fs::symlink_metadata(&path).unwrap();
        if meta.is_dir() {
            files_under(&path, out);
        } else if meta.is_file() && path.file_name().is_some_and(|n| n != "eval") {
            out.push(path);
        }
    }
}

#[test]
fn stat_size_equals_bytes_read_and_json_parses() {
    if !fuse_available() {
        return;
    }
    let src = tempfile::tempdir().unwrap();
    raw_snapshot(src.path(), "one", 3 << 20);
    raw_snapshot(src.path(), "two", 12345);
    let mount = Mounted::start(&[src.path()]);
    let mut files = Vec::new();
    files_under(&mount.mountpoint, &mut files);
    assert!(files.len() >= 10, "{files:?}");
    for file in &files {
        let size = std::fs::metadata(file).unwrap().len();
        let bytes = std::fs::read(file).unwrap();
        assert_eq!(size, bytes.len() as u64, "{}", file.display());
        if file.extension().is_some_and(|e| e == "json") {
            serde_json::from_slice::<serde_json::Value>(&bytes)
                .unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        }
    }
    let raw = std::fs::read(mount.path("one/wasm_memory.bin")).unwrap();
    assert_eq!(
        raw,
        std::fs::read(src.path().join("one/wasm_memory.bin")).unwrap()
    );
}

#[test]
fn ls_and_cat_print_what_the_mount_shows() {
    if !fuse_available() {
        return;
    }
    let src = tempfile::tempdir().unwrap();
    let snap = raw_snapshot(src.path(), "snap", 100_000);
    let mount = Mounted::start(&[&snap]);
    let top = mount.path("snap");
    let mut dirs = vec![top.clone()];
    while let Some(dir) = dirs.pop() {
        let rel = dir
            .strip_prefix(&top)
            .unwrap()
            .to_string_lossy()
            .into_owned();
        let mut expected = String::new();
        for entry in std::fs::read_dir(&dir).unwrap() {
            let entry = entry.unwrap();
            let is_dir = entry.file_type().unwrap().is_dir();
            expected.push_str(&entry.file_name().to_string_lossy());
            expected.push_str(if is_dir { "/\n" } else { "\n" });
            if is_dir {
                dirs.push(entry.path());
            } else if entry.file_name() != "eval" {
                let rel_file = entry
                    .path()
                    .strip_prefix(&top)
                    .unwrap()
                    .to_string_lossy()
                    .into_owned();
                let cat = Command::new(BIN)
                    .arg("cat")
                    .arg(&snap)
                    .arg(&rel_file)
                    .output()
                    .unwrap();
                assert!(cat.status.success(), "cat {rel_file}");
                assert_eq!(
                    cat.stdout,
                    std::fs::read(entry.path()).unwrap(),
                    "cat {rel_file}"
                );
            }
        }
        let ls = Command::new(BIN)
            .arg("ls")
            .arg(&snap)
            .arg(&rel)
            .output()
            .unwrap();
        assert!(ls.status.success(), "ls {rel}");
        assert_eq!(String::from_utf8_lossy(&ls.stdout), expected, "ls {rel}");
    }
}

fn errno_of<T>(result: std::io::Result<T>) -> i32 {
    result.err().and_then(|e| e.raw_os_error()).unwrap_or(0)
}

#[test]
fn writes_fail_with_the_documented_errno() {
    if !fuse_available() {
        return;
    }
    let src = tempfile::tempdir().unwrap();
    let snap = raw_snapshot(src.path(), "snap", 4096);
    let mount = Mounted::start(&[&snap]);
    let readme = mount.path("snap/README");
    let write_open = std::fs::OpenOptions::new().write(true).open(&readme);
    assert_eq!(errno_of(write_open), libc::EROFS);
    assert_eq!(
        errno_of(std::fs::write(mount.path("snap/new"), b"x")),
        libc::EROFS
    );
    assert_eq!(
        errno_of(std::fs::create_dir(mount.path("snap/d"))),
        libc::EROFS
    );
    assert_eq!(errno_of(std::fs::remove_file(&readme)), libc::EROFS);
    assert_eq!(
        errno_of(std::fs::rename(&readme, mount.path("snap/R"))),
        libc::EROFS
    );
    let path = std::ffi::CString::new(readme.as_os_str().as_encoded_bytes()).unwrap();
    // SAFETY: truncate(2) with a valid NUL-terminated path.
    let truncate = match unsafe { libc::truncate(path.as_ptr(), 0) } {
        0 => Ok(()),
        _ => Err(std::io::Error::last_os_error()),
    };
    assert_eq!(errno_of(truncate), libc::EROFS);
    assert_eq!(
        errno_of(std::fs::read(mount.path("snap/missing"))),
        libc::ENOENT
    );
    assert_eq!(errno_of(std::fs::read(mount.path("snap"))), libc::EISDIR);
    assert_eq!(errno_of(std::fs::read_dir(&readme)), libc::ENOTDIR);
    // The control file is the one writable file: write, then read the answer back.
    let mut eval = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .custom_flags(libc::O_TRUNC)
        .open(mount.path("snap/eval"))
        .unwrap();
    eval.write_all(b"1 + 1\n").unwrap();
    let mut answer = String::new();
    std::io::Seek::rewind(&mut eval).unwrap();
    eval.read_to_string(&mut answer).unwrap();
    assert!(!answer.is_empty());
}

#[test]
fn sixteen_concurrent_readers_get_no_errors() {
    if !fuse_available() {
        return;
    }
    let src = tempfile::tempdir().unwrap();
    let snap = raw_snapshot(src.path(), "snap", 2 << 20);
    let mount = Mounted::start(&[&snap]);
    let expected = std::fs::read(snap.join("wasm_memory.bin")).unwrap();
    let deadline = Instant::now() + Duration::from_secs(2);
    std::thread::scope(|scope| {
        for reader in 0..16usize {
            let (mount, expected) = (&mount, &expected);
            scope.spawn(move || {
                let mut rounds = 0;
                while Instant::now() < deadline || rounds == 0 {
                    let mut file = std::fs::File::open(mount.path("snap/wasm_memory.bin")).unwrap();
                    let offset = (reader * 65_537 * (rounds + 1)) % expected.len();
                    std::io::Seek::seek(&mut file, std::io::SeekFrom::Start(offset as u64))
                        .unwrap();
                    let mut buf = vec![0u8; 100_000];
                    let n = file.read(&mut buf).unwrap();
                    assert_eq!(&buf[..n], &expected[offset..offset + n]);
                    let listing = std::fs::read_dir(mount.path("snap")).unwrap().count();
                    assert!(listing >= 5);
                    std::fs::read(mount.path("snap/README")).unwrap();
                    rounds += 1;
                }
            });
        }
    });
}

#[test]
fn grep_r_over_the_mount_finishes() {
    if !fuse_available() {
        return;
    }
    let src = tempfile::tempdir().unwrap();
    raw_snapshot(src.path(), "snap", 1 << 20);
    let mount = Mounted::start(&[src.path()]);
    let mut grep = Command::new("grep")
        .args(["-r", "-l", "--exclude=eval", "wasm_memory"])
        .arg(&mount.mountpoint)
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let status = wait_with_deadline(&mut grep, Duration::from_secs(60));
    let mut out = String::new();
    grep.stdout
        .take()
        .unwrap()
        .read_to_string(&mut out)
        .unwrap();
    assert_eq!(status.code(), Some(0), "{out}");
    assert!(out.contains("README"), "{out}");
}

#[test]
fn sigterm_unmounts_and_leaves_no_mount() {
    if !fuse_available() {
        return;
    }
    let src = tempfile::tempdir().unwrap();
    let snap = raw_snapshot(src.path(), "snap", 4096);
    let mut mount = Mounted::start(&[&snap]);
    std::fs::read(mount.path("snap/README")).unwrap();
    let status = mount.stop();
    assert!(status.success(), "{status}");
    assert!(!is_mounted(&mount.mountpoint));
}

#[test]
fn external_unmount_ends_the_daemon() {
    if !fuse_available() {
        return;
    }
    let src = tempfile::tempdir().unwrap();
    let snap = raw_snapshot(src.path(), "snap", 4096);
    let mut mount = Mounted::start(&[&snap]);
    let status = Command::new("fusermount3")
        .arg("-u")
        .arg(&mount.mountpoint)
        .status()
        .unwrap();
    assert!(status.success());
    let mut child = mount.child.take().unwrap();
    let status = wait_with_deadline(&mut child, Duration::from_secs(10));
    assert!(status.success(), "{status}");
    assert!(!is_mounted(&mount.mountpoint));
}
