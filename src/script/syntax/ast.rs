//! The abstract syntax tree of the Motoko subset, with spans.

use super::span::Span;
use std::rc::Rc;

/// A literal as written.
#[derive(Clone, Debug, PartialEq)]
pub enum Lit {
    /// `()`.
    Unit,
    /// `true` / `false`.
    Bool(bool),
    /// `null`.
    Null,
    /// A natural number literal (decimal or `0x` hex digits).
    Nat(String),
    /// A float literal.
    Float(f64),
    /// A character literal.
    Char(char),
    /// A text literal.
    Text(String),
}

/// A unary operator.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnOp {
    /// `-e`.
    Neg,
    /// `+e`.
    Pos,
    /// `^e` (bitwise not).
    BitNot,
}

/// A binary operator (arithmetic, bitwise, text or comparison).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BinOp {
    /// `+`
    Add,
    /// `-`
    Sub,
    /// `*`
    Mul,
    /// `/`
    Div,
    /// `%`
    Rem,
    /// `**`
    Pow,
    /// `+%`
    AddWrap,
    /// `-%`
    SubWrap,
    /// `*%`
    MulWrap,
    /// `**%`
    PowWrap,
    /// `&`
    And,
    /// `|`
    Or,
    /// `^`
    Xor,
    /// `<<`
    Shl,
    /// `>>`
    Shr,
    /// `<<>`
    Rotl,
    /// `<>>`
    Rotr,
    /// `#` (text concatenation)
    Cat,
    /// `==`
    Eq,
    /// `!=`
    Ne,
    /// `<`
    Lt,
    /// `<=`
    Le,
    /// `>`
    Gt,
    /// `>=`
    Ge,
}

impl BinOp {
    /// True for the comparison operators (their result is `Bool`).
    pub fn is_relational(self) -> bool {
        matches!(
            self,
            BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge
        )
    }
}

/// A type expression (parsed; checked only where cheap).
#[derive(Clone, Debug, PartialEq)]
pub enum Type {
    /// A named type with arguments: `Nat`, `List<T>`, `M.T`.
    Path(Vec<String>, Vec<Type>),
    /// `(A, B)`; `()` is the empty tuple.
    Tuple(Vec<Type>),
    /// `?T`.
    Opt(Box<Type>),
    /// `[T]` or `[var T]` (flag: mutable).
    Array(bool, Box<Type>),
    /// `{ a : T; var b : U }` (flag: mutable).
    Record(Vec<(String, bool, Type)>),
    /// `{ #a; #b : T }`.
    Variant(Vec<(String, Type)>),
    /// `A -> B`, possibly generic.
    Func(Box<Type>, Box<Type>),
    /// `A and B` (an intersection) or `A or B` (a union): no run-time typing uses it.
    Combined(Box<Type>, Box<Type>),
    /// `(implicit : T)` as a parameter's type, or `(implicit : (name : T))` (the name the
    /// argument is found by, when it is not the parameter's).
    Implicit(Option<String>, Box<Type>),
}

/// A pattern.
#[derive(Clone, Debug, PartialEq)]
pub struct Pat {
    /// The pattern.
    pub kind: PatKind,
    /// Where it is.
    pub span: Span,
}

/// The forms of a pattern.
#[derive(Clone, Debug, PartialEq)]
pub enum PatKind {
    /// `_`.
    Wild,
    /// A binding `x`.
    Var(String),
    /// A literal, possibly negated (`-1`).
    Lit(Lit, bool),
    /// `(p, q)`.
    Tuple(Vec<Pat>),
    /// `?p`.
    Opt(Box<Pat>),
    /// `#tag` or `#tag p`.
    Variant(String, Option<Box<Pat>>),
    /// `{ a; b = p }`.
    Record(Vec<(String, Pat)>),
    /// `p : T`.
    Annot(Box<Pat>, Type),
    /// `p or q`.
    Or(Box<Pat>, Box<Pat>),
}

/// An expression.
#[derive(Clone, Debug, PartialEq)]
pub struct Expr {
    /// The expression.
    pub kind: ExprKind,
    /// Where it is.
    pub span: Span,
}

/// A field of a record literal.
#[derive(Clone, Debug, PartialEq)]
pub struct FieldExp {
    /// `var` field.
    pub mutable: bool,
    /// Field name.
    pub name: String,
    /// Optional type annotation.
    pub ty: Option<Type>,
    /// Field value.
    pub value: Expr,
    /// The field is the variable named by `value` itself, not a copy of its value: an
    /// object's `public var` field (assigning either changes both).
    pub alias: bool,
}

/// A `case` of a `switch`.
#[derive(Clone, Debug, PartialEq)]
pub struct Case {
    /// The pattern.
    pub pat: Pat,
    /// The body.
    pub body: Expr,
}

/// A function definition (named or anonymous).
#[derive(Clone, Debug, PartialEq)]
pub struct FuncDef {
    /// The name, if declared with one.
    pub name: Option<String>,
    /// Type parameters (ignored at run time).
    pub type_params: Vec<String>,
    /// Where each type parameter's name is.
    pub type_param_spans: Vec<Span>,
    /// Each type parameter's bound (`T <: B`), if it declares one.
    pub type_bounds: Vec<Option<Type>>,
    /// Parameters: one pattern per argument.
    pub params: Vec<Pat>,
    /// The declared result type.
    pub result: Option<Type>,
    /// The body.
    pub body: Expr,
    /// Where the definition is.
    pub span: Span,
}

/// The forms of an expression.
#[derive(Clone, Debug, PartialEq)]
pub enum ExprKind {
    /// A literal.
    Lit(Lit),
    /// A variable reference.
    Var(String),
    /// A unary arithmetic operator.
    Unary(UnOp, Box<Expr>),
    /// A binary operator.
    Binary(BinOp, Box<Expr>, Box<Expr>),
    /// `a and b`.
    And(Box<Expr>, Box<Expr>),
    /// `a or b`.
    Or(Box<Expr>, Box<Expr>),
    /// `not a`.
    Not(Box<Expr>),
    /// `a := b`.
    Assign(Box<Expr>, Box<Expr>),
    /// `a op= b`.
    OpAssign(BinOp, Box<Expr>, Box<Expr>),
    /// `(a, b)`.
    Tuple(Vec<Expr>),
    /// `[a, b]` or `[var a, b]` (flag: mutable).
    Array(bool, Vec<Expr>),
    /// `{ a and b with f = e }` or `{ f = e }`.
    Record(Vec<Expr>, Vec<FieldExp>),
    /// `#tag` or `#tag e`.
    Variant(String, Option<Box<Expr>>),
    /// `?e`.
    Opt(Box<Expr>),
    /// `e.name`.
    Dot(Box<Expr>, String),
    /// `e.0`.
    Proj(Box<Expr>, usize),
    /// `a[i]`.
    Index(Box<Expr>, Box<Expr>),
    /// `f<T>(args)`.
    Call(Box<Expr>, Vec<Expr>),
    /// `e!`.
    Bang(Box<Expr>),
    /// `debug_show e`.
    DebugShow(Box<Expr>),
    /// `ignore e`.
    Ignore(Box<Expr>),
    /// `assert e`.
    Assert(Box<Expr>),
    /// `debug e` (runs `e`).
    Debug(Box<Expr>),
    /// `e : T`.
    Annot(Box<Expr>, Type),
    /// `{ decs }`.
    Block(Vec<Dec>),
    /// `if c a else b`.
    If(Box<Expr>, Box<Expr>, Option<Box<Expr>>),
    /// `switch e { cases }`.
    Switch(Box<Expr>, Vec<Case>),
    /// `while c body`.
    While(Box<Expr>, Box<Expr>),
    /// `loop body` or `loop body while c`.
    Loop(Box<Expr>, Option<Box<Expr>>),
    /// `for (p in e) body`.
    For(Pat, Box<Expr>, Box<Expr>),
    /// `label l : T e`.
    Label(String, Box<Expr>),
    /// `break l e?`.
    Break(String, Option<Box<Expr>>),
    /// `continue l`.
    Continue(String),
    /// `return e?`.
    Return(Option<Box<Expr>>),
    /// `do { }`.
    Do(Box<Expr>),
    /// `do ? { }`.
    DoOpt(Box<Expr>),
    /// An anonymous function.
    Func(Rc<FuncDef>),
    /// A `module` body (the block ending in the record of its public fields): the record
    /// is a module value (moc prints it as `module {a = 1}`).
    Module(Box<Expr>),
}

/// A declaration (or an expression in declaration position).
#[derive(Clone, Debug, PartialEq)]
pub enum Dec {
    /// An expression statement.
    Exp(Expr),
    /// `let p = e` or `let p = e else fail`.
    Let(Pat, Expr, Option<Expr>),
    /// `var x : T = e`.
    Var(String, Option<Type>, Expr, Span),
    /// `type T<A> = U`.
    Type(Box<TypeDec>),
    /// `func f(...) { }`.
    Func(Rc<FuncDef>),
    /// `import X "mo:core/X"`.
    Import(Pat, String, Span),
}

/// A type declaration `type T<A, B> = U`.
#[derive(Clone, Debug, PartialEq)]
pub struct TypeDec {
    /// The declared name.
    pub name: String,
    /// The parameters' names.
    pub params: Vec<String>,
    /// Where each parameter's name is (moc's position of a duplicate: M0044).
    pub param_spans: Vec<Span>,
    /// The body `U`.
    pub body: Type,
    /// From `type` to the end of the body (moc's position of the declaration's errors).
    pub span: Span,
}

/// A parsed script: its top-level declarations.
#[derive(Clone, Debug, PartialEq)]
pub struct Program {
    /// The declarations in order.
    pub decs: Vec<Dec>,
    /// The whole script: from its first token to its end (moc's position of errors about
    /// the top level's declarations together).
    pub span: Span,
    /// The explicit type arguments of calls (`f<T>(x)`), by the call expression's span.
    pub type_args: Vec<(Span, Vec<Type>)>,
    /// The declared types of object, module and class bodies (`object : T { .. }`,
    /// `class C() : T { .. }`), by the body block's span.
    pub body_types: Vec<(Span, BodyType)>,
}

/// What declares a body's type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BodySort {
    /// `object : T { .. }`.
    Object,
    /// `module : T { .. }`.
    Module,
    /// `class C() : T { .. }`.
    Class,
}

/// The declared type of an object, module or class body.
#[derive(Clone, Debug, PartialEq)]
pub struct BodyType {
    /// What declares it.
    pub sort: BodySort,
    /// The type.
    pub ty: Type,
}
