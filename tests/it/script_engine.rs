//! The script engine's contract beyond conformance: sessions, limits, refusals, host values.

use mo_mem::image::ImageError;
use mo_mem::script::{
    self, HostError, HostErrorKind, HostObject, Limits, ScriptError, Session, Value,
};
use std::rc::Rc;
use std::time::Duration;

/// Runs `f` with a fresh session on a thread with a large stack.
fn with_session<T: Send + 'static>(
    limits: Limits,
    f: impl FnOnce(&mut Session) -> T + Send + 'static,
) -> T {
    script::on_eval_thread(move || {
        let mut s = Session::new(limits);
        f(&mut s)
    })
    .expect("evaluation thread")
}

fn eval(src: &'static str) -> Result<String, String> {
    with_session(Limits::default(), move |s| {
        s.eval(src).map(|e| e.render()).map_err(|e| e.to_string())
    })
}

#[test]
fn session_keeps_definitions_across_evaluations() {
    let out = with_session(Limits::default(), |s| {
        let a = s
            .eval("import Nat \"mo:core/Nat\"; var count = 40; func twice(x : Nat) : Nat { 2 * x }")
            .map(|e| e.render());
        let b = s.eval("count += 1; twice(count) + 0").map(|e| e.render());
        let c = s.eval("Nat.toText(count)").map(|e| e.render());
        (
            a.is_ok(),
            b.map_err(|e| e.to_string()),
            c.map_err(|e| e.to_string()),
        )
    });
    assert!(out.0);
    assert_eq!(out.1.as_deref(), Ok("82\n"));
    assert_eq!(out.2.as_deref(), Ok("\"41\"\n"));
}

#[test]
fn failed_compile_does_not_change_the_session() {
    let r = with_session(Limits::default(), |s| {
        s.eval("let x = 1").ok();
        let bad = s.eval("let y = 2; z + 1").is_err();
        let after = s.eval("y").is_err();
        let x = s.eval("x").map(|e| e.render()).ok();
        (bad, after, x)
    });
    assert_eq!(r, (true, true, Some("1\n".to_string())));
}

#[test]
fn output_then_value_and_json() {
    let r = with_session(Limits::default(), |s| {
        let ev = s.eval("import Debug \"mo:core/Debug\"; Debug.print(\"hi\"); { a = 2 ** 64; b = [?\"x\", null]; c = #tag 1 }").unwrap();
        (ev.render(), ev.to_json().to_string())
    });
    assert_eq!(
        r.0,
        "hi\n{a = 18_446_744_073_709_551_616; b = [?\"x\", null]; c = #tag(1)}\n"
    );
    assert_eq!(
        r.1,
        r##"{"output":["hi"],"show":"{a = 18_446_744_073_709_551_616; b = [?\"x\", null]; c = #tag(1)}","value":{"a":"18446744073709551616","b":["x",null],"c":{"#tag":1}}}"##
    );
}

/// A script's result is shown as moc's interpreter shows the program's value (goldens of
/// `moc -r`; conformance programs cannot end in these: moc also prints the type).
#[test]
fn modules_functions_and_objects_show_as_moc_shows_them() {
    for (src, shown) in [
        (
            "module M { public func a() : Nat { 1 }; public let b = 2; public class K() {}; \
             public module N { public func f() {}; public let t = \"x\" }; public type T = Nat }; M",
            "module {K = <func>; N = module {f = <func>; t = \"x\"}; a = <func>; b = 2}\n",
        ),
        (
            "module M { public let a = 1 }; (#v(M), ?M)",
            "(#v(module {a = 1}), ?module {a = 1})\n",
        ),
        (
            "let m = module { public let z = [1] }; m",
            "module {z = [1]}\n",
        ),
        ("func f() {}; f", "<func>\n"),
        ("[1, 2].vals()", "{next = <func>}\n"),
        (
            "object o { public func f() {}; public var x = 1 }; o.x += 2; o",
            "{f = <func>; x = 3}\n",
        ),
    ] {
        assert_eq!(eval(src).as_deref(), Ok(shown), "{src}");
    }
}

#[test]
fn unsupported_constructs_are_refused_with_position() {
    for (src, what) in [
        (
            "let x = 1;\nactor A {}",
            "2.1-2.6: syntax error, `actor` is not supported",
        ),
        (
            "let f = 1;\n  let a = async 1;",
            "2.11-2.16: syntax error, `async` is not supported",
        ),
        (
            "let x = 1;\ninclude M(3)",
            "2.1-2.8: syntax error, `include` (of a mixin, in an actor) is not supported",
        ),
        (
            "public let x = 1",
            "1.1-1.7: syntax error, `public` outside an object, class or module body",
        ),
        (
            "try { } catch e { }",
            "1.1-1.4: syntax error, `try` is not supported",
        ),
        (
            "import M \"./m.mo\"",
            "1.1-1.18: syntax error, import of \"./m.mo\" is not supported",
        ),
        (
            "let x = ;",
            "1.9-1.10: syntax error, unexpected `;`, expected an expression",
        ),
    ] {
        let err = eval(src).expect_err(src);
        assert!(err.starts_with("script:"), "{err}");
        assert!(err.contains(what), "{src}: {err}");
    }
}

#[test]
fn step_budget_stops_an_endless_loop() {
    let limits = Limits {
        max_steps: 100_000,
        ..Limits::default()
    };
    let r = with_session(limits, |s| match s.eval("var i = 0; loop { i += 1 }") {
        Err(e) => (e.is_limit(), e.to_string()),
        Ok(_) => (false, String::new()),
    });
    assert!(r.0);
    assert!(
        r.1.contains("step budget exhausted (100000 steps"),
        "{}",
        r.1
    );
}

#[test]
fn deadline_stops_an_endless_loop() {
    let limits = Limits {
        deadline: Duration::from_millis(200),
        ..Limits::default()
    };
    let r = with_session(limits, |s| {
        s.eval("var i = 0; while (true) { i += 1 }")
            .map(|_| ())
            .map_err(|e| e.to_string())
    });
    assert!(r.unwrap_err().contains("deadline exceeded"));
}

#[test]
fn session_survives_a_limit() {
    let limits = Limits {
        max_steps: 10_000,
        ..Limits::default()
    };
    let r = with_session(limits, |s| {
        s.eval("var n = 7").ok();
        let e = s.eval("loop {}").is_err();
        (e, s.eval("n + 1").map(|e| e.render()).ok())
    });
    assert_eq!(r, (true, Some("8\n".to_string())));
}

#[test]
fn output_and_memory_and_depth_budgets() {
    let out = Limits {
        max_output: 100,
        ..Limits::default()
    };
    let r = with_session(out, |s| {
        s.eval("import Debug \"mo:core/Debug\"; loop { Debug.print(\"0123456789\") }")
            .map(|_| ())
            .map_err(|e| e.to_string())
    });
    assert!(r.unwrap_err().contains("output budget exhausted"));

    let mem = Limits {
        max_memory: 1 << 20,
        ..Limits::default()
    };
    let r = with_session(mem, |s| {
        s.eval("import Array \"mo:core/Array\"; let a = Array.repeat<Nat>(0, 10_000_000); a.size()")
            .map(|_| ())
            .map_err(|e| e.to_string())
    });
    assert!(r.unwrap_err().contains("memory budget exhausted"));

    let deep = Limits {
        max_call_depth: 50,
        ..Limits::default()
    };
    let r = with_session(deep, |s| {
        s.eval("func f(n : Nat) : Nat { if (n == 0) 0 else 1 + f(n - 1) }; f(100)")
            .map(|_| ())
            .map_err(|e| e.to_string())
    });
    assert!(r.unwrap_err().contains("call depth budget exhausted"));
}

#[test]
fn traps_render_like_moc_and_keep_prior_output() {
    let r = with_session(Limits::default(), |s| {
        s.set_source_name("t.mo");
        match s
            .eval("import Debug \"mo:core/Debug\";\nDebug.print(\"a\");\nlet n : Nat = 2;\nn - 3")
        {
            Err(ScriptError::Trap { output, .. }) => (output, "trap".to_string()),
            Err(e) => (String::new(), e.to_string()),
            Ok(_) => (String::new(), "ok".into()),
        }
    });
    assert_eq!(r, ("a\n".to_string(), "trap".to_string()));
    let e = eval("let n : Nat = 2;\nn - 3").unwrap_err();
    assert_eq!(e, "script:2.1-2.6: execution error, arithmetic overflow");
}

struct Fake;

impl HostObject for Fake {
    fn describe(&self) -> String {
        "fake".into()
    }
    fn field(&self, name: &str) -> Result<Option<Value>, HostError> {
        Ok(match name {
            "answer" => Some(Value::Nat(42)),
            "items" => Some(Value::Array(Rc::from(vec![
                Value::text("a"),
                Value::text("b"),
            ]))),
            "broken" => {
                let truncated = ImageError::OutOfBounds {
                    addr: 0x10,
                    len: 8,
                    size: 0x10,
                };
                return Err(HostError::data("the image is truncated: ", truncated));
            }
            "huge" => return Err(HostError::Limit("image.huge: over the limit".into())),
            _ => None,
        })
    }
    fn call(&self, name: &str, args: &[Value]) -> Result<Option<Value>, HostError> {
        Ok(match (name, args) {
            ("size", []) => Some(Value::Nat(4096)),
            ("double", [Value::Nat(n)]) => Some(Value::Nat(n * 2)),
            _ => None,
        })
    }
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}

#[test]
fn host_objects_fields_and_methods() {
    let r = with_session(Limits::default(), |s| {
        s.define_host("image", Rc::new(Fake));
        let a = s
            .eval("(image.size(), image.answer + 1, image.double(21), image.items.size())")
            .map(|e| e.render())
            .map_err(|e| e.to_string());
        let failure = |s: &mut Session, script: &str| {
            let e = s.eval(script).map(|e| e.render()).unwrap_err();
            (e.to_string(), e.host_kind())
        };
        let b = failure(s, "image.broken");
        let c = failure(s, "image.nothing");
        let d = failure(s, "image.huge");
        let e = failure(s, "image.double(1, 2, 3)");
        (a, b, c, d, e)
    });
    assert_eq!(r.0.as_deref(), Ok("(4_096, 43, 42, 2)\n"));
    // the host's error keeps its kind through the trap: corrupt data, a limit, or none
    assert_eq!(
        r.1,
        (
            "script:1.1-1.13: execution error, the image is truncated: read of 8 bytes at 0x10 \
             is outside the image (0x10 bytes)"
                .to_string(),
            Some(HostErrorKind::Corrupt)
        )
    );
    assert!(r.2 .0.contains("fake has no field nothing"), "{}", r.2 .0);
    assert_eq!(r.2 .1, None);
    assert!(
        r.3 .0
            .ends_with("execution error, image.huge: over the limit"),
        "{}",
        r.3 .0
    );
    assert_eq!(r.3 .1, Some(HostErrorKind::Limit));
    assert_eq!(r.4 .1, None, "{}", r.4 .0);
}

#[test]
fn hostile_inputs_fail_cleanly() {
    let deep = format!("{}1{}", "(".repeat(10_000), ")".repeat(10_000));
    let r = script::on_eval_thread(move || {
        Session::new(Limits::default())
            .eval(&deep)
            .map(|_| ())
            .map_err(|e| e.to_string())
    })
    .expect("thread");
    assert!(r.unwrap_err().contains("nesting deeper than"));
    let long = format!("0{}", " + 1".repeat(100_000));
    let r = script::on_eval_thread(move || {
        Session::new(Limits::default())
            .eval(&long)
            .map(|_| ())
            .map_err(|e| e.to_string())
    })
    .expect("thread");
    assert!(r.unwrap_err().contains("operators in one expression"));
    for src in [
        "\"unterminated",
        "'",
        "/* open",
        "0x",
        "1e",
        "let x = \"\\u{110000}\"",
        "\u{0}",
        "{{{{",
        "]]",
    ] {
        let s = src.to_string();
        let r = script::on_eval_thread(move || Session::new(Limits::default()).eval(&s).is_err())
            .expect("thread");
        assert!(r, "{src:?} should fail");
    }
}

#[test]
fn deep_structures_are_dropped_without_recursion() {
    let r = with_session(Limits::default(), |s| {
        s.eval(
            "import Nat \"mo:core/Nat\"; type L = ?(Nat, L);
             func mk(n : Nat) : L { var l : L = null; for (i in Nat.range(0, n)) { l := ?(i, l) }; l };
             var a = mk(1_000_000); a := null; 7",
        )
        .map(|e| e.render())
        .map_err(|e| e.to_string())
    });
    assert_eq!(r.as_deref(), Ok("7\n"));
}

/// The `mo:base` names kept for older scripts behave as in `mo:base`.
#[test]
fn base_names_behave_as_in_mo_base() {
    let out = eval(
        "import Array \"mo:base/Array\"; import Iter \"mo:base/Iter\";\n\
         (Array.append([1], [2, 3]), Array.thaw<Nat>([4]), Array.subArray([1, 2, 3, 4], 1, 2),\n\
          Array.tabulateVar<Nat>(2, func i = i + 1), Iter.toArray(Iter.range(2, 4)),\n\
          Iter.toArray(Iter.range(1, 0)), Iter.toArray(Iter.revRange(1, -1)))",
    )
    .unwrap();
    assert_eq!(
        out,
        "([1, 2, 3], [var 4], [2, 3], [var 1, 2], [2, 3, 4], [], [+1, 0, -1])\n"
    );
    let err = eval("import Array \"mo:base/Array\"; Array.subArray([1, 2], 1, 2)").unwrap_err();
    assert!(err.contains("Array.subArray: out of bounds"), "{err}");
}

/// Contextual dot calls need the module in scope (moc's rule); a core function mo-mem's
/// library lacks is named; record fields and built-in methods come first; a big `toText`
/// is charged once per byte, not once per prefix.
#[test]
fn dot_calls_need_their_module_and_name_what_is_missing() {
    // (no module offers `toText`: moc's type error)
    let err = eval("let n = 5; n.toText()").unwrap_err();
    assert!(err.contains("type error [M0070]"), "{err}");
    assert_eq!(
        eval("import Nat \"mo:core/Nat\"; (5).toText()").unwrap(),
        "\"5\"\n"
    );
    let err = eval(
        "import Principal \"mo:core/Principal\"; Principal.fromText(\"aaaaa-aa\").isController()",
    )
    .unwrap_err();
    assert!(
        err.contains("Principal.isController is not in mo-mem's built-in library"),
        "{err}"
    );
    assert_eq!(
        eval(
            "import Array \"mo:core/Array\";\n\
             let r = { size = func() : Nat = 7; map = 3 };\n\
             (r.size(), [1, 2].size(), \"abc\".size(), [1, 2].vals().next())"
        )
        .unwrap(),
        "(7, 2, 3, ?1)\n"
    );
    let out = eval(
        "import Array \"mo:core/Array\"; import Nat \"mo:core/Nat\";\n\
         Array.tabulate<Nat>(20_000, func i = i).toText().size()",
    )
    .unwrap();
    // digits of 0..19_999 (88_890), 19_999 separators, two brackets
    assert_eq!(out, "128_890\n");
}

/// A character whose upper or lower case is several characters (`'ß'` is `"SS"`, `'İ'` is
/// `"i̇"`) stays itself, as the runtime's `charToUpper`/`charToLower` leave it (moc's
/// interpreter printed `('Ü', 'à', 'ß', 'Ǆ', 'A', 'σ', 'Ÿ', 'İ')` for these); a whole text
/// maps as a compiled canister's `Text.toUpper` does (`"ß"` to `"SS"`).
#[test]
fn char_case_mapping_keeps_characters_without_a_single_character_case() {
    let out = eval(
        "import Char \"mo:core/Char\"; import Text \"mo:core/Text\"; \
         (Char.toUpper('ü'), Char.toLower('À'), Char.toUpper('ß'), Char.toUpper('ǆ'), \
          Char.toUpper('a'), Char.toLower('Σ'), Char.toUpper('ÿ'), Char.toLower('İ'), \
          Text.toUpper(\"straße\"))",
    );
    assert_eq!(
        out.as_deref(),
        Ok("('Ü', 'à', 'ß', 'Ǆ', 'A', 'σ', 'Ÿ', 'İ', \"STRASSE\")\n")
    );
}
