//! `mo-mem object`: one heap object decoded, with its outgoing references.

use anyhow::Context;
use clap::Args;
use serde_json::{json, Value};

use mo_mem::heap::{Body, Heap, Object};

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

fn parse_addr(s: &str) -> anyhow::Result<u64> {
    let v = match s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
        Some(hex) => u64::from_str_radix(hex, 16),
        None => s.parse(),
    };
    let v = v.with_context(|| format!("invalid address {s:?}"))?;
    Ok(if v & 1 == 1 { v.wrapping_add(1) } else { v })
}

const MAX_LISTED: u64 = 64;

fn words(w: mo_mem::heap::Words<'_>) -> Value {
    let shown: Vec<String> = w
        .iter()
        .take(MAX_LISTED as usize)
        .map(|v| format!("{v:#x}"))
        .collect();
    json!({ "len": w.len(), "words": shown, "truncated": w.len() > MAX_LISTED })
}

fn body_json(heap: &Heap, obj: &Object<'_>) -> Value {
    match obj.body {
        Body::Object { hashes, fields, .. } => json!({
            "hashes": hashes.iter().take(MAX_LISTED as usize).collect::<Vec<_>>(),
            "fields": words(fields),
        }),
        Body::Array {
            elems, slice_index, ..
        } => json!({ "elements": words(elems), "slice_index": slice_index }),
        Body::Bits64 { bits, .. } => json!({ "bits": format!("{bits:#x}") }),
        Body::Bits32 { bits, .. } => json!({ "bits": format!("{bits:#x}") }),
        Body::MutBox { value } | Body::Some { value } => json!({ "value": format!("{value:#x}") }),
        Body::Closure { funid, captured } => json!({
            "funid": funid,
            "function": heap.function_name(funid),
            "captured": words(captured),
        }),
        Body::Variant { hash, payload } => {
            json!({ "hash": hash, "payload": format!("{payload:#x}") })
        }
        Body::Blob { bytes, .. } => {
            let shown = &bytes[..bytes.len().min(256)];
            json!({ "len": bytes.len(), "hex": hex::encode(shown), "text": String::from_utf8_lossy(shown), "truncated": bytes.len() > 256 })
        }
        Body::BigInt {
            negative,
            used,
            alloc,
            digits,
            digit_bits,
        } => json!({
            "negative": negative, "used": used, "alloc": alloc, "digit_bits": digit_bits, "digits": words(digits),
        }),
        Body::Concat {
            n_bytes,
            left,
            right,
        } => {
            json!({ "n_bytes": n_bytes, "left": format!("{left:#x}"), "right": format!("{right:#x}") })
        }
        Body::Region {
            id,
            page_count,
            vec_pages,
        } => json!({ "id": id, "page_count": page_count, "vec_pages": format!("{vec_pages:#x}") }),
        Body::WeakRef { target } => json!({ "target": format!("{target:#x}") }),
        Body::FwdPtr { target } => json!({ "target": format!("{target:#x}") }),
        _ => json!({}),
    }
}

/// Runs `mo-mem object`.
pub fn run(args: ObjectArgs) -> anyhow::Result<()> {
    let heap = SnapshotArgs {
        snapshot: Some(args.snapshot.clone()),
        wasm: args.wasm.clone(),
        globals: None,
        no_verify: false,
    }
    .open_heap()?;
    let addr = parse_addr(&args.addr)?;
    let obj = heap
        .object(addr)
        .with_context(|| format!("no object at {addr:#x}"))?;
    let refs: Vec<String> = obj
        .references()
        .take(MAX_LISTED as usize)
        .map(|w| format!("{:#x}", w.wrapping_add(1)))
        .collect();
    let out = json!({
        "addr": format!("{addr:#x}"),
        "tag": obj.tag.name(),
        "raw_tag": format!("{:#x}", obj.raw_tag),
        "size": obj.size,
        "forwarded_to": obj.forwarded_to().map(|a| format!("{a:#x}")),
        "body": body_json(&heap, &obj),
        "references": refs,
    });
    if args.json {
        println!("{}", serde_json::to_string_pretty(&out)?);
    } else {
        println!("{:#x}: {} ({} bytes)", addr, obj.tag.name(), obj.size);
        if let Some(f) = obj.forwarded_to() {
            println!("  forwarded to {f:#x}");
        }
        if let Value::Object(map) = &out["body"] {
            for (k, v) in map {
                println!("  {k}: {v}");
            }
        }
        println!("  references: {}", refs.join(" "));
    }
    Ok(())
}
