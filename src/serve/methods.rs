//! The mount's `methods/` directories over the runner: each served snapshot's canister
//! ([`OfflineCanister`], restored once per opened snapshot and shared by every reader) asked
//! its queries; the vfs's [`CanisterMethods`] for one snapshot.

use super::catalog::{CanisterError, OpenedSnapshot, Snapshots};
use super::decoder::open_error;
use crate::analysis::OpenedHeap;
use crate::runtime::offline::{CallOptions, OfflineCanister, OfflineError, SnapshotHolder};
use crate::runtime::service::ServiceError;
use crate::runtime::RuntimeError;
use crate::script::host::canister::{CanisterCallError, CanisterCalls};
use crate::snapshot::Snapshot;
use crate::vfs::{
    CanisterMethods, DecodeFailure, MethodsProvider, QueryMethod, RequestError, RequestErrorKind,
    VfsError,
};
use candid::IDLArgs;
use std::path::Path;
use std::sync::Arc;

impl SnapshotHolder for OpenedHeap {
    fn snapshot(&self) -> &Snapshot {
        self.heap().snapshot()
    }
}

/// Gives every snapshot directory of a tree the queries of its canister.
pub struct MethodFiles {
    snapshots: Arc<Snapshots>,
    calls: CallOptions,
}

impl MethodFiles {
    /// The provider over the catalog `snapshots`, calling under `calls` (its instruction
    /// limit and deadline; queries only, whatever its `allow_update` says).
    pub fn new(snapshots: Arc<Snapshots>, calls: CallOptions) -> MethodFiles {
        let calls = CallOptions {
            allow_update: false,
            ..calls
        };
        MethodFiles { snapshots, calls }
    }
}

impl MethodsProvider for MethodFiles {
    fn for_snapshot(&self, dir: &Path) -> Option<Arc<dyn CanisterMethods>> {
        Some(Arc::new(SnapshotMethods {
            snapshot: self.snapshots.get(dir),
            calls: self.calls.clone(),
        }))
    }
}

/// The queries of one served snapshot's canister.
struct SnapshotMethods {
    snapshot: Arc<OpenedSnapshot>,
    calls: CallOptions,
}

/// The control file's request error for a call that failed: its errno says what kind.
fn call_error(e: OfflineError) -> RequestError {
    let kind = match &e {
        OfflineError::Runtime(
            RuntimeError::Trap { .. }
            | RuntimeError::Rejected { .. }
            | RuntimeError::NoReply { .. }
            | RuntimeError::UnsupportedCall { .. },
        ) => RequestErrorKind::Rejected,
        OfflineError::Runtime(RuntimeError::InstructionLimit { .. })
        | OfflineError::Deadline { .. } => RequestErrorKind::Limit,
        OfflineError::Service(ServiceError::Arguments { .. }) | OfflineError::Update(_) => {
            RequestErrorKind::Invalid
        }
        _ => RequestErrorKind::Corrupt,
    };
    RequestError::new(kind, e)
}

impl SnapshotMethods {
    /// The snapshot's canister (restored on its first call).
    fn canister(&self) -> Result<&Arc<OfflineCanister>, VfsError> {
        self.snapshot.canister().map_err(|e| match &**e {
            CanisterError::Open(open) => open_error(self.snapshot.dir(), open),
            CanisterError::Canister(_) => {
                let what = format!("{}: methods", self.snapshot.dir().display());
                VfsError::decode(what, DecodeFailure::Canister(e.clone()))
            }
        })
    }

    /// The canister as a request's failure.
    fn canister_for_request(&self) -> Result<&Arc<OfflineCanister>, RequestError> {
        self.canister()
            .map_err(|e| RequestError::new(RequestErrorKind::Corrupt, e))
    }
}

/// Request bytes as text.
fn text(args: &[u8]) -> Result<&str, RequestError> {
    std::str::from_utf8(args).map_err(|e| RequestError::new(RequestErrorKind::Invalid, e))
}

impl CanisterMethods for SnapshotMethods {
    fn queries(&self) -> Result<Vec<QueryMethod>, VfsError> {
        let canister = self.canister()?;
        Ok(canister
            .methods()
            .iter()
            .filter(|m| m.query)
            .map(|m| QueryMethod {
                name: m.name.clone(),
                signature: m.signature.clone(),
                takes_args: m.arity > 0,
            })
            .collect())
    }

    fn check(&self, method: &str, args: &[u8]) -> Result<(), RequestError> {
        let canister = self.canister_for_request()?;
        canister
            .service()
            .map_err(call_error)?
            .encode_args(method, text(args)?)
            .map(drop)
            .map_err(|e| call_error(e.into()))
    }

    fn call(&self, method: &str, args: &[u8]) -> Result<Vec<u8>, RequestError> {
        let canister = self.canister_for_request()?;
        let reply = canister
            .call(method, text(args)?, &self.calls)
            .map_err(call_error)?;
        Ok(format!("{}\n", reply.values).into_bytes())
    }
}

/// The script host value `canister` over a snapshot's canister, opened on the first call.
pub struct ScriptCanister {
    open: Box<dyn Fn() -> Result<Arc<OfflineCanister>, CanisterCallError> + Send + Sync>,
}

impl ScriptCanister {
    /// Over the canister of a served snapshot (shared with its `methods/` directory).
    pub fn over_snapshot(snapshot: Arc<OpenedSnapshot>) -> ScriptCanister {
        ScriptCanister {
            open: Box::new(move || {
                let canister = snapshot
                    .canister()
                    .map_err(|e| e.clone() as CanisterCallError);
                canister.cloned()
            }),
        }
    }

    /// Over the canister of an opened heap's snapshot (a command's session).
    pub fn over_heap(heap: Arc<OpenedHeap>) -> ScriptCanister {
        let cell: std::sync::OnceLock<Result<Arc<OfflineCanister>, CanisterCallError>> =
            Default::default();
        ScriptCanister {
            open: Box::new(move || {
                cell.get_or_init(|| {
                    OfflineCanister::open(heap.clone())
                        .map(Arc::new)
                        .map_err(|e| Arc::new(e) as CanisterCallError)
                })
                .clone()
            }),
        }
    }
}

impl CanisterCalls for ScriptCanister {
    fn queries(&self) -> Result<Vec<(String, String)>, CanisterCallError> {
        let canister = (self.open)()?;
        Ok(canister
            .methods()
            .iter()
            .filter(|m| m.query)
            .map(|m| (m.name.clone(), m.signature.clone()))
            .collect())
    }

    fn call(&self, method: &str, args: &str) -> Result<IDLArgs, CanisterCallError> {
        let canister = (self.open)()?;
        canister
            .call(method, args, &CallOptions::default())
            .map(|reply| reply.values)
            .map_err(|e| Arc::new(e) as CanisterCallError)
    }
}
