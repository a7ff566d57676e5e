//! The IC client and pull against the in-process emulator, through an unmodified ic-agent.

use crate::emulator;

use candid::Principal;
use emulator::{Data, Emulator};
use ic_agent::identity::BasicIdentity;
use ic_agent::Identity;
use ic_management_canister_types::CanisterStatusType;
use mo_mem::ic::{
    self, CanisterClient, ConnectOptions, IcError, Network, PullOptions, PullOutcome,
    ResolvedIdentity, RetryPolicy, TakeOptions,
};
use mo_mem::store::{files, Manifest, Store, StoreError, StoreKey, PULL_STATE_FILE};
use sha2::{Digest, Sha256};
use std::os::unix::fs::PermissionsExt;
use std::sync::Arc;
use std::time::Duration;

fn identity(seed: u8) -> ResolvedIdentity {
    let id = BasicIdentity::from_raw_key(&[seed; 32]);
    let principal = id.sender().unwrap().to_text();
    ResolvedIdentity {
        identity: Arc::new(id),
        principal,
        description: format!("test identity {seed}"),
    }
}

fn principal(seed: u8) -> Principal {
    Principal::from_text(identity(seed).principal).unwrap()
}

async fn connect_as(
    emu: &Emulator,
    seed: u8,
    root_key: Option<Vec<u8>>,
) -> Result<ic::Connection, IcError> {
    let mut opts = ConnectOptions::new(
        Network::Url("http://emulator.invalid".into()),
        identity(seed),
    );
    opts.transport = Some(emu.transport());
    opts.root_key = root_key;
    opts.retry = RetryPolicy {
        attempts: 6,
        initial_delay: Duration::from_millis(5),
        max_delay: Duration::from_millis(40),
    };
    opts.max_polling_time = Duration::from_secs(20);
    ic::connect(opts).await
}

fn module() -> Vec<u8> {
    let mut m = b"\0asm\x01\0\0\0".to_vec();
    m.extend((0..3000u32).map(|i| (i * 7) as u8));
    m
}

/// A stopped canister with 5 MiB + 3 pages of main memory, 2 pages of stable memory, 2 chunks.
fn setup(emu: &Emulator) -> (Principal, Vec<u8>) {
    let memory = Data::Pattern {
        seed: 11,
        len: 65_536 * 83,
    };
    let stable = Data::bytes((0..131_072u32).map(|i| (i % 253) as u8).collect());
    let mut c = Emulator::simple_canister(principal(1), module(), memory, stable);
    c.chunks = vec![b"first chunk".to_vec(), vec![0xab; 70_000]];
    let cid = emu.install(c);
    let sid = emu.take_direct(cid, None);
    (cid, sid)
}

struct Local {
    _tmp: tempfile::TempDir,
    store: Store,
    key: StoreKey,
}

impl Local {
    /// Pulls `client`'s latest snapshot (or the one `o` names) into this store, as network `emu`.
    async fn pull(&self, client: &CanisterClient, o: &PullOptions) -> Result<PullOutcome, IcError> {
        ic::pull(client, "emu", &self.store, &self.key, o).await
    }
}

fn local() -> Local {
    let tmp = tempfile::tempdir().unwrap();
    Local {
        store: Store::new(tmp.path().join("store")),
        key: StoreKey::from_bytes([3; 32]),
        _tmp: tmp,
    }
}

fn opts(slice: u64, concurrency: usize) -> PullOptions {
    PullOptions {
        slice_size: slice,
        concurrency,
        ..PullOptions::default()
    }
}

fn assert_identical(emu: &Emulator, cid: Principal, sid: &[u8], dir: &std::path::Path) {
    let snap = emu
        .snapshots(cid)
        .into_iter()
        .find(|s| s.id == sid)
        .unwrap();
    assert_eq!(
        std::fs::read(dir.join(files::WASM_MODULE)).unwrap(),
        snap.state.module.to_vec()
    );
    assert_eq!(
        std::fs::read(dir.join(files::WASM_MEMORY)).unwrap(),
        snap.state.memory.to_vec()
    );
    assert_eq!(
        std::fs::read(dir.join(files::STABLE_MEMORY)).unwrap(),
        snap.state.stable.to_vec()
    );
    for c in &snap.state.chunks {
        let p = dir.join(format!(
            "wasm_chunk_store/{}.bin",
            hex::encode(Sha256::digest(c))
        ));
        assert_eq!(&std::fs::read(p).unwrap(), c);
    }
}

#[tokio::test]
async fn pull_end_to_end_verified_and_private() {
    let emu = Emulator::new();
    let (cid, sid) = setup(&emu);
    let conn = connect_as(&emu, 1, None).await.unwrap(); // root key fetched from /api/v2/status
    let l = local();
    let out = l
        .pull(&conn.canister(cid), &opts(1_000_000, 4))
        .await
        .unwrap();
    assert!(!out.resumed && !out.already_complete);
    assert_eq!(out.snapshot.id, sid);
    assert_eq!(
        out.dir,
        l.store.root().join(cid.to_text()).join(hex::encode(&sid))
    );
    assert_identical(&emu, cid, &sid, &out.dir);
    let m = Manifest::verify(&out.dir, &l.key).unwrap();
    assert_eq!(m.source.canister, cid.to_text());
    assert_eq!(m.source.snapshot, hex::encode(&sid));
    assert_eq!(m.source.network, "emu");
    assert_eq!(m.files.len(), 6, "metadata, 3 blobs, 2 chunks");
    for f in &m.files {
        let mode = std::fs::metadata(out.dir.join(&f.path))
            .unwrap()
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o600, "{}", f.path);
    }
    assert!(!out.dir.join(PULL_STATE_FILE).exists());
    assert_eq!(
        emu.stats
            .max_slice_requested
            .load(std::sync::atomic::Ordering::Relaxed),
        1_000_000
    );
    // The icp-cli/dfx metadata.json round-trips.
    let meta = mo_mem::store::check_layout(&out.dir).unwrap();
    assert_eq!(meta.wasm_memory_size, 65_536 * 83);
    // Pulling again is a no-op on a complete, verified snapshot.
    let again = l
        .pull(&conn.canister(cid), &opts(1_000_000, 4))
        .await
        .unwrap();
    assert!(again.already_complete);
    assert_eq!(again.downloaded, 0);
}

#[tokio::test]
async fn interrupted_pull_resumes_byte_identical() {
    let emu = Emulator::new();
    let (cid, sid) = setup(&emu);
    let conn = connect_as(&emu, 1, Some(emu.root_key())).await.unwrap();
    let l = local();
    // After 3 slices the replica starts answering garbage: the pull stops, progress kept.
    emu.set_slice_hook(Some(Arc::new(|n, e: &Emulator| {
        if n == 3 {
            e.faults.lock().unwrap().short_slices = true;
        }
    })));
    let err = l
        .pull(&conn.canister(cid), &opts(500_000, 1))
        .await
        .unwrap_err();
    assert!(matches!(err, IcError::BadReply { .. }), "{err}");
    let dir = l
        .store
        .snapshot_dir(&cid.to_text(), &hex::encode(&sid))
        .unwrap();
    assert!(dir.join(PULL_STATE_FILE).exists());
    assert!(
        matches!(
            Manifest::verify(&dir, &l.key),
            Err(StoreError::NoManifest { .. })
        ),
        "incomplete is not complete"
    );
    emu.set_slice_hook(None);
    emu.faults.lock().unwrap().short_slices = false;
    let out = l
        .pull(&conn.canister(cid), &opts(500_000, 3))
        .await
        .unwrap();
    assert!(out.resumed);
    let total = 3008 + 65_536 * 83 + 131_072 + 11 + 70_000;
    assert!(
        out.downloaded < total && out.downloaded >= total - 3 * 500_000,
        "{}",
        out.downloaded
    );
    assert_identical(&emu, cid, &sid, &out.dir);
    Manifest::verify(&out.dir, &l.key).unwrap();
}

#[tokio::test]
async fn snapshot_replaced_or_changed_mid_pull_is_refused() {
    let emu = Emulator::new();
    let (cid, sid) = setup(&emu);
    let conn = connect_as(&emu, 1, None).await.unwrap();
    let l = local();
    let client = conn.canister(cid);
    // Replaced after 2 slices: the old ID disappears (IC0305) and the pull stops.
    emu.set_slice_hook(Some(Arc::new(move |n, e: &Emulator| {
        if n == 2 {
            let old = e.snapshots(cid)[0].id.clone();
            e.with_canister(cid, |c| {
                c.memory = Data::Pattern {
                    seed: 99,
                    len: 65_536 * 83,
                }
            });
            e.take_direct(cid, Some(old));
        }
    })));
    let err = l.pull(&client, &opts(1_000_000, 1)).await.unwrap_err();
    assert!(matches!(err, IcError::NoSuchSnapshot { .. }), "{err}");
    assert!(err.to_string().contains("deleted or replaced"), "{err}");
    emu.set_slice_hook(None);
    let old_dir = l
        .store
        .snapshot_dir(&cid.to_text(), &hex::encode(&sid))
        .unwrap();
    // Resuming the old one explicitly is refused, nothing mixed.
    let mut o = opts(1_000_000, 2);
    o.snapshot = Some(sid.clone());
    let err = l.pull(&client, &o).await.unwrap_err();
    assert!(
        matches!(err, IcError::Store(StoreError::ResumeRefused { .. })),
        "{err}"
    );
    assert!(!old_dir.join("manifest.json").exists());
    // The latest is now the replacement, pulled cleanly into its own directory.
    let out = l.pull(&client, &opts(1_000_000, 2)).await.unwrap();
    assert_ne!(out.snapshot.id, sid);
    assert!(
        out.notes.iter().any(|n| n.contains("interrupted pull")),
        "{:?}",
        out.notes
    );
    assert_identical(&emu, cid, &out.snapshot.id, &out.dir);

    // A snapshot whose metadata changes between runs (an uploaded one) is refused on resume.
    let sid2 = out.snapshot.id.clone();
    emu.take_direct(cid, None);
    let sid3 = emu.snapshots(cid).last().unwrap().id.clone();
    let base = emu
        .stats
        .slice_reads
        .load(std::sync::atomic::Ordering::Relaxed);
    emu.set_slice_hook(Some(Arc::new(move |n, e: &Emulator| {
        if n == base + 2 {
            e.faults.lock().unwrap().short_slices = true;
        }
    })));
    assert!(l.pull(&client, &opts(1_000_000, 1)).await.is_err());
    emu.set_slice_hook(None);
    emu.faults.lock().unwrap().short_slices = false;
    emu.with_snapshot(cid, &sid3, |s| s.state.version += 1);
    let err = l.pull(&client, &opts(1_000_000, 1)).await.unwrap_err();
    match &err {
        IcError::Store(StoreError::ResumeRefused { reason, .. }) => {
            assert!(reason.contains("changed"), "{reason}")
        }
        other => panic!("{other}"),
    }
    assert_ne!(sid2, sid3);
}

#[tokio::test]
async fn wrong_root_key_fails_closed() {
    let emu = Emulator::new();
    let (cid, _) = setup(&emu);
    let other = Emulator::with_key_seed(2).root_key();
    let conn = connect_as(&emu, 1, Some(other)).await.unwrap();
    let before = emu.stats.calls.load(std::sync::atomic::Ordering::Relaxed);
    let err = conn.canister(cid).list().await.unwrap_err();
    assert!(matches!(err, IcError::Untrusted { .. }), "{err}");
    assert!(
        err.to_string().contains("certificate verification"),
        "{err}"
    );
    let calls = emu.stats.calls.load(std::sync::atomic::Ordering::Relaxed) - before;
    assert_eq!(calls, 1, "an untrusted reply is never retried");
}

#[tokio::test]
async fn stale_certificate_fails_closed() {
    let emu = Emulator::new();
    let (cid, _) = setup(&emu);
    let conn = connect_as(&emu, 1, Some(emu.root_key())).await.unwrap();
    emu.faults.lock().unwrap().stale_time = true;
    let l = local();
    let err = l
        .pull(&conn.canister(cid), &opts(1_000_000, 2))
        .await
        .unwrap_err();
    assert!(matches!(err, IcError::Untrusted { .. }), "{err}");
    assert!(
        l.store.list().unwrap().is_empty(),
        "nothing written from an untrusted reply"
    );
}

#[tokio::test]
async fn non_controller_is_told_what_to_do() {
    let emu = Emulator::new();
    let (cid, sid) = setup(&emu);
    let conn = connect_as(&emu, 7, None).await.unwrap();
    let client = conn.canister(cid);
    let err = client.list().await.unwrap_err();
    let msg = err.to_string();
    assert!(matches!(err, IcError::NotController { .. }), "{msg}");
    assert!(
        msg.contains(&principal(7).to_text()) && msg.contains("--add-controller"),
        "{msg}"
    );
    assert!(matches!(
        client.metadata(&sid).await,
        Err(IcError::NotController { .. })
    ));
    assert!(matches!(
        ic::ops::take(&client, TakeOptions::default()).await,
        Err(IcError::NotController { .. })
    ));
    // snapshot_visibility = public lets anyone read (but not take).
    emu.with_canister(cid, |c| c.public_snapshots = true);
    let l = local();
    l.pull(&client, &opts(2_000_000, 2)).await.unwrap();
}

#[tokio::test]
async fn slice_size_violations() {
    let emu = Emulator::new();
    let (cid, sid) = setup(&emu);
    let conn = connect_as(&emu, 1, None).await.unwrap();
    let client = conn.canister(cid);
    let l = local();
    for bad in [0, 2_000_001] {
        let err = l.pull(&client, &opts(bad, 2)).await.unwrap_err();
        assert!(matches!(err, IcError::Config(_)), "{err}");
    }
    assert_eq!(
        emu.stats
            .slice_reads
            .load(std::sync::atomic::Ordering::Relaxed),
        0
    );
    // The emulator, like the IC, refuses a slice above 2,000,000 bytes and one past the end.
    use ic_management_canister_types::SnapshotDataKind;
    let err = client
        .read(
            &sid,
            SnapshotDataKind::WasmMemory {
                offset: 0,
                size: 2_000_001,
            },
        )
        .await
        .unwrap_err();
    assert!(
        err.to_string().contains("IC0408") && err.to_string().contains("too large"),
        "{err}"
    );
    let err = client
        .read(
            &sid,
            SnapshotDataKind::WasmMemory {
                offset: 65_536 * 83 - 10,
                size: 11,
            },
        )
        .await
        .unwrap_err();
    assert!(err.to_string().contains("IC0408"), "{err}");
    // A replica that answers a short slice is caught, and nothing is marked complete.
    emu.faults.lock().unwrap().short_slices = true;
    let err = l.pull(&client, &opts(2_000_000, 2)).await.unwrap_err();
    assert!(matches!(err, IcError::BadReply { .. }), "{err}");
    assert!(l.store.list().unwrap().iter().all(|s| !s.complete));
}

#[tokio::test]
async fn transient_errors_are_retried() {
    let emu = Emulator::new();
    let (cid, sid) = setup(&emu);
    let conn = connect_as(&emu, 1, None).await.unwrap();
    {
        let mut f = emu.faults.lock().unwrap();
        f.http_errors = vec![503, 429, 503];
        f.transient_rejects = 3;
        f.accept_202 = true; // and every reply comes through read_state polling
    }
    let l = local();
    let out = l
        .pull(&conn.canister(cid), &opts(2_000_000, 2))
        .await
        .unwrap();
    assert_eq!(
        emu.stats
            .faults_injected
            .load(std::sync::atomic::Ordering::Relaxed),
        6
    );
    assert_identical(&emu, cid, &sid, &out.dir);
}

#[tokio::test]
async fn create_update_and_the_guards() {
    let emu = Emulator::new();
    let memory = Data::bytes(vec![5; 65_536]);
    let mut c = Emulator::simple_canister(principal(1), module(), memory, Data::bytes(vec![]));
    c.status = CanisterStatusType::Running;
    let cid = emu.install(c);
    let conn = connect_as(&emu, 1, None).await.unwrap();
    let client = conn.canister(cid);
    // Running: refused without --stop.
    let err = ic::ops::take(&client, TakeOptions::default())
        .await
        .unwrap_err();
    assert!(
        matches!(err, IcError::CanisterRunning { .. }) && err.to_string().contains("--stop"),
        "{err}"
    );
    assert!(emu.snapshots(cid).is_empty());
    // With --stop: stopped, taken, started again.
    let out = ic::ops::take(
        &client,
        TakeOptions {
            stop: true,
            replace_latest: false,
        },
    )
    .await
    .unwrap();
    assert!(out.restarted);
    assert_eq!(
        emu.with_canister(cid, |c| c.status),
        CanisterStatusType::Running
    );
    assert_eq!(out.module_hash, Some(Sha256::digest(module()).to_vec()));
    // update replaces the latest with a new ID.
    let up = ic::ops::take(
        &client,
        TakeOptions {
            stop: true,
            replace_latest: true,
        },
    )
    .await
    .unwrap();
    assert_eq!(up.replaced.as_deref(), Some(out.snapshot.id.as_slice()));
    assert_ne!(up.snapshot.id, out.snapshot.id);
    let list = client.list().await.unwrap();
    assert_eq!(list.len(), 1);
    assert_eq!(list[0].id, up.snapshot.id);
    // The 10-snapshot limit is explained.
    emu.with_canister(cid, |c| c.status = CanisterStatusType::Stopped);
    for _ in 1..10 {
        ic::ops::take(&client, TakeOptions::default())
            .await
            .unwrap();
    }
    let err = ic::ops::take(&client, TakeOptions::default())
        .await
        .unwrap_err();
    assert!(
        matches!(err, IcError::SnapshotLimit { .. }) && err.to_string().contains("mo-mem update"),
        "{err}"
    );
    assert_eq!(
        emu.with_canister(cid, |c| c.status),
        CanisterStatusType::Stopped,
        "left as found"
    );
    // update still works at the limit, on the latest.
    let latest = ic::latest(&client.list().await.unwrap()).unwrap().clone();
    let up = ic::ops::take(
        &client,
        TakeOptions {
            stop: false,
            replace_latest: true,
        },
    )
    .await
    .unwrap();
    assert_eq!(up.replaced, Some(latest.id));
    assert_eq!(client.list().await.unwrap().len(), 10);
}

#[tokio::test]
async fn hosted_protocol_create_update_pull_resume() {
    let emu = Emulator::new();
    let mut c = Emulator::simple_canister(
        principal(1),
        module(),
        Data::Pattern {
            seed: 4,
            len: 65_536 * 40,
        },
        Data::bytes(vec![]),
    );
    c.hosted = Some(emulator::Hosted::default());
    let cid = emu.install(c);
    let mut o = ConnectOptions::new(Network::Url("http://emulator.invalid".into()), identity(1));
    o.transport = Some(emu.transport());
    o.retry.initial_delay = Duration::from_millis(5);
    let conn = ic::connect(o).await.unwrap();
    let client = conn.hosted(cid);
    assert!(client.info().await.unwrap().is_empty());
    let first = client.take(false).await.unwrap();
    let second = client.take(true).await.unwrap();
    assert_ne!(first.id, second.id);
    let list = client.info().await.unwrap();
    assert_eq!(list, vec![second.clone()]);
    assert_eq!(second.size, 65_536 * 40);

    let l = local();
    let base = emu
        .stats
        .slice_reads
        .load(std::sync::atomic::Ordering::Relaxed);
    emu.set_slice_hook(Some(Arc::new(move |n, e: &Emulator| {
        if n == base + 2 {
            e.faults.lock().unwrap().short_slices = true;
        }
    })));
    let err = ic::hosted::pull_hosted(&client, "emu", &l.store, &l.key, &opts(500_000, 1), None)
        .await
        .unwrap_err();
    assert!(matches!(err, IcError::BadReply { .. }), "{err}");
    emu.set_slice_hook(None);
    emu.faults.lock().unwrap().short_slices = false;
    let out = ic::hosted::pull_hosted(&client, "emu", &l.store, &l.key, &opts(500_000, 3), None)
        .await
        .unwrap();
    assert!(out.resumed);
    assert_eq!(out.label, format!("hosted-{}", second.id));
    let image = std::fs::read(out.dir.join(files::BARE_IMAGE)).unwrap();
    assert!(
        image
            == Data::Pattern {
                seed: 4,
                len: 65_536 * 40
            }
            .to_vec(),
        "bare image differs"
    );
    let m = Manifest::verify(&out.dir, &l.key).unwrap();
    assert_eq!(m.source.method, "canister");

    // Controllers only.
    let mut o = ConnectOptions::new(Network::Url("http://emulator.invalid".into()), identity(9));
    o.transport = Some(emu.transport());
    let stranger = ic::connect(o).await.unwrap();
    let err = stranger.hosted(cid).info().await.unwrap_err();
    assert!(matches!(err, IcError::NotController { .. }), "{err}");
}
