//! The snapshot behind a session's host values: the opened heap and its stable signature,
//! shared (read-only) by every session over the same snapshot.

use super::host::HostError;
use super::host_heap::HeapHost;
use super::host_image::ImageHost;
use super::host_lazy::EAGER_NODES;
use super::host_show::canister_show;
use super::host_vars::VarsHost;
use super::session::Session;
use crate::heap::types::StableSignature;
use crate::heap::value::heap_signature;
use crate::heap::Heap;
use crate::image::ReaderLimits;
use crate::snapshot::Snapshot;
use std::path::Path;
use std::rc::Rc;
use std::sync::Arc;

/// One opened snapshot, read by the host values `image`, `heap` and `vars`.
pub struct SnapshotContext {
    /// The decoded heap (its image is the snapshot's main memory).
    pub heap: Heap,
    /// The stable signature, or why it cannot be read.
    pub signature: Result<StableSignature, String>,
}

impl SnapshotContext {
    /// Wraps an opened heap.
    pub fn new(heap: Heap) -> SnapshotContext {
        let signature = heap_signature(&heap).map_err(|e| e.to_string());
        SnapshotContext { heap, signature }
    }

    /// Opens the snapshot directory `dir` with the default reader limits.
    pub fn open(dir: &Path) -> Result<SnapshotContext, HostError> {
        SnapshotContext::open_with_limits(dir, ReaderLimits::default())
    }

    /// Opens the snapshot directory `dir`, reading it under `limits`.
    pub fn open_with_limits(
        dir: &Path,
        limits: ReaderLimits,
    ) -> Result<SnapshotContext, HostError> {
        let what = dir.display();
        let snapshot = Snapshot::open(dir)
            .map_err(|e| HostError(format!("cannot open snapshot {what}: {e}")))?;
        let heap = Heap::open(snapshot, limits)
            .map_err(|e| HostError(format!("cannot decode the heap of {what}: {e}")))?;
        Ok(SnapshotContext::new(heap))
    }

    /// The stable signature, or the reason it is missing as a host error.
    pub fn signature(&self) -> Result<&StableSignature, HostError> {
        self.signature
            .as_ref()
            .map_err(|e| HostError(format!("no stable variables: {e}")))
    }
}

/// Binds `image`, `heap` and `vars` over `ctx` in `session`, and makes its `debug_show`
/// print like a compiled canister ([`canister_show`]).
pub fn install(session: &mut Session, ctx: Arc<SnapshotContext>) {
    install_with(session, ctx, EAGER_NODES);
}

/// [`install`], reading values of more than `eager_nodes` nodes lazily.
pub fn install_with(session: &mut Session, ctx: Arc<SnapshotContext>, eager_nodes: u64) {
    let vars = Rc::new(VarsHost::with_eager_nodes(ctx.clone(), eager_nodes));
    session.define_host("image", Rc::new(ImageHost::new(ctx.clone())));
    session.define_host("heap", Rc::new(HeapHost::new(ctx, vars.clone())));
    session.define_host("vars", vars);
    session.set_show(canister_show);
}
