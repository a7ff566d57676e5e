//! [`Narrow`]: per-index counts kept in one or two bytes each, the few that do not fit in a
//! sorted side table (the dominators' retained objects and words: most objects retain only
//! themselves and a few small parts).

/// An unsigned type of one or two bytes that holds most values of a [`Narrow`] array; its
/// largest value marks a value kept in the side table.
pub trait Small: Copy + Default + std::fmt::Debug {
    /// The marker of a value in the side table (the type's largest value).
    const ESCAPE: u32;
    /// `v`, which is below [`Small::ESCAPE`] or equal to it.
    fn from_u32(v: u32) -> Self;
    /// The value.
    fn to_u32(self) -> u32;
}

impl Small for u8 {
    const ESCAPE: u32 = u8::MAX as u32;
    #[inline]
    fn from_u32(v: u32) -> u8 {
        v as u8
    }
    #[inline]
    fn to_u32(self) -> u32 {
        self as u32
    }
}

impl Small for u16 {
    const ESCAPE: u32 = u16::MAX as u32;
    #[inline]
    fn from_u32(v: u32) -> u16 {
        v as u16
    }
    #[inline]
    fn to_u32(self) -> u32 {
        self as u32
    }
}

/// A `u32` per index in `size_of::<T>()` bytes, values from [`Small::ESCAPE`] on in a side
/// table sorted by index (8 bytes each, found by binary search). When so many values are
/// large that the side table would take more than plain `u32`s, [`Narrow::finish`] keeps
/// plain `u32`s instead (a long linked list retains much at every node).
#[derive(Debug, Clone, Default, serde::Serialize, serde::Deserialize)]
#[serde(bound(serialize = "T: bytemuck::Pod", deserialize = "T: bytemuck::Pod"))]
pub struct Narrow<T: Small> {
    #[serde(with = "crate::analysis::pod")]
    small: Vec<T>,
    large: Vec<(u32, u32)>,
    /// Every value, when the side table would be larger (then `small` and `large` are empty).
    wide: Vec<u32>,
}

impl<T: Small> Narrow<T> {
    /// `len` zeros.
    pub fn new(len: usize) -> Narrow<T> {
        Narrow {
            small: vec![T::default(); len],
            large: Vec::new(),
            wide: Vec::new(),
        }
    }

    /// Sets index `i` (below `u32::MAX`) to `v`, once per index; [`Narrow::finish`] after the
    /// last call.
    #[inline]
    pub fn set(&mut self, i: usize, v: u32) {
        if v < T::ESCAPE {
            self.small[i] = T::from_u32(v);
        } else {
            self.small[i] = T::from_u32(T::ESCAPE);
            self.large.push((i as u32, v));
        }
    }

    /// Sorts the side table (after the last [`Narrow::set`]), or turns to plain `u32`s when
    /// those take less.
    pub fn finish(&mut self) {
        self.large.sort_unstable();
        let saved = self.small.len() * (4 - std::mem::size_of::<T>());
        if self.large.len() * 8 > saved {
            self.wide = (0..self.small.len()).map(|i| self.get(i)).collect();
            self.small = Vec::new();
            self.large = Vec::new();
        }
        self.large.shrink_to_fit();
    }

    /// The value at index `i`.
    #[inline]
    pub fn get(&self, i: usize) -> u32 {
        if !self.wide.is_empty() {
            return self.wide[i];
        }
        let s = self.small[i].to_u32();
        if s < T::ESCAPE {
            return s;
        }
        match self.large.binary_search_by_key(&(i as u32), |&(j, _)| j) {
            Ok(k) => self.large[k].1,
            Err(_) => s,
        }
    }

    /// The number of values.
    pub fn len(&self) -> usize {
        if self.wide.is_empty() {
            self.small.len()
        } else {
            self.wide.len()
        }
    }

    /// Whether there are no values.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Whether the array is one [`Narrow::finish`] left, of `len` values (an array read back
    /// from a file): one representation, the side table sorted, within the array, and
    /// escaped there.
    pub fn check(&self, len: usize) -> Result<(), String> {
        let narrow = !self.small.is_empty() || !self.large.is_empty();
        let both = narrow && !self.wide.is_empty();
        if self.len() != len || both {
            return Err(format!("{} values, not {len}", self.len()));
        }
        let mut last = None;
        for &(i, _) in &self.large {
            let escaped = self.small.get(i as usize).map(|s| s.to_u32()) == Some(T::ESCAPE);
            if last.is_some_and(|l| l >= i) || !escaped {
                return Err(format!("side table entry {i} out of order or not escaped"));
            }
            last = Some(i);
        }
        Ok(())
    }

    /// Bytes it takes.
    pub fn heap_bytes(&self) -> usize {
        self.small.capacity() * std::mem::size_of::<T>()
            + self.large.capacity() * 8
            + self.wide.capacity() * 4
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_round_trip_through_both_widths() {
        let values = [0u32, 1, 254, 255, 256, 65_534, 65_535, 70_000, u32::MAX];
        let mut a: Narrow<u8> = Narrow::new(values.len() + 1);
        let mut b: Narrow<u16> = Narrow::new(values.len() + 1);
        for (i, &v) in values.iter().enumerate().rev() {
            a.set(i, v);
            b.set(i, v);
        }
        a.finish();
        b.finish();
        for (i, &v) in values.iter().enumerate() {
            assert_eq!(a.get(i), v, "u8 at {i}");
            assert_eq!(b.get(i), v, "u16 at {i}");
        }
        assert_eq!(a.get(values.len()), 0);
        assert_eq!(b.get(values.len()), 0);
    }

    #[test]
    fn mostly_large_values_are_kept_plain() {
        let mut a: Narrow<u8> = Narrow::new(1000);
        for i in 0..1000 {
            a.set(i, 1000 + i as u32 * (i % 3) as u32);
        }
        a.finish();
        assert!(!a.wide.is_empty() && a.large.is_empty());
        for i in 0..1000 {
            assert_eq!(a.get(i), 1000 + i as u32 * (i % 3) as u32);
        }
    }
}
