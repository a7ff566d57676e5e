//! `duplicate-texts`: identical `Text` or `Blob` values held as separate objects, flat or
//! ropes (`Concat` trees, compared as whole texts), by content. A copy costs its bytes (a
//! rope: what its root retains, from the dominator tree); each value keeps its cheapest copy
//! (the first by node on a tie). Saving: what the other copies retain, each counted once (a
//! copy inside another dropped copy's dominator subtree is in that one's bytes), and none
//! of a value whose kept copy is itself inside a dropped copy (dropping that one frees the
//! kept copy too, so the value's other copies stay).
//!
//! The pass compares each live flat text or blob, as it comes, with the values seen before:
//! a table by 64-bit hash (of the values, at most half full) finds the value of equal hash,
//! whose first copy's bytes are then compared exactly, so a hash collision never merges
//! different values. It keeps, per distinct value, its hash and first copy (12 bytes, and 4
//! to 8 in the table), and per further copy its value and node (8 bytes). The finish adds
//! each rope's root (a live `Concat` labelled `Text` no other `Concat` points to) by its
//! text, read with a stack (no recursion) as `mo-mem` reads a text: parts non-empty and
//! shorter than their `Concat`, at most the root's length, which must be at most
//! [`MAX_ROPE_BYTES`]; at most [`MAX_ROPE_TOTAL`] bytes of ropes are read in all (the ropes
//! beyond are left out and the report says so).

use std::borrow::Cow;

use super::bits::Bits;
use super::context::{Context, LabelKind};
use super::dominated::{parent, MarkedAbove};
use super::{Finding, Nodes, Skipped};
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

/// A free slot of the table.
const FREE: u32 = u32::MAX;

/// The table's first length.
const FIRST_SLOTS: usize = 1024;

/// How many values' first-copy bytes are remembered (by value index, direct-mapped), so a
/// further copy of a frequent value is compared without decoding its first copy again.
const CACHED: usize = 4096;

/// The check's state: the distinct values seen, each by its first copy, and every further
/// copy.
pub struct DuplicateTexts<'h> {
    /// Open addressing by hash: a value's index, or [`FREE`]; a power of two long, at most
    /// half full.
    table: Vec<u32>,
    /// Per value: the hash of its bytes.
    hashes: Vec<u64>,
    /// Per value: its first copy (the one later copies are compared with).
    firsts: Vec<u32>,
    /// Per further copy: its value's index << 32 | its node.
    copies: Vec<u64>,
    /// More further copies, as [`DuplicateTexts::copies`]: those of the later parts of the
    /// pass, kept as they were merged (not copied into one array).
    merged_copies: Vec<Vec<u64>>,
    /// The ropes among the copies, sorted (they cost what they retain).
    ropes: Vec<u32>,
    /// Per value index modulo [`CACHED`]: a flat first copy's value and bytes.
    cache: Vec<(u32, &'h [u8])>,
    /// The copies left out because [`MAX_VALUES_PER_HASH`] other values of their hash
    /// were seen before them in this part of the pass: one may still be a copy of a value
    /// an earlier part saw ([`DuplicateTexts::merge`]).
    left_out: Vec<u32>,
}

impl Default for DuplicateTexts<'_> {
    fn default() -> Self {
        DuplicateTexts {
            table: vec![FREE; FIRST_SLOTS],
            hashes: Vec::new(),
            firsts: Vec::new(),
            copies: Vec::new(),
            merged_copies: Vec::new(),
            ropes: Vec::new(),
            cache: vec![(FREE, &[][..]); CACHED],
            left_out: Vec::new(),
        }
    }
}

/// A 64-bit hash of `bytes`: 8 bytes at a time multiplied in, then mixed so every bit of
/// the input moves every bit of the result. Not keyed: a crafted collision can only leave
/// values out (beyond [`MAX_VALUES_PER_HASH`] of one hash), never merge two.
fn hash_of(bytes: &[u8]) -> u64 {
    const K: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut h = (bytes.len() as u64).wrapping_mul(K);
    let mut chunks = bytes.chunks_exact(8);
    for c in &mut chunks {
        h = (h ^ word(c)).wrapping_mul(K).rotate_left(31);
    }
    h = (h ^ tail(chunks.remainder())).wrapping_mul(K);
    h ^= h >> 33;
    h = h.wrapping_mul(0xff51_afd7_ed55_8ccd);
    h ^ (h >> 33)
}

/// The 8 bytes of `c` (exactly 8 long) as a word.
#[inline]
fn word(c: &[u8]) -> u64 {
    let mut w = [0u8; 8];
    w.copy_from_slice(c);
    u64::from_le_bytes(w)
}

/// The bytes of `rest` (at most 8 long) in a word that, with their number, tells them
/// apart: the first and last 4 of 4 to 8 bytes (overlapping), else the first, middle and
/// last byte (of 1 to 3 every one), read without a copy of variable length.
#[inline]
fn tail(rest: &[u8]) -> u64 {
    let n = rest.len();
    match n {
        8.. => word(&rest[..8]),
        4..=7 => {
            let mut lo = [0u8; 4];
            let mut hi = [0u8; 4];
            lo.copy_from_slice(&rest[..4]);
            hi.copy_from_slice(&rest[n - 4..]);
            u64::from(u32::from_le_bytes(lo)) | u64::from(u32::from_le_bytes(hi)) << 32
        }
        1..=3 => u64::from(rest[0]) | u64::from(rest[n / 2]) << 8 | u64::from(rest[n - 1]) << 16,
        0 => 0,
    }
}

/// Whether `a` and `b` hold the same bytes: short ones (the common texts) compared as one
/// or two words that cover every byte, the others as slices.
#[inline]
fn same_bytes(a: &[u8], b: &[u8]) -> bool {
    let n = a.len();
    if n != b.len() {
        return false;
    }
    match n {
        0..=8 => tail(a) == tail(b),
        9..=16 => word(&a[..8]) == word(&b[..8]) && word(&a[n - 8..]) == word(&b[n - 8..]),
        _ => a == b,
    }
}

/// One value held more than once.
struct Dup {
    /// Its copies.
    copies: u32,
    /// The kept copy: the cheapest, the first by node on a tie.
    kept: u32,
    /// What the kept copy costs.
    kept_cost: u64,
    /// What all copies cost.
    cost: u64,
    /// Its kept copy is inside a dropped copy: none of its copies is dropped.
    keeps_all: bool,
}

impl Dup {
    /// What the copies beyond the kept one cost (before overlaps are taken out).
    fn extra(&self) -> u64 {
        self.cost - self.kept_cost
    }
}

/// What [`DuplicateTexts::add`] made of a node.
enum Added {
    /// A further copy of this value.
    Copy(u32),
    /// The first copy of this new value.
    Value(u32),
    /// Left out (too many values of its hash).
    LeftOut,
}

/// Not a value held more than once.
const SINGLE: u32 = u32::MAX;

impl<'h> DuplicateTexts<'h> {
    /// Looks at live node `n`.
    pub fn visit(&mut self, ctx: &Context<'h>, n: u32, kind: LabelKind, obj: &Object<'h>) {
        if !matches!(kind, LabelKind::Text | LabelKind::Blob) {
            return;
        }
        if let Body::Blob { sort, bytes } = obj.body {
            self.visit_blob(ctx, n, sort, bytes);
        }
    }

    /// Looks at live node `n`, labelled `Text` or `Blob`, a blob of `sort` holding `bytes`
    /// (what [`DuplicateTexts::visit`] does with its decoded object).
    #[inline]
    pub fn visit_blob(&mut self, ctx: &Context<'h>, n: u32, sort: BlobSort, bytes: &'h [u8]) {
        if matches!(sort, BlobSort::Text | BlobSort::Bytes) && !self.add(ctx, n, bytes) {
            self.left_out.push(n);
        }
    }

    /// Adds the state of the pass over the nodes after this one's (`part`), so the result
    /// is the one a pass over both would give. `part`'s values are taken in the order it
    /// first saw them, which is address order: each is a further copy of a value seen here
    /// (compared byte for byte), or a new value, or left out when this state already holds
    /// [`MAX_VALUES_PER_HASH`] values of its hash (the one pass would have left out all its
    /// copies too: the values of a hash only grow, and none are added beyond the limit).
    /// `part`'s own left-out copies are then looked up here: the one pass would have had
    /// at least as many values of their hash before them, so each is a copy of a value
    /// seen in an earlier part or left out again.
    pub fn merge(&mut self, ctx: &Context<'h>, mut part: DuplicateTexts<'h>) {
        const GONE: u32 = u32::MAX;
        let mut index = Vec::with_capacity(part.firsts.len());
        for v in 0..part.firsts.len() as u32 {
            let (n, h) = (part.firsts[v as usize], part.hashes[v as usize]);
            let i = match part.first_bytes(ctx, v) {
                Some(bytes) => self.add_hashed(ctx, n, h, &bytes),
                None => Added::LeftOut,
            };
            index.push(match i {
                Added::Copy(i) | Added::Value(i) => i,
                Added::LeftOut => GONE,
            });
        }
        let renumber = |c: &mut u64| match index[(*c >> 32) as usize] {
            GONE => false,
            i => {
                *c = u64::from(i) << 32 | (*c & 0xffff_ffff);
                true
            }
        };
        for mut copies in std::iter::once(part.copies).chain(part.merged_copies) {
            copies.retain_mut(renumber);
            if !copies.is_empty() {
                self.merged_copies.push(copies);
            }
        }
        for n in part.left_out {
            let bytes = content(ctx, n, MAX_ROPE_BYTES);
            if !bytes.is_some_and(|b| self.add(ctx, n, &b)) {
                self.left_out.push(n);
            }
        }
    }

    /// Node `n`, holding `bytes`: a further copy of the value it equals, or a new value (left
    /// out when [`MAX_VALUES_PER_HASH`] values of its hash were seen: a crafted collision;
    /// `false` then).
    fn add(&mut self, ctx: &Context<'h>, n: u32, bytes: &[u8]) -> bool {
        !matches!(
            self.add_hashed(ctx, n, hash_of(bytes), bytes),
            Added::LeftOut
        )
    }

    /// [`DuplicateTexts::add`] of `bytes` of hash `h`.
    fn add_hashed(&mut self, ctx: &Context<'h>, n: u32, h: u64, bytes: &[u8]) -> Added {
        let mask = self.table.len() - 1;
        let mut i = h as usize & mask;
        let mut same_hash = 0;
        loop {
            let v = self.table[i];
            if v == FREE {
                break;
            }
            if self.hashes[v as usize] == h {
                if self
                    .first_bytes(ctx, v)
                    .is_some_and(|first| same_bytes(&first, bytes))
                {
                    self.copies.push(u64::from(v) << 32 | u64::from(n));
                    return Added::Copy(v);
                }
                same_hash += 1;
            }
            i = (i + 1) & mask;
        }
        if same_hash >= MAX_VALUES_PER_HASH {
            return Added::LeftOut;
        }
        let v = self.hashes.len() as u32;
        self.table[i] = v;
        self.hashes.push(h);
        self.firsts.push(n);
        if self.hashes.len() * 2 > self.table.len() {
            self.grow();
        }
        Added::Value(v)
    }

    /// The bytes of value `v`'s first copy (a flat one's remembered).
    fn first_bytes(&mut self, ctx: &Context<'h>, v: u32) -> Option<Cow<'h, [u8]>> {
        let slot = v as usize % CACHED;
        if self.cache[slot].0 == v {
            return Some(Cow::Borrowed(self.cache[slot].1));
        }
        let b = content(ctx, self.firsts[v as usize], MAX_ROPE_BYTES)?;
        if let Cow::Borrowed(flat) = b {
            self.cache[slot] = (v, flat);
        }
        Some(b)
    }

    /// Doubles the table.
    fn grow(&mut self) {
        let len = self.table.len() * 2;
        self.table = vec![FREE; len];
        for (v, &h) in self.hashes.iter().enumerate() {
            let mut i = h as usize & (len - 1);
            while self.table[i] != FREE {
                i = (i + 1) & (len - 1);
            }
            self.table[i] = v as u32;
        }
    }

    /// The finding, if any value is held more than once; `rope_roots` are the live `Concat`
    /// nodes no other `Concat` points to (from `ropes`). A note when ropes were left out.
    /// The finding's `where` is left to be searched: the copies whose paths it shows are
    /// its `where_nodes`.
    pub fn finish(
        mut self,
        ctx: &Context<'h>,
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
                    self.ropes.push(r);
                    let _ = self.add(ctx, r, &b);
                }
                None => left_out += 1,
            }
        }
        self.ropes.sort_unstable();
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

    /// What copy `n` costs: a flat object its bytes, a rope what its root retains.
    fn cost(&self, ctx: &Context<'_>, n: u32) -> u64 {
        match self.ropes.binary_search(&n) {
            Ok(_) => ctx.a.dominators().retained(n).bytes,
            Err(_) => ctx.graph().size(n),
        }
    }

    /// Every further copy (value index << 32 | node).
    fn all_copies(&self) -> impl Iterator<Item = u64> + '_ {
        self.copy_parts().flatten().copied()
    }

    /// The further copies, as the arrays that hold them.
    fn copy_parts(&self) -> impl Iterator<Item = &[u64]> + '_ {
        std::iter::once(&self.copies[..]).chain(self.merged_copies.iter().map(|c| &c[..]))
    }

    /// Every copy of the values held more than once, with its value's index among them.
    fn each_copy<'s>(&'s self, dup_of: &'s [u32]) -> impl Iterator<Item = (u32, u32)> + 's {
        let firsts = self.firsts.iter().enumerate().map(|(v, &n)| (v as u32, n));
        let rest = self.all_copies().map(|c| ((c >> 32) as u32, c as u32));
        firsts
            .chain(rest)
            .filter_map(|(v, n)| match dup_of[v as usize] {
                SINGLE => None,
                d => Some((d, n)),
            })
    }

    fn finding(mut self, ctx: &Context<'_>) -> Option<Finding> {
        self.table = Vec::new();
        self.hashes = Vec::new();
        // Per value: its copies, then its index among those held more than once.
        let mut dup_of = vec![1u32; self.firsts.len()];
        for part in self.copy_parts() {
            for &c in part {
                dup_of[(c >> 32) as usize] += 1;
            }
        }
        let mut dups: Vec<Dup> = Vec::new();
        for d in dup_of.iter_mut() {
            *d = match *d {
                1 => SINGLE,
                _ => {
                    dups.push(Dup {
                        copies: 0,
                        kept: u32::MAX,
                        kept_cost: u64::MAX,
                        cost: 0,
                        keeps_all: false,
                    });
                    dups.len() as u32 - 1
                }
            };
        }
        if dups.is_empty() {
            return None;
        }
        let mut dropped = Bits::new(ctx.graph().nodes());
        let mut count = |d: u32, n: u32| {
            let c = self.cost(ctx, n);
            let g = &mut dups[d as usize];
            g.copies += 1;
            g.cost += c;
            if (c, n) < (g.kept_cost, g.kept) {
                (g.kept_cost, g.kept) = (c, n);
            }
            dropped.set(n);
        };
        for (&n, &d) in self.firsts.iter().zip(&dup_of) {
            if d != SINGLE {
                count(d, n);
            }
        }
        // Every further copy's value is held more than once.
        for part in self.copy_parts() {
            for &c in part {
                count(dup_of[(c >> 32) as usize], c as u32);
            }
        }
        for g in &dups {
            dropped.clear(g.kept);
        }
        // Only a rope refers to other objects: a flat text or blob holds nothing, so without
        // ropes among the copies no copy is inside another, no value keeps all its copies,
        // and the saving is what each value's copies beyond the kept one cost.
        let nested = !self.ropes.is_empty();
        if nested {
            self.keep_all_inside_dropped(ctx, &mut dups, &dup_of, &mut dropped);
        }
        let saving = match nested {
            true => self.saving(ctx, &dropped),
            false => dups.iter().map(Dup::extra).sum(),
        };
        // The values by what their copies beyond one cost, most first.
        let mut order: Vec<u32> = (0..dups.len() as u32).collect();
        order.sort_unstable_by(|&x, &y| {
            let (x, y) = (&dups[x as usize], &dups[y as usize]);
            (y.extra(), x.kept).cmp(&(x.extra(), y.kept))
        });
        let top = self.top(ctx, &dups, &order, &dup_of);
        // The copies are not needed beyond here: their memory goes before the finding's
        // nodes are collected (the path search running ahead holds its own meanwhile).
        self.copies = Vec::new();
        self.merged_copies = Vec::new();
        self.firsts = Vec::new();
        let objects: u64 = dups.iter().map(|g| u64::from(g.copies)).sum();
        let bytes: u64 = dups.iter().map(|g| g.cost).sum();
        let mut f = Finding::new("duplicate-texts", objects, bytes, saving);
        let shown: Vec<String> = order
            .iter()
            .take(TOP_VALUES)
            .map(|&d| {
                let g = &dups[d as usize];
                format!("{} x{}", show(ctx, g.kept), g.copies)
            })
            .collect();
        f.detail = format!(
            "{} held more than once; the most costly: {}",
            plural(dups.len() as u64, "distinct value"),
            shown.join(", ")
        );
        f.advice = "Keep one copy of a repeated Text or Blob (intern it: look it up in a Map \
                    before storing a new one) instead of building the same value again."
            .to_string();
        f.where_nodes = top;
        f.nodes = Nodes::Marked(dropped);
        Some(f)
    }

    /// Marks the values whose kept copy is inside a dropped copy (dropping that one frees
    /// the kept copy too) as keeping all their copies, and takes those out of `dropped`.
    fn keep_all_inside_dropped(
        &self,
        ctx: &Context<'_>,
        dups: &mut [Dup],
        dup_of: &[u32],
        dropped: &mut Bits,
    ) {
        let mut above = MarkedAbove::new(ctx);
        let mut any_keeps_all = false;
        for g in dups.iter_mut() {
            if let Some(p) = parent(ctx, g.kept) {
                g.keeps_all = above.ask(ctx, dropped, p);
                any_keeps_all |= g.keeps_all;
            }
        }
        if any_keeps_all {
            for (d, n) in self.each_copy(dup_of) {
                if dups[d as usize].keeps_all {
                    dropped.clear(n);
                }
            }
        }
    }

    /// The copies whose paths `where` shows: for the costliest values (`order`) in turn,
    /// the kept copy, then the value's other copies by cost and node, [`super::MAX_WHERE`]
    /// in all. The other copies of a value are those dropped, or, for a value that keeps
    /// all its copies, all but the kept one: every copy but the kept one either way.
    fn top(&self, ctx: &Context<'_>, dups: &[Dup], order: &[u32], dup_of: &[u32]) -> Vec<u32> {
        const MAX: usize = super::MAX_WHERE;
        // The values among the first MAX, by their index among all values (slot i: the
        // value of `firsts[i]`; the others never match a value index).
        let firsts = &order[..order.len().min(MAX)];
        let mut value_of = [u32::MAX; MAX];
        for (v, &d) in dup_of.iter().enumerate() {
            if let Some(i) = firsts.iter().position(|&e| e == d) {
                value_of[i] = v as u32;
            }
        }
        // Per value among them: its cheapest other copies by (cost, node), at most MAX, in
        // one pass over the copies.
        let mut cheapest: Vec<Vec<(u64, u32)>> = vec![Vec::new(); firsts.len()];
        let mut consider = |v: u32, n: u32| {
            let Some(i) = value_of.iter().position(|&e| e == v) else {
                return;
            };
            if n == dups[firsts[i] as usize].kept {
                return;
            }
            let c = &mut cheapest[i];
            let key = (self.cost(ctx, n), n);
            if c.len() < MAX || c.last().is_some_and(|&l| key < l) {
                let at = c.partition_point(|&x| x < key);
                c.insert(at, key);
                c.truncate(MAX);
            }
        };
        for &v in &value_of[..firsts.len()] {
            consider(v, self.firsts[v as usize]);
        }
        for part in self.copy_parts() {
            for &c in part {
                consider((c >> 32) as u32, c as u32);
            }
        }
        let mut top: Vec<u32> = Vec::new();
        for (i, &d) in firsts.iter().enumerate() {
            if top.len() >= MAX {
                break;
            }
            top.push(dups[d as usize].kept);
            top.extend(cheapest[i].iter().map(|&(_, n)| n));
            top.truncate(MAX);
        }
        top
    }

    /// The saving: what the `dropped` copies cost, each counted once: not those another
    /// dropped copy dominates (the answer does not depend on the order asked).
    fn saving(&self, ctx: &Context<'_>, dropped: &Bits) -> u64 {
        let mut above = MarkedAbove::new(ctx);
        let mut saving = 0u64;
        for n in dropped.ones() {
            if parent(ctx, n).is_none_or(|p| !above.ask(ctx, dropped, p)) {
                saving += self.cost(ctx, n);
            }
        }
        saving
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_bytes_is_slice_equality() {
        let mut rng = fastrand::Rng::with_seed(33);
        for _ in 0..200_000 {
            let n = rng.usize(0..40);
            // few distinct byte values, so equal slices and near misses are common
            let a: Vec<u8> = (0..n).map(|_| rng.u8(0..3)).collect();
            let mut b = a.clone();
            match rng.u8(0..4) {
                0 => {}
                1 if n > 0 => b[rng.usize(0..n)] = rng.u8(0..3),
                2 => b.push(rng.u8(0..3)),
                _ => b = (0..rng.usize(0..40)).map(|_| rng.u8(0..3)).collect(),
            }
            assert_eq!(same_bytes(&a, &b), a == b, "{a:?} {b:?}");
            if a == b {
                assert_eq!(hash_of(&a), hash_of(&b));
            }
        }
    }

    #[test]
    fn short_tails_tell_bytes_apart() {
        // every slice of up to 3 bytes over a small alphabet, and up to 8 over two letters
        let mut seen = std::collections::HashMap::new();
        for n in 0..=8usize {
            let letters: u64 = if n <= 3 { 5 } else { 2 };
            for code in 0..letters.pow(n as u32) {
                let bytes: Vec<u8> = (0..n)
                    .map(|i| (code / letters.pow(i as u32) % letters) as u8)
                    .collect();
                let key = (n, tail(&bytes));
                assert!(seen.insert(key, bytes.clone()).is_none(), "{bytes:?}");
            }
        }
    }
}
