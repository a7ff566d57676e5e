//! The steps from dominators to the objects they dominate, each dominator read once while its
//! objects are folded ([`Parents`]): a small direct-mapped cache by node, so the elements of
//! an array and the fields of a record, which are folded one after the other, find their
//! dominator there. A dominator is read only as far as its step needs: its header word for an
//! array, an option, a box or a closure (every object it dominates is one kind of step); its
//! field words for a record whose hash blob a record decoded before had ([`RecordShape`]);
//! a full decode for any other record and for a variant (its tag).

use super::step::{field_step, frame_step, FrameStep};
use crate::heap::{Body, Hashes, Heap, Tag, Words};
use crate::module::Persistence;

/// Cache slots (a power of two).
const SLOTS: usize = 256;

/// Record shapes remembered (records of a few types are folded at a time).
const SHAPES: usize = 4;

/// What a dominator tells about the steps to what it dominates.
#[derive(Clone, Copy)]
enum ParentRead<'h> {
    /// Every object it dominates is this step from it.
    Step(FrameStep),
    /// A record: the step is the field that points to the object.
    Record {
        hashes: Hashes<'h>,
        fields: Words<'h>,
    },
}

/// What the full decode of an EOP record says of every record with the same hash-blob
/// pointer word: its label hashes, and where and how many its fields are (the hash blob's
/// length is the field count).
#[derive(Clone, Copy)]
struct RecordShape<'h> {
    /// The hash-blob pointer word (the word just before the fields).
    hash_ptr: u64,
    hashes: Hashes<'h>,
    /// The fields' offset from the record's address, and their bytes.
    offset: u64,
    bytes: u64,
}

/// The dominators read lately, by node.
pub(super) struct Parents<'h> {
    heap: &'h Heap,
    slots: Vec<Option<(u32, ParentRead<'h>)>>,
    /// The shapes of records decoded lately, the latest first.
    shapes: Vec<RecordShape<'h>>,
}

impl<'h> Parents<'h> {
    /// An empty cache over `heap`.
    pub(super) fn new(heap: &'h Heap) -> Parents<'h> {
        Parents {
            heap,
            slots: vec![None; SLOTS],
            shapes: Vec::with_capacity(SHAPES),
        }
    }

    /// The step from node `d` (at `d_addr()`) to the object at `child_addr()` it dominates:
    /// what [`frame_step`] says of `d`'s decoded object (a dominator that cannot be read
    /// gives [`FrameStep::Ref`]).
    #[inline]
    pub(super) fn step(
        &mut self,
        d: u32,
        d_addr: impl FnOnce() -> u64,
        child_addr: impl FnOnce() -> u64,
    ) -> FrameStep {
        let i = d as usize & (SLOTS - 1);
        let read = match self.slots[i] {
            Some((n, read)) if n == d => read,
            _ => {
                let read = self.read(d_addr());
                self.slots[i] = Some((d, read));
                read
            }
        };
        match read {
            ParentRead::Step(step) => step,
            ParentRead::Record { hashes, fields } => {
                field_step(self.heap, &hashes, &fields, child_addr())
            }
        }
    }

    /// Reads the dominator at `addr`: its header word, and its body when the step depends
    /// on it.
    fn read(&mut self, addr: u64) -> ParentRead<'h> {
        let heap = self.heap;
        let step = match heap.tag_at(addr) {
            Err(_) => FrameStep::Ref,
            Ok((tag, _)) => match tag {
                Tag::Array(_) => FrameStep::Element,
                Tag::Some => FrameStep::Some,
                Tag::MutBox | Tag::ObjInd => FrameStep::Var,
                Tag::Closure => FrameStep::Captured,
                Tag::Object => return self.record(addr),
                Tag::Variant => frame_step(heap, heap.object(addr).ok().as_ref(), 0),
                _ => FrameStep::Ref,
            },
        };
        ParentRead::Step(step)
    }

    /// The record at `addr`: its fields read after a known shape, else decoded (and its
    /// shape remembered).
    fn record(&mut self, addr: u64) -> ParentRead<'h> {
        let heap = self.heap;
        let image = heap.image();
        let word = heap.layout().word;
        let w = word.bytes();
        for (k, s) in self.shapes.iter().enumerate() {
            let at = addr.wrapping_add(s.offset);
            if image
                .read_word(at.wrapping_sub(w))
                .is_ok_and(|p| p == s.hash_ptr)
            {
                let Ok(bytes) = image.bytes(at, s.bytes) else {
                    break;
                };
                let hashes = s.hashes;
                self.shapes[..=k].rotate_right(1);
                return ParentRead::Record {
                    hashes,
                    fields: Words::new(bytes, word, at),
                };
            }
        }
        let Ok(obj) = heap.object(addr) else {
            return ParentRead::Step(FrameStep::Ref);
        };
        let Body::Object {
            hashes,
            fields,
            hash_ptr,
        } = obj.body
        else {
            return ParentRead::Step(FrameStep::Ref);
        };
        let offset = fields.addr().wrapping_sub(addr);
        // Remembered in EOP only, where the hash blob gives the field count too (a classical
        // record has its own count word), and where the pointer is just before the fields.
        let eop = heap.layout().persistence == Persistence::Enhanced;
        if eop
            && image
                .read_word(fields.addr().wrapping_sub(w))
                .is_ok_and(|p| p == hash_ptr)
        {
            if self.shapes.len() == SHAPES {
                self.shapes.pop();
            }
            self.shapes.insert(
                0,
                RecordShape {
                    hash_ptr,
                    hashes,
                    offset,
                    bytes: fields.len() * w,
                },
            );
        }
        ParentRead::Record { hashes, fields }
    }
}
