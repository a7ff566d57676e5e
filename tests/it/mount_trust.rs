//! The mount serves a store's snapshots only once they verify (manifest HMAC under this
//! machine's key, every file's SHA-256), hashing each once per mount; a snapshot that does
//! not verify shows as a directory holding only `NOT-TRUSTED`, which says why.

use crate::common;
use crate::faults_support;

use faults_support::{flip_byte, fuse_available, read_errno, Mount, TestStore};
use std::time::Duration;

const CANISTER: &str = "rrkah-fqaaa-aaaaa-aaaaq-cai";

fn mount_store(store: &TestStore, extra: &[&str]) -> Mount {
    let mut command = store.command();
    command.env("MO_MEM_LOG", "info");
    let root = store.root();
    let mut args = vec!["--store", root.to_str().unwrap()];
    args.extend_from_slice(extra);
    Mount::start_command(command, &args)
}

#[test]
fn verified_snapshot_is_served_and_hashed_once_per_mount() {
    if !fuse_available() {
        return;
    }
    let store = TestStore::new();
    let source = common::fixture("scalars", "eop");
    store.import(&source, CANISTER, "0a01");
    // A file changed within 50 ms of its verification is verified once more (file times come
    // from a coarse clock): let the import age past that, so one verification is expected.
    std::thread::sleep(Duration::from_millis(200));
    let mount = mount_store(&store, &[]);
    let snap = format!("{CANISTER}/0a01");
    let mut forget_skipped = false;
    let mut names: Vec<String> = std::fs::read_dir(mount.path(CANISTER))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names, ["0a01", "diff", "latest"]);
    for _ in 0..2 {
        let memory = std::fs::read(mount.path(&format!("{snap}/wasm_memory.bin"))).unwrap();
        assert_eq!(
            memory,
            std::fs::read(source.join("wasm_memory.bin")).unwrap()
        );
        assert!(mount.path(&format!("{snap}/vars")).is_dir());
        let info = std::fs::read(mount.path(&format!("{snap}/info.json"))).unwrap();
        serde_json::from_slice::<serde_json::Value>(&info).unwrap();
        assert!(!mount.path(&format!("{snap}/NOT-TRUSTED")).exists());
        // Past the store listing's cache: the snapshot is listed again, not hashed again,
        // also when the kernel forgot its nodes (dentries and inodes dropped, so the daemon
        // gets FORGETs and then fresh lookups of the snapshot's directory).
        std::thread::sleep(Duration::from_millis(1100));
        if let Err(e) = std::fs::write("/proc/sys/vm/drop_caches", "2") {
            if !forget_skipped {
                // The listing-cache half below still runs; the forgotten-nodes half cannot.
                common::skip::skipped(&format!(
                    "cannot make the kernel forget the mount's nodes: writing \
                     /proc/sys/vm/drop_caches: {e} (needs root and a writable /proc); \
                     re-verification after FORGET is not checked"
                ));
                forget_skipped = true;
            }
        }
    }
    let log = mount.log_text();
    let hashed = log.lines().filter(|l| l.contains("mount_trust")).count();
    assert_eq!(hashed, 1, "verified once per mount, log:\n{log}");
}

#[test]
fn snapshots_that_do_not_verify_are_refused_with_the_reason() {
    if !fuse_available() {
        return;
    }
    let store = TestStore::new();
    let source = common::fixture("scalars", "eop");
    store.import(&source, CANISTER, "0a01");
    let tampered = store.import(&source, CANISTER, "0a02");
    flip_byte(&tampered.join("wasm_memory.bin"), 4096);
    let edited = store.import(&source, CANISTER, "0a03");
    let manifest = std::fs::read_to_string(edited.join("manifest.json")).unwrap();
    std::fs::write(
        edited.join("manifest.json"),
        manifest.replace("\"import\"", "\"imporT\""),
    )
    .unwrap();

    let mount = mount_store(&store, &[]);
    let listing = |snap: &str| -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(mount.path(&format!("{CANISTER}/{snap}")))
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    };
    assert!(listing("0a01").contains(&"wasm_memory.bin".to_string()));
    assert_eq!(listing("0a02"), ["NOT-TRUSTED"]);
    assert_eq!(listing("0a03"), ["NOT-TRUSTED"]);
    let why = std::fs::read_to_string(mount.path(&format!("{CANISTER}/0a02/NOT-TRUSTED"))).unwrap();
    assert!(
        why.contains("wasm_memory.bin") && why.contains("SHA-256"),
        "{why}"
    );
    let why = std::fs::read_to_string(mount.path(&format!("{CANISTER}/0a03/NOT-TRUSTED"))).unwrap();
    assert!(why.contains("HMAC"), "{why}");
    // Its files are refused, not missing (docs/mount.md, "Trust").
    assert_eq!(
        read_errno(&mount.path(&format!("{CANISTER}/0a02/wasm_memory.bin"))),
        Some(libc::EACCES)
    );
    drop(mount);

    // The CLI's view of the same tree refuses too, unless told otherwise.
    let dir = tampered.to_str().unwrap();
    for args in [vec!["ls", dir], vec!["cat", dir, "metadata.json"]] {
        let out = store.run(&args);
        assert!(!out.status.success(), "{args:?} must fail");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains("refusing snapshot") && err.contains("wasm_memory.bin"),
            "{args:?}: {err}"
        );
    }
    let out = store.run(&["ls", dir, "--no-verify"]);
    assert!(out.status.success());
    assert!(String::from_utf8_lossy(&out.stdout).contains("wasm_memory.bin"));
    let good = store.root().join(CANISTER).join("0a01");
    let out = store.run(&["cat", good.to_str().unwrap(), "metadata.json"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        out.stdout,
        std::fs::read(source.join("metadata.json")).unwrap()
    );
}

#[test]
fn a_missing_key_refuses_and_no_verify_overrides() {
    if !fuse_available() {
        return;
    }
    let store = TestStore::new();
    let source = common::fixture("scalars", "eop");
    let snap = store.import(&source, CANISTER, "0a01");
    flip_byte(&snap.join("wasm_memory.bin"), 100);

    // Another machine (or a lost key): nothing can be authenticated.
    let elsewhere = tempfile::tempdir().unwrap();
    let mut command = store.command();
    command.env("MO_MEM_CONFIG_DIR", elsewhere.path());
    let root = store.root();
    let mount = Mount::start_command(command, &["--store", root.to_str().unwrap()]);
    let why = std::fs::read_to_string(mount.path(&format!("{CANISTER}/0a01/NOT-TRUSTED"))).unwrap();
    assert!(
        why.contains("store key") && why.contains("missing"),
        "{why}"
    );
    assert!(
        !elsewhere.path().join("store.key").exists(),
        "the mount must not create a key"
    );
    drop(mount);

    let mount = mount_store(&store, &["--no-verify"]);
    let memory = std::fs::read(mount.path(&format!("{CANISTER}/0a01/wasm_memory.bin"))).unwrap();
    assert_eq!(memory, std::fs::read(snap.join("wasm_memory.bin")).unwrap());
    assert!(mount.log_text().contains("--no-verify"));
}
