//! One run: a (mutated) snapshot through what users touch, in-process: `info`, `stats`,
//! `vars` (Motoko text and JSON), `retained` (graph, dominators, retained sizes), the `objects/` rendering of a sample of objects, and the
//! mount's tree (directories to a bounded depth, a sample of files read fully, each file's
//! `stat` size checked against the bytes read). Of the `objects/` block directories (64 KiB
//! of heap each, thousands of objects on dense heaps), those holding the edited bytes and a
//! few random others are listed.

use std::fmt::Debug;
use std::sync::Arc;

use mo_mem::analysis::retained::Analysis;
use mo_mem::analysis::stats::{heap_stats, HeapStats};
use mo_mem::heap::render::{json_string, write_debug_show, write_json};
use mo_mem::heap::value::{heap_signature, signature_decoder, stable_variables};
use mo_mem::heap::Heap;
use mo_mem::image::{Image, ReaderLimits};
use mo_mem::module::ModuleFacts;
use mo_mem::serve::heap_source::HeapDecoder;
use mo_mem::snapshot::Snapshot;
use mo_mem::vfs::entry::{FnFile, StaticDir};
use mo_mem::vfs::objects_dir::{ObjectsDir, BLOCK_BITS};
use mo_mem::vfs::vars_dir::ValueDir;
use mo_mem::vfs::{
    Child, DecodedSnapshot, Entry, NodeKind, SessionId, Tree, TreeConfig, VfsError, ROOT_INO,
};

/// The four files of one run (the unmutated ones shared with every other run).
pub struct Parts {
    /// `metadata.json`.
    pub metadata: Vec<u8>,
    /// The module (decompressed or not).
    pub module: Image,
    /// The main memory.
    pub memory: Image,
    /// The stable memory.
    pub stable: Image,
}

/// What a run did.
#[derive(Debug, Default)]
pub struct Outcome {
    /// Why the snapshot or its heap was refused (`stage:Kind`), if it was.
    pub refused: Option<String>,
    /// Typed errors of the paths after a successful open (`path:Kind`).
    pub partial: Vec<String>,
    /// Broken promises: a `stat` size that differs from the bytes read, invalid JSON.
    pub violations: Vec<String>,
}

/// The error's variant path from its `Debug` form: `Metadata/Json`, `Object/BadTag`.
pub fn kind_of(e: &impl Debug) -> String {
    let text = format!("{e:?}");
    let mut rest = text.as_str();
    let mut parts: Vec<&str> = Vec::new();
    while parts.len() < 3 {
        let n = rest
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(rest.len());
        if n == 0 {
            break;
        }
        parts.push(&rest[..n]);
        rest = &rest[n..];
        if let Some(r) = rest.strip_prefix('(') {
            rest = r;
        } else {
            break;
        }
    }
    let mut kind = parts.join("/");
    if let Some(i) = text.find("kind: ") {
        let k: String = text[i + 6..]
            .chars()
            .take_while(char::is_ascii_alphanumeric)
            .collect();
        kind.push_str(&format!("({k})"));
    }
    kind
}

/// Bounds of the tree walk.
const MAX_DEPTH: usize = 7;
const MAX_DIRS: usize = 48;
const MAX_FILES: usize = 40;
const FILES_PER_OBJECT_BLOCK: usize = 3;
const FILES_PER_DIR: usize = 8;
const SAMPLED_OBJECTS: usize = 12;
/// `objects/` block directories listed per run besides those holding edited bytes.
const RANDOM_BLOCKS: usize = 3;

/// Runs `parts` through every path; `facts` are the original module's facts when the
/// module is unmutated (its parse is then reused); `objects` are addresses to render;
/// `focus` are main-memory addresses whose `objects/` blocks are listed.
pub fn exercise(
    parts: Parts,
    facts: Option<&ModuleFacts>,
    objects: &[u64],
    seed: u64,
    focus: &[u64],
) -> Outcome {
    let mut out = Outcome::default();
    let snapshot = match Snapshot::from_images(
        Some(&parts.metadata),
        Some(parts.module),
        parts.memory,
        Some(parts.stable),
    ) {
        Ok(s) => s,
        Err(e) => {
            out.refused = Some(format!("snapshot:{}", kind_of(&e)));
            return out;
        }
    };
    let limits = ReaderLimits::default();
    let opened = match facts {
        Some(f) => Heap::open_with_module(snapshot, Some(f.clone()), limits),
        None => Heap::open(snapshot, limits),
    };
    let heap = match opened {
        Ok(h) => h,
        Err(e) => {
            out.refused = Some(format!("heap:{}", kind_of(&e)));
            return out;
        }
    };
    let mut rng = fastrand::Rng::with_seed(seed);
    let timing = std::env::var_os("MO_MEM_MUTATION_TIMING").is_some();
    let t = std::time::Instant::now();
    let lap = |what: &str| {
        if timing {
            eprintln!("  {what}: {:.1} ms", t.elapsed().as_secs_f64() * 1000.0);
        }
    };
    lap("open");
    let stats = info_and_stats(&heap, &mut out);
    lap("info+stats");
    vars(&heap, &mut out);
    lap("vars");
    retained(&heap, &stats, &mut out);
    lap("retained");
    let decoded = HeapDecoder::decoded_heap(heap);
    lap("decoded view");
    sample_objects(&decoded, objects, &mut rng, &mut out);
    lap("objects");
    walk_tree(decoded, focus, &mut rng, &mut out);
    lap("tree");
    out
}

fn check_json(what: &str, bytes: &[u8], out: &mut Outcome) {
    if let Err(e) = serde_json::from_slice::<serde::de::IgnoredAny>(bytes) {
        let head = String::from_utf8_lossy(&bytes[..bytes.len().min(200)]).into_owned();
        out.violations
            .push(format!("{what}: invalid JSON ({e}): {head:?}"));
    }
}

/// `mo-mem info` and `mo-mem stats` (text and JSON); the statistics.
fn info_and_stats(heap: &Heap, out: &mut Outcome) -> HeapStats {
    let stats = heap_stats(heap);
    let info = serde_json::json!({
        "layout": heap.layout(),
        "gc": heap.layout().gc.name(),
        "compiler": heap.module().and_then(|m| m.compiler.clone()),
        "gc_phase": heap.gc_phase(),
        "lifecycle": heap.lifecycle(),
        "main_memory_bytes": heap.snapshot().memory().len(),
        "heap_bytes": stats.heap_bytes,
        "ranges": stats.ranges.len(),
        "objects": stats.objects.objects,
        "stable_variables": heap.stable_vars().ok().map(|v| v.len()),
        "walk_complete": stats.complete(),
        "errors": stats.errors,
    });
    match serde_json::to_vec_pretty(&info) {
        Ok(bytes) => check_json("info --json", &bytes, out),
        Err(e) => out.violations.push(format!("info --json: {e}")),
    }
    match serde_json::to_vec_pretty(&stats) {
        Ok(bytes) => check_json("stats --json", &bytes, out),
        Err(e) => out.violations.push(format!("stats --json: {e}")),
    }
    let mut table = String::new();
    for (name, c) in &stats.by_tag {
        table.push_str(&format!("{name:<18} {:>12} {:>14}\n", c.objects, c.bytes));
    }
    std::hint::black_box(table);
    stats
}

/// `mo-mem retained`: the reference graph, dominators and retained sizes of what decodes,
/// with their invariants: live + garbage = the walk's object bytes without stale copies, a
/// plain search from the roots reaches exactly the live set, every variable retains at most
/// what it reaches, every root group and object at most the live heap.
fn retained(heap: &Heap, stats: &HeapStats, out: &mut Outcome) {
    let a = match Analysis::new(heap) {
        Ok(a) => a,
        Err(e) => {
            out.partial.push(format!("retained:{}", kind_of(&e)));
            return;
        }
    };
    let mut broken = |what: String| out.violations.push(format!("retained: {what}"));
    let (g, d) = (a.graph(), a.dominators());
    let (live, garbage) = (a.live(), a.garbage());
    let walked = stats.objects.bytes - stats.forwarded.bytes;
    if live.bytes + garbage.bytes != walked || g.total().bytes != walked {
        broken(format!(
            "live {} + garbage {} B != the walk's {walked} B without stale copies",
            live.bytes, garbage.bytes
        ));
    }
    let roots: Vec<u32> = g.roots().iter().flat_map(|r| r.nodes.clone()).collect();
    let plain = a.reachable_from(&roots);
    if (plain.objects, plain.bytes) != (live.objects, live.bytes) {
        broken(format!(
            "a plain search reaches {plain:?}, the dominators {live:?}"
        ));
    }
    for v in a.vars() {
        if v.retained.bytes > v.reachable.bytes || v.retained.objects > v.reachable.objects {
            broken(format!("variable {} retains more than it reaches", v.name));
        }
    }
    for r in a.roots() {
        if r.retained.bytes > live.bytes {
            broken(format!(
                "root group {} retains more than the live heap",
                r.kind
            ));
        }
    }
    for n in 0..g.nodes() as u32 {
        let r = d.retained(n);
        if r.bytes > live.bytes || d.is_reachable(n) != (r.objects > 0) {
            broken(format!("object {:#x} retains {r:?}", g.address(n)));
            break;
        }
    }
    std::hint::black_box(a.top(heap, 10));
}

/// `mo-mem vars --format motoko` and `--format json`.
fn vars(heap: &Heap, out: &mut Outcome) {
    let t = std::time::Instant::now();
    let sig = heap_signature(heap);
    if std::env::var_os("MO_MEM_MUTATION_TIMING").is_some() {
        eprintln!(
            "    signature: {:.1} ms",
            t.elapsed().as_secs_f64() * 1000.0
        );
    }
    let sig = match sig {
        Ok(s) => s,
        Err(e) => {
            out.partial.push(format!("vars:{}", kind_of(&e)));
            return;
        }
    };
    let vars = match stable_variables(heap, &sig) {
        Ok(v) => v,
        Err(e) => {
            out.partial.push(format!("vars:{}", kind_of(&e)));
            return;
        }
    };
    let mut decoder = signature_decoder(heap, &sig);
    let mut text = String::new();
    let mut json = String::from("{");
    let mut first = true;
    for var in &vars {
        match decoder.deep(&var.value) {
            Ok(value) => {
                text.push_str(&var.name);
                text.push_str(" = ");
                write_debug_show(&value, &mut text);
                text.push('\n');
                if !first {
                    json.push(',');
                }
                first = false;
                json.push_str(&json_string(&var.name));
                json.push(':');
                write_json(&value, &mut json);
            }
            Err(e) => out.partial.push(format!("vars:{}", kind_of(&e))),
        }
    }
    json.push('}');
    check_json("vars --format json", json.as_bytes(), out);
    std::hint::black_box(text);
}

/// The `objects/` rendering of a sample of objects (addresses of the original image, some
/// random words).
fn sample_objects(
    decoded: &Arc<dyn DecodedSnapshot>,
    objects: &[u64],
    rng: &mut fastrand::Rng,
    out: &mut Outcome,
) {
    let source = match decoded.objects() {
        Ok(s) => s,
        Err(e) => {
            out.partial.push(format!("objects:{}", vfs_kind(&e)));
            return;
        }
    };
    let addrs: Vec<u64> = (0..SAMPLED_OBJECTS.min(objects.len()))
        .map(|_| objects[rng.usize(0..objects.len())])
        .collect();
    // Plus two arbitrary words (as `mo-mem object ADDR` may be asked): errors expected there.
    let probes = [rng.u64(..) & !3, rng.u64(..0x100_0000) & !3];
    for (addr, probe) in addrs
        .into_iter()
        .map(|a| (a, false))
        .chain(probes.map(|a| (a, true)))
    {
        let t = std::time::Instant::now();
        let rendered = source.object_json(addr);
        if std::env::var_os("MO_MEM_MUTATION_TIMING").is_some() {
            let len = rendered.as_ref().map_or(0, Vec::len);
            let ms = t.elapsed().as_secs_f64() * 1000.0;
            eprintln!("    object {addr:#x}: {ms:.1} ms, {len} bytes");
        }
        match rendered {
            Ok(bytes) => check_json(&format!("object {addr:#x}"), &bytes, out),
            Err(_) if probe => {}
            Err(e) => out.partial.push(format!("objects:{}", vfs_kind(&e))),
        }
    }
}

fn vfs_kind(e: &VfsError) -> String {
    kind_of(e)
}

/// The decoded part of a snapshot's directory in the mount (`info.json`, `stats.json`,
/// `vars/`, `objects/`), built from the same sources the mount's snapshot directory lists
/// (its raw files, README and eval do not depend on the decoding).
fn decoded_root(decoded: Arc<dyn DecodedSnapshot>) -> Entry {
    let file = |f: fn(&dyn DecodedSnapshot) -> Result<Vec<u8>, VfsError>| {
        let d = decoded.clone();
        Entry::File(Arc::new(FnFile(move || {
            f(d.as_ref()).map(|mut b| {
                b.push(b'\n');
                b
            })
        })))
    };
    Entry::Dir(Arc::new(StaticDir(vec![
        ("info.json".into(), file(|d| d.info_json())),
        (
            "objects".into(),
            Entry::Dir(Arc::new(ObjectsDir::new(decoded.clone()))),
        ),
        ("stats.json".into(), file(|d| d.stats_json())),
        (
            "vars".into(),
            Entry::Dir(Arc::new(ValueDir::vars(decoded.clone()))),
        ),
    ])))
}

/// The address an `objects/` directory name stands for (`0x...`).
fn dir_address(name: &str) -> Option<u64> {
    u64::from_str_radix(name.strip_prefix("0x")?, 16).ok()
}

/// Of a region directory's block directories, those to list: the ones holding a `focus`
/// address (or the block before it, where an object may start) and [`RANDOM_BLOCKS`] more.
fn blocks_to_list(blocks: &mut Vec<&Child>, focus: &[u64], rng: &mut fastrand::Rng) {
    let near = |c: &&Child| {
        dir_address(&c.name).is_some_and(|start| {
            let block = start >> BLOCK_BITS;
            focus.iter().any(|f| {
                let fb = f >> BLOCK_BITS;
                fb == block || fb == block + 1
            })
        })
    };
    let (mut keep, mut others): (Vec<&Child>, Vec<&Child>) = blocks.iter().copied().partition(near);
    rng.shuffle(&mut others);
    keep.extend(others.into_iter().take(RANDOM_BLOCKS));
    *blocks = keep;
}

/// Walks the mount's tree of the snapshot.
fn walk_tree(
    decoded: Arc<dyn DecodedSnapshot>,
    focus: &[u64],
    rng: &mut fastrand::Rng,
    out: &mut Outcome,
) {
    let tree = match Tree::new(decoded_root(decoded), TreeConfig::default()) {
        Ok(t) => t,
        Err(e) => {
            out.violations.push(format!("tree: {e}"));
            return;
        }
    };
    let mut queue = std::collections::VecDeque::from([(ROOT_INO, 0usize)]);
    let (mut dirs, mut files) = (0, 0);
    while let Some((ino, depth)) = queue.pop_front() {
        if dirs >= MAX_DIRS {
            break;
        }
        dirs += 1;
        let t = std::time::Instant::now();
        let listed = tree.children(ino, false);
        if std::env::var_os("MO_MEM_MUTATION_TIMING").is_some() {
            eprintln!(
                "    list {}: {:.1} ms",
                tree.path_of(ino),
                t.elapsed().as_secs_f64() * 1000.0
            );
        }
        let children = match listed {
            Ok(c) => c,
            Err(e) => {
                out.partial.push(format!("tree:{}", vfs_kind(&e)));
                continue;
            }
        };
        let path = tree.path_of(ino);
        let path = if path == "/" { String::new() } else { path };
        let per_dir = if path.starts_with("/objects/") {
            FILES_PER_OBJECT_BLOCK
        } else {
            FILES_PER_DIR
        };
        // A region directory of `objects/` (`/objects/0x...`): its children are blocks.
        let region = path.starts_with("/objects/") && path.matches('/').count() == 2;
        let mut dirs: Vec<&Child> = children
            .iter()
            .filter(|c| c.kind == NodeKind::Dir)
            .collect();
        if region {
            blocks_to_list(&mut dirs, focus, rng);
        }
        let mut candidates = Vec::new();
        for child in dirs
            .into_iter()
            .chain(children.iter().filter(|c| c.kind != NodeKind::Dir))
        {
            match child.kind {
                // Looked up (one reference held, as the kernel does) so the node stays.
                NodeKind::Dir if depth < MAX_DEPTH => {
                    match tree.lookup_listed(ino, &child.name).map(|(i, _)| i) {
                        Ok(child) => queue.push_back((child, depth + 1)),
                        Err(e) => out.partial.push(format!("tree:{}", vfs_kind(&e))),
                    }
                }
                NodeKind::File => candidates.push(child),
                _ => {}
            }
        }
        rng.shuffle(&mut candidates);
        for child in candidates.into_iter().take(per_dir) {
            if files >= MAX_FILES {
                break;
            }
            files += 1;
            let t = std::time::Instant::now();
            match tree.lookup_listed(ino, &child.name).map(|(i, _)| i) {
                Ok(file) => read_file(&tree, file, &format!("{path}/{}", child.name), out),
                Err(e) => out.partial.push(format!("tree:{}", vfs_kind(&e))),
            }
            if std::env::var_os("MO_MEM_MUTATION_TIMING").is_some() {
                eprintln!(
                    "    read {path}/{}: {:.1} ms",
                    child.name,
                    t.elapsed().as_secs_f64() * 1000.0
                );
            }
        }
    }
}

/// Reads a file twice (whole, and through open/read) and checks its size and JSON.
fn read_file(tree: &Tree, ino: u64, path: &str, out: &mut Outcome) {
    let attr = match tree.getattr(ino) {
        Ok(a) => a,
        Err(e) => {
            out.partial.push(format!("tree:{}", vfs_kind(&e)));
            return;
        }
    };
    let bytes = match tree.read_all(ino) {
        Ok(b) => b,
        Err(e) => {
            out.partial.push(format!("tree:{}", vfs_kind(&e)));
            return;
        }
    };
    if bytes.len() as u64 != attr.size {
        out.violations.push(format!(
            "{path}: stat size {} but {} bytes read",
            attr.size,
            bytes.len()
        ));
    }
    match tree.open(ino, false, SessionId(7)) {
        Ok(info) => {
            match tree.read(info.fh, 0, bytes.len() + 4096) {
                Ok(r) if r.as_slice() != bytes.as_slice() => out
                    .violations
                    .push(format!("{path}: read differs from the whole content")),
                Ok(_) => {}
                Err(e) => out.partial.push(format!("tree:{}", vfs_kind(&e))),
            }
            tree.release(info.fh);
        }
        Err(e) => out.partial.push(format!("tree:{}", vfs_kind(&e))),
    }
    let is_json = path.ends_with(".json") || (path.starts_with("/vars/") && !path.ends_with(".mo"));
    if is_json {
        check_json(path, &bytes, out);
    }
}
