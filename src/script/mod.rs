//! The Motoko-subset script engine: syntax, evaluation, host values, limits.
