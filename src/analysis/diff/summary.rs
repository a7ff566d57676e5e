//! The diff as text: `mo-mem diff` prints it, the mount's `summary.txt` is it. Growth
//! suspects first, then the variables, the types that changed most and the space.

use std::fmt::Write;

use super::row::delta;
use super::values::ValueChange;
use super::vars::VarDiff;
use super::SnapshotDiff;

/// How many types the text lists (largest growth first, then largest shrinking).
pub const TEXT_TYPES: usize = 10;

fn signed(d: i64) -> String {
    if d > 0 {
        format!("+{d}")
    } else {
        d.to_string()
    }
}

/// What happened to a variable's value, in a few words (`same`, `changed at .name`, a
/// collection's keys).
pub fn value_text(v: &VarDiff) -> String {
    let mut out = match (&v.old, &v.new, &v.value) {
        (None, _, _) => "new variable".to_string(),
        (_, None, _) => "gone".to_string(),
        (_, _, Some(ValueChange::Same)) => "same".to_string(),
        (_, _, Some(ValueChange::Changed { at })) if at.is_empty() => "changed".to_string(),
        (_, _, Some(ValueChange::Changed { at })) => format!("changed at {at}"),
        (_, _, Some(ValueChange::Unknown(e))) => format!("not compared: {e}"),
        (_, _, None) => "not compared".to_string(),
    };
    if let Some(c) = &v.collection {
        collection_text(&mut out, "", c);
    }
    for inner in &v.inner {
        collection_text(&mut out, &format!("{}: ", inner.path), &inner.diff);
    }
    out
}

/// Appends one collection's comparison (`; Map 100 -> 140 entries: ...`), its path first.
fn collection_text(
    out: &mut String,
    path: &str,
    c: &Result<super::collections::CollectionDiff, super::collections::CollectionError>,
) {
    match c {
        Ok(c) => {
            let k = &c.keys;
            let _ = write!(
                out,
                "; {path}{} {} -> {} entries: +{} -{} ~{}",
                c.collection, c.old_entries, c.new_entries, k.added, k.removed, k.changed
            );
            for (what, first) in [
                ("added", &k.first_added),
                ("removed", &k.first_removed),
                ("changed", &k.first_changed),
            ] {
                if let Some(key) = first {
                    let _ = write!(out, ", first {what} {key}");
                }
            }
        }
        Err(e) => {
            let _ = write!(out, "; {path}entries not compared: {e}");
        }
    }
}

/// The text of `d`.
pub fn summary_text(d: &SnapshotDiff) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "growth suspects (retained bytes):");
    if d.suspects.is_empty() {
        let _ = writeln!(s, "  (nothing grew)");
    }
    for x in &d.suspects {
        let _ = writeln!(
            s,
            "  {:<4} {:<28} {:>10} -> {:>10} {:>11}  {}",
            x.kind,
            x.name,
            x.old_bytes,
            x.new_bytes,
            signed(x.grew_bytes as i64),
            x.path.as_deref().unwrap_or("-")
        );
    }
    let _ = writeln!(s, "\nvariables (retained bytes):");
    for v in &d.vars {
        let _ = writeln!(
            s,
            "  {:<24} {:>10} -> {:>10} {:>11}  {}",
            v.name,
            v.old
                .as_ref()
                .map_or("-".into(), |x| x.retained.bytes.to_string()),
            v.new
                .as_ref()
                .map_or("-".into(), |x| x.retained.bytes.to_string()),
            signed(v.retained_delta()),
            value_text(v)
        );
    }
    let _ = writeln!(s, "\ntypes (objects, retained bytes):");
    let changed: Vec<_> = d
        .types
        .iter()
        .filter(|t| t.retained_delta() != 0 || t.objects_delta() != 0)
        .collect();
    let shown = changed.len().min(TEXT_TYPES);
    for t in changed.iter().take(shown) {
        let objs = |r: &Option<crate::analysis::cached::TypeRow>| {
            r.as_ref().map_or(0, |x| x.shallow.objects)
        };
        let _ = writeln!(
            s,
            "  {:<28} {:>8} -> {:>8} {:>9}  {:>10} -> {:>10} {:>11}",
            t.name,
            objs(&t.old),
            objs(&t.new),
            signed(t.objects_delta()),
            t.old.as_ref().map_or(0, |x| x.retained.bytes),
            t.new.as_ref().map_or(0, |x| x.retained.bytes),
            signed(t.retained_delta())
        );
    }
    if changed.len() > shown {
        let _ = writeln!(s, "  ({} more types changed)", changed.len() - shown);
    }
    let (o, n) = (&d.old.space, &d.new.space);
    let _ = writeln!(s, "\nspace (bytes):");
    for (what, a, b) in [
        ("live", o.live.bytes, n.live.bytes),
        ("garbage", o.garbage.bytes, n.garbage.bytes),
        ("free", o.free.bytes, n.free.bytes),
        ("never used", o.unused_bytes, n.unused_bytes),
        ("heap", o.heap_bytes, n.heap_bytes),
    ] {
        let _ = writeln!(
            s,
            "  {:<12} {:>12} -> {:>12} {:>12}",
            what,
            a,
            b,
            signed(delta(Some(a), Some(b)))
        );
    }
    grown_waste(&mut s, d);
    s
}

/// The doctor's findings whose saving grew (a duplicate count that doubled is the leak),
/// most grown first, with the factor when it at least doubled.
fn grown_waste(s: &mut String, d: &SnapshotDiff) {
    let _ = writeln!(s, "\nwaste that grew (mo-mem doctor, saving bytes):");
    let grown = super::waste::grown_waste(&d.old, &d.new);
    if grown.is_empty() {
        let _ = writeln!(s, "  (no finding grew)");
    }
    for g in grown {
        let (o_saving, saving) = (g.old_saving(), g.new.saving_bytes);
        let factor = match o_saving {
            0 => "new".to_string(),
            o if saving >= 2 * o => format!("x{:.1}", saving as f64 / o as f64),
            _ => String::new(),
        };
        let _ = writeln!(
            s,
            "  {:<24} {:>10} -> {:>10} {:>11}  {}",
            g.check,
            o_saving,
            saving,
            signed(g.saving_bytes_delta),
            factor
        );
    }
}
