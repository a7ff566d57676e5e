//! Motoko types as written in the `motoko:stable-types` signature: a parser (with line and
//! column errors), the type tree, alias expansion with substitution, and the label hash.

mod ast;
mod display;
mod error;
mod hash;
mod lexer;
mod parser;
mod signature;

pub use ast::{Field, FuncSort, FuncType, ObjSort, Prim, Tag, Type};
pub use error::TypeError;
pub use hash::{label_hash, LabelMap};
pub use parser::{parse_signature, parse_type, MAX_TYPE_DEPTH};
pub use signature::{
    collect_labels, Alias, StableSignature, StableVar, TypeEnv, VarKind, MAX_EXPANSIONS,
    MAX_SUBST_DEPTH,
};

#[cfg(test)]
mod tests;
