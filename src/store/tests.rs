//! Unit tests of the store: import, manifest, verify, tampering, trust policy, file modes.

use super::*;
use ic_management_canister_types::{ChunkHash, SnapshotSource};
use sha2::{Digest, Sha256};
use std::os::unix::fs::PermissionsExt;
use std::path::Path;

fn write_layout(dir: &Path) {
    std::fs::create_dir_all(dir.join(files::CHUNK_STORE)).unwrap();
    let chunk = b"chunk one".to_vec();
    let hash = Sha256::digest(&chunk).to_vec();
    let mut module = b"\0asm\x01\0\0\0".to_vec();
    module.extend_from_slice(&[7; 100]);
    let memory: Vec<u8> = (0..65_536u32 * 2).map(|i| (i % 251) as u8).collect();
    let meta = SnapshotMetadata {
        source: Some(SnapshotSource::TakenFromCanister(candid::Reserved)),
        taken_at_timestamp: 1_700_000_000_000_000_000,
        wasm_module_size: module.len() as u64,
        globals: vec![],
        wasm_memory_size: memory.len() as u64,
        stable_memory_size: 0,
        wasm_chunk_store: vec![ChunkHash { hash: hash.clone() }],
        canister_version: 3,
        certified_data: vec![],
        global_timer: None,
        on_low_wasm_memory_hook_status: None,
    };
    std::fs::write(
        dir.join(files::METADATA),
        serde_json::to_vec(&meta).unwrap(),
    )
    .unwrap();
    std::fs::write(dir.join(files::WASM_MODULE), &module).unwrap();
    std::fs::write(dir.join(files::WASM_MEMORY), &memory).unwrap();
    std::fs::write(dir.join(checks::chunk_rel_path(&hash)), &chunk).unwrap();
}

struct Fixture {
    _tmp: tempfile::TempDir,
    store: Store,
    key: StoreKey,
    snap: std::path::PathBuf,
    download: std::path::PathBuf,
}

fn imported() -> Fixture {
    let tmp = tempfile::tempdir().unwrap();
    let download = tmp.path().join("download");
    write_layout(&download);
    let store = Store::new(tmp.path().join("store"));
    let key = StoreKey::from_bytes([9; 32]);
    let req = ImportRequest {
        canister: "ryjl3-tyaaa-aaaaa-aaaba-cai".into(),
        snapshot: Some("00000000000000010102".into()),
        network: "ic".into(),
    };
    let snap = import(&store, &key, &download, &req).unwrap();
    Fixture {
        _tmp: tmp,
        store,
        key,
        snap,
        download,
    }
}

#[test]
fn import_then_verify_passes_with_private_files() {
    let f = imported();
    let m = Manifest::verify(&f.snap, &f.key).unwrap();
    assert_eq!(m.source.method, "import");
    assert_eq!(m.source.snapshot, "00000000000000010102");
    let paths: Vec<&str> = m.files.iter().map(|e| e.path.as_str()).collect();
    assert_eq!(paths.len(), 5, "{paths:?}");
    assert!(
        paths.contains(&"stable_memory.bin"),
        "empty stable memory is written"
    );
    for e in &m.files {
        let mode = std::fs::metadata(f.snap.join(&e.path))
            .unwrap()
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o600, "{}", e.path);
    }
    let listed = f.store.list().unwrap();
    assert_eq!(listed.len(), 1);
    assert!(listed[0].complete);
}

#[test]
fn tampered_file_is_named() {
    let f = imported();
    let mem = f.snap.join(files::WASM_MEMORY);
    let mut bytes = std::fs::read(&mem).unwrap();
    bytes[1000] ^= 1;
    std::fs::write(&mem, bytes).unwrap();
    match Manifest::verify(&f.snap, &f.key) {
        Err(StoreError::HashMismatch { path, .. }) => assert_eq!(path, mem),
        other => panic!("{other:?}"),
    }
}

#[test]
fn truncated_extra_and_missing_files_are_named() {
    let f = imported();
    let extra = f.snap.join("wasm_chunk_store").join("evil.bin");
    std::fs::write(&extra, b"x").unwrap();
    assert!(
        matches!(Manifest::verify(&f.snap, &f.key), Err(StoreError::Unexpected { path }) if path == extra)
    );
    std::fs::remove_file(&extra).unwrap();
    let module = f.snap.join(files::WASM_MODULE);
    std::fs::write(&module, b"\0asm").unwrap();
    assert!(
        matches!(Manifest::verify(&f.snap, &f.key), Err(StoreError::SizeMismatch { path, .. }) if path == module)
    );
    std::fs::remove_file(&module).unwrap();
    assert!(
        matches!(Manifest::verify(&f.snap, &f.key), Err(StoreError::Missing { path }) if path == module)
    );
}

#[test]
fn tampered_manifest_or_other_key_fails_hmac() {
    let f = imported();
    let mpath = f.snap.join(MANIFEST_FILE);
    let text = std::fs::read_to_string(&mpath).unwrap();
    let edited = text.replace("\"network\": \"ic\"", "\"network\": \"local\"");
    assert_ne!(text, edited);
    std::fs::write(&mpath, edited).unwrap();
    assert!(matches!(
        Manifest::verify(&f.snap, &f.key),
        Err(StoreError::BadHmac { .. })
    ));
    std::fs::write(&mpath, &text).unwrap();
    Manifest::verify(&f.snap, &f.key).unwrap();
    let other = StoreKey::from_bytes([1; 32]);
    assert!(matches!(
        Manifest::verify(&f.snap, &other),
        Err(StoreError::BadHmac { .. })
    ));
}

#[test]
fn forged_hash_with_recomputed_digest_still_fails_hmac() {
    // An attacker who edits a file and fixes its SHA-256 in the manifest cannot fix the HMAC.
    let f = imported();
    let mem = f.snap.join(files::WASM_MEMORY);
    let mut bytes = std::fs::read(&mem).unwrap();
    bytes[0] ^= 0xff;
    std::fs::write(&mem, &bytes).unwrap();
    let mpath = f.snap.join(MANIFEST_FILE);
    let mut v: serde_json::Value = serde_json::from_slice(&std::fs::read(&mpath).unwrap()).unwrap();
    for e in v["files"].as_array_mut().unwrap() {
        if e["path"] == "wasm_memory.bin" {
            e["sha256"] = hex::encode(Sha256::digest(&bytes)).into();
        }
    }
    std::fs::write(&mpath, serde_json::to_vec(&v).unwrap()).unwrap();
    assert!(matches!(
        Manifest::verify(&f.snap, &f.key),
        Err(StoreError::BadHmac { .. })
    ));
}

#[test]
fn trust_policy() {
    let f = imported();
    assert!(matches!(
        check_trust(&f.snap, &f.store, &f.key, false).unwrap(),
        Trust::Verified(_)
    ));
    // A file inside a verified snapshot is checked through its directory.
    let mem = f.snap.join(files::WASM_MEMORY);
    assert!(matches!(
        check_trust(&mem, &f.store, &f.key, false).unwrap(),
        Trust::Verified(_)
    ));
    // The user's own download, outside the store, without a manifest: read with a note.
    let t = check_trust(&f.download, &f.store, &f.key, false).unwrap();
    assert!(matches!(t, Trust::Unauthenticated));
    assert!(t.note(&f.download).unwrap().contains("not authenticated"));
    // Tampered: refused, unless the user opts out.
    std::fs::write(&mem, vec![0u8; 131_072]).unwrap();
    assert!(matches!(
        check_trust(&f.snap, &f.store, &f.key, false),
        Err(StoreError::HashMismatch { .. })
    ));
    assert!(matches!(
        check_trust(&f.snap, &f.store, &f.key, true).unwrap(),
        Trust::Overridden(_)
    ));
    // In the store without a manifest: refused.
    std::fs::remove_file(f.snap.join(MANIFEST_FILE)).unwrap();
    assert!(matches!(
        check_trust(&f.snap, &f.store, &f.key, false),
        Err(StoreError::NoManifest { .. })
    ));
}

#[test]
fn import_refuses_bad_layouts() {
    let tmp = tempfile::tempdir().unwrap();
    let store = Store::new(tmp.path().join("store"));
    let key = StoreKey::from_bytes([9; 32]);
    let req = ImportRequest {
        canister: "aaaaa-aa".into(),
        snapshot: None,
        network: "import".into(),
    };
    let d = tmp.path().join("d");
    write_layout(&d);
    std::fs::write(d.join(files::WASM_MODULE), vec![0u8; 108]).unwrap();
    let e = import(&store, &key, &d, &req).unwrap_err();
    assert!(e.to_string().contains("magic"), "{e}");
    write_layout(&d);
    let chunk = std::fs::read_dir(d.join(files::CHUNK_STORE))
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .path();
    std::fs::write(&chunk, b"chunk two").unwrap();
    assert!(
        matches!(import(&store, &key, &d, &req), Err(StoreError::HashMismatch { path, .. }) if path == chunk)
    );
    write_layout(&d);
    std::fs::remove_file(&chunk).unwrap();
    // Chunk-store entries come last in a dfx or icp-cli download: one missing is unfinished.
    match import(&store, &key, &d, &req) {
        Err(StoreError::Unfinished(u)) => assert_eq!(u.chunks, vec![chunk.clone()]),
        other => panic!("unexpected {other:?}"),
    }
    write_layout(&d);
    // Shorter than the metadata says: how dfx leaves a blob it did not finish.
    std::fs::write(d.join(files::WASM_MEMORY), vec![0u8; 5]).unwrap();
    match import(&store, &key, &d, &req) {
        Err(StoreError::Unfinished(u)) => {
            assert_eq!(u.tool, crate::snapshot::download::DownloadTool::Dfx);
            assert_eq!(u.files.len(), 1);
            assert_eq!(u.files[0].ranges, vec![5..131_072]);
        }
        other => panic!("unexpected {other:?}"),
    }
    // Longer than the metadata says is no download state: a size mismatch.
    std::fs::write(d.join(files::WASM_MEMORY), vec![0u8; 131_073]).unwrap();
    assert!(matches!(
        import(&store, &key, &d, &req),
        Err(StoreError::SizeMismatch { .. })
    ));
    assert!(
        store.list().unwrap().is_empty(),
        "nothing half-imported is listed"
    );
    // A good import twice: the second is refused.
    write_layout(&d);
    import(&store, &key, &d, &req).unwrap();
    assert!(matches!(
        import(&store, &key, &d, &req),
        Err(StoreError::Exists { .. })
    ));
}
