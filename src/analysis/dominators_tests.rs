//! The dominator computation on synthetic graphs: small shapes with known answers, a naive
//! iterative dataflow computation on random graphs, and shapes that would break recursion.

use super::dominators::{Dominator, Dominators, Retained};
use super::graph::Csr;

fn graph(nodes: usize, edges: &[(u32, u32)]) -> Csr {
    Csr::from_edges(nodes, edges).expect("graph")
}

/// Dominators with every node 10 bytes.
fn doms(csr: &Csr, groups: &[&[u32]]) -> Dominators {
    Dominators::compute(csr, groups, 0, |_| 10).expect("dominators")
}

fn r(objects: u64) -> Retained {
    Retained {
        objects,
        bytes: objects * 10,
    }
}

#[test]
fn diamond() {
    // 0 -> 1, 0 -> 2, 1 -> 3, 2 -> 3, 3 -> 4
    let g = graph(5, &[(0, 1), (0, 2), (1, 3), (2, 3), (3, 4)]);
    let d = doms(&g, &[&[0]]);
    assert_eq!(d.idom(0), Some(Dominator::Group(0)));
    assert_eq!(d.idom(1), Some(Dominator::Node(0)));
    assert_eq!(d.idom(2), Some(Dominator::Node(0)));
    assert_eq!(d.idom(3), Some(Dominator::Node(0)));
    assert_eq!(d.idom(4), Some(Dominator::Node(3)));
    assert_eq!(d.retained(0), r(5));
    assert_eq!(d.retained(1), r(1));
    assert_eq!(d.retained(3), r(2));
    assert_eq!(d.group_retained(0), r(5));
    assert_eq!(d.live(), r(5));
}

#[test]
fn cycle_self_loop_and_garbage() {
    // 0 -> 1 -> 2 -> 0 (a cycle), 2 -> 2 (a self-loop), 3 -> 1 (garbage pointing in), 4 alone.
    let g = graph(5, &[(0, 1), (1, 2), (2, 0), (2, 2), (3, 1)]);
    let d = doms(&g, &[&[0]]);
    assert_eq!(d.idom(1), Some(Dominator::Node(0)));
    assert_eq!(d.idom(2), Some(Dominator::Node(1)));
    assert_eq!(d.idom(3), None);
    assert_eq!(d.idom(4), None);
    assert!(!d.is_reachable(3));
    assert_eq!(d.retained(0), r(3));
    assert_eq!(d.retained(2), r(1));
    assert_eq!(d.retained(3), r(0));
    assert_eq!(d.reachable_nodes(), 3);
}

#[test]
fn shared_objects_are_retained_by_neither_root() {
    // Two roots (two groups) share node 2; each has a private node.
    let g = graph(5, &[(0, 2), (1, 2), (0, 3), (1, 4)]);
    let d = doms(&g, &[&[0], &[1]]);
    assert_eq!(d.retained(0), r(2));
    assert_eq!(d.retained(1), r(2));
    assert_eq!(d.idom(2), Some(Dominator::Root));
    assert_eq!(d.group_retained(0), r(2));
    assert_eq!(d.group_retained(1), r(2));
    assert_eq!(d.live(), r(5));
    // One group with both roots retains everything.
    let d = doms(&g, &[&[0, 1]]);
    assert_eq!(d.group_retained(0), r(5));
    assert_eq!(d.idom(2), Some(Dominator::Group(0)));
}

/// A chain of 10 million nodes in a release build, 1 million in a debug build (where 10
/// million kept a test thread busy for most of the unit tests' time): either is far deeper
/// than a recursion of one frame per node could go on a test thread's 2 MiB stack.
#[test]
fn long_chain_needs_no_stack() {
    const N: u32 = if cfg!(debug_assertions) {
        1_000_000
    } else {
        10_000_000
    };
    let edges: Vec<(u32, u32)> = (0..N - 1).map(|i| (i, i + 1)).collect();
    let g = graph(N as usize, &edges);
    drop(edges);
    let d = doms(&g, &[&[0]]);
    assert_eq!(d.retained(0), r(N as u64));
    assert_eq!(d.retained(N / 2), r((N - N / 2) as u64));
    assert_eq!(d.idom(N - 1), Some(Dominator::Node(N - 2)));
    // A back edge from the end to the start changes nothing; a root at the end makes the
    // last node dominated by the root, the rest still by the chain.
    let mut edges: Vec<(u32, u32)> = (0..N - 1).map(|i| (i, i + 1)).collect();
    edges.push((N - 1, 0));
    let g = graph(N as usize, &edges);
    drop(edges);
    let d = doms(&g, &[&[0], &[N - 1]]);
    assert_eq!(d.idom(N - 1), Some(Dominator::Root));
    assert_eq!(d.idom(0), Some(Dominator::Root));
    assert_eq!(d.retained(1), r((N - 2) as u64));
    assert_eq!(tree_depth(&d), (N - 1) as u64);
}

/// The depth of the dominator tree (its nodes only), by [`Dominators::visit_tree`].
pub(super) fn tree_depth(d: &Dominators) -> u64 {
    let mut depth = 0u64;
    let mut max_depth = 0u64;
    d.visit_tree(|_, entering| {
        if entering {
            depth += 1;
            max_depth = max_depth.max(depth);
        } else {
            depth -= 1;
        }
    });
    max_depth
}

#[test]
fn huge_fan_out_and_fan_in() {
    const N: u32 = 1_000_000;
    // 0 points to every other node; every other node points to the last.
    let mut edges: Vec<(u32, u32)> = (1..N).map(|i| (0, i)).collect();
    edges.extend((1..N - 1).map(|i| (i, N - 1)));
    let g = graph(N as usize, &edges);
    let d = doms(&g, &[&[0]]);
    assert_eq!(d.retained(0), r(N as u64));
    assert_eq!(d.idom(N - 1), Some(Dominator::Node(0)));
    assert_eq!(d.retained(1), r(1));
}

/// Dominator sets by iterative dataflow over bitsets (O(n^2) per round): vertex 0 is the
/// virtual root, 1..=groups the groups, then the nodes.
fn naive_idoms(csr: &Csr, groups: &[&[u32]]) -> Vec<Option<usize>> {
    let base = groups.len() + 1;
    let total = base + csr.nodes();
    let mut succ: Vec<Vec<usize>> = vec![Vec::new(); total];
    succ[0] = (1..base).collect();
    for (i, g) in groups.iter().enumerate() {
        succ[i + 1] = g.iter().map(|&n| n as usize + base).collect();
    }
    for v in 0..csr.nodes() {
        succ[v + base] = csr
            .successors(v as u32)
            .iter()
            .map(|&n| n as usize + base)
            .collect();
    }
    let mut preds: Vec<Vec<usize>> = vec![Vec::new(); total];
    for (v, s) in succ.iter().enumerate() {
        for &w in s {
            preds[w].push(v);
        }
    }
    // Reachability first: unreachable vertices have no dominators.
    let mut reach = vec![false; total];
    let mut stack = vec![0];
    reach[0] = true;
    while let Some(v) = stack.pop() {
        for &w in &succ[v] {
            if !reach[w] {
                reach[w] = true;
                stack.push(w);
            }
        }
    }
    let mut dom: Vec<Vec<bool>> = (0..total)
        .map(|v| (0..total).map(|u| v != 0 || u == 0).collect())
        .collect();
    let mut changed = true;
    while changed {
        changed = false;
        for v in 1..total {
            if !reach[v] {
                continue;
            }
            let mut new: Vec<bool> = vec![true; total];
            for &p in preds[v].iter().filter(|&&p| reach[p]) {
                for u in 0..total {
                    new[u] &= dom[p][u];
                }
            }
            new[v] = true;
            if new != dom[v] {
                dom[v] = new;
                changed = true;
            }
        }
    }
    (0..total)
        .map(|v| {
            if v == 0 || !reach[v] {
                return None;
            }
            // The strict dominator with the most dominators is the immediate one.
            (0..total)
                .filter(|&u| u != v && dom[v][u])
                .max_by_key(|&u| dom[u].iter().filter(|&&b| b).count())
        })
        .collect()
}

/// What becomes unreachable when the edges into vertex `x` are removed (x included).
fn naive_retained(csr: &Csr, groups: &[&[u32]], x: usize, size: impl Fn(u32) -> u32) -> Retained {
    let base = groups.len() + 1;
    let reach = |cut: Option<usize>| {
        let total = base + csr.nodes();
        let mut seen = vec![false; total];
        let mut stack = vec![0usize];
        seen[0] = true;
        while let Some(v) = stack.pop() {
            let succ: Vec<usize> = if v == 0 {
                (1..base).collect()
            } else if v < base {
                groups[v - 1].iter().map(|&n| n as usize + base).collect()
            } else {
                csr.successors((v - base) as u32)
                    .iter()
                    .map(|&n| n as usize + base)
                    .collect()
            };
            for w in succ {
                if Some(w) != cut && !seen[w] {
                    seen[w] = true;
                    stack.push(w);
                }
            }
        }
        seen
    };
    let before = reach(None);
    let after = reach(Some(x));
    let mut out = Retained::default();
    for v in base..before.len() {
        if before[v] && !after[v] {
            out.objects += 1;
            out.bytes += size((v - base) as u32) as u64;
        }
    }
    out
}

#[test]
fn random_graphs_match_the_naive_computation() {
    let mut rng = fastrand::Rng::with_seed(16);
    for round in 0..400 {
        let n = rng.usize(1..40);
        let m = rng.usize(0..n * 3);
        let edges: Vec<(u32, u32)> = (0..m)
            .map(|_| (rng.u32(0..n as u32), rng.u32(0..n as u32)))
            .collect();
        let g = graph(n, &edges);
        let group_count = rng.usize(1..4);
        let group_nodes: Vec<Vec<u32>> = (0..group_count)
            .map(|_| {
                let mut v: Vec<u32> = (0..rng.usize(0..3)).map(|_| rng.u32(0..n as u32)).collect();
                v.sort_unstable();
                v.dedup();
                v
            })
            .collect();
        let groups: Vec<&[u32]> = group_nodes.iter().map(|g| &g[..]).collect();
        let size = |v: u32| 8 + (v % 5) * 4;
        let d = Dominators::compute(&g, &groups, 0, size).expect("dominators");
        let naive = naive_idoms(&g, &groups);
        let base = groups.len() + 1;
        for v in 0..n as u32 {
            let want = naive[v as usize + base].map(|u| {
                if u == 0 {
                    Dominator::Root
                } else if u < base {
                    Dominator::Group(u - 1)
                } else {
                    Dominator::Node((u - base) as u32)
                }
            });
            assert_eq!(
                d.idom(v),
                want,
                "round {round}: idom of {v} in {edges:?} {group_nodes:?}"
            );
            assert_eq!(
                d.retained(v),
                naive_retained(&g, &groups, v as usize + base, size),
                "round {round}: retained by {v} in {edges:?} {group_nodes:?}"
            );
        }
        for i in 0..groups.len() {
            assert_eq!(
                d.group_retained(i),
                naive_retained(&g, &groups, i + 1, size),
                "round {round}: retained by group {i}"
            );
        }
    }
}

#[test]
fn empty_graph_and_no_groups() {
    let g = graph(0, &[]);
    let d = doms(&g, &[]);
    assert_eq!(d.live(), r(0));
    let g = graph(3, &[(0, 1)]);
    let d = doms(&g, &[]);
    assert_eq!(d.reachable_nodes(), 0);
    assert_eq!(d.idom(1), None);
}

#[test]
fn bad_input_is_an_error() {
    assert!(Csr::from_edges(2, &[(0, 2)]).is_err());
    let g = graph(2, &[(0, 1)]);
    assert!(Dominators::compute(&g, &[&[5]], 0, |_| 1).is_err());
}

/// [`Dominators::visit_tree`]'s callbacks.
fn visit_calls(d: &Dominators) -> Vec<(u32, bool)> {
    let mut calls = Vec::new();
    d.visit_tree(|n, entering| calls.push((n, entering)));
    calls
}

/// The callbacks [`Dominators::visit_tree`] must make, computed naively: children lists from
/// the immediate dominators (the groups first, then the nodes in node order), walked depth
/// first with an explicit stack.
fn naive_visit_calls(d: &Dominators, groups: usize) -> Vec<(u32, bool)> {
    let base = groups + 1;
    let total = base + d.nodes();
    let mut kids: Vec<Vec<usize>> = vec![Vec::new(); total];
    kids[0].extend(1..base);
    for n in 0..d.nodes() {
        let v = n + base;
        match d.idom(n as u32) {
            None => {}
            Some(Dominator::Root) => kids[0].push(v),
            Some(Dominator::Group(g)) => kids[g + 1].push(v),
            Some(Dominator::Node(u)) => kids[u as usize + base].push(v),
        }
    }
    let mut calls = Vec::new();
    let mut stack = vec![(0usize, 0usize)];
    while let Some(&mut (v, ref mut next)) = stack.last_mut() {
        if let Some(&w) = kids[v].get(*next) {
            *next += 1;
            if w >= base {
                calls.push(((w - base) as u32, true));
            }
            stack.push((w, 0));
        } else {
            stack.pop();
            if v >= base {
                calls.push(((v - base) as u32, false));
            }
        }
    }
    calls
}

#[test]
fn visit_tree_matches_the_naive_walk_on_random_graphs_and_trees() {
    let mut rng = fastrand::Rng::with_seed(35);
    for round in 0..300 {
        let n = rng.usize(1..3000);
        let mut edges: Vec<(u32, u32)> = Vec::new();
        if round % 2 == 0 {
            // A random graph: dominators of every shape, some nodes unreachable.
            let m = rng.usize(0..n * 3);
            edges.extend((0..m).map(|_| (rng.u32(0..n as u32), rng.u32(0..n as u32))));
        } else {
            // A random tree in a shuffled node order (its own dominator tree), with a few
            // shortcuts.
            let mut order: Vec<u32> = (0..n as u32).collect();
            rng.shuffle(&mut order);
            for i in 1..n {
                let p = order[rng.usize(0..i)];
                edges.push((p, order[i]));
            }
            for _ in 0..rng.usize(0..4) {
                edges.push((rng.u32(0..n as u32), rng.u32(0..n as u32)));
            }
        }
        let g = graph(n, &edges);
        let group_nodes: Vec<Vec<u32>> = (0..rng.usize(0..4))
            .map(|_| (0..rng.usize(0..4)).map(|_| rng.u32(0..n as u32)).collect())
            .collect();
        let groups: Vec<&[u32]> = group_nodes.iter().map(|g| &g[..]).collect();
        let d = doms(&g, &groups);
        assert_eq!(
            visit_calls(&d),
            naive_visit_calls(&d, groups.len()),
            "round {round}"
        );
    }
}

#[test]
fn visit_tree_matches_the_naive_walk_on_a_long_chain_and_a_star() {
    const N: u32 = 1_000_000;
    // A chain 1 M deep, numbered backwards (each node's dominator comes after it).
    let edges: Vec<(u32, u32)> = (1..N).map(|i| (i, i - 1)).collect();
    let d = doms(&graph(N as usize, &edges), &[&[N - 1]]);
    let calls = visit_calls(&d);
    assert_eq!(calls.len(), 2 * N as usize);
    assert_eq!(calls, naive_visit_calls(&d, 1));
    // A star: node 0 dominates 1 M others, some of them with a child of their own.
    let mut edges: Vec<(u32, u32)> = (1..=N).map(|i| (0, i)).collect();
    edges.extend((1..N / 10).map(|i| (i * 10, N + i)));
    let d = doms(&graph(N as usize + N as usize / 10, &edges), &[&[0], &[5]]);
    assert_eq!(calls_len(&d), 2 * (N as usize + N as usize / 10));
    assert_eq!(visit_calls(&d), naive_visit_calls(&d, 2));
}

fn calls_len(d: &Dominators) -> usize {
    let mut n = 0;
    d.visit_tree(|_, _| n += 1);
    n
}
