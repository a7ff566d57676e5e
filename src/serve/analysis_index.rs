//! [`AnalysisIndex`]: a snapshot's heap analysis kept between processes, as Eclipse MAT keeps
//! index files beside a dump. The first command that analyses a large snapshot writes the
//! analysis ([`crate::analysis::persist`]) to a file in the user's cache; every later one (a
//! command, the mount, the MCP server, after a release) reads it back in a fraction of the
//! analysis' time instead of computing it again. `docs/analysis.md`, "The kept analysis".
//!
//! - **Found by the snapshot's identity**: every file of the snapshot (its path, device,
//!   inode, size, modification and change times: a rewrite or a replacement changes one,
//!   [`Fingerprint`]), the reader limits, the encoding's version and byte order, and the
//!   running binary's own identity (a rebuilt mo-mem never reads another build's analysis).
//!   The file's name is the BLAKE3 hash of that identity; the identity itself is in the
//!   file and compared exactly.
//! - **Authenticated**: a keyed BLAKE3 hash over everything before it, with a 32-byte key
//!   made on first use (`index.key` in the cache directory, mode 0600, refused if others
//!   may read it). A file that fails any check is ignored (and replaced once computed).
//! - **Written atomically** (a temporary file renamed) and only for heaps of at least
//!   [`MIN_OBJECTS`] objects (a smaller one is analysed faster than its file is read); the
//!   directory is kept under its budget, the least recently used files removed first.
//!
//! Set by the environment: `MO_MEM_INDEX` (`off`; `on`, the default; `always`: heaps of any
//! size), `MO_MEM_CACHE_DIR` (default `<XDG cache>/mo-mem`; the files are in its `analysis/`),
//! `MO_MEM_INDEX_MIB` (the budget, default 8192).

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

use crate::analysis::persist::{self, ENDIAN, FORMAT};
use crate::analysis::{AnalysisStore, HeapAnalysis, OpenedHeap};
use crate::image::ReaderLimits;
use crate::store::fsutil::FILE_MODE;
use crate::store::StoreKey;
use crate::vfs::guard::Fingerprint;

/// The fewest objects a heap has for its analysis to be kept (by default).
pub const MIN_OBJECTS: u64 = 1_000_000;

/// The default budget of the directory, in MiB.
pub const DEFAULT_BUDGET_MIB: u64 = 8192;

/// The first bytes of a file.
const MAGIC: &[u8; 8] = b"MOMEMAIX";

/// The bytes of the keyed hash at the end of a file.
const MAC_LEN: usize = 32;

/// The extension of the files.
const EXTENSION: &str = "analysis";

/// Where analyses are kept, and which.
#[derive(Debug, Clone)]
pub struct IndexPolicy {
    /// The directory of the files.
    pub dir: PathBuf,
    /// The fewest objects a heap has for its analysis to be written.
    pub min_objects: u64,
    /// The most bytes the directory's files take together.
    pub budget: u64,
}

impl IndexPolicy {
    /// The policy the environment sets (`None`: `MO_MEM_INDEX=off`, or no cache directory).
    pub fn from_env() -> Option<IndexPolicy> {
        let min_objects = match std::env::var("MO_MEM_INDEX").as_deref() {
            Ok("off") => return None,
            Ok("always") => 0,
            _ => MIN_OBJECTS,
        };
        let base = match std::env::var_os("MO_MEM_CACHE_DIR") {
            Some(dir) => PathBuf::from(dir),
            None => dirs::cache_dir()?.join("mo-mem"),
        };
        let mib = std::env::var("MO_MEM_INDEX_MIB")
            .ok()
            .and_then(|v| v.parse::<u64>().ok())
            .unwrap_or(DEFAULT_BUDGET_MIB);
        Some(IndexPolicy {
            dir: base.join(EXTENSION),
            min_objects,
            budget: mib.saturating_mul(1 << 20),
        })
    }
}

/// One snapshot's kept analysis: its file and the identity it must hold.
pub struct AnalysisIndex {
    policy: IndexPolicy,
    files: Vec<PathBuf>,
    limits: ReaderLimits,
    identity: String,
    file: PathBuf,
}

impl AnalysisIndex {
    /// The kept analysis of the snapshot read from `files` (a directory: every regular file
    /// in it; a file: itself) under `limits`, per the environment's policy; `None` if the
    /// policy keeps none or a file cannot be identified. Made before the snapshot is
    /// opened: an analysis is kept only if its files are still the same once it is
    /// computed.
    pub fn for_files(files: &[&Path], limits: &ReaderLimits) -> Option<AnalysisIndex> {
        AnalysisIndex::with_policy(IndexPolicy::from_env()?, files, limits)
    }

    /// [`AnalysisIndex::for_files`] under `policy`.
    pub fn with_policy(
        policy: IndexPolicy,
        files: &[&Path],
        limits: &ReaderLimits,
    ) -> Option<AnalysisIndex> {
        let identity = identity(files, limits)?;
        let name = blake3::hash(identity.as_bytes()).to_hex();
        let file = policy.dir.join(format!("{name}.{EXTENSION}"));
        Some(AnalysisIndex {
            policy,
            files: files.iter().map(|f| f.to_path_buf()).collect(),
            limits: *limits,
            identity,
            file,
        })
    }

    fn key(&self) -> Option<StoreKey> {
        match StoreKey::load_or_create(&self.policy.dir.join("index.key")) {
            Ok(key) => Some(key),
            Err(e) => {
                tracing::warn!("the kept analyses are not used: {e}");
                None
            }
        }
    }

    /// The analysis in the file, if it is there, this snapshot's, authentic and consistent;
    /// with `threads` of 2 or more the keyed hash is checked beside the decoding (what was
    /// decoded is used only if the hash is right).
    fn read(&self, threads: usize) -> Result<Option<HeapAnalysis>, String> {
        let file = match File::open(&self.file) {
            Ok(f) => f,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(e.to_string()),
        };
        // SAFETY: the file is only ever replaced (renamed over), never written in place, so
        // the mapped bytes do not change while they are read.
        let map = unsafe { memmap2::MmapOptions::new().populate().map(&file) }
            .map_err(|e| e.to_string())?;
        let Some(key) = self.key() else {
            return Ok(None);
        };
        let file_bytes = FileBytes::of(&map, self.identity.as_bytes())?;
        let authentic = || file_bytes.authentic(&key);
        let decode = || persist::decode(file_bytes.payload, threads).map_err(|e| e.to_string());
        let wrong = || "its keyed hash is wrong".to_string();
        let a = if threads >= 2 {
            // Decoding is bounded and checked whatever the bytes: it may start before the
            // hash is known to be right.
            let (authentic, decoded) = std::thread::scope(|s| {
                let check = s.spawn(authentic);
                let decoded = decode();
                (check.join().unwrap_or(false), decoded)
            });
            authentic.then_some(decoded).ok_or_else(wrong)??
        } else {
            authentic().then(decode).ok_or_else(wrong)??
        };
        // Recently used: the budget removes the oldest first.
        let _ = file.set_modified(std::time::SystemTime::now());
        Ok(Some(a))
    }

    /// Writes `a` to the file (a temporary file renamed over it), then keeps the directory
    /// under its budget.
    fn write(&self, opened: &OpenedHeap, a: &HeapAnalysis) -> Result<(), String> {
        let key = self.key().ok_or("no key")?;
        let dir = &self.policy.dir;
        let temp = dir.join(format!(
            ".{}.{}.tmp",
            self.file.file_name().unwrap_or_default().to_string_lossy(),
            std::process::id()
        ));
        let written = (|| {
            let mut out = Mac::new(
                &key,
                BufWriter::with_capacity(1 << 20, create_private(&temp)?),
            );
            out.write_all(MAGIC)?;
            out.write_all(&(self.identity.len() as u64).to_le_bytes())?;
            out.write_all(self.identity.as_bytes())?;
            let head = out.written;
            persist::encode(a, opened, &mut out).map_err(std::io::Error::other)?;
            let payload = out.written - head;
            out.write_all(&payload.to_le_bytes())?;
            let mac = out.hasher.finalize();
            let mut file = out.inner.into_inner().map_err(|e| e.into_error())?;
            file.write_all(mac.as_bytes())?;
            std::fs::rename(&temp, &self.file)
        })();
        if let Err(e) = written {
            let _ = std::fs::remove_file(&temp);
            return Err(e.to_string());
        }
        evict(dir, self.policy.budget, &self.file);
        Ok(())
    }
}

impl AnalysisStore for AnalysisIndex {
    fn load(&self, opened: &OpenedHeap) -> Option<HeapAnalysis> {
        match self.read(opened.threads()) {
            Ok(found) => found,
            Err(e) => {
                tracing::warn!(file = %self.file.display(), "the kept analysis is not used: {e}");
                None
            }
        }
    }

    fn save(&self, opened: &OpenedHeap, a: &HeapAnalysis) {
        if (a.graph().nodes() as u64) < self.policy.min_objects {
            return;
        }
        // A file changed since the snapshot was opened: the analysis may be of neither.
        let files: Vec<&Path> = self.files.iter().map(PathBuf::as_path).collect();
        if identity(&files, &self.limits).as_ref() != Some(&self.identity) {
            tracing::warn!(file = %self.file.display(), "the analysis is not kept: the snapshot's files changed");
            return;
        }
        let made = crate::store::fsutil::create_private_dir(&self.policy.dir)
            .map_err(|e| e.to_string())
            .and_then(|()| self.write(opened, a));
        if let Err(e) = made {
            tracing::warn!(file = %self.file.display(), "the analysis is not kept: {e}");
        }
    }
}

/// The identity of the snapshot read from `files` under `limits` by this binary: `None` if a
/// file (or the binary) cannot be identified.
fn identity(files: &[&Path], limits: &ReaderLimits) -> Option<String> {
    let mut paths: Vec<PathBuf> = Vec::new();
    for &f in files {
        let f = std::fs::canonicalize(f).ok()?;
        if f.is_dir() {
            for entry in std::fs::read_dir(&f).ok()? {
                let path = entry.ok()?.path();
                if path.is_file() {
                    paths.push(path);
                }
            }
        } else {
            paths.push(f);
        }
    }
    paths.sort();
    let exe = std::env::current_exe().ok()?;
    let mut id = format!(
        "mo-mem {} format {FORMAT} {ENDIAN}\nbinary {:?}\nlimits {limits:?}\n",
        env!("CARGO_PKG_VERSION"),
        Fingerprint::of_path(&exe).ok()?,
    );
    for p in paths {
        let fp = Fingerprint::of_path(&p).ok()?;
        id.push_str(&format!("{} {fp:?}\n", p.display()));
    }
    Some(id)
}

/// A file's parts: what its keyed hash covers, the hash, and the analysis' bytes.
struct FileBytes<'a> {
    signed: &'a [u8],
    mac: [u8; MAC_LEN],
    payload: &'a [u8],
}

impl<'a> FileBytes<'a> {
    /// The parts of a file's `bytes`, once its magic, identity (`identity`) and lengths are
    /// right.
    fn of(bytes: &'a [u8], identity: &[u8]) -> Result<FileBytes<'a>, String> {
        let head = MAGIC.len() + 8 + identity.len();
        if bytes.len() < head + 8 + MAC_LEN || &bytes[..MAGIC.len()] != MAGIC {
            return Err("not a kept analysis".to_string());
        }
        let id_len = u64::from_le_bytes(bytes[8..16].try_into().unwrap_or_default());
        if id_len != identity.len() as u64 || &bytes[16..head] != identity {
            return Err("kept for other files or another build".to_string());
        }
        let (signed, mac) = bytes.split_at(bytes.len() - MAC_LEN);
        let length_at = signed.len() - 8;
        let payload = u64::from_le_bytes(signed[length_at..].try_into().unwrap_or_default());
        if payload != (length_at - head) as u64 {
            return Err("its length is wrong".to_string());
        }
        Ok(FileBytes {
            signed,
            mac: mac.try_into().unwrap_or_default(),
            payload: &signed[head..length_at],
        })
    }

    /// Whether the keyed hash under `key` is right (compared in constant time).
    fn authentic(&self, key: &StoreKey) -> bool {
        blake3::keyed_hash(key.as_bytes(), self.signed) == blake3::Hash::from_bytes(self.mac)
    }
}

/// Removes the least recently used analyses in `dir` (never `keep`) until the rest take at
/// most `budget` bytes; also the temporary files a stopped writer left there a day ago.
fn evict(dir: &Path, budget: u64, keep: &Path) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let day = std::time::Duration::from_secs(86_400);
    let mut files: Vec<(std::time::SystemTime, u64, PathBuf)> = Vec::new();
    for entry in entries.flatten() {
        let path = entry.path();
        let Ok(meta) = entry.metadata() else {
            continue;
        };
        let modified = meta.modified().unwrap_or(std::time::UNIX_EPOCH);
        let name = entry.file_name();
        let name = name.to_string_lossy();
        if name.ends_with(".tmp") && modified.elapsed().is_ok_and(|age| age > day) {
            let _ = std::fs::remove_file(&path);
        } else if path.extension().is_some_and(|e| e == EXTENSION) {
            files.push((modified, meta.len(), path));
        }
    }
    let mut total: u64 = files.iter().map(|f| f.1).sum();
    files.sort();
    for (_, len, path) in files {
        if total <= budget {
            break;
        }
        if path != keep && std::fs::remove_file(&path).is_ok() {
            total -= len;
        }
    }
}

/// A new file only its owner may read (a file of that name is replaced).
fn create_private(path: &Path) -> std::io::Result<File> {
    use std::os::unix::fs::OpenOptionsExt;
    std::fs::OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(true)
        .mode(FILE_MODE)
        .open(path)
}

/// A writer that hashes (keyed) and counts what it writes.
struct Mac<W> {
    inner: W,
    hasher: blake3::Hasher,
    written: u64,
}

impl<W> Mac<W> {
    fn new(key: &StoreKey, inner: W) -> Mac<W> {
        Mac {
            inner,
            hasher: blake3::Hasher::new_keyed(key.as_bytes()),
            written: 0,
        }
    }
}

impl<W: Write> Write for Mac<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let n = self.inner.write(buf)?;
        self.hasher.update(&buf[..n]);
        self.written += n as u64;
        Ok(n)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.inner.flush()
    }
}
