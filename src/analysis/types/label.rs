//! Type labels: a Motoko type printed short and deterministically, for tables and paths.
//!
//! Alias names lose the `__NNN` suffix the compiler adds (`Node__984751753<Nat, Text>` is
//! `Node<Nat, Text>`), a part equal to a parameterless alias's body is printed as the alias
//! name (`Person`), nesting deeper than [`MAX_LABEL_DEPTH`] is `…`, and the whole label is at
//! most [`MAX_LABEL_CHARS`] characters (cut with `…`).

use std::collections::HashMap;
use std::fmt::Write;
use std::sync::Arc;

use crate::heap::types::{Field, FuncSort, FuncType, ObjSort, Tag, Type};

/// The longest label, in characters.
pub const MAX_LABEL_CHARS: usize = 80;

/// The deepest nesting printed.
pub const MAX_LABEL_DEPTH: u32 = 6;

/// `name` without a compiler-added `__DIGITS` suffix.
pub fn alias_name(name: &str) -> &str {
    match name.rfind("__") {
        Some(i)
            if i > 0 && name.len() > i + 2 && name[i + 2..].bytes().all(|b| b.is_ascii_digit()) =>
        {
            &name[..i]
        }
        _ => name,
    }
}

/// The label of `ty`; `aliases` names the bodies of parameterless aliases.
pub fn render_label(ty: &Arc<Type>, aliases: &HashMap<Arc<Type>, Arc<str>>) -> String {
    let mut out = String::new();
    write_type(ty, aliases, 0, &mut out);
    shorten(out)
}

/// `s` cut to [`MAX_LABEL_CHARS`] characters (the last one `…`).
pub fn shorten(s: String) -> String {
    shorten_to(s, MAX_LABEL_CHARS)
}

/// `s` cut to `width` characters (the last one `…`; at least one character is kept).
pub fn shorten_to(s: String, width: usize) -> String {
    let width = width.max(1);
    if s.chars().count() <= width {
        return s;
    }
    let mut out: String = s.chars().take(width - 1).collect();
    out.push('…');
    out
}

/// Prints `ty` (recursion bounded by [`MAX_LABEL_DEPTH`], output by a little more than
/// [`MAX_LABEL_CHARS`]).
fn write_type(
    ty: &Arc<Type>,
    aliases: &HashMap<Arc<Type>, Arc<str>>,
    depth: u32,
    out: &mut String,
) {
    if out.len() > MAX_LABEL_CHARS * 4 {
        return;
    }
    if depth > 0 || !matches!(&**ty, Type::Con { .. }) {
        if let Some(name) = aliases.get(ty) {
            out.push_str(alias_name(name));
            return;
        }
    }
    if depth >= MAX_LABEL_DEPTH {
        out.push('…');
        return;
    }
    let d = depth + 1;
    let list = |ts: &[Arc<Type>], sep: &str, out: &mut String| {
        for (i, t) in ts.iter().enumerate() {
            if i > 0 {
                out.push_str(sep);
            }
            write_type(t, aliases, d, out);
        }
    };
    match &**ty {
        Type::Prim(p) => out.push_str(p.name()),
        Type::Opt(t) => {
            out.push('?');
            write_type(t, aliases, d, out);
        }
        Type::Weak(t) => {
            out.push_str("weak ");
            write_type(t, aliases, d, out);
        }
        Type::Async(t) => {
            out.push_str("async ");
            write_type(t, aliases, d, out);
        }
        Type::Tuple(ts) => {
            out.push('(');
            list(ts, ", ", out);
            if ts.len() == 1 {
                out.push(',');
            }
            out.push(')');
        }
        Type::Array { mutable, elem } => {
            out.push_str(if *mutable { "[var " } else { "[" });
            write_type(elem, aliases, d, out);
            out.push(']');
        }
        Type::Object { sort, fields } => write_object(*sort, fields, aliases, d, out),
        Type::Variant(tags) => write_variant(tags, aliases, d, out),
        Type::Func(f) => write_func(f, aliases, d, out),
        Type::Con { name, args } => {
            out.push_str(alias_name(name));
            if !args.is_empty() {
                out.push('<');
                list(args, ", ", out);
                out.push('>');
            }
        }
        Type::Var(n) => out.push_str(n),
    }
}

/// An object type's label: `{a : Nat; var b : Text}` (`actor {…}`, `module {…}`), its
/// field types at `depth`.
fn write_object(
    sort: ObjSort,
    fields: &[Field],
    aliases: &HashMap<Arc<Type>, Arc<str>>,
    depth: u32,
    out: &mut String,
) {
    out.push_str(match sort {
        ObjSort::Object => "{",
        ObjSort::Actor => "actor {",
        ObjSort::Module => "module {",
    });
    for (i, f) in fields.iter().enumerate() {
        if i > 0 {
            out.push_str("; ");
        }
        if f.mutable {
            out.push_str("var ");
        }
        let _ = write!(out, "{} : ", f.label);
        write_type(&f.ty, aliases, depth, out);
    }
    out.push('}');
}

/// A variant type's label: `{#a; #b : Nat}` (`{#}` without tags), its payload types at
/// `depth`.
fn write_variant(
    tags: &[Tag],
    aliases: &HashMap<Arc<Type>, Arc<str>>,
    depth: u32,
    out: &mut String,
) {
    out.push('{');
    if tags.is_empty() {
        out.push('#');
    }
    for (i, t) in tags.iter().enumerate() {
        if i > 0 {
            out.push_str("; ");
        }
        let _ = write!(out, "#{}", t.label);
        if !t.ty.is_unit() {
            out.push_str(" : ");
            write_type(&t.ty, aliases, depth, out);
        }
    }
    out.push('}');
}

/// A function type's label: `shared query <T>(A) -> B`, its argument and result at `depth`.
fn write_func(f: &FuncType, aliases: &HashMap<Arc<Type>, Arc<str>>, depth: u32, out: &mut String) {
    out.push_str(match f.sort {
        FuncSort::Local => "",
        FuncSort::Stable => "stable ",
        FuncSort::Shared => "shared ",
        FuncSort::Query => "shared query ",
        FuncSort::CompositeQuery => "shared composite query ",
    });
    if !f.type_params.is_empty() {
        let _ = write!(out, "<{}>", f.type_params.join(", "));
    }
    let paren = matches!(&*f.arg, Type::Func(_));
    if paren {
        out.push('(');
    }
    write_type(&f.arg, aliases, depth, out);
    if paren {
        out.push(')');
    }
    out.push_str(" -> ");
    write_type(&f.result, aliases, depth, out);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::heap::types::parse_type;

    fn label(src: &str) -> String {
        render_label(&Arc::new(parse_type(src).unwrap()), &HashMap::new())
    }

    #[test]
    fn alias_suffixes_are_dropped() {
        assert_eq!(alias_name("Node__984751753"), "Node");
        assert_eq!(alias_name("Node"), "Node");
        assert_eq!(alias_name("a__b"), "a__b");
        assert_eq!(alias_name("__12"), "__12");
        assert_eq!(label("Node__984751753<Nat, Text>"), "Node<Nat, Text>");
        assert_eq!(label("[var ?(Nat, Text)]"), "[var ?(Nat, Text)]");
        assert_eq!(label("{#a; #b : Nat}"), "{#a; #b : Nat}");
        assert_eq!(label("{var x : Nat; y : Text}"), "{var x : Nat; y : Text}");
    }

    #[test]
    fn labels_are_bounded() {
        let long = format!(
            "{{{}}}",
            (0..50)
                .map(|i| format!("field{i} : Nat"))
                .collect::<Vec<_>>()
                .join("; ")
        );
        let l = label(&long);
        assert_eq!(l.chars().count(), MAX_LABEL_CHARS);
        assert!(l.ends_with('…'));
        let deep = format!("{}Nat{}", "[".repeat(20), "]".repeat(20));
        assert_eq!(label(&deep), "[[[[[[…]]]]]]");
        assert_eq!(shorten_to("abcdef".into(), 4), "abc…");
        assert_eq!(shorten_to("abcd".into(), 4), "abcd");
        assert_eq!(shorten_to("ééééé".into(), 3), "éé…");
        assert_eq!(shorten_to("ab".into(), 0), "…");
    }
}
