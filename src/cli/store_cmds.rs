//! `mo-mem verify` and `mo-mem import`: checking and adopting snapshots in the local store.

use super::ic_common::StoreArgs;
use anyhow::{bail, Result};
use clap::Args;
use mo_mem::heap::render::number_rule;
use mo_mem::store::{self, ImportRequest, Manifest};
use serde_json::json;
use std::path::PathBuf;

/// Flags of `verify`.
#[derive(Args, Debug, Clone)]
pub struct VerifyArgs {
    /// Snapshot directories to verify (default: every snapshot in the store).
    pub paths: Vec<PathBuf>,
    #[command(flatten)]
    pub store: StoreArgs,
    /// Print machine-readable JSON on stdout (schema: docs/schemas/verify.schema.json).
    #[arg(long)]
    pub json: bool,
}

/// Verifies manifests and files; fails if any snapshot does not verify, naming the file.
pub fn verify(args: &VerifyArgs) -> Result<()> {
    let (store, key) = args.store.open()?;
    let dirs: Vec<PathBuf> = if args.paths.is_empty() {
        store.list()?.into_iter().map(|s| s.dir).collect()
    } else {
        args.paths.clone()
    };
    let mut results = Vec::new();
    let mut failed = 0;
    for dir in &dirs {
        match Manifest::verify(dir, &key) {
            Ok(m) => {
                if !args.json {
                    println!(
                        "ok      {}  ({} files; canister {}, snapshot {}, from {})",
                        dir.display(),
                        m.files.len(),
                        m.source.canister,
                        m.source.snapshot,
                        m.source.network
                    );
                }
                results.push(json!({"dir": dir, "ok": true, "source": m.source}));
            }
            Err(e) => {
                failed += 1;
                if !args.json {
                    println!("FAILED  {}: {e}", dir.display());
                }
                results.push(json!({"dir": dir, "ok": false, "error": e.to_string()}));
            }
        }
    }
    if args.json {
        println!(
            "{}",
            serde_json::to_string_pretty(&number_rule(json!({"snapshots": results})))?
        );
    } else if dirs.is_empty() {
        println!("no snapshots in {}", store.root().display());
    }
    if failed > 0 {
        bail!("{failed} of {} snapshot(s) do not verify", dirs.len());
    }
    Ok(())
}

/// Flags of `import`.
#[derive(Args, Debug, Clone)]
pub struct ImportArgs {
    /// A snapshot directory downloaded by icp-cli or dfx.
    pub dir: PathBuf,
    /// The canister it was downloaded from (principal).
    #[arg(long)]
    pub canister: String,
    /// Its snapshot ID in hex, if known.
    #[arg(long)]
    pub snapshot: Option<String>,
    /// The network it came from, recorded in the manifest.
    #[arg(long, default_value = "import")]
    pub network: String,
    /// Vouch that the directory is an untampered download: mo-mem cannot check where it came from.
    #[arg(long)]
    pub trust: bool,
    #[command(flatten)]
    pub store: StoreArgs,
    /// Print machine-readable JSON on stdout (schema: docs/schemas/import.schema.json).
    #[arg(long)]
    pub json: bool,
}

/// Adopts a download into the store after the user vouches for it.
pub fn import(args: &ImportArgs) -> Result<()> {
    if !args.trust {
        bail!(
            "mo-mem cannot tell where {} came from or whether it was modified; if you vouch that it is an untampered download of canister {}, run again with --trust",
            args.dir.display(),
            args.canister
        );
    }
    candid::Principal::from_text(&args.canister)
        .map_err(|e| anyhow::anyhow!("--canister {:?}: not a principal: {e}", args.canister))?;
    if let Some(s) = &args.snapshot {
        mo_mem::ic::parse_snapshot_hex(s)?;
    }
    let (store, key) = args.store.open()?;
    let dest = store::import(
        &store,
        &key,
        &args.dir,
        &ImportRequest {
            canister: args.canister.clone(),
            snapshot: args.snapshot.clone(),
            network: args.network.clone(),
        },
    )?;
    if args.json {
        let manifest = Manifest::verify(&dest, &key)?;
        let doc = json!({"dir": dest, "source": manifest.source});
        println!("{}", serde_json::to_string_pretty(&number_rule(doc))?);
    } else {
        println!(
            "imported into {} (checked, manifest written)",
            dest.display()
        );
    }
    Ok(())
}
