//! The script type checker: programs moc rejects fail before they run, with moc's error
//! code and position (each case checked against the pinned moc by hand: its first error),
//! and REPL sessions keep the types of earlier definitions.

use mo_mem::script::{self, session::moc_compat, session::Session, Limits, Value};

fn run(src: &str) -> String {
    let src = src.to_string();
    script::on_eval_thread(move || moc_compat(&src, "t.mo", Limits::default()))
        .expect("evaluation thread")
}

#[test]
fn programs_moc_rejects_fail_with_its_code_and_position() {
    let cases: &[(&str, &str)] = &[
        ("let x : Text = 5;", "t.mo:1.16-1.17: type error [M0050], literal of type\n  Nat\ndoes not have expected type\n  Text"),
        ("func f(a : Nat) : Nat { a };\nf(\"x\");", "t.mo:2.3-2.6: type error [M0050]"),
        ("y;", "t.mo:1.1-1.2: type error [M0057], unbound variable y"),
        ("{a = 1}.b;", "type error [M0072], field b does not exist in type:\n  {a : Nat}"),
        ("let n : Nat8 = 3;\nlet m : Nat = 4;\nn + m;", "t.mo:3.1-3.6: type error [M0060], operator is not defined for operand types\n  Nat8\nand\n  Nat"),
        ("let x = 5;\nx.foo;", "t.mo:2.1-2.2: type error [M0070]"),
        ("let x = 5;\nx(3);", "t.mo:2.1-2.2: type error [M0097], expected function type"),
        ("let x : Foo = 5;", "type error [M0029], unbound type Foo"),
        ("let x : Nat = \"a\" # \"b\";", "t.mo:1.15-1.24: type error [M0096], expression of type\n  Text\ncannot produce expected type\n  Nat"),
        ("let t = (1, 2);\nt.3;", "t.mo:2.1-2.4: type error [M0066], tuple projection 3 is out of bounds"),
        ("let x : Nat8 = 300;", "t.mo:1.16-1.19: type error [M0048], literal out of range for type Nat8"),
        ("if (1) { 2 } else { 3 };", "t.mo:1.5-1.6: type error [M0050]"),
        ("let x = 1;\nx := 2;", "t.mo:2.1-2.7: type error [M0073], expected mutable assignment target"),
        ("let a = [1, 2];\na[0] := 3;", "t.mo:2.1-2.10: type error [M0073]"),
        ("func f() : Nat { 1 };\nf();\n2", "t.mo:2.1-2.4: type error [M0096]"),
        ("let x : Int = 1;\nlet y : Nat = x;", "t.mo:2.15-2.16: type error [M0096]"),
        ("let x : Nat = -1;", "t.mo:1.15-1.17: type error [M0050], literal of type\n  Int"),
        ("let z : Int8 = -129;", "t.mo:1.16-1.20: type error [M0048]"),
        ("let w : ?Nat = 1;", "t.mo:1.16-1.17: type error [M0050]"),
        ("let c : [var Int] = [var 1];\nlet d : [var Nat] = c;", "t.mo:2.21-2.22: type error [M0096]"),
        ("for (x in [1, 2]) {};", "t.mo:1.11-1.17: type error [M0082]"),
        ("func f() = 5;", "t.mo:1.12-1.13: type error [M0050]"),
        (
            "type Key = { id : Nat };\nlet k : Key = { name = \"x\" };",
            "t.mo:2.15-2.29: type error [M0151], missing field 'id' from expected type\n  {id : Nat}",
        ),
        (
            "import Map \"mo:core/Map\";\nimport Int \"mo:core/Int\";\nlet m = Map.empty<Int, Text>();\nlet x : Nat = m.add(1, \"a\");",
            "t.mo:4.15-4.28: type error [M0096], expression of type\n  ()\ncannot produce expected type\n  Nat",
        ),
        (
            "import Map \"mo:core/Map\";\nlet m = Map.empty<Nat, Text>();\nm.add(1, \"a\");",
            "t.mo:3.1-3.14: type error [M0230], Cannot determine implicit argument `compare` of type\n  (Nat, Nat) -> Order",
        ),
        (
            "import Text \"mo:core/Text\";\nText.join(\",\", [\"a\"].vals())",
            "t.mo:2.11-2.14: type error [M0050], literal of type\n  Text",
        ),
    ];
    for (src, want) in cases {
        let got = run(src);
        assert!(
            got.contains(want),
            "{src}\n--- want (part)\n{want}\n--- got\n{got}"
        );
        assert!(!got.contains("execution error"), "{src}: ran: {got}");
    }
}

#[test]
fn base_modules_keep_their_own_signatures() {
    // `mo:base/Text`'s `join` takes the separator first (mo:core's takes it last)
    let out = run("import Text \"mo:base/Text\";\nText.join(\",\", [\"a\", \"b\"].vals())");
    assert_eq!(out, "\"a,b\" : Text\n");
}

#[test]
fn a_type_error_stops_the_script_before_it_runs() {
    let out = run("import Debug \"mo:core/Debug\";\nDebug.print(\"ran\");\nlet x : Nat = \"no\";");
    assert!(!out.contains("ran"), "{out}");
    assert!(out.contains("[M0050]"), "{out}");
}

#[test]
fn sessions_keep_the_types_of_earlier_definitions() {
    let r = script::on_eval_thread(|| {
        let mut s = Session::new(Limits::default());
        s.eval("type P = { x : Int }; let p : P = { x = 1; y = 2 }; let q : P = { x = 1; y = 3 }")
            .map(|_| ())
            .map_err(|e| e.to_string())?;
        let eq = s.eval("p == q").map_err(|e| e.to_string())?.render();
        // a failed evaluation leaves the session's types as they were
        let bad = s.eval("let p : Text = 1").err().map(|e| e.to_string());
        let again = s.eval("p.x + 1").map_err(|e| e.to_string())?.render();
        Ok::<_, String>((eq, bad, again))
    })
    .expect("evaluation thread")
    .expect("evaluations");
    assert_eq!(r.0, "true\n");
    assert!(r.1.is_some_and(|e| e.contains("[M0050]")));
    assert_eq!(r.2, "+2\n");
}

#[test]
fn host_values_and_unmodelled_forms_are_not_rejected() {
    // a name the session binds outside the checker (as `vars`, `heap`) has an unknown type
    let r = script::on_eval_thread(|| {
        let mut s = Session::new(Limits::default());
        s.define_value("h", mo_mem::script::value::Value::Nat(5));
        s.eval("let t : Text = debug_show (h + 1); t")
            .map(|e| e.render())
            .map_err(|e| e.to_string())
    })
    .expect("evaluation thread");
    assert_eq!(r.as_deref(), Ok("\"6\"\n"));
}

/// A 1,000-line script of the usual forms (types, records, generics, library calls, loops).
pub fn thousand_lines() -> String {
    let mut s = String::from(
        "import Array \"mo:core/Array\";\nimport Map \"mo:core/Map\";\nimport Nat \"mo:core/Nat\";\n\
         import Text \"mo:core/Text\";\nimport Iter \"mo:core/Iter\";\n",
    );
    let mut lines = 5;
    let mut i = 0;
    while lines < 1000 {
        s.push_str(&format!(
            "type R{i} = {{ id : Nat; name : Text; tags : [Text]; next : ?R{i} }};\n\
             func mk{i}(n : Nat) : R{i} = {{ id = n; name = Nat.toText(n); tags = [\"a\", \"b\"]; next = null }};\n\
             func sum{i}(xs : [Nat]) : Nat {{\n  var t = 0;\n  for (x in xs.values()) {{ t += x }};\n  t\n}};\n\
             let m{i} = Map.empty<Nat, R{i}>();\n\
             m{i}.add({i}, mk{i}({i}));\n\
             let a{i} = Array.map<Nat, Int>([1, 2, 3], func x = x * {i} - 1);\n\
             let s{i} = Array.sort(Array.map<Int, Text>(a{i}, func x = debug_show x));\n\
             let e{i} = mk{i}(1) == mk{i}(1) and sum{i}([1, 2]) > 2 and s{i}.size() == 3;\n"
        ));
        lines += 12;
        i += 1;
    }
    s.push_str("e0\n");
    s
}

#[test]
fn a_thousand_lines_check_quickly() {
    use mo_mem::script::check::{check_program, env::TypeGlobals};
    let src = thousand_lines();
    assert!(src.lines().count() >= 1000);
    let prog = mo_mem::script::syntax::parse_program(&src).expect("parses");
    let mut best = std::time::Duration::MAX;
    for _ in 0..3 {
        let t = std::time::Instant::now();
        let mut types = TypeGlobals::default();
        check_program(&prog, &mut types, &|_| false, src.len()).expect("type-checks");
        best = best.min(t.elapsed());
    }
    eprintln!("type check of 1,000 lines: {best:?}");
    // a generous bound for a debug build on a shared machine: it catches blow-ups
    assert!(best < std::time::Duration::from_secs(2), "{best:?}");
    // and the whole check (parse, types, compile) accepts it
    let r = script::on_eval_thread(move || {
        Session::new(Limits::default())
            .check(&src)
            .map_err(|e| e.to_string())
    })
    .expect("evaluation thread");
    assert_eq!(r, Ok(()));
}

/// A script's value shows at its static type, as its `debug_show` does (moc shows a value
/// at the type the checker gives it): the rendered value of each expression equals the
/// text `debug_show` of the same expression gives in the same session, and both carry
/// the `+` of an `Int` made from `Nat` literals, at every depth of a library structure.
#[test]
fn a_scripts_value_shows_as_its_debug_show() {
    let exprs = [
        "l",
        "m",
        "(switch (l) { case (?(h, _)) h; case null 0 }, id<Int>(3), [1, 2] : [Int])",
        "long",
    ];
    let r = script::on_eval_thread(move || {
        let mut s = Session::new(Limits::default());
        s.eval(
            "import List \"mo:core/pure/List\"; import Map \"mo:core/pure/Map\"; \
             import Nat \"mo:core/Nat\"; \
             let l : List.List<Int> = List.pushFront(List.pushFront(List.empty(), 5), 6); \
             let m : Map.Map<Nat, Int> = Map.add(Map.empty(), Nat.compare, 1, 5); \
             func id<T>(x : T) : T = x; \
             var long : List.List<Int> = List.empty(); \
             for (i in Nat.range(0, 300)) { long := List.pushFront(long, i) }",
        )
        .map_err(|e| e.to_string())?;
        let mut out = Vec::new();
        for e in exprs {
            let shown = s.eval(e).map_err(|e| e.to_string())?.render();
            let text = s
                .eval(&format!("debug_show ({e})"))
                .map_err(|e| e.to_string())?;
            let Value::Text(t) = &text.value else {
                return Err(format!("debug_show gave {:?}", text.value));
            };
            out.push((shown, format!("{t}\n")));
        }
        Ok::<_, String>(out)
    })
    .expect("eval thread")
    .expect("evaluations");
    assert_eq!(r[0].0, "?(+6, ?(+5, null))\n");
    assert_eq!(r[1].0, "{root = #black(#leaf, 1, +5, #leaf); size = 1}\n");
    assert_eq!(r[2].0, "(+6, +3, [+1, +2])\n");
    assert_eq!(r[3].0.matches('+').count(), 299, "{}", r[3].0);
    for (shown, text) in &r {
        assert_eq!(shown, text);
    }
}
