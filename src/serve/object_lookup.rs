//! One object by an address a user gave (`mo-mem object SNAPSHOT ADDR`): inside the heap's
//! ranges the address must be where the heap walk finds an object (an address inside an
//! object, or in free space, decodes nothing: its words are not a header); outside them (a
//! static object of a classical heap) the object is decoded where it is claimed to be.

use crate::analysis::OpenedHeap;
use crate::heap::render::object::ObjectView;
use crate::heap::BlockKind;
use crate::vfs::VfsError;

use super::heap_source::object_view;

/// Why no object is shown at an address.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ObjectLookupError {
    /// The address lies inside a block the heap walk found, past its start.
    #[error(
        "no object starts at {addr:#x}: it lies inside the {what} at {start:#x} ({size} bytes)"
    )]
    Inside {
        /// The address asked for.
        addr: u64,
        /// The start of the block holding it.
        start: u64,
        /// The block's size in bytes.
        size: u64,
        /// What the block is (`Array T object`, `free space`, ...).
        what: String,
    },
    /// The address is in a heap range, but the walk found no block there (it stopped
    /// earlier at a block it could not parse).
    #[error("no object starts at {addr:#x}: the heap walk finds none there")]
    NotFound {
        /// The address asked for.
        addr: u64,
    },
    /// The address is outside every heap range and no object can be decoded there.
    #[error("no object at {addr:#x}, which is outside the heap ({ranges}): {error}")]
    OutsideHeap {
        /// The address asked for.
        addr: u64,
        /// The heap's ranges, `START..END` each.
        ranges: String,
        /// Why nothing decodes there (shown in the message, not as a source: once).
        error: Box<VfsError>,
    },
    /// The object starts at the address but cannot be decoded.
    #[error(transparent)]
    Decode(Box<VfsError>),
}

/// The object starting at `addr` of `opened`, as `mo-mem object` shows it; refused with the
/// block that holds `addr` when no object starts there.
pub fn object_view_at(opened: &OpenedHeap, addr: u64) -> Result<ObjectView, ObjectLookupError> {
    let heap = opened.heap();
    if !heap.in_heap(addr) {
        return object_view(opened, addr).map_err(|error| {
            let ranges: Vec<String> = heap
                .ranges()
                .iter()
                .map(|r| format!("{:#x}..{:#x}", r.start, r.end))
                .collect();
            ObjectLookupError::OutsideHeap {
                addr,
                ranges: ranges.join(", "),
                error: Box::new(error),
            }
        });
    }
    check_object_start(opened, addr)?;
    object_view(opened, addr).map_err(|e| ObjectLookupError::Decode(Box::new(e)))
}

/// Ok if the walk finds an object starting at `addr` (an address in a heap range), else
/// the block that holds it. Walks from the last object the block index knows at or before
/// `addr`: one 64 KiB block, or one large object.
fn check_object_start(opened: &OpenedHeap, addr: u64) -> Result<(), ObjectLookupError> {
    let heap = opened.heap();
    let firsts = opened.object_blocks();
    let before = firsts.partition_point(|&a| a <= addr);
    let walk = match before {
        0 => heap.walk(),
        n => heap.walk_from(firsts[n - 1]),
    };
    for block in walk {
        let Ok(block) = block else { break };
        if block.addr > addr {
            break;
        }
        if block.addr.saturating_add(block.size) <= addr {
            continue;
        }
        let what = match block.kind {
            BlockKind::Object(tag) if tag.is_object() => {
                if block.addr == addr {
                    return Ok(());
                }
                format!("{} object", tag.name())
            }
            BlockKind::Object(tag) => format!("{} block", tag.name()),
            BlockKind::Slack => "slack word".to_string(),
            BlockKind::RegistryGarbage => "weak-ref registry garbage".to_string(),
        };
        return Err(ObjectLookupError::Inside {
            addr,
            start: block.addr,
            size: block.size,
            what,
        });
    }
    Err(ObjectLookupError::NotFound { addr })
}

/// An address a user gave was not a number.
#[derive(Debug, Clone, thiserror::Error)]
#[error("invalid address {text:?}: not a number (hex with 0x, or decimal, below 2^64)")]
pub struct BadAddress {
    /// The address as given.
    pub text: String,
    /// Why it does not parse.
    #[source]
    pub error: std::num::ParseIntError,
}

/// The address `text` spells, in hex (`0x...`) or decimal; a skewed pointer word (odd) is
/// unskewed.
pub fn parse_address(text: &str) -> Result<u64, BadAddress> {
    let v = match text.strip_prefix("0x").or_else(|| text.strip_prefix("0X")) {
        Some(hex) => u64::from_str_radix(hex, 16),
        None => text.parse(),
    }
    .map_err(|error| BadAddress {
        text: text.to_string(),
        error,
    })?;
    Ok(if v & 1 == 1 { v.wrapping_add(1) } else { v })
}
