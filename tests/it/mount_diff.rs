//! A store canister's `diff/OLD..NEW/` (answered on lookup, not listed) and `latest-diff`:
//! the same bytes as `mo-mem diff OLD NEW` (text) and its `--json` parts, exact sizes, and
//! the same through a real FUSE mount.

use crate::common;
use crate::faults_support::{fuse_available, Mount, TestStore};

use std::sync::Arc;

use mo_mem::image::ReaderLimits;
use mo_mem::script::workers::mount_limits;
use mo_mem::serve::{services, Snapshots, TrustPolicy};
use mo_mem::store::{Store, TrustRule};
use mo_mem::vfs::{Entry, StoreRoot, Tree, TreeConfig};

const CANISTER: &str = "rrkah-fqaaa-aaaaa-aaaaq-cai";

/// A store holding the three growth stages as snapshots `0a01`, `0a02`, `0a03` of one canister.
fn growth_store() -> TestStore {
    let store = TestStore::new();
    for n in 1..=3 {
        let dir = common::fixture(&format!("growth{n}"), "eop");
        store.import(&dir, CANISTER, &format!("0a0{n}"));
    }
    std::thread::sleep(std::time::Duration::from_millis(200));
    store
}

fn store_tree(store: &TestStore) -> Tree {
    let rule = TrustRule::new(Store::new(store.root()), store.config().join("store.key"));
    let policy = TrustPolicy {
        rule,
        allow_unverified: false,
    };
    let snapshots = Arc::new(Snapshots::with_trust(ReaderLimits::default(), policy));
    let root = StoreRoot::new(&store.root(), services(snapshots, mount_limits()));
    Tree::new(Entry::Dir(Arc::new(root)), TreeConfig::default()).unwrap()
}

fn cli_diff(store: &TestStore, a: &str, b: &str, json: bool) -> Vec<u8> {
    let dir = |s: &str| store.root().join(CANISTER).join(s);
    let mut command = store.command();
    command.arg("diff").arg(dir(a)).arg(dir(b));
    if json {
        command.arg("--json");
    }
    let out = command.output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}

#[test]
fn diff_directories_hold_what_mo_mem_diff_prints() {
    let store = growth_store();
    let tree = store_tree(&store);
    let canister = tree.resolve(&format!("/{CANISTER}")).unwrap();
    let names: Vec<String> = tree
        .names(canister, true)
        .unwrap()
        .iter()
        .map(|(n, _)| n.to_string())
        .collect();
    assert_eq!(
        names,
        ["0a01", "0a02", "0a03", "latest", "diff", "latest-diff"]
    );
    let link = tree.resolve(&format!("/{CANISTER}/latest-diff")).unwrap();
    assert_eq!(tree.readlink(link).unwrap(), "diff/0a02..0a03");
    // diff/ lists only its README; OLD..NEW answers a lookup.
    let diff = tree.resolve(&format!("/{CANISTER}/diff")).unwrap();
    let listed: Vec<String> = tree
        .names(diff, true)
        .unwrap()
        .iter()
        .map(|(n, _)| n.to_string())
        .collect();
    assert_eq!(listed, ["README"]);
    for (a, b) in [("0a01", "0a02"), ("0a03", "0a01")] {
        let base = format!("/{CANISTER}/diff/{a}..{b}");
        let dir = tree.resolve(&base).unwrap();
        let files: Vec<String> = tree
            .names(dir, true)
            .unwrap()
            .iter()
            .map(|(n, _)| n.to_string())
            .collect();
        assert_eq!(
            files,
            [
                "diff.svg",
                "summary.json",
                "summary.txt",
                "types.json",
                "vars.json"
            ]
        );
        let read = |f: &str| {
            let ino = tree.resolve(&format!("{base}/{f}")).unwrap();
            let bytes = tree.read_all(ino).unwrap();
            assert_eq!(
                tree.getattr(ino).unwrap().size,
                bytes.len() as u64,
                "{f}: exact size"
            );
            bytes
        };
        assert_eq!(read("summary.txt"), cli_diff(&store, a, b, false));
        let mut whole: serde_json::Value =
            serde_json::from_slice(&cli_diff(&store, a, b, true)).unwrap();
        let json = |f: &str| serde_json::from_slice::<serde_json::Value>(&read(f)).unwrap();
        let obj = whole.as_object_mut().unwrap();
        assert_eq!(json("vars.json"), obj.remove("vars").unwrap());
        assert_eq!(json("types.json"), obj.remove("types").unwrap());
        assert_eq!(json("summary.json"), whole);
    }
    for missing in ["s1..s9", "0a01", "s1..", "..s2", "s1..0a02..0a03"] {
        assert!(
            tree.resolve(&format!("/{CANISTER}/diff/{missing}"))
                .is_err(),
            "{missing}"
        );
    }
}

#[test]
fn latest_diff_reads_through_a_fuse_mount() {
    if !fuse_available() {
        return;
    }
    let store = growth_store();
    let root = store.root();
    let mount = Mount::start_command(store.command(), &["--store", root.to_str().unwrap()]);
    let text = std::fs::read(mount.path(&format!("{CANISTER}/latest-diff/summary.txt"))).unwrap();
    assert_eq!(text, cli_diff(&store, "0a02", "0a03", false));
    let meta =
        std::fs::metadata(mount.path(&format!("{CANISTER}/diff/0a01..0a03/vars.json"))).unwrap();
    let vars = std::fs::read(mount.path(&format!("{CANISTER}/diff/0a01..0a03/vars.json"))).unwrap();
    assert_eq!(meta.len(), vars.len() as u64);
    let vars: serde_json::Value = serde_json::from_slice(&vars).unwrap();
    let users = vars
        .as_array()
        .unwrap()
        .iter()
        .find(|v| v["name"] == "users")
        .unwrap();
    assert_eq!(users["collection"]["added"], 60);
}
