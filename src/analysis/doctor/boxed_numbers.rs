//! `boxed-numbers`: numbers held in boxes (`Nat64`, `Int64` and `Float` values in `Bits64`
//! boxes, classical `Nat32`/`Int32` in `Bits32` boxes, `Nat`/`Int` beyond the compact range
//! as big integers), per stable variable: each box is attributed to the variable whose value
//! alone reaches it (the first variable's value up its dominator chain; boxes no single
//! variable dominates form one row of their own). A variable's boxes are reported when they
//! are at least [`MIN_BOXES`] and at least 1 / [`SHARE_DIVISOR`] of the live heap. Saving:
//! the boxes' bytes (the word that points to a box would hold the value itself).
//!
//! The attribution reads only the dominator tree (no object is decoded), with
//! [`nearest_marked`]: each node is walked once (4 bytes per node while the finding is made).

use std::collections::{BTreeMap, HashMap};

use serde::Serialize;

use super::context::{Context, LabelKind};
use super::dominated::{nearest_marked, UNMARKED};
use super::Finding;
use crate::analysis::report::percent;
use crate::heap::Tag;

/// The fewest boxes of one variable reported.
pub const MIN_BOXES: u64 = 64;

/// A variable's boxes are reported from this share of the live heap on (1 / 64).
pub const SHARE_DIVISOR: u64 = 64;

/// A box no single stable variable dominates (several share it, or another root holds it).
const SHARED: u32 = UNMARKED;

/// The boxes one variable alone reaches (or those no single one does).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct BoxedRow {
    /// The variable (`None`: boxes no single stable variable reaches alone).
    pub variable: Option<String>,
    /// The boxes.
    pub objects: u64,
    /// Their bytes.
    pub bytes: u64,
    /// What the variable retains (its value's dominator subtree), when it has one node.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub retained_bytes: Option<u64>,
    /// Per type, most bytes first.
    pub types: Vec<BoxedType>,
}

/// One type's boxes in a [`BoxedRow`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct BoxedType {
    /// The type (`Float`, `Nat64`, `Nat`...).
    #[serde(rename = "type")]
    pub name: String,
    /// Its boxes.
    pub objects: u64,
    /// Their bytes.
    pub bytes: u64,
}

/// The check's state: the live boxes' nodes.
#[derive(Default)]
pub struct BoxedNumbers {
    boxes: Vec<u32>,
}

/// Whether an object of `tag` is a number's box.
pub fn is_box(tag: Tag) -> bool {
    matches!(tag, Tag::Bits64(_) | Tag::Bits32(_) | Tag::BigInt)
}

impl BoxedNumbers {
    /// Looks at live node `n`.
    pub fn visit(&mut self, n: u32, kind: LabelKind, tag: Tag) {
        if kind == LabelKind::Number && is_box(tag) {
            self.boxes.push(n);
        }
    }

    /// Adds the state of the pass over the nodes after this one's.
    pub fn merge(&mut self, part: Self) {
        self.boxes.extend(part.boxes);
    }

    /// The finding, if some variable's boxes are many.
    pub fn finish(self, ctx: &Context<'_>) -> Option<Finding> {
        if (self.boxes.len() as u64) < MIN_BOXES {
            return None;
        }
        let owners = owners(ctx, &self.boxes);
        let graph = ctx.graph();
        // Per owner (variable index or SHARED): boxes, bytes, and per type (count, bytes).
        type PerType = BTreeMap<String, (u64, u64)>;
        let mut by_owner: BTreeMap<u32, (Vec<u32>, u64, PerType)> = BTreeMap::new();
        for (&n, &owner) in self.boxes.iter().zip(&owners) {
            let e = by_owner.entry(owner).or_default();
            let size = graph.size(n);
            e.0.push(n);
            e.1 += size;
            let t = e.2.entry(ctx.label(n)).or_default();
            t.0 += 1;
            t.1 += size;
        }
        let live = ctx.a.live().bytes;
        let mut kept: Vec<(u32, Vec<u32>, u64, PerType)> = by_owner
            .into_iter()
            .filter(|(_, (nodes, bytes, _))| {
                nodes.len() as u64 >= MIN_BOXES && bytes.saturating_mul(SHARE_DIVISOR) >= live
            })
            .map(|(o, (nodes, bytes, types))| (o, nodes, bytes, types))
            .collect();
        if kept.is_empty() {
            return None;
        }
        kept.sort_by(|x, y| (y.2, x.0).cmp(&(x.2, y.0)));
        let vars = graph.vars();
        let doms = ctx.a.dominators();
        let rows: Vec<BoxedRow> = kept
            .iter()
            .map(|(owner, nodes, bytes, types)| {
                let var = vars.get(*owner as usize);
                let mut types: Vec<BoxedType> = types
                    .iter()
                    .map(|(t, c)| BoxedType {
                        name: t.clone(),
                        objects: c.0,
                        bytes: c.1,
                    })
                    .collect();
                types.sort_by(|x, y| (y.bytes, &x.name).cmp(&(x.bytes, &y.name)));
                BoxedRow {
                    variable: var.map(|v| v.name.clone()),
                    objects: nodes.len() as u64,
                    bytes: *bytes,
                    retained_bytes: var
                        .filter(|v| v.entries.len() == 1)
                        .map(|v| doms.retained(v.entries[0]).bytes),
                    types,
                }
            })
            .collect();
        let objects: u64 = rows.iter().map(|r| r.objects).sum();
        let bytes: u64 = rows.iter().map(|r| r.bytes).sum();
        let mut f = Finding::new("boxed-numbers", objects, bytes, bytes);
        f.detail = rows.iter().map(row_text).collect::<Vec<_>>().join("; ");
        f.advice = "Keep Nat and Int values in the compact range, and pack many Nat64, Int64 \
                    or Float values into a Blob (8 bytes each) instead of an array of boxes."
            .to_string();
        f.nodes = kept.into_iter().flat_map(|k| k.1).collect();
        f.boxed = rows;
        Some(f)
    }
}

/// One row in words: `vars.floats: 600 Float boxes (14400 bytes, 74.9% of what it retains)`.
fn row_text(r: &BoxedRow) -> String {
    let types: Vec<String> = r
        .types
        .iter()
        .map(|t| format!("{} {} boxes", t.objects, t.name))
        .collect();
    let share = r.retained_bytes.map_or(String::new(), |v| {
        format!(", {} of what it retains", percent(r.bytes, v))
    });
    match &r.variable {
        Some(v) => format!("vars.{v}: {} ({} bytes{share})", types.join(", "), r.bytes),
        None => format!(
            "no one variable's alone: {} ({} bytes)",
            types.join(", "),
            r.bytes
        ),
    }
}

/// Per box: the index of the stable variable whose value dominates it (the nearest up its
/// dominator chain), or [`SHARED`].
fn owners(ctx: &Context<'_>, boxes: &[u32]) -> Vec<u32> {
    // A variable's entry nodes; a node two variables enter is theirs together (SHARED).
    let mut entry: HashMap<u32, u32> = HashMap::new();
    for (i, v) in ctx.graph().vars().iter().enumerate() {
        for &n in &v.entries {
            entry
                .entry(n)
                .and_modify(|o| {
                    if *o != i as u32 {
                        *o = SHARED
                    }
                })
                .or_insert(i as u32);
        }
    }
    nearest_marked(ctx, &entry, boxes.iter().copied())
}
