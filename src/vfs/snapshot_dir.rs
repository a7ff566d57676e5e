//! One snapshot's directory: raw files, decoded entries (opened lazily), README, eval.

use super::control::{ControlFile, ControlLimits, ControlNode};
use super::decoded::{DecodedSnapshot, Decoder};
use super::entry::{DirSource, Entry, FnFile, StaticFile};
use super::error::VfsError;
use super::objects_dir::ObjectsDir;
use super::raw::RawFile;
use super::readme::snapshot_readme;
use super::vars_dir::ValueDir;
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

/// The raw files of a snapshot directory that are served as they are.
pub const RAW_FILES: [&str; 4] = [
    "metadata.json",
    "stable_memory.bin",
    "wasm_memory.bin",
    "wasm_module.bin",
];

/// What every snapshot directory is served with.
#[derive(Clone)]
pub struct SnapshotServices {
    /// Opens the decoded view of a snapshot.
    pub decoder: Arc<dyn Decoder>,
    /// The engine behind each `eval` file.
    pub engine: Arc<dyn ControlFile>,
    /// Limits of each `eval` file.
    pub control_limits: ControlLimits,
}

/// The directory of one snapshot, served under `name`.
pub struct SnapshotDir {
    name: String,
    dir: PathBuf,
    services: SnapshotServices,
    decoded: OnceLock<Result<Arc<dyn DecodedSnapshot>, String>>,
    control: Arc<ControlNode>,
}

/// Whether `dir` looks like a snapshot directory (holds a main-memory image or metadata).
pub fn is_snapshot_dir(dir: &Path) -> bool {
    dir.join("wasm_memory.bin").is_file() || dir.join("metadata.json").is_file()
}

/// Appends a newline to generated text that lacks one.
pub(crate) fn with_newline(mut bytes: Vec<u8>) -> Vec<u8> {
    if !bytes.ends_with(b"\n") {
        bytes.push(b'\n');
    }
    bytes
}

impl SnapshotDir {
    /// The snapshot in `dir`, served under `name`.
    pub fn new(name: &str, dir: &Path, services: SnapshotServices) -> SnapshotDir {
        let control = Arc::new(ControlNode::new(
            services
                .engine
                .for_snapshot(dir)
                .unwrap_or_else(|| services.engine.clone()),
            services.control_limits,
        ));
        SnapshotDir {
            name: name.to_string(),
            dir: dir.to_path_buf(),
            services,
            decoded: OnceLock::new(),
            control,
        }
    }

    fn decoded(&self) -> Result<Arc<dyn DecodedSnapshot>, String> {
        self.decoded
            .get_or_init(|| {
                self.services.decoder.open(&self.dir).map_err(|e| {
                    tracing::warn!(snapshot = %self.dir.display(), error = %e, "cannot decode the snapshot; serving its raw files only");
                    e.to_string()
                })
            })
            .clone()
    }
}

impl DirSource for SnapshotDir {
    fn list(&self) -> Result<Vec<(String, Entry)>, VfsError> {
        let mut entries: Vec<(String, Entry)> = Vec::new();
        for name in RAW_FILES {
            let path = self.dir.join(name);
            if path.is_file() {
                entries.push((
                    name.to_string(),
                    Entry::Raw(Arc::new(RawFile::open(&path)?)),
                ));
            }
        }
        let error = match self.decoded() {
            Ok(decoded) => {
                let d = decoded.clone();
                entries.push((
                    "info.json".into(),
                    Entry::File(Arc::new(FnFile(move || d.info_json().map(with_newline)))),
                ));
                let d = decoded.clone();
                entries.push((
                    "stats.json".into(),
                    Entry::File(Arc::new(FnFile(move || d.stats_json().map(with_newline)))),
                ));
                entries.push((
                    "vars".into(),
                    Entry::Dir(Arc::new(ValueDir::vars(decoded.clone()))),
                ));
                entries.push((
                    "objects".into(),
                    Entry::Dir(Arc::new(ObjectsDir::new(decoded))),
                ));
                None
            }
            Err(error) => {
                let json = serde_json::json!({ "errors": [ { "what": "heap", "error": error } ] });
                let text = serde_json::to_vec_pretty(&json).unwrap_or_default();
                entries.push((
                    "errors.json".into(),
                    Entry::File(Arc::new(StaticFile(with_newline(text)))),
                ));
                Some(error)
            }
        };
        entries.push((
            "README".into(),
            Entry::File(Arc::new(StaticFile(snapshot_readme(
                &self.name,
                error.as_deref(),
            )))),
        ));
        entries.push(("eval".into(), Entry::Control(self.control.clone())));
        entries.sort_by(|a, b| a.0.cmp(&b.0));
        Ok(entries)
    }
}
