//! The diff of two snapshots of one canister, by meaning (objects move between snapshots,
//! so nothing is matched by address): per stable variable (reachable and retained before and
//! after, whether the value changed, a collection's keys added, removed and changed), per
//! Motoko type, the heap's space, and the growth suspects first; and the trend of many
//! snapshots. One file per step:
//!
//! - [`figures`]: one snapshot's per-variable, per-type and space figures;
//! - [`canon`], [`values`]: a value's canonical walk, two values compared, a fingerprint;
//! - [`entries`], [`collections`]: a collection's entries in order, two compared by key;
//! - [`vars`], [`types`], [`suspects`]: the per-variable and per-type diffs, what grew;
//! - [`waste`]: the `mo-mem doctor` findings whose saving grew;
//! - [`row`]: the before-and-after figures variables and types share;
//! - [`json`], [`summary`]: the diff as JSON (`summary.json`, `vars.json`, `types.json`)
//!   and as text (`summary.txt`, `mo-mem diff`);
//! - [`trend`], [`trend_svg`]: retained bytes over many snapshots, as a table and a chart.

pub mod canon;
pub mod collections;
pub mod entries;
pub mod figures;
pub mod inner;
pub mod json;
pub mod row;
pub mod summary;
pub mod suspects;
pub mod trend;
pub mod trend_svg;
pub mod types;
pub mod values;
pub mod vars;
pub mod waste;

use crate::analysis::graph::GraphError;
use crate::analysis::progress::{Phase, Progress, Ticker};
use crate::analysis::OpenedHeap;

pub use figures::{Figures, Space, WasteFigure};
pub use suspects::Suspect;
pub use types::TypeDiff;
pub use vars::VarDiff;
pub use waste::WasteGrowth;

/// The diff of two snapshots.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SnapshotDiff {
    /// The old snapshot's figures.
    pub old: Figures,
    /// The new snapshot's figures.
    pub new: Figures,
    /// Every variable of either, in name order.
    pub vars: Vec<VarDiff>,
    /// Every type of either, most grown first.
    pub types: Vec<TypeDiff>,
    /// What grew most, each with a path.
    pub suspects: Vec<Suspect>,
}

impl SnapshotDiff {
    /// The diff of `old` and `new` (both analysed here if they are not yet, at once on two
    /// threads: see [`Figures::of_both`]).
    pub fn compute(
        old: &OpenedHeap,
        new: &OpenedHeap,
        progress: &dyn Progress,
    ) -> Result<SnapshotDiff, GraphError> {
        let (old_fig, new_fig) = Figures::of_both(old, new, progress)?;
        Ok(SnapshotDiff::from_figures(
            old_fig, old, new_fig, new, progress,
        ))
    }

    /// The diff of `old` and `new` holding one analysis at a time: `old`'s is computed,
    /// reduced to its [`Figures`] and dropped before `new`'s (kept with `new`, for the
    /// suspects' paths) is computed, then the values are compared (they need no analysis).
    /// One thread: the peak memory is about one analysis, not two, and the CPU time is the
    /// least (a comparison beside an analysis on a second thread costs more CPU, both
    /// contending for the caches and memory bandwidth).
    pub fn compute_lean(
        old: &OpenedHeap,
        new: &OpenedHeap,
        progress: &dyn Progress,
    ) -> Result<SnapshotDiff, GraphError> {
        let old_fig = Figures::of_transient(old, progress)?;
        let new_fig = Figures::of(new, progress)?;
        Ok(SnapshotDiff::from_figures(
            old_fig, old, new_fig, new, progress,
        ))
    }

    /// The diff of `old` and `new` with both analyses computed at once on two threads, but
    /// `old`'s dropped once its figures are taken ([`Figures::of_both_old_transient`]): the
    /// wall time of about one analysis plus the comparison, the peak memory of two analyses
    /// (not three: nothing of `old`'s is kept afterwards).
    pub fn compute_old_transient(
        old: &OpenedHeap,
        new: &OpenedHeap,
        progress: &dyn Progress,
    ) -> Result<SnapshotDiff, GraphError> {
        let (old_fig, new_fig) = Figures::of_both_old_transient(old, new, progress)?;
        Ok(SnapshotDiff::from_figures(
            old_fig, old, new_fig, new, progress,
        ))
    }

    /// The diff of `old` and `new` given both snapshots' figures: the values compared, the
    /// types joined, the suspects found (`new`'s analysis is read for the suspects' paths).
    pub fn from_figures(
        old_fig: Figures,
        old: &OpenedHeap,
        new_fig: Figures,
        new: &OpenedHeap,
        progress: &dyn Progress,
    ) -> SnapshotDiff {
        let total = (old_fig.vars.len() + new_fig.vars.len()) as u64;
        let mut ticker = Ticker::start(progress, Phase::Compare, Some(total));
        let vars = vars::var_diffs(&old_fig, old, &new_fig, new, &mut || ticker.add(1));
        ticker.finish(Phase::Compare);
        let types = types::type_diffs(&old_fig, &new_fig);
        let suspects = suspects::suspects(&vars, &types, new);
        SnapshotDiff {
            old: old_fig,
            new: new_fig,
            vars,
            types,
            suspects,
        }
    }
}

#[cfg(test)]
mod tests;
