//! Reading incremental-GC partition tables (EOP and classical) into [`HeapRange`]s (spec 3.2, 3.3).

use crate::image::Image;

use super::object::decode;
use super::{HeapError, HeapRange, Layout, PartitionInfo};

/// Most partitions read (EOP: 64 MiB each, so 4 TiB; classical has at most 128).
const MAX_PARTITIONS: u64 = 1 << 16;
/// Partitions per table before an extension table.
const PER_TABLE: u64 = 128;

/// The binary format of a partition table.
#[derive(Debug, Clone, Copy)]
pub(crate) struct TableFormat {
    /// Bytes per partition record (56 EOP, 28 classical).
    pub(crate) record: u64,
    /// Word size of the fields.
    pub(crate) word: u64,
}

impl TableFormat {
    /// The EOP format.
    pub(crate) const EOP: TableFormat = TableFormat {
        record: 56,
        word: 8,
    };
    /// The classical format.
    pub(crate) const CLASSICAL: TableFormat = TableFormat {
        record: 28,
        word: 4,
    };

    /// Offset of the extension pointer after the records.
    pub(crate) fn extension_offset(self) -> u64 {
        PER_TABLE * self.record
    }

    /// Offset of number_of_partitions.
    pub(crate) fn count_offset(self) -> u64 {
        self.extension_offset() + self.word
    }

    /// Reads record `i` of the table at `table`.
    pub(crate) fn read(self, image: &Image, at: u64) -> Result<PartitionInfo, HeapError> {
        let w = self.word;
        let word = |off: u64| -> Result<u64, HeapError> {
            Ok(if w == 8 {
                image.read_u64(at + off)?
            } else {
                u64::from(image.read_u32(at + off)?)
            })
        };
        let byte = |off: u64| -> Result<bool, HeapError> { Ok(image.read_u8(at + off)? != 0) };
        Ok(PartitionInfo {
            index: word(0)?,
            free: byte(w)?,
            large_content: byte(w + 1)?,
            marked_size: word(2 * w)?,
            static_size: word(3 * w)?,
            dynamic_size: word(4 * w)?,
            temporary: byte(6 * w)?,
            evacuate: byte(6 * w + 1)?,
            update: byte(6 * w + 2)?,
        })
    }
}

/// Reads all partitions of the table at `table` and turns them into walkable ranges.
pub(crate) fn ranges(
    image: &Image,
    layout: &Layout,
    table: u64,
    format: TableFormat,
) -> Result<Vec<HeapRange>, HeapError> {
    let p_size = layout.partition_size;
    let count = image.read_word(table + format.count_offset())?;
    if count == 0 || count > MAX_PARTITIONS {
        return Err(HeapError::Layout(format!(
            "partition table at {table:#x}: implausible number of partitions {count}"
        )));
    }
    let mut parts = Vec::new();
    let mut current_table = table;
    for i in 0..count {
        if i > 0 && i % PER_TABLE == 0 {
            let ext = image.read_word(current_table + format.extension_offset())?;
            if ext == 0 || ext % format.word != 0 || !image.contains(ext, format.count_offset()) {
                // No further tables: the remaining partitions are unused.
                break;
            }
            current_table = ext;
        }
        let at = current_table + (i % PER_TABLE) * format.record;
        let p = format.read(image, at)?;
        if p.index != i {
            return Err(HeapError::Layout(format!(
                "partition record {i} at {at:#x} has index {}",
                p.index
            )));
        }
        parts.push(p);
    }
    let mut out = Vec::new();
    let mut i = 0usize;
    while i < parts.len() {
        let p = parts[i];
        let base = (i as u64)
            .checked_mul(p_size)
            .ok_or_else(|| HeapError::Layout(format!("partition {i} address overflows")))?;
        if p.free || p.temporary {
            i += 1;
            continue;
        }
        if p.static_size > p_size {
            return Err(HeapError::Layout(format!(
                "partition {i}: static size {:#x} exceeds the partition size",
                p.static_size
            )));
        }
        let start = base + p.static_size;
        if p.large_content {
            let (end, span) = match decode(image, layout, start) {
                Ok(obj) => {
                    let end = start.saturating_add(obj.size);
                    let span = (p.static_size.saturating_add(obj.size)).div_ceil(p_size);
                    (end, span.max(1))
                }
                Err(_) => (base + p_size, 1),
            };
            out.push(HeapRange {
                start,
                end,
                partition: Some(p),
                large_object: true,
            });
            i = i.saturating_add(usize::try_from(span).unwrap_or(usize::MAX));
            continue;
        }
        if p.dynamic_size > p_size - p.static_size {
            return Err(HeapError::Layout(format!(
                "partition {i}: static {:#x} + dynamic {:#x} exceed the partition size",
                p.static_size, p.dynamic_size
            )));
        }
        if p.dynamic_size > 0 {
            out.push(HeapRange {
                start,
                end: start + p.dynamic_size,
                partition: Some(p),
                large_object: false,
            });
        }
        i += 1;
    }
    Ok(out)
}
