//! Shared by the trust, fault and load tests: a store holding imported fixture snapshots
//! under a private key, and a `mo-mem mount` with any arguments, its log kept in a file.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

pub const BIN: &str = env!("CARGO_BIN_EXE_mo-mem");

/// Whether this machine can mount FUSE file systems (CI installs fuse3).
pub fn fuse_available() -> bool {
    let ok =
        Path::new("/dev/fuse").exists() && Command::new("fusermount3").arg("-V").output().is_ok();
    if !ok {
        eprintln!("SKIPPED: no /dev/fuse or fusermount3 on this machine");
    }
    ok
}

pub fn is_mounted(mountpoint: &Path) -> bool {
    let mounts = std::fs::read_to_string("/proc/self/mountinfo").unwrap_or_default();
    let target = mountpoint.to_string_lossy();
    mounts
        .lines()
        .any(|l| l.split(' ').nth(4) == Some(&*target))
}

/// A temporary store and config directory (holding the store key).
pub struct TestStore {
    pub dir: tempfile::TempDir,
}

impl TestStore {
    pub fn new() -> TestStore {
        TestStore {
            dir: tempfile::tempdir().unwrap(),
        }
    }

    pub fn root(&self) -> PathBuf {
        self.dir.path().join("store")
    }

    pub fn config(&self) -> PathBuf {
        self.dir.path().join("config")
    }

    /// `mo-mem ARGS` with this store's key and store.
    pub fn command(&self) -> Command {
        let mut command = Command::new(BIN);
        command
            .env("MO_MEM_CONFIG_DIR", self.config())
            .env("MO_MEM_STORE", self.root())
            .env("MO_MEM_LOG", "warn");
        command
    }

    pub fn run(&self, args: &[&str]) -> Output {
        self.command().args(args).output().unwrap()
    }

    /// Imports the snapshot directory `from` as `<canister>/<snapshot>`; returns its path.
    pub fn import(&self, from: &Path, canister: &str, snapshot: &str) -> PathBuf {
        let out = self
            .command()
            .arg("import")
            .arg(from)
            .args(["--canister", canister, "--snapshot", snapshot, "--trust"])
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "import failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let dir = self.root().join(canister).join(snapshot);
        assert!(dir.join("manifest.json").is_file());
        dir
    }
}

/// Overwrites one byte of `path` in place (same size, new content).
pub fn flip_byte(path: &Path, offset: u64) {
    use std::os::unix::fs::FileExt;
    let file = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .open(path)
        .unwrap();
    let mut byte = [0u8];
    file.read_exact_at(&mut byte, offset).unwrap();
    byte[0] ^= 0x5a;
    file.write_all_at(&byte, offset).unwrap();
}

/// A running `mo-mem mount`, its stderr in `log`; unmounted (and checked) on drop.
pub struct Mount {
    pub child: Option<Child>,
    pub mountpoint: PathBuf,
    pub log: PathBuf,
    _dir: tempfile::TempDir,
}

impl Mount {
    /// Runs `mo-mem mount ARGS MOUNTPOINT` from `command` (env set by the caller).
    pub fn start(mut command: Command, args: &[&str]) -> Mount {
        let dir = tempfile::tempdir().unwrap();
        let mountpoint = dir.path().join("mnt");
        std::fs::create_dir(&mountpoint).unwrap();
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
        Mount {
            child: Some(child),
            mountpoint,
            log,
            _dir: dir,
        }
    }

    pub fn path(&self, rel: &str) -> PathBuf {
        self.mountpoint.join(rel)
    }

    pub fn log_text(&self) -> String {
        std::fs::read_to_string(&self.log).unwrap_or_default()
    }

    /// Whether the daemon is still running.
    pub fn alive(&mut self) -> bool {
        match &mut self.child {
            Some(child) => child.try_wait().unwrap().is_none(),
            None => false,
        }
    }

    /// Sends SIGTERM and waits for the exit.
    pub fn stop(&mut self) -> std::process::ExitStatus {
        let mut child = self.child.take().unwrap();
        // SAFETY: kill(2) on our own child's pid.
        unsafe { libc::kill(child.id() as i32, libc::SIGTERM) };
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            if let Some(status) = child.try_wait().unwrap() {
                return status;
            }
            if Instant::now() > deadline {
                let _ = child.kill();
                panic!("mo-mem mount did not exit in 10 s");
            }
            std::thread::sleep(Duration::from_millis(10));
        }
    }
}

impl Drop for Mount {
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

/// The errno a failed read of `path` gives (`None` if it reads).
pub fn read_errno(path: &Path) -> Option<i32> {
    std::fs::read(path)
        .err()
        .map(|e| e.raw_os_error().unwrap_or(0))
}
