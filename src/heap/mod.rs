//! The Motoko heap: layouts, the linear walk, objects, stable variables, types and values.
