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

/// The repository root: the fuzz crate lives in `<root>/fuzz`; `tests/it/fuzz_regressions.rs`
/// includes this file from the main crate, whose manifest directory is the root.
pub fn repo_root() -> PathBuf {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    if dir.join("fixtures").is_dir() {
        return dir.to_path_buf();
    }
    dir.parent()
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
    let facts =
        ModuleFacts::parse(&module).unwrap_or_else(|e| panic!("fuzz setup: {name} module: {e}"));
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
        allow_unfinished: false,
        max_analysis_objects: 1 << 18,
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

/// Overwrites the mutable globals in order with 4-byte little-endian words of `rest` (an I64
/// global takes the word sign-extended).
fn patch_globals(globals: &mut [GlobalValue], rest: &[u8]) {
    for (g, b) in globals.iter_mut().zip(rest.chunks(4)) {
        let mut w = [0u8; 4];
        w[..b.len()].copy_from_slice(b);
        *g = match g {
            GlobalValue::I64(_) => GlobalValue::I64(i64::from(i32::from_le_bytes(w))),
            _ => GlobalValue::I32(i32::from_le_bytes(w)),
        };
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
        max_source: 64 << 10,
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
        "heap_walk" | "value_render" | "heap_graph" => {
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
                out.push((
                    format!("{name}-patch"),
                    vec![0xc0 | i as u8, 8, 0, 0, 0, 1, 0xff],
                ));
            }
        }
        "restore_call" => {
            for (i, fx) in fixtures().iter().enumerate() {
                let name = fx.name.replace('/', "-");
                out.push((format!("{name}-module"), vec![i as u8, 0x40, 0, 0, 0, 1, 0]));
                out.push((
                    format!("{name}-memory"),
                    vec![0x40 | i as u8, 8, 0, 0, 0, 1, 0xff],
                ));
                out.push((format!("{name}-globals"), vec![0x80 | i as u8, 1, 2, 3, 4]));
                out.push((
                    format!("{name}-args"),
                    [&[0xc0 | i as u8][..], b"(\"x\", 1)"].concat(),
                ));
            }
        }
        "restore_upgrade" => {
            for (i, fx) in fixtures().iter().enumerate() {
                let name = fx.name.replace('/', "-");
                out.push((format!("{name}-self"), vec![0xc0 | i as u8]));
                out.push((
                    format!("{name}-memory"),
                    vec![0x40 | i as u8, 8, 0, 0, 0, 1, 0xff],
                ));
                out.push((
                    format!("{name}-new-module"),
                    vec![0xc0 | i as u8, 0x40, 0, 0, 0, 1, 0],
                ));
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
/// Only the fuzz targets call it: not in `tests/it`'s build of this file (it exits the process).
#[cfg(not(test))]
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

/// The fuzz targets' bodies: each takes one input and must return without panicking.
/// The targets in `fuzz_targets/` and `tests/it/fuzz_regressions.rs` call these.
pub mod run {
    use mo_mem::heap::render::{debug_show, to_json};
    use mo_mem::heap::types::{collect_labels, parse_signature, parse_type};
    use mo_mem::heap::value::{heap_signature, signature_decoder, stable_variables};
    use mo_mem::module::ModuleFacts;
    use mo_mem::script::host::context::SnapshotContext;
    use mo_mem::script::setup::install;
    use mo_mem::script::Session;
    use mo_mem::snapshot::metadata::SnapshotMetadata;
    use mo_mem::snapshot::open::parse_globals_json;
    use mo_mem::store::{Manifest, StoreKey, MANIFEST_FILE};
    use std::path::PathBuf;
    use std::sync::Arc;

    /// The names of the targets, as in `fuzz/Cargo.toml`.
    pub const TARGETS: [&str; 11] = [
        "module_facts",
        "heap_walk",
        "heap_graph",
        "value_render",
        "metadata_json",
        "manifest",
        "type_parser",
        "script_parse",
        "script_eval",
        "restore_call",
        "restore_upgrade",
    ];

    /// Runs target `name` on `data`; false if there is no such target.
    pub fn target(name: &str, data: &[u8]) -> bool {
        match name {
            "module_facts" => module_facts(data),
            "heap_walk" => heap_walk(data),
            "heap_graph" => heap_graph(data),
            "value_render" => value_render(data),
            "metadata_json" => metadata_json(data),
            "manifest" => manifest(data),
            "type_parser" => type_parser(data),
            "script_parse" => script_parse(data),
            "script_eval" => script_eval(data),
            "restore_call" => restore_call(data),
            "restore_upgrade" => restore_upgrade(data),
            _ => return false,
        }
        true
    }

    /// The module facts parser over arbitrary Wasm bytes.
    pub fn module_facts(data: &[u8]) {
        if let Ok(facts) = ModuleFacts::parse(data) {
            let _ = facts.header_size();
            let _ = facts.function_name(0);
        }
    }

    /// Layout detection and the walk of an image built from the input over a fixture (the
    /// fast path checked against the full decoder), plus objects, references, roots, stable
    /// slots and the statistics.
    pub fn heap_walk(data: &[u8]) {
        let Some((_, Ok(heap))) = super::heap_from_input(data) else {
            return;
        };
        // The table-driven fast path must yield exactly what the full decoder yields.
        let quick: Vec<_> = heap.walk().collect();
        let full: Vec<_> = heap.walk().decoding_every_block().collect();
        assert_eq!(
            quick, full,
            "the walk's fast path and the full decoder differ"
        );
        let mut blocks = 0u32;
        for block in quick.into_iter().flatten() {
            blocks += 1;
            if blocks <= 2000 {
                if let Ok(obj) = heap.object(block.addr) {
                    let _ = obj.forwarded_to();
                    let _ = obj.references().take(64).count();
                }
            }
        }
        let _ = heap.roots();
        if let Ok(vars) = heap.stable_vars() {
            for v in &vars {
                if let Ok(word) = heap.stable_var_value(v) {
                    let _ = heap.object_of(word);
                }
            }
        }
        let _ = mo_mem::analysis::stats::heap_stats(&heap);
    }

    /// The reference graph, dominators and retained sizes of an image built from the input
    /// (`mo-mem retained`'s analysis), with their invariants: live + garbage = the graph's
    /// bytes, what a plain search from the roots reaches is what the dominators call live,
    /// every retained set is within the live heap and within what its object reaches.
    pub fn heap_graph(data: &[u8]) {
        use mo_mem::analysis::retained::Analysis;
        let Some((_, Ok(heap))) = super::heap_from_input(data) else {
            return;
        };
        let Ok(a) = Analysis::new(&heap) else {
            return;
        };
        let (g, d) = (a.graph(), a.dominators());
        let (live, garbage, total) = (a.live(), a.garbage(), g.total());
        assert_eq!(live.objects + garbage.objects, total.objects);
        assert_eq!(live.bytes + garbage.bytes, total.bytes);
        let roots: Vec<u32> = g.roots().iter().flat_map(|r| r.nodes.clone()).collect();
        let plain = a.reachable_from(&roots);
        assert_eq!((plain.objects, plain.bytes), (live.objects, live.bytes));
        for n in 0..g.nodes() as u32 {
            let r = d.retained(n);
            assert!(r.bytes <= live.bytes && r.objects <= live.objects);
            assert_eq!(d.is_reachable(n), r.objects > 0);
        }
        for v in a.vars() {
            assert!(v.retained.bytes <= v.reachable.bytes, "{}", v.name);
            assert!(v.retained.objects <= v.reachable.objects, "{}", v.name);
        }
        let _ = a.roots();
        let _ = a.top(&heap, 10);
        let _ = a.by_tag(&heap);
    }

    /// Typed decoding of every stable variable of an image built from the input, both
    /// renderings (the JSON must parse), and untyped decoding of the first objects.
    pub fn value_render(data: &[u8]) {
        let Some((_, Ok(heap))) = super::heap_from_input(data) else {
            return;
        };
        let Ok(sig) = heap_signature(&heap) else {
            return;
        };
        let mut decoder = signature_decoder(&heap, &sig);
        decoder.set_max_nodes(50_000);
        if let Ok(vars) = stable_variables(&heap, &sig) {
            for v in &vars {
                if let Ok(value) = decoder.deep(&v.value) {
                    let _ = debug_show(&value);
                    let json = to_json(&value);
                    if let Err(e) = serde_json::from_str::<serde_json::Value>(&json) {
                        panic!("invalid JSON for {}: {e}: {json}", v.name);
                    }
                }
            }
        }
        for block in heap.walk().take(200).flatten() {
            if let Ok(value) = decoder.untyped_shallow(block.addr) {
                let _ = debug_show(&value);
                let _ = to_json(&value);
            }
        }
    }

    /// `metadata.json` parsing (and the globals list form); what parses re-serializes to
    /// JSON that parses again.
    pub fn metadata_json(data: &[u8]) {
        if let Ok(meta) = SnapshotMetadata::from_json(data) {
            let _ = meta.globals();
            let _ = meta.wasm_memory_size();
            if let Ok(text) = meta.to_json_pretty() {
                if let Err(e) = SnapshotMetadata::from_json(text.as_bytes()) {
                    panic!("re-serialized metadata does not parse: {e}\n{text}");
                }
            }
        }
        let _ = parse_globals_json(data, std::path::Path::new("globals.json"));
        let _ = mo_mem::snapshot::Snapshot::from_parts(Some(data), None, Vec::new(), None);
    }

    fn manifest_dir() -> PathBuf {
        let d = std::env::temp_dir().join(format!("mo-mem-fuzz-manifest-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        let _ = std::fs::create_dir_all(&d);
        let _ = std::fs::write(d.join("metadata.json"), b"{}");
        let _ = std::fs::write(d.join("wasm_memory.bin"), b"");
        d
    }

    /// The input as `manifest.json` (HMAC checked under a fixed key), and, if it has the
    /// manifest's shape, signed and verified against a small snapshot directory.
    pub fn manifest(data: &[u8]) {
        let key = StoreKey::from_bytes([7; 32]);
        let d = manifest_dir();
        if std::fs::write(d.join(MANIFEST_FILE), data).is_ok() {
            let _ = Manifest::read_authenticated(&d, &key);
        }
        if let Ok(manifest) = serde_json::from_slice::<Manifest>(data) {
            if manifest.write(&d, &key).is_ok() {
                let _ = Manifest::verify(&d, &key);
            }
        }
        let _ = std::fs::remove_dir_all(&d);
    }

    /// The Motoko type parser (signatures and single types), normalization and display.
    pub fn type_parser(data: &[u8]) {
        let Ok(src) = std::str::from_utf8(data) else {
            return;
        };
        if let Ok(sig) = parse_signature(src) {
            let _ = sig.labels();
            for v in &sig.vars {
                if let Ok(t) = sig.env.normalize(&v.ty) {
                    let _ = t.to_string();
                }
                let _ = v.ty.to_string();
            }
        }
        if let Ok(t) = parse_type(src) {
            let _ = t.to_string();
            let mut labels = Vec::new();
            collect_labels(&t, &mut labels);
        }
    }

    /// The script parser and compiler (`Session::check`).
    pub fn script_parse(data: &[u8]) {
        let Ok(src) = std::str::from_utf8(data) else {
            return;
        };
        let session = Session::new(super::small_script_limits());
        if let Err(e) = session.check(src) {
            let _ = e.to_string();
        }
    }

    thread_local! {
        static CTX: Option<Arc<SnapshotContext>> = context();
    }

    fn context() -> Option<Arc<SnapshotContext>> {
        let fx = super::fixtures().first()?;
        let snapshot = mo_mem::snapshot::Snapshot::from_parts(None, None, fx.memory.clone(), None)
            .ok()?
            .with_globals(fx.globals.clone());
        let heap = mo_mem::heap::Heap::open_with_module(
            snapshot,
            Some(fx.facts.clone()),
            super::small_reader_limits(),
        )
        .ok()?;
        Some(Arc::new(SnapshotContext::new(heap)))
    }

    /// The evaluator with small limits over `compound/eop`'s host values, twice in one
    /// session (REPL state). Needs a thread with a few MiB of stack beyond the limits' 2 MiB.
    pub fn script_eval(data: &[u8]) {
        let Ok(src) = std::str::from_utf8(data) else {
            return;
        };
        let mut session = Session::new(super::small_script_limits());
        if let Some(ctx) = CTX.with(|c| c.clone()) {
            install(&mut session, ctx);
        }
        for _ in 0..2 {
            match session.eval(src) {
                Ok(ev) => {
                    let _ = ev.render();
                    let _ = ev.to_json();
                }
                Err(e) => {
                    let _ = e.to_string();
                }
            }
        }
    }

    /// Restore + call over a fixture's snapshot with its module (`data[0] >> 6 == 0`), its
    /// main memory (1: patches from the heap base) or its mutable globals (2) mutated, or
    /// with `data[1..]` as Candid argument text (3): the call answers or fails with an
    /// error, within a small instruction limit; a second call answers the same (the
    /// instance is put back to the snapshot's state), and the snapshot is unchanged.
    pub fn restore_call(data: &[u8]) {
        use mo_mem::runtime::offline::{CallOptions, OfflineCanister};
        use mo_mem::snapshot::Snapshot;
        let Some((&sel, rest)) = data.split_first() else {
            return;
        };
        let all = super::fixtures();
        let fx = &all[(sel & 0x3f) as usize % all.len()];
        let (mut module, mut memory, mut globals) =
            (fx.module.clone(), fx.memory.clone(), fx.globals.clone());
        let mut args = String::new();
        match sel >> 6 {
            0 => super::patch(&mut module, 0, rest),
            1 => super::patch(&mut memory, fx.facts.heap_base, rest),
            2 => super::patch_globals(&mut globals, rest),
            _ => args = String::from_utf8_lossy(rest).into_owned(),
        }
        let before = memory.clone();
        let Ok(snapshot) = Snapshot::from_parts(None, Some(module), memory, None) else {
            return;
        };
        let snapshot = Arc::new(snapshot.with_globals(globals));
        let Ok(canister) = OfflineCanister::open(snapshot.clone()) else {
            return;
        };
        let options = CallOptions {
            instructions: 30_000_000,
            timeout: std::time::Duration::from_secs(20),
            ..CallOptions::default()
        };
        let first = canister
            .call("dump", &args, &options)
            .map(|r| r.values.to_string());
        let again = canister
            .call("dump", &args, &options)
            .map(|r| r.values.to_string());
        match (&first, &again) {
            (Ok(a), Ok(b)) => assert_eq!(a, b, "two calls answered differently"),
            (Err(a), Err(b)) => assert_eq!(a.to_string(), b.to_string()),
            _ => panic!("one call answered, the other failed: {first:?} / {again:?}"),
        }
        assert!(
            snapshot.memory().as_slice() == before.as_slice(),
            "the snapshot changed"
        );
    }

    /// A fixture's snapshot upgraded to its own module by the upgrade dry run (`mo-mem
    /// upgrade`), with the old module (`data[0] >> 6` = 0), main memory (1) or mutable globals
    /// (2) mutated as in [`restore_call`], or the new module (3): the dry run gives a verdict
    /// or an error within a small instruction limit, and an upgraded state opens as a
    /// snapshot whose variables compare with the old ones (or fail with typed errors).
    pub fn restore_upgrade(data: &[u8]) {
        use mo_mem::analysis::upgrade::{compare_types, compare_vars, data_loss};
        use mo_mem::analysis::OpenedHeap;
        use mo_mem::runtime::upgrade::{dry_run, UpgradeOptions};
        use mo_mem::snapshot::Snapshot;
        let Some((&sel, rest)) = data.split_first() else {
            return;
        };
        let all = super::fixtures();
        let fx = &all[(sel & 0x3f) as usize % all.len()];
        let (mut module, mut memory, mut globals) =
            (fx.module.clone(), fx.memory.clone(), fx.globals.clone());
        let mut new_module = fx.module.clone();
        match sel >> 6 {
            0 => super::patch(&mut module, 0, rest),
            1 => super::patch(&mut memory, fx.facts.heap_base, rest),
            2 => super::patch_globals(&mut globals, rest),
            _ => super::patch(&mut new_module, 0, rest),
        }
        let open = || {
            Snapshot::from_parts(None, Some(module.clone()), memory.clone(), None)
                .map(|s| s.with_globals(globals.clone()))
        };
        let Ok(snapshot) = open() else {
            return;
        };
        let snapshot = Arc::new(snapshot);
        let limit = 30_000_000;
        let options = UpgradeOptions {
            instructions: limit,
            timeout: std::time::Duration::from_secs(20),
            copy_memory: false,
        };
        let Ok(mut run) = dry_run(snapshot.clone(), &new_module, "", &options) else {
            return;
        };
        assert!(run.counts.total() <= limit, "{:?} over {limit}", run.counts);
        let limits = super::small_reader_limits();
        let Ok(Ok(before)) = open().map(|s| OpenedHeap::from_snapshot(s, limits)) else {
            return;
        };
        if run.failure.is_some() {
            let _ = compare_types(&before, &new_module);
            return;
        }
        let Ok(upgraded) = run.take_snapshot(&snapshot) else {
            return;
        };
        if let Ok(after) = OpenedHeap::from_snapshot(upgraded, limits) {
            if let Ok(vars) = compare_vars(&before, &after) {
                let _ = data_loss(&vars);
            }
        }
    }
}
