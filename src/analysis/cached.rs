//! [`HeapAnalysis`]: the heap analysis of one opened snapshot (graph, dominators, retained
//! sizes, per-variable and per-type figures, paths to roots), computed on first use and kept
//! with the [`OpenedHeap`](super::OpenedHeap), so the mount, scripts and every command share it.

use std::ops::Deref;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, MutexGuard, OnceLock};

use super::concurrent::both;
use super::dominators::Retained;
use super::graph::{GraphError, HeapGraph, ImageEdges};
use super::path::{PathSearch, Paths, RootPath};
use super::progress::{NoProgress, Phase, Progress};
use super::retained::{Analysis, Search, VarRetention};
use super::stats::Count;
use super::types::{by_type, TypeLabels};
use super::OpenedHeap;
use crate::heap::Heap;

/// One row of the per-type figures: a Motoko type (or the heap tag of objects no type
/// reaches), its live objects and their own bytes, and what all of them retain together.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct TypeRow {
    /// The type's label (`Text`, `Map<Nat, Text>`, `Person`), or a heap tag (`Blob B`).
    pub name: String,
    /// Whether `name` is a Motoko type (else a heap tag).
    pub typed: bool,
    /// Its live objects and their own bytes.
    pub shallow: Count,
    /// What they retain together.
    pub retained: Retained,
}

/// What is persisted of a [`HeapAnalysis`] ([`HeapAnalysis::parts`]), in the order
/// [`super::persist`] encodes it.
#[derive(serde::Serialize)]
pub(super) struct Persisted<'a> {
    pub core: &'a Analysis,
    pub vars: &'a [VarRetention],
    pub labels: &'a TypeLabels,
    pub types: &'a [TypeRow],
    pub paths: &'a Paths,
}

/// The analysis of one heap: the [`Analysis`] (graph and dominators; its methods are
/// reachable through `Deref`) and the figures derived from it, each computed once.
pub struct HeapAnalysis {
    core: Analysis,
    vars: Vec<VarRetention>,
    paths: OnceLock<Paths>,
    search: Mutex<PathState>,
    labels: OnceLock<TypeLabels>,
    types: OnceLock<Vec<TypeRow>>,
}

/// The one shortest-path search from the roots: not started, run part of the way (as far
/// as the paths asked for by [`HeapAnalysis::path_reached`] needed), or finished into
/// [`HeapAnalysis::paths`].
enum PathState {
    /// No path was asked for yet.
    NotStarted,
    /// Run until the nodes asked for so far were found.
    Partial(PathSearch),
    /// Finished: the paths are (or are being stored) in [`HeapAnalysis::paths`].
    Finished,
}

impl Deref for HeapAnalysis {
    type Target = Analysis;

    fn deref(&self) -> &Analysis {
        &self.core
    }
}

impl HeapAnalysis {
    /// Builds the graph, dominators and Motoko types of `opened`'s heap, reporting to
    /// `progress`, on [`OpenedHeap::threads`] threads ([`HeapAnalysis::compute_on`]).
    pub fn compute(
        opened: &OpenedHeap,
        progress: &dyn Progress,
    ) -> Result<HeapAnalysis, GraphError> {
        HeapAnalysis::compute_on(opened, progress, opened.threads())
    }

    /// [`HeapAnalysis::compute`] on `threads` threads: with 2 or more, the steps that need
    /// only the graph, the dominators and the heap run two at a time; with 1, one after the
    /// other. The results are the same.
    ///
    /// The order keeps the peak memory that of one step (`docs/analysis.md`, "What each byte
    /// per object is"): the edge count (a pass that keeps nothing) runs beside the dominators;
    /// the variables' reachable sets (a bit per object and a stack each) beside the type
    /// walk; the per-type figures (a pass over the dominator tree, the largest step after
    /// the dominators) alone, after both. The types need the nodes and dominators but not
    /// the edge arrays, which are never built: the edges are read from the image.
    pub fn compute_on(
        opened: &OpenedHeap,
        progress: &dyn Progress,
        threads: usize,
    ) -> Result<HeapAnalysis, GraphError> {
        let heap = opened.heap();
        let (mut core, counted) =
            Analysis::without_edges_beside(heap, progress, threads, |graph| {
                graph.counted_edges(heap, &NoProgress)
            })?;
        core.set_counted_edges(counted);
        progress.start(Phase::Types, None);
        // The searches' memory is allocated (and freed) by this thread, so what it freed is
        // where the per-type pass allocates, as when the steps run in turn.
        let mut search = Search::for_nodes(core.graph().nodes());
        let (labels, vars) = both(
            threads,
            || TypeLabels::compute(heap, core.graph(), opened.signature().ok()),
            || core.vars_in(&ImageEdges::new(core.graph(), heap), &mut search),
        );
        drop(search);
        let types = type_rows(&core, opened, &labels);
        progress.finish(Phase::Types);
        Ok(HeapAnalysis {
            core,
            vars,
            paths: OnceLock::new(),
            search: Mutex::new(PathState::NotStarted),
            labels: OnceLock::from(labels),
            types: OnceLock::from(types),
        })
    }

    /// What [`super::persist`] keeps of this analysis: the graph and dominators, the
    /// variables' figures, the type labels, the per-type figures and the paths (computed
    /// now if not yet: the path search is finished).
    pub(super) fn parts(&self, opened: &OpenedHeap) -> Persisted<'_> {
        Persisted {
            core: &self.core,
            vars: &self.vars,
            labels: self.labels(opened),
            types: self.types(opened),
            paths: self.paths(opened.heap()),
        }
    }

    /// The analysis of [`HeapAnalysis::parts`] read back.
    pub(super) fn from_parts(
        core: Analysis,
        vars: Vec<VarRetention>,
        labels: TypeLabels,
        types: Vec<TypeRow>,
        paths: Paths,
    ) -> HeapAnalysis {
        HeapAnalysis {
            core,
            vars,
            paths: OnceLock::from(paths),
            search: Mutex::new(PathState::Finished),
            labels: OnceLock::from(labels),
            types: OnceLock::from(types),
        }
    }

    /// Bytes this analysis keeps in memory (what releasing it gives back): the graph's
    /// index, the dominators, the type labels and rows, and the paths once searched.
    pub fn heap_bytes(&self) -> usize {
        let rows = |rows: &Vec<TypeRow>| {
            rows.iter()
                .map(|r| std::mem::size_of::<TypeRow>() + r.name.len())
                .sum::<usize>()
        };
        self.core.graph().heap_bytes()
            + self.core.dominators().heap_bytes()
            + self.vars.len() * std::mem::size_of::<VarRetention>()
            + self.labels.get().map_or(0, TypeLabels::heap_bytes)
            + self.types.get().map_or(0, rows)
            + self.paths.get().map_or(0, Paths::heap_bytes)
            + self.search_bytes()
    }

    /// Bytes a search run part of the way holds (one running now: its parents, counted
    /// without waiting for it).
    fn search_bytes(&self) -> usize {
        match self.search.try_lock() {
            Ok(search) => match &*search {
                PathState::Partial(s) => s.heap_bytes(),
                _ => 0,
            },
            Err(_) => self.core.graph().nodes() * 4,
        }
    }

    /// The graph and dominators.
    pub fn core(&self) -> &Analysis {
        &self.core
    }

    /// Each stable variable, reachable and retained, largest retained first.
    pub fn vars(&self) -> &[VarRetention] {
        &self.vars
    }

    /// The shortest paths from the roots (one search over `heap`'s image, on first use): the
    /// search [`HeapAnalysis::path_reached`] ran part of the way is finished, not repeated.
    pub fn paths(&self, heap: &Heap) -> &Paths {
        self.paths.get_or_init(|| {
            let graph = self.core.graph();
            // The lock is held until the search is over: a path asked for meanwhile waits
            // for these paths instead of starting a search of its own.
            let mut search = self.search();
            let started = std::mem::replace(&mut *search, PathState::Finished);
            let search = match started {
                PathState::Partial(s) => s,
                PathState::NotStarted | PathState::Finished => PathSearch::new(graph),
            };
            search.finish(&ImageEdges::new(graph, heap))
        })
    }

    /// The search's state, locked (a panic while it was held left a search whose parents
    /// are all right so far: it is used on).
    fn search(&self) -> MutexGuard<'_, PathState> {
        self.search.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The shortest path from a root to node `n` (what [`HeapAnalysis::path`] returns), from
    /// the search run only as far as `n` needs: the search is shared and kept, so a later
    /// path continues it and [`HeapAnalysis::paths`] finishes it (the same breadth-first
    /// search, so the same paths). `None` for garbage.
    pub fn path_reached(&self, opened: &OpenedHeap, n: u32) -> Option<RootPath> {
        let (heap, graph) = (opened.heap(), self.core.graph());
        let typed = |paths: &Paths| {
            paths.typed_path(heap, graph, opened.signature().ok(), opened.labels(), n)
        };
        if self.paths.get().is_none() {
            let mut search = self.search();
            if let Some(s) = started(&mut search, graph) {
                if !s.reach(&ImageEdges::new(graph, heap), n) {
                    return None;
                }
                return typed(s.paths());
            }
        }
        // Finished (or being finished by another thread: `paths` waits for it).
        typed(self.paths(heap))
    }

    /// Runs the search [`HeapAnalysis::path_reached`] uses ahead, a block of nodes at a
    /// time, until `stop` is set or it is over: work done before the paths are asked for (on
    /// a thread that would be idle), not a different search. A path asked for meanwhile
    /// waits for it to stop.
    pub fn search_paths_ahead(&self, opened: &OpenedHeap, stop: &AtomicBool) {
        /// Nodes expanded between two looks at `stop`.
        const BLOCK: usize = 4096;
        if self.paths.get().is_some() {
            return;
        }
        let mut search = self.search();
        let graph = self.core.graph();
        if let Some(s) = started(&mut search, graph) {
            let edges = ImageEdges::new(graph, opened.heap());
            while !stop.load(Ordering::Relaxed) && s.advance(&edges, BLOCK) {}
        }
    }

    /// The shortest paths from the roots, if they were searched already.
    pub fn computed_paths(&self) -> Option<&Paths> {
        self.paths.get()
    }

    /// The shortest path from a root to node `n`, its steps named from the types
    /// (`vars.index.get(777)`) and `opened`'s labels (`None` for garbage): the search runs
    /// only as far as `n` needs ([`HeapAnalysis::path_reached`]).
    pub fn path(&self, opened: &OpenedHeap, n: u32) -> Option<RootPath> {
        self.path_reached(opened, n)
    }

    /// The Motoko type of every object a type-directed walk from the stable variables
    /// reaches (one walk, on first use).
    pub fn labels(&self, opened: &OpenedHeap) -> &TypeLabels {
        self.labels.get_or_init(|| {
            TypeLabels::compute(opened.heap(), self.core.graph(), opened.signature().ok())
        })
    }

    /// Node `n`'s Motoko type, else its heap tag.
    pub fn type_of(&self, opened: &OpenedHeap, n: u32) -> String {
        match self.labels(opened).label(n) {
            Some(label) => label.to_string(),
            None => opened
                .heap()
                .object(self.core.graph().address(n))
                .map_or("?", |o| o.tag.name())
                .to_string(),
        }
    }

    /// [`HeapAnalysis::path`] as `mo-mem path` prints it (`vars.people[3].name`).
    pub fn path_text(&self, opened: &OpenedHeap, n: u32) -> Option<String> {
        self.path(opened, n).map(|p| p.text())
    }

    /// The per-type figures, largest retained first (ties by name).
    pub fn types(&self, opened: &OpenedHeap) -> &[TypeRow] {
        self.types_with(opened, &NoProgress)
    }

    /// [`HeapAnalysis::types`], reporting [`Phase::Types`] if they are computed now.
    pub fn types_with(&self, opened: &OpenedHeap, progress: &dyn Progress) -> &[TypeRow] {
        self.types.get_or_init(|| {
            progress.start(Phase::Types, None);
            let rows = type_rows(&self.core, opened, self.labels(opened));
            progress.finish(Phase::Types);
            rows
        })
    }
}

/// The per-type figures of `a`: every place that lists types (`retained --by type`, the
/// report, the mount's `types.json`) takes them from here.
fn type_rows(a: &Analysis, opened: &OpenedHeap, labels: &TypeLabels) -> Vec<TypeRow> {
    by_type(opened.heap(), a, labels)
        .into_iter()
        .map(|t| TypeRow {
            name: t.name.to_string(),
            typed: t.typed,
            shallow: t.shallow,
            retained: t.retained,
        })
        .collect()
}

/// The search run part of the way, started over `graph` if it was not yet; `None` once it
/// is finished (its paths are then [`HeapAnalysis::paths`]).
fn started<'s>(search: &'s mut PathState, graph: &HeapGraph) -> Option<&'s mut PathSearch> {
    if let PathState::NotStarted = search {
        *search = PathState::Partial(PathSearch::new(graph));
    }
    match search {
        PathState::Partial(s) => Some(s),
        PathState::NotStarted | PathState::Finished => None,
    }
}
