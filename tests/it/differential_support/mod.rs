//! Differential testing of the script engine against moc's own interpreter: generated
//! programs ([`gen`]) run in both, outputs compared, a mismatch shrunk to a minimal program.

pub mod gen;
pub mod gen_eq;
pub mod gen_objects;

use mo_mem::script::{self, session::moc_compat, Limits};
use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

/// What moc's interpreter said of one program.
pub struct MocOutput {
    /// False when moc rejected the program (type or syntax error).
    pub valid: bool,
    /// Its output (stdout, then the trap line), or its diagnostics.
    pub out: String,
}

/// Runs `programs` (name, source) in moc's interpreter, in one node process.
pub fn run_moc(programs: &[(String, String)]) -> Vec<MocOutput> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let input: Vec<serde_json::Value> = programs
        .iter()
        .map(|(n, s)| serde_json::json!({"name": n, "src": s}))
        .collect();
    let mut child = Command::new("node")
        .arg(root.join("scripts/moc-batch.js"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("node runs (scripts/node_modules comes from `npm ci` in scripts/)");
    let body = serde_json::to_vec(&input).expect("json");
    let mut stdin = child.stdin.take().expect("stdin");
    let writer = std::thread::spawn(move || stdin.write_all(&body));
    let out = child.wait_with_output().expect("moc-batch output");
    writer.join().expect("writer").expect("write programs");
    assert!(out.status.success(), "moc-batch failed");
    let results: Vec<serde_json::Value> =
        serde_json::from_slice(&out.stdout).expect("moc-batch json");
    results
        .iter()
        .map(|r| MocOutput {
            valid: r["valid"].as_bool().unwrap_or(false),
            out: r["out"].as_str().unwrap_or_default().to_string(),
        })
        .collect()
}

/// The limits mo-mem runs generated programs under.
fn limits() -> Limits {
    Limits {
        max_steps: 10_000_000,
        ..Limits::default()
    }
}

/// Runs `programs` in mo-mem's engine, rendered as moc's interpreter prints them.
pub fn run_mo_mem(programs: &[(String, String)]) -> Vec<String> {
    let programs = programs.to_vec();
    script::on_eval_thread(move || {
        programs
            .iter()
            .map(|(name, src)| moc_compat(src, name, limits()))
            .collect()
    })
    .expect("evaluation thread")
}

/// A program of statements as one source text.
pub fn source(statements: &[String]) -> String {
    let mut s = statements.join("\n");
    s.push('\n');
    s
}

/// One disagreement between moc and mo-mem.
pub struct Mismatch {
    /// The program.
    pub src: String,
    /// moc's output.
    pub moc: String,
    /// mo-mem's output.
    pub mo_mem: String,
}

/// True when mo-mem disagrees with moc on a program moc accepts.
fn disagrees(moc: &MocOutput, mine: &str) -> bool {
    moc.valid && moc.out != mine
}

/// Removes statements from `statements` (keeping the first `keep`, the imports, and the last,
/// which prints the side effects) while moc still accepts the program and mo-mem still
/// disagrees with it; returns the minimal one. Each round tries every single removal in one
/// batch and keeps the first that still fails.
pub fn shrink(statements: Vec<String>, keep: usize) -> Mismatch {
    let mut cur = statements;
    loop {
        let candidates: Vec<Vec<String>> = (keep..cur.len().saturating_sub(1))
            .map(|i| {
                let mut c = cur.clone();
                c.remove(i);
                c
            })
            .collect();
        let progs: Vec<(String, String)> = candidates
            .iter()
            .enumerate()
            .map(|(i, c)| (format!("shrink{i}.mo"), source(c)))
            .collect();
        if progs.is_empty() {
            break;
        }
        let moc = run_moc(&progs);
        let mine = run_mo_mem(&progs);
        match (0..progs.len()).find(|&i| disagrees(&moc[i], &mine[i])) {
            Some(i) => cur = candidates[i].clone(),
            None => break,
        }
    }
    let src = source(&cur);
    let progs = vec![("min.mo".to_string(), src.clone())];
    let moc = run_moc(&progs).remove(0).out;
    let mo_mem = run_mo_mem(&progs).remove(0);
    Mismatch { src, moc, mo_mem }
}

/// Generates `count` programs from `seed`, runs them in both, and returns how many moc
/// accepted and the (shrunk) mismatches, at most `max_reported` of them.
pub fn campaign(
    seed: u64,
    count: usize,
    statements: usize,
    max_reported: usize,
) -> (usize, Vec<Mismatch>) {
    let programs: Vec<Vec<String>> = (0..count)
        .map(|i| {
            gen::Gen::new(seed.wrapping_mul(1_000_003).wrapping_add(i as u64)).program(statements)
        })
        .collect();
    let named: Vec<(String, String)> = programs
        .iter()
        .enumerate()
        .map(|(i, p)| (format!("gen{i}.mo"), source(p)))
        .collect();
    let moc = run_moc(&named);
    let mine = run_mo_mem(&named);
    let valid = moc.iter().filter(|m| m.valid).count();
    if let Some(dir) = std::env::var_os("MO_MEM_DIFF_DUMP") {
        dump(Path::new(&dir), &named, &moc, &mine);
        return (valid, Vec::new());
    }
    // all of them counted (only the first `max_reported` are shrunk and reported)
    let differ = (0..named.len())
        .filter(|&i| disagrees(&moc[i], &mine[i]))
        .count();
    eprintln!("seed {seed}: {differ} of {count} programs differ from moc");
    let mut found = Vec::new();
    for i in 0..named.len() {
        if disagrees(&moc[i], &mine[i]) && found.len() < max_reported {
            found.push(shrink(programs[i].clone(), gen::IMPORTS));
        }
    }
    (valid, found)
}

/// Writes each program with moc's and mo-mem's outputs into `dir` (for reading, with
/// `MO_MEM_DIFF_DUMP=DIR`): `NAME.mo`, `NAME.moc`, `NAME.mine`.
fn dump(dir: &Path, named: &[(String, String)], moc: &[MocOutput], mine: &[String]) {
    std::fs::create_dir_all(dir).expect("dump dir");
    for (i, (name, src)) in named.iter().enumerate() {
        std::fs::write(dir.join(name), src).expect("dump");
        let stem = name.trim_end_matches(".mo");
        let tag = if !moc[i].valid {
            "invalid"
        } else if moc[i].out == mine[i] {
            "same"
        } else {
            "DIFF"
        };
        std::fs::write(dir.join(format!("{stem}.{tag}.moc")), &moc[i].out).expect("dump");
        std::fs::write(dir.join(format!("{stem}.{tag}.mine")), &mine[i]).expect("dump");
    }
}

/// Like [`campaign`], for the programs of `==` checks of [`gen_eq`].
pub fn equality_campaign(
    seed: u64,
    count: usize,
    checks: usize,
    max_reported: usize,
) -> (usize, Vec<Mismatch>) {
    let programs: Vec<Vec<String>> = (0..count)
        .map(|i| {
            gen_eq::EqGen::new(seed.wrapping_mul(1_000_003).wrapping_add(i as u64)).program(checks)
        })
        .collect();
    let named: Vec<(String, String)> = programs
        .iter()
        .enumerate()
        .map(|(i, p)| (format!("eq{i}.mo"), source(p)))
        .collect();
    // moc breaks a long `value : Text` line before the type
    let moc: Vec<MocOutput> = run_moc(&named)
        .into_iter()
        .map(|m| MocOutput {
            valid: m.valid,
            out: m.out.replace(" :\n  Text", " : Text"),
        })
        .collect();
    let mine = run_mo_mem(&named);
    let valid = moc.iter().filter(|m| m.valid).count();
    if let Some(dir) = std::env::var_os("MO_MEM_DIFF_DUMP") {
        dump(Path::new(&dir), &named, &moc, &mine);
        return (valid, Vec::new());
    }
    let mut found = Vec::new();
    for i in 0..named.len() {
        if disagrees(&moc[i], &mine[i]) && found.len() < max_reported {
            // not shrunk: the program's one value holds every answer
            found.push(Mismatch {
                src: named[i].1.clone(),
                moc: moc[i].out.clone(),
                mo_mem: mine[i].clone(),
            });
        }
    }
    (valid, found)
}
