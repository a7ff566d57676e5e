//! `empty-collections`: `mo:core` `Map`, `Set` and `List` values that are empty (a `Map` or
//! `Set` whose `size` is 0, a `List` whose `blockIndex` is 1 and `elementIndex` 0), reported
//! when there are at least [`MIN_EMPTY`]. Each costs its record, its root node (a B-tree
//! leaf of 32 slots, or the `List`'s block index) and their boxes. Saving: what each
//! retains (the bytes dropping it frees, exactly, from the dominator tree), as an `?Map`
//! left `null` until it has an entry would.

use super::context::{Context, LabelKind};
use super::Finding;
use crate::analysis::report::plural;
use crate::heap::names::label_hash;
use crate::heap::{Body, Object};

/// The fewest empty collections reported.
pub const MIN_EMPTY: u64 = 8;

/// The check's state.
#[derive(Default)]
pub struct EmptyCollections {
    /// (retained bytes, node) per empty collection.
    found: Vec<(u64, u32)>,
    objects: u64,
}

/// The value word of record field `name` of `obj`, through its `var` box if it has one.
pub fn field_value(ctx: &Context<'_>, obj: &Object<'_>, name: &str) -> Option<u64> {
    let Body::Object { hashes, fields, .. } = obj.body else {
        return None;
    };
    let word = fields.get(hashes.position(label_hash(name))? as u64)?;
    match ctx.heap().object_of(word).map(|o| o.body) {
        Ok(Body::MutBox { value }) => Some(value),
        _ => Some(word),
    }
}

/// Whether the `Map`/`Set` (`kind` `MapOrSet`) or `List` record `obj` is empty.
pub fn is_empty(ctx: &Context<'_>, kind: LabelKind, obj: &Object<'_>) -> bool {
    let nat =
        |name: &str| field_value(ctx, obj, name).and_then(|w| ctx.heap().scalars().nat_int(w));
    match kind {
        LabelKind::MapOrSet => nat("size") == Some(0),
        LabelKind::List => nat("blockIndex") == Some(1) && nat("elementIndex") == Some(0),
        _ => false,
    }
}

impl EmptyCollections {
    /// Looks at live node `n`.
    pub fn visit(&mut self, ctx: &Context<'_>, n: u32, kind: LabelKind, obj: &Object<'_>) {
        if !matches!(kind, LabelKind::MapOrSet | LabelKind::List) || !is_empty(ctx, kind, obj) {
            return;
        }
        let retained = ctx.a.dominators().retained(n);
        self.found.push((retained.bytes, n));
        self.objects += retained.objects;
    }

    /// Adds the state of the pass over the nodes after this one's.
    pub fn merge(&mut self, part: Self) {
        self.found.extend(part.found);
        self.objects += part.objects;
    }

    /// The finding, if there are many empty collections.
    pub fn finish(mut self, ctx: &Context<'_>) -> Option<Finding> {
        if (self.found.len() as u64) < MIN_EMPTY {
            return None;
        }
        self.found.sort_by(|x, y| (y.0, x.1).cmp(&(x.0, y.1)));
        let bytes: u64 = self.found.iter().map(|f| f.0).sum();
        let mut f = Finding::new("empty-collections", self.objects, bytes, bytes);
        let each = self.found.first().map_or(0, |x| x.0);
        f.detail = format!(
            "{} ({}) hold {} objects, up to {} bytes each",
            plural(self.found.len() as u64, "empty collection"),
            ctx.label(self.found[0].1),
            self.objects,
            each
        );
        f.advice = "Create a Map, Set or List when its first entry arrives (a ?Map.Map field \
                    left null until then), so empty ones cost one word."
            .to_string();
        f.nodes = self.found.into_iter().map(|(_, n)| n).collect();
        Some(f)
    }
}
