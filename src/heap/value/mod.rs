//! Decoded Motoko values.
