//! Fuzz target: the script evaluator with small limits, over a fixture's host values
//! (`image`, `heap`, `vars` of `compound/eop`), twice in one session (REPL state).
#![no_main]

use libfuzzer_sys::fuzz_target;
use mo_mem::script::host_snapshot::{install, SnapshotContext};
use mo_mem::script::Session;
use std::sync::Arc;

thread_local! {
    static CTX: Option<Arc<SnapshotContext>> = context();
}

fn context() -> Option<Arc<SnapshotContext>> {
    let fx = mo_mem_fuzz::fixtures().first()?;
    let snapshot = mo_mem::snapshot::Snapshot::from_parts(None, None, fx.memory.clone(), None)
        .ok()?
        .with_globals(fx.globals.clone());
    let heap = mo_mem::heap::Heap::open_with_module(
        snapshot,
        Some(fx.facts.clone()),
        mo_mem_fuzz::small_reader_limits(),
    )
    .ok()?;
    Some(Arc::new(SnapshotContext::new(heap)))
}

fuzz_target!(
    init: mo_mem_fuzz::write_seeds_if_asked("script_eval"),
    |data: &[u8]| {
        let Ok(src) = std::str::from_utf8(data) else { return };
        let mut session = Session::new(mo_mem_fuzz::small_script_limits());
        if let Some(ctx) = CTX.with(|c| c.clone()) {
            install(&mut session, ctx);
        }
        for _ in 0..2 {
            match session.eval(src) {
                Ok(ev) => {
                    let _ = ev.render();
                    let _ = ev.to_json();
                }
                Err(e) => {
                    let _ = e.to_string();
                }
            }
        }
    }
);
