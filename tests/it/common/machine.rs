//! Machine properties the suite needs, checked before a test relies on them, so that a machine
//! set up differently fails (under `MO_MEM_STRICT=1`) or skips with the property and its fix
//! named, never with a timeout deep inside the test. `scripts/setup-machine` (run by `.ci/run`)
//! provides each of them; `docs/ci.md` lists them.

use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::process::Command;

/// Whether the FUSE device and `fusermount3` are there (what every mount test needs); says
/// which is missing and how to fix it otherwise.
pub fn fuse() -> Result<(), String> {
    if !Path::new("/dev/fuse").exists() {
        return Err(
            "no /dev/fuse on this machine (load the fuse module, or run the container \
                    with --device /dev/fuse)"
                .into(),
        );
    }
    if Command::new("fusermount3").arg("-V").output().is_err() {
        return Err(
            "no fusermount3 on this machine (install the fuse3 package: scripts/setup-machine)"
                .into(),
        );
    }
    Ok(())
}

/// Whether a user other than root may mount: `/dev/fuse` readable and writable by all (mode
/// 0666, as a distribution's udev rule sets it) and `fusermount3` setuid root.
pub fn fuse_for_all_users() -> Result<(), String> {
    fuse()?;
    let mode = std::fs::metadata("/dev/fuse")
        .map_err(|e| format!("/dev/fuse: {e}"))?
        .permissions()
        .mode();
    if mode & 0o006 != 0o006 {
        return Err(format!(
            "/dev/fuse has mode {:o}: other users cannot open it, so an unprivileged daemon's \
             fusermount3 fails with 'Permission denied' (fix: chmod 666 /dev/fuse, as udev's \
             rule does; scripts/setup-machine does it)",
            mode & 0o777
        ));
    }
    let fusermount = which("fusermount3").ok_or("fusermount3 is not on PATH")?;
    let fm_mode = std::fs::metadata(&fusermount)
        .map_err(|e| format!("{}: {e}", fusermount.display()))?
        .permissions()
        .mode();
    if fm_mode & 0o4000 == 0 {
        return Err(format!(
            "{} is not setuid root, so other users cannot mount (fix: chmod u+s {0}; \
             scripts/setup-machine does it)",
            fusermount.display()
        ));
    }
    Ok(())
}

/// The first `name` on `PATH`.
fn which(name: &str) -> Option<std::path::PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|dir| dir.join(name))
        .find(|p| p.is_file())
}

/// Whether the test runs as root with `setpriv` at hand (to run the daemon as `nobody`).
pub fn root_with_setpriv() -> Result<(), String> {
    // SAFETY: geteuid(2) takes no arguments and cannot fail.
    if unsafe { libc::geteuid() } != 0 {
        return Err(
            "not root: cannot run the daemon as another user (run the tests as root)".into(),
        );
    }
    if Command::new("setpriv").arg("-V").output().is_err() {
        return Err("no setpriv (install util-linux: scripts/setup-machine)".into());
    }
    Ok(())
}

/// `Ok` as `true`; an `Err` reported through [`super::skip::skipped`] (a failure under
/// `MO_MEM_STRICT=1`) as `false`.
pub fn require(check: Result<(), String>) -> bool {
    match check {
        Ok(()) => true,
        Err(why) => {
            super::skip::skipped(&why);
            false
        }
    }
}

/// Whether headless Chromium (Debian's `chromium` package) runs: the HTML report's tests
/// open their pages in it.
pub fn chromium() -> Result<(), String> {
    match Command::new("chromium").arg("--version").output() {
        Ok(out) if out.status.success() => Ok(()),
        Ok(out) => Err(format!(
            "chromium --version failed ({}): {} (reinstall Debian's chromium package: \
             scripts/setup-machine)",
            out.status,
            String::from_utf8_lossy(&out.stderr).trim()
        )),
        Err(e) => Err(format!(
            "no chromium on this machine ({e}; install Debian's chromium package: \
             scripts/setup-machine)"
        )),
    }
}
