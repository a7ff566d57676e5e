//! Snapshot blobs: real bytes, or a reproducible pattern of any size that costs no memory.

use std::sync::Arc;

/// The content of a memory or module.
#[derive(Clone, Debug)]
pub enum Data {
    /// Bytes held in memory.
    Bytes(Arc<Vec<u8>>),
    /// `len` bytes of a pattern derived from `seed` (for gigabyte benchmarks).
    Pattern {
        /// Distinguishes patterns.
        seed: u64,
        /// Length in bytes.
        len: u64,
    },
}

fn word(seed: u64, i: u64) -> u64 {
    let mut z = seed ^ i.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

impl Data {
    /// Bytes from a vector.
    pub fn bytes(v: Vec<u8>) -> Self {
        Data::Bytes(Arc::new(v))
    }

    /// Length in bytes.
    pub fn len(&self) -> u64 {
        match self {
            Data::Bytes(b) => b.len() as u64,
            Data::Pattern { len, .. } => *len,
        }
    }

    /// `len` bytes from `offset` (caller checks bounds).
    pub fn read(&self, offset: u64, len: u64) -> Vec<u8> {
        match self {
            Data::Bytes(b) => b[offset as usize..(offset + len) as usize].to_vec(),
            Data::Pattern { seed, .. } => {
                let mut out = Vec::with_capacity(len as usize);
                let mut pos = offset;
                let end = offset + len;
                while pos < end {
                    let w = word(*seed, pos / 8).to_le_bytes();
                    let start = (pos % 8) as usize;
                    let take = (8 - start).min((end - pos) as usize);
                    out.extend_from_slice(&w[start..start + take]);
                    pos += take as u64;
                }
                out
            }
        }
    }

    /// All bytes (tests on small data).
    pub fn to_vec(&self) -> Vec<u8> {
        self.read(0, self.len())
    }
}
