//! Errors of the stable-signature parser and of type normalization.

/// Why a stable signature could not be parsed, or a type not expanded.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum TypeError {
    /// A syntax error at a 1-based line and column of the signature text.
    #[error("stable signature, line {line}, column {col}: {msg}")]
    Syntax {
        /// 1-based line.
        line: u32,
        /// 1-based column (in characters).
        col: u32,
        /// What was wrong.
        msg: String,
    },
    /// A name used in the signature that is neither an alias, a type parameter nor a primitive.
    #[error("stable signature, line {line}, column {col}: unknown type `{name}`")]
    UnknownType {
        /// The name.
        name: String,
        /// 1-based line.
        line: u32,
        /// 1-based column.
        col: u32,
    },
    /// An alias applied to the wrong number of type arguments.
    #[error("stable signature, line {line}, column {col}: type `{name}` expects {expected} type arguments, got {got}")]
    Arity {
        /// The alias name.
        name: String,
        /// Its declared parameter count.
        expected: usize,
        /// The number of arguments given.
        got: usize,
        /// 1-based line.
        line: u32,
        /// 1-based column.
        col: u32,
    },
    /// The signature nests types deeper than the parser's limit.
    #[error("stable signature, line {line}, column {col}: types nested deeper than {max}")]
    TooDeep {
        /// The nesting limit.
        max: u32,
        /// 1-based line.
        line: u32,
        /// 1-based column.
        col: u32,
    },
    /// Expanding an alias did not reach a non-alias type within the step limit (cyclic alias).
    #[error("type alias `{name}` does not expand to a type within {max} steps (cyclic?)")]
    Cyclic {
        /// The alias being expanded.
        name: String,
        /// The step limit.
        max: u32,
    },
    /// An alias name with no declaration (only possible for hand-built types).
    #[error("unknown type alias `{0}`")]
    UnknownAlias(String),
}
