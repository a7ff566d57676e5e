//! `duplicate-texts`: identical `Text` or `Blob` values held as separate flat objects,
//! compared by content. Saving: the bytes of every copy beyond one per distinct value.
//!
//! The pass keeps a 64-bit hash and the node of each live flat text or blob (12 bytes
//! each); the finish sorts them by hash and compares the bytes of equal hashes exactly, so a
//! hash collision never merges different values. Ropes (`Concat` trees) are not compared
//! whole: their flat parts are, and `ropes` reports the trees.

use std::hash::{DefaultHasher, Hash, Hasher};

use super::context::{Context, LabelKind};
use super::Finding;
use crate::analysis::report::plural;
use crate::heap::{BlobSort, Body, Object};

/// How many duplicated values the detail names.
const TOP_VALUES: usize = 3;

/// The most distinct values compared under one hash (equal hashes of different values).
const MAX_VALUES_PER_HASH: usize = 64;

/// The longest value shown, in characters.
const VALUE_CHARS: usize = 40;

/// The check's state: (hash, node) of every live flat text and blob.
#[derive(Default)]
pub struct DuplicateTexts {
    seen: Vec<(u64, u32)>,
}

/// One distinct value held more than once: its copies (the first one kept).
struct Group {
    copies: Vec<u32>,
    size: u64,
}

impl DuplicateTexts {
    /// Looks at live node `n`.
    pub fn visit(&mut self, _ctx: &Context<'_>, n: u32, kind: LabelKind, obj: &Object<'_>) {
        if !matches!(kind, LabelKind::Text | LabelKind::Blob) {
            return;
        }
        if let Body::Blob {
            sort: BlobSort::Text | BlobSort::Bytes,
            bytes,
        } = obj.body
        {
            let mut h = DefaultHasher::new();
            bytes.hash(&mut h);
            self.seen.push((h.finish(), n));
        }
    }

    /// The finding, if any value is held more than once.
    pub fn finish(mut self, ctx: &Context<'_>) -> Option<Finding> {
        self.seen.sort_unstable();
        let mut groups: Vec<Group> = Vec::new();
        let mut i = 0;
        while i < self.seen.len() {
            let hash = self.seen[i].0;
            let end = i + self.seen[i..].partition_point(|&(h, _)| h == hash);
            groups.extend(exact_groups(ctx, &self.seen[i..end]));
            i = end;
        }
        drop(self.seen);
        if groups.is_empty() {
            return None;
        }
        groups.sort_by(|x, y| {
            let save = |g: &Group| (g.copies.len() as u64 - 1) * g.size;
            (save(y), x.copies[0]).cmp(&(save(x), y.copies[0]))
        });
        let objects: u64 = groups.iter().map(|g| g.copies.len() as u64).sum();
        let bytes: u64 = groups.iter().map(|g| g.copies.len() as u64 * g.size).sum();
        let saving: u64 = groups
            .iter()
            .map(|g| (g.copies.len() as u64 - 1) * g.size)
            .sum();
        let mut f = Finding::new("duplicate-texts", objects, bytes, saving);
        let shown: Vec<String> = groups
            .iter()
            .take(TOP_VALUES)
            .map(|g| format!("{} x{}", show(ctx, g.copies[0]), g.copies.len()))
            .collect();
        f.detail = format!(
            "{} held more than once; the most costly: {}",
            plural(groups.len() as u64, "distinct value"),
            shown.join(", ")
        );
        f.advice = "Keep one copy of a repeated Text or Blob (intern it: look it up in a Map \
                    before storing a new one) instead of building the same value again."
            .to_string();
        // The copies of the costliest value first, then the others.
        f.nodes = groups
            .iter()
            .flat_map(|g| g.copies[1..].iter().copied())
            .collect();
        let top: Vec<u32> = groups
            .iter()
            .flat_map(|g| g.copies.iter().copied())
            .take(super::MAX_WHERE)
            .collect();
        f.where_ = ctx.paths(&top);
        Some(f)
    }
}

/// The nodes of one hash split into groups of equal bytes (only groups of two or more).
fn exact_groups(ctx: &Context<'_>, run: &[(u64, u32)]) -> Vec<Group> {
    if run.len() < 2 {
        return Vec::new();
    }
    let heap = ctx.heap();
    let graph = ctx.graph();
    let bytes_of = |n: u32| match heap.object(graph.address(n)).map(|o| o.body) {
        Ok(Body::Blob { bytes, .. }) => Some(bytes),
        _ => None,
    };
    let mut out: Vec<Group> = Vec::new();
    for &(_, n) in run {
        let Some(b) = bytes_of(n) else { continue };
        let full = out.len() >= MAX_VALUES_PER_HASH;
        match out.iter_mut().find(|g| bytes_of(g.copies[0]) == Some(b)) {
            Some(g) => g.copies.push(n),
            // A run of more distinct values than this is a crafted collision: the values
            // beyond are left out (the figures only ever count real copies).
            None if full => {}
            None => out.push(Group {
                copies: vec![n],
                size: graph.size(n),
            }),
        }
    }
    out.retain(|g| g.copies.len() > 1);
    out
}

/// Node `n`'s value, short: a text quoted, a blob in hex.
fn show(ctx: &Context<'_>, n: u32) -> String {
    let Ok(obj) = ctx.heap().object(ctx.graph().address(n)) else {
        return "?".to_string();
    };
    let Body::Blob { sort, bytes } = obj.body else {
        return "?".to_string();
    };
    let text = match (sort, std::str::from_utf8(bytes)) {
        (BlobSort::Text, Ok(t)) => format!("{t:?}"),
        _ => {
            let hex: String = bytes.iter().map(|b| format!("\\{b:02x}")).collect();
            format!("\"{hex}\"")
        }
    };
    crate::analysis::types::shorten_to(text, VALUE_CHARS)
}
