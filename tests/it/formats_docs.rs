//! Runs the `mo-mem vars` examples of docs/formats.md on the committed fixtures and checks
//! that the output is exactly what the document shows.

use crate::common;

#[test]
fn formats_md_examples_are_true() {
    let checked = common::doc_examples::check_console_examples("docs/formats.md");
    assert!(checked >= 4, "only {checked} examples found");
}
