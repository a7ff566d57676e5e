//! The upgrade comparison's shortcut for enhanced orthogonal persistence, which keeps main
//! memory as it is: a stable variable whose value is the same word in both states, and whose
//! every object (followed from that word in the upgraded state, forwarding words and weak
//! references included) has the same bytes in the old state, is the same value: the decoder
//! reads nothing else (given the same declared type and the same stable memory, which the
//! caller checks). What the upgrade wrote (the runtime's own fields, new allocations at the
//! heap's end) is found page by page, each 4 KiB page of the upgraded memory compared once
//! with the old one; an object on a page that differs is compared byte for byte. The walk is
//! iterative (an explicit stack), visits each object once (a bitmap over the upgraded
//! memory's words) and gives up (`false`, the caller compares the values part for part) at
//! the first object that differs, does not decode, or lies outside the old memory.

use crate::heap::{Body, Heap};
use crate::module::Persistence;

/// Bytes per page compared at once.
const PAGE: u64 = 4096;
/// Most forwarding words followed from one reference (the runtime leaves one at most).
const MAX_FORWARDS: usize = 4;

/// What is known of one page of the upgraded memory.
#[derive(Clone, Copy, PartialEq, Eq)]
enum PageState {
    Unknown,
    Same,
    Differs,
}

/// The walks of one comparison: the pages compared so far and the objects proven unchanged.
pub struct UnchangedWalk<'h> {
    after: &'h Heap,
    /// The two main memories' bytes.
    old_bytes: &'h [u8],
    new_bytes: &'h [u8],
    pages: Vec<PageState>,
    /// One bit per 8-byte word of the upgraded memory: the object there was reached by a walk
    /// that finished (or is in the current one's stack).
    visited: Vec<u64>,
    /// Whether `visited` holds objects of a walk that gave up (cleared before the next).
    poisoned: bool,
}

impl<'h> UnchangedWalk<'h> {
    /// A walk over `before` (the old state) and `after` (the upgraded one), or `None` when
    /// the shortcut does not apply: not both enhanced orthogonal persistence with the same
    /// layout, or stable memories that differ.
    pub fn new(before: &'h Heap, after: &'h Heap) -> Option<UnchangedWalk<'h>> {
        let layout = before.layout();
        if layout.persistence != Persistence::Enhanced || layout != after.layout() {
            return None;
        }
        let stable = |h: &'h Heap| -> &'h [u8] {
            h.snapshot().stable_memory().map_or(&[], |i| i.as_slice())
        };
        if stable(before) != stable(after) {
            return None;
        }
        let len = after.image().len();
        let pages = usize::try_from(len.div_ceil(PAGE)).ok()?;
        let words = usize::try_from(len.div_ceil(8 * 64)).ok()?;
        Some(UnchangedWalk {
            after,
            old_bytes: before.image().as_slice(),
            new_bytes: after.image().as_slice(),
            pages: vec![PageState::Unknown; pages],
            visited: vec![0; words],
            poisoned: false,
        })
    }

    /// Whether the value of `word` (the same word in both states) has the same objects, byte
    /// for byte, in both: `true` proves it, `false` says nothing.
    pub fn unchanged(&mut self, word: u64) -> bool {
        if self.poisoned {
            self.visited.fill(0);
            self.poisoned = false;
        }
        let ok = self.walk(word);
        self.poisoned = !ok;
        ok
    }

    fn walk(&mut self, word: u64) -> bool {
        let Some(first) = self.after.pointer(word) else {
            return true; // a scalar: the word is the value
        };
        if self.mark(first) {
            return true; // proven by an earlier walk that finished
        }
        let mut stack = vec![first];
        while let Some(mut addr) = stack.pop() {
            let mut hops = 0;
            let object = loop {
                let Ok(object) = self.after.object(addr) else {
                    return false;
                };
                if !self.same_bytes(object.addr, object.size.max(8)) {
                    return false;
                }
                match object.forwarded_to() {
                    Some(to) if hops < MAX_FORWARDS => {
                        hops += 1;
                        addr = to;
                    }
                    Some(_) => return false,
                    None => break object,
                }
            };
            if matches!(object.body, Body::FwdPtr { .. }) {
                return false;
            }
            for reference in object.references() {
                let Some(to) = self.after.pointer(reference) else {
                    continue;
                };
                if !self.mark(to) {
                    stack.push(to);
                }
            }
        }
        true
    }

    /// Marks the object at `addr` visited; whether it was already.
    fn mark(&mut self, addr: u64) -> bool {
        let word = addr / 8;
        let (i, bit) = ((word / 64) as usize, 1u64 << (word % 64));
        match self.visited.get_mut(i) {
            Some(w) => {
                let was = *w & bit != 0;
                *w |= bit;
                was
            }
            // outside the upgraded memory: `object` refuses it
            None => false,
        }
    }

    /// Whether `len` bytes at `addr` are the same in both memories.
    fn same_bytes(&mut self, addr: u64, len: u64) -> bool {
        let Some(end) = addr.checked_add(len) else {
            return false;
        };
        let (Ok(start), Ok(end)) = (usize::try_from(addr), usize::try_from(end)) else {
            return false;
        };
        if end > self.old_bytes.len() || end > self.new_bytes.len() {
            return false;
        }
        let (first, last) = (addr / PAGE, (end as u64 - 1) / PAGE);
        (first..=last).all(|page| self.page(page) == PageState::Same)
            || self.old_bytes[start..end] == self.new_bytes[start..end]
    }

    /// Whether page `page` is the same in both memories (compared on first use).
    fn page(&mut self, page: u64) -> PageState {
        let Some(state) = self.pages.get(page as usize).copied() else {
            return PageState::Differs;
        };
        if state != PageState::Unknown {
            return state;
        }
        // pages cover the new memory; one past the old memory's end differs
        let start = (page * PAGE) as usize;
        let end = (start + PAGE as usize).min(self.new_bytes.len());
        let same = self
            .old_bytes
            .get(start..end)
            .is_some_and(|old| old == &self.new_bytes[start..end]);
        let state = if same {
            PageState::Same
        } else {
            PageState::Differs
        };
        self.pages[page as usize] = state;
        state
    }
}
