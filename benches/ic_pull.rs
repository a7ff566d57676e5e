//! Benchmark: pull a 1 GiB snapshot from the emulator on loopback, against the emulator's raw
//! serving rate, with one request at a time and with the configured concurrency.
//!
//! Run: `cargo bench --bench ic_pull` (set `MO_MEM_BENCH_MIB` to change the size, default 1024).

#[path = "../tests/it/emulator/mod.rs"]
mod emulator;

use candid::Principal;
use emulator::{Data, Emulator};
use ic_management_canister_types::{ReadCanisterSnapshotDataArgs, SnapshotDataKind};
use ic_transport_types::{Envelope, EnvelopeContent};
use mo_mem::ic::{self, ConnectOptions, IdentityHomes, Network, PullOptions};
use mo_mem::store::{Store, StoreKey};
use std::borrow::Cow;
use std::time::Instant;

const SLICE: u64 = 2_000_000;

fn mib_per_s(bytes: u64, secs: f64) -> f64 {
    bytes as f64 / (1024.0 * 1024.0) / secs
}

/// Serves every slice of the main memory straight from `Emulator::handle` (no HTTP, no agent):
/// decoding the envelope, reading, Candid-encoding, hashing the tree and BLS-signing.
fn raw_rate(emu: &Emulator, cid: Principal, sid: &[u8], len: u64, threads: u64) -> f64 {
    let path = format!("/api/v4/canister/{cid}/call");
    let slices = len.div_ceil(SLICE);
    let start = Instant::now();
    std::thread::scope(|s| {
        for t in 0..threads {
            let path = path.clone();
            s.spawn(move || {
                let mut i = t;
                while i < slices {
                    let offset = i * SLICE;
                    let args = ReadCanisterSnapshotDataArgs {
                        canister_id: cid,
                        snapshot_id: sid.to_vec(),
                        kind: SnapshotDataKind::WasmMemory {
                            offset,
                            size: SLICE.min(len - offset),
                        },
                    };
                    let content = EnvelopeContent::Call {
                        nonce: Some(i.to_le_bytes().to_vec()),
                        ingress_expiry: emulator::now_ns() + 120_000_000_000,
                        sender: Principal::anonymous(),
                        canister_id: Principal::management_canister(),
                        method_name: "read_canister_snapshot_data".into(),
                        arg: candid::encode_one(args).unwrap(),
                        sender_info: None,
                    };
                    let env = Envelope {
                        content: Cow::Owned(content),
                        sender_pubkey: None,
                        sender_sig: None,
                        sender_delegation: None,
                    };
                    let (status, body) = emu.handle("POST", &path, &env.encode_bytes());
                    assert_eq!(status, 200);
                    std::hint::black_box(body);
                    i += threads;
                }
            });
        }
    });
    mib_per_s(len, start.elapsed().as_secs_f64())
}

fn main() {
    // `cargo bench` passes `--bench`; under `cargo test --all-targets` run a small smoke test.
    let benching = std::env::args().any(|a| a == "--bench");
    let mib: u64 = std::env::var("MO_MEM_BENCH_MIB")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(if benching { 1024 } else { 4 });
    let len = (mib << 20).div_ceil(65_536) * 65_536;
    let emu = Emulator::new();
    let mut module = b"\0asm\x01\0\0\0".to_vec();
    module.resize(100_000, 0);
    let mut c = Emulator::simple_canister(
        Principal::anonymous(),
        module,
        Data::Pattern { seed: 1, len },
        Data::bytes(vec![]),
    );
    c.public_snapshots = true;
    let cid = emu.install(c);
    let sid = emu.take_direct(cid, None);
    println!(
        "snapshot: {} MiB of main memory, slices of {SLICE} bytes",
        len >> 20
    );

    let raw1 = raw_rate(&emu, cid, &sid, len, 1);
    println!("emulator raw serving rate, 1 thread:   {raw1:8.1} MiB/s");
    let raw2 = raw_rate(&emu, cid, &sid, len, 2);
    println!("emulator raw serving rate, 2 threads:  {raw2:8.1} MiB/s");

    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    rt.block_on(async {
        let (addr, server) = emulator::http::serve(emu.clone()).await;
        let url = format!("http://{addr}");
        for concurrency in [1usize, ic::pull::DEFAULT_CONCURRENCY] {
            let tmp = tempfile::tempdir().unwrap();
            let store = Store::new(tmp.path().join("store"));
            let key = StoreKey::from_bytes([7; 32]);
            let identity = ic::identity::resolve(Some("anonymous"), &IdentityHomes::default()).unwrap();
            let conn = ic::connect(ConnectOptions::new(Network::Url(url.clone()), identity)).await.unwrap();
            let opts = PullOptions { concurrency, ..PullOptions::default() };
            let start = Instant::now();
            let out = ic::pull(&conn.canister(cid), &url, &store, &key, &opts).await.unwrap();
            let secs = start.elapsed().as_secs_f64();
            let rate = mib_per_s(out.downloaded, secs);
            println!(
                "pull over loopback HTTP, concurrency {concurrency:2}: {rate:8.1} MiB/s  ({:.0}% of the 1-thread raw rate; {secs:.1} s including the post-download checks and manifest)",
                100.0 * rate / raw1
            );
        }
        server.abort();
    });
}
