//! The export for fleets: Parquet tables of the analyses of many snapshots, which DuckDB,
//! Spark or pandas query directly (`objects`, `edges`, `variables`, `types`; every row names
//! its snapshot). Each column chunk is encoded by [`chunk`] straight from the analysis' arrays
//! (no row buffers, no Arrow) and spliced into the file by the `parquet` crate's writer, row
//! group by row group ([`table::ROW_GROUP_ROWS`] rows), each file under a temporary name
//! renamed into place when it is complete.

mod addresses;
pub mod chunk;
pub mod delta;
pub mod table;
pub mod tables;

pub use table::{ExportError, ROW_GROUP_ROWS};
pub use tables::{ExportCounts, Exporter, TABLES};
