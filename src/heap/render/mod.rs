//! Renderings of decoded values: Motoko `debug_show` text and JSON.
