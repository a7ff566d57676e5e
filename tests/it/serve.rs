//! The serving layer (`mo_mem::serve`): a snapshot served by the file tree and its `eval`
//! file is opened once, whatever is read, listed or evaluated, and by how many threads.

use crate::common;
use crate::mount_support;

use mo_mem::image::ReaderLimits;
use mo_mem::script::workers::mount_limits;
use mo_mem::serve::{services, Snapshots};
use mo_mem::vfs::{Entry, SessionId, SnapshotDir, Tree, TreeConfig};
use mount_support::{fuse_available, Mounted, BIN};
use std::sync::Arc;

/// A tree over the fixture `name`/`mode` served from `snapshots`.
fn tree(snapshots: &Arc<Snapshots>, name: &str, mode: &str) -> Tree {
    let dir = common::fixture(name, mode);
    let snapshot = SnapshotDir::new("snap", &dir, services(snapshots.clone(), mount_limits()));
    Tree::new(Entry::Dir(Arc::new(snapshot)), TreeConfig::default()).unwrap()
}

/// Writes `script` into `eval` as `session` and reads the answer.
fn eval(tree: &Tree, session: u64, script: &str) -> String {
    let eval = tree.resolve("/eval").unwrap();
    let open = tree.open(eval, true, SessionId(session)).unwrap();
    tree.write(open.fh, 0, script.as_bytes(), false).unwrap();
    let answer = tree.read(open.fh, 0, 1 << 20).unwrap();
    tree.release(open.fh);
    String::from_utf8(answer.as_slice().to_vec()).unwrap()
}

#[test]
fn a_served_snapshot_is_opened_once_for_the_tree_and_eval() {
    let snapshots = Arc::new(Snapshots::new(ReaderLimits::default()));
    let tree = tree(&snapshots, "compound", "eop");
    assert_eq!(snapshots.opens(), 0, "nothing is opened before it is read");
    // eval first, then the decoded files, then eval in another session
    let answer = eval(&tree, 1, "heap.varNames");
    assert!(!answer.starts_with("eval:"), "{answer}");
    let names = tree.names(tree.resolve("/").unwrap(), true).unwrap();
    assert!(names.iter().any(|(n, _)| &**n == "info.json"), "{names:?}");
    let info = tree.read_all(tree.resolve("/info.json").unwrap()).unwrap();
    let info: serde_json::Value = serde_json::from_slice(&info).unwrap();
    assert_eq!(info["stable_signature"], true);
    tree.read_all(tree.resolve("/stats.json").unwrap()).unwrap();
    let vars = tree.names(tree.resolve("/vars").unwrap(), true).unwrap();
    assert!(!vars.is_empty());
    let answer = eval(&tree, 2, "heap.persistence");
    assert!(answer.contains("enhanced"), "{answer}");
    assert_eq!(
        snapshots.opens(),
        1,
        "the tree and eval share one opened snapshot"
    );
}

#[test]
fn concurrent_first_reads_open_the_snapshot_once() {
    let snapshots = Arc::new(Snapshots::new(ReaderLimits::default()));
    let tree = Arc::new(tree(&snapshots, "compound", "incremental"));
    let threads: Vec<_> = (0..4u64)
        .map(|i| {
            let tree = tree.clone();
            std::thread::spawn(move || {
                if i % 2 == 0 {
                    eval(&tree, i, "heap.varNames");
                } else {
                    tree.read_all(tree.resolve("/info.json").unwrap()).unwrap();
                }
            })
        })
        .collect();
    for t in threads {
        t.join().unwrap();
    }
    assert_eq!(snapshots.opens(), 1);
}

#[test]
fn two_trees_over_one_catalog_share_the_snapshot() {
    let snapshots = Arc::new(Snapshots::new(ReaderLimits::default()));
    let a = tree(&snapshots, "scalars", "eop");
    let b = tree(&snapshots, "scalars", "eop");
    a.read_all(a.resolve("/info.json").unwrap()).unwrap();
    b.read_all(b.resolve("/stats.json").unwrap()).unwrap();
    assert_eq!(snapshots.opens(), 1);
}

#[test]
fn a_value_over_a_reader_limit_is_efbig_not_euclean() {
    // `blob_bytes` renders to 33 bytes (tests/value_limit_cli.rs): over a 32-byte limit.
    let limits = ReaderLimits {
        max_text_bytes: 32,
        ..ReaderLimits::default()
    };
    let snapshots = Arc::new(Snapshots::new(limits));
    let tree = tree(&snapshots, "compound", "eop");
    let err = tree
        .read_all(tree.resolve("/vars/blob_bytes").unwrap())
        .unwrap_err();
    assert_eq!(err.errno(), libc::EFBIG, "{err}");
    assert!(
        err.to_string()
            .contains("maximum text/blob bytes exceeded (32)"),
        "{err}"
    );
    // The same limit, the same reason, from `mo-mem cat` (which prints the error chain).
    let dir = common::fixture("compound", "eop");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_mo-mem"))
        .args(["cat", dir.to_str().unwrap(), "vars/blob_bytes"])
        .args(["--max-value-size", "32"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(
        String::from_utf8_lossy(&out.stderr).contains(&err.to_string()),
        "{}\nvs {err}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn a_mount_opens_each_snapshot_once() {
    if !fuse_available() {
        return;
    }
    let a = common::fixture("scalars", "eop");
    let b = common::fixture("scalars", "copying");
    let mut command = std::process::Command::new(BIN);
    command.env("MO_MEM_LOG", "warn,mo_mem::serve=debug");
    let mount = Mounted::start_command(command, &[&a, &b]);
    let mut served: Vec<_> = std::fs::read_dir(&mount.mountpoint)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    served.sort();
    assert_eq!(served.len(), 2, "{served:?}");
    for snap in &served {
        // The tree, then eval, then the tree again: one open.
        std::fs::read(snap.join("info.json")).unwrap();
        let eval = snap.join("eval");
        std::fs::write(&eval, "heap.persistence").unwrap();
        let answer = std::fs::read_to_string(&eval).unwrap();
        assert!(answer.contains('"'), "{answer}");
        std::fs::read(snap.join("stats.json")).unwrap();
        assert!(std::fs::read_dir(snap.join("vars")).unwrap().count() > 0);
    }
    let log = mount.log_text();
    for dir in [&a, &b] {
        let opens = log
            .lines()
            .filter(|l| l.contains("opening the snapshot"))
            .filter(|l| l.contains(dir.canonicalize().unwrap().to_str().unwrap()))
            .count();
        assert_eq!(opens, 1, "{}: log:\n{log}", dir.display());
    }
}

#[test]
fn a_replaced_image_is_a_new_snapshot() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("snap");
    std::fs::create_dir(&dir).unwrap();
    let source = common::fixture("scalars", "eop");
    for entry in std::fs::read_dir(&source).unwrap() {
        let path = entry.unwrap().path();
        if path.is_file() {
            std::fs::copy(&path, dir.join(path.file_name().unwrap())).unwrap();
        }
    }
    let snapshots = Snapshots::new(ReaderLimits::default());
    let first = snapshots.get(&dir);
    first.heap().unwrap();
    assert!(Arc::ptr_eq(&first, &snapshots.get(&dir)));
    // Replaced (a new inode under the same name): opened again, not served stale.
    let image = dir.join("wasm_memory.bin");
    std::fs::copy(&image, dir.join("new.bin")).unwrap();
    std::fs::rename(dir.join("new.bin"), &image).unwrap();
    let second = snapshots.get(&dir);
    assert!(!Arc::ptr_eq(&first, &second));
    second.heap().unwrap();
    assert_eq!(snapshots.opens(), 2);
}

/// What `info` must say of a fixture, known without mo-mem: the sizes of its files on disk
/// (and in `metadata.json`), the compiler and the stable variables the canister recorded
/// (`expected.json`), and the persistence and GC its mode was compiled for
/// (docs/fixtures.md, "Modes").
fn check_info_facts(dir: &std::path::Path, mode: &str, info: &serde_json::Value) {
    let what = dir.display();
    let file_len = |f: &str| std::fs::metadata(dir.join(f)).unwrap().len();
    let json = |f: &str| -> serde_json::Value {
        serde_json::from_slice(&std::fs::read(dir.join(f)).unwrap()).unwrap()
    };
    let (metadata, expected) = (json("metadata.json"), json("expected.json"));
    assert_eq!(
        info["main_memory_bytes"],
        file_len("wasm_memory.bin"),
        "{what}"
    );
    assert_eq!(
        info["main_memory_bytes"], metadata["wasm_memory_size"],
        "{what}"
    );
    assert_eq!(
        info["stable_memory_bytes"],
        file_len("stable_memory.bin"),
        "{what}"
    );
    assert_eq!(info["module_bytes"], file_len("wasm_module.bin"), "{what}");
    assert_eq!(info["module_bytes"], metadata["wasm_module_size"], "{what}");
    assert_eq!(info["compiler"], expected["compiler"], "{what}");
    let vars = expected["vars"].as_object().unwrap().len();
    assert_eq!(info["stable_variables"], vars, "{what}");
    let (persistence, gc, rtti) = match mode {
        "eop" => (
            "enhanced orthogonal persistence (64-bit)",
            "incremental",
            true,
        ),
        classical => ("classical (32-bit)", classical, false),
    };
    assert_eq!(info["persistence"], persistence, "{what}");
    assert_eq!(info["gc"], gc, "{what}");
    assert_eq!(info["rtti"], rtti, "{what}");
    // The walk accounts for every heap byte: objects and free blocks fill the ranges, which
    // lie inside the main memory above the heap base.
    let n = |v: &serde_json::Value| v.as_u64().unwrap();
    let heap = n(&info["heap_bytes"]);
    assert_eq!(
        n(&info["objects"]["bytes"]) + n(&info["free"]["bytes"]),
        heap,
        "{what}"
    );
    let ranges = info["ranges"].as_array().unwrap();
    let spanned: u64 = ranges.iter().map(|r| n(&r["end"]) - n(&r["start"])).sum();
    assert_eq!(spanned, heap, "{what}");
    assert!(
        ranges
            .iter()
            .all(|r| n(&r["start"]) >= n(&info["heap_base"])),
        "{what}"
    );
    assert!(
        ranges
            .iter()
            .all(|r| n(&r["end"]) <= n(&info["main_memory_bytes"])),
        "{what}"
    );
    assert_eq!(info["walk_complete"], true, "{what}");
    assert_eq!(info["errors"], serde_json::json!([]), "{what}");
}

/// `mo-mem info --json` and the tree's `info.json` are one report in one shape, saying what
/// is known of the fixture independently; so are `mo-mem stats --json` and `stats.json`.
#[test]
fn reports_have_one_shape_in_the_cli_and_the_tree() {
    let bin = env!("CARGO_BIN_EXE_mo-mem");
    for (name, mode) in [
        ("compound", "eop"),
        ("compound", "copying"),
        ("scalars", "incremental"),
    ] {
        let snap = common::fixture(name, mode);
        let run = |args: &[&str]| {
            let o = std::process::Command::new(bin)
                .args(args)
                .output()
                .expect("mo-mem runs");
            assert!(
                o.status.success(),
                "{args:?}: {}",
                String::from_utf8_lossy(&o.stderr)
            );
            serde_json::from_slice::<serde_json::Value>(&o.stdout).expect("JSON")
        };
        let s = snap.to_str().unwrap();
        let cli = run(&["info", "--json", s]);
        let file = run(&["cat", s, "info.json"]);
        assert_eq!(cli, file, "{name}/{mode}");
        check_info_facts(&snap, mode, &cli);
        let stats = run(&["stats", "--json", s]);
        assert_eq!(stats, run(&["cat", s, "stats.json"]), "{name}/{mode}");
        assert_eq!(stats["objects"], cli["objects"], "{name}/{mode}");
        assert!(cli["objects"]["objects"].as_u64().unwrap() > 0);
        assert!(cli["ranges"].as_array().is_some_and(|r| !r.is_empty()));
    }
}

/// A catalog trusting snapshots under `store`'s rule and key.
fn trusting(store: &crate::faults_support::TestStore) -> Arc<Snapshots> {
    use mo_mem::store::{Store, TrustRule};
    let rule = TrustRule::new(Store::new(store.root()), store.config().join("store.key"));
    let policy = mo_mem::serve::TrustPolicy {
        rule,
        allow_unverified: false,
    };
    Arc::new(Snapshots::with_trust(ReaderLimits::default(), policy))
}

#[test]
fn the_trust_verdict_is_decided_once_for_the_tree_and_eval() {
    use mo_mem::store::Trust;
    let store = crate::faults_support::TestStore::new();
    let fixture = common::fixture("compound", "eop");
    let good = store.import(&fixture, "rrkah-fqaaa-aaaaa-aaaaq-cai", "0c01");
    let bad = store.import(&fixture, "rrkah-fqaaa-aaaaa-aaaaq-cai", "0c02");
    crate::faults_support::flip_byte(&bad.join("wasm_memory.bin"), 70_000);
    // files written moments before a verification are verified twice on purpose (a write
    // racing the hash): let the imports age past that window
    std::thread::sleep(std::time::Duration::from_millis(200));

    // a verified snapshot: its directory, its eval file and its files read one verdict
    let snapshots = trusting(&store);
    let served = services(snapshots.clone(), mount_limits());
    let dir = SnapshotDir::new("good", &good, served);
    let tree = Tree::new(Entry::Dir(Arc::new(dir)), TreeConfig::default()).unwrap();
    assert_eq!(eval(&tree, 1, "1 + 1"), "2\n");
    tree.read_all(tree.resolve("/info.json").unwrap()).unwrap();
    assert_eq!(eval(&tree, 2, "vars.let_nat"), "7\n");
    let verdict = snapshots.get(&good).trust().expect("a verdict");
    assert!(matches!(&*verdict, Ok(Trust::Verified(_))), "{verdict:?}");
    assert_eq!(snapshots.verifications(), 1, "decided once");

    // a tampered one: its directory holds only NOT-TRUSTED, its eval file refuses (EACCES)
    let snapshots = trusting(&store);
    let services = services(snapshots.clone(), mount_limits());
    let engine = services
        .engine
        .for_snapshot(&bad)
        .expect("one engine per snapshot");
    let dir = SnapshotDir::new("bad", &bad, services);
    let tree = Tree::new(Entry::Dir(Arc::new(dir)), TreeConfig::default()).unwrap();
    let names = tree.names(tree.resolve("/").unwrap(), true).unwrap();
    let names: Vec<&str> = names.iter().map(|(n, _)| &**n).collect();
    assert_eq!(names, ["NOT-TRUSTED"]);
    let refused = engine.run(SessionId(1), b"1 + 1").unwrap_err();
    assert_eq!(
        mo_mem::vfs::VfsError::from(refused.clone()).errno(),
        libc::EACCES
    );
    assert!(refused.to_string().contains("wasm_memory.bin"), "{refused}");
    let verdict = snapshots.get(&bad).trust().expect("a verdict");
    assert!(verdict.is_err(), "{verdict:?}");
    assert_eq!(snapshots.verifications(), 1, "decided once");
}
