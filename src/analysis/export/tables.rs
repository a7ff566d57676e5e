//! The four tables of an export and how one snapshot's analysis becomes their rows:
//!
//! - `objects`: every walked object: `snapshot`, `address`, `tag`, `motoko_type` (null where
//!   no type reached it), `size`, `live`, `retained_objects`, `retained_bytes`, `dominator`
//!   (the address of its immediate dominator; null under a root or for garbage);
//! - `edges`: every reference between walked objects: `snapshot`, `source`, `target`;
//! - `variables`: each stable variable: `snapshot`, `name`, `address` (null for a scalar),
//!   `reachable_objects`, `reachable_bytes`, `retained_objects`, `retained_bytes`;
//! - `types`: per Motoko type (or heap tag of untyped objects, `typed` false): `snapshot`,
//!   `motoko_type`, `typed`, `objects`, `bytes`, `retained_objects`, `retained_bytes`.

use std::path::{Path, PathBuf};

use parquet::data_type::ByteArray;

use super::super::dominators::Dominator;
use super::super::types::NO_LABEL;
use super::super::{HeapAnalysis, OpenedHeap};
use super::table::{Column, ExportError, Table};

/// The tables' names (each is `NAME.parquet`).
pub const TABLES: [&str; 4] = ["objects", "edges", "variables", "types"];

const OBJECTS: &str = "message objects { REQUIRED BYTE_ARRAY snapshot (UTF8); \
    REQUIRED INT64 address; REQUIRED BYTE_ARRAY tag (UTF8); \
    OPTIONAL BYTE_ARRAY motoko_type (UTF8); REQUIRED INT64 size; REQUIRED BOOLEAN live; \
    REQUIRED INT64 retained_objects; REQUIRED INT64 retained_bytes; OPTIONAL INT64 dominator; }";
const EDGES: &str = "message edges { REQUIRED BYTE_ARRAY snapshot (UTF8); \
    REQUIRED INT64 source; REQUIRED INT64 target; }";
const VARIABLES: &str = "message variables { REQUIRED BYTE_ARRAY snapshot (UTF8); \
    REQUIRED BYTE_ARRAY name (UTF8); OPTIONAL INT64 address; \
    REQUIRED INT64 reachable_objects; REQUIRED INT64 reachable_bytes; \
    REQUIRED INT64 retained_objects; REQUIRED INT64 retained_bytes; }";
const TYPES: &str = "message types { REQUIRED BYTE_ARRAY snapshot (UTF8); \
    REQUIRED BYTE_ARRAY motoko_type (UTF8); REQUIRED BOOLEAN typed; REQUIRED INT64 objects; \
    REQUIRED INT64 bytes; REQUIRED INT64 retained_objects; REQUIRED INT64 retained_bytes; }";

/// Rows written per table.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize)]
pub struct ExportCounts {
    /// Rows of `objects`.
    pub objects: u64,
    /// Rows of `edges`.
    pub edges: u64,
    /// Rows of `variables`.
    pub variables: u64,
    /// Rows of `types`.
    pub types: u64,
}

/// An export being written into one directory.
pub struct Exporter {
    dir: PathBuf,
    objects: Table,
    edges: Table,
    variables: Table,
    types: Table,
}

fn text() -> Column {
    Column::Text(Vec::new())
}
fn int() -> Column {
    Column::Int(Vec::new())
}
fn opt_int() -> Column {
    Column::OptInt(Vec::new(), Vec::new())
}
fn opt_text() -> Column {
    Column::OptText(Vec::new(), Vec::new())
}
fn boolean() -> Column {
    Column::Bool(Vec::new())
}

fn bytes(s: &str) -> ByteArray {
    ByteArray::from(s.as_bytes().to_vec())
}

/// Pushes `value` into the column `c`, which must be of its kind.
trait Push<T> {
    fn push(&mut self, value: T);
}

impl Push<i64> for Column {
    #[inline]
    fn push(&mut self, value: i64) {
        match self {
            Column::Int(v) => v.push(value),
            Column::OptInt(v, d) => {
                v.push(value);
                d.push(1);
            }
            _ => debug_assert!(false, "an integer into another column"),
        }
    }
}

impl Push<Option<i64>> for Column {
    #[inline]
    fn push(&mut self, value: Option<i64>) {
        match (self, value) {
            (Column::OptInt(v, d), Some(x)) => {
                v.push(x);
                d.push(1);
            }
            (Column::OptInt(_, d), None) => d.push(0),
            _ => debug_assert!(false, "an optional integer into another column"),
        }
    }
}

impl Push<&ByteArray> for Column {
    #[inline]
    fn push(&mut self, value: &ByteArray) {
        match self {
            Column::Text(v) => v.push(value.clone()),
            Column::OptText(v, d) => {
                v.push(value.clone());
                d.push(1);
            }
            _ => debug_assert!(false, "a string into another column"),
        }
    }
}

impl Push<Option<&ByteArray>> for Column {
    #[inline]
    fn push(&mut self, value: Option<&ByteArray>) {
        match (self, value) {
            (c @ Column::OptText(..), Some(x)) => c.push(x),
            (Column::OptText(_, d), None) => d.push(0),
            _ => debug_assert!(false, "an optional string into another column"),
        }
    }
}

impl Push<bool> for Column {
    #[inline]
    fn push(&mut self, value: bool) {
        match self {
            Column::Bool(v) => v.push(value),
            _ => debug_assert!(false, "a boolean into another column"),
        }
    }
}

/// A count or size as a Parquet INT64 (addresses and sizes of a 64-bit memory stay far below
/// `i64::MAX`; a larger value saturates).
#[inline]
fn i(x: u64) -> i64 {
    i64::try_from(x).unwrap_or(i64::MAX)
}

impl Exporter {
    /// Starts the tables in `dir` (created if missing).
    pub fn create(dir: &Path) -> Result<Exporter, ExportError> {
        std::fs::create_dir_all(dir).map_err(|source| ExportError::Io {
            path: dir.to_path_buf(),
            source,
        })?;
        Ok(Exporter {
            dir: dir.to_path_buf(),
            objects: Table::create(
                dir,
                "objects",
                OBJECTS,
                vec![
                    text(),
                    int(),
                    text(),
                    opt_text(),
                    int(),
                    boolean(),
                    int(),
                    int(),
                    opt_int(),
                ],
            )?,
            edges: Table::create(dir, "edges", EDGES, vec![text(), int(), int()])?,
            variables: Table::create(
                dir,
                "variables",
                VARIABLES,
                vec![text(), text(), opt_int(), int(), int(), int(), int()],
            )?,
            types: Table::create(
                dir,
                "types",
                TYPES,
                vec![text(), text(), boolean(), int(), int(), int(), int()],
            )?,
        })
    }

    /// The directory written.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Adds the rows of the snapshot named `snapshot` (`opened`, analysed as `a`, its types
    /// computed now if they were not).
    pub fn add(
        &mut self,
        snapshot: &str,
        opened: &OpenedHeap,
        a: &HeapAnalysis,
    ) -> Result<(), ExportError> {
        let name = bytes(snapshot);
        self.add_objects(&name, opened, a)?;
        self.add_edges(&name, a)?;
        for v in a.vars() {
            let c = self.variables.columns();
            c[0].push(&name);
            c[1].push(&bytes(&v.name));
            c[2].push(v.address.map(i));
            c[3].push(i(v.reachable.objects));
            c[4].push(i(v.reachable.bytes));
            c[5].push(i(v.retained.objects));
            c[6].push(i(v.retained.bytes));
            self.variables.end_row()?;
        }
        for t in a.types(opened) {
            let c = self.types.columns();
            c[0].push(&name);
            c[1].push(&bytes(&t.name));
            c[2].push(t.typed);
            c[3].push(i(t.shallow.objects));
            c[4].push(i(t.shallow.bytes));
            c[5].push(i(t.retained.objects));
            c[6].push(i(t.retained.bytes));
            self.types.end_row()?;
        }
        Ok(())
    }

    fn add_objects(
        &mut self,
        name: &ByteArray,
        opened: &OpenedHeap,
        a: &HeapAnalysis,
    ) -> Result<(), ExportError> {
        let heap = opened.heap();
        let (graph, doms) = (a.graph(), a.dominators());
        let labels = a.labels(opened);
        let type_names: Vec<ByteArray> = labels.names().iter().map(|n| bytes(n)).collect();
        // the few tag names, each made a column value once (looked up by a short scan)
        let mut tags: Vec<(&'static str, ByteArray)> = Vec::new();
        for n in 0..graph.nodes() as u32 {
            let addr = graph.address(n);
            // one header word (the walk decoded every node's object already)
            let tag = heap.tag_at(addr).map_or("?", |(t, _)| t.name());
            let at = match tags.iter().position(|(t, _)| *t == tag) {
                Some(i) => i,
                None => {
                    tags.push((tag, bytes(tag)));
                    tags.len() - 1
                }
            };
            let tag = &tags[at].1;
            let label = labels.label_index(n);
            let ty = (label != NO_LABEL).then(|| &type_names[label as usize]);
            let retained = doms.retained(n);
            let dominator = match doms.idom(n) {
                Some(Dominator::Node(p)) => Some(i(graph.address(p))),
                _ => None,
            };
            let c = self.objects.columns();
            c[0].push(name);
            c[1].push(i(addr));
            c[2].push(tag);
            c[3].push(ty);
            c[4].push(i(graph.size(n)));
            c[5].push(doms.is_reachable(n));
            c[6].push(i(retained.objects));
            c[7].push(i(retained.bytes));
            c[8].push(dominator);
            self.objects.end_row()?;
        }
        Ok(())
    }

    fn add_edges(&mut self, name: &ByteArray, a: &HeapAnalysis) -> Result<(), ExportError> {
        let graph = a.graph();
        for n in 0..graph.nodes() as u32 {
            let from = i(graph.address(n));
            for &m in graph.edges().successors(n) {
                let c = self.edges.columns();
                c[0].push(name);
                c[1].push(from);
                c[2].push(i(graph.address(m)));
                self.edges.end_row()?;
            }
        }
        Ok(())
    }

    /// The rows written so far.
    pub fn counts(&self) -> ExportCounts {
        ExportCounts {
            objects: self.objects.rows(),
            edges: self.edges.rows(),
            variables: self.variables.rows(),
            types: self.types.rows(),
        }
    }

    /// Finishes every table and renames it into place; the rows written.
    pub fn finish(self) -> Result<ExportCounts, ExportError> {
        Ok(ExportCounts {
            objects: self.objects.close()?,
            edges: self.edges.close()?,
            variables: self.variables.close()?,
            types: self.types.close()?,
        })
    }
}
