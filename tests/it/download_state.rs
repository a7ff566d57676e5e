//! Snapshot directories as icp-cli 1.3, dfx 0.29/0.30 and mo-mem's own pull leave them at
//! each stage of a download (fresh, interrupted after out-of-order chunks, locked while
//! writing, finished), built from a committed fixture: only finished ones are imported and
//! read; the others are refused naming the file, the missing byte ranges and the command
//! that resumes them, and `--force` reads them marked INCOMPLETE.
//!
//! What each tool writes is from its sources: icp-cli
//! `crates/icp-cli/src/operations/snapshot_transfer.rs`, `commands/canister/snapshot/download.rs`
//! and `crates/icp/src/fs/lock.rs` (v1.3.0); dfx `src/dfx/src/commands/canister/snapshot.rs`
//! (0.29.0, 0.29.2, 0.30.1); the metadata types of ic-utils 0.41 and
//! ic-management-canister-types 0.3.2, 0.4.1 and 0.8.

use crate::common::fixture;
use std::fs::File;
use std::io::{Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The chunk size icp-cli and dfx request.
const CHUNK: u64 = 2_000_000;

/// The fixture every stage is made from: 5,373,952 bytes of main memory (three chunks, the
/// last 1,373,952 bytes), an empty stable memory.
fn source() -> PathBuf {
    fixture("scalars", "eop")
}

fn len(path: &Path) -> u64 {
    std::fs::metadata(path).unwrap().len()
}

/// `mo-mem ARGS` with a private store and config directory under `home`.
fn mo_mem(home: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_mo-mem"))
        .args(args)
        .env("MO_MEM_STORE", home.join("store"))
        .env("MO_MEM_CONFIG_DIR", home.join("config"))
        .output()
        .expect("run mo-mem")
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Writes `bytes` of the fixture's `file` at `offset` into `dir/file`, as a chunk arrives.
fn write_chunk(dir: &Path, file: &str, offset: u64, size: u64) {
    let bytes = std::fs::read(source().join(file)).unwrap();
    let end = (offset + size).min(bytes.len() as u64);
    let mut f = File::options().write(true).open(dir.join(file)).unwrap();
    f.seek(SeekFrom::Start(offset)).unwrap();
    f.write_all(&bytes[offset as usize..end as usize]).unwrap();
}

/// Creates `dir/file` at the fixture's full length, all zeros (icp-cli's `set_len`).
fn preallocate(dir: &Path, file: &str) {
    File::create(dir.join(file))
        .unwrap()
        .set_len(len(&source().join(file)))
        .unwrap();
}

/// icp-cli's start: `.lock` (created empty), `wasm_chunk_store/`, `metadata.json`.
fn icp_start(dir: &Path) {
    std::fs::create_dir_all(dir.join("wasm_chunk_store")).unwrap();
    File::create(dir.join(".lock")).unwrap();
    std::fs::copy(source().join("metadata.json"), dir.join("metadata.json")).unwrap();
}

/// icp-cli killed while the module's first chunk was in flight: the module preallocated,
/// no progress file yet, no memory file.
fn icp_fresh(dir: &Path) {
    icp_start(dir);
    preallocate(dir, "wasm_module.bin");
}

/// icp-cli interrupted after the module and the memory's chunks at 4,000,000 and then 0
/// (out of order): the chunk at 2,000,000 never came.
fn icp_interrupted(dir: &Path) {
    icp_start(dir);
    preallocate(dir, "wasm_module.bin");
    write_chunk(dir, "wasm_module.bin", 0, CHUNK);
    preallocate(dir, "wasm_memory.bin");
    write_chunk(dir, "wasm_memory.bin", 2 * CHUNK, CHUNK);
    write_chunk(dir, "wasm_memory.bin", 0, CHUNK);
    let module = len(&dir.join("wasm_module.bin"));
    let progress = format!(
        r#"{{
  "wasm_module": {{
    "frontier": {module},
    "ahead": []
  }},
  "wasm_memory": {{
    "frontier": 2000000,
    "ahead": [
      4000000
    ]
  }},
  "stable_memory": {{
    "frontier": 0,
    "ahead": []
  }}
}}"#
    );
    std::fs::write(dir.join(".download_progress.json"), progress).unwrap();
}

/// icp-cli finished: every blob, an empty `stable_memory.bin` written last, the progress
/// file deleted, `.lock` left behind.
fn icp_finished(dir: &Path) {
    icp_interrupted(dir);
    write_chunk(dir, "wasm_memory.bin", CHUNK, CHUNK);
    File::create(dir.join("stable_memory.bin")).unwrap();
    std::fs::remove_file(dir.join(".download_progress.json")).unwrap();
}

/// dfx 0.30.1: chunks appended in order, killed inside the third write (a length that is
/// no multiple of the chunk); no stable memory file (empty), no chunk store (none).
fn dfx_interrupted(dir: &Path) {
    std::fs::create_dir_all(dir).unwrap();
    std::fs::copy(source().join("metadata.json"), dir.join("metadata.json")).unwrap();
    std::fs::copy(
        source().join("wasm_module.bin"),
        dir.join("wasm_module.bin"),
    )
    .unwrap();
    let memory = std::fs::read(source().join("wasm_memory.bin")).unwrap();
    std::fs::write(dir.join("wasm_memory.bin"), &memory[..4_100_000]).unwrap();
}

fn dfx_finished(dir: &Path) {
    dfx_interrupted(dir);
    std::fs::copy(
        source().join("wasm_memory.bin"),
        dir.join("wasm_memory.bin"),
    )
    .unwrap();
}

/// The fixture's metadata as dfx 0.29.0 and 0.29.1 serialise it (ic-utils 0.41's
/// `SnapshotMetadata`, ic-management-canister-types 0.3.2): a unit-variant `source` and
/// `exported_globals`.
fn dfx_0_29_metadata(dir: &Path) {
    let text = std::fs::read_to_string(source().join("metadata.json")).unwrap();
    let mut value: serde_json::Value = serde_json::from_str(&text).unwrap();
    let object = value.as_object_mut().unwrap();
    let globals = object.remove("globals").unwrap();
    object.insert("exported_globals".into(), globals);
    object.insert("source".into(), "taken_from_canister".into());
    std::fs::write(
        dir.join("metadata.json"),
        serde_json::to_string_pretty(&value).unwrap(),
    )
    .unwrap();
}

/// dfx 0.29: each blob written whole at the end; killed before the memory was.
fn dfx_0_29_interrupted(dir: &Path) {
    std::fs::create_dir_all(dir).unwrap();
    dfx_0_29_metadata(dir);
    std::fs::copy(
        source().join("wasm_module.bin"),
        dir.join("wasm_module.bin"),
    )
    .unwrap();
}

fn dfx_0_29_finished(dir: &Path) {
    dfx_0_29_interrupted(dir);
    std::fs::copy(
        source().join("wasm_memory.bin"),
        dir.join("wasm_memory.bin"),
    )
    .unwrap();
}

/// The stable variables of `dir` as `mo-mem vars` prints them.
fn vars(home: &Path, dir: &Path, extra: &[&str]) -> Output {
    let mut args = vec!["vars", dir.to_str().unwrap()];
    args.extend_from_slice(extra);
    mo_mem(home, &args)
}

/// Reading and importing `dir` both fail, saying each of `says`; the store stays empty.
fn refused(home: &Path, dir: &Path, says: &[&str]) {
    let out = vars(home, dir, &[]);
    assert!(!out.status.success(), "read: {}", stdout(&out));
    let err = stderr(&out);
    for s in says {
        assert!(err.contains(s), "read refusal lacks {s:?}: {err}");
    }
    let out = mo_mem(
        home,
        &[
            "import",
            dir.to_str().unwrap(),
            "--canister",
            "aaaaa-aa",
            "--trust",
        ],
    );
    assert!(!out.status.success(), "import: {}", stdout(&out));
    let err = stderr(&out);
    for s in says {
        assert!(err.contains(s), "import refusal lacks {s:?}: {err}");
    }
    let store = home.join("store").join("aaaaa-aa");
    let listed = std::fs::read_dir(&store).map(|d| d.count()).unwrap_or(0);
    assert_eq!(listed, 0, "nothing is imported from {}", dir.display());
}

/// Reading `dir` gives exactly the fixture's variables, and it imports.
fn accepted(home: &Path, dir: &Path, snapshot: &str) {
    let want = vars(home, &source(), &[]);
    assert!(want.status.success(), "{}", stderr(&want));
    let got = vars(home, dir, &[]);
    assert!(got.status.success(), "{}", stderr(&got));
    assert_eq!(stdout(&got), stdout(&want));
    let out = mo_mem(
        home,
        &[
            "import",
            dir.to_str().unwrap(),
            "--canister",
            "aaaaa-aa",
            "--snapshot",
            snapshot,
            "--trust",
        ],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let stored = home.join("store").join("aaaaa-aa").join(snapshot);
    assert!(stored.join("manifest.json").is_file());
    assert_eq!(
        len(&stored.join("wasm_memory.bin")),
        len(&source().join("wasm_memory.bin"))
    );
}

#[test]
fn icp_cli_stages() {
    let tmp = tempfile::tempdir().unwrap();
    let home = tmp.path();
    let size = len(&source().join("wasm_memory.bin"));

    let fresh = home.join("fresh");
    icp_fresh(&fresh);
    let resume = format!(
        "icp canister snapshot download <canister> <snapshot-id> --output {} --resume",
        fresh.display()
    );
    refused(
        home,
        &fresh,
        &[
            "unfinished icp-cli download",
            &format!("wasm_memory.bin lacks bytes 0..{size}"),
            &resume,
        ],
    );

    let interrupted = home.join("interrupted");
    icp_interrupted(&interrupted);
    let resume = format!(
        "icp canister snapshot download <canister> <snapshot-id> --output {} --resume",
        interrupted.display()
    );
    refused(
        home,
        &interrupted,
        &[
            ".download_progress.json is present",
            &format!(
                "{} lacks bytes 2000000..4000000 (2000000 of {size} bytes)",
                interrupted.join("wasm_memory.bin").display()
            ),
            &resume,
        ],
    );

    let finished = home.join("finished");
    icp_finished(&finished);
    accepted(home, &finished, "0000000000000001");
}

#[test]
fn icp_cli_lock_held_while_writing() {
    let tmp = tempfile::tempdir().unwrap();
    let home = tmp.path();
    let dir = home.join("writing");
    icp_finished(&dir);
    // As icp-cli's DirectoryStructureLock::with_write: File::create(".lock"), then lock().
    let lock = File::create(dir.join(".lock")).unwrap();
    lock.lock().unwrap();
    refused(
        home,
        &dir,
        &[
            "still being written",
            &format!("icp-cli holds the lock {}", dir.join(".lock").display()),
        ],
    );
    let out = vars(home, &dir, &["--force"]);
    assert!(
        !out.status.success(),
        "--force does not read a running download"
    );
    assert!(
        stderr(&out).contains("still being written"),
        "{}",
        stderr(&out)
    );
    lock.unlock().unwrap();
    drop(lock);
    accepted(home, &dir, "0000000000000002");
}

#[test]
fn icp_cli_unreadable_progress_file_is_still_unfinished() {
    let tmp = tempfile::tempdir().unwrap();
    let home = tmp.path();
    let dir = home.join("d");
    icp_finished(&dir);
    // Every byte is there, but the tool never deleted its progress file (killed while
    // fetching the chunk store), and that file is garbage.
    std::fs::write(dir.join(".download_progress.json"), b"{\"wasm_memory\": 7").unwrap();
    refused(home, &dir, &["its progress file is unreadable", "--resume"]);
    // A `.tmp` left by a kill while saving the first progress file.
    std::fs::remove_file(dir.join(".download_progress.json")).unwrap();
    std::fs::write(dir.join(".download_progress.json.tmp"), b"{").unwrap();
    refused(home, &dir, &[".download_progress.json.tmp is present"]);
}

#[test]
fn force_reads_an_unfinished_download_marked_incomplete() {
    let tmp = tempfile::tempdir().unwrap();
    let home = tmp.path();
    let dir = home.join("interrupted");
    icp_interrupted(&dir);
    let d = dir.to_str().unwrap();
    let summary = "INCOMPLETE: an unfinished icp-cli download (wasm_memory.bin: 2000000 of \
                   5373952 bytes missing)";

    let out = mo_mem(home, &["info", d, "--force"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).starts_with(summary), "{}", stdout(&out));
    let out = mo_mem(home, &["info", d, "--json", "--force"]);
    let info: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(info["incomplete"], summary);

    let out = mo_mem(home, &["report", d, "--force"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let first = stdout(&out).lines().next().unwrap_or_default().to_string();
    assert!(
        first.starts_with("INCOMPLETE: an unfinished icp-cli download"),
        "{first}"
    );
    assert!(
        summary.starts_with(first.trim_end_matches("...")),
        "{first}"
    );

    // The mount's tree, as `cat` serves it: the README says so first.
    let out = mo_mem(home, &["cat", d, "README", "--force"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let readme = stdout(&out);
    assert!(
        readme.starts_with("INCOMPLETE: this download did not finish"),
        "{readme}"
    );
    assert!(readme.contains("lacks bytes 2000000..4000000"), "{readme}");

    // Without --force the tree holds only INCOMPLETE, saying what is missing.
    let out = mo_mem(home, &["ls", d]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(stdout(&out).trim(), "INCOMPLETE");
    let out = mo_mem(home, &["cat", d, "INCOMPLETE"]);
    assert!(
        stdout(&out).contains("lacks bytes 2000000..4000000"),
        "{}",
        stdout(&out)
    );

    // import has no --force: the store holds only finished downloads.
    let out = mo_mem(
        home,
        &["import", d, "--canister", "aaaaa-aa", "--trust", "--force"],
    );
    assert!(!out.status.success());
    assert!(
        stderr(&out).contains("only a finished download can be imported"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn dfx_0_30_stages() {
    let tmp = tempfile::tempdir().unwrap();
    let home = tmp.path();
    let size = len(&source().join("wasm_memory.bin"));
    let dir = home.join("interrupted");
    dfx_interrupted(&dir);
    refused(
        home,
        &dir,
        &[
            "unfinished dfx download",
            &format!("wasm_memory.bin lacks bytes 4100000..{size}"),
            &format!(
                "dfx canister snapshot download <canister> <snapshot-id> --dir {} --resume",
                dir.display()
            ),
        ],
    );
    let finished = home.join("finished");
    dfx_finished(&finished);
    assert!(!finished.join("stable_memory.bin").exists());
    assert!(!finished.join("wasm_chunk_store").exists());
    accepted(home, &finished, "0000000000000003");
}

#[test]
fn dfx_0_29_stages() {
    let tmp = tempfile::tempdir().unwrap();
    let home = tmp.path();
    let size = len(&source().join("wasm_memory.bin"));
    let dir = home.join("interrupted");
    dfx_0_29_interrupted(&dir);
    refused(
        home,
        &dir,
        &[
            &format!("wasm_memory.bin lacks bytes 0..{size}"),
            "dfx 0.29 cannot resume",
        ],
    );
    let finished = home.join("finished");
    dfx_0_29_finished(&finished);
    accepted(home, &finished, "0000000000000004");
}

/// What an interrupted `mo-mem pull` leaves in `--store ROOT`: full-length files, the
/// slices done in `.pull_state.json`.
fn pull_interrupted(root: &Path) -> PathBuf {
    let dir = root.join("aaaaa-aa").join("00000000000000058000");
    std::fs::create_dir_all(dir.join("wasm_chunk_store")).unwrap();
    std::fs::copy(source().join("metadata.json"), dir.join("metadata.json")).unwrap();
    for file in ["wasm_module.bin", "wasm_memory.bin", "stable_memory.bin"] {
        preallocate(&dir, file);
    }
    write_chunk(&dir, "wasm_module.bin", 0, CHUNK);
    write_chunk(&dir, "wasm_memory.bin", 2 * CHUNK, CHUNK);
    let state = serde_json::json!({
        "version": 1, "network": "ic", "canister": "aaaaa-aa",
        "snapshot": "00000000000000058000", "metadata": {}, "slice_size": CHUNK,
        "slices_done": { "wasm_module.bin": [0], "wasm_memory.bin": [2] },
        "chunks_done": [],
    });
    std::fs::write(dir.join(".pull_state.json"), state.to_string()).unwrap();
    dir
}

#[test]
fn mo_mem_pull_stages() {
    let tmp = tempfile::tempdir().unwrap();
    let home = tmp.path();
    let root = home.join("other-store");
    let dir = pull_interrupted(&root);
    refused(
        home,
        &dir,
        &[
            "unfinished mo-mem pull download",
            "wasm_memory.bin lacks bytes 0..4000000",
            &format!(
                "mo-mem pull --network ic --canister aaaaa-aa --snapshot 00000000000000058000 --store {}",
                root.display()
            ),
        ],
    );
    // The pull's own lock, held as a running pull holds it.
    let lock_path = root.join("aaaaa-aa").join(".00000000000000058000.lock");
    let lock = File::create(&lock_path).unwrap();
    lock.lock().unwrap();
    refused(
        home,
        &dir,
        &["still being written", "mo-mem pull holds the lock"],
    );
}

/// `(command, expected stderr)` of the ```` ```text ```` transcript under "Downloads that did
/// not finish" in docs/acquire.md.
fn acquire_transcript() -> Vec<(String, String)> {
    let doc = std::fs::read_to_string(crate::common::repo_root().join("docs/acquire.md")).unwrap();
    let section = doc
        .split_once("### Downloads that did not finish")
        .expect("the section")
        .1;
    let block = section
        .split_once("```text\n")
        .expect("the transcript")
        .1
        .split_once("```")
        .unwrap()
        .0;
    let mut out: Vec<(String, String)> = Vec::new();
    for line in block.lines() {
        match line.strip_prefix("$ ") {
            Some(command) => out.push((command.to_string(), String::new())),
            None => {
                let (_, expected) = out.last_mut().expect("a command first");
                expected.push_str(line);
                expected.push('\n');
            }
        }
    }
    out
}

#[test]
fn acquire_doc_transcript_is_what_mo_mem_says() {
    let tmp = tempfile::tempdir().unwrap();
    let snap = tmp.path().join("snap");
    icp_interrupted(&snap);
    let examples = acquire_transcript();
    assert_eq!(examples.len(), 2);
    for (command, expected) in examples {
        let args: Vec<&str> = command
            .strip_prefix("mo-mem ")
            .unwrap()
            .split_whitespace()
            .collect();
        let out = Command::new(env!("CARGO_BIN_EXE_mo-mem"))
            .args(&args)
            .current_dir(tmp.path())
            .env("MO_MEM_STORE", tmp.path().join("store"))
            .env("MO_MEM_CONFIG_DIR", tmp.path().join("config"))
            .output()
            .unwrap();
        assert!(!out.status.success(), "{command}");
        assert_eq!(stderr(&out), expected, "docs/acquire.md: {command}");
    }
}
