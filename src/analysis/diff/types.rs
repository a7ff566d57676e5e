//! Per Motoko type (or heap tag of objects no type reaches): objects, own bytes and
//! retained bytes before and after, joined by the type's name.

use std::collections::BTreeMap;

use crate::analysis::cached::TypeRow;

use super::figures::Figures;
use super::row::BeforeAfter;

/// One type in two snapshots.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TypeDiff {
    /// The type's label, or a heap tag.
    pub name: String,
    /// Whether `name` is a Motoko type.
    pub typed: bool,
    /// Before (`None`: no such object before).
    pub old: Option<TypeRow>,
    /// After.
    pub new: Option<TypeRow>,
}

impl TypeDiff {
    /// Its figures before and after.
    pub fn row(&self) -> BeforeAfter {
        BeforeAfter::of(self.old.as_ref(), self.new.as_ref())
    }

    /// Retained bytes after minus before.
    pub fn retained_delta(&self) -> i64 {
        self.row().retained_delta()
    }

    /// Objects after minus before.
    pub fn objects_delta(&self) -> i64 {
        self.row().objects_delta()
    }

    /// Own bytes after minus before.
    pub fn bytes_delta(&self) -> i64 {
        self.row().bytes_delta()
    }
}

/// A type's row before and after.
type Sides<'a> = (Option<&'a TypeRow>, Option<&'a TypeRow>);

/// Every type of either snapshot, the largest growth of retained bytes first (then the
/// largest shrinking last; ties by name).
pub fn type_diffs(old: &Figures, new: &Figures) -> Vec<TypeDiff> {
    let mut joined: BTreeMap<(&str, bool), Sides<'_>> = BTreeMap::new();
    for t in &old.types {
        joined.entry((&t.name, t.typed)).or_default().0 = Some(t);
    }
    for t in &new.types {
        joined.entry((&t.name, t.typed)).or_default().1 = Some(t);
    }
    let mut out: Vec<TypeDiff> = joined
        .into_iter()
        .map(|((name, typed), (o, n))| TypeDiff {
            name: name.to_string(),
            typed,
            old: o.cloned(),
            new: n.cloned(),
        })
        .collect();
    out.sort_by(|a, b| {
        b.retained_delta()
            .cmp(&a.retained_delta())
            .then_with(|| a.name.cmp(&b.name))
    });
    out
}
