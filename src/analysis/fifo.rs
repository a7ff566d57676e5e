//! [`Fifo`]: a first-in first-out queue in fixed blocks, for the breadth-first searches over
//! the heap (the paths to roots, the type walk): its memory is what it holds plus a block,
//! never the up to twice that of a ring buffer grown by doubling.

use std::collections::VecDeque;

/// Entries per block.
const BLOCK: usize = 1 << 14;

/// A FIFO queue of `T` in blocks of [`BLOCK`] entries.
#[derive(Debug, Clone)]
pub struct Fifo<T> {
    blocks: VecDeque<Vec<T>>,
    /// The position of the next entry to pop in the first block.
    head: usize,
}

impl<T: Copy> Default for Fifo<T> {
    fn default() -> Fifo<T> {
        Fifo::new()
    }
}

impl<T: Copy> Fifo<T> {
    /// An empty queue.
    pub fn new() -> Fifo<T> {
        Fifo {
            blocks: VecDeque::new(),
            head: 0,
        }
    }

    /// Bytes its blocks take.
    pub fn heap_bytes(&self) -> usize {
        self.blocks.iter().map(|b| b.capacity()).sum::<usize>() * std::mem::size_of::<T>()
    }

    /// Appends `x`.
    #[inline]
    pub fn push_back(&mut self, x: T) {
        match self.blocks.back_mut() {
            Some(b) if b.len() < BLOCK => b.push(x),
            _ => {
                let mut b = Vec::with_capacity(BLOCK);
                b.push(x);
                self.blocks.push_back(b);
            }
        }
    }

    /// Removes and returns the oldest entry.
    #[inline]
    pub fn pop_front(&mut self) -> Option<T> {
        loop {
            let first = self.blocks.front()?;
            if let Some(&x) = first.get(self.head) {
                self.head += 1;
                return Some(x);
            }
            if first.len() < BLOCK {
                // The last block, read to its end: empty it for the next pushes.
                if self.blocks.len() == 1 {
                    self.blocks.clear();
                    self.head = 0;
                    return None;
                }
            }
            self.blocks.pop_front();
            self.head = 0;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_come_out_in_order_across_blocks() {
        let mut q = Fifo::new();
        let mut expected = VecDeque::new();
        let mut next = 0u32;
        // Pushes and pops interleaved, the queue growing past several blocks and emptying.
        for round in 0..6 {
            for _ in 0..(BLOCK * 2 + 17) {
                q.push_back(next);
                expected.push_back(next);
                next += 1;
            }
            let pops = if round % 2 == 0 {
                BLOCK + 5
            } else {
                usize::MAX
            };
            for _ in 0..pops {
                let (a, b) = (q.pop_front(), expected.pop_front());
                assert_eq!(a, b);
                if a.is_none() {
                    break;
                }
            }
        }
        while let Some(x) = expected.pop_front() {
            assert_eq!(q.pop_front(), Some(x));
        }
        assert_eq!(q.pop_front(), None);
        q.push_back(7);
        assert_eq!(q.pop_front(), Some(7));
        assert_eq!(q.pop_front(), None);
    }
}
