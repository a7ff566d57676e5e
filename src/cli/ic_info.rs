//! `mo-mem info --canister ID`: the canister's snapshots on the IC.

use super::ic_common::{
    canister, connect, human_bytes, runtime, utc, CanisterArg, IcArgs, Protocol,
};
use anyhow::Result;
use clap::Args;
use mo_mem::heap::render::number_rule;
use mo_mem::ic::{self, snapshot_hex, MAX_SNAPSHOTS};
use serde_json::json;

/// The IC flags of `info` (`--json` is shared with the local `info`).
#[derive(Args, Debug, Clone)]
pub struct IcInfoFlags {
    /// List this canister's snapshots on the IC (a principal or a canister_ids.json name).
    #[arg(long)]
    pub canister: Option<String>,
    /// With --canister: `ic` (mainnet), `local`, or a replica URL.
    #[arg(long, default_value = "ic")]
    pub network: String,
    /// With --canister: an icp-cli or dfx identity name, a PEM file, or `anonymous`.
    #[arg(long)]
    pub identity: Option<String>,
    /// With --canister: the snapshot API (default) or the canister-hosted protocol.
    #[arg(long, value_enum, default_value_t = Protocol::Management)]
    pub protocol: Protocol,
    /// With --canister: also read each snapshot's metadata (sizes, chunks, version).
    #[arg(long)]
    pub metadata: bool,
}

struct IcInfoArgs {
    ic: IcArgs,
    metadata: bool,
}

/// `info --canister`: lists the canister's snapshots: ID (hex), time, size, n of 10; metadata on request.
pub fn ic_info(flags: &IcInfoFlags, json: bool) -> Result<()> {
    let c = CanisterArg {
        canister: flags.canister.clone().unwrap_or_default(),
    };
    let args = IcInfoArgs {
        ic: IcArgs {
            network: flags.network.clone(),
            identity: flags.identity.clone(),
            json,
            protocol: flags.protocol,
        },
        metadata: flags.metadata,
    };
    let args = &args;
    let cid = canister(&args.ic, &c)?;
    runtime()?.block_on(async {
        let conn = connect(&args.ic).await?;
        if args.ic.protocol == Protocol::Canister {
            return hosted_info(args, &conn, cid).await;
        }
        let client = conn.canister(cid);
        let mut list = client.list().await?;
        list.sort_by_key(|s| (s.taken_at_timestamp, s.id.clone()));
        let latest = ic::latest(&list).map(|s| s.id.clone());
        let mut rows = Vec::new();
        for s in &list {
            let meta = if args.metadata {
                Some(client.metadata(&s.id).await?)
            } else {
                None
            };
            rows.push((s, meta));
        }
        if args.ic.json {
            let snaps: Vec<_> = rows
                .iter()
                .map(|(s, m)| {
                    json!({
                        "id": snapshot_hex(&s.id),
                        "taken_at_ns": s.taken_at_timestamp.to_string(),
                        "taken_at": utc(s.taken_at_timestamp),
                        "total_size": s.total_size,
                        "latest": Some(&s.id) == latest.as_ref(),
                        "metadata": m,
                    })
                })
                .collect();
            println!(
                "{}",
                serde_json::to_string_pretty(&number_rule(json!({
                    "canister": cid.to_text(),
                    "network": conn.network.label(),
                    "count": list.len(),
                    "limit": MAX_SNAPSHOTS,
                    "snapshots": snaps,
                })))?
            );
            return Ok(());
        }
        println!(
            "canister {} on {}: {} of {MAX_SNAPSHOTS} snapshots",
            cid,
            conn.network.label(),
            list.len()
        );
        for (s, m) in rows {
            let mark = if Some(&s.id) == latest.as_ref() { "  (latest)" } else { "" };
            println!(
                "  {}  {}  {}{mark}",
                snapshot_hex(&s.id),
                utc(s.taken_at_timestamp),
                human_bytes(s.total_size)
            );
            if let Some(m) = m {
                let source = match &m.source {
                    Some(ic_management_canister_types::SnapshotSource::TakenFromCanister(_)) => "taken from the canister",
                    Some(ic_management_canister_types::SnapshotSource::MetadataUpload(_)) => "uploaded",
                    None => "unknown",
                };
                println!(
                    "      {source}; module {}, main memory {}, stable memory {}, {} chunk(s), canister version {}",
                    human_bytes(m.wasm_module_size),
                    human_bytes(m.wasm_memory_size),
                    human_bytes(m.stable_memory_size),
                    m.wasm_chunk_store.len(),
                    m.canister_version
                );
            }
        }
        if list.is_empty() {
            println!("  (none: take one with `mo-mem create --canister {cid}`)");
        }
        Ok(())
    })
}

/// `info --protocol canister`: the snapshots the canister holds in its own Regions.
async fn hosted_info(
    args: &IcInfoArgs,
    conn: &mo_mem::ic::Connection,
    cid: candid::Principal,
) -> Result<()> {
    let list = conn.hosted(cid).info().await?;
    let latest = ic::hosted::latest_hosted(&list).map(|s| s.id.clone());
    if args.ic.json {
        let snaps: Vec<_> = list
            .iter()
            .map(|s| {
                json!({
                    "id": s.id.0.to_string(),
                    "taken_at_ns": s.taken_at_ns().to_string(),
                    "taken_at": utc(s.taken_at_ns()),
                    "total_size": s.size,
                    "latest": Some(&s.id) == latest.as_ref(),
                })
            })
            .collect();
        println!(
            "{}",
            serde_json::to_string_pretty(&number_rule(json!({
                "canister": cid.to_text(),
                "network": conn.network.label(),
                "protocol": "canister",
                "count": list.len(),
                "limit": MAX_SNAPSHOTS,
                "snapshots": snaps,
            })))?
        );
        return Ok(());
    }
    println!(
        "canister {cid} on {} (hosted protocol): {} of {MAX_SNAPSHOTS} snapshots",
        conn.network.label(),
        list.len()
    );
    for s in &list {
        let mark = if Some(&s.id) == latest.as_ref() {
            "  (latest)"
        } else {
            ""
        };
        println!(
            "  {}  {}  {}{mark}",
            s.id,
            utc(s.taken_at_ns()),
            human_bytes(s.size)
        );
    }
    Ok(())
}
