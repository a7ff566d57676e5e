//! One row of a diff, a stable variable or a Motoko type, before and after: the figures both
//! kinds share (objects and bytes, retained objects and bytes), so the JSON rows and the
//! growth suspects are built once for both kinds.

use serde::Serialize;

use crate::analysis::cached::TypeRow;
use crate::analysis::retained::VarRetention;

/// A variable's or type's figures in one snapshot.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct JsonSide {
    /// Objects (reachable from a variable; of a type).
    pub objects: u64,
    /// Their bytes.
    pub bytes: u64,
    /// Objects retained.
    pub retained_objects: u64,
    /// Bytes retained.
    pub retained_bytes: u64,
}

/// What a row's figures are in one snapshot.
pub trait RowFigures {
    /// The figures: a variable's reachable objects, a type's own objects, and what each
    /// retains.
    fn side(&self) -> JsonSide;
}

impl RowFigures for VarRetention {
    fn side(&self) -> JsonSide {
        JsonSide {
            objects: self.reachable.objects,
            bytes: self.reachable.bytes,
            retained_objects: self.retained.objects,
            retained_bytes: self.retained.bytes,
        }
    }
}

impl RowFigures for TypeRow {
    fn side(&self) -> JsonSide {
        JsonSide {
            objects: self.shallow.objects,
            bytes: self.shallow.bytes,
            retained_objects: self.retained.objects,
            retained_bytes: self.retained.bytes,
        }
    }
}

/// One row before and after (`None`: the snapshot has no such variable or object).
#[derive(Debug, Clone, Copy)]
pub struct BeforeAfter {
    /// Before.
    pub old: Option<JsonSide>,
    /// After.
    pub new: Option<JsonSide>,
}

impl BeforeAfter {
    /// The row whose sides are `old` and `new`.
    pub fn of<T: RowFigures>(old: Option<&T>, new: Option<&T>) -> BeforeAfter {
        BeforeAfter {
            old: old.map(RowFigures::side),
            new: new.map(RowFigures::side),
        }
    }

    /// `field` after minus before (a missing side counts as zero).
    fn delta_of(&self, field: impl Fn(&JsonSide) -> u64) -> i64 {
        delta(self.old.as_ref().map(&field), self.new.as_ref().map(&field))
    }

    /// Objects after minus before.
    pub fn objects_delta(&self) -> i64 {
        self.delta_of(|s| s.objects)
    }

    /// Bytes after minus before.
    pub fn bytes_delta(&self) -> i64 {
        self.delta_of(|s| s.bytes)
    }

    /// Retained bytes after minus before.
    pub fn retained_delta(&self) -> i64 {
        self.delta_of(|s| s.retained_bytes)
    }

    /// Retained bytes before (0 if missing).
    pub fn old_retained(&self) -> u64 {
        self.old.map_or(0, |s| s.retained_bytes)
    }

    /// Retained bytes after (0 if missing).
    pub fn new_retained(&self) -> u64 {
        self.new.map_or(0, |s| s.retained_bytes)
    }
}

/// `new - old` (a missing side counts as zero), saturated to `i64`.
pub fn delta(old: Option<u64>, new: Option<u64>) -> i64 {
    let (o, n) = (old.unwrap_or(0) as i128, new.unwrap_or(0) as i128);
    (n - o).clamp(i64::MIN as i128, i64::MAX as i128) as i64
}
