//! The walk behind [`HeapStats`]: counts per tag in a fixed array indexed by the block's kind,
//! and the heap split at its ranges (GC partitions) so that several threads walk parts of it.
//!
//! Exactness: the walk of a range does not depend on the ranges before it (after an error it
//! resumes at the next range), so walks of whole ranges, merged in range order, count what the
//! one-thread walk counts. A range much larger than its share (a classical heap is one range)
//! is cut at likely block boundaries; the walk is a function of its position, so a piece whose
//! walk from the cut before reaches its cut exactly counts what the one-thread walk counts
//! there, and a range whose pieces do not join up exactly is walked again whole. The one thing the
//! parts do not share is the object and work budget: when any part runs out, or the parts
//! together spent more than one budget holds, the heap is walked again on one thread, which
//! reports the limit exactly where the one-thread walk does.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use crate::heap::{
    resume_candidate, ArraySort, BitsSort, BlobSort, Block, BlockKind, Heap, Tag, Walk, WalkError,
};
use crate::image::Budget;

use super::counts::{block_name, is_free, Count, HeapStats, RangeStats};

/// Walks the heap on one thread and counts every block: the reference the parallel walk
/// ([`heap_stats_threads`]) is tested against.
pub fn heap_stats(heap: &Heap) -> HeapStats {
    heap_stats_with(heap, 1, &|| NoVisitor).0
}

/// Something shown every block the statistics walk counts (one per part of a parallel walk).
pub trait BlockVisitor: Send {
    /// Called once per walked block, in address order within a part.
    fn visit(&mut self, block: &Block);
}

/// A visitor that does nothing.
#[derive(Debug, Clone, Copy, Default)]
pub struct NoVisitor;

impl BlockVisitor for NoVisitor {
    #[inline(always)]
    fn visit(&mut self, _: &Block) {}
}

/// Block kinds counted apart: every tag, the EOP slack word and the registry garbage.
const SLOTS: usize = 34;

/// The kind counted in each slot ([`slot`] is its inverse).
const KINDS: [BlockKind; SLOTS] = {
    use ArraySort as A;
    use BitsSort as B;
    use BlobSort as S;
    use BlockKind::Object as O;
    [
        O(Tag::Object),
        O(Tag::Array(A::Immutable)),
        O(Tag::Array(A::Mutable)),
        O(Tag::Array(A::Tuple)),
        O(Tag::Array(A::Shared)),
        O(Tag::Array(A::Unknown)),
        O(Tag::Bits64(B::Unsigned)),
        O(Tag::Bits64(B::Signed)),
        O(Tag::Bits64(B::Float)),
        O(Tag::Bits64(B::Unknown)),
        O(Tag::Bits32(B::Unsigned)),
        O(Tag::Bits32(B::Signed)),
        O(Tag::Bits32(B::Float)),
        O(Tag::Bits32(B::Unknown)),
        O(Tag::MutBox),
        O(Tag::ObjInd),
        O(Tag::Closure),
        O(Tag::Some),
        O(Tag::Variant),
        O(Tag::Blob(S::Bytes)),
        O(Tag::Blob(S::Text)),
        O(Tag::Blob(S::Principal)),
        O(Tag::Blob(S::Actor)),
        O(Tag::Blob(S::Unknown)),
        O(Tag::FwdPtr),
        O(Tag::BigInt),
        O(Tag::Concat),
        O(Tag::Region),
        O(Tag::WeakRef),
        O(Tag::Null),
        O(Tag::OneWordFiller),
        O(Tag::FreeSpace),
        BlockKind::Slack,
        BlockKind::RegistryGarbage,
    ]
};

/// The slot a block kind is counted in.
#[inline(always)]
fn slot(kind: BlockKind) -> usize {
    use ArraySort as A;
    use BitsSort as B;
    use BlobSort as S;
    let tag = match kind {
        BlockKind::Object(tag) => tag,
        BlockKind::Slack => return 32,
        BlockKind::RegistryGarbage => return 33,
    };
    match tag {
        Tag::Object => 0,
        Tag::Array(A::Immutable) => 1,
        Tag::Array(A::Mutable) => 2,
        Tag::Array(A::Tuple) => 3,
        Tag::Array(A::Shared) => 4,
        Tag::Array(A::Unknown) => 5,
        Tag::Bits64(B::Unsigned) => 6,
        Tag::Bits64(B::Signed) => 7,
        Tag::Bits64(B::Float) => 8,
        Tag::Bits64(B::Unknown) => 9,
        Tag::Bits32(B::Unsigned) => 10,
        Tag::Bits32(B::Signed) => 11,
        Tag::Bits32(B::Float) => 12,
        Tag::Bits32(B::Unknown) => 13,
        Tag::MutBox => 14,
        Tag::ObjInd => 15,
        Tag::Closure => 16,
        Tag::Some => 17,
        Tag::Variant => 18,
        Tag::Blob(S::Bytes) => 19,
        Tag::Blob(S::Text) => 20,
        Tag::Blob(S::Principal) => 21,
        Tag::Blob(S::Actor) => 22,
        Tag::Blob(S::Unknown) => 23,
        Tag::FwdPtr => 24,
        Tag::BigInt => 25,
        Tag::Concat => 26,
        Tag::Region => 27,
        Tag::WeakRef => 28,
        Tag::Null => 29,
        Tag::OneWordFiller => 30,
        Tag::FreeSpace => 31,
    }
}

/// What the walk of one range (or a piece of one) found.
#[derive(Debug, Clone, Copy, Default)]
struct RangeTally {
    objects: Count,
    free: Count,
    errored: bool,
    walked_to: u64,
}

/// What the walk of a run of ranges, or of a piece of one range, found.
#[derive(Debug)]
struct Tally {
    first: usize,
    /// Where the walk began (a piece's first block).
    from: u64,
    /// For a piece that ended at its stop: the block boundary it stopped at.
    stopped_at: Option<u64>,
    tags: [Count; SLOTS],
    objects: Count,
    forwarded: Count,
    free: Count,
    ranges: Vec<RangeTally>,
    errors: Vec<String>,
    /// The budget ran out (the walk stopped; every range counts as incomplete).
    limited: bool,
    objects_used: u64,
    work_used: u64,
}

impl Tally {
    fn new(heap: &Heap, first: usize, end: usize, from: u64) -> Tally {
        let ranges = heap.ranges().get(first..end).unwrap_or_default();
        Tally {
            first,
            from,
            stopped_at: None,
            tags: [Count::default(); SLOTS],
            objects: Count::default(),
            forwarded: Count::default(),
            free: Count::default(),
            ranges: ranges
                .iter()
                .enumerate()
                .map(|(i, r)| RangeTally {
                    walked_to: if i == 0 { from.max(r.start) } else { r.start },
                    ..RangeTally::default()
                })
                .collect(),
            errors: Vec::new(),
            limited: false,
            objects_used: 0,
            work_used: 0,
        }
    }

    /// Counts every block `walk` yields, showing each to `visitor`.
    fn run<V: BlockVisitor>(mut self, mut walk: Walk<'_>, visitor: &mut V) -> Tally {
        for item in walk.by_ref() {
            match item {
                Ok(b) => {
                    visitor.visit(&b);
                    self.count(&b);
                }
                Err(e) => self.error(e),
            }
        }
        self.stopped_at = walk.stopped_at();
        self.objects_used = walk.budget().objects_used();
        self.work_used = walk.budget().work_used();
        self
    }

    #[inline(always)]
    fn count(&mut self, b: &Block) {
        if let Some(c) = self.tags.get_mut(slot(b.kind)) {
            c.add(b.size);
        }
        let free = is_free(b.kind);
        if free {
            self.free.add(b.size);
        } else {
            self.objects.add(b.size);
            if b.forwarded_to.is_some() {
                self.forwarded.add(b.size);
            }
        }
        if let Some(r) = self.ranges.get_mut(b.range.wrapping_sub(self.first)) {
            if free {
                r.free.add(b.size);
            } else {
                r.objects.add(b.size);
            }
            r.walked_to = b.addr + b.size;
        }
    }

    fn error(&mut self, e: WalkError) {
        match e {
            WalkError::Block { range, .. } | WalkError::Overrun { range, .. } => {
                if let Some(r) = self.ranges.get_mut(range.wrapping_sub(self.first)) {
                    r.errored = true;
                }
            }
            _ => self.limited = true,
        }
        self.errors.push(e.to_string());
    }
}

/// Statistics being merged from tallies in address order.
struct Merged {
    stats: HeapStats,
    /// Per range: an error was met, and where its walk ended.
    ends: Vec<(bool, u64)>,
    limited: bool,
}

impl Merged {
    fn new(heap: &Heap) -> Merged {
        Merged {
            stats: empty_stats(heap),
            ends: heap.ranges().iter().map(|r| (false, r.start)).collect(),
            limited: false,
        }
    }

    /// Adds one tally's counts (tallies come in address order).
    fn add(&mut self, tally: Tally) {
        let stats = &mut self.stats;
        for (kind, c) in KINDS.iter().zip(tally.tags) {
            if c.objects > 0 {
                let total = stats.by_tag.entry(block_name(*kind)).or_default();
                total.objects += c.objects;
                total.bytes += c.bytes;
            }
        }
        for (total, part) in [
            (&mut stats.objects, tally.objects),
            (&mut stats.forwarded, tally.forwarded),
            (&mut stats.free, tally.free),
        ] {
            total.objects += part.objects;
            total.bytes += part.bytes;
        }
        for (i, part) in tally.ranges.iter().enumerate() {
            let at = tally.first + i;
            if let (Some(r), Some(end)) = (stats.ranges.get_mut(at), self.ends.get_mut(at)) {
                r.objects.objects += part.objects.objects;
                r.objects.bytes += part.objects.bytes;
                r.free.objects += part.free.objects;
                r.free.bytes += part.free.bytes;
                end.0 |= part.errored;
                end.1 = part.walked_to;
            }
        }
        self.limited |= tally.limited;
        stats.errors.extend(tally.errors);
    }

    fn finish(mut self) -> HeapStats {
        for (r, (errored, walked_to)) in self.stats.ranges.iter_mut().zip(&self.ends) {
            r.complete = !errored && *walked_to == r.end && !self.limited;
        }
        self.stats
    }
}

/// The statistics before any block is counted: the ranges, the image and heap sizes.
fn empty_stats(heap: &Heap) -> HeapStats {
    let image_bytes = heap.image().len();
    let heap_bytes = heap.ranges().iter().map(|r| r.end - r.start).sum();
    let base = heap.layout().heap_base.min(image_bytes);
    HeapStats {
        image_bytes,
        heap_bytes,
        unused_bytes: (image_bytes - base).saturating_sub(heap_bytes),
        ranges: heap
            .ranges()
            .iter()
            .map(|r| RangeStats {
                start: r.start,
                end: r.end,
                partition: r.partition.map(|p| p.index),
                large_object: r.large_object,
                evacuating: r.partition.is_some_and(|p| p.evacuate),
                complete: true,
                ..RangeStats::default()
            })
            .collect(),
        ..HeapStats::default()
    }
}

/// Walks the heap on up to `threads` threads and counts every block; `make` makes one visitor
/// per part walked, returned in address order.
pub fn heap_stats_with<V: BlockVisitor>(
    heap: &Heap,
    threads: usize,
    make: &(dyn Fn() -> V + Sync),
) -> (HeapStats, Vec<V>) {
    if threads > 1 {
        if let Some(done) = parallel(heap, threads, make) {
            return done;
        }
    }
    let n = heap.ranges().len();
    let mut visitor = make();
    let walk = Walk::over_ranges(heap, Budget::new(heap.limits()), 0, n);
    let from = heap.ranges().first().map_or(0, |r| r.start);
    let mut merged = Merged::new(heap);
    merged.add(Tally::new(heap, 0, n, from).run(walk, &mut visitor));
    (merged.finish(), vec![visitor])
}

/// [`heap_stats_with`] without a visitor: `threads` 0 means every core.
pub fn heap_stats_threads(heap: &Heap, threads: usize) -> HeapStats {
    heap_stats_with(heap, resolve_threads(threads), &|| NoVisitor).0
}

/// `threads`, or every core the process may use when it is 0.
pub fn resolve_threads(threads: usize) -> usize {
    if threads > 0 {
        return threads;
    }
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// The smallest piece a range is cut into for the threads.
const MIN_PIECE_BYTES: u64 = 16 << 20;

/// Addresses searched for a block boundary at each cut (512 KiB of 64-bit words).
const CUT_SEARCH_WORDS: u64 = 1 << 16;

/// One piece of the parallel walk: range `range` from `from` to the block boundary at or past
/// `stop` (`u64::MAX`: to the range's end).
#[derive(Debug, Clone, Copy)]
struct Piece {
    range: usize,
    from: u64,
    stop: u64,
}

/// The pieces the heap is walked in: every range, and a range much larger than its share
/// (a classical heap is one range) cut where a block boundary is likely
/// ([`resume_candidate`]); a cut is kept only if the walk before it reaches it exactly.
fn plan(heap: &Heap, threads: usize) -> Vec<Piece> {
    let total: u64 = heap.ranges().iter().map(|r| r.end - r.start).sum();
    let target = (total / (threads as u64 * 4)).max(MIN_PIECE_BYTES);
    let mut pieces = Vec::new();
    for (range, r) in heap.ranges().iter().enumerate() {
        let size = r.end - r.start;
        let cuts = if r.large_object {
            1
        } else {
            (size / target).max(1)
        };
        let mut from = r.start;
        for k in 1..cuts {
            let guess = r.start + size / cuts * k;
            if guess <= from {
                continue;
            }
            if let Some(cut) = resume_candidate(heap, range, guess, CUT_SEARCH_WORDS) {
                pieces.push(Piece {
                    range,
                    from,
                    stop: cut,
                });
                from = cut;
            }
        }
        pieces.push(Piece {
            range,
            from,
            stop: u64::MAX,
        });
    }
    pieces
}

/// Walks one piece under a budget of its own.
fn walk_piece<V: BlockVisitor>(heap: &Heap, piece: Piece, visitor: &mut V) -> Tally {
    let budget = Budget::new(heap.limits());
    let walk = Walk::over_span(heap, budget, piece.range, piece.from, piece.stop);
    Tally::new(heap, piece.range, piece.range + 1, piece.from).run(walk, visitor)
}

/// The walk of every piece on its own, `threads` at a time; `None` when there is nothing to
/// share out, or when the budget decides (the caller walks on one thread then).
fn parallel<V: BlockVisitor>(
    heap: &Heap,
    threads: usize,
    make: &(dyn Fn() -> V + Sync),
) -> Option<(HeapStats, Vec<V>)> {
    let pieces = plan(heap, threads);
    if pieces.len() < 2 {
        return None;
    }
    let next = AtomicUsize::new(0);
    let done: Mutex<Vec<(usize, Tally, V)>> = Mutex::new(Vec::with_capacity(pieces.len()));
    std::thread::scope(|scope| {
        for _ in 0..threads.min(pieces.len()) {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(piece) = pieces.get(i) else {
                    break;
                };
                let mut visitor = make();
                let tally = walk_piece(heap, *piece, &mut visitor);
                let mut done = done.lock().unwrap_or_else(|p| p.into_inner());
                done.push((i, tally, visitor));
            });
        }
    });
    let mut parts = done.into_inner().unwrap_or_else(|p| p.into_inner());
    if parts.len() != pieces.len() {
        return None;
    }
    parts.sort_by_key(|(i, _, _)| *i);
    let parts = rejoin(heap, parts, make);
    let limits = heap.limits();
    let objects: u64 = parts.iter().map(|(t, _)| t.objects_used).sum();
    let work: u64 = parts.iter().map(|(t, _)| t.work_used).sum();
    if parts.iter().any(|(t, _)| t.limited)
        || objects > limits.max_objects
        || work > limits.max_work
    {
        return None;
    }
    let mut merged = Merged::new(heap);
    let mut visitors = Vec::with_capacity(parts.len());
    for (tally, visitor) in parts {
        merged.add(tally);
        visitors.push(visitor);
    }
    Some((merged.finish(), visitors))
}

/// The pieces' tallies in address order, checked: where a piece did not end exactly where the
/// next one began (an error before the cut, or a cut that was no block boundary), the whole
/// range is walked again as one piece.
fn rejoin<V: BlockVisitor>(
    heap: &Heap,
    parts: Vec<(usize, Tally, V)>,
    make: &(dyn Fn() -> V + Sync),
) -> Vec<(Tally, V)> {
    let mut out: Vec<(Tally, V)> = Vec::with_capacity(parts.len());
    let mut parts = parts.into_iter().map(|(_, t, v)| (t, v)).peekable();
    while let Some((tally, visitor)) = parts.next() {
        let range = tally.first;
        let mut run = vec![(tally, visitor)];
        while let Some((next, _)) = parts.peek() {
            if next.first != range {
                break;
            }
            run.extend(parts.next());
        }
        let joined = run
            .windows(2)
            .all(|w| w[0].0.stopped_at == Some(w[1].0.from));
        if joined {
            out.extend(run);
            continue;
        }
        let start = heap.ranges().get(range).map_or(0, |r| r.start);
        let whole = Piece {
            range,
            from: start,
            stop: u64::MAX,
        };
        let mut visitor = make();
        let tally = walk_piece(heap, whole, &mut visitor);
        out.push((tally, visitor));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_has_its_own_slot() {
        for (i, kind) in KINDS.iter().enumerate() {
            assert_eq!(slot(*kind), i, "{kind:?}");
        }
        let mut names: Vec<_> = KINDS.iter().map(|k| block_name(*k)).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), SLOTS);
    }
}
