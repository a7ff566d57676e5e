//! Stable variables read lazily (too large to decode at once) answer what a script asks of
//! them exactly as decoded ones do: `a[i]`, `o!`, `==`, `keys()` and the library functions
//! that take arrays; and a huge array's element is read without listing the array.
//!
//! Each answer is checked twice: against the same script with every value decoded at once,
//! and against a value computed here from the decoder's own reading of the variable.

use crate::common;

use mo_mem::heap::render::debug_show;
use mo_mem::heap::value::{heap_signature, signature_decoder, stable_variables, Value as HV};
use mo_mem::heap::Heap;
use mo_mem::image::ReaderLimits;
use mo_mem::script::host::lazy::EAGER_NODES;
use mo_mem::script::Limits;
use mo_mem::snapshot::Snapshot;
use num_bigint::BigUint;
use std::path::Path;

/// Each script's answer (a text as itself, anything else as `debug_show`) or its error,
/// with values of more than `eager_nodes` nodes read lazily, under `limits`.
fn run(dir: &Path, scripts: &[String], eager_nodes: u64, limits: Limits) -> Vec<String> {
    common::eval_scripts(dir, scripts, eager_nodes, limits)
        .into_iter()
        .map(|r| r.unwrap_or_else(|e| format!("error: {e}")))
        .collect()
}

/// Every stable variable of `dir`, decoded whole by the decoder.
fn decoded_vars(dir: &Path) -> Vec<(String, HV)> {
    let heap = Heap::open(
        Snapshot::open(dir).expect("snapshot"),
        ReaderLimits::default(),
    )
    .expect("heap");
    let sig = heap_signature(&heap).expect("signature");
    let vars = stable_variables(&heap, &sig).expect("vars");
    let mut d = signature_decoder(&heap, &sig);
    vars.iter()
        .map(|v| (v.name.to_string(), d.deep(&v.value).expect("decode")))
        .collect()
}

fn var<'a>(vars: &'a [(String, HV)], name: &str) -> &'a HV {
    &vars.iter().find(|(n, _)| n == name).expect(name).1
}

fn items(v: &HV) -> &[HV] {
    match v {
        HV::Array { items, .. } | HV::Tuple { items, .. } => items,
        other => panic!("not an array: {other:?}"),
    }
}

fn field<'a>(v: &'a HV, name: &str) -> &'a HV {
    match v {
        HV::Record { fields, .. } => &fields.iter().find(|f| &*f.label == name).expect(name).value,
        other => panic!("not a record: {other:?}"),
    }
}

fn nat(v: &HV) -> BigUint {
    match v {
        HV::Nat(n) => n.clone(),
        other => panic!("not a Nat: {other:?}"),
    }
}

fn text(v: &HV) -> String {
    match v {
        HV::Text(t) => t.clone(),
        other => panic!("not a Text: {other:?}"),
    }
}

/// Motoko's `debug_show` of a `Nat` (`1_000`).
fn nat_show(n: &BigUint) -> String {
    debug_show(&HV::Nat(n.clone()))
}

/// The answers every `compound` snapshot must give, computed from the decoded variables.
fn checks(vars: &[(String, HV)]) -> Vec<(String, String)> {
    let arr_nat = items(var(vars, "arr_nat"));
    let arr_big = items(var(vars, "arr_big"));
    let big_sum: BigUint = arr_big.iter().map(nat).sum();
    let keys_sum = (arr_big.len() * arr_big.len().saturating_sub(1)) / 2;
    let nested = items(var(vars, "arr_nested"));
    let people = items(var(vars, "people"));
    let tuples = items(var(vars, "arr_tuples"));
    let opt_some = match var(vars, "opt_some") {
        HV::Opt { value, .. } => debug_show(value),
        other => panic!("opt_some: {other:?}"),
    };
    let nat_literal = arr_nat
        .iter()
        .map(|n| nat(n).to_string())
        .collect::<Vec<_>>()
        .join(", ");
    vec![
        ("vars.arr_nat[3]".into(), debug_show(&arr_nat[3])),
        (
            "vars.arr_nat[vars.arr_nat.size()]".into(),
            "error: script:1.1-1.34: execution error, index out of bounds".into(),
        ),
        ("vars.arr_nested[2][1]".into(), debug_show(&items(&nested[2])[1])),
        ("vars.people[1].name".into(), text(field(&people[1], "name"))),
        ("vars.arr_tuples[1].1".into(), text(&items(&tuples[1])[1])),
        (
            "vars.nested_record.outer.list[1]".into(),
            debug_show(&items(field(field(var(vars, "nested_record"), "outer"), "list"))[1]),
        ),
        ("do ? { vars.opt_some! }".into(), format!("?{opt_some}")),
        ("do ? { vars.opt_null! }".into(), "null".into()),
        (format!("vars.arr_nat == [{nat_literal}]"), "true".into()),
        (format!("vars.arr_nat != [{nat_literal}, 0]"), "true".into()),
        ("vars.tree == vars.tree".into(), "true".into()),
        ("vars.colors == vars.colors".into(), "true".into()),
        (
            "vars.let_record == {a = 1; b = \"two\"; c = [3, 4]}".into(),
            "true".into(),
        ),
        (
            "vars.arr_var == vars.arr_var".into(),
            "error: script:1.1-1.29: execution error, `==` is not defined on mutable arrays: \
             moc rejects the comparison"
                .into(),
        ),
        (
            "var n = 0; for (i in vars.arr_big.keys()) { n += i }; n".into(),
            nat_show(&BigUint::from(keys_sum)),
        ),
        (
            "import Array \"mo:core/Array\"; Array.foldLeft<Nat, Nat>(vars.arr_big, 0, func (a, x) = a + x)".into(),
            nat_show(&big_sum),
        ),
        (
            "import Array \"mo:core/Array\"; Array.size(vars.arr_big) + (if (Array.isEmpty(vars.arr_big)) 1 else 0)".into(),
            nat_show(&BigUint::from(arr_big.len())),
        ),
        (
            "import Array \"mo:core/Array\"; Array.values(vars.arr_big).next()".into(),
            format!("?{}", debug_show(&arr_big[0])),
        ),
        (
            "import Array \"mo:core/Array\"; Array.map<Nat, Nat>(vars.arr_nat, func x = x)".into(),
            debug_show(var(vars, "arr_nat")),
        ),
    ]
}

#[test]
fn values_read_lazily_answer_as_decoded_ones() {
    for mode in [
        "compacting",
        "copying",
        "generational",
        "incremental",
        "eop",
    ] {
        let dir = common::fixture("compound", mode);
        let vars = decoded_vars(&dir);
        let (scripts, want): (Vec<String>, Vec<String>) = checks(&vars).into_iter().unzip();
        let eager = run(&dir, &scripts, EAGER_NODES, Limits::default());
        let lazy = run(&dir, &scripts, 1, Limits::default());
        for (((src, want), eager), lazy) in scripts.iter().zip(&want).zip(&eager).zip(&lazy) {
            assert_eq!(eager, want, "compound/{mode}, decoded whole: {src}");
            assert_eq!(lazy, want, "compound/{mode}, read lazily: {src}");
        }
    }
}

/// What a script cannot do to a lazily read value it is told plainly (a snapshot's huge
/// value is read, not copied), naming the value by its shape, never by its (huge) text.
#[test]
fn changing_a_value_read_lazily_is_refused_by_name() {
    let dir = common::fixture("compound", "eop");
    let got = run(
        &dir,
        &[
            "vars.arr_var[0] := 5".to_string(),
            "vars.arr_var.put(0, 5)".to_string(),
            "vars.arr_big.nothing()".to_string(),
        ],
        1,
        Limits::default(),
    );
    let n = items(var(&decoded_vars(&dir), "arr_var")).len();
    let cannot = "a script cannot change what it reads lazily (copy it first, for example \
                  with `VarArray.clone`)";
    assert_eq!(
        got,
        vec![
            format!(
                "error: script:1.1-1.16: execution error, cannot assign into a mutable array \
                 of {n} elements read lazily from the snapshot: {cannot}"
            ),
            format!(
                "error: script:1.1-1.23: execution error, cannot change a mutable array of {n} \
                 elements read lazily from the snapshot: {cannot}"
            ),
            "error: script:1.1-1.23: execution error, an array of 1000 elements read lazily \
             from the snapshot has no method nothing"
                .to_string(),
        ]
    );
}

/// One element of an 8.5-million-element array is read without listing the array: within
/// a memory budget of 4 MiB, which the array's element list alone would exceed 30 times.
#[test]
fn an_element_of_a_huge_array_is_read_alone() {
    let Some(root) = common::generated_fixture("big-small") else {
        return;
    };
    let dir = root.join("eop");
    let large = match var(&decoded_vars(&dir), "large") {
        HV::Array { items, .. } => items.clone(),
        other => panic!("large: {other:?}"),
    };
    assert!(
        large.len() > 1_000_000,
        "large has {} elements",
        large.len()
    );
    let limits = Limits {
        max_memory: 4 << 20,
        ..Limits::default()
    };
    let got = run(
        &dir,
        &[
            "vars.large[5]".to_string(),
            "vars.large[vars.large.size() - 1]".to_string(),
            "import Array \"mo:core/Array\"; Array.size(vars.large)".to_string(),
            "vars.large == vars.large".to_string(),
        ],
        EAGER_NODES,
        limits,
    );
    assert_eq!(
        got[..3],
        [
            debug_show(&large[5]),
            debug_show(&large[large.len() - 1]),
            nat_show(&BigUint::from(large.len())),
        ]
    );
    // taking it apart whole is refused before any element is read
    assert_eq!(
        got[3],
        format!(
            "error: script:1.1-1.25: execution error, a mutable array of {} elements read \
             lazily from the snapshot is too large to take apart whole (more than 1048576 \
             elements): compare or copy parts of it",
            large.len()
        )
    );
}
