//! Fuzz target: store manifest parsing and verification. The input is read as `manifest.json`
//! (HMAC checked under a fixed key), and, if it has the manifest's shape, signed and verified
//! against a small snapshot directory.
#![no_main]

use libfuzzer_sys::fuzz_target;
use mo_mem::store::{Manifest, StoreKey, MANIFEST_FILE};
use std::path::PathBuf;

fn dir() -> PathBuf {
    let d = std::env::temp_dir().join(format!("mo-mem-fuzz-manifest-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    let _ = std::fs::create_dir_all(&d);
    let _ = std::fs::write(d.join("metadata.json"), b"{}");
    let _ = std::fs::write(d.join("wasm_memory.bin"), b"");
    d
}

fuzz_target!(
    init: mo_mem_fuzz::write_seeds_if_asked("manifest"),
    |data: &[u8]| {
        let key = StoreKey::from_bytes([7; 32]);
        let d = dir();
        if std::fs::write(d.join(MANIFEST_FILE), data).is_ok() {
            let _ = Manifest::read_authenticated(&d, &key);
        }
        if let Ok(manifest) = serde_json::from_slice::<Manifest>(data) {
            if manifest.write(&d, &key).is_ok() {
                let _ = Manifest::verify(&d, &key);
            }
        }
    }
);
