//! Runs the examples of docs/mount.md: every ```console block's `$ ` commands run with
//! `sh` in a directory holding `snapshots/counter/` and its mount at `mnt/` (and the
//! `collections` fixture at `snapshots/collections/`, not mounted), and their
//! output (stdout and stderr) must be exactly what the document shows.

use crate::common;
use crate::mount_support;

use mount_support::{fuse_available, raw_snapshot, Mounted, BIN};
use std::path::Path;
use std::process::Command;

#[test]
fn docs_mount_md_examples_hold() {
    if !fuse_available() {
        return;
    }
    let doc = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/mount.md"))
        .unwrap();
    let examples = common::doc_examples::console_examples(&doc);
    assert!(examples.len() >= 10, "{examples:?}");
    let work = tempfile::tempdir().unwrap();
    let snapshots = work.path().join("snapshots");
    let snap = raw_snapshot(&snapshots, "counter", 65536);
    // The "Collections" examples read the `collections` fixture with `mo-mem ls` and `cat`.
    common::copy_snapshot(
        &common::fixture("collections", "eop"),
        &snapshots.join("collections"),
    );
    let mnt = work.path().join("mnt");
    std::fs::create_dir(&mnt).unwrap();
    let _mounted = Mounted::start_at(&[&snap], &mnt);
    let bin_dir = Path::new(BIN).parent().unwrap();
    let path = format!(
        "{}:{}",
        bin_dir.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    for (command, expected) in examples {
        let output = Command::new("sh")
            .arg("-c")
            .arg(format!("{{ {command}\n}} 2>&1"))
            .current_dir(work.path())
            .env("PATH", &path)
            .env("LC_ALL", "C")
            .output()
            .unwrap();
        let actual = String::from_utf8_lossy(&output.stdout);
        assert_eq!(actual, expected, "docs/mount.md example `{command}`");
    }
}
