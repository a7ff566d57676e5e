//! The script engine's budgets under adversarial scripts: each runaway stops with the limit's
//! documented message (steps, deadline, memory, output, call depth, native stack, nesting), no
//! native stack overflow, no unbounded allocation, and the session stays usable afterwards.

use crate::common;
use crate::cpu;

use mo_mem::script::host::context::SnapshotContext;
use mo_mem::script::setup::install;
use mo_mem::script::{self, Limits, ScriptError, Session};
use std::sync::Arc;
use std::time::Duration;

/// Budgets small enough for a debug build, large enough for ordinary scripts. The wall-clock
/// deadline is only a safety net (a loaded machine must not turn a step or memory limit into a
/// deadline); [`assert_limit`] bounds the CPU time a run used.
fn limits() -> Limits {
    Limits {
        max_steps: 5_000_000,
        deadline: Duration::from_secs(120),
        max_memory: 256 << 20,
        max_output: 1 << 20,
        ..Limits::default()
    }
}

/// Runs `src` in a fresh session on an evaluation thread, then `1 + 1` in the same session.
/// Returns the error of `src` (or its rendered value) and the follow-up's rendering.
fn run_with(limits: Limits, src: String) -> (Result<String, ScriptError>, String) {
    let (r, after, _) = run_timed(limits, src);
    (r, after)
}

/// [`run_with`], also returning the CPU time the evaluation thread used (its wall time also
/// counts the time other processes held the core).
fn run_timed(limits: Limits, src: String) -> (Result<String, ScriptError>, String, Duration) {
    script::on_eval_thread(move || {
        let started = cpu::thread_cpu().expect("the thread's CPU clock");
        let mut s = Session::new(limits);
        let r = s.eval(&src).map(|e| e.render());
        let after = match s.eval("1 + 1") {
            Ok(e) => e.render(),
            Err(e) => format!("session broken: {e}"),
        };
        let used = cpu::thread_cpu().expect("the thread's CPU clock") - started;
        (r, after, used)
    })
    .expect("evaluation thread")
}

/// Asserts that `src` stops with a resource limit whose message contains `what`, and that the
/// session still evaluates afterwards.
fn assert_limit(limits: Limits, src: &str, what: &str) {
    let (r, after, used) = run_timed(limits, src.to_string());
    match r {
        Err(e) => {
            let msg = e.to_string();
            assert!(e.is_limit(), "not a limit: {msg}");
            assert!(msg.contains(what), "expected {what:?} in {msg:?}");
        }
        Ok(v) => panic!("ran to completion: {}", &v[..v.len().min(200)]),
    }
    assert_eq!(after, "2\n", "the session must stay usable");
    assert!(used < Duration::from_secs(60), "took {used:?} of CPU time");
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
        let r = check_on_a_plain_thread(src);
        let msg = r.expect_err("refused");
        assert!(msg.contains("nesting deeper than"), "{open}: {msg}");
    }
}

/// Parses and compiles `src` on a plain 8 MiB thread, as a mount worker has: checking must not
/// need the evaluation thread's stack.
fn check_on_a_plain_thread(src: String) -> Result<(), String> {
    std::thread::Builder::new()
        .stack_size(8 << 20)
        .spawn(move || {
            Session::new(Limits::default())
                .check(&src)
                .map_err(|e| e.to_string())
        })
        .expect("thread")
        .join()
        .expect("no stack overflow")
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
        let r = check_on_a_plain_thread(src);
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
fn huge_base_lists_are_refused_before_allocating() {
    for src in [
        "import List \"mo:base/List\"; List.replicate<Nat>(1_000_000_000_000, 0)",
        "import List \"mo:base/List\"; List.tabulate<Nat>(1_000_000_000_000, func i = i)",
        "import Iter \"mo:base/Iter\"; Iter.toList<Nat>(Iter.make<Nat>(1))",
    ] {
        assert_limit(limits(), src, "budget exhausted");
    }
    // a list longer than the step budget allows to walk
    let mut small = limits();
    small.max_steps = 100_000;
    assert_limit(
        small,
        "import List \"mo:base/List\"; var l : List.List<Nat> = null; var i = 0; \
         while (i < 40_000) { l := ?(i, l); i += 1 }; List.size(List.reverse(List.append(l, l)))",
        "budget exhausted",
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
                    .map(|e| mo_mem::script::show::render(&e))
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

/// Runs `src` in a fresh session on an evaluation thread and returns its rendered value and
/// steps (or its error), then `1 + 1`'s rendering in the same session. Fails the test if no
/// answer comes within `within`: a phase that escaped the limits would otherwise hang the suite.
fn run_watched(limits: Limits, src: String) -> (Result<(String, u64), ScriptError>, String) {
    let within = Duration::from_secs(120);
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::Builder::new()
        .stack_size(script::EVAL_STACK_SIZE)
        .spawn(move || {
            let mut s = Session::new(limits);
            let r = s.eval(&src).map(|e| (e.render(), e.steps));
            let after = match s.eval("1 + 1") {
                Ok(e) => e.render(),
                Err(e) => format!("session broken: {e}"),
            };
            let _ = tx.send((r, after));
        })
        .expect("evaluation thread");
    rx.recv_timeout(within)
        .unwrap_or_else(|_| panic!("no answer within {within:?}: a phase escaped the limits"))
}

/// Asserts that `src` renders `want` within `max_steps` steps, and the session stays usable.
fn assert_cheap(src: &str, want: &str, max_steps: u64) {
    let (r, after) = run_watched(limits(), src.to_string());
    let (got, steps) = r.unwrap_or_else(|e| panic!("failed: {e}"));
    assert_eq!(got, want);
    assert!(steps <= max_steps, "{steps} steps (at most {max_steps})");
    assert_eq!(after, "2\n", "the session must stay usable");
}

/// `type T = { #leaf : Int; #c0 : (T, T); ...; #c{k-1} : (T, T) }`.
fn branching_type(k: usize) -> String {
    let cases: String = (0..k).map(|i| format!("; #c{i} : (T, T)")).collect();
    format!("type T = {{ #leaf : Int{cases} }};\n")
}

#[test]
fn recursive_types_are_never_unfolded() {
    // Before: 2 tuple variants took 14 s and 1.6 GB, 5 never ended (and killed a mount).
    for k in [2, 5, 12, 30_000] {
        let src = format!("{}let t : T = #leaf 1; t", branching_type(k));
        assert_cheap(&src, "#leaf(+1)\n", 100);
    }
    // a value of such a type: converted where the annotation says Int, not beyond
    let src = format!(
        "{}let t : T = #c1(#leaf 1, #c0(#leaf 2, #leaf 0)); t",
        branching_type(5)
    );
    assert_cheap(&src, "#c1(#leaf(+1), #c0(#leaf(+2), #leaf(0)))\n", 100);
}

#[test]
fn type_declaration_chains_cost_what_their_text_costs() {
    // 20,000 declarations, each doubling the previous through a tuple
    let n = 20_000;
    let mut src: String = (0..n)
        .map(|i| format!("type T{i} = (T{}, T{});\n", i + 1, i + 1))
        .collect();
    src.push_str(&format!(
        "type T{n} = Int;\nlet x : T{} = ((1, 2), (3, 4)); x",
        n - 2
    ));
    assert_cheap(&src, "((+1, +2), (+3, +4))\n", 100);
    // 40,000 aliases in a chain
    let n = 40_000;
    let mut src: String = (0..n)
        .map(|i| format!("type A{i} = A{};\n", i + 1))
        .collect();
    src.push_str(&format!("type A{n} = ?Int;\nlet a : A0 = ?5; a"));
    assert_cheap(&src, "?(+5)\n", 100);
    // a cycle of aliases names no structure: moc's checker rejects it (M0157), at once
    let (r, after) = run_watched(limits(), "type A = B; type B = A; let x : A = 3; x".into());
    let err = r.expect_err("a cycle of aliases").to_string();
    assert!(err.contains("type error [M0157]"), "{err}");
    assert_eq!(after, "2\n", "the session must stay usable");
    // a long chain into a cycle is found in one pass over the chain
    let n = 40_000;
    let mut src: String = (0..n)
        .map(|i| format!("type C{i} = C{};\n", i + 1))
        .collect();
    src.push_str(&format!("type C{n} = C0;\n1"));
    let (r, _) = run_watched(limits(), src);
    assert!(r.expect_err("a long cycle").to_string().contains("[M0157]"));
    // 30,000 annotations of one recursive type
    let mut src = format!("{}let t : T = #leaf 1;\n", branching_type(2));
    for i in 0..30_000 {
        src.push_str(&format!("let t{i} : T = #c0(t, t);\n"));
    }
    src.push_str("t29999");
    assert_cheap(&src, "#c0(#leaf(+1), #leaf(+1))\n", 200_000);
}

#[test]
fn conversions_visit_a_shared_value_once_per_node() {
    // t is a DAG of 61 nodes that unfolds to 2^60 leaves
    let src = format!(
        "{}var t : T = #leaf 1; var i = 0; while (i < 60) {{ t := #c0(t, t); i += 1 }};
         let u : T = t;
         switch u {{ case (#c0(#c0(a, _), _)) 1; case _ 0 }}",
        branching_type(2)
    );
    assert_cheap(&src, "1\n", 10_000);
    // a cycle through a mutable field: converted once, then left
    assert_cheap(
        "type R = { var next : ?R; x : Int };
         let r : R = { var next : ?R = null; x = 1 };
         r.next := ?r;
         let s : R = r;
         switch (s.next) { case (?n) n.x; case null 0 }",
        "+1\n",
        1_000,
    );
}

#[test]
fn building_a_recursive_value_converts_only_the_new_parts() {
    // `l := ?(i, l)` converts `i`, not the whole list again (was quadratic)
    assert_cheap(
        "type L = ?(Int, L); var l : L = null; var i = 0;
         while (i < 200_000) { l := ?(i, l); i += 1 };
         switch l { case (?(h, _)) h; case null 0 }",
        "+199_999\n",
        2_000_000,
    );
}

#[test]
fn converting_a_deep_value_stops_at_the_native_stack_budget() {
    let l = Limits {
        max_native_stack: 4 << 20,
        ..limits()
    };
    let src = "type L = ?(Int, L); type N = ?(Nat, N); var l : N = null; var i = 0;
               while (i < 300_000) { l := ?(i, l); i += 1 };
               let m : L = l; 0"
        .to_string();
    let (r, after) = run_watched(l, src);
    let e = r.expect_err("stopped");
    assert!(e.is_limit(), "{e}");
    assert!(
        e.to_string().contains("native stack budget exhausted"),
        "{e}"
    );
    assert_eq!(after, "2\n");
}

#[test]
fn or_patterns_are_bounded_like_operator_chains() {
    let alts = |n: usize| {
        (0..n)
            .map(|i| i.to_string())
            .collect::<Vec<_>>()
            .join(" or ")
    };
    let ok = format!("switch (4095) {{ case ({}) 1; case _ 0 }}", alts(4097));
    assert_cheap(&ok, "1\n", 100);
    // 100,000 alternatives overflowed the evaluation thread's stack (a crash of the mount)
    let long = format!("switch (5) {{ case ({}) 1; case _ 0 }}", alts(100_000));
    let (r, after) = run_watched(limits(), long);
    let e = r.expect_err("refused").to_string();
    assert!(
        e.contains("more than 4096 alternatives in one pattern"),
        "{e}"
    );
    assert_eq!(after, "2\n");
}

#[test]
fn every_phase_is_under_the_limits() {
    // the script's size
    let big = format!("// {}\n1", "x".repeat(5 << 20));
    let (r, after) = run_watched(limits(), big);
    let e = r.expect_err("refused");
    assert!(e.is_limit(), "{e}");
    assert!(
        e.to_string()
            .contains("more than the limit of 4194304 bytes"),
        "{e}"
    );
    assert_eq!(after, "2\n");
    // parsing and compiling count against the deadline
    let none = Limits {
        deadline: Duration::ZERO,
        ..limits()
    };
    let (r, _) = run_watched(none, format!("{}1", branching_type(100)));
    let e = r.expect_err("stopped");
    assert!(
        e.is_limit() && e.to_string().contains("deadline exceeded"),
        "{e}"
    );
}
