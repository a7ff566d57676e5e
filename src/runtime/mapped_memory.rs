//! A canister's main memory as a copy-on-write mapping of a snapshot's `wasm_memory.bin`:
//! restoring costs no copy (pages are read from the page cache when the canister touches
//! them, and copied only when it writes them), and putting the snapshot's state back after a
//! call is one `madvise(MADV_DONTNEED)` (written pages revert to the file, pages beyond it
//! to zeros).
//!
//! The whole range the memory may grow to is reserved at once (anonymous, `MAP_NORESERVE`),
//! and the file is mapped `MAP_PRIVATE | MAP_FIXED` over its start; wasmi gets the range as a
//! static buffer ([`wasmi::Memory::new_static`]), whose maximum is the reserved size, so
//! growing beyond it fails as `memory.grow` does (-1), never by touching unmapped memory.
//!
//! wasmi zeroes a static buffer's initial size when it makes the memory. Before that, the
//! file's range is backed by one small shared zero block mapped again and again, so those
//! writes touch a MiB of physical memory instead of the whole image; the file is mapped over
//! it once the instance exists (after its data segments were written, as the snapshot's
//! bytes replace them anyway).

use std::fs::File;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
use std::path::Path;
use std::ptr::NonNull;

/// The size of the shared zero block (a multiple of the page size that stays in cache).
const ZERO_BLOCK: usize = 1 << 20;

/// Why a snapshot's memory cannot be mapped (the runner then copies it instead).
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum MapError {
    /// The file cannot be opened or mapped, or the range not reserved.
    #[error("{what}: {source}")]
    Io {
        /// The step that failed.
        what: &'static str,
        /// The system's error.
        source: std::io::Error,
    },
    /// The file is not the snapshot's memory (another size or other bytes).
    #[error("the file differs from the snapshot's memory")]
    Differs,
    /// The memory is empty, not whole pages, or larger than the range it may grow to.
    #[error("a memory of {len} bytes does not fit a mapping of {capacity} bytes")]
    Size {
        /// The file's length.
        len: u64,
        /// The bytes the memory may grow to.
        capacity: u64,
    },
}

fn io_error(what: &'static str) -> MapError {
    MapError::Io {
        what,
        source: std::io::Error::last_os_error(),
    }
}

/// The reserved range of a canister's main memory, with the snapshot's file mapped over its
/// start. Owned by the [`super::Canister`] whose store's memory lives in it, declared after the
/// store so that it is unmapped after the store is dropped.
pub struct MappedMemory {
    base: NonNull<u8>,
    capacity: usize,
    file: File,
    file_len: usize,
}

// SAFETY: the range is owned by this value alone (no other reference to it exists outside the
// wasmi store that the same canister owns and moves with it); the kernel objects behind it
// (the mapping, the file) may be used from any thread.
unsafe impl Send for MappedMemory {}
// SAFETY: `&MappedMemory` gives no access to the bytes, only to the mapping calls, which the
// canister makes with `&mut` access to itself.
unsafe impl Sync for MappedMemory {}

impl MappedMemory {
    /// Reserves `capacity` bytes (whole 64 KiB pages) and maps the file at `path` over their
    /// start, after checking that it is `snapshot`'s memory: the same length and the same bytes
    /// at its start, its end and 16 places between (snapshot files are replaced atomically, not
    /// rewritten, so a replaced file shows as other bytes or another length).
    pub fn open(path: &Path, snapshot: &[u8], capacity: u64) -> Result<MappedMemory, MapError> {
        let file = File::open(path).map_err(|source| MapError::Io {
            what: "opening the memory file",
            source,
        })?;
        let len = file
            .metadata()
            .map_err(|source| MapError::Io {
                what: "reading the memory file's size",
                source,
            })?
            .len();
        let page = 65536u64;
        let capacity = capacity / page * page;
        if len == 0 || len % page != 0 || len > capacity {
            return Err(MapError::Size { len, capacity });
        }
        let (Ok(file_len), Ok(capacity)) = (usize::try_from(len), usize::try_from(capacity)) else {
            return Err(MapError::Size { len, capacity });
        };
        if file_len != snapshot.len() {
            return Err(MapError::Differs);
        }
        // SAFETY: a fresh anonymous mapping at an address the kernel chooses; nothing else
        // refers to it.
        let base = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                capacity,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_NORESERVE,
                -1,
                0,
            )
        };
        if base == libc::MAP_FAILED {
            return Err(io_error("reserving the memory's range"));
        }
        let Some(base) = NonNull::new(base.cast::<u8>()) else {
            return Err(io_error("reserving the memory's range"));
        };
        let mapped = MappedMemory {
            base,
            capacity,
            file,
            file_len,
        };
        mapped.map_snapshot()?;
        if !mapped.same_bytes(snapshot) {
            return Err(MapError::Differs);
        }
        Ok(mapped)
    }

    /// Whether the mapped file has `snapshot`'s bytes at 18 places (64 KiB each).
    fn same_bytes(&self, snapshot: &[u8]) -> bool {
        let block = 65536usize.min(self.file_len);
        // SAFETY: the file is mapped over `[0, file_len)`, and nothing writes it now.
        let mapped = unsafe { std::slice::from_raw_parts(self.base.as_ptr(), self.file_len) };
        (0..=17usize).all(|i| {
            let at = (self.file_len - block) / 17 * i;
            mapped.get(at..at + block) == snapshot.get(at..at + block)
        })
    }

    /// The bytes the memory may grow to.
    pub fn capacity(&self) -> usize {
        self.capacity
    }

    /// The start of the range (to tell whether a memory's bytes lie in it).
    pub fn base(&self) -> *const u8 {
        self.base.as_ptr()
    }

    /// The snapshot's memory size in bytes.
    pub fn snapshot_len(&self) -> usize {
        self.file_len
    }

    /// The whole range, for [`wasmi::Memory::new_static`].
    ///
    /// # Safety
    ///
    /// At most one wasmi memory made from this buffer may be alive at a time, and it must be
    /// dropped (its store dropped) before this [`MappedMemory`] is.
    pub unsafe fn buffer(&self) -> &'static mut [u8] {
        // SAFETY: the range `[base, base + capacity)` is mapped readable and writable for as
        // long as `self` lives; the caller promises the rest.
        unsafe { std::slice::from_raw_parts_mut(self.base.as_ptr(), self.capacity) }
    }

    /// Backs the file's range with one shared zero block mapped over and over, so that wasmi
    /// zeroing the initial memory writes a MiB of physical memory, not the whole image. The
    /// bytes read there are meaningless until [`MappedMemory::map_snapshot`].
    pub fn map_zero_blocks(&self) -> Result<(), MapError> {
        // SAFETY: the name is a valid C string; the descriptor is owned here.
        let fd = unsafe { libc::memfd_create(c"mo-mem-zero".as_ptr(), libc::MFD_CLOEXEC) };
        if fd < 0 {
            return Err(io_error("creating the zero block"));
        }
        // SAFETY: `fd` is a fresh descriptor owned by nothing else.
        let block = unsafe { OwnedFd::from_raw_fd(fd) };
        // SAFETY: plain call on our own descriptor.
        if unsafe { libc::ftruncate(block.as_raw_fd(), ZERO_BLOCK as libc::off_t) } != 0 {
            return Err(io_error("sizing the zero block"));
        }
        let mut at = 0;
        while at < self.file_len {
            let len = ZERO_BLOCK.min(self.file_len - at);
            // SAFETY: `[base + at, base + at + len)` lies inside the range this value owns;
            // MAP_FIXED replaces what was mapped there, which no reference points into now.
            let p = unsafe {
                libc::mmap(
                    self.base.as_ptr().add(at).cast(),
                    len,
                    libc::PROT_READ | libc::PROT_WRITE,
                    libc::MAP_SHARED | libc::MAP_FIXED | libc::MAP_POPULATE,
                    block.as_raw_fd(),
                    0,
                )
            };
            if p == libc::MAP_FAILED {
                return Err(io_error("mapping the zero block"));
            }
            at += len;
        }
        Ok(())
    }

    /// Maps the snapshot's file copy-on-write over the start of the range (replacing what
    /// the canister wrote there).
    pub fn map_snapshot(&self) -> Result<(), MapError> {
        // SAFETY: `[base, base + file_len)` lies inside the range this value owns; MAP_FIXED
        // replaces what was mapped there, which no reference points into now. A private
        // mapping: the canister's writes never reach the file.
        let p = unsafe {
            libc::mmap(
                self.base.as_ptr().cast(),
                self.file_len,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_PRIVATE | libc::MAP_FIXED,
                self.file.as_raw_fd(),
                0,
            )
        };
        if p == libc::MAP_FAILED {
            return Err(io_error("mapping the memory file"));
        }
        Ok(())
    }

    /// Discards every page written in `[0, len)`: the file's pages read the snapshot's bytes
    /// again, the pages beyond it zeros.
    pub fn discard(&self, len: usize) -> Result<(), MapError> {
        self.discard_range(0, len)
    }

    /// [`MappedMemory::discard`] of `[start, start + len)` only (`start` a multiple of the
    /// system's page size; the range cut at the capacity): its pages are let go, the file's
    /// read the snapshot's bytes again.
    pub fn discard_range(&self, start: usize, len: usize) -> Result<(), MapError> {
        let start = start.min(self.capacity);
        let len = len.min(self.capacity - start);
        if len == 0 {
            return Ok(());
        }
        // SAFETY: the range lies inside this value's mapping; MADV_DONTNEED on private
        // mappings only drops this process's copies of pages.
        let at = unsafe { self.base.as_ptr().add(start) };
        if unsafe { libc::madvise(at.cast(), len, libc::MADV_DONTNEED) } != 0 {
            return Err(io_error("discarding the written pages"));
        }
        Ok(())
    }
}

impl Drop for MappedMemory {
    fn drop(&mut self) {
        // SAFETY: the range was mapped by `open`; the wasmi memory that used it is gone (the
        // canister drops its store first).
        unsafe {
            libc::munmap(self.base.as_ptr().cast(), self.capacity);
        }
    }
}
