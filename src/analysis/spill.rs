//! [`Spilled`]: a `u32` array moved to a temporary file while a pass does not need it, so
//! its memory goes back to the system, and read back afterwards (the dominator pass's
//! vertex order, idle through the semidominator step). When the file cannot be written the
//! array stays in memory: only the peak changes, never the result.

use std::fs::{File, OpenOptions};
use std::io::{BufReader, BufWriter, Read, Seek, SeekFrom, Write};
use std::sync::atomic::{AtomicU64, Ordering};

/// Values per read or write.
const CHUNK: usize = 1 << 14;

/// A `u32` array in a temporary file (already unlinked), or still in memory.
#[derive(Debug)]
pub enum Spilled {
    /// The array's length and the file holding it (little-endian).
    File(usize, File),
    /// The array, when it could not be spilled.
    Memory(Vec<u32>),
}

impl Spilled {
    /// Moves `values` to a new file in the temporary directory (`TMPDIR`).
    pub fn new(values: Vec<u32>) -> Spilled {
        match write(&values) {
            Ok(file) => Spilled::File(values.len(), file),
            Err(_) => Spilled::Memory(values),
        }
    }

    /// The array back in memory.
    pub fn restore(self) -> std::io::Result<Vec<u32>> {
        match self {
            Spilled::Memory(values) => Ok(values),
            Spilled::File(len, mut file) => {
                file.seek(SeekFrom::Start(0))?;
                let mut reader = BufReader::with_capacity(CHUNK * 4, file);
                let mut out = Vec::with_capacity(len);
                let mut bytes = vec![0u8; CHUNK * 4];
                while out.len() < len {
                    let n = (len - out.len()).min(CHUNK);
                    reader.read_exact(&mut bytes[..n * 4])?;
                    out.extend(
                        bytes[..n * 4]
                            .chunks_exact(4)
                            .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]])),
                    );
                }
                Ok(out)
            }
        }
    }
}

/// A new unlinked file in the temporary directory holding `values`.
fn write(values: &[u32]) -> std::io::Result<File> {
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let path = std::env::temp_dir().join(format!(
        "mo-mem-spill-{}-{}",
        std::process::id(),
        NEXT.fetch_add(1, Ordering::Relaxed)
    ));
    let file = OpenOptions::new()
        .read(true)
        .write(true)
        .create_new(true)
        .open(&path)?;
    // The open file stays readable; the name goes now, so nothing is left behind.
    std::fs::remove_file(&path)?;
    let mut writer = BufWriter::with_capacity(CHUNK * 4, file);
    for chunk in values.chunks(CHUNK) {
        for v in chunk {
            writer.write_all(&v.to_le_bytes())?;
        }
    }
    writer.flush()?;
    writer.into_inner().map_err(|e| e.into_error())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_array_comes_back_unchanged() {
        let values: Vec<u32> = (0..100_000u32)
            .map(|i| i.wrapping_mul(2_654_435_761))
            .collect();
        let spilled = Spilled::new(values.clone());
        assert!(matches!(spilled, Spilled::File(..)), "{spilled:?}");
        assert_eq!(spilled.restore().unwrap(), values);
        assert_eq!(
            Spilled::new(Vec::new()).restore().unwrap(),
            Vec::<u32>::new()
        );
    }
}
