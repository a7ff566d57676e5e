//! The checker's types: moc's type language as far as scripts use it, plus `Unknown` (a
//! type the checker does not model: compatible with everything, never a reason to reject).

use std::fmt;
use std::rc::Rc;

/// A primitive type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Prim {
    /// `Null`.
    Null,
    /// `Bool`.
    Bool,
    /// `Nat`.
    Nat,
    /// `Nat8`.
    Nat8,
    /// `Nat16`.
    Nat16,
    /// `Nat32`.
    Nat32,
    /// `Nat64`.
    Nat64,
    /// `Int`.
    Int,
    /// `Int8`.
    Int8,
    /// `Int16`.
    Int16,
    /// `Int32`.
    Int32,
    /// `Int64`.
    Int64,
    /// `Float`.
    Float,
    /// `Char`.
    Char,
    /// `Text`.
    Text,
    /// `Blob`.
    Blob,
    /// `Principal`.
    Principal,
    /// `Error`.
    Error,
}

impl Prim {
    /// The primitive called `name`.
    pub fn by_name(name: &str) -> Option<Prim> {
        use Prim::*;
        Some(match name {
            "Null" => Null,
            "Bool" => Bool,
            "Nat" => Nat,
            "Nat8" => Nat8,
            "Nat16" => Nat16,
            "Nat32" => Nat32,
            "Nat64" => Nat64,
            "Int" => Int,
            "Int8" => Int8,
            "Int16" => Int16,
            "Int32" => Int32,
            "Int64" => Int64,
            "Float" => Float,
            "Char" => Char,
            "Text" => Text,
            "Blob" => Blob,
            "Principal" => Principal,
            "Error" => Error,
            _ => return None,
        })
    }

    /// The name as Motoko writes it.
    pub fn name(self) -> &'static str {
        use Prim::*;
        match self {
            Null => "Null",
            Bool => "Bool",
            Nat => "Nat",
            Nat8 => "Nat8",
            Nat16 => "Nat16",
            Nat32 => "Nat32",
            Nat64 => "Nat64",
            Int => "Int",
            Int8 => "Int8",
            Int16 => "Int16",
            Int32 => "Int32",
            Int64 => "Int64",
            Float => "Float",
            Char => "Char",
            Text => "Text",
            Blob => "Blob",
            Principal => "Principal",
            Error => "Error",
        }
    }

    /// A number type (arithmetic applies).
    pub fn is_num(self) -> bool {
        self.is_int_like() || self == Prim::Float
    }

    /// An integral type (`Nat`, `Int` and the fixed-width ones).
    pub fn is_int_like(self) -> bool {
        use Prim::*;
        matches!(
            self,
            Nat | Nat8 | Nat16 | Nat32 | Nat64 | Int | Int8 | Int16 | Int32 | Int64
        )
    }

    /// A fixed-width integral type (bitwise operators apply).
    pub fn is_fixed(self) -> bool {
        self.is_int_like() && !matches!(self, Prim::Nat | Prim::Int)
    }

    /// Ordered by `<` (numbers, `Char`, `Text`, `Blob`, `Principal`; not `Bool`).
    pub fn is_ordered(self) -> bool {
        self.is_num() || matches!(self, Prim::Char | Prim::Text | Prim::Blob | Prim::Principal)
    }
}

/// An object's sort: moc prints modules as `module {...}`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ObjSort {
    /// A record or object.
    Object,
    /// A module.
    Module,
}

/// A field of an object type.
#[derive(Clone, Debug, PartialEq)]
pub struct Field {
    /// The name.
    pub name: Rc<str>,
    /// `var` field.
    pub mutable: bool,
    /// Its type.
    pub ty: Ty,
}

/// A function type: `<T, U>(A, B) -> R`.
#[derive(Clone, Debug, PartialEq)]
pub struct FuncTy {
    /// Type parameters (their ids, see [`Ty::Var`]) and names.
    pub tparams: Vec<(u32, Rc<str>)>,
    /// Parameter types.
    pub params: Vec<Ty>,
    /// Which parameters are `implicit` (empty: none), with the names they are found by.
    pub implicits: Vec<Option<Rc<str>>>,
    /// The first parameter is named `self` (the function serves contextual dot calls).
    pub self_param: bool,
    /// The result.
    pub ret: Ty,
}

/// A type constructor declared by `type T<A> = ...` (or a library's abstract type).
#[derive(Debug)]
pub struct Con {
    /// Its name as printed.
    pub name: Rc<str>,
    /// Its parameters' ids.
    pub params: Vec<u32>,
    /// The body (set once resolved; declarations may refer to themselves, so the body may
    /// hold this constructor: [`Con::release`] breaks that cycle).
    pub body: std::cell::RefCell<Option<Ty>>,
    /// The key of a library type (`mo:core`'s collections and their parts, see
    /// `lib_types`); `None` for a script's declaration.
    pub library: Option<&'static str>,
    /// A unique id (two declarations of the same name differ).
    pub id: u32,
}

impl Con {
    /// The body, unless abstract or not resolved yet.
    pub fn body(&self) -> Option<Ty> {
        self.body.borrow().clone()
    }

    /// Forgets the body (which may refer to this constructor): done when the declaration's
    /// session or failed evaluation ends, so that recursive declarations are freed.
    pub fn release(&self) {
        self.body.borrow_mut().take();
    }
}

/// A type.
#[derive(Clone, Debug)]
pub enum Ty {
    /// Not modelled: fits everything both ways.
    Unknown,
    /// `Any`.
    Any,
    /// `None` (the empty type).
    Non,
    /// A primitive.
    Prim(Prim),
    /// `?T`.
    Opt(Rc<Ty>),
    /// `(A, B)`; `()` is the empty tuple.
    Tuple(Rc<[Ty]>),
    /// `[T]` / `[var T]` (flag: mutable).
    Array(bool, Rc<Ty>),
    /// A record, object or module type, fields sorted by name.
    Obj(ObjSort, Rc<[Field]>),
    /// A variant type, tags sorted by name.
    Variant(Rc<[(Rc<str>, Ty)]>),
    /// A function type.
    Func(Rc<FuncTy>),
    /// A type parameter (by id) and its name.
    Var(u32, Rc<str>),
    /// A declared type applied to arguments.
    Con(Rc<Con>, Rc<[Ty]>),
}

impl PartialEq for Ty {
    fn eq(&self, other: &Ty) -> bool {
        match (self, other) {
            (Ty::Unknown, Ty::Unknown) | (Ty::Any, Ty::Any) | (Ty::Non, Ty::Non) => true,
            (Ty::Prim(a), Ty::Prim(b)) => a == b,
            (Ty::Opt(a), Ty::Opt(b)) => a == b,
            (Ty::Tuple(a), Ty::Tuple(b)) => a == b,
            (Ty::Array(m, a), Ty::Array(n, b)) => m == n && a == b,
            (Ty::Obj(s, a), Ty::Obj(t, b)) => s == t && a == b,
            (Ty::Variant(a), Ty::Variant(b)) => a == b,
            (Ty::Func(a), Ty::Func(b)) => a == b,
            (Ty::Var(a, _), Ty::Var(b, _)) => a == b,
            (Ty::Con(c, a), Ty::Con(d, b)) => c.id == d.id && c.name == d.name && a == b,
            _ => false,
        }
    }
}

impl Ty {
    /// `()`.
    pub fn unit() -> Ty {
        Ty::Tuple(Rc::from(Vec::new()))
    }

    /// A primitive.
    pub fn prim(p: Prim) -> Ty {
        Ty::Prim(p)
    }

    /// `Bool`.
    pub fn bool() -> Ty {
        Ty::Prim(Prim::Bool)
    }

    /// `Nat`.
    pub fn nat() -> Ty {
        Ty::Prim(Prim::Nat)
    }

    /// `Text`.
    pub fn text() -> Ty {
        Ty::Prim(Prim::Text)
    }

    /// True for `()`.
    pub fn is_unit(&self) -> bool {
        matches!(self, Ty::Tuple(ts) if ts.is_empty())
    }

    /// A record type from unsorted fields.
    pub fn record(mut fields: Vec<Field>) -> Ty {
        fields.sort_by(|a, b| a.name.cmp(&b.name));
        Ty::Obj(ObjSort::Object, Rc::from(fields))
    }

    /// A variant type from unsorted tags.
    pub fn variant(mut tags: Vec<(Rc<str>, Ty)>) -> Ty {
        tags.sort_by(|a, b| a.0.cmp(&b.0));
        tags.dedup_by(|a, b| a.0 == b.0);
        Ty::Variant(Rc::from(tags))
    }

    /// A tuple, or the single type for one element.
    pub fn tuple_or_single(mut ts: Vec<Ty>) -> Ty {
        if ts.len() == 1 {
            ts.remove(0)
        } else {
            Ty::Tuple(Rc::from(ts))
        }
    }

    /// True when the type mentions `Unknown` anywhere (not looking into declarations).
    pub fn has_unknown(&self) -> bool {
        match self {
            Ty::Unknown => true,
            Ty::Any | Ty::Non | Ty::Prim(_) | Ty::Var(..) => false,
            Ty::Opt(t) | Ty::Array(_, t) => t.has_unknown(),
            Ty::Tuple(ts) => ts.iter().any(Ty::has_unknown),
            Ty::Obj(_, fs) => fs.iter().any(|f| f.ty.has_unknown()),
            Ty::Variant(ts) => ts.iter().any(|(_, t)| t.has_unknown()),
            Ty::Func(f) => f.params.iter().any(Ty::has_unknown) || f.ret.has_unknown(),
            Ty::Con(_, args) => args.iter().any(Ty::has_unknown),
        }
    }
}

/// How deep [`fmt::Display`] prints a type before `...` (declarations may recurse).
const SHOW_DEPTH: usize = 24;

impl fmt::Display for Ty {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_ty(f, self, SHOW_DEPTH)
    }
}

fn write_list(f: &mut fmt::Formatter<'_>, ts: &[Ty], d: usize) -> fmt::Result {
    for (i, t) in ts.iter().enumerate() {
        if i > 0 {
            f.write_str(", ")?;
        }
        write_ty(f, t, d)?;
    }
    Ok(())
}

/// Writes a type as moc prints it in messages.
fn write_ty(f: &mut fmt::Formatter<'_>, t: &Ty, depth: usize) -> fmt::Result {
    if depth == 0 {
        return f.write_str("...");
    }
    let d = depth - 1;
    match t {
        Ty::Unknown => f.write_str("???"),
        Ty::Any => f.write_str("Any"),
        Ty::Non => f.write_str("None"),
        Ty::Prim(p) => f.write_str(p.name()),
        Ty::Opt(t) => {
            f.write_str("?")?;
            write_ty(f, t, d)
        }
        Ty::Tuple(ts) => {
            f.write_str("(")?;
            write_list(f, ts, d)?;
            f.write_str(")")
        }
        Ty::Array(m, t) => {
            f.write_str(if *m { "[var " } else { "[" })?;
            write_ty(f, t, d)?;
            f.write_str("]")
        }
        Ty::Obj(sort, fs) => {
            if *sort == ObjSort::Module {
                f.write_str("module ")?;
            }
            f.write_str("{")?;
            for (i, fld) in fs.iter().enumerate() {
                f.write_str(if i > 0 { "; " } else { "" })?;
                if fld.mutable {
                    f.write_str("var ")?;
                }
                write!(f, "{} : ", fld.name)?;
                write_ty(f, &fld.ty, d)?;
            }
            f.write_str("}")
        }
        Ty::Variant(ts) => {
            if ts.is_empty() {
                return f.write_str("{#}");
            }
            f.write_str("{")?;
            for (i, (n, t)) in ts.iter().enumerate() {
                f.write_str(if i > 0 { "; " } else { "" })?;
                write!(f, "#{n}")?;
                if !t.is_unit() {
                    f.write_str(" : ")?;
                    write_ty(f, t, d)?;
                }
            }
            f.write_str("}")
        }
        Ty::Func(ft) => {
            if !ft.tparams.is_empty() {
                f.write_str("<")?;
                for (i, (_, n)) in ft.tparams.iter().enumerate() {
                    f.write_str(if i > 0 { ", " } else { "" })?;
                    f.write_str(n)?;
                }
                f.write_str(">")?;
            }
            match ft.params.as_slice() {
                [p] if !matches!(p, Ty::Tuple(_)) => write_ty(f, p, d)?,
                ps => {
                    f.write_str("(")?;
                    write_list(f, ps, d)?;
                    f.write_str(")")?;
                }
            }
            f.write_str(" -> ")?;
            write_ty(f, &ft.ret, d)
        }
        Ty::Var(_, n) => f.write_str(n),
        Ty::Con(c, args) => {
            f.write_str(&c.name)?;
            if !args.is_empty() {
                f.write_str("<")?;
                write_list(f, args, d)?;
                f.write_str(">")?;
            }
            Ok(())
        }
    }
}
