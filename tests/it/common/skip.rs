//! Skips that CI turns into failures. A test that cannot run on this machine (no FUSE, not
//! root, no Motoko compiler) says so on stderr and passes; with `MO_MEM_STRICT=1` (set by
//! `.ci/run`) the same skip fails the test, so CI never passes a test that did not run.

/// The variable that turns every skip into a failure.
pub const STRICT: &str = "MO_MEM_STRICT";

/// Whether skips are failures: `MO_MEM_STRICT=1`; unset, empty or `0` allow them. Any other
/// value fails the test (a typo must not quietly allow skips).
pub fn strict() -> bool {
    match std::env::var(STRICT) {
        Err(std::env::VarError::NotPresent) => false,
        Ok(v) if v.is_empty() || v == "0" => false,
        Ok(v) if v == "1" => true,
        Ok(v) => panic!("{STRICT}={v:?}: expected 1 (skips fail) or 0 (skips allowed)"),
        Err(e) => panic!("{STRICT}: {e}"),
    }
}

/// Reports that the calling test skips its body because of `why` (the caller then returns);
/// under `MO_MEM_STRICT=1` panics instead, naming the reason.
pub fn skipped(why: &str) {
    if strict() {
        panic!("cannot run: {why} ({STRICT}=1: a skip is a failure)");
    }
    eprintln!("SKIPPED: {why} (with {STRICT}=1 this fails)");
}
