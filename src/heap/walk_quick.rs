//! [`QuickSizer`]: the walk's fast path, sizing the common blocks from a per-layout table.
//!
//! The walk needs only a block's tag and size (and whether it is a stale copy), not its
//! decoded body. [`QuickSizer::size`] answers for the blocks that make up almost every heap
//! (fixed-size objects, arrays, blobs, closures, free space, records) with the same checks
//! [`decode`](super::object::decode) makes, and declines everything else (slice tags,
//! BigInts, EOP Bits64 boxes, stale copies, anything that would be an error): the walk then
//! asks the full decoder, so errors and rare blocks are always judged in one place. The
//! contract, tested over every block of every fixture and over mutated heaps
//! (`tests/heap_walk_quick.rs`, the `heap_walk` fuzz target): when it answers, the full
//! decoder succeeds with the same tag and size, and the block is not forwarded elsewhere.

use super::object::is_pointer_word;
use super::{Layout, Tag};
use crate::image::WordSize;
use crate::module::Persistence;

/// Raw header values the table covers (every non-slice tag is below 64).
const TABLE: usize = 64;

/// The shape of a block, as far as sizing it goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Shape {
    /// Not handled here: the full decoder decides.
    Decline,
    /// `base + count * scale` bytes (`count` rounded up to the word for blobs), `count` being
    /// the word `at` bytes into the block; fixed-size blocks have scale 0.
    Counted,
    /// A classical record: field count, hash-array pointer, fields.
    ClassicalObject,
    /// An EOP record: hash-blob pointer, fields (their count from the hash blob).
    EopObject,
}

/// How a block's size follows from its header word. One table lookup and one formula for
/// every counted or fixed-size block, so the walk's inner loop barely branches on the tag.
#[derive(Debug, Clone, Copy)]
struct Rule {
    shape: Shape,
    tag: Tag,
    /// The block has a forwarding word, which must point back at the block.
    forwarded: bool,
    /// Offset of the count word from the block's address.
    at: u8,
    /// Bytes besides the counted ones (header and fixed fields).
    base: u8,
    /// Bytes per count unit (0 for fixed-size blocks).
    scale: u8,
    /// Added before masking to round the counted bytes up to the word (blobs), else 0.
    round: u8,
}

const DECLINE: Rule = Rule {
    shape: Shape::Decline,
    tag: Tag::Null,
    forwarded: false,
    at: 0,
    base: 0,
    scale: 0,
    round: 0,
};

/// Sizes blocks for the walk from a table built once per layout.
#[derive(Debug, Clone)]
pub(crate) struct QuickSizer {
    rules: [Rule; TABLE],
    word: WordSize,
}

/// What the fast path found: the block's tag and size.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Quick {
    /// The tag (never a slice tag).
    pub tag: Tag,
    /// Size in bytes.
    pub size: u64,
}

impl QuickSizer {
    /// The table for `layout`.
    pub(crate) fn new(layout: &Layout) -> QuickSizer {
        let w = layout.word.bytes();
        let eop = layout.persistence == Persistence::Enhanced;
        let mut rules = [DECLINE; TABLE];
        for (raw, slot) in rules.iter_mut().enumerate() {
            let Some((tag, None)) = Tag::decode(raw as u64, layout.tags) else {
                continue;
            };
            let h = if tag.has_forwarding() {
                layout.header
            } else {
                w
            };
            // Offsets and sizes are at most 48 bytes; a layout where one is not a byte
            // (none exists) would leave the tag to the full decoder.
            let rule = |shape: Shape, at: u64, base: u64, scale: u64, round: u64| {
                let byte = |v: u64| u8::try_from(v).ok();
                match (byte(at), byte(base), byte(scale), byte(round)) {
                    (Some(at), Some(base), Some(scale), Some(round)) => Rule {
                        shape,
                        tag,
                        forwarded: tag.has_forwarding() && layout.has_forwarding(),
                        at,
                        base,
                        scale,
                        round,
                    },
                    _ => DECLINE,
                }
            };
            let counted = |at, base, scale, round| rule(Shape::Counted, at, base, scale, round);
            let fixed = |size| rule(Shape::Counted, 0, size, 0, 0);
            *slot = match tag {
                Tag::Object if eop => rule(Shape::EopObject, h, h + w, 1, 0),
                Tag::Object => rule(Shape::ClassicalObject, h, h + 2 * w, w, 0),
                Tag::Array(_) => counted(h, h + w, w, 0),
                Tag::Blob(_) => counted(h, h + w, 1, w - 1),
                Tag::Closure => counted(h + w, h + 2 * w, w, 0),
                // An EOP Bits64 box may be followed by a slack word: the walk's general path.
                Tag::Bits64(_) if eop => DECLINE,
                Tag::Bits64(_) => fixed(h + 8),
                Tag::Bits32(_) => fixed(h + 4),
                Tag::MutBox | Tag::ObjInd | Tag::Some | Tag::WeakRef => fixed(h + w),
                Tag::Variant => fixed(h + 2 * w),
                Tag::Concat => fixed(h + 3 * w),
                Tag::Region if eop => fixed(h + 24),
                Tag::Region => fixed(h + 16),
                Tag::Null => fixed(h),
                Tag::OneWordFiller => fixed(w),
                Tag::FwdPtr => fixed(2 * w),
                // The count of a free block sits right after its header word.
                Tag::FreeSpace => counted(w, 2 * w, w, 0),
                Tag::BigInt => DECLINE,
            };
        }
        QuickSizer {
            rules,
            word: layout.word,
        }
    }

    /// The word at `at`, if the image holds it. The walk passes the image's bytes once per
    /// block and reads them here rather than through `Image::read_word`, whose backing
    /// dispatch and error value per read cost 5-20% of the walk (measured side by side).
    #[inline(always)]
    fn word(&self, data: &[u8], at: u64) -> Option<u64> {
        let at = usize::try_from(at).ok()?;
        match self.word {
            WordSize::W32 => {
                let b = data.get(at..at.checked_add(4)?)?;
                Some(u64::from(u32::from_le_bytes(b.try_into().ok()?)))
            }
            WordSize::W64 => {
                let b = data.get(at..at.checked_add(8)?)?;
                Some(u64::from_le_bytes(b.try_into().ok()?))
            }
        }
    }

    /// Whether `[addr, addr + len)` lies inside `data`.
    #[inline(always)]
    fn holds(data: &[u8], addr: u64, len: u64) -> bool {
        addr.checked_add(len)
            .is_some_and(|end| end <= data.len() as u64)
    }

    /// The tag and size of the block at `addr` of the image `data`, or `None` when the full
    /// decoder must decide.
    #[inline(always)]
    pub(crate) fn size(&self, data: &[u8], addr: u64) -> Option<Quick> {
        let w = self.word.bytes();
        if !addr.is_multiple_of(w) {
            return None;
        }
        let raw = self.word(data, addr)?;
        let rule = self.rules.get(usize::try_from(raw).ok()?)?;
        if rule.shape == Shape::Decline {
            return None;
        }
        if rule.forwarded && self.word(data, addr + w)? != addr.wrapping_sub(1) {
            return None;
        }
        let len = data.len() as u64;
        let (at, base) = (u64::from(rule.at), u64::from(rule.base));
        let (scale, round) = (u64::from(rule.scale), u64::from(rule.round));
        // The count word (the header itself for fixed-size blocks: scale 0).
        let count = self.word(data, addr + at)?;
        let size = match rule.shape {
            Shape::Counted => {
                if count > len {
                    if scale != 0 {
                        return None;
                    }
                    base
                } else {
                    base + ((count * scale + round) & !round)
                }
            }
            Shape::ClassicalObject => {
                // `count` fields; their hashes in the array the next word points to.
                let hash_ptr = self.word(data, addr + at + w)?;
                if count > len || !Self::holds(data, hash_ptr.wrapping_add(1), count * 4) {
                    return None;
                }
                base + count * w
            }
            Shape::EopObject => {
                // `count` is the hash-blob pointer; the blob, not forwarded (else the full
                // decoder follows it), holds 8 bytes of hash per field.
                let hash_ptr = count;
                if !is_pointer_word(hash_ptr) {
                    return None;
                }
                let blob = hash_ptr.wrapping_add(1);
                let h = at;
                if blob % w != 0
                    || self.word(data, blob)? != 25
                    || self.word(data, blob.checked_add(w)?)? != hash_ptr
                {
                    return None;
                }
                let blob_len = self.word(data, blob.checked_add(h)?)?;
                if blob_len % 8 != 0 || !Self::holds(data, blob + h + w, blob_len) {
                    return None;
                }
                base + blob_len
            }
            Shape::Decline => return None,
        };
        Self::holds(data, addr, size).then_some(Quick {
            tag: rule.tag,
            size,
        })
    }
}
