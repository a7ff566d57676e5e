//! `mo-mem report` and the cached heap analysis on every committed fixture: the report's
//! space adds up to main memory, its text fits 80 columns and is the same every time, its
//! suspects are exactly what a plain search of the dominator tree finds; the CLI prints the
//! library's report; the analysis reports its phases in order, once; the script functions
//! `heap.retained/dominator/path/garbage` agree with the analysis.

use crate::common;

use std::path::Path;
use std::process::Command;
use std::sync::Mutex;

use mo_mem::analysis::dominators::Dominator;
use mo_mem::analysis::progress::{Phase, Progress};
use mo_mem::analysis::report::{MemoryReport, SuspectKind};
use mo_mem::analysis::{HeapAnalysis, OpenedHeap};

fn open(dir: &Path) -> OpenedHeap {
    OpenedHeap::open(dir).unwrap_or_else(|e| panic!("{dir:?}: {e}"))
}

/// Whether node `n` has a dominator-tree ancestor retaining at least `limit` bytes (walking
/// the immediate dominators up, one by one).
fn has_big_ancestor(a: &HeapAnalysis, mut n: u32, limit: u64) -> bool {
    while let Some(Dominator::Node(d)) = a.dominators().idom(n) {
        if a.dominators().retained(d).bytes >= limit {
            return true;
        }
        n = d;
    }
    false
}

/// Whether `ancestor` dominates `n` (or is `n`).
fn dominates(a: &HeapAnalysis, ancestor: u32, mut n: u32) -> bool {
    loop {
        if n == ancestor {
            return true;
        }
        match a.dominators().idom(n) {
            Some(Dominator::Node(d)) => n = d,
            _ => return false,
        }
    }
}

#[test]
fn reports_add_up_fit_the_screen_and_name_every_suspect() {
    for (name, mode, dir) in common::all_fixtures() {
        let label = format!("{name}/{mode}");
        let opened = open(&dir);
        let a = opened.analysis().expect("analysis");
        let a = &*a;
        let report = MemoryReport::new(&opened, a);
        let s = &report.space;
        // Every byte of main memory is in exactly one part.
        let parts = [
            s.static_data,
            s.live,
            s.garbage,
            s.stale_copies,
            s.free,
            s.never_used,
            s.unwalked,
        ];
        assert_eq!(
            parts.iter().map(|p| p.bytes).sum::<u64>(),
            s.main_memory,
            "{label}: {s:?}"
        );
        let total = a.graph().total();
        assert_eq!(s.live.bytes + s.garbage.bytes, total.bytes, "{label}");
        assert_eq!(
            s.live.objects.unwrap() + s.garbage.objects.unwrap(),
            total.objects,
            "{label}"
        );
        // One screen: ASCII, 80 columns; the same text from a second opening.
        let text = report.text();
        for line in text.lines() {
            assert!(line.is_ascii() && line.len() <= 80, "{label}: {line:?}");
        }
        let again = open(&dir);
        let b = again.analysis().expect("analysis");
        let b = &*b;
        assert_eq!(MemoryReport::new(&again, b).text(), text, "{label}");
        // Suspects, by a plain search: variables retaining >= 10%, and the objects that do
        // with no ancestor that does (unless they are a variable's own object).
        let limit = report.suspect_bytes;
        assert_eq!(limit, s.live.bytes.div_ceil(10).max(1), "{label}");
        let mut want_vars: Vec<&str> = a
            .vars()
            .iter()
            .filter(|v| v.retained.bytes >= limit)
            .map(|v| v.name.as_str())
            .collect();
        let var_nodes: Vec<u32> = a.graph().vars().iter().filter_map(|v| v.node).collect();
        let mut want_objects: Vec<String> = (0..a.graph().nodes() as u32)
            .filter(|&n| a.dominators().retained(n).bytes >= limit)
            .filter(|&n| !has_big_ancestor(a, n, limit) && !var_nodes.contains(&n))
            .map(|n| format!("{:#x}", a.graph().address(n)))
            .collect();
        let mut got_vars = Vec::new();
        let mut got_objects = Vec::new();
        for x in &report.suspects {
            assert!(x.retained.bytes >= limit, "{label}: {x:?}");
            match x.kind {
                SuspectKind::Variable => got_vars.push(x.name.as_str()),
                SuspectKind::Object => got_objects.push(x.name.clone()),
            }
            let Some(addr) = &x.address else { continue };
            let addr = u64::from_str_radix(addr.trim_start_matches("0x"), 16).unwrap();
            let n = a.graph().node_at(addr).expect("a node");
            assert_eq!(x.path, a.path_text(&opened, n), "{label}: {x:?}");
            if let Some(acc) = &x.accumulation {
                let at = u64::from_str_radix(acc.name.trim_start_matches("0x"), 16).unwrap();
                let m = a.graph().node_at(at).expect("a node");
                assert!(dominates(a, n, m) && m != n, "{label}: {x:?}");
                assert!(acc.retained.bytes * 100 >= x.retained.bytes * 80, "{label}");
                // The deepest such: no object it dominates retains as much.
                assert!(
                    !(0..a.graph().nodes() as u32).any(|k| k != m
                        && dominates(a, m, k)
                        && a.dominators().retained(k).bytes * 100 >= x.retained.bytes * 80),
                    "{label}: {x:?}"
                );
            }
        }
        // Largest first.
        assert!(
            report
                .suspects
                .windows(2)
                .all(|w| w[0].retained.bytes >= w[1].retained.bytes),
            "{label}"
        );
        want_vars.sort();
        got_vars.sort();
        want_objects.sort();
        got_objects.sort();
        assert_eq!(got_vars, want_vars, "{label}");
        assert_eq!(got_objects, want_objects, "{label}");
        println!(
            "{label}: {} suspects, {} lines",
            report.suspects.len(),
            text.lines().count()
        );
    }
}

#[test]
fn the_cli_prints_the_library_report() {
    for (name, mode) in [("collections", "eop"), ("compound", "incremental-forcegc")] {
        let dir = common::fixture(name, mode);
        let path = dir.to_str().unwrap();
        let opened = open(&dir);
        let report = MemoryReport::new(&opened, &opened.analysis().unwrap());
        let text = common::mo_mem_ok(&["report", path]);
        assert_eq!(String::from_utf8(text).unwrap(), report.text());
        let json: serde_json::Value =
            serde_json::from_slice(&common::mo_mem_ok(&["report", path, "--json"])).expect("JSON");
        assert_eq!(json, serde_json::to_value(&report).unwrap());
        assert!(json["suspects"].as_array().is_some_and(|s| !s.is_empty()));
        // `retained --json` gives each top retainer its path, as `mo-mem path` prints it.
        let retained: serde_json::Value = serde_json::from_slice(&common::mo_mem_ok(&[
            "retained", path, "--json", "--top", "3",
        ]))
        .unwrap();
        for top in retained["top"].as_array().unwrap() {
            let addr = top["address"].as_str().unwrap();
            let printed = String::from_utf8(common::mo_mem_ok(&["path", path, addr])).unwrap();
            assert_eq!(
                top["path"].as_str().map(|p| format!("{p}\n")),
                Some(printed)
            );
        }
    }
}

/// A progress display that records what it is told.
#[derive(Default)]
struct Recorder(Mutex<Vec<(String, u64)>>);

impl Progress for Recorder {
    fn start(&self, phase: Phase, total: Option<u64>) {
        let total = total.unwrap_or(u64::MAX);
        self.0
            .lock()
            .unwrap()
            .push((format!("start {}", phase.name()), total));
    }
    fn at(&self, done: u64) {
        self.0.lock().unwrap().push(("at".into(), done));
    }
    fn finish(&self, phase: Phase) {
        self.0
            .lock()
            .unwrap()
            .push((format!("finish {}", phase.name()), 0));
    }
}

#[test]
fn the_analysis_reports_its_phases_once() {
    let dir = common::fixture("collections", "eop");
    let opened = open(&dir);
    let rec = Recorder::default();
    let a = opened.analysis_with(&rec).expect("analysis");
    let a = &*a;
    a.types_with(&opened, &rec);
    let events = rec.0.lock().unwrap().clone();
    let phases: Vec<&str> = events
        .iter()
        .map(|(e, _)| e.as_str())
        .filter(|e| *e != "at")
        .collect();
    assert_eq!(
        phases,
        [
            "start walk",
            "finish walk",
            "start dominators",
            "finish dominators",
            "start types",
            "finish types",
        ]
    );
    // The edge count (once the phase `graph`) runs beside the dominators and reports nothing:
    // the phases come from one thread, in order.
    // The walk counts the bytes of its blocks up to the ranges' bytes.
    let stats = opened.stats();
    let count_of = |phase: &str| {
        let from = events.iter().position(|(e, _)| e == phase).unwrap();
        let total = events[from].1;
        let ats: Vec<u64> = events[from + 1..]
            .iter()
            .take_while(|(e, _)| e == "at")
            .map(|&(_, d)| d)
            .collect();
        assert!(ats.windows(2).all(|w| w[0] <= w[1]), "{phase}: {ats:?}");
        (total, *ats.last().unwrap())
    };
    let walked = stats.objects.bytes + stats.free.bytes;
    assert_eq!(count_of("start walk"), (stats.heap_bytes, walked));
    // Cached: nothing is computed, so nothing is reported, the second time.
    let again = Recorder::default();
    let b = opened.analysis_with(&again).expect("analysis");
    let b = &*b;
    b.types_with(&opened, &again);
    assert!(std::ptr::eq(a, b));
    assert!(again.0.lock().unwrap().is_empty());
}

#[test]
fn script_functions_agree_with_the_analysis() {
    let dir = common::fixture("compound", "eop");
    let script = r#"
var retained = 0; var dominated = 0; var roots = 0; var paths = 0; var garbage = 0;
for (o in heap.objects()) {
  if (o.forwardedTo == null) {
    retained += heap.retained(o.address).bytes;
    switch (heap.dominator(o.address)) { case (?d) dominated += d; case null roots += 1 };
    switch (heap.path(o.address)) { case (?p) paths += p.size(); case null garbage += 1 };
  };
};
let g = heap.garbage();
(retained, dominated, roots, paths, garbage, g.objects, g.bytes)
"#;
    let out = common::mo_mem_ok(&["eval", dir.to_str().unwrap(), script]);
    let out = String::from_utf8(out).unwrap().replace('_', "");
    let opened = open(&dir);
    let a = opened.analysis().unwrap();
    let a = &*a;
    let (mut retained, mut dominated, mut roots, mut paths, mut garbage) = (0u64, 0u64, 0, 0, 0);
    for n in 0..a.graph().nodes() as u32 {
        retained += a.dominators().retained(n).bytes;
        match a.dominators().idom(n) {
            Some(Dominator::Node(d)) => dominated += a.graph().address(d),
            _ => roots += 1,
        }
        match a.path_text(&opened, n) {
            Some(p) => paths += p.chars().count(),
            None => garbage += 1,
        }
    }
    let g = a.garbage();
    assert_eq!(garbage, g.objects);
    let want = format!(
        "({retained}, {dominated}, {roots}, {paths}, {garbage}, {}, {})\n",
        g.objects, g.bytes
    );
    assert_eq!(out, want);
}

#[test]
fn script_functions_refuse_what_is_not_an_object() {
    let dir = common::fixture("compound", "eop");
    let out = Command::new(env!("CARGO_BIN_EXE_mo-mem"))
        .args(["eval", dir.to_str().unwrap(), "heap.retained(3)"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("heap.retained: 0x3 is not the start of a heap object"),
        "{err}"
    );
}

/// Hostile heaps: words of the `compound` heap overwritten with random values, pointers into
/// the heap (the middle of objects, self-references) and small numbers. The analysis either
/// fails with its typed error or gives a report that adds up, fits 80 columns, and analysis
/// files that are valid JSON; nothing panics.
#[test]
fn reports_on_mutated_heaps_stay_whole() {
    let src = common::fixture("compound", "eop");
    let tmp = tempfile::tempdir().unwrap();
    for entry in std::fs::read_dir(&src).unwrap() {
        let entry = entry.unwrap();
        std::fs::copy(entry.path(), tmp.path().join(entry.file_name())).unwrap();
    }
    let original = std::fs::read(src.join("wasm_memory.bin")).unwrap();
    let heap = open(&src);
    let ranges: Vec<(u64, u64)> = heap
        .heap()
        .ranges()
        .iter()
        .map(|r| (r.start, r.end))
        .collect();
    let mut rng = fastrand::Rng::with_seed(16);
    let (mut analysed, mut refused) = (0, 0);
    for _ in 0..40 {
        let mut image = original.clone();
        for _ in 0..rng.usize(1..20) {
            let (start, end) = ranges[rng.usize(..ranges.len())];
            let at = (rng.u64(start..end) & !7) as usize;
            let word = match rng.u8(..3) {
                0 => rng.u64(..),
                1 => rng.u64(start..end) | 1, // a skewed pointer, often into an object
                _ => rng.u64(..64),
            };
            if at + 8 <= image.len() {
                image[at..at + 8].copy_from_slice(&word.to_le_bytes());
            }
        }
        std::fs::write(tmp.path().join("wasm_memory.bin"), &image).unwrap();
        let Ok(opened) = OpenedHeap::open(tmp.path()) else {
            refused += 1;
            continue;
        };
        let Ok(a) = opened.analysis() else {
            refused += 1;
            continue;
        };
        analysed += 1;
        let report = MemoryReport::new(&opened, &a);
        let s = &report.space;
        let parts = [
            s.static_data,
            s.live,
            s.garbage,
            s.stale_copies,
            s.free,
            s.never_used,
            s.unwalked,
        ];
        assert_eq!(parts.iter().map(|p| p.bytes).sum::<u64>(), s.main_memory);
        for line in report.text().lines() {
            assert!(line.is_ascii() && line.len() <= 80, "{line:?}");
        }
        for name in mo_mem::serve::analysis_dir::ANALYSIS_FILES {
            let bytes = mo_mem::serve::analysis_dir::analysis_file(&opened, name).unwrap();
            if name.ends_with(".json") {
                serde_json::from_slice::<serde_json::Value>(&bytes).unwrap();
            }
        }
    }
    println!("{analysed} mutants analysed, {refused} refused");
    assert!(analysed > 10, "{analysed} analysed");
}
