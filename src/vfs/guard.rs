//! Watching a served snapshot's source files: verified (or first seen) once, then re-checked
//! cheaply (`stat`: device, inode, size, mtime, ctime) before anything is served from them.
//!
//! A snapshot whose verification fails is refused ([`VfsError::NotTrusted`]); a file that
//! changes while mounted makes what depends on it fail with [`VfsError::Changed`] (EIO), or,
//! for an authenticated snapshot, refuses the whole snapshot (its proof no longer holds).

use super::error::{ChangedFile, FileChange, ForeignError, Untrusted, VfsError};
use super::gate::RAW_FILES;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime};

/// What identifies a file's content cheaply: a rewrite changes ctime (which no user can set
/// back), a replacement changes the inode, a truncation the size.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fingerprint {
    dev: u64,
    ino: u64,
    size: u64,
    mtime_ns: i128,
    ctime_ns: i128,
}

impl Fingerprint {
    /// The fingerprint of file metadata.
    pub fn of(meta: &std::fs::Metadata) -> Fingerprint {
        Fingerprint {
            dev: meta.dev(),
            ino: meta.ino(),
            size: meta.size(),
            mtime_ns: i128::from(meta.mtime()) * 1_000_000_000 + i128::from(meta.mtime_nsec()),
            ctime_ns: i128::from(meta.ctime()) * 1_000_000_000 + i128::from(meta.ctime_nsec()),
        }
    }

    /// The fingerprint of the file at `path`, following symbolic links as opening it does
    /// (a snapshot directory named by path may link its images from another disk; the store
    /// refuses links when it verifies, and a link swapped in later names another file).
    pub fn of_path(path: &Path) -> std::io::Result<Fingerprint> {
        std::fs::metadata(path).map(|m| Fingerprint::of(&m))
    }

    /// The file's size in bytes.
    pub fn size(&self) -> u64 {
        self.size
    }

    /// What differs from `then` (`None` if nothing).
    pub fn change_since(&self, then: &Fingerprint) -> Option<FileChange> {
        if (self.dev, self.ino) != (then.dev, then.ino) {
            Some(FileChange::Replaced)
        } else if self.size != then.size {
            Some(FileChange::Resized {
                from: then.size,
                to: self.size,
            })
        } else if (self.mtime_ns, self.ctime_ns) != (then.mtime_ns, then.ctime_ns) {
            Some(FileChange::Rewritten)
        } else {
            None
        }
    }

    fn ctime(&self) -> i128 {
        self.ctime_ns
    }
}

/// How a snapshot directory passed its verification.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verified {
    /// Authenticated (the store's HMAC manifest): these files were hashed and match.
    Authenticated(Vec<PathBuf>),
    /// Read at the user's choice without authentication (no manifest, or the check waived).
    Unauthenticated,
}

/// Decides whether a snapshot directory may be served; may hash every file (it is called
/// once per snapshot per mount, on first access).
pub trait SnapshotVerifier: Send + Sync {
    /// Verifies the snapshot in `dir`; `Err` is the verifier's own error saying why it is
    /// refused (kept typed behind [`ForeignError`], shown to the user as text).
    fn verify(&self, dir: &Path) -> Result<Verified, ForeignError>;

    /// Verifies `dir` once more, not from a verdict kept by [`SnapshotVerifier::verify`]: a
    /// file changed while it was being verified.
    fn verify_again(&self, dir: &Path) -> Result<Verified, ForeignError> {
        self.verify(dir)
    }
}

/// A file changed less than this before verification started is verified once more, as
/// file times come from a coarse clock.
const CTIME_SLACK: Duration = Duration::from_millis(50);

enum GuardState {
    Unchecked,
    Watching {
        files: Vec<(PathBuf, Fingerprint)>,
        authenticated: bool,
    },
    Refused(VfsError),
}

/// Watches one snapshot directory (see the module documentation).
pub struct SnapshotGuard {
    dir: PathBuf,
    verifier: Option<Arc<dyn SnapshotVerifier>>,
    state: Mutex<GuardState>,
}

impl SnapshotGuard {
    /// A guard for the snapshot in `dir`, verified by `verifier` if given (otherwise its
    /// files are only watched for changes).
    pub fn new(dir: &Path, verifier: Option<Arc<dyn SnapshotVerifier>>) -> SnapshotGuard {
        SnapshotGuard {
            dir: dir.to_path_buf(),
            verifier,
            state: Mutex::new(GuardState::Unchecked),
        }
    }

    /// Whether the snapshot's listing may still turn into a refusal: it is to be verified,
    /// was authenticated, or was refused as not trusted. (An unauthenticated snapshot whose
    /// files change keeps its listing: what changed answers `EIO`.)
    pub fn may_be_refused(&self) -> bool {
        if self.verifier.is_none() {
            return false;
        }
        let state = self.state.lock().unwrap_or_else(|p| p.into_inner());
        match &*state {
            GuardState::Unchecked => true,
            GuardState::Watching { authenticated, .. } => *authenticated,
            GuardState::Refused(e) => matches!(e, VfsError::NotTrusted(_)),
        }
    }

    /// Checks the snapshot may still be served: verifies it on the first call, then only
    /// compares its files' fingerprints. A refusal is final for this mount.
    pub fn check(&self) -> Result<(), VfsError> {
        let mut state = self.state.lock().unwrap_or_else(|p| p.into_inner());
        let outcome = match &*state {
            GuardState::Refused(e) => return Err(e.clone()),
            GuardState::Unchecked => match self.first_check() {
                Ok(watching) => {
                    *state = watching;
                    return Ok(());
                }
                Err(e) => e,
            },
            GuardState::Watching {
                files,
                authenticated,
            } => match changed(files) {
                None => return Ok(()),
                Some(change) if *authenticated => {
                    VfsError::NotTrusted(Untrusted::ChangedAfterVerification {
                        change,
                        dir: self.dir.clone(),
                    })
                }
                Some(file) => VfsError::Changed {
                    file,
                    since_listed: false,
                },
            },
        };
        tracing::warn!(snapshot = %self.dir.display(), "{outcome}");
        let reply = outcome.clone();
        *state = GuardState::Refused(outcome);
        Err(reply)
    }

    fn first_check(&self) -> Result<GuardState, VfsError> {
        for attempt in 0..2 {
            let started = SystemTime::now();
            let verified = match &self.verifier {
                Some(verifier) => {
                    let verified = match attempt {
                        0 => verifier.verify(&self.dir),
                        _ => verifier.verify_again(&self.dir),
                    };
                    verified.map_err(|e| VfsError::NotTrusted(Untrusted::Refused(e)))?
                }
                None => Verified::Unauthenticated,
            };
            let (mut paths, authenticated) = match verified {
                Verified::Authenticated(files) => (files, true),
                Verified::Unauthenticated => (Vec::new(), false),
            };
            for name in RAW_FILES {
                let path = self.dir.join(name);
                if !paths.contains(&path) && path.is_file() {
                    paths.push(path);
                }
            }
            let mut files = Vec::with_capacity(paths.len());
            for path in paths {
                let fingerprint = Fingerprint::of_path(&path).map_err(|e| {
                    VfsError::NotTrusted(Untrusted::Unreadable {
                        path: path.clone(),
                        source: Arc::new(e),
                    })
                })?;
                files.push((path, fingerprint));
            }
            let since = started
                .checked_sub(CTIME_SLACK)
                .and_then(|t| t.duration_since(SystemTime::UNIX_EPOCH).ok())
                .map_or(0, |d| d.as_nanos() as i128);
            let recent = files.iter().find(|(_, f)| f.ctime() >= since);
            match recent {
                Some((path, _)) if authenticated => {
                    if attempt == 0 {
                        std::thread::sleep(CTIME_SLACK * 2);
                        continue;
                    }
                    return Err(VfsError::NotTrusted(Untrusted::ChangedWhileVerifying {
                        path: path.clone(),
                    }));
                }
                _ => {
                    return Ok(GuardState::Watching {
                        files,
                        authenticated,
                    })
                }
            }
        }
        Err(VfsError::NotTrusted(Untrusted::ChangedWhileVerifying {
            path: self.dir.clone(),
        }))
    }
}

/// The first watched file whose fingerprint changed, and how.
fn changed(files: &[(PathBuf, Fingerprint)]) -> Option<ChangedFile> {
    for (path, then) in files {
        let change = match Fingerprint::of_path(path) {
            Ok(now) => now.change_since(then),
            Err(e) => Some(FileChange::Unreadable(Arc::new(e))),
        };
        if let Some(change) = change {
            return Some(ChangedFile {
                path: path.clone(),
                change,
            });
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Refuse;
    impl SnapshotVerifier for Refuse {
        fn verify(&self, dir: &Path) -> Result<Verified, ForeignError> {
            let why = std::io::Error::other(format!("{}: no manifest", dir.display()));
            Err(Arc::new(why))
        }
    }

    struct Accept(std::sync::atomic::AtomicUsize);
    impl SnapshotVerifier for Accept {
        fn verify(&self, dir: &Path) -> Result<Verified, ForeignError> {
            self.0.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
            Ok(Verified::Authenticated(vec![dir.join("wasm_memory.bin")]))
        }
    }

    fn snapshot() -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("wasm_memory.bin"), [7u8; 100]).unwrap();
        std::fs::write(dir.path().join("metadata.json"), b"{}").unwrap();
        // Older than the verification, so it is verified once.
        std::thread::sleep(CTIME_SLACK * 2);
        dir
    }

    #[test]
    fn refused_snapshot_stays_refused() {
        let dir = snapshot();
        let guard = SnapshotGuard::new(dir.path(), Some(Arc::new(Refuse)));
        let err = guard.check().unwrap_err();
        assert_eq!(err.errno(), libc::EACCES);
        let VfsError::NotTrusted(Untrusted::Refused(why)) = &err else {
            panic!("not the verifier's refusal: {err:?}");
        };
        assert!(why.downcast_ref::<std::io::Error>().is_some(), "{why:?}");
        assert_eq!(guard.check().unwrap_err().to_string(), err.to_string());
    }

    #[test]
    fn verified_once_then_a_change_refuses() {
        let dir = snapshot();
        let verifier = Arc::new(Accept(Default::default()));
        let guard = SnapshotGuard::new(dir.path(), Some(verifier.clone()));
        guard.check().unwrap();
        guard.check().unwrap();
        assert_eq!(verifier.0.load(std::sync::atomic::Ordering::SeqCst), 1);
        std::fs::write(dir.path().join("wasm_memory.bin"), [8u8; 100]).unwrap();
        let err = guard.check().unwrap_err();
        assert_eq!(err.errno(), libc::EACCES, "{err}");
        assert!(err.to_string().contains("after it was verified"), "{err}");
    }

    #[test]
    fn unverified_change_is_eio() {
        let dir = snapshot();
        let guard = SnapshotGuard::new(dir.path(), None);
        guard.check().unwrap();
        let f = std::fs::OpenOptions::new()
            .write(true)
            .open(dir.path().join("metadata.json"))
            .unwrap();
        f.set_len(1).unwrap();
        let err = guard.check().unwrap_err();
        assert_eq!(err.errno(), libc::EIO, "{err}");
        assert!(err.to_string().contains("size changed"), "{err}");
        assert_eq!(guard.check().unwrap_err().to_string(), err.to_string());
    }
}
