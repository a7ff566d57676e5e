//! Where snapshots live: `<root>/<canister-id>/<snapshot-id>/`, root = XDG data dir or `--store`.

use super::error::{io_at, StoreError};
use super::manifest::{MANIFEST_FILE, PULL_STATE_FILE};
use std::path::{Path, PathBuf};

/// Environment variable overriding the default store root.
pub const STORE_ENV: &str = "MO_MEM_STORE";

/// File names of the icp-cli/dfx snapshot layout.
pub mod files {
    /// The snapshot's metadata (serde JSON of `ReadCanisterSnapshotMetadataResult`).
    pub const METADATA: &str = "metadata.json";
    /// The installed Wasm module (raw or gzipped).
    pub const WASM_MODULE: &str = "wasm_module.bin";
    /// The canister's main (Wasm) memory.
    pub const WASM_MEMORY: &str = "wasm_memory.bin";
    /// The canister's stable memory.
    pub const STABLE_MEMORY: &str = "stable_memory.bin";
    /// Directory of chunk-store entries, each `<hex sha256>.bin`.
    pub const CHUNK_STORE: &str = "wasm_chunk_store";
    /// The bare main-memory image written by the canister-hosted protocol.
    pub const BARE_IMAGE: &str = "main_memory.bin";
}

/// A local snapshot store rooted at a directory.
#[derive(Debug, Clone)]
pub struct Store {
    root: PathBuf,
}

/// One snapshot directory found in the store.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredSnapshot {
    /// Canister principal (directory name).
    pub canister: String,
    /// Snapshot ID (directory name).
    pub snapshot: String,
    /// The directory.
    pub dir: PathBuf,
    /// Whether a manifest marks it complete (not whether it verifies).
    pub complete: bool,
    /// Whether an interrupted pull left progress to resume.
    pub resumable: bool,
}

impl Store {
    /// The default root: `$MO_MEM_STORE`, else `<XDG data dir>/mo-mem/snapshots`.
    pub fn default_root() -> Result<PathBuf, StoreError> {
        if let Some(dir) = std::env::var_os(STORE_ENV) {
            return Ok(PathBuf::from(dir));
        }
        let base = dirs::data_dir().ok_or(StoreError::NoDirectory("data"))?;
        Ok(base.join("mo-mem").join("snapshots"))
    }

    /// A store at `root` (created lazily, on first write).
    pub fn new(root: impl Into<PathBuf>) -> Self {
        Self { root: root.into() }
    }

    /// The store at `root`, or at the default root when `None`.
    pub fn at(root: Option<&Path>) -> Result<Self, StoreError> {
        match root {
            Some(r) => Ok(Self::new(r)),
            None => Ok(Self::new(Self::default_root()?)),
        }
    }

    /// The store's root directory.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// The directory of one snapshot; both names must be plain path components.
    pub fn snapshot_dir(&self, canister: &str, snapshot: &str) -> Result<PathBuf, StoreError> {
        for name in [canister, snapshot] {
            if !is_plain_name(name) {
                return Err(StoreError::Layout {
                    path: self.root.join(name),
                    reason: "not a plain name (letters, digits, '-', '_', '.')".into(),
                });
            }
        }
        Ok(self.root.join(canister).join(snapshot))
    }

    /// Whether `path` lies inside this store (after resolving symlinks where possible).
    pub fn contains(&self, path: &Path) -> bool {
        let root = std::fs::canonicalize(&self.root).unwrap_or_else(|_| self.root.clone());
        let p = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
        p.starts_with(&root)
    }

    /// Every snapshot directory in the store, sorted by canister then snapshot.
    pub fn list(&self) -> Result<Vec<StoredSnapshot>, StoreError> {
        let mut out = Vec::new();
        if !self.root.exists() {
            return Ok(out);
        }
        for c in std::fs::read_dir(&self.root).map_err(io_at(&self.root))? {
            let c = c.map_err(io_at(&self.root))?;
            if !c.file_type().map(|t| t.is_dir()).unwrap_or(false) {
                continue;
            }
            let cdir = c.path();
            for s in std::fs::read_dir(&cdir).map_err(io_at(&cdir))? {
                let s = s.map_err(io_at(&cdir))?;
                if !s.file_type().map(|t| t.is_dir()).unwrap_or(false) {
                    continue;
                }
                let (Some(cn), Some(sn)) = (
                    c.file_name().to_str().map(String::from),
                    s.file_name().to_str().map(String::from),
                ) else {
                    continue;
                };
                if !is_plain_name(&cn) || !is_plain_name(&sn) || sn.ends_with(".tmp") {
                    continue;
                }
                let dir = s.path();
                out.push(StoredSnapshot {
                    complete: dir.join(MANIFEST_FILE).exists(),
                    resumable: dir.join(PULL_STATE_FILE).exists(),
                    canister: cn,
                    snapshot: sn,
                    dir,
                });
            }
        }
        out.sort_by(|a, b| (&a.canister, &a.snapshot).cmp(&(&b.canister, &b.snapshot)));
        Ok(out)
    }
}

/// A name usable as one path component: ASCII letters, digits, `-`, `_`, `.`, not `.`/`..`.
pub fn is_plain_name(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= 128
        && name != "."
        && name != ".."
        && !name.starts_with('.')
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_' || b == b'.')
}
