//! The canister runner on real moc-compiled modules (tests/data/runtime/probe.mo, built by
//! scripts/build-runtime-test-wasm) and on tiny hand-assembled modules.

use candid::{Decode, Encode, Int, Nat, Principal};
use mo_mem::runtime::{Canister, GlobalValue, RuntimeConfig, RuntimeError};

const PROBE_EOP: &[u8] = include_bytes!("../data/runtime/probe-eop.wasm.gz");
const PROBE_COPYING: &[u8] = include_bytes!("../data/runtime/probe-copying.wasm.gz");

fn probes() -> [(&'static str, &'static [u8]); 2] {
    [("eop", PROBE_EOP), ("copying", PROBE_COPYING)]
}

fn installed(wasm: &[u8]) -> Canister {
    let mut c = Canister::new(wasm, RuntimeConfig::default()).unwrap();
    c.init(&Encode!().unwrap()).unwrap();
    c
}

fn get(c: &mut Canister) -> Nat {
    Decode!(&c.query("get", &Encode!().unwrap()).unwrap(), Nat).unwrap()
}

#[test]
fn memory_width_and_globals_match_the_mode() {
    for (mode, wasm) in probes() {
        let c = installed(wasm);
        assert_eq!(c.is_memory64(), mode == "eop", "{mode}");
        assert_eq!(c.main_memory().len() % 65536, 0);
        assert!(!c.main_memory().is_empty());
        let globals = c.mutable_globals();
        assert!(!globals.is_empty(), "{mode}");
        for g in &globals {
            match (mode, g) {
                ("eop", GlobalValue::I64(_)) => {}
                ("copying", GlobalValue::I32(_) | GlobalValue::I64(_)) => {}
                _ => panic!("{mode}: unexpected global {g:?}"),
            }
        }
        if mode == "copying" {
            assert!(globals.iter().any(|g| matches!(g, GlobalValue::I32(_))));
        }
        assert_eq!(c.messages_executed(), 1);
        assert_eq!(c.wasm_module()[..4], *b"\0asm");
    }
}

#[test]
fn updates_change_state_and_reply() {
    for (mode, wasm) in probes() {
        let mut c = installed(wasm);
        let r = c
            .update("inc", &Encode!(&Nat::from(5u32)).unwrap())
            .unwrap();
        assert_eq!(Decode!(&r, Nat).unwrap(), 5u32, "{mode}");
        let r = c
            .update("inc", &Encode!(&Nat::from(10u128.pow(30))).unwrap())
            .unwrap();
        assert_eq!(
            Decode!(&r, Nat).unwrap(),
            Nat::from(10u128.pow(30) + 5),
            "{mode}"
        );
        assert_eq!(get(&mut c), Nat::from(10u128.pow(30) + 5));
        assert_eq!(c.messages_executed(), 3);
    }
}

#[test]
fn query_changes_are_discarded() {
    for (mode, wasm) in probes() {
        let mut c = installed(wasm);
        c.update("inc", &Encode!(&Nat::from(1u32)).unwrap())
            .unwrap();
        let memory = c.main_memory().to_vec();
        let globals = c.mutable_globals();
        let stable = c.stable_memory().to_vec();
        let r = c.query("bump_in_query", &Encode!().unwrap()).unwrap();
        assert_eq!(Decode!(&r, Nat).unwrap(), 1001u32, "{mode}");
        assert_eq!(get(&mut c), 1u32, "{mode}");
        assert!(
            c.main_memory() == memory.as_slice(),
            "{mode}: memory changed"
        );
        assert_eq!(c.mutable_globals(), globals, "{mode}");
        assert_eq!(c.stable_memory(), stable.as_slice());
        assert_eq!(c.messages_executed(), 2, "queries do not count");
    }
}

#[test]
fn query_growing_memory_is_discarded() {
    for (mode, wasm) in probes() {
        let mut c = installed(wasm);
        c.update("inc", &Encode!(&Nat::from(3u32)).unwrap())
            .unwrap();
        let memory = c.main_memory().to_vec();
        let globals = c.mutable_globals();
        let r = c
            .query("grow_in_query", &Encode!(&Nat::from(700_000u32)).unwrap())
            .unwrap();
        assert_eq!(Decode!(&r, Nat).unwrap(), 700_000u32, "{mode}");
        assert_eq!(c.main_memory().len(), memory.len(), "{mode}: size restored");
        assert!(
            c.main_memory() == memory.as_slice(),
            "{mode}: memory changed"
        );
        assert_eq!(c.mutable_globals(), globals, "{mode}");
        assert_eq!(get(&mut c), 3u32);
        c.update("inc", &Encode!(&Nat::from(1u32)).unwrap())
            .unwrap();
        assert_eq!(get(&mut c), 4u32);
    }
}

#[test]
fn candid_round_trip() {
    for (mode, wasm) in probes() {
        let mut c = installed(wasm);
        let n = Nat::from(u128::MAX) * Nat::from(3u32);
        let i = Int::from(-(10i128.pow(25)));
        let t = "héllo \"wörld\"\n🎉".to_string();
        let arg = Encode!(&n, &i, &t, &true, &u64::MAX).unwrap();
        let reply = c.query("echo_", &arg).unwrap();
        let (n2, i2, t2, b2, x2) = Decode!(&reply, Nat, Int, String, bool, u64).unwrap();
        assert_eq!((n2, i2, t2, b2, x2), (n, i, t, true, u64::MAX), "{mode}");
    }
}

#[test]
fn self_id_is_configurable() {
    for (mode, wasm) in probes() {
        let mut c = installed(wasm);
        let r = c.query("whoami", &Encode!().unwrap()).unwrap();
        let (a, b) = Decode!(&r, Principal, Principal).unwrap();
        assert_eq!(a.to_text(), "rrkah-fqaaa-aaaaa-aaaaq-cai", "{mode}");
        assert_eq!(a, b);
        let cfg = RuntimeConfig {
            canister_id: Principal::management_canister(),
            ..RuntimeConfig::default()
        };
        let mut c = Canister::new(wasm, cfg).unwrap();
        c.init(&Encode!().unwrap()).unwrap();
        let r = c.query("whoami", &Encode!().unwrap()).unwrap();
        let (a, _) = Decode!(&r, Principal, Principal).unwrap();
        assert_eq!(a, Principal::management_canister());
    }
}

#[test]
fn trap_carries_the_canister_message_and_rolls_back() {
    for (mode, wasm) in probes() {
        let mut c = installed(wasm);
        c.update("inc", &Encode!(&Nat::from(7u32)).unwrap())
            .unwrap();
        let before = c.main_memory().to_vec();
        let err = c
            .update("boom", &Encode!(&"kaboom 💥").unwrap())
            .unwrap_err();
        match &err {
            RuntimeError::Trap { method, message } => {
                assert_eq!(method, "boom");
                assert!(message.contains("kaboom 💥"), "{mode}: {message}");
            }
            other => panic!("{mode}: {other:?}"),
        }
        assert!(c.debug_log().iter().any(|l| l == "about to trap"), "{mode}");
        assert_eq!(get(&mut c), 7u32, "{mode}: trap rolled back");
        assert!(c.main_memory() == before.as_slice());
        assert_eq!(c.messages_executed(), 2);
        // Still usable afterwards.
        c.update("inc", &Encode!(&Nat::from(1u32)).unwrap())
            .unwrap();
        assert_eq!(get(&mut c), 8u32);
    }
}

#[test]
fn infinite_loop_hits_the_instruction_limit() {
    let cfg = RuntimeConfig {
        instruction_limit: 2_000_000,
        ..RuntimeConfig::default()
    };
    let mut c = Canister::new(PROBE_COPYING, cfg).unwrap();
    c.init(&Encode!().unwrap()).unwrap();
    let err = c.update("spin", &Encode!().unwrap()).unwrap_err();
    assert!(
        matches!(err, RuntimeError::InstructionLimit { ref method, limit: 2_000_000 } if method == "spin"),
        "{err:?}"
    );
    assert_eq!(get(&mut c), 0u32);
}

#[test]
fn unknown_method_and_wrong_kind() {
    let mut c = installed(PROBE_EOP);
    assert!(matches!(
        c.update("nope", &Encode!().unwrap()),
        Err(RuntimeError::NoSuchMethod { .. })
    ));
    assert!(matches!(
        c.query("inc", &Encode!(&Nat::from(1u32)).unwrap()),
        Err(RuntimeError::NoSuchMethod { .. })
    ));
    // A bad Candid argument is the canister's own trap (moc's IDL decoder).
    assert!(matches!(
        c.update("inc", b"garbage"),
        Err(RuntimeError::Trap { .. })
    ));
}

#[test]
fn runs_are_deterministic() {
    for (mode, wasm) in probes() {
        let run = || {
            let mut c = installed(wasm);
            for i in 0..5u32 {
                c.update("inc", &Encode!(&Nat::from(i)).unwrap()).unwrap();
                c.update("note", &Encode!(&format!("note {i}")).unwrap())
                    .unwrap();
            }
            (
                c.main_memory().to_vec(),
                c.stable_memory().to_vec(),
                c.mutable_globals(),
            )
        };
        assert!(run() == run(), "{mode}");
    }
}

#[test]
fn upgrade_keeps_stable_variables() {
    for (mode, wasm) in probes() {
        let mut c = installed(wasm);
        c.update("inc", &Encode!(&Nat::from(41u32)).unwrap())
            .unwrap();
        c.update("note", &Encode!(&"kept").unwrap()).unwrap();
        c.upgrade(wasm, &Encode!().unwrap())
            .unwrap_or_else(|e| panic!("{mode}: {e}"));
        assert_eq!(get(&mut c), 41u32, "{mode}");
        assert_eq!(
            c.messages_executed(),
            4,
            "{mode}: init, 2 updates, 1 upgrade"
        );
        let r = c.query("dump", &Encode!().unwrap()).unwrap();
        let dump = Decode!(&r, Vec<(String, String)>).unwrap();
        assert!(
            dump.contains(&("log".into(), "[\"kept\"]".into())),
            "{mode}: {dump:?}"
        );
    }
}

/// Assembles a module from (section id, contents) pairs.
fn module(sections: &[(u8, Vec<u8>)]) -> Vec<u8> {
    let mut out = b"\0asm\x01\0\0\0".to_vec();
    for (id, contents) in sections {
        out.push(*id);
        assert!(contents.len() < 128);
        out.push(contents.len() as u8);
        out.extend_from_slice(contents);
    }
    out
}

fn name(s: &str) -> Vec<u8> {
    let mut v = vec![s.len() as u8];
    v.extend_from_slice(s.as_bytes());
    v
}

/// A module importing `ic0.<import>` as `() -> ()` and exporting `canister_update go`, which
/// calls it.
fn calling_import(import: &str) -> Vec<u8> {
    let mut imports = vec![1];
    imports.extend(name("ic0"));
    imports.extend(name(import));
    imports.extend([0, 0]);
    let mut exports = vec![1];
    exports.extend(name("canister_update go"));
    exports.extend([0, 1]);
    module(&[
        (1, vec![1, 0x60, 0, 0]),
        (2, imports),
        (3, vec![1, 0]),
        (5, vec![1, 0, 1]),
        (7, exports),
        (10, vec![1, 4, 0, 0x10, 0, 0x0b]),
    ])
}

#[test]
fn unsupported_import_is_named_when_called() {
    let mut c = Canister::new(&calling_import("mystery_call"), RuntimeConfig::default()).unwrap();
    let err = c.update("go", &[]).unwrap_err();
    match &err {
        RuntimeError::UnsupportedCall { method, import } => {
            assert_eq!(method, "go");
            assert_eq!(import, "ic0.mystery_call");
        }
        other => panic!("{other:?}"),
    }
    assert!(err.to_string().contains("ic0.mystery_call"));
}

#[test]
fn known_import_with_wrong_signature_is_refused() {
    let err = Canister::new(&calling_import("debug_print"), RuntimeConfig::default())
        .err()
        .unwrap();
    match &err {
        RuntimeError::ImportSignature { name, .. } => assert_eq!(name, "debug_print"),
        other => panic!("{other:?}"),
    }
    assert!(err.to_string().contains("(i32, i32) -> ()"), "{err}");
}

#[test]
fn garbage_is_an_invalid_module() {
    for bad in [
        &b""[..],
        b"\0asm",
        b"\0asm\x01\0\0\0\x01\x05\x01",
        &[0x1f, 0x8b, 0, 0],
    ] {
        assert!(matches!(
            Canister::new(bad, RuntimeConfig::default()),
            Err(RuntimeError::InvalidModule(_))
        ));
    }
}

/// The bits of `floats(x, y)`'s results: x / y, x + y, sqrt x, sin x, x ** y, floor x, -x, abs x, x.
fn float_bits(c: &mut Canister, x: u64, y: u64) -> Vec<u64> {
    let arg = Encode!(&f64::from_bits(x), &f64::from_bits(y)).unwrap();
    let reply = c.query("floats", &arg).unwrap();
    let floats = Decode!(&reply, Vec<f64>).unwrap();
    floats.into_iter().map(f64::to_bits).collect()
}

#[test]
fn float_arithmetic_makes_the_ics_canonical_nan_and_sign_operations_keep_a_payload() {
    const CANONICAL: u64 = 0x7ff8_0000_0000_0000;
    for (mode, wasm) in probes() {
        let mut c = installed(wasm);
        // 0 / 0 on the host CPU is x86's negative NaN; the IC's Wasmtime canonicalizes it.
        let zero = float_bits(&mut c, 0, 0);
        assert_eq!(zero[0], CANONICAL, "{mode}: 0 / 0");
        assert_eq!(zero[1..4], [0, 0, 0], "{mode}: 0 + 0, sqrt 0, sin 0");
        assert_eq!(zero[4], 1.0f64.to_bits(), "{mode}: 0 ** 0");
        assert_eq!(zero[6], 1 << 63, "{mode}: -0");
        // A NaN with a sign and a payload, passed in by Candid: arithmetic (in the canister's
        // code and in the RTS's sin and pow) gives the canonical NaN, the sign operations
        // flip or clear only the sign, and the value itself comes back as it went in.
        let nan = 0xfff4_0000_0000_abcd_u64;
        let got = float_bits(&mut c, nan, 2.0f64.to_bits());
        assert_eq!(got[..6], [CANONICAL; 6], "{mode}: arithmetic on {nan:#x}");
        assert_eq!(
            got[6..],
            [nan & !(1 << 63), nan & !(1 << 63), nan],
            "{mode}: -x, abs x, x"
        );
        // Ordinary values keep their bits.
        let got = float_bits(&mut c, 2.0f64.to_bits(), (-0.5f64).to_bits());
        let want = [
            -4.0,
            1.5,
            2f64.sqrt(),
            2f64.sin(),
            2f64.powf(-0.5),
            2.0,
            -2.0,
            2.0,
            2.0,
        ];
        assert_eq!(
            got[..4],
            want[..4].iter().map(|f| f.to_bits()).collect::<Vec<_>>()[..],
            "{mode}"
        );
        assert_eq!(
            got[5..],
            want[5..].iter().map(|f| f.to_bits()).collect::<Vec<_>>()[..],
            "{mode}"
        );
        assert!(
            (f64::from_bits(got[4]) - want[4]).abs() < 1e-15,
            "{mode}: 2 ** -0.5"
        );
    }
}
