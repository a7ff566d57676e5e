//! `import`: adopt a snapshot directory downloaded by icp-cli or dfx, after the user vouches for it.

use super::checks::{check_layout, chunk_rel_path, read_metadata};
use super::error::{io_at, StoreError};
use super::fsutil::{create_private_dir, sync_parent, FILE_MODE};
use super::key::StoreKey;
use super::layout::{files, Store};
use super::manifest::{Manifest, Source, MANIFEST_FILE};
use crate::snapshot::download::{inspect, lock_for_reading, ReadLock};
use sha2::{Digest, Sha256};
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};

/// What to record about an imported snapshot.
#[derive(Debug, Clone)]
pub struct ImportRequest {
    /// Canister principal the snapshot belongs to.
    pub canister: String,
    /// Snapshot ID in hex, if known; otherwise one is derived from the metadata's SHA-256.
    pub snapshot: Option<String>,
    /// Network label recorded in the manifest (`import` when unknown).
    pub network: String,
}

/// Copies the icp-cli/dfx layout at `src` into the store (files 0600), checks it, writes a
/// manifest, and renames it into place atomically. Returns the new snapshot directory.
pub fn import(
    store: &Store,
    key: &StoreKey,
    src: &Path,
    req: &ImportRequest,
) -> Result<PathBuf, StoreError> {
    // Held until the copy is checked: a download tool starting meanwhile waits.
    let _reading = refuse_unfinished(src)?;
    let meta = check_layout(src)?;
    let snapshot = match &req.snapshot {
        Some(s) => s.to_ascii_lowercase(),
        None => {
            let bytes = std::fs::read(src.join(files::METADATA)).map_err(io_at(src))?;
            format!("import-{}", &hex::encode(Sha256::digest(&bytes))[..16])
        }
    };
    let dest = store.snapshot_dir(&req.canister, &snapshot)?;
    let _lock = super::lock::DirLock::acquire(&dest)?;
    if dest.join(MANIFEST_FILE).exists() {
        return Err(StoreError::Exists { path: dest });
    }
    if dest.exists() {
        return Err(StoreError::Layout {
            path: dest,
            reason:
                "an incomplete snapshot is in the way; finish it with `mo-mem pull` or remove it"
                    .into(),
        });
    }
    let tmp = super::fsutil::temp_path(&dest);
    if tmp.exists() {
        std::fs::remove_dir_all(&tmp).map_err(io_at(&tmp))?;
    }
    create_private_dir(&tmp.join(files::CHUNK_STORE))?;
    let mut rels: Vec<String> = vec![
        files::METADATA.into(),
        files::WASM_MODULE.into(),
        files::WASM_MEMORY.into(),
        files::STABLE_MEMORY.into(),
    ];
    rels.extend(
        meta.wasm_chunk_store
            .iter()
            .map(|c| chunk_rel_path(&c.hash)),
    );
    for rel in &rels {
        copy_private(&src.join(rel), &tmp.join(rel))?;
    }
    // The copy is what we vouch for: check it again, not the source that may have changed.
    let copied = check_layout(&tmp)?;
    let manifest = Manifest::build(
        &tmp,
        Source {
            network: req.network.clone(),
            canister: req.canister.clone(),
            snapshot,
            taken_at_ns: copied.taken_at_timestamp,
            acquired_at_ns: now_ns(),
            method: "import".into(),
        },
    )?;
    manifest.write(&tmp, key)?;
    std::fs::rename(&tmp, &dest).map_err(io_at(&dest))?;
    sync_parent(&dest)?;
    Ok(dest)
}

/// Refuses a directory a download tool is writing or has not finished (what is missing, how
/// to resume); otherwise returns the shared lock that keeps the tools out while it is copied.
fn refuse_unfinished(src: &Path) -> Result<ReadLock, StoreError> {
    let download = |e| StoreError::Download(Box::new(e));
    let lock = lock_for_reading(src).map_err(download)?;
    let meta = crate::snapshot::metadata::SnapshotMetadata(read_metadata(src)?);
    if let Some(unfinished) = inspect(src, &meta).map_err(download)? {
        return Err(StoreError::Unfinished(Box::new(unfinished)));
    }
    Ok(lock)
}

/// Copies one file with mode 0600; a missing source becomes an empty file (dfx omits empty stable memory).
fn copy_private(from: &Path, to: &Path) -> Result<(), StoreError> {
    let mut out = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(FILE_MODE)
        .open(to)
        .map_err(io_at(to))?;
    match std::fs::File::open(from) {
        Ok(mut f) => {
            std::io::copy(&mut f, &mut out).map_err(io_at(to))?;
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
        Err(e) => return Err(io_at(from)(e)),
    }
    out.sync_all().map_err(io_at(to))
}

/// Nanoseconds since 1970 by the local clock.
pub fn now_ns() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos().min(u64::MAX as u128) as u64)
        .unwrap_or(0)
}
