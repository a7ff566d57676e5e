//! `mo-mem methods SNAPSHOT` and `mo-mem call SNAPSHOT METHOD [ARGS]`: the canister's own
//! Candid methods, run offline on a snapshot restored into the runner (`docs/call.md`).

use anyhow::{bail, Context};
use candid::Principal;
use clap::Args;
use mo_mem::runtime::reply_json::args_json;
use mo_mem::runtime::service::Service;
use mo_mem::runtime::{Canister, RuntimeConfig};
use mo_mem::snapshot::Snapshot;
use std::time::Duration;

use super::snapshot_args::SnapshotArgs;

/// The IC's instruction limit for a query.
const QUERY_INSTRUCTIONS: u64 = 5_000_000_000;

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
    /// Print the reply as JSON (an array, one element per result).
    #[arg(long)]
    json: bool,
    /// Run an update method too, on a scratch copy of the state (the snapshot never changes).
    #[arg(long)]
    allow_update: bool,
    /// Instruction limit of the call.
    #[arg(long, default_value_t = QUERY_INSTRUCTIONS)]
    instructions: u64,
    /// Wall-clock limit of the call, in seconds.
    #[arg(long, default_value_t = 30)]
    timeout: u64,
}

/// The snapshot's module, and its service description.
fn service_of(snapshot: &Snapshot) -> anyhow::Result<Service> {
    let wasm = snapshot
        .module()
        .context("the snapshot has no Wasm module (give one with --wasm)")?;
    let wasm = gunzipped(wasm)?;
    Ok(Service::of_module(&wasm)?)
}

/// A module as stored (gzip or plain), plain.
fn gunzipped(wasm: &[u8]) -> anyhow::Result<Vec<u8>> {
    if wasm.starts_with(&[0x1f, 0x8b]) {
        let mut out = Vec::new();
        let limit = 512u64 << 20;
        std::io::Read::read_to_end(
            &mut std::io::Read::take(flate2::read::GzDecoder::new(wasm), limit + 1),
            &mut out,
        )
        .context("cannot gunzip the module")?;
        if out.len() as u64 > limit {
            bail!("the module gunzips to more than {limit} bytes");
        }
        return Ok(out);
    }
    Ok(wasm.to_vec())
}

/// Runs `mo-mem methods`.
pub fn run_methods(args: MethodsArgs) -> anyhow::Result<()> {
    let snapshot = args.snapshot.open_snapshot()?;
    let service = service_of(&snapshot)?;
    let text: String = service
        .methods()
        .iter()
        .map(|m| format!("{}: {}\n", m.name, m.signature))
        .collect();
    print_out(&text)
}

/// Runs `mo-mem call`.
pub fn run_call(args: CallArgs) -> anyhow::Result<()> {
    let Some(method) = args.method.clone() else {
        bail!("give the method: mo-mem call SNAPSHOT METHOD [ARGS] (see mo-mem methods)");
    };
    let snapshot = args.snapshot.open_snapshot()?;
    let service = service_of(&snapshot)?;
    let m = service.method(&method)?;
    if !m.query && !args.allow_update {
        bail!(
            "{method} is an update method; `--allow-update` runs it on a scratch copy of the state"
        );
    }
    let arg = service.encode_args(&method, args.args.as_deref().unwrap_or(""))?;
    let caller = match &args.caller {
        Some(text) => Principal::from_text(text)
            .map_err(|e| anyhow::anyhow!("--caller {text}: not a principal ({e})"))?,
        None => Principal::anonymous(),
    };
    let cfg = RuntimeConfig {
        caller,
        time_ns: snapshot
            .metadata()
            .map(|m| m.taken_at_timestamp())
            .unwrap_or(RuntimeConfig::default().time_ns),
        instruction_limit: args.instructions,
        restore_after_query: false,
        rollback_on_trap: false,
        ..RuntimeConfig::default()
    };
    if m.query {
        eprintln!("mo-mem: calling query {method} offline (anonymous unless --caller)");
    } else {
        eprintln!("mo-mem: running update {method} on a scratch copy; the snapshot is unchanged");
    }
    let reply = run_with_deadline(snapshot, cfg, method.clone(), arg, m.query, args.timeout)?;
    let decoded = service.decode_reply(&method, &reply)?;
    let text = if args.json {
        serde_json::to_string_pretty(&args_json(&decoded)?)?
    } else {
        decoded.to_string()
    };
    print_out(&format!("{text}\n"))
}

/// Writes `text` to stdout; a reader that stopped reading (`| head`) is not an error.
fn print_out(text: &str) -> anyhow::Result<()> {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => Err(e.into()),
        _ => Ok(()),
    }
}

/// Restores the snapshot and runs the call on a thread, waiting at most `timeout` seconds.
fn run_with_deadline(
    snapshot: Snapshot,
    cfg: RuntimeConfig,
    method: String,
    arg: Vec<u8>,
    query: bool,
    timeout: u64,
) -> anyhow::Result<Vec<u8>> {
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::Builder::new()
        .name("mo-mem-call".into())
        .spawn(move || {
            let result = restore(&snapshot, cfg).and_then(|mut canister| {
                let reply = if query {
                    canister.query(&method, &arg)
                } else {
                    canister.update(&method, &arg)
                };
                for line in canister.debug_log() {
                    eprintln!("canister: {line}");
                }
                Ok(reply?)
            });
            let _ = tx.send(result);
        })?;
    match rx.recv_timeout(Duration::from_secs(timeout)) {
        Ok(result) => result,
        Err(_) => bail!("the call did not finish within {timeout} s (--timeout)"),
    }
}

/// The snapshot's state in a fresh instance of its module.
fn restore(snapshot: &Snapshot, cfg: RuntimeConfig) -> anyhow::Result<Canister> {
    let wasm = snapshot
        .module()
        .context("the snapshot has no Wasm module")?;
    let stable = snapshot
        .stable_memory()
        .map(|i| i.as_slice())
        .unwrap_or(&[]);
    let globals = snapshot.globals().unwrap_or(&[]);
    Ok(Canister::from_snapshot_state(
        wasm,
        snapshot.memory().as_slice(),
        stable,
        globals,
        cfg,
    )?)
}
