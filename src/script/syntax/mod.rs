//! Syntax: lexer, AST and parser for the Motoko subset.

pub mod ast;
pub mod error;
pub mod lexer;
pub mod parser;
pub mod span;

pub use error::SyntaxError;
pub use parser::{parse_program, parse_type};
pub use span::{Pos, Span};
