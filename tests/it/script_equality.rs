//! `==` never answers where moc's answer depends on a static type mo-mem does not know,
//! nor on the types moc's type checker rejects: those comparisons are moc's type error.

use mo_mem::script::{self, session::moc_compat, Limits};

fn run(src: &str) -> String {
    let src = src.to_string();
    script::on_eval_thread(move || moc_compat(&src, "eq.mo", Limits::default()))
        .expect("evaluation thread")
}

#[test]
fn comparisons_moc_rejects_are_its_type_errors() {
    // the checker sees the operands' types: moc's M0060, at the comparison (the engine's
    // trap with the reason stays for operands the checker cannot type)
    for src in [
        "func f() {}; f == f",
        "let a = [var 1]; a == a",
        "let r = { var x = 1 }; r == r",
        "let o = object { public func f() : Nat = 1 }; o == o",
    ] {
        let out = run(src);
        assert!(
            out.contains("type error [M0060], operator is not defined for operand types"),
            "{src}: {out}"
        );
    }
}

#[test]
fn comparisons_at_a_checked_static_type_answer_as_moc() {
    // the checker finds the static type: `Any` (always equal in moc's interpreter) and the
    // least upper bound `{ x : Nat }` of the two results (moc: `true` both)
    let out = run("func mk(b : Bool) : Any = if b 1 else \"one\";\nmk(true) == mk(false)");
    assert_eq!(out, "true : Bool\n");
    let out = run(
        "let a = { x = 1; y = 2 };\nlet b = { x = 1 };\nfunc id<T>(t : T) : T = t;\nid(a) == id(b)",
    );
    assert_eq!(out, "true : Bool\n");
}

#[test]
fn declared_types_decide_which_fields_count() {
    let src = "let a : { x : Nat } = { x = 1; y = 2 };\nlet b : { x : Nat } = { x = 1; y = 3 };\n\
               let c = { x = 1; y = 2 };\n(a == b, [a] == [b], ?a == ?b, (a, 0) == (b, 0), c == { x = 1; y = 3 })";
    assert_eq!(run(src), "(true, true, true, true, false) : tuple\n");
    // `Any` and type parameters: always equal, as in moc's interpreter
    let src =
        "func same<T>(a : T, b : T) : Bool = a == b;\n(same(1, 2), (1 : Any) == (\"x\" : Any))";
    assert_eq!(run(src), "(true, true) : tuple\n");
}
