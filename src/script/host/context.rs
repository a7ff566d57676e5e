//! The snapshot behind a session's host values: the opened heap and its stable signature,
//! shared (read-only) by every session over the same snapshot.

use super::HostError;
use crate::analysis::OpenedHeap;
use crate::heap::types::StableSignature;
use crate::heap::value::Decoder;

/// One opened snapshot, read by the host values `image`, `heap` and `vars`: the heap opened
/// once ([`OpenedHeap`]) and shared with every other reader of the snapshot.
pub type SnapshotContext = OpenedHeap;

/// The stable signature of `ctx`, or the reason it is missing as a host error.
pub fn signature(ctx: &SnapshotContext) -> Result<&StableSignature, HostError> {
    ctx.signature()
        .map_err(|e| HostError::data("no stable variables: ", e.clone()))
}

/// A decoder over `ctx`'s signature sharing its label map, or why there is none.
pub fn decoder(ctx: &SnapshotContext) -> Result<Decoder<'_>, HostError> {
    ctx.decoder()
        .map_err(|e| HostError::data("no stable variables: ", e.clone()))
}
