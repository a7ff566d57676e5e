//! Symbolic links in a snapshot directory named by path (images linked from another disk):
//! followed consistently — listed with the target's size, read byte for byte through the
//! mount and `mo-mem cat`, decoded — and a link re-pointed while mounted is a change (EIO);
//! a dangling link is not listed; a store snapshot with a link is refused.

use crate::common;
use crate::faults_support;

use faults_support::{fuse_available, read_errno, Mount, TestStore, BIN};
use std::os::unix::fs::symlink;
use std::path::Path;
use std::process::Command;

/// `dir` with the fixture's small files copied and its images linked from `disk`.
fn linked_snapshot(from: &Path, dir: &Path, disk: &Path) {
    std::fs::create_dir_all(dir).unwrap();
    std::fs::create_dir_all(disk).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let name = entry.file_name();
        if !entry.file_type().unwrap().is_file() {
            continue;
        }
        if name == "wasm_memory.bin" || name == "wasm_module.bin" {
            std::fs::copy(entry.path(), disk.join(&name)).unwrap();
            symlink(disk.join(&name), dir.join(&name)).unwrap();
        } else {
            std::fs::copy(entry.path(), dir.join(&name)).unwrap();
        }
    }
}

#[test]
fn linked_images_are_listed_read_and_decoded_and_a_repointed_link_is_a_change() {
    if !fuse_available() {
        return;
    }
    let fixture = common::fixture("compound", "eop");
    let work = tempfile::tempdir().unwrap();
    let (snap, disk) = (work.path().join("snap"), work.path().join("disk"));
    linked_snapshot(&fixture, &snap, &disk);
    let stable = snap.join("stable_memory.bin");
    std::fs::remove_file(&stable).unwrap();
    symlink(work.path().join("nowhere.bin"), &stable).unwrap();
    let memory = std::fs::read(fixture.join("wasm_memory.bin")).unwrap();

    let mut mount = Mount::start(&[&snap]);
    let served = mount.path("snap/wasm_memory.bin");
    assert_eq!(
        std::fs::metadata(&served).unwrap().len(),
        memory.len() as u64
    );
    assert_eq!(std::fs::read(&served).unwrap(), memory);
    let info: serde_json::Value =
        serde_json::from_slice(&std::fs::read(mount.path("snap/info.json")).unwrap()).unwrap();
    let cli = Command::new(BIN)
        .args(["info", "--json"])
        .arg(&fixture)
        .output()
        .unwrap();
    let direct: serde_json::Value = serde_json::from_slice(&cli.stdout).unwrap();
    assert_eq!(
        info["objects"], direct["objects"],
        "decoded through the links"
    );
    let names: Vec<String> = std::fs::read_dir(mount.path("snap"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert!(
        !names.iter().any(|n| n == "stable_memory.bin"),
        "a dangling link listed: {names:?}"
    );
    let cat = Command::new(BIN)
        .arg("cat")
        .arg(&snap)
        .arg("wasm_memory.bin")
        .output()
        .unwrap();
    assert!(
        cat.status.success(),
        "{}",
        String::from_utf8_lossy(&cat.stderr)
    );
    assert_eq!(cat.stdout, memory, "mo-mem cat through the link");

    // The link now names another file: a change, as a file renamed over would be.
    let other = disk.join("other.bin");
    std::fs::write(&other, vec![7u8; memory.len()]).unwrap();
    std::fs::remove_file(snap.join("wasm_memory.bin")).unwrap();
    symlink(&other, snap.join("wasm_memory.bin")).unwrap();
    assert_eq!(read_errno(&served), Some(libc::EIO));
    assert!(mount.alive());
}

#[test]
fn a_store_snapshot_with_a_link_is_refused() {
    if !fuse_available() {
        return;
    }
    let store = TestStore::new();
    let canister = "rrkah-fqaaa-aaaaa-aaaaq-cai";
    let dir = store.import(&common::fixture("compound", "eop"), canister, "0b02");
    let elsewhere = tempfile::tempdir().unwrap();
    let copy = elsewhere.path().join("wasm_memory.bin");
    std::fs::copy(dir.join("wasm_memory.bin"), &copy).unwrap();
    std::fs::remove_file(dir.join("wasm_memory.bin")).unwrap();
    symlink(&copy, dir.join("wasm_memory.bin")).unwrap();

    let out = store.run(&["verify", dir.to_str().unwrap()]);
    let report =
        String::from_utf8_lossy(&out.stderr).into_owned() + &String::from_utf8_lossy(&out.stdout);
    assert!(!out.status.success(), "{report}");
    assert!(report.contains("not a regular file"), "{report}");
    let root = store.root();
    let mount = Mount::start_command(store.command(), &["--store", root.to_str().unwrap()]);
    // Not served: the snapshot lists only NOT-TRUSTED, and its files are refused (EACCES,
    // docs/mount.md "Trust"), not missing.
    let snap = mount.path(&format!("{canister}/0b02"));
    let names: Vec<String> = std::fs::read_dir(&snap)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names, ["NOT-TRUSTED"]);
    let why = std::fs::read_to_string(snap.join("NOT-TRUSTED")).unwrap();
    assert!(why.contains("not a regular file"), "{why}");
    for file in ["wasm_memory.bin", "metadata.json", "eval"] {
        assert_eq!(read_errno(&snap.join(file)), Some(libc::EACCES), "{file}");
    }
}
