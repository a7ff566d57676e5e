//! Type errors, with moc's message codes and wording.

use super::types::Ty;
use crate::script::syntax::Span;

/// A program moc would reject, found by the checker.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{span}: type error [{code}], {message}")]
pub struct TypeError {
    /// Where.
    pub span: Span,
    /// moc's code (`M0096`).
    pub code: &'static str,
    /// moc's message.
    pub message: String,
}

impl TypeError {
    /// An error with code and message.
    pub fn new(span: Span, code: &'static str, message: impl Into<String>) -> TypeError {
        TypeError {
            span,
            code,
            message: message.into(),
        }
    }

    /// M0096: an expression's type is not a subtype of the expected one.
    pub fn cannot_produce(span: Span, got: &Ty, want: &Ty) -> TypeError {
        Self::new(
            span,
            "M0096",
            format!("expression of type\n  {got}\ncannot produce expected type\n  {want}"),
        )
    }

    /// M0050: a literal of the wrong type.
    pub fn literal(span: Span, got: &Ty, want: &Ty) -> TypeError {
        Self::new(
            span,
            "M0050",
            format!("literal of type\n  {got}\ndoes not have expected type\n  {want}"),
        )
    }

    /// M0057: an unbound variable.
    pub fn unbound(span: Span, name: &str) -> TypeError {
        Self::new(span, "M0057", format!("unbound variable {name}"))
    }

    /// M0060: an operator not defined for its operand types.
    pub fn operator(span: Span, a: &Ty, b: &Ty) -> TypeError {
        Self::new(
            span,
            "M0060",
            format!("operator is not defined for operand types\n  {a}\nand\n  {b}"),
        )
    }

    /// M0059: a unary operator not defined for its operand type.
    pub fn unary_operator(span: Span, a: &Ty) -> TypeError {
        Self::new(
            span,
            "M0059",
            format!("operator is not defined for operand type\n  {a}"),
        )
    }

    /// M0045: `got` type arguments where the type or function takes `expected`.
    pub fn type_argument_count(span: Span, expected: usize, got: usize) -> TypeError {
        Self::new(
            span,
            "M0045",
            format!("wrong number of type arguments: expected {expected} but got {got}"),
        )
    }
}
