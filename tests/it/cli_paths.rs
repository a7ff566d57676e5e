//! User-facing command-line paths no other test covers: `version`, the text of `info` and
//! `stats` (checked against the files on disk, the metadata and the fixture's own
//! `expected.json`), `object` with addresses where no object is, `export` and `trend` /
//! `diff` refusals.

use crate::common::fixture;
use crate::emulator_harness::cli::output_text;
use crate::faults_support::TestStore;
use std::collections::BTreeMap;
use std::path::Path;
use std::process::{Command, Output};

const BIN: &str = env!("CARGO_BIN_EXE_mo-mem");

fn run(args: &[&str]) -> Output {
    Command::new(BIN)
        .args(args)
        .env("MO_MEM_LOG", "warn")
        .output()
        .expect("run mo-mem")
}

/// Standard error without the "not authenticated" notes a fixture directory gets.
fn errors(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr)
        .lines()
        .filter(|l| !l.starts_with("note: "))
        .map(|l| format!("{l}\n"))
        .collect()
}

/// A failed run: exit status 1 (the CLI's failure), no panic; its standard error.
fn failed(out: &Output) -> String {
    assert_eq!(out.status.code(), Some(1), "{}", output_text(out));
    let err = errors(out);
    assert!(!err.contains("panicked"), "{err}");
    err
}

fn stdout(out: &Output) -> String {
    assert!(out.status.success(), "{}", output_text(out));
    String::from_utf8(out.stdout.clone()).expect("UTF-8 output")
}

fn file_size(dir: &Path, name: &str) -> u64 {
    std::fs::metadata(dir.join(name)).unwrap().len()
}

fn json_file(dir: &Path, name: &str) -> serde_json::Value {
    serde_json::from_slice(&std::fs::read(dir.join(name)).unwrap()).unwrap()
}

#[test]
fn version_prints_the_crate_version_and_the_layouts_read() {
    // The version as Cargo.toml's [package] section spells it (read here, not from the build).
    let manifest = std::fs::read_to_string(crate::common::repo_root().join("Cargo.toml")).unwrap();
    let package = manifest.split("[package]").nth(1).unwrap();
    let version = package
        .lines()
        .find_map(|l| l.strip_prefix("version = \""))
        .and_then(|v| v.strip_suffix('"'))
        .expect("a version in [package]");
    let out = run(&["version"]);
    let text = stdout(&out);
    let mut lines = text.lines();
    assert_eq!(lines.next(), Some(format!("mo-mem {version}").as_str()));
    // the compiler releases this build reads and refuses, as docs/formats.md's table says
    for line in [
        "  read     the layout of moc >= 0.13.0 (sorted array, bits and blob tags)",
        "  refused  the classical layout of moc < 0.6.10 (dense tag numbering)",
        "  4.10.0  moc 1.10.1   read     enhanced orthogonal persistence; classical (four GCs); checked: fixtures/snapshots",
        "  refused  moc >= 1.11.0 and any newer release (its layout was never checked)",
    ] {
        assert!(text.lines().any(|l| l == line), "{line:?} in:\n{text}");
    }
    assert!(out.stderr.is_empty(), "{}", output_text(&out));
}

/// `info`'s text as `label -> value`, in order.
fn info_lines(text: &str) -> Vec<(String, String)> {
    text.lines()
        .map(|l| {
            let (k, v) = l.split_once(':').unwrap_or_else(|| panic!("line {l:?}"));
            (k.to_string(), v.trim().to_string())
        })
        .collect()
}

fn hex(v: &str) -> u64 {
    u64::from_str_radix(v.strip_prefix("0x").expect("hex"), 16).unwrap()
}

/// `N bytes` -> N.
fn bytes(v: &str) -> u64 {
    v.strip_suffix(" bytes").expect("N bytes").parse().unwrap()
}

#[test]
fn info_text_agrees_with_the_files_metadata_and_expected_json() {
    for (mode, persistence, gc) in [
        (
            "eop",
            "enhanced orthogonal persistence (64-bit)",
            "incremental (rtti)",
        ),
        ("copying", "classical (32-bit)", "copying"),
    ] {
        let dir = fixture("compound", mode);
        let path = dir.to_str().unwrap();
        let lines = info_lines(&stdout(&run(&["info", path])));
        let keys: Vec<&str> = lines.iter().map(|(k, _)| k.as_str()).collect();
        let mut want_keys = vec![
            "snapshot",
            "persistence",
            "gc",
            "compiler",
            "built by",
            "gc phase",
            "lifecycle",
            "main memory",
            "stable memory",
            "module",
            "heap base",
            "heap",
            "partitions",
            "objects",
            "free",
            "stable vars",
            "walk",
        ];
        if mode != "eop" {
            // no incremental GC: no phase, no partitions
            want_keys.retain(|k| *k != "gc phase" && *k != "partitions");
        }
        assert_eq!(keys, want_keys, "{mode}");
        let get: BTreeMap<&str, &str> = lines
            .iter()
            .map(|(k, v)| (k.as_str(), v.as_str()))
            .collect();
        let meta = json_file(&dir, "metadata.json");
        let expected = json_file(&dir, "expected.json");
        assert_eq!(get["snapshot"], path);
        assert_eq!(get["persistence"], persistence);
        assert_eq!(get["gc"], gc);
        assert_eq!(get["compiler"], expected["compiler"].as_str().unwrap());
        // the pinned compiler (scripts/package.json: npm motoko 4.10.0, moc 1.10.1)
        let (persistence_word, gc_word) = match mode {
            "eop" => ("enhanced orthogonal persistence", "incremental"),
            _ => ("classical", "copying"),
        };
        let built_by = format!("moc 1.10.1 (npm motoko 4.10.0), {persistence_word}, {gc_word} GC");
        assert_eq!(get["built by"], built_by, "{mode}");
        // sizes: the files on disk, which the metadata also states
        let memory = file_size(&dir, "wasm_memory.bin");
        assert_eq!(Some(memory), meta["wasm_memory_size"].as_u64());
        assert_eq!(bytes(get["main memory"]), memory, "{mode}");
        let stable = file_size(&dir, "stable_memory.bin");
        assert_eq!(Some(stable), meta["stable_memory_size"].as_u64());
        assert_eq!(bytes(get["stable memory"]), stable, "{mode}");
        let module = file_size(&dir, "wasm_module.bin");
        assert_eq!(Some(module), meta["wasm_module_size"].as_u64());
        assert_eq!(bytes(get["module"]), module, "{mode}");
        // the canister's own variables
        let vars = expected["vars"].as_object().unwrap().len();
        assert_eq!(get["stable vars"], vars.to_string(), "{mode}");
        // the heap: one range whose bytes are the objects and the free space, inside memory
        let base = hex(get["heap base"]);
        let heap: u64 = get["heap"]
            .strip_suffix(" bytes in 1 ranges")
            .expect("one range")
            .parse()
            .unwrap();
        let (count, object_bytes) = get["objects"].split_once(" (").unwrap();
        let object_bytes = bytes(object_bytes.strip_suffix(')').unwrap());
        assert!(count.parse::<u64>().unwrap() > 0);
        assert_eq!(object_bytes + bytes(get["free"]), heap, "{mode}");
        assert!(base + heap <= memory, "{mode}: heap beyond memory");
        if mode == "eop" {
            // the EOP heap starts at 5 MiB (docs/motoko-heap-layout.md)
            assert_eq!(base, 0x50_0000);
        }
        assert_eq!(get["walk"], "complete (every range ends exactly)");
    }
}

/// `stats`'s rows as `label -> [numbers]` (the label: the text before the first run of two
/// spaces), in order.
fn stats_rows(text: &str) -> Vec<(String, Vec<String>)> {
    text.lines()
        .filter(|l| !l.is_empty())
        .map(|l| {
            let (label, rest) = l.split_at(18.min(l.len()));
            (
                label.trim().to_string(),
                rest.split_whitespace().map(str::to_string).collect(),
            )
        })
        .collect()
}

/// The row of partition 0 in `stats`'s partition table, split at spaces.
fn partition_row(text: &str) -> Vec<String> {
    let table = text
        .split("\npartition ")
        .nth(1)
        .expect("a partition table");
    let row = table.lines().nth(1).expect("a partition row");
    let cells: Vec<String> = row.split_whitespace().map(str::to_string).collect();
    assert_eq!(cells[0], "0", "{row}");
    cells
}

#[test]
fn stats_text_adds_up_to_the_heap_info_and_memory_state() {
    let dir = fixture("compound", "eop");
    let path = dir.to_str().unwrap();
    let text = stdout(&run(&["stats", path]));
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines[0],
        format!("{:<21} {:>12} {:>14}", "tag", "objects", "bytes")
    );
    let rows = stats_rows(&text);
    let total = rows.iter().position(|(l, _)| l == "objects").unwrap();
    let num = |s: &str| s.parse::<u64>().unwrap();
    // every tag row (fillers and slack too), largest bytes first; they add up to the
    // `objects` and `free` rows
    let tags = &rows[1..total];
    assert!(tags.len() >= 10, "{text}");
    let by_bytes: Vec<u64> = tags.iter().map(|(_, v)| num(&v[1])).collect();
    assert!(by_bytes.windows(2).all(|w| w[0] >= w[1]), "{text}");
    let row = |label: &str| &rows.iter().find(|(l, _)| l == label).unwrap().1;
    let (objects, object_bytes) = (num(&row("objects")[0]), num(&row("objects")[1]));
    let (free_blocks, free) = (num(&row("free")[0]), num(&row("free")[1]));
    assert_eq!(
        tags.iter().map(|(_, v)| num(&v[0])).sum::<u64>(),
        objects + free_blocks
    );
    assert_eq!(by_bytes.iter().sum::<u64>(), object_bytes + free);
    // the compound fixture holds records, variants, texts, blobs and arrays
    for tag in [
        "Object", "Variant", "Blob T", "Array I", "Array M", "Concat",
    ] {
        assert!(tags.iter().any(|(l, _)| l == tag), "{tag}: {text}");
    }
    // the same heap as `info` says (its own figures: objects, free)
    let info = info_lines(&stdout(&run(&["info", path])));
    let info = |k: &str| info.iter().find(|(l, _)| l == k).unwrap().1.clone();
    assert_eq!(info("objects"), format!("{objects} ({object_bytes} bytes)"));
    assert_eq!(info("free"), format!("{free} bytes"));
    // the one partition spans the objects and the free space, from the heap base; what
    // follows it up to the end of main memory (the file's size) was never used
    let partition = partition_row(&text);
    let (start, end) = (hex(&partition[1]), hex(&partition[2]));
    assert_eq!(start, hex(&info("heap base")));
    assert_eq!(end - start, object_bytes + free);
    assert_eq!(
        partition[3..6],
        [objects, object_bytes, free].map(|n| n.to_string())
    );
    let memory = file_size(&dir, "wasm_memory.bin");
    assert_eq!(row("unused"), &[(memory - end).to_string()]);
}

/// The object at the heap's first address, from `object --json`: (tag, size).
fn first_object(path: &str, base: u64) -> (String, u64) {
    let json: serde_json::Value = serde_json::from_str(&stdout(&run(&[
        "object",
        path,
        &format!("{base:#x}"),
        "--json",
    ])))
    .unwrap();
    (
        json["tag"].as_str().unwrap().to_string(),
        json["size"].as_u64().unwrap(),
    )
}

#[test]
fn object_refuses_addresses_where_no_object_starts_naming_them() {
    let dir = fixture("compound", "eop");
    let path = dir.to_str().unwrap();
    let info = info_lines(&stdout(&run(&["info", path])));
    let base = hex(&info.iter().find(|(k, _)| k == "heap base").unwrap().1);
    let (tag, size) = first_object(path, base);
    assert!(size > 16, "the first object is {size} bytes");
    let heap_end = hex(&partition_row(&stdout(&run(&["stats", path])))[2]);
    let object = |addr: &str| failed(&run(&["object", path, addr]));

    // not a number
    assert_eq!(
        object("0xzz"),
        "mo-mem: invalid address \"0xzz\": not a number (hex with 0x, or decimal, below 2^64): \
         invalid digit found in string\n"
    );
    assert_eq!(
        object("18446744073709551616"),
        "mo-mem: invalid address \"18446744073709551616\": not a number (hex with 0x, or \
         decimal, below 2^64): number too large to fit in target type\n"
    );
    // aligned, inside the first object: its words are not a header
    let inside = base + 8;
    assert_eq!(
        object(&inside.to_string()),
        format!(
            "mo-mem: object {inside:#x}: no object starts at {inside:#x}: it lies inside the {tag} \
             object at {base:#x} ({size} bytes)\n"
        )
    );
    // misaligned (not a multiple of the word)
    let odd = base + 4;
    assert_eq!(
        object(&format!("{odd:#x}")),
        format!(
            "mo-mem: object {odd:#x}: no object starts at {odd:#x}: it lies inside the {tag} \
             object at {base:#x} ({size} bytes)\n"
        )
    );
    // a skewed pointer is unskewed, and the message names both
    let skewed = base + 15;
    assert_eq!(
        object(&format!("{skewed:#x}")),
        format!(
            "mo-mem: object {:#x} (the pointer {skewed:#x} unskewed): no object starts at {:#x}: \
             it lies inside the {tag} object at {base:#x} ({size} bytes)\n",
            skewed + 1,
            skewed + 1
        )
    );
    // just past the heap (still in main memory), and beyond main memory
    let err = object(&format!("{heap_end:#x}"));
    assert!(
        err.starts_with(&format!(
            "mo-mem: object {heap_end:#x}: no object at {heap_end:#x}, which is outside the heap \
             ({base:#x}..{heap_end:#x}): cannot decode object {heap_end:#x}: "
        )),
        "{err}"
    );
    let memory = file_size(&dir, "wasm_memory.bin");
    let far = memory + 0x1000;
    assert_eq!(
        object(&format!("{far:#x}")),
        format!(
            "mo-mem: object {far:#x}: no object at {far:#x}, which is outside the heap \
             ({base:#x}..{heap_end:#x}): cannot decode object {far:#x}: read of 8 bytes at \
             {far:#x} is outside the image ({memory:#x} bytes)\n"
        )
    );
    // the object itself is still shown
    let text = stdout(&run(&["object", path, &format!("{base:#x}")]));
    assert!(
        text.starts_with(&format!("{base:#x}: {tag} ({size} bytes)\n")),
        "{text}"
    );
}

#[test]
fn export_names_the_output_it_cannot_write() {
    let dir = fixture("growth1", "eop");
    let snapshot = dir.to_str().unwrap();
    let tmp = tempfile::tempdir().unwrap();
    // a file where the output directory should be: left as it was
    let file = tmp.path().join("not-a-dir");
    std::fs::write(&file, b"keep me").unwrap();
    let out = run(&["export", snapshot, "--out", file.to_str().unwrap()]);
    assert_eq!(
        failed(&out),
        format!(
            "mo-mem: cannot create the output directory {}: File exists (os error 17)\n",
            file.display()
        )
    );
    assert_eq!(std::fs::read(&file).unwrap(), b"keep me");
    let below = file.join("sub");
    let out = run(&["export", snapshot, "--out", below.to_str().unwrap()]);
    assert_eq!(
        failed(&out),
        format!(
            "mo-mem: cannot create the output directory {}: Not a directory (os error 20)\n",
            below.display()
        )
    );
    // a directory no file can be created in (even by root): named by the table it would hold
    let out = run(&["export", snapshot, "--out", "/proc"]);
    let err = failed(&out);
    assert!(
        err.starts_with("mo-mem: cannot write /proc/objects.parquet: "),
        "{err}"
    );
    // a missing snapshot among several: named, and nothing written
    let out_dir = tmp.path().join("out");
    let missing = tmp.path().join("missing");
    let out = run(&[
        "export",
        snapshot,
        missing.to_str().unwrap(),
        "--out",
        out_dir.to_str().unwrap(),
    ]);
    let err = failed(&out);
    assert!(
        err.starts_with(&format!("mo-mem: cannot open {}: ", missing.display())),
        "{err}"
    );
    let left: Vec<_> = std::fs::read_dir(&out_dir)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert!(left.is_empty(), "{left:?}");
}

const CANISTER_A: &str = "rrkah-fqaaa-aaaaa-aaaaq-cai";
const CANISTER_B: &str = "ryjl3-tyaaa-aaaaa-aaaba-cai";

/// A store with growth1 and growth2 of canister A, growth3 of canister B.
fn two_canister_store() -> (TestStore, [std::path::PathBuf; 3]) {
    let store = TestStore::new();
    let one = store.import(&fixture("growth1", "eop"), CANISTER_A, "01");
    let two = store.import(&fixture("growth2", "eop"), CANISTER_A, "02");
    let three = store.import(&fixture("growth3", "eop"), CANISTER_B, "03");
    (store, [one, two, three])
}

#[test]
fn trend_and_diff_refuse_snapshots_of_another_canister() {
    let (store, [one, two, three]) = two_canister_store();
    let s = |p: &Path| p.to_str().unwrap().to_string();
    let mismatch = |command: &str| {
        format!(
            "mo-mem: {} is a snapshot of canister {CANISTER_B}, but {} is of canister \
             {CANISTER_A}: `mo-mem {command}` compares snapshots of one canister\n",
            three.display(),
            one.display()
        )
    };
    let out = store.run(&["trend", &s(&one), &s(&two), &s(&three)]);
    assert_eq!(failed(&out), mismatch("trend"));
    assert!(out.stdout.is_empty());
    let out = store.run(&["diff", &s(&one), &s(&three)]);
    assert_eq!(failed(&out), mismatch("diff"));
    // one canister's snapshots: the trend of both, named as given
    let out = store.run(&["trend", &s(&one), &s(&two), "--types", "1"]);
    let text = stdout(&out);
    assert!(
        text.starts_with(
            "snapshots (retained bytes per snapshot, in this order):\n  #1 01\n  #2 02\n"
        ),
        "{text}"
    );
    // its directory stands for both
    let out = store.run(&["trend", &s(one.parent().unwrap()), "--types", "1"]);
    assert_eq!(stdout(&out), text);
    // a snapshot that does not exist among several: named
    let missing = one.parent().unwrap().join("missing");
    let out = store.run(&["trend", &s(&one), &s(&missing)]);
    let err = failed(&out);
    assert!(err.contains(&missing.display().to_string()), "{err}");
    // export is for fleets: snapshots of many canisters in one table
    let out_dir = store.dir.path().join("export");
    let out = store.run(&["export", &s(&one), &s(&three), "--out", &s(&out_dir)]);
    let text = stdout(&out);
    assert!(text.ends_with(" type rows from 2 snapshots\n"), "{text}");
}

/// A reader that stops early (`mo-mem stats X | head`) ends the command with exit 0 and no
/// message, whether it prints with `print!` (stats, vars, report) or writes itself (ls).
#[test]
fn a_closed_stdout_is_a_quiet_exit_zero() {
    let dir = fixture("compound", "eop");
    for args in [["stats"], ["vars"], ["ls"], ["report"]] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_mo-mem"))
            .args(args)
            .arg(&dir)
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        drop(child.stdout.take()); // the reader is gone before the first write
        let out = child.wait_with_output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(0), "{args:?}: {err}");
        assert!(
            !err.contains("panicked") && !err.contains("Broken pipe"),
            "{args:?}: {err}"
        );
    }
}
