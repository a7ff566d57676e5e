//! `sparse-collections`: arrays of options (`[?T]`, `[var ?T]`) of at least
//! [`MIN_SLOTS`] slots of which at least three quarters are `null`: `mo:core` `Map`/`Set`
//! B-tree nodes far below their capacity, `List` blocks not filled yet, slot arrays of mostly
//! `null`. Saving: the `null` slots (a word each).
//!
//! An array of options that is all `null` is left out: it is an empty collection's node,
//! which `empty-collections` reports (or an array nothing was stored in yet).
//! `mo:base` `Buffer`s are classes (objects with methods), which cannot be stable: no
//! stable variable's type reaches one, so they are not checked.

use super::context::{Context, LabelKind};
use super::Finding;
use crate::analysis::report::plural;
use crate::heap::{Body, Object};

/// The fewest slots an array needs to be checked.
pub const MIN_SLOTS: u64 = 8;

/// The check's state.
#[derive(Default)]
pub struct SparseCollections {
    /// (saving, node) per sparse array.
    found: Vec<(u64, u32)>,
    objects: u64,
    bytes: u64,
    saving: u64,
    slots: u64,
    nulls: u64,
}

/// Whether an array of `len` slots with `nulls` of them `null` is sparse.
pub fn is_sparse(len: u64, nulls: u64) -> bool {
    len >= MIN_SLOTS && nulls < len && nulls * 4 >= len * 3
}

impl SparseCollections {
    /// Looks at live node `n`.
    pub fn visit(&mut self, ctx: &Context<'_>, n: u32, kind: LabelKind, obj: &Object<'_>) {
        if kind != LabelKind::OptionArray {
            return;
        }
        let Body::Array { elems, .. } = obj.body else {
            return;
        };
        if elems.len() < MIN_SLOTS {
            return;
        }
        let nulls = elems.iter().filter(|&w| ctx.is_null(w)).count() as u64;
        if !is_sparse(elems.len(), nulls) {
            return;
        }
        let saving = nulls * ctx.word;
        self.found.push((saving, n));
        self.objects += 1;
        self.bytes += ctx.graph().size(n);
        self.saving += saving;
        self.slots += elems.len();
        self.nulls += nulls;
    }

    /// Adds the state of the pass over the nodes after this one's.
    pub fn merge(&mut self, part: Self) {
        self.found.extend(part.found);
        self.objects += part.objects;
        self.bytes += part.bytes;
        self.saving += part.saving;
        self.slots += part.slots;
        self.nulls += part.nulls;
    }

    /// The finding, if any array of options is sparse.
    pub fn finish(mut self, ctx: &Context<'_>) -> Option<Finding> {
        if self.found.is_empty() {
            return None;
        }
        self.found.sort_by(|x, y| (y.0, x.1).cmp(&(x.0, y.1)));
        let mut f = Finding::new("sparse-collections", self.objects, self.bytes, self.saving);
        let types = top_labels(ctx, &self.found);
        f.detail = format!(
            "{} of options, {} of {} slots in use ({} null): {}",
            plural(self.objects, "array"),
            self.slots - self.nulls,
            self.slots,
            self.nulls,
            types
        );
        f.advice = "Size arrays of options to what they hold, or keep sparse entries in a \
                    Map keyed by index, so no slot is paid for empty."
            .to_string();
        f.nodes = self.found.into_iter().map(|(_, n)| n).collect();
        Some(f)
    }
}

/// The type labels of the first few `found` nodes, distinct, joined.
fn top_labels(ctx: &Context<'_>, found: &[(u64, u32)]) -> String {
    let mut labels: Vec<String> = Vec::new();
    for &(_, n) in found {
        let l = ctx.label(n);
        if !labels.contains(&l) {
            labels.push(l);
        }
        if labels.len() == 3 {
            break;
        }
    }
    labels.join(", ")
}
