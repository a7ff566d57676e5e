//! One snapshot's figures as a diff or a trend needs them: per stable variable and per type
//! (from the cached [`HeapAnalysis`](crate::analysis::HeapAnalysis)) and the heap's space
//! (live, garbage, free, never used). Small: a diff keeps these of the old snapshot, not its
//! analysis.

use serde::Serialize;

use crate::analysis::doctor::DoctorReport;

use crate::analysis::cached::TypeRow;
use crate::analysis::graph::GraphError;
use crate::analysis::progress::{NoProgress, Progress};
use crate::analysis::retained::VarRetention;
use crate::analysis::stats::Count;
use crate::analysis::{HeapAnalysis, OpenedHeap};

/// Where a heap's bytes are.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Space {
    /// Objects the roots reach.
    pub live: Count,
    /// Walked objects no root reaches (awaiting collection).
    pub garbage: Count,
    /// Free space, fillers, slack and RTS garbage blocks in the walked ranges.
    pub free: Count,
    /// Bytes of the image beyond the heap base no range covers (never used).
    pub unused_bytes: u64,
    /// Bytes of the walked ranges.
    pub heap_bytes: u64,
    /// Bytes of the image (main memory).
    pub image_bytes: u64,
}

/// One snapshot's per-variable and per-type figures and its space.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Figures {
    /// Each stable variable, largest retained first.
    pub vars: Vec<VarRetention>,
    /// Each type, largest retained first.
    pub types: Vec<TypeRow>,
    /// The heap's space.
    pub space: Space,
    /// The doctor's findings that save bytes, largest saving first (`mo-mem diff` shows
    /// those that grew, as text and in its JSON's `waste_grew`).
    #[serde(skip)]
    pub doctor: Vec<WasteFigure>,
}

/// One `mo-mem doctor` finding's figures, as a diff compares them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct WasteFigure {
    /// The check's id.
    #[serde(skip)]
    pub check: &'static str,
    /// The objects the finding covers.
    pub objects: u64,
    /// Their bytes.
    pub bytes: u64,
    /// The bytes a fix would save.
    pub saving_bytes: u64,
}

impl Figures {
    /// The figures of `opened` (its analysis and types computed now if they are not yet,
    /// reporting to `progress`).
    pub fn of(opened: &OpenedHeap, progress: &dyn Progress) -> Result<Figures, GraphError> {
        let a = opened.analysis_with(progress)?;
        Ok(Figures::of_analysis(opened, &a, progress))
    }

    /// The figures of `opened` from an analysis computed for them and dropped before this
    /// returns (not kept with the snapshot: a diff holds one analysis at a time).
    pub fn of_transient(
        opened: &OpenedHeap,
        progress: &dyn Progress,
    ) -> Result<Figures, GraphError> {
        let a = HeapAnalysis::compute(opened, progress)?;
        Ok(Figures::of_analysis(opened, &a, progress))
    }

    /// The figures of `opened` given its analysis `a`.
    fn of_analysis(opened: &OpenedHeap, a: &HeapAnalysis, progress: &dyn Progress) -> Figures {
        let types = a.types_with(opened, progress).to_vec();
        let stats = opened.stats();
        Figures {
            vars: a.vars().to_vec(),
            types,
            doctor: DoctorReport::new(opened, a)
                .savings()
                .map(|f| WasteFigure {
                    check: f.check,
                    objects: f.objects,
                    bytes: f.bytes,
                    saving_bytes: f.saving_bytes,
                })
                .collect(),
            space: Space {
                live: a.live(),
                garbage: a.garbage(),
                free: stats.free,
                unused_bytes: stats.unused_bytes,
                heap_bytes: stats.heap_bytes,
                image_bytes: stats.image_bytes,
            },
        }
    }

    /// The figures of `old` and `new`, their two analyses run at once: `old`'s on a second
    /// thread (without progress), `new`'s on this one reporting to `progress` (one after the
    /// other if no thread can be started). Both analyses stay cached with their snapshots.
    pub fn of_both(
        old: &OpenedHeap,
        new: &OpenedHeap,
        progress: &dyn Progress,
    ) -> Result<(Figures, Figures), GraphError> {
        Figures::on_two_threads(old, new, progress, Figures::of)
    }

    /// The figures of `old` and `new` as [`Figures::of_both`] computes them, but `old`'s
    /// analysis is dropped once its figures are taken ([`Figures::of_transient`]): only
    /// `new`'s stays cached.
    pub fn of_both_old_transient(
        old: &OpenedHeap,
        new: &OpenedHeap,
        progress: &dyn Progress,
    ) -> Result<(Figures, Figures), GraphError> {
        Figures::on_two_threads(old, new, progress, Figures::of_transient)
    }

    /// `old_figures(old)` on a second thread while `new`'s cached figures are computed here.
    fn on_two_threads(
        old: &OpenedHeap,
        new: &OpenedHeap,
        progress: &dyn Progress,
        old_figures: fn(&OpenedHeap, &dyn Progress) -> Result<Figures, GraphError>,
    ) -> Result<(Figures, Figures), GraphError> {
        std::thread::scope(|scope| {
            let old_side = std::thread::Builder::new()
                .name("mo-mem-diff-old".into())
                .spawn_scoped(scope, || old_figures(old, &NoProgress));
            let new_fig = Figures::of(new, progress);
            let old_fig = match old_side {
                Ok(side) => side
                    .join()
                    .unwrap_or_else(|panic| std::panic::resume_unwind(panic)),
                Err(_) => old_figures(old, progress),
            };
            Ok((old_fig?, new_fig?))
        })
    }

    /// The variable `name`.
    pub fn var(&self, name: &str) -> Option<&VarRetention> {
        self.vars.iter().find(|v| v.name == name)
    }
}
