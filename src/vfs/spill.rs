//! Generated files too large to keep in memory: written once to an unlinked temporary file
//! and read back in ranges, so the daemon's memory does not grow with the files it serves.

use super::error::VfsError;
use std::fs::File;
use std::io::Write;
use std::os::unix::fs::{FileExt, OpenOptionsExt};
use std::path::Path;
use std::sync::Arc;

/// A generated file's content held on disk in a file without a name (deleted when the
/// last handle to it closes, also when the daemon is killed).
pub struct SpillFile {
    file: File,
    len: u64,
}

impl SpillFile {
    /// Writes `bytes` to a new unlinked file in `dir`.
    pub fn create(dir: &Path, bytes: &[u8]) -> Result<SpillFile, VfsError> {
        let what = || format!("a temporary file in {}", dir.display());
        let mut file = unlinked_file(dir).map_err(|e| VfsError::io(what(), e))?;
        file.write_all(bytes).map_err(|e| VfsError::io(what(), e))?;
        Ok(SpillFile {
            file,
            len: bytes.len() as u64,
        })
    }

    /// The content's length in bytes.
    pub fn len(&self) -> u64 {
        self.len
    }

    /// Whether the content is empty.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Up to `len` bytes at `offset` (fewer at the end of the content).
    pub fn read_at(&self, offset: u64, len: usize) -> Result<Vec<u8>, VfsError> {
        let start = offset.min(self.len);
        let len = (len as u64).min(self.len - start) as usize;
        let mut buf = vec![0u8; len];
        self.file
            .read_exact_at(&mut buf, start)
            .map_err(|e| VfsError::io("a spilled generated file", e))?;
        Ok(buf)
    }
}

/// Where a streamed generated file is written: in memory up to a threshold, then on into
/// an unlinked temporary file (so its exact size is the spilled file's length), refusing
/// to pass a maximum size.
pub struct SpillSink {
    dir: std::path::PathBuf,
    threshold: usize,
    max: u64,
    memory: Vec<u8>,
    file: Option<std::io::BufWriter<File>>,
    len: u64,
    over: bool,
}

impl SpillSink {
    /// A sink keeping up to `threshold` bytes in memory, spilling to a file in `dir` past
    /// it, and failing a write that would pass `max` bytes in all.
    pub fn new(dir: &Path, threshold: usize, max: u64) -> SpillSink {
        SpillSink {
            dir: dir.to_path_buf(),
            threshold,
            max,
            memory: Vec::new(),
            file: None,
            len: 0,
            over: false,
        }
    }

    /// Whether a write was refused for passing the maximum size.
    pub fn over_limit(&self) -> bool {
        self.over
    }

    /// Bytes written so far.
    pub fn len(&self) -> u64 {
        self.len
    }

    /// Whether nothing was written.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The content written: in memory if it stayed within the threshold, else spilled.
    pub fn finish(self) -> Result<Content, VfsError> {
        let what = || format!("a temporary file in {}", self.dir.display());
        match self.file {
            None => Ok(Content::Memory(self.memory.into())),
            Some(file) => {
                let file = file
                    .into_inner()
                    .map_err(|e| VfsError::io(what(), e.into_error()))?;
                Ok(Content::Spilled(Arc::new(SpillFile {
                    file,
                    len: self.len,
                })))
            }
        }
    }
}

impl Write for SpillSink {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let len = self.len.saturating_add(buf.len() as u64);
        if len > self.max {
            self.over = true;
            return Err(std::io::Error::other(format!(
                "a generated file passes the limit of {} bytes",
                self.max
            )));
        }
        if self.file.is_none() && len > self.threshold as u64 {
            let mut file = std::io::BufWriter::with_capacity(1 << 16, unlinked_file(&self.dir)?);
            file.write_all(&self.memory)?;
            self.memory = Vec::new();
            self.file = Some(file);
        }
        match &mut self.file {
            Some(file) => file.write_all(buf)?,
            None => self.memory.extend_from_slice(buf),
        }
        self.len = len;
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        match &mut self.file {
            Some(file) => file.flush(),
            None => Ok(()),
        }
    }
}

/// A new file in `dir` that has no name: `O_TMPFILE` where the file system supports it,
/// else a uniquely named file removed at once.
fn unlinked_file(dir: &Path) -> std::io::Result<File> {
    let tmpfile = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .mode(0o600)
        .custom_flags(libc::O_TMPFILE)
        .open(dir);
    if let Ok(file) = tmpfile {
        return Ok(file);
    }
    static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let path = dir.join(format!(".mo-mem-spill-{}-{n}", std::process::id()));
    let file = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .create_new(true)
        .mode(0o600)
        .open(&path)?;
    std::fs::remove_file(&path)?;
    Ok(file)
}

/// A generated file's content: in memory, or spilled to disk.
#[derive(Clone)]
pub enum Content {
    /// Held in memory (counted against the content cache's budget).
    Memory(Arc<[u8]>),
    /// Held in an unlinked temporary file (counted against the spill budget).
    Spilled(Arc<SpillFile>),
}

impl Content {
    /// The content's length in bytes.
    pub fn len(&self) -> u64 {
        match self {
            Content::Memory(bytes) => bytes.len() as u64,
            Content::Spilled(spill) => spill.len(),
        }
    }

    /// Whether the content is empty.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Bytes of memory it holds.
    pub fn memory_bytes(&self) -> usize {
        match self {
            Content::Memory(bytes) => bytes.len(),
            Content::Spilled(_) => 0,
        }
    }

    /// Bytes of disk it holds.
    pub fn disk_bytes(&self) -> u64 {
        match self {
            Content::Memory(_) => 0,
            Content::Spilled(spill) => spill.len(),
        }
    }

    /// The whole content.
    pub fn to_vec(&self) -> Result<Vec<u8>, VfsError> {
        match self {
            Content::Memory(bytes) => Ok(bytes.to_vec()),
            Content::Spilled(spill) => {
                let len = usize::try_from(spill.len())
                    .map_err(|_| VfsError::TooLarge("a spilled generated file".into()))?;
                spill.read_at(0, len)
            }
        }
    }
}

/// Makes the allocator give large blocks back to the system when they are freed, for a
/// long-running daemon: every allocation of 1 MiB or more gets its own mapping, unmapped when
/// freed. (glibc otherwise raises that threshold after the first large block is freed, and
/// a large block freed into a thread's arena then stays there: each `eval` session's thread
/// kept the 35 MB it had used to list 500 000 records, up to one arena per two threads.)
pub fn return_large_blocks() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: mallopt only sets the allocator's tunables; it takes no pointers.
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, 1 << 20);
    }
}

/// Returns memory the allocator keeps after a large value was freed to the system (glibc
/// keeps freed pages of its arenas mapped; after decoding a large value they would stay
/// counted as the daemon's anonymous memory).
pub fn release_free_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: malloc_trim only walks the allocator's own free lists; it takes no pointers.
    unsafe {
        libc::malloc_trim(0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spilled_content_reads_back_in_ranges() {
        let dir = std::env::temp_dir();
        let bytes: Vec<u8> = (0..10_000u32).map(|i| (i % 251) as u8).collect();
        let spill = SpillFile::create(&dir, &bytes).unwrap();
        assert_eq!(spill.len(), 10_000);
        assert_eq!(spill.read_at(0, 10).unwrap(), &bytes[..10]);
        assert_eq!(spill.read_at(9_995, 100).unwrap(), &bytes[9_995..]);
        assert!(spill.read_at(20_000, 10).unwrap().is_empty());
        let content = Content::Spilled(Arc::new(spill));
        assert_eq!(content.to_vec().unwrap(), bytes);
        assert_eq!(content.memory_bytes(), 0);
        assert_eq!(content.disk_bytes(), 10_000);
    }

    #[test]
    fn sink_keeps_small_contents_in_memory_and_spills_large_ones() {
        let dir = std::env::temp_dir();
        let mut small = SpillSink::new(&dir, 10, 100);
        small.write_all(b"0123456789").unwrap();
        let content = small.finish().unwrap();
        assert_eq!((content.memory_bytes(), content.disk_bytes()), (10, 0));
        let bytes: Vec<u8> = (0..50u8).collect();
        let mut large = SpillSink::new(&dir, 10, 100);
        for chunk in bytes.chunks(7) {
            large.write_all(chunk).unwrap();
        }
        let content = large.finish().unwrap();
        assert_eq!((content.memory_bytes(), content.disk_bytes()), (0, 50));
        assert_eq!(content.to_vec().unwrap(), bytes);
        let mut over = SpillSink::new(&dir, 10, 20);
        assert!(over.write_all(&bytes).is_err());
        assert!(over.over_limit());
    }

    #[test]
    fn fallback_file_has_no_name() {
        let dir = tempfile::tempdir().unwrap();
        let file = unlinked_file(dir.path()).unwrap();
        drop(file);
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
    }
}
