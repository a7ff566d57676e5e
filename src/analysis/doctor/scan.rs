//! The one pass over the analysis's nodes, in address order: each object's tag is read from
//! its header (unless its type label says it is none a check reads, [`LabelKind::Plain`]),
//! and only the objects a check looks into are decoded (those whose type label
//! is of a kind a check reads, and live `Concat` and `WeakRef` objects), once, and handed to
//! every check that looks at objects of their kind; the other checks need only the tag and
//! the graph's size (`boxed-numbers`, `garbage` for the unreachable objects). A flat text or
//! blob labelled `Text` or `Blob`, which only `duplicate-texts` looks at, is read narrowly
//! where the layout allows it ([`crate::heap::Heap::narrow_blob`]: three words, the same
//! sort and bytes the decoder reads) instead of decoded.
//!
//! On several threads the nodes are cut into runs of consecutive nodes ([`PARTS_PER_THREAD`]
//! per thread, for balance), which the threads take in turn. What a check finds at a node
//! depends only on that node, except `duplicate-texts`, whose values are numbered as first
//! seen; each run's states are merged into the runs' before it in address order (each
//! check's `merge`), so the result is exactly the one-thread pass's.

use std::ops::Range;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use super::boxed_numbers::BoxedNumbers;
use super::byte_arrays::ByteArrays;
use super::context::{Context, LabelKind};
use super::duplicate_texts::DuplicateTexts;
use super::empty_collections::EmptyCollections;
use super::garbage::Garbage;
use super::ropes::Ropes;
use super::sparse_collections::SparseCollections;
use super::weak_and_dedup::WeakAndDedup;
use crate::heap::Tag;

/// Every check's state after the pass.
pub struct Scanned<'h> {
    /// `duplicate-texts`.
    pub duplicates: DuplicateTexts<'h>,
    /// `byte-arrays`.
    pub byte_arrays: ByteArrays,
    /// `sparse-collections`.
    pub sparse: SparseCollections,
    /// `ropes`.
    pub ropes: Ropes,
    /// `boxed-numbers`.
    pub boxed: BoxedNumbers,
    /// `empty-collections`.
    pub empty: EmptyCollections,
    /// `garbage`.
    pub garbage: Garbage,
    /// `weak-and-dedup`.
    pub weak: WeakAndDedup,
    /// Live objects a check needed that did not decode (or whose tag did not).
    pub undecoded: u64,
}

/// Whether a check reads the body of every live object of label kind `kind` (of the others,
/// only `Concat` and `WeakRef` objects are read).
fn reads_body(kind: LabelKind) -> bool {
    match kind {
        LabelKind::Text
        | LabelKind::Blob
        | LabelKind::Nat8Array
        | LabelKind::OptionArray
        | LabelKind::MapOrSet
        | LabelKind::List => true,
        LabelKind::Number | LabelKind::Other | LabelKind::Plain => false,
    }
}

/// Runs per thread, at least (more runs than threads even out their speeds).
pub const PARTS_PER_THREAD: usize = 4;

/// The fewest nodes a run has, when there are more than one.
const MIN_PART_NODES: usize = 64;

/// Runs the pass over every node of `ctx`'s graph on `threads` threads (1: on this one).
pub fn scan<'h>(ctx: &Context<'h>, threads: usize) -> Scanned<'h> {
    let nodes = ctx.graph().nodes();
    let parts = threads
        .saturating_mul(PARTS_PER_THREAD)
        .min(nodes / MIN_PART_NODES);
    if threads <= 1 || parts < 2 {
        return scan_part(ctx, 0..nodes as u32);
    }
    // Runs of consecutive nodes, alike in count.
    let runs: Vec<Range<u32>> = (0..parts)
        .map(|i| (nodes * i / parts) as u32..(nodes * (i + 1) / parts) as u32)
        .collect();
    let next = AtomicUsize::new(0);
    let done: Mutex<Vec<Option<Scanned<'h>>>> = Mutex::new((0..parts).map(|_| None).collect());
    std::thread::scope(|scope| {
        for _ in 0..threads.min(parts) {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(run) = runs.get(i) else {
                    break;
                };
                let part = scan_part(ctx, run.clone());
                done.lock().unwrap_or_else(|p| p.into_inner())[i] = Some(part);
            });
        }
    });
    let mut merged: Option<Scanned<'h>> = None;
    let parts = done.into_inner().unwrap_or_else(|p| p.into_inner());
    for (run, part) in runs.into_iter().zip(parts) {
        // A run missing (its thread panicked, which the scope would have raised already)
        // is passed over again here rather than left out.
        let part = part.unwrap_or_else(|| scan_part(ctx, run));
        match merged.as_mut() {
            None => merged = Some(part),
            Some(m) => m.merge(ctx, part),
        }
    }
    merged.unwrap_or_else(|| scan_part(ctx, 0..nodes as u32))
}

impl<'h> Scanned<'h> {
    /// Adds the states of the pass over the nodes after this one's.
    fn merge(&mut self, ctx: &Context<'h>, part: Scanned<'h>) {
        self.duplicates.merge(ctx, part.duplicates);
        self.byte_arrays.merge(part.byte_arrays);
        self.sparse.merge(part.sparse);
        self.ropes.merge(part.ropes);
        self.boxed.merge(part.boxed);
        self.empty.merge(part.empty);
        self.garbage.merge(part.garbage);
        self.weak.merge(part.weak);
        self.undecoded += part.undecoded;
    }
}

/// The pass over the nodes `run`, in address order.
fn scan_part<'h>(ctx: &Context<'h>, run: Range<u32>) -> Scanned<'h> {
    let graph = ctx.graph();
    let doms = ctx.a.dominators();
    let heap = ctx.heap();
    let mut s = Scanned {
        duplicates: DuplicateTexts::default(),
        byte_arrays: ByteArrays::default(),
        sparse: SparseCollections::default(),
        ropes: Ropes::new(graph.nodes()),
        boxed: BoxedNumbers::default(),
        empty: EmptyCollections::default(),
        garbage: Garbage::default(),
        weak: WeakAndDedup::default(),
        undecoded: 0,
    };
    // The addresses in order (a walk of the node index, not a select per node).
    let addresses = graph.addresses_from(run.start);
    for (n, addr) in run.zip(addresses) {
        if !doms.is_reachable(n) {
            if let Ok((tag, _)) = heap.tag_at(addr) {
                s.garbage.visit(ctx, n, tag);
            }
            continue;
        }
        let kind = ctx.kind(n);
        if kind == LabelKind::Plain {
            continue;
        }
        // A flat text or blob (most objects labelled so) is read narrowly: of the checks,
        // only `duplicate-texts` looks at it.
        if matches!(kind, LabelKind::Text | LabelKind::Blob) {
            if let Some((sort, bytes)) = heap.narrow_blob(addr) {
                s.duplicates.visit_blob(ctx, n, sort, bytes);
                continue;
            }
        }
        if !reads_body(kind) {
            let Ok((tag, _)) = heap.tag_at(addr) else {
                s.undecoded += 1;
                continue;
            };
            s.boxed.visit(n, kind, tag);
            if !matches!(tag, Tag::Concat | Tag::WeakRef) {
                continue;
            }
        }
        let Ok(obj) = heap.object(addr) else {
            s.undecoded += 1;
            continue;
        };
        s.duplicates.visit(ctx, n, kind, &obj);
        s.byte_arrays.visit(ctx, n, kind, &obj);
        s.sparse.visit(ctx, n, kind, &obj);
        s.ropes.visit(ctx, n, &obj);
        s.empty.visit(ctx, n, kind, &obj);
        s.weak.visit(ctx, n, &obj);
    }
    s
}
