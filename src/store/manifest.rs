//! The manifest of a complete snapshot: SHA-256 of every file, the source, and an HMAC over both.

use super::error::{io_at, StoreError};
use super::fsutil::{atomic_write, read_limited, sha256_file};
use super::key::StoreKey;
use hmac::{Hmac, Mac};
use serde::{Deserialize, Serialize};
use sha2::Sha256;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// File name of the manifest inside a snapshot directory. Its presence marks the snapshot complete.
pub const MANIFEST_FILE: &str = "manifest.json";
/// File name of the resumable pull's progress, removed once the snapshot is complete.
pub use crate::snapshot::download::PULL_STATE_FILE;
/// The manifest format tag.
pub const MANIFEST_FORMAT: &str = "mo-mem-manifest/1";
/// Largest manifest accepted, in bytes.
pub const MAX_MANIFEST_BYTES: u64 = 16 << 20;
/// Most files a snapshot directory may hold.
pub const MAX_FILES: usize = 100_000;
/// Deepest directory nesting inside a snapshot directory.
const MAX_DEPTH: usize = 4;

/// Where a snapshot came from.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct Source {
    /// `ic`, or the replica URL the snapshot was pulled from; `import` for adopted downloads.
    pub network: String,
    /// Textual principal of the canister.
    pub canister: String,
    /// Snapshot ID, lowercase hex.
    pub snapshot: String,
    /// When the snapshot was taken, nanoseconds since 1970.
    pub taken_at_ns: u64,
    /// When mo-mem completed the download or import, nanoseconds since 1970.
    pub acquired_at_ns: u64,
    /// How it was acquired: `management` (snapshot API), `canister` (canister-hosted protocol) or `import`.
    pub method: String,
}

/// One file of a snapshot.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct FileEntry {
    /// Path relative to the snapshot directory, `/`-separated.
    pub path: String,
    /// Size in bytes.
    pub size: u64,
    /// SHA-256 of the content, lowercase hex.
    pub sha256: String,
}

/// The authenticated content of `manifest.json` (everything except the HMAC itself).
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct Manifest {
    /// Always [`MANIFEST_FORMAT`].
    pub format: String,
    /// Where the snapshot came from.
    pub source: Source,
    /// Every file, sorted by path.
    pub files: Vec<FileEntry>,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct SignedManifest {
    format: String,
    source: Source,
    files: Vec<FileEntry>,
    hmac: String,
}

impl Manifest {
    /// Hashes every file under `dir` (except the manifest and pull state) into a manifest.
    pub fn build(dir: &Path, source: Source) -> Result<Self, StoreError> {
        let mut files = Vec::new();
        for rel in list_files(dir)? {
            let (digest, size) = sha256_file(&dir.join(&rel))?;
            files.push(FileEntry {
                path: rel,
                size,
                sha256: hex::encode(digest),
            });
        }
        files.sort_by(|a, b| a.path.cmp(&b.path));
        Ok(Self {
            format: MANIFEST_FORMAT.to_string(),
            source,
            files,
        })
    }

    /// The bytes the HMAC covers: the canonical JSON of the manifest without its HMAC.
    fn canonical_bytes(&self) -> Vec<u8> {
        // Serializing plain structs, strings and integers cannot fail.
        serde_json::to_vec(self).unwrap_or_default()
    }

    fn mac(&self, key: &StoreKey) -> Hmac<Sha256> {
        let mut mac = match <Hmac<Sha256> as Mac>::new_from_slice(key.as_bytes()) {
            Ok(m) => m,
            Err(_) => unreachable!("HMAC accepts keys of any length"),
        };
        mac.update(&self.canonical_bytes());
        mac
    }

    /// Writes `dir/manifest.json` atomically with an HMAC under `key`. This marks the snapshot complete.
    pub fn write(&self, dir: &Path, key: &StoreKey) -> Result<(), StoreError> {
        let signed = SignedManifest {
            format: self.format.clone(),
            source: self.source.clone(),
            files: self.files.clone(),
            hmac: hex::encode(self.mac(key).finalize().into_bytes()),
        };
        let mut bytes = serde_json::to_vec_pretty(&signed).unwrap_or_default();
        bytes.push(b'\n');
        atomic_write(&dir.join(MANIFEST_FILE), &bytes)
    }

    /// Reads `dir/manifest.json` and checks its HMAC under `key`; does not look at the files.
    pub fn read_authenticated(dir: &Path, key: &StoreKey) -> Result<Self, StoreError> {
        let path = dir.join(MANIFEST_FILE);
        if !path.exists() {
            return Err(StoreError::NoManifest {
                dir: dir.to_path_buf(),
            });
        }
        let bytes = read_limited(&path, MAX_MANIFEST_BYTES)?;
        let bad = |reason: String| StoreError::BadManifest {
            path: path.clone(),
            reason,
        };
        let signed: SignedManifest =
            serde_json::from_slice(&bytes).map_err(|e| bad(e.to_string()))?;
        let manifest = Manifest {
            format: signed.format,
            source: signed.source,
            files: signed.files,
        };
        let tag = hex::decode(&signed.hmac).map_err(|_| bad("hmac is not hex".into()))?;
        manifest
            .mac(key)
            .verify_slice(&tag)
            .map_err(|_| StoreError::BadHmac { path: path.clone() })?;
        if manifest.format != MANIFEST_FORMAT {
            return Err(bad(format!("unknown format {:?}", manifest.format)));
        }
        if manifest.files.len() > MAX_FILES {
            return Err(bad(format!(
                "{} files (limit {MAX_FILES})",
                manifest.files.len()
            )));
        }
        let mut seen = BTreeMap::new();
        for f in &manifest.files {
            check_rel_path(&f.path).map_err(|r| bad(format!("{:?}: {r}", f.path)))?;
            if seen.insert(f.path.as_str(), ()).is_some() {
                return Err(bad(format!("{:?} listed twice", f.path)));
            }
        }
        Ok(manifest)
    }

    /// Verifies a complete snapshot: HMAC, no extra or missing file, every size and SHA-256.
    pub fn verify(dir: &Path, key: &StoreKey) -> Result<Self, StoreError> {
        let manifest = Self::read_authenticated(dir, key)?;
        let listed: BTreeMap<&str, &FileEntry> = manifest
            .files
            .iter()
            .map(|f| (f.path.as_str(), f))
            .collect();
        for rel in list_files(dir)? {
            if !listed.contains_key(rel.as_str()) {
                return Err(StoreError::Unexpected {
                    path: dir.join(rel),
                });
            }
        }
        for f in &manifest.files {
            let path = dir.join(&f.path);
            let meta = match std::fs::symlink_metadata(&path) {
                Ok(m) => m,
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                    return Err(StoreError::Missing { path })
                }
                Err(e) => return Err(io_at(&path)(e)),
            };
            if meta.len() != f.size {
                return Err(StoreError::SizeMismatch {
                    path,
                    expected: f.size,
                    actual: meta.len(),
                });
            }
            let (digest, _) = sha256_file(&path)?;
            let actual = hex::encode(digest);
            if actual != f.sha256 {
                return Err(StoreError::HashMismatch {
                    path,
                    expected: f.sha256.clone(),
                    actual,
                });
            }
        }
        Ok(manifest)
    }
}

/// Checks a manifest path: relative, `/`-separated, no empty, `.` or `..` component.
fn check_rel_path(rel: &str) -> Result<(), &'static str> {
    if rel.is_empty() || rel.starts_with('/') {
        return Err("not a relative path");
    }
    for part in rel.split('/') {
        if part.is_empty() || part == "." || part == ".." {
            return Err("empty, '.' or '..' component");
        }
        if part.contains('\0') || part.contains('\\') {
            return Err("forbidden character");
        }
    }
    if rel == MANIFEST_FILE || rel == PULL_STATE_FILE {
        return Err("reserved name");
    }
    Ok(())
}

/// Lists the regular files under `dir` (relative, sorted), except the manifest and pull state.
/// Symlinks and special files are refused: a snapshot holds only regular files.
pub fn list_files(dir: &Path) -> Result<Vec<String>, StoreError> {
    let mut out = Vec::new();
    walk(dir, String::new(), 0, &mut out)?;
    out.sort();
    Ok(out)
}

fn walk(dir: &Path, prefix: String, depth: usize, out: &mut Vec<String>) -> Result<(), StoreError> {
    let here: PathBuf = if prefix.is_empty() {
        dir.to_path_buf()
    } else {
        dir.join(&prefix)
    };
    if depth > MAX_DEPTH {
        return Err(StoreError::Layout {
            path: here,
            reason: "directories nested too deep".into(),
        });
    }
    for entry in std::fs::read_dir(&here).map_err(io_at(&here))? {
        let entry = entry.map_err(io_at(&here))?;
        let name = entry.file_name();
        let Some(name) = name.to_str() else {
            return Err(StoreError::Layout {
                path: entry.path(),
                reason: "file name is not UTF-8".into(),
            });
        };
        let rel = if prefix.is_empty() {
            name.to_string()
        } else {
            format!("{prefix}/{name}")
        };
        if rel == MANIFEST_FILE || rel == PULL_STATE_FILE {
            continue;
        }
        let ft = entry.file_type().map_err(io_at(&entry.path()))?;
        if ft.is_dir() {
            walk(dir, rel, depth + 1, out)?;
        } else if ft.is_file() {
            if out.len() >= MAX_FILES {
                return Err(StoreError::Limit {
                    what: format!("files in {}", dir.display()),
                    value: out.len() as u64 + 1,
                    limit: MAX_FILES as u64,
                });
            }
            out.push(rel);
        } else {
            return Err(StoreError::Layout {
                path: entry.path(),
                reason: "not a regular file (symlinks and special files are refused)".into(),
            });
        }
    }
    Ok(())
}
