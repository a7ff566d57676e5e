//! The one pass over the analysis's nodes: each object is decoded once and handed to every
//! check that looks at objects of its kind (live objects to the waste checks, the others to
//! `garbage`).

use super::boxed_numbers::BoxedNumbers;
use super::byte_arrays::ByteArrays;
use super::context::Context;
use super::duplicate_texts::DuplicateTexts;
use super::empty_collections::EmptyCollections;
use super::garbage::Garbage;
use super::ropes::Ropes;
use super::sparse_collections::SparseCollections;
use super::weak_and_dedup::WeakAndDedup;

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
    /// Live objects that did not decode.
    pub undecoded: u64,
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
    for n in 0..graph.nodes() as u32 {
        let Ok(obj) = heap.object(graph.address(n)) else {
            s.undecoded += u64::from(doms.is_reachable(n));
            continue;
        };
        if !doms.is_reachable(n) {
            s.garbage.visit(ctx, n, &obj);
            continue;
        }
        let kind = ctx.kind(n);
        s.duplicates.visit(ctx, n, kind, &obj);
        s.byte_arrays.visit(ctx, n, kind, &obj);
        s.sparse.visit(ctx, n, kind, &obj);
        s.ropes.visit(ctx, n, &obj);
        s.boxed.visit(ctx, n, kind, &obj);
        s.empty.visit(ctx, n, kind, &obj);
        s.weak.visit(ctx, n, &obj);
    }
    s
}
