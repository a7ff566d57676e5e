//! Source positions and spans, printed the way moc prints them (`line.col-line.col`).

use std::fmt;

/// A position: 1-based line and 1-based byte column.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
pub struct Pos {
    /// 1-based line number.
    pub line: u32,
    /// 1-based byte column.
    pub col: u32,
}

/// A source range from `start` (inclusive) to `end` (exclusive).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Span {
    /// First character.
    pub start: Pos,
    /// Just after the last character.
    pub end: Pos,
}

impl Span {
    /// The span covering both `self` and `other`.
    pub fn to(self, other: Span) -> Span {
        Span {
            start: self.start,
            end: other.end,
        }
    }
}

impl fmt::Display for Span {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}.{}-{}.{}",
            self.start.line, self.start.col, self.end.line, self.end.col
        )
    }
}
