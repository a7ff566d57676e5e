//! `mo-mem create` and `mo-mem update`: take a snapshot (update: replacing the latest).

use super::ic_common::{
    canister, connect, human_bytes, runtime, utc, CanisterArg, IcArgs, Protocol,
};
use anyhow::Result;
use clap::Args;
use mo_mem::heap::render::number_rule;
use mo_mem::ic::{self, snapshot_hex, TakeOptions};
use serde_json::json;

/// Flags of `create` and `update`.
#[derive(Args, Debug, Clone)]
pub struct TakeArgs {
    #[command(flatten)]
    pub ic: IcArgs,
    #[command(flatten)]
    pub canister: CanisterArg,
    /// Stop a running canister, take the snapshot, and start it again (also if taking fails).
    #[arg(long)]
    pub stop: bool,
}

/// Takes a snapshot; `replace_latest` for `update`.
pub fn run(args: &TakeArgs, replace_latest: bool) -> Result<()> {
    let cid = canister(&args.ic, &args.canister)?;
    runtime()?.block_on(async {
        let conn = connect(&args.ic).await?;
        if args.ic.protocol == Protocol::Canister {
            return take_hosted(args, &conn, cid, replace_latest).await;
        }
        let client = conn.canister(cid);
        let out = ic::ops::take(
            &client,
            TakeOptions {
                stop: args.stop,
                replace_latest,
            },
        )
        .await?;
        let s = &out.snapshot;
        if args.ic.json {
            println!(
                "{}",
                serde_json::to_string_pretty(&number_rule(json!({
                    "canister": cid.to_text(),
                    "id": snapshot_hex(&s.id),
                    "taken_at_ns": s.taken_at_timestamp.to_string(),
                    "taken_at": utc(s.taken_at_timestamp),
                    "total_size": s.total_size,
                    "replaced": out.replaced.as_deref().map(snapshot_hex),
                    "restarted": out.restarted,
                    "module_hash": out.module_hash.as_deref().map(hex::encode),
                })))?
            );
        } else {
            if let Some(old) = &out.replaced {
                println!("replaced snapshot {}", snapshot_hex(old));
            }
            println!(
                "snapshot {} of {cid}: {}, taken {}",
                snapshot_hex(&s.id),
                human_bytes(s.total_size),
                utc(s.taken_at_timestamp)
            );
            if out.restarted {
                println!("the canister was stopped for the snapshot and started again");
            }
            println!(
                "download it with: mo-mem pull --canister {cid} --network {}",
                args.ic.network
            );
        }
        Ok(())
    })
}

/// `create`/`update --protocol canister`: the canister copies its main memory into a Region.
async fn take_hosted(
    args: &TakeArgs,
    conn: &mo_mem::ic::Connection,
    cid: candid::Principal,
    replace_latest: bool,
) -> Result<()> {
    let s = conn.hosted(cid).take(replace_latest).await?;
    if args.ic.json {
        println!(
            "{}",
            serde_json::to_string_pretty(&number_rule(json!({
                "canister": cid.to_text(),
                "protocol": "canister",
                "id": s.id.0.to_string(),
                "taken_at_ns": s.taken_at_ns().to_string(),
                "taken_at": utc(s.taken_at_ns()),
                "total_size": s.size,
            })))?
        );
    } else {
        println!(
            "hosted snapshot {} of {cid}: {}, taken {}",
            s.id,
            human_bytes(s.size),
            utc(s.taken_at_ns())
        );
    }
    Ok(())
}
