//! Renderings of values: Motoko `debug_show` text (exactly as a compiled canister prints it,
//! or as moc's interpreter does) and JSON for `jq`. One writer each, for every value model:
//! the heap's decoded values and the script engine's values are read through [`Shown`].

mod heap_shape;
mod json;
mod motoko;
mod number;
pub mod object;
mod principal;
mod quoted;
mod shape;
mod stream;
mod stream_leaf;

pub use json::{
    json_string, number_rule, to_json, write_json, write_json_as, CUT_JSON, DEEP_JSON,
    MAX_JSON_DEPTH, MAX_JSON_NODES, MAX_SAFE_INTEGER,
};
pub use motoko::{debug_show, write_debug_show, write_debug_show_as};
pub use number::{
    group_digits, show_float, show_float_as, show_float_interpreted, show_int, show_nat,
};
pub use principal::{principal_from_text, principal_text};
pub use quoted::{write_blob, write_char, write_text};
pub use shape::{FloatStyle, Integer, Natural, Shape, Shown};
pub use stream::{stream_debug_show, stream_json, StreamError};

#[cfg(test)]
mod tests;
