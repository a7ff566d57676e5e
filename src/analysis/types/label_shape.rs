//! [`LabelShape`]: what a type label's type is underneath its name, from the alias expansion
//! (a label `Bytes` of `type Bytes = [Nat8]` is an array of `Nat8`), for checks that look for
//! a kind of value whatever the program named it (a label `Index` of `type Index =
//! Map.Map<Nat, Text>` is a `mo:core` `Map`).

use crate::heap::types::Prim;

use super::table::{Container, Shape, TypeId, TypeTable};

/// The structure of the type behind a label, as far as checks need it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum LabelShape {
    /// Anything else, or two types of different structure printed alike (the label is
    /// ambiguous: nothing is concluded from it).
    Other,
    /// A primitive type (`Text`, `Blob`, `Nat`, `Float`...).
    Prim(Prim),
    /// `[T]` or `[var T]`.
    Array {
        /// `[var T]`.
        mutable: bool,
        /// The element type's structure.
        elem: ElemShape,
    },
    /// A `mo:core` `Map` or `Set` (recognised by its record's and nodes' fields).
    MapOrSet,
    /// A `mo:core` `List` (recognised by its record's fields and blocks).
    List,
}

/// The structure of an array's element type.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum ElemShape {
    /// Anything else.
    Other,
    /// A primitive type.
    Prim(Prim),
    /// An option `?T`.
    Opt,
}

impl LabelShape {
    /// The structure of type `tid` of `table` (aliases expanded, as the walk reads them).
    pub(super) fn of(table: &mut TypeTable<'_>, tid: TypeId) -> LabelShape {
        match table.container(tid) {
            Some(Container::Map { .. } | Container::Set { .. }) => return LabelShape::MapOrSet,
            Some(Container::List { .. }) => return LabelShape::List,
            _ => {}
        }
        let (mutable, elem) = match table.shape(tid) {
            Shape::Prim(p) => return LabelShape::Prim(*p),
            Shape::Array { mutable, elem } => (*mutable, *elem),
            _ => return LabelShape::Other,
        };
        let elem = match table.shape(elem) {
            Shape::Prim(p) => ElemShape::Prim(*p),
            Shape::Opt(_) => ElemShape::Opt,
            _ => ElemShape::Other,
        };
        LabelShape::Array { mutable, elem }
    }

    /// The shape of a label two types share: theirs if they agree, else [`LabelShape::Other`].
    pub fn join(self, other: LabelShape) -> LabelShape {
        if self == other {
            self
        } else {
            LabelShape::Other
        }
    }
}
