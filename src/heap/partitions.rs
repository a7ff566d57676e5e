//! Reading incremental-GC partition tables (EOP and classical) into [`HeapRange`]s (spec 3.2, 3.3).

use crate::image::Image;

use super::object::decode;
use super::{HeapError, HeapRange, Layout, PartitionInfo};

/// Most partitions read (EOP: 64 MiB each, so 4 TiB; classical has at most 128).
const MAX_PARTITIONS: u64 = 1 << 16;
/// Partitions per table before an extension table.
const PER_TABLE: u64 = 128;

/// Where a partition record's fields are (byte offsets; words of the table's word size).
#[derive(Debug, Clone, Copy)]
pub(crate) struct RecordFields {
    index: u64,
    free: u64,
    large_content: u64,
    marked_size: u64,
    static_size: u64,
    dynamic_size: u64,
    temporary: u64,
    evacuate: u64,
    update: u64,
}

/// How many records a table holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum TableCount {
    /// `number_of_partitions` is stored after [`PER_TABLE`] records and an extension pointer
    /// (moc >= 0.13, `repr(C)`).
    Stored,
    /// A fixed array of this many records, no extension (classical moc < 0.13).
    Fixed(u64),
}

/// The binary format of a partition table.
#[derive(Debug, Clone, Copy)]
pub(crate) struct TableFormat {
    /// Bytes per partition record (56 EOP, 28 classical).
    pub(crate) record: u64,
    /// Word size of the fields.
    pub(crate) word: u64,
    /// The record's fields.
    fields: RecordFields,
    /// How many records.
    pub(crate) count: TableCount,
}

impl TableFormat {
    /// The EOP format (`repr(C)`: index, free, large_content, marked, static, dynamic,
    /// bitmap, temporary, evacuate, update).
    pub(crate) const EOP: TableFormat = TableFormat::repr_c(8, 56);
    /// The classical format of moc >= 0.13 (`repr(C)`).
    pub(crate) const CLASSICAL: TableFormat = TableFormat::repr_c(4, 28);
    /// The classical format of moc < 0.13, as rustc laid out the verified RTS builds
    /// ([`crate::module::LegacyPartitionTable`]): index, marked, static, dynamic, bitmap, then
    /// free, large_content, temporary, evacuate, update bytes; 127 records.
    pub(crate) const CLASSICAL_LEGACY: TableFormat = TableFormat {
        record: 28,
        word: 4,
        fields: RecordFields {
            index: 0,
            marked_size: 4,
            static_size: 8,
            dynamic_size: 12,
            free: 20,
            large_content: 21,
            temporary: 22,
            evacuate: 23,
            update: 24,
        },
        count: TableCount::Fixed(127),
    };

    const fn repr_c(w: u64, record: u64) -> TableFormat {
        TableFormat {
            record,
            word: w,
            fields: RecordFields {
                index: 0,
                free: w,
                large_content: w + 1,
                marked_size: 2 * w,
                static_size: 3 * w,
                dynamic_size: 4 * w,
                temporary: 6 * w,
                evacuate: 6 * w + 1,
                update: 6 * w + 2,
            },
            count: TableCount::Stored,
        }
    }

    /// Offset of the extension pointer after the records.
    pub(crate) fn extension_offset(self) -> u64 {
        PER_TABLE * self.record
    }

    /// Offset of number_of_partitions.
    pub(crate) fn count_offset(self) -> u64 {
        self.extension_offset() + self.word
    }

    /// Reads the record at `at`. A flag byte other than 0 or 1 is not a record.
    pub(crate) fn read(self, image: &Image, at: u64) -> Result<PartitionInfo, HeapError> {
        let w = self.word;
        let word = |off: u64| -> Result<u64, HeapError> {
            Ok(if w == 8 {
                image.read_u64(at + off)?
            } else {
                u64::from(image.read_u32(at + off)?)
            })
        };
        let byte = |off: u64| -> Result<bool, HeapError> {
            match image.read_u8(at + off)? {
                0 => Ok(false),
                1 => Ok(true),
                b => Err(HeapError::Layout(format!(
                    "partition record at {at:#x}: flag byte {b} at +{off} is not a bool"
                ))),
            }
        };
        let f = self.fields;
        Ok(PartitionInfo {
            index: word(f.index)?,
            free: byte(f.free)?,
            large_content: byte(f.large_content)?,
            marked_size: word(f.marked_size)?,
            static_size: word(f.static_size)?,
            dynamic_size: word(f.dynamic_size)?,
            temporary: byte(f.temporary)?,
            evacuate: byte(f.evacuate)?,
            update: byte(f.update)?,
        })
    }

    /// The number of records of the table at `table`.
    fn records(self, image: &Image, table: u64) -> Result<u64, HeapError> {
        match self.count {
            TableCount::Fixed(n) => Ok(n),
            TableCount::Stored => Ok(image.read_word(table + self.count_offset())?),
        }
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
    let count = format.records(image, table)?;
    if count == 0 || count > MAX_PARTITIONS {
        return Err(HeapError::Layout(format!(
            "partition table at {table:#x}: implausible number of partitions {count}"
        )));
    }
    let mut parts = Vec::new();
    let mut current_table = table;
    for i in 0..count {
        if i > 0 && i % PER_TABLE == 0 && format.count == TableCount::Stored {
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
