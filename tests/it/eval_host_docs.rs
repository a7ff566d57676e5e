//! `docs/eval-host.md` stays true: every `motoko` example runs over the `compound` fixture
//! (eop) and prints the `text` block after it.

use crate::common;

use mo_mem::script::host::context::SnapshotContext;
use mo_mem::script::setup::install;
use mo_mem::script::setup::install_canister;
use mo_mem::script::show::render;
use mo_mem::script::{self, Limits, Session};
use mo_mem::serve::methods::ScriptCanister;
use std::path::Path;
use std::sync::Arc;

#[test]
fn every_example_in_eval_host_md_runs() {
    let md =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/eval-host.md"))
            .expect("docs/eval-host.md");
    let ex = common::doc_examples::motoko_examples(&md);
    assert!(ex.len() >= 8, "only {} examples", ex.len());
    let dir = common::fixture("compound", "eop");
    let results = script::on_eval_thread(move || {
        let ctx = Arc::new(SnapshotContext::open(&dir).expect("snapshot"));
        ex.into_iter()
            .map(|(src, want)| {
                let mut s = Session::new(Limits::default());
                let canister = Arc::new(ScriptCanister::over_heap(ctx.clone()));
                install(&mut s, ctx.clone());
                install_canister(&mut s, canister);
                let got = match s.eval(&src) {
                    Ok(ev) => render(&ev),
                    Err(e) => format!("error: {e}\n"),
                };
                (src, want, got)
            })
            .collect::<Vec<_>>()
    })
    .expect("eval thread");
    for (src, want, got) in results {
        assert_eq!(got, want, "example:\n{src}");
    }
}

#[test]
fn eval_host_md_console_examples_are_true() {
    let checked = common::doc_examples::check_console_examples("docs/eval-host.md");
    assert!(checked >= 2, "only {checked} examples found");
}
