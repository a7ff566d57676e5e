//! [`Walk`]: the linear walk over every heap range, proving each ends exactly at its end.

use crate::image::{Budget, ImageError};

use super::object::{decode, is_pointer_word};
use super::{Heap, ObjectError, Tag};

/// What a walked block is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BlockKind {
    /// A block with a valid tag (objects, fillers, free space, FwdPtr).
    Object(Tag),
    /// The unused slack word after a compiler-made EOP Bits64 box (spec 10.1).
    Slack,
    /// The corrupted weak-ref registry blob the EOP RTS leaves per GC cycle (spec 10.3).
    RegistryGarbage,
}

/// One block of the linear walk.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Block {
    /// Address of the block.
    pub addr: u64,
    /// Size in bytes.
    pub size: u64,
    /// What it is.
    pub kind: BlockKind,
    /// For a stale copy left by evacuation: the address its forwarding word points to.
    pub forwarded_to: Option<u64>,
    /// Index of the range in [`Heap::ranges`].
    pub range: usize,
}

/// A block that could not be parsed; the walk resumes at the next range.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum WalkError {
    /// The block at `addr` could not be decoded.
    #[error("range {range}: unparseable block at {addr:#x}: {reason}")]
    Block {
        /// Range index.
        range: usize,
        /// Block address.
        addr: u64,
        /// Why.
        reason: ObjectError,
    },
    /// A block extends past the end of its range.
    #[error("range {range}: block at {addr:#x} of {size} bytes overruns the range end {end:#x}")]
    Overrun {
        /// Range index.
        range: usize,
        /// Block address.
        addr: u64,
        /// Block size.
        size: u64,
        /// Range end.
        end: u64,
    },
    /// The work or object budget ran out; the walk stops.
    #[error("walk stopped: {0}")]
    Limit(ImageError),
}

/// An iterator over every block of every heap range, in address order.
/// Errors are yielded in place; after an unparseable block the walk continues with the next range.
pub struct Walk<'h> {
    heap: &'h Heap,
    budget: Budget,
    range: usize,
    pos: u64,
    stopped: bool,
    pending: Option<Block>,
    /// Size every block with the full decoder (no table fast path).
    decode_all: bool,
    /// One past the last range this walk covers.
    end_range: usize,
    /// The walk stops at the first block boundary at or past this address.
    stop_at: u64,
}

impl<'h> Walk<'h> {
    pub(crate) fn new(heap: &'h Heap, budget: Budget) -> Walk<'h> {
        let pos = heap.ranges().first().map_or(0, |r| r.start);
        Walk {
            heap,
            budget,
            range: 0,
            pos,
            stopped: false,
            pending: None,
            decode_all: false,
            end_range: heap.ranges().len(),
            stop_at: u64::MAX,
        }
    }

    /// A walk over the ranges `first..end` only (indexes into [`Heap::ranges`]): exactly
    /// what the whole walk yields for those ranges, given the same budget left on entry.
    pub(crate) fn over_ranges(
        heap: &'h Heap,
        budget: Budget,
        first: usize,
        end: usize,
    ) -> Walk<'h> {
        let end = end.min(heap.ranges().len());
        let pos = heap.ranges().get(first).map_or(0, |r| r.start);
        Walk {
            heap,
            budget,
            range: first,
            pos,
            stopped: first >= end,
            pending: None,
            decode_all: false,
            end_range: end,
            stop_at: u64::MAX,
        }
    }

    /// A walk of range `range` from `from` (a block boundary, or a guess at one) that stops
    /// at the first block boundary at or past `stop` (see [`Walk::position`]).
    pub(crate) fn over_span(
        heap: &'h Heap,
        budget: Budget,
        range: usize,
        from: u64,
        stop: u64,
    ) -> Walk<'h> {
        let mut walk = Walk::over_ranges(heap, budget, range, range.saturating_add(1));
        walk.pos = from;
        walk.stop_at = stop;
        walk
    }

    /// Where the walk is: the range and the address of the next block. After a walk made by
    /// [`Walk::over_span`] that ended at its stop, `Some(address)` of that block boundary;
    /// `None` when it ended otherwise (an error or the budget moved it out of its range).
    pub(crate) fn stopped_at(&self) -> Option<u64> {
        (self.range < self.end_range && self.pos >= self.stop_at && self.pending.is_none())
            .then_some(self.pos)
    }

    /// A walk from `addr` (a block boundary) to the end of the last range.
    pub(crate) fn starting_at(heap: &'h Heap, budget: Budget, addr: u64) -> Walk<'h> {
        let ranges = heap.ranges();
        let range = ranges
            .iter()
            .position(|r| r.start <= addr && addr < r.end)
            .unwrap_or(ranges.len());
        Walk {
            heap,
            budget,
            range,
            pos: addr,
            stopped: false,
            pending: None,
            decode_all: false,
            end_range: ranges.len(),
            stop_at: u64::MAX,
        }
    }

    /// The same walk sizing every block with the full object decoder instead of the
    /// table-driven fast path: the reference the fast path is tested against (it yields
    /// exactly the same blocks and errors, only slower).
    #[doc(hidden)]
    pub fn decoding_every_block(mut self) -> Self {
        self.decode_all = true;
        self
    }

    /// The budget left (work and objects spent so far).
    pub fn budget(&self) -> &Budget {
        &self.budget
    }

    fn next_range(&mut self) {
        self.range += 1;
        if self.range >= self.end_range {
            self.stopped = true;
            return;
        }
        if let Some(r) = self.heap.ranges().get(self.range) {
            self.pos = r.start;
        }
    }

    fn block(&self) -> Result<Block, ObjectError> {
        let heap = self.heap;
        let image = heap.image();
        let layout = heap.layout();
        let w = layout.word.bytes();
        let addr = self.pos;
        let eop = layout.word.bytes() == 8;
        let obj = match decode(image, layout, addr) {
            Ok(o) => o,
            Err(e) => {
                if eop && is_registry_garbage(heap, addr) {
                    return Ok(Block {
                        addr,
                        size: 5 * w,
                        kind: BlockKind::RegistryGarbage,
                        forwarded_to: None,
                        range: self.range,
                    });
                }
                return Err(e);
            }
        };
        let mut forwarded_to = None;
        if let Some(fwd) = obj.forward {
            if fwd != addr.wrapping_sub(1) {
                let target = fwd.wrapping_add(1);
                let valid = is_pointer_word(fwd)
                    && target % w == 0
                    && heap.in_heap(target)
                    && image
                        .read_word(target)
                        .ok()
                        .and_then(|t| Tag::decode(t, layout.tags))
                        .is_some_and(|(t, _)| t.has_forwarding());
                if !valid {
                    if eop && is_registry_garbage(heap, addr) {
                        return Ok(Block {
                            addr,
                            size: 5 * w,
                            kind: BlockKind::RegistryGarbage,
                            forwarded_to: None,
                            range: self.range,
                        });
                    }
                    return Err(ObjectError::BadForward { addr, fwd });
                }
                forwarded_to = Some(target);
            }
        }
        Ok(Block {
            addr,
            size: obj.size,
            kind: BlockKind::Object(obj.tag),
            forwarded_to,
            range: self.range,
        })
    }

    /// Whether a compiler-made Bits64 box at `addr` (EOP) is followed by a slack word.
    fn has_slack(&self, next: u64, end: u64, evacuate: bool) -> bool {
        if next >= end {
            return false;
        }
        let heap = self.heap;
        let image = heap.image();
        let layout = heap.layout();
        let Ok(raw) = image.read_word(next) else {
            return true;
        };
        let Some((tag, _)) = Tag::decode(raw, layout.tags) else {
            return !is_registry_garbage(heap, next);
        };
        if !tag.has_forwarding() {
            return false;
        }
        match image.read_word(next + 8) {
            Ok(fwd) if fwd == next.wrapping_sub(1) => false,
            Ok(fwd) => !(evacuate && is_pointer_word(fwd) && heap.in_heap(fwd.wrapping_add(1))),
            Err(_) => true,
        }
    }
}

/// The EOP corrupted registry blob: word 0 an 8-aligned address, word 1 small, word 2 = 16.
fn is_registry_garbage(heap: &Heap, addr: u64) -> bool {
    let image = heap.image();
    let (Ok(a), Ok(b), Ok(c)) = (
        image.read_u64(addr),
        image.read_u64(addr + 8),
        image.read_u64(addr + 16),
    ) else {
        return false;
    };
    a != 0 && a % 8 == 0 && a < image.len() && b < (1 << 20) && c == 16 && image.contains(addr, 40)
}

impl Walk<'_> {
    /// The next block of the common case, inlined into the caller's loop: the fast path
    /// sizes it, the budget allows it, and it ends inside its range. `None` leaves the walk
    /// untouched for [`Walk::next_general`].
    #[inline(always)]
    fn next_quick(&mut self) -> Option<Block> {
        if self.decode_all || self.stopped || self.pending.is_some() {
            return None;
        }
        let r = self.heap.ranges().get(self.range)?;
        let addr = self.pos;
        if addr >= self.stop_at {
            return None;
        }
        let q = self.heap.quick.size(self.heap.image().as_slice(), addr)?;
        // `size` keeps the block inside the image, so the sum cannot overflow.
        let end = addr + q.size;
        if end > r.end || !self.budget.take_object() {
            return None;
        }
        self.pos = end;
        Some(Block {
            addr,
            size: q.size,
            kind: BlockKind::Object(q.tag),
            forwarded_to: None,
            range: self.range,
        })
    }

    /// Every other step: range changes, the budget running out, blocks the fast path
    /// declines (errors included) and the EOP Bits64 slack word.
    #[inline(never)]
    fn next_general(&mut self) -> Option<Result<Block, WalkError>> {
        if let Some(b) = self.pending.take() {
            return Some(Ok(b));
        }
        loop {
            if self.stopped {
                return None;
            }
            let r = *self.heap.ranges().get(self.range)?;
            if self.pos >= self.stop_at {
                self.stopped = true;
                return None;
            }
            if self.pos == r.end {
                self.next_range();
                continue;
            }
            if let Err(e) = self.budget.object(self.pos) {
                self.stopped = true;
                return Some(Err(WalkError::Limit(e)));
            }
            let range = self.range;
            let block = match self.block() {
                Ok(b) => b,
                Err(reason) => {
                    let addr = self.pos;
                    self.next_range();
                    return Some(Err(WalkError::Block {
                        range,
                        addr,
                        reason,
                    }));
                }
            };
            let end = self.pos.saturating_add(block.size);
            if end > r.end {
                self.next_range();
                return Some(Err(WalkError::Overrun {
                    range,
                    addr: block.addr,
                    size: block.size,
                    end: r.end,
                }));
            }
            self.pos = end;
            // EOP compiler-made Bits64 boxes may be followed by one unused slack word.
            if let BlockKind::Object(Tag::Bits64(_)) = block.kind {
                if self.heap.layout().word.bytes() == 8 {
                    let evacuate = r.partition.is_some_and(|p| p.evacuate);
                    if self.has_slack(end, r.end, evacuate) {
                        self.pos = end + 8;
                        self.pending = Some(Block {
                            addr: end,
                            size: 8,
                            kind: BlockKind::Slack,
                            forwarded_to: None,
                            range,
                        });
                    }
                }
            }
            return Some(Ok(block));
        }
    }
}

impl Iterator for Walk<'_> {
    type Item = Result<Block, WalkError>;

    #[inline]
    fn next(&mut self) -> Option<Self::Item> {
        match self.next_quick() {
            Some(b) => Some(Ok(b)),
            None => self.next_general(),
        }
    }
}

/// Blocks the walk must read in a row, without an error, from an address for it to be taken
/// as a block boundary by [`resume_candidate`].
const CANDIDATE_CHAIN: usize = 32;

/// An address at or after `from` inside range `range` that is likely a block boundary: the
/// first word-aligned address from which the walk reads [`CANDIDATE_CHAIN`] blocks in a row
/// (or to the range's end) without an error. Only a guess: a parallel walk uses it when the
/// walk from before it has reached it exactly (else it walks on alone). Looks at most
/// `max_words` addresses.
pub(crate) fn resume_candidate(
    heap: &Heap,
    range: usize,
    from: u64,
    max_words: u64,
) -> Option<u64> {
    let end = heap.ranges().get(range)?.end;
    let w = heap.layout().word.bytes();
    let mut at = from.checked_add(w - 1)? / w * w;
    for _ in 0..max_words {
        if at >= end {
            return None;
        }
        let walk = Walk::over_span(heap, Budget::unlimited(), range, at, u64::MAX);
        let mut blocks = 0;
        let mut clean = true;
        for item in walk.take(CANDIDATE_CHAIN) {
            clean &= item.is_ok();
            blocks += 1;
        }
        if clean && blocks > 0 {
            return Some(at);
        }
        at += w;
    }
    None
}
