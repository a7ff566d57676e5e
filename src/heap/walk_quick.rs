//! [`QuickSizer`]: the walk's fast path, sizing the common blocks from a per-layout table.
//!
//! The walk needs only a block's tag and size (and whether it is a stale copy), not its
//! decoded body. [`QuickSizer::size`] answers for the blocks that make up almost every heap
//! (fixed-size objects, arrays, blobs, closures, free space, records) with the same checks
//! [`decode`](super::object::decode) makes, and declines everything else (slice tags,
//! BigInts, EOP Bits64 boxes, stale copies, anything that would be an error): the walk then
//! asks the full decoder, so errors and rare blocks are always judged in one place. The contract, tested
//! over every block of every fixture and over mutated heaps: when it answers, the full
//! decoder succeeds with the same tag and size, and the block is not forwarded elsewhere.

use super::object::is_pointer_word;
use super::{Layout, Tag};
use crate::image::WordSize;
use crate::module::Persistence;

/// Raw header values the table covers (every non-slice tag is below 64).
const TABLE: usize = 64;

/// How a block's size follows from its tag.
#[derive(Debug, Clone, Copy)]
enum Rule {
    /// Not handled here: the full decoder decides.
    Decline,
    /// The size is fixed by the tag.
    Fixed(u64),
    /// `base + count * scale` bytes (rounded up to the word when `round`), `count` being the
    /// word `at` bytes after the header.
    Counted {
        at: u64,
        base: u64,
        scale: u64,
        round: bool,
    },
    /// A classical record: field count, hash-array pointer, fields.
    ClassicalObject,
    /// An EOP record: hash-blob pointer, fields (their count from the hash blob).
    EopObject,
}

/// Sizes blocks for the walk from a table built once per layout.
#[derive(Debug, Clone)]
pub(crate) struct QuickSizer {
    rules: [(Rule, Tag); TABLE],
    word: WordSize,
    /// Objects carry a forwarding word after the header word.
    forwarding: bool,
    /// The header size of an object with a forwarding word (16, 8 or 4 bytes).
    header: u64,
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
        let mut rules = [(Rule::Decline, Tag::Null); TABLE];
        for (raw, slot) in rules.iter_mut().enumerate() {
            let Some((tag, None)) = Tag::decode(raw as u64, layout.tags) else {
                continue;
            };
            let h = if tag.has_forwarding() {
                layout.header
            } else {
                w
            };
            let counted = |at: u64, base: u64, scale: u64, round: bool| Rule::Counted {
                at,
                base,
                scale,
                round,
            };
            let rule = match tag {
                Tag::Object if eop => Rule::EopObject,
                Tag::Object => Rule::ClassicalObject,
                Tag::Array(_) => counted(0, h + w, w, false),
                Tag::Blob(_) => counted(0, h + w, 1, true),
                Tag::Closure => counted(w, h + 2 * w, w, false),
                // An EOP Bits64 box may be followed by a slack word: the walk's general path.
                Tag::Bits64(_) if eop => Rule::Decline,
                Tag::Bits64(_) => Rule::Fixed(h + 8),
                Tag::Bits32(_) => Rule::Fixed(h + 4),
                Tag::MutBox | Tag::Some | Tag::WeakRef => Rule::Fixed(h + w),
                Tag::Variant => Rule::Fixed(h + 2 * w),
                Tag::Concat => Rule::Fixed(h + 3 * w),
                Tag::Region if eop => Rule::Fixed(h + 24),
                Tag::Region => Rule::Fixed(h + 16),
                Tag::Null => Rule::Fixed(h),
                Tag::OneWordFiller => Rule::Fixed(w),
                Tag::FwdPtr => Rule::Fixed(2 * w),
                // The count of a free block sits right after its header word.
                Tag::FreeSpace => counted(0, 2 * w, w, false),
                Tag::BigInt => Rule::Decline,
            };
            *slot = (rule, tag);
        }
        QuickSizer {
            rules,
            word: layout.word,
            forwarding: layout.has_forwarding(),
            header: layout.header,
        }
    }

    /// The word at `at`, if the image holds it.
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

    /// The tag and size of the block at `addr` (word-aligned) of the image `data`, or `None`
    /// when the full decoder must decide.
    #[inline(always)]
    pub(crate) fn size(&self, data: &[u8], addr: u64) -> Option<Quick> {
        let w = self.word.bytes();
        if addr % w != 0 {
            return None;
        }
        let raw = self.word(data, addr)?;
        let &(rule, tag) = self.rules.get(usize::try_from(raw).ok()?)?;
        let h = if tag.has_forwarding() {
            if self.forwarding && self.word(data, addr + w)? != addr.wrapping_sub(1) {
                return None;
            }
            self.header
        } else {
            w
        };
        let size = match rule {
            Rule::Decline => return None,
            Rule::Fixed(size) => size,
            Rule::Counted {
                at,
                base,
                scale,
                round,
            } => {
                let count = self.word(data, addr.checked_add(h)?.checked_add(at)?)?;
                let mut body = count.checked_mul(scale)?;
                if round {
                    body = body.checked_add(w - 1)? & !(w - 1);
                }
                base.checked_add(body)?
            }
            Rule::ClassicalObject => {
                let body = addr.checked_add(h)?;
                let n = self.word(data, body)?;
                let hash_ptr = self.word(data, body + w)?;
                if !Self::holds(data, hash_ptr.wrapping_add(1), n.checked_mul(4)?) {
                    return None;
                }
                (h + 2 * w).checked_add(n.checked_mul(w)?)?
            }
            Rule::EopObject => {
                let hash_ptr = self.word(data, addr.checked_add(h)?)?;
                if !is_pointer_word(hash_ptr) {
                    return None;
                }
                // The hash blob, not forwarded (else the full decoder follows it).
                let blob = hash_ptr.wrapping_add(1);
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
                (h + w).checked_add(blob_len)?
            }
        };
        Self::holds(data, addr, size).then_some(Quick { tag, size })
    }
}
