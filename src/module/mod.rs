//! Facts read from a moc-compiled Wasm module: mode, GC, static addresses, stable signature.
