//! The fold of the flame graph (one pass in node order, with caches of dominators' reads and
//! of record shapes) against a direct computation on every fixture's heap: each live object's
//! frame path computed top-down over the dominator tree (`Dominators::visit_tree`), the step
//! from its dominator by a full decode of the dominator (`frame_step`), the frames' weights
//! summed by path and named here. With every frame printed, the folded lines must be equal.

use std::collections::HashMap;

use crate::common;

use mo_mem::analysis::dominators::Dominator;
use mo_mem::analysis::flame::fold::MAX_DEPTH;
use mo_mem::analysis::flame::step::{frame_step, FrameStep};
use mo_mem::analysis::flame::{FoldOptions, FoldedStacks};
use mo_mem::analysis::types::NO_LABEL;
use mo_mem::analysis::{HeapAnalysis, OpenedHeap};

/// A frame's name, before it is printed.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
enum Key {
    Var(usize),
    Group(&'static str),
    Node(FrameStep, Result<u32, &'static str>),
}

/// Each frame path's own bytes and objects, computed top-down over the dominator tree.
fn frames_by_path(opened: &OpenedHeap, a: &HeapAnalysis) -> HashMap<Vec<Key>, (u64, u64)> {
    let (heap, graph, doms) = (opened.heap(), a.graph(), a.dominators());
    let labels = a.labels(opened);
    let mut frames: HashMap<Vec<Key>, (u64, u64)> = HashMap::new();
    // The paths of the nodes entered and not yet left, innermost last.
    let mut open: Vec<(u32, Vec<Key>)> = Vec::new();
    doms.visit_tree(|n, enter| {
        if !enter {
            let (m, _) = open.pop().expect("a node left was entered");
            assert_eq!(m, n);
            return;
        }
        let addr = graph.address(n);
        let ty = match labels.label_index(n) {
            NO_LABEL => Err(heap.object(addr).ok().map_or("?", |o| o.tag.name())),
            i => Ok(i),
        };
        let path = match doms.idom(n) {
            Some(Dominator::Node(d)) => {
                let (m, parent) = open.last().expect("a dominator is entered first");
                assert_eq!(*m, d);
                let dominator = heap.object(graph.address(d)).ok();
                let key = Key::Node(frame_step(heap, dominator.as_ref(), addr), ty);
                match parent.iter().position(|k| *k == key) {
                    Some(j) => parent[..=j].to_vec(),
                    None if parent.len() >= MAX_DEPTH as usize => parent.clone(),
                    None => [parent.clone(), vec![key]].concat(),
                }
            }
            idom => {
                let var = graph.vars().iter().position(|v| v.node == Some(n));
                let root = match (var, idom) {
                    (Some(v), _) => Key::Var(v),
                    (None, Some(Dominator::Group(g))) => {
                        Key::Group(graph.roots().get(g).map_or("roots", |r| r.group.name()))
                    }
                    _ => Key::Group("several roots"),
                };
                vec![root, Key::Node(FrameStep::Top, ty)]
            }
        };
        let frame = frames.entry(path.clone()).or_default();
        frame.0 += graph.size(n);
        frame.1 += 1;
        open.push((n, path));
    });
    frames
}

/// The printed name of a frame with `objects` objects.
fn name(opened: &OpenedHeap, a: &HeapAnalysis, key: &Key, objects: u64, counts: bool) -> String {
    let field = |h: u32| match opened.labels().get(&h) {
        Some(l) => l.to_string(),
        None => format!("#{h}"),
    };
    let mut s = match key {
        Key::Var(v) => {
            let vars = a.graph().vars();
            let node = vars[*v].node;
            let names: Vec<String> = vars
                .iter()
                .filter(|w| w.node == node)
                .map(|w| format!("vars.{}", w.name))
                .collect();
            return names
                .join(" = ")
                .replace(';', ",")
                .replace(['\n', '\r'], " ");
        }
        Key::Group(g) => return format!("<{g}>"),
        Key::Node(step, ty) => {
            let ty = match ty {
                Ok(i) => a.labels(opened).names()[*i as usize].to_string(),
                Err(tag) => format!("<{tag}>"),
            };
            match step {
                FrameStep::Top | FrameStep::Var | FrameStep::Ref => ty,
                FrameStep::Field(h) => format!("{}: {ty}", field(*h)),
                FrameStep::Element => format!("[] {ty}"),
                FrameStep::Some => format!("?{ty}"),
                FrameStep::Variant(h) => format!("#{} {ty}", field(*h)),
                FrameStep::Captured => format!("<captured> {ty}"),
            }
        }
    };
    if counts && objects > 1 {
        s = format!("{s} ×{objects}");
    }
    s.replace(';', ",").replace(['\n', '\r'], " ")
}

/// The folded lines of every frame, from the direct computation.
fn direct_lines(opened: &OpenedHeap, a: &HeapAnalysis, counts: bool) -> Vec<(String, u64)> {
    let frames = frames_by_path(opened, a);
    let mut lines: Vec<(String, u64)> = frames
        .iter()
        .filter(|(_, &(bytes, _))| bytes > 0)
        .map(|(path, &(bytes, _))| {
            let names: Vec<String> = (1..=path.len())
                .map(|k| {
                    let objects = frames.get(&path[..k]).map_or(0, |f| f.1);
                    name(opened, a, &path[k - 1], objects, counts)
                })
                .collect();
            (names.join(";"), bytes)
        })
        .collect();
    lines.sort_unstable();
    lines
}

#[test]
fn the_fold_matches_a_direct_computation_on_every_fixture() {
    let mut compared = 0;
    for (fixture, mode, dir) in common::all_fixtures() {
        let what = format!("{fixture}/{mode}");
        let opened = OpenedHeap::open(&dir).unwrap_or_else(|e| panic!("{what}: {e}"));
        let a = opened.analysis().unwrap_or_else(|e| panic!("{what}: {e}"));
        let a = &*a;
        for counts in [true, false] {
            let options = FoldOptions {
                max_frames: usize::MAX,
                counts,
            };
            let folded = FoldedStacks::compute(&opened, a, options);
            let direct = direct_lines(&opened, a, counts);
            assert!(!direct.is_empty() || a.live().objects == 0, "{what}");
            let first_difference = folded.lines().iter().zip(&direct).find(|(f, d)| f != d);
            assert_eq!(first_difference, None, "{what} (counts: {counts})");
            assert_eq!(
                folded.lines().len(),
                direct.len(),
                "{what} (counts: {counts})"
            );
            compared += direct.len();
        }
    }
    assert!(compared > 0, "no frame compared");
}
