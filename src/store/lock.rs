//! An exclusive lock per snapshot directory, so two pulls never write the same snapshot.

use super::error::{io_at, StoreError};
use super::fsutil::{create_private_dir, FILE_MODE};
use std::fs::{File, OpenOptions};
use std::os::unix::fs::OpenOptionsExt;
use std::os::unix::io::AsRawFd;
use std::path::{Path, PathBuf};

/// Held while a snapshot directory is being written; released on drop (or when the process dies).
#[derive(Debug)]
pub struct DirLock {
    _file: File,
    path: PathBuf,
}

impl DirLock {
    /// Locks `dir` through `<parent>/.<name>.lock` (outside the directory, so not in its manifest).
    pub fn acquire(dir: &Path) -> Result<Self, StoreError> {
        let parent = dir.parent().unwrap_or(Path::new("."));
        create_private_dir(parent)?;
        let name = dir
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let path = parent.join(format!(".{name}.lock"));
        let file = OpenOptions::new()
            .write(true)
            .create(true)
            .truncate(false)
            .mode(FILE_MODE)
            .open(&path)
            .map_err(io_at(&path))?;
        // SAFETY: flock on a file descriptor we own; no memory is involved.
        let rc = unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) };
        if rc != 0 {
            return Err(StoreError::Layout {
                path: dir.to_path_buf(),
                reason: "another mo-mem process is writing this snapshot; wait for it to finish"
                    .into(),
            });
        }
        Ok(Self { _file: file, path })
    }

    /// The lock file.
    pub fn path(&self) -> &Path {
        &self.path
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn second_lock_is_refused_until_the_first_is_dropped() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("c").join("s");
        let a = DirLock::acquire(&dir).unwrap();
        assert!(DirLock::acquire(&dir).is_err());
        drop(a);
        DirLock::acquire(&dir).unwrap();
    }
}
