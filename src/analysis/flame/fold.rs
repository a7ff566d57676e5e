//! Folded stacks of retained memory: the dominator tree aggregated by Motoko access path.
//!
//! Each live object becomes part of one frame: under its dominator's frame, the frame named by
//! the step from the dominator and the object's Motoko type (`name: Text`, `[] Person`,
//! `?Nat`), so siblings of one type reached the same way merge (all elements of an array of
//! records are one frame `[] Item ×n`). An object dominated by a root group starts a root
//! frame (`vars.NAME` for a stable variable's object, `<group>` otherwise). A frame's own
//! weight is the bytes of its objects, so the weight under a frame is what they retain, and
//! the weight under `vars.NAME` is the variable's retained size.
//!
//! Bounded whatever the heap: one pass over the live objects in index order, each after the
//! chain of its dominators without a frame (no recursion, no tree built); a frame
//! whose name is already on its path (a list's nodes, a tree's subtrees) folds into that
//! ancestor; at most [`MAX_DEPTH`] levels and [`MAX_TREE_FRAMES`] frames are built (deeper or
//! further objects join their parent frame); at most [`FoldOptions::max_frames`] frames are
//! printed, the largest (the rest are merged into an `(smaller frames)` frame under their
//! nearest printed ancestor).

use std::cmp::Reverse;
use std::collections::HashMap;
use std::fmt::Write;

use super::super::dominators::Dominator;
use super::super::types::NO_LABEL;
use super::super::{HeapAnalysis, OpenedHeap};
use super::addresses::AddressWindow;
use super::parents::Parents;
use super::step::FrameStep;

/// The frames printed by default.
pub const DEFAULT_MAX_FRAMES: usize = 1500;

/// The deepest frame built (root frame at depth 1).
pub const MAX_DEPTH: u16 = 40;

/// The most frames built before printing.
pub const MAX_TREE_FRAMES: usize = 200_000;

/// The name of the frame that holds the frames too small to print.
pub const SMALLER_FRAMES: &str = "(smaller frames)";

/// How stacks are folded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FoldOptions {
    /// The most frames printed (the largest by weight).
    pub max_frames: usize,
    /// Whether frame names end with their object count (`×n`); off for a differential
    /// picture, whose frames are matched by name.
    pub counts: bool,
}

impl Default for FoldOptions {
    fn default() -> Self {
        FoldOptions {
            max_frames: DEFAULT_MAX_FRAMES,
            counts: true,
        }
    }
}

/// Folded stacks: `frame;frame;frame weight` lines, sorted, with weights in bytes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FoldedStacks {
    lines: Vec<(String, u64)>,
    frames: usize,
}

/// What a frame's name is made of.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum NameKey {
    /// A root frame: a stable variable by index, or a root group by name.
    Var(usize),
    Group(&'static str),
    /// An object's frame: the step to it and its type (a label index, or a heap tag).
    Node(FrameStep, TypeKey),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum TypeKey {
    Label(u32),
    Tag(&'static str),
}

struct Frame {
    parent: u32,
    name: u32,
    depth: u16,
    bytes: u64,
    objects: u64,
}

/// The frame tree under construction (frame 0 is the whole heap; a parent's index is below
/// its children's).
struct Tree {
    frames: Vec<Frame>,
    keys: Vec<NameKey>,
    key_ids: HashMap<NameKey, u32>,
    children: HashMap<(u32, u32), u32>,
    /// Per frame, the last child looked up under it and the frame `children` gave (siblings
    /// of one kind come one after the other: the elements of an array, a record's fields),
    /// so most objects need no hashing.
    last_child: Vec<Option<(NameKey, u32)>>,
}

/// The frame tree of a heap's retained memory, built in one pass over its dominator tree and
/// printed at any number of frames ([`FrameTree::stacks`]).
pub struct FrameTree {
    tree: Tree,
}

impl FrameTree {
    /// The frame tree of `a` (the analysis of `opened`).
    pub fn build(opened: &OpenedHeap, a: &HeapAnalysis) -> FrameTree {
        FrameTree {
            tree: build(opened, a),
        }
    }

    /// The folded stacks of its largest `options.max_frames` frames.
    pub fn stacks(
        &self,
        opened: &OpenedHeap,
        a: &HeapAnalysis,
        options: FoldOptions,
    ) -> FoldedStacks {
        emit(opened, a, &self.tree, options)
    }
}

impl Tree {
    fn new() -> Tree {
        Tree {
            frames: vec![Frame {
                parent: 0,
                name: u32::MAX,
                depth: 0,
                bytes: 0,
                objects: 0,
            }],
            keys: Vec::new(),
            key_ids: HashMap::new(),
            children: HashMap::new(),
            last_child: vec![None],
        }
    }

    /// The frame named `key` under `parent`.
    fn child(&mut self, parent: u32, key: NameKey) -> u32 {
        if let Some(Some((last, f))) = self.last_child.get(parent as usize) {
            if *last == key {
                return *f;
            }
        }
        let name = match self.key_ids.get(&key) {
            Some(&id) => id,
            None => {
                let id = self.keys.len() as u32;
                self.keys.push(key);
                self.key_ids.insert(key, id);
                id
            }
        };
        if let Some(&f) = self.children.get(&(parent, name)) {
            self.last_child[parent as usize] = Some((key, f));
            return f;
        }
        let f = self.place(parent, name);
        if self.children.len() < 4 * MAX_TREE_FRAMES {
            self.children.insert((parent, name), f);
            // only what `children` answers is remembered: the same frame it would give
            self.last_child[parent as usize] = Some((key, f));
        }
        f
    }

    /// Where an object named `name` under `parent` goes: an ancestor of the same name, the
    /// parent if the tree is at its limits, else a new frame.
    fn place(&mut self, parent: u32, name: u32) -> u32 {
        let mut a = parent;
        while a != 0 {
            let f = &self.frames[a as usize];
            if f.name == name {
                return a;
            }
            a = f.parent;
        }
        let p = &self.frames[parent as usize];
        if p.depth >= MAX_DEPTH || self.frames.len() >= MAX_TREE_FRAMES {
            return parent;
        }
        let depth = p.depth + 1;
        self.frames.push(Frame {
            parent,
            name,
            depth,
            bytes: 0,
            objects: 0,
        });
        self.last_child.push(None);
        (self.frames.len() - 1) as u32
    }
}

impl FoldedStacks {
    /// Folds the dominator tree of `a` (the analysis of `opened`).
    pub fn compute(opened: &OpenedHeap, a: &HeapAnalysis, options: FoldOptions) -> FoldedStacks {
        FrameTree::build(opened, a).stacks(opened, a, options)
    }

    /// The stacks and their weights in bytes, sorted by stack.
    pub fn lines(&self) -> &[(String, u64)] {
        &self.lines
    }

    /// The frames printed (distinct stack prefixes), the merged ones included.
    pub fn frames(&self) -> usize {
        self.frames
    }

    /// The sum of the weights: every live byte.
    pub fn total(&self) -> u64 {
        self.lines.iter().map(|(_, w)| w).sum()
    }

    /// The sum of the weights of the stacks that start with root frame `root` (`vars.NAME`).
    pub fn total_under(&self, root: &str) -> u64 {
        self.lines
            .iter()
            .filter(|(s, _)| s == root || s.strip_prefix(root).is_some_and(|r| r.starts_with(';')))
            .map(|(_, w)| w)
            .sum()
    }

    /// The folded text `inferno` reads: one `stack weight` line each.
    pub fn text(&self) -> String {
        let mut out = String::new();
        for (s, w) in &self.lines {
            let _ = writeln!(out, "{s} {w}");
        }
        out
    }
}

/// One pass over the live objects: each object joins the frame named by its step and type
/// under its dominator's frame.
fn build(opened: &OpenedHeap, a: &HeapAnalysis) -> Tree {
    let heap = opened.heap();
    let graph = a.graph();
    let doms = a.dominators();
    let labels = a.labels(opened);
    let mut var_of: HashMap<u32, usize> = HashMap::new();
    for (i, v) in graph.vars().iter().enumerate() {
        if let Some(n) = v.node {
            var_of.entry(n).or_insert(i);
        }
    }
    let mut tree = Tree::new();
    // Each object's frame, set once its dominator's is: objects are taken in index (address)
    // order, each after the chain of dominators above it that has no frame yet (an explicit
    // chain, no recursion), so the heap is read nearly in order and no tree is built.
    // `frame_of[n]` is node n's frame + 1 (0: none yet).
    let nodes = graph.nodes();
    let mut frame_of: Vec<u32> = vec![0; nodes];
    let mut chain: Vec<(u32, Option<Dominator>)> = Vec::new();
    let mut addresses = AddressWindow::new(graph);
    let mut parents = Parents::new(heap);
    for first in 0..nodes as u32 {
        addresses.advance(first);
        if frame_of[first as usize] != 0 {
            continue;
        }
        let Some(mut idom) = doms.idom(first) else {
            continue;
        };
        chain.clear();
        let mut v = first;
        loop {
            chain.push((v, Some(idom)));
            match idom {
                // (a chain longer than the heap would be a cycle: never in a dominator tree)
                Dominator::Node(d) if frame_of[d as usize] == 0 && chain.len() <= nodes => {
                    v = d;
                    match doms.idom(d) {
                        Some(i) => idom = i,
                        None => {
                            chain.push((d, None));
                            break;
                        }
                    }
                }
                _ => break,
            }
        }
        while let Some((n, idom)) = chain.pop() {
            let i = labels.label_index(n);
            let ty = if i == NO_LABEL {
                let addr = addresses.get(n);
                TypeKey::Tag(heap.object(addr).ok().map_or("?", |o| o.tag.name()))
            } else {
                TypeKey::Label(i)
            };
            let (parent, step) = match idom {
                Some(Dominator::Node(d)) => {
                    let step = parents.step(d, || addresses.get(d), || addresses.get(n));
                    // (a dominator's frame is set before the objects it dominates)
                    debug_assert_ne!(frame_of[d as usize], 0);
                    (frame_of[d as usize].saturating_sub(1), step)
                }
                idom => {
                    let root = match (var_of.get(&n), idom) {
                        (Some(&v), _) => NameKey::Var(v),
                        (None, Some(Dominator::Group(g))) => {
                            NameKey::Group(graph.roots().get(g).map_or("roots", |r| r.group.name()))
                        }
                        _ => NameKey::Group("several roots"),
                    };
                    (tree.child(0, root), FrameStep::Top)
                }
            };
            let f = tree.child(parent, NameKey::Node(step, ty));
            let frame = &mut tree.frames[f as usize];
            frame.bytes += graph.size(n);
            frame.objects += 1;
            frame_of[n as usize] = f + 1;
        }
    }
    tree
}

/// Prints the largest `options.max_frames` frames as folded stacks.
fn emit(opened: &OpenedHeap, a: &HeapAnalysis, tree: &Tree, options: FoldOptions) -> FoldedStacks {
    let frames = &tree.frames;
    let n = frames.len();
    let mut total: Vec<u64> = frames.iter().map(|f| f.bytes).collect();
    for i in (1..n).rev() {
        let p = frames[i].parent as usize;
        total[p] += total[i];
    }
    let mut order: Vec<u32> = (1..n as u32).filter(|&i| total[i as usize] > 0).collect();
    order.sort_unstable_by_key(|&i| (Reverse(total[i as usize]), i));
    order.truncate(options.max_frames);
    // A parent weighs at least as much as its child and has a lower index: it is kept first.
    order.sort_unstable();
    let mut kept_children = vec![0u64; n];
    for &i in &order {
        kept_children[frames[i as usize].parent as usize] += total[i as usize];
    }
    let mut stack: Vec<Option<String>> = vec![None; n];
    stack[0] = Some(String::new());
    let mut lines: Vec<(String, u64)> = Vec::new();
    let mut printed = order.len();
    let smaller = |prefix: &str| match prefix {
        "" => SMALLER_FRAMES.to_string(),
        p => format!("{p};{SMALLER_FRAMES}"),
    };
    for &i in &order {
        let f = &frames[i as usize];
        let Some(prefix) = stack[f.parent as usize].as_deref() else {
            debug_assert!(false, "a printed frame's parent is printed");
            continue;
        };
        let name = frame_name(
            opened,
            a,
            tree.keys[f.name as usize],
            f.objects,
            options.counts,
        );
        let s = if prefix.is_empty() {
            name
        } else {
            format!("{prefix};{name}")
        };
        if f.bytes > 0 {
            lines.push((s.clone(), f.bytes));
        }
        let rest = total[i as usize] - f.bytes - kept_children[i as usize];
        if rest > 0 {
            lines.push((smaller(&s), rest));
            printed += 1;
        }
        stack[i as usize] = Some(s);
    }
    let rest = total[0] - kept_children[0];
    if rest > 0 {
        lines.push((smaller(""), rest));
        printed += 1;
    }
    lines.sort_unstable();
    FoldedStacks {
        lines,
        frames: printed,
    }
}

/// The text of a frame: `vars.NAME`, `<group>`, or the step and type of its objects
/// (`name: Text`, `[] Person ×1000`), without `;` (the folded format's separator).
fn frame_name(
    opened: &OpenedHeap,
    a: &HeapAnalysis,
    key: NameKey,
    objects: u64,
    counts: bool,
) -> String {
    let field = |h: u32| {
        opened
            .labels()
            .get(&h)
            .map_or_else(|| format!("#{h}"), |l| l.to_string())
    };
    let mut name = match key {
        NameKey::Var(v) => {
            let vars = a.graph().vars();
            let node = vars.get(v).and_then(|v| v.node);
            let names: Vec<String> = vars
                .iter()
                .filter(|w| w.node.is_some() && w.node == node)
                .map(|w| format!("vars.{}", w.name))
                .collect();
            return clean(names.join(" = "));
        }
        NameKey::Group(g) => return format!("<{g}>"),
        NameKey::Node(step, ty) => {
            let ty = match ty {
                TypeKey::Label(i) => a
                    .labels(opened)
                    .names()
                    .get(i as usize)
                    .map_or_else(|| "?".to_string(), |l| l.to_string()),
                TypeKey::Tag(t) => format!("<{t}>"),
            };
            match step {
                FrameStep::Top | FrameStep::Var | FrameStep::Ref => ty,
                FrameStep::Field(h) => format!("{}: {ty}", field(h)),
                FrameStep::Element => format!("[] {ty}"),
                FrameStep::Some => format!("?{ty}"),
                FrameStep::Variant(h) => format!("#{} {ty}", field(h)),
                FrameStep::Captured => format!("<captured> {ty}"),
            }
        }
    };
    if counts && objects > 1 {
        let _ = write!(name, " ×{objects}");
    }
    clean(name)
}

/// `s` without the folded format's separators (`;` becomes `,`, line breaks spaces).
fn clean(s: String) -> String {
    if !s.contains([';', '\n', '\r']) {
        return s;
    }
    s.replace(';', ",").replace(['\n', '\r'], " ")
}
