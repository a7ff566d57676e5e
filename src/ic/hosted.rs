//! The canister-hosted protocol of `motoko/main.mo` (`--protocol canister`): the canister copies
//! its main memory into a Region and serves it by query; `pull` writes a bare image.

use super::agent::Connection;
use super::error::{explain, IcError};
use super::pull::{check_options, PullOptions, PullOutcome};
use super::pull_state::{PullState, STATE_VERSION};
use super::target::CanisterTarget;
use super::transfer::{run_items, slice_items, Blob, Item, ReadFuture, SliceReader};
use crate::store::checks::WASM_PAGE;
use crate::store::fsutil::{atomic_write, create_private_dir, open_private_rw, sync_parent};
use crate::store::import::now_ns;
use crate::store::{files, Manifest, Source, Store, StoreKey, MANIFEST_FILE, PULL_STATE_FILE};
use candid::{CandidType, Deserialize, Int, Nat, Principal};
use ic_management_canister_types::Snapshot;
use std::collections::{BTreeMap, BTreeSet};

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
/// as a bare image `main_memory.bin`, resumably, with the same guarantees as [`super::pull`].
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
    let chosen = match id {
        Some(id) => list.iter().find(|s| s.id_u64() == Some(id)),
        None => latest_hosted(&list),
    };
    let label_of = |id: u64| format!("hosted-{id}");
    let Some(snap) = chosen.cloned() else {
        if let Some(id) = id {
            let dir = store.snapshot_dir(&canister, &label_of(id))?;
            if dir.join(PULL_STATE_FILE).exists() {
                return Err(IcError::ResumeRefused {
                    dir,
                    reason: format!("hosted snapshot {id} no longer exists on canister {canister}"),
                });
            }
            return Err(IcError::Config(format!(
                "canister {canister} has no hosted snapshot {id}"
            )));
        }
        return Err(IcError::Config(format!(
            "canister {canister} has no hosted snapshots; take one with `mo-mem create --protocol canister --canister {canister}`"
        )));
    };
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
    let label = label_of(sid);
    let dir = store.snapshot_dir(&canister, &label)?;
    let outcome_snapshot = Snapshot {
        id: sid.to_be_bytes().to_vec(),
        taken_at_timestamp: snap.taken_at_ns(),
        total_size: snap.size,
    };
    let _lock = crate::store::DirLock::acquire(&dir)?;
    if dir.join(MANIFEST_FILE).exists() {
        Manifest::verify(&dir, key)?;
        return Ok(PullOutcome {
            dir,
            snapshot: outcome_snapshot,
            label,
            downloaded: 0,
            resumed: false,
            already_complete: true,
            notes: vec![],
        });
    }
    let state_path = dir.join(PULL_STATE_FILE);
    let info_json = snap.to_json();
    let resumed = state_path.exists();
    let mut state = if resumed {
        let s = PullState::load(&state_path)?;
        if s.metadata != info_json
            || s.canister != canister
            || s.slice_size == 0
            || s.slice_size > super::pull::MAX_SLICE
        {
            return Err(IcError::ResumeRefused {
                dir,
                reason: format!("hosted snapshot {sid} changed since the pull started"),
            });
        }
        s
    } else {
        if dir.exists() {
            std::fs::remove_dir_all(&dir).map_err(crate::store::error::io_at(&dir))?;
        }
        create_private_dir(&dir)?;
        let mut bytes = serde_json::to_vec_pretty(&info_json).unwrap_or_default();
        bytes.push(b'\n');
        atomic_write(&dir.join(HOSTED_INFO_FILE), &bytes)?;
        let s = PullState {
            version: STATE_VERSION,
            network: network_label.into(),
            canister: canister.clone(),
            snapshot: label.clone(),
            metadata: info_json,
            slice_size: opts.slice_size,
            slices_done: BTreeMap::new(),
            chunks_done: BTreeSet::new(),
        };
        s.save(&state_path)?;
        s
    };
    let path = dir.join(files::BARE_IMAGE);
    let f = open_private_rw(&path)?;
    f.set_len(snap.size)
        .map_err(crate::store::error::io_at(&path))?;
    let slice = state.slice_size;
    let done = state
        .slices_done
        .entry(files::BARE_IMAGE.to_string())
        .or_default();
    let (items, done_bytes) = slice_items(Blob::Bare, snap.size, slice, done);
    let mut handles = BTreeMap::from([(Blob::Bare, f)]);
    let bar = &opts.progress;
    bar.set_length(snap.size);
    bar.set_position(done_bytes);
    let reader = HostedReader {
        client: client.clone(),
        id: sid,
    };
    let downloaded = run_items(
        &reader,
        items,
        opts.concurrency,
        &dir,
        &mut handles,
        &mut state,
        &state_path,
        bar,
    )
    .await?;
    drop(handles);
    let actual = std::fs::metadata(&path)
        .map_err(crate::store::error::io_at(&path))?
        .len();
    if actual != snap.size {
        let _ = std::fs::remove_file(&state_path);
        return Err(IcError::BadReply {
            op: "check the download".into(),
            reason: format!(
                "{} has {actual} bytes, expected {}; run the pull again",
                path.display(),
                snap.size
            ),
        });
    }
    let manifest = Manifest::build(
        &dir,
        Source {
            network: network_label.into(),
            canister,
            snapshot: label.clone(),
            taken_at_ns: snap.taken_at_ns(),
            acquired_at_ns: now_ns(),
            method: "canister".into(),
        },
    )?;
    manifest.write(&dir, key)?;
    std::fs::remove_file(&state_path).map_err(crate::store::error::io_at(&state_path))?;
    sync_parent(&state_path)?;
    bar.finish();
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
