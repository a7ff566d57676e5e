//! `duplicate-texts`: identical `Text` or `Blob` values held as separate objects, flat or
//! ropes (`Concat` trees, compared as whole texts), by content. A copy costs its bytes (a
//! rope: what its root retains, from the dominator tree); each value keeps its cheapest copy
//! (the first by node on a tie). Saving: what the other copies retain, each counted once (a
//! copy inside another flagged copy's dominator subtree is in that one's bytes).
//!
//! The pass keeps a 64-bit hash and the node of each live flat text or blob (12 bytes
//! each); the finish adds each rope's root (a live `Concat` labelled `Text` no other `Concat`
//! points to) with the hash of its text, read with a stack (no recursion) as `mo-mem` reads
//! a text: parts non-empty and shorter than their `Concat`, at most the root's length, which
//! must be at most [`MAX_ROPE_BYTES`]; at most [`MAX_ROPE_TOTAL`] bytes of ropes are read in
//! all (the ropes beyond are left out and the report says so). It sorts by hash and compares
//! the texts of equal hashes exactly, so a hash collision never merges different values.

use std::borrow::Cow;
use std::collections::HashMap;
use std::hash::{DefaultHasher, Hash, Hasher};

use super::context::{Context, LabelKind};
use super::dominated::{nearest_marked, parent, UNMARKED};
use super::{Finding, Skipped};
use crate::analysis::report::plural;
use crate::heap::{BlobSort, Body, Object};

/// The longest rope compared, in bytes.
pub const MAX_ROPE_BYTES: u64 = 1 << 20;

/// The most bytes of ropes read in all.
pub const MAX_ROPE_TOTAL: u64 = 1 << 28;

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

/// One distinct value held more than once: its copies, the kept one (the cheapest) first,
/// with what each costs.
struct Group {
    copies: Vec<(u32, u64)>,
}

impl Group {
    /// What the copies beyond the kept one cost (before overlaps are taken out).
    fn extra(&self) -> u64 {
        self.copies[1..].iter().map(|c| c.1).sum()
    }
}

fn hash_of(bytes: &[u8]) -> u64 {
    let mut h = DefaultHasher::new();
    bytes.hash(&mut h);
    h.finish()
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
            self.seen.push((hash_of(bytes), n));
        }
    }

    /// The finding, if any value is held more than once; `rope_roots` are the live `Concat`
    /// nodes no other `Concat` points to (from `ropes`). A note when ropes were left out.
    pub fn finish(
        mut self,
        ctx: &Context<'_>,
        rope_roots: &[u32],
    ) -> (Option<Finding>, Option<Skipped>) {
        let (mut read, mut left_out) = (0u64, 0u64);
        for &r in rope_roots {
            if ctx.kind(r) != LabelKind::Text {
                continue;
            }
            match rope_bytes(ctx, r, MAX_ROPE_TOTAL - read) {
                Some(b) => {
                    read += b.len() as u64;
                    self.seen.push((hash_of(&b), r));
                }
                None => left_out += 1,
            }
        }
        let skipped = (left_out > 0).then(|| Skipped {
            check: "duplicate-texts: ropes".to_string(),
            reason: format!(
                "{} not compared (longer than {MAX_ROPE_BYTES} bytes, malformed, or beyond \
                 {MAX_ROPE_TOTAL} bytes of ropes read in all)",
                plural(left_out, "rope")
            ),
        });
        (self.finding(ctx), skipped)
    }

    fn finding(mut self, ctx: &Context<'_>) -> Option<Finding> {
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
        groups.sort_by(|x, y| (y.extra(), x.copies[0].0).cmp(&(x.extra(), y.copies[0].0)));
        let objects: u64 = groups.iter().map(|g| g.copies.len() as u64).sum();
        let bytes: u64 = groups
            .iter()
            .flat_map(|g| g.copies.iter().map(|c| c.1))
            .sum();
        // The copies dropped, each counted once: not those another dropped copy dominates.
        let dropped: HashMap<u32, u32> = groups
            .iter()
            .flat_map(|g| g.copies[1..].iter().map(|c| (c.0, 0)))
            .collect();
        let cost: HashMap<u32, u64> = groups
            .iter()
            .flat_map(|g| g.copies[1..].iter().copied())
            .collect();
        let mut order: Vec<u32> = dropped.keys().copied().collect();
        order.sort_unstable();
        let inside = nearest_marked(
            ctx,
            &dropped,
            order.iter().map(|&n| parent(ctx, n).unwrap_or(n)),
        );
        let saving: u64 = order
            .iter()
            .zip(&inside)
            .filter(|(&n, &m)| m == UNMARKED || parent(ctx, n).is_none())
            .map(|(n, _)| cost[n])
            .sum();
        let mut f = Finding::new("duplicate-texts", objects, bytes, saving);
        let shown: Vec<String> = groups
            .iter()
            .take(TOP_VALUES)
            .map(|g| format!("{} x{}", show(ctx, g.copies[0].0), g.copies.len()))
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
            .flat_map(|g| g.copies[1..].iter().map(|c| c.0))
            .collect();
        let top: Vec<u32> = groups
            .iter()
            .flat_map(|g| g.copies.iter().map(|c| c.0))
            .take(super::MAX_WHERE)
            .collect();
        f.where_ = ctx.paths(&top);
        Some(f)
    }
}

/// The text or bytes of node `n`: a flat object's bytes, a rope's text read whole (at most
/// [`MAX_ROPE_BYTES`] and `budget` bytes; `None` beyond, or when the rope is malformed).
fn content<'h>(ctx: &Context<'h>, n: u32, budget: u64) -> Option<Cow<'h, [u8]>> {
    match ctx.heap().object(ctx.graph().address(n)).ok()?.body {
        Body::Blob { bytes, .. } => Some(Cow::Borrowed(bytes)),
        Body::Concat { .. } => rope_bytes(ctx, n, budget).map(Cow::Owned),
        _ => None,
    }
}

/// The text of the rope at node `root`, read with a stack: every part non-empty and shorter
/// than its `Concat`, the whole as long as the root says and at most [`MAX_ROPE_BYTES`] and
/// `budget` bytes (`None` otherwise). Each step adds a byte or halves no bound, so the walk
/// ends after at most twice the root's length in objects.
fn rope_bytes(ctx: &Context<'_>, root: u32, budget: u64) -> Option<Vec<u8>> {
    let heap = ctx.heap();
    let obj = heap.object(ctx.graph().address(root)).ok()?;
    let Body::Concat { n_bytes, .. } = obj.body else {
        return None;
    };
    if n_bytes > MAX_ROPE_BYTES || n_bytes > budget {
        return None;
    }
    let mut out: Vec<u8> = Vec::with_capacity(n_bytes as usize);
    let mut stack: Vec<(u64, u64)> = Vec::new();
    let mut next = Some((obj, n_bytes + 1));
    loop {
        let (o, bound) = match next.take() {
            Some(x) => x,
            None => {
                let (w, bound) = stack.pop()?;
                (heap.object_of(w).ok()?, bound)
            }
        };
        match o.body {
            Body::Blob {
                sort: BlobSort::Text,
                bytes,
            } => {
                let len = bytes.len() as u64;
                if len == 0 || len >= bound || out.len() as u64 + len > n_bytes {
                    return None;
                }
                out.extend_from_slice(bytes);
            }
            Body::Concat {
                n_bytes: m,
                left,
                right,
            } => {
                if m < 2 || m >= bound {
                    return None;
                }
                stack.push((right, m));
                stack.push((left, m));
            }
            _ => return None,
        }
        if stack.is_empty() {
            break;
        }
    }
    (out.len() as u64 == n_bytes).then_some(out)
}

/// The nodes of one hash split into groups of equal content (only groups of two or more),
/// each group's cheapest copy first.
fn exact_groups(ctx: &Context<'_>, run: &[(u64, u32)]) -> Vec<Group> {
    if run.len() < 2 {
        return Vec::new();
    }
    let graph = ctx.graph();
    let doms = ctx.a.dominators();
    let cost = |n: u32| match ctx.heap().object(graph.address(n)).map(|o| o.tag) {
        Ok(crate::heap::Tag::Concat) => doms.retained(n).bytes,
        _ => graph.size(n),
    };
    // (the first copy's content, the group)
    let mut out: Vec<(Cow<'_, [u8]>, Group)> = Vec::new();
    for &(_, n) in run {
        let Some(b) = content(ctx, n, MAX_ROPE_BYTES) else {
            continue;
        };
        let full = out.len() >= MAX_VALUES_PER_HASH;
        match out.iter_mut().find(|g| g.0 == b) {
            Some(g) => g.1.copies.push((n, cost(n))),
            // A run of more distinct values than this is a crafted collision: the values
            // beyond are left out (the figures only ever count real copies).
            None if full => {}
            None => out.push((
                b,
                Group {
                    copies: vec![(n, cost(n))],
                },
            )),
        }
    }
    out.into_iter()
        .map(|(_, mut g)| {
            g.copies.sort_by_key(|&(n, c)| (c, n));
            g
        })
        .filter(|g| g.copies.len() > 1)
        .collect()
}

/// Node `n`'s value, short: a text quoted, a blob in hex.
fn show(ctx: &Context<'_>, n: u32) -> String {
    let Ok(obj) = ctx.heap().object(ctx.graph().address(n)) else {
        return "?".to_string();
    };
    let sort = match obj.body {
        Body::Blob { sort, .. } => sort,
        _ => BlobSort::Text,
    };
    let Some(bytes) = content(ctx, n, MAX_ROPE_BYTES) else {
        return "?".to_string();
    };
    let text = match (sort, std::str::from_utf8(&bytes)) {
        (BlobSort::Text, Ok(t)) => format!("{t:?}"),
        _ => {
            let hex: String = bytes.iter().map(|b| format!("\\{b:02x}")).collect();
            format!("\"{hex}\"")
        }
    };
    crate::analysis::types::shorten_to(text, VALUE_CHARS)
}
