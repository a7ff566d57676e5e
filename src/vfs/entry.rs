//! What a node of the tree is: a lazily listed directory, a generated file, a raw file
//! served from its source, a symbolic link or a control file.

use super::control::ControlNode;
use super::error::VfsError;
use super::raw::RawFile;
use std::sync::Arc;

/// A directory whose children are produced when it is first listed or looked into.
pub trait DirSource: Send + Sync {
    /// The children, in the order they are listed; names are unique and valid file names.
    fn list(&self) -> Result<Vec<(String, Entry)>, VfsError>;

    /// Whether the children may change while served (re-listed on every listing).
    fn is_dynamic(&self) -> bool {
        false
    }

    /// A child that is not listed but answers a lookup by name (`diff/OLD..NEW`), if
    /// `name` is one; none by default.
    fn lookup_unlisted(&self, _name: &str) -> Result<Option<Entry>, VfsError> {
        Ok(None)
    }

    /// The listed child `name`, found without listing the directory (a map's entry by its
    /// key), when the source can; `None`: the tree lists the directory. The entry must be the
    /// one the listing would give under that name.
    fn find(&self, _name: &str) -> Result<Option<Entry>, VfsError> {
        Ok(None)
    }
}

/// A file whose bytes are generated on first access (deterministically: the same bytes
/// every time, so its size is known once it has been generated).
pub trait FileSource: Send + Sync {
    /// Produces the file's whole content.
    fn render(&self) -> Result<Vec<u8>, VfsError>;

    /// Writes the file's whole content to `out` (the same bytes as [`FileSource::render`]);
    /// a file that [`FileSource::streams`] writes it as it is produced, never held whole.
    fn render_to(&self, out: &mut dyn std::io::Write) -> Result<(), VfsError> {
        let bytes = self.render()?;
        out.write_all(&bytes)
            .map_err(|e| VfsError::io("a generated file", e))
    }

    /// Whether [`FileSource::render_to`] streams (the tree then renders into a file on
    /// disk once the content passes its memory threshold, never into one buffer).
    fn streams(&self) -> bool {
        false
    }
}

/// One node's content, as its parent directory lists it.
#[derive(Clone)]
pub enum Entry {
    /// A directory, listed lazily.
    Dir(Arc<dyn DirSource>),
    /// A generated file.
    File(Arc<dyn FileSource>),
    /// A file served straight from a source file on disk.
    Raw(Arc<RawFile>),
    /// A symbolic link to the given relative target.
    Symlink(String),
    /// A control file (`eval`): write a request, read the answer.
    Control(Arc<ControlNode>),
}

/// The kind of a node, as `stat` reports it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NodeKind {
    /// A directory.
    Dir,
    /// A regular (read-only) file.
    File,
    /// A symbolic link.
    Symlink,
    /// A control file: a writable regular file of size 0 read with direct I/O.
    Control,
}

impl Entry {
    /// The kind of node this entry makes.
    pub fn kind(&self) -> NodeKind {
        match self {
            Entry::Dir(_) => NodeKind::Dir,
            Entry::File(_) | Entry::Raw(_) => NodeKind::File,
            Entry::Symlink(_) => NodeKind::Symlink,
            Entry::Control(_) => NodeKind::Control,
        }
    }
}

/// A generated file holding fixed bytes (used for small static texts).
pub struct StaticFile(pub Vec<u8>);

impl FileSource for StaticFile {
    fn render(&self) -> Result<Vec<u8>, VfsError> {
        Ok(self.0.clone())
    }
}

/// A generated file produced by a closure.
pub struct FnFile<F>(pub F);

impl<F> FileSource for FnFile<F>
where
    F: Fn() -> Result<Vec<u8>, VfsError> + Send + Sync,
{
    fn render(&self) -> Result<Vec<u8>, VfsError> {
        (self.0)()
    }
}

/// A generated file written by a closure into a sink, as it is produced (a huge value's
/// rendering: see [`FileSource::streams`]).
pub struct StreamFile<F>(pub F);

impl<F> FileSource for StreamFile<F>
where
    F: Fn(&mut dyn std::io::Write) -> Result<(), VfsError> + Send + Sync,
{
    fn render(&self) -> Result<Vec<u8>, VfsError> {
        let mut out = Vec::new();
        (self.0)(&mut out)?;
        Ok(out)
    }

    fn render_to(&self, out: &mut dyn std::io::Write) -> Result<(), VfsError> {
        (self.0)(out)
    }

    fn streams(&self) -> bool {
        true
    }
}

/// A directory with a fixed list of children.
pub struct StaticDir(pub Vec<(String, Entry)>);

impl DirSource for StaticDir {
    fn list(&self) -> Result<Vec<(String, Entry)>, VfsError> {
        Ok(self.0.clone())
    }
}

/// A directory whose listing is produced by a closure.
pub struct FnDir<F>(pub F);

impl<F> DirSource for FnDir<F>
where
    F: Fn() -> Result<Vec<(String, Entry)>, VfsError> + Send + Sync,
{
    fn list(&self) -> Result<Vec<(String, Entry)>, VfsError> {
        (self.0)()
    }
}
