//! `mo-mem upgrade SNAPSHOT NEW_MODULE`: an upgrade dry run on a snapshot's real state
//! (`docs/upgrade.md`): the verdict, the phase and message of a failure, instructions per
//! phase against the limit, the memories, what happened to each stable variable and the data
//! lost. Exit status 0: the upgrade succeeds and keeps every value; 1: it would fail; 3: it
//! succeeds but loses data; 2: usage and I/O errors.

use anyhow::Context;
use clap::Args;
use mo_mem::analysis::type_changes::TypeChangeKind;
use mo_mem::analysis::upgrade::{compare_types, compare_vars, data_loss, VarDiff};
use mo_mem::analysis::OpenedHeap;
use mo_mem::image::ReaderLimits;
use mo_mem::runtime::upgrade::{dry_run, UpgradeOptions, UpgradeRun, INSTALL_CODE_INSTRUCTIONS};
use mo_mem::runtime::RuntimeError;
use mo_mem::snapshot::fixture::write_dir_atomically;
use serde_json::json;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use super::snapshot_args::SnapshotArgs;
use super::times::timed;

/// The largest new module read (the IC's limit for a module is 100 MiB).
const MAX_MODULE_BYTES: u64 = 100 << 20;

/// Arguments of `mo-mem upgrade`.
#[derive(Args, Debug)]
pub struct UpgradeArgs {
    /// The snapshot directory (icp-cli/dfx layout).
    snapshot: PathBuf,
    /// The new version's module (`.wasm` or `.wasm.gz`).
    new_module: PathBuf,
    /// The upgrade argument as Candid text, typed against the new module's init arguments
    /// (default `()`).
    #[arg(long, value_name = "CANDID_TEXT")]
    arg: Option<String>,
    /// Write the upgraded state as a snapshot directory.
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// Print the report as one JSON object (schema: docs/schemas/upgrade.schema.json).
    #[arg(long)]
    json: bool,
    /// Instruction limit of the upgrade's phases together (the IC's for `install_code`).
    #[arg(long, value_name = "N", default_value_t = INSTALL_CODE_INSTRUCTIONS)]
    instructions: u64,
    /// Wall-clock limit of the dry run, in seconds.
    #[arg(long, value_name = "S", default_value_t = 600)]
    timeout: u64,
    /// Read the snapshot even if its manifest or files do not verify (see `mo-mem verify`).
    #[arg(long)]
    no_verify: bool,
    /// Copy main memory into the runner instead of mapping it copy-on-write.
    #[arg(long, hide = true)]
    copy_memory: bool,
}

/// The report of a dry run.
struct Report {
    run: UpgradeRun,
    vars: Vec<VarDiff>,
    warnings: Vec<String>,
}

/// Runs `mo-mem upgrade` and returns its exit status (2 for any error before a verdict).
pub fn main(args: UpgradeArgs, limits: ReaderLimits) -> ExitCode {
    match run(&args, limits) {
        Ok(code) => ExitCode::from(code),
        Err(err) => {
            eprintln!("mo-mem: {err:#}");
            ExitCode::from(2)
        }
    }
}

fn run(args: &UpgradeArgs, limits: ReaderLimits) -> anyhow::Result<u8> {
    if let Some(dir) = args.out.as_ref().filter(|d| d.exists()) {
        anyhow::bail!(
            "--out {}: exists; give a new directory (the upgraded snapshot never replaces one)",
            dir.display()
        );
    }
    let new_module = read_module(&args.new_module)?;
    let source = SnapshotArgs {
        snapshot: Some(args.snapshot.clone()),
        wasm: None,
        globals: None,
        no_verify: args.no_verify,
    };
    let old_heap = timed("open", || source.open_heap(limits))?;
    let snapshot = old_heap.heap().snapshot();
    let options = UpgradeOptions {
        instructions: args.instructions,
        timeout: Duration::from_secs(args.timeout),
        copy_memory: args.copy_memory,
    };
    let mut run = timed("upgrade", || {
        dry_run(
            old_heap.clone(),
            &new_module,
            args.arg.as_deref().unwrap_or(""),
            &options,
        )
    })?;
    if let (Some(dir), None) = (&args.out, &run.failure) {
        let files = run.snapshot_files(snapshot)?;
        let refs: Vec<(&str, &[u8])> = files.iter().map(|(n, b)| (*n, b.as_slice())).collect();
        write_dir_atomically(dir, &refs)
            .with_context(|| format!("writing the upgraded snapshot to {}", dir.display()))?;
    }
    let (vars, warnings) = if run.failure.is_none() {
        // the canister is released: main memory is held once, in the snapshot, while decoded
        let upgraded = timed("open upgraded", || {
            anyhow::Ok(OpenedHeap::from_snapshot(
                run.take_snapshot(snapshot)?,
                limits,
            )?)
        })?;
        let vars = timed("compare", || {
            while_releasing_pages(old_heap.heap().snapshot().memory(), || {
                compare_vars(&old_heap, &upgraded)
            })
        })?;
        let warnings = data_loss(&vars);
        (vars, warnings)
    } else {
        // what a static check sees: the declared types of the old state and the new module
        let vars = compare_types(&old_heap, &new_module).unwrap_or_else(|e| {
            eprintln!("mo-mem: no comparison of the stable types: {e}");
            Vec::new()
        });
        (vars, Vec::new())
    };
    for line in &run.log {
        eprintln!("canister: {line}");
    }
    let report = Report {
        run,
        vars,
        warnings,
    };
    let text = if args.json {
        serde_json::to_string_pretty(&mo_mem::heap::render::number_rule(report.json()))? + "\n"
    } else {
        report.text(args.out.as_ref())
    };
    print!("{text}");
    Ok(match (&report.run.failure, report.warnings.is_empty()) {
        (Some(_), _) => 1,
        (None, false) => 3,
        (None, true) => 0,
    })
}

/// How often the snapshot's mapped memory lets go of the pages the comparison read.
const RELEASE_EVERY: Duration = Duration::from_millis(250);

/// Runs `step` while another thread lets go of `image`'s mapped pages every
/// [`RELEASE_EVERY`] (`Image::release_pages`): the comparison reads the old state's memory
/// from the snapshot's file, and its pages would otherwise stay counted in the process'
/// memory beside the upgraded state's.
fn while_releasing_pages<T: Send>(image: &mo_mem::image::Image, step: impl FnOnce() -> T) -> T {
    let (stop, stopped) = std::sync::mpsc::channel::<()>();
    std::thread::scope(|scope| {
        scope.spawn(move || {
            while let Err(std::sync::mpsc::RecvTimeoutError::Timeout) =
                stopped.recv_timeout(RELEASE_EVERY)
            {
                image.release_pages();
            }
        });
        let out = step();
        drop(stop);
        out
    })
}

/// The new module's bytes, refused beyond [`MAX_MODULE_BYTES`].
fn read_module(path: &PathBuf) -> anyhow::Result<Vec<u8>> {
    let size = std::fs::metadata(path)
        .with_context(|| format!("cannot read {}", path.display()))?
        .len();
    if size > MAX_MODULE_BYTES {
        anyhow::bail!(
            "{}: {size} bytes, more than a module may have ({MAX_MODULE_BYTES})",
            path.display()
        );
    }
    std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))
}

impl Report {
    /// Why the upgrade would fail, naming the limit when it is the limit.
    fn reason(&self) -> Option<String> {
        let failure = self.run.failure.as_ref()?;
        let phase = failure.phase.map_or("the upgrade", |p| p.name());
        Some(match &failure.error {
            RuntimeError::InstructionLimit { .. } => format!(
                "{phase} reached the upgrade's instruction limit of {} (--instructions)",
                self.run.limit
            ),
            e => e.to_string(),
        })
    }

    fn phase(&self) -> Option<&'static str> {
        self.run.failure.as_ref()?.phase.map(|p| p.name())
    }

    fn persistence(eop: bool) -> &'static str {
        if eop {
            "enhanced"
        } else {
            "classical"
        }
    }

    fn json(&self) -> serde_json::Value {
        let c = &self.run.counts;
        let vars: Vec<_> = self
            .vars
            .iter()
            .map(|v| {
                json!({
                    "name": v.name, "change": v.change.name(),
                    "before": v.before, "after": v.after,
                    "type_before": v.type_before, "type_after": v.type_after,
                    "migrated": v.migrated,
                    "compatible": v.compatible,
                    "type_changes": v.type_changes.changes.iter().map(|c| json!({
                        "path": c.path, "change": c.change.name(),
                        "before": c.before, "after": c.after,
                        "compatible": c.compatible,
                    })).collect::<Vec<_>>(),
                    "type_changes_complete": v.type_changes.complete,
                })
            })
            .collect();
        json!({
            "upgraded": self.run.failure.is_none(),
            "reason": self.reason(),
            "phase": self.phase(),
            "persistence": {
                "before": Self::persistence(self.run.eop.0),
                "after": Self::persistence(self.run.eop.1),
            },
            "instructions": {
                "pre_upgrade": c.pre_upgrade, "start": c.start,
                "post_upgrade": c.post_upgrade, "total": c.total(),
            },
            "limit": self.run.limit,
            "memory": {
                "before": {"main": self.run.before.main, "stable": self.run.before.stable},
                "after": {"main": self.run.after.main, "stable": self.run.after.stable},
            },
            "vars": vars,
            "warnings": self.warnings,
        })
    }

    /// The verdict of Motoko's upgrade rules on a change, as a line's suffix.
    fn verdict(compatible: Option<bool>) -> &'static str {
        match compatible {
            Some(true) => " (compatible)",
            Some(false) => " (incompatible)",
            None => " (compatibility undecided)",
        }
    }

    /// The verdict's suffix for a variable's line: only when its declared type changed, it
    /// is only in one program, or the rules refuse it.
    fn var_verdict(v: &VarDiff) -> &'static str {
        let type_changed = v.type_before != v.type_after || !v.type_changes.changes.is_empty();
        if type_changed || v.compatible != Some(true) {
            Self::verdict(v.compatible)
        } else {
            ""
        }
    }

    /// The lines naming the fields and tags that changed inside a variable's type, indented
    /// under its line.
    fn inside(v: &VarDiff) -> String {
        let show = |t: &Option<String>| t.clone().unwrap_or_default();
        let mut s = String::new();
        for c in &v.type_changes.changes {
            let verdict = Self::verdict(c.compatible);
            s += &match c.change {
                TypeChangeKind::Retyped => format!(
                    "  retyped  {} : {} -> {}{verdict}\n",
                    c.path,
                    show(&c.before),
                    show(&c.after)
                ),
                TypeChangeKind::Added => {
                    format!("  added    {} : {}{verdict}\n", c.path, show(&c.after))
                }
                TypeChangeKind::Removed => {
                    format!("  removed  {} : {}{verdict}\n", c.path, show(&c.before))
                }
            };
        }
        if !v.type_changes.complete {
            s += &format!(
                "  (more changes inside {} not listed: the comparison is bounded)\n",
                v.name
            );
        }
        s
    }

    fn text(&self, out: Option<&PathBuf>) -> String {
        let r = &self.run;
        let c = &r.counts;
        let mut s = match (self.reason(), self.warnings.is_empty()) {
            (Some(reason), _) => format!(
                "upgrade: FAILS in {}: {reason}\n",
                self.phase().unwrap_or("the upgrade")
            ),
            (None, false) => "upgrade: succeeds but LOSES DATA\n".to_string(),
            (None, true) => "upgrade: succeeds, no value lost\n".to_string(),
        };
        s += &format!(
            "persistence: {} -> {}\n",
            Self::persistence(r.eop.0),
            Self::persistence(r.eop.1)
        );
        let percent = c.total() as f64 * 100.0 / r.limit.max(1) as f64;
        s += &format!(
            "instructions: pre_upgrade {}, start {}, post_upgrade {}, total {} ({percent:.4}% of the limit {})\n",
            c.pre_upgrade, c.start, c.post_upgrade, c.total(), r.limit
        );
        s += &format!(
            "memory: main {} -> {} bytes, stable {} -> {} bytes\n",
            r.before.main, r.after.main, r.before.stable, r.after.stable
        );
        let show = |t: &Option<String>| t.clone().unwrap_or_default();
        if r.failure.is_some() && !self.vars.is_empty() {
            s += "stable types (the old state's, the new module's):\n";
        }
        for v in self.vars.iter().filter(|_| r.failure.is_some()) {
            let verdict = Self::var_verdict(v);
            s += &match v.change.name() {
                "changed" => format!(
                    "changed  {} : {} -> {}{verdict}\n",
                    v.name,
                    show(&v.type_before),
                    show(&v.type_after)
                ),
                "added" => format!("added    {} : {}{verdict}\n", v.name, show(&v.type_after)),
                name => format!("{name:<8} {} : {}{verdict}\n", v.name, show(&v.type_before)),
            };
            s += &Self::inside(v);
        }
        for v in self.vars.iter().filter(|_| r.failure.is_none()) {
            let verdict = Self::var_verdict(v);
            s += &match v.change.name() {
                "changed" => format!(
                    "changed  {} = {} -> {}{}{verdict}\n",
                    v.name,
                    show(&v.before),
                    show(&v.after),
                    if v.migrated { " (migrated)" } else { "" }
                ),
                "added" => format!("added    {} = {}{verdict}\n", v.name, show(&v.after)),
                name => format!("{name:<8} {} = {}{verdict}\n", v.name, show(&v.before)),
            };
            s += &Self::inside(v);
        }
        for w in &self.warnings {
            s += &format!("warning: {w}\n");
        }
        match (out, &r.failure) {
            (Some(dir), None) => {
                s += &format!("wrote the upgraded snapshot to {}\n", dir.display())
            }
            (Some(dir), Some(_)) => {
                s += &format!("nothing written to {}: the upgrade fails\n", dir.display())
            }
            (None, _) => {}
        }
        s
    }
}
