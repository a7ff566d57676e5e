//! EOP layout detection: the persistent metadata at 4.5 MiB and the partition tables.

use crate::image::{Image, WordSize};
use crate::module::{GcKind, ModuleFacts, Persistence};
use crate::snapshot::Snapshot;

use super::partitions::{ranges, TableFormat};
use super::{HeapError, HeapRange, Layout, TagScheme, EOP_NULL};

/// Address of the persistent metadata.
pub const METADATA: u64 = 0x48_0000;
/// Address of the layout version.
pub const VERSION: u64 = METADATA + 128;
/// Address of `stable_actor`.
pub const STABLE_ACTOR: u64 = METADATA + 136;
/// Address of `candid_data`.
pub const CANDID_DATA: u64 = METADATA + 144;
/// Address of `type_offsets`.
pub const TYPE_OFFSETS: u64 = METADATA + 152;
/// Address of the GC phase (u32).
pub const GC_PHASE: u64 = METADATA + 160;
/// Address of the first partition table.
pub const PARTITION_TABLE: u64 = METADATA + 168;
/// Address of `heap_base` in the GC state.
pub const HEAP_BASE: u64 = METADATA + 7352;
/// Address of `upgrade_instructions`.
pub const UPGRADE_INSTRUCTIONS: u64 = METADATA + 7552;
/// Address of `weak_ref_registry`.
pub const WEAK_REF_REGISTRY: u64 = METADATA + 7560;
/// Address of `dedup_table`.
pub const DEDUP_TABLE: u64 = METADATA + 7568;
/// The dynamic heap start.
pub const HEAP_START: u64 = 0x50_0000;
/// The partition size.
pub const PARTITION_SIZE: u64 = 64 << 20;

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
    snapshot: &Snapshot,
    module: Option<&ModuleFacts>,
) -> Result<(Layout, Vec<HeapRange>, Option<u32>), HeapError> {
    let image = snapshot.memory();
    if !has_fingerprint(image) {
        return Err(HeapError::Layout(format!(
            "no EOP fingerprint \"{FINGERPRINT}\" with layout version 1 at {METADATA:#x} (image is {} bytes)",
            image.len()
        )));
    }
    let heap_base = image.read_u64(HEAP_BASE)?;
    if heap_base != HEAP_START {
        return Err(HeapError::Layout(format!(
            "EOP heap base at {HEAP_BASE:#x} is {heap_base:#x}, expected {HEAP_START:#x}"
        )));
    }
    let tags = match module {
        Some(m) if !m.has_weak_refs => TagScheme::Eop013,
        Some(_) => TagScheme::Eop016,
        // Without a module: since 0.16 the registry word is the null sentinel (or a pointer).
        None => match image.read_u64(WEAK_REF_REGISTRY)? {
            0 => TagScheme::Eop013,
            _ => TagScheme::Eop016,
        },
    };
    let layout = Layout {
        persistence: Persistence::Enhanced,
        gc: GcKind::Incremental,
        word: WordSize::W64,
        header: 16,
        tags,
        rtti: true,
        heap_base,
        partition_size: PARTITION_SIZE,
    };
    let phase = image.read_u32(GC_PHASE)?;
    let ranges = ranges(image, &layout, PARTITION_TABLE, TableFormat::EOP)?;
    let _ = EOP_NULL;
    Ok((layout, ranges, Some(phase)))
}
