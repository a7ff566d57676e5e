//! Trust, once for every front-end: which store directories are complete ([`StoreGate`]),
//! and whether a command may read a snapshot ([`admit`]); the mount's verifier is
//! [`super::mount_trust::StoreVerifier`]. The rule itself is the store's
//! ([`crate::store::TrustRule`]).

use super::catalog::{OpenedSnapshot, Snapshots, TrustPolicy, Verdict};
use crate::image::ReaderLimits;
use crate::snapshot::metadata::GlobalValue;
use crate::snapshot::{OpenOptions, Snapshot, SnapshotError};
use crate::store::{StoreError, Trust, TrustRule};
use crate::vfs::SnapshotGate;
use std::path::{Path, PathBuf};
use std::sync::Arc;

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
#[error("refusing snapshot {} (pass --no-verify to read it anyway)", path.display())]
pub struct Refused {
    /// The snapshot as the user named it.
    pub path: PathBuf,
    /// Why it does not verify.
    #[source]
    pub source: Arc<StoreError>,
}

/// A snapshot a command may read: its catalog (the commands' [`TrustPolicy`]), the opened
/// snapshot and the verdict that admitted it.
pub struct Admitted {
    /// The catalog the snapshot is served from (a tree over it reads the same verdict).
    pub snapshots: Arc<Snapshots>,
    /// The snapshot.
    pub snapshot: Arc<OpenedSnapshot>,
    /// Its verdict (not a refusal).
    pub verdict: Arc<Verdict>,
}

impl Admitted {
    /// The note for the user the verdict calls for, if any ([`crate::store::Trust::note`]).
    pub fn note(&self) -> Option<String> {
        match &*self.verdict {
            Ok(trust) => trust.note(self.snapshot.dir()),
            Err(_) => None,
        }
    }

    /// The canister the snapshot was taken from, as its verified manifest says (`None`
    /// without a verified manifest: a plain icp-cli/dfx directory, or one read unverified).
    pub fn canister(&self) -> Option<&str> {
        match &*self.verdict {
            Ok(Trust::Verified(manifest)) => Some(&manifest.source.canister),
            _ => None,
        }
    }

    /// The admitted snapshot's files opened for running its canister (`mo-mem call`,
    /// `methods`), without decoding its heap; with `wasm`, its main memory run by that
    /// module instead (and, if given, these `globals`).
    pub fn open_for_calls(
        &self,
        wasm: Option<&Path>,
        globals: Option<Vec<GlobalValue>>,
    ) -> Result<Snapshot, SnapshotError> {
        let dir = self.snapshot.dir();
        match wasm {
            Some(wasm) => Snapshot::open_image(dir, Some(wasm), globals),
            None => Snapshot::open_with(dir, OpenOptions::for_limits(&self.snapshots.limits())),
        }
    }
}

/// Snapshots of two canisters given to a command that compares snapshots of one.
#[derive(Debug, thiserror::Error)]
#[error(
    "{} is a snapshot of canister {other_canister}, but {} is of canister {first_canister}: \
     `mo-mem {command}` compares snapshots of one canister",
    other.display(),
    first.display()
)]
pub struct CanisterMismatch {
    /// The command refusing them (`trend`, `diff`).
    pub command: &'static str,
    /// The first snapshot whose canister is known.
    pub first: PathBuf,
    /// Its canister.
    pub first_canister: String,
    /// The first snapshot of another canister.
    pub other: PathBuf,
    /// That canister.
    pub other_canister: String,
}

/// Ok if every snapshot of `snapshots` whose canister is known ([`Admitted::canister`]) is
/// of the same canister; else the first pair that differs, for `command`.
pub fn one_canister(command: &'static str, snapshots: &[Admitted]) -> Result<(), CanisterMismatch> {
    let mut known = snapshots
        .iter()
        .filter_map(|a| Some((a.snapshot.dir(), a.canister()?)));
    let Some((first, first_canister)) = known.next() else {
        return Ok(());
    };
    match known.find(|(_, canister)| *canister != first_canister) {
        None => Ok(()),
        Some((other, other_canister)) => Err(CanisterMismatch {
            command,
            first: first.to_path_buf(),
            first_canister: first_canister.to_string(),
            other: other.to_path_buf(),
            other_canister: other_canister.to_string(),
        }),
    }
}

/// The commands' trust policy: the default store and key (created on first use); with
/// `no_verify` a snapshot that does not verify is read anyway.
pub fn command_policy(no_verify: bool) -> Result<TrustPolicy, StoreError> {
    Ok(TrustPolicy {
        rule: TrustRule::default_rule()?.creating_key(),
        allow_unverified: no_verify,
    })
}

/// Whether a command may read `path` (read under `limits`): a store snapshot (or one with a
/// manifest) must verify unless `no_verify`. The verdict is the opened snapshot's
/// ([`OpenedSnapshot::trust`]), decided once; the caller shows [`Admitted::note`].
pub fn admit(path: &Path, no_verify: bool, limits: ReaderLimits) -> Result<Admitted, Refused> {
    let refused = |source| Refused {
        path: path.to_path_buf(),
        source,
    };
    let policy = command_policy(no_verify).map_err(|e| refused(Arc::new(e)))?;
    let snapshots = Arc::new(Snapshots::with_trust(limits, policy));
    let snapshot = snapshots.get(path);
    let Some(verdict) = snapshot.trust() else {
        unreachable!("a catalog with a trust policy decides a verdict")
    };
    if let Err(why) = &*verdict {
        return Err(refused(why.clone()));
    }
    Ok(Admitted {
        snapshots,
        snapshot,
        verdict,
    })
}
