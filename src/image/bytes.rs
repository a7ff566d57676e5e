//! [`Image`]: the bytes of a memory image (memory-mapped or owned), with bounds-checked reads.

use std::fs::File;
use std::path::Path;
use std::sync::Arc;

use memmap2::Mmap;

use super::ImageError;

/// The word size of a Motoko layout: 4 bytes (classical) or 8 bytes (EOP).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum WordSize {
    /// 32-bit words (classical persistence).
    W32,
    /// 64-bit words (enhanced orthogonal persistence).
    W64,
}

impl WordSize {
    /// The word size in bytes (4 or 8).
    #[inline]
    pub const fn bytes(self) -> u64 {
        match self {
            WordSize::W32 => 4,
            WordSize::W64 => 8,
        }
    }

    /// The word size in bits (32 or 64).
    #[inline]
    pub const fn bits(self) -> u32 {
        match self {
            WordSize::W32 => 32,
            WordSize::W64 => 64,
        }
    }
}

enum Backing {
    Mapped(Mmap),
    Owned(Vec<u8>),
    Shared(Arc<[u8]>),
    Held(Box<dyn HeldBytes>),
}

/// Bytes another value owns and never changes while an image reads them: an image over them
/// reads them in place (e.g. the runner's memory of an upgraded canister, read without a copy).
pub trait HeldBytes: Send + Sync {
    /// The bytes: the same slice on every call.
    fn held_bytes(&self) -> &[u8];
}

/// The bytes of one memory image (main memory, stable memory, or a module), read only through
/// bounds-checked accessors. Words are little-endian and of the image's [`WordSize`].
pub struct Image {
    backing: Backing,
    word: WordSize,
}

impl std::fmt::Debug for Image {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let kind = match self.backing {
            Backing::Mapped(_) => "mapped",
            Backing::Owned(_) => "owned",
            Backing::Shared(_) => "shared",
            Backing::Held(_) => "held",
        };
        write!(f, "Image({kind}, {} bytes, {:?})", self.len(), self.word)
    }
}

impl Image {
    /// An image owning `bytes` (tests, fuzzing, decompressed data). Word size 64 bits.
    pub fn from_vec(bytes: Vec<u8>) -> Image {
        Image {
            backing: Backing::Owned(bytes),
            word: WordSize::W64,
        }
    }

    /// An image over shared in-memory bytes: many images (e.g. the unchanged files of many
    /// test snapshots) read one buffer without copying it. Word size 64 bits.
    pub fn from_shared(bytes: Arc<[u8]>) -> Image {
        Image {
            backing: Backing::Shared(bytes),
            word: WordSize::W64,
        }
    }

    /// An image over bytes `holder` owns, read in place (no copy). Word size 64 bits.
    pub fn from_held(holder: Box<dyn HeldBytes>) -> Image {
        Image {
            backing: Backing::Held(holder),
            word: WordSize::W64,
        }
    }

    /// The owned bytes back, or the image itself if it is memory-mapped, shared or held.
    pub fn into_vec(self) -> Result<Vec<u8>, Image> {
        match self.backing {
            Backing::Owned(v) => Ok(v),
            Backing::Mapped(_) | Backing::Shared(_) | Backing::Held(_) => Err(self),
        }
    }

    /// Memory-maps the file at `path` read-only. Word size 64 bits until changed.
    ///
    /// The file must not be modified while the image is alive (the mapping would change under
    /// the reader; reads stay memory-safe only as long as the file is not truncated).
    pub fn map_file(path: &Path) -> std::io::Result<Image> {
        let file = File::open(path)?;
        let len = file.metadata()?.len();
        if len == 0 {
            return Ok(Image::from_vec(Vec::new()));
        }
        // SAFETY: the mapping is read-only and private to this process; mo-mem never writes
        // snapshot files it has opened, and snapshot files are written atomically (temp + rename).
        let map = unsafe { Mmap::map(&file)? };
        Ok(Image {
            backing: Backing::Mapped(map),
            word: WordSize::W64,
        })
    }

    /// Lets go of the pages of a memory-mapped image this process holds (`madvise`
    /// `MADV_DONTNEED` on the read-only mapping): they stay in the page cache and are read
    /// back, unchanged, on the next access, but no longer count in the process' resident
    /// memory. Other backings are left alone. `false` if the kernel refused.
    pub fn release_pages(&self) -> bool {
        let Backing::Mapped(map) = &self.backing else {
            return true;
        };
        if map.is_empty() {
            return true;
        }
        // SAFETY: the range is exactly this mapping, which stays mapped; it is private,
        // read-only and never written, so dropping its pages changes no byte a reader sees
        // (each is read back from the file on its next access).
        unsafe {
            libc::madvise(
                map.as_ptr() as *mut libc::c_void,
                map.len(),
                libc::MADV_DONTNEED,
            ) == 0
        }
    }

    /// The same image with words read as `word` bytes.
    pub fn with_word_size(mut self, word: WordSize) -> Image {
        self.word = word;
        self
    }

    /// Sets the word size used by [`Image::read_word`].
    pub fn set_word_size(&mut self, word: WordSize) {
        self.word = word;
    }

    /// The word size used by [`Image::read_word`].
    #[inline]
    pub fn word_size(&self) -> WordSize {
        self.word
    }

    /// All bytes of the image.
    #[inline(always)]
    pub fn as_slice(&self) -> &[u8] {
        match &self.backing {
            Backing::Mapped(m) => m,
            Backing::Owned(v) => v,
            Backing::Shared(v) => v,
            Backing::Held(h) => h.held_bytes(),
        }
    }

    /// The image size in bytes.
    #[inline(always)]
    pub fn len(&self) -> u64 {
        self.as_slice().len() as u64
    }

    /// Whether the image has no bytes.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.as_slice().is_empty()
    }

    /// Whether `[addr, addr + len)` lies inside the image.
    #[inline(always)]
    pub fn contains(&self, addr: u64, len: u64) -> bool {
        addr.checked_add(len).is_some_and(|end| end <= self.len())
    }

    /// The `len` bytes at `addr`.
    #[inline(always)]
    pub fn bytes(&self, addr: u64, len: u64) -> Result<&[u8], ImageError> {
        let data = self.as_slice();
        let size = data.len() as u64;
        match addr.checked_add(len) {
            Some(end) if end <= size => Ok(&data[addr as usize..end as usize]),
            _ => Err(ImageError::OutOfBounds { addr, len, size }),
        }
    }

    /// The `N` bytes at `addr` as an array.
    #[inline(always)]
    fn array<const N: usize>(&self, addr: u64) -> Result<[u8; N], ImageError> {
        let b = self.bytes(addr, N as u64)?;
        let mut out = [0u8; N];
        out.copy_from_slice(b);
        Ok(out)
    }

    /// The byte at `addr`.
    #[inline(always)]
    pub fn read_u8(&self, addr: u64) -> Result<u8, ImageError> {
        Ok(self.array::<1>(addr)?[0])
    }

    /// The little-endian `u16` at `addr`.
    #[inline(always)]
    pub fn read_u16(&self, addr: u64) -> Result<u16, ImageError> {
        Ok(u16::from_le_bytes(self.array(addr)?))
    }

    /// The little-endian `u32` at `addr`.
    #[inline(always)]
    pub fn read_u32(&self, addr: u64) -> Result<u32, ImageError> {
        Ok(u32::from_le_bytes(self.array(addr)?))
    }

    /// The little-endian `u64` at `addr`.
    #[inline(always)]
    pub fn read_u64(&self, addr: u64) -> Result<u64, ImageError> {
        Ok(u64::from_le_bytes(self.array(addr)?))
    }

    /// The word at `addr` (4 or 8 bytes by the image's word size), zero-extended to `u64`.
    #[inline(always)]
    pub fn read_word(&self, addr: u64) -> Result<u64, ImageError> {
        match self.word {
            WordSize::W32 => self.read_u32(addr).map(u64::from),
            WordSize::W64 => self.read_u64(addr),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_are_bounds_checked() {
        let img = Image::from_vec(vec![1, 2, 3, 4, 5, 6, 7, 8, 9]);
        assert_eq!(img.read_u32(0), Ok(0x0403_0201));
        assert_eq!(img.read_u64(1), Ok(0x0908_0706_0504_0302));
        assert_eq!(
            img.read_u64(2),
            Err(ImageError::OutOfBounds {
                addr: 2,
                len: 8,
                size: 9
            })
        );
        assert!(img.bytes(u64::MAX, 2).is_err());
        assert_eq!(img.bytes(9, 0), Ok(&[][..]));
        let img = img.with_word_size(WordSize::W32);
        assert_eq!(img.read_word(4), Ok(0x0807_0605));
    }

    #[test]
    fn released_pages_read_back_the_same_bytes() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("memory.bin");
        let bytes: Vec<u8> = (0..3 * 4096 + 17).map(|i| (i * 7 % 251) as u8).collect();
        std::fs::write(&path, &bytes).unwrap();
        let img = Image::map_file(&path).unwrap();
        assert_eq!(img.as_slice(), &bytes[..]);
        assert!(img.release_pages());
        assert_eq!(img.as_slice(), &bytes[..]);
        assert_eq!(
            img.read_u64(4096),
            Ok(u64::from_le_bytes(bytes[4096..4104].try_into().unwrap()))
        );
        assert!(Image::from_vec(bytes).release_pages());
    }
}
