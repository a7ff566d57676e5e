//! Classical layout detection: `[heap_base, _HP)` or the incremental GC's partition table.

use crate::module::ModuleFacts;
use crate::snapshot::Snapshot;

use super::{HeapError, HeapRange, Layout};

/// Detects and validates the classical layout.
pub(crate) fn detect(
    _snapshot: &Snapshot,
    _module: &ModuleFacts,
) -> Result<(Layout, Vec<HeapRange>, Option<u32>), HeapError> {
    Err(HeapError::Layout(
        "classical detection not implemented yet".into(),
    ))
}
