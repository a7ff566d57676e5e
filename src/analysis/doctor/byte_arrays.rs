//! `byte-arrays`: arrays typed `[Nat8]` or `[var Nat8]` (from the stable variables' types),
//! one word per byte, where a `Blob` holds a byte per byte. Saving: the array's bytes minus
//! the bytes of a `Blob` of the same length in this layout, header included.

use super::context::{Context, LabelKind};
use super::Finding;
use crate::analysis::report::plural;
use crate::heap::{Body, Object};

/// The check's state.
#[derive(Default)]
pub struct ByteArrays {
    /// (saving, node) per array that would save bytes.
    found: Vec<(u64, u32)>,
    objects: u64,
    bytes: u64,
    saving: u64,
    elements: u64,
}

impl ByteArrays {
    /// Looks at live node `n`.
    pub fn visit(&mut self, ctx: &Context<'_>, n: u32, kind: LabelKind, obj: &Object<'_>) {
        if kind != LabelKind::Nat8Array {
            return;
        }
        let Body::Array { elems, .. } = obj.body else {
            return;
        };
        let size = ctx.graph().size(n);
        let saving = size.saturating_sub(ctx.blob_bytes(elems.len()));
        if saving == 0 {
            return;
        }
        self.found.push((saving, n));
        self.objects += 1;
        self.bytes += size;
        self.saving += saving;
        self.elements += elems.len();
    }

    /// Adds the state of the pass over the nodes after this one's.
    pub fn merge(&mut self, part: Self) {
        self.found.extend(part.found);
        self.objects += part.objects;
        self.bytes += part.bytes;
        self.saving += part.saving;
        self.elements += part.elements;
    }

    /// The finding, if any array would save bytes as a Blob.
    pub fn finish(mut self, ctx: &Context<'_>) -> Option<Finding> {
        if self.found.is_empty() {
            return None;
        }
        self.found.sort_by(|x, y| (y.0, x.1).cmp(&(x.0, y.1)));
        let mut f = Finding::new("byte-arrays", self.objects, self.bytes, self.saving);
        f.detail = format!(
            "{} of Nat8 hold {} bytes in {} bytes of memory (a word per byte)",
            plural(self.objects, "array"),
            self.elements,
            self.bytes
        );
        f.advice = format!(
            "Store bytes as a Blob (Blob.fromArray / Blob.fromVarArray), which takes one byte \
             per element instead of {} and saves the difference.",
            ctx.word
        );
        f.nodes = self.found.into_iter().map(|(_, n)| n).collect();
        Some(f)
    }
}
