//! [`OpenedHeap`]: one snapshot's heap opened once, with what every reader of it shares —
//! the stable signature, its label map, and analyses computed on first use and kept.

use crate::analysis::cached::HeapAnalysis;
use crate::analysis::graph::GraphError;
use crate::analysis::progress::{NoProgress, Progress};
use crate::analysis::stats::resolve_threads;
use crate::analysis::stats::{heap_stats_with, BlockVisitor, HeapStats};
use crate::heap::types::{label_hash, LabelMap, StableSignature, TypeEnv};
use crate::heap::value::{heap_signature, DecodeError, Decoder};
use crate::heap::{Block, BlockKind, Heap, HeapError};
use crate::image::ReaderLimits;
use crate::snapshot::{Snapshot, SnapshotError};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, OnceLock, Weak};

/// log2 of the bytes of heap each entry of [`OpenedHeap::object_blocks`] stands for (64 KiB).
pub const OBJECT_BLOCK_BITS: u32 = 16;

/// Why a snapshot could not be opened as a heap (the text names the snapshot and the cause).
#[derive(Debug, Clone, thiserror::Error)]
#[non_exhaustive]
pub enum OpenError {
    /// The snapshot's files could not be read (missing, unreadable, inconsistent).
    #[error("cannot open snapshot {}: {error}", path.display())]
    Snapshot {
        /// The snapshot directory (or image file).
        path: PathBuf,
        /// Why.
        error: Arc<SnapshotError>,
    },
    /// The files were read but the heap does not decode (module, layout, limits).
    #[error("cannot decode the heap of {}: {error}", path.display())]
    Heap {
        /// The snapshot directory (or image file).
        path: PathBuf,
        /// Why.
        error: HeapError,
    },
}

/// A heap opened once and shared read-only by every front-end: the heap, its stable
/// signature (or why there is none), the signature's labels, and cached analyses.
pub struct OpenedHeap {
    heap: Heap,
    signature: Result<StableSignature, DecodeError>,
    labels: OnceLock<LabelMap>,
    stats: OnceLock<(HeapStats, Arc<[u64]>)>,
    analysis: AnalysisSlot,
    kept_in: OnceLock<Box<dyn AnalysisStore>>,
    empty_env: TypeEnv,
    walk_threads: AtomicUsize,
}

/// Where a heap's analysis is kept between processes (`serve::analysis_index`: a file in
/// the user's cache): [`OpenedHeap::analysis`] reads it from there instead of computing it,
/// and keeps there what it computed.
pub trait AnalysisStore: Send + Sync {
    /// The analysis kept for `opened`, if one is kept and known to be its (else `None`: it
    /// is computed).
    fn load(&self, opened: &OpenedHeap) -> Option<HeapAnalysis>;
    /// Keeps `a`, the analysis of `opened` just computed (a failure is only reported).
    fn save(&self, opened: &OpenedHeap, a: &HeapAnalysis);
}

/// Collects the first object of every 64 KiB block a part of the walk passes.
#[derive(Default)]
struct FirstObjects {
    firsts: Vec<u64>,
    last_block: Option<u64>,
}

impl BlockVisitor for FirstObjects {
    #[inline(always)]
    fn visit(&mut self, block: &Block) {
        let BlockKind::Object(tag) = block.kind else {
            return;
        };
        let index = block.addr >> OBJECT_BLOCK_BITS;
        if tag.is_object() && self.last_block != Some(index) {
            self.last_block = Some(index);
            self.firsts.push(block.addr);
        }
    }
}

impl OpenedHeap {
    /// Wraps a heap opened by the caller (a bare image, an in-memory snapshot, a test).
    pub fn new(heap: Heap) -> OpenedHeap {
        let signature = heap_signature(&heap);
        OpenedHeap {
            heap,
            signature,
            labels: OnceLock::new(),
            stats: OnceLock::new(),
            analysis: AnalysisSlot::default(),
            kept_in: OnceLock::new(),
            empty_env: TypeEnv::default(),
            walk_threads: AtomicUsize::new(resolve_threads(0)),
        }
    }

    /// Walks the heap for [`OpenedHeap::stats`] and computes [`OpenedHeap::analysis`] on
    /// `threads` threads (0: every core, the default); set before the first use.
    pub fn set_walk_threads(&self, threads: usize) {
        self.walk_threads
            .store(resolve_threads(threads), Ordering::Relaxed);
    }

    /// The threads a pass over the whole heap may use ([`OpenedHeap::set_walk_threads`]:
    /// the walk, the analysis, and the doctor's pass over the objects).
    pub fn threads(&self) -> usize {
        self.walk_threads.load(Ordering::Relaxed)
    }

    /// Opens the snapshot directory `dir` with the default reader limits.
    pub fn open(dir: &Path) -> Result<OpenedHeap, OpenError> {
        OpenedHeap::open_with_limits(dir, ReaderLimits::default())
    }

    /// Opens the snapshot directory `dir` (its module gunzipped and parsed here, once),
    /// reading it under `limits`.
    pub fn open_with_limits(dir: &Path, limits: ReaderLimits) -> Result<OpenedHeap, OpenError> {
        let snapshot = Snapshot::open_with(dir, crate::snapshot::OpenOptions::for_limits(&limits))
            .map_err(|error| OpenError::Snapshot {
                path: dir.to_path_buf(),
                error: Arc::new(error),
            })?;
        OpenedHeap::from_snapshot(snapshot, limits)
    }

    /// Opens the heap of an opened snapshot (a directory, or a bare image with its module),
    /// reading it under `limits`.
    pub fn from_snapshot(
        snapshot: Snapshot,
        limits: ReaderLimits,
    ) -> Result<OpenedHeap, OpenError> {
        let path = snapshot.path().to_path_buf();
        let heap = Heap::open(snapshot, limits).map_err(|error| OpenError::Heap { path, error })?;
        Ok(OpenedHeap::new(heap))
    }

    /// The decoded heap (its image is the snapshot's main memory).
    pub fn heap(&self) -> &Heap {
        &self.heap
    }

    /// The stable signature, or why it cannot be read.
    pub fn signature(&self) -> Result<&StableSignature, &DecodeError> {
        self.signature.as_ref()
    }

    /// Every label of the stable signature by hash (empty without a signature); built on
    /// first use and shared by every decoder made here.
    pub fn labels(&self) -> &LabelMap {
        self.labels.get_or_init(|| match &self.signature {
            Ok(sig) => Arc::new(
                sig.labels()
                    .into_iter()
                    .map(|label| (label_hash(&label), label))
                    .collect(),
            ),
            Err(_) => LabelMap::default(),
        })
    }

    /// A value decoder over the signature's types that knows its labels (for untyped
    /// parts), or why there is no signature. Cheap: the label map is shared.
    pub fn decoder(&self) -> Result<Decoder<'_>, &DecodeError> {
        let sig = self.signature()?;
        let mut decoder = Decoder::new(&self.heap, &sig.env);
        decoder.set_label_map(self.labels().clone());
        Ok(decoder)
    }

    /// [`OpenedHeap::decoder`], or without a signature an untyped decoder (no labels).
    pub fn any_decoder(&self) -> Decoder<'_> {
        match self.decoder() {
            Ok(decoder) => decoder,
            Err(_) => Decoder::new(&self.heap, &self.empty_env),
        }
    }

    /// Objects and bytes per tag, free and unused space: walked once, on first use.
    pub fn stats(&self) -> &HeapStats {
        &self.walked().0
    }

    /// The address of the first object in every 64 KiB block ([`OBJECT_BLOCK_BITS`]) that
    /// holds the start of an object, ascending: found by the walk that counts
    /// [`OpenedHeap::stats`] (8 bytes per 64 KiB of heap), so listing objects by block
    /// needs no walk of its own.
    pub fn object_blocks(&self) -> &Arc<[u64]> {
        &self.walked().1
    }

    fn walked(&self) -> &(HeapStats, Arc<[u64]>) {
        self.stats.get_or_init(|| {
            let (stats, parts) = heap_stats_with(
                &self.heap,
                self.walk_threads.load(Ordering::Relaxed),
                &FirstObjects::default,
            );
            let mut firsts: Vec<u64> = parts.into_iter().flat_map(|p| p.firsts).collect();
            // Ranges are walked in address order; sorting keeps the index right if not.
            firsts.sort_unstable();
            firsts.dedup_by_key(|addr| *addr >> OBJECT_BLOCK_BITS);
            (stats, firsts.into())
        })
    }

    /// The heap analysis (graph, dominators, retained sizes, paths): computed on first use,
    /// once, and kept until [`OpenedHeap::release_analysis`] (a heap too large for the graph
    /// is kept as its error).
    pub fn analysis(&self) -> Result<Arc<HeapAnalysis>, GraphError> {
        self.analysis_with(&NoProgress)
    }

    /// [`OpenedHeap::analysis`], reporting to `progress` if it is computed by this call.
    pub fn analysis_with(&self, progress: &dyn Progress) -> Result<Arc<HeapAnalysis>, GraphError> {
        self.analysis.get_or_compute(|| {
            let store = self.kept_in.get();
            if let Some(kept) = store.and_then(|s| s.load(self)) {
                return Ok(kept);
            }
            let a = HeapAnalysis::compute(self, progress)?;
            if let Some(s) = store {
                s.save(self, &a);
            }
            Ok(a)
        })
    }

    /// Keeps this heap's analysis in `store` between processes: read from there by
    /// [`OpenedHeap::analysis`] when it is there, written there when computed (the first
    /// store set is the one used).
    pub fn keep_analyses_in(&self, store: Box<dyn AnalysisStore>) {
        let _ = self.kept_in.set(store);
    }

    /// Whether the heap analysis is at hand without computing it: kept, failed, or
    /// released but still in use by a reader.
    pub fn has_analysis(&self) -> bool {
        self.analysis.current().is_some()
    }

    /// The heap analysis if it is at hand (see [`OpenedHeap::has_analysis`]).
    pub fn current_analysis(&self) -> Option<Result<Arc<HeapAnalysis>, GraphError>> {
        self.analysis.current()
    }

    /// Stops keeping the heap analysis: it is freed when its last reader lets go, and the
    /// next [`OpenedHeap::analysis`] computes it again (the same figures: the heap is
    /// read-only). A failure is kept (it is small and would fail again).
    pub fn release_analysis(&self) {
        self.analysis.release();
    }
}

/// The heap analysis of one opened heap: none yet, kept, released (freed once its last
/// reader drops it), or the reason it cannot be computed.
#[derive(Default)]
struct AnalysisSlot {
    state: Mutex<SlotState>,
    /// Held while computing, so two readers never compute it at once.
    computing: Mutex<()>,
}

#[derive(Default)]
enum SlotState {
    #[default]
    Empty,
    Kept(Arc<HeapAnalysis>),
    Released(Weak<HeapAnalysis>),
    Failed(GraphError),
}

impl AnalysisSlot {
    /// The analysis if it is kept, still alive after its release, or failed.
    fn current(&self) -> Option<Result<Arc<HeapAnalysis>, GraphError>> {
        let state = self.state.lock().unwrap_or_else(|p| p.into_inner());
        match &*state {
            SlotState::Empty => None,
            SlotState::Kept(a) => Some(Ok(a.clone())),
            SlotState::Released(w) => w.upgrade().map(Ok),
            SlotState::Failed(e) => Some(Err(e.clone())),
        }
    }

    /// The current analysis, else the one `compute` makes, kept.
    fn get_or_compute(
        &self,
        compute: impl FnOnce() -> Result<HeapAnalysis, GraphError>,
    ) -> Result<Arc<HeapAnalysis>, GraphError> {
        if let Some(found) = self.current() {
            return found;
        }
        let _computing = self.computing.lock().unwrap_or_else(|p| p.into_inner());
        // another reader may have computed it while this one waited
        if let Some(found) = self.current() {
            return found;
        }
        let made = compute().map(Arc::new);
        let mut state = self.state.lock().unwrap_or_else(|p| p.into_inner());
        *state = match &made {
            Ok(a) => SlotState::Kept(a.clone()),
            Err(e) => SlotState::Failed(e.clone()),
        };
        made
    }

    /// Keeps a kept analysis only as long as a reader holds it.
    fn release(&self) {
        let mut state = self.state.lock().unwrap_or_else(|p| p.into_inner());
        if let SlotState::Kept(a) = &*state {
            *state = SlotState::Released(Arc::downgrade(a));
        }
    }
}
