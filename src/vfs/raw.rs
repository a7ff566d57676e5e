//! Raw files served straight from a memory-mapped source file, range by range.

use super::error::VfsError;
use memmap2::Mmap;
use std::fs::File;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// A source file on disk, mapped on first read; its size is fixed when it is listed.
pub struct RawFile {
    path: PathBuf,
    size: u64,
    map: OnceLock<Option<Mmap>>,
}

impl RawFile {
    /// A raw file for `path`, reading its size now (nothing is mapped yet).
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
            size: meta.len(),
            map: OnceLock::new(),
        })
    }

    /// The file's size in bytes, as listed.
    pub fn size(&self) -> u64 {
        self.size
    }

    /// The source path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The whole mapped file (empty for an empty file); maps it on first use.
    fn bytes(&self) -> Result<&[u8], VfsError> {
        if let Some(map) = self.map.get() {
            return Ok(map.as_deref().unwrap_or(&[]));
        }
        let mapped = if self.size == 0 {
            None
        } else {
            let file = File::open(&self.path).map_err(|e| self.io_error(e))?;
            // SAFETY: the snapshot's files are immutable while served (the store writes
            // snapshots atomically and never rewrites them in place); a file truncated by
            // someone else under the mount would fault, as with any mmap-based reader.
            let map = unsafe { Mmap::map(&file) }.map_err(|e| self.io_error(e))?;
            Some(map)
        };
        let map = self.map.get_or_init(|| mapped);
        Ok(map.as_deref().unwrap_or(&[]))
    }

    /// Up to `len` bytes from `offset`, clamped to the listed size (empty past the end).
    pub fn read_at(&self, offset: u64, len: usize) -> Result<&[u8], VfsError> {
        let bytes = self.bytes()?;
        let end_of_file = (self.size as usize).min(bytes.len());
        let Ok(start) = usize::try_from(offset) else {
            return Ok(&[]);
        };
        if start >= end_of_file {
            return Ok(&[]);
        }
        let end = start.saturating_add(len).min(end_of_file);
        Ok(&bytes[start..end])
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
}
