//! The store's HMAC key: 32 random bytes in the XDG config directory, mode 0600, made on first use.

use super::error::{io_at, StoreError};
use super::fsutil::{create_private_dir, FILE_MODE};
use std::fs::OpenOptions;
use std::io::{Read, Write};
use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
use std::path::{Path, PathBuf};

/// Environment variable that overrides the config directory holding the key (tests, sandboxes).
pub const CONFIG_DIR_ENV: &str = "MO_MEM_CONFIG_DIR";
/// Length of the key in bytes.
pub const KEY_LEN: usize = 32;

/// The secret that authenticates manifests on this machine.
#[derive(Clone)]
pub struct StoreKey {
    bytes: [u8; KEY_LEN],
}

impl std::fmt::Debug for StoreKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("StoreKey(REDACTED)")
    }
}

impl StoreKey {
    /// A key from known bytes (tests).
    pub fn from_bytes(bytes: [u8; KEY_LEN]) -> Self {
        Self { bytes }
    }

    /// The raw key bytes.
    pub fn as_bytes(&self) -> &[u8; KEY_LEN] {
        &self.bytes
    }

    /// The default key file: `$MO_MEM_CONFIG_DIR/store.key`, else `<XDG config>/mo-mem/store.key`.
    pub fn default_path() -> Result<PathBuf, StoreError> {
        if let Some(dir) = std::env::var_os(CONFIG_DIR_ENV) {
            return Ok(PathBuf::from(dir).join("store.key"));
        }
        let base = dirs::config_dir().ok_or(StoreError::NoDirectory("config"))?;
        Ok(base.join("mo-mem").join("store.key"))
    }

    /// Loads the key at `path`, creating it (mode 0600, parents 0700) if it does not exist.
    pub fn load_or_create(path: &Path) -> Result<Self, StoreError> {
        match Self::load(path) {
            Err(StoreError::Io { source, .. }) if source.kind() == std::io::ErrorKind::NotFound => {
                Self::create(path)
            }
            other => other,
        }
    }

    /// Loads an existing key, refusing one that others can read or that has the wrong length.
    pub fn load(path: &Path) -> Result<Self, StoreError> {
        let mut f = std::fs::File::open(path).map_err(io_at(path))?;
        let meta = f.metadata().map_err(io_at(path))?;
        let mode = meta.permissions().mode() & 0o777;
        if mode & 0o077 != 0 {
            return Err(StoreError::BadKey {
                path: path.to_path_buf(),
                reason: format!("mode {mode:o} lets others read it; run `chmod 600` on it"),
            });
        }
        if meta.len() != KEY_LEN as u64 {
            return Err(StoreError::BadKey {
                path: path.to_path_buf(),
                reason: format!("{} bytes, expected {KEY_LEN}", meta.len()),
            });
        }
        let mut bytes = [0u8; KEY_LEN];
        f.read_exact(&mut bytes).map_err(io_at(path))?;
        Ok(Self { bytes })
    }

    fn create(path: &Path) -> Result<Self, StoreError> {
        if let Some(parent) = path.parent() {
            create_private_dir(parent)?;
        }
        let mut bytes = [0u8; KEY_LEN];
        let rng = Path::new("/dev/urandom");
        std::fs::File::open(rng)
            .and_then(|mut f| f.read_exact(&mut bytes))
            .map_err(io_at(rng))?;
        // create_new: two processes racing both end up with the winner's key.
        let created = OpenOptions::new()
            .write(true)
            .create_new(true)
            .mode(FILE_MODE)
            .open(path);
        match created {
            Ok(mut f) => {
                f.write_all(&bytes).map_err(io_at(path))?;
                f.sync_all().map_err(io_at(path))?;
                Ok(Self { bytes })
            }
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => Self::load(path),
            Err(e) => Err(io_at(path)(e)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn created_once_with_mode_0600_and_reloaded() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("cfg").join("store.key");
        let a = StoreKey::load_or_create(&path).unwrap();
        let mode = std::fs::metadata(&path).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o600);
        let b = StoreKey::load_or_create(&path).unwrap();
        assert_eq!(a.as_bytes(), b.as_bytes());
    }

    #[test]
    fn readable_key_refused() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("store.key");
        StoreKey::load_or_create(&path).unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o644)).unwrap();
        assert!(matches!(
            StoreKey::load(&path),
            Err(StoreError::BadKey { .. })
        ));
    }
}
