//! Trust, once for every front-end: which store directories are complete ([`StoreGate`]),
//! and whether a command may read a snapshot ([`admit`]); the mount's verifier is
//! [`super::mount_trust::StoreVerifier`]. The rule itself is the store's
//! ([`crate::store::TrustRule`]).

use crate::store::{StoreError, Trust, TrustRule};
use crate::vfs::SnapshotGate;
use std::path::{Path, PathBuf};

/// The store's rule for which directories are served: complete store snapshots, and no
/// directory still being written.
pub struct StoreGate;

impl SnapshotGate for StoreGate {
    fn is_servable(&self, dir: &Path) -> bool {
        crate::store::is_complete(dir)
    }

    fn is_in_progress(&self, dir: &Path) -> bool {
        crate::store::is_in_progress(dir)
    }
}

/// A snapshot a command refuses to read.
#[derive(Debug, thiserror::Error)]
#[error("refusing snapshot {path} (pass --no-verify to read it anyway)")]
pub struct Refused {
    /// The snapshot as the user named it.
    pub path: PathBuf,
    /// Why it does not verify.
    #[source]
    pub source: StoreError,
}

/// Whether a command may read `path` under the default store and key (created on first
/// use): a store snapshot (or one with a manifest) must verify unless `no_verify`. The
/// caller shows the verdict's [`Trust::note`].
pub fn admit(path: &Path, no_verify: bool) -> Result<Trust, Refused> {
    let refused = |source| Refused {
        path: path.to_path_buf(),
        source,
    };
    TrustRule::default_rule()
        .map_err(refused)?
        .creating_key()
        .check(path, no_verify)
        .map_err(refused)
}
