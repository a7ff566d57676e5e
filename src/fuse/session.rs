//! Mounting and serving in the foreground: clean unmount on SIGINT/SIGTERM/SIGHUP, exit
//! when unmounted from outside, no stale mount left behind.

use super::adapter::MountFs;
use crate::vfs::Tree;
use fuser::{MountOption, Session};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// How a mount is served.
#[derive(Clone, Debug)]
pub struct MountConfig {
    /// Let other users read the mount (FUSE `allow_other`; needs `user_allow_other` in
    /// /etc/fuse.conf for non-root users).
    pub allow_other: bool,
    /// Worker threads serving requests.
    pub threads: usize,
    /// Let the kernel read raw files from their source files (FUSE passthrough) where it
    /// can; else the daemon reads them.
    pub passthrough: bool,
}

impl Default for MountConfig {
    fn default() -> Self {
        MountConfig {
            allow_other: false,
            threads: 16,
            passthrough: true,
        }
    }
}

/// Why a mount could not be served.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum FuseError {
    /// The mount point is not an existing directory.
    #[error("mount point {0} is not a directory")]
    NotADirectory(PathBuf),
    /// A dead FUSE mount is still attached at the mount point.
    #[error(
        "{0} is a stale mount (transport endpoint not connected); run `fusermount3 -u {0}` first"
    )]
    StaleMount(PathBuf),
    /// The mount itself failed (no /dev/fuse, no fusermount3, permission denied).
    #[error("cannot mount at {path}: {source} (FUSE needs /dev/fuse and fusermount3: install the `fuse3` package; without FUSE, `mo-mem ls/cat/tree` show the same tree)")]
    Mount {
        /// The mount point.
        path: PathBuf,
        /// The underlying error.
        source: std::io::Error,
    },
    /// Starting the worker threads or the session failed.
    #[error("FUSE session failed: {0}")]
    Session(std::io::Error),
}

/// Signals that end the mount.
struct StopSignals {
    set: libc::sigset_t,
    old: libc::sigset_t,
}

impl StopSignals {
    /// Blocks SIGINT, SIGTERM and SIGHUP in this thread (and the threads it starts), so
    /// they are only received by [`StopSignals::wait`].
    fn block() -> StopSignals {
        // SAFETY: sigset_t is a plain bit set that sigemptyset initialises; the calls
        // only read and write the sets passed by pointer.
        unsafe {
            let mut set: libc::sigset_t = std::mem::zeroed();
            let mut old: libc::sigset_t = std::mem::zeroed();
            libc::sigemptyset(&mut set);
            for signal in [libc::SIGINT, libc::SIGTERM, libc::SIGHUP] {
                libc::sigaddset(&mut set, signal);
            }
            libc::pthread_sigmask(libc::SIG_BLOCK, &set, &mut old);
            StopSignals { set, old }
        }
    }

    /// Waits up to `timeout` for a stop signal; returns it if one came.
    fn wait(&self, timeout: Duration) -> Option<i32> {
        let ts = libc::timespec {
            tv_sec: timeout.as_secs() as libc::time_t,
            tv_nsec: timeout.subsec_nanos() as libc::c_long,
        };
        // SAFETY: `set` is initialised; a null siginfo pointer is allowed.
        let signal = unsafe { libc::sigtimedwait(&self.set, std::ptr::null_mut(), &ts) };
        (signal > 0).then_some(signal)
    }
}

impl Drop for StopSignals {
    fn drop(&mut self) {
        // SAFETY: restores the mask saved by `block`.
        unsafe {
            libc::pthread_sigmask(libc::SIG_SETMASK, &self.old, std::ptr::null_mut());
        }
    }
}

fn check_mountpoint(path: &Path) -> Result<(), FuseError> {
    match std::fs::metadata(path) {
        Ok(meta) if meta.is_dir() => Ok(()),
        Ok(_) => Err(FuseError::NotADirectory(path.to_path_buf())),
        Err(e) if e.raw_os_error() == Some(libc::ENOTCONN) => {
            Err(FuseError::StaleMount(path.to_path_buf()))
        }
        // A missing mount point is made (its parent must exist).
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            std::fs::create_dir(path).map_err(|_| FuseError::NotADirectory(path.to_path_buf()))
        }
        Err(_) => Err(FuseError::NotADirectory(path.to_path_buf())),
    }
}

fn mount_options(config: &MountConfig, auto_unmount: bool) -> Vec<MountOption> {
    let mut options = vec![
        MountOption::FSName("mo-mem".into()),
        MountOption::Subtype("mo-mem".into()),
        MountOption::NoDev,
        MountOption::NoSuid,
        MountOption::NoAtime,
    ];
    if config.allow_other {
        options.push(MountOption::AllowOther);
    }
    if auto_unmount {
        options.push(MountOption::AutoUnmount);
    }
    options
}

/// Unmounts with `fusermount3 -u` (lazily with `-z`), falling back to umount2(2).
fn unmount(mountpoint: &Path, lazy: bool) -> bool {
    let mut command = std::process::Command::new("fusermount3");
    command.arg("-u").arg("-q");
    if lazy {
        command.arg("-z");
    }
    let status = command
        .arg("--")
        .arg(mountpoint)
        .stderr(std::process::Stdio::null())
        .status();
    if matches!(status, Ok(s) if s.success()) {
        return true;
    }
    let Ok(path) = std::ffi::CString::new(mountpoint.as_os_str().as_encoded_bytes()) else {
        return false;
    };
    let flags = if lazy { libc::MNT_DETACH } else { 0 };
    // SAFETY: `path` is a valid NUL-terminated string.
    unsafe { libc::umount2(path.as_ptr(), flags) == 0 }
}

/// Mounts `tree` at `mountpoint` and serves it in the foreground until a stop signal
/// (then unmounts) or until it is unmounted from outside. `on_ready` runs once mounted.
pub fn serve(
    tree: Arc<Tree>,
    mountpoint: &Path,
    config: &MountConfig,
    on_ready: impl FnOnce(),
) -> Result<(), FuseError> {
    check_mountpoint(mountpoint)?;
    if let Err(e) = super::sigbus::install() {
        tracing::warn!(error = %e, "cannot install the SIGBUS handler; a snapshot file truncated while mounted may kill the daemon");
    }
    let mountpoint = mountpoint
        .canonicalize()
        .map_err(|_| FuseError::NotADirectory(mountpoint.to_path_buf()))?;
    let signals = StopSignals::block();
    let session = {
        let fs = MountFs::new(tree.clone(), config.threads, config.passthrough)
            .map_err(FuseError::Session)?;
        match Session::new(fs, &mountpoint, &mount_options(config, true)) {
            Ok(session) => session,
            Err(first) => {
                tracing::debug!(error = %first, "mounting with auto_unmount failed; mounting without it");
                let fs = MountFs::new(tree, config.threads, config.passthrough)
                    .map_err(FuseError::Session)?;
                Session::new(fs, &mountpoint, &mount_options(config, false)).map_err(|source| {
                    FuseError::Mount {
                        path: mountpoint.to_path_buf(),
                        source,
                    }
                })?
            }
        }
    };
    let mut session = session;
    let runner: JoinHandle<std::io::Result<()>> = std::thread::Builder::new()
        .name("mo-mem-fuse-session".into())
        .spawn(move || session.run())
        .map_err(FuseError::Session)?;
    on_ready();
    loop {
        if runner.is_finished() {
            tracing::info!(mountpoint = %mountpoint.display(), "unmounted from outside; exiting");
            break;
        }
        if let Some(signal) = signals.wait(Duration::from_millis(100)) {
            tracing::info!(signal, mountpoint = %mountpoint.display(), "stop signal; unmounting");
            if !unmount(&mountpoint, false) {
                tracing::warn!(mountpoint = %mountpoint.display(), "mount busy; detaching it lazily");
                unmount(&mountpoint, true);
            }
            let deadline = Instant::now() + Duration::from_secs(2);
            while !runner.is_finished() && Instant::now() < deadline {
                std::thread::sleep(Duration::from_millis(10));
            }
            if !runner.is_finished() {
                // Files are still open under the detached mount; exiting closes the FUSE
                // device, which ends the connection.
                return Ok(());
            }
            return match runner.join() {
                // The connection ended as asked: the kernel says so with ENODEV, or with
                // ECONNABORTED when it tore the connection down on the unmount.
                Ok(Err(e)) if e.raw_os_error() == Some(libc::ECONNABORTED) => Ok(()),
                Ok(result) => result.map_err(FuseError::Session),
                Err(_) => Err(panicked()),
            };
        }
    }
    match runner.join() {
        Ok(result) => result.map_err(FuseError::Session),
        Err(_) => Err(panicked()),
    }
}

fn panicked() -> FuseError {
    FuseError::Session(std::io::Error::other("the FUSE session thread panicked"))
}
