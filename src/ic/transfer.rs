//! Concurrent slice transfer shared by both protocols: work items, the reader abstraction, and
//! the loop that writes, syncs and records each batch of finished reads.

use super::calls::CanisterClient;
use super::error::IcError;
use super::pull_state::PullState;
use crate::store::checks::chunk_rel_path;
use crate::store::files;
use crate::store::fsutil::atomic_write;
use ic_management_canister_types::SnapshotDataKind;
use indicatif::ProgressBar;
use sha2::{Digest, Sha256};
use std::collections::{BTreeMap, BTreeSet};
use std::fs::File;
use std::future::Future;
use std::os::unix::fs::FileExt;
use std::path::Path;
use std::pin::Pin;
use tokio::task::JoinSet;

/// A boxed, sendable future of one read.
pub type ReadFuture = Pin<Box<dyn Future<Output = Result<Vec<u8>, IcError>> + Send>>;

/// Something that can read one work item (a slice or a chunk-store entry).
pub trait SliceReader: Clone + Send + Sync + 'static {
    /// Starts reading `item`.
    fn read(&self, item: &Item) -> ReadFuture;
}

/// A management-canister snapshot, read with `read_canister_snapshot_data`.
#[derive(Clone)]
pub struct SnapshotReader {
    /// The client.
    pub client: CanisterClient,
    /// The snapshot ID.
    pub id: Vec<u8>,
}

impl SliceReader for SnapshotReader {
    fn read(&self, item: &Item) -> ReadFuture {
        let c = self.client.clone();
        let id = self.id.clone();
        let kind = item.kind();
        Box::pin(async move {
            match kind {
                Some(k) => c.read(&id, k).await,
                None => Err(IcError::Config(
                    "internal: no snapshot data kind for this item".into(),
                )),
            }
        })
    }
}

/// A file written slice by slice.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Blob {
    /// `wasm_module.bin`.
    Module,
    /// `wasm_memory.bin`.
    Memory,
    /// `stable_memory.bin`.
    Stable,
    /// `main_memory.bin`, the canister-hosted protocol's bare image.
    Bare,
}

impl Blob {
    /// The three blobs of a management-canister snapshot.
    pub const SNAPSHOT: [Blob; 3] = [Blob::Module, Blob::Memory, Blob::Stable];

    /// The file name.
    pub fn file(self) -> &'static str {
        match self {
            Blob::Module => files::WASM_MODULE,
            Blob::Memory => files::WASM_MEMORY,
            Blob::Stable => files::STABLE_MEMORY,
            Blob::Bare => files::BARE_IMAGE,
        }
    }

    fn kind(self, offset: u64, size: u64) -> Option<SnapshotDataKind> {
        match self {
            Blob::Module => Some(SnapshotDataKind::WasmModule { offset, size }),
            Blob::Memory => Some(SnapshotDataKind::WasmMemory { offset, size }),
            Blob::Stable => Some(SnapshotDataKind::StableMemory { offset, size }),
            Blob::Bare => None,
        }
    }
}

/// One read.
#[derive(Debug, Clone)]
pub enum Item {
    /// `len` bytes at `offset` of a blob, slice number `index`.
    Slice {
        /// The blob.
        blob: Blob,
        /// Slice number (offset / slice size).
        index: u64,
        /// Byte offset.
        offset: u64,
        /// Byte length.
        len: u64,
    },
    /// A whole chunk-store entry.
    Chunk {
        /// Its SHA-256.
        hash: Vec<u8>,
    },
}

impl Item {
    fn kind(&self) -> Option<SnapshotDataKind> {
        match self {
            Item::Slice {
                blob, offset, len, ..
            } => blob.kind(*offset, *len),
            Item::Chunk { hash } => Some(SnapshotDataKind::WasmChunk { hash: hash.clone() }),
        }
    }
}

/// The work for one blob of `size` bytes in slices of `slice`, skipping slices in `done` (which
/// is pruned to valid indices); returns the items and the bytes already done.
pub fn slice_items(
    blob: Blob,
    size: u64,
    slice: u64,
    done: &mut BTreeSet<u64>,
) -> (Vec<Item>, u64) {
    let n = size.div_ceil(slice);
    done.retain(|i| *i < n);
    let mut items = Vec::new();
    let mut done_bytes = 0;
    for index in 0..n {
        let offset = index * slice;
        let len = slice.min(size - offset);
        if done.contains(&index) {
            done_bytes += len;
        } else {
            items.push(Item::Slice {
                blob,
                index,
                offset,
                len,
            });
        }
    }
    (items, done_bytes)
}

/// Runs the reads with at most `concurrency` in flight; writes, syncs and records each batch of
/// finished reads before recording them as done.
#[allow(clippy::too_many_arguments)]
pub async fn run_items<R: SliceReader>(
    reader: &R,
    items: Vec<Item>,
    concurrency: usize,
    dir: &Path,
    handles: &mut BTreeMap<Blob, File>,
    state: &mut PullState,
    state_path: &Path,
    bar: &ProgressBar,
) -> Result<u64, IcError> {
    let mut pending = items.into_iter();
    let mut set: JoinSet<Result<(Item, Vec<u8>), IcError>> = JoinSet::new();
    let mut downloaded = 0u64;
    let spawn = |set: &mut JoinSet<_>, item: Item| {
        let read = reader.read(&item);
        set.spawn(async move {
            let data = read.await?;
            Ok((item, data))
        });
    };
    for item in pending.by_ref().take(concurrency) {
        spawn(&mut set, item);
    }
    while let Some(first) = set.join_next().await {
        let mut batch = vec![first];
        while let Some(more) = set.try_join_next() {
            batch.push(more);
        }
        let mut touched = BTreeSet::new();
        let mut finished = Vec::new();
        for joined in batch {
            let result = joined.map_err(|e| IcError::Config(format!("download task failed: {e}")));
            let (item, data) = match result.and_then(|r| r) {
                Ok(v) => v,
                Err(e) => {
                    set.abort_all();
                    return Err(e);
                }
            };
            match &item {
                Item::Slice {
                    blob, offset, len, ..
                } => {
                    if data.len() as u64 != *len {
                        set.abort_all();
                        return Err(IcError::BadReply {
                            op: "read snapshot data".into(),
                            reason: format!(
                                "{} bytes for the {}-byte slice at offset {offset} of {}",
                                data.len(),
                                len,
                                blob.file()
                            ),
                        });
                    }
                    let path = dir.join(blob.file());
                    let f = handles
                        .get(blob)
                        .ok_or_else(|| IcError::Config("internal: no file".into()))?;
                    f.write_all_at(&data, *offset)
                        .map_err(crate::store::error::io_at(&path))?;
                    touched.insert(*blob);
                }
                Item::Chunk { hash } => {
                    let digest = Sha256::digest(&data);
                    if digest[..] != hash[..] {
                        set.abort_all();
                        return Err(IcError::BadReply {
                            op: "read snapshot data".into(),
                            reason: format!(
                                "chunk-store entry {} has a different SHA-256",
                                hex::encode(hash)
                            ),
                        });
                    }
                    atomic_write(&dir.join(chunk_rel_path(hash)), &data)?;
                }
            }
            downloaded += data.len() as u64;
            finished.push((item, data.len() as u64));
        }
        for blob in touched {
            if let Some(f) = handles.get(&blob) {
                f.sync_data()
                    .map_err(crate::store::error::io_at(&dir.join(blob.file())))?;
            }
        }
        for (item, len) in finished {
            match item {
                Item::Slice { blob, index, .. } => {
                    state
                        .slices_done
                        .entry(blob.file().to_string())
                        .or_default()
                        .insert(index);
                    bar.inc(len);
                }
                Item::Chunk { hash } => {
                    state.chunks_done.insert(hex::encode(hash));
                    bar.inc_length(len);
                    bar.inc(len);
                }
            }
        }
        state.save(state_path)?;
        while set.len() < concurrency {
            match pending.next() {
                Some(item) => spawn(&mut set, item),
                None => break,
            }
        }
    }
    Ok(downloaded)
}
