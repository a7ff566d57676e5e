//! `mo-mem methods SNAPSHOT` and `mo-mem call SNAPSHOT METHOD [ARGS]`: the canister's own
//! Candid methods, run offline on a snapshot restored into the runner (`docs/call.md`).

use anyhow::bail;
use candid::Principal;
use clap::Args;
use mo_mem::runtime::offline::{CallOptions, OfflineCanister, OfflineError, QUERY_INSTRUCTIONS};
use mo_mem::runtime::reply_json::args_json;
use std::sync::Arc;
use std::time::Duration;

use super::snapshot_args::SnapshotArgs;

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

/// Runs `mo-mem methods`.
pub fn run_methods(args: MethodsArgs) -> anyhow::Result<()> {
    let canister = OfflineCanister::open(Arc::new(args.snapshot.open_snapshot()?))?;
    let text: String = canister
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
    let canister = OfflineCanister::open(Arc::new(args.snapshot.open_snapshot()?))?;
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
    let reply = canister.call(&method, args.args.as_deref().unwrap_or(""), &options);
    let reply = match reply {
        Ok(reply) => reply,
        Err(e) => {
            if let OfflineError::Deadline { .. } = e {
                bail!("{e} (--timeout)");
            }
            return Err(e.into());
        }
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

/// Writes `text` to stdout; a reader that stopped reading (`| head`) is not an error.
fn print_out(text: &str) -> anyhow::Result<()> {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => Err(e.into()),
        _ => Ok(()),
    }
}
