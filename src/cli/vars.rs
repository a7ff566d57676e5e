//! `mo-mem vars SNAPSHOT [NAME] --format motoko|json`: the actor's stable variables by name.
//!
//! Contract (scripts rely on it): `--format motoko` prints each stable variable, sorted by
//! name, as `name = <debug_show text>` (a value may span several lines: Text is not escaped);
//! with NAME only that value's text. `--format json` prints one JSON object keyed by variable
//! name (with NAME: that value's JSON), collections as their natural view (`--raw`: as their
//! structure; docs/formats.md "Collections"). Exit status 0 on success; otherwise a one-line reason
//! per failure on stderr and a non-zero status (variables that did decode are still printed).

use mo_mem::image::ReaderLimits;
use std::io::Write;

use anyhow::anyhow;

use mo_mem::serve::vars_render::{render_vars, VarsFormat};

use super::snapshot_args::SnapshotArgs;

/// How `vars` renders values.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// Motoko `debug_show` text, exactly as the canister prints it.
    Motoko,
    /// JSON for jq (see docs/formats.md).
    Json,
}

/// Arguments of `mo-mem vars`.
#[derive(clap::Args, Debug)]
pub struct VarsArgs {
    /// The snapshot (and, for a bare image, its module).
    #[command(flatten)]
    pub source: SnapshotArgs,
    /// Print only this variable's value.
    pub name: Option<String>,
    /// Output format (`json`: schema docs/schemas/vars.schema.json, with NAME
    /// docs/schemas/value.schema.json).
    #[arg(long, value_enum, default_value_t = Format::Motoko)]
    pub format: Format,
    /// With `--format json`: show collections (`mo:core` Map, Set, List, …) as their own
    /// structure instead of their natural view (a map as its `[key, value]` pairs, a set or
    /// list as its elements).
    #[arg(long)]
    pub raw: bool,
}

/// Runs `mo-mem vars`.
pub fn run(args: VarsArgs, limits: ReaderLimits) -> anyhow::Result<()> {
    let opened = args.source.open_heap(limits)?;
    let format = match args.format {
        Format::Motoko => VarsFormat::Motoko,
        Format::Json => VarsFormat::Json,
    };
    let done = render_vars(&opened, args.name.as_deref(), format, args.raw)?;
    let mut stdout = std::io::stdout().lock();
    stdout.write_all(done.text.as_bytes())?;
    stdout.flush()?;
    let failures = done.failures;
    match failures.len() {
        0 => Ok(()),
        1 => Err(anyhow!("{}", failures[0])),
        n => {
            for f in &failures[..n - 1] {
                eprintln!("mo-mem: {f}");
            }
            Err(anyhow!("{}", failures[n - 1]))
        }
    }
}
