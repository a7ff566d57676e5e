//! Shared test helpers: the committed fixture snapshots (`fixtures/snapshots/<name>/<mode>/`),
//! materialized once into `target/fixture-snapshots/<name>/<mode>` as plain icp-cli/dfx snapshot
//! directories (`fixtures.rs`, which the mutation campaign shares); and the on-demand fixtures
//! the tests generate themselves, such as `big-small` (`generated.rs`).

pub mod doc_examples;
mod fixtures;
mod generated;
pub mod machine;
pub mod packs;
pub mod schemas;
mod scripts;
pub mod skip;

pub use fixtures::*;
pub use generated::{generated_fixture, GENERATED_BY_TESTS};
pub use packs::{packed_compiler_fixture, packed_compiler_fixtures};
pub use scripts::eval_scripts;

use std::path::{Path, PathBuf};

/// Where the fixtures of older compilers live: `fixtures/compilers` (`docs/fixtures.md`).
pub fn compilers_root() -> PathBuf {
    repo_root().join("fixtures").join("compilers")
}

/// Every committed fixture of an older compiler as `(name, mode)`, sorted.
pub fn compiler_fixtures() -> Vec<(String, String)> {
    fixtures::fixtures_under(&compilers_root())
}

/// The plain snapshot directory of an older compiler's fixture `name` in `mode`, materialized
/// into `<target>/fixture-snapshots/compilers/<name>/<mode>` like [`fixture`].
pub fn compiler_fixture(name: &str, mode: &str) -> PathBuf {
    fixtures::materialize_once(
        &compilers_root().join(name).join(mode),
        &materialized_root().join("compilers").join(name),
        mode,
    )
}

/// Every committed fixture as `(name, mode, materialized dir)`, sorted by name then mode.
pub fn all_fixtures() -> Vec<(String, String, PathBuf)> {
    let mut out = Vec::new();
    for (name, mode) in committed_fixtures() {
        let dir = fixture(&name, &mode);
        out.push((name, mode, dir));
    }
    out
}

/// Whether mo-mem's `debug_show` text `got` is what a fixture's expected.json says. A cyclic
/// value (a doubly linked `mo:core/Queue`) has no text of its own (the canister's `debug_show`
/// would never end): fixtures expect the marker `<cyclic>`, and mo-mem prints the back-reference
/// `<cycle 0x…>` (docs/formats.md) where the object at that address would repeat, which
/// [`doubly_linked_queue`] checks exactly.
pub fn debug_show_matches(expected: &str, got: &str) -> bool {
    expected == got || (expected == "<cyclic>" && doubly_linked_queue(got).is_ok())
}

/// A link of a queue node as rendered: `null`, a back-reference, or a nested node.
#[derive(Debug, PartialEq)]
enum Link {
    Null,
    Cycle(u64),
    Node,
}

/// One node of a rendered chain: `{next = …; previous = …; value = …}`.
#[derive(Debug)]
struct Cell {
    next: Link,
    previous: Link,
    value: String,
}

/// Checks that `text` is exactly the `debug_show` of a `mo:core/Queue` of two or more
/// elements with its cycles cut as docs/formats.md says: `{back = ?B; front = ?F; size = N}`,
/// `B` the last node unfolded through `previous` and `F` the first through `next`, each node
/// holding the back-reference `<cycle A>` where its link returns to the node it was reached
/// from (A that node's address), both chains the same N values in opposite orders, and both
/// naming the same N distinct, word-aligned addresses for the same nodes.
pub fn doubly_linked_queue(text: &str) -> Result<(), String> {
    let (back, rest) = chain(text.strip_prefix("{back = ?").ok_or("no `{back = ?`")?)?;
    let (front, rest) = chain(rest.strip_prefix("; front = ?").ok_or("no `; front = ?`")?)?;
    let size = rest
        .strip_prefix("; size = ")
        .and_then(|r| r.strip_suffix('}'))
        .ok_or("no `; size = N}`")?;
    let n = back.len();
    if size.replace('_', "") != n.to_string() || front.len() != n || n < 2 {
        return Err(format!(
            "size {size}, back {n} nodes, front {} nodes",
            front.len()
        ));
    }
    // back[j] is node n - j (1-based), reached through `previous`: its `next` returns to node
    // n - j + 1; front[k] is node k + 1, reached through `next`: its `previous` returns to k.
    let mut addr = vec![None; n + 1];
    let mut claim = |node: usize, a: u64| match addr[node] {
        Some(b) if b != a => Err(format!("node {node} is at {b:#x} and at {a:#x}")),
        _ => {
            addr[node] = Some(a);
            Ok(())
        }
    };
    for (j, cell) in back.iter().enumerate() {
        let (next, previous) = match j {
            0 => (Link::Null, Link::Node),
            _ if j == n - 1 => (cell_cycle(&cell.next)?, Link::Null),
            _ => (cell_cycle(&cell.next)?, Link::Node),
        };
        if cell.next != next || cell.previous != previous {
            return Err(format!("back node {j}: {cell:?}"));
        }
        if let Link::Cycle(a) = cell.next {
            claim(n - j + 1, a)?;
        }
        if cell.value != front[n - 1 - j].value {
            return Err(format!("value {j}: {cell:?} vs {:?}", front[n - 1 - j]));
        }
    }
    for (k, cell) in front.iter().enumerate() {
        let (next, previous) = match k {
            0 => (Link::Node, Link::Null),
            _ if k == n - 1 => (Link::Null, cell_cycle(&cell.previous)?),
            _ => (Link::Node, cell_cycle(&cell.previous)?),
        };
        if cell.next != next || cell.previous != previous {
            return Err(format!("front node {k}: {cell:?}"));
        }
        if let Link::Cycle(a) = cell.previous {
            claim(k, a)?;
        }
    }
    let addrs: std::collections::BTreeSet<u64> = addr.iter().flatten().copied().collect();
    if addrs.len() != n {
        return Err(format!(
            "{} distinct node addresses for {n} nodes",
            addrs.len()
        ));
    }
    // An object's address, not a (skewed) pointer word: objects are word-aligned in both
    // layouts (4 bytes classical, 8 EOP), a pointer word is the address minus one.
    match addrs.iter().find(|a| *a % 4 != 0) {
        Some(a) => Err(format!("{a:#x} is not an object's address")),
        None => Ok(()),
    }
}

fn cell_cycle(link: &Link) -> Result<Link, String> {
    match link {
        Link::Cycle(a) => Ok(Link::Cycle(*a)),
        other => Err(format!("a back-reference expected, not {other:?}")),
    }
}

/// The nodes of one chain starting at `text` (outermost first) and the text after it.
fn chain(text: &str) -> Result<(Vec<Cell>, &str), String> {
    let mut cells = Vec::new();
    let rest = cell(text, &mut cells).ok_or_else(|| format!("not a node: {:.80}", text))?;
    Ok((cells, rest))
}

fn cell<'a>(text: &'a str, cells: &mut Vec<Cell>) -> Option<&'a str> {
    let text = text.strip_prefix("{next = ")?;
    let at = cells.len();
    cells.push(Cell {
        next: Link::Null,
        previous: Link::Null,
        value: String::new(),
    });
    let (next, text) = link(text, cells)?;
    let (previous, text) = link(text.strip_prefix("; previous = ")?, cells)?;
    let text = text.strip_prefix("; value = ")?;
    let end = value_end(text)?;
    cells[at] = Cell {
        next,
        previous,
        value: text[..end].to_string(),
    };
    Some(&text[end + 1..])
}

fn link<'a>(text: &'a str, cells: &mut Vec<Cell>) -> Option<(Link, &'a str)> {
    if let Some(rest) = text.strip_prefix("null") {
        return Some((Link::Null, rest));
    }
    if let Some(rest) = text.strip_prefix("?<cycle 0x") {
        let end = rest.find('>')?;
        let addr = u64::from_str_radix(&rest[..end], 16).ok()?;
        return Some((Link::Cycle(addr), &rest[end + 1..]));
    }
    let rest = cell(text.strip_prefix('?')?, cells)?;
    Some((Link::Node, rest))
}

/// Where the `}` closing the node a value ends lies (brackets and text literals skipped).
fn value_end(text: &str) -> Option<usize> {
    let (mut depth, mut in_text, mut escaped) = (0usize, false, false);
    for (i, c) in text.char_indices() {
        match c {
            _ if escaped => escaped = false,
            '\\' if in_text => escaped = true,
            '"' => in_text = !in_text,
            _ if in_text => {}
            '(' | '[' | '{' => depth += 1,
            ')' | ']' => depth = depth.checked_sub(1)?,
            '}' if depth == 0 => return Some(i),
            '}' => depth -= 1,
            _ => {}
        }
    }
    None
}

/// Runs `mo-mem ARGS`, which must succeed; its standard output.
pub fn mo_mem_ok(args: &[&str]) -> Vec<u8> {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_mo-mem"))
        .args(args)
        .output()
        .expect("run mo-mem");
    assert!(
        out.status.success(),
        "mo-mem {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}

/// A private copy of the snapshot directory `from` in `to` (its regular files), for tests
/// that change them.
pub fn copy_snapshot(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        if entry.file_type().unwrap().is_file() {
            std::fs::copy(entry.path(), to.join(entry.file_name())).unwrap();
        }
    }
}
