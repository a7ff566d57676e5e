//! `mo-mem eval`: run a Motoko script and print its output and value.

use super::snapshot_args::{admit_noted, admitted_heap};
use anyhow::{bail, Context};
use mo_mem::analysis::OpenedHeap;
use mo_mem::image::ReaderLimits;
use mo_mem::script::host::snapshots::SiblingOpener;
use mo_mem::script::Limits;
use mo_mem::serve::script_run::{run_script, ScriptRun};
use mo_mem::serve::siblings::catalog_siblings;
use std::io::Read;
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

/// Arguments of `mo-mem eval`.
#[derive(clap::Args, Debug)]
pub struct EvalArgs {
    /// The snapshot directory (omit with --no-snapshot).
    snapshot: Option<String>,
    /// The script text, or `-` to read it from standard input.
    script: Option<String>,
    /// Read the script from this file.
    #[arg(short = 'f', long = "file")]
    file: Option<String>,
    /// Run without a snapshot (no `image`, `heap`, `vars`).
    #[arg(long, hide = true)]
    no_snapshot: bool,
    /// Read a snapshot even if its manifest or files do not verify (see `mo-mem verify`).
    #[arg(long)]
    no_verify: bool,
    /// Print JSON: {"output": [...], "value": ..., "show": "..."} (schema:
    /// docs/schemas/eval.schema.json).
    #[arg(long)]
    json: bool,
    /// With --json: show collections (the canister's and those the script builds: `mo:core`
    /// Map, Set, List, …) as their structure instead of their natural view (a map as its
    /// `[key, value]` pairs).
    #[arg(long)]
    raw: bool,
    /// Step budget (deterministic fuel).
    #[arg(long, default_value_t = Limits::default().max_steps)]
    max_steps: u64,
    /// Wall-clock budget in seconds.
    #[arg(long, default_value_t = Limits::default().deadline.as_secs_f64())]
    timeout: f64,
    /// Allocation budget in bytes (cumulative, best effort).
    #[arg(long, default_value_t = Limits::default().max_memory)]
    max_memory: u64,
    /// Output budget in bytes.
    #[arg(long, default_value_t = Limits::default().max_output)]
    max_output: u64,
    /// Call depth budget.
    #[arg(long, default_value_t = Limits::default().max_call_depth)]
    max_depth: u32,
}

/// Runs `mo-mem eval`.
pub fn run(args: EvalArgs, limits: ReaderLimits) -> anyhow::Result<()> {
    // without a snapshot the first positional is the script
    let (snapshot, script_arg) = if args.no_snapshot {
        (None, args.snapshot.clone().or(args.script.clone()))
    } else {
        (args.snapshot.clone(), args.script.clone())
    };
    let (context, siblings) = match &snapshot {
        Some(dir) => {
            let (heap, siblings) = with_siblings(Path::new(dir), args.no_verify, limits)?;
            (Some(heap), Some(siblings))
        }
        None => (None, None),
    };
    let src = match (&args.file, script_arg.as_deref()) {
        (Some(f), None) => std::fs::read_to_string(f).with_context(|| format!("reading {f}"))?,
        (None, Some("-")) => {
            let mut s = String::new();
            std::io::stdin().read_to_string(&mut s)?;
            s
        }
        (None, Some(s)) => s.to_string(),
        _ => bail!("give the script as an argument, with -f FILE, or as - for standard input"),
    };
    let limits = Limits {
        max_steps: args.max_steps,
        deadline: Duration::from_secs_f64(args.timeout.max(0.0)),
        max_memory: args.max_memory,
        max_output: args.max_output,
        max_call_depth: args.max_depth,
        ..Limits::default()
    };
    let run = ScriptRun {
        heap: context,
        siblings,
        source: src,
        name: args.file.clone().unwrap_or_else(|| "script".into()),
        limits,
        json: args.json,
        raw: args.raw,
    };
    match run_script(run) {
        Ok(out) => {
            print!("{out}");
            Ok(())
        }
        Err(failure) => {
            print!("{}", failure.output);
            bail!("{}", failure.message)
        }
    }
}

/// The other snapshots of a canister, by name, and how a script opens one (`snapshots.open`).
pub(super) type Siblings = (Vec<String>, SiblingOpener);

/// The snapshot `dir`, admitted and opened, and the other snapshots of its canister (the
/// snapshot directories beside it, by name) with how a script opens one (`snapshots.open`):
/// from the catalog that admitted `dir`, under the same trust policy.
pub(super) fn with_siblings(
    dir: &Path,
    no_verify: bool,
    limits: ReaderLimits,
) -> anyhow::Result<(Arc<OpenedHeap>, Siblings)> {
    let admitted = admit_noted(dir, no_verify, limits)?;
    let heap = admitted_heap(&admitted)?;
    Ok((heap, catalog_siblings(admitted.snapshots, dir)))
}
