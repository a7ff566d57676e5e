//! The mount, for real: every file's stat size equals the bytes read, JSON parses,
//! `mo-mem ls/cat` match the mount, writes fail with the documented errno, concurrent
//! readers, `grep -r`, and clean unmounts on SIGTERM and `fusermount3 -u`.

use std::io::{Read, Write};
use std::os::unix::fs::OpenOptionsExt;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::mount_support;
use mount_support::{files_under, is_control_file};

use mount_support::{fuse_available, is_mounted, raw_snapshot, wait_with_deadline, Mounted, BIN};

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
            } else if !is_control_file(&entry.metadata().unwrap()) {
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
    assert_eq!(answer, "2\n");
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
