//! `mo-mem report`: a one-screen memory report of a snapshot (also the mount's
//! `analysis/report.txt`): where main memory goes (static data, live objects, garbage
//! awaiting collection, free space, never-used space), the largest stable variables, types
//! and objects by retained size, and the suspects: every variable and object retaining at
//! least a tenth of the live heap, each with its path from a root.
//!
//! The report is a value ([`MemoryReport`], serialized by `--json`) and one text rendering
//! ([`MemoryReport::text`]): plain ASCII, at most 80 columns, the same bytes every run.

use serde::Serialize;

use super::cached::HeapAnalysis;
use super::doctor::DoctorReport;
use super::dominators::Retained;
use super::OpenedHeap;
use crate::module::Persistence;

/// A suspect retains at least `1 / SUSPECT_DIVISOR` of the live heap (Eclipse MAT's 10%).
pub const SUSPECT_DIVISOR: u64 = 10;

/// How many variables, types and objects each "top" section lists.
pub const REPORT_TOP: usize = 5;

/// The report's width in columns.
const WIDTH: usize = 80;

/// Inside a suspect, the accumulation point is the deepest object still retaining this
/// share (in percent) of what the suspect retains: where its memory piles up.
const ACCUMULATION_PERCENT: u64 = 80;

/// Objects and bytes of one kind of space (`objects` is `None` where objects are not
/// counted: static data, never-used space).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Space {
    /// Blocks, if counted.
    pub objects: Option<u64>,
    /// Bytes.
    pub bytes: u64,
}

/// Where the bytes of main memory go; the parts add up to `main_memory`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SpaceReport {
    /// Bytes of main memory (the image).
    pub main_memory: u64,
    /// Below the heap base: static data, the RTS's own memory.
    pub static_data: Space,
    /// Objects the roots reach.
    pub live: Space,
    /// Objects no root reaches: garbage the GC has not collected yet.
    pub garbage: Space,
    /// Stale copies left behind by the incremental GC's evacuation.
    pub stale_copies: Space,
    /// Free space, fillers and slack words inside the heap's ranges.
    pub free: Space,
    /// Beyond the heap base but outside the heap's ranges: free or unformatted partitions
    /// (EOP and incremental GC), memory above the heap's end (classical).
    pub never_used: Space,
    /// Heap range bytes the walk could not account for (after a walk error).
    pub unwalked: Space,
}

/// How the heap is laid out: partitions (incremental GC) or one range.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Partitions {
    /// Bytes per partition (0 without partitions).
    pub size: u64,
    /// Partitions holding walked ranges.
    pub in_use: u64,
    /// Ranges holding one large object.
    pub large_object_ranges: u64,
    /// Partitions being evacuated by the GC.
    pub evacuating: u64,
}

/// One row of a "top" section.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct TopRow {
    /// A variable or type name, or an object's address in hex.
    pub name: String,
    /// The object's tag (objects only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tag: Option<&'static str>,
    /// The object's own size (objects only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub size: Option<u64>,
    /// What it retains.
    pub retained: Retained,
    /// The object's path from a root (objects only; `None` for garbage).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
}

/// What a suspect is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum SuspectKind {
    /// A stable variable (its object's retained set).
    Variable,
    /// An object that is not a stable variable's own.
    Object,
}

/// A variable or object retaining at least a tenth of the live heap.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Suspect {
    /// A variable or an object.
    pub kind: SuspectKind,
    /// The variable's name, or the object's address in hex.
    pub name: String,
    /// The object's address (hex).
    pub address: Option<String>,
    /// The object's tag.
    pub tag: Option<&'static str>,
    /// What it retains.
    pub retained: Retained,
    /// The path from a root to its object, as `mo-mem path` prints it.
    pub path: Option<String>,
    /// Inside it, the deepest object still retaining most of it (80%), if not itself.
    pub accumulation: Option<TopRow>,
}

/// One of the doctor's findings as the report's suspects section lists it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct DoctorRow {
    /// The check's id (`duplicate-texts`, ...).
    pub check: &'static str,
    /// The objects it covers.
    pub objects: u64,
    /// The bytes a fix would save.
    pub saving_bytes: u64,
    /// Where the first of them sits, as `mo-mem path` prints it.
    pub path: Option<String>,
}

/// How many of the doctor's findings the report lists.
pub const REPORT_DOCTOR: usize = 3;

/// The whole report.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct MemoryReport {
    /// The persistence mode, in words.
    pub persistence: &'static str,
    /// The garbage collector.
    pub gc: &'static str,
    /// Where main memory goes.
    pub space: SpaceReport,
    /// Bytes of the walked heap ranges.
    pub heap_bytes: u64,
    /// The partitions, with the incremental GC.
    pub partitions: Option<Partitions>,
    /// The largest stable variables by retained size.
    pub vars: Vec<TopRow>,
    /// The largest types by retained size.
    pub types: Vec<TopRow>,
    /// The largest objects by retained size.
    pub objects: Vec<TopRow>,
    /// What a suspect retains at least (bytes).
    pub suspect_bytes: u64,
    /// The suspects, largest first.
    pub suspects: Vec<Suspect>,
    /// The doctor's [`REPORT_DOCTOR`] findings saving most (`mo-mem doctor`).
    pub doctor: Vec<DoctorRow>,
    /// Walk and root errors (the analysis covers what was walked).
    pub errors: usize,
    /// What an unfinished download read with `--force` is missing (the report's first line).
    pub incomplete: Option<String>,
}

impl MemoryReport {
    /// The report of `opened`, from its analysis `a`.
    pub fn new(opened: &OpenedHeap, a: &HeapAnalysis) -> MemoryReport {
        MemoryReport::with_doctor(opened, a, &DoctorReport::new(opened, a))
    }

    /// The report of `opened` with the heap doctor's report `doctor` of the same analysis
    /// (for a caller that shows the doctor's findings too, so the doctor runs once).
    pub fn with_doctor(
        opened: &OpenedHeap,
        a: &HeapAnalysis,
        doctor: &DoctorReport,
    ) -> MemoryReport {
        let heap = opened.heap();
        let layout = heap.layout();
        let stats = opened.stats();
        let live = a.live();
        let space = space_report(opened, a);
        let partitions = partitions(opened);
        let vars = a.vars().iter().take(REPORT_TOP);
        let vars = vars.map(|v| named_row(&v.name, v.retained)).collect();
        let types = a.types(opened).iter().take(REPORT_TOP);
        let types = types
            .map(|t| match t.typed {
                true => named_row(&t.name, t.retained),
                false => named_row(&format!("<{}>", t.name), t.retained),
            })
            .collect();
        let objects = a
            .top(heap, REPORT_TOP)
            .into_iter()
            .map(|r| object_row(opened, a, r.node))
            .collect();
        let suspect_bytes = live.bytes.div_ceil(SUSPECT_DIVISOR).max(1);
        MemoryReport {
            persistence: match layout.persistence {
                Persistence::Enhanced => "enhanced orthogonal persistence",
                Persistence::Classical => "classical persistence",
            },
            gc: layout.gc.name(),
            space,
            heap_bytes: stats.heap_bytes,
            partitions,
            vars,
            types,
            objects,
            suspect_bytes,
            suspects: suspects(opened, a, suspect_bytes),
            doctor: doctor_rows(doctor),
            errors: a.graph().errors().len(),
            incomplete: heap.snapshot().unfinished().map(|u| u.summary()),
        }
    }
}

impl From<super::stats::Count> for Space {
    fn from(c: super::stats::Count) -> Self {
        Space {
            objects: Some(c.objects),
            bytes: c.bytes,
        }
    }
}

/// The doctor's findings that save most, as rows.
fn doctor_rows(doctor: &DoctorReport) -> Vec<DoctorRow> {
    doctor
        .savings()
        .take(REPORT_DOCTOR)
        .map(|f| DoctorRow {
            check: f.check,
            objects: f.objects,
            saving_bytes: f.saving_bytes,
            path: f.where_.first().cloned(),
        })
        .collect()
}

/// Where the bytes of `opened`'s main memory go.
pub(crate) fn space_report(opened: &OpenedHeap, a: &HeapAnalysis) -> SpaceReport {
    let stats = opened.stats();
    let (live, garbage, stale) = (a.live(), a.garbage(), a.graph().stale());
    let base = opened.heap().layout().heap_base.min(stats.image_bytes);
    let accounted = live.bytes + garbage.bytes + stale.bytes + stats.free.bytes;
    SpaceReport {
        main_memory: stats.image_bytes,
        static_data: Space {
            objects: None,
            bytes: base,
        },
        live: live.into(),
        garbage: garbage.into(),
        stale_copies: stale.into(),
        free: stats.free.into(),
        never_used: Space {
            objects: None,
            bytes: stats.unused_bytes,
        },
        unwalked: Space {
            objects: None,
            bytes: stats.heap_bytes.saturating_sub(accounted),
        },
    }
}

/// The partitions of `opened`'s heap, with the incremental GC.
fn partitions(opened: &OpenedHeap) -> Option<Partitions> {
    let ranges = opened.heap().ranges();
    if ranges.iter().all(|r| r.partition.is_none()) {
        return None;
    }
    let mut in_use: Vec<u64> = ranges
        .iter()
        .filter_map(|r| r.partition.map(|p| p.index))
        .collect();
    in_use.sort_unstable();
    in_use.dedup();
    Some(Partitions {
        size: opened.heap().layout().partition_size,
        in_use: in_use.len() as u64,
        large_object_ranges: ranges.iter().filter(|r| r.large_object).count() as u64,
        evacuating: opened
            .stats()
            .ranges
            .iter()
            .filter(|r| r.evacuating)
            .count() as u64,
    })
}

/// A variable or a type as a row.
fn named_row(name: &str, retained: Retained) -> TopRow {
    TopRow {
        name: name.to_string(),
        tag: None,
        size: None,
        retained,
        path: None,
    }
}

/// Node `n` as a row: its address, tag, size, what it retains and its path.
fn object_row(opened: &OpenedHeap, a: &HeapAnalysis, n: u32) -> TopRow {
    let r = a.retainer(opened.heap(), n);
    TopRow {
        name: format!("{:#x}", r.address),
        tag: Some(r.tag),
        size: Some(r.size),
        retained: r.retained,
        path: a.path_text(opened, n),
    }
}

/// The variables and the outermost objects retaining at least `limit` bytes, largest first,
/// each object with its accumulation point (one pass over the dominator tree).
fn suspects(opened: &OpenedHeap, a: &HeapAnalysis, limit: u64) -> Vec<Suspect> {
    let doms = a.dominators();
    // (suspect, deepest node retaining most of it)
    let mut found: Vec<(u32, u32)> = Vec::new();
    let mut open: Option<(u32, u64, u32)> = None;
    doms.visit_tree(|n, entering| {
        let bytes = doms.retained(n).bytes;
        match (&mut open, entering) {
            (None, true) if bytes >= limit => {
                let most =
                    bytes / 100 * ACCUMULATION_PERCENT + bytes % 100 * ACCUMULATION_PERCENT / 100;
                open = Some((n, most, n));
            }
            (Some((_, most, deepest)), true) if bytes >= *most => *deepest = n,
            (Some((s, _, deepest)), false) if *s == n => {
                found.push((n, *deepest));
                open = None;
            }
            _ => {}
        }
    });
    let mut out: Vec<Suspect> = Vec::new();
    let graph = a.graph();
    for v in a.vars().iter().filter(|v| v.retained.bytes >= limit) {
        let node = graph
            .vars()
            .iter()
            .find(|g| g.name == v.name)
            .and_then(|g| g.node);
        let accumulation = node
            .and_then(|n| found.iter().find(|(s, _)| *s == n))
            .filter(|(s, d)| s != d)
            .map(|&(_, d)| object_row(opened, a, d));
        out.push(Suspect {
            kind: SuspectKind::Variable,
            name: v.name.clone(),
            address: v.address.map(|x| format!("{x:#x}")),
            tag: node.map(|n| a.retainer(opened.heap(), n).tag),
            retained: v.retained,
            path: node.and_then(|n| a.path_text(opened, n)),
            accumulation,
        });
    }
    let var_nodes: Vec<u32> = graph.vars().iter().filter_map(|v| v.node).collect();
    for &(s, deepest) in found.iter().filter(|(s, _)| !var_nodes.contains(s)) {
        let row = object_row(opened, a, s);
        out.push(Suspect {
            kind: SuspectKind::Object,
            name: row.name.clone(),
            address: Some(row.name),
            tag: row.tag,
            retained: row.retained,
            path: row.path,
            accumulation: (deepest != s).then(|| object_row(opened, a, deepest)),
        });
    }
    out.sort_by(|x, y| {
        (y.retained.bytes, x.kind, &x.name).cmp(&(x.retained.bytes, y.kind, &y.name))
    });
    out
}

/// `part` of `whole` in percent with one decimal (`-` for an empty whole).
pub(crate) fn percent(part: u64, whole: u64) -> String {
    match whole {
        0 => "-".to_string(),
        w => format!("{:.1}%", part as f64 * 100.0 / w as f64),
    }
}

/// `text` in ASCII (`×` as `x`, `…` as `...`, any other non-ASCII character as its
/// `\u{..}` escape) and cut to `width` columns (ending in `...` when cut).
pub(crate) fn fit(text: &str, width: usize) -> String {
    let mut ascii = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            c if c.is_ascii() => ascii.push(c),
            '×' => ascii.push('x'),
            '…' => ascii.push_str("..."),
            c => ascii.extend(c.escape_unicode()),
        }
    }
    let text = ascii.as_str();
    if text.chars().count() <= width {
        return text.to_string();
    }
    let kept: String = text.chars().take(width.saturating_sub(3)).collect();
    format!("{kept}...")
}

/// `1 partition`, `3 partitions`.
pub(crate) fn plural(n: u64, noun: &str) -> String {
    match n {
        1 => format!("1 {noun}"),
        n => format!("{n} {noun}s"),
    }
}

/// Bytes for people: `812 B`, `5.1 MiB` (exact bytes are in the tables).
pub fn human(bytes: u64) -> String {
    const UNITS: [&str; 4] = ["KiB", "MiB", "GiB", "TiB"];
    if bytes < 1024 {
        return format!("{bytes} B");
    }
    let mut v = bytes as f64 / 1024.0;
    let mut unit = 0;
    while v >= 1024.0 && unit + 1 < UNITS.len() {
        v /= 1024.0;
        unit += 1;
    }
    format!("{v:.1} {}", UNITS[unit])
}

/// One table line: a label (cut to 38 columns), objects, bytes, share.
fn line(out: &mut String, label: &str, objects: Option<u64>, bytes: u64, share: &str) {
    let objects = objects.map_or(String::new(), |o| o.to_string());
    out.push_str(&format!(
        "{:<38} {:>10} {:>13} {:>7}\n",
        fit(label, 38),
        objects,
        bytes,
        share
    ));
}

/// An indented path line, cut to the report's width.
fn path_line(out: &mut String, indent: &str, path: Option<&str>) {
    let path = path.unwrap_or("(garbage: no root reaches it)");
    out.push_str(indent);
    out.push_str(&fit(path, WIDTH - indent.len()));
    out.push('\n');
}

impl MemoryReport {
    /// The report as text: at most 80 columns, deterministic.
    pub fn text(&self) -> String {
        let mut out = String::new();
        if let Some(incomplete) = &self.incomplete {
            out.push_str(&fit(incomplete, WIDTH));
            out.push('\n');
        }
        let s = &self.space;
        out.push_str(&fit(
            &format!("memory report: {}, {} GC", self.persistence, self.gc),
            WIDTH,
        ));
        out.push('\n');
        out.push_str(&format!(
            "main memory {} bytes ({}), heap ranges {} bytes ({})\n",
            s.main_memory,
            human(s.main_memory),
            self.heap_bytes,
            human(self.heap_bytes)
        ));
        match &self.partitions {
            Some(p) => out.push_str(&format!(
                "{} in use of {}, {} with a large object, {} evacuating\n",
                plural(p.in_use, "partition"),
                human(p.size),
                p.large_object_ranges,
                p.evacuating
            )),
            None => out.push_str("one heap range: no partitions with this GC\n"),
        }
        out.push('\n');
        out.push_str(&format!(
            "{:<38} {:>10} {:>13} {:>7}\n",
            "space", "objects", "bytes", "memory"
        ));
        let m = s.main_memory;
        let never_used = match self.partitions {
            Some(_) => "never used (free partitions)",
            None => "never used (above the heap)",
        };
        let rows: [(&str, &Space); 7] = [
            ("static data", &s.static_data),
            ("live", &s.live),
            ("garbage (not yet collected)", &s.garbage),
            ("stale copies (evacuated)", &s.stale_copies),
            ("free", &s.free),
            (never_used, &s.never_used),
            ("unwalked (walk errors)", &s.unwalked),
        ];
        for (label, space) in rows {
            let optional = matches!(label, "stale copies (evacuated)" | "unwalked (walk errors)");
            if optional && space.bytes == 0 {
                continue;
            }
            line(
                &mut out,
                label,
                space.objects,
                space.bytes,
                &percent(space.bytes, m),
            );
        }
        let live = s.live.bytes;
        section(&mut out, "top variables", &self.vars, live, false);
        section(
            &mut out,
            "top types (untyped: <heap tag>)",
            &self.types,
            live,
            false,
        );
        section(&mut out, "top objects", &self.objects, live, true);
        out.push('\n');
        if self.suspects.is_empty() {
            out.push_str(&format!(
                "no suspects: nothing retains 10% of the live heap ({} bytes)\n",
                self.suspect_bytes
            ));
        } else {
            out.push_str(&format!(
                "suspects: retaining at least 10% of the live heap ({} bytes)\n",
                self.suspect_bytes
            ));
        }
        for x in &self.suspects {
            let what = match x.kind {
                SuspectKind::Variable => format!("variable {}", x.name),
                SuspectKind::Object => format!("object {} {}", x.name, x.tag.unwrap_or("?")),
            };
            line(
                &mut out,
                &what,
                Some(x.retained.objects),
                x.retained.bytes,
                &percent(x.retained.bytes, live),
            );
            path_line(&mut out, "  ", x.path.as_deref());
            if let Some(acc) = &x.accumulation {
                line(
                    &mut out,
                    &format!("  piles up in {} {}", acc.name, acc.tag.unwrap_or("?")),
                    Some(acc.retained.objects),
                    acc.retained.bytes,
                    &percent(acc.retained.bytes, live),
                );
                path_line(&mut out, "    ", acc.path.as_deref());
            }
        }
        doctor_section(&mut out, &self.doctor, live);
        if self.errors > 0 {
            out.push_str(&format!(
                "\n{} walk errors: the figures cover what was walked (mo-mem stats)\n",
                self.errors
            ));
        }
        out
    }
}

/// The doctor's top findings: what a fix would save, with where the first sits.
fn doctor_section(out: &mut String, rows: &[DoctorRow], live: u64) {
    if rows.is_empty() {
        out.push_str("\nwaste: the doctor finds nothing to save (mo-mem doctor)\n");
        return;
    }
    out.push_str(&format!(
        "\n{:<38} {:>10} {:>13} {:>7}\n",
        "waste: largest savings (mo-mem doctor)", "objects", "saving", "live"
    ));
    for r in rows {
        line(
            out,
            r.check,
            Some(r.objects),
            r.saving_bytes,
            &percent(r.saving_bytes, live),
        );
        if let Some(path) = &r.path {
            path_line(out, "  ", Some(path));
        }
    }
}

/// A "top" section: a header, then each row (objects with their tag and path).
fn section(out: &mut String, title: &str, rows: &[TopRow], live: u64, objects: bool) {
    out.push('\n');
    out.push_str(&format!(
        "{:<38} {:>10} {:>13} {:>7}\n",
        fit(title, 38),
        "retained",
        "bytes",
        "live"
    ));
    for r in rows {
        let label = match r.tag {
            Some(tag) => format!("{} {tag}", r.name),
            None => r.name.clone(),
        };
        line(
            out,
            &label,
            Some(r.retained.objects),
            r.retained.bytes,
            &percent(r.retained.bytes, live),
        );
        if objects {
            path_line(out, "  ", r.path.as_deref());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn texts_are_cut_to_their_columns() {
        assert_eq!(fit("vars.people", 20), "vars.people");
        assert_eq!(fit("vars.people[3].name", 10), "vars.pe...");
        assert_eq!(fit("abc", 3), "abc");
        assert_eq!(fit("vars.t.<rope ×3>", 40), "vars.t.<rope x3>");
        assert_eq!(fit("Node<…>", 40), "Node<...>");
        assert_eq!(fit("get(\"ü\")", 40), "get(\"\\u{fc}\")");
        assert_eq!(percent(1, 3), "33.3%");
        assert_eq!(percent(5, 0), "-");
        assert_eq!(human(1023), "1023 B");
        assert_eq!(human(64 << 20), "64.0 MiB");
        assert_eq!(human(5_373_952), "5.1 MiB");
        assert_eq!(plural(1, "partition"), "1 partition");
        assert_eq!(plural(0, "partition"), "0 partitions");
        let mut out = String::new();
        // The largest counts a heap can have: 2^32 objects, a TiB.
        let (objects, bytes) = (u64::from(u32::MAX), 1 << 40);
        line(&mut out, &"x".repeat(100), Some(objects), bytes, "100.0%");
        assert!(out.trim_end().len() <= WIDTH, "{out}");
    }
}
