//! `docs/eval.md` stays true: every `motoko` example runs and prints the `text` block
//! after it, and every built-in module is documented.

use crate::common;

use mo_mem::script::{self, Limits, ScriptError, Session};
use std::path::Path;

fn run(src: String) -> String {
    script::on_eval_thread(move || {
        let limits = Limits {
            max_steps: 1_000_000,
            ..Limits::default()
        };
        let mut s = Session::new(limits);
        match s.eval(&src) {
            Ok(ev) => ev.render(),
            Err(e @ ScriptError::Trap { .. }) => {
                let out = match &e {
                    ScriptError::Trap { output, .. } => output.clone(),
                    _ => String::new(),
                };
                format!("{out}error: {e}\n")
            }
            Err(e) => format!("error: {e}\n"),
        }
    })
    .expect("evaluation thread")
}

#[test]
fn every_example_in_eval_md_runs() {
    let md = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/eval.md"))
        .expect("docs/eval.md");
    let ex = common::doc_examples::motoko_examples(&md);
    assert!(ex.len() >= 6, "only {} examples found", ex.len());
    for (src, expected) in ex {
        assert_eq!(run(src.clone()), expected, "example:\n{src}");
    }
}

#[test]
fn every_builtin_module_is_documented() {
    let md = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/eval.md"))
        .expect("docs/eval.md");
    let lib_start = md.find("## The library").expect("a library section");
    let md = &md[lib_start..];
    for m in script::lib::all_modules() {
        let line = md
            .lines()
            .position(|l| {
                l.starts_with(&format!("- `{}`", m.name)) || l.contains(&format!(", `{}`", m.name))
            })
            .unwrap_or_else(|| panic!("module {} is not documented", m.name));
        let section: String = md.lines().skip(line).take(8).collect::<Vec<_>>().join("\n");
        for b in m.members {
            let generic = [
                "compare",
                "equal",
                "notEqual",
                "less",
                "lessOrEqual",
                "greater",
                "greaterOrEqual",
                "min",
                "max",
                "add",
                "sub",
                "mul",
                "div",
                "rem",
                "pow",
            ];
            assert!(
                section.contains(&format!("`{}`", b.name)) || generic.contains(&b.name),
                "{}.{} is not documented",
                m.name,
                b.name
            );
        }
    }
}
