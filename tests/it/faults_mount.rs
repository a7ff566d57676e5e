//! Faults under a live mount: snapshot files truncated or replaced while mounted (EIO for
//! what can no longer be read, the rest still served, the daemon never killed by SIGBUS),
//! and a store snapshot tampered with after it was verified (`mo-mem verify` names the
//! file; the mount refuses the snapshot).

use crate::common;
use crate::faults_support;
use crate::mount_support;

use faults_support::{flip_byte, fuse_available, read_errno, Mount, TestStore, BIN};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

fn eval_in(eval: &Path, script: &str) -> String {
    let out = Command::new("setsid")
        .args(["-w", "sh", "-c", r#"echo "$2" > "$1"; cat "$1""#, "sh"])
        .arg(eval)
        .arg(script)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .output()
        .unwrap();
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Replaces `path` by a new file (write elsewhere, rename over it).
fn replace(path: &Path, bytes: &[u8]) {
    let tmp = path.with_extension("new");
    std::fs::write(&tmp, bytes).unwrap();
    std::fs::rename(&tmp, path).unwrap();
}

#[test]
fn truncated_or_replaced_files_are_eio_and_the_rest_is_served() {
    if !fuse_available() {
        return;
    }
    let work = tempfile::tempdir().unwrap();
    let snaps = work.path().join("snaps");
    let a = snaps.join("a");
    let b = snaps.join("b");
    common::copy_snapshot(&common::fixture("compound", "eop"), &a);
    common::copy_snapshot(&common::fixture("scalars", "eop"), &b);
    let mut command = Command::new(BIN);
    command.env("MO_MEM_LOG", "warn");
    let mut mount = Mount::start_command(command, &[snaps.to_str().unwrap()]);

    // Decoded and read before the fault.
    let memory = std::fs::read(a.join("wasm_memory.bin")).unwrap();
    assert_eq!(
        std::fs::read(mount.path("a/wasm_memory.bin")).unwrap(),
        memory
    );
    assert!(std::fs::read(mount.path("a/info.json")).is_ok());
    let vars: Vec<String> = std::fs::read_dir(mount.path("a/vars"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".json"))
        .collect();
    assert!(!vars.is_empty());
    let b_memory_len = std::fs::read(mount.path("b/wasm_memory.bin"))
        .unwrap()
        .len();

    // Truncate the mapped main memory of `a` to half: touching a mapping past the new end
    // would raise SIGBUS; the mount must answer EIO instead and stay up.
    let file = std::fs::OpenOptions::new()
        .write(true)
        .open(a.join("wasm_memory.bin"))
        .unwrap();
    file.set_len(memory.len() as u64 / 2).unwrap();
    drop(file);
    assert_eq!(
        read_errno(&mount.path("a/wasm_memory.bin")),
        Some(libc::EIO)
    );
    assert_eq!(
        read_errno(&mount.path(&format!("a/vars/{}", vars[0]))),
        Some(libc::EIO),
        "a value decoded from the truncated image"
    );
    assert_eq!(read_errno(&mount.path("a/stats.json")), Some(libc::EIO));
    let objects = std::fs::read_dir(mount.path("a/objects"))
        .and_then(|d| d.collect::<Result<Vec<_>, _>>())
        .map(|entries| entries.len());
    assert!(
        objects.is_err(),
        "objects/ listed from a truncated image: {objects:?}"
    );
    let answer = eval_in(&mount.path("a/eval"), "1 + 1");
    assert!(answer.contains("changed"), "{answer}");
    // What did not change is still served.
    assert_eq!(
        std::fs::read(mount.path("a/metadata.json")).unwrap(),
        std::fs::read(a.join("metadata.json")).unwrap()
    );
    assert!(std::fs::read(mount.path("a/stable_memory.bin")).is_ok());
    assert!(std::fs::read(mount.path("b/stats.json")).is_ok());
    assert_eq!(eval_in(&mount.path("b/eval"), "1 + 1"), "2\n");

    // Replace files (rename over them): the replaced ones are EIO, the others still read.
    replace(
        &a.join("wasm_module.bin"),
        b"\0asm\x01\0\0\0 another module",
    );
    assert_eq!(
        read_errno(&mount.path("a/wasm_module.bin")),
        Some(libc::EIO)
    );
    replace(&b.join("stable_memory.bin"), b"other stable bytes");
    // Also once the kernel and the mount have looked the files up again.
    std::thread::sleep(Duration::from_millis(1100));
    assert_eq!(
        read_errno(&mount.path("a/wasm_module.bin")),
        Some(libc::EIO)
    );
    assert_eq!(
        read_errno(&mount.path("a/wasm_memory.bin")),
        Some(libc::EIO)
    );
    assert_eq!(
        read_errno(&mount.path("b/stable_memory.bin")),
        Some(libc::EIO)
    );
    assert_eq!(
        std::fs::read(mount.path("b/wasm_memory.bin"))
            .unwrap()
            .len(),
        b_memory_len
    );
    assert_eq!(std::fs::read_dir(&mount.mountpoint).unwrap().count(), 2);
    assert!(mount.alive(), "the daemon survived: {}", mount.log_text());
    let log = mount.log_text();
    assert!(
        log.contains("size changed") && log.contains("replaced"),
        "{log}"
    );
}

#[test]
fn a_file_tampered_after_verification_is_reported_and_refused() {
    if !fuse_available() {
        return;
    }
    let store = TestStore::new();
    let canister = "rrkah-fqaaa-aaaaa-aaaaq-cai";
    let dir = store.import(&common::fixture("compound", "eop"), canister, "0b01");
    let root = store.root();
    let mut mount = Mount::start_command(store.command(), &["--store", root.to_str().unwrap()]);
    let snap = format!("{canister}/0b01");
    // Verified on first access, then served.
    let memory = std::fs::read(mount.path(&format!("{snap}/wasm_memory.bin"))).unwrap();
    assert_eq!(memory, std::fs::read(dir.join("wasm_memory.bin")).unwrap());

    // One byte changes on disk (same size) after the verification.
    flip_byte(&dir.join("wasm_memory.bin"), 70_000);
    let out = store.run(&["verify", dir.to_str().unwrap()]);
    assert!(!out.status.success());
    let report = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        report.contains("wasm_memory.bin") && report.contains("SHA-256"),
        "{report}"
    );
    // Refused: every file of it is EACCES (docs/mount.md, "Trust"), whether the kernel still
    // knows its name or looks it up again after the listing was refreshed.
    let refused = |when: &str, files: &[&str]| {
        for file in files {
            let errno = read_errno(&mount.path(&format!("{snap}/{file}")));
            assert_eq!(errno, Some(libc::EACCES), "{file} {when}");
        }
    };
    refused("at once", &["wasm_memory.bin", "stats.json"]);
    // Once the listing is refreshed (within a second: waited for, not slept), the snapshot
    // shows as refused, saying why, and its files are still EACCES, not missing.
    let deadline = std::time::Instant::now() + mount_support::HANG;
    let names = loop {
        let names: Vec<String> = std::fs::read_dir(mount.path(&snap))
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        if names.len() == 1 || std::time::Instant::now() > deadline {
            break names;
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    assert_eq!(names, ["NOT-TRUSTED"]);
    refused(
        "after the listing was refreshed",
        &["wasm_memory.bin", "stats.json", "eval", "vars"],
    );
    let why = std::fs::read_to_string(mount.path(&format!("{snap}/NOT-TRUSTED"))).unwrap();
    assert!(
        why.contains("wasm_memory.bin") && why.contains("after it was verified"),
        "{why}"
    );
    assert!(mount.alive());
}

/// `eval` of a store snapshot tampered with after it verified fails with `EACCES` at once,
/// before the directory's listing is refreshed (docs/mount.md, "Trust"): neither a fresh
/// reader's usage text nor an answer read before the tamper is served any more, and a new
/// script is not taken.
#[test]
fn eval_of_a_snapshot_tampered_after_verification_is_eacces_at_once() {
    use std::io::{Read, Seek, Write};
    if !fuse_available() {
        return;
    }
    let store = TestStore::new();
    let canister = "rrkah-fqaaa-aaaaa-aaaaq-cai";
    let dir = store.import(&common::fixture("compound", "eop"), canister, "0b02");
    let root = store.root();
    let mut mount = Mount::start_command(store.command(), &["--store", root.to_str().unwrap()]);
    let eval = mount.path(&format!("{canister}/0b02/eval"));
    // Trusted: a fresh reader reads the usage, a handle that wrote reads its answer.
    let usage = std::fs::read_to_string(&eval).unwrap();
    assert!(usage.starts_with("Write a Motoko script"), "{usage}");
    let mut handle = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .open(&eval)
        .unwrap();
    handle.write_all(b"vars.act_self\n").unwrap();
    handle.rewind().unwrap();
    let mut answer = String::new();
    handle.read_to_string(&mut answer).unwrap();
    assert_eq!(answer.trim_end(), canister);

    flip_byte(&dir.join("wasm_memory.bin"), 70_000);
    // The first thing read after the tamper: the eval file, by a fresh reader.
    assert_eq!(read_errno(&eval), Some(libc::EACCES), "a fresh reader");
    handle.rewind().unwrap();
    let mut again = String::new();
    let err = handle.read_to_string(&mut again).unwrap_err();
    assert_eq!(
        err.raw_os_error(),
        Some(libc::EACCES),
        "the answered handle"
    );
    assert_eq!(again, "");
    let err = std::fs::OpenOptions::new()
        .write(true)
        .open(&eval)
        .and_then(|mut f| f.write_all(b"vars\n"))
        .unwrap_err();
    assert_eq!(err.raw_os_error(), Some(libc::EACCES), "a new script");
    assert!(mount.alive());
}
