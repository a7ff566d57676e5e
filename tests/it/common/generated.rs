//! On-demand fixtures the tests generate themselves (`"committed": false` scenarios small enough
//! for every run, such as `big-small`): `scripts/gen-fixtures --on-demand NAME` with the pinned
//! compiler and this build's `mo-mem`, into `<target>/fixture-snapshots/NAME/MODE`, uncompressed.
//!
//! A stamp next to them (`NAME.stamp`) holds a SHA-256 of everything that made them: the files
//! of `motoko/fixtures/NAME` (the sources and `scenario.json`, symlinks followed), the scripts
//! that compile and run them, the pinned compiler's lock file and installed version, and the
//! `mo-mem` binary (its runner writes the snapshot). They are regenerated whenever the stamp
//! differs, so a test never reads a stale fixture; an up-to-date fixture costs one hash.

use std::os::fd::AsRawFd;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::{Mutex, OnceLock};

use sha2::{Digest, Sha256};

use super::{materialized_root, repo_root, skip};

/// The on-demand fixtures the tests generate (each has tests of its own); the tests that take
/// every snapshot lying in `<target>/fixture-snapshots` (`heap_support::snapshots`) leave them
/// out, so what they cover does not depend on which test ran first.
pub const GENERATED_BY_TESTS: &[&str] = &["big-small", "numbers", "hostile-html", "wide"];

/// The mo-mem binary that generates the fixtures (and whose runner they depend on).
const BIN: &str = env!("CARGO_BIN_EXE_mo-mem");

/// Hashes `path`'s name (relative to the repository) and contents into `h`.
fn hash_file(h: &mut Sha256, root: &Path, path: &Path) {
    let bytes =
        std::fs::read(path).unwrap_or_else(|e| panic!("stamp input {}: {e}", path.display()));
    let name = path.strip_prefix(root).unwrap_or(path);
    h.update(name.as_os_str().as_encoded_bytes());
    h.update([0]);
    h.update((bytes.len() as u64).to_le_bytes());
    h.update(&bytes);
}

/// The stamp of on-demand fixture `name`: a hash of every input of its generation.
fn stamp(name: &str) -> String {
    let root = repo_root();
    let mut h = Sha256::new();
    let dir = root.join("motoko/fixtures").join(name);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("no on-demand fixture {name} ({}): {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_file())
        .collect();
    files.sort();
    for f in &files {
        hash_file(&mut h, &root, f);
    }
    for f in [
        "scripts/gen-fixtures",
        "scripts/compile-fixture.js",
        "scripts/package-lock.json",
        "scripts/node_modules/motoko/package.json",
    ] {
        hash_file(&mut h, &root, &root.join(f));
    }
    hash_file(&mut h, &root, Path::new(BIN));
    hex::encode(h.finalize())
}

/// An exclusive lock on `path` (created), held while the returned file is open: two test
/// processes must not regenerate the same fixture at once.
fn lock_file(path: &Path) -> std::fs::File {
    let file = std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    // SAFETY: flock on a file descriptor this function owns, which stays open while locked.
    let rc = unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX) };
    assert_eq!(
        rc,
        0,
        "flock {}: {}",
        path.display(),
        std::io::Error::last_os_error()
    );
    file
}

/// The directory holding `MODE/` of on-demand fixture `name` (every mode of its scenario),
/// generated first unless its stamp says it is up to date. `None` after [`skip::skipped`] (a
/// failure under `MO_MEM_STRICT=1`) when the pinned compiler is not installed.
pub fn generated_fixture(name: &str) -> Option<PathBuf> {
    assert!(
        GENERATED_BY_TESTS.contains(&name),
        "{name} is not in GENERATED_BY_TESTS"
    );
    static LOCK: OnceLock<Mutex<()>> = OnceLock::new();
    let _guard = LOCK
        .get_or_init(|| Mutex::new(()))
        .lock()
        .unwrap_or_else(|p| p.into_inner());
    let root = repo_root();
    if !root
        .join("scripts/node_modules/motoko/package.json")
        .is_file()
    {
        skip::skipped(&format!(
            "cannot generate fixture {name}: the pinned compiler is not installed \
             (scripts/node_modules/motoko; run `npm ci` in scripts/)"
        ));
        return None;
    }
    if let Err(e) = Command::new("node").arg("--version").output() {
        skip::skipped(&format!(
            "cannot generate fixture {name}: cannot run node: {e}"
        ));
        return None;
    }
    let out = materialized_root().join(name);
    std::fs::create_dir_all(materialized_root()).unwrap();
    let _lock = lock_file(&materialized_root().join(format!("{name}.lock")));
    let stamp_file = materialized_root().join(format!("{name}.stamp"));
    let want = stamp(name);
    if out.is_dir() && std::fs::read_to_string(&stamp_file).ok().as_deref() == Some(&*want) {
        return Some(out);
    }
    // Not up to date: no stamp until the generation has succeeded.
    match std::fs::remove_file(&stamp_file) {
        Ok(()) => {}
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
        Err(e) => panic!("{}: {e}", stamp_file.display()),
    }
    if out.exists() {
        std::fs::remove_dir_all(&out).unwrap_or_else(|e| panic!("{}: {e}", out.display()));
    }
    let started = std::time::Instant::now();
    let result = Command::new(root.join("scripts/gen-fixtures"))
        .args(["--on-demand", name, "--out"])
        .arg(&out)
        .env("MO_MEM_BIN", BIN)
        .current_dir(&root)
        .output();
    let output = match result {
        Ok(o) => o,
        Err(e) => {
            skip::skipped(&format!(
                "cannot generate fixture {name}: scripts/gen-fixtures: {e}"
            ));
            return None;
        }
    };
    assert!(
        output.status.success(),
        "scripts/gen-fixtures --on-demand {name} failed ({}):\n{}",
        output.status,
        String::from_utf8_lossy(&output.stderr)
    );
    eprintln!(
        "generated fixture {name} in {:.1} s -> {}",
        started.elapsed().as_secs_f64(),
        out.display()
    );
    std::fs::write(&stamp_file, want).unwrap();
    Some(out)
}
