//! `mo-mem object`: one heap object decoded, with its outgoing references, as the mount
//! shows it in `objects/`.

use anyhow::Context;
use clap::Args;
use mo_mem::image::ReaderLimits;
use serde_json::Value;
use std::io::Write;

use mo_mem::vfs::heap_source::HeapDecoder;

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
    /// Print JSON instead of text.
    #[arg(long)]
    json: bool,
}

/// An address in hex (`0x...`) or decimal; a skewed pointer word (odd) is unskewed.
pub(super) fn parse_addr(s: &str) -> anyhow::Result<u64> {
    let v = match s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
        Some(hex) => u64::from_str_radix(hex, 16),
        None => s.parse(),
    };
    let v = v.with_context(|| format!("invalid address {s:?}"))?;
    Ok(if v & 1 == 1 { v.wrapping_add(1) } else { v })
}

/// Keys of the object JSON that the text form prints in its first lines.
const HEADER_KEYS: [&str; 6] = [
    "address",
    "tag",
    "size",
    "forwarded_to",
    "references",
    "references_total",
];

/// Runs `mo-mem object`: the JSON is the mount's `objects/…/ADDRESS.json`, byte for byte.
pub fn run(args: ObjectArgs, limits: ReaderLimits) -> anyhow::Result<()> {
    let opened = SnapshotArgs {
        snapshot: Some(args.snapshot.clone()),
        wasm: args.wasm.clone(),
        globals: None,
        no_verify: false,
    }
    .open_heap(limits)?;
    let addr = parse_addr(&args.addr)?;
    let bytes = HeapDecoder::decoded(opened)
        .objects()
        .and_then(|objects| objects.object_json(addr))
        .with_context(|| format!("no object at {addr:#x}"))?;
    if args.json {
        let mut out = std::io::stdout().lock();
        out.write_all(&bytes)?;
        out.write_all(b"\n")?;
        return Ok(());
    }
    let json: Value = serde_json::from_slice(&bytes)?;
    let text = |key: &str| json[key].as_str().unwrap_or("?").to_string();
    println!(
        "{}: {} ({} bytes)",
        text("address"),
        text("tag"),
        json["size"]
    );
    if let Some(target) = json["forwarded_to"].as_str() {
        println!("  forwarded to {target}");
    }
    if let Value::Object(map) = &json {
        for (key, value) in map
            .iter()
            .filter(|(k, _)| !HEADER_KEYS.contains(&k.as_str()))
        {
            match value {
                // Fields, elements, captures: one per line.
                Value::Array(items) if !items.is_empty() => {
                    println!("  {key}:");
                    for item in items {
                        println!("    {item}");
                    }
                }
                _ => println!("  {key}: {value}"),
            }
        }
    }
    let references: Vec<&str> = json["references"]
        .as_array()
        .map(|refs| refs.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let more = match json["references_total"].as_u64() {
        Some(total) => format!(" (of {total})"),
        None => String::new(),
    };
    println!("  references{more}: {}", references.join(" "));
    Ok(())
}
