//! Runs the `mo-mem vars` examples of docs/formats.md on the committed fixtures and checks
//! that the output is exactly what the document shows.

use crate::common;

use std::process::Command;

#[test]
fn formats_md_examples_are_true() {
    let doc = std::fs::read_to_string(common::repo_root().join("docs/formats.md")).unwrap();
    let mut checked = 0;
    for (command, expected) in common::doc_examples::console_examples(&doc) {
        let cmd = command.strip_prefix("mo-mem ").expect("a mo-mem command");
        let mut args: Vec<String> = cmd.split_whitespace().map(str::to_string).collect();
        // `fixture/mode` stands for the materialized committed fixture.
        let (name, mode) = args[1].split_once('/').expect("fixture/mode");
        args[1] = common::fixture(name, mode).to_string_lossy().into_owned();
        let out = Command::new(env!("CARGO_BIN_EXE_mo-mem"))
            .args(&args)
            .output()
            .expect("run mo-mem");
        assert!(
            out.status.success(),
            "{cmd}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert_eq!(String::from_utf8_lossy(&out.stdout), expected, "{cmd}");
        checked += 1;
    }
    assert!(checked >= 4, "only {checked} examples found");
}
