//! [`Snapshots`]: one [`OpenedSnapshot`] per snapshot directory, shared by everything that
//! serves it (the file tree, the `eval` file, a command), so each is opened once per
//! process, also when the tree forgets and remakes its directory node. A directory whose
//! main-memory image was replaced (another inode, size or time) is a new snapshot.
//!
//! A catalog with a [`TrustPolicy`] also decides each snapshot's trust once
//! ([`OpenedSnapshot::trust`]): the tree's verifier, the `eval` file and the commands all
//! read that one verdict.

use crate::analysis::{OpenError, OpenedHeap};
use crate::image::ReaderLimits;
use crate::runtime::offline::{OfflineCanister, OfflineError};
use crate::serve::analysis_index::AnalysisIndex;
use crate::store::{StoreError, Trust, TrustRule};
use crate::vfs::guard::Fingerprint;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

/// How a catalog decides whether its snapshots may be read: the store's rule, and whether
/// one that does not verify is read anyway (`--no-verify`).
#[derive(Debug, Clone)]
pub struct TrustPolicy {
    /// The store's rule (where the store and the key are).
    pub rule: TrustRule,
    /// Read a snapshot that does not verify, with a warning ([`Trust::Overridden`]).
    pub allow_unverified: bool,
}

/// Why a snapshot's canister cannot be asked.
#[derive(Debug, thiserror::Error)]
pub enum CanisterError {
    /// The snapshot does not open.
    #[error(transparent)]
    Open(OpenError),
    /// Its module or service cannot be read.
    #[error(transparent)]
    Canister(#[from] OfflineError),
}

/// A snapshot's trust verdict: how far it can be trusted, or why it is refused.
pub type Verdict = Result<Trust, Arc<StoreError>>;

/// One snapshot directory as served: opened (images read, module parsed, heap detected) on
/// first use, once, and shared by every reader while any of them holds it; its trust
/// verdict is decided once too.
pub struct OpenedSnapshot {
    dir: PathBuf,
    limits: ReaderLimits,
    heap: OnceLock<Result<Arc<OpenedHeap>, OpenError>>,
    canister: OnceLock<Result<Arc<OfflineCanister>, Arc<CanisterError>>>,
    opens: Arc<AtomicU64>,
    policy: Option<Arc<TrustPolicy>>,
    verdict: Mutex<Option<Arc<Verdict>>>,
    verifications: Arc<AtomicU64>,
}

impl OpenedSnapshot {
    /// The snapshot directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The opened heap, or why the snapshot cannot be opened (opened on the first call; a
    /// failure is kept, not retried).
    pub fn heap(&self) -> Result<&Arc<OpenedHeap>, &OpenError> {
        self.heap
            .get_or_init(|| {
                self.opens.fetch_add(1, Ordering::Relaxed);
                tracing::debug!(snapshot = %self.dir.display(), "opening the snapshot");
                let index = AnalysisIndex::for_files(&[&self.dir], &self.limits);
                let heap = OpenedHeap::open_with_limits(&self.dir, self.limits)?;
                if let Some(index) = index {
                    heap.keep_analyses_in(Box::new(index));
                }
                Ok(Arc::new(heap))
            })
            .as_ref()
    }

    /// The snapshot's canister, to ask its queries offline: read (module, service) on the
    /// first call and kept, its state restored on its first call; a failure is kept too.
    pub fn canister(&self) -> Result<&Arc<OfflineCanister>, &Arc<CanisterError>> {
        self.canister
            .get_or_init(|| {
                let heap = self
                    .heap()
                    .map_err(|e| Arc::new(CanisterError::Open(e.clone())))?;
                let canister =
                    OfflineCanister::open(heap.clone()).map_err(|e| Arc::new(e.into()))?;
                Ok(Arc::new(canister))
            })
            .as_ref()
    }

    /// The trust verdict under the catalog's policy, decided on the first call (which may
    /// hash every file) and kept; `None` when the catalog checks no trust.
    pub fn trust(&self) -> Option<Arc<Verdict>> {
        let policy = self.policy.as_ref()?;
        let mut verdict = self.verdict.lock().unwrap_or_else(|p| p.into_inner());
        Some(verdict.get_or_insert_with(|| self.decide(policy)).clone())
    }

    /// Decides the trust verdict again (a file changed while it was being decided) and
    /// keeps the new one.
    pub fn trust_again(&self) -> Option<Arc<Verdict>> {
        let policy = self.policy.as_ref()?;
        let fresh = self.decide(policy);
        *self.verdict.lock().unwrap_or_else(|p| p.into_inner()) = Some(fresh.clone());
        Some(fresh)
    }

    fn decide(&self, policy: &TrustPolicy) -> Arc<Verdict> {
        self.verifications.fetch_add(1, Ordering::Relaxed);
        let verdict = policy.rule.check(&self.dir, policy.allow_unverified);
        Arc::new(verdict.map_err(Arc::new))
    }
}

/// A served snapshot with the fingerprint of its main-memory image when it was first seen.
type Served = (Option<Fingerprint>, Arc<OpenedSnapshot>);

/// The snapshots a process serves, each opened at most once.
pub struct Snapshots {
    limits: ReaderLimits,
    policy: Option<Arc<TrustPolicy>>,
    open: Mutex<HashMap<PathBuf, Served>>,
    opens: Arc<AtomicU64>,
    verifications: Arc<AtomicU64>,
    analysis_keep: AtomicUsize,
}

/// The largest heap analysis a served snapshot keeps between `eval` requests by default
/// (the default `--cache-mib`).
pub const DEFAULT_ANALYSIS_KEEP: usize = 64 << 20;

impl Snapshots {
    /// Snapshots read under `limits`, their trust not checked.
    pub fn new(limits: ReaderLimits) -> Snapshots {
        Snapshots {
            limits,
            policy: None,
            open: Mutex::new(HashMap::new()),
            opens: Arc::default(),
            verifications: Arc::default(),
            analysis_keep: AtomicUsize::new(DEFAULT_ANALYSIS_KEEP),
        }
    }

    /// Keeps a script's heap analysis with its snapshot between `eval` requests only while
    /// it takes at most `bytes` (a mount: its `--cache-mib`); a larger one is released when
    /// the last request running over that snapshot ends ([`OpenedHeap::release_analysis`]).
    pub fn set_analysis_keep(&self, bytes: usize) {
        self.analysis_keep.store(bytes, Ordering::Relaxed);
    }

    /// See [`Snapshots::set_analysis_keep`].
    pub fn analysis_keep(&self) -> usize {
        self.analysis_keep.load(Ordering::Relaxed)
    }

    /// Snapshots read under `limits`, each trusted under `policy` ([`OpenedSnapshot::trust`]).
    pub fn with_trust(limits: ReaderLimits, policy: TrustPolicy) -> Snapshots {
        Snapshots {
            policy: Some(Arc::new(policy)),
            ..Snapshots::new(limits)
        }
    }

    /// Whether the catalog decides its snapshots' trust (made [`Snapshots::with_trust`]).
    pub fn checks_trust(&self) -> bool {
        self.policy.is_some()
    }

    /// The reader limits every snapshot is opened under.
    pub fn limits(&self) -> ReaderLimits {
        self.limits
    }

    /// The snapshot in `dir`: the one already served if its image is unchanged, else a new
    /// one (not opened yet).
    pub fn get(&self, dir: &Path) -> Arc<OpenedSnapshot> {
        let key = dir.canonicalize().unwrap_or_else(|_| dir.to_path_buf());
        let image = Fingerprint::of_path(&key.join("wasm_memory.bin")).ok();
        let mut open = self.open.lock().unwrap_or_else(|p| p.into_inner());
        if let Some((seen, snapshot)) = open.get(&key) {
            if *seen == image {
                return snapshot.clone();
            }
        }
        let snapshot = Arc::new(OpenedSnapshot {
            dir: dir.to_path_buf(),
            limits: self.limits,
            heap: OnceLock::new(),
            canister: OnceLock::new(),
            opens: self.opens.clone(),
            policy: self.policy.clone(),
            verdict: Mutex::new(None),
            verifications: self.verifications.clone(),
        });
        open.insert(key, (image, snapshot.clone()));
        snapshot
    }

    /// Releases the heap analysis of every opened snapshot but those in `keep` (directories,
    /// as [`Snapshots::get`] takes them): each is freed once no reader holds it, and
    /// computed again if asked for. Returns how many were released.
    pub fn release_analyses_except(&self, keep: &[PathBuf]) -> usize {
        let keep: Vec<PathBuf> = keep
            .iter()
            .map(|d| d.canonicalize().unwrap_or_else(|_| d.clone()))
            .collect();
        let open = self.open.lock().unwrap_or_else(|p| p.into_inner());
        let mut released = 0;
        for (dir, (_, snapshot)) in open.iter() {
            let Some(Ok(heap)) = snapshot.heap.get() else {
                continue;
            };
            if keep.contains(dir) || !heap.has_analysis() {
                continue;
            }
            heap.release_analysis();
            released += 1;
        }
        released
    }

    /// How many times a snapshot has been opened (a test's hook: once per snapshot).
    pub fn opens(&self) -> u64 {
        self.opens.load(Ordering::Relaxed)
    }

    /// How many trust verdicts were decided (a test's hook: once per snapshot).
    pub fn verifications(&self) -> u64 {
        self.verifications.load(Ordering::Relaxed)
    }
}
