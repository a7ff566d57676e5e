//! EOP layout detection: the persistent metadata at 4.5 MiB and the partition tables.

use crate::image::Image;
use crate::module::ModuleFacts;
use crate::snapshot::Snapshot;

use super::{HeapError, HeapRange, Layout};

/// Address of the persistent metadata.
pub const METADATA: u64 = 0x48_0000;
/// Address of `stable_actor`.
pub const STABLE_ACTOR: u64 = METADATA + 136;
/// Address of `candid_data`.
pub const CANDID_DATA: u64 = METADATA + 144;
/// Address of `type_offsets`.
pub const TYPE_OFFSETS: u64 = METADATA + 152;
/// Address of `weak_ref_registry`.
pub const WEAK_REF_REGISTRY: u64 = METADATA + 7560;
/// Address of `dedup_table`.
pub const DEDUP_TABLE: u64 = METADATA + 7568;

const FINGERPRINT: &str = "MOTOKO ORTHOGONAL PERSISTENCE 64";

/// Whether the image carries the EOP fingerprint and layout version 1.
pub fn has_fingerprint(image: &Image) -> bool {
    let Ok(bytes) = image.bytes(METADATA, 136) else {
        return false;
    };
    let fp_ok = FINGERPRINT
        .bytes()
        .enumerate()
        .all(|(i, c)| bytes[i * 4..i * 4 + 4] == [c, 0, 0, 0]);
    fp_ok && bytes[128..136] == 1u64.to_le_bytes()
}

/// Detects and validates the EOP layout.
pub(crate) fn detect(
    _snapshot: &Snapshot,
    _module: Option<&ModuleFacts>,
) -> Result<(Layout, Vec<HeapRange>, Option<u32>), HeapError> {
    Err(HeapError::Layout(
        "EOP detection not implemented yet".into(),
    ))
}
