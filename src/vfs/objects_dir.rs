//! `objects/`: every heap object as a JSON file, sharded by address so no directory is
//! huge: `objects/REGION/BLOCK/ADDRESS.json` with 16 MiB regions and 64 KiB blocks.

use super::decoded::with_newline;
use super::decoded::{DecodedSnapshot, ObjectSource};
use super::entry::{DirSource, Entry, FnFile};
use super::error::VfsError;
use std::sync::{Arc, OnceLock};

/// log2 of the address range of one `objects/` subdirectory (16 MiB).
pub const REGION_BITS: u32 = 24;
/// log2 of the address range of one block directory inside a region (64 KiB).
pub const BLOCK_BITS: u32 = 16;
/// The most objects listed in one block directory (a 64 KiB block holds at most 8192
/// objects of the smallest size; more means the heap walk is broken).
const MAX_OBJECTS_PER_BLOCK: usize = 1 << 13;

/// The first object address of every non-empty 64 KiB block, ascending: from the walk the
/// snapshot's statistics made when the source has it, else found by a walk of its own.
struct BlockIndex {
    first_in_block: Arc<[u64]>,
}

impl BlockIndex {
    /// The blocks (number, first object) whose numbers are in `first..=last`.
    fn blocks(&self, first: u64, last: u64) -> impl Iterator<Item = (u64, u64)> + '_ {
        let from = self
            .first_in_block
            .partition_point(|addr| addr >> BLOCK_BITS < first);
        self.first_in_block[from..]
            .iter()
            .map(|addr| (addr >> BLOCK_BITS, *addr))
            .take_while(move |(block, _)| *block <= last)
    }
}

/// The `objects/` directory of a snapshot.
pub struct ObjectsDir {
    decoded: Arc<dyn DecodedSnapshot>,
    shared: Arc<OnceLock<Result<Arc<Shared>, VfsError>>>,
}

struct Shared {
    source: Arc<dyn ObjectSource>,
    index: BlockIndex,
}

fn hex(addr: u64, digits: usize) -> String {
    format!("0x{addr:0digits$x}")
}

impl ObjectsDir {
    /// `objects/` of a decoded snapshot; nothing is walked until it is listed.
    pub fn new(decoded: Arc<dyn DecodedSnapshot>) -> ObjectsDir {
        ObjectsDir {
            decoded,
            shared: Arc::new(OnceLock::new()),
        }
    }

    fn shared(&self) -> Result<Arc<Shared>, VfsError> {
        self.shared
            .get_or_init(|| {
                let build = || -> Result<Arc<Shared>, VfsError> {
                    let source = self.decoded.objects()?;
                    let first_in_block = match source.block_starts(BLOCK_BITS) {
                        Some(starts) => starts,
                        None => walk_block_starts(source.as_ref())?,
                    };
                    Ok(Arc::new(Shared {
                        source,
                        index: BlockIndex { first_in_block },
                    }))
                };
                build()
            })
            .clone()
    }
}

/// The first object of every non-empty block, by a walk of all objects.
fn walk_block_starts(source: &dyn ObjectSource) -> Result<Arc<[u64]>, VfsError> {
    let mut firsts: Vec<u64> = Vec::new();
    source.visit_from(0, &mut |addr| {
        if firsts
            .last()
            .is_none_or(|last| last >> BLOCK_BITS != addr >> BLOCK_BITS)
        {
            firsts.push(addr);
        }
        true
    })?;
    firsts.sort_unstable();
    firsts.dedup_by_key(|addr| *addr >> BLOCK_BITS);
    Ok(firsts.into())
}

impl DirSource for ObjectsDir {
    fn list(&self) -> Result<Vec<(String, Entry)>, VfsError> {
        let shared = self.shared()?;
        let digits = shared.source.address_digits();
        let mut regions: Vec<u64> = shared
            .index
            .first_in_block
            .iter()
            .map(|addr| addr >> REGION_BITS)
            .collect();
        regions.dedup();
        Ok(regions
            .into_iter()
            .map(|region| {
                let dir = RegionDir {
                    shared: shared.clone(),
                    region,
                };
                (
                    hex(region << REGION_BITS, digits),
                    Entry::Dir(Arc::new(dir)),
                )
            })
            .collect())
    }
}

struct RegionDir {
    shared: Arc<Shared>,
    region: u64,
}

impl DirSource for RegionDir {
    fn list(&self) -> Result<Vec<(String, Entry)>, VfsError> {
        let digits = self.shared.source.address_digits();
        let shift = REGION_BITS - BLOCK_BITS;
        let first = self.region << shift;
        let last = first | ((1u64 << shift) - 1);
        Ok(self
            .shared
            .index
            .blocks(first, last)
            .map(|(block, first_addr)| {
                let dir = BlockDir {
                    shared: self.shared.clone(),
                    block,
                    first_addr,
                };
                (hex(block << BLOCK_BITS, digits), Entry::Dir(Arc::new(dir)))
            })
            .collect())
    }
}

struct BlockDir {
    shared: Arc<Shared>,
    block: u64,
    first_addr: u64,
}

impl DirSource for BlockDir {
    fn list(&self) -> Result<Vec<(String, Entry)>, VfsError> {
        let digits = self.shared.source.address_digits();
        let mut addrs = Vec::new();
        let mut overflow = false;
        self.shared
            .source
            .visit_from(self.first_addr, &mut |addr| {
                if addr >> BLOCK_BITS != self.block {
                    return false;
                }
                if addrs.len() >= MAX_OBJECTS_PER_BLOCK {
                    overflow = true;
                    return false;
                }
                addrs.push(addr);
                true
            })?;
        if overflow {
            tracing::warn!(block = %hex(self.block << BLOCK_BITS, digits), "more objects in one block than possible; listing truncated");
        }
        Ok(addrs
            .into_iter()
            .map(|addr| {
                let source = self.shared.source.clone();
                let file = FnFile(move || source.object_json(addr).map(with_newline));
                (
                    format!("{}.json", hex(addr, digits)),
                    Entry::File(Arc::new(file)),
                )
            })
            .collect())
    }
}
