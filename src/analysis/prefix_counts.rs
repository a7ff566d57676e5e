//! [`PrefixCounts`]: a sequence of `u32` counts read as consecutive ranges of one array (count
//! `i`'s range starts where count `i - 1`'s ends), in about 1.14 bytes per count instead of a
//! 4-byte prefix sum per count: blocks of [`PER_BLOCK`] one-byte counts with the sum before
//! the block, one 64-byte cache line each; counts of 255 or more are on the side, in order.
//! A range is one cache line and a sum of at most 55 bytes, eight at a time (the dominator
//! tree's children grouped by dominator: [`super::dominators::Dominators::visit_tree`]).
//!
//! Counts in unary with a sampled select over their ends (a bit per count and per unit counted)
//! would take a fifth of the room, but they read two cache lines a range (the sample, then the
//! bits): on the dense fixture the per-type pass took 0.5-0.8 s more with them.

/// Counts per block.
pub const PER_BLOCK: u32 = 56;

/// The byte of a count of 255 or more (its value on the side).
const WIDE: u64 = 0xff;

/// No count of the block is on the side.
const NO_WIDE: u32 = u32::MAX;

/// Bytes `0, 2, 4, 6` of each 16-bit lane.
const LOW_BYTES: u64 = 0x00ff_00ff_00ff_00ff;

/// [`PER_BLOCK`] counts in one cache line.
#[derive(Debug, Clone, Copy)]
#[repr(C, align(64))]
struct Block {
    /// Count `j` of the block in byte `j % 8` of word `j / 8` (the low byte first), at most
    /// 254, or [`WIDE`].
    bytes: [u64; 7],
    /// The sum of the counts before the block.
    before: u32,
    /// Where the block's first count of 255 or more is in [`PrefixCounts::wide`], or
    /// [`NO_WIDE`].
    wide: u32,
}

/// Counts with their prefix sums, compact (built by [`PrefixCounts::push`]).
#[derive(Debug, Clone, Default)]
pub struct PrefixCounts {
    blocks: Vec<Block>,
    /// The counts of 255 or more: (index, count), in index order.
    wide: Vec<(u32, u32)>,
    len: u32,
    sum: u32,
}

/// The sum of the 8 bytes of `x`.
#[inline]
fn byte_sum(x: u64) -> u32 {
    // Four 16-bit lanes of at most 510, then their sum (at most 2040) in the top lane.
    let pairs = (x & LOW_BYTES) + ((x >> 8) & LOW_BYTES);
    (pairs.wrapping_mul(0x0001_0001_0001_0001) >> 48) as u32
}

impl PrefixCounts {
    /// Empty, with room for `len` counts.
    pub fn with_capacity(len: usize) -> PrefixCounts {
        PrefixCounts {
            blocks: Vec::with_capacity(len.div_ceil(PER_BLOCK as usize)),
            ..PrefixCounts::default()
        }
    }

    /// Appends a count (`false`, and nothing appended, when the counts or their sum would pass
    /// `u32::MAX`).
    pub fn push(&mut self, count: u32) -> bool {
        let Some(sum) = self.sum.checked_add(count) else {
            return false;
        };
        if self.len == u32::MAX {
            return false;
        }
        let j = self.len % PER_BLOCK;
        if j == 0 {
            self.blocks.push(Block {
                bytes: [0; 7],
                before: self.sum,
                wide: NO_WIDE,
            });
        }
        let Some(block) = self.blocks.last_mut() else {
            return false;
        };
        let byte = if count as u64 >= WIDE {
            if block.wide == NO_WIDE {
                // Fewer entries than counts: below u32::MAX.
                block.wide = self.wide.len() as u32;
            }
            self.wide.push((self.len, count));
            WIDE
        } else {
            count as u64
        };
        block.bytes[(j / 8) as usize] |= byte << (8 * (j % 8));
        self.len += 1;
        self.sum = sum;
        true
    }

    /// The number of counts.
    pub fn len(&self) -> u32 {
        self.len
    }

    /// Whether there are no counts.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The sum of all counts.
    pub fn sum(&self) -> u32 {
        self.sum
    }

    /// The counts of block `block` on the side, from its first one on (empty if none).
    #[inline]
    fn wide_of(&self, block: &Block) -> &[(u32, u32)] {
        if block.wide == NO_WIDE {
            &[]
        } else {
            &self.wide[block.wide as usize..]
        }
    }

    /// Count `i`'s range: from the sum of the counts before it to the sum up to it (`i` below
    /// [`PrefixCounts::len`]).
    #[inline]
    pub fn range(&self, i: u32) -> (u32, u32) {
        let block = &self.blocks[(i / PER_BLOCK) as usize];
        let j = i % PER_BLOCK;
        let (full, part) = ((j / 8) as usize, j % 8);
        let mut start = block.before;
        for &w in &block.bytes[..full] {
            start += byte_sum(w);
        }
        let word = block.bytes[full];
        // `part` is at most 7: the bytes below count `i`'s.
        start += byte_sum(word & ((1u64 << (8 * part)) - 1));
        let mut count = ((word >> (8 * part)) & WIDE) as u32;
        if block.wide != NO_WIDE {
            // Each wide count before `i` in the block was added as 255.
            for &(k, c) in self.wide_of(block) {
                if k > i {
                    break;
                }
                if k == i {
                    count = c;
                } else {
                    start += c - WIDE as u32;
                }
            }
        }
        (start, start + count)
    }

    /// Where count `i`'s range starts (`i` at most [`PrefixCounts::len`]: the sum).
    #[inline]
    pub fn start(&self, i: u32) -> u32 {
        if i >= self.len {
            self.sum
        } else {
            self.range(i).0
        }
    }

    /// Calls `f(i, start, end)` with each count's range in order, in one pass.
    pub fn for_each_range(&self, mut f: impl FnMut(u32, u32, u32)) {
        let mut wide = self.wide.iter().peekable();
        let mut start = 0u32;
        for i in 0..self.len {
            let block = &self.blocks[(i / PER_BLOCK) as usize];
            let j = i % PER_BLOCK;
            let mut count = ((block.bytes[(j / 8) as usize] >> (8 * (j % 8))) & WIDE) as u32;
            if let Some(&&(k, c)) = wide.peek() {
                if k == i {
                    count = c;
                    wide.next();
                }
            }
            f(i, start, start + count);
            start += count;
        }
    }

    /// Bytes it takes.
    pub fn heap_bytes(&self) -> usize {
        self.blocks.capacity() * std::mem::size_of::<Block>() + self.wide.capacity() * 8
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The counts, checked against their prefix sums: every range, every start, the ranges in
    /// one pass, and the room.
    fn check(counts: &[u32]) {
        let mut p = PrefixCounts::with_capacity(counts.len());
        for &c in counts {
            assert!(p.push(c));
        }
        assert_eq!(p.len(), counts.len() as u32);
        assert_eq!(p.is_empty(), counts.is_empty());
        let mut prefix = vec![0u32; counts.len() + 1];
        for (i, &c) in counts.iter().enumerate() {
            prefix[i + 1] = prefix[i] + c;
        }
        assert_eq!(p.sum(), prefix[counts.len()]);
        for i in 0..counts.len() {
            assert_eq!(p.range(i as u32), (prefix[i], prefix[i + 1]), "range({i})");
            assert_eq!(p.start(i as u32), prefix[i], "start({i})");
        }
        assert_eq!(p.start(counts.len() as u32), prefix[counts.len()]);
        let mut seen = 0;
        p.for_each_range(|i, s, e| {
            assert_eq!(i, seen);
            assert_eq!((s, e), (prefix[i as usize], prefix[i as usize + 1]));
            seen += 1;
        });
        assert_eq!(seen, counts.len() as u32);
        let wide = counts.iter().filter(|&&c| c >= 255).count();
        assert_eq!(
            p.heap_bytes(),
            counts.len().div_ceil(PER_BLOCK as usize) * 64 + p.wide.capacity() * 8
        );
        assert!(p.wide.len() == wide);
    }

    #[test]
    fn blocks_are_one_cache_line() {
        assert_eq!(std::mem::size_of::<Block>(), 64);
        assert_eq!(std::mem::align_of::<Block>(), 64);
    }

    #[test]
    fn byte_sum_adds_every_byte() {
        assert_eq!(byte_sum(0), 0);
        assert_eq!(byte_sum(u64::MAX), 8 * 255);
        assert_eq!(byte_sum(0x0102_0304_0506_0708), 36);
        assert_eq!(byte_sum(0xff00_0000_0000_00ff), 510);
    }

    #[test]
    fn empty_and_one() {
        check(&[]);
        check(&[0]);
        check(&[1]);
        check(&[254]);
        check(&[255]);
        check(&[256]);
        check(&[1_000_000]);
        let p = PrefixCounts::with_capacity(0);
        assert!(p.is_empty());
        assert_eq!(p.start(0), 0);
        p.for_each_range(|_, _, _| panic!("no counts"));
    }

    #[test]
    fn lengths_around_word_and_block_boundaries() {
        let mut rng = fastrand::Rng::with_seed(35);
        for len in [
            2usize, 7, 8, 9, 55, 56, 57, 63, 64, 65, 111, 112, 113, 167, 168, 169, 4095, 4096, 4097,
        ] {
            check(&vec![0; len]);
            check(&vec![1; len]);
            check(&vec![254; len]);
            check(&vec![255; len]);
            let counts: Vec<u32> = (0..len).map(|_| rng.u32(0..5)).collect();
            check(&counts);
            // One wide count at each end of the blocks.
            let counts: Vec<u32> = (0..len as u32)
                .map(|i| match i % PER_BLOCK {
                    0 | 55 => 300 + i,
                    _ => i % 3,
                })
                .collect();
            check(&counts);
        }
    }

    #[test]
    fn random_counts_with_zeros_and_runs_of_huge_ones() {
        let mut rng = fastrand::Rng::with_seed(16);
        for round in 0..200 {
            let len = rng.usize(0..3000);
            let counts: Vec<u32> = (0..len)
                .map(|_| match rng.u32(0..100) {
                    0..=39 => 0,
                    40..=89 => rng.u32(1..4),
                    90..=97 => rng.u32(4..400),
                    _ => rng.u32(200..100_000),
                })
                .collect();
            check(&counts);
            if round % 20 == 0 {
                // A run of huge counts (more than a block of them), then small ones.
                let mut counts: Vec<u32> = (0..70).map(|_| rng.u32(10_000..70_000)).collect();
                counts.extend((0..200).map(|_| rng.u32(0..3)));
                counts.extend((0..65).map(|_| 1 << 16));
                check(&counts);
            }
        }
    }

    #[test]
    fn a_sum_past_u32_is_refused() {
        let mut p = PrefixCounts::with_capacity(3);
        assert!(p.push(u32::MAX - 5));
        assert!(!p.push(6));
        assert!(p.push(5));
        assert!(!p.push(1));
        assert!(p.push(0));
        assert_eq!(p.len(), 3);
        assert_eq!(p.range(1), (u32::MAX - 5, u32::MAX));
        assert_eq!(p.range(2), (u32::MAX, u32::MAX));
    }
}
