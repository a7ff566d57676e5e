//! Snapshots for the heap tests: every committed fixture (materialized once into
//! `target/heap-fixtures/<name>/<mode>`), plus any directory listed in `MOMEM_EXTRA_SNAPSHOTS`
//! (colon-separated) for local experiments.

#![allow(dead_code)]

use std::path::{Path, PathBuf};

/// The repository root.
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// `(label, snapshot dir)` of every snapshot available to the tests.
pub fn snapshots() -> Vec<(String, PathBuf)> {
    let mut out = Vec::new();
    let committed = root().join("fixtures/snapshots");
    let target = root().join("target/heap-fixtures");
    for name in sorted_dirs(&committed) {
        for mode in sorted_dirs(&committed.join(&name)) {
            let src = committed.join(&name).join(&mode);
            let dst = target.join(&name).join(&mode);
            if !dst.join("metadata.json").exists() {
                std::fs::create_dir_all(dst.parent().unwrap_or(Path::new("."))).ok();
                if let Err(e) = mo_mem::snapshot::fixture::materialize(&src, &dst) {
                    // Another test process may have won the race; only fail if it is missing.
                    assert!(
                        dst.join("metadata.json").exists(),
                        "materialize {src:?}: {e}"
                    );
                }
            }
            out.push((format!("{name}/{mode}"), dst));
        }
    }
    if let Ok(extra) = std::env::var("MOMEM_EXTRA_SNAPSHOTS") {
        for dir in extra.split(':').filter(|s| !s.is_empty()) {
            out.push((dir.to_string(), PathBuf::from(dir)));
        }
    }
    if out.is_empty() {
        eprintln!("note: no fixture snapshots found under {committed:?}");
    }
    out
}

fn sorted_dirs(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .map(|rd| {
            rd.flatten()
                .filter(|e| e.path().is_dir())
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .collect()
        })
        .unwrap_or_default();
    v.sort();
    v
}
