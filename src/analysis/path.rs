//! Paths to roots: the shortest chain of references from a root to an object, as a Motoko
//! access path (`vars.people[3].name`) where the heap says how each step is taken.
//!
//! One breadth-first search from every root at once (the stable variables first, so a path
//! through a variable is preferred to one of the same length through another root), with a
//! parent per node: no recursion, memory of 4 bytes per node plus the queue.

use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

use super::dominators::Successors;
use super::fifo::Fifo;
use super::graph::HeapGraph;
use super::step::step;
pub use super::step::Step;
use super::types::{name_steps, TypeTable};
use crate::heap::types::LabelMap;
use crate::heap::types::StableSignature;
use crate::heap::Heap;

/// The shortest path from a root to an object.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct RootPath {
    /// Where it starts: `vars.NAME`, or a root kind in angle brackets (`<static variables>`).
    pub root: String,
    /// The steps, each with the address of the object it reaches (the last is the target).
    pub steps: Vec<(Step, u64)>,
    /// The address of the first object (the root's own object).
    pub start: u64,
}

impl RootPath {
    /// The JSON of `mo-mem path --json` for the object at `address` (schema:
    /// `docs/schemas/path.schema.json`): the path's text, its root, and each step with the
    /// address it reaches.
    pub fn to_json(&self, address: u64) -> serde_json::Value {
        let steps: Vec<serde_json::Value> = self
            .steps
            .iter()
            .map(|(s, a)| serde_json::json!({"step": s, "address": format!("{a:#x}")}))
            .collect();
        serde_json::json!({
            "address": format!("{address:#x}"),
            "path": self.text(),
            "root": self.root,
            "start": format!("{:#x}", self.start),
            "steps": steps,
        })
    }

    /// The path as Motoko access syntax: `vars.people[3].name`, `.1` for a tuple component,
    /// `?` for an option's value, ` #tag` for a variant's payload, `.get(k)` / `.entry(k)` /
    /// `.key(k)` inside mo:core collections, `.<rope ×n>` for a part `n` levels down a
    /// text's rope; mutable boxes are transparent.
    pub fn text(&self) -> String {
        let mut out = self.root.clone();
        let mut rope = 0usize;
        for (i, (step, _)) in self.steps.iter().enumerate() {
            if *step == Step::Rope {
                rope += 1;
                if !matches!(self.steps.get(i + 1), Some((Step::Rope, _))) {
                    match rope {
                        1 => out.push_str(".<rope>"),
                        n => out.push_str(&format!(".<rope ×{n}>")),
                    }
                    rope = 0;
                }
                continue;
            }
            match step {
                Step::Field(f) => {
                    out.push('.');
                    out.push_str(f);
                }
                Step::Index(i) => out.push_str(&format!("[{i}]")),
                Step::Component(i) => out.push_str(&format!(".{i}")),
                Step::Get(k) => out.push_str(&format!(".get({k})")),
                Step::Entry(k) => out.push_str(&format!(".entry({k})")),
                Step::Key(k) => out.push_str(&format!(".key({k})")),
                Step::Some => out.push('?'),
                Step::Variant(t) => {
                    out.push_str(" #");
                    out.push_str(t);
                }
                Step::Var => {}
                Step::Captured(i) => out.push_str(&format!(".<captured {i}>")),
                Step::Rope => {}
                Step::Other => out.push_str(".<ref>"),
            }
        }
        out
    }
}

/// A node not found (yet): the parents are stored plus one, so the array of a search just
/// started is all zeros, which the allocator hands out as untouched pages (only the pages
/// the search reaches are ever written).
const NONE: u32 = 0;

/// The stored parent of a node whose parent is `p`.
#[inline]
fn stored(p: u32) -> u32 {
    p + 1
}

/// Shortest paths from the roots of one graph: the search is done once, each path is then a
/// walk up the parents.
#[derive(serde::Serialize, serde::Deserialize)]
pub struct Paths {
    /// Per node: its parent plus one (a root is its own parent), or [`NONE`] for a node no
    /// root reaches (or not reached yet).
    #[serde(with = "crate::analysis::pod")]
    parent: Vec<u32>,
    /// For a node a search started from: the root's name.
    origin: BTreeMap<u32, String>,
}

impl Paths {
    /// Whether the paths are consistent, for a graph of `nodes` nodes (paths read back from
    /// a file, [`crate::analysis::persist`]): a parent per node, each a node or none (a
    /// cycle of parents is not looked for here: [`Paths::nodes_to`] gives up after as many
    /// steps as there are nodes).
    pub fn check(&self, nodes: usize) -> Result<(), String> {
        if self.parent.len() != nodes {
            return Err(format!("{} parents for {nodes} nodes", self.parent.len()));
        }
        let node = |&p: &u32| p == NONE || (p as usize) <= nodes;
        if !self.parent.iter().all(node) || !self.origin.keys().all(|&n| (n as usize) < nodes) {
            return Err(format!("a parent beyond the {nodes} nodes"));
        }
        Ok(())
    }

    /// Bytes the parents and the roots' names take.
    pub fn heap_bytes(&self) -> usize {
        self.parent.capacity() * 4 + self.origin.values().map(|n| n.len() + 40).sum::<usize>()
    }

    /// Searches from every root of `graph` (the stable variables first), over its edge
    /// arrays.
    pub fn new(graph: &HeapGraph) -> Paths {
        // A graph without its arrays is a caller's mistake (the paths would be silently
        // wrong), not an input.
        assert!(
            graph.has_edge_arrays() || graph.nodes() == 0,
            "the graph has no edge arrays: use Paths::new_over with ImageEdges"
        );
        Paths::new_over(graph, graph.edges())
    }

    /// [`Paths::new`] with the edges from `edges` (the arrays or the image: the same
    /// successors in the same order, so the same paths).
    pub fn new_over<S: Successors>(graph: &HeapGraph, edges: &S) -> Paths {
        PathSearch::new(graph).finish(edges)
    }

    /// The nodes from a root to `target` (inclusive), or `None` if no root reaches it (or
    /// the parents do not lead to a root within as many steps as there are nodes).
    pub fn nodes_to(&self, target: u32) -> Option<Vec<u32>> {
        let mut chain = vec![target];
        let mut v = target;
        loop {
            let p = match *self.parent.get(v as usize)? {
                NONE => return None,
                p => p - 1,
            };
            if chain.len() > self.parent.len() {
                return None;
            }
            if p == v {
                break;
            }
            chain.push(p);
            v = p;
        }
        chain.reverse();
        Some(chain)
    }

    /// The path to `target` with each step named from the heap (`labels` names record
    /// fields and variant tags by their hashes).
    pub fn path(
        &self,
        heap: &Heap,
        graph: &HeapGraph,
        labels: &HashMap<u32, Arc<str>>,
        target: u32,
    ) -> Option<RootPath> {
        let chain = self.nodes_to(target)?;
        let first = *chain.first()?;
        let root = self.origin.get(&first).cloned().unwrap_or_default();
        let steps = chain
            .windows(2)
            .map(|w| {
                let (from, to) = (graph.address(w[0]), graph.address(w[1]));
                (step(heap, labels, from, to), to)
            })
            .collect();
        Some(RootPath {
            root,
            steps,
            start: graph.address(first),
        })
    }
}

/// The search behind [`Paths`], run only as far as the questions asked need (over the
/// successors each call is given, the same every time): each [`PathSearch::reach`] continues the one breadth-first search until its target is found (or
/// the search ends), so the parents found, and the paths, are exactly those of the whole
/// search ([`Paths::new_over`], which runs it to its end). Memory: 4 bytes per node and the
/// search's frontier.
pub struct PathSearch {
    paths: Paths,
    queue: Fifo<u32>,
}

impl PathSearch {
    /// Bytes the search holds: its parents and its queue.
    pub fn heap_bytes(&self) -> usize {
        self.paths.heap_bytes() + self.queue.heap_bytes()
    }

    /// The search from every root of `graph` (the stable variables first), started: the
    /// roots are queued, no node is expanded yet. Every call after must pass the same edges.
    pub fn new(graph: &HeapGraph) -> PathSearch {
        let n = graph.nodes();
        // Zeros (NONE): fresh pages from the allocator, not a pass writing every one.
        let mut parent = vec![NONE; n];
        let mut origin: BTreeMap<u32, String> = BTreeMap::new();
        // First in, first out: it holds the search's frontier, not every node found.
        let mut queue: Fifo<u32> = Fifo::new();
        let mut start = |node: u32, name: &str, queue: &mut Fifo<u32>| {
            if parent[node as usize] == NONE {
                parent[node as usize] = stored(node);
                origin.insert(node, name.to_string());
                queue.push_back(node);
            }
        };
        for var in graph.vars() {
            for &e in &var.entries {
                start(e, &format!("vars.{}", var.name), &mut queue);
            }
        }
        for roots in graph.roots() {
            for &r in &roots.nodes {
                start(r, &format!("<{}>", roots.group.name()), &mut queue);
            }
        }
        PathSearch {
            paths: Paths { parent, origin },
            queue,
        }
    }

    /// Whether the search found `target`: the search continues, a node at a time in its
    /// order, until it has or no node is left (`false`: no root reaches it).
    pub fn reach<S: Successors>(&mut self, edges: &S, target: u32) -> bool {
        loop {
            match self.paths.parent.get(target as usize) {
                None => return false,
                Some(&p) if p != NONE => return true,
                Some(_) => {}
            }
            if !self.expand_next(edges) {
                return false;
            }
        }
    }

    /// The paths found so far: [`Paths::nodes_to`] and the paths are those of the whole
    /// search for every target [`PathSearch::reach`] found.
    pub fn paths(&self) -> &Paths {
        &self.paths
    }

    /// Expands up to `count` more nodes (`false`: the search is over).
    pub fn advance<S: Successors>(&mut self, edges: &S, count: usize) -> bool {
        (0..count).all(|_| self.expand_next(edges))
    }

    /// The whole search.
    pub fn finish<S: Successors>(mut self, edges: &S) -> Paths {
        while self.expand_next(edges) {}
        self.paths
    }

    /// Takes the next node off the queue and queues its successors not found before
    /// (`false`: the queue was empty, the search is over).
    fn expand_next<S: Successors>(&mut self, edges: &S) -> bool {
        let Some(v) = self.queue.pop_front() else {
            return false;
        };
        let (parent, queue) = (&mut self.paths.parent, &mut self.queue);
        edges.scan_from(v, 0, |w| {
            if parent[w as usize] == NONE {
                parent[w as usize] = stored(v);
                queue.push_back(w);
            }
            false
        });
        true
    }
}

impl Paths {
    /// The path to `target` with each step named from the types of the stable variable it
    /// starts at (`sig`): tuple components `.1`, mo:core collection entries by key
    /// (`.get(777)`, see [`name_steps`]); from another root, without a signature, or where
    /// the type says nothing, the steps are named from the heap as in [`Paths::path`].
    pub fn typed_path(
        &self,
        heap: &Heap,
        graph: &HeapGraph,
        sig: Option<&StableSignature>,
        labels: &LabelMap,
        target: u32,
    ) -> Option<RootPath> {
        let mut path = self.path(heap, graph, labels, target)?;
        let Some(sig) = sig else {
            return Some(path);
        };
        let Some(name) = path.root.strip_prefix("vars.") else {
            return Some(path);
        };
        let (Some(var), Some(sv)) = (graph.vars().iter().find(|v| v.name == name), sig.var(name))
        else {
            return Some(path);
        };
        let (Some(word), Some(first)) = (var.word, var.node) else {
            return Some(path);
        };
        let chain = self.nodes_to(target)?;
        if chain.first() != Some(&first) {
            // reached through a static object: no type for the first heap object
            return Some(path);
        }
        let mut table = TypeTable::for_signature(sig);
        path.steps = name_steps(heap, graph, &mut table, labels, word, &sv.ty, &chain);
        Some(path)
    }
}

/// Why an address has no path from a root.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PathError {
    /// No heap object starts there.
    #[error("{0:#x} is not the start of a heap object of this snapshot")]
    NotAnObject(u64),
    /// The object is garbage.
    #[error("{0:#x} is garbage: no root reaches it (the GC has not reclaimed it yet)")]
    Garbage(u64),
}

/// The shortest path from a root to the object at `addr` (a forwarded address resolved
/// first), with the object's address, as `mo-mem path` answers.
pub fn path_to(
    opened: &super::OpenedHeap,
    a: &super::HeapAnalysis,
    addr: u64,
) -> Result<(u64, RootPath), PathError> {
    let addr = opened.heap().resolve(addr).unwrap_or(addr);
    let node = a
        .graph()
        .node_at(addr)
        .ok_or(PathError::NotAnObject(addr))?;
    let path = a.path(opened, node).ok_or(PathError::Garbage(addr))?;
    Ok((addr, path))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Paths with these stored parents (node 0 the root `vars.x`).
    fn paths(parent: Vec<u32>) -> Paths {
        Paths {
            parent,
            origin: BTreeMap::from([(0, "vars.x".to_string())]),
        }
    }

    #[test]
    fn parents_are_stored_plus_one() {
        let p = paths(vec![stored(0), stored(0), stored(0), stored(2), NONE]);
        assert_eq!(p.check(5), Ok(()));
        assert_eq!(p.nodes_to(3), Some(vec![0, 2, 3]));
        assert_eq!(p.nodes_to(0), Some(vec![0]));
        assert_eq!(p.nodes_to(4), None, "not reached");
        assert_eq!(p.nodes_to(5), None, "not a node");
        // The last node is a parent; one beyond is refused.
        assert_eq!(paths(vec![stored(0), stored(1)]).check(2), Ok(()));
        assert!(paths(vec![stored(0), stored(2)]).check(2).is_err());
        assert!(paths(vec![stored(0)]).check(2).is_err(), "too few parents");
        // A cycle of parents leads nowhere, in as many steps as there are nodes.
        assert_eq!(paths(vec![stored(1), stored(0)]).nodes_to(0), None);
    }
}
