//! [`Snapshot`]: the images of one canister snapshot, memory-mapped.

use std::path::{Path, PathBuf};

use super::download::Unfinished;
use super::metadata::{GlobalValue, SnapshotMetadata};
use super::{OpenOptions, SnapshotError};
use crate::image::Image;
use std::sync::Arc;

/// Where a snapshot came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SnapshotKind {
    /// An icp-cli/dfx snapshot directory.
    Directory,
    /// A bare main-memory image file (`.momm`), optionally with a module.
    BareImage,
    /// Built in memory (tests, fuzzing, the runtime).
    InMemory,
}

/// One canister snapshot: main memory, optional stable memory, optional module, globals.
#[derive(Debug)]
pub struct Snapshot {
    pub(crate) path: PathBuf,
    pub(crate) kind: SnapshotKind,
    pub(crate) memory: Image,
    pub(crate) stable: Option<Image>,
    pub(crate) module: Option<Image>,
    pub(crate) globals: Option<Vec<GlobalValue>>,
    pub(crate) metadata: Option<SnapshotMetadata>,
    pub(crate) unfinished: Option<Arc<Unfinished>>,
}

impl Snapshot {
    /// Opens `path`: a snapshot directory (`metadata.json`, `wasm_module.bin` (maybe gzip'ed),
    /// `wasm_memory.bin`, `stable_memory.bin`) or a bare main-memory image file.
    /// A directory a download tool is still writing, or has not finished, is refused
    /// ([`SnapshotError::BeingWritten`], [`SnapshotError::Unfinished`]).
    pub fn open(path: &Path) -> Result<Snapshot, SnapshotError> {
        super::open::open(path, OpenOptions::default())
    }

    /// [`Snapshot::open`] under `options` (`allow_unfinished`: read an unfinished download,
    /// marked by [`Snapshot::unfinished`]).
    pub fn open_with(path: &Path, options: OpenOptions) -> Result<Snapshot, SnapshotError> {
        super::open::open(path, options)
    }

    /// Opens a bare main-memory image file with an optional module file and optional globals.
    pub fn open_image(
        memory: &Path,
        wasm: Option<&Path>,
        globals: Option<Vec<GlobalValue>>,
    ) -> Result<Snapshot, SnapshotError> {
        super::open::open_image(memory, wasm, globals)
    }

    /// A snapshot from images already in memory (owned, shared or mapped), checked like a
    /// directory: `metadata_json` (if given) is parsed and the sizes are compared; the module
    /// may be gzip'ed. The way to open many variants of one snapshot without copying the
    /// parts they share.
    pub fn from_images(
        metadata_json: Option<&[u8]>,
        module: Option<Image>,
        memory: Image,
        stable: Option<Image>,
    ) -> Result<Snapshot, SnapshotError> {
        super::open::from_images(metadata_json, module, memory, stable)
    }

    /// A snapshot from in-memory parts, checked like a directory: `metadata_json` (if given) is
    /// parsed and the sizes are compared; the module may be gzip'ed.
    pub fn from_parts(
        metadata_json: Option<&[u8]>,
        module: Option<Vec<u8>>,
        memory: Vec<u8>,
        stable: Option<Vec<u8>>,
    ) -> Result<Snapshot, SnapshotError> {
        super::open::from_parts(metadata_json, module, memory, stable)
    }

    /// Replaces the mutable globals (e.g. a fixture's `_HP` for an image built in memory).
    pub fn with_globals(mut self, globals: Vec<GlobalValue>) -> Snapshot {
        self.globals = Some(globals);
        self
    }

    /// The path it was opened from (empty for in-memory snapshots).
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Where it came from.
    pub fn kind(&self) -> &SnapshotKind {
        &self.kind
    }

    /// The main memory (`wasm_memory.bin`).
    pub fn memory(&self) -> &Image {
        &self.memory
    }

    /// The main memory, mutably (to set the word size once the layout is known).
    pub fn memory_mut(&mut self) -> &mut Image {
        &mut self.memory
    }

    /// Gives the main memory back (e.g. to reuse an owned buffer).
    pub fn into_memory(self) -> Image {
        self.memory
    }

    /// The stable memory, if present.
    pub fn stable_memory(&self) -> Option<&Image> {
        self.stable.as_ref()
    }

    /// The Wasm module bytes (decompressed), if present.
    pub fn module(&self) -> Option<&[u8]> {
        self.module.as_ref().map(Image::as_slice)
    }

    /// The mutable globals in index order, if known.
    pub fn globals(&self) -> Option<&[GlobalValue]> {
        self.globals.as_deref()
    }

    /// What an unfinished download (read with `allow_unfinished`) is missing; `None` for a
    /// finished one.
    pub fn unfinished(&self) -> Option<&Unfinished> {
        self.unfinished.as_deref()
    }

    /// The parsed `metadata.json`, if any.
    pub fn metadata(&self) -> Option<&SnapshotMetadata> {
        self.metadata.as_ref()
    }
}
