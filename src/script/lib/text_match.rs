//! mo:core's pattern matching over a text's characters (`matchOfPattern`, `CharBuffer`),
//! ported step by step for the functions whose answers follow its quirks: `stripStart`,
//! `stripEnd`, `trimStart`, `trimEnd`, `trim` (`trimEnd("xab", #text "ab")` is `"x"`, but a
//! partial match at the very end keeps the whole text). A `#predicate` is called on the same
//! characters, in the same order, as core calls it.

use super::args::{arg, bool_of, text_arg, wrong};
use crate::script::eval::{EResult, Interp};
use crate::script::value::Value;
use std::cell::RefCell;
use std::rc::Rc;

type R = EResult;

/// A `Text.Pattern`.
enum Pat {
    Char(char),
    Text(Rc<[char]>),
    Pred(Value),
}

impl Pat {
    fn of(v: &Value, who: &str) -> EResult<Pat> {
        match v {
            Value::Variant(tv) => match (&*tv.0, &tv.1) {
                ("char", Value::Char(c)) => Ok(Pat::Char(*c)),
                ("text", Value::Text(t)) => Ok(Pat::Text(t.chars().collect())),
                ("predicate", f) => Ok(Pat::Pred(f.clone())),
                _ => Err(wrong(who, "Text.Pattern", v)),
            },
            Value::Text(t) => Ok(Pat::Text(t.chars().collect())),
            Value::Char(c) => Ok(Pat::Char(*c)),
            other => Err(wrong(who, "Text.Pattern", other)),
        }
    }

    /// core's `sizeOfPattern`: the characters one match takes.
    fn size(&self) -> usize {
        match self {
            Pat::Text(t) => t.len(),
            Pat::Char(_) | Pat::Pred(_) => 1,
        }
    }
}

/// An iterator over characters shared by whoever holds it (core's iterator objects: the
/// prefix a failed match gives back is both pushed back and read on).
#[derive(Clone)]
struct Shared(Rc<RefCell<(Rc<[char]>, usize)>>);

impl Shared {
    fn new(chars: Rc<[char]>) -> Shared {
        Shared(Rc::new(RefCell::new((chars, 0))))
    }

    fn empty() -> Shared {
        Shared::new(Rc::from(Vec::new()))
    }

    fn next(&self) -> Option<char> {
        let mut s = self.0.borrow_mut();
        let c = s.0.get(s.1).copied();
        s.1 += 1;
        c
    }

    /// What is left, drained.
    fn rest(&self) -> String {
        std::iter::from_fn(|| self.next()).collect()
    }
}

/// core's `CharBuffer`: characters pushed back (a prefix, then one character) are read
/// before the underlying iterator's.
struct Buffer {
    base: Shared,
    stack: Vec<(Shared, char)>,
}

/// Where a match reads its characters: a text's iterator or a [`Buffer`] over one.
enum Source {
    Plain(Shared),
    Buffered(Buffer),
}

impl Source {
    fn next(&mut self) -> Option<char> {
        match self {
            Source::Plain(s) => s.next(),
            Source::Buffered(b) => match b.stack.last() {
                Some((buff, c)) => {
                    let c = *c;
                    match buff.next() {
                        Some(x) => Some(x),
                        None => {
                            b.stack.pop();
                            Some(c)
                        }
                    }
                }
                None => b.base.next(),
            },
        }
    }

    fn push_back(&mut self, prefix: Shared, c: char) {
        if let Source::Buffered(b) = self {
            b.stack.push((prefix, c));
        }
    }
}

/// The outcome of one match attempt (core's `Match`).
enum Match {
    Success,
    /// The pattern's characters that did match, and the character that did not.
    Fail(Shared, char),
    /// The text ended after the pattern's characters given.
    Empty(Shared),
}

/// The first `n` characters of `t`, as an iterator of its own.
fn take(t: &Rc<[char]>, n: usize) -> Shared {
    Shared::new(Rc::from(&t[..n]))
}

/// core's `matchOfPattern(p)(cs)`.
fn attempt(it: &mut Interp, p: &Pat, cs: &mut Source) -> EResult<Match> {
    it.tick()?;
    match p {
        Pat::Char(want) => Ok(match cs.next() {
            Some(c) if c == *want => Match::Success,
            Some(c) => Match::Fail(Shared::empty(), c),
            None => Match::Empty(Shared::empty()),
        }),
        Pat::Pred(f) => Ok(match cs.next() {
            Some(c) => {
                if bool_of(&it.call_value(f, &[Value::Char(c)])?, "Text.Pattern")? {
                    Match::Success
                } else {
                    Match::Fail(Shared::empty(), c)
                }
            }
            None => Match::Empty(Shared::empty()),
        }),
        Pat::Text(t) => {
            for (i, d) in t.iter().enumerate() {
                match cs.next() {
                    Some(c) if c != *d => return Ok(Match::Fail(take(t, i), c)),
                    Some(_) => {}
                    None => return Ok(Match::Empty(take(t, i))),
                }
            }
            Ok(Match::Success)
        }
    }
}

fn chars_of(t: &str) -> Rc<[char]> {
    t.chars().collect()
}

/// core's `extract(t, i, j)`: `j` characters from character `i`.
fn extract(chars: &[char], i: usize, j: usize) -> String {
    chars.iter().skip(i).take(j).collect()
}

fn args(it: &mut Interp, a: &[Value], who: &str) -> EResult<(Rc<str>, Rc<[char]>, Pat)> {
    let t = text_arg(a, 0, who)?;
    let p = Pat::of(arg(a, 1, who)?, who)?;
    it.ticks(t.len() as u64 / 8)?;
    let chars = chars_of(&t);
    it.alloc(4 * chars.len() as u64)?;
    Ok((t, chars, p))
}

fn text(it: &mut Interp, s: String) -> R {
    it.alloc(s.len() as u64)?;
    Ok(Value::Text(Rc::from(s)))
}

/// `Text.stripStart(t, p)`: the rest of `t` after one match of `p` at its start, or null.
pub fn strip_start(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let (t, chars, p) = args(it, a, "Text.stripStart")?;
    if p.size() == 0 {
        return Ok(Value::some(Value::Text(t)));
    }
    let cs = Shared::new(chars);
    match attempt(it, &p, &mut Source::Plain(cs.clone()))? {
        Match::Success => Ok(Value::some(text(it, cs.rest())?)),
        _ => Ok(Value::Null),
    }
}

/// `Text.stripEnd(t, p)`: `t` without one match of `p` at its end, or null.
pub fn strip_end(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let (t, chars, p) = args(it, a, "Text.stripEnd")?;
    let (s1, s2) = (chars.len(), p.size());
    if s2 == 0 {
        return Ok(Value::some(Value::Text(t)));
    }
    if s2 > s1 {
        return Ok(Value::Null);
    }
    let cs = Shared::new(chars.clone());
    cs.0.borrow_mut().1 = s1 - s2;
    match attempt(it, &p, &mut Source::Plain(cs))? {
        Match::Success => Ok(Value::some(text(it, extract(&chars, 0, s1 - s2))?)),
        _ => Ok(Value::Null),
    }
}

/// `Text.trimStart(t, p)`: `t` without the matches of `p` at its start.
pub fn trim_start(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let (t, chars, p) = args(it, a, "Text.trimStart")?;
    let size = p.size();
    if size == 0 {
        return Ok(Value::Text(t));
    }
    let cs = Shared::new(chars);
    let mut src = Source::Plain(cs.clone());
    let mut matched = 0;
    loop {
        match attempt(it, &p, &mut src)? {
            Match::Success => matched += size,
            Match::Empty(prefix) => {
                return if matched == 0 {
                    Ok(Value::Text(t))
                } else {
                    text(it, prefix.rest())
                };
            }
            Match::Fail(prefix, c) => {
                if matched == 0 {
                    return Ok(Value::Text(t));
                }
                let mut s = prefix.rest();
                s.push(c);
                s.push_str(&cs.rest());
                return text(it, s);
            }
        }
    }
}

/// `Text.trimEnd(t, p)`: `t` without the matches of `p` at its end.
pub fn trim_end(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let (t, chars, p) = args(it, a, "Text.trimEnd")?;
    let size = p.size();
    if size == 0 {
        return Ok(Value::Text(t));
    }
    let mut src = Source::Buffered(Buffer {
        base: Shared::new(chars.clone()),
        stack: Vec::new(),
    });
    let matched = match trailing_matches(it, &p, &mut src, None)? {
        Some(m) => m,
        None => return Ok(Value::Text(t)),
    };
    let keep = chars.len().saturating_sub(matched);
    if keep == chars.len() {
        return Ok(Value::Text(t));
    }
    text(it, extract(&chars, 0, keep))
}

/// The characters the matches of `p` that end the text take (core's loop in `trimEnd`, and in
/// `trim` after the leading matches); `None` when the text ends in a partial match, where
/// core gives back the whole text. In `trim`, the partial match is told by `outer`, the
/// prefix of the first failed match (core reads that iterator there, not the last one).
fn trailing_matches(
    it: &mut Interp,
    p: &Pat,
    src: &mut Source,
    outer: Option<&Shared>,
) -> EResult<Option<usize>> {
    let size = p.size();
    let mut matched = 0;
    loop {
        match attempt(it, p, src)? {
            Match::Success => matched += size,
            Match::Empty(prefix) => {
                let left = outer.unwrap_or(&prefix);
                return Ok(match left.next() {
                    None => Some(matched),
                    Some(_) => None,
                });
            }
            Match::Fail(prefix, c) => {
                matched = 0;
                src.push_back(prefix, c);
                src.next();
            }
        }
    }
}

/// `Text.trim(t, p)`: `t` without the matches of `p` at its start and end.
pub fn trim(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let (t, chars, p) = args(it, a, "Text.trim")?;
    let size = p.size();
    if size == 0 {
        return Ok(Value::Text(t));
    }
    let cs = Shared::new(chars.clone());
    let mut src = Source::Plain(cs.clone());
    let mut matched = 0;
    loop {
        match attempt(it, &p, &mut src)? {
            Match::Success => matched += size,
            Match::Empty(prefix) => {
                return if matched == 0 {
                    Ok(Value::Text(t))
                } else {
                    text(it, prefix.rest())
                };
            }
            Match::Fail(prefix, c) => {
                let start = matched;
                let mut inner = Source::Buffered(Buffer {
                    base: cs,
                    stack: vec![(prefix.clone(), c)],
                });
                inner.next();
                let Some(end) = trailing_matches(it, &p, &mut inner, Some(&prefix))? else {
                    return Ok(Value::Text(t));
                };
                let n = chars.len();
                if start == 0 && end == 0 {
                    return Ok(Value::Text(t));
                }
                return text(it, extract(&chars, start, n.saturating_sub(end + start)));
            }
        }
    }
}
