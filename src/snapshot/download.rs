//! What a download tool leaves in a snapshot directory before it is done, and whether one
//! is still writing it.
//!
//! - icp-cli 1.x (`icp canister snapshot download`) holds an exclusive `flock` on `DIR/.lock`
//!   while it writes, creates each blob at its full length, writes 2,000,000-byte chunks at
//!   their offsets in any order, and records them in `.download_progress.json`
//!   (`{"wasm_module": {"frontier": N, "ahead": [offsets]}, "wasm_memory": …,
//!   "stable_memory": …}`, saved through `.download_progress.json.tmp`), which it deletes
//!   last; chunk-store entries come after the blobs.
//! - dfx 0.30.1 and later append chunks in order (an unfinished blob is shorter than the
//!   metadata says); dfx 0.29 writes each blob whole, so an unfinished download lacks the
//!   later files. Neither locks nor keeps a progress file.
//! - mo-mem's own `pull` keeps `.pull_state.json` (slices done per blob) until its manifest
//!   is written, and locks `<parent>/.<name>.lock` while it runs.
//!
//! Sizes come from `metadata.json` and progress files from the tools: both are untrusted,
//! so every computation here is bounded by what the files list, never by a size they claim.

use std::collections::BTreeSet;
use std::fmt;
use std::fs::File;
use std::io::Read;
use std::ops::Range;
use std::os::unix::io::AsRawFd;
use std::path::{Path, PathBuf};

use super::metadata::SnapshotMetadata;
use super::SnapshotError;

/// icp-cli's download progress file.
pub const ICP_PROGRESS_FILE: &str = ".download_progress.json";
/// What icp-cli writes the progress file through (a kill can leave it).
pub const ICP_PROGRESS_TMP: &str = ".download_progress.json.tmp";
/// The file icp-cli locks (`flock`, exclusive while writing) in the snapshot directory.
pub const ICP_LOCK_FILE: &str = ".lock";
/// mo-mem's own pull progress file.
pub const PULL_STATE_FILE: &str = ".pull_state.json";
/// The slice size icp-cli and dfx request (and mo-mem's pull by default).
pub const TRANSFER_CHUNK: u64 = 2_000_000;
/// Largest progress file read.
const MAX_PROGRESS_BYTES: u64 = 64 << 20;
/// Missing ranges named per file in a message; the rest are counted.
const RANGES_SHOWN: usize = 6;

/// The blob files in the order the tools download them, with their metadata sizes.
fn blobs(meta: &SnapshotMetadata) -> [(&'static str, &'static str, u64); 3] {
    [
        ("wasm_module", super::MODULE_FILE, meta.wasm_module_size()),
        ("wasm_memory", super::MEMORY_FILE, meta.wasm_memory_size()),
        (
            "stable_memory",
            super::STABLE_FILE,
            meta.stable_memory_size(),
        ),
    ]
}

/// Which tool left a directory unfinished.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DownloadTool {
    /// icp-cli (`.download_progress.json` or `.lock`).
    IcpCli,
    /// dfx (no marks of its own: files shorter than the metadata, or missing).
    Dfx,
    /// mo-mem's `pull` (`.pull_state.json`), with what it was pulling.
    MoMemPull {
        /// Network label the pull used.
        network: String,
        /// Canister principal.
        canister: String,
        /// Snapshot ID (hex).
        snapshot: String,
    },
}

impl DownloadTool {
    fn name(&self) -> &'static str {
        match self {
            DownloadTool::IcpCli => "icp-cli",
            DownloadTool::Dfx => "dfx",
            DownloadTool::MoMemPull { .. } => "mo-mem pull",
        }
    }
}

/// One blob file an unfinished download has not written completely.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MissingBytes {
    /// The file.
    pub file: PathBuf,
    /// Its size per `metadata.json`.
    pub size: u64,
    /// The byte ranges not downloaded yet (half-open, ascending); empty when unknown.
    pub ranges: Vec<Range<u64>>,
}

impl MissingBytes {
    /// How many bytes are missing.
    pub fn missing(&self) -> u64 {
        self.ranges.iter().map(|r| r.end - r.start).sum()
    }
}

/// A snapshot directory a download tool has not finished: what is missing and how to resume.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unfinished {
    /// The snapshot directory.
    pub dir: PathBuf,
    /// The tool that left it.
    pub tool: DownloadTool,
    /// What shows it is unfinished (a progress file, short files).
    pub evidence: String,
    /// Blob files with bytes still missing.
    pub files: Vec<MissingBytes>,
    /// Chunk-store entries the metadata lists that are not there yet.
    pub chunks: Vec<PathBuf>,
    /// Anything else worth saying (an unreadable progress file).
    pub note: Option<String>,
}

impl Unfinished {
    /// The command that resumes the download.
    pub fn resume_command(&self) -> String {
        let dir = self.dir.display();
        match &self.tool {
            DownloadTool::IcpCli => format!(
                "icp canister snapshot download <canister> <snapshot-id> --output {dir} --resume"
            ),
            DownloadTool::Dfx => format!(
                "dfx canister snapshot download <canister> <snapshot-id> --dir {dir} --resume \
                 (dfx 0.30.1 or later; dfx 0.29 cannot resume: empty the directory and download again)"
            ),
            DownloadTool::MoMemPull {
                network,
                canister,
                snapshot,
            } => {
                let store = self
                    .dir
                    .parent()
                    .and_then(Path::parent)
                    .map(|p| format!(" --store {}", p.display()))
                    .unwrap_or_default();
                format!(
                    "mo-mem pull --network {network} --canister {canister} --snapshot {snapshot}{store}"
                )
            }
        }
    }

    /// A one-line summary for `info`, the report and the mount's README.
    pub fn summary(&self) -> String {
        let mut what: Vec<String> = self
            .files
            .iter()
            .map(|f| {
                let name = f.file.file_name().unwrap_or_default().to_string_lossy();
                if f.ranges.is_empty() {
                    format!("{name}: missing bytes unknown")
                } else {
                    format!("{name}: {} of {} bytes missing", f.missing(), f.size)
                }
            })
            .collect();
        if !self.chunks.is_empty() {
            what.push(format!("{} chunk-store entries missing", self.chunks.len()));
        }
        if what.is_empty() {
            what.push("the tool did not record its end".into());
        }
        format!(
            "INCOMPLETE: an unfinished {} download ({})",
            self.tool.name(),
            what.join(", ")
        )
    }
}

fn ranges_text(ranges: &[Range<u64>]) -> String {
    let mut parts: Vec<String> = ranges
        .iter()
        .take(RANGES_SHOWN)
        .map(|r| format!("{}..{}", r.start, r.end))
        .collect();
    if ranges.len() > RANGES_SHOWN {
        parts.push(format!("and {} more ranges", ranges.len() - RANGES_SHOWN));
    }
    parts.join(", ")
}

impl fmt::Display for Unfinished {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}: an unfinished {} download ({})",
            self.dir.display(),
            self.tool.name(),
            self.evidence
        )?;
        for m in &self.files {
            if m.ranges.is_empty() {
                write!(
                    f,
                    "; {}: which bytes are missing is unknown",
                    m.file.display()
                )?;
            } else {
                write!(
                    f,
                    "; {} lacks bytes {} ({} of {} bytes)",
                    m.file.display(),
                    ranges_text(&m.ranges),
                    m.missing(),
                    m.size
                )?;
            }
        }
        if let Some(first) = self.chunks.first() {
            write!(f, "; chunk-store entry {} is missing", first.display())?;
            if self.chunks.len() > 1 {
                write!(f, " (and {} more)", self.chunks.len() - 1)?;
            }
        }
        if self.files.is_empty() && self.chunks.is_empty() {
            write!(
                f,
                "; every chunk is recorded, but the tool did not record its end"
            )?;
        }
        if let Some(note) = &self.note {
            write!(f, "; {note}")?;
        }
        write!(f, ". Resume it with `{}`", self.resume_command())
    }
}

/// A shared lock on a download tool's lock file, held while a directory is read (released
/// on drop): a tool that starts writing meanwhile waits for it.
#[derive(Debug)]
pub struct ReadLock {
    _files: Vec<File>,
}

/// Takes a shared, non-blocking `flock` on `lock` if it exists: `Ok(None)` when there is no
/// such file, `Err` naming the tool when a writer holds it.
fn share_lock(dir: &Path, lock: &Path, tool: &str) -> Result<Option<File>, SnapshotError> {
    let file = match File::open(lock) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(source) => {
            return Err(SnapshotError::Io {
                file: lock.to_path_buf(),
                source,
            })
        }
    };
    // A writer that has just finished may still hold the lock for a moment through a
    // child process forked before it closed its descriptor (the lock belongs to the open
    // file, which the child shares until it execs): ask again a few times before refusing.
    for attempt in 0..=LOCK_RETRIES {
        // SAFETY: flock on a descriptor this function owns; no memory is involved.
        let rc = unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_SH | libc::LOCK_NB) };
        if rc == 0 {
            return Ok(Some(file));
        }
        let error = std::io::Error::last_os_error();
        if error.kind() != std::io::ErrorKind::WouldBlock {
            return Err(SnapshotError::Io {
                file: lock.to_path_buf(),
                source: error,
            });
        }
        if attempt < LOCK_RETRIES {
            std::thread::sleep(LOCK_RETRY_PAUSE);
        }
    }
    Err(SnapshotError::BeingWritten {
        dir: dir.to_path_buf(),
        lock: lock.to_path_buf(),
        tool: tool.to_string(),
    })
}

/// How many more times a held lock is asked for before a directory is refused as being
/// written (with [`LOCK_RETRY_PAUSE`] between: half a second in all).
const LOCK_RETRIES: u32 = 10;

/// The pause between two asks for a held lock.
const LOCK_RETRY_PAUSE: std::time::Duration = std::time::Duration::from_millis(50);

/// The lock file mo-mem's pull holds for `dir`: `<parent>/.<name>.lock`.
pub fn pull_lock_path(dir: &Path) -> Option<PathBuf> {
    let name = dir.file_name()?.to_string_lossy().into_owned();
    Some(dir.parent()?.join(format!(".{name}.lock")))
}

/// Refuses `dir` with [`SnapshotError::BeingWritten`] if icp-cli or mo-mem's pull is writing
/// it (holds its lock); otherwise returns shared locks that keep them from starting until
/// dropped.
pub fn lock_for_reading(dir: &Path) -> Result<ReadLock, SnapshotError> {
    let mut files = Vec::new();
    if let Some(f) = share_lock(dir, &dir.join(ICP_LOCK_FILE), "icp-cli")? {
        files.push(f);
    }
    if let Some(lock) = pull_lock_path(dir) {
        if let Some(f) = share_lock(dir, &lock, "mo-mem pull")? {
            files.push(f);
        }
    }
    Ok(ReadLock { _files: files })
}

/// Reads a small JSON file (at most [`MAX_PROGRESS_BYTES`]).
fn read_json(file: &Path) -> Result<serde_json::Value, String> {
    let handle = File::open(file).map_err(|e| e.to_string())?;
    let mut bytes = Vec::new();
    handle
        .take(MAX_PROGRESS_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| e.to_string())?;
    if bytes.len() as u64 > MAX_PROGRESS_BYTES {
        return Err(format!("larger than {MAX_PROGRESS_BYTES} bytes"));
    }
    serde_json::from_slice(&bytes).map_err(|e| e.to_string())
}

/// The bytes of `0..size` not covered by `[done, done + len)` for each start in `done`
/// (ascending), nor by `0..below`.
fn complement(size: u64, below: u64, done: &BTreeSet<u64>, len: u64) -> Vec<Range<u64>> {
    let mut out = Vec::new();
    let mut at = below.min(size);
    for &start in done.range(at..) {
        if start >= size {
            break;
        }
        if start > at {
            out.push(at..start);
        }
        at = at.max(start.saturating_add(len).min(size));
    }
    if at < size {
        out.push(at..size);
    }
    out
}

/// The files icp-cli's progress says are not complete.
fn icp_missing(
    dir: &Path,
    meta: &SnapshotMetadata,
    progress: &serde_json::Value,
) -> Result<Vec<MissingBytes>, String> {
    let mut out = Vec::new();
    for (key, file, size) in blobs(meta) {
        if size == 0 {
            continue;
        }
        let (frontier, ahead) = match progress.get(key) {
            None => (0, BTreeSet::new()),
            Some(entry) => {
                let frontier = entry
                    .get("frontier")
                    .and_then(serde_json::Value::as_u64)
                    .ok_or_else(|| format!("{key}.frontier is not a number"))?;
                let list = entry
                    .get("ahead")
                    .and_then(serde_json::Value::as_array)
                    .ok_or_else(|| format!("{key}.ahead is not a list"))?;
                let ahead = list
                    .iter()
                    .map(|v| {
                        v.as_u64()
                            .ok_or_else(|| format!("{key}.ahead holds a non-offset"))
                    })
                    .collect::<Result<BTreeSet<u64>, String>>()?;
                (frontier, ahead)
            }
        };
        // icp-cli counts only chunks at multiples of the chunk size.
        let ahead: BTreeSet<u64> = ahead
            .into_iter()
            .filter(|o| o % TRANSFER_CHUNK == 0)
            .collect();
        let ranges = complement(size, frontier, &ahead, TRANSFER_CHUNK);
        if !ranges.is_empty() {
            out.push(MissingBytes {
                file: dir.join(file),
                size,
                ranges,
            });
        }
    }
    Ok(out)
}

/// What a mo-mem pull's progress says: the tool and the files not complete.
fn pull_missing(
    dir: &Path,
    meta: &SnapshotMetadata,
    state: &serde_json::Value,
) -> Result<(DownloadTool, Vec<MissingBytes>), String> {
    let text = |k: &str| {
        state
            .get(k)
            .and_then(serde_json::Value::as_str)
            .map(String::from)
            .ok_or_else(|| format!("no {k}"))
    };
    let tool = DownloadTool::MoMemPull {
        network: text("network")?,
        canister: text("canister")?,
        snapshot: text("snapshot")?,
    };
    let slice = state
        .get("slice_size")
        .and_then(serde_json::Value::as_u64)
        .filter(|s| *s > 0)
        .ok_or("no slice_size")?;
    let done = state.get("slices_done");
    let mut out = Vec::new();
    for (_, file, size) in blobs(meta) {
        if size == 0 {
            continue;
        }
        let starts: BTreeSet<u64> = match done.and_then(|d| d.get(file)) {
            None => BTreeSet::new(),
            Some(list) => list
                .as_array()
                .ok_or_else(|| format!("slices_done.{file} is not a list"))?
                .iter()
                .filter_map(serde_json::Value::as_u64)
                .filter_map(|i| i.checked_mul(slice))
                .collect(),
        };
        let ranges = complement(size, 0, &starts, slice);
        if !ranges.is_empty() {
            out.push(MissingBytes {
                file: dir.join(file),
                size,
                ranges,
            });
        }
    }
    Ok((tool, out))
}

/// Blob files shorter than the metadata says (or absent): what dfx leaves.
fn short_files(dir: &Path, meta: &SnapshotMetadata) -> Result<Vec<MissingBytes>, SnapshotError> {
    let mut out = Vec::new();
    for (_, file, size) in blobs(meta) {
        let path = dir.join(file);
        let len = match std::fs::metadata(&path) {
            Ok(m) => m.len(),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => 0,
            Err(source) => return Err(SnapshotError::Io { file: path, source }),
        };
        if len < size {
            out.push(MissingBytes {
                file: path,
                size,
                ranges: std::iter::once(len..size).collect(),
            });
        }
    }
    Ok(out)
}

/// Chunk-store entries the metadata lists that have no file.
fn missing_chunks(dir: &Path, meta: &SnapshotMetadata) -> Vec<PathBuf> {
    meta.0
        .wasm_chunk_store
        .iter()
        .map(|c| {
            dir.join("wasm_chunk_store")
                .join(format!("{}.bin", hex::encode(&c.hash)))
        })
        .filter(|p| !p.is_file())
        .collect()
}

/// Whether the download of snapshot directory `dir` (with metadata `meta`) is unfinished,
/// and if so what is missing. `None`: no tool left a mark, every blob is at least as long
/// as the metadata says and every chunk-store entry is there.
pub fn inspect(dir: &Path, meta: &SnapshotMetadata) -> Result<Option<Unfinished>, SnapshotError> {
    let chunks = missing_chunks(dir, meta);
    let unfinished = |tool, evidence: String, files, note| {
        Some(Unfinished {
            dir: dir.to_path_buf(),
            tool,
            evidence,
            files,
            chunks: chunks.clone(),
            note,
        })
    };
    let pull_state = dir.join(PULL_STATE_FILE);
    if pull_state.exists() {
        let evidence = format!("its progress file {PULL_STATE_FILE} is present");
        return Ok(
            match read_json(&pull_state).and_then(|v| pull_missing(dir, meta, &v)) {
                Ok((tool, files)) => unfinished(tool, evidence, files, None),
                Err(why) => unfinished(
                    DownloadTool::MoMemPull {
                        network: "<network>".into(),
                        canister: "<canister>".into(),
                        snapshot: "<snapshot-id>".into(),
                    },
                    evidence,
                    short_files(dir, meta)?,
                    Some(format!("its progress file is unreadable ({why})")),
                ),
            },
        );
    }
    let progress = dir.join(ICP_PROGRESS_FILE);
    let progress_tmp = dir.join(ICP_PROGRESS_TMP);
    if progress.exists() {
        let evidence = format!("its progress file {ICP_PROGRESS_FILE} is present");
        return Ok(
            match read_json(&progress).and_then(|v| icp_missing(dir, meta, &v)) {
                Ok(files) => unfinished(DownloadTool::IcpCli, evidence, files, None),
                Err(why) => unfinished(
                    DownloadTool::IcpCli,
                    evidence,
                    Vec::new(),
                    Some(format!(
                        "its progress file is unreadable ({why}), so which bytes are missing is unknown"
                    )),
                ),
            },
        );
    }
    let files = short_files(dir, meta)?;
    if progress_tmp.exists() {
        // Killed while saving its first progress file: one chunk at most was written.
        let files = blobs(meta)
            .into_iter()
            .filter(|(_, _, size)| *size > 0)
            .map(|(_, file, size)| MissingBytes {
                file: dir.join(file),
                size,
                ranges: Vec::new(),
            })
            .collect();
        return Ok(unfinished(
            DownloadTool::IcpCli,
            format!("{ICP_PROGRESS_TMP} is present but no progress file"),
            files,
            None,
        ));
    }
    let icp = dir.join(ICP_LOCK_FILE).exists();
    if files.is_empty() && chunks.is_empty() {
        return Ok(None);
    }
    let (tool, evidence) = if icp {
        (
            DownloadTool::IcpCli,
            format!("{ICP_LOCK_FILE} is present and files are missing"),
        )
    } else {
        (
            DownloadTool::Dfx,
            "files are shorter than metadata.json says, or missing".to_string(),
        )
    };
    Ok(unfinished(tool, evidence, files, None))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn complement_of_frontier_and_ahead() {
        let c = TRANSFER_CHUNK;
        let ahead: BTreeSet<u64> = [3 * c, 5 * c].into_iter().collect();
        assert_eq!(
            complement(6 * c + 10, 2 * c, &ahead, c),
            vec![2 * c..3 * c, 4 * c..5 * c, 6 * c..6 * c + 10]
        );
        // a frontier past the end, offsets past the end, overlapping entries
        assert!(complement(100, 200, &BTreeSet::new(), c).is_empty());
        let odd: BTreeSet<u64> = [0, 1, 500].into_iter().collect();
        assert_eq!(complement(1000, 0, &odd, 10), vec![11..500, 510..1000]);
        let huge: BTreeSet<u64> = [u64::MAX - 1].into_iter().collect();
        assert_eq!(complement(u64::MAX, 0, &huge, c), vec![0..u64::MAX - 1]);
    }

    #[test]
    fn summary_and_message_name_ranges_and_resume() {
        let u = Unfinished {
            dir: PathBuf::from("/d"),
            tool: DownloadTool::IcpCli,
            evidence: "x".into(),
            files: vec![MissingBytes {
                file: PathBuf::from("/d/wasm_memory.bin"),
                size: 10,
                ranges: vec![2..4, 8..10],
            }],
            chunks: vec![],
            note: None,
        };
        let text = u.to_string();
        assert!(
            text.contains("/d/wasm_memory.bin lacks bytes 2..4, 8..10 (4 of 10 bytes)"),
            "{text}"
        );
        assert!(
            text.contains(
                "icp canister snapshot download <canister> <snapshot-id> --output /d --resume"
            ),
            "{text}"
        );
        assert_eq!(
            u.summary(),
            "INCOMPLETE: an unfinished icp-cli download (wasm_memory.bin: 4 of 10 bytes missing)"
        );
    }
}
