//! `mo-mem doctor`: what a Motoko developer can change. Each check finds one shape of waste
//! in the live heap (duplicate texts, `[Nat8]` arrays, empty and sparse collections, ropes,
//! boxed numbers, garbage, dead weak references) and says how many bytes a fix would save,
//! computed exactly from the heap, where it sits (up to [`MAX_WHERE`] access paths, as
//! `mo-mem path` prints them) and what to do (one sentence); `heap-growth` explains why main
//! memory is larger than the live heap, in one table that adds up to main memory.
//!
//! One pass over the analysis's nodes, in address order (on several threads, each taking
//! runs of nodes, merged in address order), reads each object's tag and decodes only the
//! objects a check looks into, once, handing each to every check ([`scan`]); each check
//! keeps at most a few bytes per object it flags. The paths of `where` come from the
//! analysis's shortest-path search, run only as far as they need (and kept: `mo-mem
//! report` finishes it). The report is a value ([`DoctorReport`], serialized by `--json`) and one text rendering ([`render`]).

mod bits;
mod boxed_numbers;
mod byte_arrays;
mod context;
mod dominated;
mod duplicate_texts;
mod empty_collections;
mod garbage;
mod heap_growth;
mod nodes;
pub mod render;
mod ropes;
mod scan;
mod sparse_collections;
mod weak_and_dedup;

use std::sync::atomic::{AtomicBool, Ordering};

use serde::Serialize;

use super::cached::HeapAnalysis;
use super::OpenedHeap;

pub use boxed_numbers::{BoxedRow, BoxedType};
pub use context::{blob_bytes, Context, LabelKind};
pub use nodes::Nodes;

/// The most access paths a finding lists.
pub const MAX_WHERE: usize = 5;

/// The check ids, in the order the checks run.
pub const CHECKS: [&str; 9] = [
    "duplicate-texts",
    "byte-arrays",
    "sparse-collections",
    "ropes",
    "boxed-numbers",
    "empty-collections",
    "garbage",
    "heap-growth",
    "weak-and-dedup",
];

/// One row of a finding's table (`heap-growth`: where main memory goes).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct TableRow {
    /// What the bytes are.
    pub part: String,
    /// Blocks, where counted.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub objects: Option<u64>,
    /// Bytes.
    pub bytes: u64,
}

/// One finding: a check's objects, their bytes, the bytes a fix would save, where they sit
/// and what to do.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Finding {
    /// The check's id (one of [`CHECKS`]).
    pub check: &'static str,
    /// The objects the finding covers.
    pub objects: u64,
    /// Their bytes.
    pub bytes: u64,
    /// The bytes a fix would save, computed exactly from the heap.
    pub saving_bytes: u64,
    /// Up to [`MAX_WHERE`] access paths of covered objects, largest first.
    #[serde(rename = "where")]
    pub where_: Vec<String>,
    /// What was found, in words (the top values of `duplicate-texts`, the types of
    /// `boxed-numbers`, ...).
    pub detail: String,
    /// One sentence of advice in Motoko terms.
    pub advice: String,
    /// `heap-growth`: where main memory goes (the rows add up to main memory).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub table: Vec<TableRow>,
    /// `boxed-numbers`: the boxes per stable variable that alone reaches them.
    #[serde(rename = "variables", skip_serializing_if = "Vec::is_empty")]
    pub boxed: Vec<BoxedRow>,
    /// The nodes the finding covers (those whose bytes the saving frees, or the objects
    /// found wasteful), for tests and front-ends; not serialized.
    #[serde(skip)]
    pub nodes: Nodes,
    /// The nodes whose paths `where` lists, when they are not the first of `nodes` (empty:
    /// those); not serialized.
    #[serde(skip)]
    pub where_nodes: Vec<u32>,
}

impl Finding {
    /// A finding of `check` with no paths, table or nodes yet.
    pub fn new(check: &'static str, objects: u64, bytes: u64, saving_bytes: u64) -> Finding {
        Finding {
            check,
            objects,
            bytes,
            saving_bytes,
            where_: Vec::new(),
            detail: String::new(),
            advice: String::new(),
            table: Vec::new(),
            boxed: Vec::new(),
            nodes: Nodes::default(),
            where_nodes: Vec::new(),
        }
    }
}

/// A check that did not run on this heap, and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Skipped {
    /// The check's id (or a part of it, `weak-and-dedup: dedup table`).
    pub check: String,
    /// Why it did not run.
    pub reason: String,
}

/// The doctor's report: findings, largest saving first, and the checks skipped.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct DoctorReport {
    /// Bytes of main memory.
    pub main_memory: u64,
    /// Bytes of live objects.
    pub live_bytes: u64,
    /// The findings, largest saving first (ties: more bytes first, then by check id).
    pub findings: Vec<Finding>,
    /// Checks (or parts) that did not run, with the reason.
    pub skipped: Vec<Skipped>,
    /// Live objects the pass could not read, counting only what a check decodes (every live
    /// object's tag, and the body of those a check looks into); the figures cover the others.
    pub undecoded: u64,
}

impl DoctorReport {
    /// Runs every check over `opened`'s heap, from its analysis `a`, the pass over the
    /// objects on the threads the heap walk runs on ([`OpenedHeap::walk_threads`]).
    pub fn new(opened: &OpenedHeap, a: &HeapAnalysis) -> DoctorReport {
        DoctorReport::with_threads(opened, a, opened.threads())
    }

    /// [`DoctorReport::new`] with the pass over the objects on `threads` threads (at least
    /// one): the report is the same on any number.
    pub fn with_threads(opened: &OpenedHeap, a: &HeapAnalysis, threads: usize) -> DoctorReport {
        let ctx = Context::new(opened, a);
        let scanned = scan::scan(&ctx, threads);
        // While the checks finish, the shortest-path search the findings' `where` needs
        // runs ahead on another thread: the same search, so the same paths.
        let stop = AtomicBool::new(false);
        let undecoded = scanned.undecoded;
        let (mut findings, skipped) = std::thread::scope(|scope| {
            let ahead = (threads > 1).then(|| scope.spawn(|| a.search_paths_ahead(opened, &stop)));
            // Stops the search however the checks end (a panic too, or the scope would wait
            // for the whole search).
            let stopping = StopOnDrop(&stop);
            let finished = finish(&ctx, scanned);
            drop(stopping);
            if let Some(ahead) = ahead {
                ahead
                    .join()
                    .unwrap_or_else(|p| std::panic::resume_unwind(p));
            }
            finished
        });
        for f in &mut findings {
            if f.where_.is_empty() {
                f.where_ = match f.where_nodes.is_empty() {
                    true => ctx.paths(f.nodes.iter()),
                    false => ctx.paths(f.where_nodes.iter().copied()),
                };
            }
        }
        findings.sort_by(|x, y| {
            (y.saving_bytes, y.bytes, x.check).cmp(&(x.saving_bytes, x.bytes, y.check))
        });
        DoctorReport {
            main_memory: opened.stats().image_bytes,
            live_bytes: a.live().bytes,
            findings,
            skipped,
            undecoded,
        }
    }

    /// The findings that save bytes (every one but the explanatory `heap-growth`), largest
    /// first: what `mo-mem report` lists as its top suspects.
    pub fn savings(&self) -> impl Iterator<Item = &Finding> {
        self.findings.iter().filter(|f| f.saving_bytes > 0)
    }

    /// The finding of `check`, if any.
    pub fn finding(&self, check: &str) -> Option<&Finding> {
        self.findings.iter().find(|f| f.check == check)
    }
}

/// Sets its flag when dropped.
struct StopOnDrop<'a>(&'a AtomicBool);

impl Drop for StopOnDrop<'_> {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

/// Every check's finding from the pass' states, their `where` not searched yet, and the
/// checks (or parts) skipped.
fn finish(ctx: &Context<'_>, scanned: scan::Scanned<'_>) -> (Vec<Finding>, Vec<Skipped>) {
    let mut findings = Vec::new();
    let mut skipped = Vec::new();
    let (dups, dups_skipped) = scanned.duplicates.finish(ctx, &scanned.ropes.roots());
    findings.extend(dups);
    skipped.extend(dups_skipped);
    findings.extend(scanned.byte_arrays.finish(ctx));
    findings.extend(scanned.sparse.finish(ctx));
    findings.extend(scanned.ropes.finish(ctx));
    findings.extend(scanned.boxed.finish(ctx));
    findings.extend(scanned.empty.finish(ctx));
    findings.extend(scanned.garbage.finish(ctx));
    findings.push(heap_growth::finding(ctx));
    let (weak, weak_skipped) = scanned.weak.finish(ctx);
    findings.extend(weak);
    skipped.extend(weak_skipped);
    (findings, skipped)
}
