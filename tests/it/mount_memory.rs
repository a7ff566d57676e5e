//! The mount's memory budget (docs/mount.md, "Memory"): after a browse of a snapshot (its
//! directory, `info.json`, `stats.json`, `objects/` down to object files, every stable
//! variable's listing and its `.json` file), the daemon's anonymous memory (`RssAnon` in
//! `/proc/PID/status`) stays within 64 MiB + `--cache-mib` + 1% of the main-memory image.
//!
//! Run on the largest committed fixture, and on the EOP heap of the generated `big-small`
//! fixture (a 378 MiB image, 242 MiB of heap over four partitions; `common::generated_fixture`
//! makes it when it is not up to date), where the 1% term is 3.8 MiB and the browse renders the
//! JSON of two variables of about nine million elements each. The dense fixture (41.5 M
//! objects, 1.62 GiB) is the benchmark's heap: `scripts/bench-mount` reports its RssAnon after
//! the same browse against this bound (docs/mount.md, "Memory").

use crate::common;
use crate::mount_support::{fuse_available, Mounted, BIN};
use std::path::{Path, PathBuf};
use std::process::Command;

/// The fixed part of the budget, in bytes (docs/mount.md, "Memory").
const FIXED_BYTES: u64 = 64 << 20;

/// The content cache the daemon is started with, in MiB.
const CACHE_MIB: u64 = 16;

/// The daemon's `RssAnon` in bytes, read from `/proc`.
fn rss_anon(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    let line = status
        .lines()
        .find(|l| l.starts_with("RssAnon:"))
        .expect("RssAnon in /proc/PID/status");
    let kib: u64 = line
        .split_whitespace()
        .nth(1)
        .and_then(|n| n.parse().ok())
        .expect("a number of kB");
    kib * 1024
}

/// The documented bound for a snapshot whose image has `image_bytes`.
fn bound(image_bytes: u64) -> u64 {
    FIXED_BYTES + (CACHE_MIB << 20) + image_bytes / 100
}

fn entries(dir: &Path) -> Vec<PathBuf> {
    let mut names: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("ls {}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .collect();
    names.sort();
    names
}

fn read(path: &Path) -> Vec<u8> {
    std::fs::read(path).unwrap_or_else(|e| panic!("cat {}: {e}", path.display()))
}

/// The browse, and a little more: listings at every level, the generated files of
/// the snapshot, each stable variable's JSON (the whole value) but those named in `skip`,
/// object files.
fn browse(snap: &Path, skip: &[&str]) -> usize {
    let mut files = 0;
    assert!(!entries(snap).is_empty());
    for name in ["info.json", "stats.json"] {
        let text = read(&snap.join(name));
        serde_json::from_slice::<serde_json::Value>(&text).unwrap();
        files += 1;
    }
    let regions = entries(&snap.join("objects"));
    assert!(!regions.is_empty(), "objects/ lists regions");
    for region in regions.iter().take(2) {
        let blocks = entries(region);
        assert!(!blocks.is_empty(), "{} lists blocks", region.display());
        for object in entries(&blocks[0]).iter().take(3) {
            let json: serde_json::Value = serde_json::from_slice(&read(object)).unwrap();
            assert!(json.is_object(), "{} is a JSON object", object.display());
            files += 1;
        }
    }
    for var in entries(&snap.join("vars")) {
        if var.is_dir() {
            // a compound: its listing, the first entry below it, two levels down
            let mut dir = var.clone();
            for _ in 0..3 {
                let Some(sub) = entries(&dir).into_iter().find(|p| p.is_dir()) else {
                    break;
                };
                dir = sub;
            }
        } else if !skip.iter().any(|s| var.ends_with(s)) {
            let text = read(&var);
            assert!(!text.is_empty(), "{} is empty", var.display());
            files += 1;
        }
    }
    files
}

fn check_budget(snapshot: &Path, skip: &[&str]) {
    let image_bytes = std::fs::metadata(snapshot.join("wasm_memory.bin"))
        .unwrap()
        .len();
    let mut command = Command::new(BIN);
    command.env("MO_MEM_LOG", "warn");
    let cache = CACHE_MIB.to_string();
    let source = snapshot.to_str().unwrap();
    let mount = Mounted::start_command(command, &["--no-verify", "--cache-mib", &cache, source]);
    let pid = mount.child.as_ref().unwrap().id();
    let name = entries(&mount.mountpoint)
        .into_iter()
        .next()
        .expect("the snapshot is served");
    let before = rss_anon(pid);
    let files = browse(&name, skip);
    let after = rss_anon(pid);
    // a second browse answers from what the first kept: the budget holds still
    browse(&name, skip);
    let again = rss_anon(pid);
    eprintln!(
        "{}: {files} files; RssAnon {} KiB at the start, {} KiB after the browse, {} KiB after \
         a second; bound {} KiB",
        snapshot.display(),
        before >> 10,
        after >> 10,
        again >> 10,
        bound(image_bytes) >> 10
    );
    assert!(
        after <= bound(image_bytes) && again <= bound(image_bytes),
        "RssAnon {after} then {again} bytes, over the bound of {} bytes\n{}",
        bound(image_bytes),
        mount.log_text()
    );
}

#[test]
fn browsing_a_fixture_keeps_the_daemon_within_its_memory_budget() {
    if !fuse_available() {
        return;
    }
    check_budget(&common::fixture("collections", "eop"), &[]);
}

#[test]
fn browsing_a_generated_multi_partition_heap_keeps_the_daemon_within_its_memory_budget() {
    let Some(root) = common::generated_fixture("big-small") else {
        return;
    };
    if !fuse_available() {
        return;
    }
    let snapshot = root.join("eop");
    let image_bytes = std::fs::metadata(snapshot.join("wasm_memory.bin"))
        .unwrap()
        .len();
    assert!(
        image_bytes >= 200 << 20,
        "big-small/eop: a {image_bytes}-byte image is too small for the 1% term to matter"
    );
    check_budget(&snapshot, &[]);
}
