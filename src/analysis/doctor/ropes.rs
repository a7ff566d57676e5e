//! `ropes`: texts held as long trees of `Concat` nodes (built by `#` in a loop). A rope's
//! root is a live `Concat` no other `Concat` points to; a rope of at least
//! [`MIN_NODES`] `Concat` nodes is reported. Saving: what the root retains (the bytes
//! dropping it frees, exactly, from the dominator tree) minus the bytes of one flat `Text`
//! of the rope's length, when positive.
//!
//! Memory: two bits per node (which nodes a `Concat` points to, which were counted) and
//! four bytes per live `Concat`; the count walks each rope once with a stack, no recursion.

use super::context::Context;
use super::Finding;
use crate::heap::{Body, Object};

/// The fewest `Concat` nodes a rope needs to be reported.
pub const MIN_NODES: u64 = 16;

/// The check's state.
pub struct Ropes {
    /// The graph's nodes.
    nodes: usize,
    /// Bit per node: a live `Concat` points to it (made at the first `Concat`: empty while
    /// the pass has seen none).
    in_rope: Vec<u64>,
    /// The live `Concat` nodes.
    concats: Vec<u32>,
}

fn set(bits: &mut [u64], n: u32) -> bool {
    let (i, b) = ((n / 64) as usize, 1u64 << (n % 64));
    let was = bits[i] & b != 0;
    bits[i] |= b;
    was
}

fn get(bits: &[u64], n: u32) -> bool {
    bits.get((n / 64) as usize)
        .is_some_and(|w| w & (1u64 << (n % 64)) != 0)
}

/// The `Concat` children of a `Concat` object, as nodes.
fn children(ctx: &Context<'_>, obj: &Object<'_>) -> [Option<u32>; 2] {
    match obj.body {
        Body::Concat { left, right, .. } => [ctx.node_of(left), ctx.node_of(right)],
        _ => [None, None],
    }
}

impl Ropes {
    /// The state for a graph of `nodes` nodes.
    pub fn new(nodes: usize) -> Ropes {
        Ropes {
            nodes,
            in_rope: Vec::new(),
            concats: Vec::new(),
        }
    }

    /// Adds the state of the pass over the nodes after this one's.
    pub fn merge(&mut self, part: Ropes) {
        self.concats.extend(part.concats);
        match self.in_rope.is_empty() {
            true => self.in_rope = part.in_rope,
            false => {
                for (w, p) in self.in_rope.iter_mut().zip(part.in_rope) {
                    *w |= p;
                }
            }
        }
    }

    /// Looks at live node `n`.
    pub fn visit(&mut self, ctx: &Context<'_>, n: u32, obj: &Object<'_>) {
        if !matches!(obj.body, Body::Concat { .. }) {
            return;
        }
        self.concats.push(n);
        if self.in_rope.is_empty() {
            self.in_rope = vec![0; self.nodes.div_ceil(64)];
        }
        for c in children(ctx, obj).into_iter().flatten() {
            set(&mut self.in_rope, c);
        }
    }

    /// The roots of the ropes: the live `Concat` nodes no other `Concat` points to.
    pub fn roots(&self) -> Vec<u32> {
        self.concats
            .iter()
            .copied()
            .filter(|&n| !get(&self.in_rope, n))
            .collect()
    }

    /// The finding, if any rope is long.
    pub fn finish(self, ctx: &Context<'_>) -> Option<Finding> {
        let mut counted = vec![0u64; self.nodes.div_ceil(64)];
        let mut found: Vec<(u64, u32, u64)> = Vec::new();
        let (mut objects, mut bytes, mut saving) = (0u64, 0u64, 0u64);
        for &root in self.concats.iter().filter(|&&n| !get(&self.in_rope, n)) {
            let (nodes, node_bytes) = count(ctx, root, &mut counted);
            if nodes < MIN_NODES {
                continue;
            }
            let Some(len) = text_len(ctx, root) else {
                continue;
            };
            let retained = ctx.a.dominators().retained(root).bytes;
            let save = retained.saturating_sub(ctx.blob_bytes(len));
            if save == 0 {
                continue;
            }
            found.push((save, root, nodes));
            objects += nodes;
            bytes += node_bytes;
            saving += save;
        }
        if found.is_empty() {
            return None;
        }
        found.sort_by(|x, y| (y.0, x.1).cmp(&(x.0, y.1)));
        let mut f = Finding::new("ropes", objects, bytes, saving);
        let longest = found.iter().map(|r| r.2).max().unwrap_or(0);
        f.detail = format!(
            "{} of {} Concat nodes in all ({} bytes; the longest has {})",
            match found.len() {
                1 => "1 text is a tree".to_string(),
                n => format!("{n} texts are trees"),
            },
            objects,
            bytes,
            longest
        );
        f.advice = "Build long texts once (collect the parts in a List or array and join \
                    them with Text.join) instead of appending with # in a loop, so each is \
                    one flat object."
            .to_string();
        f.nodes = found.into_iter().map(|r| r.1).collect();
        Some(f)
    }
}

/// The `Concat` nodes of the rope at `root` not counted before, and their bytes.
fn count(ctx: &Context<'_>, root: u32, counted: &mut [u64]) -> (u64, u64) {
    let (heap, graph) = (ctx.heap(), ctx.graph());
    let mut stack = vec![root];
    let (mut nodes, mut bytes) = (0u64, 0u64);
    while let Some(n) = stack.pop() {
        if set(counted, n) {
            continue;
        }
        let Ok(obj) = heap.object(graph.address(n)) else {
            continue;
        };
        if !matches!(obj.body, Body::Concat { .. }) {
            continue;
        }
        nodes += 1;
        bytes += graph.size(n);
        stack.extend(children(ctx, &obj).into_iter().flatten());
    }
    (nodes, bytes)
}

/// The UTF-8 length of the text at `n` (a `Concat`).
fn text_len(ctx: &Context<'_>, n: u32) -> Option<u64> {
    match ctx.heap().object(ctx.graph().address(n)).ok()?.body {
        Body::Concat { n_bytes, .. } => Some(n_bytes),
        _ => None,
    }
}
