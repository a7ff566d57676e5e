//! What holds the memory: per stable variable, root group, object and tag, the objects and bytes
//! reachable from it and retained by it (what would be freed without it), and the garbage
//! awaiting collection.

use std::collections::BTreeMap;

use crate::heap::{Heap, Tag};

use super::dominators::{Dominators, Retained, Successors};
use super::graph::{CountedEdges, GraphError, HeapGraph, ImageEdges};
use super::progress::{NoProgress, Phase, Progress};
use super::stats::Count;

/// The heap graph with its dominators.
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub struct Analysis {
    graph: HeapGraph,
    doms: Dominators,
}

/// One stable variable's share of the heap.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct VarRetention {
    /// Its name.
    pub name: String,
    /// Its object's address (`None` for a scalar or an unreadable value).
    pub address: Option<u64>,
    /// Objects and bytes reachable from its value.
    pub reachable: Retained,
    /// Objects and bytes only its value keeps alive (its object's retained set; zero for a
    /// scalar or a static object).
    pub retained: Retained,
    /// Why its value could not be read.
    pub error: Option<String>,
}

/// One root group's share of the heap.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct RootRetention {
    /// Which roots (`static variables`, `stable variables`, `continuation table`, ...).
    pub kind: &'static str,
    /// Objects its roots point to.
    pub roots: u64,
    /// What only these roots keep alive.
    pub retained: Retained,
}

/// A large retainer.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Retainer {
    /// The object's node.
    pub node: u32,
    /// Its address.
    pub address: u64,
    /// Its tag name (`?` if it cannot be decoded).
    pub tag: &'static str,
    /// Its own size in bytes.
    pub size: u64,
    /// What it retains.
    pub retained: Retained,
}

/// The memory of a search for what some nodes reach: a bit per node (those found) and a
/// stack of the nodes found but not yet expanded.
#[derive(Debug, Default)]
pub struct Search {
    seen: Vec<u64>,
    stack: Vec<u32>,
}

impl Search {
    /// The memory of a search of a graph of `nodes` nodes, allocated now (by this thread:
    /// glibc grows and frees a block in the arena of the thread that allocated it).
    pub fn for_nodes(nodes: usize) -> Search {
        Search {
            seen: vec![0; nodes.div_ceil(64)],
            stack: Vec::with_capacity(1024),
        }
    }
}

/// Objects and retained bytes of one tag.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize)]
pub struct TagRetention {
    /// Live objects of the tag and their own bytes.
    pub shallow: Count,
    /// What all of them together retain (the union of their retained sets).
    pub retained: Retained,
}

impl Analysis {
    /// Builds the graph of `heap` and its dominators. The dominators read the edges from the
    /// image (the graph's edge arrays are filled afterwards), so the two never take memory at
    /// the same time; [`Analysis::from_graph`] computes the same from the arrays.
    pub fn new(heap: &Heap) -> Result<Analysis, GraphError> {
        Analysis::new_with(heap, &NoProgress)
    }

    /// [`Analysis::new`], reporting its phases in their order: [`Phase::Walk`],
    /// [`Phase::Dominators`], then [`Phase::Graph`] (the edge arrays).
    pub fn new_with(heap: &Heap, progress: &dyn Progress) -> Result<Analysis, GraphError> {
        let mut a = Analysis::without_edges_with(heap, progress)?;
        a.attach_edges_with(heap, progress)?;
        Ok(a)
    }

    /// The first step of [`Analysis::new_with`]: the nodes, roots and dominators, the edges
    /// read from the image ([`HeapGraph::edges`] stays empty until
    /// [`Analysis::attach_edges_with`]). What needs only the nodes and the dominators (the
    /// type labels and per-type figures) can run here, before the edge arrays take memory.
    pub fn without_edges_with(
        heap: &Heap,
        progress: &dyn Progress,
    ) -> Result<Analysis, GraphError> {
        let graph = HeapGraph::build_without_edges_with(heap, progress)?;
        let doms = Analysis::dominators_of(&graph, heap, progress)?;
        Ok(Analysis { graph, doms })
    }

    /// [`Analysis::without_edges_with`], and `beside` of the graph on a second thread while
    /// the dominators are computed if `threads` is 2 or more (else after them:
    /// [`both`](super::concurrent::both)). `beside` must take little memory (the dominator
    /// pass is the analysis' peak on most heaps) and report no progress (this thread reports
    /// the phases, in order).
    pub fn without_edges_beside<T: Send>(
        heap: &Heap,
        progress: &dyn Progress,
        threads: usize,
        beside: impl FnOnce(&HeapGraph) -> T + Send,
    ) -> Result<(Analysis, T), GraphError> {
        let graph = HeapGraph::build_without_edges_with(heap, progress)?;
        let (doms, side) = super::concurrent::both(
            threads,
            || Analysis::dominators_of(&graph, heap, progress),
            || beside(&graph),
        );
        Ok((Analysis { graph, doms: doms? }, side))
    }

    /// The dominators of `graph`, its edges read from `heap`'s image.
    fn dominators_of(
        graph: &HeapGraph,
        heap: &Heap,
        progress: &dyn Progress,
    ) -> Result<Dominators, GraphError> {
        progress.start(Phase::Dominators, None);
        let groups: Vec<&[u32]> = graph.roots().iter().map(|r| &r.nodes[..]).collect();
        let doms = Dominators::compute_over(
            &ImageEdges::new(graph, heap),
            &groups,
            graph.word_shift(),
            |n| graph.size_words(n),
        )?;
        progress.finish(Phase::Dominators);
        Ok(doms)
    }

    /// Stores the edge count and the skipped references a pass over the graph found
    /// ([`HeapGraph::counted_edges`], e.g. beside the dominators): the analysis then reads
    /// its edges from the image, as after [`Analysis::count_edges_with`].
    pub fn set_counted_edges(&mut self, counted: CountedEdges) {
        self.graph.set_counted_edges(counted);
    }

    /// The second step of [`Analysis::new_with`]: the edge arrays, in one pass (the
    /// dominators counted the edges of the reachable nodes).
    pub fn attach_edges_with(
        &mut self,
        heap: &Heap,
        progress: &dyn Progress,
    ) -> Result<(), GraphError> {
        self.graph.attach_edges_after(heap, &self.doms, progress)
    }

    /// Counts the edges and the references that are not edges without keeping the edge
    /// arrays (see [`HeapGraph::count_edges`]): the analysis then reads its edges from the
    /// image ([`ImageEdges`]), and the methods over the arrays must not be called.
    pub fn count_edges_with(&mut self, heap: &Heap, progress: &dyn Progress) {
        self.graph.count_edges(heap, progress);
    }

    /// The dominators of an already built graph.
    pub fn from_graph(graph: HeapGraph) -> Result<Analysis, GraphError> {
        let groups: Vec<&[u32]> = graph.roots().iter().map(|r| &r.nodes[..]).collect();
        let doms = Dominators::compute(graph.edges(), &groups, graph.word_shift(), |n| {
            graph.size_words(n)
        })?;
        Ok(Analysis { graph, doms })
    }

    /// The graph.
    pub fn graph(&self) -> &HeapGraph {
        &self.graph
    }

    /// The dominators.
    pub fn dominators(&self) -> &Dominators {
        &self.doms
    }

    /// Everything the roots reach.
    pub fn live(&self) -> Count {
        let l = self.doms.live();
        Count {
            objects: l.objects,
            bytes: l.bytes,
        }
    }

    /// Walked objects no root reaches: garbage awaiting collection.
    pub fn garbage(&self) -> Count {
        let total = self.graph.total();
        let live = self.live();
        Count {
            objects: total.objects - live.objects,
            bytes: total.bytes - live.bytes,
        }
    }

    /// Objects and bytes reachable from `nodes` (a search with a bit per node and a stack of
    /// the nodes found but not yet expanded), over the edge arrays (an analysis made by
    /// [`Analysis::new`]; see [`Analysis::reachable_over`] for one that reads its edges from
    /// the image).
    pub fn reachable_from(&self, nodes: &[u32]) -> Retained {
        self.reachable_over(self.arrays(), nodes)
    }

    /// The edge arrays, which the methods without a source of edges read: a graph without
    /// them is a caller's mistake (its answers would be silently wrong), not an input.
    fn arrays(&self) -> &super::graph::Csr {
        assert!(
            self.graph.has_edge_arrays() || self.graph.nodes() == 0,
            "the analysis has no edge arrays: read its edges from the image (ImageEdges)"
        );
        self.graph.edges()
    }

    /// [`Analysis::reachable_from`] with the edges from `edges` (the arrays or the image).
    pub fn reachable_over<S: Successors>(&self, edges: &S, nodes: &[u32]) -> Retained {
        self.reachable_in(edges, nodes, &mut Search::default())
    }

    /// [`Analysis::reachable_over`] in the memory of `search` (cleared first, kept after).
    fn reachable_in<S: Successors>(
        &self,
        edges: &S,
        nodes: &[u32],
        search: &mut Search,
    ) -> Retained {
        let words = self.graph.nodes().div_ceil(64);
        if search.seen.len() == words {
            search.seen.fill(0);
        } else {
            // Zeroed pages from the system: only the words written take memory.
            search.seen = vec![0; words];
        }
        search.stack.clear();
        let (seen, stack) = (&mut search.seen, &mut search.stack);
        let mut out = Retained::default();
        let mut visit = |v: u32, stack: &mut Vec<u32>, out: &mut Retained| {
            let (w, b) = (v as usize / 64, 1u64 << (v % 64));
            if seen[w] & b == 0 {
                seen[w] |= b;
                stack.push(v);
                out.objects += 1;
                out.bytes += self.graph.size(v);
            }
        };
        for &v in nodes {
            visit(v, stack, &mut out);
        }
        while let Some(v) = stack.pop() {
            edges.scan_from(v, 0, |w| {
                visit(w, stack, &mut out);
                false
            });
        }
        out
    }

    /// Each stable variable: reachable and retained, largest retained first (over the edge
    /// arrays, as [`Analysis::reachable_from`]).
    pub fn vars(&self) -> Vec<VarRetention> {
        self.vars_over(self.arrays())
    }

    /// [`Analysis::vars`] with the edges from `edges` (the arrays or the image).
    pub fn vars_over<S: Successors>(&self, edges: &S) -> Vec<VarRetention> {
        self.vars_in(edges, &mut Search::default())
    }

    /// [`Analysis::vars_over`] in the memory of `search` (one search after the other in it;
    /// the caller frees it). On another thread, a `search` made by this one keeps the
    /// memory in this thread's allocator, where the next step finds it again
    /// ([`HeapAnalysis::compute_on`](super::HeapAnalysis::compute_on)).
    pub fn vars_in<S: Successors>(&self, edges: &S, search: &mut Search) -> Vec<VarRetention> {
        let mut out: Vec<VarRetention> = self
            .graph
            .vars()
            .iter()
            .map(|v| VarRetention {
                name: v.name.clone(),
                address: v.address,
                reachable: self.reachable_in(edges, &v.entries, search),
                retained: v.node.map(|n| self.doms.retained(n)).unwrap_or_default(),
                error: v.error.clone(),
            })
            .collect();
        out.sort_by(|a, b| {
            (b.retained.bytes, b.reachable.bytes, &a.name).cmp(&(
                a.retained.bytes,
                a.reachable.bytes,
                &b.name,
            ))
        });
        out
    }

    /// Each root group: its roots and what only it retains.
    pub fn roots(&self) -> Vec<RootRetention> {
        self.graph
            .roots()
            .iter()
            .enumerate()
            .map(|(i, r)| RootRetention {
                kind: r.group.name(),
                roots: r.nodes.len() as u64,
                retained: self.doms.group_retained(i),
            })
            .collect()
    }

    /// The `top` objects retaining the most bytes (ties: lower address first).
    pub fn top(&self, heap: &Heap, top: usize) -> Vec<Retainer> {
        let mut best: Vec<(u64, u32)> = Vec::with_capacity(top + 1);
        if top == 0 {
            return Vec::new();
        }
        for n in 0..self.graph.nodes() as u32 {
            let r = self.doms.retained(n).bytes;
            if r == 0 || (best.len() == top && best.last().is_some_and(|&(b, _)| b >= r)) {
                continue;
            }
            let at = best.partition_point(|&(b, m)| b > r || (b == r && m < n));
            best.insert(at, (r, n));
            best.truncate(top);
        }
        best.into_iter()
            .map(|(_, n)| self.retainer(heap, n))
            .collect()
    }

    /// Node `n` as a retainer.
    pub fn retainer(&self, heap: &Heap, n: u32) -> Retainer {
        let address = self.graph.address(n);
        Retainer {
            node: n,
            address,
            tag: heap.object(address).map_or("?", |o| o.tag.name()),
            size: self.graph.size(n),
            retained: self.doms.retained(n),
        }
    }

    /// Per tag: the live objects and what all of them retain together (an object inside the
    /// retained set of another of the same tag is counted once, in the outer one).
    pub fn by_tag(&self, heap: &Heap) -> BTreeMap<&'static str, TagRetention> {
        let tags: Vec<Option<Tag>> = (0..self.graph.nodes() as u32)
            .map(|n| heap.tag_at(self.graph.address(n)).ok().map(|(t, _)| t))
            .collect();
        let mut out: BTreeMap<&'static str, TagRetention> = BTreeMap::new();
        let mut open: BTreeMap<&'static str, u64> = BTreeMap::new();
        let name = |n: u32| tags[n as usize].map_or("?", |t| t.name());
        self.doms.visit_tree(|n, entering| {
            let t = name(n);
            let depth = open.entry(t).or_default();
            if !entering {
                *depth -= 1;
                return;
            }
            let e = out.entry(t).or_default();
            e.shallow.add(self.graph.size(n));
            if *depth == 0 {
                let r = self.doms.retained(n);
                e.retained.objects += r.objects;
                e.retained.bytes += r.bytes;
            }
            *depth += 1;
        });
        out
    }
}
