//! The policy for reading a snapshot: store snapshots must verify; paths the user names without a
//! manifest are read as the user's own choice, with a note.

use super::error::StoreError;
use super::key::StoreKey;
use super::layout::Store;
use super::manifest::{Manifest, MANIFEST_FILE};
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

/// [`check`] with the default store root and key. The key is loaded (or created on first use)
/// only when there is something to verify: a path with a manifest, or one inside the store.
pub fn check_default(path: &Path, allow_unverified: bool) -> Result<Trust, StoreError> {
    let store = Store::at(None)?;
    let dir = snapshot_root(path);
    if !dir.join(MANIFEST_FILE).exists() && !store.contains(&dir) {
        return Ok(Trust::Unauthenticated);
    }
    let key = StoreKey::load_or_create(&StoreKey::default_path()?)?;
    check(path, &store, &key, allow_unverified)
}
