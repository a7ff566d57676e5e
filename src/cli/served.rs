//! What the mount and `ls/cat/tree` serve: the snapshot services (decoder, eval engine),
//! the default store and the bundled example snapshots.

use anyhow::Context;
use mo_mem::image::ReaderLimits;
use mo_mem::runtime::offline::CallOptions;
use mo_mem::script::workers::mount_limits;
use mo_mem::serve::Snapshots;
use mo_mem::snapshot::fixture::materialize;
use mo_mem::vfs::SnapshotServices;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The services every served snapshot directory uses, reading snapshots under `reader`. The
/// `eval` files run scripts under [`mount_limits`], with the deadline from
/// `$MO_MEM_EVAL_TIMEOUT` (seconds) if set.
pub fn services(reader: ReaderLimits, calls: CallOptions) -> SnapshotServices {
    services_over(Arc::new(Snapshots::new(reader)), calls)
}

/// [`services`] over the catalog `snapshots` (one made with a trust policy verifies each
/// snapshot before serving it); `methods/` calls run under `calls`.
pub fn services_over(snapshots: Arc<Snapshots>, calls: CallOptions) -> SnapshotServices {
    let mut limits = mount_limits();
    if let Some(secs) = std::env::var("MO_MEM_EVAL_TIMEOUT")
        .ok()
        .and_then(|s| s.parse::<f64>().ok())
        .filter(|s| s.is_finite() && *s > 0.0)
    {
        limits.deadline = std::time::Duration::from_secs_f64(secs);
    }
    mo_mem::serve::services_with_calls(snapshots, limits, calls)
}

/// The default store: `$MO_MEM_STORE`, else `<XDG data dir>/mo-mem/snapshots` (created).
pub fn default_store() -> anyhow::Result<PathBuf> {
    let root = match std::env::var_os("MO_MEM_STORE") {
        Some(dir) => PathBuf::from(dir),
        None => dirs::data_dir()
            .context("no XDG data directory (set MO_MEM_STORE or pass --store)")?
            .join("mo-mem")
            .join("snapshots"),
    };
    create_private_dir(&root)?;
    Ok(root)
}

fn create_private_dir(dir: &Path) -> anyhow::Result<()> {
    use std::os::unix::fs::DirBuilderExt;
    std::fs::DirBuilder::new()
        .recursive(true)
        .mode(0o700)
        .create(dir)
        .with_context(|| format!("cannot create {}", dir.display()))
}

/// The committed example snapshots (`fixtures/snapshots` of the source tree).
pub fn committed_examples() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures")
        .join("snapshots")
}

/// Materializes every committed example `<name>/<mode>/` under `from` into a cache
/// directory (gunzipped, once; redone when its metadata.json or expected.json changes) and
/// returns the materialized directories, exactly those of `from` (whatever else the cache
/// holds is not an example).
pub fn materialize_examples(from: &Path) -> anyhow::Result<Vec<PathBuf>> {
    let cache = match std::env::var_os("MO_MEM_EXAMPLES_CACHE") {
        Some(dir) => PathBuf::from(dir),
        None => dirs::cache_dir()
            .context("no XDG cache directory (set MO_MEM_EXAMPLES_CACHE)")?
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
                if out.exists() {
                    std::fs::remove_dir_all(&out)
                        .with_context(|| format!("cannot remove the stale {}", out.display()))?;
                }
                match materialize(&mode, &out) {
                    Ok(()) => {}
                    // Another process materialized it meanwhile.
                    Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {}
                    Err(e) => {
                        return Err(e)
                            .with_context(|| format!("cannot materialize {}", mode.display()))
                    }
                }
            }
            examples.push(out);
        }
    }
    anyhow::ensure!(
        !examples.is_empty(),
        "no example snapshots in {}",
        from.display()
    );
    Ok(examples)
}

/// Whether `out` holds the current materialization of the committed fixture `committed`.
fn is_current(committed: &Path, out: &Path) -> bool {
    ["metadata.json", "expected.json"].iter().all(|name| {
        let want = std::fs::read(committed.join(name)).ok();
        want.is_some() && want == std::fs::read(out.join(name)).ok()
    }) && out.join("wasm_memory.bin").is_file()
}

fn sorted_subdirs(dir: &Path) -> anyhow::Result<Vec<PathBuf>> {
    let mut dirs = Vec::new();
    for entry in std::fs::read_dir(dir).with_context(|| format!("cannot read {}", dir.display()))? {
        let path = entry?.path();
        if path.is_dir() {
            dirs.push(path);
        }
    }
    dirs.sort();
    Ok(dirs)
}
