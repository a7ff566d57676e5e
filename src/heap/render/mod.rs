//! Renderings of decoded values: Motoko `debug_show` text (exactly as a compiled canister
//! prints it) and JSON for `jq`.

mod json;
mod motoko;
mod number;
mod principal;
mod quoted;

pub use json::{json_string, to_json, write_json, MAX_JSON_DEPTH, MAX_SAFE_INTEGER};
pub use motoko::{debug_show, write_debug_show};
pub use number::{group_digits, show_float, show_int, show_nat};
pub use principal::principal_text;
pub use quoted::{write_blob, write_char, write_text};

#[cfg(test)]
mod tests;
