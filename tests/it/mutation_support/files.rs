//! The files of one fixture snapshot and what the mutator knows about them: the heap map
//! (objects, pointer, length and root slots, learned by walking the original image once),
//! the module's sections, the metadata's numbers, and the truncation points of each file.

use std::collections::{HashMap, HashSet};
use std::path::Path;
use std::sync::Arc;

use mo_mem::heap::{BlockKind, Heap, Tag};
use mo_mem::image::ReaderLimits;
use mo_mem::module::ModuleFacts;
use mo_mem::snapshot::metadata::SnapshotMetadata;
use mo_mem::snapshot::Snapshot;

/// One file of a snapshot directory.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum FileKind {
    /// `metadata.json`.
    Metadata,
    /// `wasm_module.bin` (decompressed).
    Module,
    /// `wasm_memory.bin`.
    Memory,
    /// `stable_memory.bin`.
    Stable,
}

impl FileKind {
    /// Every file, in campaign order.
    pub const ALL: [FileKind; 4] = [
        FileKind::Metadata,
        FileKind::Module,
        FileKind::Memory,
        FileKind::Stable,
    ];

    /// The file name.
    pub fn name(self) -> &'static str {
        match self {
            FileKind::Metadata => "metadata.json",
            FileKind::Module => "wasm_module.bin",
            FileKind::Memory => "wasm_memory.bin",
            FileKind::Stable => "stable_memory.bin",
        }
    }

    /// The file named `name`.
    pub fn from_name(name: &str) -> Option<FileKind> {
        FileKind::ALL.into_iter().find(|k| k.name() == name)
    }
}

/// One heap object of the original image.
#[derive(Clone, Debug)]
pub struct ObjInfo {
    /// Header address.
    pub addr: u64,
    /// Size in bytes.
    pub size: u64,
    /// The word holding its length or size, for objects that have one.
    pub length_slot: Option<u64>,
}

/// What the walk of the original image found.
#[derive(Clone, Debug, Default)]
pub struct HeapMap {
    /// Object header size in bytes.
    pub header: u64,
    /// Start of the first heap range.
    pub start: u64,
    /// End of the last heap range.
    pub end: u64,
    /// Every object.
    pub objects: Vec<ObjInfo>,
    /// `(slot address, owner object)` of every word in an object pointing at an object.
    pub pointer_slots: Vec<(u64, u64)>,
    /// Words below the heap (statics, roots) pointing at an object.
    pub root_slots: Vec<u64>,
    /// The object each pointer slot points at.
    pub slot_target: HashMap<u64, u64>,
}

impl HeapMap {
    /// A slot in an object that `owner`'s slot at `slot` points to, and `owner`: writing
    /// `owner` into it closes a cycle.
    pub fn back_edge(&self, owner: u64, slot: u64) -> Option<(u64, u64)> {
        let target = self.slot_target.get(&slot).copied()?;
        let i = self.pointer_slots.partition_point(|&(s, _)| s < target);
        let (back, back_owner) = *self.pointer_slots.get(i)?;
        (back_owner == target).then_some((back, owner))
    }
}

/// The mutator's view of one file.
#[derive(Clone, Debug)]
pub enum FileMap {
    /// The main memory and its heap.
    Memory {
        /// The heap map.
        heap: HeapMap,
        /// The word size in bytes.
        word: usize,
    },
    /// The module: `(start, end)` of every section.
    Module { sections: Vec<(usize, usize)> },
    /// `metadata.json`: `(offset, length)` of every number.
    Metadata { numbers: Vec<(usize, usize)> },
    /// Anything else (stable memory).
    Other,
}

/// One fixture snapshot, read into memory and mapped for the mutator.
pub struct Fixture {
    /// `name/mode`.
    pub label: String,
    /// The files' original bytes (the module decompressed), in [`FileKind::ALL`] order,
    /// shared by every run that does not mutate them.
    pub bytes: [Arc<[u8]>; 4],
    /// The maps, in the same order.
    pub maps: [FileMap; 4],
    /// The original module's facts (reused while the module is not mutated).
    pub facts: Option<ModuleFacts>,
}

impl Fixture {
    /// Reads and maps the snapshot directory `dir`.
    pub fn load(label: &str, dir: &Path) -> Fixture {
        let read = |k: FileKind| std::fs::read(dir.join(k.name())).unwrap_or_default();
        let metadata = read(FileKind::Metadata);
        let raw_module = read(FileKind::Module);
        let module = mo_mem::module::decompress_module(&raw_module)
            .map(|m| m.into_owned())
            .unwrap_or(raw_module);
        let memory = read(FileKind::Memory);
        let stable = read(FileKind::Stable);
        let facts = ModuleFacts::parse(&module).ok();
        let (heap, word) = heap_map(&metadata, &module, &memory, &stable, facts.as_ref());
        let maps = [
            FileMap::Metadata {
                numbers: numbers(&metadata),
            },
            FileMap::Module {
                sections: sections(&module),
            },
            FileMap::Memory { heap, word },
            FileMap::Other,
        ];
        Fixture {
            label: label.to_string(),
            bytes: [metadata.into(), module.into(), memory.into(), stable.into()],
            maps,
            facts,
        }
    }

    /// The original bytes of `file`.
    pub fn original(&self, file: FileKind) -> &[u8] {
        &self.bytes[file as usize]
    }

    /// The number of objects in the original heap.
    pub fn objects(&self) -> usize {
        match self.map(FileKind::Memory) {
            FileMap::Memory { heap, .. } => heap.objects.len(),
            _ => 0,
        }
    }

    /// The original bytes of `file`, shared.
    pub fn shared(&self, file: FileKind) -> Arc<[u8]> {
        self.bytes[file as usize].clone()
    }

    /// The map of `file`.
    pub fn map(&self, file: FileKind) -> &FileMap {
        &self.maps[file as usize]
    }

    /// The truncation points of `file`: every length of small files; for the memory every
    /// 4 KiB boundary of the heap region plus `seeded` seeded offsets; for the module its
    /// section boundaries plus seeded offsets.
    pub fn truncations(&self, file: FileKind, seeded: usize, seed: u64) -> Vec<usize> {
        let len = self.original(file).len();
        let mut rng = fastrand::Rng::with_seed(seed ^ 0x7472_756e);
        let mut cuts: Vec<usize> = match self.map(file) {
            FileMap::Memory { heap, .. } => {
                let start = (heap.start as usize).min(len);
                let end = (heap.end as usize).min(len);
                let mut c: Vec<usize> = (start / 4096..=end.div_ceil(4096))
                    .map(|k| k * 4096)
                    .collect();
                c.extend([
                    0,
                    1,
                    start.saturating_sub(1),
                    start + 1,
                    end.saturating_sub(1),
                ]);
                c.extend((0..seeded).map(|_| rng.usize(0..=len)));
                c
            }
            FileMap::Module { sections } => {
                let mut c: Vec<usize> = vec![0, 1, 4, 7, 8, 9];
                for &(s, e) in sections {
                    c.extend([s, s + 1, s + 2, e.saturating_sub(1), e]);
                }
                c.extend((0..seeded).map(|_| rng.usize(0..=len)));
                c
            }
            _ if len <= 64 * 1024 => (0..len).collect(),
            _ => {
                // A large stable memory (only its size is read): 16 page boundaries and 16
                // seeded offsets.
                let pages = len.div_ceil(65536);
                let stride = pages.div_ceil(16).max(1);
                let mut c: Vec<usize> = (0..pages).step_by(stride).map(|k| k * 65536).collect();
                c.extend((0..seeded.min(16)).map(|_| rng.usize(0..=len)));
                c
            }
        };
        cuts.retain(|&c| c < len);
        cuts.sort_unstable();
        cuts.dedup();
        cuts
    }

    /// `metadata.json` with the size of `file` set to `size` (so a truncated file is read
    /// instead of refused for its size); the original if it does not parse.
    pub fn metadata_with_size(&self, file: FileKind, size: usize) -> Vec<u8> {
        let original = self.original(FileKind::Metadata);
        let Ok(mut meta) = SnapshotMetadata::from_json(original) else {
            return original.to_vec();
        };
        match file {
            FileKind::Module => meta.0.wasm_module_size = size as u64,
            FileKind::Memory => meta.0.wasm_memory_size = size as u64,
            FileKind::Stable => meta.0.stable_memory_size = size as u64,
            FileKind::Metadata => {}
        }
        meta.to_json_pretty()
            .map(String::into_bytes)
            .unwrap_or_else(|_| original.to_vec())
    }
}

fn read_word(bytes: &[u8], at: u64, word: usize) -> Option<u64> {
    let at = usize::try_from(at).ok()?;
    let b = bytes.get(at..at.checked_add(word)?)?;
    let mut buf = [0u8; 8];
    buf[..word].copy_from_slice(b);
    Some(u64::from_le_bytes(buf))
}

/// A vanilla pointer word: LSB set, not `true` (1), not the EOP null sentinel.
fn is_pointer(w: u64) -> bool {
    w & 1 == 1 && w != 1 && w != mo_mem::heap::EOP_NULL
}

/// Walks the original image once.
fn heap_map(
    metadata: &[u8],
    module: &[u8],
    memory: &[u8],
    stable: &[u8],
    facts: Option<&ModuleFacts>,
) -> (HeapMap, usize) {
    let Ok(snapshot) = Snapshot::from_parts(
        Some(metadata),
        Some(module.to_vec()),
        memory.to_vec(),
        Some(stable.to_vec()),
    ) else {
        return (HeapMap::default(), 8);
    };
    let Ok(heap) = Heap::open_with_module(snapshot, facts.cloned(), ReaderLimits::default()) else {
        return (HeapMap::default(), 8);
    };
    let layout = *heap.layout();
    let word = layout.word.bytes() as usize;
    let mut map = HeapMap {
        header: layout.header,
        start: heap.ranges().first().map_or(0, |r| r.start),
        end: heap.ranges().last().map_or(0, |r| r.end),
        ..HeapMap::default()
    };
    for block in heap.walk().flatten() {
        let BlockKind::Object(tag) = block.kind else {
            continue;
        };
        if !tag.is_object() {
            continue;
        }
        let length_slot = match tag {
            Tag::Object
            | Tag::Array(_)
            | Tag::Blob(_)
            | Tag::BigInt
            | Tag::Concat
            | Tag::Closure
            | Tag::Region => Some(block.addr + layout.header),
            _ => None,
        };
        map.objects.push(ObjInfo {
            addr: block.addr,
            size: block.size,
            length_slot,
        });
    }
    let addrs: HashSet<u64> = map.objects.iter().map(|o| o.addr).collect();
    let points_at_object = |w: u64| is_pointer(w) && addrs.contains(&w.wrapping_add(1));
    for o in &map.objects {
        let mut at = o.addr + word as u64;
        while at < o.addr + o.size {
            if let Some(w) = read_word(memory, at, word) {
                if points_at_object(w) {
                    map.pointer_slots.push((at, o.addr));
                    map.slot_target.insert(at, w.wrapping_add(1));
                }
            }
            at += word as u64;
        }
    }
    let mut at = 0;
    while at + word as u64 <= map.start {
        if let Some(w) = read_word(memory, at, word) {
            if points_at_object(w) {
                map.root_slots.push(at);
            }
        }
        at += word as u64;
    }
    (map, word)
}

/// `(start, end)` of every section of a Wasm module (bounded, best effort).
fn sections(module: &[u8]) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut at = 8;
    while at < module.len() && out.len() < 1000 {
        let start = at;
        at += 1;
        let mut size: u64 = 0;
        let mut shift = 0;
        loop {
            let Some(&b) = module.get(at) else {
                return out;
            };
            at += 1;
            size |= u64::from(b & 0x7f) << shift;
            shift += 7;
            if b & 0x80 == 0 || shift > 35 {
                break;
            }
        }
        let Some(end) = at.checked_add(size as usize).filter(|&e| e <= module.len()) else {
            return out;
        };
        out.push((start, end));
        at = end;
    }
    out
}

/// `(offset, length)` of every run of digits (with a leading minus) in JSON text.
fn numbers(json: &[u8]) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < json.len() {
        if json[i].is_ascii_digit()
            || (json[i] == b'-' && json.get(i + 1).is_some_and(u8::is_ascii_digit))
        {
            let start = i;
            i += 1;
            while i < json.len() && json[i].is_ascii_digit() {
                i += 1;
            }
            out.push((start, i - start));
        } else {
            i += 1;
        }
    }
    out
}
