//! Classical layout detection: `[heap_base, _HP)` or the incremental GC's partition table.

use crate::image::{Image, WordSize};
use crate::module::{GcKind, LayoutEra, LegacyPartitionTable, ModuleFacts, Persistence};
use crate::snapshot::Snapshot;

use super::partitions::{ranges, TableFormat};
use super::{HeapError, HeapRange, Layout, TagScheme};

/// The classical incremental GC's partition size.
pub const PARTITION_SIZE: u64 = 32 << 20;
/// Offset of the partition table inside the `RefCell<State>` static (borrow flag, padding,
/// phase, padding).
const TABLE_IN_STATE: u64 = 16;
/// Offset of the phase inside the `RefCell<State>` static.
const PHASE_IN_STATE: u64 = 8;

/// Detects and validates the classical layout.
pub(crate) fn detect(
    snapshot: &Snapshot,
    module: &ModuleFacts,
) -> Result<(Layout, Vec<HeapRange>, Option<u32>), HeapError> {
    let image = snapshot.memory();
    let incremental = module.gc == GcKind::Incremental;
    let tags = tag_scheme(module)?;
    let layout = Layout {
        persistence: Persistence::Classical,
        gc: module.gc,
        word: WordSize::W32,
        header: if incremental { 8 } else { 4 },
        tags,
        rtti: module.rtti,
        heap_base: module.heap_base,
        partition_size: if incremental { PARTITION_SIZE } else { 0 },
    };
    if module.heap_base > image.len() {
        return Err(HeapError::Layout(format!(
            "heap base {:#x} is beyond the image ({} bytes)",
            module.heap_base,
            image.len()
        )));
    }
    if let (true, Some(legacy)) = (incremental, module.statics.legacy_partitions) {
        return legacy_partitions(image, &layout, legacy);
    }
    if incremental {
        let table = find_table(image, module)?;
        let phase = table
            .checked_sub(TABLE_IN_STATE)
            .and_then(|state| image.read_u32(state + PHASE_IN_STATE).ok());
        let ranges = ranges(image, &layout, table, TableFormat::CLASSICAL)?;
        return Ok((layout, ranges, phase));
    }
    let end = heap_end(snapshot, module)?;
    if end < module.heap_base || end > image.len() || end % 4 != 0 {
        return Err(HeapError::Layout(format!(
            "heap end {end:#x} is not within [{:#x}, {:#x}] or not aligned",
            module.heap_base,
            image.len()
        )));
    }
    let ranges = if end > module.heap_base {
        vec![HeapRange {
            start: module.heap_base,
            end,
            partition: None,
            large_object: false,
        }]
    } else {
        Vec::new()
    };
    Ok((layout, ranges, None))
}

/// The ranges and phase of a moc < 0.13 incremental heap: the table of 127 records at the
/// address the RTS code confirmed; every record must carry its index, and partition 0 starts
/// with the static heap up to the heap base.
fn legacy_partitions(
    image: &Image,
    layout: &Layout,
    legacy: LegacyPartitionTable,
) -> Result<(Layout, Vec<HeapRange>, Option<u32>), HeapError> {
    let format = TableFormat::CLASSICAL_LEGACY;
    let p0 = format.read(image, legacy.records)?;
    if layout.heap_base < PARTITION_SIZE && p0.static_size != layout.heap_base {
        return Err(HeapError::Layout(format!(
            "partition table at {:#x}: partition 0's static size {:#x} is not the heap base {:#x}",
            legacy.records, p0.static_size, layout.heap_base
        )));
    }
    let ranges = ranges(image, layout, legacy.records, format)?;
    // The RTS's `Phase` of moc < 0.13 is Pause 0, Mark 1, Evacuate 2, Update 3, Stop 4; mo-mem
    // numbers phases as moc >= 0.13 does (Stop 0, Pause 1, ...).
    let phase = match image.read_u8(legacy.phase)? {
        p @ 0..=3 => u32::from(p) + 1,
        4 => 0,
        p => {
            return Err(HeapError::Layout(format!(
                "GC phase byte {p} at {:#x} is no phase",
                legacy.phase
            )))
        }
    };
    Ok((*layout, ranges, Some(phase)))
}

/// The end of the classical heap: `_HP + 1` from the `_HP` global `__get_hp` reads (a skewed
/// pointer, moc >= 0.9.5), else the RTS's unskewed `HP` static (moc < 0.9.5).
fn heap_end(snapshot: &Snapshot, module: &ModuleFacts) -> Result<u64, HeapError> {
    let Some(idx) = module.hp_mutable_index else {
        let addr = module.statics.heap_pointer.ok_or_else(|| {
            HeapError::Missing(
                "the module has no `__get_hp` and no `get_heap_size` reading an HP static (the heap end is unknown)"
                    .into(),
            )
        })?;
        let hp = snapshot.memory().read_u32(addr).map_err(|_| {
            HeapError::Layout(format!("the HP static at {addr:#x} is beyond the image"))
        })?;
        return Ok(u64::from(hp));
    };
    let globals = snapshot.globals().ok_or_else(|| {
        HeapError::Missing(
            "the heap end (_HP) needs the snapshot's globals (metadata.json or --globals)".into(),
        )
    })?;
    let hp = globals
        .get(idx as usize)
        .and_then(|g| g.as_u64())
        .ok_or_else(|| {
            HeapError::Missing(format!(
                "the snapshot lists {} globals; _HP is mutable global {idx}",
                globals.len()
            ))
        })?;
    Ok((hp as u32).wrapping_add(1) as u64)
}

/// The tag numbering of the module's compiler release (spec 8).
fn tag_scheme(module: &ModuleFacts) -> Result<TagScheme, HeapError> {
    match module.moc.era {
        LayoutEra::SortedTags => Ok(TagScheme::Classical),
        LayoutEra::NoObjInd => Ok(TagScheme::Classical0113),
        LayoutEra::RegionTag => Ok(TagScheme::Classical0100),
        LayoutEra::OddTagsObjInd => Ok(TagScheme::Classical0610),
        LayoutEra::DenseTags => Err(HeapError::Layout(format!(
            "{}: the dense tag numbering of moc < 0.6.10 is not supported",
            module.moc.name()
        ))),
    }
}

/// Whether a classical partition table starts at `table` for a heap starting at `heap_base`.
fn is_table(image: &Image, table: u64, heap_base: u64) -> bool {
    let f = TableFormat::CLASSICAL;
    let Ok(count) = image.read_u32(table + f.count_offset()) else {
        return false;
    };
    if count != 128 {
        return false;
    }
    let Ok(p0) = f.read(image, table) else {
        return false;
    };
    if p0.index != 0 || p0.static_size != heap_base {
        return false;
    }
    (1..4).all(|i| image.read_u32(table + i * f.record).ok() == Some(i as u32))
}

/// Finds the partition table: from `get_heap_size`'s static address, else by pattern in
/// `[stack top, heap base)`.
fn find_table(image: &Image, module: &ModuleFacts) -> Result<u64, HeapError> {
    if let Some(state) = module.statics.gc_state {
        let table = state + TABLE_IN_STATE;
        if is_table(image, table, module.heap_base) {
            return Ok(table);
        }
    }
    // The RTS data area is small (KiBs); never scan more than 16 MiB.
    let from = module
        .stack_top
        .unwrap_or(0)
        .max(module.heap_base.saturating_sub(16 << 20));
    let mut at = from & !3;
    while at < module.heap_base {
        if image.read_u32(at).ok() == Some(0) && is_table(image, at, module.heap_base) {
            return Ok(at);
        }
        at += 4;
    }
    Err(HeapError::Layout(format!(
        "classical incremental GC partition table not found (searched {from:#x}..{:#x})",
        module.heap_base
    )))
}
