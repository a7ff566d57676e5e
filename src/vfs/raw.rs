//! Raw files served straight from a source file on disk, range by range, with `pread`.
//!
//! Reads never go through a memory mapping: a source file truncated under the mount would
//! make touching a mapping past its new end raise SIGBUS and kill the daemon. Each read
//! instead checks (with `fstat` on the open file and `stat` on the path) that the file is
//! still the one listed, and a short read is reported as a change, never as data.

use super::error::{ChangedFile, FileChange, VfsError};
use super::guard::{Fingerprint, SnapshotGuard};
use std::fs::File;
use std::os::unix::fs::FileExt;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

/// A source file on disk, opened on first read; its size is fixed when it is listed.
pub struct RawFile {
    path: PathBuf,
    listed: Fingerprint,
    file: Mutex<Option<Arc<File>>>,
    guard: Option<Arc<SnapshotGuard>>,
}

impl RawFile {
    /// A raw file for `path`, reading its size now (nothing is opened yet).
    pub fn open(path: &Path) -> Result<RawFile, VfsError> {
        let meta =
            std::fs::metadata(path).map_err(|e| VfsError::io(path.display().to_string(), e))?;
        if !meta.is_file() {
            return Err(VfsError::NotFound(format!(
                "{} is not a regular file",
                path.display()
            )));
        }
        Ok(RawFile {
            path: path.to_path_buf(),
            listed: Fingerprint::of(&meta),
            file: Mutex::new(None),
            guard: None,
        })
    }

    /// The same file, served only while `guard` lets its snapshot be served.
    pub fn with_guard(mut self, guard: Arc<SnapshotGuard>) -> RawFile {
        self.guard = Some(guard);
        self
    }

    /// The file's size in bytes, as listed.
    pub fn size(&self) -> u64 {
        self.listed.size()
    }

    /// The source path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    fn file(&self) -> Result<Arc<File>, VfsError> {
        let mut slot = self.file.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(file) = slot.as_ref() {
            return Ok(file.clone());
        }
        let file = Arc::new(File::open(&self.path).map_err(|e| self.io_error(e))?);
        *slot = Some(file.clone());
        Ok(file)
    }

    fn changed(&self, change: FileChange) -> VfsError {
        let error = VfsError::Changed {
            file: ChangedFile {
                path: self.path.clone(),
                change,
            },
            since_listed: true,
        };
        tracing::warn!("{error}");
        error
    }

    /// Checks the open file and the path are still the file listed.
    fn check_unchanged(&self, file: &File) -> Result<(), VfsError> {
        match Fingerprint::of_path(&self.path) {
            Ok(now) => {
                if let Some(change) = now.change_since(&self.listed) {
                    return Err(self.changed(change));
                }
            }
            Err(e) => return Err(self.changed(FileChange::Unreadable(Arc::new(e)))),
        }
        let open = file.metadata().map_err(|e| self.io_error(e))?;
        match Fingerprint::of(&open).change_since(&self.listed) {
            Some(change) => Err(self.changed(change)),
            None => Ok(()),
        }
    }

    /// The open source file, checked: its snapshot is trusted and the file is still the
    /// one listed. A front-end may hand it to the kernel to read from (FUSE passthrough).
    pub fn checked_file(&self) -> Result<Arc<File>, VfsError> {
        // Trust is the whole snapshot's; a change elsewhere in it does not stop this file
        // (its own change is checked below).
        if let Some(guard) = &self.guard {
            if let Err(e @ VfsError::NotTrusted(_)) = guard.check() {
                return Err(e);
            }
        }
        let file = self.file()?;
        self.check_unchanged(&file)?;
        Ok(file)
    }

    /// Up to `len` bytes from `offset`, clamped to the listed size (empty past the end).
    pub fn read_at(&self, offset: u64, len: usize) -> Result<Vec<u8>, VfsError> {
        let file = self.checked_file()?;
        let size = self.size();
        if offset >= size || len == 0 {
            return Ok(Vec::new());
        }
        let available = usize::try_from(size - offset).unwrap_or(usize::MAX);
        let wanted = len.min(available);
        let mut buf = vec![0u8; wanted];
        match file.read_exact_at(&mut buf, offset) {
            Ok(()) => Ok(buf),
            Err(e) if e.kind() == std::io::ErrorKind::UnexpectedEof => {
                Err(self.changed(FileChange::Truncated))
            }
            Err(e) => Err(self.io_error(e)),
        }
    }

    fn io_error(&self, e: std::io::Error) -> VfsError {
        VfsError::io(self.path.display().to_string(), e)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_ranges_and_clamps() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("f.bin");
        std::fs::write(&path, b"0123456789").unwrap();
        let raw = RawFile::open(&path).unwrap();
        assert_eq!(raw.size(), 10);
        assert_eq!(raw.read_at(2, 3).unwrap(), b"234");
        assert_eq!(raw.read_at(8, 100).unwrap(), b"89");
        assert_eq!(raw.read_at(10, 1).unwrap(), b"");
        assert_eq!(raw.read_at(u64::MAX, 1).unwrap(), b"");
    }

    #[test]
    fn empty_file_reads_empty() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("e.bin");
        std::fs::write(&path, b"").unwrap();
        let raw = RawFile::open(&path).unwrap();
        assert_eq!(raw.read_at(0, 10).unwrap(), b"");
    }

    #[test]
    fn truncated_or_replaced_file_is_eio_not_data() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("m.bin");
        std::fs::write(&path, vec![1u8; 8192]).unwrap();
        let raw = RawFile::open(&path).unwrap();
        assert_eq!(raw.read_at(0, 4).unwrap(), [1, 1, 1, 1]);
        std::fs::OpenOptions::new()
            .write(true)
            .open(&path)
            .unwrap()
            .set_len(100)
            .unwrap();
        let err = raw.read_at(4096, 10).unwrap_err();
        assert_eq!(err.errno(), libc::EIO, "{err}");

        let other = dir.path().join("n.bin");
        std::fs::write(&path, vec![2u8; 8192]).unwrap();
        let raw = RawFile::open(&path).unwrap();
        assert_eq!(raw.read_at(0, 1).unwrap(), [2]);
        std::fs::write(&other, vec![3u8; 8192]).unwrap();
        std::fs::rename(&other, &path).unwrap();
        let err = raw.read_at(0, 1).unwrap_err();
        assert_eq!(err.errno(), libc::EIO, "{err}");
        assert!(err.to_string().contains("replaced"), "{err}");
    }
}
