//! Syntax errors: what went wrong and where.

use super::span::Span;

/// A script that could not be parsed or uses something outside the supported subset.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{span}: syntax error, {message}")]
pub struct SyntaxError {
    /// Where in the script.
    pub span: Span,
    /// What is wrong.
    pub message: String,
}

impl SyntaxError {
    /// A syntax error at `span`.
    pub fn new(span: Span, message: impl Into<String>) -> Self {
        SyntaxError {
            span,
            message: message.into(),
        }
    }

    /// An error for a construct that is valid Motoko but not in the supported subset.
    pub fn unsupported(span: Span, what: &str) -> Self {
        SyntaxError::new(span, format!("{what} is not supported in mo-mem scripts"))
    }
}
