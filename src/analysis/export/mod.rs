//! The export for fleets: Parquet tables of the analyses of many snapshots, which DuckDB,
//! Spark or pandas query directly (`objects`, `edges`, `variables`, `types`; every row names
//! its snapshot). Written with the `parquet` crate's column writers (no Arrow), row group by
//! row group ([`table::ROW_GROUP_ROWS`] rows buffered per table), each file under a temporary
//! name renamed into place when it is complete.

pub mod table;
pub mod tables;

pub use table::{ExportError, ROW_GROUP_ROWS};
pub use tables::{ExportCounts, Exporter, TABLES};
