//! `mo-mem path SNAPSHOT ADDR`: the shortest path from a root to an object, as a Motoko
//! access path (`vars.people[3].name`), or why there is none (garbage, not an object).

use anyhow::bail;
use clap::Args;
use mo_mem::analysis::path::path_to;
use mo_mem::image::ReaderLimits;

use super::object::parse_addr;
use super::progress::analyse;
use super::snapshot_args::SnapshotArgs;

/// Arguments of `mo-mem path`.
#[derive(Args, Debug)]
pub struct PathArgs {
    #[command(flatten)]
    snapshot: SnapshotArgs,
    /// The object's address (hex `0x...` or decimal; a pointer word is unskewed).
    addr: Option<String>,
    /// Print JSON: {"address", "path", "root", "steps": [{"step", "address"}]} (schema:
    /// docs/schemas/path.schema.json).
    #[arg(long)]
    json: bool,
}

/// Runs `mo-mem path`.
pub fn run(args: PathArgs, limits: ReaderLimits) -> anyhow::Result<()> {
    let Some(addr) = args.addr.as_deref() else {
        bail!("give the object's address: mo-mem path SNAPSHOT ADDR");
    };
    let addr = parse_addr(addr)?;
    let opened = args.snapshot.open_heap(limits)?;
    let a = analyse(&opened, false)?;
    let a = &*a;
    let (addr, path) = path_to(&opened, a, addr)?;
    if args.json {
        println!("{}", serde_json::to_string_pretty(&path.to_json(addr))?);
    } else {
        println!("{}", path.text());
    }
    Ok(())
}
