//! The mount's memory budget for the shapes that used to break it (docs/mount.md, "Memory";
//! issue 35): listing the directory of an array of 500 000 records and of a `mo:core` Map of
//! 100 000 `Text` keys, their groups, looking one map entry up by its `Text` key, the same
//! for a Map of 50 000 `Principal` keys, a list nested 4 000 links deep, a text of 16 MiB,
//! keep the daemon's anonymous memory (`RssAnon`) within 64 MiB + `--cache-mib` + 1% of
//! the image; and a script's heap analysis larger than `--cache-mib` is released when its
//! request ends.
//! The heap is the generated `wide` fixture (docs/fixtures.md; `common::generated_fixture`
//! makes it when it is not up to date). A test of the bound, not of speed.

use crate::common;
use crate::mount_support::{fuse_available, in_new_session, Mounted, BIN};
use std::path::Path;
use std::process::Command;

/// The fixed part of the budget, in bytes (docs/mount.md, "Memory").
const FIXED_BYTES: u64 = 64 << 20;

/// The content cache the daemon is started with, in MiB.
const CACHE_MIB: u64 = 16;

/// Records in `records`, keys in `names` (motoko/fixtures/wide/scenario.json).
const RECORDS: usize = 500_000;
const KEYS: usize = 100_000;
/// Keys in `owners`, links in `deep`, bytes of `long_text`.
const OWNERS: usize = 50_000;
const LINKS: usize = 4_000;
const TEXT_BYTES: usize = 16 << 20;

/// The daemon's `RssAnon` in bytes, read from `/proc`.
fn rss_anon(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    let kib: u64 = status
        .lines()
        .find_map(|l| l.strip_prefix("RssAnon:"))
        .and_then(|l| l.split_whitespace().next()?.parse().ok())
        .expect("RssAnon in /proc/PID/status");
    kib * 1024
}

/// The names in `dir`, sorted; each stat-ed (as `ls -l` does) when `stat`.
fn list(dir: &Path, stat: bool) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("ls {}: {e}", dir.display()))
        .map(|e| {
            let e = e.unwrap();
            if stat {
                e.metadata().unwrap();
            }
            e.file_name().to_string_lossy().into_owned()
        })
        .collect();
    names.sort();
    names
}

/// The group directory name holding position `i` of `len` entries (groups of 1000).
fn group(i: usize, len: usize) -> String {
    let first = i / 1000 * 1000;
    format!("{first}-{}", (first + 999).min(len - 1))
}

#[test]
fn listing_a_huge_array_and_a_text_keyed_map_stays_within_the_budget() {
    let Some(root) = common::generated_fixture("wide") else {
        return;
    };
    if !fuse_available() {
        return;
    }
    let snapshot = root.join("eop");
    let image_bytes = std::fs::metadata(snapshot.join("wasm_memory.bin"))
        .unwrap()
        .len();
    let bound = FIXED_BYTES + (CACHE_MIB << 20) + image_bytes / 100;
    let mut command = Command::new(BIN);
    command.env("MO_MEM_LOG", "warn");
    let cache = CACHE_MIB.to_string();
    let source = snapshot.to_str().unwrap();
    let mount = Mounted::start_command(command, &["--no-verify", "--cache-mib", &cache, source]);
    let pid = mount.child.as_ref().unwrap().id();
    let snap = mount.only_snapshot();
    let before = rss_anon(pid);
    let mut peak = before;
    let mut check = |what: &str| {
        let now = rss_anon(pid);
        eprintln!("after {what}: RssAnon {} KiB", now >> 10);
        peak = peak.max(now);
        assert!(
            now <= bound,
            "after {what}: RssAnon {now} bytes, over the bound of {bound} bytes\n{}",
            mount.log_text()
        );
    };
    let vars = snap.join("vars");
    // `ls -l vars/`: the sizes of `records.json` and `records.mo` (the array's renderings,
    // about 40 MB each) are their renderings' lengths, streamed without holding the array.
    let listed = list(&vars, true);
    assert!(listed.contains(&"records".to_string()), "{listed:?}");
    let json_len = std::fs::metadata(vars.join("records.json")).unwrap().len();
    assert!(
        json_len > RECORDS as u64 * 10,
        "records.json: {json_len} bytes"
    );
    check("ls -l vars");
    // The array: 500 groups of 1000, the first and the last listed.
    let groups = list(&vars.join("records"), true);
    assert_eq!(groups.len(), RECORDS / 1000, "{groups:?}");
    check("ls vars/records");
    for i in [0, RECORDS - 1] {
        let g = group(i, RECORDS);
        let names = list(&vars.join("records").join(&g), true);
        assert!(
            names.contains(&(i % 1000 + i / 1000 * 1000).to_string()),
            "{g}"
        );
        let json = std::fs::read(vars.join("records").join(&g).join(format!("{i}.json"))).unwrap();
        let json: serde_json::Value = serde_json::from_slice(&json).unwrap();
        assert_eq!(json["id"], serde_json::json!(i), "{g}/{i}.json");
        check(&format!("ls vars/records/{g}"));
    }
    // The map, ordered by its keys' text: one entry found by its key (the lookup descends
    // the map) in a group not listed, then every group listed with every entry stat-ed (the
    // kernel then holds 100 000 inodes, each a node in the daemon).
    let mut keys: Vec<String> = (0..KEYS).map(|k| format!("key{k}")).collect();
    keys.sort();
    let names = vars.join("names");
    let groups = list(&names, true);
    assert_eq!(groups.len(), KEYS / 1000, "{groups:?}");
    check("ls vars/names");
    let k = keys.iter().position(|k| k == "key77777").unwrap();
    let found = std::fs::read(names.join(group(k, KEYS)).join("key77777")).unwrap();
    assert_eq!(found, b"77777\n", "vars/names/{}/key77777", group(k, KEYS));
    check("cat vars/names/GROUP/key77777");
    for (i, g) in groups.iter().enumerate() {
        let first: usize = g.split('-').next().unwrap().parse().unwrap();
        let listed = list(&names.join(g), true);
        assert!(listed.contains(&keys[first]), "{g}: {}", keys[first]);
        if i % 25 == 24 {
            check(&format!("ls -l vars/names/GROUP ({} groups)", i + 1));
        }
    }
    check("ls -l vars/names/GROUP (every group)");
    // The Principal-keyed map: one entry found by its key's text (the lookup descends the
    // map by the blob's bytes), its group not listed; then its groups.
    let owners = vars.join("owners");
    let principal = |k: u32| candid::Principal::from_slice(&k.to_be_bytes()).to_text();
    let found = std::fs::read(owners.join("0-999").join(principal(777))).unwrap();
    assert_eq!(found, b"777\n", "vars/owners/0-999/{}", principal(777));
    check("cat vars/owners/GROUP/PRINCIPAL");
    assert_eq!(list(&owners, true).len(), OWNERS / 1000);
    let last = list(&owners.join(group(OWNERS - 1, OWNERS)), true);
    assert!(last.contains(&principal(OWNERS as u32 - 1)), "{last:?}");
    check("ls vars/owners, its last group");
    // The nested list: down by directory until the tree cuts it (64 directories below
    // `vars/deep/`: a file holding `{"deep": "0x…"}`), and its `debug_show` (8 000 levels,
    // streamed with an explicit stack) read whole.
    let (mut link, mut links) = (vars.join("deep").join("some"), 0);
    while link.is_dir() {
        let depth = std::fs::read(link.join("depth")).unwrap();
        assert_eq!(
            depth,
            format!("{}\n", LINKS - links).as_bytes(),
            "{}",
            link.display()
        );
        link = link.join("next").join("some");
        links += 1;
    }
    let cut = std::fs::read_to_string(&link).unwrap();
    assert!(
        cut.starts_with("{\"deep\":\"0x"),
        "{}: {cut}",
        link.display()
    );
    assert_eq!(links, 32, "links listed before the cut");
    let shown = std::fs::read(vars.join("deep.mo")).unwrap();
    assert_eq!(
        shown.windows(8).filter(|w| w == b"depth = ").count(),
        LINKS,
        "deep.mo"
    );
    check("ls vars/deep down to its cut, cat vars/deep.mo");
    // The text of 16 MiB (a rope of 2^20 concatenations): streamed, its size exact.
    let text = vars.join("long_text");
    let want_len = (TEXT_BYTES + 3) as u64; // the quotes and a newline
    assert_eq!(std::fs::metadata(&text).unwrap().len(), want_len);
    let bytes = std::fs::read(&text).unwrap();
    assert_eq!(bytes.len() as u64, want_len);
    assert!(bytes[1..TEXT_BYTES + 1]
        .chunks(16)
        .all(|c| c == b"0123456789abcdef"));
    check("cat vars/long_text");
    eprintln!(
        "{}: RssAnon {} KiB at the start, at most {} KiB while listing; bound {} KiB",
        snapshot.display(),
        before >> 10,
        peak >> 10,
        bound >> 10
    );
}

/// The `wide` heap mounted with `--cache-mib 4` and an eval deadline a loaded debug run
/// keeps to (the analysis takes longer than the default 10 s there), logging at `log`:
/// the mount and its `eval` file (`None` where it cannot run).
fn wide_with_small_cache(log: &str) -> Option<(Mounted, std::path::PathBuf)> {
    let root = common::generated_fixture("wide")?;
    if !fuse_available() {
        return None;
    }
    let snapshot = root.join("eop");
    let mut command = Command::new(BIN);
    command
        .env("MO_MEM_LOG", log)
        .env("MO_MEM_EVAL_TIMEOUT", "300");
    let source = snapshot.to_str().unwrap();
    let mount = Mounted::start_command(command, &["--no-verify", "--cache-mib", "4", source]);
    let eval = mount.only_snapshot().join("eval");
    Some((mount, eval))
}

/// The daemon's process id.
fn pid(mount: &Mounted) -> u32 {
    mount.child.as_ref().unwrap().id()
}

/// A script's heap analysis larger than `--cache-mib` (about 15 MB on `wide`, against 4 MiB)
/// is released when its request ends and its memory given back: the daemon's `RssAnon`
/// grows by much less than the analysis (measured: 4.8 MB, the session's own state, against
/// 25.7 MB when it is kept), and a second script computes it again to the same answer.
#[test]
fn a_scripts_analysis_beyond_the_cache_budget_is_released() {
    let Some((mount, eval)) = wide_with_small_cache("mo_mem=info") else {
        return;
    };
    let pid = pid(&mount);
    let script = r#"echo 'heap.garbage().objects' > "$1"; cat "$1""#;
    let run = || {
        let out = in_new_session(script, &eval).wait_with_output().unwrap();
        String::from_utf8_lossy(&out.stdout).trim().replace('_', "")
    };
    let before = rss_anon(pid);
    let first = run();
    let after = rss_anon(pid);
    assert!(
        first.parse::<u64>().is_ok(),
        "{first:?}\n{}",
        mount.log_text()
    );
    let log = mount.log_text();
    assert!(
        log.contains("released the heap analysis"),
        "no release in the log:\n{log}"
    );
    let grown = after.saturating_sub(before);
    eprintln!("RssAnon {} KiB -> {} KiB", before >> 10, after >> 10);
    assert!(
        grown < 12 << 20,
        "RssAnon grew by {grown} bytes over a script whose analysis was released\n{log}"
    );
    assert_eq!(run(), first, "computed again");
}

/// Sessions of the `eval` file outlive their requests (their definitions persist), but not
/// what a request decoded to answer: six sessions that each read the 500 000 records'
/// array hold a few MiB together. Before, each kept the array's top level (35 MB) in its
/// `vars` and, once freed, in its thread's allocator arena: 210 MB for six.
#[test]
fn idle_eval_sessions_hold_little() {
    let Some((mount, eval)) = wide_with_small_cache("warn") else {
        return;
    };
    let pid = pid(&mount);
    let script = r#"echo 'vars.records.size()' > "$1"; cat "$1""#;
    let before = rss_anon(pid);
    for session in 0..6 {
        let out = in_new_session(script, &eval).wait_with_output().unwrap();
        let answer = String::from_utf8_lossy(&out.stdout).trim().replace('_', "");
        assert_eq!(
            answer,
            RECORDS.to_string(),
            "session {session}\n{}",
            mount.log_text()
        );
    }
    // the kernel updates a thread's resident count lazily: let the last session's settle
    std::thread::sleep(std::time::Duration::from_millis(500));
    let after = rss_anon(pid);
    eprintln!(
        "RssAnon {} KiB -> {} KiB after six sessions",
        before >> 10,
        after >> 10
    );
    assert!(
        after.saturating_sub(before) < 24 << 20,
        "six idle sessions hold {} bytes",
        after.saturating_sub(before)
    );
}
