//! Streaming renderings of heap values: the JSON ([`stream_json`]) and `debug_show`
//! ([`stream_debug_show`]) texts of a value read from the heap as they are written, into any
//! [`Write`] sink, so a huge value (a map of a million entries) is never decoded whole.
//!
//! The bytes are those of [`super::write_json`] and [`super::write_debug_show`] over
//! [`Decoder::deep`]'s decoding (one contract, checked by a test on every fixture variable):
//! the walk decodes one level at a time in the same order as `deep` does (the same cycles
//! found on the path, the same depth and node limits), with an explicit stack (no recursion
//! whose depth comes from the heap), and a collection's natural view is read entry by entry
//! ([`EntryWalk`]). Memory is bounded by the stack (one frame per level) and, per level, by
//! the parts of one record or tuple (an array's elements are read one at a time). One
//! difference: values the JSON cuts (past [`super::MAX_JSON_NODES`] or
//! [`super::MAX_JSON_DEPTH`]) are not decoded, so their errors or limits are not met.
//!
//! A part that is a number, boolean, character or text is written straight from its heap
//! words into the output ([`super::stream_leaf`]: digits, a text's bytes escaped from its
//! blob), with no value built, and a `mo:core` Map's entries and B-tree nodes are read from
//! their words by [`EntryWalk`]: a million-entry map renders at tens of MB/s.

use std::collections::HashSet;
use std::hash::{BuildHasherDefault, Hasher};
use std::io::Write;
use std::sync::Arc;

use super::json::{opens_level, some_wrapped};
use super::motoko::{opening, Opening};
use super::shape::{FloatStyle, Shown};
use super::stream_leaf::{leaf_prim, leaf_prim_of, write_leaf, LeafError, LeafFormat};
use super::{json_string, MAX_JSON_NODES};
use super::{write_debug_show_as, write_json_as, CUT_JSON, DEEP_JSON, MAX_JSON_DEPTH};
use crate::heap::collections::{map_slot_parts, EntryWalk, Item, RawEntry, RawNext};
use crate::heap::types::{Prim, Type};
use crate::heap::value::{DecodeError, Decoder, LazyValue, Value};
use crate::heap::Body;
use crate::image::{ImageError, LimitKind};

/// Why a streamed rendering stopped.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum StreamError {
    /// The value could not be decoded (corruption or a reader limit).
    #[error(transparent)]
    Decode(#[from] DecodeError),
    /// The sink refused the bytes.
    #[error("writing the rendering: {0}")]
    Write(#[from] std::io::Error),
}

/// Writes the JSON text of `root` to `out` (collections as their natural views when
/// `decoder` has them on), byte for byte as [`super::write_json`] of `decoder.deep(root)`.
pub fn stream_json(
    decoder: &mut Decoder<'_>,
    root: &LazyValue,
    out: &mut dyn Write,
) -> Result<(), StreamError> {
    let format = Format::Json {
        depth: 0,
        budget: MAX_JSON_NODES,
    };
    Walk::new(decoder, format, out).run(root)
}

/// Writes the `debug_show` text of `root` to `out`, `Float`s in `floats` style, byte for
/// byte as [`super::write_debug_show_as`] of `decoder.deep(root)` (the decoder should have
/// natural views off: `debug_show` prints the structure).
pub fn stream_debug_show(
    decoder: &mut Decoder<'_>,
    root: &LazyValue,
    floats: FloatStyle,
    out: &mut dyn Write,
) -> Result<(), StreamError> {
    Walk::new(decoder, Format::Motoko(floats), out).run(root)
}

/// Which text is written, and the JSON's nesting and value budget.
enum Format {
    Json { depth: usize, budget: usize },
    Motoko(FloatStyle),
}

/// A value of the walk decoded one level (its parts not decoded yet).
enum Node {
    /// A value as [`Decoder::shallow`] gives it (or a cycle's back-reference, or a part
    /// built with lazy parts of its own: a natural view's entry tuple).
    Value(Value),
    /// A collection's natural view (an immutable array of its items) at the collection's
    /// object `addr`, with its first item read ahead (to know whether it is empty).
    Collection {
        addr: u64,
        walk: EntryWalk,
        first: Option<Item>,
    },
    /// An array, its elements read one at a time as they are written (an array of millions
    /// is never held as a vector of its elements); `shell` is the array without its
    /// elements, what the writers' one-level looks see (they never look at its items).
    Array { shell: Value, elements: Elements },
}

/// An array's elements, read from the heap by position.
struct Elements {
    /// The address of element 0.
    first: u64,
    /// The number of elements.
    len: u64,
    /// The type of every element.
    ty: Arc<Type>,
}

/// A node with where it is: `deep`'s depth, and the address to take off the path when done.
struct Resolved {
    node: Node,
    depth: u32,
    on_path: Option<u64>,
}

/// An empty immutable array: what the writers' one-level looks see of a natural view.
static COLLECTION_PEEK: Value = Value::Array {
    addr: 0,
    mutable: false,
    items: Vec::new(),
};

impl Resolved {
    /// The node's top level as the existing writers inspect it (a natural view as an array).
    fn peek(&self) -> &Value {
        match &self.node {
            Node::Value(v) | Node::Array { shell: v, .. } => v,
            Node::Collection { .. } => &COLLECTION_PEEK,
        }
    }
}

/// The parts of a node being written, and how they are joined.
enum Parts {
    /// Record fields: each written after its label.
    Fields(std::vec::IntoIter<(Arc<str>, Value)>),
    /// Tuple or array elements, closure captures.
    Items(std::vec::IntoIter<Value>),
    /// The one part of an option, variant or weak reference, read ahead.
    One(Option<Resolved>),
    /// An array's elements from position `next` on.
    Elements { elements: Elements, next: u64 },
    /// A collection's items, the first one read ahead.
    Walk {
        walk: EntryWalk,
        first: Option<Item>,
        /// How a map's entries of two leaves are written from their words (see
        /// [`Walk::write_raw_entries`]), for the slot type met last.
        plan: Option<EntryPlan>,
    },
}

/// A map's entries whose key and value are both leaves ([`leaf_prim`]), for one slot type
/// `?(K, V)`: written from the entries' words.
struct EntryPlan {
    slot_ty: Arc<Type>,
    key: Prim,
    value: Prim,
}

/// The path's set of object addresses, hashed by one multiplication: the walk inserts and
/// removes an address for every compound part (a million for a map's entries), and SipHash
/// cost more than the rest of an entry's bookkeeping. The set never holds more addresses
/// than the depth limit allows levels, so colliding addresses cost little.
type PathSet = HashSet<u64, BuildHasherDefault<AddrHasher>>;

/// The hasher of [`PathSet`].
#[derive(Default)]
struct AddrHasher(u64);

impl Hasher for AddrHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(self.0 ^ u64::from(b));
        }
    }

    fn write_u64(&mut self, n: u64) {
        let x = (self.0 ^ n).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        self.0 = x ^ (x >> 29);
    }
}

/// One level of the walk: a container being written.
struct Frame {
    depth: u32,
    /// The node's own address (for `deep`'s depth errors).
    addr: Option<u64>,
    /// The address to take off the path when the frame ends.
    on_path: Option<u64>,
    parts: Parts,
    /// Parts written so far.
    written: usize,
    /// Written between two parts.
    separator: &'static str,
    /// Written at the end (for JSON, it closes as many levels as it has characters).
    close: &'static str,
}

/// A part to write: not decoded yet (with its label), or already read ahead.
enum Part {
    Pending(Option<Arc<str>>, Value),
    Ready(Resolved),
    /// A map's entry: the tuple `(key, value)` of its natural view, not built yet.
    Entry {
        addr: u64,
        key: LazyValue,
        value: LazyValue,
    },
}

/// One streamed rendering: the decoder, the output, and `deep`'s bookkeeping.
struct Walk<'d, 'h, 'o> {
    decoder: &'d mut Decoder<'h>,
    format: Format,
    out: std::io::BufWriter<&'o mut dyn Write>,
    /// Addresses of the compound objects on the path from the root (`deep`'s cycles).
    path: PathSet,
    /// Values decoded so far (`deep`'s node limit).
    nodes: u64,
    /// Reused by leaves written through the general writers.
    scratch: String,
}

impl<'d, 'h, 'o> Walk<'d, 'h, 'o> {
    fn new(decoder: &'d mut Decoder<'h>, format: Format, out: &'o mut dyn Write) -> Self {
        Walk {
            decoder,
            format,
            out: std::io::BufWriter::with_capacity(1 << 16, out),
            path: PathSet::default(),
            nodes: 1,
            scratch: String::new(),
        }
    }

    fn run(mut self, root: &LazyValue) -> Result<(), StreamError> {
        let node = self.decode(root)?;
        // `deep` puts the root's object on the path whatever it holds.
        let on_path = match &node {
            Node::Value(v) | Node::Array { shell: v, .. } => v.addr(),
            Node::Collection { addr, .. } => Some(*addr),
        };
        if let Some(a) = on_path {
            self.path.insert(a);
        }
        let root = Resolved {
            node,
            depth: 0,
            on_path,
        };
        let mut stack: Vec<Frame> = Vec::new();
        if let Some(frame) = self.visit(root)? {
            stack.push(frame);
        }
        while let Some(top) = stack.last_mut() {
            self.write_raw_entries(top)?;
            let next = match &mut top.parts {
                Parts::Fields(fields) => fields.next().map(|(l, v)| Part::Pending(Some(l), v)),
                Parts::Items(items) => items.next().map(|v| Part::Pending(None, v)),
                Parts::One(one) => one.take().map(Part::Ready),
                Parts::Elements { elements, next } => {
                    let element = self.element(elements, *next)?;
                    *next += 1;
                    element.map(|v| Part::Pending(None, v))
                }
                Parts::Walk { walk, first, .. } => {
                    let item = match first.take() {
                        Some(item) => Some(item),
                        None => walk.next_item(self.decoder).transpose()?,
                    };
                    item.map(|item| match item {
                        Item::Entry { addr, key, value } => Part::Entry { addr, key, value },
                        item => Part::Pending(None, item.into_value()),
                    })
                }
            };
            let Some(part) = next else {
                if let Some(done) = stack.pop() {
                    self.close(done.close)?;
                    self.leave(done.on_path);
                }
                continue;
            };
            if top.written > 0 {
                self.out.write_all(top.separator.as_bytes())?;
            }
            top.written += 1;
            let (depth, addr) = (top.depth, top.addr);
            let resolved = match part {
                Part::Ready(r) => Some(r),
                Part::Entry {
                    addr: entry,
                    key,
                    value,
                } => {
                    if self.entry_of_leaves(depth, entry, &key, &value)? {
                        continue;
                    }
                    let v = Item::Entry {
                        addr: entry,
                        key,
                        value,
                    }
                    .into_value();
                    if self.is_cut() {
                        None
                    } else {
                        Some(self.resolve(v, depth, addr)?)
                    }
                }
                Part::Pending(label, v) => {
                    if let Some(label) = label {
                        self.label(&label)?;
                    }
                    if self.is_cut() {
                        None
                    } else if self.leaf(&v, depth, addr)? {
                        continue;
                    } else {
                        Some(self.resolve(v, depth, addr)?)
                    }
                }
            };
            match resolved {
                None => self.out.write_all(CUT_JSON.as_bytes())?,
                Some(r) => {
                    if let Some(frame) = self.visit(r)? {
                        stack.push(frame);
                    }
                }
            }
        }
        self.out.flush()?;
        Ok(())
    }

    /// A record field's label, before its value.
    fn label(&mut self, label: &str) -> Result<(), StreamError> {
        match self.format {
            Format::Json { .. } => {
                self.out.write_all(json_string(label).as_bytes())?;
                self.out.write_all(b":")?;
            }
            Format::Motoko(_) => {
                self.out.write_all(label.as_bytes())?;
                self.out.write_all(b" = ")?;
            }
        }
        Ok(())
    }

    /// Whether the JSON budget is spent (every further value is `{"cut":null}`).
    fn is_cut(&self) -> bool {
        matches!(self.format, Format::Json { budget: 0, .. })
    }

    fn close(&mut self, close: &'static str) -> Result<(), StreamError> {
        self.out.write_all(close.as_bytes())?;
        if let Format::Json { depth, .. } = &mut self.format {
            *depth = depth.saturating_sub(close.len());
        }
        Ok(())
    }

    /// Takes a finished node off the path.
    fn leave(&mut self, on_path: Option<u64>) {
        if let Some(a) = on_path {
            self.path.remove(&a);
        }
    }

    /// One level of `v` (a collection as its walk when natural views are on), as
    /// [`Decoder::shallow`] decodes it.
    fn decode(&mut self, v: &LazyValue) -> Result<Node, StreamError> {
        if self.decoder.natural() && v.ty.is_some() {
            if let Some(ty) = self.decoder.type_of(v)? {
                if let Some(kind) = crate::heap::collections::recognize(self.decoder.env, &ty) {
                    self.decoder
                        .budget
                        .spend(1, v.word)
                        .map_err(DecodeError::from)?;
                    let addr = self.decoder.heap().pointer(v.word).unwrap_or(0);
                    let mut walk = EntryWalk::new(LazyValue::typed(v.word, ty), kind);
                    let first = walk.next_item(self.decoder).transpose()?;
                    return Ok(Node::Collection { addr, walk, first });
                }
            }
        }
        if let Some(node) = self.array(v)? {
            return Ok(node);
        }
        Ok(Node::Value(self.decoder.shallow(v)?))
    }

    /// `v` as an [`Node::Array`] when its type is an array's (no collection): the checks and
    /// the budget of [`Decoder::shallow`] for it, without a vector of its elements; `None`
    /// for any other value (and for a type that does not normalise: `shallow` reports it).
    fn array(&mut self, v: &LazyValue) -> Result<Option<Node>, StreamError> {
        let Some(ty) = &v.ty else {
            return Ok(None);
        };
        let Ok(ty) = self.decoder.env.normalize(ty) else {
            return Ok(None);
        };
        let Type::Array { mutable, elem } = &*ty else {
            return Ok(None);
        };
        if crate::heap::collections::recognize(self.decoder.env, &ty).is_some() {
            return Ok(None);
        }
        let word = v.word;
        self.decoder
            .budget
            .spend(1, word)
            .map_err(DecodeError::from)?;
        if !self.decoder.heap().is_pointer(word) {
            return Err(self.decoder.mismatch(word, &ty.to_string()).into());
        }
        let o = self.decoder.obj(word)?;
        let Body::Array { sort, elems, .. } = o.body else {
            return Err(self.decoder.mismatch(word, &ty.to_string()).into());
        };
        if !sort.may_be_array() {
            return Err(self.decoder.mismatch(word, &ty.to_string()).into());
        }
        self.decoder
            .budget
            .spend(elems.len(), o.addr)
            .map_err(DecodeError::from)?;
        let shell = Value::Array {
            addr: o.addr,
            mutable: *mutable,
            items: Vec::new(),
        };
        let elements = Elements {
            first: elems.addr(),
            len: elems.len(),
            ty: elem.clone(),
        };
        Ok(Some(Node::Array { shell, elements }))
    }

    /// Element `i` of `elements` as [`Decoder::shallow`] gives it (`None` past the end).
    fn element(&mut self, elements: &Elements, i: u64) -> Result<Option<Value>, StreamError> {
        if i >= elements.len {
            return Ok(None);
        }
        let image = self.decoder.heap().image();
        let step = image.word_size().bytes();
        let word = image
            .read_word(elements.first.wrapping_add(i.wrapping_mul(step)))
            .map_err(DecodeError::from)?;
        Ok(Some(Value::Lazy(LazyValue {
            word,
            ty: Some(elements.ty.clone()),
        })))
    }

    /// Writes part `v` of a node at `parent_depth` (object `parent_addr`) when it is a leaf
    /// [`write_leaf`] writes straight from the heap, with `resolve`'s checks and counts and
    /// `visit`'s JSON budget; `false`: not such a leaf, nothing done.
    fn leaf(
        &mut self,
        v: &Value,
        parent_depth: u32,
        parent_addr: Option<u64>,
    ) -> Result<bool, StreamError> {
        let Value::Lazy(lazy) = v else {
            return Ok(false);
        };
        let Some(p) = leaf_prim(self.decoder, lazy) else {
            return Ok(false);
        };
        self.write_leaf_part(lazy.word, p, parent_depth, parent_addr)?;
        Ok(true)
    }

    /// A map's entry (its natural view's tuple `(key, value)` at `addr`, a part of a node at
    /// `parent_depth`) written as `[key,value]` straight from the heap when the JSON is
    /// being written and both are leaves (`false`: not so, nothing done): the checks,
    /// counts, cuts and path of `resolve`, `visit` and [`Walk::leaf`] for that tuple.
    fn entry_of_leaves(
        &mut self,
        parent_depth: u32,
        addr: u64,
        key: &LazyValue,
        value: &LazyValue,
    ) -> Result<bool, StreamError> {
        if !matches!(self.format, Format::Json { .. }) {
            return Ok(false);
        }
        let (Some(key_prim), Some(value_prim)) =
            (leaf_prim(self.decoder, key), leaf_prim(self.decoder, value))
        else {
            return Ok(false);
        };
        let entry = RawEntry {
            addr,
            key: key.word,
            value: value.word,
        };
        self.entry_words(parent_depth, entry, key_prim, value_prim)?;
        Ok(true)
    }

    /// Writes the JSON `[key,value]` of a map's entry whose key and value are leaves of
    /// primitive types `key_prim` and `value_prim` (see [`Walk::entry_of_leaves`]).
    fn entry_words(
        &mut self,
        parent_depth: u32,
        entry: RawEntry,
        key_prim: Prim,
        value_prim: Prim,
    ) -> Result<(), StreamError> {
        let addr = entry.addr;
        if self.is_cut() {
            self.out.write_all(CUT_JSON.as_bytes())?;
            return Ok(());
        }
        let depth = parent_depth + 1;
        self.decoder
            .limits
            .check_depth(depth, addr)
            .map_err(DecodeError::from)?;
        if let Format::Json {
            depth: level,
            budget,
        } = &mut self.format
        {
            *budget -= 1;
            if *level >= MAX_JSON_DEPTH {
                self.out.write_all(DEEP_JSON.as_bytes())?;
                self.leave(Some(addr));
                return Ok(());
            }
            *level += 1;
        }
        self.out.write_all(b"[")?;
        for (i, (word, p)) in [(entry.key, key_prim), (entry.value, value_prim)]
            .into_iter()
            .enumerate()
        {
            if i > 0 {
                self.out.write_all(b",")?;
            }
            if self.is_cut() {
                self.out.write_all(CUT_JSON.as_bytes())?;
            } else {
                self.write_leaf_part(word, p, depth, Some(addr))?;
            }
        }
        self.close("]")?;
        self.leave(Some(addr));
        Ok(())
    }

    /// Writes the parts of `frame` (a collection's walk, with nothing read ahead) that are
    /// a map's entries of two leaves, straight from their words ([`EntryWalk::next_raw_entry`]
    /// and [`Walk::entry_words`]: the same reads, checks, counts and bytes as the general
    /// loop's [`Walk::entry_of_leaves`]), until the next part is anything else.
    fn write_raw_entries(&mut self, frame: &mut Frame) -> Result<(), StreamError> {
        if !matches!(self.format, Format::Json { .. }) {
            return Ok(());
        }
        let Parts::Walk { walk, first, plan } = &mut frame.parts else {
            return Ok(());
        };
        if first.is_some() {
            return Ok(());
        }
        loop {
            let Some(slot_ty) = walk.queued_slot_type() else {
                return Ok(());
            };
            if !plan
                .as_ref()
                .is_some_and(|p| Arc::ptr_eq(&p.slot_ty, slot_ty))
            {
                *plan = entry_plan(self.decoder, slot_ty);
            }
            let Some(p) = plan.as_ref() else {
                return Ok(());
            };
            let (key, value) = (p.key, p.value);
            let entry = match walk.next_raw_entry(self.decoder, &p.slot_ty)? {
                RawNext::Entry(entry) => entry,
                RawNext::Other => return Ok(()),
            };
            if frame.written > 0 {
                self.out.write_all(frame.separator.as_bytes())?;
            }
            frame.written += 1;
            self.entry_words(frame.depth, entry, key, value)?;
        }
    }

    /// Counts one more node at `depth` (object `addr`, for errors) against the depth and
    /// node limits.
    fn count_node(&mut self, depth: u32, addr: u64) -> Result<(), StreamError> {
        self.decoder
            .limits
            .check_depth(depth, addr)
            .map_err(DecodeError::from)?;
        self.nodes += 1;
        if self.nodes > self.decoder.max_nodes {
            return Err(DecodeError::from(ImageError::Limit {
                kind: LimitKind::Objects,
                max: self.decoder.max_nodes,
                addr,
            })
            .into());
        }
        Ok(())
    }

    /// Writes the leaf `word` of primitive type `p`, a part of a node at `parent_depth`
    /// (object `parent_addr`), with `resolve`'s checks and counts and `visit`'s JSON budget.
    fn write_leaf_part(
        &mut self,
        word: u64,
        p: Prim,
        parent_depth: u32,
        parent_addr: Option<u64>,
    ) -> Result<(), StreamError> {
        let addr = parent_addr.unwrap_or(word);
        self.count_node(parent_depth + 1, addr)?;
        let format = match &mut self.format {
            Format::Json { budget, .. } => {
                *budget -= 1;
                LeafFormat::Json
            }
            Format::Motoko(floats) => LeafFormat::Motoko(*floats),
        };
        write_leaf(
            self.decoder,
            p,
            word,
            format,
            &mut self.out,
            &mut self.scratch,
        )
        .map_err(|e| match e {
            LeafError::Decode(e) => StreamError::Decode(e),
            LeafError::Write(e) => StreamError::Write(e),
        })
    }

    /// Decodes part `v` of a node at `parent_depth` (object `parent_addr`) as `deep` does:
    /// depth and node limits, and a compound whose object is already on the path becomes its
    /// back-reference.
    fn resolve(
        &mut self,
        v: Value,
        parent_depth: u32,
        parent_addr: Option<u64>,
    ) -> Result<Resolved, StreamError> {
        let depth = parent_depth + 1;
        let mut v = v;
        let compound = v.child_count() > 0;
        let lazy = match &mut v {
            Value::Lazy(lazy) => std::mem::replace(lazy, LazyValue::untyped(0)),
            // A part built with lazy parts of its own (a natural view's entry tuple): `deep`
            // checks its depth, neither counts it nor puts it on the path, but takes its
            // address off the path when done.
            _ if compound => {
                let addr = v.addr();
                self.decoder
                    .limits
                    .check_depth(depth, addr.unwrap_or(0))
                    .map_err(DecodeError::from)?;
                return Ok(Resolved {
                    node: Node::Value(v),
                    depth,
                    on_path: addr,
                });
            }
            _ => {
                return Ok(Resolved {
                    node: Node::Value(v),
                    depth,
                    on_path: None,
                })
            }
        };
        let addr = parent_addr.unwrap_or(lazy.word);
        self.count_node(depth, addr)?;
        let mut node = self.decode(&lazy)?;
        let compound = match &node {
            Node::Value(v) => v.addr().filter(|_| v.child_count() > 0),
            Node::Array { shell, elements } => shell.addr().filter(|_| elements.len > 0),
            Node::Collection { addr, first, .. } => first.as_ref().map(|_| *addr),
        };
        let mut on_path = None;
        if let Some(a) = compound {
            if self.path.contains(&a) {
                node = Node::Value(Value::Cycle { addr: a });
            } else {
                self.path.insert(a);
                on_path = Some(a);
            }
        }
        Ok(Resolved {
            node,
            depth,
            on_path,
        })
    }

    /// Writes a node's own text and returns the frame of its parts (if it has any to write).
    fn visit(&mut self, r: Resolved) -> Result<Option<Frame>, StreamError> {
        let depth = r.depth;
        let on_path = r.on_path;
        let (open, frame) = match self.format {
            Format::Json { budget: 0, .. } => (Open::Text(CUT_JSON.into()), None),
            Format::Json { .. } => self.open_json(r)?,
            Format::Motoko(floats) => self.open_motoko(r, floats)?,
        };
        match open {
            Open::Text(text) => self.out.write_all(text.as_bytes())?,
            Open::Static(text) => self.out.write_all(text.as_bytes())?,
        }
        let Some((parts, addr, separator, close)) = frame else {
            self.leave(on_path);
            return Ok(None);
        };
        if let Format::Json { depth, .. } = &mut self.format {
            *depth += close.len();
        }
        Ok(Some(Frame {
            depth,
            addr,
            on_path,
            parts,
            written: 0,
            separator,
            close,
        }))
    }

    /// The one part of an option, variant or weak reference, read ahead (to choose how the
    /// node opens).
    fn one_part(
        &mut self,
        part: &mut Value,
        depth: u32,
        addr: Option<u64>,
    ) -> Result<Resolved, StreamError> {
        let part = std::mem::replace(part, Value::Unit);
        self.resolve(part, depth, addr)
    }

    /// A JSON node's opening and parts.
    fn open_json(&mut self, mut r: Resolved) -> Result<(Open, Option<FramePlan>), StreamError> {
        let Format::Json { depth, budget } = &mut self.format else {
            return Ok((Open::Static(""), None));
        };
        *budget -= 1;
        let capped = *depth >= MAX_JSON_DEPTH;
        let addr = r.peek().addr();
        let node = std::mem::replace(&mut r.node, Node::Value(Value::Unit));
        let mut v = match node {
            Node::Collection { walk, first, .. } => {
                if capped {
                    return Ok((Open::Static(DEEP_JSON), None));
                }
                let parts = Parts::Walk {
                    walk,
                    first,
                    plan: None,
                };
                return Ok((Open::Static("["), Some((parts, addr, ",", "]"))));
            }
            Node::Array { elements, .. } => {
                if capped {
                    return Ok((Open::Static(DEEP_JSON), None));
                }
                let parts = Parts::Elements { elements, next: 0 };
                return Ok((Open::Static("["), Some((parts, addr, ",", "]"))));
            }
            Node::Value(v) => v,
        };
        if capped && !matches!(v, Value::Opt { .. }) && opens_level(&(&v).shape()) {
            return Ok((Open::Static(DEEP_JSON), None));
        }
        let (open, plan) = match &mut v {
            Value::Opt { value, .. } => {
                let inner = self.one_part(value, r.depth, addr)?;
                let wrapped = some_wrapped(&inner.peek());
                if capped && (wrapped || opens_level(&inner.peek().shape())) {
                    self.leave(inner.on_path);
                    return Ok((Open::Static(DEEP_JSON), None));
                }
                let (open, close) = if wrapped {
                    ("{\"some\":", "}")
                } else {
                    ("", "")
                };
                (
                    Open::Static(open),
                    Some((Parts::One(Some(inner)), addr, "", close)),
                )
            }
            Value::Weak {
                target: Some(t), ..
            } => {
                let inner = self.one_part(t, r.depth, addr)?;
                let parts = Parts::One(Some(inner));
                (Open::Static("{\"weak\":"), Some((parts, addr, "", "}")))
            }
            Value::Variant { tag, payload, .. } => {
                let mut open = format!("{{{}:", json_string(&format!("#{tag}")));
                let inner = self.one_part(payload, r.depth, addr)?;
                let parts = if matches!(inner.node, Node::Value(Value::Unit)) {
                    self.leave(inner.on_path);
                    open.push_str("null");
                    Parts::One(None)
                } else {
                    Parts::One(Some(inner))
                };
                (Open::Text(open), Some((parts, addr, "", "}")))
            }
            Value::Record { fields, .. } => {
                let fields: Vec<_> = std::mem::take(fields)
                    .into_iter()
                    .map(|f| (f.label, f.value))
                    .collect();
                let parts = Parts::Fields(fields.into_iter());
                (Open::Static("{"), Some((parts, addr, ",", "}")))
            }
            Value::Tuple { items, .. } | Value::Array { items, .. } => {
                let parts = Parts::Items(std::mem::take(items).into_iter());
                (Open::Static("["), Some((parts, addr, ",", "]")))
            }
            Value::Closure {
                name,
                funid,
                captures,
                ..
            } => {
                let name = name.as_deref().map_or("null".to_string(), json_string);
                let mut funid_text = String::new();
                write_json_as(&Value::Nat64(*funid), &mut funid_text);
                let open = format!(
                    "{{\"closure\":{{\"function\":{name},\"funid\":{funid_text},\"captures\":["
                );
                let parts = Parts::Items(std::mem::take(captures).into_iter());
                (Open::Text(open), Some((parts, addr, ",", "]}}")))
            }
            leaf => {
                let mut text = String::new();
                write_json_as(&*leaf, &mut text);
                (Open::Text(text), None)
            }
        };
        Ok((open, plan))
    }

    /// A `debug_show` node's opening and parts.
    fn open_motoko(
        &mut self,
        mut r: Resolved,
        floats: FloatStyle,
    ) -> Result<(Open, Option<FramePlan>), StreamError> {
        let addr = r.peek().addr();
        let node = std::mem::replace(&mut r.node, Node::Value(Value::Unit));
        let mut v = match node {
            Node::Collection { walk, first, .. } => {
                let parts = Parts::Walk {
                    walk,
                    first,
                    plan: None,
                };
                return Ok((Open::Static("["), Some((parts, addr, ", ", "]"))));
            }
            Node::Array { shell, elements } => {
                let mutable = matches!(shell, Value::Array { mutable: true, .. });
                let open = match (mutable, elements.len == 0) {
                    (true, true) => "[var",
                    (true, false) => "[var ",
                    (false, _) => "[",
                };
                let parts = Parts::Elements { elements, next: 0 };
                return Ok((Open::Static(open), Some((parts, addr, ", ", "]"))));
            }
            Node::Value(v) => v,
        };
        let (open, plan) = match &mut v {
            Value::Opt { value, .. } => {
                let inner = self.one_part(value, r.depth, addr)?;
                let (open, close) = option_parens(&inner, floats);
                (
                    Open::Static(open),
                    Some((Parts::One(Some(inner)), addr, "", close)),
                )
            }
            Value::Weak {
                target: Some(t), ..
            } => {
                let inner = self.one_part(t, r.depth, addr)?;
                let (open, close) = option_parens(&inner, floats);
                let parts = Parts::One(Some(inner));
                (
                    Open::Text(format!("weak {open}")),
                    Some((parts, addr, "", close)),
                )
            }
            Value::Variant { tag, payload, .. } => {
                let inner = self.one_part(payload, r.depth, addr)?;
                if matches!(inner.node, Node::Value(Value::Unit)) {
                    self.leave(inner.on_path);
                    (
                        Open::Text(format!("#{tag}")),
                        Some((Parts::One(None), addr, "", "")),
                    )
                } else if opening(&inner.peek(), floats) != Opening::Paren {
                    let parts = Parts::One(Some(inner));
                    (Open::Text(format!("#{tag}(")), Some((parts, addr, "", ")")))
                } else {
                    let parts = Parts::One(Some(inner));
                    (Open::Text(format!("#{tag}")), Some((parts, addr, "", "")))
                }
            }
            Value::Record { fields, .. } => {
                let fields: Vec<_> = std::mem::take(fields)
                    .into_iter()
                    .map(|f| (f.label, f.value))
                    .collect();
                let parts = Parts::Fields(fields.into_iter());
                (Open::Static("{"), Some((parts, addr, "; ", "}")))
            }
            Value::Tuple { items, .. } => {
                let parts = Parts::Items(std::mem::take(items).into_iter());
                (Open::Static("("), Some((parts, addr, ", ", ")")))
            }
            Value::Array { mutable, items, .. } => {
                let open = match (*mutable, items.is_empty()) {
                    (true, true) => "[var",
                    (true, false) => "[var ",
                    (false, _) => "[",
                };
                let parts = Parts::Items(std::mem::take(items).into_iter());
                (Open::Static(open), Some((parts, addr, ", ", "]")))
            }
            leaf => {
                let mut text = String::new();
                write_debug_show_as(&*leaf, floats, &mut text);
                (Open::Text(text), None)
            }
        };
        Ok((open, plan))
    }
}

/// The plan for a map's entries in slots of type `slot_ty` when `K` and `V` are both leaves.
fn entry_plan(decoder: &Decoder<'_>, slot_ty: &Arc<Type>) -> Option<EntryPlan> {
    let (key, value) = map_slot_parts(slot_ty)?;
    Some(EntryPlan {
        slot_ty: slot_ty.clone(),
        key: leaf_prim_of(decoder, key)?,
        value: leaf_prim_of(decoder, value)?,
    })
}

/// How a node opens: a fixed text or one made for it.
enum Open {
    Static(&'static str),
    Text(String),
}

/// The parts of a node to write, its address, and how its parts are joined and closed.
type FramePlan = (Parts, Option<u64>, &'static str, &'static str);

/// `?x`'s parentheses: when `x`'s text starts with `+ - ? #`.
fn option_parens(inner: &Resolved, floats: FloatStyle) -> (&'static str, &'static str) {
    if opening(&inner.peek(), floats) == Opening::Sign {
        ("?(", ")")
    } else {
        ("?", "")
    }
}
