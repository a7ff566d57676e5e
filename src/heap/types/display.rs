//! Prints a [`Type`] back in Motoko syntax (one line).

use std::fmt;

use super::ast::{FuncSort, ObjSort, Type};

impl fmt::Display for Type {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Type::Prim(p) => f.write_str(p.name()),
            Type::Opt(t) => write!(f, "?{t}"),
            Type::Weak(t) => write!(f, "weak {t}"),
            Type::Async(t) => write!(f, "async {t}"),
            Type::Tuple(ts) => {
                f.write_str("(")?;
                for (i, t) in ts.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{t}")?;
                }
                if ts.len() == 1 {
                    f.write_str(",")?;
                }
                f.write_str(")")
            }
            Type::Array { mutable, elem } => {
                write!(f, "[{}{elem}]", if *mutable { "var " } else { "" })
            }
            Type::Object { sort, fields } => {
                match sort {
                    ObjSort::Object => {}
                    ObjSort::Actor => f.write_str("actor ")?,
                    ObjSort::Module => f.write_str("module ")?,
                }
                f.write_str("{")?;
                for (i, fld) in fields.iter().enumerate() {
                    if i > 0 {
                        f.write_str("; ")?;
                    }
                    let var = if fld.mutable { "var " } else { "" };
                    write!(f, "{var}{} : {}", fld.label, fld.ty)?;
                }
                f.write_str("}")
            }
            Type::Variant(tags) => {
                if tags.is_empty() {
                    return f.write_str("{#}");
                }
                f.write_str("{")?;
                for (i, t) in tags.iter().enumerate() {
                    if i > 0 {
                        f.write_str("; ")?;
                    }
                    if t.ty.is_unit() {
                        write!(f, "#{}", t.label)?;
                    } else {
                        write!(f, "#{} : {}", t.label, t.ty)?;
                    }
                }
                f.write_str("}")
            }
            Type::Func(func) => {
                match func.sort {
                    FuncSort::Local => {}
                    FuncSort::Stable => f.write_str("stable ")?,
                    FuncSort::Shared => f.write_str("shared ")?,
                    FuncSort::Query => f.write_str("shared query ")?,
                    FuncSort::CompositeQuery => f.write_str("shared composite query ")?,
                }
                if !func.type_params.is_empty() {
                    write!(f, "<{}>", func.type_params.join(", "))?;
                }
                match &*func.arg {
                    Type::Tuple(_) => write!(f, "{} -> {}", func.arg, func.result),
                    Type::Func(_) => write!(f, "({}) -> {}", func.arg, func.result),
                    other => write!(f, "{other} -> {}", func.result),
                }
            }
            Type::Con { name, args } => {
                f.write_str(name)?;
                if !args.is_empty() {
                    f.write_str("<")?;
                    for (i, a) in args.iter().enumerate() {
                        if i > 0 {
                            f.write_str(", ")?;
                        }
                        write!(f, "{a}")?;
                    }
                    f.write_str(">")?;
                }
                Ok(())
            }
            Type::Var(n) => f.write_str(n),
        }
    }
}
