//! Scripts run over a fixture snapshot in one session, as the tests of the host values
//! need them.

use mo_mem::script::host::context::SnapshotContext;
use mo_mem::script::show::canister_show;
use mo_mem::script::{self, Limits, Session, Value};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Runs each script in one session over `dir` under `limits`, values of more than
/// `eager_nodes` nodes read lazily; returns each value (a text as itself, anything else in
/// canister style) or its error.
pub fn eval_scripts(
    dir: &Path,
    scripts: &[String],
    eager_nodes: u64,
    limits: Limits,
) -> Vec<Result<String, String>> {
    let (dir, scripts): (PathBuf, Vec<String>) = (dir.to_path_buf(), scripts.to_vec());
    script::on_eval_thread(move || {
        let ctx = Arc::new(SnapshotContext::open(&dir).expect("context"));
        let mut s = Session::new(limits);
        mo_mem::script::setup::install_with(&mut s, ctx, eager_nodes);
        scripts
            .iter()
            .map(|src| match s.eval(src) {
                Ok(ev) => Ok(match &ev.value {
                    Value::Text(t) => t.to_string(),
                    v => canister_show(v),
                }),
                Err(e) => Err(e.to_string()),
            })
            .collect()
    })
    .expect("eval thread")
}
