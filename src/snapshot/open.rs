//! Opening snapshot directories, bare images and in-memory parts.

use std::path::{Path, PathBuf};

use super::download::{inspect, lock_for_reading, Unfinished};
use super::metadata::{GlobalValue, SnapshotMetadata, MAX_METADATA_BYTES};
use super::{Snapshot, SnapshotError, SnapshotKind, MAX_MODULE_BYTES};
use crate::image::Image;
use crate::module::decompress_module;

pub use super::{MEMORY_FILE, METADATA_FILE, MODULE_FILE, STABLE_FILE};

fn io(file: &Path) -> impl FnOnce(std::io::Error) -> SnapshotError + '_ {
    move |source| SnapshotError::Io {
        file: file.to_path_buf(),
        source,
    }
}

fn map(file: &Path) -> Result<Image, SnapshotError> {
    Image::map_file(file).map_err(io(file))
}

/// Maps `file` if it exists.
fn map_optional(file: &Path) -> Result<Option<Image>, SnapshotError> {
    match std::fs::metadata(file) {
        Ok(_) => map(file).map(Some),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(io(file)(e)),
    }
}

/// Turns a (mapped or owned) module into decompressed bytes, keeping the mapping if plain.
fn module_image(file: &Path, image: Image) -> Result<Image, SnapshotError> {
    if image.len() > MAX_MODULE_BYTES {
        return Err(SnapshotError::Module {
            file: file.to_path_buf(),
            reason: format!("module is larger than {MAX_MODULE_BYTES} bytes"),
        });
    }
    let decompressed = match decompress_module(image.as_slice()) {
        Ok(std::borrow::Cow::Owned(v)) => Some(v),
        Ok(std::borrow::Cow::Borrowed(_)) => None,
        Err(e) => {
            return Err(SnapshotError::Module {
                file: file.to_path_buf(),
                reason: e.to_string(),
            })
        }
    };
    Ok(match decompressed {
        Some(v) => Image::from_vec(v),
        None => image,
    })
}

fn check_size(file: &Path, expected: u64, image: Option<&Image>) -> Result<(), SnapshotError> {
    let actual = image.map_or(0, Image::len);
    if image.is_none() && expected > 0 {
        return Err(SnapshotError::Missing {
            file: file.to_path_buf(),
        });
    }
    if actual != expected {
        return Err(SnapshotError::SizeMismatch {
            file: file.to_path_buf(),
            expected,
            actual,
        });
    }
    Ok(())
}

/// How a snapshot directory is opened.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct OpenOptions {
    /// Read a directory a download tool has not finished (`--force`); the snapshot then
    /// carries what is missing ([`Snapshot::unfinished`]). A directory still being written
    /// is refused regardless.
    pub allow_unfinished: bool,
}

impl OpenOptions {
    /// The options a reader under `limits` opens directories with.
    pub fn for_limits(limits: &crate::image::ReaderLimits) -> OpenOptions {
        OpenOptions {
            allow_unfinished: limits.allow_unfinished,
        }
    }
}

/// The pieces of a snapshot before checking.
struct Parts {
    dir: PathBuf,
    kind: SnapshotKind,
    metadata: Option<SnapshotMetadata>,
    module: Option<Image>,
    memory: Image,
    stable: Option<Image>,
    globals: Option<Vec<GlobalValue>>,
    unfinished: Option<Unfinished>,
}

/// Checks sizes against the metadata, decompresses the module, builds the snapshot.
fn assemble(p: Parts) -> Result<Snapshot, SnapshotError> {
    let file = |name: &str| p.dir.join(name);
    // An unfinished download read with --force: its short or absent files are what they are.
    if let (Some(meta), None) = (&p.metadata, &p.unfinished) {
        check_size(
            &file(MODULE_FILE),
            meta.wasm_module_size(),
            p.module.as_ref(),
        )?;
        check_size(&file(MEMORY_FILE), meta.wasm_memory_size(), Some(&p.memory))?;
        check_size(
            &file(STABLE_FILE),
            meta.stable_memory_size(),
            p.stable.as_ref(),
        )?;
    }
    let module = match p.module {
        Some(m) => Some(module_image(&file(MODULE_FILE), m)?),
        None => None,
    };
    let globals = match (&p.metadata, p.globals) {
        (_, Some(g)) => Some(g),
        (Some(meta), None) => Some(meta.globals()),
        (None, None) => None,
    };
    Ok(Snapshot {
        path: p.dir,
        kind: p.kind,
        memory: p.memory,
        stable: p.stable,
        module,
        globals,
        metadata: p.metadata,
        unfinished: p.unfinished.map(std::sync::Arc::new),
    })
}

/// Opens a snapshot directory or a bare image file. A directory a download tool is writing
/// is refused, and one it has not finished unless `options` allow it.
pub(crate) fn open(path: &Path, options: OpenOptions) -> Result<Snapshot, SnapshotError> {
    let meta = std::fs::metadata(path).map_err(io(path))?;
    if !meta.is_dir() {
        return open_image(path, None, None);
    }
    // Held while the files are mapped: a tool starting to write meanwhile waits.
    let _lock = lock_for_reading(path)?;
    let metadata_file = path.join(METADATA_FILE);
    if !metadata_file.exists() {
        return Err(SnapshotError::Missing {
            file: metadata_file,
        });
    }
    let metadata = SnapshotMetadata::read(&metadata_file)?;
    let unfinished = inspect(path, &metadata)?;
    if let Some(u) = &unfinished {
        if !options.allow_unfinished {
            return Err(SnapshotError::Unfinished(Box::new(u.clone())));
        }
    }
    let memory_file = path.join(MEMORY_FILE);
    let memory = map_optional(&memory_file)?.ok_or(SnapshotError::Missing { file: memory_file })?;
    assemble(Parts {
        unfinished,
        dir: path.to_path_buf(),
        kind: SnapshotKind::Directory,
        metadata: Some(metadata),
        module: map_optional(&path.join(MODULE_FILE))?,
        memory,
        stable: map_optional(&path.join(STABLE_FILE))?,
        globals: None,
    })
}

/// Opens a bare main-memory image with an optional module.
pub(crate) fn open_image(
    memory: &Path,
    wasm: Option<&Path>,
    globals: Option<Vec<GlobalValue>>,
) -> Result<Snapshot, SnapshotError> {
    let image = map(memory)?;
    let module = match wasm {
        Some(w) => Some(module_image(w, map(w)?)?),
        None => None,
    };
    Ok(Snapshot {
        path: memory.to_path_buf(),
        kind: SnapshotKind::BareImage,
        memory: image,
        stable: None,
        module,
        globals,
        metadata: None,
        unfinished: None,
    })
}

/// Builds a snapshot from in-memory parts, checked like a directory.
pub(crate) fn from_parts(
    metadata_json: Option<&[u8]>,
    module: Option<Vec<u8>>,
    memory: Vec<u8>,
    stable: Option<Vec<u8>>,
) -> Result<Snapshot, SnapshotError> {
    from_images(
        metadata_json,
        module.map(Image::from_vec),
        Image::from_vec(memory),
        stable.map(Image::from_vec),
    )
}

/// Builds a snapshot from images in memory, checked like a directory.
pub(crate) fn from_images(
    metadata_json: Option<&[u8]>,
    module: Option<Image>,
    memory: Image,
    stable: Option<Image>,
) -> Result<Snapshot, SnapshotError> {
    let metadata = match metadata_json {
        Some(json) => {
            if json.len() as u64 > MAX_METADATA_BYTES {
                return Err(SnapshotError::Metadata(
                    super::metadata::MetadataError::TooLarge {
                        file: PathBuf::from(METADATA_FILE),
                        size: json.len() as u64,
                        limit: MAX_METADATA_BYTES,
                    },
                ));
            }
            Some(SnapshotMetadata::from_json_named(
                json,
                Path::new(METADATA_FILE),
            )?)
        }
        None => None,
    };
    assemble(Parts {
        dir: PathBuf::new(),
        kind: SnapshotKind::InMemory,
        metadata,
        module,
        memory,
        stable,
        globals: None,
        unfinished: None,
    })
}

/// Parses globals given as JSON, in the `metadata.json` form: `[{"i32": 7}, {"i64": -1}, ...]`
/// (also accepts a whole metadata object with a `globals` field).
pub fn parse_globals_json(json: &[u8], file: &Path) -> Result<Vec<GlobalValue>, SnapshotError> {
    let bad = |reason: String| SnapshotError::Globals {
        file: file.to_path_buf(),
        reason: format!("invalid globals: {reason}"),
    };
    if json.len() as u64 > MAX_METADATA_BYTES {
        return Err(bad("file too large".into()));
    }
    let value: serde_json::Value = serde_json::from_slice(json).map_err(|e| bad(e.to_string()))?;
    let list = match &value {
        serde_json::Value::Array(a) => a,
        serde_json::Value::Object(o) => match o.get("globals") {
            Some(serde_json::Value::Array(a)) => a,
            _ => return Err(bad("expected a list or an object with `globals`".into())),
        },
        _ => return Err(bad("expected a list".into())),
    };
    list.iter()
        .enumerate()
        .map(|(i, g)| {
            let obj = g.as_object().filter(|o| o.len() == 1);
            let (k, v) = obj
                .and_then(|o| o.iter().next())
                .ok_or_else(|| bad(format!("entry {i} is not {{\"i32\": n}}-like")))?;
            let int = || {
                v.as_i64()
                    .ok_or_else(|| bad(format!("entry {i}: not an integer")))
            };
            let float = || {
                v.as_f64()
                    .ok_or_else(|| bad(format!("entry {i}: not a number")))
            };
            Ok(match k.as_str() {
                "i32" => GlobalValue::I32(i32::try_from(int()?).map_err(|e| bad(e.to_string()))?),
                "i64" => GlobalValue::I64(int()?),
                "f32" => GlobalValue::F32(float()? as f32),
                "f64" => GlobalValue::F64(float()?),
                _ => GlobalValue::Unknown,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn globals_json_forms() {
        let f = Path::new("g.json");
        let g =
            parse_globals_json(br#"[{"i32": 7}, {"i64": -1}, {"v128": [5]}]"#, f).expect("list");
        assert_eq!(g.len(), 3);
        assert_eq!(g[0].as_u64(), Some(7));
        let g = parse_globals_json(br#"{"globals": [{"i32": 2116159}]}"#, f).expect("meta");
        assert_eq!(g[0].as_u64(), Some(2_116_159));
        assert!(parse_globals_json(br#"[{"i32": 1e99}]"#, f).is_err());
        assert!(parse_globals_json(b"[", f).is_err());
    }

    #[test]
    fn sizes_are_checked_against_metadata() {
        let meta =
            crate::snapshot::metadata::SnapshotMetadata::taken_from_canister(1, 3, &[], 8, 0, 1);
        let json = meta.to_json_pretty().expect("json");
        let err =
            from_parts(Some(json.as_bytes()), Some(vec![0; 3]), vec![0; 9], None).unwrap_err();
        assert!(err.to_string().contains("wasm_memory.bin"), "{err}");
        assert!(from_parts(Some(json.as_bytes()), Some(vec![0; 3]), vec![0; 8], None).is_ok());
        assert!(from_parts(Some(b"{"), None, vec![], None).is_err());
    }
}
