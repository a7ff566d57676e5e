//! The tree of nodes: stable inode numbers, lazily listed directories, generated files
//! cached within a byte budget, raw files read in ranges, control files per session.

use super::cache::ContentCache;
use super::caller::IntoCaller;
use super::control::{ControlHandle, ControlNode, SessionId};
use super::entry::{Entry, FileSource, NodeKind};
use super::error::VfsError;
use super::names::is_valid_name;
use super::raw::RawFile;
use super::spill::{release_free_memory, Content, SpillFile, SpillSink};
use std::collections::{HashMap, VecDeque};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock, RwLock};
use std::time::{Duration, Instant};

/// An inode number; stable for as long as the tree lives.
pub type Ino = u64;

/// The inode number of the root directory.
pub const ROOT_INO: Ino = 1;

/// Limits of a tree.
#[derive(Clone, Copy, Debug)]
pub struct TreeConfig {
    /// Bytes of generated content kept cached in memory (least recently used evicted
    /// first).
    pub cache_budget: usize,
    /// A generated file larger than this is written to an unlinked temporary file (in
    /// `$TMPDIR`) once rendered and read back from it, never held whole in memory.
    pub spill_above: usize,
    /// Bytes of spilled generated files kept on disk (least recently used evicted first).
    pub spill_budget: u64,
    /// The largest generated file, in bytes; larger ones fail with `EFBIG`.
    pub max_file_size: usize,
    /// Nodes kept that no front-end references (listed but not looked up, or forgotten
    /// while their children were alive); beyond it the oldest are dropped.
    pub max_unreferenced_nodes: usize,
    /// Raw files are read with direct I/O: every read goes to the front-end, in requests as
    /// large as the reader's, bypassing the kernel's page cache and its readahead limit.
    pub raw_direct_io: bool,
    /// Opening a raw file hands its checked source file to the front-end
    /// ([`OpenInfo::backing`]), which may let the kernel read it directly (FUSE passthrough).
    pub raw_passthrough: bool,
}

impl Default for TreeConfig {
    fn default() -> Self {
        TreeConfig {
            cache_budget: 64 << 20,
            spill_above: 1 << 20,
            spill_budget: 4 << 30,
            max_file_size: 1 << 30,
            max_unreferenced_nodes: 1 << 16,
            raw_direct_io: true,
            raw_passthrough: false,
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
#[derive(Clone, Debug)]
pub struct OpenInfo {
    /// The handle to pass to read, write, flush and release.
    pub fh: u64,
    /// Content may change between opens (control files): bypass the page cache.
    pub direct_io: bool,
    /// For a raw file with [`TreeConfig::raw_passthrough`]: its source file, checked at this
    /// open (trusted, unchanged since listed), for the kernel to read directly.
    pub backing: Option<Arc<std::fs::File>>,
}

/// Bytes returned by a read: a range of a generated file or of a raw file.
pub enum ReadBytes {
    /// A range of generated or answered content.
    Shared(Arc<[u8]>, usize, usize),
    /// Bytes read from a raw source file or a spilled generated file.
    Owned(Vec<u8>),
}

impl ReadBytes {
    /// The bytes read.
    pub fn as_slice(&self) -> &[u8] {
        match self {
            ReadBytes::Shared(content, start, end) => content.get(*start..*end).unwrap_or(&[]),
            ReadBytes::Owned(bytes) => bytes,
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
    /// The directory's listing (sources of its children), made on first use.
    listing: Mutex<Option<Arc<Listing>>>,
    /// The children that have a node now, by name.
    live: Mutex<LiveChildren>,
    /// References the front-end holds (the kernel's lookup count).
    lookups: AtomicU64,
}

/// The children of a directory that have a node, by name: nothing allocated for a file
/// (most nodes), a map once a child has a node.
#[derive(Default)]
// The box is the point: an empty `HashMap` takes 48 bytes in every node, the box 8.
#[allow(clippy::box_collection)]
struct LiveChildren(Option<Box<HashMap<Arc<str>, Ino>>>);

impl LiveChildren {
    fn get(&self, name: &str) -> Option<&Ino> {
        self.0.as_ref()?.get(name)
    }

    fn contains_key(&self, name: &str) -> bool {
        self.get(name).is_some()
    }

    fn is_empty(&self) -> bool {
        self.0.as_ref().is_none_or(|m| m.is_empty())
    }

    fn insert(&mut self, name: Arc<str>, ino: Ino) {
        self.0.get_or_insert_with(Box::default).insert(name, ino);
    }

    fn remove(&mut self, name: &str) {
        if let Some(m) = self.0.as_mut() {
            m.remove(name);
            if m.is_empty() {
                self.0 = None;
            }
        }
    }

    fn retain(&mut self, keep: impl FnMut(&Arc<str>, &mut Ino) -> bool) {
        if let Some(m) = self.0.as_mut() {
            m.retain(keep);
        }
    }
}

/// What a directory listed: its children's names and sources, in order.
struct Listing {
    entries: Vec<(Arc<str>, Entry)>,
    /// Positions in `entries`, sorted by name (4 bytes per child where a map by name took
    /// about 40: a listing of 1000 map entries lives as long as the kernel holds them).
    by_name: Vec<u32>,
    listed_at: Instant,
}

impl Listing {
    /// The names and entries of `listed`, without invalid names and repeated ones (the first
    /// of a name is kept), each skipped one passed to `skipped`.
    fn new(listed: Vec<(String, Entry)>, mut skipped: impl FnMut(&str)) -> Listing {
        let mut entries: Vec<(Arc<str>, Entry)> = Vec::with_capacity(listed.len());
        for (name, entry) in listed {
            if is_valid_name(&name) {
                entries.push((Arc::from(name), entry));
            } else {
                skipped(&name);
            }
        }
        let mut by_name = Self::sorted(&entries);
        if by_name
            .windows(2)
            .any(|w| Self::same_name(&entries, w[0], w[1]))
        {
            // Stable sort: the first of equal names comes first.
            let mut repeated = vec![false; entries.len()];
            for w in by_name.windows(2) {
                if Self::same_name(&entries, w[0], w[1]) {
                    repeated[w[1] as usize] = true;
                }
            }
            let mut position = 0;
            entries.retain(|(name, _)| {
                let keep = !repeated[position];
                position += 1;
                if !keep {
                    skipped(name);
                }
                keep
            });
            by_name = Self::sorted(&entries);
        }
        entries.shrink_to_fit();
        Listing {
            entries,
            by_name,
            listed_at: Instant::now(),
        }
    }

    /// Positions of `entries` sorted by name, equal names by position.
    fn sorted(entries: &[(Arc<str>, Entry)]) -> Vec<u32> {
        let mut by_name: Vec<u32> = (0..entries.len() as u32).collect();
        by_name.sort_by(|&a, &b| entries[a as usize].0.cmp(&entries[b as usize].0));
        by_name
    }

    fn same_name(entries: &[(Arc<str>, Entry)], a: u32, b: u32) -> bool {
        entries[a as usize].0 == entries[b as usize].0
    }

    /// The child named `name`.
    fn get(&self, name: &str) -> Option<&(Arc<str>, Entry)> {
        let i = self
            .by_name
            .binary_search_by(|&i| (*self.entries[i as usize].0).cmp(name))
            .ok()?;
        self.entries.get(self.by_name[i] as usize)
    }

    fn contains(&self, name: &str) -> bool {
        self.get(name).is_some()
    }
}

/// How long a dynamic directory's listing answers lookups before it is listed again.
const DYNAMIC_LISTING_TTL: Duration = Duration::from_secs(1);

enum Handle {
    Content(Content),
    Raw(Arc<RawFile>),
    Control(Arc<ControlNode>, Arc<Mutex<ControlHandle>>),
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

/// Whether a node made from `old` may keep serving what a new listing calls `new`.
fn same_entry(old: &Entry, new: &Entry) -> bool {
    match (old, new) {
        (Entry::Symlink(a), Entry::Symlink(b)) => a == b,
        (Entry::Raw(a), Entry::Raw(b)) => a.path() == b.path() && a.size() == b.size(),
        _ => old.kind() == new.kind(),
    }
}

/// The virtual file tree: what the mount and `mo-mem ls/cat/tree` show.
///
/// Nodes are made when a directory's children are listed or looked up, and live while the
/// front-end holds references to them ([`Tree::lookup`] counts one, [`Tree::forget`] drops
/// them, as the kernel's lookup count does). Nodes nobody references are kept up to
/// [`TreeConfig::max_unreferenced_nodes`], the least recently made dropped first, so memory
/// stays bounded however many distinct paths are visited. Inode numbers are never reused.
pub struct Tree {
    nodes: RwLock<HashMap<Ino, Arc<Node>>>,
    next_ino: AtomicU64,
    unreferenced: Mutex<VecDeque<Ino>>,
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
        let root = Self::make_node(ROOT_INO, Arc::from(""), root, false);
        root.lookups.store(1, Ordering::Relaxed);
        Ok(Tree {
            nodes: RwLock::new(HashMap::from([(ROOT_INO, Arc::new(root))])),
            next_ino: AtomicU64::new(ROOT_INO + 1),
            unreferenced: Mutex::new(VecDeque::new()),
            cache: ContentCache::with_disk_budget(config.cache_budget, config.spill_budget),
            config,
            handles: Mutex::new(HashMap::new()),
            next_fh: AtomicU64::new(1),
        })
    }

    fn make_node(parent: Ino, name: Arc<str>, entry: Entry, volatile: bool) -> Node {
        Node {
            parent,
            name,
            volatile,
            entry,
            size: OnceLock::new(),
            render_lock: Mutex::new(()),
            listing: Mutex::new(None),
            live: Mutex::new(LiveChildren::default()),
            lookups: AtomicU64::new(0),
        }
    }

    fn node(&self, ino: Ino) -> Result<Arc<Node>, VfsError> {
        let nodes = self.nodes.read().unwrap_or_else(|p| p.into_inner());
        nodes
            .get(&ino)
            .cloned()
            .ok_or_else(|| VfsError::NotFound(format!("inode {ino}")))
    }

    /// How the tree was configured.
    pub fn config(&self) -> &TreeConfig {
        &self.config
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
    /// `refresh` for directories whose content may change). Each child gets a node.
    pub fn children(&self, ino: Ino, refresh: bool) -> Result<Vec<Child>, VfsError> {
        let node = self.node(ino)?;
        let listing = self.listing(ino, &node, refresh)?;
        let mut children = Vec::with_capacity(listing.entries.len());
        for (name, entry) in &listing.entries {
            let child = self.child_of(ino, &node, name, entry, false)?;
            children.push(Child {
                name: name.clone(),
                ino: child,
                kind: entry.kind(),
            });
        }
        Ok(children)
    }

    /// The names and kinds a directory lists, without making nodes for them.
    pub fn names(&self, ino: Ino, refresh: bool) -> Result<Vec<(Arc<str>, NodeKind)>, VfsError> {
        let node = self.node(ino)?;
        let listing = self.listing(ino, &node, refresh)?;
        Ok(listing
            .entries
            .iter()
            .map(|(name, entry)| (name.clone(), entry.kind()))
            .collect())
    }

    fn listing(&self, ino: Ino, node: &Node, refresh: bool) -> Result<Arc<Listing>, VfsError> {
        let Entry::Dir(source) = &node.entry else {
            return Err(VfsError::NotADirectory(self.path_of(ino)));
        };
        let mut slot = lock(&node.listing);
        if let Some(listing) = slot.as_ref() {
            if !(refresh && source.is_dynamic()) {
                return Ok(listing.clone());
            }
        }
        let listing = Listing::new(source.list()?, |name| {
            tracing::warn!(dir = %self.path_of(ino), name = %name.escape_debug(), "skipping an invalid or duplicate name");
        });
        if slot.is_some() {
            // A re-listing: children whose entry went away or changed get new nodes.
            let mut live = lock(&node.live);
            live.retain(|name, child| {
                let Some((_, new)) = listing.get(name) else {
                    return false;
                };
                self.node(*child)
                    .is_ok_and(|old| same_entry(&old.entry, new))
            });
        }
        let listing = Arc::new(listing);
        *slot = Some(listing.clone());
        Ok(listing)
    }

    /// The node of the child `name` (listed as `entry`) of `parent`, made if needed; with
    /// `reference`, one more reference is held on it.
    fn child_of(
        &self,
        parent: Ino,
        parent_node: &Node,
        name: &Arc<str>,
        entry: &Entry,
        reference: bool,
    ) -> Result<Ino, VfsError> {
        let mut live = lock(&parent_node.live);
        if let Some(ino) = live.get(name) {
            if let Ok(node) = self.node(*ino) {
                if reference {
                    node.lookups.fetch_add(1, Ordering::AcqRel);
                }
                return Ok(*ino);
            }
        }
        let ino = self.next_ino.fetch_add(1, Ordering::Relaxed);
        let dynamic = matches!(&parent_node.entry, Entry::Dir(source) if source.is_dynamic());
        let volatile = dynamic || entry.kind() == NodeKind::Control;
        let node = Self::make_node(parent, name.clone(), entry.clone(), volatile);
        if reference {
            node.lookups.store(1, Ordering::Relaxed);
        }
        self.nodes
            .write()
            .unwrap_or_else(|p| p.into_inner())
            .insert(ino, Arc::new(node));
        live.insert(name.clone(), ino);
        drop(live);
        if !reference {
            self.unreferenced_node(ino);
        }
        Ok(ino)
    }

    /// Notes a node nobody references; drops the oldest such nodes beyond the limit.
    fn unreferenced_node(&self, ino: Ino) {
        let mut queue = lock(&self.unreferenced);
        queue.push_back(ino);
        let mut budget = queue
            .len()
            .saturating_sub(self.config.max_unreferenced_nodes);
        // Each pass looks at a bounded number of candidates; a node still referenced or
        // holding live children is skipped (a referenced one is queued again when forgotten).
        let mut looked = 0;
        while budget > 0 && looked < 2 * budget + 16 {
            let Some(candidate) = queue.pop_front() else {
                break;
            };
            looked += 1;
            match self.try_remove(candidate) {
                Removal::Removed | Removal::Gone | Removal::Referenced => budget -= 1,
                Removal::HasChildren => queue.push_back(candidate),
            }
        }
    }

    /// Drops `count` references to `ino` (the kernel forgot it); a node left without
    /// references and without live children is removed.
    pub fn forget(&self, ino: Ino, count: u64) {
        if ino == ROOT_INO {
            return;
        }
        let Ok(node) = self.node(ino) else { return };
        let mut current = node.lookups.load(Ordering::Acquire);
        loop {
            let next = current.saturating_sub(count);
            match node
                .lookups
                .compare_exchange(current, next, Ordering::AcqRel, Ordering::Acquire)
            {
                Ok(_) => break,
                Err(actual) => current = actual,
            }
        }
        if current > count {
            return;
        }
        if let Removal::HasChildren = self.try_remove(ino) {
            lock(&self.unreferenced).push_back(ino);
        }
    }

    /// Removes `ino` if nothing references it and it has no live children.
    fn try_remove(&self, ino: Ino) -> Removal {
        if ino == ROOT_INO {
            return Removal::Referenced;
        }
        let Ok(node) = self.node(ino) else {
            return Removal::Gone;
        };
        let parent = self.node(node.parent).ok();
        let mut parent_live = parent.as_ref().map(|p| lock(&p.live));
        if node.lookups.load(Ordering::Acquire) > 0 {
            return Removal::Referenced;
        }
        if !lock(&node.live).is_empty() {
            return Removal::HasChildren;
        }
        if let Some(live) = parent_live.as_mut() {
            if live.get(&node.name) == Some(&ino) {
                live.remove(&node.name);
            }
        }
        self.nodes
            .write()
            .unwrap_or_else(|p| p.into_inner())
            .remove(&ino);
        drop(parent_live);
        self.cache.remove(ino);
        Removal::Removed
    }

    /// The child `name` of directory `parent`, with `reference` counting one reference.
    fn find_child(&self, parent: Ino, name: &str, reference: bool) -> Result<Ino, VfsError> {
        let node = self.node(parent)?;
        if let Entry::Dir(source) = &node.entry {
            let listed = lock(&node.live).contains_key(name) || lock(&node.listing).is_some();
            if !listed {
                if let Some(entry) = source.find(name)? {
                    return self.child_of(parent, &node, &Arc::from(name), &entry, reference);
                }
            }
        }
        let mut listing = self.listing(parent, &node, false)?;
        let dynamic = matches!(&node.entry, Entry::Dir(source) if source.is_dynamic());
        if dynamic && listing.listed_at.elapsed() > DYNAMIC_LISTING_TTL || !listing.contains(name) {
            listing = self.listing(parent, &node, true)?;
        }
        let Some((name, entry)) = listing.get(name) else {
            if let Entry::Dir(source) = &node.entry {
                if let Some(entry) = source.lookup_unlisted(name)? {
                    return self.child_of(parent, &node, &Arc::from(name), &entry, reference);
                }
            }
            let mut path = self.path_of(parent);
            if !path.ends_with('/') {
                path.push('/');
            }
            path.push_str(name);
            return Err(VfsError::NotFound(path));
        };
        self.child_of(parent, &node, name, entry, reference)
    }

    /// The child `name` of directory `parent`, if it exists (no reference is counted).
    pub fn lookup_ino(&self, parent: Ino, name: &str) -> Result<Ino, VfsError> {
        match name {
            "." => Ok(parent),
            ".." => self.parent(parent),
            _ => self.find_child(parent, name, false),
        }
    }

    /// Looks `name` up in `parent` and returns its exact attributes (generating the file if
    /// its size is not known yet); the caller holds one reference until [`Tree::forget`].
    pub fn lookup(&self, parent: Ino, name: &str) -> Result<Attr, VfsError> {
        let ino = self.find_child(parent, name, true)?;
        self.getattr(ino).inspect_err(|_| self.forget(ino, 1))
    }

    /// Looks `name` up in `parent` for a listing with attributes: the attributes if known
    /// without generating anything (`None` for a file not generated yet); the caller holds
    /// one reference until [`Tree::forget`] either way.
    pub fn lookup_listed(&self, parent: Ino, name: &str) -> Result<(Ino, Option<Attr>), VfsError> {
        let ino = self.find_child(parent, name, true)?;
        Ok((ino, self.known_attr_of(ino)))
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
            size: content.len(),
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

    fn content(&self, ino: Ino, node: &Node) -> Result<Content, VfsError> {
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
        let content = if source.streams() {
            self.render_streamed(ino, source.as_ref())?
        } else {
            self.render_whole(ino, source.as_ref())?
        };
        let size = *node.size.get_or_init(|| content.len());
        if size != content.len() {
            tracing::error!(path = %self.path_of(ino), size, now = content.len(), "generated file changed size between renders");
        }
        self.cache.insert(ino, content.clone());
        Ok(content)
    }

    /// Renders a generated file held whole in memory (spilled after, when large).
    fn render_whole(&self, ino: Ino, source: &dyn FileSource) -> Result<Content, VfsError> {
        let bytes = source.render()?;
        if bytes.len() > self.config.max_file_size {
            return Err(VfsError::TooLarge(format!(
                "{} would be {} bytes, over the limit of {} bytes",
                self.path_of(ino),
                bytes.len(),
                self.config.max_file_size
            )));
        }
        Ok(if bytes.len() > self.config.spill_above {
            let spill = SpillFile::create(&std::env::temp_dir(), &bytes);
            drop(bytes);
            // Rendering a large file decoded a large value: give its memory back.
            release_free_memory();
            Content::Spilled(Arc::new(spill?))
        } else {
            Content::Memory(bytes.into())
        })
    }

    /// Renders a streamed generated file: into memory up to the spill threshold, then on
    /// into an unlinked temporary file, never held whole.
    fn render_streamed(&self, ino: Ino, source: &dyn FileSource) -> Result<Content, VfsError> {
        let mut sink = SpillSink::new(
            &std::env::temp_dir(),
            self.config.spill_above,
            self.config.max_file_size as u64,
        );
        match source.render_to(&mut sink) {
            Ok(()) => {}
            Err(_) if sink.over_limit() => {
                return Err(VfsError::TooLarge(format!(
                    "{} would be over the limit of {} bytes",
                    self.path_of(ino),
                    self.config.max_file_size
                )))
            }
            Err(e) => return Err(e),
        }
        let content = sink.finish()?;
        if content.disk_bytes() > 0 {
            release_free_memory();
        }
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

    /// Opens a file for `caller`; `write` asks for write access (only control files grant
    /// it).
    pub fn open(
        &self,
        ino: Ino,
        write: bool,
        caller: impl IntoCaller,
    ) -> Result<OpenInfo, VfsError> {
        let node = self.node(ino)?;
        let mut backing = None;
        let (handle, direct_io) = match &node.entry {
            Entry::Dir(_) => return Err(VfsError::IsADirectory(self.path_of(ino))),
            Entry::Symlink(_) => {
                return Err(VfsError::InvalidArgument(format!(
                    "{} is a symbolic link",
                    self.path_of(ino)
                )))
            }
            Entry::Control(control) => (
                Handle::Control(
                    control.clone(),
                    Arc::new(Mutex::new(control.open(caller.into_caller()))),
                ),
                true,
            ),
            _ if write => return Err(VfsError::ReadOnly(self.path_of(ino))),
            Entry::Raw(raw) => {
                if self.config.raw_passthrough {
                    backing = Some(raw.checked_file()?);
                }
                (Handle::Raw(raw.clone()), self.config.raw_direct_io)
            }
            Entry::File(_) => (Handle::Content(self.content(ino, &node)?), false),
        };
        let fh = self.next_fh.fetch_add(1, Ordering::Relaxed);
        lock(&self.handles).insert(fh, handle);
        Ok(OpenInfo {
            fh,
            direct_io,
            backing,
        })
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
            HandleRef::Raw(raw) => return Ok(ReadBytes::Owned(raw.read_at(offset, len)?)),
            HandleRef::Content(Content::Spilled(spill)) => {
                return Ok(ReadBytes::Owned(spill.read_at(offset, len)?))
            }
            HandleRef::Content(Content::Memory(content)) => content,
            // A handle answers one read at a time; a parallel read of the same open file
            // while its script runs is refused rather than holding a worker thread.
            HandleRef::Control(node, handle) => match handle.try_lock() {
                Ok(mut handle) => node.answer_at(&mut handle, offset)?,
                Err(std::sync::TryLockError::Poisoned(p)) => {
                    node.answer_at(&mut p.into_inner(), offset)?
                }
                Err(std::sync::TryLockError::WouldBlock) => {
                    return Err(VfsError::Busy(format!(
                        "file handle {fh}: a read of this open file is still running"
                    )))
                }
            },
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
            HandleRef::Control(node, handle) => match handle.try_lock() {
                Ok(mut handle) => node.write(&mut handle, offset, data, more_may_follow),
                Err(std::sync::TryLockError::Poisoned(p)) => {
                    node.write(&mut p.into_inner(), offset, data, more_may_follow)
                }
                Err(std::sync::TryLockError::WouldBlock) => Err(VfsError::Busy(format!(
                    "file handle {fh}: a read of this open file is still running"
                ))),
            },
            _ => Err(VfsError::ReadOnly(format!("file handle {fh}"))),
        }
    }

    /// Flushes an open handle: reports a deferred control-file error.
    pub fn flush(&self, fh: u64) -> Result<(), VfsError> {
        match self.handle(fh)? {
            // While a read of the handle runs its script, there is no deferred error to report.
            HandleRef::Control(node, handle) => match handle.try_lock() {
                Ok(mut handle) => node.flush(&mut handle),
                Err(std::sync::TryLockError::Poisoned(p)) => node.flush(&mut p.into_inner()),
                Err(std::sync::TryLockError::WouldBlock) => Ok(()),
            },
            _ => Ok(()),
        }
    }

    /// Closes an open handle.
    pub fn release(&self, fh: u64) {
        lock(&self.handles).remove(&fh);
    }

    /// The generated content cached now: bytes in memory (each content counted with the
    /// cache's memory per entry), bytes spilled to disk.
    pub fn cache_usage(&self) -> (usize, u64) {
        (self.cache.bytes(), self.cache.disk_bytes())
    }

    /// The number of nodes alive now.
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
                raw.read_at(0, len)
            }
            Entry::File(_) => self.content(ino, &node)?.to_vec(),
            Entry::Control(control) => {
                let mut handle = control.open(SessionId(0));
                Ok(control.answer(&mut handle)?.to_vec())
            }
        }
    }
}

/// What became of a node asked to be removed.
enum Removal {
    Removed,
    Gone,
    Referenced,
    HasChildren,
}

enum HandleRef {
    Content(Content),
    Raw(Arc<RawFile>),
    Control(Arc<ControlNode>, Arc<Mutex<ControlHandle>>),
}
