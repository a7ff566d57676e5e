//! [`Context`]: what every check reads: the opened heap, its analysis, the type labels
//! sorted into the kinds the checks look for, and the layout's sizes.

use std::sync::OnceLock;

use crate::analysis::cached::HeapAnalysis;
use crate::analysis::graph::HeapGraph;
use crate::analysis::types::{ElemShape, LabelShape, TypeLabels, NO_LABEL};
use crate::analysis::OpenedHeap;
use crate::heap::types::Prim;
use crate::heap::{Heap, Tag};
use crate::module::Persistence;

use super::MAX_WHERE;

/// What a type label tells the checks about an object.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LabelKind {
    /// Nothing a check looks at.
    Other,
    /// Nothing a check looks at, and never a number box, a `Concat` or a `WeakRef`
    /// ([`TypeLabels::plain`]): the pass does not read its objects' headers.
    Plain,
    /// `Text`.
    Text,
    /// `Blob`.
    Blob,
    /// `[Nat8]` or `[var Nat8]`.
    Nat8Array,
    /// An array of options (`[?T]`, `[var ?T]`): B-tree nodes, List blocks, slot arrays.
    OptionArray,
    /// A `mo:core` `Map` or `Set` record (`Map<K, V>`, `Set<T>`).
    MapOrSet,
    /// A `mo:core` `List` record (`List<T>`).
    List,
    /// A number type whose values may be boxed (`Nat`, `Int`, `Nat64`, `Int64`, `Float`,
    /// `Nat32`, `Int32`).
    Number,
}

impl LabelKind {
    /// The kind of a type label.
    pub fn of(label: &str) -> LabelKind {
        match label {
            "Text" => LabelKind::Text,
            "Blob" => LabelKind::Blob,
            "[Nat8]" | "[var Nat8]" => LabelKind::Nat8Array,
            "Nat" | "Int" | "Nat64" | "Int64" | "Float" | "Nat32" | "Int32" => LabelKind::Number,
            l if l.starts_with("[?") || l.starts_with("[var ?") => LabelKind::OptionArray,
            l if l.starts_with("Map<") || l.starts_with("Set<") => LabelKind::MapOrSet,
            l if l.starts_with("List<") => LabelKind::List,
            _ => LabelKind::Other,
        }
    }

    /// The kind of a label whose type has structure `shape` (aliases expanded: a label
    /// `Bytes` of `type Bytes = [Nat8]` is a [`LabelKind::Nat8Array`], a label `Index` of
    /// `type Index = Map.Map<Nat, Text>` a [`LabelKind::MapOrSet`]); a label two types of
    /// different structure print alike is a `mo:core` collection when its name says so.
    pub fn of_shape(label: &str, shape: LabelShape) -> LabelKind {
        match shape {
            LabelShape::Prim(Prim::Text) => LabelKind::Text,
            LabelShape::Prim(Prim::Blob) => LabelKind::Blob,
            LabelShape::Prim(
                Prim::Nat
                | Prim::Int
                | Prim::Nat64
                | Prim::Int64
                | Prim::Float
                | Prim::Nat32
                | Prim::Int32,
            ) => LabelKind::Number,
            LabelShape::Array {
                elem: ElemShape::Prim(Prim::Nat8),
                ..
            } => LabelKind::Nat8Array,
            LabelShape::Array {
                elem: ElemShape::Opt,
                ..
            } => LabelKind::OptionArray,
            LabelShape::MapOrSet => LabelKind::MapOrSet,
            LabelShape::List => LabelKind::List,
            _ => match LabelKind::of(label) {
                k @ (LabelKind::MapOrSet | LabelKind::List) => k,
                _ => LabelKind::Other,
            },
        }
    }
}

/// The bytes of a `Blob` (or flat `Text`) of `len` bytes in a layout with `header`-byte
/// headers and `word`-byte words: the header, the length word, the bytes padded to a word
/// (saturating: a length read from a hostile heap cannot overflow it).
pub fn blob_bytes(header: u64, word: u64, len: u64) -> u64 {
    len.div_ceil(word.max(1))
        .saturating_mul(word)
        .saturating_add(header)
        .saturating_add(word)
}

/// What the checks share: the heap, its analysis and type labels, the layout's sizes (read
/// by every thread of the pass: nothing in it changes but a word found once).
pub struct Context<'a> {
    /// The opened snapshot.
    pub opened: &'a OpenedHeap,
    /// Its analysis.
    pub a: &'a HeapAnalysis,
    /// Its type labels.
    pub labels: &'a TypeLabels,
    /// Per label index: its kind.
    kinds: Vec<LabelKind>,
    /// Bytes per word.
    pub word: u64,
    /// Bytes per object header.
    pub header: u64,
    /// Classical persistence: the word of the `Null` object, once one was seen.
    null_word: OnceLock<u64>,
}

impl<'a> Context<'a> {
    /// The context of `opened` and its analysis `a`.
    pub fn new(opened: &'a OpenedHeap, a: &'a HeapAnalysis) -> Context<'a> {
        let labels = a.labels(opened);
        let kinds = labels
            .names()
            .iter()
            .zip(labels.shapes())
            .zip(labels.plain())
            .map(|((l, &s), &plain)| match LabelKind::of_shape(l, s) {
                LabelKind::Other if plain => LabelKind::Plain,
                k => k,
            })
            .collect();
        let layout = opened.heap().layout();
        Context {
            opened,
            a,
            labels,
            kinds,
            word: layout.word.bytes(),
            header: layout.header,
            null_word: OnceLock::new(),
        }
    }

    /// The heap.
    pub fn heap(&self) -> &'a Heap {
        self.opened.heap()
    }

    /// The graph.
    pub fn graph(&self) -> &'a HeapGraph {
        self.a.graph()
    }

    /// Whether the heap is in enhanced orthogonal persistence.
    pub fn eop(&self) -> bool {
        self.heap().layout().persistence == Persistence::Enhanced
    }

    /// The kind of node `n`'s type label.
    #[inline]
    pub fn kind(&self, n: u32) -> LabelKind {
        match self.labels.label_index(n) {
            NO_LABEL => LabelKind::Other,
            i => self
                .kinds
                .get(i as usize)
                .copied()
                .unwrap_or(LabelKind::Other),
        }
    }

    /// Node `n`'s type label (`?` without one).
    pub fn label(&self, n: u32) -> String {
        self.labels
            .label(n)
            .map_or("?".to_string(), |l| l.to_string())
    }

    /// The bytes of a `Blob` of `len` bytes in this layout.
    pub fn blob_bytes(&self, len: u64) -> u64 {
        blob_bytes(self.header, self.word, len)
    }

    /// Whether `word` is Motoko `null` (classical: the `Null` object, remembered once seen).
    pub fn is_null(&self, word: u64) -> bool {
        if self.null_word.get() == Some(&word) {
            return true;
        }
        let heap = self.heap();
        if heap.pointer(word).is_none() && heap.layout().persistence == Persistence::Classical {
            return false;
        }
        let null = heap.is_null(word).unwrap_or(false);
        if null && heap.layout().persistence == Persistence::Classical {
            // Threads may race to store one: whichever is kept is a word that is `null`.
            let _ = self.null_word.set(word);
        }
        null
    }

    /// The node a pointer word refers to (following forwarding), if it is one.
    pub fn node_of(&self, word: u64) -> Option<u32> {
        let addr = self.heap().pointer(word)?;
        let (_, node) = self.graph().resolve_node(self.heap(), addr).ok()?;
        node
    }

    /// The tag of node `n`'s object.
    pub fn tag(&self, n: u32) -> Option<Tag> {
        self.heap()
            .object(self.graph().address(n))
            .ok()
            .map(|o| o.tag)
    }

    /// The access paths of the first [`MAX_WHERE`] of `nodes` that a root reaches: the
    /// shortest paths `mo-mem path` prints ([`HeapAnalysis::path_text`]), from the
    /// analysis's one search, run only as far as the nodes asked for need
    /// ([`HeapAnalysis::path_reached`]; a later `paths` finishes the same search).
    pub fn paths(&self, nodes: impl IntoIterator<Item = u32>) -> Vec<String> {
        nodes
            .into_iter()
            .filter_map(|n| self.a.path_reached(self.opened, n))
            .map(|p| p.text())
            .take(MAX_WHERE)
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blobs_and_labels() {
        // EOP: 16-byte header, 8-byte words; classical copying: 4 and 4.
        assert_eq!(blob_bytes(16, 8, 0), 24);
        assert_eq!(blob_bytes(16, 8, 1), 32);
        assert_eq!(blob_bytes(16, 8, 1000), 1024);
        assert_eq!(blob_bytes(4, 4, 1000), 1008);
        assert_eq!(blob_bytes(4, 4, 3), 12);
        assert_eq!(blob_bytes(16, 8, u64::MAX), u64::MAX);
        assert_eq!(LabelKind::of("[var Nat8]"), LabelKind::Nat8Array);
        assert_eq!(LabelKind::of("[var ?(Nat, Text)]"), LabelKind::OptionArray);
        assert_eq!(LabelKind::of("Map<Nat, Text>"), LabelKind::MapOrSet);
        assert_eq!(LabelKind::of("[Nat]"), LabelKind::Other);
    }

    #[test]
    fn aliases_are_kinds_by_their_structure() {
        let nat8s = |mutable| LabelShape::Array {
            mutable,
            elem: ElemShape::Prim(Prim::Nat8),
        };
        assert_eq!(
            LabelKind::of_shape("Bytes", nat8s(false)),
            LabelKind::Nat8Array
        );
        assert_eq!(
            LabelKind::of_shape("[var Byte]", nat8s(true)),
            LabelKind::Nat8Array
        );
        let raw = LabelShape::Prim(Prim::Blob);
        assert_eq!(LabelKind::of_shape("Raw", raw), LabelKind::Blob);
        let name = LabelShape::Prim(Prim::Text);
        assert_eq!(LabelKind::of_shape("Name", name), LabelKind::Text);
        let slots = LabelShape::Array {
            mutable: true,
            elem: ElemShape::Opt,
        };
        assert_eq!(LabelKind::of_shape("Slots", slots), LabelKind::OptionArray);
        // mo:core collections behind aliases, by the structure the type table recognised.
        assert_eq!(
            LabelKind::of_shape("Index", LabelShape::MapOrSet),
            LabelKind::MapOrSet
        );
        assert_eq!(
            LabelKind::of_shape("Queue", LabelShape::List),
            LabelKind::List
        );
        assert_eq!(
            LabelKind::of_shape("Index", LabelShape::Other),
            LabelKind::Other
        );
        // A label two types print alike says nothing, even when its name looks like one.
        assert_eq!(
            LabelKind::of_shape("[Nat8]", LabelShape::Other),
            LabelKind::Other
        );
        assert_eq!(
            LabelKind::of_shape("Map<Nat, Text>", LabelShape::Other),
            LabelKind::MapOrSet
        );
        assert_eq!(
            nat8s(false).join(LabelShape::Prim(Prim::Blob)),
            LabelShape::Other
        );
        assert_eq!(nat8s(false).join(nat8s(false)), nat8s(false));
    }
}
