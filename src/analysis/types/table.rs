//! [`TypeTable`]: the Motoko types a type-directed walk meets, interned once as small ids,
//! each with its shape (children as ids, resolved on first use) and its display label.
//!
//! Types are interned as written (an alias application stays `Node__984751753<Nat, Text>`,
//! so its label keeps the alias name); the shape is computed from the alias expansion. The
//! table holds at most [`MAX_TYPES`] types (a hostile signature with non-regular recursive
//! aliases would otherwise make new types forever): beyond that, types are [`UNTYPED`].

use std::collections::HashMap;
use std::sync::Arc;

use crate::heap::types::{FuncSort, ObjSort, Prim, StableSignature, Type, TypeEnv};

use super::label::render_label;

/// A type's id in a [`TypeTable`].
pub type TypeId = u32;

/// No type: the walk does not know what the word holds (`Any`, a type variable, an error).
pub const UNTYPED: TypeId = 0;

/// The most types a table holds.
pub const MAX_TYPES: usize = 1 << 16;

/// The most option layers unwrapped at one word (a `type L = ?L` alias loops otherwise).
pub const MAX_UNWRAP: u32 = 64;

/// The largest type interned, in nodes of its tree (a non-regular recursive alias such as
/// `type G<A> = ?(A, G<(A, A)>)` doubles its arguments at every level: hashing them would
/// take exponential time). Larger types are [`UNTYPED`].
pub const MAX_TYPE_NODES: usize = 4096;

/// One record field of a [`Shape::Record`].
#[derive(Debug, Clone)]
pub struct FieldShape {
    /// The label's hash.
    pub hash: u32,
    /// The label.
    pub label: Arc<str>,
    /// Whether the field is `var` (a MutBox on the heap).
    pub mutable: bool,
    /// The field's type.
    pub ty: TypeId,
}

/// One tag of a [`Shape::Variant`].
#[derive(Debug, Clone)]
pub struct TagShape {
    /// The label's hash.
    pub hash: u32,
    /// The label.
    pub label: Arc<str>,
    /// The payload's type.
    pub ty: TypeId,
}

/// What a type says about the heap: which object holds a value and the types of its parts.
#[derive(Debug, Clone)]
pub enum Shape {
    /// Nothing known (`Any`, a type variable, `Error`, `None`, an unknown alias).
    Untyped,
    /// A primitive type (a scalar, or a boxed number, a text, a blob...).
    Prim(Prim),
    /// `?T`: a `Some` box only when the value is `null` or an option, else the value itself.
    Opt(TypeId),
    /// A tuple (`()` has no object).
    Tuple(Vec<TypeId>),
    /// `[T]` or `[var T]`.
    Array {
        /// `[var T]`.
        mutable: bool,
        /// The element type.
        elem: TypeId,
    },
    /// A record or object, fields sorted by hash.
    Record(Vec<FieldShape>),
    /// A variant, tags sorted by hash.
    Variant(Vec<TagShape>),
    /// An actor reference (a blob).
    Actor,
    /// A local function (a closure; its captures are untyped).
    Closure,
    /// A shared function (an `Array S` of actor and method name).
    SharedFunc,
    /// `weak T` (the target is not traced).
    Weak(TypeId),
    /// `async T` (nothing on the heap to follow).
    Async,
}

/// A mo:core collection recognised from its record/variant shape (see [`TypeTable::container`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Container {
    /// `mo:core/Map` (a B-tree of `(K, V)` entries).
    Map {
        /// The key type.
        key: TypeId,
        /// The value type.
        value: TypeId,
    },
    /// `mo:core/Set` (a B-tree of elements).
    Set {
        /// The element type.
        elem: TypeId,
    },
    /// `mo:core/List` (blocks of `?T` slots).
    List {
        /// The element type.
        elem: TypeId,
    },
    /// `mo:core/pure/Map` (a red-black tree of `(l, k, v, r)` nodes).
    PureMap {
        /// The key type.
        key: TypeId,
        /// The value type.
        value: TypeId,
    },
    /// `mo:core/pure/Set` (a red-black tree of `(l, x, r)` nodes).
    PureSet {
        /// The element type.
        elem: TypeId,
    },
    /// `mo:core/Queue` (a doubly linked list of nodes).
    Queue {
        /// The element type.
        elem: TypeId,
    },
    /// `mo:core/Stack` (a size and a pure list).
    Stack {
        /// The element type.
        elem: TypeId,
    },
}

impl Container {
    /// The collection's name as a Motoko module path (`Map`, `pure/Map`, ...).
    pub fn name(self) -> &'static str {
        match self {
            Container::Map { .. } => "Map",
            Container::Set { .. } => "Set",
            Container::List { .. } => "List",
            Container::PureMap { .. } => "pure/Map",
            Container::PureSet { .. } => "pure/Set",
            Container::Queue { .. } => "Queue",
            Container::Stack { .. } => "Stack",
        }
    }

    fn args(self) -> Vec<TypeId> {
        match self {
            Container::Map { key, value } | Container::PureMap { key, value } => vec![key, value],
            Container::Set { elem }
            | Container::List { elem }
            | Container::PureSet { elem }
            | Container::Queue { elem }
            | Container::Stack { elem } => vec![elem],
        }
    }
}

struct Entry {
    written: Arc<Type>,
    shape: Option<Arc<Shape>>,
    container: Option<Option<Container>>,
    label: Option<Arc<str>>,
}

/// The types met by a walk over one heap, interned as [`TypeId`]s.
pub struct TypeTable<'e> {
    env: &'e TypeEnv,
    entries: Vec<Entry>,
    index: HashMap<Arc<Type>, TypeId>,
    /// Bodies of the aliases without parameters, by body (labels use the alias name).
    alias_names: HashMap<Arc<Type>, Arc<str>>,
}

impl<'e> TypeTable<'e> {
    /// A table over the aliases of `env` (entry 0 is [`UNTYPED`]).
    pub fn new(env: &'e TypeEnv) -> TypeTable<'e> {
        let untyped = Entry {
            written: Arc::new(Type::Prim(Prim::Any)),
            shape: Some(Arc::new(Shape::Untyped)),
            container: Some(None),
            label: Some(Arc::from("Any")),
        };
        TypeTable {
            env,
            entries: vec![untyped],
            index: HashMap::new(),
            alias_names: HashMap::new(),
        }
    }

    /// A table over a signature's aliases, labelling types equal to a parameterless alias's
    /// body with the alias name.
    pub fn for_signature(sig: &'e StableSignature) -> TypeTable<'e> {
        let mut t = TypeTable::new(&sig.env);
        for name in sig.env.names() {
            if let Some(alias) = sig.env.alias(name) {
                if alias.params.is_empty() {
                    t.alias_names
                        .entry(alias.body.clone())
                        .and_modify(|n| {
                            if **name < **n {
                                *n = name.clone()
                            }
                        })
                        .or_insert_with(|| name.clone());
                }
            }
        }
        t
    }

    /// The aliases.
    pub fn env(&self) -> &'e TypeEnv {
        self.env
    }

    /// The id of `ty` (as written), or [`UNTYPED`] when the table is full or `ty` has more
    /// than [`MAX_TYPE_NODES`] nodes.
    pub fn intern(&mut self, ty: &Arc<Type>) -> TypeId {
        if !within_nodes(ty, MAX_TYPE_NODES) {
            return UNTYPED;
        }
        if let Some(&id) = self.index.get(ty) {
            return id;
        }
        if self.entries.len() >= MAX_TYPES {
            return UNTYPED;
        }
        let id = self.entries.len() as TypeId;
        self.entries.push(Entry {
            written: ty.clone(),
            shape: None,
            container: None,
            label: None,
        });
        self.index.insert(ty.clone(), id);
        id
    }

    /// The id of a primitive type.
    pub fn prim(&mut self, p: Prim) -> TypeId {
        self.intern(&Arc::new(Type::Prim(p)))
    }

    /// The type as written.
    pub fn written(&self, id: TypeId) -> &Arc<Type> {
        &self.entry(id).written
    }

    /// The number of types.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether only [`UNTYPED`] is in the table.
    pub fn is_empty(&self) -> bool {
        self.entries.len() <= 1
    }

    fn entry(&self, id: TypeId) -> &Entry {
        self.entries.get(id as usize).unwrap_or(&self.entries[0])
    }

    /// The shape of type `id` (computed on first use).
    pub fn shape(&mut self, id: TypeId) -> &Shape {
        let i = self.ensure_shape(id);
        match &self.entries[i].shape {
            Some(s) => s,
            None => &Shape::Untyped,
        }
    }

    /// The shape of type `id`, shared (cheap to keep while the table changes).
    pub fn shape_arc(&mut self, id: TypeId) -> Arc<Shape> {
        let i = self.ensure_shape(id);
        match &self.entries[i].shape {
            Some(s) => s.clone(),
            None => Arc::new(Shape::Untyped),
        }
    }

    /// The index of `id`'s entry (0, untyped, if out of range), its shape computed.
    fn ensure_shape(&mut self, id: TypeId) -> usize {
        let i = id as usize;
        if i >= self.entries.len() {
            return 0;
        }
        if self.entries[i].shape.is_none() {
            let s = self.compute_shape(&self.entries[i].written.clone());
            self.entries[i].shape = Some(Arc::new(s));
        }
        i
    }

    fn compute_shape(&mut self, written: &Arc<Type>) -> Shape {
        let Ok(ty) = self.env.normalize(written) else {
            return Shape::Untyped;
        };
        match &*ty {
            Type::Prim(Prim::Any | Prim::None | Prim::Error) => Shape::Untyped,
            Type::Prim(p) => Shape::Prim(*p),
            Type::Opt(t) => Shape::Opt(self.intern(t)),
            Type::Tuple(ts) => Shape::Tuple(ts.iter().map(|t| self.intern(t)).collect()),
            Type::Array { mutable, elem } => Shape::Array {
                mutable: *mutable,
                elem: self.intern(elem),
            },
            Type::Object {
                sort: ObjSort::Actor,
                ..
            } => Shape::Actor,
            Type::Object { fields, .. } => {
                let mut fs: Vec<FieldShape> = fields
                    .iter()
                    .map(|f| FieldShape {
                        hash: f.hash,
                        label: f.label.clone(),
                        mutable: f.mutable,
                        ty: self.intern(&f.ty),
                    })
                    .collect();
                fs.sort_by_key(|f| f.hash);
                Shape::Record(fs)
            }
            Type::Variant(tags) => {
                let mut ts: Vec<TagShape> = tags
                    .iter()
                    .map(|t| TagShape {
                        hash: t.hash,
                        label: t.label.clone(),
                        ty: self.intern(&t.ty),
                    })
                    .collect();
                ts.sort_by_key(|t| t.hash);
                Shape::Variant(ts)
            }
            Type::Func(f) if matches!(f.sort, FuncSort::Local | FuncSort::Stable) => Shape::Closure,
            Type::Func(_) => Shape::SharedFunc,
            Type::Weak(t) => Shape::Weak(self.intern(t)),
            Type::Async(_) => Shape::Async,
            Type::Var(_) | Type::Con { .. } => Shape::Untyped,
        }
    }

    /// The field of record type `id` with label hash `hash`.
    pub fn field(&mut self, id: TypeId, hash: u32) -> Option<FieldShape> {
        match self.shape(id) {
            Shape::Record(fs) => fs
                .binary_search_by_key(&hash, |f| f.hash)
                .ok()
                .map(|i| fs[i].clone()),
            _ => None,
        }
    }

    /// The tag of variant type `id` with label hash `hash`.
    pub fn tag(&mut self, id: TypeId, hash: u32) -> Option<TagShape> {
        match self.shape(id) {
            Shape::Variant(ts) => ts
                .binary_search_by_key(&hash, |t| t.hash)
                .ok()
                .map(|i| ts[i].clone()),
            _ => None,
        }
    }

    /// The mo:core collection type `id` is, recognised by the exact field and tag names of
    /// the collection's record and node types.
    pub fn container(&mut self, id: TypeId) -> Option<Container> {
        let i = id as usize;
        if i >= self.entries.len() {
            return None;
        }
        if let Some(c) = self.entries[i].container {
            return c;
        }
        let c = self.recognise(id);
        self.entries[i].container = Some(c);
        c
    }

    fn recognise(&mut self, id: TypeId) -> Option<Container> {
        let fields = match self.shape(id) {
            Shape::Record(fs) => fs.clone(),
            _ => return None,
        };
        let mut names: Vec<(&str, bool)> = fields.iter().map(|f| (&*f.label, f.mutable)).collect();
        names.sort();
        let get = |name: &str| fields.iter().find(|f| &*f.label == name).map(|f| f.ty);
        match names[..] {
            [("root", true), ("size", true)] => {
                let node = get("root")?;
                let leaf = self.tag_named(node, "leaf")?;
                self.tag_named(node, "internal")?;
                let data = self.field_named(leaf, "data")?;
                if let Some(kvs) = self.field_named(data, "kvs") {
                    let entry = {
                        let e = self.array_elem(kvs)?;
                        self.opt_inner(e)?
                    };
                    match self.shape(entry) {
                        Shape::Tuple(ts) if ts.len() == 2 => Some(Container::Map {
                            key: ts[0],
                            value: ts[1],
                        }),
                        _ => None,
                    }
                } else {
                    let elems = self.field_named(data, "elements")?;
                    let elem = {
                        let e = self.array_elem(elems)?;
                        self.opt_inner(e)?
                    };
                    Some(Container::Set { elem })
                }
            }
            [("root", false), ("size", false)] => {
                let tree = get("root")?;
                self.tag_named(tree, "leaf")?;
                self.tag_named(tree, "black")?;
                let red = self.tag_named(tree, "red")?;
                match self.shape(red) {
                    Shape::Tuple(ts) if ts.len() == 4 => Some(Container::PureMap {
                        key: ts[1],
                        value: ts[2],
                    }),
                    Shape::Tuple(ts) if ts.len() == 3 => Some(Container::PureSet { elem: ts[1] }),
                    _ => None,
                }
            }
            [("blockIndex", true), ("blocks", true), ("elementIndex", true)] => {
                let blocks = get("blocks")?;
                let block = self.array_elem(blocks)?;
                let elem = {
                    let e = self.array_elem(block)?;
                    self.opt_inner(e)?
                };
                Some(Container::List { elem })
            }
            [("back", true), ("front", true), ("size", true)] => {
                let node = self.opt_inner(get("front")?)?;
                self.field_named(node, "next")?;
                let elem = self.field_named(node, "value")?;
                Some(Container::Queue { elem })
            }
            [("size", true), ("top", true)] => {
                let cell = self.opt_inner(get("top")?)?;
                match self.shape(cell) {
                    Shape::Tuple(ts) if ts.len() == 2 => Some(Container::Stack { elem: ts[0] }),
                    _ => None,
                }
            }
            _ => None,
        }
    }

    fn tag_named(&mut self, id: TypeId, name: &str) -> Option<TypeId> {
        match self.shape(id) {
            Shape::Variant(ts) => ts.iter().find(|t| &*t.label == name).map(|t| t.ty),
            _ => None,
        }
    }

    fn field_named(&mut self, id: TypeId, name: &str) -> Option<TypeId> {
        match self.shape(id) {
            Shape::Record(fs) => fs.iter().find(|f| &*f.label == name).map(|f| f.ty),
            _ => None,
        }
    }

    fn array_elem(&mut self, id: TypeId) -> Option<TypeId> {
        match self.shape(id) {
            Shape::Array { elem, .. } => Some(*elem),
            _ => None,
        }
    }

    fn opt_inner(&mut self, id: TypeId) -> Option<TypeId> {
        match self.shape(id) {
            Shape::Opt(t) => Some(*t),
            _ => None,
        }
    }

    /// The label of type `id`: a recognised collection (`Map<Nat, Text>`), else the name of
    /// a parameterless alias whose body it is (`Person`), else the type's text; alias names
    /// lose their `__NNN` suffix, and the label is at most
    /// [`MAX_LABEL_CHARS`](super::label::MAX_LABEL_CHARS) characters.
    pub fn label(&mut self, id: TypeId) -> Arc<str> {
        let i = id as usize;
        if i >= self.entries.len() {
            return self.entries[0]
                .label
                .clone()
                .unwrap_or_else(|| Arc::from("Any"));
        }
        if let Some(l) = &self.entries[i].label {
            return l.clone();
        }
        let label: Arc<str> = match self.container(id) {
            Some(c) => {
                let args: Vec<Arc<Type>> = c
                    .args()
                    .into_iter()
                    .map(|a| self.written(a).clone())
                    .collect();
                Arc::from(render_label(
                    &Arc::new(Type::Con {
                        name: Arc::from(c.name()),
                        args,
                    }),
                    &self.alias_names,
                ))
            }
            None => Arc::from(render_label(&self.entries[i].written, &self.alias_names)),
        };
        self.entries[i].label = Some(label.clone());
        label
    }
}

/// Whether the tree of `ty` has at most `max` nodes (counted with an explicit stack, stopping
/// at `max + 1`: shared parts are counted each time, as hashing visits them).
fn within_nodes(ty: &Type, max: usize) -> bool {
    let mut stack: Vec<&Type> = vec![ty];
    let mut seen = 0usize;
    while let Some(t) = stack.pop() {
        seen += 1;
        if seen > max {
            return false;
        }
        match t {
            Type::Prim(_) | Type::Var(_) => {}
            Type::Opt(t) | Type::Weak(t) | Type::Async(t) => stack.push(t),
            Type::Array { elem, .. } => stack.push(elem),
            Type::Tuple(ts) => stack.extend(ts.iter().map(|t| &**t)),
            Type::Con { args, .. } => stack.extend(args.iter().map(|t| &**t)),
            Type::Object { fields, .. } => stack.extend(fields.iter().map(|f| &*f.ty)),
            Type::Variant(tags) => stack.extend(tags.iter().map(|t| &*t.ty)),
            Type::Func(f) => {
                stack.push(&f.arg);
                stack.push(&f.result);
            }
        }
    }
    true
}
