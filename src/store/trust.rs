//! The policy for reading a snapshot: store snapshots must verify; paths the user names without a
//! manifest are read as the user's own choice, with a note.

use super::error::StoreError;
use super::key::StoreKey;
use super::layout::Store;
use super::manifest::{Manifest, MANIFEST_FILE, PULL_STATE_FILE};
use std::path::{Path, PathBuf};

/// How far a snapshot about to be read can be trusted.
#[derive(Debug)]
pub enum Trust {
    /// The manifest's HMAC and every file's SHA-256 verified.
    Verified(Box<Manifest>),
    /// No manifest: a path the user named (an icp-cli/dfx download, a fixture). Read at the user's choice.
    Unauthenticated,
    /// Verification failed, but the user explicitly opted out of the check.
    Overridden(StoreError),
}

impl Trust {
    /// A one-line note for the user, if any is due.
    pub fn note(&self, path: &Path) -> Option<String> {
        match self {
            Trust::Verified(_) => None,
            Trust::Unauthenticated => Some(format!(
                "note: {} has no mo-mem manifest; it is not authenticated (read as you asked)",
                path.display()
            )),
            Trust::Overridden(e) => Some(format!(
                "warning: reading a snapshot that does not verify, as asked: {e}"
            )),
        }
    }
}

/// The snapshot directory a user path refers to: the path itself, or, for a file inside a
/// snapshot directory with a manifest, that directory.
pub fn snapshot_root(path: &Path) -> PathBuf {
    if path.is_file() {
        if let Some(parent) = path.parent() {
            if parent.join(MANIFEST_FILE).exists() {
                return parent.to_path_buf();
            }
        }
    }
    path.to_path_buf()
}

/// Decides whether `path` may be read. A directory with a manifest must verify; one inside
/// `store` must have a manifest; anything else is [`Trust::Unauthenticated`]. With
/// `allow_unverified` a failure becomes [`Trust::Overridden`] instead of an error.
pub fn check(
    path: &Path,
    store: &Store,
    key: &StoreKey,
    allow_unverified: bool,
) -> Result<Trust, StoreError> {
    let dir = snapshot_root(path);
    let outcome = if dir.join(MANIFEST_FILE).exists() {
        Manifest::verify(&dir, key).map(|m| Trust::Verified(Box::new(m)))
    } else if store.contains(&dir) {
        Err(StoreError::NoManifest { dir: dir.clone() })
    } else {
        Ok(Trust::Unauthenticated)
    };
    match outcome {
        Err(e) if allow_unverified => Ok(Trust::Overridden(e)),
        other => other,
    }
}

/// [`check`] with the default store root and key (created on first use).
pub fn check_default(path: &Path, allow_unverified: bool) -> Result<Trust, StoreError> {
    TrustRule::default_rule()?
        .creating_key()
        .check(path, allow_unverified)
}

/// The trust rule every front-end applies ([`check`]), with where its store and key are:
/// the key is loaded only when there is something to verify (a path with a manifest, or
/// one inside the store).
#[derive(Debug, Clone)]
pub struct TrustRule {
    store: Store,
    key_path: PathBuf,
    create_key: bool,
}

impl TrustRule {
    /// The rule for `store` under the key at `key_path`; a missing key is an error
    /// ([`StoreError::NoKey`]), never created.
    pub fn new(store: Store, key_path: PathBuf) -> TrustRule {
        TrustRule {
            store,
            key_path,
            create_key: false,
        }
    }

    /// The rule for the default store and key.
    pub fn default_rule() -> Result<TrustRule, StoreError> {
        Ok(TrustRule::new(Store::at(None)?, StoreKey::default_path()?))
    }

    /// The same rule creating the key when it does not exist yet.
    pub fn creating_key(self) -> TrustRule {
        TrustRule {
            create_key: true,
            ..self
        }
    }

    fn key(&self) -> Result<StoreKey, StoreError> {
        if self.create_key {
            return StoreKey::load_or_create(&self.key_path);
        }
        StoreKey::load(&self.key_path).map_err(|e| match e {
            StoreError::Io { source, .. } if source.kind() == std::io::ErrorKind::NotFound => {
                StoreError::NoKey {
                    path: self.key_path.clone(),
                }
            }
            other => other,
        })
    }

    /// Decides whether `path` may be read ([`check`]); with `allow_unverified` a failure,
    /// a missing or unusable key included, becomes [`Trust::Overridden`].
    pub fn check(&self, path: &Path, allow_unverified: bool) -> Result<Trust, StoreError> {
        let dir = snapshot_root(path);
        if !dir.join(MANIFEST_FILE).exists() && !self.store.contains(&dir) {
            return Ok(Trust::Unauthenticated);
        }
        match self.key() {
            Ok(key) => check(path, &self.store, &key, allow_unverified),
            Err(e) if allow_unverified => Ok(Trust::Overridden(e)),
            Err(e) => Err(e),
        }
    }
}

/// Marks of a snapshot directory still being written: icp-cli/dfx's download progress and
/// the store's resumable pull state.
pub const IN_PROGRESS_MARKS: [&str; 2] = [".download_progress.json", PULL_STATE_FILE];

/// Whether `dir` is still being written: a download or pull under way, or a temporary
/// directory (`*.tmp`) not yet renamed into place.
pub fn is_in_progress(dir: &Path) -> bool {
    IN_PROGRESS_MARKS.iter().any(|mark| dir.join(mark).exists())
        || dir
            .file_name()
            .is_some_and(|n| n.to_string_lossy().ends_with(".tmp"))
}

/// Whether the store snapshot `dir` is complete: its manifest is written (after its
/// checks passed) and nothing is writing it any more.
pub fn is_complete(dir: &Path) -> bool {
    dir.join(MANIFEST_FILE).is_file() && !is_in_progress(dir)
}
