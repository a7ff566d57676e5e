//! Raw files under FUSE passthrough (the kernel reads the source file itself) and under the
//! daemon's own reads (`--no-passthrough`): the same bytes as the source, `stat` sizes equal
//! to the bytes read, which path served them (the daemon sees no read requests under
//! passthrough), and what an open file reads when its source changes. The fallback is also
//! taken unprivileged: a daemon without `CAP_SYS_ADMIN` (run as `nobody` with `setpriv`,
//! mounted by the setuid `fusermount3`) is offered passthrough by the kernel but refused
//! its backing files, and reads raw files itself.

use crate::common;
use crate::mount_support;

use mount_support::{fuse_available, read_errno, Mounted, BIN};
use std::os::unix::fs::{FileExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::process::Command;

/// A private copy of a fixture snapshot (the tests change its files).
fn copied_snapshot(work: &Path) -> PathBuf {
    let to = work.join("snap");
    common::copy_snapshot(&common::fixture("compound", "eop"), &to);
    to
}

/// `mo-mem mount [extra] snap`, logging the adapter's requests.
fn mount(snap: &Path, extra: &[&str]) -> Mounted {
    let mut command = Command::new(BIN);
    command.env("MO_MEM_LOG", "warn,mo_mem::fuse=trace");
    let mut args: Vec<String> = extra.iter().map(|s| s.to_string()).collect();
    args.push(snap.to_str().unwrap().to_string());
    Mounted::start_command(command, &args)
}

/// Read requests the daemon served (the adapter's trace lines).
fn daemon_reads(log: &str) -> usize {
    log.lines()
        .filter(|l| l.contains("mo_mem::fuse::adapter") && l.contains(" read "))
        .count()
}

/// Reads every raw file whole and in odd ranges, checking bytes and `stat` sizes.
fn check_raw_files(mount: &Mounted, snap: &Path) {
    for name in ["wasm_memory.bin", "stable_memory.bin", "wasm_module.bin"] {
        let source = std::fs::read(snap.join(name)).unwrap();
        let served = mount.path(&format!("snap/{name}"));
        assert_eq!(
            std::fs::metadata(&served).unwrap().len(),
            source.len() as u64,
            "{name}: stat size"
        );
        assert_eq!(std::fs::read(&served).unwrap(), source, "{name}: whole");
        let file = std::fs::File::open(&served).unwrap();
        let len = source.len() as u64;
        let last = len.saturating_sub(1);
        for (offset, n) in [(0, 1), (1, 4095), (4097, 200_000), (len / 3, 7), (last, 10)] {
            if offset >= len {
                continue;
            }
            let mut buf = vec![0u8; n];
            let got = file.read_at(&mut buf, offset).unwrap();
            let want = &source[offset as usize..(offset as usize + n).min(source.len())];
            assert_eq!(&buf[..got], want, "{name}: {n} bytes at {offset}");
        }
    }
}

#[test]
fn raw_files_read_the_same_passed_through_or_read_by_the_daemon() {
    if !fuse_available() {
        return;
    }
    let work = tempfile::tempdir().unwrap();
    let snap = copied_snapshot(work.path());

    let passed = mount(&snap, &[]);
    check_raw_files(&passed, &snap);
    let log = passed.log_text();
    assert!(
        log.contains("raw files: passthrough (the kernel reads the source files)"),
        "{log}"
    );
    assert_eq!(daemon_reads(&log), 0, "the daemon served reads: {log}");
    drop(passed);

    let daemon = mount(&snap, &["--no-passthrough"]);
    check_raw_files(&daemon, &snap);
    let log = daemon.log_text();
    assert!(
        log.contains("raw files: read by the daemon with direct I/O (passthrough not wanted"),
        "{log}"
    );
    assert!(daemon_reads(&log) > 0, "no read reached the daemon: {log}");
}

#[test]
fn a_changed_source_is_refused_at_open_and_an_open_file_keeps_its_inode() {
    if !fuse_available() {
        return;
    }
    let work = tempfile::tempdir().unwrap();
    let snap = copied_snapshot(work.path());
    let source = snap.join("wasm_memory.bin");
    let listed = std::fs::read(&source).unwrap();
    let mount = mount(&snap, &[]);
    let served = mount.path("snap/wasm_memory.bin");
    let open = std::fs::File::open(&served).unwrap();
    let mut head = [0u8; 64];
    open.read_exact_at(&mut head, 0).unwrap();
    assert_eq!(head[..], listed[..64]);

    // Renamed over: the open file still reads the inode it opened, the listed bytes;
    // a new open is refused.
    let tmp = snap.join("wasm_memory.new");
    std::fs::write(&tmp, vec![0xAB; listed.len()]).unwrap();
    std::fs::rename(&tmp, &source).unwrap();
    let mut again = vec![0u8; listed.len()];
    open.read_exact_at(&mut again, 0).unwrap();
    assert_eq!(
        again, listed,
        "an open file after its source was renamed over"
    );
    assert_eq!(read_errno(&served), Some(libc::EIO));

    // Truncated in place (the old inode, still open): the open file reads what the file
    // holds now, short; a new open is refused as before.
    drop(open);
    drop(mount);
    std::fs::write(&source, &listed).unwrap();
    let mount = self::mount(&snap, &[]);
    let served = mount.path("snap/wasm_memory.bin");
    let open = std::fs::File::open(&served).unwrap();
    std::fs::OpenOptions::new()
        .write(true)
        .open(&source)
        .unwrap()
        .set_len(4096)
        .unwrap();
    let mut buf = vec![0u8; 8192];
    let got = open.read_at(&mut buf, 0).unwrap();
    assert_eq!(
        got, 4096,
        "a passed-through open reads the truncated file short"
    );
    assert_eq!(buf[..got], listed[..4096]);
    assert_eq!(read_errno(&served), Some(libc::EIO));
    let log = mount.log_text();
    assert!(log.contains("size changed"), "{log}");
}

/// `setpriv` arguments running a command as `nobody`, without any capability.
const AS_NOBODY: [&str; 3] = ["--reuid=nobody", "--regid=nogroup", "--clear-groups"];

/// `bytes` of `path` read by `nobody` (the only user who may read its mount): `cat` whole,
/// or `dd` of `count` 4 KiB blocks from block `skip`.
fn read_as_nobody(path: &Path, range: Option<(u64, u64)>) -> Vec<u8> {
    let mut command = Command::new("setpriv");
    command.args(AS_NOBODY);
    match range {
        None => command.arg("cat").arg(path),
        Some((skip, count)) => command
            .arg("dd")
            .arg(format!("if={}", path.display()))
            .args(["bs=4096", "status=none"])
            .arg(format!("skip={skip}"))
            .arg(format!("count={count}")),
    };
    let out = command.output().unwrap();
    assert!(
        out.status.success(),
        "{path:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}

#[test]
fn an_unprivileged_daemon_falls_back_to_its_own_reads() {
    use crate::common::machine::{fuse_for_all_users, require, root_with_setpriv};
    if !require(fuse_for_all_users()) || !require(root_with_setpriv()) {
        return;
    }
    let work = tempfile::tempdir().unwrap();
    let snap = copied_snapshot(work.path());
    let (home, mnt) = (work.path().join("home"), work.path().join("mnt"));
    for dir in [&home, &mnt] {
        std::fs::create_dir(dir).unwrap();
        std::os::unix::fs::chown(dir, Some(65534), Some(65534)).unwrap();
    }
    let readable = |path: &Path, mode| {
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).unwrap()
    };
    readable(work.path(), 0o755);
    readable(&snap, 0o755);
    for entry in std::fs::read_dir(&snap).unwrap() {
        readable(&entry.unwrap().path(), 0o644);
    }
    // The test binary's directories are readable by all; a copy keeps it so if not.
    let bin = work.path().join("mo-mem");
    std::fs::copy(BIN, &bin).unwrap();
    readable(&bin, 0o755);
    let mut command = Command::new("setpriv");
    command
        .args(AS_NOBODY)
        .arg(&bin)
        .env("HOME", &home)
        .env("MO_MEM_LOG", "info,mo_mem::fuse=trace");
    let mount = Mounted::start_command_at(command, &[snap.to_str().unwrap()], &mnt);
    for name in ["wasm_memory.bin", "stable_memory.bin", "wasm_module.bin"] {
        let source = std::fs::read(snap.join(name)).unwrap();
        let served = mnt.join("snap").join(name);
        assert_eq!(read_as_nobody(&served, None), source, "{name}: whole");
        let blocks = source.len() as u64 / 4096;
        for (skip, count) in [(0, 1), (1, 3), (blocks / 2, 2), (blocks, 1)] {
            let start = (skip * 4096) as usize;
            let end = ((skip + count) * 4096).min(source.len() as u64) as usize;
            let want = source.get(start..end).unwrap_or(&[]);
            assert_eq!(
                read_as_nobody(&served, Some((skip, count))),
                want,
                "{name}: {count} blocks at {skip}"
            );
        }
    }
    let log = mount.log_text();
    assert!(
        log.contains("raw files: the kernel refused a passthrough file; the daemon reads them"),
        "{log}"
    );
    assert!(daemon_reads(&log) > 0, "no read reached the daemon: {log}");
    drop(mount);
}
