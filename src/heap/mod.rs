//! The Motoko heap: layouts, the linear walk, objects, stable variables, types and values.

pub mod render;
pub mod types;
pub mod value;
