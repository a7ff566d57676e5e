//! A [`HeapAnalysis`] as bytes and back: what it keeps (the graph without its edge arrays,
//! the dominators and retained sizes, the variables' figures, the type labels, the
//! per-type figures and the shortest paths from the roots) encoded with postcard, its
//! large arrays as raw bytes in the machine's byte order ([`super::pod`]). Decoding checks every
//! part is consistent with the others before any of it is used. Not a file format by
//! itself: `serve::analysis_index` keeps these bytes in files, versioned, keyed to the
//! snapshot's files and authenticated.

use std::io::Write;

use super::cached::{HeapAnalysis, TypeRow};
use super::concurrent::both;
use super::path::Paths;
use super::retained::{Analysis, VarRetention};
use super::types::TypeLabels;
use super::OpenedHeap;

/// The encoding's version: raised whenever a persisted structure changes.
pub const FORMAT: u32 = 2;

/// The byte order of the arrays (`"little"` or `"big"`); bytes of another are refused.
pub const ENDIAN: &str = if cfg!(target_endian = "little") {
    "little"
} else {
    "big"
};

/// Why an analysis could not be encoded or decoded.
#[derive(Debug, thiserror::Error)]
pub enum PersistError {
    /// Writing the bytes failed.
    #[error("cannot write the analysis: {0}")]
    Write(String),
    /// The bytes are not an encoded analysis.
    #[error("the analysis does not decode: {0}")]
    Decode(String),
    /// The bytes decode, but the parts do not agree with each other.
    #[error("the analysis is inconsistent: {0}")]
    Inconsistent(String),
}

/// The parts read back, in [`super::cached::Persisted`]'s order.
#[derive(serde::Deserialize)]
struct Parts {
    core: Analysis,
    vars: Vec<VarRetention>,
    labels: TypeLabels,
    types: Vec<TypeRow>,
    paths: Paths,
}

/// Writes `a`, the analysis of `opened`, to `out` (the per-type figures computed and the
/// path search finished first, if they were not yet). Nothing is copied: the arrays go out as they are in memory.
pub fn encode(a: &HeapAnalysis, opened: &OpenedHeap, out: impl Write) -> Result<(), PersistError> {
    postcard::to_io(&a.parts(opened), out)
        .map(|_| ())
        .map_err(|e| PersistError::Write(e.to_string()))
}

/// Reads back an analysis [`encode`] wrote, checked for consistency (on two threads if
/// `threads` is 2 or more); allocations are bounded by the bytes' length (a length in them
/// beyond their end is an error).
pub fn decode(bytes: &[u8], threads: usize) -> Result<HeapAnalysis, PersistError> {
    let (parts, rest): (Parts, &[u8]) =
        postcard::take_from_bytes(bytes).map_err(|e| PersistError::Decode(e.to_string()))?;
    if !rest.is_empty() {
        return Err(PersistError::Decode(format!(
            "{} bytes after the analysis",
            rest.len()
        )));
    }
    // The node count is the index's own (checked with the index).
    let nodes = parts.core.graph().nodes();
    let core = || {
        parts.core.graph().check_without_edges()?;
        parts.core.dominators().check(nodes)
    };
    let rest = || {
        parts.labels.check(nodes)?;
        parts.paths.check(nodes)
    };
    let (core, rest) = both(threads, core, rest);
    core.and(rest).map_err(PersistError::Inconsistent)?;
    Ok(HeapAnalysis::from_parts(
        parts.core,
        parts.vars,
        parts.labels,
        parts.types,
        parts.paths,
    ))
}
