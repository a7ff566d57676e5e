//! The tree's verifier: each snapshot's trust verdict, decided once by its
//! [`OpenedSnapshot`](super::OpenedSnapshot) under the catalog's [`TrustPolicy`](super::TrustPolicy)
//! (the store's rule: a snapshot with a manifest, or inside the store, must verify under this
//! machine's key, never created here; one named by path without a manifest is served as the
//! user's own choice). Verification hashes every file once per opened snapshot, on first
//! access; the `eval` file and the commands read the same verdict.

use super::catalog::{Snapshots, Verdict};
use crate::store::Trust;
use crate::vfs::{ForeignError, SnapshotVerifier, Verified};
use std::path::Path;
use std::sync::Arc;

/// Verifies served snapshots through their catalog's verdicts.
pub struct StoreVerifier {
    snapshots: Arc<Snapshots>,
}

impl StoreVerifier {
    /// Verifies the snapshots of `snapshots` (a catalog made [`Snapshots::with_trust`]).
    pub fn new(snapshots: Arc<Snapshots>) -> StoreVerifier {
        StoreVerifier { snapshots }
    }
}

/// What the tree does with a verdict: the files it authenticates, or why it refuses.
fn verified(dir: &Path, verdict: Option<Arc<Verdict>>) -> Result<Verified, ForeignError> {
    let Some(verdict) = verdict else {
        return Ok(Verified::Unauthenticated);
    };
    match &*verdict {
        Ok(Trust::Verified(manifest)) => {
            tracing::info!(snapshot = %dir.display(), "verified");
            Ok(Verified::Authenticated(
                manifest.files.iter().map(|f| dir.join(&f.path)).collect(),
            ))
        }
        Ok(Trust::Overridden(why)) => {
            tracing::warn!(
                snapshot = %dir.display(),
                "serving a snapshot that does not verify, as asked (--no-verify): {why}"
            );
            Ok(Verified::Unauthenticated)
        }
        Ok(trust) => {
            if let Some(note) = trust.note(dir) {
                tracing::info!("{note}");
            }
            Ok(Verified::Unauthenticated)
        }
        Err(why) => Err(why.clone()),
    }
}

impl SnapshotVerifier for StoreVerifier {
    fn verify(&self, dir: &Path) -> Result<Verified, ForeignError> {
        verified(dir, self.snapshots.get(dir).trust())
    }

    fn verify_again(&self, dir: &Path) -> Result<Verified, ForeignError> {
        verified(dir, self.snapshots.get(dir).trust_again())
    }
}
