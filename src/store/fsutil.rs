//! Private, atomic file operations: mode 0600 files, mode 0700 directories, temp + rename.

use super::error::{io_at, StoreError};
use sha2::{Digest, Sha256};
use std::fs::{self, File, OpenOptions};
use std::io::{Read, Write};
use std::os::unix::fs::{DirBuilderExt, OpenOptionsExt};
use std::path::{Path, PathBuf};

/// Mode of every snapshot file: they hold the canister's private state.
pub const FILE_MODE: u32 = 0o600;
/// Mode of the store's directories.
pub const DIR_MODE: u32 = 0o700;

/// Creates `dir` and its missing parents with mode 0700.
pub fn create_private_dir(dir: &Path) -> Result<(), StoreError> {
    fs::DirBuilder::new()
        .recursive(true)
        .mode(DIR_MODE)
        .create(dir)
        .map_err(io_at(dir))
}

/// Opens (creating with mode 0600 if needed) a file for writing without truncating it.
pub fn open_private_rw(path: &Path) -> Result<File, StoreError> {
    OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .mode(FILE_MODE)
        .open(path)
        .map_err(io_at(path))
}

/// The temporary name used while `path` is being written.
pub fn temp_path(path: &Path) -> PathBuf {
    let mut name = path
        .file_name()
        .map(|n| n.to_os_string())
        .unwrap_or_default();
    name.push(".tmp");
    path.with_file_name(name)
}

/// Writes `bytes` to `path` atomically: a 0600 temp file, fsync, rename, fsync of the directory.
pub fn atomic_write(path: &Path, bytes: &[u8]) -> Result<(), StoreError> {
    write_replacing(path, bytes, FILE_MODE)
}

/// [`atomic_write`] for a file the user asked for (a picture, a page): created with the
/// usual mode (0666 less the umask), not private.
pub fn atomic_write_shared(path: &Path, bytes: &[u8]) -> Result<(), StoreError> {
    write_replacing(path, bytes, 0o666)
}

/// Writes `bytes` to `path` through a temp file created with `mode`, fsync, rename, fsync of
/// the directory.
fn write_replacing(path: &Path, bytes: &[u8], mode: u32) -> Result<(), StoreError> {
    let tmp = temp_path(path);
    {
        let mut f = OpenOptions::new()
            .write(true)
            .create(true)
            .truncate(true)
            .mode(mode)
            .open(&tmp)
            .map_err(io_at(&tmp))?;
        f.write_all(bytes).map_err(io_at(&tmp))?;
        f.sync_all().map_err(io_at(&tmp))?;
    }
    fs::rename(&tmp, path).map_err(io_at(path))?;
    sync_parent(path)
}

/// Fsyncs the directory holding `path` so a rename in it is durable.
pub fn sync_parent(path: &Path) -> Result<(), StoreError> {
    if let Some(parent) = path.parent() {
        let dir = if parent.as_os_str().is_empty() {
            Path::new(".")
        } else {
            parent
        };
        File::open(dir)
            .and_then(|d| d.sync_all())
            .map_err(io_at(dir))?;
    }
    Ok(())
}

/// SHA-256 and length of a file, streamed.
pub fn sha256_file(path: &Path) -> Result<([u8; 32], u64), StoreError> {
    let mut f = File::open(path).map_err(io_at(path))?;
    let mut hasher = Sha256::new();
    let mut buf = vec![0u8; 1 << 20];
    let mut len = 0u64;
    loop {
        let n = f.read(&mut buf).map_err(io_at(path))?;
        if n == 0 {
            break;
        }
        hasher.update(&buf[..n]);
        len += n as u64;
    }
    Ok((hasher.finalize().into(), len))
}

/// Reads a small file whole, refusing files larger than `limit` bytes.
pub fn read_limited(path: &Path, limit: u64) -> Result<Vec<u8>, StoreError> {
    let f = File::open(path).map_err(io_at(path))?;
    let len = f.metadata().map_err(io_at(path))?.len();
    if len > limit {
        return Err(StoreError::Limit {
            what: format!("size of {}", path.display()),
            value: len,
            limit,
        });
    }
    let mut out = Vec::with_capacity(len as usize);
    f.take(limit).read_to_end(&mut out).map_err(io_at(path))?;
    Ok(out)
}
