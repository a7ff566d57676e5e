//! [`Offsets`]: a non-decreasing sequence of `u32` positions (a CSR's offsets) in about 2 bytes
//! per position instead of 4: a `u32` base per block of [`BLOCK`] positions and a `u16` rise
//! from it per position. A block whose positions rise by more than a `u16` from its first
//! (an object with tens of thousands of references) keeps its positions whole on the side.

/// Positions per block.
const BLOCK: usize = 64;

/// The rise that marks a position of a wide block.
const WIDE: u16 = u16::MAX;

/// A non-decreasing sequence of `u32`, compact.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Offsets {
    /// Per block: its first position's value.
    #[serde(with = "crate::analysis::pod")]
    base: Vec<u32>,
    /// Per position: its value minus its block's base, or [`WIDE`].
    #[serde(with = "crate::analysis::pod")]
    rise: Vec<u16>,
    /// The wide blocks in order, each with where its values start in `wide_values`.
    wide: Vec<(u32, u32)>,
    /// The values of the wide blocks, [`BLOCK`] per block (the last one may be shorter).
    #[serde(with = "crate::analysis::pod")]
    wide_values: Vec<u32>,
}

impl Offsets {
    /// The number of positions.
    #[inline]
    pub fn len(&self) -> usize {
        self.rise.len()
    }

    /// Whether there are no positions.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.rise.is_empty()
    }

    /// The value at position `i` (`i` must be below [`Offsets::len`]).
    #[inline]
    pub fn get(&self, i: usize) -> u32 {
        let block = i / BLOCK;
        match self.rise[i] {
            WIDE => self.wide_value(block, i % BLOCK),
            r => self.base[block] + r as u32,
        }
    }

    #[cold]
    fn wide_value(&self, block: usize, k: usize) -> u32 {
        let at = self
            .wide
            .binary_search_by_key(&(block as u32), |&(b, _)| b)
            .map_or(0, |j| self.wide[j].1 as usize);
        self.wide_values[at + k]
    }

    /// Bytes the arrays take.
    pub fn heap_bytes(&self) -> usize {
        self.base.capacity() * 4
            + self.rise.capacity() * 2
            + self.wide.capacity() * 8
            + self.wide_values.capacity() * 4
    }
}

/// Builds [`Offsets`] position by position.
#[derive(Debug, Default)]
pub struct OffsetsBuilder {
    done: Offsets,
    /// The current block's values.
    block: Vec<u32>,
}

impl OffsetsBuilder {
    /// A builder with room for `positions`.
    pub fn with_capacity(positions: usize) -> OffsetsBuilder {
        OffsetsBuilder {
            done: Offsets {
                base: Vec::with_capacity(positions.div_ceil(BLOCK)),
                rise: Vec::with_capacity(positions),
                ..Offsets::default()
            },
            block: Vec::with_capacity(BLOCK),
        }
    }

    /// Appends `value` (not below the last one: the caller's contract).
    #[inline]
    pub fn push(&mut self, value: u32) {
        debug_assert!(self.block.last().is_none_or(|&l| l <= value));
        self.block.push(value);
        if self.block.len() == BLOCK {
            self.flush();
        }
    }

    /// The last value pushed.
    pub fn last(&self) -> Option<u32> {
        match self.block.last() {
            Some(&v) => Some(v),
            None if self.done.is_empty() => None,
            None => Some(self.done.get(self.done.len() - 1)),
        }
    }

    fn flush(&mut self) {
        let Some(&first) = self.block.first() else {
            return;
        };
        self.done.base.push(first);
        let narrow = self
            .block
            .iter()
            .all(|&v| v.wrapping_sub(first) < WIDE as u32);
        if narrow {
            self.done
                .rise
                .extend(self.block.iter().map(|&v| (v - first) as u16));
        } else {
            let block = (self.done.base.len() - 1) as u32;
            self.done
                .wide
                .push((block, self.done.wide_values.len() as u32));
            self.done.wide_values.extend_from_slice(&self.block);
            self.done.rise.extend(self.block.iter().map(|_| WIDE));
        }
        self.block.clear();
    }

    /// The offsets.
    pub fn finish(mut self) -> Offsets {
        self.flush();
        let mut o = self.done;
        o.base.shrink_to_fit();
        o.rise.shrink_to_fit();
        o.wide.shrink_to_fit();
        o.wide_values.shrink_to_fit();
        o
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_come_back_whatever_their_rises() {
        let mut rng = fastrand::Rng::with_seed(11);
        for round in 0..40 {
            let n = rng.usize(0..2000);
            let mut values = Vec::with_capacity(n);
            let mut v = rng.u32(0..1000);
            for _ in 0..n {
                values.push(v);
                // Mostly small steps, sometimes a huge object, sometimes exactly at the edge.
                v += match rng.u8(0..20) {
                    0 => rng.u32(0..200_000),
                    1 => WIDE as u32 - 1,
                    2 => WIDE as u32,
                    _ => rng.u32(0..6),
                };
            }
            let mut b = OffsetsBuilder::with_capacity(n);
            for &v in &values {
                b.push(v);
                assert_eq!(b.last(), Some(v));
            }
            let o = b.finish();
            assert_eq!(o.len(), n, "round {round}");
            for (i, &v) in values.iter().enumerate() {
                assert_eq!(o.get(i), v, "round {round}, position {i}");
            }
        }
    }

    #[test]
    fn small_offsets_take_about_two_bytes_each() {
        let mut b = OffsetsBuilder::with_capacity(64_000);
        for i in 0..64_000u32 {
            b.push(i * 3);
        }
        let o = b.finish();
        assert!(o.wide.is_empty());
        assert!(o.heap_bytes() <= 64_000 * 2 + 1000 * 4 + 64);
    }
}
