//! Opening snapshot directories, bare images and in-memory parts.

use std::path::{Path, PathBuf};

use super::metadata::{GlobalValue, SnapshotMetadata, MAX_METADATA_BYTES};
use super::{Snapshot, SnapshotError, SnapshotKind, MAX_MODULE_BYTES};
use crate::image::Image;
use crate::module::decompress_module;

/// File names inside a snapshot directory.
pub const METADATA_FILE: &str = "metadata.json";
/// The module file.
pub const MODULE_FILE: &str = "wasm_module.bin";
/// The main memory file.
pub const MEMORY_FILE: &str = "wasm_memory.bin";
/// The stable memory file.
pub const STABLE_FILE: &str = "stable_memory.bin";

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

/// The pieces of a snapshot before checking.
struct Parts {
    dir: PathBuf,
    kind: SnapshotKind,
    metadata: Option<SnapshotMetadata>,
    module: Option<Image>,
    memory: Image,
    stable: Option<Image>,
    globals: Option<Vec<GlobalValue>>,
}

/// Checks sizes against the metadata, decompresses the module, builds the snapshot.
fn assemble(p: Parts) -> Result<Snapshot, SnapshotError> {
    let file = |name: &str| p.dir.join(name);
    if let Some(meta) = &p.metadata {
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
    })
}

/// Opens a snapshot directory or a bare image file.
pub(crate) fn open(path: &Path) -> Result<Snapshot, SnapshotError> {
    let meta = std::fs::metadata(path).map_err(io(path))?;
    if !meta.is_dir() {
        return open_image(path, None, None);
    }
    let metadata_file = path.join(METADATA_FILE);
    if !metadata_file.exists() {
        return Err(SnapshotError::Missing {
            file: metadata_file,
        });
    }
    let metadata = SnapshotMetadata::read(&metadata_file)?;
    let memory_file = path.join(MEMORY_FILE);
    let memory = map_optional(&memory_file)?.ok_or(SnapshotError::Missing { file: memory_file })?;
    assemble(Parts {
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
    })
}

/// Builds a snapshot from in-memory parts, checked like a directory.
pub(crate) fn from_parts(
    metadata_json: Option<&[u8]>,
    module: Option<Vec<u8>>,
    memory: Vec<u8>,
    stable: Option<Vec<u8>>,
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
        module: module.map(Image::from_vec),
        memory: Image::from_vec(memory),
        stable: stable.map(Image::from_vec),
        globals: None,
    })
}
