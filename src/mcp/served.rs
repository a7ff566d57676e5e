//! The snapshots an MCP server serves, from the same sources as the mount: snapshot
//! directories (or directories holding them) named as the mount names them, or a store's
//! snapshots as `CANISTER/SNAPSHOT` (listed again on every request, as snapshots arrive).
//! Each is opened once through the catalog, and read only if its trust verdict admits it.

use crate::serve::front::Sources;
use crate::serve::{Admitted, OpenedSnapshot, Snapshots, StoreGate};
use crate::vfs::is_snapshot_dir;
use crate::vfs::sources::named_snapshot_dirs;
use crate::vfs::SnapshotGate;
use crate::vfs::VfsError;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::error::ToolError;

/// The served snapshots and the catalog they are opened from.
pub struct Served {
    sources: Sources,
    named: Vec<(String, PathBuf)>,
    catalog: Arc<Snapshots>,
}

impl Served {
    /// Serves `sources` from `catalog` (one made with a trust policy checks each snapshot
    /// before it is read). Paths that hold no snapshot directory are refused.
    pub fn new(sources: Sources, catalog: Arc<Snapshots>) -> Result<Served, VfsError> {
        let named = match &sources {
            Sources::Paths(paths) => named_snapshot_dirs(paths, &StoreGate)?,
            Sources::Store(_) => Vec::new(),
        };
        Ok(Served {
            sources,
            named,
            catalog,
        })
    }

    /// The catalog the snapshots are opened from.
    pub fn catalog(&self) -> &Arc<Snapshots> {
        &self.catalog
    }

    /// Every served snapshot, by name: in the order the paths were given, a store's sorted.
    pub fn list(&self) -> Result<Vec<(String, PathBuf)>, ToolError> {
        match &self.sources {
            Sources::Paths(_) => Ok(self.named.clone()),
            Sources::Store(dir) => {
                store_snapshots(dir).map_err(|e| ToolError::Failed(e.to_string()))
            }
        }
    }

    /// Keeps the heap analyses of the snapshots `names` only (those a call just used):
    /// the other served snapshots' analyses are released, so a server that answers over
    /// many snapshots holds at most the analyses of one call, not one per snapshot. A name
    /// not served is passed over.
    pub fn keep_analyses_of(&self, names: &[&str]) {
        let Ok(list) = self.list() else {
            return;
        };
        let keep: Vec<PathBuf> = list
            .into_iter()
            .filter(|(n, _)| names.contains(&n.as_str()))
            .map(|(_, dir)| dir)
            .collect();
        let released = self.catalog.release_analyses_except(&keep);
        if released > 0 {
            tracing::info!(
                released,
                "released the heap analyses of snapshots the last call did not use"
            );
            crate::vfs::spill::release_free_memory();
        }
    }

    /// The snapshot named `name`, admitted (its trust verdict read, a refusal an error).
    pub fn admitted(&self, name: &str) -> Result<Admitted, ToolError> {
        let list = self.list()?;
        let Some((_, dir)) = list.iter().find(|(n, _)| n == name) else {
            let names: Vec<&str> = list.iter().map(|(n, _)| n.as_str()).take(20).collect();
            return Err(ToolError::BadArgument(format!(
                "no snapshot named {name:?} is served; the snapshots tool lists them ({}{})",
                names.join(", "),
                if list.len() > names.len() {
                    ", …"
                } else {
                    ""
                }
            )));
        };
        let snapshot: Arc<OpenedSnapshot> = self.catalog.get(dir);
        let verdict = match snapshot.trust() {
            Some(verdict) => verdict,
            None => Arc::new(Ok(crate::store::Trust::Unauthenticated)),
        };
        if let Err(why) = &*verdict {
            return Err(ToolError::Failed(format!(
                "refusing snapshot {name}: {why} (the server was started without --no-verify)"
            )));
        }
        Ok(Admitted {
            snapshots: self.catalog.clone(),
            snapshot,
            verdict,
        })
    }
}

/// The complete snapshots of the store in `dir`, as `CANISTER/SNAPSHOT`, sorted.
fn store_snapshots(dir: &Path) -> Result<Vec<(String, PathBuf)>, std::io::Error> {
    let mut out = Vec::new();
    for canister in visible_subdirs(dir)? {
        for snapshot in visible_subdirs(&canister)? {
            if !is_snapshot_dir(&snapshot) || !StoreGate.is_servable(&snapshot) {
                continue;
            }
            let (Some(c), Some(s)) = (canister.file_name(), snapshot.file_name()) else {
                continue;
            };
            let name = format!("{}/{}", c.to_string_lossy(), s.to_string_lossy());
            out.push((name, snapshot));
        }
    }
    out.sort();
    Ok(out)
}

/// The subdirectories of `dir` whose names do not start with a dot.
fn visible_subdirs(dir: &Path) -> Result<Vec<PathBuf>, std::io::Error> {
    let mut dirs = Vec::new();
    for entry in std::fs::read_dir(dir)? {
        let entry = entry?;
        let hidden = entry.file_name().to_string_lossy().starts_with('.');
        if !hidden && entry.file_type()?.is_dir() {
            dirs.push(entry.path());
        }
    }
    Ok(dirs)
}
