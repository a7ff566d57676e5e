//! The tree of nodes: stable inode numbers, lazily listed directories, generated files
//! cached within a byte budget, raw files read in ranges, control files per session.

use super::cache::ContentCache;
use super::control::{ControlHandle, ControlNode, SessionId};
use super::entry::{Entry, NodeKind};
use super::error::VfsError;
use super::names::is_valid_name;
use super::raw::RawFile;
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock, RwLock};

/// An inode number; stable for as long as the tree lives.
pub type Ino = u64;

/// The inode number of the root directory.
pub const ROOT_INO: Ino = 1;

/// Limits of a tree.
#[derive(Clone, Copy, Debug)]
pub struct TreeConfig {
    /// Bytes of generated content kept cached (least recently used evicted first).
    pub cache_budget: usize,
    /// The largest generated file, in bytes; larger ones fail with `EFBIG`.
    pub max_file_size: usize,
}

impl Default for TreeConfig {
    fn default() -> Self {
        TreeConfig {
            cache_budget: 64 << 20,
            max_file_size: 1 << 30,
        }
    }
}

/// The attributes of a node, as `stat` reports them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Attr {
    /// The inode number.
    pub ino: Ino,
    /// What the node is.
    pub kind: NodeKind,
    /// The exact size in bytes (0 for directories and control files).
    pub size: u64,
    /// The node may change or vanish while served (control files, store listings):
    /// front-ends must not cache it for long.
    pub volatile: bool,
}

/// One child in a directory listing.
#[derive(Clone, Debug)]
pub struct Child {
    /// The file name.
    pub name: Arc<str>,
    /// Its inode number.
    pub ino: Ino,
    /// What it is.
    pub kind: NodeKind,
}

/// How an open file is to be read by the kernel.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OpenInfo {
    /// The handle to pass to read, write, flush and release.
    pub fh: u64,
    /// Content may change between opens (control files): bypass the page cache.
    pub direct_io: bool,
}

/// Bytes returned by a read: a range of a generated file or of a mapped raw file.
pub enum ReadBytes {
    /// A range of generated or answered content.
    Shared(Arc<[u8]>, usize, usize),
    /// A range of a raw source file.
    Raw(Arc<RawFile>, u64, usize),
}

impl ReadBytes {
    /// The bytes read.
    pub fn as_slice(&self) -> &[u8] {
        match self {
            ReadBytes::Shared(content, start, end) => content.get(*start..*end).unwrap_or(&[]),
            ReadBytes::Raw(file, offset, len) => file.read_at(*offset, *len).unwrap_or(&[]),
        }
    }
}

struct Node {
    parent: Ino,
    name: Arc<str>,
    entry: Entry,
    volatile: bool,
    size: OnceLock<u64>,
    render_lock: Mutex<()>,
    children: Mutex<Option<Arc<Children>>>,
}

#[derive(Default)]
struct Children {
    list: Vec<Child>,
    by_name: HashMap<Arc<str>, Ino>,
}

enum Handle {
    Content(Arc<[u8]>),
    Raw(Arc<RawFile>),
    Control(Arc<ControlNode>, Arc<Mutex<ControlHandle>>),
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

/// The virtual file tree: what the mount and `mo-mem ls/cat/tree` show.
pub struct Tree {
    nodes: RwLock<Vec<Arc<Node>>>,
    cache: ContentCache,
    config: TreeConfig,
    handles: Mutex<HashMap<u64, Handle>>,
    next_fh: AtomicU64,
}

impl Tree {
    /// A tree whose root directory is `root` (which must be a directory entry).
    pub fn new(root: Entry, config: TreeConfig) -> Result<Tree, VfsError> {
        if root.kind() != NodeKind::Dir {
            return Err(VfsError::NotADirectory("the root of a tree".into()));
        }
        let root = Node {
            parent: ROOT_INO,
            name: Arc::from(""),
            entry: root,
            volatile: false,
            size: OnceLock::new(),
            render_lock: Mutex::new(()),
            children: Mutex::new(None),
        };
        Ok(Tree {
            nodes: RwLock::new(vec![Arc::new(root)]),
            cache: ContentCache::new(config.cache_budget),
            config,
            handles: Mutex::new(HashMap::new()),
            next_fh: AtomicU64::new(1),
        })
    }

    fn node(&self, ino: Ino) -> Result<Arc<Node>, VfsError> {
        let index = ino
            .checked_sub(1)
            .and_then(|i| usize::try_from(i).ok())
            .ok_or_else(|| VfsError::NotFound(format!("inode {ino}")))?;
        let nodes = self.nodes.read().unwrap_or_else(|p| p.into_inner());
        nodes
            .get(index)
            .cloned()
            .ok_or_else(|| VfsError::NotFound(format!("inode {ino}")))
    }

    /// The path of a node from the root, for messages (`/` for the root).
    pub fn path_of(&self, ino: Ino) -> String {
        let mut parts = Vec::new();
        let mut current = ino;
        while current != ROOT_INO && parts.len() < 4096 {
            let Ok(node) = self.node(current) else { break };
            parts.push(node.name.clone());
            current = node.parent;
        }
        parts.reverse();
        format!("/{}", parts.join("/"))
    }

    /// The parent directory of `ino` (the root is its own parent).
    pub fn parent(&self, ino: Ino) -> Result<Ino, VfsError> {
        Ok(self.node(ino)?.parent)
    }

    /// The children of a directory, listing it on first use (and on every call with
    /// `refresh` for directories whose content may change).
    pub fn children(&self, ino: Ino, refresh: bool) -> Result<Vec<Child>, VfsError> {
        Ok(self.children_of(ino, refresh)?.list.clone())
    }

    fn children_of(&self, ino: Ino, refresh: bool) -> Result<Arc<Children>, VfsError> {
        let node = self.node(ino)?;
        let Entry::Dir(source) = &node.entry else {
            return Err(VfsError::NotADirectory(self.path_of(ino)));
        };
        let mut slot = lock(&node.children);
        if let Some(children) = slot.as_ref() {
            if !(refresh && source.is_dynamic()) {
                return Ok(children.clone());
            }
        }
        let listing = source.list()?;
        let dynamic = source.is_dynamic();
        let previous = slot.clone().unwrap_or_default();
        let mut children = Children::default();
        let mut nodes = self.nodes.write().unwrap_or_else(|p| p.into_inner());
        for (name, entry) in listing {
            if !is_valid_name(&name) || children.by_name.contains_key(name.as_str()) {
                tracing::warn!(dir = %self.path_of_locked(&nodes, ino), name = %name.escape_debug(), "skipping an invalid or duplicate name");
                continue;
            }
            let name: Arc<str> = Arc::from(name);
            let kind = entry.kind();
            let child_ino = match previous.by_name.get(&name) {
                Some(existing) => *existing,
                None => {
                    nodes.push(Arc::new(Node {
                        parent: ino,
                        name: name.clone(),
                        volatile: dynamic || kind == NodeKind::Control,
                        entry,
                        size: OnceLock::new(),
                        render_lock: Mutex::new(()),
                        children: Mutex::new(None),
                    }));
                    nodes.len() as Ino
                }
            };
            children.by_name.insert(name.clone(), child_ino);
            children.list.push(Child {
                name,
                ino: child_ino,
                kind,
            });
        }
        drop(nodes);
        let children = Arc::new(children);
        *slot = Some(children.clone());
        Ok(children)
    }

    fn path_of_locked(&self, nodes: &[Arc<Node>], ino: Ino) -> String {
        let mut parts = Vec::new();
        let mut current = ino;
        while current != ROOT_INO && parts.len() < 4096 {
            let Some(node) = nodes.get((current - 1) as usize) else {
                break;
            };
            parts.push(node.name.clone());
            current = node.parent;
        }
        parts.reverse();
        format!("/{}", parts.join("/"))
    }

    /// The child `name` of directory `parent`, if it exists.
    pub fn lookup_ino(&self, parent: Ino, name: &str) -> Result<Ino, VfsError> {
        match name {
            "." => return Ok(parent),
            ".." => return self.parent(parent),
            _ => {}
        }
        let children = self.children_of(parent, false)?;
        if let Some(ino) = children.by_name.get(name) {
            return Ok(*ino);
        }
        let children = self.children_of(parent, true)?;
        children.by_name.get(name).copied().ok_or_else(|| {
            let mut path = self.path_of(parent);
            if !path.ends_with('/') {
                path.push('/');
            }
            path.push_str(name);
            VfsError::NotFound(path)
        })
    }

    /// Looks `name` up in `parent` and returns its exact attributes (generating the file if
    /// its size is not known yet).
    pub fn lookup(&self, parent: Ino, name: &str) -> Result<Attr, VfsError> {
        let ino = self.lookup_ino(parent, name)?;
        self.getattr(ino)
    }

    /// The exact attributes of a node, generating a file whose size is not known yet.
    pub fn getattr(&self, ino: Ino) -> Result<Attr, VfsError> {
        let node = self.node(ino)?;
        if let Some(attr) = Self::known_attr(ino, &node) {
            return Ok(attr);
        }
        let content = self.content(ino, &node)?;
        Ok(Attr {
            ino,
            kind: NodeKind::File,
            size: content.len() as u64,
            volatile: node.volatile,
        })
    }

    /// The attributes of a node if known without generating anything.
    pub fn known_attr_of(&self, ino: Ino) -> Option<Attr> {
        let node = self.node(ino).ok()?;
        Self::known_attr(ino, &node)
    }

    fn known_attr(ino: Ino, node: &Node) -> Option<Attr> {
        let kind = node.entry.kind();
        let size = match &node.entry {
            Entry::Dir(_) | Entry::Control(_) => 0,
            Entry::Raw(raw) => raw.size(),
            Entry::Symlink(target) => target.len() as u64,
            Entry::File(_) => *node.size.get()?,
        };
        Some(Attr {
            ino,
            kind,
            size,
            volatile: node.volatile,
        })
    }

    fn content(&self, ino: Ino, node: &Node) -> Result<Arc<[u8]>, VfsError> {
        if let Some(content) = self.cache.get(ino) {
            return Ok(content);
        }
        let Entry::File(source) = &node.entry else {
            return Err(VfsError::InvalidArgument(format!(
                "{} is not a generated file",
                self.path_of(ino)
            )));
        };
        let _rendering = lock(&node.render_lock);
        if let Some(content) = self.cache.get(ino) {
            return Ok(content);
        }
        let bytes = source.render()?;
        if bytes.len() > self.config.max_file_size {
            return Err(VfsError::TooLarge(format!(
                "{} would be {} bytes, over the limit of {} bytes",
                self.path_of(ino),
                bytes.len(),
                self.config.max_file_size
            )));
        }
        let content: Arc<[u8]> = bytes.into();
        let size = *node.size.get_or_init(|| content.len() as u64);
        if size != content.len() as u64 {
            tracing::error!(path = %self.path_of(ino), size, now = content.len(), "generated file changed size between renders");
        }
        self.cache.insert(ino, content.clone());
        Ok(content)
    }

    /// The target of a symbolic link.
    pub fn readlink(&self, ino: Ino) -> Result<String, VfsError> {
        match &self.node(ino)?.entry {
            Entry::Symlink(target) => Ok(target.clone()),
            _ => Err(VfsError::InvalidArgument(format!(
                "{} is not a symbolic link",
                self.path_of(ino)
            ))),
        }
    }

    /// Opens a file; `write` asks for write access (only control files grant it).
    pub fn open(&self, ino: Ino, write: bool, session: SessionId) -> Result<OpenInfo, VfsError> {
        let node = self.node(ino)?;
        let (handle, direct_io) = match &node.entry {
            Entry::Dir(_) => return Err(VfsError::IsADirectory(self.path_of(ino))),
            Entry::Symlink(_) => {
                return Err(VfsError::InvalidArgument(format!(
                    "{} is a symbolic link",
                    self.path_of(ino)
                )))
            }
            Entry::Control(control) => (
                Handle::Control(control.clone(), Arc::new(Mutex::new(control.open(session)))),
                true,
            ),
            _ if write => return Err(VfsError::ReadOnly(self.path_of(ino))),
            Entry::Raw(raw) => (Handle::Raw(raw.clone()), false),
            Entry::File(_) => (Handle::Content(self.content(ino, &node)?), false),
        };
        let fh = self.next_fh.fetch_add(1, Ordering::Relaxed);
        lock(&self.handles).insert(fh, handle);
        Ok(OpenInfo { fh, direct_io })
    }

    fn handle(&self, fh: u64) -> Result<HandleRef, VfsError> {
        let handles = lock(&self.handles);
        match handles.get(&fh) {
            Some(Handle::Content(c)) => Ok(HandleRef::Content(c.clone())),
            Some(Handle::Raw(r)) => Ok(HandleRef::Raw(r.clone())),
            Some(Handle::Control(n, h)) => Ok(HandleRef::Control(n.clone(), h.clone())),
            None => Err(VfsError::InvalidArgument(format!(
                "no open file handle {fh}"
            ))),
        }
    }

    /// Reads up to `len` bytes at `offset` through an open handle.
    pub fn read(&self, fh: u64, offset: u64, len: usize) -> Result<ReadBytes, VfsError> {
        let content = match self.handle(fh)? {
            HandleRef::Raw(raw) => {
                raw.read_at(offset, len)?;
                return Ok(ReadBytes::Raw(raw, offset, len));
            }
            HandleRef::Content(content) => content,
            HandleRef::Control(node, handle) => node.answer(&mut lock(&handle))?,
        };
        let start = usize::try_from(offset)
            .unwrap_or(usize::MAX)
            .min(content.len());
        let end = start.saturating_add(len).min(content.len());
        Ok(ReadBytes::Shared(content, start, end))
    }

    /// Writes through an open handle (control files only).
    pub fn write(
        &self,
        fh: u64,
        offset: u64,
        data: &[u8],
        more_may_follow: bool,
    ) -> Result<usize, VfsError> {
        match self.handle(fh)? {
            HandleRef::Control(node, handle) => {
                node.write(&mut lock(&handle), offset, data, more_may_follow)
            }
            _ => Err(VfsError::ReadOnly(format!("file handle {fh}"))),
        }
    }

    /// Flushes an open handle: reports a deferred control-file error.
    pub fn flush(&self, fh: u64) -> Result<(), VfsError> {
        match self.handle(fh)? {
            HandleRef::Control(node, handle) => node.flush(&mut lock(&handle)),
            _ => Ok(()),
        }
    }

    /// Closes an open handle.
    pub fn release(&self, fh: u64) {
        lock(&self.handles).remove(&fh);
    }

    /// The number of nodes created so far.
    pub fn node_count(&self) -> usize {
        self.nodes.read().unwrap_or_else(|p| p.into_inner()).len()
    }

    /// Resolves a `/`-separated path from the root (`""`, `/` and `.` are the root).
    pub fn resolve(&self, path: &str) -> Result<Ino, VfsError> {
        let mut ino = ROOT_INO;
        for part in path.split('/').filter(|p| !p.is_empty()) {
            ino = self.lookup_ino(ino, part)?;
        }
        Ok(ino)
    }

    /// The whole content of a file (raw, generated or a control file's answer).
    pub fn read_all(&self, ino: Ino) -> Result<Vec<u8>, VfsError> {
        let node = self.node(ino)?;
        match &node.entry {
            Entry::Dir(_) => Err(VfsError::IsADirectory(self.path_of(ino))),
            Entry::Symlink(target) => Ok(target.clone().into_bytes()),
            Entry::Raw(raw) => {
                let len = usize::try_from(raw.size())
                    .map_err(|_| VfsError::TooLarge(self.path_of(ino)))?;
                Ok(raw.read_at(0, len)?.to_vec())
            }
            Entry::File(_) => Ok(self.content(ino, &node)?.to_vec()),
            Entry::Control(control) => {
                let mut handle = control.open(SessionId(0));
                Ok(control.answer(&mut handle)?.to_vec())
            }
        }
    }
}

enum HandleRef {
    Content(Arc<[u8]>),
    Raw(Arc<RawFile>),
    Control(Arc<ControlNode>, Arc<Mutex<ControlHandle>>),
}
