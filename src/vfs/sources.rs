//! The root of a mount: the snapshots being served, from a store directory
//! (`<canister-id>/<snapshot-id>/`, plus a `latest` link per canister) or from paths.

use super::diff_dir::{latest_diff_target, DiffDir, DIFF_DIR, LATEST_DIFF};
use super::entry::{DirSource, Entry};
use super::error::VfsError;
use super::gate::{is_snapshot_dir, SnapshotGate};
use super::names::{sanitize, UniqueNames};
use super::snapshot_dir::{SnapshotDir, SnapshotServices};
use std::collections::HashMap;
use std::path::{Component, Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::SystemTime;

/// The name of the link to a canister's newest snapshot in a store root.
pub const LATEST: &str = "latest";

/// How deep below a given path snapshot directories are searched for.
const MAX_SEARCH_DEPTH: usize = 2;

/// The snapshot directories under `path`: itself if it is one, else those found at most
/// two levels below it (sorted), skipping hidden directories and those `gate` says are
/// still being written.
pub fn find_snapshot_dirs(path: &Path, gate: &dyn SnapshotGate) -> Result<Vec<PathBuf>, VfsError> {
    let meta = std::fs::metadata(path).map_err(|e| VfsError::io(path.display().to_string(), e))?;
    if !meta.is_dir() {
        return Err(VfsError::NotADirectory(path.display().to_string()));
    }
    let mut found = Vec::new();
    search(path, 0, gate, &mut found)?;
    found.sort();
    Ok(found)
}

fn search(
    dir: &Path,
    depth: usize,
    gate: &dyn SnapshotGate,
    found: &mut Vec<PathBuf>,
) -> Result<(), VfsError> {
    if is_snapshot_dir(dir) {
        // A path named itself is served (a download not finished shows why); one found
        // below it is skipped while it is being written.
        if depth == 0 || !gate.is_in_progress(dir) {
            found.push(dir.to_path_buf());
        }
        return Ok(());
    }
    if depth >= MAX_SEARCH_DEPTH {
        return Ok(());
    }
    for sub in subdirs(dir)? {
        search(&sub, depth + 1, gate, found)?;
    }
    Ok(())
}

fn subdirs(dir: &Path) -> Result<Vec<PathBuf>, VfsError> {
    let read = std::fs::read_dir(dir).map_err(|e| VfsError::io(dir.display().to_string(), e))?;
    let mut dirs = Vec::new();
    for entry in read {
        let entry = entry.map_err(|e| VfsError::io(dir.display().to_string(), e))?;
        if entry.file_name().to_string_lossy().starts_with('.') {
            continue;
        }
        let path = entry.path();
        if path.is_dir() {
            dirs.push(path);
        }
    }
    dirs.sort();
    Ok(dirs)
}

/// Readable unique names for snapshot directories: the shortest common number of trailing
/// path components that tells them apart, joined with `-` (`counter-eop`).
pub fn served_names(paths: &[PathBuf]) -> Vec<String> {
    let parts: Vec<Vec<String>> = paths
        .iter()
        .map(|p| {
            p.components()
                .filter_map(|c| match c {
                    Component::Normal(s) => Some(s.to_string_lossy().into_owned()),
                    _ => None,
                })
                .collect()
        })
        .collect();
    let deepest = parts.iter().map(Vec::len).max().unwrap_or(1).max(1);
    let name_at = |k: usize, p: &Vec<String>| {
        let from = p.len().saturating_sub(k);
        let joined = p[from..].join("-");
        if joined.is_empty() {
            "snapshot".to_string()
        } else {
            joined
        }
    };
    let mut chosen = deepest;
    for k in 1..=deepest {
        let mut seen = std::collections::HashSet::new();
        if parts.iter().all(|p| seen.insert(name_at(k, p))) {
            chosen = k;
            break;
        }
    }
    let mut unique = UniqueNames::default();
    parts
        .iter()
        .map(|p| unique.claim(&name_at(chosen, p)))
        .collect()
}

/// The root listing the snapshot directories given on the command line.
pub struct PathsRoot {
    snapshots: Vec<(String, PathBuf)>,
    services: SnapshotServices,
}

/// The snapshot directories under `paths` (each path one, or a directory holding them), in
/// the order given and each once, with their served names; a path holding none is refused.
pub fn named_snapshot_dirs(
    paths: &[PathBuf],
    gate: &dyn SnapshotGate,
) -> Result<Vec<(String, PathBuf)>, VfsError> {
    let mut dirs = Vec::new();
    for path in paths {
        let found = find_snapshot_dirs(path, gate)?;
        if found.is_empty() {
            return Err(VfsError::NotFound(format!(
                "no snapshot directory (with wasm_memory.bin or metadata.json) in {}",
                path.display()
            )));
        }
        for dir in found {
            let dir = dir.canonicalize().unwrap_or(dir);
            if !dirs.contains(&dir) {
                dirs.push(dir);
            }
        }
    }
    Ok(served_names(&dirs).into_iter().zip(dirs).collect())
}

impl PathsRoot {
    /// Serves every snapshot directory found under `paths`, each under a unique name.
    pub fn new(paths: &[PathBuf], services: SnapshotServices) -> Result<PathsRoot, VfsError> {
        Ok(PathsRoot {
            snapshots: named_snapshot_dirs(paths, services.gate.as_ref())?,
            services,
        })
    }

    /// The served names and their directories.
    pub fn snapshots(&self) -> &[(String, PathBuf)] {
        &self.snapshots
    }
}

impl DirSource for PathsRoot {
    fn list(&self) -> Result<Vec<(String, Entry)>, VfsError> {
        Ok(self
            .snapshots
            .iter()
            .map(|(name, dir)| {
                let snapshot = SnapshotDir::new(name, dir, self.services.clone());
                (name.clone(), Entry::Dir(Arc::new(snapshot)))
            })
            .collect())
    }
}

/// The snapshot directories a store root has served, by path and name: listings made again
/// (every second) reuse them, so each snapshot is verified and decoded once per mount.
type ServedSnapshots = Arc<Mutex<HashMap<(PathBuf, String), Arc<SnapshotDir>>>>;

/// The root serving a store: one directory per canister (re-listed as snapshots arrive).
pub struct StoreRoot {
    dir: PathBuf,
    services: SnapshotServices,
    served: ServedSnapshots,
}

impl StoreRoot {
    /// Serves the snapshots of the store in `dir` that the services' gate lets through.
    pub fn new(dir: &Path, services: SnapshotServices) -> StoreRoot {
        StoreRoot {
            dir: dir.to_path_buf(),
            services,
            served: Arc::default(),
        }
    }
}

impl DirSource for StoreRoot {
    fn list(&self) -> Result<Vec<(String, Entry)>, VfsError> {
        let mut entries = Vec::new();
        for canister in subdirs(&self.dir)? {
            let Some(name) = canister.file_name().map(|n| sanitize(&n.to_string_lossy())) else {
                continue;
            };
            let dir = CanisterDir {
                dir: canister,
                services: self.services.clone(),
                served: self.served.clone(),
            };
            entries.push((name, Entry::Dir(Arc::new(dir))));
        }
        Ok(entries)
    }

    fn is_dynamic(&self) -> bool {
        true
    }
}

/// One canister's snapshots in a store, plus `latest`, a link to the newest.
struct CanisterDir {
    dir: PathBuf,
    services: SnapshotServices,
    served: ServedSnapshots,
}

/// When a snapshot was taken: `taken_at_timestamp` from its metadata, else its mtime.
fn taken_at(dir: &Path) -> u128 {
    #[derive(serde::Deserialize)]
    struct Taken {
        taken_at_timestamp: Option<u64>,
    }
    let from_metadata = std::fs::read(dir.join("metadata.json"))
        .ok()
        .and_then(|bytes| serde_json::from_slice::<Taken>(&bytes).ok())
        .and_then(|t| t.taken_at_timestamp)
        .map(u128::from);
    from_metadata.unwrap_or_else(|| {
        std::fs::metadata(dir)
            .and_then(|m| m.modified())
            .ok()
            .and_then(|t| t.duration_since(SystemTime::UNIX_EPOCH).ok())
            .map_or(0, |d| d.as_nanos())
    })
}

impl DirSource for CanisterDir {
    fn list(&self) -> Result<Vec<(String, Entry)>, VfsError> {
        let mut names = UniqueNames::default();
        names.reserve(LATEST);
        if self.services.differ.is_some() {
            names.reserve(DIFF_DIR);
            names.reserve(LATEST_DIFF);
        }
        let mut entries = Vec::new();
        let mut newest: Option<(u128, String)> = None;
        let mut taken: Vec<(u128, String)> = Vec::new();
        let mut served = self.served.lock().unwrap_or_else(|p| p.into_inner());
        let mut listed = Vec::new();
        for snapshot in subdirs(&self.dir)? {
            if !is_snapshot_dir(&snapshot) || !self.services.gate.is_servable(&snapshot) {
                continue;
            }
            let Some(label) = snapshot
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
            else {
                continue;
            };
            let name = names.claim(&label);
            let when = taken_at(&snapshot);
            taken.push((when, name.clone()));
            if newest.as_ref().is_none_or(|(t, n)| (when, &name) > (*t, n)) {
                newest = Some((when, name.clone()));
            }
            let key = (snapshot.clone(), name.clone());
            let dir = served
                .entry(key.clone())
                .or_insert_with(|| {
                    Arc::new(SnapshotDir::new(&name, &snapshot, self.services.clone()))
                })
                .clone();
            listed.push(key);
            entries.push((name, Entry::Dir(dir)));
        }
        // Snapshots of this canister that went away are forgotten.
        served.retain(|key, _| !key.0.starts_with(&self.dir) || listed.contains(key));
        if let Some((_, name)) = newest {
            entries.push((LATEST.to_string(), Entry::Symlink(name)));
        }
        if let Some(differ) = &self.services.differ {
            let diff = DiffDir::new(&self.dir, self.services.gate.clone(), differ.clone());
            entries.push((DIFF_DIR.to_string(), Entry::Dir(Arc::new(diff))));
            taken.sort();
            if let [.., (_, older), (_, newer)] = &taken[..] {
                let target = latest_diff_target(older, newer);
                entries.push((LATEST_DIFF.to_string(), Entry::Symlink(target)));
            }
        }
        Ok(entries)
    }

    fn is_dynamic(&self) -> bool {
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_use_the_fewest_trailing_components() {
        let paths: Vec<PathBuf> = ["/a/counter/eop", "/a/counter/copying", "/a/users/eop"]
            .iter()
            .map(PathBuf::from)
            .collect();
        assert_eq!(
            served_names(&paths),
            ["counter-eop", "counter-copying", "users-eop"]
        );
        let single = [PathBuf::from("/x/y/snap")];
        assert_eq!(served_names(&single), ["snap"]);
        let same = [PathBuf::from("/x/snap"), PathBuf::from("/x/snap")];
        assert_eq!(served_names(&same), ["x-snap", "x-snap~2"]);
    }
}
