//! The kept analysis (`serve::analysis_index`, `analysis::persist`): an analysis read back
//! from its bytes answers exactly as the one computed, on every committed fixture, node by
//! node; and the CLI's second run reads the file the first wrote (same output), refuses a
//! file changed by one byte, and keys it to the snapshot's files.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::Command;

use mo_mem::analysis::persist;
use mo_mem::analysis::retained_json::RetainedJson;
use mo_mem::analysis::{HeapAnalysis, OpenedHeap};

/// Every figure a reader of `a` can ask for, as text: the `retained --json` answer, and per
/// node (every `step`-th) its address, size, reachability, dominator, retained set, type
/// and path.
fn answers(opened: &OpenedHeap, a: &HeapAnalysis, step: usize) -> Vec<String> {
    let json = serde_json::to_string(&RetainedJson::new(opened, a, 50)).unwrap();
    let mut out = vec![json, format!("{:?}", a.types(opened))];
    let g = a.graph();
    for n in (0..g.nodes() as u32).step_by(step) {
        out.push(format!(
            "{n} {:#x} {} {} {:?} {:?} {} {:?}",
            g.address(n),
            g.size(n),
            a.dominators().is_reachable(n),
            a.dominators().idom(n),
            a.dominators().retained(n),
            a.type_of(opened, n),
            a.path_text(opened, n),
        ));
    }
    out
}

#[test]
fn an_analysis_read_back_answers_as_the_computed_one_on_every_fixture() {
    let mut checked = 0;
    for (name, mode, dir) in common::all_fixtures() {
        let opened = OpenedHeap::open(&dir).unwrap_or_else(|e| panic!("{name}/{mode}: {e}"));
        let computed = opened.analysis().unwrap();
        let mut bytes = Vec::new();
        persist::encode(&computed, &opened, &mut bytes).unwrap();
        let read = persist::decode(&bytes, 2).unwrap_or_else(|e| panic!("{name}/{mode}: {e}"));
        // Written again, the same bytes.
        let mut again = Vec::new();
        persist::encode(&read, &opened, &mut again).unwrap();
        assert!(again == bytes, "{name}/{mode}: encoded twice differently");
        let nodes = computed.graph().nodes();
        let step = (nodes / 1000).max(1);
        let (want, got) = (
            answers(&opened, &computed, step),
            answers(&opened, &read, step),
        );
        assert_eq!(want.len(), got.len());
        for (w, g) in want.iter().zip(&got) {
            assert_eq!(w, g, "{name}/{mode}");
        }
        // Every byte short of the end, and any byte changed in the arrays' lengths, is
        // refused or read as a consistent analysis; never a panic.
        for cut in [0, 1, bytes.len() / 2, bytes.len() - 1] {
            assert!(
                persist::decode(&bytes[..cut], 1).is_err(),
                "{name}/{mode}: cut at {cut}"
            );
        }
        checked += 1;
    }
    assert!(checked >= 20, "only {checked} fixtures");
}

/// `mo-mem ARGS` with the kept analyses in `cache` (`MO_MEM_INDEX` = `index`); its output.
fn run(cache: &Path, index: &str, args: &[&str]) -> Vec<u8> {
    run_within(cache, index, None, args)
}

/// [`run`] with the budget `mib` (`MO_MEM_INDEX_MIB`; the default if `None`).
fn run_within(cache: &Path, index: &str, mib: Option<&str>, args: &[&str]) -> Vec<u8> {
    let mut command = Command::new(env!("CARGO_BIN_EXE_mo-mem"));
    command
        .args(args)
        .env("MO_MEM_CACHE_DIR", cache)
        .env("MO_MEM_INDEX", index)
        .env_remove("MO_MEM_INDEX_MIB");
    if let Some(mib) = mib {
        command.env("MO_MEM_INDEX_MIB", mib);
    }
    let out = command.output().unwrap();
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}

/// The kept analyses in `cache`.
fn kept(cache: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(cache.join("analysis")) else {
        return Vec::new();
    };
    let mut files: Vec<PathBuf> = entries
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "analysis"))
        .collect();
    files.sort();
    files
}

fn set_old(file: &Path) {
    let f = std::fs::File::options().write(true).open(file).unwrap();
    f.set_modified(std::time::UNIX_EPOCH).unwrap();
}

fn is_old(file: &Path) -> bool {
    std::fs::metadata(file).unwrap().modified().unwrap() == std::time::UNIX_EPOCH
}

#[test]
fn the_second_run_reads_the_kept_analysis_and_refuses_a_changed_one() {
    use std::os::unix::fs::PermissionsExt;
    let tmp = tempfile::tempdir().unwrap();
    let (cache, snap) = (tmp.path().join("cache"), tmp.path().join("snap"));
    common::copy_snapshot(&common::fixture("compound", "eop"), &snap);
    let s = snap.to_str().unwrap();
    let args = ["retained", "--no-verify", "--json", s];
    let fresh = run(&cache, "off", &args);
    assert!(kept(&cache).is_empty(), "MO_MEM_INDEX=off keeps nothing");
    // The default keeps only large heaps' analyses.
    assert_eq!(run(&cache, "on", &args), fresh);
    assert!(
        kept(&cache).is_empty(),
        "a small heap's analysis is not kept"
    );

    assert_eq!(run(&cache, "always", &args), fresh);
    let files = kept(&cache);
    assert_eq!(files.len(), 1, "{files:?}");
    let file = &files[0];
    let mode = std::fs::metadata(file).unwrap().permissions().mode();
    assert_eq!(mode & 0o077, 0, "{mode:o}: only its owner may read it");
    // Read (a read marks it used) and the same answer, also for the other commands.
    set_old(file);
    assert_eq!(run(&cache, "always", &args), fresh);
    assert!(
        !is_old(file),
        "the second run did not read the kept analysis"
    );
    let report = ["report", "--no-verify", "--json", s];
    set_old(file);
    assert_eq!(run(&cache, "always", &report), run(&cache, "off", &report));
    assert!(!is_old(file));

    // One byte changed: refused (not read), computed again and replaced; the same answer.
    let mut bytes = std::fs::read(file).unwrap();
    let middle = bytes.len() / 2;
    bytes[middle] ^= 0x40;
    std::fs::write(file, &bytes).unwrap();
    set_old(file);
    assert_eq!(run(&cache, "always", &args), fresh);
    let replaced = std::fs::read(file).unwrap();
    assert!(replaced != bytes, "the changed file was not replaced");
    assert_eq!(replaced[middle] ^ 0x40, bytes[middle]);

    // A snapshot file rewritten (the same bytes: its change time moves) is another snapshot.
    let metadata = snap.join("metadata.json");
    std::fs::write(&metadata, std::fs::read(&metadata).unwrap()).unwrap();
    assert_eq!(run(&cache, "always", &args), fresh);
    assert_eq!(kept(&cache).len(), 2);
}

#[test]
fn the_budget_removes_the_least_recently_used_analyses() {
    let tmp = tempfile::tempdir().unwrap();
    let cache = tmp.path().join("cache");
    let mut names = Vec::new();
    for name in ["compound", "collections"] {
        let dir = common::fixture(name, "eop");
        run(
            &cache,
            "always",
            &["retained", "--no-verify", "--json", dir.to_str().unwrap()],
        );
        names.push(kept(&cache));
    }
    assert_eq!(names[1].len(), 2);
    // A budget of nothing keeps only the file just written.
    let dir = common::fixture("compound", "incremental");
    let s = dir.to_str().unwrap();
    run(&cache, "always", &["stats", "--no-verify", s]);
    assert_eq!(kept(&cache).len(), 2, "stats analyses nothing");
    run_within(
        &cache,
        "always",
        Some("0"),
        &["retained", "--no-verify", "--json", s],
    );
    let left = kept(&cache);
    assert_eq!(left.len(), 1, "{left:?}");
    assert!(!names[1].contains(&left[0]));
}
