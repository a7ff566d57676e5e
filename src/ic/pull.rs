//! `pull`: download a snapshot into the store with concurrent slice reads, resumable after a kill
//! at any point, checked after the download, and marked complete (manifest) only then.

use super::calls::{snapshot_hex, CanisterClient};
use super::error::IcError;
use super::ops::latest;
use super::transfer::{run_items, SnapshotReader};
use crate::store::checks::{check_layout, check_metadata};
use crate::store::pull::{source, Blob, Progress, PullDir, Silent, Start};
use crate::store::{files, Store, StoreError, StoreKey, PULL_STATE_FILE};
use ic_management_canister_types::{Snapshot, SnapshotSource};
use std::path::PathBuf;
use std::sync::Arc;

/// The IC's largest slice for `read_canister_snapshot_data`.
pub use crate::store::pull::MAX_SLICE;
/// Most requests in flight.
pub const MAX_CONCURRENCY: usize = 64;
/// Default requests in flight.
pub const DEFAULT_CONCURRENCY: usize = 8;
/// Default limit on a snapshot's total size (stable memory may reach 500 GiB).
pub const DEFAULT_MAX_BYTES: u64 = 600 << 30;

/// How to pull.
#[derive(Clone)]
pub struct PullOptions {
    /// The snapshot to pull; `None`: the latest.
    pub snapshot: Option<Vec<u8>>,
    /// Bytes per slice read, 1..=2,000,000.
    pub slice_size: u64,
    /// Requests in flight, 1..=64.
    pub concurrency: usize,
    /// Refuse snapshots whose blobs add up to more than this.
    pub max_bytes: u64,
    /// Where progress goes ([`Silent`] for nowhere).
    pub progress: Arc<dyn Progress>,
}

impl std::fmt::Debug for PullOptions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PullOptions")
            .field(
                "snapshot",
                &self.snapshot.as_ref().map(|id| snapshot_hex(id)),
            )
            .field("slice_size", &self.slice_size)
            .field("concurrency", &self.concurrency)
            .field("max_bytes", &self.max_bytes)
            .finish_non_exhaustive()
    }
}

impl Default for PullOptions {
    fn default() -> Self {
        Self {
            snapshot: None,
            slice_size: MAX_SLICE,
            concurrency: DEFAULT_CONCURRENCY,
            max_bytes: DEFAULT_MAX_BYTES,
            progress: Arc::new(Silent),
        }
    }
}

/// Estimated cycles charged to the canister for reading `bytes` in `reads` requests on a
/// 13-node subnet: each read executes 5,000,000 + size instructions (1 cycle each) and pays the
/// ingress fee, 1,200,000 cycles plus 2,000 per byte of its ~300-byte request.
pub fn read_cost_cycles(bytes: u64, reads: u64) -> u64 {
    reads
        .saturating_mul(5_000_000 + 1_200_000 + 2_000 * 300)
        .saturating_add(bytes)
}

/// What a pull did.
#[derive(Debug, Clone)]
pub struct PullOutcome {
    /// The complete snapshot directory.
    pub dir: PathBuf,
    /// The snapshot pulled.
    pub snapshot: Snapshot,
    /// Its directory name in the store: the hex ID, or `hosted-<n>` for the canister-hosted protocol.
    pub label: String,
    /// Bytes downloaded by this run (not counting what an earlier run had).
    pub downloaded: u64,
    /// Whether this run continued an interrupted pull.
    pub resumed: bool,
    /// Whether the snapshot was already complete in the store (nothing downloaded).
    pub already_complete: bool,
    /// Remarks for the user.
    pub notes: Vec<String>,
}

/// Checks the options against the IC's limits.
pub fn check_options(opts: &PullOptions) -> Result<(), IcError> {
    if opts.slice_size == 0 || opts.slice_size > MAX_SLICE {
        return Err(IcError::Config(format!(
            "--slice-size {}: must be 1 to {MAX_SLICE} bytes (the IC refuses larger slices)",
            opts.slice_size
        )));
    }
    if opts.concurrency == 0 || opts.concurrency > MAX_CONCURRENCY {
        return Err(IcError::Config(format!(
            "--concurrency {}: must be 1 to {MAX_CONCURRENCY}",
            opts.concurrency
        )));
    }
    Ok(())
}

/// Pulls the latest (or the chosen) snapshot of the client's canister into `store`.
pub async fn pull(
    client: &CanisterClient,
    network_label: &str,
    store: &Store,
    key: &StoreKey,
    opts: &PullOptions,
) -> Result<PullOutcome, IcError> {
    check_options(opts)?;
    let canister = client.canister().to_text();
    let list = client.list().await?;
    let snapshot = choose(&list, opts, &canister, store)?;
    let hex = snapshot_hex(&snapshot.id);
    let mut notes = other_pulls(store, &canister, &hex)?;
    let pull_dir = PullDir::lock(store, &canister, &hex)?;
    if pull_dir.complete(key)? {
        return Ok(PullOutcome::complete(pull_dir.dir(), hex, snapshot, notes));
    }
    // Re-read the metadata first, always: a resumed pull must not mix two snapshots.
    let meta = match client.metadata(&snapshot.id).await {
        Ok(m) => m,
        Err(IcError::NoSuchSnapshot { message, .. }) if pull_dir.resumable() => {
            return Err(pull_dir
                .refuse(format!(
                    "snapshot {hex} no longer exists on canister {canister} ({message})"
                ))
                .into())
        }
        Err(e) => return Err(e),
    };
    let bad_meta = |reason: String| IcError::BadReply {
        op: "read snapshot metadata".into(),
        reason,
    };
    check_metadata(&meta).map_err(|rule| bad_meta(rule.to_string()))?;
    let blobs = [
        (Blob::Module, meta.wasm_module_size),
        (Blob::Memory, meta.wasm_memory_size),
        (Blob::Stable, meta.stable_memory_size),
    ];
    check_total(blobs.iter().map(|b| b.1), opts.max_bytes)?;
    if matches!(meta.source, Some(SnapshotSource::MetadataUpload(_))) {
        notes.push("this snapshot was uploaded, not taken from the canister: its data could change during the pull".into());
    }
    let meta_json = serde_json::to_value(&meta).map_err(|e| bad_meta(e.to_string()))?;
    let mut meta_bytes = serde_json::to_vec_pretty(&meta).map_err(|e| bad_meta(e.to_string()))?;
    meta_bytes.push(b'\n');
    let mut tx = pull_dir.begin(Start {
        network: network_label.into(),
        canister: canister.clone(),
        label: hex.clone(),
        metadata: meta_json,
        metadata_file: (files::METADATA, meta_bytes),
        slice_size: opts.slice_size,
        chunk_store: true,
    })?;
    if tx.slice_size() != opts.slice_size {
        notes.push(format!(
            "resuming with the interrupted pull's slice size {}",
            tx.slice_size()
        ));
    }
    let chunks: Vec<Vec<u8>> = meta
        .wasm_chunk_store
        .iter()
        .map(|c| c.hash.clone())
        .collect();
    let plan = tx.plan(&blobs, &chunks)?;
    opts.progress.start(plan.total_bytes, plan.done_bytes);
    let reader = SnapshotReader {
        client: client.clone(),
        id: snapshot.id.clone(),
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
        &hex,
        meta.taken_at_timestamp,
        "management",
    );
    let dir = tx.finish(|dir| check_layout(dir).map(drop), source, key)?;
    opts.progress.finish();
    Ok(PullOutcome {
        dir,
        label: hex,
        snapshot,
        downloaded,
        resumed,
        already_complete: false,
        notes,
    })
}

/// The snapshot `opts` asks for (the latest when none), from the canister's `list`; an asked
/// snapshot that is gone refuses to resume its interrupted pull, if there is one.
fn choose(
    list: &[Snapshot],
    opts: &PullOptions,
    canister: &str,
    store: &Store,
) -> Result<Snapshot, IcError> {
    let Some(id) = &opts.snapshot else {
        return latest(list).cloned().ok_or_else(|| {
            IcError::Config(format!(
                "canister {canister} has no snapshots; take one with `mo-mem create --canister {canister}`"
            ))
        });
    };
    if let Some(s) = list.iter().find(|s| &s.id == id) {
        return Ok(s.clone());
    }
    let hex = snapshot_hex(id);
    let dir = store.snapshot_dir(canister, &hex)?;
    if dir.join(PULL_STATE_FILE).exists() {
        return Err(StoreError::ResumeRefused {
            dir,
            reason: format!("snapshot {hex} no longer exists on canister {canister}"),
        }
        .into());
    }
    Err(IcError::NoSuchSnapshot {
        op: "pull".into(),
        canister: canister.into(),
        snapshot: hex,
        message: "not in list_canister_snapshots".into(),
    })
}

/// Notes on interrupted pulls of other snapshots of `canister` in the store (left alone).
fn other_pulls(store: &Store, canister: &str, hex: &str) -> Result<Vec<String>, IcError> {
    let mut notes = Vec::new();
    for other in store.list()? {
        if other.canister == canister && other.snapshot != hex && other.resumable {
            notes.push(format!(
                "an interrupted pull of snapshot {} is still in {}; it is left alone",
                other.snapshot,
                other.dir.display()
            ));
        }
    }
    Ok(notes)
}

/// The blobs' total, refused over `max_bytes` (or on overflow).
pub(super) fn check_total(
    sizes: impl IntoIterator<Item = u64>,
    max_bytes: u64,
) -> Result<u64, IcError> {
    sizes
        .into_iter()
        .try_fold(0u64, |t, s| t.checked_add(s))
        .filter(|t| *t <= max_bytes)
        .ok_or_else(|| {
            IcError::Config(format!(
                "the snapshot's blobs exceed the limit of {max_bytes} bytes (raise it with --max-bytes)"
            ))
        })
}

impl PullOutcome {
    /// A snapshot the store had complete already: nothing downloaded.
    pub(super) fn complete(
        dir: &std::path::Path,
        label: String,
        snapshot: Snapshot,
        notes: Vec<String>,
    ) -> PullOutcome {
        PullOutcome {
            dir: dir.to_path_buf(),
            label,
            snapshot,
            downloaded: 0,
            resumed: false,
            already_complete: true,
            notes,
        }
    }
}
