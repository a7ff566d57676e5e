//! The `eval` control file of a served snapshot: the vfs's [`ControlFile`] over the script
//! engine's sessions ([`EvalWorkers`]), reading the snapshot its directory serves.

use super::catalog::{OpenedSnapshot, Snapshots};
use super::methods::ScriptCanister;
use super::siblings::catalog_siblings;
use crate::script::workers::{check_script, EvalWorkers, SiblingSource, StoppedByData, USAGE};
use crate::script::{HostErrorKind, Limits};
use crate::vfs::{ControlFile, RequestError, RequestErrorKind, SessionId, Untrusted, VfsError};
use std::path::Path;
use std::sync::{Arc, Mutex};

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

/// The script refused, as the control file's request error (`EINVAL`).
fn check(request: &[u8]) -> Result<(), RequestError> {
    check_script(request).map_err(|e| RequestError::new(RequestErrorKind::Invalid, e))
}

/// A script the snapshot's data stopped, as the control file's request error: its errno
/// follows the host value's failure (a limit, corrupt data, no signature).
fn stopped(e: StoppedByData) -> RequestError {
    let kind = match e.kind() {
        HostErrorKind::Limit => RequestErrorKind::Limit,
        HostErrorKind::NoSignature => RequestErrorKind::NoSignature,
        _ => RequestErrorKind::Corrupt,
    };
    RequestError::new(kind, e)
}

impl ControlFile for EvalFiles {
    fn check(&self, request: &[u8]) -> Result<(), RequestError> {
        check(request)
    }

    fn run(&self, _session: SessionId, _request: &[u8]) -> Result<Vec<u8>, RequestError> {
        Ok(b"eval: no snapshot is attached to this file\n".to_vec())
    }

    fn usage(&self) -> Vec<u8> {
        USAGE.to_vec()
    }

    fn for_snapshot(&self, dir: &Path) -> Option<Arc<dyn ControlFile>> {
        let snapshot = self.snapshots.get(dir);
        let (catalog, dir) = (self.snapshots.clone(), dir.to_path_buf());
        let siblings: SiblingSource = Arc::new(move || catalog_siblings(catalog.clone(), &dir));
        let eval = SnapshotEval::new(snapshot, self.limits.clone())
            .with_siblings(siblings)
            .keeping_analyses_up_to(self.snapshots.analysis_keep());
        Some(Arc::new(eval))
    }
}

/// The `eval` engine of one snapshot directory: per-session script sessions over it.
pub struct SnapshotEval {
    snapshot: Arc<OpenedSnapshot>,
    workers: EvalWorkers,
    /// The largest heap analysis kept between requests (see [`Snapshots::set_analysis_keep`]).
    analysis_keep: usize,
    /// The requests running now.
    running: Mutex<usize>,
}

impl SnapshotEval {
    /// The engine for `snapshot` (opened on the first evaluation, if not already).
    pub fn new(snapshot: Arc<OpenedSnapshot>, limits: Limits) -> SnapshotEval {
        let canister = Arc::new(ScriptCanister::over_snapshot(snapshot.clone()));
        SnapshotEval {
            snapshot,
            workers: EvalWorkers::with_canister(limits, canister),
            analysis_keep: usize::MAX,
            running: Mutex::new(0),
        }
    }

    /// The same engine releasing, when its last running request ends, a heap analysis
    /// (computed for a script) that takes more than `bytes`.
    pub fn keeping_analyses_up_to(self, bytes: usize) -> SnapshotEval {
        SnapshotEval {
            analysis_keep: bytes,
            ..self
        }
    }

    /// Counts a request in; the returned guard counts it out however the request ends.
    fn request_starts(&self) -> Running<'_> {
        *self.running.lock().unwrap_or_else(|p| p.into_inner()) += 1;
        Running(self)
    }

    /// Counts a request out: the last one out releases a heap analysis larger than the
    /// engine keeps, so the memory goes back once no script reads it.
    fn request_ended(&self) {
        let mut running = self.running.lock().unwrap_or_else(|p| p.into_inner());
        *running = running.saturating_sub(1);
        if *running == 0 {
            self.release_large_analysis();
            // what the requests freed (decoded values, a released analysis) is kept by the
            // allocator in their threads' arenas: give it back to the system
            crate::vfs::spill::release_free_memory();
        }
    }

    /// Releases the snapshot's heap analysis if it takes more than this engine keeps.
    fn release_large_analysis(&self) {
        let Ok(heap) = self.snapshot.heap() else {
            return;
        };
        let bytes = match heap.current_analysis() {
            Some(Ok(a)) => a.heap_bytes(),
            _ => return,
        };
        if bytes <= self.analysis_keep {
            tracing::debug!(
                bytes,
                keep = self.analysis_keep,
                "keeping the heap analysis"
            );
            return;
        }
        heap.release_analysis();
        tracing::info!(
            snapshot = %self.snapshot.dir().display(),
            bytes,
            freed = !heap.has_analysis(),
            "released the heap analysis a script computed (larger than the cache budget)"
        );
    }
}

impl SnapshotEval {
    /// The same engine whose sessions also bind `snapshots`: the siblings `siblings` lists.
    pub fn with_siblings(self, siblings: SiblingSource) -> SnapshotEval {
        SnapshotEval {
            workers: self.workers.with_siblings(siblings),
            ..self
        }
    }
}

/// A running request of an engine ([`SnapshotEval::request_starts`]), counted out when
/// dropped.
struct Running<'a>(&'a SnapshotEval);

impl Drop for Running<'_> {
    fn drop(&mut self) {
        self.0.request_ended();
    }
}

impl ControlFile for SnapshotEval {
    fn check(&self, request: &[u8]) -> Result<(), RequestError> {
        check(request)
    }

    fn run(&self, session: SessionId, request: &[u8]) -> Result<Vec<u8>, RequestError> {
        // the snapshot's own verdict, the one its directory's verifier read
        if let Some(verdict) = self.snapshot.trust() {
            if let Err(why) = &*verdict {
                let refused = VfsError::NotTrusted(Untrusted::Refused(why.clone()));
                return Err(RequestError::new(RequestErrorKind::NotTrusted, refused));
            }
        }
        let _running = self.request_starts();
        let answer = self.workers.run(session.0, request, || {
            // a snapshot whose heap does not decode still evaluates scripts, without host values
            match self.snapshot.heap() {
                Ok(heap) => Some(heap.clone()),
                Err(e) => {
                    tracing::warn!(snapshot = %self.snapshot.dir().display(), error = %e, "eval without image/heap/vars");
                    None
                }
            }
        });
        answer.map_err(stopped)
    }

    fn end_session(&self, session: SessionId) {
        self.workers.end(session.0);
    }

    fn usage(&self) -> Vec<u8> {
        USAGE.to_vec()
    }
}
