//! The global `--max-value-size` sets the text/blob limit of every command that decodes a
//! snapshot (`vars`, `cat` of the tree, `eval`), with the limit counted on the rendered
//! value: `blob_bytes` (11 bytes of `motoko/fixtures/compound/main.mo`) renders to 33.

use crate::common;

use std::process::Command;

fn mo_mem(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_mo-mem"))
        .args(args)
        .output()
        .expect("run mo-mem");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn max_value_size_bounds_every_command() {
    let dir = common::fixture("compound", "eop");
    let snap = dir.to_str().expect("UTF-8 path");
    let commands: [&[&str]; 3] = [
        &["vars", snap, "blob_bytes"],
        &["cat", snap, "vars/blob_bytes"],
        &["eval", snap, "vars.blob_bytes"],
    ];
    for command in commands {
        let (ok, out, err) = mo_mem(command);
        let shown = out.contains("\\7F\\80") || out.contains("7f80");
        assert!(ok && shown, "{command:?}: {out} {err}");
        // Before or after the subcommand: a global option.
        for args in [
            [&["--max-value-size", "33"], command].concat(),
            [command, &["--max-value-size", "33"]].concat(),
        ] {
            let (ok, _, err) = mo_mem(&args);
            assert!(ok, "{args:?}: {err}");
        }
        let (ok, _, err) = mo_mem(&[command, &["--max-value-size", "32"]].concat());
        assert!(!ok, "{command:?} with 32 bytes");
        assert!(
            err.contains("maximum text/blob bytes exceeded (32)"),
            "{command:?}: {err}"
        );
    }
    let (ok, _, err) = mo_mem(&["vars", snap, "--max-value-size", "0"]);
    assert!(!ok && err.contains("between 1 byte and 64G"), "{err}");
}
