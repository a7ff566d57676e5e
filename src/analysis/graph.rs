//! The heap's reference graph: every current object of the linear walk as a dense `u32` node,
//! its size, its outgoing references in compact CSR arrays, and its roots.
//!
//! Nodes are the object blocks of [`Heap::walk`] in address order, without free space, fillers,
//! slack, registry garbage (as [`heap_stats`](super::stats::heap_stats) classifies blocks) and
//! without stale copies left by evacuation (a reference to one is resolved through its
//! forwarding word to the current copy). Weak references are not edges: the GC does not trace
//! them, so they retain nothing.
//!
//! Roots come in groups: one per [`RootKind`] of [`Heap::roots`], plus one for the stable
//! variables (each variable whose value is a pointer). Classical static objects (in static data,
//! outside the walked heap) are not nodes: a root that points to one is followed through it
//! (the static-roots array and the static MutBoxes of the actor's variables), and the heap
//! objects it reaches become roots of that group. Everything else a reference may point to
//! that is not the start of a walked object is counted and skipped.

use std::cell::Cell;
use std::collections::HashSet;

use crate::heap::{BlockKind, Heap, HeapError, ReferenceRun, RootKind, Tag, Words};

use super::node_index::NodeIndex;
use super::offsets::{Offsets, OffsetsBuilder};
use super::progress::{NoProgress, Phase, Progress, Ticker};
use super::stats::{is_free, Count};

/// No node.
pub const NO_NODE: u32 = u32::MAX;

/// The largest number of nodes a graph may have (room is left for the virtual root and the
/// root groups of the dominator computation); a heap's graph takes at most its reader limits'
/// `max_analysis_objects`.
pub const MAX_NODES: usize = crate::image::MAX_ANALYSIS_OBJECTS as usize;

/// The most static (non-heap) objects followed from the roots.
const MAX_STATIC_OBJECTS: usize = 1 << 20;

/// A graph that does not fit the compact representation.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GraphError {
    /// More nodes, edges, a larger address or object than `u32` indices can hold.
    #[error("the heap is too large for the reference graph: {0}")]
    TooLarge(String),
    /// More heap objects than the reader limits let the analysis take.
    #[error(
        "the heap has more than {limit} objects, the most the analysis may take \
         (--max-analysis-objects {limit}); raise the limit to analyse it"
    )]
    ObjectLimit {
        /// The limit (`ReaderLimits::max_analysis_objects`).
        limit: u64,
    },
    /// The temporary file the analysis keeps an idle array in could not be read back.
    #[error("the analysis could not read back its temporary file: {0}")]
    Spill(String),
}

/// A directed graph in compressed sparse row form: the successors of node `v` are
/// `targets[offsets[v]..offsets[v + 1]]` (the offsets compact, about 2 bytes per node).
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Csr {
    offsets: Offsets,
    #[serde(with = "crate::analysis::pod")]
    targets: Vec<u32>,
}

impl Csr {
    /// A graph with `nodes` nodes and the given edges (used by tests and benchmarks).
    pub fn from_edges(nodes: usize, edges: &[(u32, u32)]) -> Result<Csr, GraphError> {
        if nodes > MAX_NODES || edges.len() >= u32::MAX as usize {
            return Err(GraphError::TooLarge(format!(
                "{nodes} nodes, {} edges",
                edges.len()
            )));
        }
        let mut offsets = vec![0u32; nodes + 1];
        for &(from, to) in edges {
            if from as usize >= nodes || to as usize >= nodes {
                return Err(GraphError::TooLarge(format!(
                    "edge {from} -> {to} beyond {nodes} nodes"
                )));
            }
            offsets[from as usize + 1] += 1;
        }
        for i in 0..nodes {
            offsets[i + 1] += offsets[i];
        }
        let mut fill = offsets.clone();
        let mut targets = vec![0u32; edges.len()];
        for &(from, to) in edges {
            let slot = &mut fill[from as usize];
            targets[*slot as usize] = to;
            *slot += 1;
        }
        let mut compact = OffsetsBuilder::with_capacity(offsets.len());
        offsets.iter().for_each(|&o| compact.push(o));
        Ok(Csr {
            offsets: compact.finish(),
            targets,
        })
    }

    /// A graph built node by node: call [`CsrBuilder::push`] for each successor of the current
    /// node and [`CsrBuilder::end_node`] after each node.
    pub fn builder(nodes_hint: usize) -> CsrBuilder {
        let mut offsets = OffsetsBuilder::with_capacity(nodes_hint + 1);
        offsets.push(0);
        CsrBuilder {
            offsets,
            targets: Vec::new(),
        }
    }

    /// The number of nodes.
    #[inline]
    pub fn nodes(&self) -> usize {
        self.offsets.len().saturating_sub(1)
    }

    /// The number of edges.
    #[inline]
    pub fn edges(&self) -> usize {
        self.targets.len()
    }

    /// The successors of `v`.
    #[inline]
    pub fn successors(&self, v: u32) -> &[u32] {
        let v = v as usize;
        &self.targets[self.offsets.get(v) as usize..self.offsets.get(v + 1) as usize]
    }

    /// Bytes the arrays take.
    pub fn heap_bytes(&self) -> usize {
        self.offsets.heap_bytes() + self.targets.capacity() * 4
    }
}

/// Builds a [`Csr`] node by node.
#[derive(Debug)]
pub struct CsrBuilder {
    offsets: OffsetsBuilder,
    targets: Vec<u32>,
}

impl CsrBuilder {
    /// Adds an edge from the current node to `to`.
    #[inline]
    pub fn push(&mut self, to: u32) -> Result<(), GraphError> {
        if self.targets.len() >= u32::MAX as usize {
            return Err(GraphError::TooLarge("more than 2^32 references".into()));
        }
        self.targets.push(to);
        Ok(())
    }

    /// Ends the current node.
    #[inline]
    pub fn end_node(&mut self) {
        // `push` keeps the length below u32::MAX.
        self.offsets.push(self.targets.len() as u32);
    }

    /// The graph (a target beyond the last node is the caller's error).
    pub fn finish(mut self) -> Csr {
        self.targets.shrink_to_fit();
        Csr {
            offsets: self.offsets.finish(),
            targets: self.targets,
        }
    }
}

/// A group of roots.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum RootGroup {
    /// A GC root of the heap.
    Heap(RootKind),
    /// The stable variables.
    StableVars,
}

impl RootGroup {
    /// A short name (`static variables`, `stable variables`, ...).
    pub fn name(self) -> &'static str {
        match self {
            RootGroup::Heap(k) => match k {
                RootKind::StaticVariables => "static variables",
                RootKind::StaticRoots => "static roots",
                RootKind::ContinuationTable => "continuation table",
                RootKind::StableActor => "stable actor",
                RootKind::CandidData => "candid data",
                RootKind::TypeOffsets => "type offsets",
                RootKind::Region0 => "region 0",
                RootKind::DedupTable => "dedup table",
            },
            RootGroup::StableVars => "stable variables",
        }
    }
}

/// One root group and the nodes it points to (sorted, distinct).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Roots {
    /// Which roots.
    pub group: RootGroup,
    /// Their nodes.
    #[serde(with = "crate::analysis::pod")]
    pub nodes: Vec<u32>,
}

/// A stable variable as a root.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct VarRoot {
    /// Its name.
    pub name: String,
    /// Its value word (`None` if it could not be read; see `error`).
    pub word: Option<u64>,
    /// The address of its object (after forwarding), if the value is a pointer.
    pub address: Option<u64>,
    /// The node of its object, if that is a walked heap object.
    pub node: Option<u32>,
    /// The heap nodes the value reaches first (its node, or, for a static object, the heap
    /// objects that object refers to).
    pub entries: Vec<u32>,
    /// Why the value could not be read.
    pub error: Option<String>,
}

/// References that are not edges, counted.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Skipped {
    /// Into a walked range but not at the start of a current object (or unresolvable).
    pub dangling: u64,
    /// To static data outside the walked heap (classical constants and static MutBoxes).
    pub outside: u64,
    /// Weak references (not traced by the GC).
    pub weak: u64,
    /// Walked objects that could not be decoded (their references are unknown).
    pub undecodable: u64,
    /// Static objects beyond the limit of static objects followed from the roots.
    pub statics_over_limit: u64,
}

/// The edges and the references that are not edges of every node, as
/// [`HeapGraph::counted_edges`] counts them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CountedEdges {
    /// The edges (references to a node).
    pub edges: u64,
    /// The references that are not edges.
    pub skipped: Skipped,
}

/// The reference graph of a heap.
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub struct HeapGraph {
    word_shift: u32,
    /// The nodes' addresses, in words (`addr >> word_shift`), strictly increasing.
    index: NodeIndex,
    /// Size of each node in words, [`u8::MAX`] for "in `big_sizes`".
    #[serde(with = "crate::analysis::pod")]
    sizes: Vec<u8>,
    /// The sizes of nodes of [`u8::MAX`] words or more, by node.
    big_sizes: Vec<(u32, u32)>,
    /// The bytes of all nodes.
    total_bytes: u64,
    /// Every node's forwarding word points to itself (or the layout has none), so a reference
    /// to a node's address needs no look at the node (false if some node's tag has no
    /// forwarding word in a layout with forwarding: a reference to it does not resolve).
    nodes_resolve_to_themselves: bool,
    edges: Csr,
    /// The number of edges, once counted ([`HeapGraph::count_edges_after`]) or in the arrays.
    edge_count: Option<u64>,
    roots: Vec<Roots>,
    vars: Vec<VarRoot>,
    vars_error: Option<String>,
    stale: Count,
    skipped: Skipped,
    walk_errors: Vec<String>,
}

impl HeapGraph {
    /// Builds the graph of `heap`: one walk for the nodes, then two decodes per node for the
    /// edges (a count, then the exactly sized fill). Walk errors are recorded (the graph covers
    /// what was walked); only a heap too large for `u32` indices is an error.
    pub fn build(heap: &Heap) -> Result<HeapGraph, GraphError> {
        HeapGraph::build_with(heap, &NoProgress)
    }

    /// [`HeapGraph::build`], reporting the phases [`Phase::Walk`] and [`Phase::Graph`].
    pub fn build_with(heap: &Heap, progress: &dyn Progress) -> Result<HeapGraph, GraphError> {
        let mut g = HeapGraph::build_without_edges_with(heap, progress)?;
        g.attach_edges_with(heap, progress)?;
        Ok(g)
    }

    /// The nodes and roots of `heap`, without the edges ([`HeapGraph::edges`] is empty until
    /// [`HeapGraph::attach_edges`]; [`ImageEdges`] reads them from the image meanwhile).
    pub fn build_without_edges(heap: &Heap) -> Result<HeapGraph, GraphError> {
        HeapGraph::build_without_edges_with(heap, &NoProgress)
    }

    /// [`HeapGraph::build_without_edges`], reporting [`Phase::Walk`] (the bytes walked).
    pub fn build_without_edges_with(
        heap: &Heap,
        progress: &dyn Progress,
    ) -> Result<HeapGraph, GraphError> {
        let word_shift = heap.layout().word.bytes().trailing_zeros();
        let mut g = HeapGraph {
            word_shift,
            index: NodeIndex::default(),
            sizes: Vec::new(),
            big_sizes: Vec::new(),
            total_bytes: 0,
            nodes_resolve_to_themselves: true,
            edges: Csr::default(),
            edge_count: None,
            roots: Vec::new(),
            vars: Vec::new(),
            vars_error: None,
            stale: Count::default(),
            skipped: Skipped::default(),
            walk_errors: Vec::new(),
        };
        let range_bytes = heap.ranges().iter().map(|r| r.end - r.start).sum();
        let mut walk = Ticker::start(progress, Phase::Walk, Some(range_bytes));
        g.collect_nodes(heap, &mut walk)?;
        walk.finish(Phase::Walk);
        g.collect_roots(heap);
        Ok(g)
    }

    fn collect_nodes(&mut self, heap: &Heap, ticker: &mut Ticker) -> Result<(), GraphError> {
        let shift = self.word_shift;
        let limit = heap.limits().max_analysis_objects;
        let max_nodes = usize::try_from(limit).unwrap_or(usize::MAX).min(MAX_NODES);
        let first = heap.ranges().iter().map(|r| r.start).min().unwrap_or(0) >> shift;
        let end = heap.ranges().iter().map(|r| r.end).max().unwrap_or(0) >> shift;
        self.index = NodeIndex::new(first, end.max(first))
            .ok_or_else(|| GraphError::TooLarge(format!("a heap span of {} words", end - first)))?;
        for item in heap.walk() {
            let b = match item {
                Ok(b) => b,
                Err(e) => {
                    if self.walk_errors.len() < 100 {
                        self.walk_errors.push(e.to_string());
                    }
                    continue;
                }
            };
            ticker.add(b.size);
            if is_free(b.kind) || !matches!(b.kind, BlockKind::Object(_)) {
                continue;
            }
            if b.forwarded_to.is_some() {
                self.stale.add(b.size);
                continue;
            }
            if let BlockKind::Object(tag) = b.kind {
                if heap.layout().has_forwarding() && !tag.has_forwarding() {
                    self.nodes_resolve_to_themselves = false;
                }
            }
            if b.addr >> shift > u32::MAX as u64 {
                return Err(GraphError::TooLarge(format!(
                    "object at {:#x} beyond 2^32 words",
                    b.addr
                )));
            }
            let size = u32::try_from(b.size >> shift).map_err(|_| {
                GraphError::TooLarge(format!("object at {:#x} of {} bytes", b.addr, b.size))
            })?;
            if self.index.len() >= max_nodes {
                return Err(if max_nodes < MAX_NODES {
                    GraphError::ObjectLimit { limit }
                } else {
                    GraphError::TooLarge(format!("more than {MAX_NODES} objects"))
                });
            }
            if !self.index.push(b.addr >> shift) {
                // Ranges are in address order and each is walked forward: never happens.
                if self.walk_errors.len() < 100 {
                    self.walk_errors
                        .push(format!("block at {:#x} out of address order", b.addr));
                }
                continue;
            }
            let n = self.sizes.len() as u32;
            if size >= u8::MAX as u32 {
                self.sizes.push(u8::MAX);
                self.big_sizes.push((n, size));
            } else {
                self.sizes.push(size as u8);
            }
            self.total_bytes += (size as u64) << shift;
        }
        self.index.finish();
        self.sizes.shrink_to_fit();
        self.big_sizes.shrink_to_fit();
        Ok(())
    }

    /// Reads the edges from the image into [`HeapGraph::edges`] (replacing any), counting the
    /// references that are not edges: one pass to count, one to fill exactly sized arrays.
    pub fn attach_edges(&mut self, heap: &Heap) -> Result<(), GraphError> {
        self.attach_edges_with(heap, &NoProgress)
    }

    /// [`HeapGraph::attach_edges`], reporting [`Phase::Graph`] (the nodes whose edges are in).
    pub fn attach_edges_with(
        &mut self,
        heap: &Heap,
        progress: &dyn Progress,
    ) -> Result<(), GraphError> {
        let edges = ImageEdges::new(self, heap);
        let mut total = 0u64;
        for v in 0..self.nodes() as u32 {
            edges.for_each(v, |_| total += 1);
        }
        self.fill_edges(heap, progress, total)
    }

    /// [`HeapGraph::attach_edges_with`] after the dominators of this graph (any
    /// [`ReachedNodes`]): they counted the
    /// edges out of the reachable nodes, so only the garbage nodes are counted here before
    /// the one pass that fills the arrays.
    pub fn attach_edges_after(
        &mut self,
        heap: &Heap,
        doms: &dyn ReachedNodes,
        progress: &dyn Progress,
    ) -> Result<(), GraphError> {
        let edges = ImageEdges::new(self, heap);
        let mut total = doms.reachable_edges();
        let mut skipped = Skipped::default();
        for (v, addr) in (0..).zip(self.addresses()) {
            if !doms.is_reachable(v) {
                edges.scan_at(v, addr, &mut skipped, |_| total += 1);
            }
        }
        self.fill_edges(heap, progress, total)
    }

    /// What [`HeapGraph::attach_edges_after`] finds but the arrays: the number of edges and
    /// the references that are not edges ([`HeapGraph::skipped`]), by one lean decode of each
    /// node, for an analysis that reads its edges from the image ([`ImageEdges`]) instead of
    /// keeping them (6.9 bytes per object on the dense fixture, `docs/analysis.md`).
    pub fn count_edges(&mut self, heap: &Heap, progress: &dyn Progress) {
        let counted = self.counted_edges(heap, progress);
        self.set_counted_edges(counted);
    }

    /// What [`HeapGraph::count_edges`] finds, without storing it: a pass that only reads the
    /// graph, so it can run on another thread beside one that reads it too (the dominators);
    /// [`HeapGraph::set_counted_edges`] then stores it.
    pub fn counted_edges(&self, heap: &Heap, progress: &dyn Progress) -> CountedEdges {
        let mut ticker = Ticker::start(progress, Phase::Graph, Some(self.nodes() as u64));
        let mut edges_total = 0u64;
        let mut skipped = Skipped::default();
        {
            let edges = ImageEdges::new(self, heap);
            for (v, addr) in (0..).zip(self.addresses()) {
                edges.scan_at(v, addr, &mut skipped, |_| edges_total += 1);
                ticker.add(1);
            }
        }
        ticker.finish(Phase::Graph);
        CountedEdges {
            edges: edges_total,
            skipped,
        }
    }

    /// Stores what [`HeapGraph::counted_edges`] found (once: a second call would count the
    /// skipped references twice).
    pub fn set_counted_edges(&mut self, counted: CountedEdges) {
        self.add_skipped(counted.skipped);
        self.edge_count = Some(counted.edges);
    }

    /// Adds the references a pass over every node found not to be edges.
    fn add_skipped(&mut self, skipped: Skipped) {
        let before = self.skipped;
        self.skipped = Skipped {
            dangling: before.dangling + skipped.dangling,
            outside: before.outside + skipped.outside,
            weak: before.weak + skipped.weak,
            undecodable: before.undecodable + skipped.undecodable,
            statics_over_limit: before.statics_over_limit,
        };
    }

    /// Fills the edge arrays in one pass, `total` being the number of edges (the arrays are
    /// allocated for it; they grow if the count was wrong, which a read-only image rules out).
    fn fill_edges(
        &mut self,
        heap: &Heap,
        progress: &dyn Progress,
        total: u64,
    ) -> Result<(), GraphError> {
        if total >= u32::MAX as u64 {
            return Err(GraphError::TooLarge("more than 2^32 references".into()));
        }
        let mut ticker = Ticker::start(progress, Phase::Graph, Some(self.nodes() as u64));
        self.edges = Csr::default();
        let n = self.nodes();
        let mut offsets = OffsetsBuilder::with_capacity(n + 1);
        offsets.push(0u32);
        let mut targets: Vec<u32> = Vec::with_capacity(total as usize);
        let mut skipped = Skipped::default();
        {
            let edges = ImageEdges::new(self, heap);
            // In address order: the image is read sequentially and each address comes from
            // the index's bitmap without a select.
            for (v, addr) in (0..n as u32).zip(self.addresses()) {
                edges.scan_at(v, addr, &mut skipped, |w| targets.push(w));
                let t = u32::try_from(targets.len())
                    .ok()
                    .filter(|&t| t < u32::MAX)
                    .ok_or_else(|| GraphError::TooLarge("more than 2^32 references".into()))?;
                offsets.push(t);
                ticker.add(1);
            }
        }
        targets.shrink_to_fit();
        self.add_skipped(skipped);
        self.edge_count = Some(targets.len() as u64);
        ticker.finish(Phase::Graph);
        self.edges = Csr {
            offsets: offsets.finish(),
            targets,
        };
        Ok(())
    }

    fn collect_roots(&mut self, heap: &Heap) {
        let mut statics = HashSet::new();
        match heap.roots() {
            Ok(roots) => {
                for root in roots {
                    let group = RootGroup::Heap(root.kind);
                    let mut nodes = Vec::new();
                    self.entries(heap, root.word, &mut statics, &mut nodes);
                    match self.roots.iter_mut().find(|r| r.group == group) {
                        Some(r) => r.nodes.extend(nodes),
                        None => self.roots.push(Roots { group, nodes }),
                    }
                }
            }
            Err(e) => self.walk_errors.push(format!("roots: {e}")),
        }
        let mut var_nodes = Vec::new();
        match heap.stable_vars() {
            Ok(vars) => {
                for var in vars {
                    let mut v = VarRoot {
                        name: var.name.clone(),
                        word: None,
                        address: None,
                        node: None,
                        entries: Vec::new(),
                        error: None,
                    };
                    match heap.stable_var_value(&var) {
                        Ok(word) => {
                            v.word = Some(word);
                            v.address = heap.pointer(word).map(|a| heap.resolve(a).unwrap_or(a));
                            v.node = match self.target(heap, word) {
                                Target::Node(n) => Some(n),
                                _ => None,
                            };
                            self.entries(heap, word, &mut statics, &mut v.entries);
                            v.entries.sort_unstable();
                            v.entries.dedup();
                            var_nodes.extend(&v.entries);
                        }
                        Err(e) => v.error = Some(e.to_string()),
                    }
                    self.vars.push(v);
                }
            }
            Err(e) => self.vars_error = Some(e.to_string()),
        }
        self.roots.push(Roots {
            group: RootGroup::StableVars,
            nodes: var_nodes,
        });
        for r in &mut self.roots {
            r.nodes.sort_unstable();
            r.nodes.dedup();
        }
    }

    /// The heap nodes `word` reaches first: its node, or through static objects (bounded by
    /// `statics`, the static objects followed so far) the heap nodes they refer to.
    fn entries(&mut self, heap: &Heap, word: u64, statics: &mut HashSet<u64>, out: &mut Vec<u32>) {
        let mut stack = vec![word];
        while let Some(word) = stack.pop() {
            match self.target(heap, word) {
                Target::Node(n) => out.push(n),
                Target::Scalar => {}
                Target::Dangling => self.skipped.dangling += 1,
                Target::Outside(addr) => {
                    if statics.len() >= MAX_STATIC_OBJECTS {
                        self.skipped.statics_over_limit += 1;
                        continue;
                    }
                    if !statics.insert(addr) {
                        continue;
                    }
                    match heap.object(addr) {
                        Ok(obj) if obj.tag == Tag::WeakRef => {}
                        Ok(obj) => stack.extend(obj.references()),
                        Err(_) => self.skipped.undecodable += 1,
                    }
                }
            }
        }
    }

    /// Where a word points.
    fn target(&self, heap: &Heap, word: u64) -> Target {
        let Some(addr) = heap.pointer(word) else {
            return Target::Scalar;
        };
        // A node is a current object: following its forwarding word leads back to it.
        if self.nodes_resolve_to_themselves {
            if let Some(n) = self.node_at(addr) {
                return Target::Node(n);
            }
        }
        let Ok(addr) = heap.resolve(addr) else {
            return Target::Dangling;
        };
        match self.node_at(addr) {
            Some(n) => Target::Node(n),
            None if heap.in_heap(addr) => Target::Dangling,
            None if heap.image().contains(addr, 1) => Target::Outside(addr),
            None => Target::Dangling,
        }
    }

    /// The current copy of the object at `addr` (forwarding followed) and its node, if it is
    /// a walked object: no read at all for a node's address when nodes resolve to themselves.
    #[inline]
    pub fn resolve_node(&self, heap: &Heap, addr: u64) -> Result<(u64, Option<u32>), HeapError> {
        if self.nodes_resolve_to_themselves {
            if let Some(n) = self.node_at(addr) {
                return Ok((addr, Some(n)));
            }
        }
        let addr = heap.resolve(addr)?;
        Ok((addr, self.node_at(addr)))
    }

    /// The node of the object starting at `addr`.
    #[inline]
    pub fn node_at(&self, addr: u64) -> Option<u32> {
        if addr & ((1 << self.word_shift) - 1) != 0 {
            return None;
        }
        self.index.node_at(addr >> self.word_shift)
    }

    /// The number of nodes.
    #[inline]
    pub fn nodes(&self) -> usize {
        self.index.len()
    }

    /// Whether the graph is consistent and without edge arrays (one read back from a file,
    /// [`crate::analysis::persist`]): its node index, a size per node (the large ones in
    /// order), and every root, variable and entry a node.
    pub fn check_without_edges(&self) -> Result<(), String> {
        self.index.check()?;
        let nodes = self.nodes();
        let node = |n: u32| (n as usize) < nodes;
        if self.word_shift > 3 || self.sizes.len() != nodes || self.edges != Csr::default() {
            return Err(format!("{} sizes for {nodes} nodes", self.sizes.len()));
        }
        if !self.big_sizes.windows(2).all(|w| w[0].0 < w[1].0)
            || !self.big_sizes.iter().all(|&(n, _)| node(n))
        {
            return Err("the large sizes are out of order".to_string());
        }
        let roots = self.roots.iter().flat_map(|r| &r.nodes);
        let vars = self
            .vars
            .iter()
            .flat_map(|v| v.node.iter().chain(&v.entries));
        if let Some(n) = roots.chain(vars).find(|&&n| !node(n)) {
            return Err(format!("root node {n} beyond the {nodes} nodes"));
        }
        Ok(())
    }

    /// The address of node `n`.
    #[inline]
    pub fn address(&self, n: u32) -> u64 {
        self.index.word_of(n) << self.word_shift
    }

    /// The size in bytes of node `n`.
    #[inline]
    pub fn size(&self, n: u32) -> u64 {
        (self.size_words(n) as u64) << self.word_shift
    }

    /// The size of node `n` in words.
    #[inline]
    pub fn size_words(&self, n: u32) -> u32 {
        match self.sizes[n as usize] {
            u8::MAX => self
                .big_sizes
                .binary_search_by_key(&n, |&(m, _)| m)
                .map_or(u8::MAX as u32, |i| self.big_sizes[i].1),
            s => s as u32,
        }
    }

    /// The addresses of all nodes, in order.
    pub fn addresses(&self) -> impl Iterator<Item = u64> + '_ {
        self.index.words().map(move |w| w << self.word_shift)
    }

    /// The addresses of nodes `n` and on, in order (none when `n` is not a node).
    pub fn addresses_from(&self, n: u32) -> impl Iterator<Item = u64> + '_ {
        let nodes = (n as usize) < self.nodes();
        let from = if nodes {
            self.index.word_of(n)
        } else {
            u64::MAX
        };
        self.index
            .words_from(from)
            .map(move |w| w << self.word_shift)
    }

    /// log2 of the word size in bytes.
    #[inline]
    pub fn word_shift(&self) -> u32 {
        self.word_shift
    }

    /// The outgoing references of every node: empty unless the edge arrays were attached
    /// ([`HeapGraph::has_edge_arrays`]; [`ImageEdges`] reads them from the image otherwise).
    #[inline]
    pub fn edges(&self) -> &Csr {
        &self.edges
    }

    /// Whether the edge arrays are in memory ([`HeapGraph::attach_edges`]).
    pub fn has_edge_arrays(&self) -> bool {
        !self.edges.offsets.is_empty()
    }

    /// The number of edges, once counted or attached (`None` before).
    pub fn edge_count(&self) -> Option<u64> {
        self.edge_count
    }

    /// The root groups, GC roots in [`Heap::roots`] order, the stable variables last.
    pub fn roots(&self) -> &[Roots] {
        &self.roots
    }

    /// The stable variables (empty if they could not be read; see [`HeapGraph::vars_error`]).
    pub fn vars(&self) -> &[VarRoot] {
        &self.vars
    }

    /// Why the stable variables could not be read.
    pub fn vars_error(&self) -> Option<&str> {
        self.vars_error.as_deref()
    }

    /// Stale copies left by evacuation (not nodes).
    pub fn stale(&self) -> Count {
        self.stale
    }

    /// References that are not edges.
    pub fn skipped(&self) -> Skipped {
        self.skipped
    }

    /// Walk and root errors (the graph covers what was walked).
    pub fn errors(&self) -> &[String] {
        &self.walk_errors
    }

    /// The objects and bytes of all nodes.
    pub fn total(&self) -> Count {
        Count {
            objects: self.nodes() as u64,
            bytes: self.total_bytes,
        }
    }

    /// Bytes the graph's arrays take.
    pub fn heap_bytes(&self) -> usize {
        self.index.heap_bytes()
            + self.sizes.capacity()
            + self.big_sizes.capacity() * 8
            + self.edges.heap_bytes()
    }
}

/// Where a reference points.
enum Target {
    Node(u32),
    Scalar,
    Dangling,
    Outside(u64),
}

/// The edges of a graph read from the image, as [`HeapGraph::attach_edges`] stores them (the
/// same targets in the same order): for passes that must not hold the edge arrays.
pub struct ImageEdges<'a> {
    graph: &'a HeapGraph,
    heap: &'a Heap,
    /// The addresses of nodes read lately, by node number modulo [`RECENT`]: the
    /// depth-first numbering reads a node again each time it resumes after a child, and the
    /// address of a node costs a select over the index.
    recent: [Cell<(u32, u64)>; RECENT],
}

/// Nodes whose address [`ImageEdges`] remembers.
const RECENT: usize = 256;

impl<'a> ImageEdges<'a> {
    /// The edges of `graph`, a graph of `heap`.
    pub fn new(graph: &'a HeapGraph, heap: &'a Heap) -> ImageEdges<'a> {
        ImageEdges {
            graph,
            heap,
            recent: std::array::from_fn(|_| Cell::new((NO_NODE, 0))),
        }
    }

    /// The number of nodes.
    pub fn node_count(&self) -> usize {
        self.graph.nodes()
    }

    /// The reference fields of node `v` (lean: the header word and the walk's size).
    #[inline]
    fn run(&self, v: u32) -> Result<ReferenceRun<'a>, HeapError> {
        let slot = &self.recent[v as usize % RECENT];
        let addr = match slot.get() {
            (n, addr) if n == v => addr,
            _ => {
                let addr = self.graph.address(v);
                slot.set((v, addr));
                addr
            }
        };
        self.run_at(v, addr)
    }

    /// [`ImageEdges::run`] of node `v` at its address `addr`.
    #[inline]
    fn run_at(&self, v: u32, addr: u64) -> Result<ReferenceRun<'a>, HeapError> {
        self.heap.reference_run(addr, self.graph.size(v))
    }

    /// The reference fields of node `v` that are traced: none for a weak reference or an
    /// undecodable object.
    #[inline]
    fn traced(&self, v: u32) -> Option<Words<'a>> {
        self.run(v).ok().filter(|r| !r.is_weak()).map(|r| r.words)
    }

    /// The node a field word refers to, if any.
    #[inline]
    fn node_of(&self, word: u64) -> Option<u32> {
        if !self.heap.is_pointer(word) {
            return None;
        }
        match self.graph.target(self.heap, word) {
            Target::Node(n) => Some(n),
            _ => None,
        }
    }

    /// Calls `f` on each successor of node `v`.
    #[inline]
    pub fn for_each(&self, v: u32, mut f: impl FnMut(u32)) {
        if let Some(words) = self.traced(v) {
            for word in words.iter() {
                if let Some(n) = self.node_of(word) {
                    f(n);
                }
            }
        }
    }

    /// [`ImageEdges::for_each`] of node `v` at its address `addr`, counting the references
    /// that are not edges.
    fn scan_at(&self, v: u32, addr: u64, skipped: &mut Skipped, mut f: impl FnMut(u32)) {
        match self.run_at(v, addr) {
            Ok(run) if run.is_weak() => {
                skipped.weak += run.pointers().count() as u64;
            }
            Ok(run) => {
                for word in run.pointers() {
                    match self.graph.target(self.heap, word) {
                        Target::Node(n) => f(n),
                        Target::Dangling => skipped.dangling += 1,
                        Target::Outside(_) => skipped.outside += 1,
                        Target::Scalar => {}
                    }
                }
            }
            Err(_) => skipped.undecodable += 1,
        }
    }

    /// Calls `f` on each successor of `v` from reference position `k` on (positions are the
    /// object's reference fields, [`Heap::reference_run`]) until `f` returns `true`; returns
    /// the position after that successor, or `None` when there are no more. The object is
    /// decoded once per call, however many successors are passed over.
    #[inline]
    pub fn scan_from(&self, v: u32, k: u32, mut f: impl FnMut(u32) -> bool) -> Option<u32> {
        let words = self.traced(v)?;
        let len = u32::try_from(words.len()).unwrap_or(u32::MAX);
        let mut j = k;
        while j < len {
            let word = words.get(j as u64)?;
            j += 1;
            if let Some(n) = self.node_of(word) {
                if f(n) {
                    return Some(j);
                }
            }
        }
        None
    }
}

/// What a pass from the roots found: the nodes it reached and the edges out of them
/// (the dominators know both, so the edge arrays count only the other nodes' edges).
pub trait ReachedNodes {
    /// The number of edges out of the reached nodes.
    fn reachable_edges(&self) -> u64;
    /// Whether node `n` was reached.
    fn is_reachable(&self, n: u32) -> bool;
}
