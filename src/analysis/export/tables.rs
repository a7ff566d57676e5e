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

use super::super::dominators::Dominator;
use super::super::graph::ImageEdges;
use super::super::types::{TypeLabels, NO_LABEL};
use super::super::{HeapAnalysis, OpenedHeap};
use super::addresses::Addresses;
use super::table::{ExportError, Table, ROW_GROUP_ROWS};
use crate::heap::{Heap, Tag};

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

/// A count or size as a Parquet INT64 (addresses and sizes of a 64-bit memory stay far below
/// `i64::MAX`; a larger value saturates).
#[inline]
fn i(x: u64) -> i64 {
    i64::try_from(x).unwrap_or(i64::MAX)
}

impl Exporter {
    /// Starts the tables in `dir` (created if missing).
    pub fn create(dir: &Path) -> Result<Exporter, ExportError> {
        std::fs::create_dir_all(dir).map_err(|error| ExportError::OutDir {
            path: dir.to_path_buf(),
            error,
        })?;
        Ok(Exporter {
            dir: dir.to_path_buf(),
            objects: Table::create(dir, "objects", OBJECTS)?,
            edges: Table::create(dir, "edges", EDGES)?,
            variables: Table::create(dir, "variables", VARIABLES)?,
            types: Table::create(dir, "types", TYPES)?,
        })
    }

    /// The directory written.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Adds the rows of the snapshot named `snapshot` (`opened`, analysed as `a`, its types
    /// computed now if they were not). The objects and the edges are written on two threads.
    pub fn add(
        &mut self,
        snapshot: &str,
        opened: &OpenedHeap,
        a: &HeapAnalysis,
    ) -> Result<(), ExportError> {
        let name = snapshot.as_bytes();
        let labels = a.labels(opened);
        let addresses = Addresses::new(a.graph());
        let (objects, edges) = (&mut self.objects, &mut self.edges);
        std::thread::scope(|s| {
            let edges = s.spawn(|| add_edges(edges, name, a, opened.heap(), &addresses));
            let objects = add_objects(objects, name, opened, a, labels, &addresses);
            let edges = edges
                .join()
                .unwrap_or_else(|panic| std::panic::resume_unwind(panic));
            objects.and(edges)
        })?;
        drop(addresses);
        let vars = a.vars();
        self.variables.row_group(vars.len(), |c, chunk| match c {
            0 => chunk.constant_text(vars.len(), name),
            1 => chunk.texts(vars.len(), false, |r| Some(vars[r].name.as_bytes())),
            2 => chunk.optional_ints(vars.len(), |r| vars[r].address.map(i)),
            3 => chunk.ints(vars.len(), |r| i(vars[r].reachable.objects)),
            4 => chunk.ints(vars.len(), |r| i(vars[r].reachable.bytes)),
            5 => chunk.ints(vars.len(), |r| i(vars[r].retained.objects)),
            _ => chunk.ints(vars.len(), |r| i(vars[r].retained.bytes)),
        })?;
        let types = a.types(opened);
        self.types.row_group(types.len(), |c, chunk| match c {
            0 => chunk.constant_text(types.len(), name),
            1 => chunk.texts(types.len(), false, |r| Some(types[r].name.as_bytes())),
            2 => chunk.bools(types.len(), |r| types[r].typed),
            3 => chunk.ints(types.len(), |r| i(types[r].shallow.objects)),
            4 => chunk.ints(types.len(), |r| i(types[r].shallow.bytes)),
            5 => chunk.ints(types.len(), |r| i(types[r].retained.objects)),
            _ => chunk.ints(types.len(), |r| i(types[r].retained.bytes)),
        })?;
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

/// The rows of `objects`, [`ROW_GROUP_ROWS`] nodes per row group, each column straight from
/// the graph, the dominators and the type labels.
fn add_objects(
    table: &mut Table,
    name: &[u8],
    opened: &OpenedHeap,
    a: &HeapAnalysis,
    labels: &TypeLabels,
    addresses: &Addresses<'_>,
) -> Result<(), ExportError> {
    let heap = opened.heap();
    let (graph, doms) = (a.graph(), a.dominators());
    let type_names = labels.names();
    let nodes = graph.nodes();
    // The tags of a row group as small numbers into its own dictionary of tag names.
    let mut tags: Vec<u8> = Vec::new();
    let mut tag_names: Vec<&'static str> = Vec::new();
    for first in (0..nodes).step_by(ROW_GROUP_ROWS) {
        let rows = ROW_GROUP_ROWS.min(nodes - first);
        let node = |r: usize| (first + r) as u32;
        tag_numbers(
            heap,
            addresses,
            first..first + rows,
            &mut tags,
            &mut tag_names,
        );
        table.row_group(rows, |c, chunk| match c {
            0 => chunk.constant_text(rows, name),
            1 => chunk.increasing_ints(rows, |r| i(addresses.get(node(r)))),
            2 => chunk.dictionary_text(rows, false, tag_names.iter().map(|t| t.as_bytes()), |r| {
                Some(tags[r] as u32)
            }),
            3 => chunk.dictionary_text(rows, true, type_names.iter().map(|t| t.as_bytes()), |r| {
                let label = labels.label_index(node(r));
                (label != NO_LABEL && (label as usize) < type_names.len()).then_some(label)
            }),
            4 => chunk.ints(rows, |r| i(graph.size(node(r)))),
            5 => chunk.bools(rows, |r| doms.is_reachable(node(r))),
            6 => chunk.ints(rows, |r| i(doms.retained(node(r)).objects)),
            7 => chunk.ints(rows, |r| i(doms.retained(node(r)).bytes)),
            _ => chunk.optional_ints(rows, |r| match doms.idom(node(r)) {
                Some(Dominator::Node(p)) => Some(i(addresses.get(p))),
                _ => None,
            }),
        })?;
    }
    Ok(())
}

/// The tag of each node of `nodes` (one header word each; `?` where it does not decode) as
/// its index in `names`, which gets each distinct tag's name in order of first appearance.
fn tag_numbers(
    heap: &Heap,
    addresses: &Addresses<'_>,
    nodes: std::ops::Range<usize>,
    tags: &mut Vec<u8>,
    names: &mut Vec<&'static str>,
) {
    tags.clear();
    names.clear();
    let mut seen: Vec<Option<Tag>> = Vec::new();
    for n in nodes {
        let tag = heap.tag_at(addresses.get(n as u32)).ok().map(|(t, _)| t);
        // A short scan: a heap has a few dozen tags at most (an u8 is plenty).
        let at = match seen.iter().position(|&t| t == tag) {
            Some(at) => at,
            None => {
                seen.push(tag);
                names.push(tag.map_or("?", |t| t.name()));
                seen.len() - 1
            }
        };
        tags.push(at as u8);
    }
}

/// The rows of `edges`, [`ROW_GROUP_ROWS`] edges per row group, streamed from the objects'
/// references read from `heap`'s image (the analysis keeps no edge arrays).
fn add_edges(
    table: &mut Table,
    name: &[u8],
    a: &HeapAnalysis,
    heap: &Heap,
    addresses: &Addresses<'_>,
) -> Result<(), ExportError> {
    let edges = ImageEdges::new(a.graph(), heap);
    // Counted by the analysis; every row group below is filled exactly (a read-only image
    // gives the same edges every time).
    let total = usize::try_from(a.graph().edge_count().unwrap_or(0)).unwrap_or(usize::MAX);
    let mut at = EdgeCursor::default();
    for first in (0..total).step_by(ROW_GROUP_ROWS) {
        let rows = ROW_GROUP_ROWS.min(total - first);
        let start = at;
        let mut end = start.clone();
        table.row_group(rows, |c, chunk| {
            let mut cursor = start.clone();
            let chunk = match c {
                0 => chunk.constant_text(rows, name),
                1 => chunk.increasing_ints(rows, |_| i(addresses.get(cursor.next(&edges).0))),
                _ => chunk.ints(rows, |_| i(addresses.get(cursor.next(&edges).1))),
            };
            end = cursor;
            chunk
        })?;
        at = end;
    }
    Ok(())
}

/// A position in the graph's edges: the source node with its successors (read from the
/// image once per node) and the position among them.
#[derive(Debug, Clone, Default)]
struct EdgeCursor {
    /// The next node to read.
    next_node: u32,
    source: u32,
    targets: Vec<u32>,
    at: usize,
}

impl EdgeCursor {
    /// The edge here (source, target), and moves past it; only called while edges are left
    /// (the count is the image's own, so it never runs past the last node; if it did, it
    /// would repeat the last source rather than read beyond the nodes).
    #[inline]
    fn next(&mut self, edges: &ImageEdges<'_>) -> (u32, u32) {
        while self.at == self.targets.len() {
            if self.next_node as usize >= edges.node_count() {
                return (self.source, self.source);
            }
            self.source = self.next_node;
            self.next_node += 1;
            self.targets.clear();
            self.at = 0;
            let targets = &mut self.targets;
            edges.for_each(self.source, |w| targets.push(w));
        }
        let target = self.targets[self.at];
        self.at += 1;
        (self.source, target)
    }
}
