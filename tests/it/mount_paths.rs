//! User-facing mount paths no other test covers: `mount --examples` (what `scripts/demo`
//! runs), the default store (no sources), SIGINT and SIGHUP, `errors.json` of a snapshot
//! whose heap cannot be decoded, `methods/README` of a module without a Candid service,
//! `analysis/` refusing a heap over `--max-analysis-objects` (and the CLI's analysis commands
//! too), and `methods/` calls stopped by the mount's `--instructions` and `--timeout`.

use crate::common::{copy_snapshot, fixture};
use crate::mount_support::{fuse_available, is_mounted, wait_with_deadline, Mounted, BIN};
use std::path::Path;
use std::process::Command;
use std::time::Duration;

fn listing(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// The canister's own `debug_show` of variable `var` of fixture `name/mode`.
fn expected_var(name: &str, mode: &str, var: &str) -> String {
    let dir = fixture(name, mode);
    let expected: serde_json::Value =
        serde_json::from_slice(&std::fs::read(dir.join("expected.json")).unwrap()).unwrap();
    expected["vars"][var].as_str().unwrap().to_string()
}

#[test]
fn mount_examples_serves_every_bundled_snapshot_by_name() {
    if !fuse_available() {
        return;
    }
    // The examples cache is the tests' materialized fixtures (the same gunzipped files),
    // made current first, so the daemon reuses them instead of writing 700 MB again.
    crate::common::all_fixtures();
    let mut command = Command::new(BIN);
    command
        .env("MO_MEM_LOG", "warn")
        .env("MO_MEM_EXAMPLES_CACHE", crate::common::materialized_root());
    let mount = Mounted::start_command(command, &["--examples"]);
    let want = [
        "collections-compacting",
        "collections-copying",
        "collections-eop",
        "collections-generational",
        "collections-incremental",
        "compound-compacting",
        "compound-copying",
        "compound-copying-forcegc",
        "compound-eop",
        "compound-eop-forcegc",
        "compound-generational",
        "compound-incremental",
        "compound-incremental-forcegc",
        "doctor-copying",
        "doctor-eop",
        "growth1-copying",
        "growth1-eop",
        "growth2-copying",
        "growth2-eop",
        "growth3-copying",
        "growth3-eop",
        "regions-compacting",
        "regions-copying",
        "regions-eop",
        "regions-generational",
        "regions-incremental",
        "scalars-compacting",
        "scalars-copying",
        "scalars-eop",
        "scalars-generational",
        "scalars-incremental",
        "structures-compacting",
        "structures-copying",
        "structures-eop",
        "structures-generational",
        "structures-incremental",
        "structures0-copying",
        "structures0-eop",
        "weak-eop",
        "weak-eop-forcegc",
    ];
    assert_eq!(listing(&mount.mountpoint), want);
    // every committed fixture is one of them
    assert_eq!(crate::common::committed_fixtures().len(), want.len());
    // what the README's first steps read
    assert_eq!(
        std::fs::read_to_string(mount.path("compound-eop/vars/arr_big.mo")).unwrap(),
        format!("{}\n", expected_var("compound", "eop", "arr_big"))
    );
    let info: serde_json::Value =
        serde_json::from_slice(&std::fs::read(mount.path("compound-eop/info.json")).unwrap())
            .unwrap();
    assert!(info["objects"]["objects"].as_u64().unwrap() > 0, "{info}");
    assert_eq!(
        std::fs::read(mount.path("growth1-copying/wasm_memory.bin")).unwrap(),
        std::fs::read(fixture("growth1", "copying").join("wasm_memory.bin")).unwrap()
    );
}

#[test]
fn mount_without_sources_serves_the_default_store() {
    if !fuse_available() {
        return;
    }
    let home = tempfile::tempdir().unwrap();
    // only HOME says where the store and its key are (no MO_MEM_*, no XDG_*)
    let command = || {
        let mut c = Command::new(BIN);
        c.env("HOME", home.path()).env("MO_MEM_LOG", "warn");
        for var in [
            "MO_MEM_STORE",
            "MO_MEM_CONFIG_DIR",
            "XDG_DATA_HOME",
            "XDG_CONFIG_HOME",
        ] {
            c.env_remove(var);
        }
        c
    };
    let canister = "rrkah-fqaaa-aaaaa-aaaaq-cai";
    let out = command()
        .arg("import")
        .arg(fixture("growth2", "eop"))
        .args(["--canister", canister, "--snapshot", "0001", "--trust"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stored = home
        .path()
        .join(".local/share/mo-mem/snapshots")
        .join(canister)
        .join("0001");
    assert!(
        stored.join("manifest.json").is_file(),
        "not in the default store"
    );
    let no_sources: [&str; 0] = [];
    let mount = Mounted::start_command(command(), &no_sources);
    assert_eq!(listing(&mount.mountpoint), [canister]);
    assert_eq!(listing(&mount.path(canister)), ["0001", "diff", "latest"]);
    assert_eq!(
        std::fs::read_to_string(mount.path(&format!("{canister}/0001/vars/log.mo"))).unwrap(),
        format!("{}\n", expected_var("growth2", "eop", "log"))
    );
    assert_eq!(
        std::fs::read_link(mount.path(&format!("{canister}/latest"))).unwrap(),
        Path::new("0001")
    );
}

/// `text` without its ANSI colour sequences (`ESC [ ... m`).
fn without_colors(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(i) = rest.find('\x1b') {
        out.push_str(&rest[..i]);
        rest = &rest[i..];
        rest = rest.find('m').map_or("", |m| &rest[m + 1..]);
    }
    out.push_str(rest);
    out
}

#[test]
fn sigint_and_sighup_unmount_and_exit_zero() {
    if !fuse_available() {
        return;
    }
    let dir = fixture("scalars", "eop");
    for (signal, number) in [(libc::SIGINT, "2"), (libc::SIGHUP, "1")] {
        let mut command = Command::new(BIN);
        command.env("MO_MEM_LOG", "info");
        let mut mount = Mounted::start_command(command, &[&dir]);
        // served, and kept open while the signal comes
        assert!(!listing(&mount.mountpoint).is_empty());
        let mut child = mount.child.take().unwrap();
        // SAFETY: kill(2) on our own child's pid.
        unsafe { libc::kill(child.id() as i32, signal) };
        let status = wait_with_deadline(&mut child, Duration::from_secs(10));
        assert_eq!(status.code(), Some(0), "signal {number}: {status}");
        assert!(
            !is_mounted(&mount.mountpoint),
            "signal {number}: still mounted"
        );
        let log = without_colors(&mount.log_text());
        assert!(
            log.contains(&format!("stop signal; unmounting signal={number}")),
            "signal {number}: {log}"
        );
    }
}

#[test]
fn errors_json_says_why_the_heap_cannot_be_decoded() {
    if !fuse_available() {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let snap = tmp.path().join("broken");
    copy_snapshot(&fixture("compound", "eop"), &snap);
    // The EOP metadata's heap-base word (0x480000 + 7352, docs/motoko-heap-layout.md)
    // claims another heap base.
    {
        use std::os::unix::fs::FileExt;
        let f = std::fs::OpenOptions::new()
            .write(true)
            .open(snap.join("wasm_memory.bin"))
            .unwrap();
        f.write_all_at(&0x12_3458u64.to_le_bytes(), 0x48_0000 + 7352)
            .unwrap();
    }
    let good = fixture("compound", "eop");
    let mount = Mounted::start(&[&snap, &good]);
    let names = listing(&mount.mountpoint);
    assert_eq!(names.len(), 2, "{names:?}");
    let broken = mount
        .mountpoint
        .join(names.iter().find(|n| n.contains("broken")).unwrap());
    // raw files, README and eval stay; nothing decoded is listed
    assert_eq!(
        listing(&broken),
        [
            "README",
            "errors.json",
            "eval",
            "metadata.json",
            "methods",
            "stable_memory.bin",
            "wasm_memory.bin",
            "wasm_module.bin"
        ]
    );
    let errors: serde_json::Value =
        serde_json::from_slice(&std::fs::read(broken.join("errors.json")).unwrap()).unwrap();
    assert_eq!(
        errors,
        serde_json::json!({ "errors": [ {
            "what": "heap",
            "error": format!(
                "cannot decode {}: invalid heap layout: EOP heap base at 0x481cb8 is 0x123458, \
                 expected 0x500000",
                snap.display()
            ),
        } ] })
    );
    // its README says so too; the raw image is served unchanged
    let readme = std::fs::read_to_string(broken.join("README")).unwrap();
    assert!(
        readme.contains("EOP heap base at 0x481cb8 is 0x123458"),
        "{readme}"
    );
    assert_eq!(
        std::fs::read(broken.join("wasm_memory.bin")).unwrap(),
        std::fs::read(snap.join("wasm_memory.bin")).unwrap()
    );
    // the good snapshot next to it has no errors.json
    let other = mount
        .mountpoint
        .join(names.iter().find(|n| !n.contains("broken")).unwrap());
    assert!(!other.join("errors.json").exists());
}

/// `module` without its custom sections named `name` (the rest byte for byte).
fn without_custom_section(module: &[u8], name: &str) -> Vec<u8> {
    fn leb(bytes: &[u8], at: &mut usize) -> usize {
        let (mut v, mut shift) = (0usize, 0);
        loop {
            let b = bytes[*at];
            *at += 1;
            v |= ((b & 0x7f) as usize) << shift;
            shift += 7;
            if b & 0x80 == 0 {
                return v;
            }
        }
    }
    let mut out = module[..8].to_vec();
    let mut at = 8;
    let mut dropped = 0;
    while at < module.len() {
        let start = at;
        let id = module[at];
        at += 1;
        let size = leb(module, &mut at);
        let body = at;
        at += size;
        if id == 0 {
            let mut p = body;
            let len = leb(module, &mut p);
            if &module[p..p + len] == name.as_bytes() {
                dropped += 1;
                continue;
            }
        }
        out.extend_from_slice(&module[start..at]);
    }
    assert_eq!(dropped, 1, "the module has one {name} section");
    out
}

#[test]
fn methods_readme_says_the_module_has_no_candid_service() {
    if !fuse_available() {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let snap = tmp.path().join("no-service");
    let from = fixture("weak", "eop");
    copy_snapshot(&from, &snap);
    let module = std::fs::read(from.join("wasm_module.bin")).unwrap();
    let stripped = without_custom_section(&module, "icp:private candid:service");
    std::fs::write(snap.join("wasm_module.bin"), &stripped).unwrap();
    let mut meta: serde_json::Value =
        serde_json::from_slice(&std::fs::read(snap.join("metadata.json")).unwrap()).unwrap();
    meta["wasm_module_size"] = stripped.len().into();
    std::fs::write(snap.join("metadata.json"), meta.to_string()).unwrap();
    let mount = Mounted::start(&[&snap, &from]);
    let names = listing(&mount.mountpoint);
    let dir = |which: &str| {
        mount
            .mountpoint
            .join(names.iter().find(|n| n.contains(which)).unwrap())
    };
    let methods = dir("no-service").join("methods");
    assert_eq!(listing(&methods), ["README"]);
    let readme = std::fs::read_to_string(methods.join("README")).unwrap();
    assert_eq!(
        readme,
        format!(
            "This snapshot's canister cannot be asked: cannot decode {}: methods: the module has \
             no candid:service section (not built by moc or dfx?)\n",
            snap.display()
        )
    );
    // the heap still decodes; the unstripped snapshot answers its queries
    assert!(dir("no-service").join("vars").is_dir());
    let queries = listing(&dir("eop").join("methods"));
    assert!(queries.contains(&"whoami".to_string()), "{queries:?}");
}

/// `mo-mem mount ARGS SNAPSHOT` logging warnings (where a failed read's message goes).
fn mount_with(args: &[&str], snapshot: &Path) -> Mounted {
    let mut command = Command::new(BIN);
    command.env("MO_MEM_LOG", "warn");
    let mut all: Vec<&std::ffi::OsStr> = args.iter().map(std::ffi::OsStr::new).collect();
    all.push(snapshot.as_os_str());
    Mounted::start_command(command, &all)
}

/// The one snapshot directory of a mount.
fn only_snapshot(mount: &Mounted) -> std::path::PathBuf {
    let names = listing(&mount.mountpoint);
    assert_eq!(names.len(), 1, "{names:?}");
    mount.mountpoint.join(&names[0])
}

/// The heap's object count as `mo-mem info` prints it (`objects: N (B bytes)`).
fn info_objects(dir: &Path) -> u64 {
    let out = Command::new(BIN).arg("info").arg(dir).output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    let line = text.lines().find(|l| l.starts_with("objects:")).unwrap();
    line["objects:".len()..]
        .split_whitespace()
        .next()
        .unwrap()
        .parse()
        .unwrap()
}

/// The errno of a read of `path` that must fail.
fn read_error(path: &Path) -> i32 {
    match std::fs::read(path) {
        Ok(bytes) => panic!(
            "{} read {} bytes, expected a failure",
            path.display(),
            bytes.len()
        ),
        Err(err) => err.raw_os_error().unwrap_or(0),
    }
}

#[test]
fn analysis_refuses_a_heap_over_max_analysis_objects() {
    let dir = fixture("compound", "eop");
    let objects = info_objects(&dir);
    assert!(objects > 1000, "{objects}");
    let under = (objects - 1).to_string();
    let refusal = format!(
        "the heap has more than {under} objects, the most the analysis may take \
         (--max-analysis-objects {under})"
    );
    // The CLI's analysis commands: refused one object short, served at exactly the count.
    for command in ["report", "retained", "path"] {
        let mut args = vec![command, dir.to_str().unwrap()];
        if command == "path" {
            args.push("0x500000");
        }
        let out = Command::new(BIN)
            .args(&args)
            .args(["--max-analysis-objects", &under])
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{command}: {err}");
        assert!(
            err.contains(&refusal) && !err.contains("panicked"),
            "{command}: {err}"
        );
    }
    let out = Command::new(BIN)
        .args(["--max-analysis-objects", &objects.to_string(), "report"])
        .arg(&dir)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let report = out.stdout;

    if !fuse_available() {
        return;
    }
    let mount = mount_with(&["--max-analysis-objects", &under], &dir);
    let snap = only_snapshot(&mount);
    for file in ["report.txt", "retained.json", "types.json"] {
        assert_eq!(
            read_error(&snap.join("analysis").join(file)),
            libc::EFBIG,
            "{file}"
        );
    }
    // the message is in the daemon's log; the rest of the snapshot is served
    mount.wait_for_log("the refusal", |log| log.contains(&refusal));
    let vars = std::fs::read_dir(snap.join("vars")).unwrap().count();
    assert!(vars > 0);
    drop(mount);
    let mount = mount_with(&["--max-analysis-objects", &objects.to_string()], &dir);
    let snap = only_snapshot(&mount);
    assert!(std::fs::read(snap.join("analysis/report.txt")).unwrap() == report);
}

/// Writes `args` into the control file `file`; the read's errno, then the next read's text.
fn ask_failing(file: &Path, args: &str) -> (i32, String) {
    std::fs::write(file, args).unwrap();
    let errno = read_error(file);
    (errno, std::fs::read_to_string(file).unwrap())
}

#[test]
fn methods_calls_stop_at_the_mounts_instruction_and_time_limits() {
    if !fuse_available() {
        return;
    }
    let dir = fixture("weak", "eop");
    // A tiny instruction budget stops every call: a file's read and a control file's.
    let mount = mount_with(&["--instructions", "1000"], &dir);
    let methods = only_snapshot(&mount).join("methods");
    assert_eq!(read_error(&methods.join("dump")), libc::EFBIG);
    mount.wait_for_log("the limit", |log| {
        log.contains("dump exceeded the instruction limit of 1000")
    });
    let (errno, why) = ask_failing(&methods.join("name_of"), "(0)");
    assert_eq!(errno, libc::EFBIG);
    assert_eq!(why, "name_of exceeded the instruction limit of 1000\n");
    drop(mount);

    // No time at all: the deadline passes before the call (a restore and the query) is done.
    let mount = mount_with(&["--timeout", "0"], &dir);
    let methods = only_snapshot(&mount).join("methods");
    let (errno, why) = ask_failing(&methods.join("name_of"), "(0)");
    assert_eq!(errno, libc::EFBIG);
    assert_eq!(why, "name_of did not finish within 0 s\n");
    drop(mount);

    // The defaults answer the same calls.
    let mount = mount_with(&[], &dir);
    let methods = only_snapshot(&mount).join("methods");
    std::fs::write(methods.join("name_of"), "(0)").unwrap();
    assert_eq!(
        std::fs::read_to_string(methods.join("name_of")).unwrap(),
        "(opt \"kept #1\")\n"
    );
}
