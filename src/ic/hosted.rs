//! The canister-hosted protocol of `motoko/main.mo` (`--protocol canister`): the canister copies
//! its main memory into a Region and serves it by query; `pull` writes a bare image.

use super::agent::Connection;
use super::error::{explain, IcError};
use super::pull::{check_options, PullOptions, PullOutcome};
use super::target::CanisterTarget;
use super::transfer::{run_items, ReadFuture, SliceReader};
use crate::store::checks::WASM_PAGE;
use crate::store::pull::{source, Blob, Item, PullDir, Start};
use crate::store::{Store, StoreError, StoreKey, PULL_STATE_FILE};
use candid::{CandidType, Deserialize, Int, Nat, Principal};
use ic_management_canister_types::Snapshot;

/// File holding the hosted snapshot's description next to the bare image.
pub const HOSTED_INFO_FILE: &str = "hosted.json";

/// A snapshot as `mo_mem_info`/`mo_mem_create` describe it.
#[derive(CandidType, Deserialize, Debug, Clone, PartialEq, Eq)]
pub struct HostedSnapshot {
    /// Snapshot number.
    pub id: Nat,
    /// When taken, nanoseconds since 1970.
    pub taken_at: Int,
    /// Size of the copied main memory in bytes.
    pub size: u64,
}

impl HostedSnapshot {
    /// The ID as a u64, if it fits.
    pub fn id_u64(&self) -> Option<u64> {
        u64::try_from(self.id.0.clone()).ok()
    }

    /// The time as u64 nanoseconds (0 if out of range).
    pub fn taken_at_ns(&self) -> u64 {
        u64::try_from(self.taken_at.0.clone()).unwrap_or(0)
    }

    /// The description recorded on disk and compared on resume.
    pub fn to_json(&self) -> serde_json::Value {
        serde_json::json!({
            "protocol": "mo-mem canister-hosted",
            "id": self.id.0.to_string(),
            "taken_at_ns": self.taken_at.0.to_string(),
            "size": self.size,
        })
    }
}

/// Calls of the hosted protocol on one canister.
#[derive(Clone)]
pub struct HostedClient {
    target: CanisterTarget,
}

impl Connection {
    /// A client for the canister-hosted protocol of `motoko/main.mo` on one canister.
    pub fn hosted(&self, canister: Principal) -> HostedClient {
        HostedClient::new(self, canister)
    }
}

impl HostedClient {
    /// A client for `canister` over `conn`.
    pub fn new(conn: &Connection, canister: Principal) -> Self {
        Self {
            target: CanisterTarget::new(conn, canister),
        }
    }

    fn bad(op: &str, e: impl std::fmt::Display) -> IcError {
        IcError::BadReply {
            op: op.into(),
            reason: format!("{e} (is the canister built from motoko/main.mo?)"),
        }
    }

    /// Calls `method` with the Candid `arg`, as a query (retried when transient) or an update
    /// call (not retried when its fate is unknown), and decodes the reply; `op` says in an
    /// error what mo-mem was doing.
    async fn call<R>(
        &self,
        method: &str,
        update: bool,
        op: &str,
        arg: Vec<u8>,
    ) -> Result<R, IcError>
    where
        R: CandidType + for<'de> Deserialize<'de>,
    {
        let t = &self.target;
        let bytes = t
            .retry
            .run(!update, || async {
                if update {
                    let call = t.agent.update(&t.canister, method).with_arg(arg.clone());
                    call.call_and_wait().await
                } else {
                    let call = t.agent.query(&t.canister, method).with_arg(arg.clone());
                    call.call().await
                }
            })
            .await
            .map_err(|e| explain(&t.ctx(op, None), e))?;
        candid::decode_one(&bytes).map_err(|e| Self::bad(method, e))
    }

    /// `mo_mem_info` (query).
    pub async fn info(&self) -> Result<Vec<HostedSnapshot>, IcError> {
        let arg = candid::encode_args(()).map_err(|e| Self::bad("mo_mem_info", e))?;
        self.call("mo_mem_info", false, "list hosted snapshots", arg)
            .await
    }

    /// `mo_mem_create`, or `mo_mem_update` with `replace_latest` (update calls, not retried when their fate is unknown).
    pub async fn take(&self, replace_latest: bool) -> Result<HostedSnapshot, IcError> {
        let method = if replace_latest {
            "mo_mem_update"
        } else {
            "mo_mem_create"
        };
        let arg = candid::encode_args(()).map_err(|e| Self::bad(method, e))?;
        self.call(method, true, "take a hosted snapshot", arg).await
    }

    /// `mo_mem_read` (query): `size` bytes at `offset` of snapshot `id`.
    pub async fn read(&self, id: u64, offset: u64, size: u64) -> Result<Vec<u8>, IcError> {
        let arg = candid::encode_args((Nat::from(id), offset, size))
            .map_err(|e| Self::bad("mo_mem_read", e))?;
        let bytes: ic_agent::export::serde_bytes::ByteBuf = self
            .call("mo_mem_read", false, "read hosted snapshot data", arg)
            .await?;
        Ok(bytes.into_vec())
    }
}

#[derive(Clone)]
struct HostedReader {
    client: HostedClient,
    id: u64,
}

impl SliceReader for HostedReader {
    fn read(&self, item: &Item) -> ReadFuture {
        let c = self.client.clone();
        let id = self.id;
        let slice = match item {
            Item::Slice { offset, len, .. } => Some((*offset, *len)),
            Item::Chunk { .. } => None,
        };
        Box::pin(async move {
            match slice {
                Some((offset, len)) => c.read(id, offset, len).await,
                None => Err(IcError::Config(
                    "internal: the hosted protocol has no chunk store".into(),
                )),
            }
        })
    }
}

/// The latest hosted snapshot: largest time, then largest ID.
pub fn latest_hosted(list: &[HostedSnapshot]) -> Option<&HostedSnapshot> {
    list.iter()
        .max_by(|a, b| (&a.taken_at, &a.id).cmp(&(&b.taken_at, &b.id)))
}

/// Pulls the latest (or snapshot `id`) hosted snapshot into `<store>/<canister>/hosted-<id>/`
/// as a bare image `main_memory.bin`, resumably, with the same guarantees as [`super::pull`]
/// (the same store transaction).
pub async fn pull_hosted(
    client: &HostedClient,
    network_label: &str,
    store: &Store,
    key: &StoreKey,
    opts: &PullOptions,
    id: Option<u64>,
) -> Result<PullOutcome, IcError> {
    check_options(opts)?;
    let canister = client.target.canister.to_text();
    let list = client.info().await?;
    let snap = choose_hosted(&list, id, &canister, store)?;
    let sid = snap
        .id_u64()
        .ok_or_else(|| HostedClient::bad("mo_mem_info", "snapshot id too large"))?;
    if snap.size % WASM_PAGE != 0 || snap.size > opts.max_bytes {
        return Err(HostedClient::bad(
            "mo_mem_info",
            format!(
                "size {} is not a whole number of pages within the limit",
                snap.size
            ),
        ));
    }
    let label = hosted_label(sid);
    let outcome_snapshot = Snapshot {
        id: sid.to_be_bytes().to_vec(),
        taken_at_timestamp: snap.taken_at_ns(),
        total_size: snap.size,
    };
    let pull_dir = PullDir::lock(store, &canister, &label)?;
    if pull_dir.complete(key)? {
        let dir = pull_dir.dir();
        return Ok(PullOutcome::complete(dir, label, outcome_snapshot, vec![]));
    }
    let info_json = snap.to_json();
    let mut info_bytes = serde_json::to_vec_pretty(&info_json).unwrap_or_default();
    info_bytes.push(b'\n');
    let mut tx = pull_dir.begin(Start {
        network: network_label.into(),
        canister: canister.clone(),
        label: label.clone(),
        metadata: info_json,
        metadata_file: (HOSTED_INFO_FILE, info_bytes),
        slice_size: opts.slice_size,
        chunk_store: false,
    })?;
    let plan = tx.plan(&[(Blob::Bare, snap.size)], &[])?;
    opts.progress.start(plan.total_bytes, plan.done_bytes);
    let reader = HostedReader {
        client: client.clone(),
        id: sid,
    };
    let downloaded = run_items(
        &reader,
        plan.items,
        opts.concurrency,
        &mut tx,
        &*opts.progress,
    )
    .await?;
    let resumed = tx.resumed();
    let source = source(
        network_label,
        &canister,
        &label,
        snap.taken_at_ns(),
        "canister",
    );
    let dir = tx.finish(|_| Ok(()), source, key)?;
    opts.progress.finish();
    Ok(PullOutcome {
        dir,
        snapshot: outcome_snapshot,
        label,
        downloaded,
        resumed,
        already_complete: false,
        notes: vec![],
    })
}

/// A hosted snapshot's directory name in the store.
fn hosted_label(id: u64) -> String {
    format!("hosted-{id}")
}

/// The hosted snapshot `id` (the latest when none) from `list`; an asked snapshot that is
/// gone refuses to resume its interrupted pull, if there is one.
fn choose_hosted(
    list: &[HostedSnapshot],
    id: Option<u64>,
    canister: &str,
    store: &Store,
) -> Result<HostedSnapshot, IcError> {
    let chosen = match id {
        Some(id) => list.iter().find(|s| s.id_u64() == Some(id)),
        None => latest_hosted(list),
    };
    if let Some(snap) = chosen {
        return Ok(snap.clone());
    }
    let Some(id) = id else {
        return Err(IcError::Config(format!(
            "canister {canister} has no hosted snapshots; take one with `mo-mem create --protocol canister --canister {canister}`"
        )));
    };
    let dir = store.snapshot_dir(canister, &hosted_label(id))?;
    if dir.join(PULL_STATE_FILE).exists() {
        return Err(StoreError::ResumeRefused {
            dir,
            reason: format!("hosted snapshot {id} no longer exists on canister {canister}"),
        }
        .into());
    }
    Err(IcError::Config(format!(
        "canister {canister} has no hosted snapshot {id}"
    )))
}
