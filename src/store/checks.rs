//! Checks of an icp-cli/dfx snapshot directory against its own metadata: sizes, pages, chunks, module magic.

use super::error::StoreError;
use super::fsutil::{read_limited, sha256_file};
use super::layout::files;
use ic_management_canister_types::ReadCanisterSnapshotMetadataResult;
use std::path::Path;

/// Wasm page size: memory sizes are whole multiples of it.
pub const WASM_PAGE: u64 = 65_536;
/// Largest chunk-store entry the IC allows.
pub const MAX_CHUNK_BYTES: u64 = 1 << 20;
/// Most chunk-store entries accepted in metadata.
pub const MAX_CHUNKS: usize = 10_000;
/// Largest `metadata.json` accepted.
pub const MAX_METADATA_BYTES: u64 = 16 << 20;

/// The snapshot metadata type (icp-cli/dfx `metadata.json`).
pub type SnapshotMetadata = ReadCanisterSnapshotMetadataResult;

/// Reads and sanity-checks `dir/metadata.json`.
pub fn read_metadata(dir: &Path) -> Result<SnapshotMetadata, StoreError> {
    let path = dir.join(files::METADATA);
    let bytes = read_limited(&path, MAX_METADATA_BYTES)?;
    let meta = crate::snapshot::metadata::SnapshotMetadata::from_json_named(&bytes, &path)
        .map_err(|e| StoreError::Layout {
            path: path.clone(),
            reason: format!("not snapshot metadata: {e}"),
        })?
        .0;
    check_metadata(&meta).map_err(|rule| StoreError::Layout {
        path,
        reason: rule.to_string(),
    })?;
    Ok(meta)
}

/// A rule of snapshot metadata that a metadata file breaks.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MetadataRule {
    /// A memory size is not a whole number of 64 KiB Wasm pages.
    #[error("{field} {size} is not a whole number of 64 KiB pages")]
    NotWholePages {
        /// `wasm_memory_size` or `stable_memory_size`.
        field: &'static str,
        /// The size it gives.
        size: u64,
    },
    /// The module is empty.
    #[error("wasm_module_size is 0")]
    EmptyModule,
    /// More chunk-store entries than a snapshot may have.
    #[error("{count} chunk-store entries (limit {max})")]
    TooManyChunks {
        /// How many it lists.
        count: usize,
        /// The limit.
        max: usize,
    },
    /// A chunk hash that is not a SHA-256.
    #[error("chunk hash {hash} is not 32 bytes")]
    BadChunkHash {
        /// The hash, in hex.
        hash: String,
    },
}

/// Rules metadata must follow before anything is downloaded or read against it.
pub fn check_metadata(meta: &SnapshotMetadata) -> Result<(), MetadataRule> {
    let pages = |field, size: u64| {
        if size.is_multiple_of(WASM_PAGE) {
            Ok(())
        } else {
            Err(MetadataRule::NotWholePages { field, size })
        }
    };
    pages("wasm_memory_size", meta.wasm_memory_size)?;
    pages("stable_memory_size", meta.stable_memory_size)?;
    if meta.wasm_module_size == 0 {
        return Err(MetadataRule::EmptyModule);
    }
    if meta.wasm_chunk_store.len() > MAX_CHUNKS {
        return Err(MetadataRule::TooManyChunks {
            count: meta.wasm_chunk_store.len(),
            max: MAX_CHUNKS,
        });
    }
    if let Some(c) = meta.wasm_chunk_store.iter().find(|c| c.hash.len() != 32) {
        return Err(MetadataRule::BadChunkHash {
            hash: hex::encode(&c.hash),
        });
    }
    Ok(())
}

/// The relative path of a chunk-store entry.
pub fn chunk_rel_path(hash: &[u8]) -> String {
    format!("{}/{}.bin", files::CHUNK_STORE, hex::encode(hash))
}

/// Every post-download check: blob sizes equal the metadata, memories are whole pages, each
/// chunk-store file's SHA-256 equals its name, no stray chunk file, and the module starts with
/// the wasm or gzip magic. A missing memory file is accepted only when its size is 0 (dfx).
pub fn check_layout(dir: &Path) -> Result<SnapshotMetadata, StoreError> {
    let meta = read_metadata(dir)?;
    let blobs = [
        (files::WASM_MODULE, meta.wasm_module_size),
        (files::WASM_MEMORY, meta.wasm_memory_size),
        (files::STABLE_MEMORY, meta.stable_memory_size),
    ];
    for (name, expected) in blobs {
        let path = dir.join(name);
        let actual = match std::fs::metadata(&path) {
            Ok(m) if m.is_file() => m.len(),
            Ok(_) => {
                return Err(StoreError::Layout {
                    path,
                    reason: "not a regular file".into(),
                })
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound && expected == 0 => 0,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return Err(StoreError::Missing { path })
            }
            Err(e) => return Err(StoreError::Io { path, source: e }),
        };
        if actual != expected {
            return Err(StoreError::SizeMismatch {
                path,
                expected,
                actual,
            });
        }
    }
    check_module_magic(&dir.join(files::WASM_MODULE))?;
    let mut expected_chunks = std::collections::BTreeSet::new();
    for c in &meta.wasm_chunk_store {
        let rel = chunk_rel_path(&c.hash);
        let path = dir.join(&rel);
        let (digest, size) = sha256_file(&path).map_err(|e| match e {
            StoreError::Io { source, path } if source.kind() == std::io::ErrorKind::NotFound => {
                StoreError::Missing { path }
            }
            other => other,
        })?;
        if size > MAX_CHUNK_BYTES {
            return Err(StoreError::Layout {
                path,
                reason: format!("chunk of {size} bytes exceeds 1 MiB"),
            });
        }
        if digest[..] != c.hash[..] {
            return Err(StoreError::HashMismatch {
                path,
                expected: hex::encode(&c.hash),
                actual: hex::encode(digest),
            });
        }
        expected_chunks.insert(rel);
    }
    let chunk_dir = dir.join(files::CHUNK_STORE);
    if chunk_dir.is_dir() {
        for e in std::fs::read_dir(&chunk_dir).map_err(super::error::io_at(&chunk_dir))? {
            let e = e.map_err(super::error::io_at(&chunk_dir))?;
            let rel = format!("{}/{}", files::CHUNK_STORE, e.file_name().to_string_lossy());
            if !expected_chunks.contains(&rel) {
                return Err(StoreError::Unexpected { path: e.path() });
            }
        }
    }
    Ok(meta)
}

/// The module must start with `\0asm` or the gzip magic `1f 8b 08`.
pub fn check_module_magic(path: &Path) -> Result<(), StoreError> {
    use std::io::Read;
    let mut head = [0u8; 4];
    let mut f = std::fs::File::open(path).map_err(super::error::io_at(path))?;
    let n = f.read(&mut head).map_err(super::error::io_at(path))?;
    let ok = (n >= 4 && head == *b"\0asm") || (n >= 3 && head[..3] == [0x1f, 0x8b, 0x08]);
    if ok {
        Ok(())
    } else {
        Err(StoreError::Layout {
            path: path.to_path_buf(),
            reason: "the module starts with neither the wasm magic (\\0asm) nor the gzip magic"
                .into(),
        })
    }
}
