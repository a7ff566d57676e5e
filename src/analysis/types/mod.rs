//! Motoko types of heap objects: a type-directed walk from the stable variables labels each
//! object it reaches with its type ([`TypeLabels`]), per-type objects, bytes and exact
//! retained bytes ([`by_type`]), and the types behind paths to roots ([`TypeTable`],
//! [`Container`] for mo:core collections).

mod aggregate;
mod label;
mod label_shape;
mod naming;
mod table;
mod walk;

pub use aggregate::{by_type, TypeRetention};
pub use label::{alias_name, render_label, shorten, shorten_to, MAX_LABEL_CHARS, MAX_LABEL_DEPTH};
pub use label_shape::{ElemShape, LabelShape};
pub use naming::{name_steps, MAX_KEY_CHARS};
pub use table::{
    Container, FieldShape, Shape, TagShape, TypeId, TypeTable, MAX_TYPES, MAX_TYPE_NODES,
    MAX_UNWRAP, UNTYPED,
};
pub use walk::{empty_env, fits, object_type, TypeLabels, NO_LABEL};

#[cfg(test)]
mod tests;
