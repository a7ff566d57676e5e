//! `mo-mem methods SNAPSHOT` and `mo-mem call SNAPSHOT METHOD [ARGS]`: the canister's own
//! Candid methods, run offline on a snapshot restored into the runner (`docs/call.md`).

use anyhow::bail;
use candid::Principal;
use clap::Args;
use mo_mem::runtime::offline::{CallOptions, OfflineCanister, OfflineError, QUERY_INSTRUCTIONS};
use mo_mem::runtime::reply_json::args_json;
use std::sync::Arc;
use std::time::{Duration, Instant};

use super::snapshot_args::SnapshotArgs;
use mo_mem::image::ReaderLimits;

/// Arguments of `mo-mem methods`.
#[derive(Args, Debug)]
pub struct MethodsArgs {
    #[command(flatten)]
    snapshot: SnapshotArgs,
}

/// Arguments of `mo-mem call`.
#[derive(Args, Debug)]
pub struct CallArgs {
    #[command(flatten)]
    snapshot: SnapshotArgs,
    /// The method to call.
    method: Option<String>,
    /// Its arguments as Candid text, e.g. '(42, "x", principal "aaaaa-aa")' (none: `()`).
    args: Option<String>,
    /// The caller (default: the anonymous principal).
    #[arg(long, value_name = "PRINCIPAL")]
    caller: Option<String>,
    /// Print the reply as JSON (an array, one element per result; schema:
    /// docs/schemas/call.schema.json, numbers as docs/formats.md says).
    #[arg(long)]
    json: bool,
    /// Print the JSON Schema (draft 2020-12) of the method's `--json` reply, made from its
    /// Candid result types, instead of calling it.
    #[arg(long, conflicts_with_all = ["args", "json", "allow_update"])]
    schema: bool,
    /// Run an update method too, on a scratch copy of the state (the snapshot never changes).
    #[arg(long)]
    allow_update: bool,
    /// Instruction limit of the call.
    #[arg(long, default_value_t = QUERY_INSTRUCTIONS)]
    instructions: u64,
    /// Wall-clock limit of the call, in seconds.
    #[arg(long, default_value_t = 30)]
    timeout: u64,
    /// Copy main memory into the runner instead of mapping it copy-on-write (to compare).
    #[arg(long)]
    copy_memory: bool,
    /// Call the method this many times on the one restored instance (benchmarks; the reply
    /// is printed once, and every reply must be the same).
    #[arg(long, default_value_t = 1, hide = true)]
    repeat: u32,
    /// Print on stderr how long the restore and the calls took (benchmarks).
    #[arg(long, hide = true)]
    timings: bool,
}

/// Runs `mo-mem methods`.
pub fn run_methods(args: MethodsArgs, limits: ReaderLimits) -> anyhow::Result<()> {
    let canister = OfflineCanister::open(Arc::new(args.snapshot.open_snapshot(limits)?))?;
    let text: String = canister
        .methods()
        .iter()
        .map(|m| format!("{}: {}\n", m.name, m.signature))
        .collect();
    print_out(&text)
}

/// Runs `mo-mem call`.
pub fn run_call(args: CallArgs, limits: ReaderLimits) -> anyhow::Result<()> {
    let Some(method) = args.method.clone() else {
        bail!("give the method: mo-mem call SNAPSHOT METHOD [ARGS] (see mo-mem methods)");
    };
    let mut canister = OfflineCanister::open(Arc::new(args.snapshot.open_snapshot(limits)?))?;
    if args.schema {
        let schema = canister.service()?.reply_schema(&method)?;
        return print_out(&format!("{}\n", serde_json::to_string_pretty(&schema)?));
    }
    if args.copy_memory {
        canister = canister.copying_memory();
    }
    let caller = match &args.caller {
        Some(text) => Principal::from_text(text)
            .map_err(|e| anyhow::anyhow!("--caller {text}: not a principal ({e})"))?,
        None => Principal::anonymous(),
    };
    let options = CallOptions {
        caller,
        instructions: args.instructions,
        timeout: Duration::from_secs(args.timeout),
        allow_update: args.allow_update,
    };
    if canister.method(&method, &options)?.query {
        eprintln!("mo-mem: calling query {method} offline (anonymous unless --caller)");
    } else {
        eprintln!("mo-mem: running update {method} on a scratch copy; the snapshot is unchanged");
    }
    let started = Instant::now();
    let mapped = canister.restore_now()?;
    let restored = started.elapsed();
    let mut calls = Vec::new();
    let mut reply = None;
    for _ in 0..args.repeat.max(1) {
        let started = Instant::now();
        let this = match canister.call(&method, args.args.as_deref().unwrap_or(""), &options) {
            Ok(reply) => reply,
            Err(e @ OfflineError::Deadline { .. }) => bail!("{e} (--timeout)"),
            Err(e) => return Err(e.into()),
        };
        calls.push(started.elapsed());
        if let Some(first) = &reply {
            let first: &mo_mem::runtime::offline::Reply = first;
            if first.values.to_string() != this.values.to_string() {
                bail!("call {} answered otherwise than the first", calls.len());
            }
        } else {
            reply = Some(this);
        }
    }
    if args.timings {
        let ms = |d: Duration| d.as_secs_f64() * 1e3;
        let later: Vec<String> = calls[1..]
            .iter()
            .map(|d| format!("{:.1}", ms(*d)))
            .collect();
        eprintln!(
            "mo-mem: restore ({}) {:.1} ms, first call {:.1} ms, later calls [{}] ms; {}",
            if mapped { "mapped" } else { "copied" },
            ms(restored),
            ms(calls[0]),
            later.join(", "),
            resident()
        );
    }
    let Some(reply) = reply else {
        bail!("no call was made");
    };
    for line in &reply.log {
        eprintln!("canister: {line}");
    }
    let text = if args.json {
        serde_json::to_string_pretty(&args_json(&reply.values)?)?
    } else {
        reply.values.to_string()
    };
    print_out(&format!("{text}\n"))
}

/// The process's resident memory by kind now (`/proc/self/status`): anonymous memory is what
/// the restore costs; file pages are the snapshot's page cache; shared memory counts the
/// restore's zero block once per place it is mapped.
fn resident() -> String {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .filter(|l| {
            ["RssAnon:", "RssFile:", "RssShmem:"]
                .iter()
                .any(|k| l.starts_with(k))
        })
        .map(|l| l.split_whitespace().collect::<Vec<_>>().join(" "))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Writes `text` to stdout; a reader that stopped reading (`| head`) is not an error.
fn print_out(text: &str) -> anyhow::Result<()> {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    // a reader that stopped early is an exit 0, decided once in `cli::main`
    Ok(out.write_all(text.as_bytes()).and_then(|()| out.flush())?)
}
