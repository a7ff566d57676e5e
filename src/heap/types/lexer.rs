//! Tokens of the Motoko type syntax, with their 1-based line and column.

use super::TypeError;

/// One token.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Tok {
    /// An identifier or keyword (`Nat`, `type`, `stable`, `foo_`).
    Ident(String),
    /// Punctuation: `{ } ( ) [ ] < > ; : , = ? # . *`, `->`, `<:`.
    Sym(&'static str),
    /// The end of the input.
    Eof,
}

/// A token with its position.
#[derive(Debug, Clone)]
pub(crate) struct Spanned {
    pub tok: Tok,
    pub line: u32,
    pub col: u32,
}

/// Maximum number of tokens accepted (bounds memory on hostile input).
pub(crate) const MAX_TOKENS: usize = 4_000_000;

/// Splits `src` into tokens, skipping whitespace and `//` / `/* */` comments.
pub(crate) fn tokenize(src: &str) -> Result<Vec<Spanned>, TypeError> {
    let mut out = Vec::new();
    let chars: Vec<char> = src.chars().collect();
    let (mut i, mut line, mut col) = (0usize, 1u32, 1u32);
    let err = |line, col, msg: String| TypeError::Syntax { line, col, msg };
    while i < chars.len() {
        let c = chars[i];
        let (tl, tc) = (line, col);
        let advance = |n: usize, i: &mut usize, col: &mut u32| {
            *i += n;
            *col = col.saturating_add(n as u32);
        };
        if c == '\n' {
            i += 1;
            line = line.saturating_add(1);
            col = 1;
            continue;
        }
        if c.is_whitespace() {
            advance(1, &mut i, &mut col);
            continue;
        }
        if c == '/' && chars.get(i + 1) == Some(&'/') {
            while i < chars.len() && chars[i] != '\n' {
                advance(1, &mut i, &mut col);
            }
            continue;
        }
        if c == '/' && chars.get(i + 1) == Some(&'*') {
            advance(2, &mut i, &mut col);
            let mut depth = 1u32;
            while depth > 0 {
                match (chars.get(i), chars.get(i + 1)) {
                    (None, _) => return Err(err(tl, tc, "unterminated comment".into())),
                    (Some('*'), Some('/')) => {
                        depth -= 1;
                        advance(2, &mut i, &mut col);
                    }
                    (Some('/'), Some('*')) => {
                        depth = depth.saturating_add(1);
                        advance(2, &mut i, &mut col);
                    }
                    (Some('\n'), _) => {
                        i += 1;
                        line = line.saturating_add(1);
                        col = 1;
                    }
                    _ => advance(1, &mut i, &mut col),
                }
            }
            continue;
        }
        if out.len() >= MAX_TOKENS {
            return Err(err(tl, tc, format!("more than {MAX_TOKENS} tokens")));
        }
        if c.is_alphanumeric() || c == '_' {
            let start = i;
            while i < chars.len() && (chars[i].is_alphanumeric() || chars[i] == '_') {
                advance(1, &mut i, &mut col);
            }
            out.push(Spanned {
                tok: Tok::Ident(chars[start..i].iter().collect()),
                line: tl,
                col: tc,
            });
            continue;
        }
        let two: Option<&'static str> = match (c, chars.get(i + 1)) {
            ('-', Some('>')) => Some("->"),
            ('<', Some(':')) => Some("<:"),
            _ => None,
        };
        if let Some(s) = two {
            advance(2, &mut i, &mut col);
            out.push(Spanned {
                tok: Tok::Sym(s),
                line: tl,
                col: tc,
            });
            continue;
        }
        let one: &'static str = match c {
            '{' => "{",
            '}' => "}",
            '(' => "(",
            ')' => ")",
            '[' => "[",
            ']' => "]",
            '<' => "<",
            '>' => ">",
            ';' => ";",
            ':' => ":",
            ',' => ",",
            '=' => "=",
            '?' => "?",
            '#' => "#",
            '.' => ".",
            '*' => "*",
            _ => return Err(err(tl, tc, format!("unexpected character {c:?}"))),
        };
        advance(1, &mut i, &mut col);
        out.push(Spanned {
            tok: Tok::Sym(one),
            line: tl,
            col: tc,
        });
    }
    out.push(Spanned {
        tok: Tok::Eof,
        line,
        col,
    });
    Ok(out)
}
