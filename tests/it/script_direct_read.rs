//! The fast reads of huge values' parts give exactly what the ordinary decoding gives.
//!
//! - `direct::read` (a part of plain data read straight into a script value) against
//!   `to_script(Decoder::deep(part))`, for every part of every stable variable of every
//!   committed fixture: equal values, the same canister `debug_show` text, the same size
//!   charged to the memory budget.
//! - Loops that only look into their variable (they bind light references into the heap)
//!   against the same loops made to bind decoded values (the variable also copied with
//!   `let`), over every array of records or arrays the fixtures hold, read lazily (every
//!   compound one level at a time) and eagerly.

use crate::common;

use mo_mem::heap::types::Type;
use mo_mem::heap::value::{stable_variables, Decoder, LazyValue, Value as HeapValue};
use mo_mem::script::host::context::SnapshotContext;
use mo_mem::script::host::convert::{to_script, AddressBook};
use mo_mem::script::host::direct::{self, Plans};
use mo_mem::script::host::value_bytes;
use mo_mem::script::show::canister_show;
use mo_mem::script::value::ord::equal;
use mo_mem::script::{self, Limits, Session, Value};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Parts compared per variable at most (the fixtures' largest arrays are 1000 elements).
const MAX_PARTS: usize = 20_000;

/// Compares the direct read with the ordinary decoding for every part of every variable
/// of the snapshot at `dir`; returns how many parts were read directly.
fn compare_parts(dir: &Path) -> usize {
    let ctx = SnapshotContext::open(dir).expect("context");
    let Ok(sig) = ctx.signature() else {
        return 0;
    };
    let vars = stable_variables(ctx.heap(), sig).expect("variables");
    let plans = Plans::default();
    let mut direct = 0;
    for var in vars {
        let mut stack: Vec<LazyValue> = vec![var.value.clone()];
        let mut parts = 0;
        while let Some(lazy) = stack.pop() {
            parts += 1;
            if parts > MAX_PARTS {
                break;
            }
            let mut d = ctx.decoder().expect("decoder");
            let plan = lazy.ty.as_ref().and_then(|ty| plans.plan(&sig.env, ty));
            if let Some(plan) = plan {
                let read = direct::read(&mut d, &plan, &lazy);
                let mut d2 = ctx.decoder().expect("decoder");
                match (read, d2.deep(&lazy)) {
                    (Some(read), Ok(deep)) => {
                        let book = AddressBook::default();
                        let want = to_script(&deep, &book);
                        let at = format!(
                            "{} variable {} part {:#x}",
                            dir.display(),
                            var.name,
                            lazy.word
                        );
                        let shown = canister_show(&want);
                        // (NaN is not equal to itself: the texts decide there.)
                        assert!(
                            equal(&read.value, &want) || shown.to_lowercase().contains("nan"),
                            "{at}: values differ"
                        );
                        assert_eq!(canister_show(&read.value), shown, "{at}");
                        assert_eq!(read.bytes, value_bytes(&want), "{at}: sizes differ");
                        assert_eq!(read.addr, deep.addr(), "{at}: addresses differ");
                        direct += 1;
                    }
                    (None, Ok(deep)) => {
                        // Only a cycle makes a plain value unreadable directly.
                        assert!(
                            format!("{deep:?}").contains("Cycle"),
                            "{} variable {}: a plain part read only by the decoder",
                            dir.display(),
                            var.name
                        );
                    }
                    (Some(_), Err(e)) => panic!(
                        "{} variable {}: read directly, the decoder says {e}",
                        dir.display(),
                        var.name
                    ),
                    (None, Err(_)) => {}
                }
            }
            // The parts, one level down.
            let mut d = ctx.decoder().expect("decoder");
            if let Ok(shallow) = d.shallow_raw(&lazy) {
                push_parts(&shallow, &mut stack);
            }
        }
    }
    direct
}

fn push_parts(v: &HeapValue, stack: &mut Vec<LazyValue>) {
    for i in 0..v.child_count() {
        if let Some(HeapValue::Lazy(l)) = v.child(i) {
            stack.push(l.clone());
        }
    }
}

#[test]
fn direct_reads_equal_decoded_parts_in_every_fixture() {
    let mut total = 0;
    for (name, mode, dir) in common::all_fixtures() {
        let n = compare_parts(&dir);
        eprintln!("{name}/{mode}: {n} parts read directly");
        total += n;
    }
    assert!(total > 1000, "only {total} parts were read directly");
}

/// `src`'s canister-style value, compounds of more than `eager_nodes` nodes read lazily.
fn eval(dir: &Path, src: &str, eager_nodes: u64) -> String {
    let dir: PathBuf = dir.to_path_buf();
    let src = src.to_string();
    script::on_eval_thread(move || {
        let ctx = Arc::new(SnapshotContext::open(&dir).expect("context"));
        let mut s = Session::new(Limits::default());
        mo_mem::script::setup::install_with(&mut s, ctx, eager_nodes);
        match s.eval(&src) {
            Ok(ev) => match &ev.value {
                Value::Text(t) => t.to_string(),
                v => canister_show(v),
            },
            Err(e) => format!("error: {e}"),
        }
    })
    .expect("eval thread")
}

/// The statements showing every part of loop variable `x` of type `ty` that a looked-into
/// loop may read (fields of records, elements and sizes of arrays, recursively), reading
/// through `via` (`x` itself, or a copy that makes the loop bind decoded values).
fn show_parts(d: &Decoder<'_>, x: &str, via: &str, ty: &Arc<Type>, depth: u32) -> Option<String> {
    let ty = d.type_of(&LazyValue::typed(0, ty.clone())).ok()??;
    Some(match &*ty {
        Type::Object { fields, .. } => fields
            .iter()
            .map(|f| {
                format!(
                    "t #= \"{}=\" # debug_show({via}.{}) # \";\";",
                    f.label, f.label
                )
            })
            .collect(),
        Type::Array { elem, .. } if depth < 3 => {
            let y = format!("{x}_{depth}");
            let copy = if via == x { y.clone() } else { format!("{y}c") };
            let bind = if via == x {
                String::new()
            } else {
                format!("let {copy} = {y}; ")
            };
            let inner = show_parts(d, &y, &copy, elem, depth + 1)
                .unwrap_or_else(|| format!("t #= debug_show({copy}) # \",\";"));
            format!(
                "t #= debug_show({via}.size()) # \"[\"; for ({y} in {via}.vals()) {{ {bind}{inner} }}; t #= \"]\";"
            )
        }
        _ => return None,
    })
}

#[test]
fn looked_into_loops_read_what_decoded_values_hold() {
    let mut loops = 0;
    for (name, mode, dir) in common::all_fixtures() {
        let ctx = SnapshotContext::open(&dir).expect("context");
        let Ok(sig) = ctx.signature() else {
            continue;
        };
        let d = ctx.decoder().expect("decoder");
        for var in stable_variables(ctx.heap(), sig).expect("variables") {
            let Ok(Some(norm)) = d.type_of(&var.value) else {
                continue;
            };
            let Type::Array { elem, .. } = &*norm else {
                continue;
            };
            let (Some(viewed), Some(copied)) = (
                show_parts(&d, "x", "x", elem, 0),
                show_parts(&d, "x", "xc", elem, 0),
            ) else {
                continue;
            };
            let var_ref = format!("vars.get(\"{}\")", var.name);
            let head =
                format!("var t = \"\"; switch ({var_ref}) {{ case (?v) {{ for (x in v.vals()) {{ ");
            let viewed = format!("{head}{viewed} }} }}; case null {{}} }}; t");
            let copied = format!("{head}let xc = x; {copied} }} }}; case null {{}} }}; t");
            for eager_nodes in [1, mo_mem::script::host::lazy::EAGER_NODES] {
                let want = eval(&dir, &copied, eager_nodes);
                let got = eval(&dir, &viewed, eager_nodes);
                assert!(
                    !want.starts_with("error"),
                    "{name}/{mode} {}: {copied}: {want}",
                    var.name
                );
                assert_eq!(
                    got, want,
                    "{name}/{mode} {} (eager up to {eager_nodes}): {viewed}",
                    var.name
                );
            }
            loops += 1;
        }
    }
    assert!(
        loops >= 10,
        "only {loops} arrays of records or arrays in the fixtures"
    );
}
