//! Per type: the live objects labelled with it, their own bytes, and the exact bytes the
//! type's objects retain together.
//!
//! The retained set of a type is what would become unreachable if every object of the type
//! were gone: the union of their dominator subtrees. It is the sum of the retained sizes of
//! the type's objects that have no dominator-tree ancestor of the same type (the others are
//! inside those subtrees), found in one pass over the dominator tree with a counter per type
//! of the open ancestors ([`Dominators::visit_tree`]).

use std::collections::HashMap;
use std::sync::Arc;

use crate::heap::Heap;

use super::super::dominators::Retained;
use super::super::retained::Analysis;
use super::super::stats::Count;
use super::walk::{TypeLabels, NO_LABEL};

/// The live objects of one type (or, for objects no type reached, one heap tag).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TypeRetention {
    /// The type's label (`Text`, `Map<Nat, Text>`, `Person`), or the heap tag (`Blob B`).
    pub name: Arc<str>,
    /// Whether `name` is a Motoko type (else a heap tag).
    pub typed: bool,
    /// Live objects of the type and their own bytes.
    pub shallow: Count,
    /// What all of them retain together (the union of their retained sets).
    pub retained: Retained,
}

/// Per type and per heap tag of the untyped objects: the live objects, their bytes and what
/// they retain, largest retained first (ties by name, then typed first).
pub fn by_type(heap: &Heap, analysis: &Analysis, labels: &TypeLabels) -> Vec<TypeRetention> {
    let graph = analysis.graph();
    let doms = analysis.dominators();
    let typed = labels.names().len();
    let mut out: Vec<TypeRetention> = labels
        .names()
        .iter()
        .map(|n| TypeRetention {
            name: n.clone(),
            typed: true,
            shallow: Count::default(),
            retained: Retained::default(),
        })
        .collect();
    let mut tags: HashMap<&'static str, u32> = HashMap::new();
    let mut open: Vec<u32> = vec![0; typed];
    doms.visit_tree(|n, entering| {
        let mut i = labels.label_index(n);
        if i == NO_LABEL {
            let tag = heap.tag_at(graph.address(n)).map_or("?", |(t, _)| t.name());
            i = *tags.entry(tag).or_insert_with(|| {
                out.push(TypeRetention {
                    name: Arc::from(tag),
                    typed: false,
                    shallow: Count::default(),
                    retained: Retained::default(),
                });
                open.push(0);
                (out.len() - 1) as u32
            });
        }
        let i = i as usize;
        if !entering {
            open[i] -= 1;
            return;
        }
        let e = &mut out[i];
        e.shallow.add(graph.size(n));
        if open[i] == 0 {
            let r = doms.retained(n);
            e.retained.objects += r.objects;
            e.retained.bytes += r.bytes;
        }
        open[i] += 1;
    });
    out.retain(|t| t.shallow.objects > 0);
    out.sort_by(|a, b| {
        (b.retained.bytes, &a.name, !a.typed).cmp(&(a.retained.bytes, &b.name, !b.typed))
    });
    out
}
