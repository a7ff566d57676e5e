//! The management canister calls mo-mem makes, each retried when transient and explained when not.

use super::agent::Connection;
use super::error::{explain, IcError};
use super::target::CanisterTarget;
use crate::store::SnapshotMetadata;
use candid::{CandidType, Deserialize, Principal};
use ic_management_canister_types::{
    CanisterIdRecord, CanisterStatusType, ReadCanisterSnapshotDataArgs,
    ReadCanisterSnapshotMetadataArgs, Snapshot, SnapshotDataKind, TakeCanisterSnapshotArgs,
};
use ic_utils::call::AsyncCall;
use ic_utils::interfaces::ManagementCanister;

/// The part of `canister_status` mo-mem needs (Candid subtyping ignores the rest).
#[derive(CandidType, Deserialize, Debug, Clone)]
pub struct CanisterState {
    /// Running, stopping or stopped.
    pub status: CanisterStatusType,
    /// SHA-256 of the installed module, if any.
    pub module_hash: Option<Vec<u8>>,
}

/// Snapshot calls on one canister. Cheap to clone; clones share the agent.
#[derive(Clone)]
pub struct CanisterClient {
    target: CanisterTarget,
}

/// Lowercase hex of a snapshot ID, as icp-cli and dfx print it.
pub fn snapshot_hex(id: &[u8]) -> String {
    hex::encode(id)
}

/// Parses a snapshot ID given in hex.
pub fn parse_snapshot_hex(s: &str) -> Result<Vec<u8>, IcError> {
    let id = hex::decode(s.trim()).map_err(|_| {
        IcError::Config(format!(
            "snapshot ID {s:?} is not hex (as `mo-mem info` prints it)"
        ))
    })?;
    if id.is_empty() || id.len() > 8 + 29 {
        return Err(IcError::Config(format!(
            "snapshot ID {s:?} has {} bytes; IDs have 9 to 37",
            id.len()
        )));
    }
    Ok(id)
}

impl Connection {
    /// A client for the snapshot calls on one canister.
    pub fn canister(&self, canister: Principal) -> CanisterClient {
        CanisterClient::new(self, canister)
    }
}

impl CanisterClient {
    /// A client for `canister` over `conn`.
    pub fn new(conn: &Connection, canister: Principal) -> Self {
        Self {
            target: CanisterTarget::new(conn, canister),
        }
    }

    /// The canister.
    pub fn canister(&self) -> Principal {
        self.target.canister
    }

    fn mgmt(&self) -> ManagementCanister<'_> {
        ManagementCanister::create(&self.target.agent)
    }

    /// `list_canister_snapshots`.
    pub async fn list(&self) -> Result<Vec<Snapshot>, IcError> {
        let m = self.mgmt();
        self.target
            .retry
            .run(true, || async {
                m.list_canister_snapshots(&self.target.canister)
                    .call_and_wait()
                    .await
                    .map(|(v,)| v)
            })
            .await
            .map_err(|e| explain(&self.target.ctx("list snapshots", None), e))
    }

    /// `read_canister_snapshot_metadata`.
    pub async fn metadata(&self, id: &[u8]) -> Result<SnapshotMetadata, IcError> {
        let m = self.mgmt();
        let args = ReadCanisterSnapshotMetadataArgs {
            canister_id: self.target.canister,
            snapshot_id: id.to_vec(),
        };
        let hex = snapshot_hex(id);
        self.target
            .retry
            .run(true, || async {
                m.read_canister_snapshot_metadata(&args)
                    .call_and_wait()
                    .await
                    .map(|(v,)| v)
            })
            .await
            .map_err(|e| explain(&self.target.ctx("read snapshot metadata", Some(&hex)), e))
    }

    /// `read_canister_snapshot_data`: one slice or one chunk-store entry.
    pub async fn read(&self, id: &[u8], kind: SnapshotDataKind) -> Result<Vec<u8>, IcError> {
        let m = self.mgmt();
        let args = ReadCanisterSnapshotDataArgs {
            canister_id: self.target.canister,
            snapshot_id: id.to_vec(),
            kind,
        };
        let hex = snapshot_hex(id);
        self.target
            .retry
            .run(true, || async {
                m.read_canister_snapshot_data(&args)
                    .call_and_wait()
                    .await
                    .map(|(v,)| v.chunk)
            })
            .await
            .map_err(|e| explain(&self.target.ctx("read snapshot data", Some(&hex)), e))
    }

    /// `canister_status` as a replicated (update) call, decoding only status and module hash.
    pub async fn status(&self) -> Result<CanisterState, IcError> {
        let arg = candid::encode_one(CanisterIdRecord {
            canister_id: self.target.canister,
        })
        .map_err(|e| IcError::Config(e.to_string()))?;
        let bytes = self
            .target
            .retry
            .run(true, || {
                self.target
                    .agent
                    .update(&Principal::management_canister(), "canister_status")
                    .with_effective_canister_id(self.target.canister)
                    .with_arg(arg.clone())
                    .call_and_wait()
            })
            .await
            .map_err(|e| explain(&self.target.ctx("read the canister's status", None), e))?;
        candid::decode_one(&bytes).map_err(|e| IcError::BadReply {
            op: "canister_status".into(),
            reason: e.to_string(),
        })
    }

    /// `stop_canister` (returns once the canister is stopped).
    pub async fn stop(&self) -> Result<(), IcError> {
        let m = self.mgmt();
        self.target
            .retry
            .run(true, || {
                m.stop_canister(&self.target.canister).call_and_wait()
            })
            .await
            .map_err(|e| explain(&self.target.ctx("stop the canister", None), e))
    }

    /// `start_canister`.
    pub async fn start(&self) -> Result<(), IcError> {
        let m = self.mgmt();
        self.target
            .retry
            .run(true, || {
                m.start_canister(&self.target.canister).call_and_wait()
            })
            .await
            .map_err(|e| explain(&self.target.ctx("start the canister", None), e))
    }

    /// `take_canister_snapshot`, replacing `replace` if given. Not retried when its fate is unknown.
    pub async fn take(&self, replace: Option<Vec<u8>>) -> Result<Snapshot, IcError> {
        let m = self.mgmt();
        let hex = replace.as_deref().map(snapshot_hex);
        let args = TakeCanisterSnapshotArgs {
            canister_id: self.target.canister,
            replace_snapshot: replace,
            uninstall_code: None,
            sender_canister_version: None,
        };
        self.target
            .retry
            .run(false, || async {
                m.take_canister_snapshot(&args)
                    .call_and_wait()
                    .await
                    .map(|(s,)| s)
            })
            .await
            .map_err(|e| explain(&self.target.ctx("take a snapshot", hex.as_deref()), e))
    }
}
