//! The one pass over the analysis's nodes, in address order: each object's tag is read from
//! its header, and only the objects a check looks into are decoded (those whose type label
//! is of a kind a check reads, and live `Concat` and `WeakRef` objects), once, and handed to
//! every check that looks at objects of their kind; the other checks need only the tag and
//! the graph's size (`boxed-numbers`, `garbage` for the unreachable objects).

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
        LabelKind::Number | LabelKind::Other => false,
    }
}

/// Runs the pass over every node of `ctx`'s graph.
pub fn scan<'h>(ctx: &Context<'h>) -> Scanned<'h> {
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
    for (n, addr) in (0u32..).zip(graph.addresses()) {
        if !doms.is_reachable(n) {
            if let Ok((tag, _)) = heap.tag_at(addr) {
                s.garbage.visit(ctx, n, tag);
            }
            continue;
        }
        let kind = ctx.kind(n);
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
