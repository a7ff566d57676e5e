//! The tables of `mo-mem retained`: per stable variable, type or object, then per root kind,
//! the live heap, the garbage and what the analysis could not follow.

use std::fmt::Write;

use super::cached::HeapAnalysis;
use super::opened::OpenedHeap;
use super::types::shorten_to;

/// How the retained tables group the heap.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RetainedBy {
    /// Per stable variable.
    Var,
    /// Per Motoko type (or heap tag where the type is unknown).
    Type,
    /// The largest retainers, object by object.
    Object,
}

/// Writes one formatted line to a `String` (writing to a `String` cannot fail).
macro_rules! line {
    ($out:expr, $($arg:tt)*) => {{
        let _ = writeln!($out, $($arg)*);
    }};
}

/// The retained tables grouped `by`, `top` rows at most, as `mo-mem retained` prints them.
pub fn retained_tables(
    opened: &OpenedHeap,
    a: &HeapAnalysis,
    by: RetainedBy,
    top: usize,
) -> String {
    let mut out = String::new();
    group_table(&mut out, opened, a, by, top);
    summary(&mut out, a);
    out
}

/// The share of the live heap's bytes that `bytes` is (`-` when the live heap is empty).
fn share(bytes: u64, live: u64) -> String {
    match live {
        0 => "-".to_string(),
        l => format!("{:.1}%", bytes as f64 * 100.0 / l as f64),
    }
}

/// The first table: one row per variable, type or object.
fn group_table(
    out: &mut String,
    opened: &OpenedHeap,
    a: &HeapAnalysis,
    by: RetainedBy,
    top: usize,
) {
    let vars = a.vars();
    let live = a.live().bytes;
    let share = |bytes: u64| share(bytes, live);
    match by {
        RetainedBy::Var => {
            line!(
                out,
                "{:<24} {:>10} {:>12} {:>10} {:>12} {:>7}",
                "variable",
                "reachable",
                "bytes",
                "retained",
                "bytes",
                "share"
            );
            for v in vars.iter().take(top) {
                line!(
                    out,
                    "{:<24} {:>10} {:>12} {:>10} {:>12} {:>7}",
                    v.name,
                    v.reachable.objects,
                    v.reachable.bytes,
                    v.retained.objects,
                    v.retained.bytes,
                    share(v.retained.bytes)
                );
            }
            if vars.len() > top {
                line!(out, "({} more variables)", vars.len() - top);
            }
        }
        RetainedBy::Type => {
            let types = a.types(opened);
            line!(
                out,
                "{:<32} {:>8} {:>10} {:>8} {:>10} {:>7}",
                "type",
                "objects",
                "bytes",
                "retained",
                "bytes",
                "share"
            );
            for t in types.iter().take(top) {
                let name = if t.typed {
                    t.name.to_string()
                } else {
                    format!("<{}>", t.name)
                };
                let name = shorten_to(name, 32);
                line!(
                    out,
                    "{:<32} {:>8} {:>10} {:>8} {:>10} {:>7}",
                    name,
                    t.shallow.objects,
                    t.shallow.bytes,
                    t.retained.objects,
                    t.retained.bytes,
                    share(t.retained.bytes)
                );
            }
            if types.len() > top {
                line!(out, "({} more types)", types.len() - top);
            }
        }
        RetainedBy::Object => {
            line!(
                out,
                "{:<14} {:<10} {:>10} {:>10} {:>12} {:>7}",
                "address",
                "tag",
                "size",
                "retained",
                "bytes",
                "share"
            );
            for r in a.top(opened.heap(), top) {
                line!(
                    out,
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
}

/// The tables after it: per root kind, then the live heap, the garbage, stale copies and
/// what the analysis could not follow.
fn summary(out: &mut String, a: &HeapAnalysis) {
    let roots = a.roots();
    let live = a.live();
    let garbage = a.garbage();
    let g = a.graph();
    out.push('\n');
    line!(
        out,
        "{:<24} {:>10} {:>10} {:>12}",
        "root kind",
        "roots",
        "retained",
        "bytes"
    );
    for r in roots.iter().filter(|r| r.roots > 0) {
        line!(
            out,
            "{:<24} {:>10} {:>10} {:>12}",
            r.kind,
            r.roots,
            r.retained.objects,
            r.retained.bytes
        );
    }
    out.push('\n');
    line!(
        out,
        "{:<24} {:>10} {:>12}",
        "live",
        live.objects,
        live.bytes
    );
    line!(
        out,
        "{:<24} {:>10} {:>12}",
        "garbage",
        garbage.objects,
        garbage.bytes
    );
    if g.stale().objects > 0 {
        line!(
            out,
            "{:<24} {:>10} {:>12}",
            "stale copies",
            g.stale().objects,
            g.stale().bytes
        );
    }
    if let Some(e) = g.vars_error() {
        line!(out, "stable variables: {e}");
    }
    for e in g.errors() {
        line!(out, "error: {e}");
    }
}
