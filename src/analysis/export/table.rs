//! One Parquet table written row group by row group, each column chunk encoded whole in
//! memory ([`super::chunk`]) and spliced into the file; the file is written under a temporary
//! name and renamed when it is closed.

use std::fs::File;
use std::io::BufWriter;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use parquet::basic::Compression;
use parquet::errors::ParquetError;
use parquet::file::properties::{EnabledStatistics, WriterProperties};
use parquet::file::writer::SerializedFileWriter;
use parquet::schema::parser::parse_message_type;

use super::chunk::Chunk;

/// Rows per row group (a column chunk of them is encoded in memory at a time: 8 MiB for a
/// 64-bit column).
pub const ROW_GROUP_ROWS: usize = 1 << 20;

/// Why an export failed.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ExportError {
    /// The output directory could not be created (a file is in the way, no permission).
    #[error("cannot create the output directory {}: {error}", path.display())]
    OutDir {
        /// The directory.
        path: PathBuf,
        /// The error (in the message, not a `source`: a chain of causes shows it once).
        error: std::io::Error,
    },
    /// A file could not be written.
    #[error("cannot write {}: {error}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// The error (in the message only).
        error: std::io::Error,
    },
    /// The Parquet writer failed.
    #[error("{}: parquet: {error}", path.display())]
    Parquet {
        /// The table's file.
        path: PathBuf,
        /// The error (in the message only).
        error: ParquetError,
    },
}

/// A Parquet file being written.
pub struct Table {
    path: PathBuf,
    tmp: PathBuf,
    writer: Option<SerializedFileWriter<BufWriter<File>>>,
    /// A chunk's buffer, reused from column to column.
    spare: Vec<u8>,
    written: u64,
}

impl Table {
    /// Starts `dir/NAME.parquet` (as a temporary file) with the schema `message` (Parquet's
    /// schema text).
    pub fn create(dir: &Path, name: &str, message: &str) -> Result<Table, ExportError> {
        let path = dir.join(format!("{name}.parquet"));
        let tmp = dir.join(format!(".{name}.parquet.tmp{}", std::process::id()));
        let perr = |error| ExportError::Parquet {
            path: path.clone(),
            error,
        };
        let schema = Arc::new(parse_message_type(message).map_err(perr)?);
        // The column chunks are encoded by `chunk` (uncompressed, no page statistics); these
        // properties only name the writer.
        let props = WriterProperties::builder()
            .set_compression(Compression::UNCOMPRESSED)
            .set_statistics_enabled(EnabledStatistics::None)
            .set_created_by(format!("mo-mem {}", env!("CARGO_PKG_VERSION")))
            .build();
        // Named by the table it would become (the temporary name means nothing to a user).
        let file = File::create(&tmp).map_err(|error| ExportError::Io {
            path: path.clone(),
            error,
        })?;
        let writer = SerializedFileWriter::new(
            BufWriter::with_capacity(1 << 20, file),
            schema,
            Arc::new(props),
        )
        .map_err(perr)?;
        Ok(Table {
            path,
            tmp,
            writer: Some(writer),
            spare: Vec::new(),
            written: 0,
        })
    }

    /// The rows written so far.
    pub fn rows(&self) -> u64 {
        self.written
    }

    /// Writes one row group of `rows` rows (none if `rows` is 0): `column(i, chunk)` encodes
    /// column `i` (in the schema's order) into `chunk`.
    pub fn row_group(
        &mut self,
        rows: usize,
        mut column: impl FnMut(usize, Chunk) -> Result<Chunk, ParquetError>,
    ) -> Result<(), ExportError> {
        let path = &self.path;
        let perr = |error| ExportError::Parquet {
            path: path.clone(),
            error,
        };
        let Some(writer) = self.writer.as_mut() else {
            return Ok(());
        };
        if rows == 0 {
            return Ok(());
        }
        let columns: Vec<_> = (0..writer.schema_descr().num_columns())
            .map(|i| writer.schema_descr().column(i))
            .collect();
        let mut group = writer.next_row_group().map_err(perr)?;
        for (i, descr) in columns.into_iter().enumerate() {
            let chunk = column(i, Chunk::new(std::mem::take(&mut self.spare))).map_err(perr)?;
            let encoded = chunk.finish(descr, rows).map_err(perr)?;
            group
                .append_column(&encoded.bytes, encoded.close)
                .map_err(perr)?;
            // The buffer back for the next column, if nothing else holds it.
            if let Ok(buf) = encoded.bytes.try_into_mut() {
                self.spare = buf.into();
            }
        }
        group.close().map_err(perr)?;
        self.written += rows as u64;
        Ok(())
    }

    /// Writes the last row group and the footer, and renames the file into place.
    pub fn close(mut self) -> Result<u64, ExportError> {
        if let Some(writer) = self.writer.take() {
            let perr = |error| ExportError::Parquet {
                path: self.path.clone(),
                error,
            };
            let inner = writer.into_inner().map_err(perr)?;
            let file = inner.into_inner().map_err(|e| ExportError::Io {
                path: self.tmp.clone(),
                error: e.into_error(),
            })?;
            file.sync_all().map_err(|error| ExportError::Io {
                path: self.tmp.clone(),
                error,
            })?;
        }
        std::fs::rename(&self.tmp, &self.path).map_err(|error| ExportError::Io {
            path: self.path.clone(),
            error,
        })?;
        Ok(self.written)
    }
}

impl Drop for Table {
    fn drop(&mut self) {
        // An unfinished table leaves no file behind (a closed one was renamed already).
        if self.writer.is_some() {
            let _ = std::fs::remove_file(&self.tmp);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use parquet::file::reader::FileReader;
    use parquet::file::serialized_reader::SerializedFileReader;
    use parquet::record::Field;

    const MESSAGE: &str = "message t { REQUIRED BYTE_ARRAY snapshot (UTF8); \
        REQUIRED INT64 address; OPTIONAL BYTE_ARRAY kind (UTF8); REQUIRED BOOLEAN flag; \
        OPTIONAL INT64 parent; REQUIRED BYTE_ARRAY name (UTF8); REQUIRED INT64 wide; }";
    const KINDS: [&str; 5] = ["Text", "[Nat]", "(Tree, Nat, Tree)", "Blob B", ""];

    // Each column's value of row `r`, computed directly (the test's second computation).
    fn address(r: usize) -> i64 {
        0x1000 + 24 * r as i64 + (r as i64 % 5) * 8
    }
    fn kind(r: usize) -> Option<u32> {
        (r % 7 != 3).then_some((r * 31 % KINDS.len()) as u32)
    }
    fn flag(r: usize) -> bool {
        r.is_multiple_of(3)
    }
    fn parent(r: usize) -> Option<i64> {
        (!r.is_multiple_of(11)).then(|| address(r / 2))
    }
    fn wide(r: usize) -> i64 {
        match r % 1000 {
            0 => i64::MAX,
            1 => i64::MIN,
            k => k as i64 - 500,
        }
    }

    #[test]
    fn a_table_of_several_pages_and_row_groups_reads_back() {
        let tmp = tempfile::tempdir().unwrap();
        let mut table = Table::create(tmp.path(), "t", MESSAGE).unwrap();
        // Two row groups of several pages each, the last page partly filled.
        let groups = [(0usize, 150_001usize), (150_001, 70_000)];
        let names: Vec<String> = (0..220_001).map(|r| format!("v{}", r % 13)).collect();
        for (first, rows) in groups {
            table
                .row_group(rows, |c, chunk| match c {
                    0 => chunk.constant_text(rows, b"snap/eop"),
                    1 => chunk.increasing_ints(rows, |r| address(first + r)),
                    2 => {
                        chunk.dictionary_text(rows, true, KINDS.iter().map(|k| k.as_bytes()), |r| {
                            kind(first + r)
                        })
                    }
                    3 => chunk.bools(rows, |r| flag(first + r)),
                    4 => chunk.optional_ints(rows, |r| parent(first + r)),
                    5 => chunk.texts(rows, false, |r| Some(names[first + r].as_bytes())),
                    _ => chunk.ints(rows, |r| wide(first + r)),
                })
                .unwrap();
        }
        assert_eq!(table.rows(), 220_001);
        assert_eq!(table.close().unwrap(), 220_001);
        let file = File::open(tmp.path().join("t.parquet")).unwrap();
        let reader = SerializedFileReader::new(file).unwrap();
        assert_eq!(reader.metadata().num_row_groups(), 2);
        let mut n = 0;
        for (r, row) in reader.get_row_iter(None).unwrap().enumerate() {
            let fields: Vec<Field> = row
                .unwrap()
                .get_column_iter()
                .map(|(_, f)| f.clone())
                .collect();
            let expected = vec![
                Field::Str("snap/eop".into()),
                Field::Long(address(r)),
                kind(r).map_or(Field::Null, |k| Field::Str(KINDS[k as usize].into())),
                Field::Bool(flag(r)),
                parent(r).map_or(Field::Null, Field::Long),
                Field::Str(names[r].clone()),
                Field::Long(wide(r)),
            ];
            assert_eq!(fields, expected, "row {r}");
            n += 1;
        }
        assert_eq!(n, 220_001);
    }
}
