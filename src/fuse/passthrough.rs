//! FUSE passthrough for raw files: the kernel reads a raw file's source file itself, without
//! a round trip to the daemon per request (Linux 6.9 and later, `CAP_SYS_ADMIN`). Offered
//! at `init` when wanted; an open whose backing file the kernel refuses falls back to reads
//! by the daemon, and so do all later opens.

use crate::vfs::OpenInfo;
use fuser::{consts, BackingId, KernelConfig, ReplyOpen};
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, Weak};

/// Whether raw files are passed through, and the kernel's backing ids of the open ones.
pub(super) struct Passthrough {
    wanted: bool,
    on: AtomicBool,
    backings: Mutex<Backings>,
}

/// The backing ids in use: the kernel allows one backing file per inode at a time, so all
/// open handles of an inode share one id, closed in the kernel when the last is released.
#[derive(Default)]
struct Backings {
    by_handle: HashMap<u64, Arc<BackingId>>,
    by_inode: HashMap<u64, Weak<BackingId>>,
}

impl Passthrough {
    /// Passthrough if `wanted` and the kernel offers it at `init`.
    pub fn new(wanted: bool) -> Passthrough {
        Passthrough {
            wanted,
            on: AtomicBool::new(false),
            backings: Mutex::new(Backings::default()),
        }
    }

    /// Asks the kernel for passthrough at `init` and logs how raw files will be read.
    pub fn negotiate(&self, config: &mut KernelConfig, fallback: &str) {
        if !self.wanted {
            tracing::info!("raw files: {fallback} (passthrough not wanted: --no-passthrough)");
            return;
        }
        if config.add_capabilities(consts::FUSE_PASSTHROUGH).is_err() {
            tracing::info!("raw files: {fallback} (the kernel does not offer FUSE passthrough)");
            return;
        }
        // Source files may live on a stacked file system (overlayfs): allow the most.
        if let Err(nearest) = config.set_max_stack_depth(2) {
            let _ = config.set_max_stack_depth(nearest);
        }
        self.on.store(true, Ordering::Relaxed);
        tracing::info!("raw files: passthrough (the kernel reads the source files)");
    }

    /// Replies to an open of inode `ino`: passed through when on and the tree gave a
    /// backing file, else opened with `flags` for reads by the daemon.
    pub fn reply(&self, reply: ReplyOpen, ino: u64, open: &OpenInfo, flags: u32) {
        let file = match &open.backing {
            Some(file) if self.on.load(Ordering::Relaxed) => file,
            _ => return reply.opened(open.fh, flags),
        };
        let mut backings = lock(&self.backings);
        let shared = backings.by_inode.get(&ino).and_then(Weak::upgrade);
        let id = match shared {
            Some(id) => id,
            None => match reply.open_backing(&**file) {
                Ok(id) => {
                    let id = Arc::new(id);
                    backings.by_inode.insert(ino, Arc::downgrade(&id));
                    id
                }
                Err(e) => {
                    drop(backings);
                    if self.on.swap(false, Ordering::Relaxed) {
                        tracing::warn!(
                            error = %e,
                            "raw files: the kernel refused a passthrough file; the daemon reads them from now on"
                        );
                    }
                    return reply.opened(open.fh, flags);
                }
            },
        };
        backings.by_handle.insert(open.fh, id.clone());
        drop(backings);
        reply.opened_passthrough(open.fh, 0, &id);
    }

    /// Forgets a released handle; the last handle of an inode closes its backing id.
    pub fn release(&self, ino: u64, fh: u64) {
        let mut backings = lock(&self.backings);
        if backings.by_handle.remove(&fh).is_some()
            && backings
                .by_inode
                .get(&ino)
                .is_some_and(|w| w.strong_count() == 0)
        {
            backings.by_inode.remove(&ino);
        }
    }
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}
