//! `mo-mem object`: one heap object decoded, with its outgoing references, as the mount
//! shows it in `objects/`.

use anyhow::Context;
use clap::Args;
use mo_mem::image::ReaderLimits;
use std::io::Write;

use mo_mem::serve::object_lookup::object_view_at;

use super::snapshot_args::SnapshotArgs;

/// Arguments of `mo-mem object`.
#[derive(Args, Debug)]
pub struct ObjectArgs {
    /// A snapshot directory (icp-cli/dfx layout) or a bare main-memory image (.momm).
    snapshot: std::path::PathBuf,
    /// The object address (hex with 0x, or decimal); a skewed pointer (odd) is unskewed.
    addr: String,
    /// The canister's Wasm module, for a bare image (gzip'ed or plain).
    #[arg(long, value_name = "FILE")]
    wasm: Option<std::path::PathBuf>,
    /// Print JSON instead of text (schema: docs/schemas/object.schema.json).
    #[arg(long)]
    json: bool,
}

/// An address in hex (`0x...`) or decimal; a skewed pointer word (odd) is unskewed.
pub(super) fn parse_addr(s: &str) -> anyhow::Result<u64> {
    Ok(mo_mem::serve::object_lookup::parse_address(s)?)
}

/// The number `s` spells, in hex (`0x...`) or decimal.
fn parse_number(s: &str) -> Result<u64, std::num::ParseIntError> {
    match s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
        Some(hex) => u64::from_str_radix(hex, 16),
        None => s.parse(),
    }
}

/// Runs `mo-mem object`: the JSON is the mount's `objects/…/ADDRESS.json`, byte for byte;
/// the text is printed from the same object model.
pub fn run(args: ObjectArgs, limits: ReaderLimits) -> anyhow::Result<()> {
    let opened = SnapshotArgs {
        snapshot: Some(args.snapshot.clone()),
        wasm: args.wasm.clone(),
        globals: None,
        no_verify: false,
    }
    .open_heap(limits)?;
    let addr = parse_addr(&args.addr)?;
    let view = object_view_at(&opened, addr).with_context(|| {
        match addr == parse_number(&args.addr).unwrap_or(addr) {
            true => format!("object {addr:#x}"),
            false => format!("object {addr:#x} (the pointer {} unskewed)", args.addr),
        }
    })?;
    let mut out = std::io::stdout().lock();
    if args.json {
        serde_json::to_writer_pretty(&mut out, &view.to_json())?;
        out.write_all(b"\n")?;
    } else {
        out.write_all(view.to_text().as_bytes())?;
    }
    out.flush()?;
    Ok(())
}
