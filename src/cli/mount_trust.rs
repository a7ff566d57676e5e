//! The mount's trust rule, from the store: a snapshot with a manifest (or inside the store)
//! must verify under this machine's key; one named by path without a manifest is served as
//! the user's own choice. Verification hashes every file once per mount, on first access.

use mo_mem::store::{check_trust, Store, StoreError, StoreKey, Trust};
use mo_mem::vfs::{SnapshotVerifier, Verified};
use std::path::{Path, PathBuf};

/// Verifies served snapshots against the store's HMAC manifests.
pub struct StoreVerifier {
    store: Store,
    key_path: PathBuf,
    allow_unverified: bool,
}

impl StoreVerifier {
    /// Verifies snapshots of `store` (and those with a manifest anywhere) under the key at
    /// `key_path`; with `allow_unverified` a failure is a warning, not a refusal.
    pub fn new(store: Store, key_path: PathBuf, allow_unverified: bool) -> StoreVerifier {
        StoreVerifier {
            store,
            key_path,
            allow_unverified,
        }
    }

    /// The key, never created here: a missing key means nothing can be authenticated.
    fn key(&self) -> Result<StoreKey, String> {
        StoreKey::load(&self.key_path).map_err(|e| match e {
            StoreError::Io { source, .. } if source.kind() == std::io::ErrorKind::NotFound => {
                format!(
                    "the store key {} is missing, so no manifest can be authenticated \
                     (set MO_MEM_CONFIG_DIR to where it is, or pull or import the snapshot again)",
                    self.key_path.display()
                )
            }
            other => other.to_string(),
        })
    }

    fn check(&self, dir: &Path) -> Result<Trust, String> {
        if !dir.join(mo_mem::store::MANIFEST_FILE).exists() && !self.store.contains(dir) {
            return Ok(Trust::Unauthenticated);
        }
        let key = self.key()?;
        check_trust(dir, &self.store, &key, false).map_err(|e| e.to_string())
    }
}

impl SnapshotVerifier for StoreVerifier {
    fn verify(&self, dir: &Path) -> Result<Verified, String> {
        match self.check(dir) {
            Ok(Trust::Verified(manifest)) => {
                tracing::info!(snapshot = %dir.display(), "verified");
                Ok(Verified::Authenticated(
                    manifest.files.iter().map(|f| dir.join(&f.path)).collect(),
                ))
            }
            Ok(trust) => {
                if let Some(note) = trust.note(dir) {
                    tracing::info!("{note}");
                }
                Ok(Verified::Unauthenticated)
            }
            Err(why) if self.allow_unverified => {
                tracing::warn!(
                    snapshot = %dir.display(),
                    "serving a snapshot that does not verify, as asked (--no-verify): {why}"
                );
                Ok(Verified::Unauthenticated)
            }
            Err(why) => Err(why),
        }
    }
}
