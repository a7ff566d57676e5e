//! The committed fixture snapshots (`fixtures/snapshots/<name>/<mode>/`), materialized once
//! into `target/fixture-snapshots/<name>/<mode>` as plain icp-cli/dfx snapshot directories.
//! Shared by `tests/it` (through `common`) and the mutation campaign (as its `common`).

use std::path::{Path, PathBuf};
use std::sync::{Mutex, OnceLock};

use sha2::{Digest, Sha256};

/// The crate root.
pub fn repo_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Where committed fixtures live: `fixtures/snapshots`.
pub fn committed_root() -> PathBuf {
    repo_root().join("fixtures").join("snapshots")
}

/// Where fixtures are materialized: `<target>/fixture-snapshots`.
pub fn materialized_root() -> PathBuf {
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .map(|p| {
            if p.is_absolute() {
                p
            } else {
                repo_root().join(p)
            }
        })
        .unwrap_or_else(|| repo_root().join("target"));
    target.join("fixture-snapshots")
}

/// The committed directory of fixture `name` in `mode`.
pub fn committed_fixture(name: &str, mode: &str) -> PathBuf {
    committed_root().join(name).join(mode)
}

/// A hash of every file in a committed fixture dir (names and contents), to detect stale copies.
fn stamp(dir: &Path) -> String {
    let mut names: Vec<_> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().file_name())
        .collect();
    names.sort();
    let mut h = Sha256::new();
    for n in names {
        h.update(n.as_encoded_bytes());
        h.update([0]);
        h.update(std::fs::read(dir.join(&n)).unwrap());
        h.update([0]);
    }
    hex::encode(h.finalize())
}

/// A plain snapshot directory of fixture `name` in `mode` (gunzipped `.bin` files,
/// `metadata.json`, `expected.json`), materialized on first use and reused while the committed
/// files are unchanged. Panics if the fixture does not exist.
pub fn fixture(name: &str, mode: &str) -> PathBuf {
    materialize_once(
        &committed_fixture(name, mode),
        &materialized_root().join(name),
        mode,
    )
}

/// Materializes the committed directory `committed` as `parent/mode` unless an up-to-date
/// copy is there.
pub fn materialize_once(committed: &Path, parent: &Path, mode: &str) -> PathBuf {
    static LOCK: OnceLock<Mutex<()>> = OnceLock::new();
    let _guard = LOCK
        .get_or_init(|| Mutex::new(()))
        .lock()
        .unwrap_or_else(|p| p.into_inner());
    assert!(
        committed.join("metadata.json").exists(),
        "no committed fixture in {}",
        committed.display()
    );
    let out = parent.join(mode);
    let stamp_file = parent.join(format!("{mode}.stamp"));
    let want = stamp(committed);
    if out.exists() && std::fs::read_to_string(&stamp_file).ok().as_deref() == Some(want.as_str()) {
        return out;
    }
    if out.exists() {
        let _ = std::fs::remove_dir_all(&out);
    }
    match mo_mem::snapshot::fixture::materialize(committed, &out) {
        Ok(()) => {}
        // Another test process materialized it meanwhile.
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {}
        Err(e) => panic!("materializing {}: {e}", committed.display()),
    }
    std::fs::write(&stamp_file, want).unwrap();
    out
}

/// Every committed fixture as `(name, mode)`, sorted, without materializing anything.
pub fn committed_fixtures() -> Vec<(String, String)> {
    fixtures_under(&committed_root())
}

/// Every `(name, mode)` directory holding a `metadata.json` under `root`, sorted.
pub fn fixtures_under(root: &Path) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let Ok(names) = std::fs::read_dir(root) else {
        return out;
    };
    for n in names {
        let n = n.unwrap();
        if !n.file_type().unwrap().is_dir() {
            continue;
        }
        for m in std::fs::read_dir(n.path()).unwrap() {
            let m = m.unwrap();
            if m.path().join("metadata.json").exists() {
                out.push((
                    n.file_name().to_string_lossy().into_owned(),
                    m.file_name().to_string_lossy().into_owned(),
                ));
            }
        }
    }
    out.sort();
    out
}
