//! The fuser `Filesystem` over a [`Tree`]: translates requests, replies from worker
//! threads, maps every failure to its deliberate errno and logs it.

use super::passthrough::Passthrough;
use super::pool::WorkerPool;
use crate::vfs::{Attr, AttrChange, NodeKind, ThreadId, Tree, VfsError, ROOT_INO};
use fuser::{
    consts, FileAttr, FileType, Filesystem, KernelConfig, ReplyAttr, ReplyCreate, ReplyData,
    ReplyDirectory, ReplyDirectoryPlus, ReplyEmpty, ReplyEntry, ReplyOpen, ReplyStatfs, ReplyWrite,
    ReplyXattr, Request, TimeOrNow,
};
use libc::c_int;
use std::ffi::OsStr;
use std::sync::Arc;
use std::time::{Duration, SystemTime};

/// The largest read or write request asked of the kernel, and the I/O size `stat` suggests.
const MAX_REQUEST: u32 = 1 << 20;
/// A write at least this long, in whole pages, may be followed by more of the same request.
const CHUNKED_WRITE: usize = 64 << 10;

/// The file system served over FUSE.
pub struct MountFs {
    inner: Arc<Inner>,
    pool: WorkerPool,
}

struct Inner {
    tree: Arc<Tree>,
    passthrough: Passthrough,
    uid: u32,
    gid: u32,
    time: SystemTime,
}

/// Logs a failed operation with its detail and returns the errno to reply with.
fn fail(op: &str, err: &VfsError) -> c_int {
    let errno = err.errno();
    match err {
        VfsError::NotFound(_) => tracing::debug!(op, errno, "{err}"),
        _ => tracing::warn!(op, errno, "{err}"),
    }
    errno
}

fn name_str<'a>(op: &str, name: &'a OsStr) -> Result<&'a str, c_int> {
    name.to_str().ok_or_else(|| {
        fail(
            op,
            &VfsError::NotFound(format!("{} (not UTF-8)", name.to_string_lossy())),
        )
    })
}

impl Inner {
    fn file_attr(&self, attr: &Attr) -> FileAttr {
        FileAttr {
            ino: attr.ino,
            size: attr.size,
            blocks: attr.size.div_ceil(512),
            atime: self.time,
            mtime: self.time,
            ctime: self.time,
            crtime: self.time,
            kind: file_type(attr.kind),
            perm: attr.kind.permissions(),
            nlink: attr.kind.links(),
            uid: self.uid,
            gid: self.gid,
            rdev: 0,
            blksize: MAX_REQUEST,
            flags: 0,
        }
    }
}

impl MountFs {
    /// Serves `tree` with `threads` worker threads, passing raw files through to the kernel
    /// if `passthrough` and the kernel allows it.
    pub fn new(tree: Arc<Tree>, threads: usize, passthrough: bool) -> std::io::Result<MountFs> {
        // SAFETY: geteuid/getegid have no preconditions and cannot fail.
        let (uid, gid) = unsafe { (libc::geteuid(), libc::getegid()) };
        Ok(MountFs {
            inner: Arc::new(Inner {
                tree,
                passthrough: Passthrough::new(passthrough),
                uid,
                gid,
                time: SystemTime::now(),
            }),
            pool: WorkerPool::new(threads)?,
        })
    }

    fn run(&self, job: impl FnOnce(&Inner) + Send + 'static) {
        let inner = self.inner.clone();
        self.pool.spawn(move || job(&inner));
    }

    /// `offset` of a `op` request on `ino`, refused if negative.
    fn offset(&self, op: &str, ino: u64, offset: i64) -> Result<u64, c_int> {
        u64::try_from(offset).map_err(|_| {
            fail(
                op,
                &VfsError::InvalidArgument(format!(
                    "negative offset {offset} on {}",
                    self.inner.tree.path_of(ino)
                )),
            )
        })
    }

    /// The errno for `op` on the entry `name` of directory `parent`: the mount is read-only.
    fn read_only_entry(&self, op: &str, parent: u64, name: &OsStr) -> c_int {
        let name = name.to_string_lossy();
        fail(op, &self.inner.tree.refuse_entry_change(parent, &name))
    }

    /// The errno for `op` changing `ino`: the mount is read-only.
    fn read_only(&self, op: &str, ino: u64) -> c_int {
        fail(op, &self.inner.tree.refuse_change(ino))
    }
}

impl Filesystem for MountFs {
    fn init(&mut self, _req: &Request<'_>, config: &mut KernelConfig) -> Result<(), c_int> {
        for capability in [
            consts::FUSE_DO_READDIRPLUS,
            consts::FUSE_READDIRPLUS_AUTO,
            consts::FUSE_PARALLEL_DIROPS,
        ] {
            if config.add_capabilities(capability).is_err() {
                tracing::debug!(capability, "kernel lacks a FUSE capability");
            }
        }
        // Large requests: reads of raw files are served from the mapped source without a
        // copy, so fewer, larger requests are what makes them fast. `max_write` also sets
        // the largest request the kernel sends (FUSE_MAX_PAGES).
        if let Err(nearest) = config.set_max_readahead(MAX_REQUEST) {
            tracing::debug!(nearest, "kernel caps readahead");
            let _ = config.set_max_readahead(nearest);
        }
        if let Err(nearest) = config.set_max_write(MAX_REQUEST) {
            let _ = config.set_max_write(nearest);
        }
        let _ = config.set_max_background(64);
        let fallback = if self.inner.tree.config().raw_direct_io {
            "read by the daemon with direct I/O"
        } else {
            "read by the daemon through the page cache"
        };
        self.inner.passthrough.negotiate(config, fallback);
        Ok(())
    }

    fn lookup(&mut self, _req: &Request<'_>, parent: u64, name: &OsStr, reply: ReplyEntry) {
        let name = match name_str("lookup", name) {
            Ok(name) => name.to_string(),
            Err(errno) => return reply.error(errno),
        };
        self.run(move |fs| match fs.tree.lookup(parent, &name) {
            Ok(attr) => reply.entry(&attr.cache_ttl(), &fs.file_attr(&attr), 0),
            Err(err) => reply.error(fail("lookup", &err)),
        });
    }

    fn forget(&mut self, _req: &Request<'_>, ino: u64, nlookup: u64) {
        self.inner.tree.forget(ino, nlookup);
    }

    fn batch_forget(&mut self, _req: &Request<'_>, nodes: &[fuser::fuse_forget_one]) {
        for node in nodes {
            self.inner.tree.forget(node.nodeid, node.nlookup);
        }
    }

    fn getattr(&mut self, _req: &Request<'_>, ino: u64, _fh: Option<u64>, reply: ReplyAttr) {
        self.run(move |fs| match fs.tree.getattr(ino) {
            Ok(attr) => reply.attr(&attr.cache_ttl(), &fs.file_attr(&attr)),
            Err(err) => reply.error(fail("getattr", &err)),
        });
    }

    fn setattr(
        &mut self,
        _req: &Request<'_>,
        ino: u64,
        mode: Option<u32>,
        uid: Option<u32>,
        gid: Option<u32>,
        size: Option<u64>,
        _atime: Option<TimeOrNow>,
        _mtime: Option<TimeOrNow>,
        _ctime: Option<SystemTime>,
        _fh: Option<u64>,
        _crtime: Option<SystemTime>,
        _chgtime: Option<SystemTime>,
        _bkuptime: Option<SystemTime>,
        _flags: Option<u32>,
        reply: ReplyAttr,
    ) {
        let change = AttrChange {
            size,
            ownership_or_mode: mode.is_some() || uid.is_some() || gid.is_some(),
        };
        self.run(move |fs| match fs.tree.setattr(ino, change) {
            Ok(attr) => reply.attr(&attr.cache_ttl(), &fs.file_attr(&attr)),
            Err(err) => reply.error(fail("setattr", &err)),
        });
    }

    fn readlink(&mut self, _req: &Request<'_>, ino: u64, reply: ReplyData) {
        self.run(move |fs| match fs.tree.readlink(ino) {
            Ok(target) => reply.data(target.as_bytes()),
            Err(err) => reply.error(fail("readlink", &err)),
        });
    }

    fn mknod(
        &mut self,
        _req: &Request<'_>,
        parent: u64,
        name: &OsStr,
        _mode: u32,
        _umask: u32,
        _rdev: u32,
        reply: ReplyEntry,
    ) {
        reply.error(self.read_only_entry("mknod", parent, name));
    }

    fn mkdir(
        &mut self,
        _req: &Request<'_>,
        parent: u64,
        name: &OsStr,
        _mode: u32,
        _umask: u32,
        reply: ReplyEntry,
    ) {
        reply.error(self.read_only_entry("mkdir", parent, name));
    }

    fn unlink(&mut self, _req: &Request<'_>, parent: u64, name: &OsStr, reply: ReplyEmpty) {
        reply.error(self.read_only_entry("unlink", parent, name));
    }

    fn rmdir(&mut self, _req: &Request<'_>, parent: u64, name: &OsStr, reply: ReplyEmpty) {
        reply.error(self.read_only_entry("rmdir", parent, name));
    }

    fn symlink(
        &mut self,
        _req: &Request<'_>,
        parent: u64,
        link_name: &OsStr,
        _target: &std::path::Path,
        reply: ReplyEntry,
    ) {
        reply.error(self.read_only_entry("symlink", parent, link_name));
    }

    fn rename(
        &mut self,
        _req: &Request<'_>,
        parent: u64,
        name: &OsStr,
        _newparent: u64,
        _newname: &OsStr,
        _flags: u32,
        reply: ReplyEmpty,
    ) {
        reply.error(self.read_only_entry("rename", parent, name));
    }

    fn link(
        &mut self,
        _req: &Request<'_>,
        ino: u64,
        _newparent: u64,
        _newname: &OsStr,
        reply: ReplyEntry,
    ) {
        reply.error(self.read_only("link", ino));
    }

    fn create(
        &mut self,
        _req: &Request<'_>,
        parent: u64,
        name: &OsStr,
        _mode: u32,
        _umask: u32,
        _flags: i32,
        reply: ReplyCreate,
    ) {
        reply.error(self.read_only_entry("create", parent, name));
    }

    fn open(&mut self, req: &Request<'_>, ino: u64, flags: i32, reply: ReplyOpen) {
        let write = flags & libc::O_ACCMODE != libc::O_RDONLY;
        // looked up (in /proc) only for a control file, while the caller waits in open(2)
        let caller = ThreadId(req.pid());
        self.run(move |fs| match fs.tree.open(ino, write, caller) {
            Ok(open) => {
                let flags = if open.direct_io {
                    consts::FOPEN_DIRECT_IO
                } else {
                    consts::FOPEN_KEEP_CACHE
                };
                fs.passthrough.reply(reply, ino, &open, flags);
            }
            Err(err) => reply.error(fail("open", &err)),
        });
    }

    fn read(
        &mut self,
        _req: &Request<'_>,
        ino: u64,
        fh: u64,
        offset: i64,
        size: u32,
        _flags: i32,
        _lock_owner: Option<u64>,
        reply: ReplyData,
    ) {
        let offset = match self.offset("read", ino, offset) {
            Ok(offset) => offset,
            Err(errno) => return reply.error(errno),
        };
        tracing::trace!(ino, offset, size, "read");
        self.run(move |fs| match fs.tree.read(fh, offset, size as usize) {
            Ok(bytes) => reply.data(bytes.as_slice()),
            Err(err) => reply.error(fail("read", &err)),
        });
    }

    fn write(
        &mut self,
        _req: &Request<'_>,
        ino: u64,
        fh: u64,
        offset: i64,
        data: &[u8],
        _write_flags: u32,
        _flags: i32,
        _lock_owner: Option<u64>,
        reply: ReplyWrite,
    ) {
        let offset = match self.offset("write", ino, offset) {
            Ok(offset) => offset,
            Err(errno) => return reply.error(errno),
        };
        let data = data.to_vec();
        self.run(move |fs| {
            let more_may_follow = data.len() >= CHUNKED_WRITE && data.len().is_multiple_of(4096);
            match fs.tree.write(fh, offset, &data, more_may_follow) {
                Ok(written) => reply.written(written as u32),
                Err(err) => reply.error(fail("write", &err)),
            }
        });
    }

    fn flush(
        &mut self,
        _req: &Request<'_>,
        _ino: u64,
        fh: u64,
        _lock_owner: u64,
        reply: ReplyEmpty,
    ) {
        self.run(move |fs| match fs.tree.flush(fh) {
            Ok(()) => reply.ok(),
            Err(err) => reply.error(fail("flush", &err)),
        });
    }

    fn release(
        &mut self,
        _req: &Request<'_>,
        ino: u64,
        fh: u64,
        _flags: i32,
        _lock_owner: Option<u64>,
        _flush: bool,
        reply: ReplyEmpty,
    ) {
        self.inner.tree.release(fh);
        self.inner.passthrough.release(ino, fh);
        reply.ok();
    }

    fn fsync(
        &mut self,
        _req: &Request<'_>,
        _ino: u64,
        _fh: u64,
        _datasync: bool,
        reply: ReplyEmpty,
    ) {
        reply.ok();
    }

    fn opendir(&mut self, _req: &Request<'_>, ino: u64, _flags: i32, reply: ReplyOpen) {
        self.run(move |fs| match fs.tree.getattr(ino) {
            Ok(attr) if attr.kind == NodeKind::Dir => reply.opened(0, 0),
            Ok(_) => reply.error(fail(
                "opendir",
                &VfsError::NotADirectory(fs.tree.path_of(ino)),
            )),
            Err(err) => reply.error(fail("opendir", &err)),
        });
    }

    fn readdir(
        &mut self,
        _req: &Request<'_>,
        ino: u64,
        _fh: u64,
        offset: i64,
        mut reply: ReplyDirectory,
    ) {
        self.run(move |fs| {
            let children = match fs.tree.children(ino, offset == 0) {
                Ok(children) => children,
                Err(err) => return reply.error(fail("readdir", &err)),
            };
            let parent = fs.tree.parent(ino).unwrap_or(ROOT_INO);
            let dots = [(ino, "."), (parent, "..")];
            let start = usize::try_from(offset).unwrap_or(0);
            let all = dots
                .iter()
                .map(|(i, n)| (*i, NodeKind::Dir, *n))
                .chain(children.iter().map(|c| (c.ino, c.kind, &*c.name)));
            for (index, (child, kind, name)) in all.enumerate().skip(start) {
                if reply.add(child, index as i64 + 1, file_type(kind), name) {
                    break;
                }
            }
            reply.ok();
        });
    }

    fn readdirplus(
        &mut self,
        _req: &Request<'_>,
        ino: u64,
        _fh: u64,
        offset: i64,
        mut reply: ReplyDirectoryPlus,
    ) {
        self.run(move |fs| {
            let names = match fs.tree.names(ino, offset == 0) {
                Ok(names) => names,
                Err(err) => return reply.error(fail("readdirplus", &err)),
            };
            let parent = fs.tree.parent(ino).unwrap_or(ROOT_INO);
            let start = usize::try_from(offset).unwrap_or(0);
            let dots = [(ino, "."), (parent, "..")];
            for (index, (child, name)) in dots.iter().map(|(i, n)| (*i, *n)).enumerate().skip(start)
            {
                let attr = fs.tree.known_attr_of(child).unwrap_or(Attr {
                    ino: child,
                    kind: NodeKind::Dir,
                    size: 0,
                    volatile: true,
                });
                let ttl = attr.cache_ttl();
                if reply.add(child, index as i64 + 1, name, &ttl, &fs.file_attr(&attr), 0) {
                    return reply.ok();
                }
            }
            let skip = start.saturating_sub(dots.len());
            for (index, (name, _)) in names.iter().enumerate().skip(skip) {
                // Each entry listed with attributes counts as a lookup (the kernel forgets it
                // later). A generated file not rendered yet has no known size: listing must
                // not generate it, so it is announced with size 0 and a zero TTL, and the
                // kernel asks again (getattr/lookup, which render it) before using it.
                let (child, known) = match fs.tree.lookup_listed(ino, name) {
                    Ok(found) => found,
                    Err(err) => {
                        fail("readdirplus", &err);
                        continue;
                    }
                };
                let (attr, ttl) = match known {
                    Some(attr) => (attr, attr.cache_ttl()),
                    None => (
                        Attr {
                            ino: child,
                            kind: NodeKind::File,
                            size: 0,
                            volatile: true,
                        },
                        Duration::ZERO,
                    ),
                };
                let offset = (index + dots.len()) as i64 + 1;
                if reply.add(child, offset, &**name, &ttl, &fs.file_attr(&attr), 0) {
                    // Not sent: the kernel holds no reference to it.
                    fs.tree.forget(child, 1);
                    break;
                }
            }
            reply.ok();
        });
    }

    fn statfs(&mut self, _req: &Request<'_>, _ino: u64, reply: ReplyStatfs) {
        let files = self.inner.tree.node_count() as u64;
        reply.statfs(0, 0, 0, files, 0, 4096, 255, 4096);
    }

    fn setxattr(
        &mut self,
        _req: &Request<'_>,
        ino: u64,
        _name: &OsStr,
        _value: &[u8],
        _flags: i32,
        _position: u32,
        reply: ReplyEmpty,
    ) {
        reply.error(self.read_only("setxattr", ino));
    }

    fn getxattr(
        &mut self,
        _req: &Request<'_>,
        _ino: u64,
        _name: &OsStr,
        _size: u32,
        reply: ReplyXattr,
    ) {
        reply.error(libc::ENODATA);
    }

    fn listxattr(&mut self, _req: &Request<'_>, _ino: u64, size: u32, reply: ReplyXattr) {
        if size == 0 {
            reply.size(0);
        } else {
            reply.data(&[]);
        }
    }

    fn removexattr(&mut self, _req: &Request<'_>, ino: u64, _name: &OsStr, reply: ReplyEmpty) {
        reply.error(self.read_only("removexattr", ino));
    }

    fn access(&mut self, _req: &Request<'_>, ino: u64, mask: i32, reply: ReplyEmpty) {
        self.run(
            move |fs| match fs.tree.access(ino, mask & libc::W_OK != 0) {
                Ok(()) => reply.ok(),
                Err(err) => reply.error(fail("access", &err)),
            },
        );
    }

    fn fallocate(
        &mut self,
        _req: &Request<'_>,
        ino: u64,
        _fh: u64,
        _offset: i64,
        _length: i64,
        _mode: i32,
        reply: ReplyEmpty,
    ) {
        reply.error(self.read_only("fallocate", ino));
    }
}

fn file_type(kind: NodeKind) -> FileType {
    match kind {
        NodeKind::Dir => FileType::Directory,
        NodeKind::Symlink => FileType::Symlink,
        NodeKind::File | NodeKind::Control => FileType::RegularFile,
    }
}
