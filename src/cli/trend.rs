//! `mo-mem trend SNAPSHOT...`: retained bytes per stable variable and per type over many
//! snapshots of one canister, as a table (`--json`: the numbers; `--svg FILE`: a line
//! chart). A directory holding snapshot directories (a store canister) stands for all of
//! them, in the order of their metadata's timestamps.

use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::Context;
use clap::Args;
use mo_mem::analysis::diff::trend::{Trend, DEFAULT_TREND_TYPES};
use mo_mem::analysis::diff::trend_svg::trend_svg;
use mo_mem::analysis::diff::Figures;
use mo_mem::analysis::json::pretty;
use mo_mem::image::ReaderLimits;

use super::progress::TerminalProgress;
use super::snapshot_args::{admit_noted, admitted_heap};
use mo_mem::serve::one_canister;

/// Arguments of `mo-mem trend`.
#[derive(Args, Debug)]
pub struct TrendArgs {
    /// Snapshot directories, oldest first (or one directory of snapshots, e.g. a canister
    /// in the store).
    #[arg(required = true)]
    snapshots: Vec<PathBuf>,
    /// Print JSON instead of a table (schema: docs/schemas/trend.schema.json).
    #[arg(long)]
    json: bool,
    /// Also write a line chart of the variables' retained bytes to FILE.
    #[arg(long, value_name = "FILE")]
    svg: Option<PathBuf>,
    /// How many types to follow (the largest in any snapshot).
    #[arg(long, default_value_t = DEFAULT_TREND_TYPES)]
    types: usize,
    /// Read snapshots even if their manifests or files do not verify.
    #[arg(long)]
    no_verify: bool,
}

/// The snapshots `paths` stand for: a snapshot directory itself, a directory of snapshot
/// directories all of them (by their metadata's timestamp, then name).
fn expand(paths: &[PathBuf]) -> anyhow::Result<Vec<PathBuf>> {
    if paths.len() != 1 || paths[0].join("metadata.json").exists() {
        return Ok(paths.to_vec());
    }
    let dir = &paths[0];
    let mut found: Vec<(u64, PathBuf)> = Vec::new();
    for e in std::fs::read_dir(dir).with_context(|| format!("cannot list {}", dir.display()))? {
        let path = e?.path();
        if path.join("metadata.json").exists() {
            found.push((taken_at(&path), path));
        }
    }
    anyhow::ensure!(
        !found.is_empty(),
        "{} holds no snapshot directories",
        dir.display()
    );
    found.sort();
    Ok(found.into_iter().map(|(_, p)| p).collect())
}

/// The snapshot's `taken_at_timestamp` (0 if unreadable).
fn taken_at(dir: &Path) -> u64 {
    std::fs::read(dir.join("metadata.json"))
        .ok()
        .and_then(|b| serde_json::from_slice::<serde_json::Value>(&b).ok())
        .and_then(|v| v.get("taken_at_timestamp").and_then(|t| t.as_u64()))
        .unwrap_or(0)
}

/// Runs `mo-mem trend`.
pub fn run(args: TrendArgs, limits: ReaderLimits) -> anyhow::Result<()> {
    let paths = expand(&args.snapshots)?;
    // Every snapshot admitted (and its canister known) before any is analysed.
    let admitted = paths
        .iter()
        .map(|path| admit_noted(path, args.no_verify, limits))
        .collect::<anyhow::Result<Vec<_>>>()?;
    one_canister("trend", &admitted)?;
    let progress = TerminalProgress::new();
    let mut points = Vec::with_capacity(paths.len());
    // Named as the mount names them: the fewest trailing path components that differ.
    let names = mo_mem::vfs::sources::served_names(&paths);
    // Each snapshot dropped once reduced to its figures.
    for ((path, name), admitted) in paths.iter().zip(names).zip(admitted) {
        let opened = admitted_heap(&admitted)?;
        let figures = Figures::of(&opened, &progress)
            .with_context(|| format!("cannot analyse {}", path.display()))?;
        points.push((name, figures));
    }
    drop(progress);
    let trend = Trend::new(&points, args.types);
    if let Some(file) = &args.svg {
        std::fs::write(file, trend_svg(&trend))
            .with_context(|| format!("cannot write {}", file.display()))?;
    }
    let mut out = std::io::stdout().lock();
    if args.json {
        out.write_all(&pretty(&trend)?)?;
    } else {
        out.write_all(trend.table().as_bytes())?;
    }
    Ok(())
}
