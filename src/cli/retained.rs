//! `mo-mem retained`: what holds the memory: per stable variable, Motoko type or object, the objects and
//! bytes reachable from it and retained by it, per root kind, and the garbage.

use clap::{Args, ValueEnum};
use mo_mem::image::ReaderLimits;
use serde::Serialize;

use mo_mem::analysis::path::Paths;
use mo_mem::analysis::retained::{Analysis, RootRetention, VarRetention};
use mo_mem::analysis::types::{by_type, TypeLabels};

use super::snapshot_args::SnapshotArgs;

/// How `retained` groups the heap.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum By {
    /// Per stable variable.
    Var,
    /// Per Motoko type (objects no type reaches: per heap tag).
    Type,
    /// The largest retainers, object by object.
    Object,
}

/// Arguments of `mo-mem retained`.
#[derive(Args, Debug)]
pub struct RetainedArgs {
    #[command(flatten)]
    snapshot: SnapshotArgs,
    /// What to list: stable variables, heap tags, or single objects.
    #[arg(long, value_enum, default_value = "var")]
    by: By,
    /// How many rows (and `top` retainers in JSON).
    #[arg(long, default_value_t = 20)]
    top: usize,
    /// Print JSON instead of a table.
    #[arg(long)]
    json: bool,
}

/// One stable variable in the JSON.
#[derive(Serialize)]
struct JsonVar<'a> {
    name: &'a str,
    address: Option<String>,
    reachable_objects: u64,
    reachable_bytes: u64,
    retained_objects: u64,
    retained_bytes: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<&'a str>,
}

impl<'a> From<&'a VarRetention> for JsonVar<'a> {
    fn from(v: &'a VarRetention) -> Self {
        JsonVar {
            name: &v.name,
            address: v.address.map(|a| format!("{a:#x}")),
            reachable_objects: v.reachable.objects,
            reachable_bytes: v.reachable.bytes,
            retained_objects: v.retained.objects,
            retained_bytes: v.retained.bytes,
            error: v.error.as_deref(),
        }
    }
}

/// One retainer in the JSON.
#[derive(Serialize)]
struct JsonTop {
    address: String,
    tag: &'static str,
    /// Its Motoko type (its tag if no type reaches it).
    #[serde(rename = "type")]
    ty: String,
    /// Its shortest path from a root (`vars.m.get(7)`).
    path: Option<String>,
    size: u64,
    retained_objects: u64,
    retained_bytes: u64,
}

/// One root kind in the JSON.
#[derive(Serialize)]
struct JsonRoot {
    kind: &'static str,
    roots: u64,
    objects: u64,
    bytes: u64,
}

impl From<&RootRetention> for JsonRoot {
    fn from(r: &RootRetention) -> Self {
        JsonRoot {
            kind: r.kind,
            roots: r.roots,
            objects: r.retained.objects,
            bytes: r.retained.bytes,
        }
    }
}

/// One type in the JSON.
#[derive(Serialize)]
struct JsonType<'a> {
    #[serde(rename = "type")]
    name: &'a str,
    typed: bool,
    objects: u64,
    bytes: u64,
    retained_objects: u64,
    retained_bytes: u64,
}

/// Objects and bytes.
#[derive(Serialize)]
struct JsonCount {
    objects: u64,
    bytes: u64,
}

/// The whole JSON answer.
#[derive(Serialize)]
struct Json<'a> {
    vars: Vec<JsonVar<'a>>,
    top: Vec<JsonTop>,
    roots: Vec<JsonRoot>,
    types: Vec<JsonType<'a>>,
    live: JsonCount,
    garbage: JsonCount,
    stale_copies: JsonCount,
    skipped_references: mo_mem::analysis::graph::Skipped,
    #[serde(skip_serializing_if = "Option::is_none")]
    vars_error: Option<&'a str>,
    errors: &'a [String],
}

/// Runs `mo-mem retained`.
pub fn run(args: RetainedArgs, limits: ReaderLimits) -> anyhow::Result<()> {
    let opened = args.snapshot.open_heap(limits)?;
    let heap = opened.heap();
    let a = Analysis::new(heap)?;
    let vars = a.vars();
    let roots = a.roots();
    let live = a.live();
    let garbage = a.garbage();
    let g = a.graph();
    let labels = (args.json || args.by == By::Type)
        .then(|| TypeLabels::compute(heap, g, opened.signature().ok()));
    let types = labels
        .as_ref()
        .map(|l| by_type(heap, &a, l))
        .unwrap_or_default();
    if args.json {
        let paths = Paths::new(g);
        let json = Json {
            vars: vars.iter().map(JsonVar::from).collect(),
            top: a
                .top(heap, args.top)
                .into_iter()
                .map(|r| JsonTop {
                    address: format!("{:#x}", r.address),
                    tag: r.tag,
                    ty: labels
                        .as_ref()
                        .and_then(|l| l.label(r.node))
                        .map_or_else(|| r.tag.to_string(), |l| l.to_string()),
                    path: paths
                        .typed_path(heap, g, opened.signature().ok(), opened.labels(), r.node)
                        .map(|p| p.text()),
                    size: r.size,
                    retained_objects: r.retained.objects,
                    retained_bytes: r.retained.bytes,
                })
                .collect(),
            roots: roots.iter().map(JsonRoot::from).collect(),
            types: types
                .iter()
                .take(args.top)
                .map(|t| JsonType {
                    name: &t.name,
                    typed: t.typed,
                    objects: t.shallow.objects,
                    bytes: t.shallow.bytes,
                    retained_objects: t.retained.objects,
                    retained_bytes: t.retained.bytes,
                })
                .collect(),
            live: JsonCount {
                objects: live.objects,
                bytes: live.bytes,
            },
            garbage: JsonCount {
                objects: garbage.objects,
                bytes: garbage.bytes,
            },
            stale_copies: JsonCount {
                objects: g.stale().objects,
                bytes: g.stale().bytes,
            },
            skipped_references: g.skipped(),
            vars_error: g.vars_error(),
            errors: g.errors(),
        };
        println!("{}", serde_json::to_string_pretty(&json)?);
        return Ok(());
    }
    let share = |bytes: u64| match live.bytes {
        0 => "-".to_string(),
        l => format!("{:.1}%", bytes as f64 * 100.0 / l as f64),
    };
    match args.by {
        By::Var => {
            println!(
                "{:<24} {:>10} {:>12} {:>10} {:>12} {:>7}",
                "variable", "reachable", "bytes", "retained", "bytes", "share"
            );
            for v in vars.iter().take(args.top) {
                println!(
                    "{:<24} {:>10} {:>12} {:>10} {:>12} {:>7}",
                    v.name,
                    v.reachable.objects,
                    v.reachable.bytes,
                    v.retained.objects,
                    v.retained.bytes,
                    share(v.retained.bytes)
                );
            }
            if vars.len() > args.top {
                println!("({} more variables)", vars.len() - args.top);
            }
        }
        By::Type => {
            println!(
                "{:<32} {:>8} {:>10} {:>8} {:>10} {:>7}",
                "type", "objects", "bytes", "retained", "bytes", "share"
            );
            for t in types.iter().take(args.top) {
                let name = if t.typed {
                    t.name.to_string()
                } else {
                    format!("<{}>", t.name)
                };
                let name = if name.chars().count() > 32 {
                    let mut short: String = name.chars().take(31).collect();
                    short.push('…');
                    short
                } else {
                    name
                };
                println!(
                    "{:<32} {:>8} {:>10} {:>8} {:>10} {:>7}",
                    name,
                    t.shallow.objects,
                    t.shallow.bytes,
                    t.retained.objects,
                    t.retained.bytes,
                    share(t.retained.bytes)
                );
            }
            if types.len() > args.top {
                println!("({} more types)", types.len() - args.top);
            }
        }
        By::Object => {
            println!(
                "{:<14} {:<10} {:>10} {:>10} {:>12} {:>7}",
                "address", "tag", "size", "retained", "bytes", "share"
            );
            for r in a.top(heap, args.top) {
                println!(
                    "{:<14} {:<10} {:>10} {:>10} {:>12} {:>7}",
                    format!("{:#x}", r.address),
                    r.tag,
                    r.size,
                    r.retained.objects,
                    r.retained.bytes,
                    share(r.retained.bytes)
                );
            }
        }
    }
    println!();
    println!(
        "{:<24} {:>10} {:>10} {:>12}",
        "root kind", "roots", "retained", "bytes"
    );
    for r in roots.iter().filter(|r| r.roots > 0) {
        println!(
            "{:<24} {:>10} {:>10} {:>12}",
            r.kind, r.roots, r.retained.objects, r.retained.bytes
        );
    }
    println!();
    println!("{:<24} {:>10} {:>12}", "live", live.objects, live.bytes);
    println!(
        "{:<24} {:>10} {:>12}",
        "garbage", garbage.objects, garbage.bytes
    );
    if g.stale().objects > 0 {
        println!(
            "{:<24} {:>10} {:>12}",
            "stale copies",
            g.stale().objects,
            g.stale().bytes
        );
    }
    if let Some(e) = g.vars_error() {
        println!("stable variables: {e}");
    }
    for e in g.errors() {
        println!("error: {e}");
    }
    Ok(())
}
