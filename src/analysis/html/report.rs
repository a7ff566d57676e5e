//! The report page (`mo-mem report --html`, the mount's `analysis/report.html`): the space
//! table, the suspects, the stable variables, the types and the top objects as sortable tables
//! with their paths, and the retained flame graph.

use std::collections::HashMap;

use super::findings::{findings_section, Finding};
use super::inline::inline_svg;
use super::page::Page;
use super::table::{Cell, Sort, Table, MAX_ROWS};
use super::HtmlError;
use crate::analysis::doctor::DoctorReport;
use crate::analysis::flame::{retained_svg, RETAINED_TITLE};
use crate::analysis::report::{MemoryReport, Space, SuspectKind};
use crate::analysis::{HeapAnalysis, OpenedHeap};

/// How many objects the top objects table lists (each with its path).
pub const TOP_OBJECTS: usize = 200;

/// The report page of `opened` from its analysis `a`, with the heap doctor's findings.
pub fn report_html(opened: &OpenedHeap, a: &HeapAnalysis) -> Result<Vec<u8>, HtmlError> {
    let doctor = DoctorReport::new(opened, a);
    let report = MemoryReport::with_doctor(opened, a, &doctor);
    let svg = retained_svg(opened, a, RETAINED_TITLE)?;
    report_page(opened, a, &report, &doctor, &svg)
}

/// The report page from the parts a caller already made of the same analysis: the report,
/// the doctor's report and the retained flame graph (`retained_svg`'s SVG).
pub fn report_page(
    opened: &OpenedHeap,
    a: &HeapAnalysis,
    report: &MemoryReport,
    doctor: &DoctorReport,
    retained_svg: &[u8],
) -> Result<Vec<u8>, HtmlError> {
    let rows: Vec<Finding> = doctor.findings.iter().map(Finding::from).collect();
    let findings = Some(&rows[..]);
    let svg = inline_svg(retained_svg)?;
    let live = report.space.live.bytes;
    let mut page = Page::new(
        "mo-mem memory report",
        &format!(
            "{}, {} GC; main memory {} bytes, live heap {} bytes in {} objects",
            report.persistence,
            report.gc,
            report.space.main_memory,
            live,
            report.space.live.objects.unwrap_or(0)
        ),
    );
    let notes = page.section("space", "Where main memory goes");
    notes_html(notes, report);
    space_table(report).html(notes);
    page.end_section();
    let out = page.section("suspects", "Suspects");
    out.push_str(&format!(
        "<p>Every variable and object retaining at least a tenth of the live heap ({} \
         bytes), with its path from a root and where its memory piles up.</p>\n",
        report.suspect_bytes
    ));
    suspects_table(report).html(out);
    page.end_section();
    // the heap doctor's findings, between the suspects and the tables
    let has_findings = findings_section(&mut page, findings);
    let out = page.section("vars", "Stable variables");
    vars_table(a, live).html(out);
    page.end_section();
    let out = page.section("types", "Types");
    types_table(opened, a, live).html(out);
    page.end_section();
    let out = page.section("objects", "Top objects");
    objects_table(opened, a, live).html(out);
    page.end_section();
    let out = page.section("flame", "Retained memory flame graph");
    out.push_str(
        "<p>Each frame is a step of a path from a root; its width is the bytes it retains. \
         Click a frame to zoom into it.</p>\n",
    );
    page.flame(svg);
    page.end_section();
    let mut toc = vec![("space", "Space"), ("suspects", "Suspects")];
    if has_findings {
        toc.push(("findings", "Findings"));
    }
    toc.extend([
        ("vars", "Variables"),
        ("types", "Types"),
        ("objects", "Objects"),
        ("flame", "Flame graph"),
    ]);
    page.finish(&toc)
}

/// The report's warnings: an unfinished download, walk errors.
fn notes_html(out: &mut String, report: &MemoryReport) {
    if let Some(incomplete) = &report.incomplete {
        out.push_str(&format!(
            "<p class=\"mm-note\">{}</p>\n",
            super::escape::escape(incomplete)
        ));
    }
    if report.errors > 0 {
        out.push_str(&format!(
            "<p class=\"mm-note\">{} walk errors: the figures cover what was walked \
             (<code>mo-mem stats</code>).</p>\n",
            report.errors
        ));
    }
}

/// `part` of `whole` as a share cell (`-` for an empty whole).
fn share(part: u64, whole: u64) -> Cell {
    match whole {
        0 => Cell::Shown(0.0, "-".to_string()),
        w => {
            let p = part as f64 * 100.0 / w as f64;
            Cell::Shown(p, format!("{p:.1}%"))
        }
    }
}

/// A count cell (empty where not counted).
fn count(n: Option<u64>) -> Cell {
    n.map_or(Cell::Empty, |n| Cell::Int(i128::from(n)))
}

/// Where main memory goes, as the text report lists it.
fn space_table(report: &MemoryReport) -> Table {
    let s = &report.space;
    let mut t = Table::new(
        "space-table",
        &format!("main memory: {} bytes", s.main_memory),
        &[
            ("space", Sort::Text),
            ("objects", Sort::Num),
            ("bytes", Sort::Num),
            ("of memory", Sort::Num),
        ],
    );
    let never_used = match report.partitions {
        Some(_) => "never used (free partitions)",
        None => "never used (above the heap)",
    };
    let rows: [(&str, &Space, bool); 7] = [
        ("static data", &s.static_data, false),
        ("live", &s.live, false),
        ("garbage (not yet collected)", &s.garbage, false),
        ("stale copies (evacuated)", &s.stale_copies, true),
        ("free", &s.free, false),
        (never_used, &s.never_used, false),
        ("unwalked (walk errors)", &s.unwalked, true),
    ];
    for (label, space, optional) in rows {
        if optional && space.bytes == 0 {
            continue;
        }
        t.push(vec![
            Cell::Text(label.to_string()),
            count(space.objects),
            Cell::Int(i128::from(space.bytes)),
            share(space.bytes, s.main_memory),
        ]);
    }
    t
}

/// The suspects, each with its accumulation point.
fn suspects_table(report: &MemoryReport) -> Table {
    let live = report.space.live.bytes;
    let mut t = Table::new(
        "suspects-table",
        "largest first",
        &[
            ("kind", Sort::Text),
            ("name", Sort::Text),
            ("tag", Sort::Text),
            ("retained objects", Sort::Num),
            ("retained bytes", Sort::Num),
            ("of live", Sort::Num),
            ("path", Sort::Text),
            ("piles up in", Sort::Text),
            ("its bytes", Sort::Num),
            ("its path", Sort::Text),
        ],
    );
    for x in &report.suspects {
        let kind = match x.kind {
            SuspectKind::Variable => "variable",
            SuspectKind::Object => "object",
        };
        let acc = x.accumulation.as_ref();
        t.push(vec![
            Cell::Text(kind.to_string()),
            Cell::Text(x.name.clone()),
            Cell::Text(x.tag.unwrap_or("-").to_string()),
            Cell::Int(i128::from(x.retained.objects)),
            Cell::Int(i128::from(x.retained.bytes)),
            share(x.retained.bytes, live),
            Cell::Path(x.path.clone()),
            acc.map_or(Cell::Empty, |r| {
                Cell::Text(format!("{} {}", r.name, r.tag.unwrap_or("?")))
            }),
            acc.map_or(Cell::Empty, |r| Cell::Int(i128::from(r.retained.bytes))),
            Cell::Path(acc.and_then(|r| r.path.clone())),
        ]);
    }
    t
}

/// Every stable variable (its path is `vars.NAME`).
fn vars_table(a: &HeapAnalysis, live: u64) -> Table {
    let vars = a.vars();
    let mut t = Table::new(
        "vars-table",
        "largest retained first",
        &[
            ("variable", Sort::Text),
            ("reachable objects", Sort::Num),
            ("reachable bytes", Sort::Num),
            ("retained objects", Sort::Num),
            ("retained bytes", Sort::Num),
            ("of live", Sort::Num),
            ("path", Sort::Text),
        ],
    )
    .of_total(vars.len());
    for v in vars.iter().take(MAX_ROWS) {
        t.push(vec![
            Cell::Text(v.name.clone()),
            Cell::Int(i128::from(v.reachable.objects)),
            Cell::Int(i128::from(v.reachable.bytes)),
            Cell::Int(i128::from(v.retained.objects)),
            Cell::Int(i128::from(v.retained.bytes)),
            share(v.retained.bytes, live),
            Cell::Path(match &v.error {
                Some(e) => Some(format!("vars.{} (unreadable: {e})", v.name)),
                None => Some(format!("vars.{}", v.name)),
            }),
        ]);
    }
    t
}

/// The types (a heap tag in angle brackets where no type reaches an object), each with the
/// path to its object retaining the most.
fn types_table(opened: &OpenedHeap, a: &HeapAnalysis, live: u64) -> Table {
    let types = a.types(opened);
    let shown = &types[..types.len().min(MAX_ROWS)];
    let largest = largest_of_types(
        opened,
        a,
        shown.iter().filter(|t| t.typed).map(|t| &*t.name),
    );
    let mut t = Table::new(
        "types-table",
        "largest retained first; path: to the object of the type retaining the most",
        &[
            ("type", Sort::Text),
            ("objects", Sort::Num),
            ("own bytes", Sort::Num),
            ("retained objects", Sort::Num),
            ("retained bytes", Sort::Num),
            ("of live", Sort::Num),
            ("path", Sort::Text),
        ],
    )
    .of_total(types.len());
    for row in shown {
        let name = match row.typed {
            true => row.name.clone(),
            false => format!("<{}>", row.name),
        };
        let path = match row.typed {
            true => largest
                .get(&*row.name)
                .and_then(|&n| a.path_text(opened, n)),
            false => None,
        };
        t.push(vec![
            Cell::Text(name),
            Cell::Int(i128::from(row.shallow.objects)),
            Cell::Int(i128::from(row.shallow.bytes)),
            Cell::Int(i128::from(row.retained.objects)),
            Cell::Int(i128::from(row.retained.bytes)),
            share(row.retained.bytes, live),
            Cell::Path(path),
        ]);
    }
    t
}

/// For each type in `names`, its live object retaining the most bytes (one pass over the
/// objects; on a tie the first).
fn largest_of_types<'n>(
    opened: &OpenedHeap,
    a: &HeapAnalysis,
    names: impl Iterator<Item = &'n str>,
) -> HashMap<&'n str, u32> {
    let mut best: HashMap<&str, (u64, u32)> = names.map(|n| (n, (0, u32::MAX))).collect();
    let (labels, doms) = (a.labels(opened), a.dominators());
    for n in 0..a.graph().nodes() as u32 {
        let Some(label) = labels.label(n) else {
            continue;
        };
        if let Some(b) = best.get_mut(&**label) {
            let r = doms.retained(n).bytes;
            if r > b.0 {
                *b = (r, n);
            }
        }
    }
    best.into_iter()
        .filter(|(_, (_, n))| *n != u32::MAX)
        .map(|(k, (_, n))| (k, n))
        .collect()
}

/// The objects retaining the most, each with its type and path.
fn objects_table(opened: &OpenedHeap, a: &HeapAnalysis, live: u64) -> Table {
    let mut t = Table::new(
        "objects-table",
        &format!("the {TOP_OBJECTS} objects retaining the most, largest first"),
        &[
            ("address", Sort::Num),
            ("tag", Sort::Text),
            ("type", Sort::Text),
            ("own bytes", Sort::Num),
            ("retained objects", Sort::Num),
            ("retained bytes", Sort::Num),
            ("of live", Sort::Num),
            ("path", Sort::Text),
        ],
    );
    for r in a.top(opened.heap(), TOP_OBJECTS) {
        t.push(vec![
            Cell::Shown(r.address as f64, format!("{:#x}", r.address)),
            Cell::Text(r.tag.to_string()),
            Cell::Text(a.type_of(opened, r.node)),
            Cell::Int(i128::from(r.size)),
            Cell::Int(i128::from(r.retained.objects)),
            Cell::Int(i128::from(r.retained.bytes)),
            share(r.retained.bytes, live),
            Cell::Path(a.path_text(opened, r.node)),
        ]);
    }
    t
}
