//! [`ChildRanges`]: a sequence of counts read as consecutive ranges of one array (count `i`'s
//! range starts where count `i - 1`'s ends): the dominator tree's children grouped by
//! dominator ([`super::dominators::Dominators::visit_tree`]). The ranges' ends are kept as
//! [`Offsets`], about 2 bytes per count (a `u32` base per 64 and a `u16` rise per count; a
//! block of 64 whose ends rise by 65 535 or more, such as one with an array's million
//! elements, on the side whole) instead of a `u32` per count, and a range is read about as
//! fast as from a plain array: two entries of one array, with the bases (1/32 of its size)
//! mostly in the cache.
//!
//! Smaller layouts were measured and not taken (the whole `visit_tree` on the dense fixture,
//! in one process, several rounds): one-byte counts in cache-line blocks with the sum before
//! each block (1.14 bytes per count) took 0.71-1.10 s, the counts in unary with a sampled
//! select (a bit per count and per child) 0.75-1.16 s, against 0.42-0.57 s for these and
//! 0.42-0.63 s for plain `u32` offsets: a range there is a sum over its block or a select,
//! where here it is two reads.

use super::offsets::{Offsets, OffsetsBuilder};

/// Consecutive ranges of the given lengths, compact.
#[derive(Debug, Clone, Default)]
pub struct ChildRanges {
    /// `len + 1` positions: 0, then the end of each range.
    ends: Offsets,
}

impl ChildRanges {
    /// The ranges of `counts`, one after the other from 0 (`None` when they sum to more than
    /// `u32::MAX`, or there are `u32::MAX` counts or more).
    pub fn from_counts(counts: &[u32]) -> Option<ChildRanges> {
        if counts.len() >= u32::MAX as usize {
            return None;
        }
        let mut ends = OffsetsBuilder::with_capacity(counts.len() + 1);
        let mut end = 0u32;
        ends.push(end);
        for &c in counts {
            end = end.checked_add(c)?;
            ends.push(end);
        }
        Some(ChildRanges {
            ends: ends.finish(),
        })
    }

    /// The number of ranges.
    pub fn len(&self) -> usize {
        self.ends.len().saturating_sub(1)
    }

    /// Whether there are no ranges.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Where range `i` starts: the sum of the counts before it (`i` at most
    /// [`ChildRanges::len`]).
    #[inline]
    pub fn start(&self, i: usize) -> u32 {
        self.ends.get(i)
    }

    /// Range `i`: from the sum of the counts before it to the sum up to it (`i` below
    /// [`ChildRanges::len`]).
    #[inline]
    pub fn range(&self, i: usize) -> (u32, u32) {
        (self.ends.get(i), self.ends.get(i + 1))
    }

    /// Bytes it takes.
    pub fn heap_bytes(&self) -> usize {
        self.ends.heap_bytes()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The ranges of `counts`, checked against a plain prefix-sum array.
    fn check(counts: &[u32]) {
        let r = ChildRanges::from_counts(counts).expect("ranges");
        assert_eq!(r.len(), counts.len());
        assert_eq!(r.is_empty(), counts.is_empty());
        let mut prefix = vec![0u32; counts.len() + 1];
        for (i, &c) in counts.iter().enumerate() {
            prefix[i + 1] = prefix[i] + c;
        }
        for i in 0..counts.len() {
            assert_eq!(r.range(i), (prefix[i], prefix[i + 1]), "range({i})");
            assert_eq!(r.start(i), prefix[i], "start({i})");
        }
        assert_eq!(r.start(counts.len()), prefix[counts.len()]);
    }

    #[test]
    fn empty_and_one() {
        check(&[]);
        check(&[0]);
        check(&[1]);
        check(&[65_535]);
        check(&[1_000_000]);
        check(&[u32::MAX]);
        let r = ChildRanges::from_counts(&[]).expect("ranges");
        assert!(r.is_empty());
        assert_eq!(r.start(0), 0);
    }

    #[test]
    fn lengths_around_word_and_block_boundaries() {
        let mut rng = fastrand::Rng::with_seed(35);
        for len in [
            2usize, 31, 32, 33, 63, 64, 65, 127, 128, 129, 191, 192, 193, 4095, 4096, 4097,
        ] {
            check(&vec![0; len]);
            check(&vec![1; len]);
            // Blocks whose sum is just below and just above a 16-bit rise.
            check(&vec![1040; len]);
            check(&vec![1041; len]);
            let counts: Vec<u32> = (0..len).map(|_| rng.u32(0..5)).collect();
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
        assert!(ChildRanges::from_counts(&[u32::MAX - 5, 6]).is_none());
        let r = ChildRanges::from_counts(&[u32::MAX - 5, 5, 0]).expect("ranges");
        assert_eq!(r.range(1), (u32::MAX - 5, u32::MAX));
        assert_eq!(r.range(2), (u32::MAX, u32::MAX));
    }
}
