//! The interpreter's loop fast paths (small `Nat`/`Int` read and updated in place) give
//! exactly what the general evaluator gives: overflow into big numbers, the `Nat`
//! underflow trap, mixed `Nat`/`Int`, typed variables, captured variables, fixed-width
//! types, `break`/`continue`, texts. Each case compares a program that takes the fast
//! path with one whose operand is wrapped in a block (`{ e }`), which the fast paths do
//! not look into (`{ 5 }`, `{ let t = y; t }`), or with a known answer.

use mo_mem::script::{self, Limits, Session};

fn eval(src: &str) -> Result<String, String> {
    let src = src.to_string();
    script::on_eval_thread(move || {
        let mut s = Session::new(Limits::default());
        s.eval(&src).map(|e| e.render()).map_err(|e| e.to_string())
    })
    .expect("evaluation thread")
}

/// Strips the `script:line.col-line.col: ` position from an error, to compare messages.
fn message(r: Result<String, String>) -> String {
    match r {
        Ok(v) => format!("ok {v}"),
        Err(e) => e.split_once(": ").map(|(_, m)| m).unwrap_or(&e).to_string(),
    }
}

#[test]
fn fast_and_general_paths_agree() {
    let cases = [
        ("var x = 18446744073709551615; x += 1; x", "var x = 18446744073709551615; x += {1}; x"),
        ("var x = 4294967296; x *= 4294967296; x", "var x = 4294967296; x *= {4294967296}; x"),
        ("var x = 3; x -= 5; x", "var x = 3; x -= {5}; x"),
        ("var x = 3; let y = 3; x -= y; x", "var x = 3; let y = 3; x -= { let t = y; t }; x"),
        ("var x = -9223372036854775807; x -= 2; x", "var x = -9223372036854775807; x -= {2}; x"),
        ("var x = -5; x += 3; x", "var x = -5; x += {3}; x"),
        ("var x : Int = 0; let n = 5; x += n; x", "var x : Int = 0; let n = 5; x += { let t = n; t }; x"),
        ("var x : Int = 7; x -= 9; x", "var x : Int = 7; x -= {9}; x"),
        ("var x : Nat8 = 250; x +%= 10; x", "var x : Nat8 = 250; x +%= {10}; x"),
        ("var x : Nat8 = 250; x += 10; x", "var x : Nat8 = 250; x += {10}; x"),
        ("var x = 1.5; x += 2; x", "var x = 1.5; x += {2}; x"),
        ("var s = \"a\"; s #= \"b\"; s", "var s = \"a\"; s #= {\"b\"}; s"),
        ("var x = 10; x /= 3; x", "var x = 10; x /= {3}; x"),
        ("let a = 18446744073709551615; let b = 1; a + b < 3", "let a = 18446744073709551615; let b = 1; {a + b} < 3"),
        ("let a : Int = -1; let b = 2; a < b", "let a : Int = -1; let b = 2; { let t = a; t } < { let t = b; t }"),
        ("let a = 2; let b = 2; (a != b, a == b, a <= b, a >= b, a > b)", "let a = 2; let b = 2; ({ let t = a; t } != b, { let t = a; t } == b, { let t = a; t } <= b, { let t = a; t } >= b, { let t = a; t } > b)"),
        ("let a = -2; let b = -3; (a != b, a == b, a <= b, a >= b, a > b, a < b)", "let a = -2; let b = -3; ({ let t = a; t } != b, { let t = a; t } == b, { let t = a; t } <= b, { let t = a; t } >= b, { let t = a; t } > b, { let t = a; t } < b)"),
        ("let a = 2; let b = 3; let c = a - b; c", "let a = 2; let b = 3; let c = { let t = a; t } - b; c"),
        ("let x = 5; x * 4 - 3 * x", "let x = 5; {x * 4} - {3 * x}"),
    ];
    for (fast, general) in cases {
        assert_eq!(message(eval(fast)), message(eval(general)), "{fast}");
    }
}

#[test]
fn loop_forms_keep_their_results() {
    let cases = [
        (
            "var i = 0; var s = 0; label l while (i < 10) { i += 1; if (i % 2 == 0) continue l; s += i }; s",
            "25\n",
        ),
        ("var i = 0; let r = label l : Nat loop { i += 1; if (i == 7) break l(i * 3) }; r", "21\n"),
        ("var i = 0; loop { i += 2 } while (i < 9); i", "10\n"),
        (
            "import Int \"mo:core/Int\"; var s : Int = 0; for (i in Int.range(-3, 3)) { s += i }; s",
            "-3\n",
        ),
        (
            "import Nat \"mo:core/Nat\"; var s = 0; for (i in Nat.range(0, 5)) { let j = i * i; s += j }; s",
            "30\n",
        ),
        (
            "func mk() : () -> Nat { var c = 0; func () : Nat { c += 1; c } }; let f = mk(); ignore f(); f()",
            "2\n",
        ),
        ("var n = 0; func bump() { n += 1 }; bump(); bump(); n", "2\n"),
        ("var x = 5; { x += 1; x -= 2 }; x", "4\n"),
        ("var i = 0; var t = \"\"; while (i < 3) { t #= \"ab\"; i += 1 }; t", "\"ababab\"\n"),
    ];
    for (src, want) in cases {
        assert_eq!(eval(src).as_deref(), Ok(want), "{src}");
    }
}

#[test]
fn nat_underflow_in_a_loop_still_traps() {
    let r = eval("var i = 3; while (true) { i -= 1 }; i");
    let e = r.expect_err("underflow must trap");
    assert!(e.contains("arithmetic overflow"), "{e}");
}
