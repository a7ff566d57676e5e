//! [`ReferenceRun`]: the lean decoder of an object's reference fields, for passes over every
//! object of a walk (the reference graph, dominators, type labels).
//!
//! Every object keeps the words the GC traces in one run: a record's hash-blob pointer (EOP)
//! and fields, an array's elements, a closure's captures, a text rope's two halves, a
//! box's, option's, variant's, region's or weak reference's single field. Given an object's
//! address and its size **as the walk found it** (the walk sized it with the full decoder's
//! checks), the run follows from the header word alone: no hash-blob read, no body decoded.
//! Its pointer words are exactly those of [`Object::references`](super::Object::references),
//! in the same order (checked over every object of every fixture in
//! `tests/it/analysis_retained.rs`).

use super::object::is_pointer_word;
use super::{Heap, HeapError, ObjectError, Tag, Words};
use crate::module::Persistence;

/// The reference fields of one object, as a run of words.
#[derive(Debug, Clone, Copy)]
pub struct ReferenceRun<'h> {
    /// The object's tag.
    pub tag: Tag,
    /// The fields that may hold references (pointers and scalars alike).
    pub words: Words<'h>,
}

impl<'h> ReferenceRun<'h> {
    /// The pointer words of the run, in order.
    #[inline]
    pub fn pointers(&self) -> impl Iterator<Item = u64> + 'h {
        self.words.iter().filter(|&w| is_pointer_word(w))
    }

    /// Whether this is a weak reference (not traced by the GC).
    #[inline]
    pub fn is_weak(&self) -> bool {
        self.tag == Tag::WeakRef
    }
}

impl Heap {
    /// The tag of the object at `addr` and, for a slice tag, its resume index: one word read.
    #[inline]
    pub fn tag_at(&self, addr: u64) -> Result<(Tag, Option<u64>), HeapError> {
        let raw = self.image().read_word(addr)?;
        Tag::decode(raw, self.layout.tags)
            .ok_or(HeapError::Object(ObjectError::BadTag { addr, tag: raw }))
    }

    /// The reference fields of the object at `addr`, which the walk found with `size` bytes
    /// (for any other address or size the run is bounded by the image but means nothing).
    #[inline]
    pub fn reference_run(&self, addr: u64, size: u64) -> Result<ReferenceRun<'_>, HeapError> {
        let (tag, _) = self.tag_at(addr)?;
        let w = self.layout.word.bytes();
        let h = if tag.has_forwarding() {
            self.layout.header
        } else {
            w
        };
        let eop = self.layout.persistence == Persistence::Enhanced;
        let end = addr.saturating_add(size);
        let body = addr.saturating_add(h);
        // The run's first address and its end.
        let (from, to) = match tag {
            Tag::Object if eop => (body, end),
            Tag::Object => (body.saturating_add(2 * w), end),
            Tag::Array(_) => (body.saturating_add(w), end),
            Tag::MutBox | Tag::ObjInd | Tag::Some | Tag::WeakRef => (body, body.saturating_add(w)),
            Tag::Closure => (body.saturating_add(2 * w), end),
            Tag::Variant => (body.saturating_add(w), body.saturating_add(2 * w)),
            Tag::Concat => (body.saturating_add(w), body.saturating_add(3 * w)),
            Tag::Region if eop => (body.saturating_add(16), body.saturating_add(24)),
            Tag::Region => (body.saturating_add(12), body.saturating_add(16)),
            _ => (body, body),
        };
        let len = to.saturating_sub(from) / w * w;
        let bytes = self.image().bytes(from, len)?;
        Ok(ReferenceRun {
            tag,
            words: Words::new(bytes, self.layout.word, from),
        })
    }
}
