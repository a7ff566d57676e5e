//! Tests of the tree over a fake decoder: laziness, exact sizes, errnos, sharding.

use super::decoded::NamedValues;
use super::*;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

#[derive(Default)]
struct Counters {
    walks: AtomicUsize,
    vars: AtomicUsize,
    stats: AtomicUsize,
}

struct FakeDecoder(Arc<Counters>);
struct FakeSnapshot(Arc<Counters>);
struct FakeObjects(Arc<Counters>);

enum FakeValue {
    Nat(u64),
    Array(Vec<Arc<dyn ValueNode>>),
    Record(Vec<(String, Arc<dyn ValueNode>)>),
}

impl ValueNode for FakeValue {
    fn is_compound(&self) -> bool {
        !matches!(self, FakeValue::Nat(_))
    }
    fn children(&self) -> Result<NamedValues, VfsError> {
        Ok(match self {
            FakeValue::Nat(_) => vec![],
            FakeValue::Array(items) => items
                .iter()
                .enumerate()
                .map(|(i, v)| (i.to_string(), v.clone()))
                .collect(),
            FakeValue::Record(fields) => fields.clone(),
        })
    }
    fn json(&self) -> Result<Vec<u8>, VfsError> {
        Ok(match self {
            FakeValue::Nat(n) => n.to_string().into_bytes(),
            FakeValue::Array(items) => {
                let parts: Result<Vec<_>, _> = items
                    .iter()
                    .map(|v| v.json().map(|j| String::from_utf8_lossy(&j).into_owned()))
                    .collect();
                format!("[{}]", parts?.join(",")).into_bytes()
            }
            FakeValue::Record(fields) => {
                let parts: Result<Vec<_>, VfsError> = fields
                    .iter()
                    .map(|(k, v)| Ok(format!("\"{k}\":{}", String::from_utf8_lossy(&v.json()?))))
                    .collect();
                format!("{{{}}}", parts?.join(",")).into_bytes()
            }
        })
    }
    fn debug_show(&self) -> Result<Vec<u8>, VfsError> {
        self.json()
    }
}

impl Decoder for FakeDecoder {
    fn open(&self, dir: &Path) -> Result<Arc<dyn DecodedSnapshot>, VfsError> {
        if dir.join("corrupt").exists() {
            let bad = crate::heap::ObjectError::BadTag {
                addr: 0x480000,
                tag: 99,
            };
            return Err(VfsError::decode("the heap", bad));
        }
        Ok(Arc::new(FakeSnapshot(self.0.clone())))
    }
}

impl DecodedSnapshot for FakeSnapshot {
    fn info_json(&self) -> Result<Vec<u8>, VfsError> {
        Ok(br#"{"layout":"fake"}"#.to_vec())
    }
    fn stats_json(&self) -> Result<Vec<u8>, VfsError> {
        self.0.stats.fetch_add(1, Ordering::SeqCst);
        Ok(br#"{"tags":{}}"#.to_vec())
    }
    fn vars(&self) -> Result<NamedValues, VfsError> {
        self.0.vars.fetch_add(1, Ordering::SeqCst);
        let nat = |n| Arc::new(FakeValue::Nat(n)) as Arc<dyn ValueNode>;
        let user = |n| {
            Arc::new(FakeValue::Record(vec![
                ("id".into(), nat(n)),
                ("age".into(), nat(n + 20)),
            ])) as Arc<dyn ValueNode>
        };
        Ok(vec![
            ("count".into(), nat(42)),
            (
                "users".into(),
                Arc::new(FakeValue::Array((0..3).map(user).collect())),
            ),
            (
                "big".into(),
                Arc::new(FakeValue::Array((0..2500).map(nat).collect())),
            ),
        ])
    }
    fn objects(&self) -> Result<Arc<dyn ObjectSource>, VfsError> {
        Ok(Arc::new(FakeObjects(self.0.clone())))
    }
}

/// Objects every 0x4000 bytes from 5 MiB to 5 MiB + 20 MiB.
const FIRST: u64 = 5 << 20;
const STEP: u64 = 0x4000;
const COUNT: u64 = (20 << 20) / STEP;

impl ObjectSource for FakeObjects {
    fn visit_from(&self, from: u64, visit: &mut dyn FnMut(u64) -> bool) -> Result<(), VfsError> {
        self.0.walks.fetch_add(1, Ordering::SeqCst);
        let start = if from <= FIRST {
            0
        } else {
            (from - FIRST).div_ceil(STEP)
        };
        for i in start..COUNT {
            if !visit(FIRST + i * STEP) {
                break;
            }
        }
        Ok(())
    }
    fn object_json(&self, addr: u64) -> Result<Vec<u8>, VfsError> {
        Ok(format!("{{\"address\":\"{addr:#x}\",\"tag\":\"blob\"}}").into_bytes())
    }
    fn address_digits(&self) -> usize {
        16
    }
}

fn snapshot_dir(root: &Path, name: &str) -> PathBuf {
    let dir = root.join(name);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("wasm_memory.bin"), vec![7u8; 100_000]).unwrap();
    std::fs::write(dir.join("metadata.json"), b"{\"taken_at_timestamp\": 5}").unwrap();
    dir
}

fn services(counters: Arc<Counters>) -> SnapshotServices {
    SnapshotServices {
        decoder: Arc::new(FakeDecoder(counters)),
        engine: Arc::new(NoScriptEngine),
        control_limits: ControlLimits::default(),
        eval_slots: Default::default(),
        verifier: None,
        gate: Arc::new(crate::serve::StoreGate),
        methods: None,
        differ: None,
    }
}

fn tree_over(paths: &[PathBuf], counters: Arc<Counters>) -> Tree {
    let root = PathsRoot::new(paths, services(counters)).unwrap();
    Tree::new(Entry::Dir(Arc::new(root)), TreeConfig::default()).unwrap()
}

fn names(tree: &Tree, path: &str) -> Vec<String> {
    let ino = tree.resolve(path).unwrap();
    tree.children(ino, true)
        .unwrap()
        .iter()
        .map(|c| c.name.to_string())
        .collect()
}

#[test]
fn listing_root_and_snapshot_decodes_nothing() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = snapshot_dir(tmp.path(), "snap");
    let counters = Arc::new(Counters::default());
    let tree = tree_over(&[dir], counters.clone());
    assert_eq!(names(&tree, "/"), ["snap"]);
    assert_eq!(
        names(&tree, "/snap"),
        [
            "README",
            "eval",
            "info.json",
            "metadata.json",
            "objects",
            "stats.json",
            "vars",
            "wasm_memory.bin"
        ]
    );
    assert_eq!(counters.walks.load(Ordering::SeqCst), 0);
    assert_eq!(counters.vars.load(Ordering::SeqCst), 0);
    assert_eq!(counters.stats.load(Ordering::SeqCst), 0);
    let raw = tree.resolve("/snap/wasm_memory.bin").unwrap();
    assert_eq!(tree.known_attr_of(raw).unwrap().size, 100_000);
    let info = tree.resolve("/snap/info.json").unwrap();
    assert!(
        tree.known_attr_of(info).is_none(),
        "not generated by listing"
    );
}

#[test]
fn every_file_size_equals_bytes_read() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = snapshot_dir(tmp.path(), "snap");
    let tree = tree_over(&[dir], Arc::new(Counters::default()));
    let mut stack = vec![tree.resolve("/snap").unwrap()];
    let mut files = 0;
    while let Some(ino) = stack.pop() {
        for child in tree.children(ino, false).unwrap() {
            match child.kind {
                NodeKind::Dir => {
                    if tree
                        .path_of(child.ino)
                        .starts_with("/snap/objects/0x0000000001")
                    {
                        continue; // one region is enough
                    }
                    stack.push(child.ino)
                }
                NodeKind::File => {
                    let attr = tree.getattr(child.ino).unwrap();
                    let bytes = tree.read_all(child.ino).unwrap();
                    assert_eq!(attr.size, bytes.len() as u64, "{}", tree.path_of(child.ino));
                    if child.name.ends_with(".json") {
                        serde_json::from_slice::<serde_json::Value>(&bytes).unwrap();
                    }
                    files += 1;
                }
                _ => {}
            }
        }
    }
    assert!(files > 3000, "{files}");
}

#[test]
fn vars_are_files_and_walkable_directories() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = snapshot_dir(tmp.path(), "snap");
    let tree = tree_over(&[dir], Arc::new(Counters::default()));
    assert_eq!(
        names(&tree, "/snap/vars"),
        [
            "count",
            "users.json",
            "users.mo",
            "users",
            "big.json",
            "big.mo",
            "big"
        ]
    );
    let count = tree.resolve("/snap/vars/count").unwrap();
    assert_eq!(tree.read_all(count).unwrap(), b"42\n");
    let age = tree.resolve("/snap/vars/users/1/age").unwrap();
    assert_eq!(tree.read_all(age).unwrap(), b"21\n");
    let user = tree.resolve("/snap/vars/users/2.json").unwrap();
    assert_eq!(tree.read_all(user).unwrap(), b"{\"id\":2,\"age\":22}\n");
    assert_eq!(
        names(&tree, "/snap/vars/big"),
        ["0-999", "1000-1999", "2000-2499"]
    );
    let last = tree.resolve("/snap/vars/big/2000-2499/2499").unwrap();
    assert_eq!(tree.read_all(last).unwrap(), b"2499\n");
}

#[test]
fn objects_are_sharded_by_region_and_block() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = snapshot_dir(tmp.path(), "snap");
    let tree = tree_over(&[dir], Arc::new(Counters::default()));
    let regions = names(&tree, "/snap/objects");
    assert_eq!(regions, ["0x0000000000000000", "0x0000000001000000"]);
    let blocks = names(&tree, "/snap/objects/0x0000000000000000");
    assert_eq!(blocks.len(), (16 - 5) * 16);
    assert_eq!(blocks[0], "0x0000000000500000");
    let objects = names(&tree, "/snap/objects/0x0000000000000000/0x0000000000500000");
    assert_eq!(
        objects,
        [
            "0x0000000000500000.json",
            "0x0000000000504000.json",
            "0x0000000000508000.json",
            "0x000000000050c000.json"
        ]
    );
}

#[test]
fn errors_have_deliberate_errnos() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = snapshot_dir(tmp.path(), "snap");
    let tree = tree_over(&[dir], Arc::new(Counters::default()));
    assert_eq!(
        tree.resolve("/snap/nope").unwrap_err().errno(),
        libc::ENOENT
    );
    assert_eq!(
        tree.resolve("/snap/README/x").unwrap_err().errno(),
        libc::ENOTDIR
    );
    let readme = tree.resolve("/snap/README").unwrap();
    assert_eq!(
        tree.open(readme, true, SessionId(1)).unwrap_err().errno(),
        libc::EROFS
    );
    let vars = tree.resolve("/snap/vars").unwrap();
    assert_eq!(
        tree.open(vars, false, SessionId(1)).unwrap_err().errno(),
        libc::EISDIR
    );
    let fh = tree.open(readme, false, SessionId(1)).unwrap().fh;
    assert_eq!(
        tree.write(fh, 0, b"x", false).unwrap_err().errno(),
        libc::EROFS
    );
    tree.release(fh);
    assert_eq!(
        tree.read(fh, 0, 1).err().map(|e| e.errno()),
        Some(libc::EINVAL)
    );
}

#[test]
fn eval_is_writable_per_session() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = snapshot_dir(tmp.path(), "snap");
    let tree = tree_over(&[dir], Arc::new(Counters::default()));
    let eval = tree.resolve("/snap/eval").unwrap();
    assert_eq!(tree.getattr(eval).unwrap().size, 0);
    let open = tree.open(eval, true, SessionId(9)).unwrap();
    assert!(open.direct_io);
    tree.write(open.fh, 0, b"vars.count", false).unwrap();
    let answer = tree.read(open.fh, 0, 4096).unwrap();
    assert!(answer
        .as_slice()
        .starts_with(b"eval: scripts are not available"));
    tree.release(open.fh);
}

#[test]
fn undecodable_snapshot_serves_raw_files_and_errors() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = snapshot_dir(tmp.path(), "snap");
    std::fs::write(dir.join("corrupt"), b"").unwrap();
    let tree = tree_over(&[dir], Arc::new(Counters::default()));
    assert_eq!(
        names(&tree, "/snap"),
        [
            "README",
            "errors.json",
            "eval",
            "metadata.json",
            "wasm_memory.bin"
        ]
    );
    let errors = tree
        .read_all(tree.resolve("/snap/errors.json").unwrap())
        .unwrap();
    let json: serde_json::Value = serde_json::from_slice(&errors).unwrap();
    assert!(json["errors"][0]["error"]
        .as_str()
        .unwrap()
        .contains("invalid tag 0x63 at 0x480000"));
}

#[test]
fn store_root_lists_canisters_snapshots_and_latest() {
    let tmp = tempfile::tempdir().unwrap();
    let canister = tmp.path().join("aaaaa-aa");
    let complete = |name: &str| {
        let dir = snapshot_dir(&canister, name);
        std::fs::write(dir.join(crate::store::MANIFEST_FILE), b"{}").unwrap();
        dir
    };
    complete("0001");
    let newer = complete("0002");
    std::fs::write(newer.join("metadata.json"), b"{\"taken_at_timestamp\": 9}").unwrap();
    // Not complete: no manifest yet; a pull under way; a temporary directory.
    snapshot_dir(&canister, "0009");
    std::fs::write(complete("0008").join(".pull_state.json"), b"{}").unwrap();
    complete("0007.tmp");
    let root = StoreRoot::new(tmp.path(), services(Arc::new(Counters::default())));
    let tree = Tree::new(Entry::Dir(Arc::new(root)), TreeConfig::default()).unwrap();
    assert_eq!(names(&tree, "/aaaaa-aa"), ["0001", "0002", "latest"]);
    let latest = tree.resolve("/aaaaa-aa/latest").unwrap();
    assert_eq!(tree.readlink(latest).unwrap(), "0002");
    complete("0003");
    assert_eq!(
        names(&tree, "/aaaaa-aa"),
        ["0001", "0002", "0003", "latest"]
    );
    assert_eq!(
        tree.resolve("/aaaaa-aa/0002").unwrap(),
        tree.resolve("/aaaaa-aa/0002").unwrap()
    );
}

#[test]
fn inode_numbers_are_stable() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = snapshot_dir(tmp.path(), "snap");
    let tree = tree_over(&[dir], Arc::new(Counters::default()));
    let a = tree.resolve("/snap/vars/users/0/id").unwrap();
    let count = tree.node_count();
    let b = tree.resolve("/snap/vars/users/0/id").unwrap();
    assert_eq!(a, b);
    assert_eq!(count, tree.node_count());
    assert_eq!(tree.path_of(a), "/snap/vars/users/0/id");
}

#[test]
fn forgotten_nodes_are_dropped_and_unreferenced_ones_bounded() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = snapshot_dir(tmp.path(), "snap");
    let root = PathsRoot::new(&[dir], services(Arc::new(Counters::default()))).unwrap();
    let config = TreeConfig {
        max_unreferenced_nodes: 100,
        ..TreeConfig::default()
    };
    let tree = Tree::new(Entry::Dir(Arc::new(root)), config).unwrap();
    // Looked up (referenced) nodes live until forgotten, whatever else is listed.
    let snap = tree.lookup(ROOT_INO, "snap").unwrap().ino;
    let vars = tree.lookup(snap, "vars").unwrap().ino;
    let count = tree.lookup(vars, "count").unwrap();
    assert_eq!(count.size, 3);
    let big = tree.lookup(vars, "big").unwrap().ino;
    for (name, _) in tree.names(big, false).unwrap() {
        let group = tree.lookup(big, &name).unwrap().ino;
        tree.children(group, false).unwrap();
        tree.forget(group, 1);
    }
    tree.forget(big, 1);
    assert!(tree.node_count() < 250, "{} nodes", tree.node_count());
    assert_eq!(tree.getattr(count.ino).unwrap(), count);
    assert_eq!(tree.path_of(count.ino), "/snap/vars/count");
    // Forgetting the last reference drops the node; the name gets a new one.
    tree.lookup(vars, "count").unwrap();
    tree.forget(count.ino, 1);
    assert!(tree.getattr(count.ino).is_ok(), "one reference is left");
    tree.forget(count.ino, 1);
    assert!(tree.getattr(count.ino).is_err());
    let again = tree.lookup(vars, "count").unwrap();
    assert_ne!(again.ino, count.ino);
    assert_eq!(tree.read_all(again.ino).unwrap(), b"42\n");
    // A forgotten directory with live children goes once they are gone.
    tree.forget(vars, 1);
    assert!(tree.getattr(vars).is_ok());
    tree.forget(again.ino, 1);
    tree.forget(snap, 1);
    for _ in 0..3 {
        let snap = tree.lookup_ino(ROOT_INO, "snap").unwrap();
        tree.children(snap, false).unwrap();
    }
    let before = tree.node_count();
    for i in 0..1000 {
        tree.resolve(&format!("/snap/vars/big/0-999/{i}")).unwrap();
    }
    assert!(
        tree.node_count() <= before + 150,
        "{} nodes",
        tree.node_count()
    );
}

#[test]
fn large_generated_files_are_spilled_and_read_back_exactly() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = snapshot_dir(tmp.path(), "snap");
    let in_memory = tree_over(std::slice::from_ref(&dir), Arc::new(Counters::default()));
    let root = PathsRoot::new(&[dir], services(Arc::new(Counters::default()))).unwrap();
    let config = TreeConfig {
        spill_above: 16,
        ..TreeConfig::default()
    };
    let spilling = Tree::new(Entry::Dir(Arc::new(root)), config).unwrap();
    let mut spilled = 0;
    for path in [
        "/snap/vars/users.json",
        "/snap/vars/big.json",
        "/snap/vars/count",
    ] {
        let want = in_memory
            .read_all(in_memory.resolve(path).unwrap())
            .unwrap();
        let ino = spilling.resolve(path).unwrap();
        assert_eq!(spilling.getattr(ino).unwrap().size, want.len() as u64);
        let open = spilling.open(ino, false, SessionId(1)).unwrap();
        let mut got = Vec::new();
        loop {
            let chunk = spilling.read(open.fh, got.len() as u64, 7).unwrap();
            if chunk.as_slice().is_empty() {
                break;
            }
            got.extend_from_slice(chunk.as_slice());
        }
        spilling.release(open.fh);
        assert_eq!(got, want, "{path}");
        assert_eq!(spilling.read_all(ino).unwrap(), want, "{path}");
        if want.len() > 16 {
            spilled += want.len() as u64;
        }
    }
    // `count` (3 bytes) is in memory; the two arrays are on disk only (each of the three
    // counted with the cache's own memory per entry).
    let entries = 3 * crate::vfs::cache::ENTRY_BYTES;
    assert_eq!(spilling.cache_usage(), (3 + entries, spilled));
    assert!(spilled > 10_000, "big.json is large: {spilled}");
}
