//! Committed fixture snapshots (`fixtures/snapshots/<name>/<mode>/`, raw files gzip'ed) and the
//! atomic writer shared by the fixture generator and [`materialize`].

use std::fs;
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use super::metadata::SnapshotMetadata;

/// The raw snapshot files, without extension, in the order icp-cli writes them.
pub const RAW_FILES: [&str; 3] = ["wasm_module", "wasm_memory", "stable_memory"];

/// The metadata file of a snapshot directory.
pub const METADATA_FILE: &str = "metadata.json";

/// The fixture's ground truth file (not part of icp-cli's layout).
pub const EXPECTED_FILE: &str = "expected.json";

/// Distinguishes temp dirs made by one process.
static TEMP_COUNTER: AtomicU64 = AtomicU64::new(0);

/// Compresses `bytes` with gzip in a deterministic form (mtime 0, no file name, best level).
pub fn gzip_deterministic(bytes: &[u8]) -> io::Result<Vec<u8>> {
    let mut enc = flate2::GzBuilder::new()
        .mtime(0)
        .operating_system(255)
        .write(Vec::new(), flate2::Compression::best());
    enc.write_all(bytes)?;
    enc.finish()
}

/// A fresh temp directory next to `target` (`<target>.tmp-<pid>-<n>`), for an atomic rename.
fn temp_dir_for(target: &Path) -> io::Result<PathBuf> {
    let name = target.file_name().ok_or_else(|| {
        io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("{}: not a directory name", target.display()),
        )
    })?;
    if let Some(parent) = target.parent() {
        if !parent.as_os_str().is_empty() {
            fs::create_dir_all(parent)?;
        }
    }
    let n = TEMP_COUNTER.fetch_add(1, Ordering::Relaxed);
    let mut tmp_name = name.to_os_string();
    tmp_name.push(format!(".tmp-{}-{n}", std::process::id()));
    let tmp = target.with_file_name(tmp_name);
    if tmp.exists() {
        fs::remove_dir_all(&tmp)?;
    }
    fs::create_dir(&tmp)?;
    Ok(tmp)
}

/// Moves a completed temp dir into place. An existing `target` is replaced unless `replace` is false,
/// in which case the result is `AlreadyExists` (and the temp dir is removed).
fn publish(tmp: &Path, target: &Path, replace: bool) -> io::Result<()> {
    if target.exists() {
        if !replace {
            let _ = fs::remove_dir_all(tmp);
            return Err(io::Error::new(
                io::ErrorKind::AlreadyExists,
                format!("{}: already exists", target.display()),
            ));
        }
        let mut old = target.as_os_str().to_os_string();
        old.push(format!(
            ".old-{}-{}",
            std::process::id(),
            TEMP_COUNTER.fetch_add(1, Ordering::Relaxed)
        ));
        let old = PathBuf::from(old);
        fs::rename(target, &old)?;
        let renamed = fs::rename(tmp, target);
        let _ = fs::remove_dir_all(&old);
        return renamed;
    }
    match fs::rename(tmp, target) {
        Ok(()) => Ok(()),
        Err(e) => {
            let _ = fs::remove_dir_all(tmp);
            if target.exists() {
                Err(io::Error::new(
                    io::ErrorKind::AlreadyExists,
                    format!("{}: already exists", target.display()),
                ))
            } else {
                Err(e)
            }
        }
    }
}

/// Writes a directory holding exactly `files` (name, contents) atomically: into a temp dir next to
/// `dir`, then renamed over it (an existing `dir` is replaced).
pub fn write_dir_atomically(dir: &Path, files: &[(&str, &[u8])]) -> io::Result<()> {
    let tmp = temp_dir_for(dir)?;
    let result = (|| {
        for (name, bytes) in files {
            let mut f = fs::File::create(tmp.join(name))?;
            f.write_all(bytes)?;
            f.sync_all()?;
        }
        Ok(())
    })();
    if let Err(e) = result {
        let _ = fs::remove_dir_all(&tmp);
        return Err(e);
    }
    publish(&tmp, dir, true)
}

/// Adds the file name to an error.
fn named(path: &Path, e: io::Error) -> io::Error {
    io::Error::new(e.kind(), format!("{}: {e}", path.display()))
}

/// Copies `src` (gunzipping if `gz`) to `dst`, checking that it holds exactly `size` bytes.
fn copy_checked(src: &Path, gz: bool, dst: &Path, size: u64) -> io::Result<()> {
    let file = fs::File::open(src).map_err(|e| named(src, e))?;
    let reader: Box<dyn Read> = if gz {
        Box::new(flate2::read::GzDecoder::new(file))
    } else {
        Box::new(file)
    };
    let mut out = fs::File::create(dst).map_err(|e| named(dst, e))?;
    // Read at most one byte more than declared, so a gzip bomb cannot fill the disk.
    let copied =
        io::copy(&mut reader.take(size.saturating_add(1)), &mut out).map_err(|e| named(src, e))?;
    if copied != size {
        return Err(io::Error::new(
            io::ErrorKind::InvalidData,
            format!(
                "{}: holds {}{} bytes, metadata.json says {size}",
                src.display(),
                if copied > size { "more than " } else { "" },
                copied.min(size)
            ),
        ));
    }
    out.sync_all().map_err(|e| named(dst, e))
}

/// Turns a committed fixture (`metadata.json`, `expected.json`, `*.bin.gz` or `*.bin`) into a plain
/// icp-cli/dfx snapshot directory `out_dir` (raw `.bin` files + `metadata.json` + `expected.json`),
/// atomically. Sizes are checked against `metadata.json`. A missing `stable_memory` file counts as
/// empty. Fails with [`io::ErrorKind::AlreadyExists`] if `out_dir` exists (it is never half-written).
pub fn materialize(committed_dir: &Path, out_dir: &Path) -> io::Result<()> {
    let meta_path = committed_dir.join(METADATA_FILE);
    let meta = SnapshotMetadata::read(&meta_path)
        .map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e.to_string()))?;
    if out_dir.exists() {
        return Err(io::Error::new(
            io::ErrorKind::AlreadyExists,
            format!("{}: already exists", out_dir.display()),
        ));
    }
    let tmp = temp_dir_for(out_dir)?;
    let result = fill_materialized(committed_dir, &meta, &tmp);
    if let Err(e) = result {
        let _ = fs::remove_dir_all(&tmp);
        return Err(e);
    }
    publish(&tmp, out_dir, false)
}

/// Writes the files of a materialized snapshot into `tmp`.
fn fill_materialized(committed_dir: &Path, meta: &SnapshotMetadata, tmp: &Path) -> io::Result<()> {
    let meta_path = committed_dir.join(METADATA_FILE);
    fs::copy(&meta_path, tmp.join(METADATA_FILE)).map_err(|e| named(&meta_path, e))?;
    let expected = committed_dir.join(EXPECTED_FILE);
    if expected.exists() {
        fs::copy(&expected, tmp.join(EXPECTED_FILE)).map_err(|e| named(&expected, e))?;
    }
    let sizes = [
        meta.wasm_module_size(),
        meta.wasm_memory_size(),
        meta.stable_memory_size(),
    ];
    for (name, size) in RAW_FILES.iter().zip(sizes) {
        let dst = tmp.join(format!("{name}.bin"));
        let gz = committed_dir.join(format!("{name}.bin.gz"));
        let raw = committed_dir.join(format!("{name}.bin"));
        if gz.exists() {
            copy_checked(&gz, true, &dst, size)?;
        } else if raw.exists() {
            copy_checked(&raw, false, &dst, size)?;
        } else if *name == "stable_memory" && size == 0 {
            fs::File::create(&dst).map_err(|e| named(&dst, e))?;
        } else {
            return Err(io::Error::new(
                io::ErrorKind::NotFound,
                format!("{}: missing (nor .gz)", raw.display()),
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::snapshot::metadata::{GlobalValue, FIXTURE_TIMESTAMP_NS};

    fn committed(dir: &Path, memory: &[u8], declared_memory: u64) {
        let meta = SnapshotMetadata::taken_from_canister(
            FIXTURE_TIMESTAMP_NS,
            4,
            &[GlobalValue::I32(1)],
            declared_memory,
            0,
            2,
        );
        let json = meta.to_json_pretty().unwrap();
        let module = gzip_deterministic(b"\0asm").unwrap();
        let mem = gzip_deterministic(memory).unwrap();
        let stable = gzip_deterministic(b"").unwrap();
        write_dir_atomically(
            dir,
            &[
                (METADATA_FILE, json.as_bytes()),
                (EXPECTED_FILE, b"{}"),
                ("wasm_module.bin.gz", &module),
                ("wasm_memory.bin.gz", &mem),
                ("stable_memory.bin.gz", &stable),
            ],
        )
        .unwrap();
    }

    #[test]
    fn gzip_is_deterministic() {
        assert_eq!(
            gzip_deterministic(b"hello").unwrap(),
            gzip_deterministic(b"hello").unwrap()
        );
    }

    #[test]
    fn materialize_gunzips_and_checks_sizes() {
        let base = tempfile::tempdir().unwrap();
        let c = base.path().join("c");
        committed(&c, &[7u8; 65536], 65536);
        let out = base.path().join("out/x");
        materialize(&c, &out).unwrap();
        assert_eq!(fs::read(out.join("wasm_module.bin")).unwrap(), b"\0asm");
        assert_eq!(
            fs::read(out.join("wasm_memory.bin")).unwrap(),
            vec![7u8; 65536]
        );
        assert_eq!(fs::read(out.join("stable_memory.bin")).unwrap(), b"");
        assert_eq!(fs::read(out.join("expected.json")).unwrap(), b"{}");
        let again = materialize(&c, &out).unwrap_err();
        assert_eq!(again.kind(), io::ErrorKind::AlreadyExists);
        // No temp dirs left behind.
        assert_eq!(fs::read_dir(base.path().join("out")).unwrap().count(), 1);
    }

    #[test]
    fn materialize_refuses_size_mismatch() {
        let base = tempfile::tempdir().unwrap();
        let c = base.path().join("c");
        committed(&c, &[7u8; 100], 65536);
        let out = base.path().join("out");
        let err = materialize(&c, &out).unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::InvalidData);
        assert!(err.to_string().contains("wasm_memory.bin.gz"), "{err}");
        assert!(!out.exists());
        committed(&c, &[7u8; 70000], 65536);
        assert!(materialize(&c, &out).is_err());
        assert!(!out.exists());
    }
}
