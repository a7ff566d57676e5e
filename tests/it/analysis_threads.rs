//! The heap analysis on two threads (`HeapAnalysis::compute_on`: the edge count beside the
//! dominators, the variables' reachable sets beside the type walk) gives exactly what one
//! thread gives, and what the analysis over the edge arrays gives, on every committed fixture.

use crate::common;

use mo_mem::analysis::progress::NoProgress;
use mo_mem::analysis::retained::Analysis;
use mo_mem::analysis::types::{by_type, TypeLabels};
use mo_mem::analysis::{HeapAnalysis, OpenedHeap};

/// Everything `a` computed, per node and in total, as comparable values.
fn figures(opened: &OpenedHeap, a: &HeapAnalysis) -> String {
    let g = a.graph();
    let d = a.dominators();
    let labels = a.labels(opened);
    let mut out = format!(
        "edges {:?} skipped {:?} live {:?} garbage {:?}\nvars {:?}\ntypes {:?}\nroots {:?}\n",
        g.edge_count(),
        g.skipped(),
        a.live(),
        a.garbage(),
        a.vars(),
        a.types(opened),
        a.roots(),
    );
    for n in 0..g.nodes() as u32 {
        out.push_str(&format!(
            "{n} {:?} {:?} {:?}\n",
            d.idom(n),
            d.retained(n),
            labels.label(n)
        ));
    }
    out
}

#[test]
fn two_threads_give_what_one_thread_and_the_edge_arrays_give_on_every_fixture() {
    let fixtures = common::all_fixtures();
    assert!(fixtures.len() > 10, "the committed fixtures are found");
    for (name, mode, dir) in fixtures {
        let label = format!("{name}/{mode}");
        let opened = OpenedHeap::open(&dir).expect("opens");
        let one = HeapAnalysis::compute_on(&opened, &NoProgress, 1).expect("one thread");
        let two = HeapAnalysis::compute_on(&opened, &NoProgress, 2).expect("two threads");
        let (one, two) = (figures(&opened, &one), figures(&opened, &two));
        assert!(one == two, "{label}: two threads differ from one");

        // The analysis over the edge arrays, each step in turn, computes the same.
        let heap = opened.heap();
        let arrays = Analysis::new(heap).expect("analysis");
        let g = arrays.graph();
        let analysed = HeapAnalysis::compute_on(&opened, &NoProgress, 2).expect("two threads");
        assert_eq!(analysed.graph().edge_count(), g.edge_count(), "{label}");
        assert_eq!(analysed.graph().skipped(), g.skipped(), "{label}");
        assert_eq!(analysed.vars(), arrays.vars(), "{label}");
        let labels = TypeLabels::compute(heap, g, opened.signature().ok());
        let rows: Vec<(String, bool, u64, u64)> = by_type(heap, &arrays, &labels)
            .iter()
            .map(|t| {
                (
                    t.name.to_string(),
                    t.typed,
                    t.shallow.bytes,
                    t.retained.bytes,
                )
            })
            .collect();
        let got: Vec<(String, bool, u64, u64)> = analysed
            .types(&opened)
            .iter()
            .map(|t| (t.name.clone(), t.typed, t.shallow.bytes, t.retained.bytes))
            .collect();
        assert_eq!(got, rows, "{label}");
    }
}
