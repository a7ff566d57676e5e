//! The script engine's budgets under adversarial scripts: each runaway stops with the limit's
//! documented message (steps, deadline, memory, output, call depth, native stack, nesting), no
//! native stack overflow, no unbounded allocation, and the session stays usable afterwards.

mod common;

use mo_mem::script::host_snapshot::{install, SnapshotContext};
use mo_mem::script::{self, Limits, ScriptError, Session};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Budgets small enough for a debug build, large enough for ordinary scripts.
fn limits() -> Limits {
    Limits {
        max_steps: 5_000_000,
        deadline: Duration::from_secs(20),
        max_memory: 256 << 20,
        max_output: 1 << 20,
        ..Limits::default()
    }
}

/// Runs `src` in a fresh session on an evaluation thread, then `1 + 1` in the same session.
/// Returns the error of `src` (or its rendered value) and the follow-up's rendering.
fn run_with(limits: Limits, src: String) -> (Result<String, ScriptError>, String) {
    script::on_eval_thread(move || {
        let mut s = Session::new(limits);
        let r = s.eval(&src).map(|e| e.render());
        let after = match s.eval("1 + 1") {
            Ok(e) => e.render(),
            Err(e) => format!("session broken: {e}"),
        };
        (r, after)
    })
    .expect("evaluation thread")
}

/// Asserts that `src` stops with a resource limit whose message contains `what`, and that the
/// session still evaluates afterwards.
fn assert_limit(limits: Limits, src: &str, what: &str) {
    let t = Instant::now();
    let (r, after) = run_with(limits, src.to_string());
    match r {
        Err(e) => {
            let msg = e.to_string();
            assert!(e.is_limit(), "not a limit: {msg}");
            assert!(msg.contains(what), "expected {what:?} in {msg:?}");
        }
        Ok(v) => panic!("ran to completion: {}", &v[..v.len().min(200)]),
    }
    assert_eq!(after, "2\n", "the session must stay usable");
    assert!(
        t.elapsed() < Duration::from_secs(60),
        "took {:?}",
        t.elapsed()
    );
}

/// Asserts that `src` fails (trap or limit) with a message containing `what`.
fn assert_fails(src: &str, what: &str) {
    let (r, after) = run_with(limits(), src.to_string());
    match r {
        Err(e) => {
            let msg = e.to_string();
            assert!(msg.contains(what), "expected {what:?} in {msg:?}");
        }
        Ok(v) => panic!("ran to completion: {}", &v[..v.len().min(200)]),
    }
    assert_eq!(after, "2\n", "the session must stay usable");
}

#[test]
fn deep_recursion_stops_at_the_call_depth_budget() {
    assert_limit(
        limits(),
        "func f(n : Nat) : Nat { if (n == 0) 0 else 1 + f(n - 1) }; f(1_000_000)",
        "call depth budget exhausted",
    );
}

#[test]
fn deep_recursion_stops_at_the_native_stack_budget() {
    let l = Limits {
        max_call_depth: u32::MAX,
        max_native_stack: 4 << 20,
        ..limits()
    };
    assert_limit(
        l,
        "func f(n : Nat) : Nat { if (n == 0) 0 else 1 + f(n - 1) }; f(100_000_000)",
        "native stack budget exhausted",
    );
}

#[test]
fn deeply_nested_source_is_refused_without_overflowing_the_stack() {
    for (open, close) in [
        ("(", ")"),
        ("[", "]"),
        ("{", "}"),
        ("?", ""),
        ("-", ""),
        ("not ", ""),
    ] {
        let n = 200_000;
        let src = format!("{}1{}", open.repeat(n), close.repeat(n));
        // A plain 8 MiB thread, as a mount worker has: parsing must not need the eval stack.
        let r = std::thread::Builder::new()
            .stack_size(8 << 20)
            .spawn(move || {
                Session::new(Limits::default())
                    .check(&src)
                    .map_err(|e| e.to_string())
            })
            .expect("thread")
            .join()
            .expect("no stack overflow");
        let msg = r.expect_err("refused");
        assert!(msg.contains("nesting deeper than"), "{open}: {msg}");
    }
}

#[test]
fn long_postfix_chains_are_refused_without_overflowing_the_stack() {
    for (head, link) in [
        ("f", " 1"),
        ("f", "(1)"),
        ("r", ".a"),
        ("a", "[0]"),
        ("f", "!"),
    ] {
        let src = format!("{head}{}", link.repeat(200_000));
        let r = std::thread::Builder::new()
            .stack_size(8 << 20)
            .spawn(move || {
                Session::new(Limits::default())
                    .check(&src)
                    .map_err(|e| e.to_string())
            })
            .expect("thread")
            .join()
            .expect("no stack overflow");
        let msg = r.expect_err("refused");
        assert!(msg.contains("postfix operations"), "{link}: {msg}");
    }
}

#[test]
fn infinite_loop_stops_at_the_step_budget() {
    assert_limit(limits(), "loop {}", "step budget exhausted");
    assert_limit(
        limits(),
        "var i = 0; while (true) { i += 1 }",
        "step budget exhausted",
    );
}

#[test]
fn infinite_loop_stops_at_the_deadline() {
    let l = Limits {
        max_steps: u64::MAX,
        deadline: Duration::from_millis(300),
        ..limits()
    };
    assert_limit(l, "loop {}", "deadline exceeded");
}

#[test]
fn text_doubling_stops_at_the_memory_budget() {
    assert_limit(
        limits(),
        "var t = \"x\"; loop { t := t # t }",
        "memory budget exhausted",
    );
}

#[test]
fn array_doubling_stops_at_the_memory_budget() {
    assert_limit(
        limits(),
        "import Array \"mo:core/Array\"; var a = [1]; loop { a := Array.concat(a, a) }",
        "memory budget exhausted",
    );
}

#[test]
fn huge_tabulate_is_refused_before_allocating() {
    assert_limit(
        limits(),
        "import Array \"mo:core/Array\"; Array.tabulate<Nat>(1_000_000_000_000, func i = i)",
        "memory budget exhausted",
    );
    assert_limit(
        limits(),
        "import VarArray \"mo:core/VarArray\"; VarArray.repeat<Nat>(0, 1_000_000_000_000)",
        "memory budget exhausted",
    );
}

#[test]
fn exponential_debug_show_is_stopped() {
    let mut src = String::from("let a0 = (1, 1);\n");
    for i in 1..=40 {
        src.push_str(&format!("let a{i} = (a{}, a{});\n", i - 1, i - 1));
    }
    // Refusing walks the value up to the budget: keep the budget small in a debug build.
    let small = Limits {
        max_memory: 16 << 20,
        ..limits()
    };
    let show = format!("{src}debug_show a40");
    assert_limit(small.clone(), &show, "memory budget exhausted");
    let print = format!("{src}import Debug \"mo:core/Debug\"; Debug.print(debug_show a40)");
    assert_limit(small.clone(), &print, "memory budget exhausted");
    // The script's own value is rendered too: its rendering is bounded by the output budget.
    let value = format!("{src}a40");
    assert_limit(small, &value, "output budget exhausted");
}

#[test]
fn huge_nat_arithmetic_is_refused() {
    assert_fails("2 ** 10_000_000", "too large");
    assert_fails("(2 ** 1_000_000) ** 1_000_000", "too large");
    assert_fails("var x = 3; loop { x := x * x }", "too large");
    assert_fails("var x : Int = -3; loop { x := x * x * x }", "too large");
}

#[test]
fn output_flood_stops_at_the_output_budget() {
    assert_limit(
        limits(),
        "import Debug \"mo:core/Debug\"; loop { Debug.print(\"flood\") }",
        "output budget exhausted",
    );
}

/// Runs `scripts` in one session over the `compound` EOP fixture; each result or error text.
fn over_fixture(limits: Limits, scripts: &[&str]) -> Vec<Result<String, String>> {
    let dir = common::fixture("compound", "eop");
    let scripts: Vec<String> = scripts.iter().map(|s| s.to_string()).collect();
    script::on_eval_thread(move || {
        let ctx = Arc::new(SnapshotContext::open(&dir).expect("context"));
        let mut s = Session::new(limits);
        install(&mut s, ctx);
        scripts
            .iter()
            .map(|src| {
                s.eval(src)
                    .map(|e| mo_mem::script::host_show::render(&e))
                    .map_err(|e| e.to_string())
            })
            .collect()
    })
    .expect("evaluation thread")
}

#[test]
fn values_decoded_from_the_snapshot_count_toward_the_memory_budget() {
    let small = Limits {
        max_memory: 64 << 10,
        ..limits()
    };
    let r = over_fixture(
        small,
        &[
            "image.loadBlob(0, 100_000).size()",
            "var n = 0; for (i in [1, 2, 3].vals()) { n += image.loadBlob(0, 30_000).size() }; n",
            "image.loadBlob(0, 30_000).size()",
            "var n = 0; for (o in heap.objects()) { n += o.size }; n",
        ],
    );
    for (i, x) in r[..2].iter().enumerate() {
        let e = x.as_ref().expect_err("over budget");
        assert!(e.contains("memory budget exhausted"), "{i}: {e}");
    }
    assert_eq!(r[2].as_deref(), Ok("30_000\n"));
    let e = r[3].as_ref().expect_err("object records are counted");
    assert!(e.contains("memory budget exhausted"), "{e}");
    // A variable is decoded once per session: reading it again costs nothing more.
    let r = over_fixture(
        small_budget_for_vars(),
        &["var n = 0; for (i in [1, 2, 3, 4, 5, 6, 7, 8].vals()) { n += vars.people.size() }; n"],
    );
    assert!(r[0].is_ok(), "{r:?}");
}

fn small_budget_for_vars() -> Limits {
    Limits {
        max_memory: 16 << 10,
        ..limits()
    }
}

#[test]
fn keyword_named_variables_are_reachable_with_vars_get() {
    let r = over_fixture(
        limits(),
        &[
            "vars.get(\"person\")",
            "vars.get(\"actor\")",
            "switch (vars.get(\"person\")) { case (?p) p.name; case null \"none\" }",
        ],
    );
    assert_eq!(
        r[0].as_deref(),
        Ok("?{age = 39; name = \"Ada\"; score = ?9.500000; tags = [\"math\", \"engines\"]}\n")
    );
    assert_eq!(r[1].as_deref(), Ok("null\n"));
    assert_eq!(r[2].as_deref(), Ok("\"Ada\"\n"));
}
