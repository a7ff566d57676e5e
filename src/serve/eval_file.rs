//! The `eval` control file of a served snapshot: the vfs's [`ControlFile`] over the script
//! engine's sessions ([`EvalWorkers`]), reading the snapshot its directory serves.

use super::catalog::{OpenedSnapshot, Snapshots};
use crate::script::workers::{check_script, EvalWorkers, USAGE};
use crate::script::Limits;
use crate::vfs::{ControlFile, SessionId};
use std::path::Path;
use std::sync::Arc;

/// The `eval` engine of a tree; [`ControlFile::for_snapshot`] gives each snapshot
/// directory its own [`SnapshotEval`] over the shared opened snapshot.
pub struct EvalFiles {
    snapshots: Arc<Snapshots>,
    limits: Limits,
}

impl EvalFiles {
    /// Engines whose evaluations run under `limits`, over the snapshots of `snapshots`.
    pub fn new(snapshots: Arc<Snapshots>, limits: Limits) -> EvalFiles {
        EvalFiles { snapshots, limits }
    }
}

impl ControlFile for EvalFiles {
    fn check(&self, request: &[u8]) -> Result<(), String> {
        check_script(request)
    }

    fn run(&self, _session: SessionId, _request: &[u8]) -> Vec<u8> {
        b"eval: no snapshot is attached to this file\n".to_vec()
    }

    fn usage(&self) -> Vec<u8> {
        USAGE.to_vec()
    }

    fn for_snapshot(&self, dir: &Path) -> Option<Arc<dyn ControlFile>> {
        let snapshot = self.snapshots.get(dir);
        Some(Arc::new(SnapshotEval::new(snapshot, self.limits.clone())))
    }
}

/// The `eval` engine of one snapshot directory: per-session script sessions over it.
pub struct SnapshotEval {
    snapshot: Arc<OpenedSnapshot>,
    workers: EvalWorkers,
}

impl SnapshotEval {
    /// The engine for `snapshot` (opened on the first evaluation, if not already).
    pub fn new(snapshot: Arc<OpenedSnapshot>, limits: Limits) -> SnapshotEval {
        SnapshotEval {
            snapshot,
            workers: EvalWorkers::new(limits),
        }
    }
}

impl ControlFile for SnapshotEval {
    fn check(&self, request: &[u8]) -> Result<(), String> {
        check_script(request)
    }

    fn run(&self, session: SessionId, request: &[u8]) -> Vec<u8> {
        self.workers.run(session.0, request, || {
            // a snapshot whose heap does not decode still evaluates scripts, without host values
            match self.snapshot.heap() {
                Ok(heap) => Some(heap.clone()),
                Err(e) => {
                    tracing::warn!(snapshot = %self.snapshot.dir().display(), error = %e, "eval without image/heap/vars");
                    None
                }
            }
        })
    }

    fn end_session(&self, session: SessionId) {
        self.workers.end(session.0);
    }

    fn usage(&self) -> Vec<u8> {
        USAGE.to_vec()
    }
}
