//! Where the classical incremental GC of moc < 0.13 keeps its partition table, confirmed from
//! the module's own RTS code.
//!
//! Before moc 0.13 the RTS's `Partition` and `PartitionedHeap` (`rts/motoko-rts/src/gc/
//! incremental/partitioned_heap.rs`) and `State` (`gc/incremental.rs`) are not `repr(C)`: rustc
//! chose their field order, so the table's format is a fact of one RTS build, not of the source.
//! It was read off the disassembly of the npm `motoko` 3.6.16 (moc 0.11.1+) and 3.8.1 (moc
//! 0.12.1) builds, which share one RTS (docs/formats.md, "The incremental GC before 0.13"),
//! and of the 3.6.4 (moc 0.9.6) build, whose records start 4 bytes earlier, and the 3.6.0 (moc
//! 0.9.1+) and 3.6.1 (moc 0.9.2) builds, whose `get_heap_size` sums the records and whose
//! records start at S+16 and S+32 ([`VERIFIED`]):
//!
//! - `get_heap_size` loads `allocation_index` at S+20 (S: the `RefCell<State>` static), checks
//!   it against 127 (`MAX_PARTITIONS`), and adds `dynamic_size` at S+52+28·index to
//!   `precomputed_heap_size` at S+32: the `PartitionedHeap` is at S+8, its 127 records of 28
//!   bytes at S+40;
//! - `PartitionedHeapIterator::skip_empty_partitions` reads `free` (+20) and `temporary` (+22)
//!   and compares `static_size` (+8) with `PARTITION_SIZE`; `next_partition` computes
//!   `index` (+0) `<< 25` plus `static_size` and reads `large_content` (+21);
//!   `start_object_iteration` reads `large_content`, the bitmap pointer (+16) and
//!   `marked_size` (+4); `allocate_bitmap` finds a completely free partition (`free`,
//!   `static_size + dynamic_size` (+12) = 0) and sets `free` false and `temporary` true; the
//!   collector (`incremental_gc`, with `plan_updates` and `complete_collection` inlined) sets
//!   `update` (+24) from `free` and `evacuate` (+23) and frees a partition by setting `free`
//!   and clearing `large_content` and `temporary`;
//! - `stop_gc_on_upgrade` stores `Phase::Stop` (4) at S+3656 (`Pause` 0, `Mark` 1, `Evacuate` 2,
//!   `Update` 3, `Stop` 4).
//!
//! A module is read with a format only if each of those functions is, instruction for
//! instruction, that format's verified code ([`VERIFIED`], addresses of the RTS's data aside); any other
//! build is refused by name.

use sha2::{Digest, Sha256};
use wasmparser::{FunctionBody, Operator};

use super::code::{const_addresses, ops};
use super::raw::RawModule;

/// One verified format of the table: the RTS builds sharing it, where it lies in the
/// `RefCell<State>` static, and the fingerprints ([`fingerprint`]) of the RTS functions whose
/// code fixes it, by name (without the hash suffix).
pub(crate) struct VerifiedFormat {
    /// The npm `motoko` releases whose RTS has this format.
    pub(crate) npm: &'static [&'static str],
    /// Offset of the partition records in the `RefCell<State>` static.
    pub(crate) records_in_state: u64,
    /// Offset of the phase byte in the `RefCell<State>` static.
    pub(crate) phase_in_state: u64,
    /// Each function and its verified fingerprints.
    pub(crate) functions: &'static [(&'static str, &'static [&'static str])],
}

const SKIP_EMPTY: &str =
    "motoko_rts::gc::incremental::partitioned_heap::PartitionedHeapIterator::skip_empty_partitions";
const NEXT_PARTITION: &str =
    "motoko_rts::gc::incremental::partitioned_heap::PartitionedHeapIterator::next_partition";
const START_OBJECTS: &str =
    "motoko_rts::gc::incremental::partitioned_heap::PartitionedHeapIterator::start_object_iteration";
const ALLOCATE_BITMAP: &str =
    "motoko_rts::gc::incremental::partitioned_heap::PartitionedHeap::allocate_bitmap";
const ALLOCATE_IN_NEW: &str =
    "motoko_rts::gc::incremental::partitioned_heap::PartitionedHeap::allocate_in_new_partition";
/// The collector, with `plan_updates` and `complete_collection` inlined.
const COLLECTOR: &str = "motoko_rts::gc::incremental::incremental_gc";

/// The verified formats. The records are the same 28 bytes in each (same field order); the
/// formats differ in where the records start: 0.11 added `evacuated_size` to
/// `PartitionedHeap` before them.
pub(crate) const VERIFIED: &[VerifiedFormat] = &[
    // npm motoko 3.6.0 (moc 0.9.1+): no `precomputed_heap_size` yet (added by 0.9.6), so
    // `get_heap_size` sums `static_size` + `dynamic_size` over all 127 records (S+24+28·i and
    // S+28+28·i); this rustc put the partition array first after `reclaimed`: the records
    // start at S+16 (`PartitionedHeap` at S+8, its iterator functions and `allocate_bitmap`
    // address the records from it +8); the phase byte is at S+3648 (`stop_gc_on_upgrade`).
    VerifiedFormat {
        npm: &["3.6.0"],
        records_in_state: 16,
        phase_in_state: 3648,
        functions: &[
            ("get_heap_size", &["8e792cbdb3eb7e9c012dc66dbd24d663"]),
            ("stop_gc_on_upgrade", &["1c31982f6cb8b81de9b7b2cc480f3016"]),
            (SKIP_EMPTY, &["4ad6c14925671683fbe4eb3f6f591e77"]),
            (NEXT_PARTITION, &["6a270288bcfe08cdaa18cc78ac8c4170"]),
            (START_OBJECTS, &["9b21f1cc2540c9441e80c6832cc02236"]),
            (ALLOCATE_BITMAP, &["8e65c3b97146ad9e36a96176e320d764"]),
            (ALLOCATE_IN_NEW, &["703c9eae549b267d9952de4e8ad7b152"]),
            (COLLECTOR, &["973c13f429753ab9688f1b89142ead89"]),
        ],
    },
    // npm motoko 3.6.1 (moc 0.9.2): the same source for the table as 3.6.0, laid out as 3.6.4
    // but without `precomputed_heap_size`: the records start at S+32 (`get_heap_size` sums
    // S+40+28·i and S+44+28·i; the iterator functions and `allocate_bitmap` address them from
    // `PartitionedHeap` +24); the phase byte is at S+3648.
    VerifiedFormat {
        npm: &["3.6.1"],
        records_in_state: 32,
        phase_in_state: 3648,
        functions: &[
            ("get_heap_size", &["04fd8cbc979eff18b045e6cc74d2557e"]),
            ("stop_gc_on_upgrade", &["3080ade6c408651efbd0004bc8d1417f"]),
            (SKIP_EMPTY, &["4307e565076b1d394a273ad90b83f708"]),
            (NEXT_PARTITION, &["15ece31c009b276cbd23e5409691edaf"]),
            (START_OBJECTS, &["79d0c3ca1f16c65684523a63f8c8ac44"]),
            (ALLOCATE_BITMAP, &["5dc9f2ac07fc25b4bb590078a14ad98b"]),
            (ALLOCATE_IN_NEW, &["44e45ad783ea4d4745d79ffc26e36170"]),
            (COLLECTOR, &["e577d6a7bfeaec9fbdb10ec096b1a843"]),
        ],
    },
    // npm motoko 3.6.4 (moc 0.9.6): no `evacuated_size`, so the records start 4 bytes earlier
    // (S+36: `get_heap_size` reads `dynamic_size` at S+48+28·index); the phase byte is still at
    // S+3656 (`stop_gc_on_upgrade`).
    VerifiedFormat {
        npm: &["3.6.4"],
        records_in_state: 36,
        phase_in_state: 3656,
        functions: &[
            ("get_heap_size", &["a9e6708db033d37ae8cd563f4cb5b2d3"]),
            ("stop_gc_on_upgrade", &["18a260dbe44057f8b892af1d6c622596"]),
            (SKIP_EMPTY, &["96529d8ea7b56094d7b04babdefaba48"]),
            (NEXT_PARTITION, &["88ab6ac4f5f01cfcd799a19001192c95"]),
            (START_OBJECTS, &["5e76042e2d51d4ec78a04b63d62d6fd3"]),
            (ALLOCATE_BITMAP, &["8785968558dc6c7004f9ae4cce7a49bd"]),
            (ALLOCATE_IN_NEW, &["92a1f9a4203aa8563f70a702ac6edde1"]),
            (COLLECTOR, &["5485b45331496eb9ada730ffc67a65f4"]),
        ],
    },
    // npm motoko 3.6.16 (moc 0.11.1+) and 3.8.1 (moc 0.12.1): one fingerprint for both builds
    // but the collector's (its other code differs; the partition fields it touches are at the
    // same offsets in both). npm motoko 3.6.13 (moc 0.11.0) and 3.6.14 (moc 0.11.1) run the
    // same code, function for function (found, and their heaps decoded, by
    // scripts/check-releases).
    VerifiedFormat {
        npm: &["3.6.13", "3.6.14", "3.6.16", "3.8.1"],
        records_in_state: 40,
        phase_in_state: 3656,
        functions: &[
            ("get_heap_size", &["6cbc83cd828e42d5da131e11250439f6"]),
            ("stop_gc_on_upgrade", &["c10dc812a0f4d2dfb9e43e61ecb506ea"]),
            (SKIP_EMPTY, &["50caae71a0fb0986aa23a9037e88f0c9"]),
            (NEXT_PARTITION, &["2c613aa15cc038aafb2d1b22470feb72"]),
            (START_OBJECTS, &["687fa291666907d502d21dc30cc598c6"]),
            (ALLOCATE_BITMAP, &["8bbd7dbf33f16aa203e904ba619000da"]),
            (ALLOCATE_IN_NEW, &["17009c14f3eb0fac12b0df916fa566c8"]),
            (
                COLLECTOR,
                &[
                    "790de4ace52b4a30d5f6622bde62b5a1", // npm motoko 3.6.16
                    "e09122fab288f869d8e8575294c6ecc5", // npm motoko 3.8.1
                ],
            ),
        ],
    },
];

/// The RTS's data lies in `[2 MiB, 4 MiB)` of a classical module (after the 2 MiB shadow
/// stack): constants there are addresses that move with the canister's own static data.
const RTS_DATA: std::ops::Range<i64> = 0x20_0000..0x40_0000;

/// Where the partition table of a moc < 0.13 incremental-GC module is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LegacyPartitionTable {
    /// Address of the first of the 127 partition records (28 bytes each).
    pub records: u64,
    /// Address of the GC phase byte (`Pause` 0 … `Stop` 4).
    pub phase: u64,
}

/// The function named `name` followed by a rustc hash suffix (`::h0123…`), if exactly one.
fn func_with_prefix(raw: &RawModule<'_>, name: &str) -> Option<u32> {
    let mut found = raw.names.iter().filter(|(_, n)| {
        n.as_str() == name
            || n.strip_prefix(name)
                .and_then(|rest| rest.strip_prefix("::h"))
                .is_some_and(|h| h.len() == 16 && h.bytes().all(|b| b.is_ascii_hexdigit()))
    });
    let first = found.next()?;
    found.next().is_none().then_some(*first.0)
}

/// A callee's name without its rustc hash suffix.
fn callee_name(raw: &RawModule<'_>, f: u32) -> String {
    let name = raw.names.get(&f).map(String::as_str).unwrap_or("?");
    match name.rsplit_once("::h") {
        Some((stem, h)) if h.len() == 16 && h.bytes().all(|b| b.is_ascii_hexdigit()) => {
            stem.to_string()
        }
        _ => name.to_string(),
    }
}

/// A fingerprint of `body`: SHA-256 (first 16 bytes, hex) over its instructions, with
/// constants in the RTS's data area replaced by `A` and calls by their callee's name.
pub(crate) fn fingerprint(raw: &RawModule<'_>, body: &FunctionBody<'_>) -> String {
    let mut h = Sha256::new();
    for op in ops(body) {
        let token = match op {
            Operator::I32Const { value } if RTS_DATA.contains(&i64::from(value)) => "A".into(),
            Operator::Call { function_index } => {
                format!("call {}", callee_name(raw, function_index))
            }
            other => format!("{other:?}"),
        };
        h.update(token.as_bytes());
        h.update(b"\n");
    }
    h.finalize()[..16]
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// Confirms the table's format from the module's RTS code and finds its addresses, or says
/// why it cannot (for the verified format whose functions the module matches longest).
pub(crate) fn confirm(raw: &RawModule<'_>) -> Result<LegacyPartitionTable, String> {
    let mut best: Option<(usize, String)> = None;
    for format in VERIFIED {
        match confirm_format(raw, format) {
            Ok(table) => return Ok(table),
            Err((matched, why)) => {
                if best.as_ref().is_none_or(|(m, _)| matched > *m) {
                    best = Some((matched, why));
                }
            }
        }
    }
    Err(unverified(&best.map(|(_, why)| why).unwrap_or_default()))
}

/// Confirms one format, or says how many of its functions matched and why it does not hold.
fn confirm_format(
    raw: &RawModule<'_>,
    format: &VerifiedFormat,
) -> Result<LegacyPartitionTable, (usize, String)> {
    let globals = raw.const_globals();
    let mut state = None;
    let mut phase_state = None;
    for (matched, &(name, verified)) in format.functions.iter().enumerate() {
        let body = func_with_prefix(raw, name)
            .and_then(|f| raw.body(f))
            .ok_or_else(|| {
                (
                    matched,
                    format!("the module has no (single) RTS function `{name}`"),
                )
            })?;
        let got = fingerprint(raw, body);
        if !verified.contains(&got.as_str()) {
            return Err((
                matched,
                format!("its RTS function `{name}` differs from the verified builds' (fingerprint {got})"),
            ));
        }
        match name {
            "get_heap_size" => state = const_addresses(body, &globals).first().copied(),
            "stop_gc_on_upgrade" => phase_state = const_addresses(body, &globals).first().copied(),
            _ => {}
        }
    }
    match (state, phase_state) {
        (Some(s), Some(p)) if s == p => Ok(LegacyPartitionTable {
            records: s + format.records_in_state,
            phase: s + format.phase_in_state,
        }),
        _ => Err((
            format.functions.len(),
            "get_heap_size and stop_gc_on_upgrade do not name one GC state".into(),
        )),
    }
}

/// The refusal text for a module whose table format is not confirmed.
fn unverified(why: &str) -> String {
    let npm: Vec<&str> = VERIFIED
        .iter()
        .flat_map(|f| f.npm.iter().copied())
        .collect();
    let builds = match npm.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
        _ => npm.join(""),
    };
    format!(
        "the classical incremental GC of moc < 0.13 keeps its partition table in a format rustc chose for each RTS build; this build reads only the verified builds' (npm motoko {builds}), and {why}"
    )
}

#[cfg(test)]
mod tests {
    use super::super::raw::read_raw;
    use super::*;

    /// A module whose RTS functions are missing or differ from the verified code is refused,
    /// naming the function.
    #[test]
    fn unverified_rts_code_is_refused_naming_the_function() {
        let wasm = wat::parse_str(
            r#"(module (memory 1)
                 (func $get_heap_size (result i32) i32.const 0x210000 i32.load offset=20))"#,
        )
        .unwrap();
        let raw = read_raw(&wasm).unwrap();
        let err = confirm(&raw).unwrap_err();
        assert!(
            err.contains("its RTS function `get_heap_size` differs from the verified builds'"),
            "{err}"
        );
        assert!(
            err.contains(
                "the verified builds' (npm motoko 3.6.0, 3.6.1, 3.6.4, 3.6.13, 3.6.14, 3.6.16 and 3.8.1)"
            ),
            "{err}"
        );
        let wasm = wat::parse_str("(module (func $other))").unwrap();
        let err = confirm(&read_raw(&wasm).unwrap()).unwrap_err();
        assert!(
            err.contains("the module has no (single) RTS function `get_heap_size`"),
            "{err}"
        );
    }

    /// Names carry rustc's hash suffix; a name is matched with it or exactly, never by a
    /// longer name's prefix.
    #[test]
    fn functions_are_found_by_name_without_the_hash() {
        let wasm = wat::parse_str(
            r#"(module (func $a::b::h0123456789abcdef) (func $a::b::c::h0123456789abcdef))"#,
        )
        .unwrap();
        let raw = read_raw(&wasm).unwrap();
        assert_eq!(func_with_prefix(&raw, "a::b"), Some(0));
        assert_eq!(func_with_prefix(&raw, "a"), None);
        assert_eq!(callee_name(&raw, 1), "a::b::c");
    }

    /// Every verified format checks the same functions, and its builds are the ones the
    /// compiler table calls verified.
    #[test]
    fn formats_check_the_same_functions_and_name_the_verified_builds() {
        let names = |f: &VerifiedFormat| f.functions.iter().map(|(n, _)| *n).collect::<Vec<_>>();
        for format in VERIFIED {
            assert_eq!(names(format), names(&VERIFIED[0]));
        }
        let npm: Vec<&str> = VERIFIED
            .iter()
            .flat_map(|f| f.npm.iter().copied())
            .collect();
        assert_eq!(npm, super::super::LEGACY_INCREMENTAL_VERIFIED);
    }

    /// Prints the fingerprints of a module's partition-table functions (for verifying a new
    /// build: `MO_MEM_FINGERPRINT=path.wasm cargo test --lib legacy_partitions -- --nocapture`;
    /// `MO_MEM_DISASM=all`, or a part of a function's name, prints their instructions too).
    #[test]
    fn print_fingerprints() {
        let Ok(path) = std::env::var("MO_MEM_FINGERPRINT") else {
            return;
        };
        let bytes = std::fs::read(path).unwrap();
        let wasm = super::super::decompress_module(&bytes).unwrap();
        let raw = read_raw(&wasm).unwrap();
        let disasm = std::env::var("MO_MEM_DISASM").ok();
        for (name, _) in VERIFIED[0].functions {
            let f = func_with_prefix(&raw, name).expect(name);
            println!("{name} {}", fingerprint(&raw, raw.body(f).unwrap()));
            if disasm
                .as_deref()
                .is_some_and(|d| d == "all" || name.contains(d))
            {
                for op in ops(raw.body(f).unwrap()) {
                    match op {
                        Operator::Call { function_index } => {
                            println!("    call {}", callee_name(&raw, function_index))
                        }
                        other => println!("    {other:?}"),
                    }
                }
            }
        }
    }
}
