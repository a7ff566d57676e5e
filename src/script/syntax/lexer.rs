//! The lexer: Motoko source text to tokens with positions.

use super::error::SyntaxError;
use super::span::{Pos, Span};

/// One lexical token.
#[derive(Clone, Debug, PartialEq)]
pub enum Tok {
    /// An identifier.
    Ident(String),
    /// A keyword (`let`, `func`, ...), stored as its text.
    Kw(&'static str),
    /// A natural-number literal as written (underscores removed), decimal or hex.
    Nat(String),
    /// A float literal as written (underscores removed).
    Float(String),
    /// A text literal (escapes resolved).
    Text(String),
    /// A character literal.
    Char(char),
    /// An operator or punctuation, stored as its text.
    Op(&'static str),
    /// The end of the input.
    Eof,
}

/// A token with its source span and whether whitespace preceded it.
#[derive(Clone, Debug)]
pub struct Token {
    /// The token.
    pub tok: Tok,
    /// Where it is in the source.
    pub span: Span,
    /// True when whitespace or a comment came directly before this token.
    pub space_before: bool,
}

const KEYWORDS: &[&str] = &[
    "actor",
    "and",
    "assert",
    "async",
    "await",
    "break",
    "case",
    "catch",
    "class",
    "composite",
    "continue",
    "debug",
    "debug_show",
    "do",
    "else",
    "false",
    "finally",
    "flexible",
    "for",
    "from_candid",
    "func",
    "if",
    "ignore",
    "import",
    "in",
    "include",
    "label",
    "let",
    "loop",
    "mixin",
    "module",
    "not",
    "null",
    "object",
    "or",
    "persistent",
    "private",
    "public",
    "query",
    "return",
    "shared",
    "stable",
    "switch",
    "system",
    "throw",
    "to_candid",
    "transient",
    "true",
    "try",
    "type",
    "var",
    "while",
    "with",
];

/// Operators, longest first so that maximal munch works by trying them in order.
const OPS: &[&str] = &[
    "**%=", "<<>=", "<>>=", "**=", "+%=", "-%=", "*%=", "**%", "<<>", "<>>", "<<=", ">>=", "+%",
    "-%", "*%", "**", "<<", ">>", "==", "!=", "<=", ">=", "+=", "-=", "*=", "/=", "%=", "#=", "&=",
    "|=", "|>", "^=", ":=", "->", "=>", "+", "-", "*", "/", "%", "&", "|", "^", "#", "<", ">", "=",
    "!", "?", ":", ";", ",", ".", "(", ")", "[", "]", "{", "}", "_", "@",
];

/// Byte escapes `\XX` with XX >= 0x80 lex to the private-use character U+10FF00 + XX,
/// which a `Blob` literal turns back into the byte.
pub const BYTE_ESCAPE_BASE: u32 = 0x10FF00;

/// Splits `src` into tokens; the last token is always [`Tok::Eof`].
pub fn lex(src: &str) -> Result<Vec<Token>, SyntaxError> {
    let mut lx = Lexer {
        src,
        bytes: src.as_bytes(),
        i: 0,
        line: 1,
        col: 1,
        out: Vec::new(),
    };
    lx.run()?;
    Ok(lx.out)
}

struct Lexer<'a> {
    src: &'a str,
    bytes: &'a [u8],
    i: usize,
    line: u32,
    col: u32,
    out: Vec<Token>,
}

impl Lexer<'_> {
    fn pos(&self) -> Pos {
        Pos {
            line: self.line,
            col: self.col,
        }
    }

    fn peek(&self, k: usize) -> u8 {
        self.bytes.get(self.i + k).copied().unwrap_or(0)
    }

    fn bump(&mut self) -> Option<char> {
        let c = self.src[self.i..].chars().next()?;
        self.i += c.len_utf8();
        if c == '\n' {
            self.line += 1;
            self.col = 1;
        } else {
            self.col += c.len_utf8() as u32;
        }
        Some(c)
    }

    fn err(&self, at: Pos, msg: impl Into<String>) -> SyntaxError {
        SyntaxError::new(
            Span {
                start: at,
                end: self.pos(),
            },
            msg,
        )
    }

    fn run(&mut self) -> Result<(), SyntaxError> {
        let mut space = true;
        loop {
            // whitespace and comments
            let c = self.peek(0);
            if c == b' ' || c == b'\t' || c == b'\n' || c == b'\r' {
                self.bump();
                space = true;
                continue;
            }
            if c == b'/' && self.peek(1) == b'/' {
                while self.i < self.bytes.len() && self.peek(0) != b'\n' {
                    self.bump();
                }
                space = true;
                continue;
            }
            if c == b'/' && self.peek(1) == b'*' {
                let start = self.pos();
                self.bump();
                self.bump();
                let mut depth = 1usize;
                while depth > 0 {
                    if self.i >= self.bytes.len() {
                        return Err(self.err(start, "unclosed comment"));
                    }
                    if self.peek(0) == b'*' && self.peek(1) == b'/' {
                        self.bump();
                        self.bump();
                        depth -= 1;
                    } else if self.peek(0) == b'/' && self.peek(1) == b'*' {
                        self.bump();
                        self.bump();
                        depth += 1;
                    } else {
                        self.bump();
                    }
                }
                space = true;
                continue;
            }
            let start = self.pos();
            if self.i >= self.bytes.len() {
                self.out.push(Token {
                    tok: Tok::Eof,
                    span: Span { start, end: start },
                    space_before: space,
                });
                return Ok(());
            }
            let tok = self.token(start)?;
            self.out.push(Token {
                tok,
                span: Span {
                    start,
                    end: self.pos(),
                },
                space_before: space,
            });
            space = false;
        }
    }

    fn token(&mut self, start: Pos) -> Result<Tok, SyntaxError> {
        let c = self.peek(0);
        if c.is_ascii_alphabetic() || c == b'_' && is_ident_char(self.peek(1)) {
            let s = self.i;
            while is_ident_char(self.peek(0)) {
                self.bump();
            }
            let word = &self.src[s..self.i];
            if let Some(kw) = KEYWORDS.iter().find(|k| **k == word) {
                return Ok(Tok::Kw(kw));
            }
            return Ok(Tok::Ident(word.to_string()));
        }
        if c.is_ascii_digit() {
            return self.number(start);
        }
        if c == b'"' {
            self.bump();
            let mut s = String::new();
            loop {
                match self.peek(0) {
                    0 if self.i >= self.bytes.len() => {
                        return Err(self.err(start, "unclosed text literal"))
                    }
                    b'"' => {
                        self.bump();
                        break;
                    }
                    b'\\' => s.push(self.escape(start)?),
                    _ => {
                        if let Some(ch) = self.bump() {
                            s.push(ch);
                        }
                    }
                }
            }
            return Ok(Tok::Text(s));
        }
        if c == b'\'' {
            self.bump();
            let ch = match self.peek(0) {
                b'\\' => self.escape(start)?,
                _ => self
                    .bump()
                    .ok_or_else(|| self.err(start, "unclosed character literal"))?,
            };
            if self.peek(0) != b'\'' {
                return Err(self.err(start, "malformed character literal"));
            }
            self.bump();
            return Ok(Tok::Char(ch));
        }
        let rest = &self.src[self.i..];
        for op in OPS {
            if rest.starts_with(op) {
                for _ in 0..op.len() {
                    self.bump();
                }
                return Ok(Tok::Op(op));
            }
        }
        let ch = self.bump().unwrap_or('?');
        Err(self.err(start, format!("unexpected character {ch:?}")))
    }

    /// The rest of a hexadecimal float literal (`0x644.`, `0x644.5P-1`, `0x1p4`) after
    /// its integer digits `int`: its value, exact (a power of two times at most 16 hex
    /// digits), as a decimal `Float` token that parses back to the same `f64`.
    fn hex_float(&mut self, start: Pos, int: &str) -> Result<Tok, SyntaxError> {
        let mut digits = int.to_string();
        let mut frac = 0i32;
        if self.peek(0) == b'.' {
            self.bump();
            while self.peek(0).is_ascii_hexdigit() || self.peek(0) == b'_' {
                let c = self.bump().unwrap_or('0');
                if c != '_' {
                    digits.push(c);
                    frac += 1;
                }
            }
        }
        let mut exp = 0i32;
        if self.peek(0) == b'p' || self.peek(0) == b'P' {
            self.bump();
            let neg = self.peek(0) == b'-';
            if neg || self.peek(0) == b'+' {
                self.bump();
            }
            let mut e = String::new();
            self.digits(&mut e);
            exp = e
                .parse::<i32>()
                .ok()
                .filter(|e| *e <= 10_000)
                .ok_or_else(|| self.err(start, "malformed hexadecimal float exponent"))?;
            if neg {
                exp = -exp;
            }
        }
        if is_ident_char(self.peek(0)) {
            return Err(self.err(start, "malformed hexadecimal float literal"));
        }
        let trimmed = digits.trim_start_matches('0');
        if trimmed.len() > 16 {
            return Err(self.err(
                start,
                "a hexadecimal float literal with more than 16 significant digits is not supported",
            ));
        }
        let mantissa = if trimmed.is_empty() {
            0
        } else {
            u64::from_str_radix(trimmed, 16)
                .map_err(|_| self.err(start, "malformed hexadecimal float literal"))?
        };
        // a u64 above 2^53 rounds once here; scaling by a power of two is exact
        let mut v = mantissa as f64;
        let mut e = exp - 4 * frac;
        while e > 0 {
            let k = e.min(1000);
            v *= 2f64.powi(k);
            e -= k;
        }
        while e < 0 {
            let k = (-e).min(1000);
            v /= 2f64.powi(k);
            e += k;
        }
        Ok(Tok::Float(format!("{v:?}")))
    }

    fn number(&mut self, start: Pos) -> Result<Tok, SyntaxError> {
        let after_dot = matches!(
            self.out.last(),
            Some(Token {
                tok: Tok::Op("."),
                ..
            })
        );
        let mut s = String::new();
        if self.peek(0) == b'0' && (self.peek(1) == b'x' || self.peek(1) == b'X') {
            self.bump();
            self.bump();
            s.push_str("0x");
            while self.peek(0).is_ascii_hexdigit() || self.peek(0) == b'_' {
                let c = self.bump().unwrap_or('0');
                if c != '_' {
                    s.push(c);
                }
            }
            if s.len() == 2 {
                return Err(self.err(start, "malformed hexadecimal literal"));
            }
            if !after_dot
                && (self.peek(0) == b'.'
                    && !self.peek(1).is_ascii_alphabetic()
                    && self.peek(1) != b'.'
                    || self.peek(0) == b'.' && self.peek(1).is_ascii_hexdigit()
                    || self.peek(0) == b'p'
                    || self.peek(0) == b'P')
            {
                return self.hex_float(start, &s[2..]);
            }
            return Ok(Tok::Nat(s));
        }
        self.digits(&mut s);
        if after_dot {
            return Ok(Tok::Nat(s));
        }
        let mut float = false;
        if self.peek(0) == b'.' && self.peek(1).is_ascii_digit() {
            float = true;
            s.push('.');
            self.bump();
            self.digits(&mut s);
        } else if self.peek(0) == b'.' && !is_ident_char(self.peek(1)) && self.peek(1) != b'.' {
            float = true;
            self.bump();
        }
        if self.peek(0) == b'e' || self.peek(0) == b'E' {
            let sign = self.peek(1) == b'+' || self.peek(1) == b'-';
            let d = if sign { self.peek(2) } else { self.peek(1) };
            if d.is_ascii_digit() {
                float = true;
                s.push('e');
                self.bump();
                if sign {
                    let c = self.bump().unwrap_or('+');
                    s.push(c);
                }
                self.digits(&mut s);
            }
        }
        if is_ident_char(self.peek(0)) {
            return Err(self.err(start, "malformed number literal"));
        }
        Ok(if float { Tok::Float(s) } else { Tok::Nat(s) })
    }

    fn digits(&mut self, s: &mut String) {
        while self.peek(0).is_ascii_digit() || self.peek(0) == b'_' {
            let c = self.bump().unwrap_or('0');
            if c != '_' {
                s.push(c);
            }
        }
    }

    fn escape(&mut self, start: Pos) -> Result<char, SyntaxError> {
        self.bump(); // backslash
        let c = self
            .bump()
            .ok_or_else(|| self.err(start, "unfinished escape"))?;
        Ok(match c {
            'n' => '\n',
            't' => '\t',
            'r' => '\r',
            '\\' => '\\',
            '"' => '"',
            '\'' => '\'',
            'u' => {
                if self.bump() != Some('{') {
                    return Err(self.err(start, "malformed unicode escape"));
                }
                let mut v: u32 = 0;
                let mut n = 0;
                while self.peek(0).is_ascii_hexdigit() || self.peek(0) == b'_' {
                    let d = self.bump().unwrap_or('0');
                    if d == '_' {
                        continue;
                    }
                    v = v
                        .saturating_mul(16)
                        .saturating_add(d.to_digit(16).unwrap_or(0));
                    n += 1;
                }
                if self.bump() != Some('}') || n == 0 {
                    return Err(self.err(start, "malformed unicode escape"));
                }
                char::from_u32(v).ok_or_else(|| self.err(start, "unicode escape out of range"))?
            }
            d if d.is_ascii_hexdigit() => {
                let e = self
                    .bump()
                    .and_then(|e| e.to_digit(16))
                    .ok_or_else(|| self.err(start, "malformed byte escape"))?;
                let v = d.to_digit(16).unwrap_or(0) * 16 + e;
                // bytes >= 0x80 are kept apart so that Blob literals get the raw byte
                let v = if v >= 0x80 { BYTE_ESCAPE_BASE + v } else { v };
                char::from_u32(v).ok_or_else(|| self.err(start, "malformed byte escape"))?
            }
            other => return Err(self.err(start, format!("unknown escape \\{other}"))),
        })
    }
}

fn is_ident_char(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_'
}
