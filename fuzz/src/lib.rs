//! Glue shared by the fuzz targets: the committed fixtures (loaded once), images built from
//! a fuzz input over a fixture, small reader and script limits, and the seed corpora.
//!
//! Seeds: a target run with `MO_MEM_FUZZ_SEEDS=DIR` writes its seeds into `DIR` and exits
//! (see [`write_seeds_if_asked`]); `scripts/fuzz` does this before the first run.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::time::Duration;

use mo_mem::heap::eop;
use mo_mem::heap::Heap;
use mo_mem::image::ReaderLimits;
use mo_mem::module::{ModuleFacts, Persistence};
use mo_mem::snapshot::metadata::{GlobalValue, SnapshotMetadata};
use mo_mem::snapshot::Snapshot;

/// The fixtures the image targets build on (snapshot directories under `fixtures/snapshots`).
pub const FIXTURES: [&str; 7] = [
    "compound/eop",
    "compound/incremental",
    "compound/copying",
    "compound/compacting",
    "compound/generational",
    "scalars/eop",
    "scalars/copying",
];

/// One committed fixture, decompressed.
pub struct Fixture {
    /// Its name (`compound/eop`).
    pub name: &'static str,
    /// `metadata.json` as committed.
    pub metadata_json: Vec<u8>,
    /// The decompressed `wasm_module.bin`.
    pub module: Vec<u8>,
    /// The module's facts.
    pub facts: ModuleFacts,
    /// The decompressed main memory.
    pub memory: Vec<u8>,
    /// The mutable globals from `metadata.json`.
    pub globals: Vec<GlobalValue>,
}

impl Fixture {
    /// Where the input of region 2 is written: the EOP metadata block (partition table) or,
    /// classically, the GC state (incremental) or the statics just below the heap base.
    pub fn layout_base(&self) -> u64 {
        match self.facts.persistence {
            Persistence::Enhanced => eop::METADATA,
            Persistence::Classical => self
                .facts
                .statics
                .gc_state
                .unwrap_or(self.facts.heap_base.saturating_sub(4096)),
        }
    }

    /// The heap region's first bytes (at most `max` bytes from the heap base).
    pub fn heap_prefix(&self, max: usize) -> &[u8] {
        let start = (self.facts.heap_base as usize).min(self.memory.len());
        let end = start.saturating_add(max).min(self.memory.len());
        &self.memory[start..end]
    }
}

/// The repository root (the fuzz crate lives in `<root>/fuzz`).
pub fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .map(Path::to_path_buf)
        .unwrap_or_else(|| PathBuf::from(".."))
}

fn gunzip(path: &Path) -> Vec<u8> {
    let file = std::fs::File::open(path)
        .unwrap_or_else(|e| panic!("fuzz setup: cannot open {}: {e}", path.display()));
    let mut out = Vec::new();
    flate2::read::GzDecoder::new(file)
        .read_to_end(&mut out)
        .unwrap_or_else(|e| panic!("fuzz setup: cannot gunzip {}: {e}", path.display()));
    out
}

fn load(name: &'static str) -> Fixture {
    let dir = repo_root().join("fixtures/snapshots").join(name);
    let metadata_json = std::fs::read(dir.join("metadata.json"))
        .unwrap_or_else(|e| panic!("fuzz setup: {name}/metadata.json: {e}"));
    let meta = SnapshotMetadata::from_json(&metadata_json)
        .unwrap_or_else(|e| panic!("fuzz setup: {name}/metadata.json: {e}"));
    let module = gunzip(&dir.join("wasm_module.bin.gz"));
    let facts = ModuleFacts::parse(&module)
        .unwrap_or_else(|e| panic!("fuzz setup: {name} module: {e}"));
    Fixture {
        name,
        metadata_json,
        module,
        facts,
        memory: gunzip(&dir.join("wasm_memory.bin.gz")),
        globals: meta.globals(),
    }
}

/// Every fixture of [`FIXTURES`], loaded on first use.
pub fn fixtures() -> &'static [Fixture] {
    static ALL: OnceLock<Vec<Fixture>> = OnceLock::new();
    ALL.get_or_init(|| FIXTURES.iter().map(|n| load(n)).collect())
}

/// Small reader limits, so one input cannot run for long.
pub fn small_reader_limits() -> ReaderLimits {
    ReaderLimits {
        max_objects: 1 << 18,
        max_text_bytes: 1 << 20,
        max_depth: 500,
        max_rope_depth: 10_000,
        max_work: 1 << 22,
    }
}

/// Builds an image from `data` over a fixture and opens its heap (with the fixture's module
/// facts and globals).
///
/// `data[0]` picks the fixture (low 6 bits) and the region (high 2 bits): 0 and 1 write
/// `data[1..]` from the heap base, 2 from [`Fixture::layout_base`], 3 applies `data[1..]` as
/// patches `(u32 LE offset into the heap region, u8 length, bytes)`.
pub fn heap_from_input(data: &[u8]) -> Option<(&'static Fixture, Result<Heap, String>)> {
    let (&sel, rest) = data.split_first()?;
    let all = fixtures();
    let fx = &all[(sel & 0x3f) as usize % all.len()];
    let mut memory = fx.memory.clone();
    match sel >> 6 {
        0 | 1 => write_at(&mut memory, fx.facts.heap_base, rest),
        2 => write_at(&mut memory, fx.layout_base(), rest),
        _ => patch(&mut memory, fx.facts.heap_base, rest),
    }
    let snapshot = match Snapshot::from_parts(None, None, memory, None) {
        Ok(s) => s.with_globals(fx.globals.clone()),
        Err(e) => return Some((fx, Err(e.to_string()))),
    };
    let heap = Heap::open_with_module(snapshot, Some(fx.facts.clone()), small_reader_limits())
        .map_err(|e| e.to_string());
    Some((fx, heap))
}

fn write_at(memory: &mut [u8], base: u64, bytes: &[u8]) {
    let start = (base as usize).min(memory.len());
    let n = bytes.len().min(memory.len() - start);
    memory[start..start + n].copy_from_slice(&bytes[..n]);
}

fn patch(memory: &mut [u8], base: u64, mut rest: &[u8]) {
    let span = (memory.len() as u64).saturating_sub(base).max(1);
    while rest.len() >= 5 {
        let off = u32::from_le_bytes([rest[0], rest[1], rest[2], rest[3]]) as u64 % span;
        let len = (rest[4] as usize).min(rest.len() - 5);
        write_at(memory, base + off, &rest[5..5 + len]);
        rest = &rest[5 + len..];
    }
}

/// Small script limits: fuel, a short deadline, a little memory and output, shallow calls.
pub fn small_script_limits() -> mo_mem::script::Limits {
    mo_mem::script::Limits {
        max_steps: 200_000,
        deadline: Duration::from_secs(2),
        max_memory: 32 << 20,
        max_output: 64 << 10,
        max_call_depth: 200,
        max_native_stack: 2 << 20,
    }
}

/// The seeds of `target` as (file name, bytes).
pub fn seeds(target: &str) -> Vec<(String, Vec<u8>)> {
    let root = repo_root();
    let mut out = Vec::new();
    match target {
        "module_facts" => {
            for fx in fixtures() {
                out.push((fx.name.replace('/', "-"), fx.module.clone()));
            }
        }
        "heap_walk" | "value_render" => {
            for (i, fx) in fixtures().iter().enumerate() {
                let name = fx.name.replace('/', "-");
                let mut heap = vec![i as u8];
                heap.extend_from_slice(fx.heap_prefix(16 << 10));
                out.push((format!("{name}-heap"), heap));
                let base = fx.layout_base() as usize;
                let end = base.saturating_add(1024).min(fx.memory.len());
                let mut layout = vec![0x80 | i as u8];
                layout.extend_from_slice(&fx.memory[base.min(end)..end]);
                out.push((format!("{name}-layout"), layout));
                out.push((format!("{name}-patch"), vec![0xc0 | i as u8, 8, 0, 0, 0, 1, 0xff]));
            }
        }
        "metadata_json" => {
            for fx in fixtures() {
                out.push((fx.name.replace('/', "-"), fx.metadata_json.clone()));
            }
        }
        "manifest" => out.push(("manifest".into(), sample_manifest().into_bytes())),
        "type_parser" => {
            for fx in fixtures() {
                if let Some(sig) = &fx.facts.stable_types {
                    out.push((fx.name.replace('/', "-"), sig.clone().into_bytes()));
                }
            }
        }
        "script_parse" | "script_eval" => {
            for dir in ["tests/conformance", "tests/data/scripts"] {
                let Ok(entries) = std::fs::read_dir(root.join(dir)) else {
                    continue;
                };
                for e in entries.flatten() {
                    let p = e.path();
                    if p.extension().and_then(|x| x.to_str()) == Some("mo") {
                        if let (Some(n), Ok(b)) = (p.file_name(), std::fs::read(&p)) {
                            out.push((n.to_string_lossy().into_owned(), b));
                        }
                    }
                }
            }
            if target == "script_eval" {
                for (i, s) in HOST_SCRIPTS.iter().enumerate() {
                    out.push((format!("host-{i}.mo"), s.as_bytes().to_vec()));
                }
            }
        }
        _ => {}
    }
    out
}

/// Scripts over the host values, seeds for `script_eval`.
pub const HOST_SCRIPTS: [&str; 5] = [
    "image.size()",
    "heap.stats()",
    "var n = 0; for (o in heap.objects()) { n += o.size }; n",
    "debug_show vars",
    "heap.varNames",
];

/// A manifest of the right shape (its HMAC is not valid under any key the targets use).
pub fn sample_manifest() -> String {
    let sha = "00".repeat(32);
    format!(
        r#"{{"format":"mo-mem-manifest/1","source":{{"network":"ic","canister":"aaaaa-aa","snapshot":"00","taken_at_ns":1,"acquired_at_ns":2,"method":"management"}},"files":[{{"path":"metadata.json","size":2,"sha256":"{sha}"}},{{"path":"wasm_memory.bin","size":0,"sha256":"{sha}"}}],"hmac":"{sha}"}}"#
    )
}

/// If `MO_MEM_FUZZ_SEEDS` names a directory, writes the seeds of `target` there and exits.
pub fn write_seeds_if_asked(target: &str) {
    let Some(dir) = std::env::var_os("MO_MEM_FUZZ_SEEDS") else {
        return;
    };
    let dir = PathBuf::from(dir);
    if let Err(e) = std::fs::create_dir_all(&dir) {
        eprintln!("cannot create {}: {e}", dir.display());
        std::process::exit(1);
    }
    let seeds = seeds(target);
    for (name, bytes) in &seeds {
        if let Err(e) = std::fs::write(dir.join(name), bytes) {
            eprintln!("cannot write seed {name}: {e}");
            std::process::exit(1);
        }
    }
    eprintln!("{target}: wrote {} seeds to {}", seeds.len(), dir.display());
    std::process::exit(0);
}
