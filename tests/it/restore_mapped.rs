//! The copy-on-write restore (`Canister::from_snapshot_file`): main memory is a private mapping
//! of the snapshot's `wasm_memory.bin`, and putting the snapshot's state back after a call
//! discards the written pages. Checked against the file's bytes (compared whole, and by
//! SHA-256 as a second computation) and against the plain copy restore's replies, on EOP
//! and classical snapshots, after calls that write memory and after calls that grow it.

use crate::common;

use candid::{Encode, Nat};
use mo_mem::runtime::{Canister, GlobalValue, RuntimeConfig, RuntimeError};
use mo_mem::snapshot::Snapshot;
use sha2::{Digest, Sha256};
use std::path::Path;

fn sha256(bytes: &[u8]) -> [u8; 32] {
    Sha256::digest(bytes).into()
}

/// The snapshot's parts as the runner takes them.
struct Parts {
    module: Vec<u8>,
    main: Vec<u8>,
    stable: Vec<u8>,
    globals: Vec<GlobalValue>,
}

fn parts(dir: &Path) -> Parts {
    let s = Snapshot::open(dir).unwrap();
    Parts {
        module: s.module().unwrap().to_vec(),
        main: s.memory().as_slice().to_vec(),
        stable: s
            .stable_memory()
            .map(|i| i.as_slice().to_vec())
            .unwrap_or_default(),
        globals: s.globals().unwrap().to_vec(),
    }
}

/// A query/update configuration as `mo-mem call` uses it (no per-message copies).
fn config() -> RuntimeConfig {
    RuntimeConfig {
        restore_after_query: false,
        rollback_on_trap: false,
        ..RuntimeConfig::default()
    }
}

fn mapped(dir: &Path, p: &Parts, cfg: RuntimeConfig) -> Canister {
    let c = Canister::from_snapshot_file(
        &p.module,
        &dir.join("wasm_memory.bin"),
        &p.main,
        &p.stable,
        &p.globals,
        cfg,
    )
    .unwrap();
    assert!(c.is_memory_mapped());
    c
}

/// The canister holds exactly the snapshot's state: memory byte for byte (and by hash),
/// stable memory, globals.
fn assert_snapshot_state(c: &Canister, p: &Parts, what: &str) {
    assert_eq!(c.main_memory().len(), p.main.len(), "{what}");
    assert!(c.main_memory() == &p.main[..], "{what}: memory differs");
    assert_eq!(sha256(c.main_memory()), sha256(&p.main), "{what}");
    assert_eq!(c.stable_memory(), &p.stable[..], "{what}");
    assert_eq!(c.mutable_globals(), p.globals, "{what}");
}

#[test]
fn a_mapped_restore_puts_back_the_snapshots_bytes_after_an_update_that_writes_memory() {
    for mode in ["eop", "copying", "incremental"] {
        let dir = common::fixture("compound", mode);
        let p = parts(&dir);
        let mut copied =
            Canister::from_snapshot_state(&p.module, &p.main, &p.stable, &p.globals, config())
                .unwrap();
        assert!(!copied.is_memory_mapped());
        let dump = copied.query("dump", &Encode!().unwrap()).unwrap();
        copied.reset_state(&p.main, &p.stable, &p.globals).unwrap();
        copied
            .update("grow", &Encode!(&Nat::from(50u32)).unwrap())
            .unwrap();
        let grown = sha256(copied.main_memory());

        let mut c = mapped(&dir, &p, config());
        assert_snapshot_state(&c, &p, mode);
        assert_eq!(
            c.query("dump", &Encode!().unwrap()).unwrap(),
            dump,
            "{mode}"
        );
        // as `mo-mem call` does after every call (a query leaves moc's message state behind)
        c.reset_state(&p.main, &p.stable, &p.globals).unwrap();
        assert_snapshot_state(&c, &p, mode);
        c.update("grow", &Encode!(&Nat::from(50u32)).unwrap())
            .unwrap();
        assert_ne!(grown, sha256(&p.main), "{mode}: grow wrote");
        // the runner is deterministic: the same writes as on the copied memory
        assert_eq!(sha256(c.main_memory()), grown, "{mode}");
        c.reset_state(&p.main, &p.stable, &p.globals).unwrap();
        assert_snapshot_state(&c, &p, mode);
        assert_eq!(
            c.query("dump", &Encode!().unwrap()).unwrap(),
            dump,
            "{mode}"
        );
        // the file itself never changed
        assert_eq!(
            sha256(&std::fs::read(dir.join("wasm_memory.bin")).unwrap()),
            sha256(&p.main)
        );
    }
}

#[test]
fn a_call_that_grows_memory_is_undone_and_growth_stops_cleanly_at_the_mapping() {
    let dir = common::fixture("compound", "eop");
    let p = parts(&dir);
    let mut c = mapped(&dir, &p, config());
    let dump = c.query("dump", &Encode!().unwrap()).unwrap();
    c.reset_state(&p.main, &p.stable, &p.globals).unwrap();
    c.update("grow", &Encode!(&Nat::from(200_000u32)).unwrap())
        .unwrap();
    assert!(
        c.main_memory().len() > p.main.len(),
        "grow(200000) grew memory: {} bytes",
        c.main_memory().len()
    );
    c.reset_state(&p.main, &p.stable, &p.globals).unwrap();
    assert!(c.is_memory_mapped());
    assert_snapshot_state(&c, &p, "after growth");
    assert_eq!(c.query("dump", &Encode!().unwrap()).unwrap(), dump);

    // a mapping exactly the snapshot's size: the same growth is refused by memory.grow (the
    // canister's RTS traps with its own message), and the state comes back all the same
    let tight = RuntimeConfig {
        max_memory_bytes: p.main.len() as u64,
        ..config()
    };
    let mut c = mapped(&dir, &p, tight);
    let err = c
        .update("grow", &Encode!(&Nat::from(200_000u32)).unwrap())
        .unwrap_err();
    assert!(matches!(err, RuntimeError::Trap { .. }), "{err}");
    assert_eq!(c.main_memory().len(), p.main.len());
    c.reset_state(&p.main, &p.stable, &p.globals).unwrap();
    assert_snapshot_state(&c, &p, "after refused growth");
}

#[test]
fn a_file_that_is_not_the_snapshots_memory_is_not_mapped() {
    let dir = common::fixture("compound", "eop");
    let p = parts(&dir);
    let other = common::fixture("weak", "eop").join("wasm_memory.bin");
    let err =
        Canister::from_snapshot_file(&p.module, &other, &p.main, &p.stable, &p.globals, config())
            .err()
            .expect("refused");
    assert!(matches!(err, RuntimeError::Mapping(_)), "{err}");
}
