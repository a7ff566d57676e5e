//! Plain data read straight from the heap into script values: the fast path of
//! [`super::lazy::LazyReader`] for the parts of a huge value (an array of ten thousand
//! small records, read while a script visits millions of them).
//!
//! A [`Plan`] is made once per element type: the record fields sorted by name with their
//! label hashes and interned names, so reading a record is one object read and one script
//! record, with no intermediate [`crate::heap::value::Value`] tree, no per-node type
//! normalization, no label hashing and no per-field name allocation.
//!
//! Exactness: a plan exists only for plain data (numbers, `Bool`, `Char`, `Text`, `Blob`,
//! `Principal`, options, tuples, arrays, records and variants of them, no collection that
//! has a natural view, no recursive type), and [`read`] gives either exactly the value
//! `to_script(Decoder::deep(v))` gives, with the same node count, depth and budget checks, or
//! `None` (any error, limit or cycle): the caller then decodes the old way, which reports
//! it. Tests compare both for every part of several fixtures
//! (`tests/it/script_direct_read.rs`).

use crate::heap::types::{ObjSort, Prim, Type, TypeEnv};
use crate::heap::value::{Decoder, LazyValue};
use crate::heap::{ArraySort, Body, Tag};
use crate::script::value::Value;
use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;
use std::sync::Arc;

/// Plans nested deeper than this are not made (recursive types, huge signatures): such
/// values are decoded the ordinary way. It also bounds [`read`]'s recursion, which follows
/// the plan, never the heap.
const MAX_PLAN_DEPTH: u32 = 24;

/// Plans with more nodes than this are not made (a bounded cost to make one).
const MAX_PLAN_NODES: u32 = 512;

/// How values of one type are read.
#[derive(Debug)]
pub enum Plan {
    /// `()`.
    Unit,
    /// `Nat`: small words inline, big ones through the decoder.
    Nat,
    /// `Int`: small words inline, big ones through the decoder.
    Int,
    /// `Text`.
    Text,
    /// Any other plain scalar, decoded by [`Decoder`] and converted.
    Prim(Prim),
    /// `?T`.
    Opt(Box<Plan>),
    /// A tuple of two or more.
    Tuple(Box<[Plan]>),
    /// `[T]` or `[var T]`.
    Array {
        /// Whether the array is `[var T]`.
        mutable: bool,
        /// The elements' plan.
        elem: Rc<Plan>,
        /// The elements' type.
        elem_ty: Arc<Type>,
    },
    /// A record (not an actor): fields sorted by name, as script records keep them.
    Record(Box<[FieldPlan]>),
    /// A variant.
    Variant(Box<[TagPlan]>),
}

/// One record field of a [`Plan::Record`].
#[derive(Debug)]
pub struct FieldPlan {
    /// The label's hash.
    pub hash: u32,
    /// Declared `var` (behind a MutBox).
    pub mutable: bool,
    /// The label.
    pub label: Rc<str>,
    /// The field's plan.
    pub plan: Rc<Plan>,
    /// The field's type.
    pub ty: Arc<Type>,
}

/// One tag of a [`Plan::Variant`].
#[derive(Debug)]
pub struct TagPlan {
    hash: u32,
    label: Rc<str>,
    plan: Plan,
}

/// A type (kept so that its address is not reused) and its plan, if it has one.
type KnownPlan = (Arc<Type>, Option<Rc<Plan>>);

/// Plans made so far, by the address of the (not normalized) type they were made for; the
/// type is kept so that its address is not reused. At most [`Plans::MAX`] are kept.
#[derive(Default)]
pub struct Plans {
    by_type: RefCell<HashMap<usize, KnownPlan>>,
    labels: RefCell<HashMap<Arc<str>, Rc<str>>>,
}

impl Plans {
    const MAX: usize = 1024;

    /// The plan for values of type `ty` (`None`: not plain data, decode the ordinary way).
    pub fn plan(&self, env: &TypeEnv, ty: &Arc<Type>) -> Option<Rc<Plan>> {
        let key = Arc::as_ptr(ty) as *const () as usize;
        if let Some((_, p)) = self.by_type.borrow().get(&key) {
            return p.clone();
        }
        let mut nodes = 0;
        let plan = self.make(env, ty, 0, &mut nodes).map(Rc::new);
        let mut by_type = self.by_type.borrow_mut();
        if by_type.len() < Self::MAX {
            by_type.insert(key, (ty.clone(), plan.clone()));
        }
        plan
    }

    fn label(&self, label: &Arc<str>) -> Rc<str> {
        if let Some(l) = self.labels.borrow().get(label) {
            return l.clone();
        }
        let l: Rc<str> = Rc::from(&**label);
        self.labels.borrow_mut().insert(label.clone(), l.clone());
        l
    }

    fn make(&self, env: &TypeEnv, ty: &Arc<Type>, depth: u32, nodes: &mut u32) -> Option<Plan> {
        *nodes += 1;
        if depth > MAX_PLAN_DEPTH || *nodes > MAX_PLAN_NODES {
            return None;
        }
        let ty = env.normalize(ty).ok()?;
        if crate::heap::collections::recognize(env, &ty).is_some() {
            return None;
        }
        let mut sub = |t: &Arc<Type>| self.make(env, t, depth + 1, nodes);
        Some(match &*ty {
            Type::Prim(Prim::Nat) => Plan::Nat,
            Type::Prim(Prim::Int) => Plan::Int,
            Type::Prim(Prim::Text) => Plan::Text,
            Type::Prim(
                p @ (Prim::Bool
                | Prim::Nat8
                | Prim::Nat16
                | Prim::Nat32
                | Prim::Nat64
                | Prim::Int8
                | Prim::Int16
                | Prim::Int32
                | Prim::Int64
                | Prim::Char
                | Prim::Float
                | Prim::Blob
                | Prim::Principal
                | Prim::Null),
            ) => Plan::Prim(*p),
            Type::Tuple(ts) if ts.is_empty() => Plan::Unit,
            Type::Tuple(ts) => Plan::Tuple(ts.iter().map(&mut sub).collect::<Option<_>>()?),
            Type::Opt(inner) => Plan::Opt(Box::new(sub(inner)?)),
            Type::Array { mutable, elem } => Plan::Array {
                mutable: *mutable,
                elem: Rc::new(sub(elem)?),
                elem_ty: elem.clone(),
            },
            Type::Object { sort, fields } if *sort != ObjSort::Actor => {
                let mut out = Vec::with_capacity(fields.len());
                for f in fields.iter() {
                    out.push(FieldPlan {
                        hash: f.hash,
                        mutable: f.mutable,
                        label: self.label(&f.label),
                        plan: Rc::new(sub(&f.ty)?),
                        ty: f.ty.clone(),
                    });
                }
                // Script records keep their fields sorted by name (`Value::record`).
                out.sort_by(|a, b| a.label.cmp(&b.label));
                if out.windows(2).any(|w| w[0].label == w[1].label) {
                    return None;
                }
                Plan::Record(out.into())
            }
            Type::Variant(tags) => {
                let mut out = Vec::with_capacity(tags.len());
                for t in tags.iter() {
                    out.push(TagPlan {
                        hash: t.hash,
                        label: self.label(&t.label),
                        plan: sub(&t.ty)?,
                    });
                }
                Plan::Variant(out.into())
            }
            _ => return None,
        })
    }
}

/// What one [`read`] produced: the value and its size as [`super::value_bytes`]
/// counts it.
pub struct Read {
    /// The script value.
    pub value: Value,
    /// [`super::value_bytes`] of `value`, counted while reading.
    pub bytes: u64,
    /// The heap address of the value's own object (none for scalars and unboxed options).
    pub addr: Option<u64>,
}

/// Reads `lazy` (of a type whose plan is `plan`) completely into a script value, exactly as
/// `to_script(d.deep(lazy))` would, within `d`'s node, depth and work limits; `None` on any
/// error, limit or cycle (the caller decodes the ordinary way, which reports it).
pub fn read(d: &mut Decoder<'_>, plan: &Plan, lazy: &LazyValue) -> Option<Read> {
    read_word(d, plan, lazy.word)
}

/// [`read`] of the value in heap word `word`.
pub fn read_word(d: &mut Decoder<'_>, plan: &Plan, word: u64) -> Option<Read> {
    let mut r = Reader {
        d,
        nodes: 1,
        bytes: 0,
        path: Vec::new(),
        root: None,
    };
    let value = r.value(plan, word, 0).ok()?;
    Some(Read {
        value,
        bytes: r.bytes,
        addr: r.root,
    })
}

/// Why a read stopped: the ordinary decoder will say exactly (nothing is kept here).
struct Stop;

struct Reader<'a, 'h> {
    d: &'a mut Decoder<'h>,
    nodes: u64,
    bytes: u64,
    /// Addresses of the compounds being read (the deep decoder's cycle check).
    path: Vec<u64>,
    root: Option<u64>,
}

impl Reader<'_, '_> {
    /// Counts one more node at `depth` under `parent`, as the deep decoder does.
    fn child(&mut self, depth: u32, parent: u64) -> Result<(), Stop> {
        self.d.limits.check_depth(depth, parent).map_err(|_| Stop)?;
        self.nodes += 1;
        if self.nodes > self.d.max_nodes {
            return Err(Stop);
        }
        Ok(())
    }

    /// Notes the root's address (the address `to_script` records for it).
    fn root(&mut self, depth: u32, addr: u64) {
        if depth == 0 {
            self.root = Some(addr);
        }
    }

    /// Enters compound `addr` (with parts): a cycle stops the read.
    fn enter(&mut self, addr: u64) -> Result<(), Stop> {
        if self.path.contains(&addr) {
            return Err(Stop);
        }
        self.path.push(addr);
        Ok(())
    }

    fn value(&mut self, plan: &Plan, word: u64, depth: u32) -> Result<Value, Stop> {
        // `Decoder::shallow`'s step for this node.
        self.d.budget.spend(1, word).map_err(|_| Stop)?;
        let v = match plan {
            Plan::Unit => Value::Unit,
            Plan::Nat | Plan::Int if !self.d.heap.is_pointer(word) => {
                let n = self.d.heap.scalars().nat_int(word).ok_or(Stop)?;
                match plan {
                    Plan::Nat => Value::Nat(u64::try_from(n).map_err(|_| Stop)?),
                    _ => Value::Int(n),
                }
            }
            Plan::Nat => self.scalar(Prim::Nat, word)?,
            Plan::Int => self.scalar(Prim::Int, word)?,
            Plan::Prim(p) => self.scalar(*p, word)?,
            Plan::Text => Value::Text(Rc::from(self.d.text(word).map_err(|_| Stop)?)),
            Plan::Opt(inner) => self.opt(inner, word, depth)?,
            Plan::Tuple(parts) => {
                let (addr, elems) = self.array(word, ArraySort::may_be_tuple)?;
                if elems.len() != parts.len() {
                    return Err(Stop);
                }
                self.enter(addr)?;
                let mut out = Vec::with_capacity(parts.len());
                for (w, p) in elems.iter().zip(parts.iter()) {
                    self.child(depth + 1, addr)?;
                    out.push(self.value(p, *w, depth + 1)?);
                }
                self.path.pop();
                self.root(depth, addr);
                if out.len() == 1 {
                    // `to_script` shows a one-part tuple as its part.
                    return Ok(out.pop().unwrap_or_default());
                }
                Value::Tuple(out.into())
            }
            Plan::Array { mutable, elem, .. } => {
                let (addr, elems) = self.array(word, ArraySort::may_be_array)?;
                if !elems.is_empty() {
                    self.enter(addr)?;
                }
                // room for the elements the node limit lets through, not what the header claims
                let room = self.d.max_nodes.saturating_sub(self.nodes);
                let mut out = Vec::with_capacity(
                    elems.len().min(usize::try_from(room).unwrap_or(usize::MAX)),
                );
                for w in elems {
                    self.child(depth + 1, addr)?;
                    out.push(self.value(elem, w, depth + 1)?);
                }
                if !out.is_empty() {
                    self.path.pop();
                }
                self.root(depth, addr);
                if *mutable {
                    Value::VarArray(Rc::new(RefCell::new(out)))
                } else {
                    Value::Array(out.into())
                }
            }
            Plan::Record(fields) => self.record(fields, word, depth)?,
            Plan::Variant(tags) => {
                if !self.d.heap.is_pointer(word) {
                    return Err(Stop);
                }
                let o = self.d.obj(word).map_err(|_| Stop)?;
                let Body::Variant { hash, payload } = o.body else {
                    return Err(Stop);
                };
                let tag = tags.iter().find(|t| t.hash == hash).ok_or(Stop)?;
                self.enter(o.addr)?;
                self.child(depth + 1, o.addr)?;
                let p = self.value(&tag.plan, payload, depth + 1)?;
                self.path.pop();
                self.root(depth, o.addr);
                Value::Variant(Rc::new((tag.label.clone(), p)))
            }
        };
        self.bytes = self
            .bytes
            .saturating_add(crate::script::value::show::own_size(&v));
        Ok(v)
    }

    /// A scalar through the decoder, converted as `to_script` converts it.
    fn scalar(&mut self, p: Prim, word: u64) -> Result<Value, Stop> {
        let v = self.d.prim(p, word).map_err(|_| Stop)?;
        super::convert::scalar_to_script(&v).ok_or(Stop)
    }

    /// `?T`: `Decoder::shallow`'s three cases (null, a Some box, an unboxed value).
    fn opt(&mut self, inner: &Plan, word: u64, depth: u32) -> Result<Value, Stop> {
        let d = &mut *self.d;
        if d.heap.is_null(word).map_err(|_| Stop)? {
            return Ok(Value::Null);
        }
        let boxed =
            d.heap.is_pointer(word) && d.heap.object_of(word).map_err(|_| Stop)?.tag == Tag::Some;
        let (addr, value) = if boxed {
            let o = d.obj(word).map_err(|_| Stop)?;
            let Body::Some { value } = o.body else {
                return Err(Stop);
            };
            (Some(o.addr), value)
        } else {
            (None, word)
        };
        if let Some(a) = addr {
            self.enter(a)?;
        }
        // The deep decoder names the option's own address, or the word for an unboxed one.
        self.child(depth + 1, addr.unwrap_or(word))?;
        let v = self.value(inner, value, depth + 1)?;
        if let Some(a) = addr {
            self.path.pop();
            self.root(depth, a);
        }
        Ok(Value::Opt(Rc::new(v)))
    }

    fn record(&mut self, fields: &[FieldPlan], word: u64, depth: u32) -> Result<Value, Stop> {
        if !self.d.heap.is_pointer(word) {
            return Err(Stop);
        }
        let o = self.d.obj(word).map_err(|_| Stop)?;
        let Body::Object {
            hashes,
            fields: words,
            ..
        } = o.body
        else {
            return Err(Stop);
        };
        self.d.budget.spend(words.len(), o.addr).map_err(|_| Stop)?;
        if !fields.is_empty() {
            self.enter(o.addr)?;
        }
        let mut out = Vec::with_capacity(fields.len());
        for f in fields.iter() {
            let w = hashes
                .position(f.hash)
                .and_then(|i| words.get(i as u64))
                .ok_or(Stop)?;
            let w = if f.mutable {
                self.d.mutbox(w).map_err(|_| Stop)?
            } else {
                w
            };
            self.child(depth + 1, o.addr)?;
            out.push(crate::script::value::Field {
                name: f.label.clone(),
                mutable: false,
                value: RefCell::new(self.value(&f.plan, w, depth + 1)?),
            });
        }
        if !fields.is_empty() {
            self.path.pop();
        }
        self.root(depth, o.addr);
        Ok(Value::Record(Rc::new(crate::script::value::Record {
            fields: out,
            module: false,
        })))
    }

    /// The address and element words of an array whose sort satisfies `ok`, with
    /// `Decoder::array`'s budget.
    fn array(
        &mut self,
        word: u64,
        ok: impl Fn(ArraySort) -> bool,
    ) -> Result<(u64, Vec<u64>), Stop> {
        if !self.d.heap.is_pointer(word) {
            return Err(Stop);
        }
        let o = self.d.obj(word).map_err(|_| Stop)?;
        match o.body {
            Body::Array { sort, elems, .. } if ok(sort) => {
                self.d.budget.spend(elems.len(), o.addr).map_err(|_| Stop)?;
                Ok((o.addr, elems.iter().collect()))
            }
            _ => Err(Stop),
        }
    }
}
