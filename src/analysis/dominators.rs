//! Dominators and retained sizes over a [`Csr`] graph with root groups (semi-NCA, iterative).
//!
//! The graph gets a virtual root with an edge to each root group, and each group an edge to its
//! nodes. An object `d` dominates `x` when every path from the virtual root to `x` passes
//! through `d`; the retained set of `d` is its dominator subtree: what would become unreachable
//! if `d` were gone (Eclipse MAT's definition). A group's retained set is what would become
//! unreachable without that group's roots.
//!
//! The algorithm is semi-NCA (Georgiadis, Tarjan, Werneck, "Finding dominators in practice",
//! 2004), as in LLVM: a depth-first numbering without recursion or stack (each vertex keeps its
//! edge cursor and returns to its parent), semidominators by path-compressed evaluation in
//! reverse preorder over a predecessor CSR, then immediate dominators as nearest common
//! ancestors. Retained sizes are summed bottom-up in reverse preorder. Every edge is read
//! once, by the numbering. Memory while it runs: during the numbering 4 bytes per vertex
//! and 8 per reached one (the numbers and the two per-number arrays) and 4 per vertex on the
//! depth-first path (the references that are not depth-first tree edges go to a temporary
//! file as they are found, [`PairLog`]); then 8 per reached vertex and 4 per non-tree edge
//! while the predecessors are sorted, and 12 per reached vertex and 4 per non-tree edge for
//! the semidominators (the vertex of each number and the parents wait in temporary files
//! meanwhile, [`Spilled`]); then at most 12 per reached vertex and 2 per vertex while the
//! retained sizes are summed, and 8 per reached vertex and 6 per vertex while the immediate
//! dominators go to vertex order. Kept: 6 bytes per
//! vertex (a `u32` immediate dominator, the retained objects and the retained size in words
//! in one byte each, the few larger values in sorted side tables, [`Narrow`]). The edges may
//! be read from the heap image ([`ImageEdges`]) instead of a [`Csr`] in memory.

use super::child_ranges::ChildRanges;
use super::graph::{Csr, GraphError, ImageEdges, ReachedNodes, NO_NODE};
use super::narrow::{Narrow, Small};
use super::rank_bits::RankBits;
use super::spill::{PairLog, Spilled};

/// The immediate dominator of a node.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dominator {
    /// The virtual root: no single group or object dominates it.
    Root,
    /// Root group `i` (only its roots lead to it).
    Group(usize),
    /// The node.
    Node(u32),
}

/// Objects and bytes retained.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Retained {
    /// Objects.
    pub objects: u64,
    /// Bytes.
    pub bytes: u64,
}

/// The dominator tree of a rooted graph and the retained size of every vertex.
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub struct Dominators {
    groups: u32,
    /// Sizes are in units of `1 << unit_shift` bytes.
    unit_shift: u32,
    /// Per vertex (0 root, 1..=groups groups, then nodes): its immediate dominator (a vertex),
    /// or [`NO_NODE`] if unreachable (and for the root).
    #[serde(with = "crate::analysis::pod")]
    idom: Vec<u32>,
    /// Per vertex: retained size in units (1 byte, the larger ones in a side table).
    retained_units: Narrow<u8>,
    /// Per vertex: retained objects (1 byte, the larger ones in a side table).
    retained_objects: Narrow<u8>,
    reachable: u64,
    /// Edges out of the reachable nodes.
    reachable_edges: u64,
}

/// The successors of each node of a graph, as the dominator pass reads them: a [`Csr`], or
/// the heap image itself ([`ImageEdges`]) when the edge arrays should not be in memory.
pub trait Successors {
    /// The number of nodes.
    fn nodes(&self) -> usize;
    /// Calls `f` on each successor of `v` from position `k` on (positions are the source's
    /// own: the CSR's slots, an object's fields) until `f` returns `true`, and returns the
    /// position after that successor (`None` when there are no more): the depth-first
    /// numbering's step, one look at `v` however many successors it passes.
    fn scan_from(&self, v: u32, k: u32, f: impl FnMut(u32) -> bool) -> Option<u32>;
}

/// [`Successors::scan_from`] over a list of successors: the position after the first one from
/// position `k` on for which `f` is `true`.
#[inline]
fn scan_list(
    successors: impl Iterator<Item = u32>,
    k: u32,
    f: impl FnMut(u32) -> bool,
) -> Option<u32> {
    let mut rest = successors.skip(k as usize);
    rest.position(f).map(|i| k + i as u32 + 1)
}

impl Successors for Csr {
    fn nodes(&self) -> usize {
        Csr::nodes(self)
    }
    #[inline]
    fn scan_from(&self, v: u32, k: u32, f: impl FnMut(u32) -> bool) -> Option<u32> {
        scan_list(self.successors(v).iter().copied(), k, f)
    }
}

impl Successors for ImageEdges<'_> {
    fn nodes(&self) -> usize {
        self.node_count()
    }
    #[inline]
    fn scan_from(&self, v: u32, k: u32, f: impl FnMut(u32) -> bool) -> Option<u32> {
        ImageEdges::scan_from(self, v, k, f)
    }
}

/// The graph seen from the virtual root: vertex 0, then the groups, then the nodes.
struct Rooted<'a, S> {
    csr: &'a S,
    groups: &'a [&'a [u32]],
    base: u32,
}

impl<S: Successors> Rooted<'_, S> {
    /// Calls `f` on each successor of vertex `v` from position `k` on until it returns `true`;
    /// the position after that successor (`None` when there are no more).
    #[inline]
    fn scan_from(&self, v: u32, k: u32, mut f: impl FnMut(u32) -> bool) -> Option<u32> {
        let base = self.base;
        if v == 0 {
            scan_list(1..base, k, f)
        } else if v < base {
            let group = self.groups[v as usize - 1].iter().map(|&n| n + base);
            scan_list(group, k, f)
        } else {
            self.csr.scan_from(v - base, k, |n| f(n + base))
        }
    }
}

impl Dominators {
    /// Computes the dominators of `csr` rooted at `groups` (each a list of nodes), and the
    /// retained sizes with `size(node)` units of `1 << unit_shift` bytes per node (the heap's
    /// words: the reachable total must stay below 2^32 units). Nodes named by a group must exist.
    pub fn compute(
        csr: &Csr,
        groups: &[&[u32]],
        unit_shift: u32,
        size: impl Fn(u32) -> u32,
    ) -> Result<Dominators, GraphError> {
        Dominators::compute_over(csr, groups, unit_shift, size)
    }

    /// [`Dominators::compute`] over any source of successors (the heap image itself, so the
    /// edge arrays need not be in memory meanwhile).
    pub fn compute_over<S: Successors>(
        succ: &S,
        groups: &[&[u32]],
        unit_shift: u32,
        size: impl Fn(u32) -> u32,
    ) -> Result<Dominators, GraphError> {
        let n = succ.nodes();
        let total = n
            .checked_add(groups.len() + 1)
            .filter(|&t| t < NO_NODE as usize)
            .ok_or_else(|| {
                GraphError::TooLarge(format!("{n} nodes and {} root groups", groups.len()))
            })?;
        let base = groups.len() as u32 + 1;
        for g in groups {
            if let Some(&bad) = g.iter().find(|&&x| x as usize >= n) {
                return Err(GraphError::TooLarge(format!(
                    "root node {bad} beyond {n} nodes"
                )));
            }
        }
        let g = Rooted {
            csr: succ,
            groups,
            base,
        };

        let mut pre = vec![NO_NODE; total];
        // 1. Depth-first preorder numbering: `pre` per vertex, `vertex` and `parent` per number,
        // without recursion (a finished vertex returns to its parent; `cursors` holds the
        // position among its successors of each vertex on the path from the root, innermost
        // last: as deep as that path, not one per vertex). Every edge is looked at exactly once, so
        // the non-tree edges are recorded on the way, as (target, source) numbers (an edge
        // from the target's parent never matters: the parent is where the semidominator
        // search starts). The arrays are allocated once, for every vertex (a heap is mostly
        // live, or the other steps are small); they shrink if less than half of the vertices
        // are reached.
        let mut vertex: Vec<u32> = Vec::with_capacity(total);
        let mut parent: Vec<u32> = Vec::with_capacity(total);
        let mut cursors: Vec<u32> = vec![0];
        // In a temporary file as it grows (the references to a shared object, such as the
        // hash blob of every record of a type, can be half as many as the objects).
        let mut non_tree = PairLog::new();
        let mut reachable_edges = 0u64;
        pre[0] = 0;
        vertex.push(0);
        parent.push(0);
        let mut cur = 0u32;
        loop {
            let c = cur as usize;
            let v = vertex[c];
            let from_node = (v >= base) as u64;
            let mut found = NO_NODE;
            let at = cursors.last().copied().unwrap_or(0);
            let stop = g.scan_from(v, at, |w| {
                reachable_edges += from_node;
                let pw = pre[w as usize];
                if pw == NO_NODE {
                    found = w;
                    return true;
                }
                if parent[pw as usize] != cur {
                    non_tree.push((pw, cur));
                }
                false
            });
            match stop {
                Some(k) => {
                    if let Some(top) = cursors.last_mut() {
                        *top = k;
                    }
                    let p = vertex.len() as u32;
                    pre[found as usize] = p;
                    vertex.push(found);
                    parent.push(cur);
                    cursors.push(0);
                    cur = p;
                }
                None if cur == 0 => break,
                None => {
                    cursors.pop();
                    cur = parent[c];
                }
            }
        }
        drop((cursors, pre));
        // Only the reached vertices are kept from here on (one array copied at a time, into
        // the room `pre` left).
        let reached = vertex.len();
        vertex.shrink_to_fit();
        parent.shrink_to_fit();
        // `vertex` is idle until step 5: it waits in a temporary file meanwhile.
        let vertex = Spilled::new(vertex);

        // 2. The non-tree predecessors of each vertex, by preorder number (a counting sort):
        // `pred_off[i]..pred_off[i + 1]` are vertex i's.
        let edges = u32::try_from(non_tree.len())
            .map_err(|_| GraphError::TooLarge("more than 2^32 references".into()))?;
        let mut pred_off = vec![0u32; reached + 1];
        let spill_error = |e: std::io::Error| GraphError::Spill(e.to_string());
        non_tree
            .for_each(|pairs| {
                for &(pw, _) in pairs {
                    pred_off[pw as usize] += 1;
                }
            })
            .map_err(spill_error)?;
        let mut end = 0u32;
        for c in pred_off.iter_mut() {
            // At most `edges` in all: no overflow.
            end += *c;
            *c = end;
        }
        debug_assert_eq!(end, edges);
        let mut preds = vec![0u32; edges as usize];
        non_tree
            .for_each(|pairs| {
                for &(pw, pv) in pairs {
                    let slot = &mut pred_off[pw as usize];
                    *slot -= 1;
                    preds[*slot as usize] = pv;
                }
            })
            .map_err(spill_error)?;
        drop(non_tree);

        // 3. Semidominators in reverse preorder: a path-compressed `eval` over `ancestor`, with
        // `best` the smallest semidominator on each compressed path. Once vertex `i` is done,
        // its predecessor range is not read again: `pred_off[i + 1]` keeps its semidominator.
        // `ancestor` starts as the parents, and when vertex `i`'s turn comes its entry is still
        // its parent: the compression only changes the entries of linked vertices (numbered
        // above `i`). The parents are needed again in step 4: they wait in a temporary file.
        let parents = Spilled::copy_of(&parent);
        let mut ancestor = parent;
        let mut best: Vec<u32> = (0..reached as u32).collect();
        let mut stack = Vec::new();
        for i in (1..reached).rev() {
            let mut s = ancestor[i];
            let (lo, hi) = (pred_off[i] as usize, pred_off[i + 1] as usize);
            for &p in &preds[lo..hi] {
                s = s.min(eval(p, i as u32 + 1, &mut ancestor, &mut best, &mut stack));
            }
            best[i] = s;
            pred_off[i + 1] = s;
        }
        drop((preds, ancestor, best, stack));

        // 4. Immediate dominators: the nearest ancestor of the parent at or above the semi.
        let mut idom = parents
            .restore()
            .map_err(|e| GraphError::Spill(e.to_string()))?;
        for i in 1..reached {
            let semi = pred_off[i + 1];
            let mut c = idom[i];
            while c > semi {
                c = idom[c as usize];
            }
            idom[i] = c;
        }
        drop(pred_off);

        // 5. Retained sizes bottom-up in reverse preorder (a dominator precedes what it
        // dominates), one measure at a time over the preorder numbers, each then narrowed into
        // its per-vertex array; then the immediate dominators back to vertex numbering.
        let vertex = vertex
            .restore()
            .map_err(|e| GraphError::Spill(e.to_string()))?;
        let own_units = |v: u32| if v >= base { size(v - base) } else { 0 };
        let sum: u64 = vertex.iter().map(|&v| own_units(v) as u64).sum();
        if sum > u32::MAX as u64 {
            return Err(GraphError::TooLarge(format!(
                "{sum} size units reachable (at most 2^32)"
            )));
        }
        let retained_objects: Narrow<u8> =
            retained_narrow(&idom, &vertex, total, |v| (v >= base) as u32);
        let retained_units: Narrow<u8> = retained_narrow(&idom, &vertex, total, own_units);
        let mut out_idom = vec![NO_NODE; total];
        for i in 1..reached {
            out_idom[vertex[i] as usize] = vertex[idom[i] as usize];
        }
        drop((idom, vertex));
        Ok(Dominators {
            groups: base - 1,
            unit_shift,
            idom: out_idom,
            reachable: retained_objects.get(0) as u64,
            reachable_edges,
            retained_units,
            retained_objects,
        })
    }

    /// The number of nodes (without the root and the groups).
    pub fn nodes(&self) -> usize {
        self.idom.len() - self.groups as usize - 1
    }

    /// The number of nodes reachable from the roots.
    pub fn reachable_nodes(&self) -> u64 {
        self.reachable
    }

    /// The number of edges out of the reachable nodes (what the graph's edge arrays hold for
    /// them).
    pub fn reachable_edges(&self) -> u64 {
        self.reachable_edges
    }

    /// Whether node `n` is reachable from the roots.
    #[inline]
    pub fn is_reachable(&self, n: u32) -> bool {
        self.idom[self.vertex(n)] != NO_NODE
    }

    /// The immediate dominator of node `n`, or `None` if it is unreachable.
    pub fn idom(&self, n: u32) -> Option<Dominator> {
        self.dominator(self.idom[self.vertex(n)])
    }

    fn dominator(&self, d: u32) -> Option<Dominator> {
        if d == NO_NODE {
            None
        } else if d == 0 {
            Some(Dominator::Root)
        } else if d <= self.groups {
            Some(Dominator::Group(d as usize - 1))
        } else {
            Some(Dominator::Node(d - self.groups - 1))
        }
    }

    /// What node `n` retains (itself included; zero if unreachable).
    #[inline]
    pub fn retained(&self, n: u32) -> Retained {
        let v = self.vertex(n);
        Retained {
            objects: self.retained_objects.get(v) as u64,
            bytes: (self.retained_units.get(v) as u64) << self.unit_shift,
        }
    }

    /// What root group `g` retains alone.
    pub fn group_retained(&self, g: usize) -> Retained {
        let v = g + 1;
        Retained {
            objects: self.retained_objects.get(v) as u64,
            bytes: (self.retained_units.get(v) as u64) << self.unit_shift,
        }
    }

    /// Everything reachable (what the virtual root retains).
    pub fn live(&self) -> Retained {
        Retained {
            objects: self.retained_objects.get(0) as u64,
            bytes: (self.retained_units.get(0) as u64) << self.unit_shift,
        }
    }

    /// A top-down pass over the dominator tree: calls `f(node, true)` before and
    /// `f(node, false)` after the nodes `node` dominates, depth first and without recursion,
    /// children in node order. Memory while it runs: 4 bytes per reachable vertex (the
    /// children, grouped by dominator), 1.5 bits per vertex (which ones dominate another,
    /// numbered densely: [`RankBits`]) and about 2 bytes per vertex that dominates another
    /// (where its children end: [`ChildRanges`]), plus 12 bytes per level of the tree's depth.
    pub fn visit_tree(&self, mut f: impl FnMut(u32, bool)) {
        let total = self.idom.len();
        let mut inner = RankBits::new(total);
        let mut dominated = 0usize;
        for &d in &self.idom {
            if d != NO_NODE {
                inner.insert(d);
                dominated += 1;
            }
        }
        inner.finish();
        let k = inner.ones() as usize;
        // Each inner vertex (r its rank) has a child, so k <= dominated: the children array
        // first holds the counts, at `children[r]`.
        let mut children = vec![0u32; dominated];
        for &d in &self.idom {
            if d != NO_NODE {
                children[inner.rank(d) as usize] += 1;
            }
        }
        // `dominated` children in all, fewer than the vertices, which are below 2^32.
        let ranges = ChildRanges::from_counts(&children[..k])
            .expect("fewer children than vertices, below 2^32");
        // Then the first slot of each range holds how many of its slots are still free: the
        // children are filled from each range's end down (the vertices in reverse, so each
        // range ends up in node order), the last one over that count.
        for r in 0..k {
            let (start, end) = ranges.range(r);
            children[start as usize] = end - start;
        }
        for (v, &d) in self.idom.iter().enumerate().rev() {
            if d != NO_NODE {
                let start = ranges.start(inner.rank(d) as usize) as usize;
                let free = children[start];
                children[start + free as usize - 1] = v as u32;
                if free > 1 {
                    children[start] = free - 1;
                }
            }
        }
        let base = self.groups + 1;
        if !inner.contains(0) {
            return;
        }
        let (s, e) = ranges.range(inner.rank(0) as usize);
        // Each open inner vertex with the position of its next child and its children's end.
        let mut stack: Vec<(u32, u32, u32)> = vec![(0, s, e)];
        while let Some(top) = stack.last_mut() {
            let (v, c, end) = *top;
            if c < end {
                top.1 += 1;
                let w = children[c as usize];
                if w >= base {
                    f(w - base, true);
                }
                if inner.contains(w) {
                    let (s, e) = ranges.range(inner.rank(w) as usize);
                    stack.push((w, s, e));
                } else if w >= base {
                    f(w - base, false);
                }
            } else {
                stack.pop();
                if v >= base {
                    f(v - base, false);
                }
            }
        }
    }

    /// Whether the result is consistent, for a graph of `nodes` nodes (one read back from a
    /// file, [`crate::analysis::persist`]): a vertex per node, group and the root, each
    /// immediate dominator a vertex, a retained figure per vertex.
    pub fn check(&self, nodes: usize) -> Result<(), String> {
        let vertices = nodes as u64 + u64::from(self.groups) + 1;
        if self.idom.len() as u64 != vertices || self.unit_shift >= 64 {
            return Err(format!(
                "{} dominators for {vertices} vertices",
                self.idom.len()
            ));
        }
        if let Some(v) = self
            .idom
            .iter()
            .position(|&d| d != NO_NODE && d as u64 >= vertices)
        {
            return Err(format!(
                "the dominator of vertex {v} is beyond the vertices"
            ));
        }
        self.retained_units.check(self.idom.len())?;
        self.retained_objects.check(self.idom.len())
    }

    /// Bytes the result keeps.
    pub fn heap_bytes(&self) -> usize {
        self.idom.capacity() * 4
            + self.retained_units.heap_bytes()
            + self.retained_objects.heap_bytes()
    }

    #[inline]
    fn vertex(&self, n: u32) -> usize {
        n as usize + self.groups as usize + 1
    }
}

/// Per vertex, the sum of `own` over its dominator subtree: summed bottom-up over the
/// preorder numbers (`idom` by number, `vertex` the vertex of each number; the sums are at
/// most the reachable total, checked by the caller), then narrowed into a per-vertex array
/// of `total` (zero for the vertices not reached).
fn retained_narrow<T: Small>(
    idom: &[u32],
    vertex: &[u32],
    total: usize,
    own: impl Fn(u32) -> u32,
) -> Narrow<T> {
    let mut sum: Vec<u32> = vertex.iter().map(|&v| own(v)).collect();
    for i in (1..sum.len()).rev() {
        let d = idom[i] as usize;
        sum[d] += sum[i];
    }
    let mut out = Narrow::new(total);
    for (&v, &s) in vertex.iter().zip(&sum) {
        out.set(v as usize, s);
    }
    out.finish();
    out
}

/// The smallest semidominator on the compressed path from `v` up to the vertices not yet
/// linked (numbers below `linked`), compressing that path.
#[inline]
fn eval(v: u32, linked: u32, ancestor: &mut [u32], best: &mut [u32], stack: &mut Vec<u32>) -> u32 {
    if ancestor[v as usize] < linked {
        return best[v as usize];
    }
    let mut x = v;
    loop {
        stack.push(x);
        x = ancestor[x as usize];
        if ancestor[x as usize] < linked {
            break;
        }
    }
    let mut p = x;
    let mut p_best = best[p as usize];
    while let Some(y) = stack.pop() {
        let yu = y as usize;
        ancestor[yu] = ancestor[p as usize];
        if p_best < best[yu] {
            best[yu] = p_best;
        } else {
            p_best = best[yu];
        }
        p = y;
    }
    best[v as usize]
}

impl ReachedNodes for Dominators {
    fn reachable_edges(&self) -> u64 {
        Dominators::reachable_edges(self)
    }

    fn is_reachable(&self, n: u32) -> bool {
        Dominators::is_reachable(self, n)
    }
}
