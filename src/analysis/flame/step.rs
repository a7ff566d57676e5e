//! How a frame is reached from its parent frame: the kind of reference from an object to an
//! object it dominates (a record field by label, an array element, an option's value, ...),
//! found without locating the element (an array's elements are all one kind of step).

use crate::heap::{Body, Hashes, Heap, Object, Words};

/// The longest record scanned for the field holding a child (larger records: [`FrameStep::Ref`]).
pub const MAX_FIELDS_SCANNED: u64 = 256;

/// The step from a dominator to an object it dominates, as a frame name shows it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FrameStep {
    /// The first object under a root frame.
    Top,
    /// A record field, by label hash.
    Field(u32),
    /// An array element (any index).
    Element,
    /// The value of an option.
    Some,
    /// The payload of a variant, by tag hash.
    Variant(u32),
    /// The contents of a mutable box (transparent, as in paths).
    Var,
    /// A value captured by a closure.
    Captured,
    /// A reference of another kind, or an object dominated from further away.
    Ref,
}

/// What an object's kind says about the steps to the objects it dominates.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ParentKind {
    /// A record: the field is looked up per child.
    Record,
    /// Every child is [`FrameStep::Element`].
    Array,
    /// Every child is [`FrameStep::Some`].
    Some,
    /// Every child is the payload of the variant with this tag hash.
    Variant(u32),
    /// Every child is [`FrameStep::Var`].
    Var,
    /// Every child is [`FrameStep::Captured`].
    Closure,
    /// Anything else: [`FrameStep::Ref`].
    Other,
}

impl ParentKind {
    /// The kind of a decoded object's body.
    pub fn of(body: &Body<'_>) -> ParentKind {
        match body {
            Body::Object { .. } => ParentKind::Record,
            Body::Array { .. } => ParentKind::Array,
            Body::Some { .. } => ParentKind::Some,
            Body::Variant { hash, .. } => ParentKind::Variant(*hash),
            Body::MutBox { .. } => ParentKind::Var,
            Body::Closure { .. } => ParentKind::Closure,
            _ => ParentKind::Other,
        }
    }
}

/// The step from `parent` (decoded once, when the first object it dominates is met) to the
/// object at `child`: for a record, the first of its first [`MAX_FIELDS_SCANNED`] fields
/// that points to `child`.
pub fn frame_step(heap: &Heap, parent: Option<&Object<'_>>, child: u64) -> FrameStep {
    let Some(parent) = parent else {
        return FrameStep::Ref;
    };
    match ParentKind::of(&parent.body) {
        ParentKind::Array => FrameStep::Element,
        ParentKind::Some => FrameStep::Some,
        ParentKind::Variant(h) => FrameStep::Variant(h),
        ParentKind::Var => FrameStep::Var,
        ParentKind::Closure => FrameStep::Captured,
        ParentKind::Other => FrameStep::Ref,
        ParentKind::Record => record_field(heap, parent, child),
    }
}

fn record_field(heap: &Heap, parent: &Object<'_>, child: u64) -> FrameStep {
    let Body::Object { hashes, fields, .. } = parent.body else {
        return FrameStep::Ref;
    };
    field_step(heap, &hashes, &fields, child)
}

/// The step from a record with label hashes `hashes` and field words `fields` to the object
/// at `child`: the first of its first [`MAX_FIELDS_SCANNED`] fields that points to `child`.
pub fn field_step(heap: &Heap, hashes: &Hashes<'_>, fields: &Words<'_>, child: u64) -> FrameStep {
    let points_to = |word: u64| {
        heap.pointer(word)
            .is_some_and(|a| a == child || heap.resolve(a).is_ok_and(|r| r == child))
    };
    for i in 0..fields.len().min(MAX_FIELDS_SCANNED) {
        if fields.get(i).is_some_and(points_to) {
            return match hashes.get(i as usize) {
                Some(h) => FrameStep::Field(h),
                None => FrameStep::Ref,
            };
        }
    }
    FrameStep::Ref
}
