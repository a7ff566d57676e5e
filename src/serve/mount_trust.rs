//! The mount's trust rule, from the store ([`TrustRule`]): a snapshot with a manifest (or
//! inside the store) must verify under this machine's key, never created here; one named by
//! path without a manifest is served as the user's own choice. Verification hashes every
//! file once per mount, on first access.

use crate::store::{Trust, TrustRule};
use crate::vfs::{ForeignError, SnapshotVerifier, Verified};
use std::path::Path;
use std::sync::Arc;

/// Verifies served snapshots against the store's HMAC manifests.
pub struct StoreVerifier {
    rule: TrustRule,
    allow_unverified: bool,
}

impl StoreVerifier {
    /// Verifies snapshots under `rule`; with `allow_unverified` a failure is a warning, not
    /// a refusal.
    pub fn new(rule: TrustRule, allow_unverified: bool) -> StoreVerifier {
        StoreVerifier {
            rule,
            allow_unverified,
        }
    }
}

impl SnapshotVerifier for StoreVerifier {
    fn verify(&self, dir: &Path) -> Result<Verified, ForeignError> {
        match self.rule.check(dir, self.allow_unverified) {
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
            Err(why) => Err(Arc::new(why)),
        }
    }
}
