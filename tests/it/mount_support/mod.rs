//! Shared by the mount tests: a running `mo-mem mount` that is unmounted and checked on
//! drop (with any arguments, its log kept in a file), and synthetic snapshot directories.
//! Uses `crate::common` (`tests/it/common`).

use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

pub const BIN: &str = env!("CARGO_BIN_EXE_mo-mem");

/// How long a test waits for a state before it calls the wait a hang: a ceiling, never a
/// window a loaded machine must meet.
pub const HANG: Duration = Duration::from_secs(120);

/// The log lines of `log` holding `needle`.
pub fn log_count(log: &str, needle: &str) -> usize {
    log.lines().filter(|l| l.contains(needle)).count()
}

/// Whether this machine can mount FUSE file systems (CI installs fuse3). When it cannot, the
/// caller skips its test: a failure under `MO_MEM_STRICT=1` (`tests/it/common/skip.rs`).
pub fn fuse_available() -> bool {
    crate::common::machine::require(crate::common::machine::fuse())
}

pub fn is_mounted(mountpoint: &Path) -> bool {
    let mounts = std::fs::read_to_string("/proc/self/mountinfo").unwrap_or_default();
    let target = mountpoint.to_string_lossy();
    mounts
        .lines()
        .any(|l| l.split(' ').nth(4) == Some(&*target))
}

/// A running `mo-mem mount`, its stderr kept in a log file; unmounted (and checked) on drop.
pub struct Mounted {
    pub child: Option<Child>,
    pub mountpoint: PathBuf,
    pub log: PathBuf,
    _dir: tempfile::TempDir,
}

impl Mounted {
    /// Mounts `sources` at a fresh temporary mount point.
    pub fn start(sources: &[&Path]) -> Mounted {
        Mounted::start_command(quiet_command(), sources)
    }

    /// Mounts `sources` at `mountpoint` (an existing empty directory).
    pub fn start_at(sources: &[&Path], mountpoint: &Path) -> Mounted {
        let dir = tempfile::tempdir().unwrap();
        Mounted::spawn(
            quiet_command(),
            sources,
            mountpoint.canonicalize().unwrap(),
            dir,
        )
    }

    /// Runs `mo-mem mount ARGS MOUNTPOINT` from `command` (its env set by the caller) at a
    /// fresh temporary mount point.
    pub fn start_command<S: AsRef<OsStr>>(command: Command, args: &[S]) -> Mounted {
        let dir = tempfile::tempdir().unwrap();
        let mountpoint = dir.path().join("mnt");
        std::fs::create_dir(&mountpoint).unwrap();
        Mounted::spawn(command, args, mountpoint, dir)
    }

    /// Runs `mo-mem mount ARGS MOUNTPOINT` from `command` at `mountpoint` (an existing
    /// empty directory the daemon may use).
    pub fn start_command_at<S: AsRef<OsStr>>(
        command: Command,
        args: &[S],
        mountpoint: &Path,
    ) -> Mounted {
        let dir = tempfile::tempdir().unwrap();
        Mounted::spawn(command, args, mountpoint.to_path_buf(), dir)
    }

    fn spawn<S: AsRef<OsStr>>(
        mut command: Command,
        args: &[S],
        mountpoint: PathBuf,
        dir: tempfile::TempDir,
    ) -> Mounted {
        let log = dir.path().join("mount.log");
        let child = command
            .arg("mount")
            .args(args)
            .arg(&mountpoint)
            .stdout(Stdio::null())
            .stderr(std::fs::File::create(&log).unwrap())
            .spawn()
            .unwrap();
        let deadline = Instant::now() + Duration::from_secs(20);
        while !is_mounted(&mountpoint) {
            assert!(Instant::now() < deadline, "mount did not appear");
            std::thread::sleep(Duration::from_millis(20));
        }
        Mounted {
            child: Some(child),
            mountpoint,
            log,
            _dir: dir,
        }
    }

    /// The directory of the mount's only snapshot (the test mounted one source).
    pub fn only_snapshot(&self) -> PathBuf {
        let mut entries = std::fs::read_dir(&self.mountpoint).unwrap();
        let entry = entries.next().expect("one snapshot").unwrap();
        assert!(entries.next().is_none(), "more than one snapshot mounted");
        entry.path()
    }

    pub fn path(&self, rel: &str) -> PathBuf {
        self.mountpoint.join(rel)
    }

    /// What the daemon wrote to stderr so far.
    pub fn log_text(&self) -> String {
        std::fs::read_to_string(&self.log).unwrap_or_default()
    }

    /// Polls the daemon's log until `ready` holds for it; returns that log. The ceiling
    /// ([`HANG`]) only bounds a hang: the test waits for the state, not for a time.
    pub fn wait_for_log(&self, what: &str, ready: impl Fn(&str) -> bool) -> String {
        let deadline = Instant::now() + HANG;
        loop {
            let log = self.log_text();
            if ready(&log) {
                return log;
            }
            assert!(
                Instant::now() < deadline,
                "waited {HANG:?} for {what}; log:\n{log}"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// Whether the daemon is still running.
    pub fn alive(&mut self) -> bool {
        match &mut self.child {
            Some(child) => child.try_wait().unwrap().is_none(),
            None => false,
        }
    }

    /// Sends SIGTERM and waits for the exit; returns how the daemon exited.
    pub fn stop(&mut self) -> std::process::ExitStatus {
        let mut child = self.child.take().unwrap();
        // SAFETY: kill(2) on our own child's pid.
        unsafe { libc::kill(child.id() as i32, libc::SIGTERM) };
        wait_with_deadline(&mut child, Duration::from_secs(10))
    }
}

/// `mo-mem` logging warnings only.
fn quiet_command() -> Command {
    let mut command = Command::new(BIN);
    command.env("MO_MEM_LOG", "warn");
    command
}

pub fn wait_with_deadline(child: &mut Child, limit: Duration) -> std::process::ExitStatus {
    let deadline = Instant::now() + limit;
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return status;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("process {} did not exit in {limit:?}", child.id());
        }
        std::thread::sleep(Duration::from_millis(10));
    }
}

impl Drop for Mounted {
    fn drop(&mut self) {
        if self.child.is_some() {
            let status = self.stop();
            if !std::thread::panicking() {
                assert!(
                    status.success(),
                    "daemon exit status {status}: {}",
                    self.log_text()
                );
            }
        }
        if is_mounted(&self.mountpoint) {
            let _ = Command::new("fusermount3")
                .args(["-u", "-z"])
                .arg(&self.mountpoint)
                .status();
            if !std::thread::panicking() {
                panic!("stale mount left at {}", self.mountpoint.display());
            }
        }
    }
}

/// Runs `script` with sh in a new terminal session (its own answers from a mount's `eval` file).
pub fn in_new_session(script: &str, eval: &Path) -> Child {
    Command::new("setsid")
        .args(["-w", "sh", "-c", script, "sh"])
        .arg(eval)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

/// The errno a failed read of `path` gives (`None` if it reads).
pub fn read_errno(path: &Path) -> Option<i32> {
    std::fs::read(path)
        .err()
        .map(|e| e.raw_os_error().unwrap_or(0))
}

/// A snapshot directory with raw files only (a deterministic byte pattern).
pub fn raw_snapshot(root: &Path, name: &str, memory: usize) -> PathBuf {
    let dir = root.join(name);
    std::fs::create_dir_all(&dir).unwrap();
    let bytes: Vec<u8> = (0..memory).map(|i| (i * 7 + i / 4096) as u8).collect();
    std::fs::write(dir.join("wasm_memory.bin"), bytes).unwrap();
    std::fs::write(dir.join("stable_memory.bin"), b"stable bytes").unwrap();
    std::fs::write(dir.join("wasm_module.bin"), b"\0asm\x01\0\0\0").unwrap();
    std::fs::write(
        dir.join("metadata.json"),
        b"{\"taken_at_timestamp\": 1700000000000000000}\n",
    )
    .unwrap();
    dir
}

/// The files below `dir`, in order, but the control files. The kind of each entry comes from
/// the directory listing; only files outside `objects/` (no control file is in there) are
/// stat'ed, since a file's size costs its rendering.
pub fn files_under(dir: &Path, out: &mut Vec<PathBuf>) {
    files_below(dir, false, out)
}

/// [`files_under`] of `dir`, which is inside `objects/` if `in_objects`.
fn files_below(dir: &Path, in_objects: bool, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| {
            let e = e.unwrap();
            (e.path(), e.file_type().unwrap())
        })
        .collect();
    entries.sort_by(|a, b| a.0.cmp(&b.0));
    for (path, kind) in entries {
        if kind.is_dir() {
            let objects = in_objects || path.file_name().is_some_and(|n| n == "objects");
            files_below(&path, objects, out);
        } else if kind.is_file()
            && (in_objects || !is_control_file(&std::fs::symlink_metadata(&path).unwrap()))
        {
            out.push(path);
        }
    }
}

/// Whether a mounted file is a control file (`eval`, a method's): the only writable files.
pub fn is_control_file(meta: &std::fs::Metadata) -> bool {
    use std::os::unix::fs::PermissionsExt;
    meta.permissions().mode() & 0o200 != 0
}
