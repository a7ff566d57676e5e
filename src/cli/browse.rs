//! `mo-mem ls/cat/tree SNAPSHOT [PATH]`: the mount's tree without mounting.

use super::mount::eval_deadline;
use anyhow::Context;
use mo_mem::image::ReaderLimits;
use mo_mem::runtime::offline::CallOptions;
use mo_mem::serve::front::snapshot_root;
use mo_mem::vfs::{Entry, Ino, NodeKind, Tree, TreeConfig};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Arguments of `mo-mem ls`.
#[derive(clap::Args, Debug)]
pub struct LsArgs {
    /// A snapshot directory.
    pub snapshot: PathBuf,
    /// A path inside the snapshot's directory (default: its top).
    pub path: Option<String>,
    /// Long listing: kind, exact size, name.
    #[arg(short, long)]
    pub long: bool,
    /// Read a snapshot even if its manifest or files do not verify (see `mo-mem verify`).
    #[arg(long)]
    pub no_verify: bool,
}

/// Arguments of `mo-mem cat`.
#[derive(clap::Args, Debug)]
pub struct CatArgs {
    /// A snapshot directory.
    pub snapshot: PathBuf,
    /// Files inside the snapshot's directory (printed one after the other, like cat(1)).
    #[arg(required = true, num_args = 1..)]
    pub paths: Vec<String>,
    /// Read a snapshot even if its manifest or files do not verify (see `mo-mem verify`).
    #[arg(long)]
    pub no_verify: bool,
}

/// Arguments of `mo-mem tree`.
#[derive(clap::Args, Debug)]
pub struct TreeArgs {
    /// A snapshot directory.
    pub snapshot: PathBuf,
    /// A directory inside the snapshot's directory (default: its top).
    pub path: Option<String>,
    /// How many levels to descend.
    #[arg(short = 'L', long, default_value_t = 3)]
    pub depth: usize,
    /// Read a snapshot even if its manifest or files do not verify (see `mo-mem verify`).
    #[arg(long)]
    pub no_verify: bool,
}

/// The tree of one snapshot, rooted at its directory (as the mount shows it). A snapshot
/// from the store (or with a manifest) must verify first, unless `no_verify`.
fn snapshot_tree(snapshot: &Path, no_verify: bool, limits: ReaderLimits) -> anyhow::Result<Tree> {
    anyhow::ensure!(
        mo_mem::vfs::is_snapshot_dir(snapshot),
        "{} is not a snapshot directory (no wasm_memory.bin or metadata.json)",
        snapshot.display()
    );
    let admitted = mo_mem::serve::admit(snapshot, no_verify, limits)?;
    if let Some(note) = admitted.note() {
        eprintln!("{note}");
    }
    let name = snapshot
        .canonicalize()
        .ok()
        .and_then(|p| p.file_name().map(|n| n.to_string_lossy().into_owned()))
        .unwrap_or_else(|| "snapshot".into());
    // served from the catalog that admitted it: the tree reads the same verdict
    let calls = CallOptions::default();
    let dir = snapshot_root(&name, snapshot, admitted.snapshots, calls, eval_deadline());
    // The command visits only what it prints: keep every node it makes.
    let config = TreeConfig {
        max_unreferenced_nodes: usize::MAX,
        ..TreeConfig::default()
    };
    Ok(Tree::new(Entry::Dir(Arc::new(dir)), config)?)
}

fn resolve(tree: &Tree, path: Option<&str>) -> anyhow::Result<Ino> {
    let path = path.unwrap_or("");
    tree.resolve(path)
        .with_context(|| format!("no such path: {path}"))
}

/// Writes to stdout; a closed pipe ends the output quietly.
fn emit(bytes: &[u8]) -> anyhow::Result<()> {
    let mut out = std::io::stdout().lock();
    // a reader that stopped early is an exit 0, decided once in `cli::main`
    Ok(out.write_all(bytes).and_then(|()| out.flush())?)
}

fn suffix(kind: NodeKind) -> &'static str {
    match kind {
        NodeKind::Dir => "/",
        _ => "",
    }
}

/// Runs `mo-mem ls`: one name per line (directories end with `/`), in listing order.
pub fn ls(args: LsArgs, limits: ReaderLimits) -> anyhow::Result<()> {
    let tree = snapshot_tree(&args.snapshot, args.no_verify, limits)?;
    let ino = resolve(&tree, args.path.as_deref())?;
    let attr = tree.getattr(ino)?;
    let mut out = String::new();
    let entries = if attr.kind == NodeKind::Dir {
        tree.children(ino, true)?
            .into_iter()
            .map(|c| (c.name.to_string(), c.ino, c.kind))
            .collect()
    } else {
        let name = args.path.clone().unwrap_or_default();
        vec![(name, ino, attr.kind)]
    };
    for (name, child, kind) in entries {
        if args.long {
            let attr = tree.getattr(child)?;
            let letter = match kind {
                NodeKind::Dir => 'd',
                NodeKind::Symlink => 'l',
                NodeKind::File | NodeKind::Control => '-',
            };
            out.push_str(&format!(
                "{letter} {:>12} {name}{}\n",
                attr.size,
                suffix(kind)
            ));
        } else {
            out.push_str(&format!("{name}{}\n", suffix(kind)));
        }
    }
    emit(out.as_bytes())
}

/// Runs `mo-mem cat`: each file's exact bytes, in order.
pub fn cat(args: CatArgs, limits: ReaderLimits) -> anyhow::Result<()> {
    let tree = snapshot_tree(&args.snapshot, args.no_verify, limits)?;
    for path in &args.paths {
        let ino = resolve(&tree, Some(path))?;
        let bytes = tree
            .read_all(ino)
            .with_context(|| format!("cannot read {path}"))?;
        emit(&bytes)?;
    }
    Ok(())
}

/// Runs `mo-mem tree`: the directory tree, `tree(1)` style, down to `--depth` levels.
pub fn tree(args: TreeArgs, limits: ReaderLimits) -> anyhow::Result<()> {
    let tree = snapshot_tree(&args.snapshot, args.no_verify, limits)?;
    let ino = resolve(&tree, args.path.as_deref())?;
    let label = args.path.clone().unwrap_or_else(|| ".".into());
    let mut out = format!("{label}\n");
    draw(&tree, ino, "", args.depth, &mut out)?;
    emit(out.as_bytes())
}

fn draw(tree: &Tree, ino: Ino, prefix: &str, depth: usize, out: &mut String) -> anyhow::Result<()> {
    if depth == 0 {
        return Ok(());
    }
    let children = tree.children(ino, true)?;
    let count = children.len();
    for (i, child) in children.into_iter().enumerate() {
        let last = i + 1 == count;
        let branch = if last { "└── " } else { "├── " };
        out.push_str(&format!(
            "{prefix}{branch}{}{}\n",
            child.name,
            suffix(child.kind)
        ));
        if child.kind == NodeKind::Dir {
            let deeper = format!("{prefix}{}", if last { "    " } else { "│   " });
            draw(tree, child.ino, &deeper, depth - 1, out)?;
        }
    }
    Ok(())
}
