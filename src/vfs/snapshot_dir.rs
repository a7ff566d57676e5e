//! One snapshot's directory: raw files, decoded entries (opened lazily), README, eval.

use super::analysis_dir::AnalysisDir;
use super::control::{ControlFile, ControlLimits, ControlNode, EvalSlots, SessionId};
use super::decoded::{with_newline, DecodedSnapshot, Decoder};
use super::entry::{DirSource, Entry, FnFile, StaticFile};
use super::error::{DecodeFailure, RequestError, RequestErrorKind, VfsError};
use super::gate::{SnapshotGate, RAW_FILES};
use super::guard::{SnapshotGuard, SnapshotVerifier};
use super::guarded::guarded;
use super::methods_dir::{ControlWrapper, MethodsDir, MethodsProvider};
use super::objects_dir::ObjectsDir;
use super::raw::RawFile;
use super::readme::snapshot_readme;
use super::vars_dir::ValueDir;
use crate::snapshot::SnapshotError;
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

/// What every snapshot directory is served with.
#[derive(Clone)]
pub struct SnapshotServices {
    /// Opens the decoded view of a snapshot.
    pub decoder: Arc<dyn Decoder>,
    /// The engine behind each `eval` file.
    pub engine: Arc<dyn ControlFile>,
    /// Limits of each `eval` file.
    pub control_limits: ControlLimits,
    /// How many `eval` requests run at once across the whole tree.
    pub eval_slots: Arc<EvalSlots>,
    /// Decides whether each snapshot may be served (on its first access); `None` serves
    /// every snapshot, only watching its files for changes.
    pub verifier: Option<Arc<dyn SnapshotVerifier>>,
    /// Which directories are complete snapshots (the store's rule).
    pub gate: Arc<dyn SnapshotGate>,
    /// The canisters' own queries (a `methods/` directory per snapshot); `None`: none.
    pub methods: Option<Arc<dyn MethodsProvider>>,
    /// Renders a store canister's `diff/OLD..NEW/` files; `None`: no `diff/` directory.
    pub differ: Option<Arc<dyn super::diff_dir::SnapshotDiffer>>,
}

/// The name of the only file of a snapshot directory that is refused.
pub const NOT_TRUSTED: &str = "NOT-TRUSTED";

/// The directory of one snapshot, served under `name`.
pub struct SnapshotDir {
    name: String,
    dir: PathBuf,
    services: SnapshotServices,
    decoded: OnceLock<Result<Arc<dyn DecodedSnapshot>, Arc<VfsError>>>,
    control: Arc<ControlNode>,
    guard: Arc<SnapshotGuard>,
}

impl SnapshotDir {
    /// The snapshot in `dir`, served under `name`.
    pub fn new(name: &str, dir: &Path, services: SnapshotServices) -> SnapshotDir {
        let guard = Arc::new(SnapshotGuard::new(dir, services.verifier.clone()));
        let engine = services
            .engine
            .for_snapshot(dir)
            .unwrap_or_else(|| services.engine.clone());
        let engine = Arc::new(GuardedControl {
            inner: engine,
            guard: guard.clone(),
        });
        let control = Arc::new(ControlNode::with_slots(
            engine,
            services.control_limits,
            services.eval_slots.clone(),
        ));
        SnapshotDir {
            name: name.to_string(),
            dir: dir.to_path_buf(),
            services,
            decoded: OnceLock::new(),
            control,
            guard,
        }
    }

    fn decoded(&self) -> Result<Arc<dyn DecodedSnapshot>, Arc<VfsError>> {
        self.decoded
            .get_or_init(|| {
                let opened = self.services.decoder.open(&self.dir).and_then(|decoded| {
                    self.guard.check()?;
                    Ok(decoded)
                });
                opened.map_err(|e| {
                    tracing::warn!(snapshot = %self.dir.display(), error = %e, "cannot decode the snapshot; serving its raw files only");
                    Arc::new(e)
                })
            })
            .clone()
    }

    /// The `methods/` directory, if the services run canisters and the snapshot has a
    /// module: its control files guarded like `eval`.
    fn methods(&self) -> Option<MethodsDir> {
        if !self.dir.join("wasm_module.bin").is_file() {
            return None;
        }
        let methods = self.services.methods.as_ref()?.for_snapshot(&self.dir)?;
        let guard = self.guard.clone();
        let wrap: ControlWrapper = Arc::new(move |inner| {
            Arc::new(GuardedControl {
                inner,
                guard: guard.clone(),
            }) as Arc<dyn ControlFile>
        });
        Some(MethodsDir::new(
            methods,
            wrap,
            self.services.control_limits,
            self.services.eval_slots.clone(),
        ))
    }

    /// The listing of a refused snapshot: one file saying why.
    fn refused(&self, error: &VfsError) -> Vec<(String, Entry)> {
        let text = match error {
            VfsError::NotTrusted(why) => format!(
                "mo-mem refuses to serve snapshot {}: it is not trusted.\n{why}\n\n\
                 `mo-mem verify {}` says which file does not verify; mount with --no-verify \
                 to read it anyway.\n",
                self.name,
                self.dir.display()
            ),
            other => format!("mo-mem cannot serve snapshot {}: {other}\n", self.name),
        };
        vec![(
            NOT_TRUSTED.to_string(),
            Entry::File(Arc::new(StaticFile(text.into_bytes()))),
        )]
    }
}

/// The name of the only file of a snapshot directory whose download is unfinished or still
/// being written.
pub const INCOMPLETE: &str = "INCOMPLETE";

/// Why a snapshot is refused as a download not finished or still running, if it is.
fn unfinished_download(error: &VfsError) -> Option<&SnapshotError> {
    match error {
        VfsError::Decode {
            failure: DecodeFailure::Snapshot(e),
            ..
        } if matches!(
            **e,
            SnapshotError::Unfinished(_) | SnapshotError::BeingWritten { .. }
        ) =>
        {
            Some(e)
        }
        _ => None,
    }
}

impl DirSource for SnapshotDir {
    fn list(&self) -> Result<Vec<(String, Entry)>, VfsError> {
        match self.guard.check() {
            Ok(()) => {}
            Err(e @ VfsError::NotTrusted(_)) => return Ok(self.refused(&e)),
            // A file changed while mounted: what still reads is served; the rest is EIO.
            Err(_) => {}
        }
        if let Err(e) = self.decoded() {
            if let Some(why) = unfinished_download(&e) {
                let text = format!(
                    "mo-mem does not serve snapshot {}: its download is not finished.\n{why}\n",
                    self.name
                );
                return Ok(vec![(
                    INCOMPLETE.to_string(),
                    Entry::File(Arc::new(StaticFile(text.into_bytes()))),
                )]);
            }
        }
        let mut entries: Vec<(String, Entry)> = Vec::new();
        for name in RAW_FILES {
            let path = self.dir.join(name);
            if path.is_file() {
                let raw = RawFile::open(&path)?.with_guard(self.guard.clone());
                entries.push((name.to_string(), Entry::Raw(Arc::new(raw))));
            }
        }
        let mut incomplete = None;
        let error = match self.decoded() {
            Ok(decoded) => {
                incomplete = decoded.incomplete();
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
                if !decoded.analysis_files().is_empty() {
                    entries.push((
                        "analysis".into(),
                        Entry::Dir(Arc::new(AnalysisDir::new(decoded.clone()))),
                    ));
                }
                entries.push((
                    "objects".into(),
                    Entry::Dir(Arc::new(ObjectsDir::new(decoded))),
                ));
                None
            }
            Err(error) => {
                let error = error.to_string();
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
                incomplete.as_deref(),
            )))),
        ));
        entries.push(("eval".into(), Entry::Control(self.control.clone())));
        if let Some(methods) = self.methods() {
            entries.push(("methods".into(), Entry::Dir(Arc::new(methods))));
        }
        entries.sort_by(|a, b| a.0.cmp(&b.0));
        Ok(entries
            .into_iter()
            .map(|(name, entry)| (name, guarded(entry, &self.guard)))
            .collect())
    }

    fn is_dynamic(&self) -> bool {
        // A verified snapshot is re-listed so that losing its trust shows in its listing.
        self.guard.may_be_refused()
    }

    /// A name a refused snapshot's listing (only `NOT-TRUSTED`) does not hold is refused
    /// (`EACCES`), not missing: every file of an untrusted snapshot fails the same way,
    /// whether the kernel still knew its name or looks it up after the listing changed.
    fn lookup_unlisted(&self, _name: &str) -> Result<Option<Entry>, VfsError> {
        match self.guard.check() {
            Err(e @ VfsError::NotTrusted(_)) => Err(e),
            _ => Ok(None),
        }
    }
}

/// The `eval` engine of a guarded snapshot: runs nothing once the snapshot is refused or
/// changed, and discards an answer computed while its files changed.
struct GuardedControl {
    inner: Arc<dyn ControlFile>,
    guard: Arc<SnapshotGuard>,
}

/// A refused snapshot, as the `eval` file says it.
#[derive(Debug, thiserror::Error)]
#[error("eval: {0}")]
struct EvalRefused(VfsError);

impl GuardedControl {
    /// Whether scripts may run: `Err` (`EACCES`) once the snapshot is not trusted, the
    /// answer saying why once its files changed, else `None`.
    fn stopped(&self) -> Result<Option<Vec<u8>>, RequestError> {
        match self.guard.check() {
            Ok(()) => Ok(None),
            Err(e @ VfsError::NotTrusted(_)) => Err(RequestError::new(
                RequestErrorKind::NotTrusted,
                EvalRefused(e),
            )),
            Err(e) => Ok(Some(format!("{}\n", EvalRefused(e)).into_bytes())),
        }
    }
}

impl ControlFile for GuardedControl {
    fn check(&self, request: &[u8]) -> Result<(), RequestError> {
        self.inner.check(request)
    }

    fn run(&self, session: SessionId, request: &[u8]) -> Result<Vec<u8>, RequestError> {
        if let Some(why) = self.stopped()? {
            return Ok(why);
        }
        let answer = self.inner.run(session, request);
        match self.stopped()? {
            Some(why) => Ok(why),
            None => answer,
        }
    }

    fn end_session(&self, session: SessionId) {
        self.inner.end_session(session);
    }

    fn usage(&self) -> Vec<u8> {
        self.inner.usage()
    }

    fn admit(&self) -> Result<(), RequestError> {
        self.stopped().map(|_| ())
    }
}
