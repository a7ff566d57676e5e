//! What every served snapshot directory is wired with: the shared decoder and the `eval`
//! engine over one [`Snapshots`], so a snapshot is opened once for both.

use super::catalog::Snapshots;
use super::decoder::SharedDecoder;
use super::diff_files::CatalogDiffer;
use super::eval_file::EvalFiles;
use super::methods::MethodFiles;
use super::mount_trust::StoreVerifier;
use super::trust::StoreGate;
use crate::runtime::offline::CallOptions;
use crate::script::Limits;
use crate::vfs::{ControlLimits, SnapshotServices, SnapshotVerifier};
use std::sync::Arc;

/// The services of a tree serving `snapshots`, its `eval` files running scripts under
/// `eval_limits`, its `methods/` files calling the canister with the default limits
/// ([`services_with_calls`] sets them). A catalog made [`Snapshots::with_trust`] serves a snapshot once its
/// verdict admits it ([`StoreVerifier`]); otherwise every snapshot is served, its files
/// watched for changes.
pub fn services(snapshots: Arc<Snapshots>, eval_limits: Limits) -> SnapshotServices {
    services_with_calls(snapshots, eval_limits, CallOptions::default())
}

/// [`services`] whose `methods/` files call the canister under `calls` (its instruction
/// limit and deadline; the caller is always anonymous and updates never run).
pub fn services_with_calls(
    snapshots: Arc<Snapshots>,
    eval_limits: Limits,
    calls: CallOptions,
) -> SnapshotServices {
    let verifier = snapshots
        .checks_trust()
        .then(|| Arc::new(StoreVerifier::new(snapshots.clone())) as Arc<dyn SnapshotVerifier>);
    SnapshotServices {
        decoder: Arc::new(SharedDecoder::new(snapshots.clone())),
        differ: Some(Arc::new(CatalogDiffer::new(snapshots.clone()))),
        engine: Arc::new(EvalFiles::new(snapshots.clone(), eval_limits)),
        control_limits: ControlLimits::default(),
        eval_slots: Default::default(),
        verifier,
        gate: Arc::new(StoreGate),
        methods: Some(Arc::new(MethodFiles::new(snapshots, calls))),
    }
}
