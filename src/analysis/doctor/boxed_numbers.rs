//! `boxed-numbers`: numbers held in boxes (`Nat64`, `Int64` and `Float` values in `Bits64`
//! boxes, classical `Nat32`/`Int32` in `Bits32` boxes, `Nat`/`Int` beyond the compact range
//! as big integers), per type, when a type's boxes are at least [`MIN_BOXES`] and at least
//! 1 / [`SHARE_DIVISOR`] of the live heap. Saving: the boxes' bytes (the word that points to
//! a box would hold the value itself).

use std::collections::BTreeMap;

use super::context::{Context, LabelKind};
use super::Finding;
use crate::heap::{Object, Tag};

/// The fewest boxes of one type reported.
pub const MIN_BOXES: u64 = 64;

/// A type's boxes are reported from this share of the live heap on (1 / 64).
pub const SHARE_DIVISOR: u64 = 64;

/// The check's state: per type label, the boxes' nodes and bytes.
#[derive(Default)]
pub struct BoxedNumbers {
    by_type: BTreeMap<String, (Vec<u32>, u64)>,
}

/// Whether an object of `tag` is a number's box.
pub fn is_box(tag: Tag) -> bool {
    matches!(tag, Tag::Bits64(_) | Tag::Bits32(_) | Tag::BigInt)
}

impl BoxedNumbers {
    /// Looks at live node `n`.
    pub fn visit(&mut self, ctx: &Context<'_>, n: u32, kind: LabelKind, obj: &Object<'_>) {
        if kind != LabelKind::Number || !is_box(obj.tag) {
            return;
        }
        let entry = self.by_type.entry(ctx.label(n)).or_default();
        entry.0.push(n);
        entry.1 += ctx.graph().size(n);
    }

    /// The finding, if the boxes of some type are many.
    pub fn finish(self, ctx: &Context<'_>) -> Option<Finding> {
        let live = ctx.a.live().bytes;
        let mut kept: Vec<(String, Vec<u32>, u64)> = self
            .by_type
            .into_iter()
            .filter(|(_, (nodes, bytes))| {
                nodes.len() as u64 >= MIN_BOXES && bytes * SHARE_DIVISOR >= live
            })
            .map(|(t, (nodes, bytes))| (t, nodes, bytes))
            .collect();
        if kept.is_empty() {
            return None;
        }
        kept.sort_by(|x, y| (y.2, &x.0).cmp(&(x.2, &y.0)));
        let objects: u64 = kept.iter().map(|k| k.1.len() as u64).sum();
        let bytes: u64 = kept.iter().map(|k| k.2).sum();
        let mut f = Finding::new("boxed-numbers", objects, bytes, bytes);
        let parts: Vec<String> = kept
            .iter()
            .map(|(t, nodes, b)| format!("{} {t} boxes ({b} bytes)", nodes.len()))
            .collect();
        f.detail = parts.join(", ");
        f.advice = "Keep Nat and Int values in the compact range, and pack many Nat64, Int64 \
                    or Float values into a Blob (8 bytes each) instead of an array of boxes."
            .to_string();
        f.nodes = kept.into_iter().flat_map(|k| k.1).collect();
        let _ = ctx;
        Some(f)
    }
}
