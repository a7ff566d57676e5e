//! [`NodeIndex`]: the dense node numbers of the heap graph as a bitmap of object starts over
//! the heap's words, with a rank directory (address → node in O(1)) and a sampled select
//! (node → address in a few word reads): about 1.1 bits per heap word instead of 4 bytes per
//! object for a sorted address array, and no binary search per reference.

/// Heap words per rank block (eight bitmap words: one cache line).
const BLOCK_WORDS: usize = 8;

/// Nodes per select sample.
const SELECT_EVERY: u32 = 64;

/// Object starts over a span of heap words, in address order.
#[derive(Debug, Clone, Default, serde::Serialize, serde::Deserialize)]
pub struct NodeIndex {
    /// The first word (address >> word shift) the bitmap covers.
    base: u64,
    /// Bit `i` set: a node starts at word `base + i`.
    #[serde(with = "crate::analysis::pod")]
    bits: Vec<u64>,
    /// Per block of [`BLOCK_WORDS`] bitmap words: the nodes before it.
    #[serde(with = "crate::analysis::pod")]
    rank: Vec<u32>,
    /// For every [`SELECT_EVERY`]-th node: its bit position.
    #[serde(with = "crate::analysis::pod")]
    select: Vec<u64>,
    /// The words covered.
    span: u64,
    /// The bit position of the last node added.
    last: u64,
    count: u32,
}

impl NodeIndex {
    /// An empty index over the words `first..end` (`None` if the span is too large to map,
    /// more than 2^40 words).
    pub fn new(first: u64, end: u64) -> Option<NodeIndex> {
        let words = end.checked_sub(first)?;
        if words > 1 << 40 {
            return None;
        }
        let bit_words = usize::try_from(words.div_ceil(64)).ok()?;
        Some(NodeIndex {
            base: first,
            span: words,
            bits: vec![0; bit_words],
            ..NodeIndex::default()
        })
    }

    /// Adds a node at word `w`, above every node added so far (`false` if `w` is outside the
    /// span or not above the last node).
    pub fn push(&mut self, w: u64) -> bool {
        let Some(i) = w.checked_sub(self.base).filter(|&i| i < self.span) else {
            return false;
        };
        let Some(slot) = self.bits.get_mut((i / 64) as usize) else {
            return false;
        };
        if self.count > 0 && i <= self.last {
            return false;
        }
        *slot |= 1 << (i % 64);
        self.last = i;
        if self.count.is_multiple_of(SELECT_EVERY) {
            self.select.push(i);
        }
        self.count += 1;
        true
    }

    /// Builds the rank directory; call once after the last [`NodeIndex::push`].
    pub fn finish(&mut self) {
        let blocks = self.bits.len().div_ceil(BLOCK_WORDS);
        self.rank = Vec::with_capacity(blocks);
        let mut before = 0u32;
        for block in self.bits.chunks(BLOCK_WORDS) {
            self.rank.push(before);
            before += block.iter().map(|b| b.count_ones()).sum::<u32>();
        }
        self.select.shrink_to_fit();
        debug_assert_eq!(before, self.count);
    }

    /// Whether the index is one [`NodeIndex::finish`] left (an index read back from a file,
    /// [`crate::analysis::persist`]): the bitmap covers the span, the rank directory and
    /// the select samples are the bitmap's, the count its ones. Reads the whole index once.
    pub fn check(&self) -> Result<(), String> {
        if self.span.div_ceil(64) != self.bits.len() as u64 {
            return Err(format!(
                "{} bitmap words for {} words",
                self.bits.len(),
                self.span
            ));
        }
        if self.rank.len() != self.bits.len().div_ceil(BLOCK_WORDS) {
            return Err(format!(
                "{} rank entries for {} bitmap words",
                self.rank.len(),
                self.bits.len()
            ));
        }
        let mut before = 0u64;
        let mut samples = self.select.iter();
        for (block, (words, &rank)) in self.bits.chunks(BLOCK_WORDS).zip(&self.rank).enumerate() {
            if u64::from(rank) != before {
                return Err(format!("rank of block {block} is {rank}, not {before}"));
            }
            for (k, &w) in words.iter().enumerate() {
                let ones = u64::from(w.count_ones());
                // The samples in this word: every SELECT_EVERY-th one, at its position.
                let next = before.next_multiple_of(u64::from(SELECT_EVERY));
                if next < before + ones {
                    let sample = samples.next().copied();
                    let bit = (block * BLOCK_WORDS + k) as u64 * 64;
                    let expected = bit + u64::from(select_in_word(w, (next - before) as u32));
                    if sample != Some(expected) {
                        return Err(format!(
                            "select sample of node {next} is {sample:?}, not {expected}"
                        ));
                    }
                    if next + u64::from(SELECT_EVERY) < before + ones {
                        return Err("two select samples in one word".to_string());
                    }
                }
                before += ones;
            }
        }
        if samples.next().is_some() || before != u64::from(self.count) {
            return Err(format!(
                "{before} nodes in the bitmap, {} counted",
                self.count
            ));
        }
        if !self.span.is_multiple_of(64) {
            let tail = self.bits.last().copied().unwrap_or(0) >> (self.span % 64);
            if tail != 0 {
                return Err("nodes beyond the span".to_string());
            }
        }
        Ok(())
    }

    /// The number of nodes.
    #[inline]
    pub fn len(&self) -> usize {
        self.count as usize
    }

    /// Whether there are no nodes.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    /// The node starting at word `w`.
    #[inline]
    pub fn node_at(&self, w: u64) -> Option<u32> {
        let i = w.checked_sub(self.base)?;
        let word_index = usize::try_from(i / 64).ok()?;
        let word = *self.bits.get(word_index)?;
        let bit = i % 64;
        if word >> bit & 1 == 0 {
            return None;
        }
        let block = word_index / BLOCK_WORDS;
        let mut r = self.rank[block];
        for &b in &self.bits[block * BLOCK_WORDS..word_index] {
            r += b.count_ones();
        }
        Some(r + (word & ((1u64 << bit) - 1)).count_ones())
    }

    /// The word at which node `n` starts (`n` must be below [`NodeIndex::len`]).
    #[inline]
    pub fn word_of(&self, n: u32) -> u64 {
        debug_assert!(n < self.count);
        let sample = self.select[(n / SELECT_EVERY) as usize];
        let mut k = n % SELECT_EVERY;
        let mut j = (sample / 64) as usize;
        // Bits from the sample on.
        let mut word = self.bits[j] & (u64::MAX << (sample % 64));
        loop {
            let ones = word.count_ones();
            if k < ones {
                return self.base + j as u64 * 64 + select_in_word(word, k) as u64;
            }
            k -= ones;
            j += 1;
            word = self.bits[j];
        }
    }

    /// The start words of every node, in order.
    pub fn words(&self) -> impl Iterator<Item = u64> + '_ {
        self.words_from(self.base)
    }

    /// The start words of the nodes at word `w` and above, in order.
    pub fn words_from(&self, w: u64) -> impl Iterator<Item = u64> + '_ {
        let i = w.saturating_sub(self.base);
        let first = usize::try_from(i / 64).unwrap_or(usize::MAX);
        let low = !0u64 << (i % 64);
        let bits = self.bits.get(first..).unwrap_or_default();
        bits.iter().enumerate().flat_map(move |(k, &b)| {
            let base = self.base + (first + k) as u64 * 64;
            let mut rest = if k == 0 { b & low } else { b };
            std::iter::from_fn(move || {
                if rest == 0 {
                    return None;
                }
                let t = rest.trailing_zeros() as u64;
                rest &= rest - 1;
                Some(base + t)
            })
        })
    }

    /// Bytes the index takes.
    pub fn heap_bytes(&self) -> usize {
        self.bits.capacity() * 8 + self.rank.capacity() * 4 + self.select.capacity() * 8
    }
}

/// The position of the `k`-th set bit (from 0) of `word`, which has more than `k`: halves
/// of 32, 16 and 8 bits by their counts, then at most 7 bits cleared inside one byte.
#[inline]
fn select_in_word(word: u64, k: u32) -> u32 {
    let (mut w, mut k, mut pos) = (word, k, 0u32);
    for half in [32u32, 16, 8] {
        let low = (w & ((1u64 << half) - 1)).count_ones();
        if k >= low {
            k -= low;
            w >>= half;
            pos += half;
        }
    }
    for _ in 0..k {
        w &= w - 1;
    }
    pos + w.trailing_zeros()
}

#[cfg(test)]
mod tests {
    #[test]
    fn select_in_word_equals_clearing_bits_one_by_one() {
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        for round in 0..20_000u32 {
            // xorshift words, plus dense and sparse ones
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let word = match round % 3 {
                0 => x,
                1 => x | (x >> 1),
                _ => x & (x >> 3) & (x >> 5),
            };
            let mut w = word;
            for k in 0..word.count_ones() {
                assert_eq!(select_in_word(word, k), w.trailing_zeros(), "{word:#x} {k}");
                w &= w - 1;
            }
        }
        assert_eq!(select_in_word(u64::MAX, 63), 63);
        assert_eq!(select_in_word(1 << 63, 0), 63);
    }

    use super::*;

    #[test]
    fn rank_and_select_agree_with_a_sorted_array() {
        let mut rng = fastrand::Rng::with_seed(7);
        for round in 0..50 {
            let first = rng.u64(0..1000);
            let span = rng.u64(1..20_000);
            let mut idx = NodeIndex::new(first, first + span).expect("index");
            let mut words = Vec::new();
            let mut w = first + rng.u64(0..4);
            let density = rng.u64(1..40);
            while w < first + span {
                assert!(idx.push(w));
                words.push(w);
                w += 1 + rng.u64(0..density);
            }
            idx.finish();
            assert_eq!(idx.len(), words.len(), "round {round}");
            for (n, &w) in words.iter().enumerate() {
                assert_eq!(idx.word_of(n as u32), w, "round {round}, node {n}");
                assert_eq!(idx.node_at(w), Some(n as u32));
            }
            for probe in first.saturating_sub(3)..(first + span + 70).min(first + 3000) {
                assert_eq!(
                    idx.node_at(probe),
                    words.binary_search(&probe).ok().map(|n| n as u32)
                );
            }
            assert!(idx.words().eq(words.iter().copied()));
        }
    }

    #[test]
    fn out_of_order_and_outside_words_are_refused() {
        let mut idx = NodeIndex::new(100, 300).expect("index");
        assert!(!idx.push(99));
        assert!(!idx.push(300));
        assert!(idx.push(250));
        assert!(!idx.push(250));
        assert!(!idx.push(120));
        assert!(idx.push(299));
        idx.finish();
        assert_eq!(idx.len(), 2);
        assert_eq!(idx.node_at(u64::MAX), None);
        assert!(NodeIndex::new(0, 1 << 41).is_none());
    }
}
