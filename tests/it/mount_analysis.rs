//! The mount's `analysis/` directory, for real (FUSE), on fixtures of both persistence modes:
//! every file's `stat` size is the bytes read, the JSON parses, `retained.json` and
//! `report.txt` are byte for byte what `mo-mem retained --json` and `mo-mem report` print,
//! `report.html` what `mo-mem report --html FILE` writes,
//! and `types.json`, `top.json`, `garbage.json` are the parts of `mo-mem retained --by type
//! --json`; `mo-mem cat` serves the same bytes without a mount.

use crate::common;
use crate::mount_support;

use mount_support::{fuse_available, Mounted, BIN};
use serde_json::Value as Json;
use std::path::Path;
use std::process::Command;

fn mo_mem(args: &[&str]) -> Vec<u8> {
    let out = Command::new(BIN).args(args).output().expect("run mo-mem");
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}

fn json(bytes: &[u8], what: &str) -> Json {
    serde_json::from_slice(bytes).unwrap_or_else(|e| panic!("{what} is not JSON: {e}"))
}

#[test]
fn analysis_files_are_what_the_commands_print() {
    if !fuse_available() {
        return;
    }
    let fixtures = [("compound", "eop"), ("compound", "copying")];
    let dirs: Vec<_> = fixtures
        .iter()
        .map(|(name, mode)| common::fixture(name, mode))
        .collect();
    let sources: Vec<&Path> = dirs.iter().map(|d| d.as_path()).collect();
    let mount = Mounted::start(&sources);
    // docs/mount.md "Names": the fewest trailing components that tell the paths apart,
    // `…/compound/eop` and `…/compound/copying` differ in their last one.
    let names = ["eop", "copying"];
    let mut listed: Vec<String> = std::fs::read_dir(&mount.mountpoint)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    listed.sort();
    assert_eq!(listed, ["copying", "eop"], "the mount's root");
    for (((name, mode), dir), served_as) in fixtures.iter().zip(&dirs).zip(names) {
        let served = mount.path(served_as);
        let analysis = served.join("analysis");
        let mut listed: Vec<String> = std::fs::read_dir(&analysis)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        listed.sort();
        assert_eq!(
            listed,
            [
                "doctor.json",
                "doctor.txt",
                "garbage.json",
                "report.html",
                "report.txt",
                "retained.json",
                "retained.svg",
                "top.json",
                "types.json"
            ]
        );
        let path = dir.to_str().unwrap();
        let mut files = std::collections::BTreeMap::new();
        for file in &listed {
            let at = analysis.join(file);
            let size = std::fs::metadata(&at).unwrap().len();
            let bytes = std::fs::read(&at).unwrap();
            assert_eq!(size, bytes.len() as u64, "{name}/{mode} {file}: stat size");
            if file.ends_with(".json") {
                json(&bytes, file);
            }
            // The same bytes without a mount.
            let cat = mo_mem(&["cat", path, &format!("analysis/{file}")]);
            assert_eq!(cat, bytes, "{name}/{mode} {file}: mo-mem cat");
            files.insert(file.clone(), bytes);
        }
        assert_eq!(
            files["retained.json"],
            mo_mem(&["retained", path, "--json"]),
            "{name}/{mode} retained.json"
        );
        assert_eq!(
            files["report.txt"],
            mo_mem(&["report", path]),
            "{name}/{mode} report.txt"
        );
        let svg = tempfile::tempdir().unwrap();
        let html = svg.path().join("report.html");
        mo_mem(&["report", path, "--html", html.to_str().unwrap()]);
        assert!(
            files["report.html"] == std::fs::read(&html).unwrap(),
            "{name}/{mode} report.html: not the bytes of mo-mem report --html"
        );
        let svg = svg.path().join("retained.svg");
        mo_mem(&["retained", path, "--svg", svg.to_str().unwrap()]);
        assert_eq!(
            files["retained.svg"],
            std::fs::read(&svg).unwrap(),
            "{name}/{mode} retained.svg"
        );
        let by_type = json(
            &mo_mem(&[
                "retained", path, "--json", "--by", "type", "--top", "100000",
            ]),
            "retained --by type",
        );
        assert_eq!(json(&files["types.json"], "types.json"), by_type["types"]);
        assert_eq!(
            json(&files["garbage.json"], "garbage.json"),
            by_type["garbage"]
        );
        let top = json(&mo_mem(&["retained", path, "--json"]), "retained")["top"].clone();
        assert_eq!(json(&files["top.json"], "top.json"), top);
        assert!(top.as_array().is_some_and(|t| t.len() == 20), "{top}");
        let readme = std::fs::read_to_string(served.join("README")).unwrap();
        assert!(readme.contains("analysis/"), "{readme}");
    }
}

/// Without FUSE: listing `analysis/` computes nothing; the first file computes the analysis of
/// the one opened snapshot, renders the files and drops it (it is not kept outside the
/// content cache's budget); a script that asks for it (`eval`) keeps it with the opened heap,
/// and the files agree with it.
#[test]
fn the_analysis_is_computed_on_first_read_and_not_kept() {
    use mo_mem::image::ReaderLimits;
    use mo_mem::script::workers::mount_limits;
    use mo_mem::serve::{services, Snapshots};
    use mo_mem::vfs::{Entry, SessionId, SnapshotDir, Tree, TreeConfig};
    use std::sync::Arc;

    let dir = common::fixture("compound", "eop");
    let snapshots = Arc::new(Snapshots::new(ReaderLimits::default()));
    let snapshot = SnapshotDir::new("snap", &dir, services(snapshots.clone(), mount_limits()));
    let tree = Tree::new(Entry::Dir(Arc::new(snapshot)), TreeConfig::default()).unwrap();
    let listed = tree
        .names(tree.resolve("/analysis").unwrap(), true)
        .unwrap();
    assert_eq!(listed.len(), 9, "{listed:?}");
    let opened = snapshots.get(&dir);
    let heap = opened.heap().expect("opened").clone();
    assert!(!heap.has_analysis(), "listing computes nothing");
    let garbage = tree
        .read_all(tree.resolve("/analysis/garbage.json").unwrap())
        .unwrap();
    let report = tree
        .read_all(tree.resolve("/analysis/report.txt").unwrap())
        .unwrap();
    assert!(!heap.has_analysis(), "the files do not keep the analysis");
    assert!(!report.is_empty());
    let want = heap.analysis().unwrap().garbage();
    let garbage = json(&garbage, "garbage.json");
    assert_eq!(garbage["bytes"], want.bytes);
    // eval reads the same analysis (by address: one per opened snapshot).
    let eval = tree.resolve("/eval").unwrap();
    let open = tree.open(eval, true, SessionId(1)).unwrap();
    tree.write(open.fh, 0, b"heap.garbage().bytes", false)
        .unwrap();
    let answer = tree.read(open.fh, 0, 1 << 20).unwrap();
    tree.release(open.fh);
    let answer = String::from_utf8(answer.as_slice().to_vec()).unwrap();
    assert_eq!(answer.trim().replace('_', ""), want.bytes.to_string());
    assert_eq!(snapshots.opens(), 1);
}

/// An analysis a script computed counts in the budget: one larger than what the catalog keeps
/// (a mount's `--cache-mib`) is released when the request ends, freed (no reader holds it),
/// and computed again, the same, by the next script; one that fits is kept.
#[test]
fn a_scripts_analysis_is_kept_only_within_the_budget() {
    use mo_mem::image::ReaderLimits;
    use mo_mem::script::workers::mount_limits;
    use mo_mem::serve::{services, Snapshots};
    use mo_mem::vfs::{Entry, SessionId, SnapshotDir, Tree, TreeConfig};
    use std::sync::Arc;

    const SCRIPT: &[u8] = b"switch (heap.objectOf(vars.people)) { \
        case (?o) (heap.garbage().bytes, heap.retained(o.address).bytes); \
        case null (0, 0) }";
    let dir = common::fixture("compound", "eop");
    for (keep, kept) in [(0, false), (64 << 20, true)] {
        let snapshots = Arc::new(Snapshots::new(ReaderLimits::default()));
        snapshots.set_analysis_keep(keep);
        let snapshot = SnapshotDir::new("snap", &dir, services(snapshots.clone(), mount_limits()));
        let tree = Tree::new(Entry::Dir(Arc::new(snapshot)), TreeConfig::default()).unwrap();
        let eval = tree.resolve("/eval").unwrap();
        let mut answers = Vec::new();
        for session in [1, 2] {
            let open = tree.open(eval, true, SessionId(session)).unwrap();
            tree.write(open.fh, 0, SCRIPT, false).unwrap();
            let answer = tree.read(open.fh, 0, 1 << 20).unwrap();
            tree.release(open.fh);
            answers.push(String::from_utf8(answer.as_slice().to_vec()).unwrap());
            let heap = snapshots.get(&dir).heap().expect("opened").clone();
            assert_eq!(
                heap.has_analysis(),
                kept,
                "keep {keep}: after request {session}"
            );
        }
        // A second computation: the analysis made here (docs/eval-host.md: `people` retains
        // its array and two records, 152 bytes).
        let heap = snapshots.get(&dir).heap().expect("opened").clone();
        let garbage = heap.analysis().unwrap().garbage().bytes;
        let want = format!("({garbage}, 152)");
        for answer in &answers {
            assert_eq!(answer.trim().replace('_', ""), want, "keep {keep}");
        }
    }
}
