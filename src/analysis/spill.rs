//! [`Spilled`]: a `u32` array moved to a temporary file while a pass does not need it, so
//! its memory goes back to the system, and read back afterwards (the dominator pass's
//! vertex order, idle through the semidominator step); [`PairLog`]: a list of pairs written
//! to a temporary file as it grows and read back in order (the dominator pass's non-tree
//! edges). When the file cannot be written the values stay in memory: only the peak
//! changes, never the result.

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

    /// A copy of `values` in a new file in the temporary directory (in memory if the file
    /// cannot be written), for an array that goes on being used and changed while its
    /// present contents are needed again later.
    pub fn copy_of(values: &[u32]) -> Spilled {
        match write(values) {
            Ok(file) => Spilled::File(values.len(), file),
            Err(_) => Spilled::Memory(values.to_vec()),
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

/// An append-only list of `(u32, u32)` pairs, in blocks of [`CHUNK`] pairs: each full block
/// goes to a temporary file, so the list takes one block of memory however long it grows;
/// [`PairLog::for_each`] reads it back in order, as often as needed. If a block cannot be
/// written, the blocks already written are read back and the list goes on in memory.
#[derive(Debug)]
pub struct PairLog {
    /// The file and the number of whole blocks in it, while the list is spilled.
    file: Option<(File, usize)>,
    /// The pairs not in the file: the block being filled, or all of them once in memory.
    tail: Vec<(u32, u32)>,
}

impl Default for PairLog {
    fn default() -> Self {
        PairLog::new()
    }
}

impl PairLog {
    /// An empty list, backed by a new unlinked file in `TMPDIR` if one can be made.
    pub fn new() -> PairLog {
        PairLog {
            file: unlinked_file().ok().map(|f| (f, 0)),
            tail: Vec::new(),
        }
    }

    /// The number of pairs.
    pub fn len(&self) -> usize {
        self.file.as_ref().map_or(0, |(_, blocks)| blocks * CHUNK) + self.tail.len()
    }

    /// Whether the list is empty.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Appends a pair.
    pub fn push(&mut self, pair: (u32, u32)) {
        self.tail.push(pair);
        if self.tail.len() == CHUNK && self.file.is_some() {
            self.spill_block();
        }
    }

    /// Writes the full block in `tail` to the file, or (on an error) moves the list to memory.
    fn spill_block(&mut self) {
        let Some((file, blocks)) = self.file.as_mut() else {
            return;
        };
        let mut bytes = Vec::with_capacity(CHUNK * 8);
        for &(a, b) in &self.tail {
            bytes.extend_from_slice(&a.to_le_bytes());
            bytes.extend_from_slice(&b.to_le_bytes());
        }
        let at = (*blocks * CHUNK * 8) as u64;
        let written = file
            .seek(SeekFrom::Start(at))
            .and_then(|_| file.write_all(&bytes));
        match written {
            Ok(()) => {
                *blocks += 1;
                self.tail.clear();
            }
            Err(_) => self.move_to_memory(),
        }
    }

    /// Reads the blocks written so far back in front of `tail` and drops the file (the list
    /// goes on in memory; if even that read fails, the pairs are lost and `for_each` says so).
    fn move_to_memory(&mut self) {
        let Some((file, blocks)) = self.file.take() else {
            return;
        };
        let mut all = Vec::with_capacity(blocks * CHUNK + self.tail.len());
        let read = read_blocks(&file, blocks, |pairs| all.extend_from_slice(pairs));
        match read {
            Ok(()) => {
                all.append(&mut self.tail);
                self.tail = all;
            }
            Err(_) => self.file = Some((file, blocks)),
        }
    }

    /// Calls `f` with the pairs in the order they were pushed, a block at a time.
    pub fn for_each(&self, mut f: impl FnMut(&[(u32, u32)])) -> std::io::Result<()> {
        if let Some((file, blocks)) = &self.file {
            read_blocks(file, *blocks, &mut f)?;
        }
        f(&self.tail);
        Ok(())
    }
}

/// Reads `blocks` blocks of [`CHUNK`] pairs from the start of `file`, one at a time.
fn read_blocks(
    mut file: &File,
    blocks: usize,
    mut f: impl FnMut(&[(u32, u32)]),
) -> std::io::Result<()> {
    file.seek(SeekFrom::Start(0))?;
    let mut bytes = vec![0u8; CHUNK * 8];
    let mut pairs = Vec::with_capacity(CHUNK);
    for _ in 0..blocks {
        file.read_exact(&mut bytes)?;
        pairs.clear();
        pairs.extend(bytes.chunks_exact(8).map(|b| {
            (
                u32::from_le_bytes([b[0], b[1], b[2], b[3]]),
                u32::from_le_bytes([b[4], b[5], b[6], b[7]]),
            )
        }));
        f(&pairs);
    }
    Ok(())
}

/// A new file in the temporary directory (`TMPDIR`), open for reading and writing, whose
/// name is already gone (nothing is left behind, whatever happens to the process).
fn unlinked_file() -> std::io::Result<File> {
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
    std::fs::remove_file(&path)?;
    Ok(file)
}

/// A new unlinked file in the temporary directory holding `values`.
fn write(values: &[u32]) -> std::io::Result<File> {
    let file = unlinked_file()?;
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

    fn pairs_of(log: &PairLog) -> Vec<(u32, u32)> {
        let mut out = Vec::new();
        log.for_each(|p| out.extend_from_slice(p)).unwrap();
        out
    }

    #[test]
    fn pairs_come_back_in_order_from_the_file_and_from_memory() {
        let want: Vec<(u32, u32)> = (0..(3 * CHUNK as u32 + 17))
            .map(|i| (i.wrapping_mul(2_654_435_761), !i))
            .collect();
        let mut log = PairLog::new();
        for &p in &want {
            log.push(p);
        }
        assert!(log.file.as_ref().is_some_and(|(_, blocks)| *blocks == 3));
        assert_eq!(log.tail.len(), 17);
        assert_eq!(log.len(), want.len());
        // read twice: the same pairs each time
        assert_eq!(pairs_of(&log), want);
        assert_eq!(pairs_of(&log), want);
        // moved to memory halfway (as after a failed write), nothing is lost or repeated
        log.move_to_memory();
        assert!(log.file.is_none());
        for i in 0..5 {
            log.push((i, i));
        }
        let mut more = want.clone();
        more.extend((0..5).map(|i| (i, i)));
        assert_eq!(pairs_of(&log), more);
        assert_eq!(log.len(), more.len());
        assert!(PairLog::new().is_empty());
    }

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
        let mut changing = values.clone();
        let copy = Spilled::copy_of(&changing);
        changing.iter_mut().for_each(|v| *v = 0);
        assert_eq!(copy.restore().unwrap(), values);
    }
}
