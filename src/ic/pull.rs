//! `pull`: download a snapshot into the store with concurrent slice reads, resumable after a kill
//! at any point, checked after the download, and marked complete (manifest) only then.

use super::calls::{snapshot_hex, CanisterClient};
use super::error::IcError;
use super::ops::latest;
use super::pull_state::{PullState, STATE_VERSION};
use super::transfer::{run_items, slice_items, Blob, Item, SnapshotReader};
use crate::store::checks::{check_layout, check_metadata, chunk_rel_path};
use crate::store::fsutil::{atomic_write, create_private_dir, open_private_rw, sync_parent};
use crate::store::import::now_ns;
use crate::store::{files, Manifest, Source, Store, StoreKey, MANIFEST_FILE, PULL_STATE_FILE};
use ic_management_canister_types::{Snapshot, SnapshotSource};
use indicatif::ProgressBar;
use std::collections::{BTreeMap, BTreeSet};
use std::fs::File;
use std::path::PathBuf;

/// The IC's largest slice for `read_canister_snapshot_data`.
pub const MAX_SLICE: u64 = 2_000_000;
/// Most requests in flight.
pub const MAX_CONCURRENCY: usize = 64;
/// Default requests in flight.
pub const DEFAULT_CONCURRENCY: usize = 8;
/// Default limit on a snapshot's total size (stable memory may reach 500 GiB).
pub const DEFAULT_MAX_BYTES: u64 = 600 << 30;

/// How to pull.
#[derive(Debug, Clone)]
pub struct PullOptions {
    /// The snapshot to pull; `None`: the latest.
    pub snapshot: Option<Vec<u8>>,
    /// Bytes per slice read, 1..=2,000,000.
    pub slice_size: u64,
    /// Requests in flight, 1..=64.
    pub concurrency: usize,
    /// Refuse snapshots whose blobs add up to more than this.
    pub max_bytes: u64,
    /// Progress display (use `ProgressBar::hidden()` for none).
    pub progress: ProgressBar,
}

impl Default for PullOptions {
    fn default() -> Self {
        Self {
            snapshot: None,
            slice_size: MAX_SLICE,
            concurrency: DEFAULT_CONCURRENCY,
            max_bytes: DEFAULT_MAX_BYTES,
            progress: ProgressBar::hidden(),
        }
    }
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
    let snapshot = match &opts.snapshot {
        Some(id) => match list.iter().find(|s| &s.id == id) {
            Some(s) => s.clone(),
            None => {
                let hex = snapshot_hex(id);
                let dir = store.snapshot_dir(&canister, &hex)?;
                if dir.join(PULL_STATE_FILE).exists() {
                    return Err(IcError::ResumeRefused {
                        dir,
                        reason: format!("snapshot {hex} no longer exists on canister {canister}"),
                    });
                }
                return Err(IcError::NoSuchSnapshot {
                    op: "pull".into(),
                    canister: canister.clone(),
                    snapshot: hex,
                    message: "not in list_canister_snapshots".into(),
                });
            }
        },
        None => latest(&list).cloned().ok_or_else(|| {
            IcError::Config(format!(
                "canister {canister} has no snapshots; take one with `mo-mem create --canister {canister}`"
            ))
        })?,
    };
    let hex = snapshot_hex(&snapshot.id);
    let dir = store.snapshot_dir(&canister, &hex)?;
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
    let _lock = crate::store::DirLock::acquire(&dir)?;
    if dir.join(MANIFEST_FILE).exists() {
        Manifest::verify(&dir, key)?;
        let _ = std::fs::remove_file(dir.join(PULL_STATE_FILE));
        return Ok(PullOutcome {
            dir,
            label: hex,
            snapshot,
            downloaded: 0,
            resumed: false,
            already_complete: true,
            notes,
        });
    }
    let state_path = dir.join(PULL_STATE_FILE);
    let saved = if state_path.exists() {
        Some(PullState::load(&state_path)?)
    } else {
        None
    };
    // Re-read the metadata first, always: a resumed pull must not mix two snapshots.
    let meta = match client.metadata(&snapshot.id).await {
        Ok(m) => m,
        Err(IcError::NoSuchSnapshot { message, .. }) if saved.is_some() => {
            return Err(IcError::ResumeRefused {
                dir,
                reason: format!(
                    "snapshot {hex} no longer exists on canister {canister} ({message})"
                ),
            })
        }
        Err(e) => return Err(e),
    };
    check_metadata(&meta).map_err(|reason| IcError::BadReply {
        op: "read snapshot metadata".into(),
        reason,
    })?;
    let total = meta
        .wasm_module_size
        .checked_add(meta.wasm_memory_size)
        .and_then(|t| t.checked_add(meta.stable_memory_size))
        .filter(|t| *t <= opts.max_bytes)
        .ok_or_else(|| {
            IcError::Config(format!(
                "the snapshot's blobs exceed the limit of {} bytes (raise it with --max-bytes)",
                opts.max_bytes
            ))
        })?;
    if matches!(meta.source, Some(SnapshotSource::MetadataUpload(_))) {
        notes.push("this snapshot was uploaded, not taken from the canister: its data could change during the pull".into());
    }
    let meta_json = serde_json::to_value(&meta).map_err(|e| IcError::BadReply {
        op: "read snapshot metadata".into(),
        reason: e.to_string(),
    })?;
    let resumed = saved.is_some();
    let mut state = match saved {
        Some(s) => {
            if s.canister != canister || s.snapshot != hex {
                return Err(IcError::ResumeRefused {
                    dir,
                    reason: format!("the progress file belongs to {}/{}", s.canister, s.snapshot),
                });
            }
            if s.metadata != meta_json {
                return Err(IcError::ResumeRefused {
                    dir,
                    reason: format!(
                        "snapshot {hex} changed since the pull started (its metadata differs)"
                    ),
                });
            }
            if s.slice_size != opts.slice_size {
                notes.push(format!(
                    "resuming with the interrupted pull's slice size {}",
                    s.slice_size
                ));
            }
            if s.slice_size == 0 || s.slice_size > MAX_SLICE {
                return Err(IcError::ResumeRefused {
                    dir,
                    reason: format!(
                        "the progress file has an invalid slice size {}",
                        s.slice_size
                    ),
                });
            }
            s
        }
        None => {
            if dir.exists() {
                // Left by a run killed before its first progress file: nothing in it is vouched for.
                std::fs::remove_dir_all(&dir).map_err(crate::store::error::io_at(&dir))?;
            }
            create_private_dir(&dir.join(files::CHUNK_STORE))?;
            let mut bytes = serde_json::to_vec_pretty(&meta).unwrap_or_default();
            bytes.push(b'\n');
            atomic_write(&dir.join(files::METADATA), &bytes)?;
            let s = PullState {
                version: STATE_VERSION,
                network: network_label.into(),
                canister: canister.clone(),
                snapshot: hex.clone(),
                metadata: meta_json,
                slice_size: opts.slice_size,
                slices_done: BTreeMap::new(),
                chunks_done: BTreeSet::new(),
            };
            s.save(&state_path)?;
            s
        }
    };
    let slice = state.slice_size;

    // Open (and size) the blob files, and list the work not yet done.
    let mut handles: BTreeMap<Blob, File> = BTreeMap::new();
    let mut items = Vec::new();
    let mut done_bytes = 0u64;
    for blob in Blob::SNAPSHOT {
        let size = match blob {
            Blob::Module => meta.wasm_module_size,
            Blob::Memory => meta.wasm_memory_size,
            Blob::Stable => meta.stable_memory_size,
            Blob::Bare => 0,
        };
        let path = dir.join(blob.file());
        let f = open_private_rw(&path)?;
        let len = f
            .metadata()
            .map_err(crate::store::error::io_at(&path))?
            .len();
        if len != size {
            f.set_len(size).map_err(crate::store::error::io_at(&path))?;
        }
        let done = state
            .slices_done
            .entry(blob.file().to_string())
            .or_default();
        let (mut todo, already) = slice_items(blob, size, slice, done);
        items.append(&mut todo);
        done_bytes += already;
        handles.insert(blob, f);
    }
    for c in &meta.wasm_chunk_store {
        let h = hex::encode(&c.hash);
        if !state.chunks_done.contains(&h) || !dir.join(chunk_rel_path(&c.hash)).is_file() {
            state.chunks_done.remove(&h);
            items.push(Item::Chunk {
                hash: c.hash.clone(),
            });
        }
    }

    let bar = &opts.progress;
    bar.set_length(total);
    bar.set_position(done_bytes);
    let reader = SnapshotReader {
        client: client.clone(),
        id: snapshot.id.clone(),
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

    // Post-download checks; only then the manifest, written atomically, marks the snapshot complete.
    if let Err(e) = check_layout(&dir) {
        // Discarded whole: blobs at full length without a progress file would look finished.
        let _ = std::fs::remove_dir_all(&dir);
        return Err(IcError::BadReply {
            op: "check the download".into(),
            reason: format!("{e}; the download was discarded, run the pull again"),
        });
    }
    let manifest = Manifest::build(
        &dir,
        Source {
            network: network_label.into(),
            canister: canister.clone(),
            snapshot: hex,
            taken_at_ns: meta.taken_at_timestamp,
            acquired_at_ns: now_ns(),
            method: "management".into(),
        },
    )?;
    manifest.write(&dir, key)?;
    std::fs::remove_file(&state_path).map_err(crate::store::error::io_at(&state_path))?;
    sync_parent(&state_path)?;
    bar.finish();
    Ok(PullOutcome {
        dir,
        label: snapshot_hex(&snapshot.id),
        snapshot,
        downloaded,
        resumed,
        already_complete: false,
        notes,
    })
}
