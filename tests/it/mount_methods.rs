//! The mount's `methods/` directory, for real (FUSE): the canister's own queries asked on its
//! snapshot. A query without arguments is a file holding its reply (exact `stat` size, the
//! same bytes `mo-mem call` prints); a query with arguments is a control file (write the
//! Candid arguments, read the reply); a trap fails the read with `EREMOTEIO` and its message
//! is the next read's answer; arguments that do not fit fail the write with `EINVAL`; no
//! call changes the snapshot, and repeated calls answer the same.

use crate::common;
use crate::mount_support;

use mount_support::{fuse_available, read_errno, Mounted, BIN};
use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::process::Command;

fn call(dir: &Path, method: &str, args: &[&str]) -> Vec<u8> {
    let out = Command::new(BIN)
        .arg("call")
        .arg(dir)
        .arg(method)
        .args(args)
        .output()
        .expect("run mo-mem");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}

/// Writes `args` into the control file `file` and reads the reply (or the read's errno).
fn ask(file: &Path, args: &str) -> Result<String, i32> {
    std::fs::write(file, args).unwrap();
    match std::fs::read(file) {
        Ok(answer) => Ok(String::from_utf8(answer).unwrap()),
        Err(e) => Err(e.raw_os_error().unwrap_or(0)),
    }
}

#[test]
fn methods_are_files_and_control_files_answered_by_the_canister() {
    if !fuse_available() {
        return;
    }
    let root = tempfile::tempdir().unwrap();
    let dir = root.path().join("weak");
    common::copy_snapshot(&common::fixture("weak", "eop"), &dir);
    let image_before = std::fs::read(dir.join("wasm_memory.bin")).unwrap();
    let mount = Mounted::start(&[dir.as_path()]);
    let methods = mount.path("weak/methods");

    let mut listed: Vec<(String, bool)> = std::fs::read_dir(&methods)
        .unwrap()
        .map(|e| {
            let e = e.unwrap();
            let writable = e.metadata().unwrap().permissions().mode() & 0o200 != 0;
            (e.file_name().to_string_lossy().into_owned(), writable)
        })
        .collect();
    listed.sort();
    // the queries only (not the update `churn`); those with arguments are writable
    let want = [
        ("checked", true),
        ("dump", false),
        ("name_of", true),
        ("whoami", false),
    ];
    let want: Vec<(String, bool)> = want.iter().map(|(n, w)| (n.to_string(), *w)).collect();
    assert_eq!(listed, want);

    // a query without arguments: its reply, exactly as `mo-mem call` prints it
    for name in ["dump", "whoami"] {
        let file = methods.join(name);
        let bytes = std::fs::read(&file).unwrap();
        assert_eq!(
            std::fs::metadata(&file).unwrap().len(),
            bytes.len() as u64,
            "{name}"
        );
        assert_eq!(bytes, call(&dir, name, &[]), "{name}");
    }
    assert_eq!(
        std::fs::read_to_string(methods.join("whoami")).unwrap(),
        "(principal \"2vxsx-fae\")\n"
    );

    // a query with arguments: write them, read the reply
    let name_of = methods.join("name_of");
    assert_eq!(ask(&name_of, "(0)").unwrap(), "(opt \"kept #1\")\n");
    assert_eq!(ask(&name_of, "(1)").unwrap(), "(null)\n");
    assert_eq!(ask(&methods.join("checked"), "(4)").unwrap(), "(8 : nat)\n");

    // a trap fails the read; the canister's message is the next read's answer
    let checked = methods.join("checked");
    assert_eq!(ask(&checked, "(12)"), Err(libc::EREMOTEIO));
    let why = std::fs::read_to_string(&checked).unwrap();
    assert!(
        why.contains("canister trapped in checked: assertion failed at main.mo:"),
        "{why}"
    );

    // arguments that do not fit the method's types fail the write
    let err = std::fs::write(&name_of, "(\"zero\")").unwrap_err();
    assert_eq!(err.raw_os_error(), Some(libc::EINVAL));
    assert!(read_errno(&name_of).is_none());

    // the same answers again (the restored instance is reused, reset after each call), and the
    // snapshot never changes
    assert_eq!(ask(&name_of, "(0)").unwrap(), "(opt \"kept #1\")\n");
    let dump = std::fs::read(methods.join("dump")).unwrap();
    assert_eq!(dump, call(&dir, "dump", &[]));
    drop(mount);
    assert!(std::fs::read(dir.join("wasm_memory.bin")).unwrap() == image_before);
}

#[test]
fn mo_mem_cat_serves_the_same_replies_without_a_mount() {
    let dir = common::fixture("weak", "eop");
    let out = Command::new(BIN)
        .arg("cat")
        .arg(&dir)
        .arg("methods/whoami")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(out.stdout, call(&dir, "whoami", &[]));
}
