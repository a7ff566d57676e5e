//! The doctor's pass over the objects on several threads (runs of nodes, each check's state
//! merged in address order) gives exactly the one-thread report, on every committed fixture
//! and on the generated `big-small` heap (several partitions and a large-object range, EOP
//! and classical incremental, mid-GC). And the path search the doctor runs part of the way
//! is the one the analysis finishes: the paths of every node are those of a search run whole
//! from the start on a heap opened afresh.

use crate::common;

use mo_mem::analysis::doctor::DoctorReport;
use mo_mem::analysis::OpenedHeap;

/// The one-thread report of `dir`'s heap, checked equal to the report on 2, 3 and 7
/// threads (`None` when the heap has no analysis).
fn check_same(label: &str, dir: &std::path::Path) -> Option<DoctorReport> {
    let opened = OpenedHeap::open(dir).unwrap_or_else(|e| panic!("{label}: {e}"));
    let a = opened.analysis().ok()?;
    let a = &*a;
    let one = DoctorReport::with_threads(&opened, a, 1);
    for threads in [2, 3, 7] {
        let many = DoctorReport::with_threads(&opened, a, threads);
        assert_eq!(many, one, "{label}: {threads} threads");
        // The node lists too (not serialized, compared by PartialEq above; said twice so a
        // failure names the check).
        for (m, o) in many.findings.iter().zip(&one.findings) {
            assert_eq!(m.nodes, o.nodes, "{label}: {threads} threads: {}", o.check);
        }
    }
    Some(one)
}

#[test]
fn parallel_checks_equal_one_thread_on_every_committed_fixture() {
    let mut duplicates = 0;
    for (name, mode, dir) in common::all_fixtures() {
        let Some(one) = check_same(&format!("{name}/{mode}"), &dir) else {
            continue;
        };
        duplicates += one.finding("duplicate-texts").map_or(0, |f| f.objects);
    }
    // The merge of duplicate-texts' values across runs was exercised.
    assert!(duplicates > 100, "{duplicates} duplicate copies in all");
}

#[test]
fn parallel_checks_equal_one_thread_over_several_partitions() {
    let Some(root) = common::generated_fixture("big-small") else {
        return;
    };
    let mut modes: Vec<_> = std::fs::read_dir(&root)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.join("wasm_memory.bin").is_file())
        .collect();
    modes.sort();
    assert!(modes.len() >= 4, "{modes:?}");
    for dir in modes {
        let label = format!("big-small/{}", dir.file_name().unwrap().to_string_lossy());
        let one = check_same(&label, &dir).unwrap_or_else(|| panic!("{label}: no analysis"));
        assert!(!one.findings.is_empty(), "{label}");
    }
}

#[test]
fn the_doctors_partial_search_is_finished_not_repeated() {
    for (name, mode) in [
        ("doctor", "eop"),
        ("doctor", "copying"),
        ("structures", "eop"),
    ] {
        let dir = common::fixture(name, mode);
        let label = format!("{name}/{mode}");
        // Afresh: the whole search from the start.
        let fresh = OpenedHeap::open(&dir).unwrap();
        let fa = fresh.analysis().unwrap();
        let fa = &*fa;
        let nodes = fa.graph().nodes() as u32;
        fa.paths(fresh.heap());
        let want: Vec<Option<String>> = (0..nodes).map(|n| fa.path_text(&fresh, n)).collect();
        // The doctor's search run part of the way, a few paths asked for on it, then
        // finished by `paths`.
        let opened = OpenedHeap::open(&dir).unwrap();
        let a = opened.analysis().unwrap();
        let a = &*a;
        let report = DoctorReport::new(&opened, a);
        assert!(a.computed_paths().is_none(), "{label}: searched whole");
        assert!(!report.findings.is_empty(), "{label}");
        for n in (0..nodes).step_by(7) {
            let got = a.path_reached(&opened, n).map(|p| p.text());
            assert_eq!(got, want[n as usize], "{label}: node {n} (partial)");
        }
        for n in 0..nodes {
            assert_eq!(
                a.path_text(&opened, n),
                want[n as usize],
                "{label}: node {n}"
            );
        }
        assert_eq!(DoctorReport::new(&opened, a), report, "{label}: again");
    }
}
