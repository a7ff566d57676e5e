//! Per stable variable: reachable and retained before and after, whether the value changed
//! (compared by meaning, see [`values`](super::values)), and for a collection the keys
//! added, removed and changed.

use crate::analysis::retained::VarRetention;
use crate::analysis::OpenedHeap;
use crate::heap::value::{stable_variables, DecodeError, NamedVar};

use super::collections::{compare_collections, CollectionDiff, CollectionError, CollectionLimits};
use super::figures::Figures;
use super::inner::{compare_inner, InnerCollection};
use super::row::BeforeAfter;
use super::values::{compare, ValueChange};

/// Parts of one variable's value compared at most (per side).
pub const MAX_VALUE_PARTS: u64 = 1 << 24;

/// One stable variable in two snapshots.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VarDiff {
    /// Its name.
    pub name: String,
    /// Before (`None`: the old snapshot has no such variable).
    pub old: Option<VarRetention>,
    /// After (`None`: the new snapshot has no such variable).
    pub new: Option<VarRetention>,
    /// Whether the value changed (`None` if it is not in both or cannot be read).
    pub value: Option<ValueChange>,
    /// For a collection whose value changed: its keys added, removed and changed.
    pub collection: Option<Result<CollectionDiff, CollectionError>>,
    /// For a record or tuple whose value changed: the collections inside it that changed.
    pub inner: Vec<InnerCollection>,
}

impl VarDiff {
    /// Its figures before and after.
    pub fn row(&self) -> BeforeAfter {
        BeforeAfter::of(self.old.as_ref(), self.new.as_ref())
    }

    /// Retained bytes after minus before.
    pub fn retained_delta(&self) -> i64 {
        self.row().retained_delta()
    }
}

/// The stable variables of `opened` with their values, or why they cannot be read.
fn named_vars(opened: &OpenedHeap) -> Result<Vec<NamedVar>, DecodeError> {
    let sig = opened.signature().map_err(Clone::clone)?;
    stable_variables(opened.heap(), sig)
}

/// One variable's value compared: whether it changed and, for a collection, its keys.
#[derive(Debug, Clone)]
pub struct ValueDiff {
    /// Whether the value changed.
    pub change: ValueChange,
    /// For a changed collection: its keys added, removed and changed.
    pub collection: Option<Result<CollectionDiff, CollectionError>>,
    /// For a changed record or tuple: the collections inside it that changed.
    pub inner: Vec<InnerCollection>,
}

/// The values of the variables both snapshots hold, compared, by name (no analysis needed:
/// this can run beside the analyses); `tick` is called once per variable compared.
pub fn compare_values(
    old: &OpenedHeap,
    new: &OpenedHeap,
    tick: &mut dyn FnMut(),
) -> Vec<(String, ValueDiff)> {
    let (Ok(old_vals), Ok(new_vals)) = (named_vars(old), named_vars(new)) else {
        return Vec::new();
    };
    let mut out: Vec<(String, ValueDiff)> = Vec::new();
    for var in &old_vals {
        if out.iter().any(|(n, _)| **n == *var.name) {
            continue;
        }
        let Some(b) = new_vals.iter().find(|b| b.name == var.name) else {
            continue;
        };
        let (a, b) = (&var.value, &b.value);
        let change = compare(
            &mut old.any_decoder(),
            a.clone(),
            &mut new.any_decoder(),
            b.clone(),
            MAX_VALUE_PARTS,
        );
        let collection = match change {
            ValueChange::Same => None,
            _ => compare_collections(
                &mut old.any_decoder(),
                a,
                &mut new.any_decoder(),
                b,
                CollectionLimits::default(),
            ),
        };
        let inner = match (&change, &collection) {
            (ValueChange::Same, _) | (_, Some(_)) => Vec::new(),
            _ => compare_inner(
                &mut old.any_decoder(),
                a,
                &mut new.any_decoder(),
                b,
                CollectionLimits::default(),
            ),
        };
        tick();
        out.push((
            var.name.to_string(),
            ValueDiff {
                change,
                collection,
                inner,
            },
        ));
    }
    out
}

/// Every variable of either snapshot, in name order, with its value compared; `tick` is
/// called once per variable compared.
pub fn var_diffs(
    old_fig: &Figures,
    old: &OpenedHeap,
    new_fig: &Figures,
    new: &OpenedHeap,
    tick: &mut dyn FnMut(),
) -> Vec<VarDiff> {
    let values = compare_values(old, new, tick);
    join_values(old_fig, new_fig, values)
}

/// Every variable of either snapshot's figures, in name order, with its compared value
/// from `values` (by name; none for a variable not in both).
pub fn join_values(
    old_fig: &Figures,
    new_fig: &Figures,
    mut values: Vec<(String, ValueDiff)>,
) -> Vec<VarDiff> {
    let mut names: Vec<&str> = old_fig
        .vars
        .iter()
        .chain(&new_fig.vars)
        .map(|v| v.name.as_str())
        .collect();
    names.sort_unstable();
    names.dedup();
    names
        .into_iter()
        .map(|name| {
            let value = values
                .iter()
                .position(|(n, _)| n == name)
                .map(|i| values.swap_remove(i).1);
            let (value, collection, inner) = match value {
                Some(v) => (Some(v.change), v.collection, v.inner),
                None => (None, None, Vec::new()),
            };
            VarDiff {
                name: name.to_string(),
                old: old_fig.var(name).cloned(),
                new: new_fig.var(name).cloned(),
                value,
                collection,
                inner,
            }
        })
        .collect()
}
