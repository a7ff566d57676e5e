//! [`Bits`]: a bit per node of the graph (which nodes are marked), 1/8 byte per node.

/// A set of nodes as a bit per node; nodes beyond its length are not in it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Bits(Vec<u64>);

impl Bits {
    /// The empty set over `nodes` nodes.
    pub fn new(nodes: usize) -> Bits {
        Bits(vec![0; nodes.div_ceil(64)])
    }

    /// Whether `n` is in the set.
    #[inline]
    pub fn get(&self, n: u32) -> bool {
        self.0
            .get((n / 64) as usize)
            .is_some_and(|w| w & (1u64 << (n % 64)) != 0)
    }

    /// Adds `n` (ignored beyond the length).
    #[inline]
    pub fn set(&mut self, n: u32) {
        if let Some(w) = self.0.get_mut((n / 64) as usize) {
            *w |= 1u64 << (n % 64);
        }
    }

    /// The marked nodes, in order.
    pub fn ones(&self) -> impl Iterator<Item = u32> + '_ {
        self.0.iter().enumerate().flat_map(|(i, &w)| {
            let mut rest = w;
            std::iter::from_fn(move || {
                if rest == 0 {
                    return None;
                }
                let b = rest.trailing_zeros();
                rest &= rest - 1;
                Some(i as u32 * 64 + b)
            })
        })
    }

    /// Removes `n`.
    #[inline]
    pub fn clear(&mut self, n: u32) {
        if let Some(w) = self.0.get_mut((n / 64) as usize) {
            *w &= !(1u64 << (n % 64));
        }
    }
}
