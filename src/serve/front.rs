//! What a front-end serves, chosen once for all of them: the mount, `ls`/`cat`/`tree` and
//! the MCP server take their snapshots (the bundled examples, a store, or snapshot
//! directories), the catalog that opens them under a trust policy, and the services every
//! served directory is wired with from here. A new front-end is a thin file over this.

use super::catalog::{Snapshots, TrustPolicy};
use super::services::services_with_calls;
use crate::image::ReaderLimits;
use crate::runtime::offline::CallOptions;
use crate::script::workers::mount_limits;
use crate::snapshot::fixture::materialize;
use crate::store::{Store, StoreError, StoreKey, TrustRule};
use crate::vfs::{DirSource, PathsRoot, SnapshotDir, SnapshotServices, StoreRoot, VfsError};
use std::io;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

/// The snapshots a front-end was asked to serve, as its command line names them.
#[derive(Debug, Clone)]
pub enum SourceChoice {
    /// The bundled example snapshots.
    Examples,
    /// A store: this directory, or the default one (`$MO_MEM_STORE`, else the XDG data
    /// directory's `mo-mem/snapshots`).
    Store(Option<PathBuf>),
    /// Snapshot directories, or directories holding them.
    Paths(Vec<PathBuf>),
}

/// Where the served snapshots come from.
#[derive(Debug, Clone)]
pub enum Sources {
    /// Snapshot directories, or directories holding them (at most two levels down).
    Paths(Vec<PathBuf>),
    /// A store directory (`CANISTER/SNAPSHOT/`); only complete snapshots are served.
    Store(PathBuf),
}

/// Why a front-end's snapshots cannot be served.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum FrontError {
    /// No XDG directory of this kind, and no variable names one.
    #[error("no XDG {kind} directory (set {variable})")]
    NoDirectory {
        /// `data` or `cache`.
        kind: &'static str,
        /// The variable that would name it.
        variable: &'static str,
    },
    /// A directory could not be created, read or removed, or an example materialized.
    #[error("cannot {action} {}: {source}", path.display())]
    Io {
        /// What was being done.
        action: &'static str,
        /// The directory.
        path: PathBuf,
        /// Why not.
        source: io::Error,
    },
    /// The store to serve is not a directory.
    #[error("store {} is not a directory", .0.display())]
    NotAStore(PathBuf),
    /// No example snapshot is bundled where they are looked for.
    #[error("no example snapshots in {}", .0.display())]
    NoExamples(PathBuf),
    /// The store or its key cannot be located.
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// A front-end's snapshots and the catalog that opens them.
pub struct Front {
    /// Where they come from.
    pub sources: Sources,
    /// Opens each once, deciding its trust verdict first when it has a policy.
    pub catalog: Arc<Snapshots>,
}

impl Front {
    /// The snapshots of `choice`, read under `reader`: the examples (materialized from the
    /// source tree) without a trust check; a store's and paths' snapshots under the store's
    /// trust rule, those that do not verify served only with `no_verify`.
    pub fn choose(
        choice: SourceChoice,
        reader: ReaderLimits,
        no_verify: bool,
    ) -> Result<Front, FrontError> {
        let trusted = |rule| {
            let policy = TrustPolicy {
                rule,
                allow_unverified: no_verify,
            };
            Arc::new(Snapshots::with_trust(reader, policy))
        };
        Ok(match choice {
            SourceChoice::Examples => Front {
                sources: Sources::Paths(materialize_examples(&committed_examples())?),
                catalog: Arc::new(Snapshots::new(reader)),
            },
            SourceChoice::Store(dir) => {
                let store = match dir {
                    Some(store) => store,
                    None => default_store()?,
                };
                if !store.is_dir() {
                    return Err(FrontError::NotAStore(store));
                }
                let rule = TrustRule::new(Store::new(&store), StoreKey::default_path()?);
                Front {
                    sources: Sources::Store(store),
                    catalog: trusted(rule),
                }
            }
            SourceChoice::Paths(paths) => {
                let rule = TrustRule::new(Store::at(None)?, StoreKey::default_path()?);
                Front {
                    sources: Sources::Paths(paths),
                    catalog: trusted(rule),
                }
            }
        })
    }

    /// The services of the served directories: `eval` files under the mount's script limits
    /// (their deadline `eval_deadline` if given), `methods/` calls under `calls`.
    pub fn services(
        &self,
        calls: CallOptions,
        eval_deadline: Option<Duration>,
    ) -> SnapshotServices {
        served_services(self.catalog.clone(), calls, eval_deadline)
    }

    /// The root directory of a mount: one directory per snapshot.
    pub fn mount_root(&self, services: SnapshotServices) -> Result<Arc<dyn DirSource>, VfsError> {
        Ok(match &self.sources {
            Sources::Paths(paths) => Arc::new(PathsRoot::new(paths, services)?),
            Sources::Store(store) => Arc::new(StoreRoot::new(store, services)),
        })
    }
}

/// The root directory of one snapshot's tree, as a mount shows it under `name`, served from
/// `catalog` (one that admitted it: the tree reads the same verdict).
pub fn snapshot_root(
    name: &str,
    dir: &Path,
    catalog: Arc<Snapshots>,
    calls: CallOptions,
    eval_deadline: Option<Duration>,
) -> SnapshotDir {
    SnapshotDir::new(name, dir, served_services(catalog, calls, eval_deadline))
}

/// The services of directories served from `catalog`: `eval` files under the mount's script
/// limits (their deadline `eval_deadline` if given), `methods/` calls under `calls`.
fn served_services(
    catalog: Arc<Snapshots>,
    calls: CallOptions,
    eval_deadline: Option<Duration>,
) -> SnapshotServices {
    let mut limits = mount_limits();
    if let Some(deadline) = eval_deadline {
        limits.deadline = deadline;
    }
    services_with_calls(catalog, limits, calls)
}

/// The default store: `$MO_MEM_STORE`, else `<XDG data dir>/mo-mem/snapshots` (created,
/// private).
pub fn default_store() -> Result<PathBuf, FrontError> {
    let root = match std::env::var_os("MO_MEM_STORE") {
        Some(dir) => PathBuf::from(dir),
        None => dirs::data_dir()
            .ok_or(FrontError::NoDirectory {
                kind: "data",
                variable: "MO_MEM_STORE or pass --store",
            })?
            .join("mo-mem")
            .join("snapshots"),
    };
    create_private_dir(&root)?;
    Ok(root)
}

/// The committed example snapshots (`fixtures/snapshots` of the source tree).
pub fn committed_examples() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures")
        .join("snapshots")
}

fn io_error(action: &'static str, path: &Path) -> impl FnOnce(io::Error) -> FrontError {
    let path = path.to_path_buf();
    move |source| FrontError::Io {
        action,
        path,
        source,
    }
}

/// Creates `dir` and its missing parents private to the user, as the store does.
fn create_private_dir(dir: &Path) -> Result<(), FrontError> {
    crate::store::fsutil::create_private_dir(dir).map_err(|e| match e {
        StoreError::Io { path, source } => FrontError::Io {
            action: "create",
            path,
            source,
        },
        other => FrontError::Store(other),
    })
}

/// Materializes every committed example `<name>/<mode>/` under `from` into a cache
/// directory (`$MO_MEM_EXAMPLES_CACHE`, else the XDG cache directory's `mo-mem/examples`;
/// gunzipped, once; redone when its metadata.json or expected.json changes) and returns the
/// materialized directories, exactly those of `from` (whatever else the cache holds is not
/// an example).
pub fn materialize_examples(from: &Path) -> Result<Vec<PathBuf>, FrontError> {
    let cache = match std::env::var_os("MO_MEM_EXAMPLES_CACHE") {
        Some(dir) => PathBuf::from(dir),
        None => dirs::cache_dir()
            .ok_or(FrontError::NoDirectory {
                kind: "cache",
                variable: "MO_MEM_EXAMPLES_CACHE",
            })?
            .join("mo-mem")
            .join("examples"),
    };
    create_private_dir(&cache)?;
    let mut examples = Vec::new();
    for fixture in sorted_subdirs(from)? {
        for mode in sorted_subdirs(&fixture)? {
            if !mode.join("metadata.json").is_file() {
                continue;
            }
            let (Some(name), Some(mode_name)) = (fixture.file_name(), mode.file_name()) else {
                continue;
            };
            let out = cache.join(name).join(mode_name);
            if !is_current(&mode, &out) {
                materialize_afresh(&mode, &out)?;
            }
            examples.push(out);
        }
    }
    if examples.is_empty() {
        return Err(FrontError::NoExamples(from.to_path_buf()));
    }
    Ok(examples)
}

/// Replaces `out` with the materialization of the committed fixture `mode`.
fn materialize_afresh(mode: &Path, out: &Path) -> Result<(), FrontError> {
    if out.exists() {
        std::fs::remove_dir_all(out).map_err(io_error("remove the stale", out))?;
    }
    match materialize(mode, out) {
        Ok(()) => Ok(()),
        // Another process materialized it meanwhile.
        Err(e) if e.kind() == io::ErrorKind::AlreadyExists => Ok(()),
        Err(e) => Err(io_error("materialize", mode)(e)),
    }
}

/// Whether `out` holds the current materialization of the committed fixture `committed`.
fn is_current(committed: &Path, out: &Path) -> bool {
    ["metadata.json", "expected.json"].iter().all(|name| {
        let want = std::fs::read(committed.join(name)).ok();
        want.is_some() && want == std::fs::read(out.join(name)).ok()
    }) && out.join("wasm_memory.bin").is_file()
}

fn sorted_subdirs(dir: &Path) -> Result<Vec<PathBuf>, FrontError> {
    let mut dirs = Vec::new();
    for entry in std::fs::read_dir(dir).map_err(io_error("read", dir))? {
        let path = entry.map_err(io_error("read", dir))?.path();
        if path.is_dir() {
            dirs.push(path);
        }
    }
    dirs.sort();
    Ok(dirs)
}
