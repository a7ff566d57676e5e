//! Shared arguments for commands that read one snapshot: the path and an optional module.

use std::path::PathBuf;

use anyhow::Context;
use clap::Args;

use mo_mem::analysis::OpenedHeap;
use mo_mem::image::{ReaderLimits, MAX_ANALYSIS_OBJECTS};
use mo_mem::serve::SnapshotSource;
use std::sync::Arc;

/// How much one decoded value may take: the global `--max-value-size`.
#[derive(Args, Debug, Clone, Copy)]
pub struct ValueLimitArgs {
    /// Largest rendering of one text or blob (a blob renders to 2-3 bytes per byte, a text
    /// to its JSON form): bytes, or with a K, M or G suffix (binary); larger values are
    /// refused with a limit error.
    #[arg(long, global = true, value_name = "SIZE", default_value = "64M", value_parser = parse_size)]
    pub max_value_size: u64,
    /// Read a snapshot directory whose download (icp-cli, dfx, mo-mem pull) did not finish:
    /// without it such a directory is refused with what is missing and how to resume; with
    /// it, everything shown is marked INCOMPLETE. A download still running is refused anyway.
    #[arg(long, global = true)]
    pub force: bool,
    /// Most heap objects the heap analysis takes (`retained`, `path`, `report`, `diff`,
    /// `trend`, `export`, `heap.retained` in scripts, the mount's `analysis/`): a heap with
    /// more is refused with a limit error (default and most: 4294966271).
    #[arg(long, global = true, value_name = "N", default_value_t = MAX_ANALYSIS_OBJECTS,
          value_parser = clap::value_parser!(u64).range(1..=MAX_ANALYSIS_OBJECTS))]
    pub max_analysis_objects: u64,
}

/// The largest `--max-value-size`: 64 GiB.
const MAX_VALUE_SIZE: u64 = 64 << 30;

/// `123`, `64K`, `64M`, `1G` (also `64MiB`, `64MB`: all binary) as bytes, 1 to 64 GiB.
fn parse_size(text: &str) -> Result<u64, String> {
    let not_a_size = || {
        format!(
            "{text:?} is not a size: a whole number of bytes, or with a K, M or G suffix \
             (e.g. 1048576, 512K, 64M, 2G)"
        )
    };
    let t = text.trim();
    let digits = t.find(|c: char| !c.is_ascii_digit()).unwrap_or(t.len());
    let (number, unit) = t.split_at(digits);
    let number: u64 = number.parse().map_err(|_| not_a_size())?;
    let shift = match unit.to_ascii_uppercase().as_str() {
        "" | "B" => 0,
        "K" | "KB" | "KIB" => 10,
        "M" | "MB" | "MIB" => 20,
        "G" | "GB" | "GIB" => 30,
        _ => return Err(not_a_size()),
    };
    match number.checked_mul(1 << shift) {
        Some(bytes) if (1..=MAX_VALUE_SIZE).contains(&bytes) => Ok(bytes),
        _ => Err(format!("{text:?} is not between 1 byte and 64G")),
    }
}

impl ValueLimitArgs {
    /// The reader limits with this value limit.
    pub fn reader_limits(&self) -> ReaderLimits {
        ReaderLimits {
            max_text_bytes: self.max_value_size,
            allow_unfinished: self.force,
            max_analysis_objects: self.max_analysis_objects,
            ..ReaderLimits::default()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::parse_size;

    #[test]
    fn sizes_parse_in_binary_units() {
        assert_eq!(parse_size("100"), Ok(100));
        assert_eq!(parse_size("512K"), Ok(512 << 10));
        assert_eq!(parse_size("64M"), Ok(64 << 20));
        assert_eq!(parse_size("64MiB"), Ok(64 << 20));
        assert_eq!(parse_size("2g"), Ok(2 << 30));
        assert_eq!(parse_size("64G"), Ok(64 << 30));
        for bad in [
            "",
            "0",
            "M",
            "-1",
            "1.5M",
            "65G",
            "99999999999999999999",
            "9T",
        ] {
            assert!(parse_size(bad).is_err(), "{bad}");
        }
    }
}

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
    /// Opens the snapshot and its heap, read under `limits`, once it is admitted: store
    /// snapshots must verify; a path without a manifest is read at the user's choice.
    pub fn open_heap(&self, limits: ReaderLimits) -> anyhow::Result<Arc<OpenedHeap>> {
        let path = self
            .snapshot
            .as_deref()
            .context("a SNAPSHOT path is required")?;
        if self.wasm.is_none() && self.globals.is_none() {
            return open_admitted(path, self.no_verify, limits);
        }
        let admitted = mo_mem::serve::admit(path, self.no_verify, limits)?;
        if let Some(note) = admitted.note() {
            eprintln!("{note}");
        }
        let source = SnapshotSource {
            path: path.to_path_buf(),
            wasm: self.wasm.clone(),
            globals: self.globals.clone(),
        };
        Ok(source.open(limits)?)
    }
}

/// The heap of the snapshot directory `path` once it is admitted (`--no-verify`: read even
/// if it does not verify), its note shown.
pub fn open_admitted(
    path: &std::path::Path,
    no_verify: bool,
    limits: ReaderLimits,
) -> anyhow::Result<Arc<OpenedHeap>> {
    admitted_heap(&admit_noted(path, no_verify, limits)?)
}

/// The snapshot at `path` if a command may read it (its note, if any, shown), not opened yet.
pub fn admit_noted(
    path: &std::path::Path,
    no_verify: bool,
    limits: ReaderLimits,
) -> anyhow::Result<mo_mem::serve::Admitted> {
    let admitted = mo_mem::serve::admit(path, no_verify, limits)?;
    if let Some(note) = admitted.note() {
        eprintln!("{note}");
    }
    Ok(admitted)
}

/// The opened heap of an admitted snapshot.
pub fn admitted_heap(admitted: &mo_mem::serve::Admitted) -> anyhow::Result<Arc<OpenedHeap>> {
    Ok(admitted.snapshot.heap().map_err(Clone::clone)?.clone())
}

impl SnapshotArgs {
    /// Opens the snapshot's files (a directory, or a bare image with its module and globals)
    /// once it is admitted, without decoding its heap.
    pub fn open_snapshot(
        &self,
        limits: ReaderLimits,
    ) -> anyhow::Result<mo_mem::snapshot::Snapshot> {
        let path = self
            .snapshot
            .as_deref()
            .context("a SNAPSHOT path is required")?;
        let admitted = mo_mem::serve::admit(path, self.no_verify, limits)?;
        if let Some(note) = admitted.note() {
            eprintln!("{note}");
        }
        let globals = match &self.globals {
            Some(file) => {
                let bytes = std::fs::read(file)
                    .with_context(|| format!("cannot read {}", file.display()))?;
                Some(mo_mem::snapshot::open::parse_globals_json(&bytes, file)?)
            }
            None => None,
        };
        Ok(admitted.open_for_calls(self.wasm.as_deref(), globals)?)
    }
}
