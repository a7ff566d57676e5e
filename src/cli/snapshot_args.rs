//! Shared arguments for commands that read one snapshot: the path and an optional module.

use std::path::PathBuf;

use anyhow::Context;
use clap::Args;

use mo_mem::heap::Heap;
use mo_mem::image::ReaderLimits;
use mo_mem::snapshot::Snapshot;

/// Where to read a snapshot from.
#[derive(Args, Debug, Clone)]
pub struct SnapshotArgs {
    /// A snapshot directory (icp-cli/dfx layout) or a bare main-memory image (.momm).
    pub snapshot: Option<PathBuf>,
    /// The canister's Wasm module, for a bare image (gzip'ed or plain).
    #[arg(long, value_name = "FILE")]
    pub wasm: Option<PathBuf>,
    /// The canister's mutable globals for a bare image, as JSON (`[{"i32": 7}, ...]` or a
    /// metadata.json): classical copying/compacting/generational heaps need `_HP` from them.
    #[arg(long, value_name = "FILE", requires = "wasm")]
    pub globals: Option<PathBuf>,
    /// Read a snapshot even if its manifest or files do not verify (see `mo-mem verify`).
    #[arg(long)]
    pub no_verify: bool,
}

impl SnapshotArgs {
    /// Opens the snapshot.
    pub fn open(&self) -> anyhow::Result<Snapshot> {
        let path = self
            .snapshot
            .as_deref()
            .context("a SNAPSHOT path is required")?;
        let globals = match &self.globals {
            Some(file) => {
                let bytes = std::fs::read(file)
                    .with_context(|| format!("cannot read {}", file.display()))?;
                Some(mo_mem::snapshot::open::parse_globals_json(&bytes, file)?)
            }
            None => None,
        };
        // Store snapshots must verify; a path without a manifest is read at the user's choice.
        let trust =
            mo_mem::store::check_trust_default(path, self.no_verify).with_context(|| {
                format!(
                    "refusing snapshot {} (pass --no-verify to read it anyway)",
                    path.display()
                )
            })?;
        if let Some(note) = trust.note(path) {
            eprintln!("{note}");
        }
        let snapshot = match &self.wasm {
            Some(wasm) => Snapshot::open_image(path, Some(wasm), globals),
            None => Snapshot::open(path),
        };
        snapshot.with_context(|| format!("cannot open snapshot {}", path.display()))
    }

    /// Opens the snapshot and its heap.
    pub fn open_heap(&self) -> anyhow::Result<Heap> {
        let snapshot = self.open()?;
        let path = snapshot.path().display().to_string();
        Heap::open(snapshot, ReaderLimits::default())
            .with_context(|| format!("cannot decode the heap of {path}"))
    }
}
