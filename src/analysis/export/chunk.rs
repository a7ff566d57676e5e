//! One column chunk of a row group, encoded here page by page straight from the analysis'
//! arrays (a closure gives the value of each row), then spliced into the file whole
//! ([`parquet::file::writer::SerializedRowGroupWriter::append_column`]). With the `parquet`
//! crate's typed writers the export cost about 400 ns per object (its row and its edges'
//! rows): each string value hashed into a dictionary, each value compared for statistics,
//! each row pushed into a buffer, 2.4 GB of files for the dense fixture. Here:
//!
//! - integers are DELTA_BINARY_PACKED ([`super::delta`]: 1 to 2 bytes for most values, where
//!   the kernel's copy of the file into the page cache costs about 3 ns per byte), booleans
//!   PLAIN (one bit each); nothing is compressed;
//! - text columns with few distinct values (a snapshot's name, tags, Motoko types) are
//!   dictionary encoded from small integers the caller already has (a label index, a tag
//!   number): a PLAIN dictionary page, then RLE_DICTIONARY data pages whose indices are
//!   bit-packed (one run per page; a constant column is one RLE run per page);
//! - definition levels of optional columns are bit-packed, one bit per row;
//! - pages hold [`PAGE_ROWS`] rows; statistics are written only where they cost nothing (a
//!   constant column, an increasing column: its first and last value).
//!
//! Readers see the same values as before (same schema); only the encodings differ.

use bytes::Bytes;
use parquet::basic::{Compression, Encoding};
use parquet::column::page::{CompressedPage, Page, PageWriter};
use parquet::column::writer::ColumnCloseResult;
use parquet::data_type::ByteArray;
use parquet::errors::ParquetError;
use parquet::file::metadata::ColumnChunkMetaData;
use parquet::file::statistics::Statistics;
use parquet::file::writer::{SerializedPageWriter, TrackedWrite};
use parquet::schema::types::ColumnDescPtr;

use super::delta::{uleb, DeltaPacker};

/// Rows per data page (about 128 KiB of a delta-encoded 64-bit column of small steps).
pub const PAGE_ROWS: usize = 1 << 16;

/// A column chunk being encoded into memory.
pub struct Chunk {
    sink: TrackedWrite<Vec<u8>>,
    data_offset: Option<i64>,
    dictionary: bool,
    levels: u64,
    encodings: Vec<Encoding>,
    statistics: Option<Statistics>,
}

/// An encoded chunk, ready for `append_column`.
pub struct Encoded {
    /// The chunk's bytes (page headers and pages).
    pub bytes: Bytes,
    /// Its metadata, offsets relative to the start of `bytes`.
    pub close: ColumnCloseResult,
}

impl Chunk {
    /// An empty chunk writing into `buf` (cleared; its capacity reused).
    pub fn new(mut buf: Vec<u8>) -> Chunk {
        buf.clear();
        Chunk {
            sink: TrackedWrite::new(buf),
            data_offset: None,
            dictionary: false,
            levels: 0,
            encodings: vec![Encoding::PLAIN, Encoding::RLE],
            statistics: None,
        }
    }

    fn page(&mut self, page: Page, size: usize) -> Result<(), ParquetError> {
        let data = page.is_data_page();
        let mut writer = SerializedPageWriter::new(&mut self.sink);
        let spec = writer.write_page(CompressedPage::new(page, size))?;
        writer.close()?;
        if data {
            self.data_offset.get_or_insert(spec.offset as i64);
        }
        Ok(())
    }

    /// Writes the dictionary page (PLAIN strings); must come before any data page.
    fn dictionary_page<'a>(
        &mut self,
        entries: impl ExactSizeIterator<Item = &'a [u8]>,
    ) -> Result<(), ParquetError> {
        debug_assert!(self.data_offset.is_none());
        let count = entries.len();
        let mut body = Vec::new();
        for e in entries {
            body.extend_from_slice(&(e.len() as u32).to_le_bytes());
            body.extend_from_slice(e);
        }
        self.dictionary = true;
        self.encodings.push(Encoding::RLE_DICTIONARY);
        let size = body.len();
        self.page(
            Page::DictionaryPage {
                buf: body.into(),
                num_values: count as u32,
                encoding: Encoding::PLAIN,
                is_sorted: false,
            },
            size,
        )
    }

    fn data_page(
        &mut self,
        body: Vec<u8>,
        levels: usize,
        encoding: Encoding,
    ) -> Result<(), ParquetError> {
        self.levels += levels as u64;
        let size = body.len();
        self.page(
            Page::DataPage {
                buf: body.into(),
                num_values: levels as u32,
                encoding,
                def_level_encoding: Encoding::RLE,
                rep_level_encoding: Encoding::RLE,
                statistics: None,
            },
            size,
        )
    }

    /// A required INT64 column of `rows` rows, DELTA_BINARY_PACKED.
    pub fn ints(
        mut self,
        rows: usize,
        mut value: impl FnMut(usize) -> i64,
    ) -> Result<Chunk, ParquetError> {
        self.delta_encoding();
        for start in (0..rows).step_by(PAGE_ROWS) {
            let n = PAGE_ROWS.min(rows - start);
            let mut packer = DeltaPacker::new(n);
            for i in start..start + n {
                packer.push(value(i));
            }
            let mut body = Vec::with_capacity(n * 2);
            packer.finish(&mut body);
            self.data_page(body, n, Encoding::DELTA_BINARY_PACKED)?;
        }
        Ok(self)
    }

    fn delta_encoding(&mut self) {
        if !self.encodings.contains(&Encoding::DELTA_BINARY_PACKED) {
            self.encodings.push(Encoding::DELTA_BINARY_PACKED);
        }
    }

    /// [`Chunk::ints`] of a column whose values never decrease: its statistics are its first
    /// and last value.
    pub fn increasing_ints(
        self,
        rows: usize,
        mut value: impl FnMut(usize) -> i64,
    ) -> Result<Chunk, ParquetError> {
        let (mut first, mut last) = (None, None);
        let mut chunk = self.ints(rows, |i| {
            let v = value(i);
            first.get_or_insert(v);
            last = Some(v);
            v
        })?;
        chunk.statistics = Some(Statistics::new(first, last, None, Some(0), false));
        Ok(chunk)
    }

    /// An optional INT64 column of `rows` rows, DELTA_BINARY_PACKED (nulls only in the
    /// levels).
    pub fn optional_ints(
        mut self,
        rows: usize,
        mut value: impl FnMut(usize) -> Option<i64>,
    ) -> Result<Chunk, ParquetError> {
        self.delta_encoding();
        for start in (0..rows).step_by(PAGE_ROWS) {
            let n = PAGE_ROWS.min(rows - start);
            let mut levels = LevelBits::new(n);
            let mut packer = DeltaPacker::new(n);
            for i in start..start + n {
                let v = value(i);
                levels.push(v.is_some());
                if let Some(v) = v {
                    packer.push(v);
                }
            }
            let mut body = levels.finish(n * 2);
            packer.finish(&mut body);
            self.data_page(body, n, Encoding::DELTA_BINARY_PACKED)?;
        }
        Ok(self)
    }

    /// A required BOOLEAN column of `rows` rows, PLAIN (bit-packed).
    pub fn bools(
        mut self,
        rows: usize,
        mut value: impl FnMut(usize) -> bool,
    ) -> Result<Chunk, ParquetError> {
        for start in (0..rows).step_by(PAGE_ROWS) {
            let n = PAGE_ROWS.min(rows - start);
            let mut bits = Bits::with_capacity(n.div_ceil(8));
            for i in start..start + n {
                bits.push(value(i));
            }
            self.data_page(bits.finish(), n, Encoding::PLAIN)?;
        }
        Ok(self)
    }

    /// A text column of `rows` rows, PLAIN, for small tables (`None` is a null: only for an
    /// optional column).
    pub fn texts<'a>(
        mut self,
        rows: usize,
        optional: bool,
        mut value: impl FnMut(usize) -> Option<&'a [u8]>,
    ) -> Result<Chunk, ParquetError> {
        for start in (0..rows).step_by(PAGE_ROWS) {
            let n = PAGE_ROWS.min(rows - start);
            let mut levels = LevelBits::new(n);
            let mut values = Vec::new();
            for i in start..start + n {
                let v = value(i);
                levels.push(v.is_some());
                if let Some(v) = v {
                    values.extend_from_slice(&(v.len() as u32).to_le_bytes());
                    values.extend_from_slice(v);
                }
            }
            let body = levels.before(optional, &values);
            self.data_page(body, n, Encoding::PLAIN)?;
        }
        Ok(self)
    }

    /// A required text column whose every row is `value`: a dictionary of one entry and one
    /// RLE run per page; its statistics are that value.
    pub fn constant_text(mut self, rows: usize, value: &[u8]) -> Result<Chunk, ParquetError> {
        self.dictionary_page(std::iter::once(value))?;
        for start in (0..rows).step_by(PAGE_ROWS) {
            let n = PAGE_ROWS.min(rows - start);
            let mut body = vec![1u8];
            uleb((n as u64) << 1, &mut body);
            body.push(0);
            self.data_page(body, n, Encoding::RLE_DICTIONARY)?;
        }
        let v = Some(ByteArray::from(value.to_vec()));
        self.statistics = Some(Statistics::new(v.clone(), v, None, Some(0), false));
        Ok(self)
    }

    /// A text column of `rows` rows dictionary encoded: `dictionary` holds the distinct
    /// values, `index(i)` the entry of row `i` (`None` is a null: only for an optional column).
    /// Every index must be below the dictionary's length.
    pub fn dictionary_text<'a>(
        mut self,
        rows: usize,
        optional: bool,
        dictionary: impl ExactSizeIterator<Item = &'a [u8]>,
        mut index: impl FnMut(usize) -> Option<u32>,
    ) -> Result<Chunk, ParquetError> {
        let entries = dictionary.len();
        if entries == 0 {
            // Nothing to point at: every row is a null.
            return self.texts(rows, optional, |_| None);
        }
        self.dictionary_page(dictionary)?;
        let width = (u32::BITS - (entries as u32 - 1).leading_zeros()).max(1);
        for start in (0..rows).step_by(PAGE_ROWS) {
            let n = PAGE_ROWS.min(rows - start);
            let mut levels = LevelBits::new(n);
            let mut packer = Packer::new(width, n);
            for i in start..start + n {
                let v = index(i);
                levels.push(v.is_some());
                if let Some(v) = v {
                    debug_assert!((v as usize) < entries);
                    packer.push(v);
                }
            }
            let body = levels.before(optional, &packer.finish());
            self.data_page(body, n, Encoding::RLE_DICTIONARY)?;
        }
        Ok(self)
    }

    /// The chunk's bytes and metadata for the column `descr` of `rows` rows.
    pub fn finish(self, descr: ColumnDescPtr, rows: usize) -> Result<Encoded, ParquetError> {
        let size = self.sink.bytes_written() as i64;
        let mut meta = ColumnChunkMetaData::builder(descr)
            .set_compression(Compression::UNCOMPRESSED)
            .set_encodings(self.encodings)
            .set_num_values(self.levels as i64)
            .set_total_compressed_size(size)
            .set_total_uncompressed_size(size)
            .set_data_page_offset(self.data_offset.unwrap_or(0))
            .set_dictionary_page_offset(self.dictionary.then_some(0));
        if let Some(s) = self.statistics {
            meta = meta.set_statistics(s);
        }
        let metadata = meta.build()?;
        Ok(Encoded {
            bytes: Bytes::from(self.sink.into_inner()?),
            close: ColumnCloseResult {
                bytes_written: size as u64,
                rows_written: rows as u64,
                metadata,
                bloom_filter: None,
                column_index: None,
                offset_index: None,
            },
        })
    }
}

/// Booleans packed eight per byte, least significant bit first.
struct Bits {
    bytes: Vec<u8>,
    acc: u8,
    n: u32,
}

impl Bits {
    fn with_capacity(bytes: usize) -> Bits {
        Bits {
            bytes: Vec::with_capacity(bytes),
            acc: 0,
            n: 0,
        }
    }

    #[inline]
    fn push(&mut self, b: bool) {
        self.acc |= (b as u8) << self.n;
        self.n += 1;
        if self.n == 8 {
            self.bytes.push(self.acc);
            self.acc = 0;
            self.n = 0;
        }
    }

    fn finish(mut self) -> Vec<u8> {
        if self.n > 0 {
            self.bytes.push(self.acc);
        }
        self.bytes
    }
}

/// The definition levels of one page of an optional column (1 present, 0 null): one
/// bit-packed run of the RLE/bit-packing hybrid, after its 4-byte length (data page v1).
struct LevelBits {
    bits: Bits,
    rows: usize,
}

impl LevelBits {
    fn new(rows: usize) -> LevelBits {
        LevelBits {
            bits: Bits::with_capacity(rows.div_ceil(8)),
            rows,
        }
    }

    #[inline]
    fn push(&mut self, present: bool) {
        self.bits.push(present);
    }

    /// A page's body: the encoded levels of an optional column (none for a required one),
    /// then `values`.
    fn before(self, optional: bool, values: &[u8]) -> Vec<u8> {
        let mut body = if optional {
            self.finish(values.len())
        } else {
            Vec::with_capacity(values.len())
        };
        body.extend_from_slice(values);
        body
    }

    /// The encoded levels, with room for `more` bytes after them.
    fn finish(self, more: usize) -> Vec<u8> {
        let groups = self.rows.div_ceil(8);
        let mut run = Vec::with_capacity(10);
        uleb(((groups as u64) << 1) | 1, &mut run);
        let packed = self.bits.finish();
        debug_assert_eq!(packed.len(), groups);
        let len = run.len() + packed.len();
        let mut body = Vec::with_capacity(4 + len + more);
        body.extend_from_slice(&(len as u32).to_le_bytes());
        body.extend_from_slice(&run);
        body.extend_from_slice(&packed);
        body
    }
}

/// Dictionary indices of `width` bits as one bit-packed run of the RLE/bit-packing hybrid,
/// after the bit width byte (RLE_DICTIONARY).
struct Packer {
    out: Vec<u8>,
    header: usize,
    width: u32,
    acc: u64,
    bits: u32,
    count: usize,
}

impl Packer {
    /// At most `rows` indices of `width` bits (1 to 32).
    fn new(width: u32, rows: usize) -> Packer {
        // The run's header is written when its length is known, in the room kept here.
        let mut out = Vec::with_capacity(11 + (rows.div_ceil(8) * width as usize));
        out.push(width as u8);
        out.extend_from_slice(&[0; 10]);
        Packer {
            out,
            header: 1,
            width,
            acc: 0,
            bits: 0,
            count: 0,
        }
    }

    #[inline]
    fn push(&mut self, v: u32) {
        self.acc |= (v as u64) << self.bits;
        self.bits += self.width;
        while self.bits >= 8 {
            self.out.push(self.acc as u8);
            self.acc >>= 8;
            self.bits -= 8;
        }
        self.count += 1;
    }

    fn finish(mut self) -> Vec<u8> {
        // Pad the last group of eight with zeros.
        while !self.count.is_multiple_of(8) {
            self.push(0);
        }
        let mut header = Vec::with_capacity(10);
        uleb(((self.count / 8) as u64) << 1 | 1, &mut header);
        // Move the header next to the packed values.
        let start = self.header + 10 - header.len();
        self.out[start..self.header + 10].copy_from_slice(&header);
        self.out.drain(self.header..start);
        self.out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A second, naive computation of a bit-packed run: value `k`'s bit `b` is the stream's
    /// bit `k * width + b`.
    fn naive_packed(values: &[u32], width: u32) -> Vec<u8> {
        let padded = values.len().div_ceil(8) * 8;
        let mut bits = vec![false; padded * width as usize];
        for (k, &v) in values.iter().enumerate() {
            for b in 0..width {
                bits[k * width as usize + b as usize] = v >> b & 1 == 1;
            }
        }
        bits.chunks(8)
            .map(|c| c.iter().enumerate().map(|(i, &b)| (b as u8) << i).sum())
            .collect()
    }

    #[test]
    fn packer_matches_the_naive_packing() {
        for width in [1, 3, 5, 8, 13, 32] {
            for n in [0usize, 1, 7, 8, 9, 200, 1000] {
                let mask = if width == 32 {
                    u32::MAX
                } else {
                    (1 << width) - 1
                };
                let values: Vec<u32> = (0..n as u32)
                    .map(|k| k.wrapping_mul(2_654_435_761) & mask)
                    .collect();
                let mut p = Packer::new(width, n);
                values.iter().for_each(|&v| p.push(v));
                let out = p.finish();
                let mut expected = vec![width as u8];
                uleb((n.div_ceil(8) as u64) << 1 | 1, &mut expected);
                expected.extend(naive_packed(&values, width));
                assert_eq!(out, expected, "width {width}, {n} values");
            }
        }
    }

    #[test]
    fn levels_are_a_length_then_one_bit_packed_run() {
        let present = [true, false, true, true, false, false, true, true, true];
        let mut l = LevelBits::new(present.len());
        present.iter().for_each(|&p| l.push(p));
        // 2 groups: header (2 << 1 | 1) = 5, then 0b1100_1101, 0b0000_0001.
        assert_eq!(l.finish(0), [3, 0, 0, 0, 5, 0b1100_1101, 1]);
    }

    #[test]
    fn uleb_splits_seven_bits_at_a_time() {
        let mut out = Vec::new();
        uleb(300, &mut out);
        assert_eq!(out, [0xac, 0x02]);
    }
}
