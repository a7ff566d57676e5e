//! [`UnaryCounts`]: a sequence of counts as consecutive ranges of one array (count `i`'s range
//! starts where count `i - 1`'s ends), stored in unary: `1^count 0` per count in one bit
//! vector, with the position of every 64th zero sampled. A range is found by a select over the
//! zeros: a sample and a scan of the few words to the zero (with small counts, two or three
//! words). Memory: one bit per count and one per unit counted, plus 8 bytes per 64 counts,
//! instead of a 4-byte prefix sum per count (the dominator tree's children, grouped by
//! dominator: [`super::dominators::Dominators::visit_tree`]).

use super::node_index::select_in_word;

/// Counts per select sample (every this many zeros, the position of the first).
const SAMPLE_EVERY: u64 = 64;

/// Counts written in unary, with a sampled select over their ends.
#[derive(Debug, Clone, Default)]
pub struct UnaryCounts {
    /// `1^count 0` per count, from bit 0 of word 0 on.
    words: Vec<u64>,
    /// For every [`SAMPLE_EVERY`]-th count: the bit position of its ending zero.
    samples: Vec<u64>,
    /// Bits written.
    bits: u64,
    /// Counts written.
    len: u64,
    /// Counts the vector has room for (its bits: `len + sum`).
    room_len: u64,
    room_sum: u64,
}

impl UnaryCounts {
    /// Room for `len` counts that sum to `sum`, allocated once.
    pub fn new(len: u64, sum: u64) -> UnaryCounts {
        let bits = len + sum;
        UnaryCounts {
            words: vec![0; bits.div_ceil(64) as usize],
            samples: Vec::with_capacity(len.div_ceil(SAMPLE_EVERY) as usize),
            bits: 0,
            len: 0,
            room_len: len,
            room_sum: sum,
        }
    }

    /// Appends a count (`false`, and nothing written, if it does not fit in the room given to
    /// [`UnaryCounts::new`]).
    pub fn push(&mut self, count: u64) -> bool {
        let ones_so_far = self.bits - self.len;
        if self.len == self.room_len || count > self.room_sum - ones_so_far {
            return false;
        }
        let end = self.bits + count;
        let mut p = self.bits;
        while p < end {
            let b = p % 64;
            let take = (64 - b).min(end - p);
            let ones = if take == 64 {
                u64::MAX
            } else {
                (1u64 << take) - 1
            };
            self.words[(p / 64) as usize] |= ones << b;
            p += take;
        }
        // The zero at `end` is already there.
        if self.len.is_multiple_of(SAMPLE_EVERY) {
            self.samples.push(end);
        }
        self.len += 1;
        self.bits = end + 1;
        true
    }

    /// The counts written.
    pub fn len(&self) -> u64 {
        self.len
    }

    /// Whether no count was written.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The bit position of the zero that ends count `i` (below [`UnaryCounts::len`]).
    #[inline]
    fn end_bit(&self, i: u64) -> u64 {
        debug_assert!(i < self.len);
        let sample = self.samples[(i / SAMPLE_EVERY) as usize];
        let mut k = (i % SAMPLE_EVERY) as u32;
        let mut w = (sample / 64) as usize;
        // The zeros from the sample on (the bits past the end read as zeros too, but count
        // `i` ends before them).
        let mut zeros = !self.words[w] & (u64::MAX << (sample % 64));
        loop {
            let n = zeros.count_ones();
            if k < n {
                return w as u64 * 64 + select_in_word(zeros, k) as u64;
            }
            k -= n;
            w += 1;
            zeros = !self.words[w];
        }
    }

    /// Where count `i`'s range starts: the sum of the counts before it (`i` at most
    /// [`UnaryCounts::len`]).
    #[inline]
    pub fn start(&self, i: u64) -> u64 {
        if i == 0 {
            0
        } else {
            self.end_bit(i - 1) + 1 - i
        }
    }

    /// Count `i`'s range: from the sum of the counts before it to the sum up to it (`i` below
    /// [`UnaryCounts::len`]). A select and a scan to the next zero.
    #[inline]
    pub fn range(&self, i: u64) -> (u64, u64) {
        debug_assert!(i < self.len);
        let first = if i == 0 { 0 } else { self.end_bit(i - 1) + 1 };
        let mut w = (first / 64) as usize;
        let mut zeros = !self.words[w] & (u64::MAX << (first % 64));
        while zeros == 0 {
            w += 1;
            zeros = !self.words[w];
        }
        let end = w as u64 * 64 + zeros.trailing_zeros() as u64;
        (first - i, end - i)
    }

    /// Calls `f(i, start, end)` with each count's range in order, in one pass over the bits.
    pub fn for_each_range(&self, mut f: impl FnMut(u64, u64, u64)) {
        let mut i = 0u64;
        let mut start = 0u64;
        for (w, &word) in self.words.iter().enumerate() {
            let mut zeros = !word;
            while zeros != 0 && i < self.len {
                let end = w as u64 * 64 + zeros.trailing_zeros() as u64 - i;
                f(i, start, end);
                start = end;
                i += 1;
                zeros &= zeros - 1;
            }
            if i == self.len {
                break;
            }
        }
    }

    /// Bytes it takes.
    pub fn heap_bytes(&self) -> usize {
        self.words.capacity() * 8 + self.samples.capacity() * 8
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The counts written in unary, checked against their prefix sums: every range, every
    /// start, and the ranges in one pass.
    fn check(counts: &[u64]) {
        let sum: u64 = counts.iter().sum();
        let mut u = UnaryCounts::new(counts.len() as u64, sum);
        for &c in counts {
            assert!(u.push(c));
        }
        assert!(!u.push(0), "beyond the room");
        assert_eq!(u.len(), counts.len() as u64);
        assert_eq!(u.is_empty(), counts.is_empty());
        let mut prefix = vec![0u64; counts.len() + 1];
        for (i, &c) in counts.iter().enumerate() {
            prefix[i + 1] = prefix[i] + c;
        }
        for i in 0..counts.len() {
            assert_eq!(u.range(i as u64), (prefix[i], prefix[i + 1]), "range({i})");
            assert_eq!(u.start(i as u64), prefix[i], "start({i})");
        }
        assert_eq!(u.start(counts.len() as u64), sum);
        let mut seen = 0;
        u.for_each_range(|i, s, e| {
            assert_eq!(i, seen);
            assert_eq!((s, e), (prefix[i as usize], prefix[i as usize + 1]));
            seen += 1;
        });
        assert_eq!(seen, counts.len() as u64);
        assert!(
            u.heap_bytes()
                <= (counts.len() as u64 + sum).div_ceil(64) as usize * 8
                    + 8 * (counts.len().div_ceil(64))
        );
    }

    #[test]
    fn empty_and_one() {
        check(&[]);
        check(&[0]);
        check(&[1]);
        check(&[63]);
        check(&[64]);
        check(&[1_000_000]);
        let u = UnaryCounts::new(0, 0);
        assert!(u.is_empty());
        u.for_each_range(|_, _, _| panic!("no counts"));
    }

    #[test]
    fn lengths_around_word_and_sample_boundaries() {
        let mut rng = fastrand::Rng::with_seed(35);
        for len in [
            2usize, 31, 32, 33, 63, 64, 65, 127, 128, 129, 191, 192, 193, 4095, 4096, 4097,
        ] {
            // All zeros (one bit each), all ones (two), and random small counts.
            check(&vec![0; len]);
            check(&vec![1; len]);
            check(&vec![63; len]);
            let counts: Vec<u64> = (0..len).map(|_| rng.u64(0..5)).collect();
            check(&counts);
        }
    }

    #[test]
    fn random_counts_with_zeros_and_runs_of_huge_ones() {
        let mut rng = fastrand::Rng::with_seed(16);
        for round in 0..200 {
            let len = rng.usize(0..3000);
            let counts: Vec<u64> = (0..len)
                .map(|_| match rng.u32(0..100) {
                    0..=39 => 0,
                    40..=89 => rng.u64(1..4),
                    90..=97 => rng.u64(4..200),
                    _ => rng.u64(200..100_000),
                })
                .collect();
            check(&counts);
            if round % 20 == 0 {
                // A run of huge counts, then small ones.
                let mut counts: Vec<u64> = (0..70).map(|_| rng.u64(10_000..70_000)).collect();
                counts.extend((0..200).map(|_| rng.u64(0..3)));
                counts.extend((0..65).map(|_| 1 << 16));
                check(&counts);
            }
        }
    }

    #[test]
    fn pushes_beyond_the_room_are_refused() {
        let mut u = UnaryCounts::new(2, 5);
        assert!(!u.push(6));
        assert!(u.push(3));
        assert!(!u.push(3));
        assert!(u.push(2));
        assert!(!u.push(0));
        assert_eq!(u.range(1), (3, 5));
    }
}
