//! Packed fixtures of older compilers: every mode of one npm `motoko` release's `legacy` canister
//! in one file, `fixtures/compilers/NAME.pack` (docs/fixtures.md), materialized once into
//! `<target>/fixture-snapshots/compilers/NAME/MODE` as plain snapshot directories.
//!
//! The modules (and heaps) of one release differ only slightly between modes, but gzip sees 32 KiB
//! back, less than one module: a pack first replaces every run of 32 or more bytes found anywhere
//! earlier in the release's files by a reference to it, and zero runs by their length, then
//! gzips the result. The format (after gunzip):
//!
//! - `mo-mem pack 1\n`, a little-endian `u32` manifest length (at most 1 MiB), the manifest:
//!   JSON `{"files": [{"path": "MODE/FILE", "size": N}, ...]}`, the files in stream order;
//! - the files' bytes, concatenated, as operations, each a byte then LEB128 numbers:
//!   `0 n` and `n` literal bytes, `1 n` (`n` zero bytes), `2 at n` (a copy of the `n` bytes at
//!   offset `at` of the stream, all before the copy).
//!
//! Every count is checked against the manifest before use: a damaged pack is an error.

use std::collections::HashMap;
use std::io::{self, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::{Mutex, OnceLock};

use sha2::{Digest, Sha256};

const MAGIC: &[u8] = b"mo-mem pack 1\n";
/// The largest manifest, file and stream a pack may declare.
const MAX_MANIFEST: u32 = 1 << 20;
const MAX_FILE: u64 = 1 << 30;
const MAX_STREAM: u64 = 4 << 30;
/// The shortest copy and zero run worth an operation.
const MIN_RUN: usize = 32;
/// Stream positions indexed for copies: every `STEP`th, by the `KEY` bytes there.
const STEP: usize = 8;
const KEY: usize = 16;

/// One file of a pack: its path (`MODE/FILE`) and size.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PackFile {
    /// `MODE/FILE`, e.g. `copying/wasm_module.bin`.
    pub path: String,
    /// Bytes.
    pub size: u64,
}

fn bad(msg: impl Into<String>) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, msg.into())
}

fn put_num(out: &mut Vec<u8>, mut n: u64) {
    loop {
        let b = (n & 0x7f) as u8;
        n >>= 7;
        if n == 0 {
            out.push(b);
            return;
        }
        out.push(b | 0x80);
    }
}

fn get_num(r: &mut impl Read) -> io::Result<u64> {
    let mut n = 0u64;
    for i in 0..10 {
        let mut b = [0u8];
        r.read_exact(&mut b)?;
        let part = u64::from(b[0] & 0x7f);
        if i == 9 && part > 1 {
            return Err(bad("pack: a number overflows 64 bits"));
        }
        n |= part << (7 * i);
        if b[0] & 0x80 == 0 {
            return Ok(n);
        }
    }
    Err(bad("pack: a number overflows 64 bits"))
}

/// The operations encoding `data` (see the module doc).
fn encode(data: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    let mut index: HashMap<[u8; KEY], usize> = HashMap::new();
    let mut indexed = 0; // the next position to index (a multiple of STEP)
    let mut literal_start = 0;
    let mut pos = 0;
    let mut no_zero_run_until = 0;
    let flush = |out: &mut Vec<u8>, from: usize, to: usize| {
        if to > from {
            out.push(0);
            put_num(out, (to - from) as u64);
            out.extend_from_slice(&data[from..to]);
        }
    };
    while pos < data.len() {
        // Index every STEP-th position before `pos` (sources end before the copy).
        while indexed + KEY <= pos {
            let key: [u8; KEY] = data[indexed..indexed + KEY].try_into().unwrap();
            if key != [0; KEY] {
                index.insert(key, indexed);
            }
            indexed += STEP;
        }
        if data[pos] == 0 && pos >= no_zero_run_until {
            let run = data[pos..].iter().take_while(|&&b| b == 0).count();
            if run >= MIN_RUN {
                flush(&mut out, literal_start, pos);
                out.push(1);
                put_num(&mut out, run as u64);
                pos += run;
                literal_start = pos;
                // The run's positions hold only zeros: none is worth indexing.
                indexed = indexed.max(pos.saturating_sub(KEY) / STEP * STEP);
                continue;
            }
            no_zero_run_until = pos + run;
        }
        if pos + KEY <= data.len() {
            let key: [u8; KEY] = data[pos..pos + KEY].try_into().unwrap();
            if let Some(&at) = index.get(&key) {
                // Extend backward over pending literals, then forward (the source must end
                // before the copy starts).
                let mut back = 0;
                while back < pos - literal_start
                    && back < at
                    && at + back < pos - back
                    && data[at - back - 1] == data[pos - back - 1]
                {
                    back += 1;
                }
                let mut n = 0;
                while pos + n < data.len() && at + n < pos - back && data[at + n] == data[pos + n] {
                    n += 1;
                }
                if n + back >= MIN_RUN {
                    flush(&mut out, literal_start, pos - back);
                    out.push(2);
                    put_num(&mut out, (at - back) as u64);
                    put_num(&mut out, (n + back) as u64);
                    pos += n;
                    literal_start = pos;
                    continue;
                }
            }
        }
        pos += 1;
    }
    flush(&mut out, literal_start, data.len());
    out
}

/// Packs `files` (path, contents), in that order.
pub fn pack(files: &[(String, Vec<u8>)]) -> io::Result<Vec<u8>> {
    let manifest = serde_json::json!({
        "files": files
            .iter()
            .map(|(p, b)| serde_json::json!({"path": p, "size": b.len()}))
            .collect::<Vec<_>>()
    });
    let manifest = serde_json::to_vec(&manifest)?;
    let mut data = Vec::new();
    for (_, b) in files {
        data.extend_from_slice(b);
    }
    let mut raw = MAGIC.to_vec();
    raw.extend_from_slice(&(manifest.len() as u32).to_le_bytes());
    raw.extend_from_slice(&manifest);
    raw.extend_from_slice(&encode(&data));
    mo_mem::snapshot::fixture::gzip_deterministic(&raw)
}

/// A decoded pack: its files and, for each, the stream ranges that may hold non-zero bytes.
pub struct Unpacked {
    /// The files, in stream order.
    pub files: Vec<PackFile>,
    /// The concatenated contents (zero pages never touched).
    pub data: Vec<u8>,
    /// Ranges of `data` written by literal and copy operations, in order.
    written: Vec<(usize, usize)>,
}

impl Unpacked {
    /// The contents of file `i`.
    pub fn bytes(&self, i: usize) -> &[u8] {
        let start: u64 = self.files[..i].iter().map(|f| f.size).sum();
        &self.data[start as usize..(start + self.files[i].size) as usize]
    }
}

/// Reads the manifest of a pack.
fn read_manifest(r: &mut impl Read) -> io::Result<Vec<PackFile>> {
    let mut magic = [0u8; MAGIC.len()];
    r.read_exact(&mut magic)?;
    if magic != MAGIC {
        return Err(bad("pack: not a mo-mem pack"));
    }
    let mut len = [0u8; 4];
    r.read_exact(&mut len)?;
    let len = u32::from_le_bytes(len);
    if len > MAX_MANIFEST {
        return Err(bad(format!("pack: manifest of {len} bytes")));
    }
    let mut manifest = vec![0u8; len as usize];
    r.read_exact(&mut manifest)?;
    let manifest: serde_json::Value = serde_json::from_slice(&manifest)?;
    let files = manifest["files"]
        .as_array()
        .ok_or_else(|| bad("pack: manifest without files"))?;
    let mut out = Vec::new();
    let mut total = 0u64;
    for f in files {
        let path = f["path"].as_str().unwrap_or_default();
        let size = f["size"].as_u64().unwrap_or(u64::MAX);
        let parts: Vec<&str> = path.split('/').collect();
        let plain = |p: &str| {
            !p.is_empty()
                && p != "."
                && p != ".."
                && p.bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b"-_.".contains(&b))
        };
        if parts.len() != 2 || !parts.iter().all(|p| plain(p)) || size > MAX_FILE {
            return Err(bad(format!("pack: bad file {path:?} of size {size}")));
        }
        total += size;
        out.push(PackFile {
            path: path.to_string(),
            size,
        });
    }
    if total > MAX_STREAM {
        return Err(bad(format!("pack: {total} bytes in all")));
    }
    Ok(out)
}

/// The files a pack holds, without decoding them.
pub fn pack_files(pack: &Path) -> io::Result<Vec<PackFile>> {
    let file = std::fs::File::open(pack)?;
    read_manifest(&mut flate2::read::GzDecoder::new(io::BufReader::new(file)))
}

/// Decodes a pack.
pub fn unpack(bytes: &[u8]) -> io::Result<Unpacked> {
    let mut r = io::BufReader::new(flate2::read::GzDecoder::new(bytes));
    let files = read_manifest(&mut r)?;
    let total: u64 = files.iter().map(|f| f.size).sum();
    let total = total as usize;
    let mut data = vec![0u8; total];
    let mut written: Vec<(usize, usize)> = Vec::new();
    let mut pos = 0usize;
    while pos < total {
        let mut op = [0u8];
        r.read_exact(&mut op)?;
        let n = get_num(&mut r)?;
        let at = if op[0] == 2 { Some(n) } else { None };
        let n = if op[0] == 2 { get_num(&mut r)? } else { n };
        let end = usize::try_from(n)
            .ok()
            .and_then(|n| pos.checked_add(n))
            .filter(|&e| e <= total && n > 0)
            .ok_or_else(|| bad(format!("pack: operation of {n} bytes at {pos} of {total}")))?;
        match (op[0], at) {
            (0, _) => {
                r.read_exact(&mut data[pos..end])?;
                written.push((pos, end));
            }
            (1, _) => {}
            (2, Some(at)) => {
                let at = usize::try_from(at)
                    .ok()
                    .filter(|&a| a.checked_add(end - pos).is_some_and(|e| e <= pos))
                    .ok_or_else(|| bad(format!("pack: copy from {at} to {pos}")))?;
                data.copy_within(at..at + (end - pos), pos);
                written.push((pos, end));
            }
            (op, _) => return Err(bad(format!("pack: operation {op} at {pos}"))),
        }
        pos = end;
    }
    let mut rest = [0u8];
    if r.read(&mut rest)? != 0 {
        return Err(bad("pack: bytes after the last file"));
    }
    Ok(Unpacked {
        files,
        data,
        written,
    })
}

/// Writes file `i` of `u` to `path`, skipping the ranges no operation wrote (sparse zeros).
fn write_sparse(u: &Unpacked, i: usize, path: &Path) -> io::Result<()> {
    let start: u64 = u.files[..i].iter().map(|f| f.size).sum();
    let (start, end) = (start as usize, (start + u.files[i].size) as usize);
    let mut out = std::fs::File::create(path)?;
    for &(a, b) in &u.written {
        let (a, b) = (a.max(start), b.min(end));
        if a < b {
            out.seek(SeekFrom::Start((a - start) as u64))?;
            out.write_all(&u.data[a..b])?;
        }
    }
    out.set_len(u.files[i].size)?;
    Ok(())
}

/// Where packs live: `fixtures/compilers/NAME.pack`.
fn packs_root() -> PathBuf {
    super::compilers_root()
}

/// Every packed fixture as `(name, mode)`, sorted (read from the packs' manifests).
pub fn packed_compiler_fixtures() -> Vec<(String, String)> {
    let mut out = Vec::new();
    let Ok(entries) = std::fs::read_dir(packs_root()) else {
        return out;
    };
    for e in entries.flatten() {
        let file_name = e.file_name().to_string_lossy().into_owned();
        let Some(name) = file_name.strip_suffix(".pack") else {
            continue;
        };
        let files = pack_files(&e.path()).unwrap_or_else(|err| panic!("{file_name}: {err}"));
        for f in files {
            let (mode, file) = f.path.split_once('/').unwrap();
            if file == "metadata.json" {
                out.push((name.to_string(), mode.to_string()));
            }
        }
    }
    out.sort();
    out
}

/// The plain snapshot directory of packed fixture `name` in `mode`, every mode of the pack
/// materialized into `<target>/fixture-snapshots/compilers/NAME/` on first use (again when the
/// pack changes).
pub fn packed_compiler_fixture(name: &str, mode: &str) -> PathBuf {
    static LOCK: OnceLock<Mutex<()>> = OnceLock::new();
    let _guard = LOCK
        .get_or_init(|| Mutex::new(()))
        .lock()
        .unwrap_or_else(|p| p.into_inner());
    let pack = packs_root().join(format!("{name}.pack"));
    let bytes = std::fs::read(&pack).unwrap_or_else(|e| panic!("{}: {e}", pack.display()));
    let want = hex::encode(Sha256::digest(&bytes));
    let parent = super::materialized_root().join("compilers").join(name);
    let stamp = parent.join("pack.stamp");
    if std::fs::read_to_string(&stamp).ok().as_deref() != Some(want.as_str()) {
        let u = unpack(&bytes).unwrap_or_else(|e| panic!("{}: {e}", pack.display()));
        let _ = std::fs::remove_file(&stamp);
        let mut modes: Vec<&str> = u
            .files
            .iter()
            .map(|f| f.path.split_once('/').unwrap().0)
            .collect();
        modes.dedup();
        for m in modes {
            let tmp = parent.join(format!("{m}.tmp-{}", std::process::id()));
            let _ = std::fs::remove_dir_all(&tmp);
            std::fs::create_dir_all(&tmp).unwrap();
            for (i, f) in u.files.iter().enumerate() {
                if let Some(file) = f.path.strip_prefix(m).and_then(|p| p.strip_prefix('/')) {
                    write_sparse(&u, i, &tmp.join(file)).unwrap();
                }
            }
            let out = parent.join(m);
            let _ = std::fs::remove_dir_all(&out);
            std::fs::rename(&tmp, &out).unwrap();
        }
        std::fs::write(&stamp, &want).unwrap();
    }
    let dir = parent.join(mode);
    assert!(
        dir.join("metadata.json").exists(),
        "{}: no mode {mode}",
        pack.display()
    );
    dir
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Packing and unpacking gives back every file; zero runs and repeats shrink it; damaged
    /// packs are errors, not panics.
    #[test]
    fn packs_round_trip_and_reject_damage() {
        let mut a: Vec<u8> = (0..5000u32)
            .flat_map(|i| (i * 7919).to_le_bytes())
            .collect();
        a.extend(std::iter::repeat_n(0u8, 100_000));
        let mut b = a.clone();
        b[1234] ^= 0xff;
        b.extend_from_slice(b"tail");
        let files = vec![
            ("m1/a.bin".to_string(), a.clone()),
            ("m2/a.bin".to_string(), b.clone()),
            ("m2/empty.bin".to_string(), Vec::new()),
        ];
        let packed = pack(&files).unwrap();
        assert!(packed.len() < a.len() / 2, "{} bytes", packed.len());
        let u = unpack(&packed).unwrap();
        assert_eq!(u.bytes(0), &a[..]);
        assert_eq!(u.bytes(1), &b[..]);
        assert_eq!(u.bytes(2), b"");
        let tmp = tempfile::tempdir().unwrap();
        write_sparse(&u, 1, &tmp.path().join("b")).unwrap();
        assert_eq!(std::fs::read(tmp.path().join("b")).unwrap(), b);
        // Damage: truncated, and every byte of the decompressed stream flipped in turn.
        assert!(unpack(&packed[..packed.len() / 2]).is_err());
        let mut raw = Vec::new();
        flate2::read::GzDecoder::new(&packed[..])
            .read_to_end(&mut raw)
            .unwrap();
        for i in (0..raw.len()).step_by(97) {
            let mut bad = raw.clone();
            bad[i] ^= 0x5a;
            let gz = mo_mem::snapshot::fixture::gzip_deterministic(&bad).unwrap();
            let _ = unpack(&gz); // an error or other bytes, never a panic
        }
    }
}
