//! Text and Char: methods and module functions.

use super::args::{arg, char_arg, text_arg, this_or_first, wrong};
use super::iters::{collect, iter_value, CharsIter, VecIter};
use super::Builtin;
use crate::script::eval::{EResult, Interp};
use crate::script::value::Value;
use std::rc::Rc;

type R = EResult;

fn text(s: String) -> Value {
    Value::Text(Rc::from(s))
}

/// `t.size()` / `Text.size(t)`: the number of characters.
pub fn size(_: &mut Interp, this: Option<&Value>, args: &[Value]) -> R {
    let (t, _) = this_or_first(this, args, "Text.size")?;
    match t {
        Value::Text(t) => Ok(Value::Nat(t.chars().count() as u64)),
        other => Err(wrong("Text.size", "Text", other)),
    }
}

/// `t.chars()` / `Text.toIter(t)`.
pub fn chars(_: &mut Interp, this: Option<&Value>, args: &[Value]) -> R {
    let (t, _) = this_or_first(this, args, "Text.chars")?;
    match t {
        Value::Text(t) => Ok(iter_value(CharsIter {
            text: t.clone(),
            pos: 0,
        })),
        other => Err(wrong("Text.chars", "Text", other)),
    }
}

/// Methods of texts.
pub static TEXT_METHODS: &[Builtin] = &[func!("size", size), func!("chars", chars)];

/// `Text.concat(a, b)`.
pub fn concat(it: &mut Interp, _: Option<&Value>, args: &[Value]) -> R {
    let a = text_arg(args, 0, "Text.concat")?;
    let b = text_arg(args, 1, "Text.concat")?;
    it.alloc((a.len() + b.len()) as u64)?;
    Ok(text(format!("{a}{b}")))
}

/// `Text.join(sep, iter)`.
pub fn join(it: &mut Interp, _: Option<&Value>, args: &[Value]) -> R {
    // core's order is (iter, sep); the older base order (sep, iter) is accepted too
    let (sep, iter) = match (arg(args, 0, "Text.join")?, arg(args, 1, "Text.join")?) {
        (Value::Text(s), other) => (s.clone(), other.clone()),
        (other, Value::Text(s)) => (s.clone(), other.clone()),
        (a, _) => return Err(wrong("Text.join", "Text", a)),
    };
    let parts = collect(it, &iter)?;
    let mut s = String::new();
    for (i, p) in parts.iter().enumerate() {
        if i > 0 {
            s.push_str(&sep);
        }
        match p {
            Value::Text(t) => s.push_str(t),
            other => return Err(wrong("Text.join", "Text", other)),
        }
        it.alloc((sep.len() + s.len()) as u64 / 8 + 1)?;
    }
    it.alloc(s.len() as u64)?;
    Ok(text(s))
}

/// A `Text.Pattern`: `#char c`, `#text t` or `#predicate p`.
enum Pattern {
    Char(char),
    Text(Rc<str>),
    Pred(Value),
}

fn pattern(v: &Value, who: &str) -> EResult<Pattern> {
    match v {
        Value::Variant(tv) => match (&*tv.0, &tv.1) {
            ("char", Value::Char(c)) => Ok(Pattern::Char(*c)),
            ("text", Value::Text(t)) => Ok(Pattern::Text(t.clone())),
            ("predicate", f) => Ok(Pattern::Pred(f.clone())),
            _ => Err(wrong(who, "Text.Pattern", v)),
        },
        Value::Text(t) => Ok(Pattern::Text(t.clone())),
        Value::Char(c) => Ok(Pattern::Char(*c)),
        other => Err(wrong(who, "Text.Pattern", other)),
    }
}

/// Finds the first match of `p` in `s` at or after byte `from`: (start, end) byte offsets.
fn find(it: &mut Interp, s: &str, p: &Pattern, from: usize) -> EResult<Option<(usize, usize)>> {
    let hay = s.get(from..).unwrap_or("");
    Ok(match p {
        Pattern::Char(c) => hay.find(*c).map(|i| (from + i, from + i + c.len_utf8())),
        Pattern::Text(t) => {
            if t.is_empty() {
                None
            } else {
                hay.find(&**t).map(|i| (from + i, from + i + t.len()))
            }
        }
        Pattern::Pred(f) => {
            for (i, c) in hay.char_indices() {
                it.tick()?;
                let r = it.call_value(f, &[Value::Char(c)])?;
                if matches!(r, Value::Bool(true)) {
                    return Ok(Some((from + i, from + i + c.len_utf8())));
                }
            }
            None
        }
    })
}

/// `Text.contains(t, pattern)`.
pub fn contains(it: &mut Interp, _: Option<&Value>, args: &[Value]) -> R {
    let t = text_arg(args, 0, "Text.contains")?;
    let p = pattern(arg(args, 1, "Text.contains")?, "Text.contains")?;
    if let Pattern::Text(x) = &p {
        if x.is_empty() {
            return Ok(Value::Bool(true));
        }
    }
    Ok(Value::Bool(find(it, &t, &p, 0)?.is_some()))
}

/// `Text.startsWith(t, pattern)`.
pub fn starts_with(it: &mut Interp, _: Option<&Value>, args: &[Value]) -> R {
    let t = text_arg(args, 0, "Text.startsWith")?;
    let p = pattern(arg(args, 1, "Text.startsWith")?, "Text.startsWith")?;
    Ok(Value::Bool(match &p {
        Pattern::Char(c) => t.starts_with(*c),
        Pattern::Text(x) => t.starts_with(&**x),
        Pattern::Pred(_) => matches!(find(it, &t, &p, 0)?, Some((0, _))),
    }))
}

/// `Text.endsWith(t, pattern)`.
pub fn ends_with(it: &mut Interp, _: Option<&Value>, args: &[Value]) -> R {
    let t = text_arg(args, 0, "Text.endsWith")?;
    let p = pattern(arg(args, 1, "Text.endsWith")?, "Text.endsWith")?;
    Ok(Value::Bool(match &p {
        Pattern::Char(c) => t.ends_with(*c),
        Pattern::Text(x) => t.ends_with(&**x),
        Pattern::Pred(f) => match t.chars().last() {
            Some(c) => matches!(it.call_value(f, &[Value::Char(c)])?, Value::Bool(true)),
            None => false,
        },
    }))
}

fn split_vec(it: &mut Interp, t: &str, p: &Pattern) -> EResult<Vec<Value>> {
    let mut out = Vec::new();
    let mut start = 0;
    let mut from = 0;
    while let Some((a, b)) = find(it, t, p, from)? {
        it.tick()?;
        out.push(Value::text(&t[start..a]));
        start = b;
        from = b;
    }
    out.push(Value::text(&t[start..]));
    Ok(out)
}

/// `Text.split(t, pattern)`: an iterator over the pieces.
pub fn split(it: &mut Interp, _: Option<&Value>, args: &[Value]) -> R {
    let t = text_arg(args, 0, "Text.split")?;
    let p = pattern(arg(args, 1, "Text.split")?, "Text.split")?;
    // as mo:core's: the empty pattern matches again and again before the first character
    // (endless empty pieces); the empty text has no pieces (not one empty piece)
    if matches!(&p, Pattern::Text(x) if x.is_empty()) {
        return Ok(super::iter_adapters::endless(Value::text("")));
    }
    let v = if t.is_empty() {
        Vec::new()
    } else {
        split_vec(it, &t, &p)?
    };
    Ok(iter_value(VecIter {
        items: Rc::from(v),
        pos: 0,
    }))
}

/// `Text.tokens(t, pattern)`: the non-empty pieces.
pub fn tokens(it: &mut Interp, _: Option<&Value>, args: &[Value]) -> R {
    let t = text_arg(args, 0, "Text.tokens")?;
    let p = pattern(arg(args, 1, "Text.tokens")?, "Text.tokens")?;
    let v: Vec<Value> = split_vec(it, &t, &p)?
        .into_iter()
        .filter(|x| !matches!(x, Value::Text(s) if s.is_empty()))
        .collect();
    Ok(iter_value(VecIter {
        items: Rc::from(v),
        pos: 0,
    }))
}

/// `Text.replace(t, pattern, replacement)`.
pub fn replace(it: &mut Interp, _: Option<&Value>, args: &[Value]) -> R {
    let t = text_arg(args, 0, "Text.replace")?;
    let p = pattern(arg(args, 1, "Text.replace")?, "Text.replace")?;
    let r = text_arg(args, 2, "Text.replace")?;
    if matches!(&p, Pattern::Text(x) if x.is_empty()) {
        return replace_empty(it, &t, &r);
    }
    let parts = split_vec(it, &t, &p)?;
    let mut s = String::new();
    for (i, x) in parts.iter().enumerate() {
        if i > 0 {
            s.push_str(&r);
        }
        if let Value::Text(x) = x {
            s.push_str(x);
        }
    }
    it.alloc(s.len() as u64)?;
    Ok(text(s))
}

/// `Text.replace(t, #text "", r)` as mo:core computes it: the empty pattern matches before
/// every character and at the end (`"ab"` becomes `r # "a" # r # "b" # r`).
fn replace_empty(it: &mut Interp, t: &str, r: &str) -> R {
    let chars = t.chars().count() as u64;
    let size = (chars + 1)
        .saturating_mul(r.len() as u64)
        .saturating_add(t.len() as u64);
    it.alloc(size)?;
    let mut s = String::with_capacity(size as usize);
    s.push_str(r);
    for c in t.chars() {
        s.push(c);
        s.push_str(r);
    }
    Ok(text(s))
}

/// `Text.fromChar(c)`.
pub fn from_char(_: &mut Interp, _: Option<&Value>, args: &[Value]) -> R {
    Ok(text(char_arg(args, 0, "Text.fromChar")?.to_string()))
}

/// `Text.fromIter(chars)`.
pub fn from_iter(it: &mut Interp, _: Option<&Value>, args: &[Value]) -> R {
    let cs = collect(it, arg(args, 0, "Text.fromIter")?)?;
    let mut s = String::new();
    for c in cs {
        match c {
            Value::Char(c) => s.push(c),
            other => return Err(wrong("Text.fromIter", "Char", &other)),
        }
    }
    Ok(text(s))
}

/// `Text.fromArray(chars)`.
pub fn from_array(it: &mut Interp, _: Option<&Value>, args: &[Value]) -> R {
    let xs = super::args::elems(it, arg(args, 0, "Text.fromArray")?, "Text.fromArray")?;
    it.ticks(xs.len() as u64)?;
    let mut s = String::new();
    for c in xs.iter() {
        match c {
            Value::Char(c) => s.push(*c),
            other => return Err(wrong("Text.fromArray", "Char", other)),
        }
    }
    Ok(text(s))
}

/// `Text.toArray(t)`.
pub fn to_array(it: &mut Interp, _: Option<&Value>, args: &[Value]) -> R {
    let t = text_arg(args, 0, "Text.toArray")?;
    let v: Vec<Value> = t.chars().map(Value::Char).collect();
    it.alloc(16 * v.len() as u64)?;
    Ok(Value::Array(Rc::from(v)))
}

/// `Text.reverse(t)`.
pub fn reverse(_: &mut Interp, _: Option<&Value>, args: &[Value]) -> R {
    Ok(text(
        text_arg(args, 0, "Text.reverse")?.chars().rev().collect(),
    ))
}

/// `Text.toUpper(t)`.
pub fn to_upper(_: &mut Interp, _: Option<&Value>, args: &[Value]) -> R {
    Ok(text(text_arg(args, 0, "Text.toUpper")?.to_uppercase()))
}

/// `Text.toLower(t)`.
pub fn to_lower(_: &mut Interp, _: Option<&Value>, args: &[Value]) -> R {
    Ok(text(text_arg(args, 0, "Text.toLower")?.to_lowercase()))
}

/// `Text.isEmpty(t)`.
pub fn is_empty(_: &mut Interp, _: Option<&Value>, args: &[Value]) -> R {
    Ok(Value::Bool(text_arg(args, 0, "Text.isEmpty")?.is_empty()))
}

/// `Text.toVarArray(t)`.
pub fn to_var_array(it: &mut Interp, _: Option<&Value>, args: &[Value]) -> R {
    let t = text_arg(args, 0, "Text.toVarArray")?;
    let v: Vec<Value> = t.chars().map(Value::Char).collect();
    it.alloc(16 * v.len() as u64)?;
    Ok(Value::VarArray(Rc::new(std::cell::RefCell::new(v))))
}

/// `Text.foldLeft(t, base, combine)`: `combine(acc, c)` over the characters.
pub fn fold_left(it: &mut Interp, _: Option<&Value>, args: &[Value]) -> R {
    let t = text_arg(args, 0, "Text.foldLeft")?;
    let mut acc = arg(args, 1, "Text.foldLeft")?.clone();
    let f = arg(args, 2, "Text.foldLeft")?.clone();
    for c in t.chars() {
        it.tick()?;
        acc = it.call_value(&f, &[acc, Value::Char(c)])?;
    }
    Ok(acc)
}

/// `Text.map(t, f)`: each character replaced by `f(c)`.
pub fn map(it: &mut Interp, _: Option<&Value>, args: &[Value]) -> R {
    let t = text_arg(args, 0, "Text.map")?;
    let f = arg(args, 1, "Text.map")?.clone();
    let mut s = String::with_capacity(t.len());
    for c in t.chars() {
        it.tick()?;
        match it.call_value(&f, &[Value::Char(c)])? {
            Value::Char(d) => s.push(d),
            other => return Err(wrong("Text.map", "Char", &other)),
        }
    }
    it.alloc(s.len() as u64)?;
    Ok(text(s))
}

/// `Text.flatMap(t, f)`: each character replaced by the text `f(c)`.
pub fn flat_map(it: &mut Interp, _: Option<&Value>, args: &[Value]) -> R {
    let t = text_arg(args, 0, "Text.flatMap")?;
    let f = arg(args, 1, "Text.flatMap")?.clone();
    let mut s = String::new();
    for c in t.chars() {
        it.tick()?;
        match it.call_value(&f, &[Value::Char(c)])? {
            Value::Text(piece) => {
                it.alloc(piece.len() as u64)?;
                s.push_str(&piece);
            }
            other => return Err(wrong("Text.flatMap", "Text", &other)),
        }
    }
    Ok(text(s))
}

/// `Text.compareWith(t, other, compare)`: the texts compared character by character with
/// `compare` (its first answer other than `#equal`), then by length.
pub fn compare_with(it: &mut Interp, _: Option<&Value>, args: &[Value]) -> R {
    let a = text_arg(args, 0, "Text.compareWith")?;
    let b = text_arg(args, 1, "Text.compareWith")?;
    let f = arg(args, 2, "Text.compareWith")?.clone();
    let (mut xs, mut ys) = (a.chars(), b.chars());
    loop {
        it.tick()?;
        let order = match (xs.next(), ys.next()) {
            (None, None) => "equal",
            (None, Some(_)) => "less",
            (Some(_), None) => "greater",
            (Some(x), Some(y)) => {
                let o = it.call_value(&f, &[Value::Char(x), Value::Char(y)])?;
                match &o {
                    Value::Variant(tv) if &*tv.0 == "equal" => continue,
                    Value::Variant(_) => return Ok(o),
                    other => return Err(wrong("Text.compareWith", "Order", other)),
                }
            }
        };
        return Ok(Value::variant(order, Value::Unit));
    }
}

/// `Text.encodeUtf8(t)`: its UTF-8 bytes.
pub fn encode_utf8(it: &mut Interp, _: Option<&Value>, args: &[Value]) -> R {
    let t = text_arg(args, 0, "Text.encodeUtf8")?;
    it.alloc(t.len() as u64)?;
    Ok(Value::Blob(Rc::from(t.as_bytes())))
}

/// `Text.decodeUtf8(b)`: the text whose UTF-8 bytes `b` are, or null.
pub fn decode_utf8(it: &mut Interp, _: Option<&Value>, args: &[Value]) -> R {
    let b = match arg(args, 0, "Text.decodeUtf8")? {
        Value::Blob(b) => b.clone(),
        Value::Text(t) => crate::script::compile::text_to_blob(t),
        other => return Err(wrong("Text.decodeUtf8", "Blob", other)),
    };
    it.alloc(b.len() as u64)?;
    Ok(match std::str::from_utf8(&b) {
        Ok(s) => Value::some(Value::text(s)),
        Err(_) => Value::Null,
    })
}

// ------------------------------------------------------------------ Char

/// `Char.toNat32(c)`.
pub fn char_to_nat32(_: &mut Interp, _: Option<&Value>, args: &[Value]) -> R {
    Ok(Value::Nat32(char_arg(args, 0, "Char.toNat32")? as u32))
}

/// `Char.fromNat32(n)`: traps on a surrogate or a value above `0x10FFFF` where moc's
/// primitive does (its location is moc's prelude, as `moc run` prints it).
pub fn char_from_nat32(_: &mut Interp, _: Option<&Value>, args: &[Value]) -> R {
    let out_of_bounds =
        || crate::script::eval::trap_in_prim("prim:468.39-468.65", "character value out of bounds");
    match arg(args, 0, "Char.fromNat32")? {
        Value::Nat32(n) => char::from_u32(*n)
            .map(Value::Char)
            .ok_or_else(out_of_bounds),
        Value::Nat(n) => u32::try_from(*n)
            .ok()
            .and_then(char::from_u32)
            .map(Value::Char)
            .ok_or_else(out_of_bounds),
        other => Err(wrong("Char.fromNat32", "Nat32", other)),
    }
}

/// `Char.toText(c)`.
pub fn char_to_text(it: &mut Interp, this: Option<&Value>, args: &[Value]) -> R {
    from_char(it, this, args)
}

macro_rules! char_pred {
    ($name:ident, $e:expr) => {
        /// A character class test.
        pub fn $name(_: &mut Interp, _: Option<&Value>, args: &[Value]) -> R {
            let c = char_arg(args, 0, stringify!($name))?;
            let f: fn(char) -> bool = $e;
            Ok(Value::Bool(f(c)))
        }
    };
}

char_pred!(is_digit, |c| c.is_ascii_digit());
char_pred!(is_whitespace, |c| c.is_whitespace());
char_pred!(is_uppercase, |c| c.is_uppercase());
char_pred!(is_lowercase, |c| c.is_lowercase());
char_pred!(is_alphabetic, |c| c.is_alphabetic());

/// `Char.toUpper(c)`: as the runtime's `charToUpper`, `c` itself when its upper case is
/// not one character (`'ß'`).
pub fn char_to_upper(_: &mut Interp, _: Option<&Value>, args: &[Value]) -> R {
    let c = char_arg(args, 0, "Char.toUpper")?;
    Ok(Value::Char(single(c.to_uppercase()).unwrap_or(c)))
}

/// `Char.toLower(c)`: `c` itself when its lower case is not one character (`'İ'`).
pub fn char_to_lower(_: &mut Interp, _: Option<&Value>, args: &[Value]) -> R {
    let c = char_arg(args, 0, "Char.toLower")?;
    Ok(Value::Char(single(c.to_lowercase()).unwrap_or(c)))
}

/// The only character of a case mapping, if it is one character.
fn single(mut mapped: impl ExactSizeIterator<Item = char>) -> Option<char> {
    if mapped.len() == 1 {
        mapped.next()
    } else {
        None
    }
}
