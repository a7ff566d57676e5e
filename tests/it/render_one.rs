//! One renderer: a Motoko value prints the same `debug_show` text and the same JSON bytes
//! whether it comes from a snapshot's heap (`mo-mem vars`), from a script reading that
//! variable (`mo-mem eval SNAPSHOT 'vars.x'`) or from a script literal of the same value,
//! cut-off forms (`{"deep":null}`, `{"cut":null}`) included.

use crate::common;

use std::process::Command;
use std::rc::Rc;

use mo_mem::heap::value::Value as HeapValue;
use mo_mem::script::value::Value as ScriptValue;
use mo_mem::script::{Limits, Session};
use num_bigint::BigUint;

const BIN: &str = env!("CARGO_BIN_EXE_mo-mem");

fn mo_mem(args: &[&str]) -> String {
    let out = Command::new(BIN).args(args).output().unwrap();
    assert!(
        out.status.success(),
        "mo-mem {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// The raw bytes of `"value"` in `eval --json`'s one-line answer (its last key; the keys
/// before it hold only strings, where `"` is escaped, so the first `,"value":` is it).
fn value_bytes(answer: &str) -> String {
    let (_, rest) = answer
        .split_once(",\"value\":")
        .unwrap_or_else(|| panic!("no value in {answer}"));
    let rest = rest.trim_end();
    rest.strip_suffix('}')
        .unwrap_or_else(|| panic!("not one object: {answer}"))
        .to_string()
}

/// `debug_show` text and JSON bytes of `script` evaluated over `snap` (canister floats;
/// collections as their structure, `--raw`, as a script literal builds them).
fn over_snapshot(snap: &str, script: &str) -> (String, String) {
    let text = mo_mem(&["eval", snap, script]);
    let json = value_bytes(&mo_mem(&["eval", snap, "--json", "--raw", script]));
    (text, json)
}

/// `debug_show` text and JSON bytes of variable `name`, as `mo-mem vars` prints them
/// (collections as their structure, `--raw`: their natural views are checked in
/// `collections_natural`).
fn from_heap(snap: &str, name: &str) -> (String, String) {
    let text = mo_mem(&["vars", snap, name]);
    let json = mo_mem(&["vars", snap, name, "--format", "json", "--raw"]);
    (text, json.trim_end().to_string())
}

/// Checks variable `name` against `vars.name` and against `literal`, over the snapshot
/// (canister floats) and, for JSON (and text when `floats_free`), in a plain session.
fn check(snap: &str, name: &str, literal: &str, floats_free: bool) {
    let (text, json) = from_heap(snap, name);
    assert_eq!(
        over_snapshot(snap, &format!("vars.{name}")),
        (text.clone(), json.clone()),
        "vars.{name}"
    );
    assert_eq!(
        over_snapshot(snap, literal),
        (text.clone(), json.clone()),
        "{name} as a literal over the snapshot: {literal}"
    );
    let ev = Session::new(Limits::default())
        .eval(literal)
        .unwrap_or_else(|e| panic!("{literal}: {e}"));
    assert_eq!(
        value_bytes(&ev.to_json()),
        json,
        "{name} as a plain literal"
    );
    if floats_free {
        assert_eq!(ev.render(), text, "{name} as a plain literal");
    }
}

/// Records, variants, options, arrays, tuples, texts, blobs, principals, Nat/Int and floats
/// of the `compound` and `scalars` fixtures, written as literals by hand from their
/// `expected.json` (the canister's own `debug_show`).
#[test]
fn fixture_values_render_the_same_from_heap_and_script() {
    let compound = common::fixture("compound", "eop");
    let c = compound.to_str().unwrap();
    for (name, literal, floats_free) in [
        (
            "nested_record",
            r#"{flag = true; outer = {inner = {deep = "yes"; n = 3}; list = [1, 2]}}"#,
            true,
        ),
        (
            "people",
            r#"[{age = 16; name = "Bo"; score = null; tags = ["x"]}, {age = 2; name = "Cy"; score = ?(-1.0); tags = []}]"#,
            false,
        ),
        (
            "person",
            r#"{age = 39; name = "Ada"; score = ?9.5; tags = ["math", "engines"]}"#,
            false,
        ),
        ("var_mix", r#"#mix({name = "m"; weight = 0.5})"#, false),
        (
            "var_maybe_some",
            "#maybe(?(#maybe(?(#rgb(1, 2, 3)))))",
            true,
        ),
        ("opt_of_opts", r#"[null, ?null, ??"deep"]"#, true),
        ("opt3_null", "??null", true),
        ("opt_record", "?{x = -1}", true),
        ("tup_nested", r#"((1, 2), ("x", (true, null)))"#, true),
        ("tup3", "(-3, false, 'z')", true),
        ("result_err", r#"#err("bad")"#, true),
        (
            "arr_var",
            "let a : [var Int] = [var -1, -3_000_000_000_000, 1]; a",
            true,
        ),
        ("arr_text", r#"["a", "", "ü"]"#, true),
        ("txt_unicode", r#""héllo wörld — λ 😀 ∑""#, true),
        (
            "blob_bytes",
            r#"let b : Blob = "\00\01\7F\80\FF\22\5C\0A\01\02\03"; b"#,
            true,
        ),
        (
            "pr_user",
            r#"import Principal "mo:core/Principal"; Principal.fromText("subz5-366vw-7o6aa-baibq-ibiga-4easc-qlbqg-q4dyq-cejbg-favcy-lqe")"#,
            true,
        ),
    ] {
        check(c, name, literal, floats_free);
    }
    let scalars = common::fixture("scalars", "eop");
    let s = scalars.to_str().unwrap();
    for (name, literal, floats_free) in [
        (
            "nat_huge",
            "1_606_938_044_258_990_275_541_962_092_341_162_602_522_202_993_782_792_835_301_376",
            true,
        ),
        (
            "int_big_neg",
            "(-170_141_183_460_469_231_731_687_303_715_884_105_729)",
            true,
        ),
        ("int_pos", "(7 : Int)", true),
        ("flt_neg", "(-2.5)", false),
        ("flt_quarter", "3.25", false),
        ("flt_tenth", "0.1", false),
    ] {
        check(s, name, literal, floats_free);
    }
}

/// `collections`' `pure_list` (multiples of 4 from 2,956 down to 0, without 1,960 to 1,996:
/// read off its `expected.json`) is 730 levels deep: its JSON is cut at 100 levels, the
/// same bytes whichever way the list was reached, and its text is whole.
#[test]
fn deep_values_are_cut_the_same_from_heap_and_script() {
    let snap = common::fixture("collections", "eop");
    let s = snap.to_str().unwrap();
    let literal = "type N = ?(Nat, N); var l : N = null; var i = 0; \
                   while (i <= 2956) { if (i < 1960 or i > 1996) { l := ?(i, l) }; i += 4 }; l";
    check(s, "pure_list", literal, true);
    let (text, json) = from_heap(s, "pure_list");
    assert_eq!(json.matches("{\"deep\":null}").count(), 1, "{json}");
    assert!(json.starts_with("[2956,[2952,"), "{json}");
    // 100 levels of `[n,` before the cut, each element a multiple of 4.
    let before_cut = json.split("{\"deep\":null}").next().unwrap();
    assert_eq!(before_cut.matches('[').count(), 100);
    assert_eq!(text.matches('?').count(), 730, "the text is never cut");
}

/// A value past the JSON writer's budget of values is cut with `{"cut":null}` at the same
/// place, whether the heap or a script holds it.
#[test]
fn large_values_are_cut_the_same_from_heap_and_script() {
    let n = mo_mem::heap::render::MAX_JSON_NODES + 10;
    let heap = HeapValue::Array {
        addr: 0x1000,
        mutable: false,
        items: (0..n as u64)
            .map(|i| HeapValue::Nat(BigUint::from(i)))
            .collect(),
    };
    let script = ScriptValue::Array(Rc::from(
        (0..n as u64).map(ScriptValue::Nat).collect::<Vec<_>>(),
    ));
    let from_heap = mo_mem::heap::render::to_json(&heap);
    let from_script = mo_mem::script::json::to_json(&script);
    assert!(from_heap == from_script, "the two renderings differ");
    // The array itself is the first value: elements 0 .. MAX-2 are written, then cuts.
    let cuts = from_heap.matches("{\"cut\":null}").count();
    assert_eq!(cuts, 11);
    let last = mo_mem::heap::render::MAX_JSON_NODES - 2;
    assert!(from_heap.contains(&format!(",{last},{{\"cut\":null}}")));
    // A script builds the same array: the same bytes again.
    let src = format!("import Array \"mo:core/Array\"; Array.tabulate<Nat>({n}, func i = i)");
    let limits = Limits {
        max_steps: u64::MAX,
        deadline: std::time::Duration::from_secs(600),
        max_memory: 1 << 34,
        max_output: u64::MAX,
        ..Limits::default()
    };
    let ev = Session::new(limits).eval(&src).unwrap();
    assert!(value_bytes(&ev.to_json()) == from_heap);
    assert_eq!(
        mo_mem::heap::render::debug_show(&heap),
        mo_mem::script::show::canister_show(&script)
    );
}

/// Every stable variable of the fixtures with cycles, deep lists, weak references and regions
/// prints the same through `eval 'vars.x'` as through `mo-mem vars`, text and JSON.
#[test]
fn every_variable_reads_the_same_through_eval() {
    let mut compared = 0;
    for name in ["collections", "weak", "regions"] {
        let snap = common::fixture(name, "eop");
        let s = snap.to_str().unwrap();
        let all: serde_json::Map<String, serde_json::Value> =
            serde_json::from_str(&mo_mem(&["vars", s, "--format", "json"])).unwrap();
        for var in all.keys() {
            assert_eq!(
                over_snapshot(s, &format!("vars.{var}")),
                from_heap(s, var),
                "{name}: vars.{var}"
            );
            compared += 1;
        }
    }
    assert!(compared >= 20, "{compared} variables");
}

/// Variables read lazily (one level at a time: here every compound one, the session's
/// eager threshold being one node) render the same text and JSON bytes as `mo-mem vars`.
#[test]
fn lazily_read_variables_render_like_the_heap() {
    use mo_mem::script::host::context::SnapshotContext;
    use mo_mem::script::setup::install_with;
    use mo_mem::script::show::canister_show;
    use std::sync::Arc;
    let mut compared = 0;
    for name in ["compound", "collections"] {
        let dir = common::fixture(name, "eop");
        let s = dir.to_str().unwrap();
        let all: serde_json::Map<String, serde_json::Value> =
            serde_json::from_str(&mo_mem(&["vars", s, "--format", "json"])).unwrap();
        let ctx = Arc::new(SnapshotContext::open(&dir).expect("context"));
        let mut session = Session::new(Limits::default());
        install_with(&mut session, ctx, 1);
        for var in all.keys() {
            let ev = session
                .eval(&format!("vars.{var}"))
                .unwrap_or_else(|e| panic!("{name}: vars.{var}: {e}"));
            let (text, json) = from_heap(s, var);
            assert_eq!(
                format!("{}\n", canister_show(&ev.value)),
                text,
                "{name}: {var}"
            );
            assert_eq!(value_bytes(&ev.to_json()), json, "{name}: {var}");
            compared += 1;
        }
    }
    assert!(compared >= 90, "{compared} variables");
}
