//! Concurrent reads for a pull, shared by both protocols: the reader abstraction and the loop
//! that keeps reads in flight and hands each batch of finished ones to the store's
//! [`PullTransaction`] (which writes, syncs and records them).

use super::calls::CanisterClient;
use super::error::IcError;
use crate::store::pull::{Blob, Item, Progress, PullTransaction};
use ic_management_canister_types::SnapshotDataKind;
use sha2::{Digest, Sha256};
use std::future::Future;
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
        let kind = data_kind(item);
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

/// What `read_canister_snapshot_data` calls `item` (a bare image has no such kind).
fn data_kind(item: &Item) -> Option<SnapshotDataKind> {
    match item {
        Item::Slice {
            blob,
            offset,
            len: size,
            ..
        } => {
            let (offset, size) = (*offset, *size);
            match blob {
                Blob::Module => Some(SnapshotDataKind::WasmModule { offset, size }),
                Blob::Memory => Some(SnapshotDataKind::WasmMemory { offset, size }),
                Blob::Stable => Some(SnapshotDataKind::StableMemory { offset, size }),
                Blob::Bare => None,
            }
        }
        Item::Chunk { hash } => Some(SnapshotDataKind::WasmChunk { hash: hash.clone() }),
    }
}

/// Runs the reads with at most `concurrency` in flight; each batch of finished reads is
/// written and committed to `tx` before more are recorded. Returns the bytes read.
pub async fn run_items<R: SliceReader>(
    reader: &R,
    items: Vec<Item>,
    concurrency: usize,
    tx: &mut PullTransaction,
    progress: &dyn Progress,
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
        let written = write_batch(batch, tx).inspect_err(|_| set.abort_all())?;
        tx.commit(&written.iter().map(|(i, _)| i.clone()).collect::<Vec<_>>())?;
        for (item, len) in written {
            if matches!(item, Item::Chunk { .. }) {
                progress.grow(len);
            }
            progress.advance(len);
            downloaded += len;
        }
        while set.len() < concurrency {
            match pending.next() {
                Some(item) => spawn(&mut set, item),
                None => break,
            }
        }
    }
    Ok(downloaded)
}

type Joined = Result<Result<(Item, Vec<u8>), IcError>, tokio::task::JoinError>;

/// Writes each finished read of a batch into `tx`; the first failed read or write fails all.
fn write_batch(batch: Vec<Joined>, tx: &PullTransaction) -> Result<Vec<(Item, u64)>, IcError> {
    let mut written = Vec::with_capacity(batch.len());
    for joined in batch {
        let joined = joined.map_err(|e| IcError::Config(format!("download task failed: {e}")));
        let (item, data) = joined.and_then(|r| r)?;
        check_reply(&item, &data)?;
        tx.write(&item, &data)?;
        written.push((item, data.len() as u64));
    }
    Ok(written)
}

/// A read that breaks the API's rules (a slice of another length, a chunk whose SHA-256
/// differs from the hash it was asked by) is the IC's bad reply. The transaction checks the
/// same again before it writes.
fn check_reply(item: &Item, data: &[u8]) -> Result<(), IcError> {
    let bad = |reason: String| IcError::BadReply {
        op: "read snapshot data".into(),
        reason,
    };
    match item {
        Item::Slice {
            blob, offset, len, ..
        } if data.len() as u64 != *len => Err(bad(format!(
            "{} bytes for the {len}-byte slice at offset {offset} of {}",
            data.len(),
            blob.file()
        ))),
        Item::Chunk { hash } if Sha256::digest(data)[..] != hash[..] => Err(bad(format!(
            "chunk-store entry {} has a different SHA-256",
            hex::encode(hash)
        ))),
        _ => Ok(()),
    }
}
