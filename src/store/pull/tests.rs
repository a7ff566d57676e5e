//! The pull transaction without a network: what a resumed run trusts, what it refuses, and
//! that only a checked directory gets a manifest.

use super::*;
use crate::store::{files, Manifest, Store, StoreError, StoreKey, MANIFEST_FILE, PULL_STATE_FILE};

fn start(metadata: &str, slice: u64) -> Start {
    Start {
        network: "test".into(),
        canister: "aaaaa-aa".into(),
        label: "hosted-1".into(),
        metadata: serde_json::json!({ "m": metadata }),
        metadata_file: ("info.json", metadata.as_bytes().to_vec()),
        slice_size: slice,
        chunk_store: false,
    }
}

fn image(len: usize) -> Vec<u8> {
    (0..len).map(|i| (i * 7 % 251) as u8).collect()
}

/// Writes and commits the items `pick` chooses of `plan`, from `data`.
fn deliver(tx: &mut PullTransaction, plan: &Plan, data: &[u8], pick: impl Fn(u64) -> bool) {
    let mut done = Vec::new();
    for item in &plan.items {
        if let Item::Slice {
            index, offset, len, ..
        } = item
        {
            if pick(*index) {
                let (o, l) = (*offset as usize, *len as usize);
                tx.write(item, &data[o..o + l]).unwrap();
                done.push(item.clone());
            }
        }
    }
    tx.commit(&done).unwrap();
}

fn finish(tx: PullTransaction, key: &StoreKey) -> Result<std::path::PathBuf, StoreError> {
    let src = source("test", "aaaaa-aa", "hosted-1", 1, "canister");
    tx.finish(|_| Ok(()), src, key)
}

#[test]
fn an_interrupted_pull_resumes_with_only_the_missing_slices_and_ends_verified() {
    let tmp = tempfile::tempdir().unwrap();
    let store = Store::new(tmp.path());
    let key = StoreKey::from_bytes([1; 32]);
    let data = image(25);
    let mut tx = PullDir::lock(&store, "aaaaa-aa", "hosted-1")
        .unwrap()
        .begin(start("one", 10))
        .unwrap();
    let plan = tx.plan(&[(Blob::Bare, 25)], &[]).unwrap();
    assert_eq!(
        (plan.items.len(), plan.done_bytes, plan.total_bytes),
        (3, 0, 25)
    );
    deliver(&mut tx, &plan, &data, |i| i == 1);
    let dir = tx.dir().to_path_buf();
    drop(tx); // killed

    let pull_dir = PullDir::lock(&store, "aaaaa-aa", "hosted-1").unwrap();
    assert!(pull_dir.resumable());
    assert!(!pull_dir.complete(&key).unwrap());
    // a resumed run keeps its own slice size
    let mut tx = pull_dir.begin(start("one", 4)).unwrap();
    assert!(tx.resumed());
    assert_eq!(tx.slice_size(), 10);
    let plan = tx.plan(&[(Blob::Bare, 25)], &[]).unwrap();
    assert_eq!((plan.items.len(), plan.done_bytes), (2, 10));
    deliver(&mut tx, &plan, &data, |_| true);
    assert_eq!(finish(tx, &key).unwrap(), dir);
    assert_eq!(std::fs::read(dir.join(files::BARE_IMAGE)).unwrap(), data);
    assert!(!dir.join(PULL_STATE_FILE).exists());
    Manifest::verify(&dir, &key).unwrap();
    assert!(PullDir::lock(&store, "aaaaa-aa", "hosted-1")
        .unwrap()
        .complete(&key)
        .unwrap());
}

#[test]
fn another_snapshot_or_a_bad_read_is_refused_and_nothing_unchecked_is_complete() {
    let tmp = tempfile::tempdir().unwrap();
    let store = Store::new(tmp.path());
    let key = StoreKey::from_bytes([2; 32]);
    let mut tx = PullDir::lock(&store, "aaaaa-aa", "hosted-1")
        .unwrap()
        .begin(start("one", 10))
        .unwrap();
    let plan = tx.plan(&[(Blob::Bare, 25)], &[]).unwrap();
    // a read of the wrong length is never written
    let short = tx.write(&plan.items[0], &[0; 9]).unwrap_err();
    assert!(matches!(short, StoreError::BadDownload { .. }), "{short}");
    // two locks on one directory: refused
    assert!(PullDir::lock(&store, "aaaaa-aa", "hosted-1").is_err());
    deliver(&mut tx, &plan, &image(25), |i| i == 0);
    drop(tx);
    // the snapshot changed: refused, the partial download left as it was
    let changed = PullDir::lock(&store, "aaaaa-aa", "hosted-1")
        .unwrap()
        .begin(start("two", 10))
        .unwrap_err();
    assert!(
        matches!(changed, StoreError::ResumeRefused { .. }),
        "{changed}"
    );
    let dir = store.snapshot_dir("aaaaa-aa", "hosted-1").unwrap();
    assert!(dir.join(PULL_STATE_FILE).exists());
    // finishing with slices missing discards the directory instead of completing it
    let mut tx = PullDir::lock(&store, "aaaaa-aa", "hosted-1")
        .unwrap()
        .begin(start("one", 10))
        .unwrap();
    tx.plan(&[(Blob::Bare, 25)], &[]).unwrap();
    let err = finish(tx, &key).unwrap_err();
    assert!(matches!(err, StoreError::Discarded { .. }), "{err}");
    assert!(err.to_string().contains("1 of its 3 slices"), "{err}");
    assert!(!dir.exists());
    assert!(!dir.join(MANIFEST_FILE).exists());
}

#[test]
fn a_chunk_is_written_only_with_its_hash() {
    use sha2::{Digest, Sha256};
    let tmp = tempfile::tempdir().unwrap();
    let store = Store::new(tmp.path());
    let mut s = start("one", 10);
    s.chunk_store = true;
    let mut tx = PullDir::lock(&store, "aaaaa-aa", "hosted-1")
        .unwrap()
        .begin(s)
        .unwrap();
    let body = b"chunk".to_vec();
    let hash = Sha256::digest(&body).to_vec();
    let plan = tx.plan(&[], std::slice::from_ref(&hash)).unwrap();
    assert_eq!(plan.items, vec![Item::Chunk { hash: hash.clone() }]);
    let wrong = tx.write(&plan.items[0], b"other").unwrap_err();
    assert!(matches!(wrong, StoreError::BadDownload { .. }), "{wrong}");
    tx.write(&plan.items[0], &body).unwrap();
    tx.commit(&plan.items).unwrap();
    assert!(tx.plan(&[], &[hash]).unwrap().items.is_empty());
}
