//! [`pop_order`]: the order in which `mo:core`'s `PriorityQueue.values(pq, compare)` yields a
//! queue's elements (it pops a copy until empty), replayed on the heap array.
//!
//! The canister's `compare` is a function the heap does not keep. A queue is a binary
//! max-heap under it, so the heap array shows which order was used: if no element is
//! greater than its parent by the elements' own order ([`compare_keys`]: `Nat.compare`,
//! `Text.compare`, tuples component by component, …) that order was used; if none is less,
//! its reverse was (a min-queue). The pops are then replayed exactly as `PriorityQueue.pop`
//! runs them (ties included). When neither holds (a custom order, or elements with no
//! order) the heap's own order is kept.

use std::cmp::Ordering;

use super::compare_keys;
use crate::heap::value::{DecodeError, Decoder, LazyValue, Value};
use crate::image::LimitKind;

/// The most value nodes one element is decoded to (to compare it).
const MAX_ELEMENT_NODES: u64 = 4096;

/// Positions of `elements` (the queue's heap array, in index order) in pop order: the
/// identity when the order the queue was built with cannot be told from the heap.
pub fn pop_order(
    decoder: &mut Decoder<'_>,
    elements: &[LazyValue],
) -> Result<Vec<usize>, DecodeError> {
    let identity: Vec<usize> = (0..elements.len()).collect();
    let keys = decode_all(decoder, elements)?;
    let Some(keys) = keys else {
        return Ok(identity);
    };
    let direction = [Ordering::Greater, Ordering::Less]
        .into_iter()
        .find(|&greater| is_heap(&keys, greater));
    Ok(match direction {
        Some(greater) => replay_pops(&keys, greater),
        None => identity,
    })
}

/// Every element decoded (bounded), or `None` if one cannot be.
fn decode_all(
    decoder: &mut Decoder<'_>,
    elements: &[LazyValue],
) -> Result<Option<Vec<Value>>, DecodeError> {
    let (max, natural) = (decoder.max_nodes, decoder.natural());
    decoder.set_max_nodes(MAX_ELEMENT_NODES);
    decoder.set_natural(false);
    let mut keys = Vec::with_capacity(elements.len());
    let mut result = Ok(Some(()));
    for x in elements {
        match decoder.deep(x) {
            Ok(v) => keys.push(v),
            // An element too large to compare: the order cannot be told.
            Err(e) if matches!(e.limit(), Some(k) if k != LimitKind::Work) => {
                result = Ok(None);
                break;
            }
            Err(e) => {
                result = Err(e);
                break;
            }
        }
    }
    decoder.set_max_nodes(max);
    decoder.set_natural(natural);
    Ok(result?.map(|()| keys))
}

/// Whether `cmp(a, b) == greater` means "a has priority over b" for a max-heap over `keys`:
/// no element has priority over its parent, and every pair compares.
fn is_heap(keys: &[Value], greater: Ordering) -> bool {
    (1..keys.len()).all(|i| {
        let parent = (i - 1) / 2;
        compare_keys(&keys[i], &keys[parent]).is_some_and(|o| o != greater)
    })
}

/// `PriorityQueue.pop` run until the queue is empty (the same sift-down, step for step, so
/// equal elements leave in the canister's order), on positions into `keys`.
fn replay_pops(keys: &[Value], greater: Ordering) -> Vec<usize> {
    let above = |a: usize, b: usize| compare_keys(&keys[a], &keys[b]) == Some(greater);
    let mut heap: Vec<usize> = (0..keys.len()).collect();
    let mut out = Vec::with_capacity(heap.len());
    while let (Some(&top), Some(&last)) = (heap.first(), heap.last()) {
        let last_index = heap.len() - 1;
        let mut index = 0;
        loop {
            let (mut best, mut best_elem) = (last_index, last);
            let left = 2 * index + 1;
            if left < last_index && above(heap[left], last) {
                (best, best_elem) = (left, heap[left]);
            }
            let right = left + 1;
            if right < last_index && above(heap[right], best_elem) {
                (best, best_elem) = (right, heap[right]);
            }
            if best == last_index {
                heap[index] = last;
                heap.pop();
                break;
            }
            heap[index] = best_elem;
            index = best;
        }
        out.push(top);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn nats(xs: &[u64]) -> Vec<Value> {
        xs.iter().map(|&x| Value::Nat(x.into())).collect()
    }

    /// The queue `push` builds (mo:core's sift-up), as a plain second computation.
    fn pushed(xs: &[u64], greater: Ordering) -> Vec<u64> {
        let mut heap: Vec<u64> = Vec::new();
        for &x in xs {
            heap.push(x);
            let mut i = heap.len() - 1;
            while i > 0 {
                let p = (i - 1) / 2;
                if x.cmp(&heap[p]) == greater {
                    heap[i] = heap[p];
                    i = p;
                } else {
                    break;
                }
            }
            heap[i] = x;
        }
        heap
    }

    #[test]
    fn pops_come_out_sorted_for_max_and_min_queues() {
        let input = [5, 10, 3, 3, 8, 1, 10, 7, 0, 4, 4, 9];
        for greater in [Ordering::Greater, Ordering::Less] {
            let heap = pushed(&input, greater);
            let keys = nats(&heap);
            assert!(is_heap(&keys, greater));
            let popped: Vec<u64> = replay_pops(&keys, greater)
                .into_iter()
                .map(|i| heap[i])
                .collect();
            let mut sorted = input.to_vec();
            sorted.sort_unstable();
            if greater == Ordering::Greater {
                sorted.reverse();
            }
            assert_eq!(popped, sorted);
        }
    }

    #[test]
    fn a_heap_in_no_known_order_is_not_taken_for_one() {
        assert!(!is_heap(&nats(&[3, 5, 1]), Ordering::Greater));
        assert!(!is_heap(&nats(&[3, 5, 1]), Ordering::Less));
        assert!(is_heap(&nats(&[]), Ordering::Greater));
        assert_eq!(
            replay_pops(&nats(&[]), Ordering::Greater),
            Vec::<usize>::new()
        );
    }
}
