//! What the mount and `ls/cat/tree` serve: the snapshot services (decoder, eval engine),
//! the default store and the bundled example snapshots.

use anyhow::Context;
use flate2::read::GzDecoder;
use mo_mem::vfs::heap_source::HeapDecoder;
use mo_mem::vfs::{ControlLimits, NoScriptEngine, SnapshotServices};
use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The services every served snapshot directory uses.
pub fn services() -> SnapshotServices {
    SnapshotServices {
        decoder: Arc::new(HeapDecoder::default()),
        engine: Arc::new(NoScriptEngine),
        control_limits: ControlLimits::default(),
    }
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
/// directory (gunzipped, once; redone when its expected.json changes) and returns it.
pub fn materialize_examples(from: &Path) -> anyhow::Result<PathBuf> {
    let cache = match std::env::var_os("MO_MEM_EXAMPLES_CACHE") {
        Some(dir) => PathBuf::from(dir),
        None => dirs::cache_dir()
            .context("no XDG cache directory (set MO_MEM_EXAMPLES_CACHE)")?
            .join("mo-mem")
            .join("examples"),
    };
    create_private_dir(&cache)?;
    let mut count = 0;
    for fixture in sorted_subdirs(from)? {
        for mode in sorted_subdirs(&fixture)? {
            if !mode.join("metadata.json").is_file() {
                continue;
            }
            let (Some(name), Some(mode_name)) = (fixture.file_name(), mode.file_name()) else {
                continue;
            };
            let out = cache.join(name).join(mode_name);
            let expected = std::fs::read(mode.join("expected.json")).ok();
            let current = std::fs::read(out.join("expected.json")).ok();
            if !out.join("metadata.json").is_file() || expected != current {
                materialize(&mode, &out)
                    .with_context(|| format!("cannot materialize {}", mode.display()))?;
            }
            count += 1;
        }
    }
    anyhow::ensure!(count > 0, "no example snapshots in {}", from.display());
    Ok(cache)
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

/// The largest raw file a committed example may expand to.
const MAX_EXAMPLE_FILE: u64 = 1 << 32;

/// Turns a committed fixture (`*.bin.gz` + json) into a snapshot directory, atomically.
fn materialize(committed: &Path, out: &Path) -> anyhow::Result<()> {
    let parent = out.parent().context("materialize target has no parent")?;
    create_private_dir(parent)?;
    let tmp = tempfile_dir(parent)?;
    for entry in std::fs::read_dir(committed)? {
        let path = entry?.path();
        let Some(name) = path.file_name().and_then(|n| n.to_str()) else {
            continue;
        };
        if let Some(stem) = name.strip_suffix(".gz") {
            let file = std::fs::File::open(&path)?;
            let mut bytes = Vec::new();
            GzDecoder::new(file)
                .take(MAX_EXAMPLE_FILE + 1)
                .read_to_end(&mut bytes)
                .with_context(|| format!("cannot gunzip {}", path.display()))?;
            anyhow::ensure!(
                bytes.len() as u64 <= MAX_EXAMPLE_FILE,
                "{} is too large",
                path.display()
            );
            std::fs::write(tmp.join(stem), bytes)?;
        } else if name.ends_with(".json") {
            std::fs::copy(&path, tmp.join(name))?;
        }
    }
    if out.exists() {
        std::fs::remove_dir_all(out)?;
    }
    std::fs::rename(&tmp, out)?;
    Ok(())
}

fn tempfile_dir(parent: &Path) -> anyhow::Result<PathBuf> {
    let dir = parent.join(format!(".tmp-{}-{}", std::process::id(), fastrand_suffix()));
    create_private_dir(&dir)?;
    Ok(dir)
}

fn fastrand_suffix() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64)
}
