//! Benchmark: mo-mem's script interpreter against moc's own interpreter (the npm package
//! `motoko`, `mo.run`) on the same Motoko programs, timed in the same run.
//!
//! `cargo bench --bench script` prints, per program, the best-of-N wall time of each
//! interpreter and the ratio (moc / mo-mem; above 1 means mo-mem is faster), and for
//! the loop programs the time per iteration. moc is skipped (and said so) when node or
//! `scripts/node_modules/motoko` is missing.

use mo_mem::script::{self, Limits, Session};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

struct Case {
    name: &'static str,
    /// Loop iterations the program performs (for the per-iteration figure), if a loop.
    iterations: Option<u64>,
    src: String,
}

fn cases() -> Vec<Case> {
    let n = 10_000u64;
    vec![
        Case {
            name: "while_loop",
            iterations: Some(n),
            src: format!("var total = 0;\nvar i = 0;\nwhile (i < {n}) {{ total += i; i += 1 }};\ntotal\n"),
        },
        Case {
            name: "for_range",
            iterations: Some(n),
            src: format!("import Nat \"mo:core/Nat\";\nvar total = 0;\nfor (i in Nat.range(0, {n})) {{ total += i * 2 }};\ntotal\n"),
        },
        Case {
            name: "fib_recursion",
            iterations: None,
            src: "func fib(n : Nat) : Nat { if (n < 2) n else fib(n - 1) + fib(n - 2) };\nfib(18)\n".into(),
        },
        Case {
            name: "text_building",
            iterations: Some(2000),
            src: "import Nat \"mo:core/Nat\";\nvar s = \"\";\nvar i = 0;\nwhile (i < 2000) { s #= Nat.toText(i) # \",\"; i += 1 };\ns.size()\n".into(),
        },
        Case {
            name: "array_work",
            iterations: None,
            src: "import Array \"mo:core/Array\";\nimport Nat \"mo:core/Nat\";\nlet a = Array.tabulate<Nat>(2000, func i = (i * 7919) % 2003);\nlet b = Array.map<Nat, Nat>(a, func x = x * 2);\nlet s = Array.sort<Nat>(b, Nat.compare);\nlet m = [var 0, 0, 0, 0];\nfor (x in s.vals()) { m[x % 4] += 1 };\nArray.foldLeft<Nat, Nat>(s, 0, func (acc, x) = acc + x) + m[1]\n".into(),
        },
    ]
}

fn time_mo_mem(src: &str, runs: u32) -> (f64, String) {
    let src = src.to_string();
    script::on_eval_thread(move || {
        let mut best = f64::INFINITY;
        let mut shown = String::new();
        for _ in 0..runs {
            let mut s = Session::new(Limits::default());
            let t0 = Instant::now();
            let r = s.eval(&src);
            let ms = t0.elapsed().as_secs_f64() * 1e3;
            best = best.min(ms);
            shown = match r {
                Ok(ev) => ev.render(),
                Err(e) => format!("error: {e}"),
            };
        }
        (best, shown)
    })
    .unwrap_or((f64::NAN, "thread failed".into()))
}

fn time_moc(files: &[PathBuf], runs: u32) -> Option<Vec<(f64, String)>> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    if !root.join("scripts/node_modules/motoko").exists() {
        return None;
    }
    let mut cmd = String::from("ulimit -s unlimited 2>/dev/null || ulimit -s 1000000 2>/dev/null; node --stack-size=50000 scripts/bench-moc.js ");
    cmd.push_str(&runs.to_string());
    for f in files {
        cmd.push(' ');
        cmd.push_str(&f.display().to_string());
    }
    let out = Command::new("sh")
        .arg("-c")
        .arg(&cmd)
        .current_dir(root)
        .output()
        .ok()?;
    let text = String::from_utf8_lossy(&out.stdout);
    let mut v = Vec::new();
    for line in text.lines() {
        let j: serde_json::Value = serde_json::from_str(line).ok()?;
        v.push((
            j["ms"].as_f64().unwrap_or(f64::NAN),
            format!(
                "{}{}",
                j["stdout"].as_str().unwrap_or(""),
                j["error"].as_str().unwrap_or("")
            ),
        ));
    }
    (v.len() == files.len()).then_some(v)
}

fn main() {
    // `cargo test --all-targets` runs bench binaries without `--bench`: smoke-test only
    if !std::env::args().any(|a| a == "--bench") {
        for c in cases() {
            let (_, shown) = time_mo_mem(&c.src, 1);
            assert!(!shown.starts_with("error"), "{}: {shown}", c.name);
        }
        println!("script bench: smoke run ok (use `cargo bench --bench script` to measure)");
        return;
    }
    let runs = 3;
    let dir = tempfile::tempdir().expect("temp dir");
    let cases = cases();
    let files: Vec<PathBuf> = cases
        .iter()
        .map(|c| {
            let p = dir.path().join(format!("{}.mo", c.name));
            std::fs::write(&p, &c.src).expect("write program");
            p
        })
        .collect();
    let moc = time_moc(&files, runs);
    if moc.is_none() {
        println!("moc: not available (run `npm ci` in scripts/); timing mo-mem only");
    }
    println!(
        "{:<16} {:>12} {:>12} {:>10} {:>14}",
        "program", "mo-mem ms", "moc ms", "moc/mo-mem", "mo-mem ns/iter"
    );
    for (i, c) in cases.iter().enumerate() {
        let (ms, shown) = time_mo_mem(&c.src, runs);
        let (moc_ms, moc_shown) = moc
            .as_ref()
            .and_then(|v| v.get(i).cloned())
            .unwrap_or((f64::NAN, String::new()));
        let per_iter = c
            .iterations
            .map(|n| format!("{:.1}", ms * 1e6 / n as f64))
            .unwrap_or_else(|| "-".into());
        println!(
            "{:<16} {:>12.3} {:>12.1} {:>10.1} {:>14}",
            c.name,
            ms,
            moc_ms,
            moc_ms / ms,
            per_iter
        );
        let ours = shown.lines().last().unwrap_or("").to_string();
        let theirs = moc_shown.lines().next().unwrap_or("").to_string();
        if moc.is_some() && !theirs.starts_with(&ours) {
            println!("  note: results differ: mo-mem {ours:?}, moc {theirs:?}");
        }
    }
}
