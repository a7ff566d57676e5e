//! One Parquet table written row group by row group: columns buffered in memory up to
//! [`ROW_GROUP_ROWS`] rows, then written with the low-level column writers; the file is
//! written under a temporary name and renamed when it is closed.

use std::fs::File;
use std::io::BufWriter;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use parquet::basic::Compression;
use parquet::data_type::{BoolType, ByteArray, ByteArrayType, Int64Type};
use parquet::errors::ParquetError;
use parquet::file::properties::WriterProperties;
use parquet::file::writer::SerializedFileWriter;
use parquet::schema::parser::parse_message_type;
use parquet::schema::types::ColumnPath;

/// Rows buffered per table before they are written as one row group.
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
    /// A column was given a value of another kind (a bug in the caller).
    #[error("{path}: column {column} expects another kind of value")]
    Column {
        /// The table's file.
        path: PathBuf,
        /// The column's index.
        column: usize,
    },
}

/// The values of one column, buffered.
#[derive(Debug)]
pub enum Column {
    /// A required UTF-8 string column.
    Text(Vec<ByteArray>),
    /// A required 64-bit integer column.
    Int(Vec<i64>),
    /// An optional 64-bit integer column: values and definition levels (1 present, 0 null).
    OptInt(Vec<i64>, Vec<i16>),
    /// An optional UTF-8 string column.
    OptText(Vec<ByteArray>, Vec<i16>),
    /// A required boolean column.
    Bool(Vec<bool>),
}

impl Column {
    fn clear(&mut self) {
        match self {
            Column::Text(v) => v.clear(),
            Column::Int(v) => v.clear(),
            Column::OptInt(v, d) => {
                v.clear();
                d.clear();
            }
            Column::OptText(v, d) => {
                v.clear();
                d.clear();
            }
            Column::Bool(v) => v.clear(),
        }
    }
}

/// A Parquet file being written.
pub struct Table {
    path: PathBuf,
    tmp: PathBuf,
    writer: Option<SerializedFileWriter<BufWriter<File>>>,
    columns: Vec<Column>,
    rows: usize,
    written: u64,
}

impl Table {
    /// Starts `dir/NAME.parquet` (as a temporary file) with the schema `message` (Parquet's
    /// schema text) and one empty buffer per column (`columns`, in the schema's order).
    pub fn create(
        dir: &Path,
        name: &str,
        message: &str,
        columns: Vec<Column>,
    ) -> Result<Table, ExportError> {
        let path = dir.join(format!("{name}.parquet"));
        let tmp = dir.join(format!(".{name}.parquet.tmp{}", std::process::id()));
        let perr = |source| ExportError::Parquet {
            path: path.clone(),
            source,
        };
        let schema = Arc::new(parse_message_type(message).map_err(perr)?);
        // Dictionary encoding only for the text columns (a snapshot's name, tags, types: few
        // distinct values); addresses and sizes are mostly distinct, where a dictionary only
        // costs a hash per value before it falls back to plain encoding.
        let mut props = WriterProperties::builder()
            .set_compression(Compression::UNCOMPRESSED)
            .set_dictionary_enabled(false)
            .set_created_by(format!("mo-mem {}", env!("CARGO_PKG_VERSION")));
        for (field, column) in schema.get_fields().iter().zip(&columns) {
            if matches!(column, Column::Text(_) | Column::OptText(..)) {
                props = props.set_column_dictionary_enabled(ColumnPath::from(field.name()), true);
            }
        }
        let props = Arc::new(props.build());
        let file = File::create(&tmp).map_err(|source| ExportError::Io {
            path: tmp.clone(),
            source,
        })?;
        let writer =
            SerializedFileWriter::new(BufWriter::with_capacity(1 << 20, file), schema, props)
                .map_err(perr)?;
        Ok(Table {
            path,
            tmp,
            writer: Some(writer),
            columns,
            rows: 0,
            written: 0,
        })
    }

    /// The buffers, to push one row's values into (then [`Table::end_row`]).
    pub fn columns(&mut self) -> &mut [Column] {
        &mut self.columns
    }

    /// Ends a row pushed into every column; writes a row group when the buffers are full.
    pub fn end_row(&mut self) -> Result<(), ExportError> {
        self.rows += 1;
        if self.rows >= ROW_GROUP_ROWS {
            self.flush()?;
        }
        Ok(())
    }

    /// The rows written so far (buffered ones included).
    pub fn rows(&self) -> u64 {
        self.written + self.rows as u64
    }

    /// Writes the buffered rows as one row group.
    fn flush(&mut self) -> Result<(), ExportError> {
        if self.rows == 0 {
            return Ok(());
        }
        let path = &self.path;
        let perr = |source| ExportError::Parquet {
            path: path.clone(),
            source,
        };
        let Some(writer) = self.writer.as_mut() else {
            return Ok(());
        };
        let mut group = writer.next_row_group().map_err(perr)?;
        for (i, column) in self.columns.iter().enumerate() {
            let Some(mut out) = group.next_column().map_err(perr)? else {
                return Err(ExportError::Column {
                    path: path.clone(),
                    column: i,
                });
            };
            match column {
                Column::Text(v) => out
                    .typed::<ByteArrayType>()
                    .write_batch(v, None, None)
                    .map(drop),
                Column::OptText(v, d) => out
                    .typed::<ByteArrayType>()
                    .write_batch(v, Some(d), None)
                    .map(drop),
                Column::Int(v) => out
                    .typed::<Int64Type>()
                    .write_batch(v, None, None)
                    .map(drop),
                Column::OptInt(v, d) => out
                    .typed::<Int64Type>()
                    .write_batch(v, Some(d), None)
                    .map(drop),
                Column::Bool(v) => out.typed::<BoolType>().write_batch(v, None, None).map(drop),
            }
            .map_err(perr)?;
            out.close().map_err(perr)?;
        }
        group.close().map_err(perr)?;
        for c in &mut self.columns {
            c.clear();
        }
        self.written += self.rows as u64;
        self.rows = 0;
        Ok(())
    }

    /// Writes the last row group and the footer, and renames the file into place.
    pub fn close(mut self) -> Result<u64, ExportError> {
        self.flush()?;
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
