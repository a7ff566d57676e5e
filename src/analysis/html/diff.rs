//! The diff page (`mo-mem diff --html`): the growth suspects, the variables (retained bytes
//! before and after, what happened to each value), the types that changed, the space, and
//! the differential flame graph (grown red, shrunk blue).

use super::inline::inline_svg;
use super::page::Page;
use super::table::{Cell, Sort, Table};
use super::HtmlError;
use crate::analysis::diff::row::delta;
use crate::analysis::diff::summary::value_text;
use crate::analysis::diff::SnapshotDiff;
use crate::analysis::flame::diff_svg;
use crate::analysis::OpenedHeap;

/// The diff page of `d`, the diff of `old` and `new` (both are analysed for the flame graph
/// if they are not yet).
pub fn diff_html(
    old: &OpenedHeap,
    new: &OpenedHeap,
    d: &SnapshotDiff,
) -> Result<Vec<u8>, HtmlError> {
    let svg = inline_svg(&diff_svg(old, new)?)?;
    let (o, n) = (&d.old.space, &d.new.space);
    let mut page = Page::new(
        "mo-mem diff",
        &format!(
            "live heap {} -> {} bytes ({} bytes), {} -> {} objects",
            o.live.bytes,
            n.live.bytes,
            signed(delta(Some(o.live.bytes), Some(n.live.bytes))),
            o.live.objects,
            n.live.objects
        ),
    );
    let out = page.section("suspects", "Growth suspects");
    out.push_str(
        "<p>The variables and types whose retained bytes grew most, each with a path in the \
         newer snapshot (for a type: to its object retaining the most).</p>\n",
    );
    suspects_table(d).html(out);
    page.end_section();
    let out = page.section("vars", "Stable variables");
    vars_table(d).html(out);
    page.end_section();
    let out = page.section("types", "Types");
    types_table(d).html(out);
    page.end_section();
    let out = page.section("space", "Space");
    space_table(d).html(out);
    page.end_section();
    let out = page.section("flame", "Differential flame graph");
    out.push_str(
        "<p>Frames are matched by path and type; their widths are the newer snapshot's \
         retained bytes, red where they grew and blue where they shrank. Click a frame to \
         zoom into it.</p>\n",
    );
    page.flame(svg);
    page.end_section();
    page.finish(&[
        ("suspects", "Suspects"),
        ("vars", "Variables"),
        ("types", "Types"),
        ("space", "Space"),
        ("flame", "Flame graph"),
    ])
}

/// `+5`, `-3`, `0`.
fn signed(d: i64) -> String {
    match d > 0 {
        true => format!("+{d}"),
        false => d.to_string(),
    }
}

/// A byte count that may be missing (`-`: not in that snapshot).
fn maybe(n: Option<u64>) -> Cell {
    n.map_or(Cell::Empty, |n| Cell::Int(i128::from(n)))
}

/// The growth suspects.
fn suspects_table(d: &SnapshotDiff) -> Table {
    let mut t = Table::new(
        "suspects-table",
        "most grown first",
        &[
            ("kind", Sort::Text),
            ("name", Sort::Text),
            ("old bytes", Sort::Num),
            ("new bytes", Sort::Num),
            ("grew", Sort::Num),
            ("path", Sort::Text),
        ],
    );
    for s in &d.suspects {
        t.push(vec![
            Cell::Text(s.kind.to_string()),
            Cell::Text(s.name.clone()),
            Cell::Int(i128::from(s.old_bytes)),
            Cell::Int(i128::from(s.new_bytes)),
            Cell::Int(i128::from(s.grew_bytes)),
            Cell::Path(s.path.clone()),
        ]);
    }
    t
}

/// Every variable of either snapshot.
fn vars_table(d: &SnapshotDiff) -> Table {
    let mut t = Table::new(
        "vars-table",
        "in name order; retained bytes",
        &[
            ("variable", Sort::Text),
            ("old", Sort::Num),
            ("new", Sort::Num),
            ("change", Sort::Num),
            ("value", Sort::Text),
        ],
    )
    .of_total(d.vars.len());
    for v in &d.vars {
        t.push(vec![
            Cell::Text(v.name.clone()),
            maybe(v.old.as_ref().map(|x| x.retained.bytes)),
            maybe(v.new.as_ref().map(|x| x.retained.bytes)),
            Cell::Int(i128::from(v.retained_delta())),
            Cell::Text(value_text(v)),
        ]);
    }
    t
}

/// The types, most grown first.
fn types_table(d: &SnapshotDiff) -> Table {
    let mut t = Table::new(
        "types-table",
        "most grown first (a heap tag in angle brackets where no type reaches an object)",
        &[
            ("type", Sort::Text),
            ("old objects", Sort::Num),
            ("new objects", Sort::Num),
            ("objects change", Sort::Num),
            ("old retained", Sort::Num),
            ("new retained", Sort::Num),
            ("retained change", Sort::Num),
        ],
    )
    .of_total(d.types.len());
    for ty in &d.types {
        let name = match ty.typed {
            true => ty.name.clone(),
            false => format!("<{}>", ty.name),
        };
        t.push(vec![
            Cell::Text(name),
            maybe(ty.old.as_ref().map(|x| x.shallow.objects)),
            maybe(ty.new.as_ref().map(|x| x.shallow.objects)),
            Cell::Int(i128::from(ty.objects_delta())),
            maybe(ty.old.as_ref().map(|x| x.retained.bytes)),
            maybe(ty.new.as_ref().map(|x| x.retained.bytes)),
            Cell::Int(i128::from(ty.retained_delta())),
        ]);
    }
    t
}

/// The heap's space before and after.
fn space_table(d: &SnapshotDiff) -> Table {
    let (o, n) = (&d.old.space, &d.new.space);
    let mut t = Table::new(
        "space-table",
        "bytes",
        &[
            ("space", Sort::Text),
            ("old", Sort::Num),
            ("new", Sort::Num),
            ("change", Sort::Num),
        ],
    );
    for (what, a, b) in [
        ("live", o.live.bytes, n.live.bytes),
        ("garbage", o.garbage.bytes, n.garbage.bytes),
        ("free", o.free.bytes, n.free.bytes),
        ("never used", o.unused_bytes, n.unused_bytes),
        ("heap", o.heap_bytes, n.heap_bytes),
        ("main memory", o.image_bytes, n.image_bytes),
    ] {
        t.push(vec![
            Cell::Text(what.to_string()),
            Cell::Int(i128::from(a)),
            Cell::Int(i128::from(b)),
            Cell::Int(i128::from(delta(Some(a), Some(b)))),
        ]);
    }
    t
}
