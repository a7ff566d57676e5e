//! The nearest marked dominator of nodes: each node's chain of immediate dominators is
//! followed upwards, without recursion, until a marked node, a root or a node already
//! answered; every node passed is then given the answer, so each node is walked once
//! (4 bytes per node of the graph while it runs). [`MarkedAbove`] answers only whether a
//! marked node dominates, in 2 bits per node.

use std::collections::HashMap;

use super::bits::Bits;
use super::context::Context;
use crate::analysis::dominators::Dominator;

/// No marked node dominates the node.
pub const UNMARKED: u32 = u32::MAX - 1;

/// Not answered yet.
const UNSET: u32 = u32::MAX;

/// Per node of `starts` (in order): the mark of the nearest node of `marks` that dominates
/// it, itself included, or [`UNMARKED`]. Marks must be below [`UNMARKED`].
pub fn nearest_marked(
    ctx: &Context<'_>,
    marks: &HashMap<u32, u32>,
    starts: impl Iterator<Item = u32>,
) -> Vec<u32> {
    let doms = ctx.a.dominators();
    let mut memo = vec![UNSET; ctx.graph().nodes()];
    let mut chain: Vec<u32> = Vec::new();
    starts
        .map(|start| {
            chain.clear();
            let mut cur = start;
            let mark = loop {
                let known = memo.get(cur as usize).copied().unwrap_or(UNMARKED);
                if known != UNSET {
                    break known;
                }
                chain.push(cur);
                if let Some(&m) = marks.get(&cur) {
                    break m;
                }
                match doms.idom(cur) {
                    Some(Dominator::Node(p)) => cur = p,
                    _ => break UNMARKED,
                }
            };
            for &n in &chain {
                memo[n as usize] = mark;
            }
            mark
        })
        .collect()
}

/// The immediate dominator of `n` when it is a node.
pub fn parent(ctx: &Context<'_>, n: u32) -> Option<u32> {
    match ctx.a.dominators().idom(n) {
        Some(Dominator::Node(p)) => Some(p),
        _ => None,
    }
}

/// Whether a marked node dominates nodes (itself included), asked one node at a time: each
/// node's chain of immediate dominators is followed upwards until a marked node, a root or a
/// node already answered, and every node passed is given the answer, so each node is walked
/// once over all the questions (2 bits per node of the graph).
pub struct MarkedAbove {
    known: Bits,
    yes: Bits,
    nodes: usize,
    chain: Vec<u32>,
}

impl MarkedAbove {
    /// No question answered yet, over `ctx`'s graph.
    pub fn new(ctx: &Context<'_>) -> MarkedAbove {
        let nodes = ctx.graph().nodes();
        MarkedAbove {
            known: Bits::new(nodes),
            yes: Bits::new(nodes),
            nodes,
            chain: Vec::new(),
        }
    }

    /// Whether a node of `marked` dominates `start` or is `start`; `marked` must be the same
    /// set for every question asked of one [`MarkedAbove`].
    pub fn ask(&mut self, ctx: &Context<'_>, marked: &Bits, start: u32) -> bool {
        let doms = ctx.a.dominators();
        self.chain.clear();
        let mut cur = start;
        let answer = loop {
            if cur as usize >= self.nodes {
                break false;
            }
            if self.known.get(cur) {
                break self.yes.get(cur);
            }
            self.chain.push(cur);
            if marked.get(cur) {
                break true;
            }
            match doms.idom(cur) {
                Some(Dominator::Node(p)) => cur = p,
                _ => break false,
            }
        };
        for &n in &self.chain {
            self.known.set(n);
            if answer {
                self.yes.set(n);
            }
        }
        answer
    }
}
