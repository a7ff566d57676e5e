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
    /// A file or directory could not be written.
    #[error("{path}: {source}")]
    Io {
        /// The file or directory.
        path: PathBuf,
        /// The error.
        #[source]
        source: std::io::Error,
    },
    /// The Parquet writer failed.
    #[error("{path}: parquet: {source}")]
    Parquet {
        /// The table's file.
        path: PathBuf,
        /// The error.
        #[source]
        source: ParquetError,
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
        let perr = |source| ExportError::Parquet {
            path: path.clone(),
            source,
        };
        let schema = Arc::new(parse_message_type(message).map_err(perr)?);
        // The column chunks are encoded by `chunk` (uncompressed, no page statistics); these
        // properties only name the writer.
        let props = WriterProperties::builder()
            .set_compression(Compression::UNCOMPRESSED)
            .set_statistics_enabled(EnabledStatistics::None)
            .set_created_by(format!("mo-mem {}", env!("CARGO_PKG_VERSION")))
            .build();
        let file = File::create(&tmp).map_err(|source| ExportError::Io {
            path: tmp.clone(),
            source,
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
        let perr = |source| ExportError::Parquet {
            path: path.clone(),
            source,
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
            let perr = |source| ExportError::Parquet {
                path: self.path.clone(),
                source,
            };
            let inner = writer.into_inner().map_err(perr)?;
            let file = inner.into_inner().map_err(|e| ExportError::Io {
                path: self.tmp.clone(),
                source: e.into_error(),
            })?;
            file.sync_all().map_err(|source| ExportError::Io {
                path: self.tmp.clone(),
                source,
            })?;
        }
        std::fs::rename(&self.tmp, &self.path).map_err(|source| ExportError::Io {
            path: self.path.clone(),
            source,
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
