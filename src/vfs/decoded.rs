//! The decoded content of a snapshot, behind small traits implemented over the heap
//! decoder (`crate::heap`); the tree presents whatever implements them.

use super::error::{DecodeFailure, VfsError};
use std::path::Path;
use std::sync::Arc;

/// Values with their names: stable variables, record fields, elements by index.
pub type NamedValues = Vec<(String, Arc<dyn ValueNode>)>;

/// Opens the decoded view of a snapshot directory. Opening must be cheap (read headers,
/// the module and the root set; never walk the whole heap).
pub trait Decoder: Send + Sync {
    /// The decoded view of the snapshot in `dir`, or why it cannot be decoded.
    fn open(&self, dir: &Path) -> Result<Arc<dyn DecodedSnapshot>, VfsError>;
}

/// The decoded content of one snapshot, each part produced on demand.
pub trait DecodedSnapshot: Send + Sync {
    /// `info.json`: layout, compiler, GC, sizes, object counts (valid JSON).
    fn info_json(&self) -> Result<Vec<u8>, VfsError>;
    /// `stats.json`: objects and bytes per tag (valid JSON).
    fn stats_json(&self) -> Result<Vec<u8>, VfsError>;
    /// The stable variables, by name, in the order `mo-mem vars` lists them.
    fn vars(&self) -> Result<NamedValues, VfsError>;
    /// The heap objects.
    fn objects(&self) -> Result<Arc<dyn ObjectSource>, VfsError>;
    /// The files of `analysis/` (see [`super::analysis_dir`]); none by default, and then
    /// the snapshot has no `analysis/` directory.
    fn analysis_files(&self) -> &'static [&'static str] {
        &[]
    }
    /// `analysis/NAME`, one of [`DecodedSnapshot::analysis_files`].
    fn analysis_file(&self, name: &str) -> Result<Vec<u8>, VfsError> {
        Err(VfsError::NotFound(format!("analysis/{name}")))
    }
    /// What an unfinished download served anyway (`--force`) is missing, for the README;
    /// `None` for a finished snapshot.
    fn incomplete(&self) -> Option<String> {
        None
    }
}

/// One decoded value: a scalar (shown as a file) or a compound (shown as a directory).
pub trait ValueNode: Send + Sync {
    /// Whether the value is compound (record, tuple, array, option, variant, map-like).
    fn is_compound(&self) -> bool;
    /// The parts of a compound value: fields by name, elements by index (`"0"`, `"1"`, ...);
    /// empty for a scalar.
    fn children(&self) -> Result<NamedValues, VfsError>;
    /// The value as JSON, exactly as `mo-mem vars --format json` prints it (no newline).
    fn json(&self) -> Result<Vec<u8>, VfsError>;
    /// The value's `debug_show` text, as the canister would print it (no newline).
    fn debug_show(&self) -> Result<Vec<u8>, VfsError>;
    /// Whether the value is a collection shown by its natural view (a map by its keys, a
    /// set or list by position); its structure is then [`ValueNode::raw_json`].
    fn is_collection(&self) -> bool {
        false
    }
    /// The value's own structure as JSON (`mo-mem vars --format json --raw`); the same as
    /// [`ValueNode::json`] for a value that is no collection.
    fn raw_json(&self) -> Result<Vec<u8>, VfsError> {
        self.json()
    }
    /// The number of parts, when the value lists them a range at a time (a collection,
    /// counted by walking its structure without decoding its entries); `None`: the parts
    /// are [`ValueNode::children`].
    fn part_count(&self) -> Result<Option<usize>, VfsError> {
        Ok(None)
    }
    /// Parts `start..end` by position, named as [`ValueNode::children`] names them.
    fn parts(&self, start: usize, end: usize) -> Result<NamedValues, VfsError> {
        let mut all = self.children()?;
        all.truncate(end);
        Ok(all.split_off(start.min(all.len())))
    }
    /// The part named `name` among positions `start..end`, found without listing them (a
    /// map's entry by its key, descending the map), when the value can; `None`: list them.
    fn find_part(
        &self,
        name: &str,
        start: usize,
        end: usize,
    ) -> Result<Option<Arc<dyn ValueNode>>, VfsError> {
        let _ = (name, start, end);
        Ok(None)
    }
    /// Writes [`ValueNode::json`] (`natural`) or [`ValueNode::raw_json`] to `out`, read
    /// from the heap as it is written where the value can (a huge value is never held whole).
    fn write_json(&self, natural: bool, out: &mut dyn std::io::Write) -> Result<(), VfsError> {
        let bytes = if natural {
            self.json()?
        } else {
            self.raw_json()?
        };
        out.write_all(&bytes)
            .map_err(|e| VfsError::io("a value's rendering", e))
    }
    /// A smaller value with the same [`ValueNode::json`] and [`ValueNode::debug_show`], for
    /// the file showing this value when it is a scalar to keep instead of it (a listing of a
    /// map's 1000 scalar entries keeps one per entry for as long as the kernel holds their
    /// inodes); `None`: keep this one.
    fn scalar_file_value(&self) -> Option<Arc<dyn ValueNode>> {
        None
    }
    /// Writes [`ValueNode::debug_show`] to `out`, streamed as [`ValueNode::write_json`].
    fn write_debug_show(&self, out: &mut dyn std::io::Write) -> Result<(), VfsError> {
        let bytes = self.debug_show()?;
        out.write_all(&bytes)
            .map_err(|e| VfsError::io("a value's rendering", e))
    }
}

/// The objects of a heap, by address.
pub trait ObjectSource: Send + Sync {
    /// Calls `visit` with the address of every object at or after `from` (which is 0 or
    /// the address of an object), in ascending order, until `visit` returns false.
    fn visit_from(&self, from: u64, visit: &mut dyn FnMut(u64) -> bool) -> Result<(), VfsError>;
    /// The object at `addr` as JSON: tag, size, fields, references by address.
    fn object_json(&self, addr: u64) -> Result<Vec<u8>, VfsError>;
    /// Hex digits of an address: 8 for 32-bit heaps, 16 for 64-bit heaps.
    fn address_digits(&self) -> usize;
    /// The address of the first object of every block of `2^block_bits` bytes holding the
    /// start of an object, ascending, if known without a walk of its own (from the walk
    /// the snapshot's statistics made); `None` lets the caller walk with
    /// [`ObjectSource::visit_from`].
    fn block_starts(&self, block_bits: u32) -> Option<Arc<[u64]>> {
        let _ = block_bits;
        None
    }
}

/// A decoder that decodes nothing: snapshots show raw files only.
pub struct NoDecoder;

impl Decoder for NoDecoder {
    fn open(&self, _dir: &Path) -> Result<Arc<dyn DecodedSnapshot>, VfsError> {
        Err(VfsError::decode("the snapshot", DecodeFailure::NoDecoder))
    }
}

/// Appends a newline to generated text that lacks one.
pub(crate) fn with_newline(mut bytes: Vec<u8>) -> Vec<u8> {
    if !bytes.ends_with(b"\n") {
        bytes.push(b'\n');
    }
    bytes
}
