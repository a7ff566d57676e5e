//! Waste that grew: the `mo-mem doctor` findings whose saving is larger in the new snapshot
//! (a duplicate count that doubled is the leak). The text diff's last section and the JSON's
//! `waste_grew` are this list.

use serde::Serialize;

use super::figures::{Figures, WasteFigure};
use super::row::delta;

/// One finding whose saving grew.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct WasteGrowth {
    /// The check's id.
    pub check: &'static str,
    /// Its figures in the old snapshot (`None`: the old snapshot had no such finding).
    pub old: Option<WasteFigure>,
    /// Its figures in the new snapshot.
    pub new: WasteFigure,
    /// Saving bytes after minus before (always positive).
    pub saving_bytes_delta: i64,
}

impl WasteGrowth {
    /// The old snapshot's saving (0 without the finding).
    pub fn old_saving(&self) -> u64 {
        self.old.map_or(0, |o| o.saving_bytes)
    }
}

/// The findings of `new` whose saving is larger than in `old`, most grown first (ties by
/// check id).
pub fn grown_waste(old: &Figures, new: &Figures) -> Vec<WasteGrowth> {
    let mut grown: Vec<WasteGrowth> = new
        .doctor
        .iter()
        .map(|n| {
            let o = old.doctor.iter().find(|o| o.check == n.check).copied();
            WasteGrowth {
                check: n.check,
                old: o,
                new: *n,
                saving_bytes_delta: delta(o.map(|o| o.saving_bytes), Some(n.saving_bytes)),
            }
        })
        .filter(|g| g.new.saving_bytes > g.old_saving())
        .collect();
    grown.sort_by(|x, y| (y.saving_bytes_delta, x.check).cmp(&(x.saving_bytes_delta, y.check)));
    grown
}
