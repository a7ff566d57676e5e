//! [`RankBits`]: a set of indices with a rank directory (how many members come before an
//! index), 1.5 bits per index: the dominator tree's inner vertices, numbered densely.

/// A bitset over `0..len` with, per 64-bit word, the members before it.
#[derive(Debug, Clone, Default)]
pub struct RankBits {
    words: Vec<u64>,
    before: Vec<u32>,
}

impl RankBits {
    /// An empty set over `0..len` (`len` below 2^32).
    pub fn new(len: usize) -> RankBits {
        RankBits {
            words: vec![0; len.div_ceil(64)],
            before: Vec::new(),
        }
    }

    /// Adds `i` (before [`RankBits::finish`]).
    #[inline]
    pub fn insert(&mut self, i: u32) {
        self.words[i as usize / 64] |= 1 << (i % 64);
    }

    /// Builds the rank directory (after the last [`RankBits::insert`]).
    pub fn finish(&mut self) {
        let mut sum = 0u32;
        self.before = self
            .words
            .iter()
            .map(|w| {
                let b = sum;
                sum += w.count_ones();
                b
            })
            .collect();
    }

    /// Whether `i` is a member.
    #[inline]
    pub fn contains(&self, i: u32) -> bool {
        self.words[i as usize / 64] & (1 << (i % 64)) != 0
    }

    /// The members below `i` (after [`RankBits::finish`]).
    #[inline]
    pub fn rank(&self, i: u32) -> u32 {
        let w = i as usize / 64;
        let below = self.words[w] & ((1u64 << (i % 64)) - 1);
        self.before[w] + below.count_ones()
    }

    /// How many members (after [`RankBits::finish`]).
    pub fn ones(&self) -> u32 {
        match (self.before.last(), self.words.last()) {
            (Some(b), Some(w)) => b + w.count_ones(),
            _ => 0,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rank_counts_the_members_below() {
        let members = [0u32, 3, 63, 64, 65, 127, 128, 200];
        let mut s = RankBits::new(201);
        for &m in &members {
            s.insert(m);
        }
        s.finish();
        assert_eq!(s.ones(), members.len() as u32);
        for i in 0..201u32 {
            let below = members.iter().filter(|&&m| m < i).count() as u32;
            assert_eq!(s.rank(i), below, "rank({i})");
            assert_eq!(s.contains(i), members.contains(&i), "contains({i})");
        }
    }
}
