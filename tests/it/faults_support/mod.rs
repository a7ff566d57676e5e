//! Shared by the trust, fault and load tests: a store holding imported fixture snapshots
//! under a private key; the mount harness is `tests/it/mount_support`.

use crate::mount_support;

pub use mount_support::{fuse_available, read_errno, Mounted as Mount, BIN};

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// A temporary store and config directory (holding the store key).
pub struct TestStore {
    pub dir: tempfile::TempDir,
}

impl TestStore {
    pub fn new() -> TestStore {
        TestStore {
            dir: tempfile::tempdir().unwrap(),
        }
    }

    pub fn root(&self) -> PathBuf {
        self.dir.path().join("store")
    }

    pub fn config(&self) -> PathBuf {
        self.dir.path().join("config")
    }

    /// `mo-mem ARGS` with this store's key and store.
    pub fn command(&self) -> Command {
        let mut command = Command::new(BIN);
        command
            .env("MO_MEM_CONFIG_DIR", self.config())
            .env("MO_MEM_STORE", self.root())
            .env("MO_MEM_LOG", "warn");
        command
    }

    pub fn run(&self, args: &[&str]) -> Output {
        self.command().args(args).output().unwrap()
    }

    /// Imports the snapshot directory `from` as `<canister>/<snapshot>`; returns its path.
    pub fn import(&self, from: &Path, canister: &str, snapshot: &str) -> PathBuf {
        let out = self
            .command()
            .arg("import")
            .arg(from)
            .args(["--canister", canister, "--snapshot", snapshot, "--trust"])
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "import failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let dir = self.root().join(canister).join(snapshot);
        assert!(dir.join("manifest.json").is_file());
        dir
    }
}

/// Overwrites one byte of `path` in place (same size, new content).
pub fn flip_byte(path: &Path, offset: u64) {
    use std::os::unix::fs::FileExt;
    let file = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .open(path)
        .unwrap();
    let mut byte = [0u8];
    file.read_exact_at(&mut byte, offset).unwrap();
    byte[0] ^= 0x5a;
    file.write_all_at(&byte, offset).unwrap();
}
